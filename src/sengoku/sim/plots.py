"""Plots of a run's results as PNG files (matplotlib, drawn with the Agg backend).

:func:`plot_results` draws from :func:`~sengoku.sim.stats.summarize_results` and the rows:

- ``seat_win_rates.png``: each seat's win rate with its 95% Wilson interval, and the even
  share 1/players as a dashed line; one panel per game and player count;
- ``agent_win_rates.png``: each agent's win rate per seat played, with its interval;
- ``scores.png``: box plots of each agent's final scores;
- ``lengths.png``: histograms of game lengths (actions per game).

No global state is touched: each figure has its own Agg canvas, so no display is needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sengoku.core import SengokuError

from .results import ResultRow
from .stats import scores_by_agent, summarize_results


class PlotError(SengokuError, RuntimeError):
    """Plots cannot be drawn: matplotlib is missing or the folder cannot be written."""


def _figure(width: float, height: float, panels: int = 1) -> tuple[Any, list[Any]]:
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotError(
            "plots need matplotlib, which is not installed: pip install -e '.[plots]'"
        ) from None
    figure = Figure(figsize=(width * panels, height), layout="constrained")
    FigureCanvasAgg(figure)
    axes = [figure.add_subplot(1, panels, number + 1) for number in range(panels)]
    return figure, axes


def _errors(rates: Sequence[dict[str, Any]]) -> list[list[float]]:
    return [
        [max(0.0, r["rate"] - r["low"]) for r in rates],
        [max(0.0, r["high"] - r["rate"]) for r in rates],
    ]


def _save(figure: Any, path: Path) -> Path:
    try:
        figure.savefig(path, dpi=110)
    except OSError as exc:
        raise PlotError(f"cannot write {path}: {exc.strerror}") from None
    return path


def plot_results(rows: Sequence[ResultRow], directory: Path) -> list[Path]:
    """Draw the four plots of ``rows`` into ``directory`` (made if missing); their paths."""
    data = summarize_results(rows)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PlotError(f"cannot make the folder {directory}: {exc.strerror}") from None
    written = []

    groups = data["seats"]
    figure, axes = _figure(4.5, 3.5, len(groups))
    for ax, group in zip(axes, groups, strict=True):
        rates = group["seats"]
        seats = [r["seat"] for r in rates]
        ax.bar(seats, [r["rate"] for r in rates], yerr=_errors(rates), capsize=4, color="#4a7ab8")
        ax.axhline(1.0 / group["players"], color="#444444", linestyle="--", linewidth=1)
        ax.set_xticks(seats)
        ax.set_xlabel("seat")
        ax.set_ylabel("win rate (95% Wilson interval)")
        ax.set_ylim(0, 1)
        ax.set_title(f"{group['game']}, {group['players']} players, {group['games']} games")
    written.append(_save(figure, directory / "seat_win_rates.png"))

    agents = data["agents"]
    names = list(agents)
    rates = [agents[name] for name in names]
    figure, [ax] = _figure(6, 0.6 * len(names) + 1.5)
    ax.barh(names, [r["rate"] for r in rates], xerr=_errors(rates), capsize=4, color="#c0504d")
    for position, rate in enumerate(rates):
        ax.plot([rate["expected"]] * 2, [position - 0.4, position + 0.4], "k--", linewidth=1)
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_xlabel("win rate per seat played (95% Wilson interval; dashed: even share)")
    written.append(_save(figure, directory / "agent_win_rates.png"))

    scores = scores_by_agent(rows)
    figure, [ax] = _figure(max(4.0, 1.2 * len(names) + 2), 3.5)
    ax.boxplot([scores[name] for name in names])
    ax.set_xticks(range(1, len(names) + 1), names)
    ax.set_ylabel("final score")
    ax.set_title("Scores per agent")
    written.append(_save(figure, directory / "scores.png"))

    lengths = data["lengths"]
    figure, axes = _figure(4.5, 3.5, len(lengths))
    for ax, group in zip(axes, lengths, strict=True):
        values = [
            r.length for r in rows if (r.game, r.players) == (group["game"], group["players"])
        ]
        ax.hist(values, bins=min(30, max(1, len(set(values)))), color="#9bbb59")
        ax.set_xlabel("actions per game")
        ax.set_ylabel("games")
        ax.set_title(f"{group['game']}, {group['players']} players: median {group['median']:g}")
    written.append(_save(figure, directory / "lengths.png"))
    return written


def plot_review(review: dict[str, Any], path: Path, names: Sequence[str]) -> Path:
    """Draw a review's win chance across the match (:meth:`sengoku.ai.advisor.Review.to_json`),
    one line per seat named by ``names``, its turning points marked; PNG or SVG by the
    file's suffix."""
    figure, (ax,) = _figure(8.0, 3.6)
    colours = ("#c0392b", "#2c6fbb", "#d4a017", "#7d3c98", "#333333")
    for seat in review["seats"]:
        s = seat["seat"]
        xs = [n for n, _ in seat["chart"]]
        ys = [100 * w for _, w in seat["chart"]]
        colour = colours[s % len(colours)]
        ax.plot(xs, ys, color=colour, linewidth=1.6, label=names[s], drawstyle="steps-post")
        turns = {t["number"] for t in seat["turning_points"]}
        marks = [(n, 100 * w) for n, w in seat["chart"] if n in turns]
        if marks:
            ax.scatter(*zip(*marks, strict=True), color=colour, s=28, zorder=3)
    ax.set_xlabel("action")
    ax.set_ylabel("chance to win (%)")
    ax.set_ylim(0, 100)
    ax.set_title(f"{review['game']}, {review['players']} players: win chance (search)")
    ax.legend(loc="upper left", fontsize="small")
    return _save(figure, path)

"""A plain-text rendering of a Shogun view for the terminal."""

from __future__ import annotations

from typing import Any

from .actions import BLANK, EMPTY, UNSET
from .data import ACTION_TITLES, load_data

_D = load_data()


def _entry(e: int | None) -> str:
    if e is None:
        return "?"
    if e == BLANK:
        return "blank"
    if e == EMPTY:
        return "empty"
    if e == UNSET:
        return "-"
    return _D.names[e]


def render(view: dict[str, Any]) -> str:
    """Render a seat's (or a spectator's) view as a few lines of text."""
    colours: list[str] = view["colours"]
    lines = [
        f"Shogun - year {view['year']}, {view['season']}, phase {view['phase']}",
    ]
    if view["event"] >= 0:
        lines.append(f"event: {_D.events[view['event']].effect}")
    order = ", ".join(ACTION_TITLES[a] for a in view["action_order"])
    lines.append(f"action cards: {order}")
    for p, name in enumerate(colours):
        provs = [
            f"{_D.names[i]}({view['armies'][i]})"
            for i in range(len(view["owner"]))
            if view["owner"][i] == p
        ]
        lines.append(
            f"{name}: {view['vp'][p]} VP, {view['money'][p]} chests, {view['rice'][p]} rice; "
            + " ".join(provs)
        )
        plan = view["plans"][p]
        if any(e is not None for e in plan):
            lines.append("   plan: " + ", ".join(_entry(e) for e in plan))
    return "\n".join(lines)

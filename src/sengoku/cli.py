"""The ``sengoku`` command: list games, play in the terminal, simulate, hold tournaments, sum up
results files, replay records, serve, and look after the server's accounts."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.json import JSON
from rich.markup import escape
from rich.padding import Padding
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

import sengoku
from sengoku.ai import make_agent
from sengoku.ai.advisor import REVIEW_ITERATIONS
from sengoku.collector import collector_tuned
from sengoku.core import (
    IllegalActionError,
    Match,
    Outcome,
    SengokuError,
    describe_options,
    get_game,
    options_from_pairs,
)
from sengoku.sim import run_games
from sengoku.sim.backends import BackendName
from sengoku.sim.results import (
    ResultRow,
    ResultsFileError,
    ResultsWriter,
    read_results,
    results_format,
)
from sengoku.sim.runner import GameResult, Summary, agent_seeds

app = typer.Typer(
    help="Sengoku: Shogun, Shitenno and Rising Sun with every rule enforced.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # click's plain help: no type placeholder after a flag ("--json <bool>"), and text in
    # square brackets ("'.[ray]'") printed as written, not read as rich markup
    rich_markup_mode=None,
)

OptionArg = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        help='A game option as NAME=VALUE (VALUE read as JSON if it can be: 3, true, "sun"); '
        "repeat for several. `sengoku games` lists them.",
    ),
]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"sengoku {sengoku.__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Sengoku: Shogun, Shitenno and Rising Sun with every rule enforced."""


def _fail(message: str) -> typer.Exit:
    Console(stderr=True).print(
        f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True
    )
    return typer.Exit(code=2)


def _options(pairs: list[str] | None) -> dict[str, Any]:
    try:
        return options_from_pairs(pairs or [])
    except SengokuError as exc:
        raise _fail(str(exc)) from None


BackendOption = Annotated[
    BackendName,
    typer.Option(
        "--backend",
        case_sensitive=False,
        help="Where games are played: local (processes on this machine) or ray (Ray tasks; "
        "pip install -e '.[ray]').",
    ),
]
AddressOption = Annotated[
    str | None,
    typer.Option(
        "--address",
        help="With --backend ray: the cluster to use, HOST:PORT of its head node or auto "
        "(the one `ray start` began here). Without it a Ray is started here and stopped at the "
        "end.",
    ),
]
JobsOption = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        "-j",
        min=0,
        help="Processes (local; default 1) or CPUs (ray; default all); 0 = all cores.",
    ),
]
OutOption = Annotated[
    Path | None,
    typer.Option(
        "--out",
        help="Write one row per game to this .jsonl or .parquet file (`sengoku stats` reads it).",
    ),
]
RecordsOption = Annotated[
    bool,
    typer.Option(
        "--records", help="Keep each game's whole record in --out (for `sengoku replay`)."
    ),
]


def _progress(quiet: bool) -> Progress:
    """The progress bar of a long run, on stderr."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=quiet,
        transient=True,
    )


def _agent_list(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


def _check_run_options(
    out: Path | None, records: bool, backend: BackendName, address: str | None
) -> None:
    """Refuse contradicting options before anything is played or started."""
    if records and out is None:
        raise _fail("--records keeps records in the --out file; give --out too")
    if address is not None and backend != BackendName.RAY:
        raise _fail("--address is for --backend ray; the local backend has none")
    if out is not None:
        try:
            results_format(out)
        except SengokuError as exc:
            raise _fail(str(exc)) from None


def _jobs(jobs: int | None, backend: BackendName) -> int:
    if jobs is not None:
        return jobs
    return 1 if backend == BackendName.LOCAL else 0


def _play_out(
    results: Iterator[GameResult],
    description: str,
    total: int,
    quiet: bool,
    out: Path | None,
    records: bool,
    game: str,
    options: dict[str, Any],
) -> Iterator[GameResult]:
    """Consume ``results`` with a progress bar, writing rows to ``out``; yield each result."""
    try:
        with _progress(quiet) as progress:
            task = progress.add_task(description, total=total)
            if out is None:
                for result in results:
                    yield result
                    progress.advance(task)
                return
            with ResultsWriter(out, records) as writer:
                for result in results:
                    writer.write(ResultRow.from_result(result, game, options))
                    yield result
                    progress.advance(task)
    except SengokuError as exc:
        raise _fail(str(exc)) from None


def _players(game: str, players: int | None) -> int:
    try:
        counts = get_game(game).player_counts
    except SengokuError as exc:
        raise _fail(str(exc)) from None
    return counts[0] if players is None else players


@app.command()
def games(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
    details: Annotated[
        bool, typer.Option("--details", help="Say what each option does, with its sources.")
    ] = False,
) -> None:
    """List the games with their player counts and options (one line each)."""
    listing: list[dict[str, Any]] = []
    for name in sengoku.available_games():
        game = get_game(name)
        listing.append(
            {
                "name": name,
                "title": game.title,
                "players": list(game.player_counts),
                "options": [o.to_json() for o in describe_options(game.options_type)],
            }
        )
    if as_json:
        typer.echo(json.dumps(listing, indent=2))
        return
    console = Console()
    if not listing:
        console.print("No games are registered.")
    for entry in listing:
        counts = ", ".join(map(str, entry["players"]))
        console.print(f"[bold]{entry['title']}[/] ([cyan]{entry['name']}[/]), players: {counts}")
        for option in entry["options"]:
            default = json.dumps(option["default"], ensure_ascii=False)
            line = f"  [bold]{option['name']}[/] = {default}"
            if details:
                line += f"  [dim]({_option_values(option['schema'])})[/]"
            console.print(line, highlight=False, overflow="ellipsis", no_wrap=not details)
            if details:
                console.print(Padding(option["description"], (0, 0, 0, 6)), highlight=False)
        console.print()
    if not details:
        console.print(
            "[dim]sengoku games --details: what each option does, its values and sources; "
            "-o NAME=VALUE sets one for play and simulate.[/]",
            highlight=False,
        )


def _option_values(schema: dict[str, Any]) -> str:
    """The values an option takes, in words: its choices, its range or its type."""
    if "enum" in schema:
        return " | ".join(map(str, schema["enum"]))
    if "minimum" in schema or "maximum" in schema:
        return f"{schema.get('minimum', '')}..{schema.get('maximum', '')}"
    return str(schema.get("type", ""))


def _outcome_table(match: Match, outcome: Outcome, agents: list[str] | None = None) -> Table:
    table = Table(title="Final result", title_justify="left")
    for column in ("place", "seat", "player", "score"):
        table.add_column(column)
    if agents:
        table.add_column("agent")
    for seat in outcome.ranking:
        row = [
            str(outcome.ranks[seat]),
            str(seat),
            match.game.seat_name(seat),
            f"{outcome.scores[seat]:g}",
        ]
        table.add_row(*row, *([agents[seat]] if agents else []))
    return table


def _board_text(match: Match, seat: int) -> str:
    """The seat's view as the game's text, or as JSON where the game has no text."""
    view = match.view(seat)
    text = match.game.render_text(view)
    return json.dumps(view, indent=1) if text is None else text


def _show_view(console: Console, match: Match, seat: int) -> None:
    view = match.view(seat)
    text = match.game.render_text(view)
    if text is None:
        console.print(JSON(json.dumps(view)))
    else:
        console.print(text, highlight=False)


class _Board:
    """The board as the human player last saw it, to show what changed since."""

    def __init__(self) -> None:
        self.last: list[str] | None = None

    def show(self, console: Console, match: Match, seat: int, whole: bool = False) -> None:
        """The whole board the first time (or when asked), else its first line and the lines
        that changed since the player last looked."""
        lines = _board_text(match, seat).splitlines()
        if whole or self.last is None:
            _show_view(console, match, seat)
        else:
            before = set(self.last)
            changed = [line for line in lines[1:] if line not in before]
            console.print(lines[0] if lines else "", highlight=False)
            if changed:
                console.print("[dim]changed since your last move:[/]")
                for line in changed:
                    console.print(line, highlight=False)
            else:
                console.print("[dim]nothing on the board changed since your last move[/]")
            console.print("[dim](b: the whole board)[/]")
        self.last = lines


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="The game, e.g. shitenno (see `sengoku games`).")],
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Number of players.")
    ] = None,
    seat: Annotated[int, typer.Option("--seat", "-s", help="Your seat (0-based).")] = 0,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help="Agent for the other seats: easy, normal, hard, random, heuristic or ismcts:N.",
        ),
    ] = "normal",
    seed: Annotated[int | None, typer.Option(help="Seed of the match (default: random).")] = None,
    option: OptionArg = None,
    save: Annotated[Path | None, typer.Option(help="Write the record here at the end.")] = None,
) -> None:
    """Play in the terminal against bots: your view, numbered legal actions and the log."""
    console = Console()
    count = _players(game, players)
    try:
        match = sengoku.new_match(game, count, seed=seed, options=_options(option))
        if not 0 <= seat < count:
            raise _fail(f"--seat must be between 0 and {count - 1}")
        seeds = agent_seeds(match.seed or 0, count)
        agents = {s: make_agent(bots, seeds[s]) for s in range(count) if s != seat}
    except SengokuError as exc:
        raise _fail(str(exc)) from None
    me = match.game.seat_name(seat)
    console.print(
        f"[bold]{match.game.title}[/], {count} players, seed {match.seed}. "
        f"You are {me} (seat {seat})."
    )
    shown = 0
    board = _Board()
    while match.outcome() is None:
        for line in match.log(seat, since=shown):
            console.print(f"  [dim]·[/] {line}", highlight=False)
        shown = match.log_length
        waiting = match.to_act()
        bot_seats = [s for s in waiting if s != seat]
        if bot_seats:
            s = bot_seats[0]
            bot = agents[s]
            with console.status(f"{match.game.seat_name(s)} is thinking..."):
                choice = bot.choose(
                    match.view(s) if bot.needs_view else None, match.legal_actions(s)
                )
            match.act(s, choice)
            continue
        if not _human_turn(console, match, seat, board):
            console.print("You left the game.")
            break
    else:
        for line in match.log(seat, since=shown):
            console.print(f"  [dim]·[/] {line}", highlight=False)
        outcome = match.outcome()
        assert outcome is not None
        console.print(_outcome_table(match, outcome))
    if save is not None:
        save.write_text(json.dumps(match.to_record(), indent=1))
        console.print(f"Record written to {save}.")


def _human_turn(console: Console, match: Match, seat: int, board: _Board) -> bool:
    """Ask for one action of ``seat``; ``False`` if the player quits."""
    board.show(console, match, seat)
    legal = match.legal_actions(seat)
    _print_choices(console, legal)
    while True:
        try:
            answer = console.input(
                "[bold]Your action[/] (number or notation, b for the board, q to quit): "
            )
        except EOFError:
            return False
        answer = answer.strip()
        if answer.lower() in {"q", "quit"}:
            return False
        if answer.lower() in {"b", "board"}:
            board.show(console, match, seat, whole=True)
            _print_choices(console, legal)  # the choices stay in sight under the board
            continue
        try:
            if answer.isdigit():
                if not 1 <= int(answer) <= len(legal):
                    raise IllegalActionError(seat, answer, f"choose 1 to {len(legal)}")
                match.act(seat, legal[int(answer) - 1])
            else:
                match.act(seat, answer)
            return True
        except IllegalActionError as exc:
            console.print(f"[red]{exc.reason}[/]", highlight=False)


def _print_choices(console: Console, legal: list[Any]) -> None:
    for number, action in enumerate(legal, 1):
        console.print(f"  [bold cyan]{number:>3}[/] {action}", highlight=False)


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="The game to simulate.")],
    n: Annotated[int, typer.Option("-n", "--games", min=1, help="Number of games.")] = 100,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Players per game.")
    ] = None,
    agents: Annotated[
        str,
        typer.Option(
            help="Comma-separated agent specs (random, heuristic, easy, normal, hard, "
            "ismcts:N), one per seat or one for all."
        ),
    ] = "random",
    seed: Annotated[int, typer.Option(min=0, help="Seed of game 0; game i uses seed+i.")] = 0,
    jobs: JobsOption = None,
    backend: BackendOption = BackendName.LOCAL,
    address: AddressOption = None,
    out: OutOption = None,
    records: RecordsOption = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    option: OptionArg = None,
) -> None:
    """Play many games between agents and sum up wins and scores per seat and per agent."""
    count = _players(game, players)
    specs = _agent_list(agents)
    if len(specs) == 1:
        specs *= count
    if len(specs) != count:
        raise _fail(f"--agents needs 1 or {count} specs, not {len(specs)}")
    _check_run_options(out, records, backend, address)
    options = _options(option)
    summary = Summary(count, tuple(specs))
    results = run_games(
        game,
        players=count,
        agents=specs,
        games=n,
        seed=seed,
        options=options,
        jobs=_jobs(jobs, backend),
        keep_records=records,
        backend=backend.value,
        address=address,
    )
    start = time.perf_counter()
    with collector_tuned():
        for result in _play_out(
            results, f"{game}: {n} games", n, as_json, out, records, game, options
        ):
            summary.add(result)
    summary.seconds = time.perf_counter() - start
    data = summary.to_json()
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    console = Console()
    seats = Table(
        title=f"{n} games of {game}, {count} players, seeds {seed}..{seed + n - 1}",
        title_justify="left",
    )
    for column in ("seat", "agent", "wins", "win rate", "mean score"):
        seats.add_column(column)
    for row in data["per_seat"]:
        seats.add_row(
            str(row["seat"]),
            row["agent"],
            f"{row['wins']:g}",
            f"{row['win_rate']:.1%}",
            f"{row['mean_score']:.2f}",
        )
    console.print(seats)
    per_agent = Table(title="Per agent", title_justify="left")
    for column in ("agent", "seats", "wins", "win rate per seat", "mean score"):
        per_agent.add_column(column)
    for spec, row in data["per_agent"].items():
        per_agent.add_row(
            spec,
            str(row["seats"]),
            f"{row['wins']:g}",
            f"{row['win_rate']:.1%}",
            f"{row['mean_score']:.2f}",
        )
    console.print(per_agent)
    console.print(
        f"{data['actions']} actions in {data['seconds']:.2f} s: "
        f"{data['actions_per_second'] or 0:,.0f} actions per second."
    )
    if out:
        kept = " with their records" if records else ""
        console.print(f"{n} result rows{kept} written to {out}.")


def _read_record(path: Path, index: int) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            parquet = handle.read(4) == b"PAR1"
        text = "" if parquet else path.read_text()
    except OSError as exc:
        raise _fail(f"cannot read {path}: {exc.strerror}") from None
    if parquet:
        try:
            rows = read_results(path)
        except ResultsFileError as exc:
            raise _fail(str(exc)) from None
        if not 0 <= index < len(rows):
            raise _fail(f"{path} holds {len(rows)} games; --index {index} is out of range")
        return _row_record(path, rows[index].to_json())
    lines = [line for line in text.splitlines() if line.strip()]
    try:
        if path.suffix == ".jsonl" or (
            len(lines) > 1 and lines[0].lstrip().startswith("{") and lines[0].rstrip().endswith("}")
        ):
            if not 0 <= index < len(lines):
                raise _fail(f"{path} holds {len(lines)} records; --index {index} is out of range")
            record = json.loads(lines[index])
        else:
            record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(f"{path} is not JSON: {exc}") from None
    if not isinstance(record, dict):
        raise _fail(f"{path} does not hold a record")
    return _row_record(path, record)


def _row_record(path: Path, data: dict[str, Any]) -> dict[str, Any]:
    """A record, or the record kept in a results row (``sengoku simulate --records``)."""
    if "scores" in data and "agents" in data and "actions" not in data:
        record = data.get("record")
        if not isinstance(record, dict):
            raise _fail(
                f"{path} holds result rows without their records; "
                "run sengoku simulate with --out and --records to keep them"
            )
        return record
    return data


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A record (.json) or a file of records (.jsonl).")],
    index: Annotated[int, typer.Option(help="Which record of a .jsonl file (0-based).")] = 0,
    seat: Annotated[
        int | None,
        typer.Option(help="Follow this seat's log and view (default: what a spectator sees)."),
    ] = None,
    step: Annotated[bool, typer.Option(help="Wait for Enter after each action.")] = False,
) -> None:
    """Step through a recorded match: every action, the log, and the result."""
    console = Console()
    record = _read_record(file, index)
    try:
        final = Match.from_record(record)
    except SengokuError as exc:
        raise _fail(str(exc)) from None
    if seat is not None and not 0 <= seat < final.players:
        raise _fail(f"--seat must be between 0 and {final.players - 1}")
    match = sengoku.new_match(final.game.name, final.players, final.seed, record["options"])
    console.print(
        f"[bold]{final.game.title}[/], {final.players} players, seed {final.seed}, "
        f"{len(record['actions'])} actions."
    )
    shown = 0
    for number, (actor, text) in enumerate(record["actions"], 1):
        match.act(actor, text)
        console.print(
            f"[bold cyan]{number:>4}[/] {match.game.seat_name(actor)}: {text}", highlight=False
        )
        for line in match.log(seat, since=shown):
            console.print(f"       [dim]·[/] {line}", highlight=False)
        shown = match.log_length
        if step:
            try:
                if console.input("[dim](Enter: next, q: stop)[/] ").strip().lower() == "q":
                    return
            except EOFError:
                return
    if seat is not None:
        _show_view(console, match, seat)
    outcome = match.outcome()
    if outcome is None:
        console.print("The record ends before the game does.")
    else:
        console.print(_outcome_table(match, outcome))


@app.command()
def review(
    file: Annotated[Path, typer.Argument(help="A record (.json) or a file of records (.jsonl).")],
    index: Annotated[int, typer.Option(help="Which record of a .jsonl file (0-based).")] = 0,
    out: Annotated[
        Path | None, typer.Option(help="Save the review as JSON (docs/protocol.md) here.")
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(help="Draw each seat's win chance across the match here (.png or .svg)."),
    ] = None,
    iterations: Annotated[
        int, typer.Option(min=1, help="The search's iterations per decision.")
    ] = REVIEW_ITERATIONS,
    jobs: Annotated[
        int, typer.Option(min=0, help="Processes to judge decisions in (0: one per core).")
    ] = 1,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
) -> None:
    """Review a finished match: every decision judged by hard's search from its seat's view,
    each seat's turning points, and how close its choices were to the search's."""
    from concurrent.futures import ProcessPoolExecutor

    from sengoku.ai.advisor import review as make_review

    console = Console()
    record = _read_record(file, index)
    try:
        final = Match.from_record(record)
    except SengokuError as exc:
        raise _fail(str(exc)) from None
    if final.outcome() is None:
        raise _fail(f"{file} holds a match that is not finished; only those can be reviewed")
    workers = jobs or os.cpu_count() or 1
    with _progress(quiet) as progress, contextlib.ExitStack() as stack:
        task = progress.add_task("reviewing", total=len(final.history))
        pool = stack.enter_context(ProcessPoolExecutor(workers)) if workers > 1 else None

        def mapper(judge: Any, tasks: Any) -> Iterator[Any]:
            results = pool.map(judge, tasks, chunksize=4) if pool is not None else map(judge, tasks)
            for judgement in results:
                progress.update(task, completed=judgement.number + 1)
                yield judgement

        result = make_review(final, iterations, mapper=mapper).to_json()
    names = [final.game.seat_name(s) for s in range(final.players)]
    if out is not None:
        try:
            out.write_text(json.dumps(result, indent=1) + "\n")
        except OSError as exc:
            raise _fail(f"cannot write {out}: {exc.strerror}") from None
    if plot is not None:
        from sengoku.sim.plots import PlotError, plot_review

        try:
            plot_review(result, plot, names)
        except PlotError as exc:
            raise _fail(str(exc)) from None
    console.print(_review_table(result, names))
    for seat in result["seats"]:
        console.print(f"[bold]{escape(names[seat['seat']])}[/]: turning points")
        for t in seat["turning_points"]:
            better = (
                "" if t["played"] == t["preferred"] else f"; the search preferred {t['preferred']}"
            )
            console.print(
                f"  action {t['number'] + 1}: win chance {t['before']:.0%} then {t['swing']:+.0%}"
                f" after {t['played']} (the choice cost {t['cost']:.0%}{better})",
                highlight=False,
            )


def _review_table(result: dict[str, Any], names: list[str]) -> Table:
    table = Table(title=f"Review ({result['iterations']} iterations per decision)")
    for column in ("seat", "decisions", "the search's choice", "win chance given away", "mistakes"):
        table.add_column(column, justify="left" if column == "seat" else "right")
    for seat in result["seats"]:
        s = seat["summary"]
        winner = " (won)" if seat["seat"] in result["winners"] else ""
        table.add_row(
            escape(names[seat["seat"]]) + winner,
            str(s["decisions"]),
            "-" if s["agreed"] is None else f"{s['agreed']:.0%}",
            "-" if s["mean_cost"] is None else f"{s['mean_cost']:.1%} a decision",
            str(s["mistakes"]),
        )
    return table


@app.command()
def tournament(
    game: Annotated[str, typer.Argument(help="The game to play.")],
    agents: Annotated[
        str,
        typer.Option(
            help="Comma-separated agent specs, at least as many as --players, each once "
            "(random, heuristic, easy, normal, hard, ismcts:N)."
        ),
    ],
    n: Annotated[
        int,
        typer.Option(
            "-n", "--games", min=1, help="Games per pairing (a combination in one seat order)."
        ),
    ] = 10,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Players per game.")
    ] = None,
    seed: Annotated[
        int, typer.Option(min=0, help="Seed of the first game; game i uses seed+i.")
    ] = 0,
    jobs: JobsOption = None,
    backend: BackendOption = BackendName.LOCAL,
    address: AddressOption = None,
    out: OutOption = None,
    records: RecordsOption = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the standings as JSON.")] = False,
    option: OptionArg = None,
) -> None:
    """A seat-rotated round robin: every combination of --players agents in every rotation
    of the seats, rated with OpenSkill (Plackett-Luce)."""
    from sengoku.sim.tournament import Ratings, pairings, run_tournament, tournament_summary

    count = _players(game, players)
    specs = _agent_list(agents)
    _check_run_options(out, records, backend, address)
    options = _options(option)
    try:
        orders = pairings(specs, count)
        ratings = Ratings(specs, count)
    except SengokuError as exc:
        raise _fail(str(exc)) from None
    total = len(orders) * n
    results = run_tournament(
        game,
        players=count,
        agents=specs,
        games=n,
        seed=seed,
        options=options,
        jobs=_jobs(jobs, backend),
        keep_records=records,
        backend=backend.value,
        address=address,
    )
    description = f"{game}: {len(orders)} pairings x {n} games"
    with collector_tuned():
        for result in _play_out(results, description, total, as_json, out, records, game, options):
            ratings.add(result)
    data = tournament_summary(ratings, game, specs, count, n, seed)
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    table = Table(
        title=f"Tournament of {game}, {count} players: {len(specs)} agents, {len(orders)} "
        f"pairings x {n} games = {total} games, seeds {seed}..{seed + total - 1}",
        title_justify="left",
    )
    table.add_column("#")
    table.add_column("agent", no_wrap=True, min_width=max(len(a) for a in specs))
    for column in ("ordinal", "mu", "sigma", "wins", "win rate"):
        table.add_column(column, justify="right")
    table.add_column("95% interval", justify="right", no_wrap=True, min_width=11)
    for place, row in enumerate(data["standings"], 1):
        table.add_row(
            str(place),
            row["agent"],
            f"{row['ordinal']:.2f}",
            f"{row['mu']:.2f}",
            f"{row['sigma']:.2f}",
            f"{row['wins']:g}/{row['games']}",
            f"{row['win_rate']:.1%}",
            _interval(row["low"], row["high"]),
        )
    console = Console()
    console.print(table)
    console.print(
        "OpenSkill Plackett-Luce ratings from each game's ranks; ordinal = mu - 3 sigma. "
        "Every agent sat in every seat equally often.",
        highlight=False,
    )
    if out:
        console.print(f"{total} result rows written to {out}.")


def _interval(low: float, high: float) -> str:
    return f"{100 * low:.1f}-{100 * high:.1f}%"


def _distribution_columns(table: Table) -> None:
    for column in ("n", "mean", "sd", "min", "q1", "median", "q3", "max"):
        table.add_column(column, justify="right")


def _distribution_cells(d: dict[str, Any]) -> list[str]:
    return [
        str(d["count"]),
        *(f"{d[k]:.2f}" for k in ("mean", "sd")),
        *(f"{d[k]:g}" for k in ("min", "q1", "median", "q3", "max")),
    ]


def _rate_cells(r: dict[str, Any]) -> list[str]:
    return [
        f"{r['wins']:g}",
        str(r["games"]),
        f"{r['rate']:.1%}",
        _interval(r["low"], r["high"]),
        f"{r['expected']:.1%}",
        "[bold yellow]yes[/]" if r["departs"] else "no",
    ]


@app.command()
def stats(
    file: Annotated[
        Path, typer.Argument(help="A results file (.jsonl or .parquet) of simulate or tournament.")
    ],
    plot: Annotated[
        Path | None, typer.Option(help="Draw PNG plots into this folder (made if missing).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Sum up a results file: seat advantage, win rates per agent with 95% Wilson intervals,
    score and game length distributions; --plot draws them."""
    from sengoku.sim.stats import summarize_results

    try:
        rows = read_results(file)
    except ResultsFileError as exc:
        raise _fail(str(exc)) from None
    if not rows:
        raise _fail(f"{file} holds no games")
    data = summarize_results(rows)
    if plot is not None:
        from sengoku.sim.plots import plot_results

        try:
            data["plots"] = [str(path) for path in plot_results(rows, plot)]
        except SengokuError as exc:
            raise _fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    console = Console()
    console.print(f"[bold]{data['games']}[/] games in {file}.", highlight=False, soft_wrap=True)
    rate_columns = ("wins", "games", "win rate", "95% interval", "even share", "departs")
    for group in data["seats"]:
        seats = Table(
            title=f"Seat advantage: {group['game']}, {group['players']} players, "
            f"{group['games']} games",
            title_justify="left",
        )
        seats.add_column("seat")
        for column in rate_columns:
            seats.add_column(column, justify="right")
        for row in group["seats"]:
            seats.add_row(str(row["seat"]), *_rate_cells(row))
        console.print(seats)
    agents = Table(title="Win rate per agent (per seat played)", title_justify="left")
    agents.add_column("agent")
    for column in rate_columns:
        agents.add_column(column.replace("games", "seats"), justify="right")
    for agent, row in data["agents"].items():
        agents.add_row(agent, *_rate_cells(row))
    console.print(agents)
    scores = Table(title="Final scores per agent", title_justify="left")
    scores.add_column("agent")
    _distribution_columns(scores)
    for agent, row in data["agents"].items():
        scores.add_row(agent, *_distribution_cells(row["scores"]))
    console.print(scores)
    lengths = Table(title="Game length (actions per game)", title_justify="left")
    lengths.add_column("game, players")
    _distribution_columns(lengths)
    for row in data["lengths"]:
        lengths.add_row(f"{row['game']}, {row['players']}", *_distribution_cells(row))
    console.print(lengths)
    console.print(
        "A shared win counts as a share for each winner. departs: the even share lies outside "
        "the 95% Wilson interval.",
        highlight=False,
    )
    for path in data.get("plots", []):
        console.print(f"Plot written to {path}", highlight=False, soft_wrap=True)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every interface).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="Database URL: sqlite:///PATH or postgresql://USER@HOST/DB "
            "(default: SENGOKU_DB, else an SQLite file in your data directory)."
        ),
    ] = None,
    bot_workers: Annotated[
        int, typer.Option(help="Processes bots think in (0: one per core).")
    ] = 0,
    messages_per_second: Annotated[
        float, typer.Option(help="Each WebSocket's rate limit (messages a second, on average).")
    ] = 20.0,
    matches_per_minute: Annotated[
        int, typer.Option(help="New matches one address may create per minute.")
    ] = 30,
    spectators_per_match: Annotated[
        int, typer.Option(help="Spectators one match takes at once.")
    ] = 256,
    connections_per_seat: Annotated[
        int, typer.Option(help="Connections one seat of a match takes at once.")
    ] = 8,
    max_connections: Annotated[
        int, typer.Option(help="WebSocket connections the server takes at once, in all.")
    ] = 10_000,
    connections_per_address: Annotated[
        int, typer.Option(help="WebSocket connections one address may have open at once.")
    ] = 256,
    idle_seconds: Annotated[
        float,
        typer.Option(
            min=0,
            help="Seconds a running match with nobody connected, no bot to move and no turn "
            "clock running stays in memory (0: always); it is replayed when asked for again.",
        ),
    ] = 600.0,
    finished_cache: Annotated[
        int,
        typer.Option(
            min=0, help="Finished matches nobody watches kept in memory, the latest asked for."
        ),
    ] = 256,
    abandon_idle_days: Annotated[
        float,
        typer.Option(
            min=0,
            help="Days without a move after which a running match is abandoned: it leaves the "
            "lobby's running list and takes no more moves (0: never).",
        ),
    ] = 14.0,
    open_tables_per_player: Annotated[
        int,
        typer.Option(min=1, help="Open tables (not started yet) one account may host at once."),
    ] = 3,
    sign_ins_per_minute: Annotated[
        int, typer.Option(min=1, help="Sign-in attempts one address may make a minute.")
    ] = 10,
    sign_ups_per_hour: Annotated[
        int, typer.Option(min=1, help="Accounts one address may make in an hour.")
    ] = 10,
    review_workers: Annotated[
        int,
        typer.Option(
            min=1, help="Processes the reviews of finished matches are made in (apart from bots)."
        ),
    ] = 1,
    review_iterations: Annotated[
        int,
        typer.Option(
            min=0,
            help="The search's iterations per decision in a review (0: no reviews are made).",
        ),
    ] = REVIEW_ITERATIONS,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="A reverse proxy (address or network) whose X-Forwarded-For is believed "
            "for rate limits; repeat for several (default: none, the header is ignored)."
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The server's address as people reach it, for join links "
            "(default: the request's Host header)."
        ),
    ] = None,
    ws_compression: Annotated[
        bool,
        typer.Option(
            help="Compress WebSocket messages (permessage-deflate) for clients that offer it: "
            "fewer bytes on the network, some server CPU per message (docs/performance.md)."
        ),
    ] = True,
    processes: Annotated[
        int,
        typer.Option(
            min=1,
            help="Server processes to start, with HAProxy in front of them at --host and --port "
            "(they listen on the ports after it); more than 1 needs --db postgresql://... "
            "(docs/deploy.md).",
        ),
    ] = 1,
    process_name: Annotated[
        str | None,
        typer.Option(
            help="On PostgreSQL, the name the reverse proxy routes this process by (?at=NAME; "
            "default: p and the process id); see docs/deploy.md."
        ),
    ] = None,
    owner_lease: Annotated[
        float,
        typer.Option(
            min=0.5,
            help="On PostgreSQL, seconds after which the other processes take over the matches "
            "of a process that stopped answering.",
        ),
    ] = 3.0,
) -> None:
    """Run the game server: the lobby and the games in the browser, the HTTP/WebSocket API."""
    try:
        import uvicorn  # noqa: F401  (checked here, for the hint below)

        from sengoku.server import ServerSettings, create_app, default_database_url
        from sengoku.server.app import run
    except ImportError as exc:
        raise _fail(
            f"the server needs its extras ({exc.name} is missing): pip install -e '.[server]'"
        ) from None
    url = default_database_url(db)
    settings = ServerSettings(
        database_url=url,
        bot_workers=bot_workers,
        messages_per_second=messages_per_second,
        message_burst=max(1, int(2 * messages_per_second)),
        matches_per_minute=matches_per_minute,
        spectators_per_match=spectators_per_match,
        connections_per_seat=connections_per_seat,
        max_connections=max_connections,
        connections_per_address=connections_per_address,
        idle_seconds=idle_seconds,
        finished_cache=finished_cache,
        abandon_idle_days=abandon_idle_days,
        open_tables_per_player=open_tables_per_player,
        sign_ins_per_minute=sign_ins_per_minute,
        sign_ups_per_hour=sign_ups_per_hour,
        review_workers=review_workers,
        review_iterations=review_iterations,
        public_url=public_url or "",
        trusted_proxies=tuple(trusted_proxy or ()),
        process_name=process_name or "",
        process_address=f"{host}:{port}",
        owner_lease=owner_lease,
    )
    if processes > 1:
        _serve_group(settings, processes, host, port, ws_compression)
        return
    try:
        application = create_app(settings)
    except ImportError as exc:  # a postgresql:// URL without psycopg: the message says what to do
        raise _fail(str(exc)) from None
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    typer.echo(
        f"Sengoku {sengoku.__version__}: open http://{shown}:{port}/  (database: {_safe_url(url)})"
    )
    run(application, settings, host, port, ws_compression)


def _serve_group(settings: Any, processes: int, host: str, port: int, ws_compression: bool) -> None:
    """``sengoku serve --processes N``: N processes behind HAProxy (``server/proxy.py``)."""
    from sengoku.server.app import exit_on_signal
    from sengoku.server.proxy import ProcessGroup

    try:
        group = ProcessGroup(settings, processes, host, port, port + 1, ws_compression)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    typer.echo(
        f"Sengoku {sengoku.__version__}: open http://{shown}:{port}/  ({processes} processes on "
        f"ports {port + 1}-{port + processes} behind HAProxy; database: "
        f"{_safe_url(settings.database_url)})"
    )
    signal.signal(signal.SIGTERM, exit_on_signal)
    group.start()
    try:
        group.watch()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        group.stop()


accounts_app = typer.Typer(
    help="The server's accounts, for its host: list them, reset a password, lock or unlock one.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(accounts_app, name="accounts")

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="The server's database (default: SENGOKU_DB, else the SQLite file that "
        "`sengoku serve` uses).",
    ),
]


def _accounts(db: str | None) -> Any:
    """The accounts of the server's database (migrated to the newest schema first)."""
    try:
        from sengoku.server import default_database_url
        from sengoku.server.accounts import Accounts
        from sengoku.server.store import Store
    except ImportError as exc:
        raise _fail(
            f"accounts need the server's extras ({exc.name} is missing): pip install -e '.[server]'"
        ) from None
    try:
        store = Store(default_database_url(db))
    except ImportError as exc:
        raise _fail(str(exc)) from None
    store.migrate()
    return Accounts(store, 0, 0)


def _account_call(call: Any) -> None:
    from sengoku.server.errors import ApiError

    try:
        call()
    except ApiError as exc:
        raise _fail(exc.message) from None


@accounts_app.command("list")
def accounts_list(db: DbOption = None) -> None:
    """Every player's account: name, display name, language, when made, whether locked."""
    table = Table("name", "display name", "language", "created", "locked")
    for account, locked in _accounts(db).people():
        table.add_row(
            escape(account.name),
            escape(account.display_name),
            account.language,
            account.created_at,
            "locked" if locked else "",
        )
    Console().print(table)


@accounts_app.command("reset-password")
def accounts_reset_password(
    name: Annotated[str, typer.Argument(help="The account's name.")],
    db: DbOption = None,
    password_stdin: Annotated[
        bool,
        typer.Option(help="Read the new password from standard input (else one is made up)."),
    ] = False,
) -> None:
    """Give a player a new password (they forgot theirs): every session of theirs ends. Prints
    the made-up password once, to hand to the player."""
    import secrets
    import sys

    password = sys.stdin.readline().rstrip("\n") if password_stdin else secrets.token_urlsafe(12)
    _account_call(lambda: _accounts(db).reset_password(name, password))
    if password_stdin:
        typer.echo(f"The password of {name} is changed; their sessions have ended.")
    else:
        typer.echo(f"The new password of {name} is: {password}")


@accounts_app.command("lock")
def accounts_lock(
    name: Annotated[str, typer.Argument(help="The account's name.")], db: DbOption = None
) -> None:
    """Lock an account: it cannot sign in, and its sessions end (its matches stay)."""
    _account_call(lambda: _accounts(db).set_locked(name, True))
    typer.echo(f"{name} is locked.")


@accounts_app.command("unlock")
def accounts_unlock(
    name: Annotated[str, typer.Argument(help="The account's name.")], db: DbOption = None
) -> None:
    """Unlock an account: it can sign in again."""
    _account_call(lambda: _accounts(db).set_locked(name, False))
    typer.echo(f"{name} is unlocked.")


def _safe_url(url: str) -> str:
    """A database URL without its password, to print."""
    head, sep, tail = url.partition("://")
    if "@" in tail and ":" in tail.split("@", 1)[0]:
        user = tail.split("@", 1)[0].split(":", 1)[0]
        return f"{head}{sep}{user}:***@{tail.split('@', 1)[1]}"
    return url

"""Results files: one row per game, as JSON Lines (``.jsonl``) or Parquet (``.parquet``).

Every row has the columns of :data:`COLUMNS`; ``record`` only when records were asked for.
In JSON Lines ``options`` and ``record`` are JSON objects; in Parquet they are JSON text
(``json.loads`` turns them back into objects), and the lists are list columns.

>>> import tempfile, pathlib
>>> from sengoku.sim import run_games
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
>>> with ResultsWriter(path) as out:
...     agents = ["random", "heuristic"]
...     for result in run_games("shitenno", players=2, agents=agents, games=3, seed=5):
...         out.write(ResultRow.from_result(result, "shitenno", {}))
>>> rows = read_results(path)
>>> [(row.index, row.seed, row.agents) for row in rows][0]
(0, 5, ('random', 'heuristic'))
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Self

import msgspec

from sengoku.core import SengokuError

from .runner import GameResult

COLUMNS: dict[str, str] = {
    "index": "the game's number in its run (0, 1, ...)",
    "seed": "the match seed (the run's seed plus index)",
    "game": "the game's name",
    "players": "number of players",
    "options": "the game options given to the run (JSON; defaults left out)",
    "agents": "the agent spec of each seat, seat 0 first",
    "scores": "each seat's final score",
    "ranks": "each seat's place, 1 = first; tied seats share a place",
    "winners": "the seats in first place (more than one on a tie the rules leave)",
    "length": "the number of actions in the game",
    "record": "the whole record (JSON; only with --records), for sengoku replay",
}
"""Each column of a results file, with what it holds."""

FORMATS = (".jsonl", ".parquet")
"""The file name endings a results file may have."""

_PARQUET_MAGIC = b"PAR1"
_BATCH = 2048


class ResultsFileError(SengokuError, ValueError):
    """A results file that cannot be written or read: a wrong name, or not such a file."""


@dataclass(frozen=True)
class ResultRow:
    """One game of a results file."""

    index: int
    seed: int
    game: str
    players: int
    options: dict[str, Any]
    agents: tuple[str, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    length: int
    record: dict[str, Any] | None = None

    @classmethod
    def from_result(cls, result: GameResult, game: str, options: Mapping[str, Any]) -> ResultRow:
        """The row of a played game (with its record if the run kept it)."""
        outcome = result.outcome
        return cls(
            result.index,
            result.seed,
            game,
            len(outcome.scores),
            dict(options),
            result.agents,
            outcome.scores,
            outcome.ranks,
            outcome.winners,
            result.actions,
            result.record,
        )

    def to_json(self, records: bool = True) -> dict[str, Any]:
        """The row as JSON-ready data (one line of a ``.jsonl`` file)."""
        data: dict[str, Any] = {
            "index": self.index,
            "seed": self.seed,
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "agents": list(self.agents),
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "length": self.length,
        }
        if records:
            data["record"] = self.record
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ResultRow:
        """Read a row back; ``options`` and ``record`` may be objects or JSON text."""
        missing = [name for name in COLUMNS if name != "record" and name not in data]
        if missing:
            raise ResultsFileError(f"a result row lacks the columns {', '.join(missing)}")
        options, record = _loaded(data["options"]), _loaded(data.get("record"))
        if not isinstance(options, dict) or not (record is None or isinstance(record, dict)):
            raise ResultsFileError("a result row's options and record are JSON objects")
        try:
            row = cls(
                int(data["index"]),
                int(data["seed"]),
                str(data["game"]),
                int(data["players"]),
                options,
                tuple(str(a) for a in data["agents"]),
                tuple(float(s) for s in data["scores"]),
                tuple(int(r) for r in data["ranks"]),
                tuple(int(w) for w in data["winners"]),
                int(data["length"]),
                record,
            )
        except (TypeError, ValueError) as exc:
            raise ResultsFileError(f"a result row has a value of the wrong type: {exc}") from None
        n = row.players
        if n < 1 or not len(row.agents) == len(row.scores) == len(row.ranks) == n:
            raise ResultsFileError(
                f"game {row.index}: {n} players need {n} agents, scores and ranks"
            )
        if not row.winners or not all(0 <= w < n for w in row.winners):
            raise ResultsFileError(f"game {row.index}: winners must be seats 0..{n - 1}")
        if not all(1 <= r <= n for r in row.ranks):
            raise ResultsFileError(f"game {row.index}: ranks must be places 1..{n}")
        return row


def _loaded(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def results_format(path: Path) -> str:
    """The format a results file named ``path`` is written in, from its ending.

    >>> results_format(Path("runs/a.parquet")), results_format(Path("a.jsonl"))
    ('.parquet', '.jsonl')
    >>> results_format(Path("a.csv"))
    Traceback (most recent call last):
    ...
    sengoku.sim.results.ResultsFileError: a results file ends in .jsonl or .parquet, not 'a.csv'
    """
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise ResultsFileError(f"a results file ends in {' or '.join(FORMATS)}, not {path.name!r}")
    return suffix


def _import_pyarrow() -> tuple[Any, Any]:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise ResultsFileError(
            "Parquet files need pyarrow, which is not installed: pip install -e '.[parquet]'"
        ) from None
    return pyarrow, pyarrow.parquet


def _parquet_schema(pa: Any, records: bool) -> Any:
    fields = [
        ("index", pa.int64()),
        ("seed", pa.int64()),
        ("game", pa.string()),
        ("players", pa.int64()),
        ("options", pa.string()),
        ("agents", pa.list_(pa.string())),
        ("scores", pa.list_(pa.float64())),
        ("ranks", pa.list_(pa.int64())),
        ("winners", pa.list_(pa.int64())),
        ("length", pa.int64()),
    ]
    if records:
        fields.append(("record", pa.string()))
    return pa.schema(fields)


class ResultsWriter:
    """Writes rows to a ``.jsonl`` or ``.parquet`` file as they come; use it with ``with``.

    ``records``: whether the ``record`` column is written (rows must then carry records).
    The rows go to ``FILE.partial`` first, which becomes ``FILE`` only when the ``with``
    block ends without an error: a run that fails (bad input, a crash, Ctrl-C) leaves an
    earlier ``FILE`` as it was.
    """

    def __init__(self, path: str | os.PathLike[str], records: bool = False) -> None:
        self.path = path = Path(path)
        self._partial = path.with_name(path.name + ".partial")
        self.records = records
        self.format = results_format(path)
        self._jsonl: IO[bytes] | None = None
        self._parquet: Any = None
        self._schema: Any = None
        self._pa: Any = None
        self._batch: list[dict[str, Any]] = []
        self.rows = 0

    def __enter__(self) -> Self:
        try:
            if self.format == ".jsonl":
                self._jsonl = self._partial.open("wb")
            else:
                pa, pq = _import_pyarrow()
                self._pa = pa
                self._schema = _parquet_schema(pa, self.records)
                self._parquet = pq.ParquetWriter(str(self._partial), self._schema)
        except OSError as exc:
            raise ResultsFileError(f"cannot write {self.path}: {exc.strerror}") from None
        return self

    def write(self, row: ResultRow) -> None:
        """Add one row."""
        if self.records and row.record is None:
            raise ResultsFileError("this writer keeps records, and a row came without one")
        data = row.to_json(self.records)
        self.rows += 1
        if self._jsonl is not None:
            self._jsonl.write(msgspec.json.encode(data) + b"\n")
            return
        data["options"] = msgspec.json.encode(data["options"], order="sorted").decode()
        if self.records:
            data["record"] = msgspec.json.encode(data["record"]).decode()
        self._batch.append(data)
        if len(self._batch) >= _BATCH:
            self._flush()

    def _flush(self) -> None:
        if self._batch:
            table = self._pa.Table.from_pylist(self._batch, schema=self._schema)
            self._parquet.write_table(table)
            self._batch = []

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._jsonl is not None:
            self._jsonl.close()
            self._jsonl = None
        if self._parquet is not None:
            if error is None:
                self._flush()
            self._parquet.close()
            self._parquet = None
        if error is None:
            self._partial.replace(self.path)
        else:
            self._partial.unlink(missing_ok=True)


def write_results(
    path: str | os.PathLike[str], rows: Sequence[ResultRow], records: bool = False
) -> None:
    """Write ``rows`` to ``path`` (``.jsonl`` or ``.parquet``; a ``str`` or a path) in one go."""
    with ResultsWriter(path, records) as out:
        for row in rows:
            out.write(row)


def read_results(path: str | os.PathLike[str]) -> list[ResultRow]:
    """Every row of a results file, JSON Lines or Parquet (told apart by content; ``path`` a
    ``str`` or a path)."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            head = handle.read(4)
    except OSError as exc:
        raise ResultsFileError(f"cannot read {path}: {exc.strerror}") from None
    if head == _PARQUET_MAGIC:
        _, pq = _import_pyarrow()
        try:
            data = pq.read_table(str(path)).to_pylist()
        except Exception as exc:  # pyarrow raises its own many kinds
            raise ResultsFileError(f"{path} is not a readable Parquet file: {exc}") from None
        return [ResultRow.from_json(item) for item in data]
    rows = []
    with path.open("rb") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                data = msgspec.json.decode(line)
            except msgspec.DecodeError:
                raise ResultsFileError(
                    f"{path} is neither Parquet nor JSON Lines (line {number} is not JSON)"
                ) from None
            if not isinstance(data, dict):
                raise ResultsFileError(f"{path}, line {number}: a result row is a JSON object")
            try:
                rows.append(ResultRow.from_json(data))
            except ResultsFileError as exc:
                raise ResultsFileError(f"{path}, line {number}: {exc}") from None
    return rows

"""A game's tutorial: a scripted match that teaches one idea per step (docs/ui.md, *Learn to play*).

A tutorial is data beside its game, in ``games/<game>/data/tutorial/``:

- ``script.json``: the match (``players``, ``seed``, ``options``), the learner's ``seat``, every
  seat's ``moves`` in order as ``[seat, notation]`` (the opponents' moves are the script), and
  the ``steps``. A step shows once the first ``at`` moves are played. A ``do`` step asks the
  learner for ``moves[at]`` and the learner's moves right after it, up to the next step or
  another seat's move (a war's four secret bids, sent together), and accepts only those, in
  order; any other step is read and passed with "Next", and the moves up to the next step
  are played (the learner's too: "we play these for you"). ``anchor`` names the part of the
  page the text speaks about (a part of the match page, ``board``, ``choices``, ``players``,
  ``log`` or ``scores``, or ``key:value``, the board's element marked ``data-key="value"``, such as
  ``map-province:kyoto``). ``state`` holds facts of the learner's view that the text states,
  as dotted paths (``"phase": "war"``, ``"vp.0": 12``); they are checked.
- ``en.json``, ``ja.json``, ``zh.json``, ``nl.json``: each step's text by its ``id``.

:func:`load_tutorial` reads and checks it: every move is legal when it is played, every
``do`` step's move is the learner's, every fact holds, and every language has a text for
every step and no other. A tutorial that fails a check does not load.

>>> from sengoku.core import get_game
>>> tutorial = get_game("shitenno").tutorial()
>>> tutorial.players, tutorial.seat, sorted(tutorial.texts)
(3, 0, ['en', 'ja', 'nl', 'zh'])
>>> all(tutorial.moves[s.at][0] == tutorial.seat for s in tutorial.steps if s.do)
True
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any

import msgspec

from .errors import SengokuError

if TYPE_CHECKING:
    from .game import Game
    from .match import Match

__all__ = ["LANGUAGES", "Step", "Tutorial", "TutorialError", "load_tutorial", "read_tutorial"]

#: The languages every tutorial speaks (those of the browser UI).
LANGUAGES = ("en", "ja", "zh", "nl")

_MISSING = object()


class TutorialError(SengokuError):
    """A tutorial's data is malformed, or its script does not play as it says."""


class Step(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One step: shown after the first ``at`` moves; ``do``: the learner makes ``moves[at]``."""

    id: str
    at: int
    do: bool = False
    anchor: str = "board"
    state: dict[str, Any] = {}


class Script(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``script.json`` as it is written."""

    players: int
    seed: int
    moves: list[tuple[int, str]]
    steps: list[Step]
    options: dict[str, Any] = {}
    seat: int = 0


class Tutorial(msgspec.Struct, frozen=True):
    """A game's tutorial, checked: its script and its texts by language and step id."""

    game: str
    players: int
    seed: int
    options: dict[str, Any]
    seat: int
    moves: list[tuple[int, str]]
    steps: list[Step]
    texts: dict[str, dict[str, str]]

    def match(self, moves: int = 0) -> Match:
        """The tutorial's match after its first ``moves`` moves."""
        from .match import new_match

        match = new_match(self.game, self.players, seed=self.seed, options=self.options)
        for seat, notation in self.moves[:moves]:
            match.act(seat, notation)
        return match

    def to_json(self) -> dict[str, Any]:
        """What a page needs to show the tutorial, without its moves (it asks for each step's
        position: docs/protocol.md, ``GET /api/tutorials/{game}``)."""
        return {
            "game": self.game,
            "players": self.players,
            "seat": self.seat,
            "steps": [{"id": s.id, "at": s.at, "do": s.do, "anchor": s.anchor} for s in self.steps],
            "texts": self.texts,
        }


def read_tutorial(game: Game[Any, Any], folder: Traversable) -> Tutorial | None:
    """The tutorial in ``folder`` (``script.json`` and a text file per language), checked;
    ``None`` when the folder has no script."""
    script_file = folder.joinpath("script.json")
    if not script_file.is_file():
        return None
    try:
        script = msgspec.json.decode(script_file.read_bytes(), type=Script)
        texts = {
            language: msgspec.json.decode(
                folder.joinpath(f"{language}.json").read_bytes(), type=dict[str, str]
            )
            for language in LANGUAGES
        }
    except (OSError, msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise TutorialError(f"{game.name}'s tutorial: {exc}") from exc
    tutorial = Tutorial(
        game.name,
        script.players,
        script.seed,
        script.options,
        script.seat,
        script.moves,
        script.steps,
        texts,
    )
    check_tutorial(tutorial)
    return tutorial


@functools.cache
def load_tutorial(game: Game[Any, Any]) -> Tutorial | None:
    """The tutorial beside ``game``'s package (``data/tutorial/``), checked; ``None`` if it
    has none."""
    package = type(game).__module__.rpartition(".")[0]
    return read_tutorial(game, resources.files(package).joinpath("data", "tutorial"))


def check_tutorial(tutorial: Tutorial) -> None:
    """Raise :class:`TutorialError` unless ``tutorial`` plays as it says (module docs)."""
    where = f"{tutorial.game}'s tutorial"
    ids = [s.id for s in tutorial.steps]
    if not ids:
        raise TutorialError(f"{where} has no steps")
    if len(set(ids)) != len(ids):
        raise TutorialError(f"{where}: step ids repeat")
    for language in LANGUAGES:
        texts = tutorial.texts[language]
        missing = [i for i in ids if not texts.get(i, "").strip()]
        extra = sorted(set(texts) - set(ids))
        if missing or extra:
            raise TutorialError(
                f"{where} ({language}): no text for {missing}, texts for no step {extra}"
            )
    ats = [s.at for s in tutorial.steps]
    if ats != sorted(ats) or ats[0] < 0 or ats[-1] > len(tutorial.moves):
        raise TutorialError(f"{where}: the steps' positions must rise within the script")
    try:
        match = tutorial.match()
    except SengokuError as exc:
        raise TutorialError(f"{where}: {exc}") from exc
    played = 0
    for step in tutorial.steps:
        try:
            while played < step.at:
                match.act(*tutorial.moves[played])
                played += 1
        except SengokuError as exc:
            raise TutorialError(f"{where}: move {played} {tutorial.moves[played]}: {exc}") from exc
        if step.do:
            if step.at == len(tutorial.moves) or tutorial.moves[step.at][0] != tutorial.seat:
                raise TutorialError(f"{where}: step {step.id!r} asks for a move of another seat")
            if tutorial.seat not in match.to_act():
                raise TutorialError(f"{where}: step {step.id!r}: the learner may not act then")
        view = match.view(tutorial.seat)
        for path, expected in step.state.items():
            found = view_fact(view, path)
            if found != expected:
                raise TutorialError(
                    f"{where}: step {step.id!r} says {path} is {expected!r}, but it is {found!r}"
                )


def view_fact(view: Mapping[str, Any], path: str) -> Any:
    """The value at a dotted ``path`` of a view (list items by number); ``None`` when there
    is none.

    >>> view_fact({"vp": [3, 5], "phase": "war"}, "vp.1"), view_fact({"a": {}}, "a.b")
    (5, None)
    """
    value: Any = view
    for part in path.split("."):
        if isinstance(value, Mapping):
            value = value.get(part, _MISSING)
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            value = _MISSING
        if value is _MISSING:
            return None
    return value

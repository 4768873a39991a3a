"""The tutorials (docs/ui.md, "Learn to play"): every game's script replays through the engine,
each move legal at its step, each step's facts true, and every phase of the game met; and a
script that does not play as it says does not load."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sengoku.ai import make_agent
from sengoku.core import available_games, get_game, new_match
from sengoku.core.tutorial import LANGUAGES, TutorialError, read_tutorial, view_fact

#: The phases of each game (as its views name them) that its tutorial must show.
PHASES = {
    "shogun": {"plan", "position", "target", "armies", "over"},
    "shitenno": {"build", "offer", "last", "control", "pay", "over"},
    "rising_sun": {"tea", "political", "war", "over"},
}

#: The ideas each tutorial must explain in a step of its own (by the step's id), where the
#: views' phases do not name them: for Rising Sun the issue's list (the tea ceremony, the
#: mandates, betrayal, the Kami, the war's secret bids, the winter).
TOPICS = {
    "shogun": {"plan", "bids", "tower", "revolt", "hunger", "scoring"},
    "shitenno": {"offer", "refuse", "pay_koku", "pay_troops", "scoring"},
    "rising_sun": {"tea", "political", "koi_betrays", "kami", "war", "bid", "winter"},
}


def test_every_game_has_a_tutorial() -> None:
    """Each of the three games brings its tutorial as data; a game without one says None."""
    assert {g for g in available_games() if get_game(g).tutorial() is not None} >= set(PHASES)


@pytest.mark.parametrize("game", sorted(PHASES))
def test_a_tutorial_replays_through_the_engine(game: str) -> None:
    """Replayed move by move: each scripted move is one of its seat's legal actions at that
    moment; each step that asks the learner for a move asks for one of the learner's; each
    fact a step states holds in the learner's view; the steps meet every phase of the game
    once at least (shogun.md §3, shitenno.md §4.2, rising_sun.md §4.2), and the last one shows
    the end of the match."""
    tutorial = get_game(game).tutorial()
    assert tutorial is not None
    match = new_match(game, tutorial.players, seed=tutorial.seed, options=tutorial.options)
    phases = set()
    facts = 0
    for number, (seat, notation) in enumerate([*tutorial.moves, (None, None)]):
        for step in (s for s in tutorial.steps if s.at == number):
            view = match.view(tutorial.seat)
            phases.add(view["phase"])
            for path, value in step.state.items():
                assert view_fact(view, path) == value, (step.id, path)
                facts += 1
            if step.do:
                assert seat == tutorial.seat, step.id
                assert match.parse_action(seat, notation) in match.legal_actions(seat)
        if seat is None:
            break
        action = match.parse_action(seat, notation)
        assert action in match.legal_actions(seat), (number, notation)
        match.act(seat, action)
    assert match.outcome() is not None
    assert tutorial.steps[-1].at == len(tutorial.moves)
    assert phases >= PHASES[game], PHASES[game] - phases
    assert TOPICS[game] <= {s.id for s in tutorial.steps}
    assert facts >= len(tutorial.steps)  # every step states a fact at least (its phase)
    assert sum(s.do for s in tutorial.steps) >= 5
    for language in LANGUAGES:
        assert set(tutorial.texts[language]) == {s.id for s in tutorial.steps}


# -- a script that does not play as it says ---------------------------------------------------


def _write(folder: Path, script: dict[str, Any], texts: dict[str, str] | None = None) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "script.json").write_text(json.dumps(script))
    ids = {s["id"] for s in script["steps"]}
    for language in LANGUAGES:
        words = {i: f"{language} {i}" for i in ids} if texts is None else texts
        (folder / f"{language}.json").write_text(json.dumps(words))
    return folder


@pytest.fixture(scope="module")
def script() -> dict[str, Any]:
    """A small Shitenno script: 30 moves of heuristic bots, and three steps."""
    match = new_match("shitenno", 3, seed=7)
    agents = [make_agent("heuristic", seat) for seat in range(3)]
    moves = []
    while len(moves) < 30:
        seat = match.to_act()[0]
        action = agents[seat].choose(match.view(seat), match.legal_actions(seat))
        moves.append([seat, str(action)])
        match.act(seat, action)
    learner = next(i for i, (seat, _) in enumerate(moves) if seat == 0 and i > 4)
    other = next(i for i, (seat, _) in enumerate(moves) if seat != 0)
    return {
        "players": 3,
        "seed": 7,
        "moves": moves,
        "steps": [
            {"id": "first", "at": 0, "do": True, "state": {"phase": "build"}},
            {"id": "other", "at": other},
            {"id": "again", "at": learner, "do": True},
        ],
    }


def test_a_good_script_loads(tmp_path: Path, script: dict[str, Any]) -> None:
    """The script as made loads, with its texts by language."""
    tutorial = read_tutorial(get_game("shitenno"), _write(tmp_path / "t", script))
    assert tutorial is not None
    assert tutorial.texts["ja"]["first"] == "ja first"
    assert read_tutorial(get_game("shitenno"), tmp_path / "none") is None


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda s: s["moves"].__setitem__(3, [0, "add troop Zz to the lot"]), "move 3"),
        (lambda s: s["moves"].__setitem__(1, [1, s["moves"][1][1]]), "move 1"),
        (lambda s: s["steps"][1].__setitem__("do", True), "another seat"),
        (lambda s: s["steps"][0]["state"].__setitem__("phase", "pay"), "phase is 'pay'"),
        (lambda s: s["steps"].reverse(), "must rise"),
        (lambda s: s["steps"][2].__setitem__("at", 31), "must rise"),
        (lambda s: s["steps"][1].__setitem__("id", "first"), "ids repeat"),
        (lambda s: s["steps"].clear(), "no steps"),
        (lambda s: s.__setitem__("players", 9), "players"),
        (lambda s: s["steps"][0].__setitem__("colour", "red"), "unknown field"),
    ],
)
def test_a_script_that_does_not_play_as_it_says_does_not_load(
    tmp_path: Path, script: dict[str, Any], change: Any, reason: str
) -> None:
    """Each flaw is refused with its reason: an illegal move, a move out of turn, a step that
    asks the learner for another seat's move, a fact that is false, steps out of order or
    past the script's end, repeated ids, no steps, a match that cannot be set up, a field
    the format does not know."""
    broken = json.loads(json.dumps(script))
    change(broken)
    with pytest.raises(TutorialError, match=reason):
        read_tutorial(get_game("shitenno"), _write(tmp_path / "t", broken))


def test_every_step_needs_a_text_in_every_language(tmp_path: Path, script: dict[str, Any]) -> None:
    """A step without its text in one language, or a text for no step, is refused."""
    folder = _write(tmp_path / "t", script)
    (folder / "zh.json").write_text(json.dumps({"first": "一", "other": "二"}))
    with pytest.raises(TutorialError, match=r"\(zh\): no text for \['again'\]"):
        read_tutorial(get_game("shitenno"), folder)
    (folder / "zh.json").write_text(
        json.dumps({"first": "一", "other": "二", "again": "三", "x": ""})
    )
    with pytest.raises(TutorialError, match=r"texts for no step \['x'\]"):
        read_tutorial(get_game("shitenno"), folder)
    (folder / "nl.json").unlink()
    with pytest.raises(TutorialError):
        read_tutorial(get_game("shitenno"), folder)

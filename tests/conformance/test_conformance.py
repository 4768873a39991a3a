"""The conformance suite: every registered game, every player count, every important option set.

Each case plays random games to the end and checks what the public contract promises
(design.md, Style 5): progress until an outcome, determinism under a seed, records that survive
JSON and replay exactly, clones that are independent, JSON views, views that do not depend on
other seats' secrets, ``determinize`` consistent with a view, rejected actions that change
nothing, and notation that reads back. ``SENGOKU_CONFORMANCE_GAMES`` sets how many random games
each case plays (default 2).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sengoku
from sengoku.core import (
    VIEW_KEYS,
    ActionSpace,
    Decision,
    IllegalActionError,
    Match,
    Rng,
    UndoReason,
    UndoRefusal,
    UndoRefusedError,
    describe_options,
    determinizer,
    get_game,
    normalize_notation,
)
from sengoku.core.encoding import check_observation

GAMES_PER_CASE = int(os.environ.get("SENGOKU_CONFORMANCE_GAMES", "2"))
MAX_STEPS = 200_000
CHECKS_PER_GAME = 16
UNDO_CHECKS_PER_GAME = 6


def _cases() -> Iterator[Any]:
    for name in sengoku.available_games():
        game = get_game(name)
        option_sets: list[dict[str, Any]] = [{}, *game.option_sets]
        for players in game.player_counts:
            for index, options in enumerate(option_sets):
                label = f"{name}-{players}p-" + ("default" if not options else f"options{index}")
                yield pytest.param(name, players, options, id=label)


CASES = list(_cases())
SEEDS = range(1, GAMES_PER_CASE + 1)


def random_walk(
    name: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    on_step: Callable[[Match, int], None] | None = None,
) -> Match:
    """Play a match to the end, choosing the acting seat and its action at random."""
    match = sengoku.new_match(name, players, seed=seed, options=options)
    chooser = Rng(seed + 10_000)
    for step in range(MAX_STEPS):
        if match.outcome() is not None:
            return match
        if on_step is not None:
            on_step(match, step)
        seat = chooser.choice(match.to_act())
        match.act(seat, chooser.choice(match.legal_actions(seat)))
    raise AssertionError(f"no outcome after {MAX_STEPS} actions")


@cache
def finished_record(name: str, players: int, options_json: str, seed: int) -> str:
    """The record of one random game, as JSON text (cached: several checks share the games)."""
    return json.dumps(random_walk(name, players, json.loads(options_json), seed).to_record())


def record_of(name: str, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(
        finished_record(name, players, json.dumps(options, sort_keys=True), seed)
    )
    return result


def checkpoints(name: str, players: int, options: dict[str, Any], seed: int) -> set[int]:
    """About CHECKS_PER_GAME step numbers spread over one game, for the costlier checks."""
    length = len(record_of(name, players, options, seed)["actions"])
    stride = max(1, length // CHECKS_PER_GAME)
    return set(range(0, length, stride)) | {length - 1}


def all_views(match: Match) -> list[dict[str, Any]]:
    return [match.view(None)] + [match.view(s) for s in range(match.players)]


def snapshot(match: Match) -> str:
    return json.dumps(
        {
            "record": match.to_record(),
            "views": all_views(match),
            "logs": [match.log(s) for s in [None, *range(match.players)]],
            "legal": [[str(a) for a in match.legal_actions(s)] for s in range(match.players)],
        },
        sort_keys=True,
    )


@pytest.mark.parametrize(("name", "players", "options"), CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_reach_an_outcome(
    name: str, players: int, options: dict[str, Any], seed: int
) -> None:
    """While there is no outcome someone may act, every acting seat has legal actions, and no
    seat that may not act has any; legal actions are distinct with distinct notations."""

    def check(match: Match, step: int) -> None:
        to_act = match.to_act()
        assert to_act, f"step {step}: no outcome and nobody to act"
        assert to_act == sorted(set(to_act))
        for seat in range(players):
            legal = match.legal_actions(seat)
            if seat in to_act:
                assert legal, f"step {step}: seat {seat} must act but has no legal action"
                assert len(set(legal)) == len(legal), "legal actions repeat"
                notations = [normalize_notation(str(a)) for a in legal]
                assert len(set(notations)) == len(notations), f"notations repeat: {notations}"
            else:
                assert legal == []
                assert match.game.legal_actions(match.state, seat) == []

    match = random_walk(name, players, options, seed, check)
    outcome = match.outcome()
    assert outcome is not None
    assert match.to_act() == []
    assert len(outcome.scores) == players
    assert sorted(outcome.ranking) == list(range(players))
    assert outcome.winners and all(outcome.ranks[w] == 1 for w in outcome.winners)
    assert match.to_record()["outcome"] == outcome.to_json()


@pytest.mark.parametrize(("name", "players", "options"), CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_same_seed_and_actions_give_the_same_record(
    name: str, players: int, options: dict[str, Any], seed: int
) -> None:
    """The chance of a match comes only from its seed: the same choices give the same game."""
    first = random_walk(name, players, options, seed).to_record()
    assert first == random_walk(name, players, options, seed).to_record()
    assert first == record_of(name, players, options, seed)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_record_survives_json_and_replays_identically(
    name: str, players: int, options: dict[str, Any], seed: int
) -> None:
    """A record read back from JSON replays to identical views, log and outcome, at every step."""
    record = record_of(name, players, options, seed)
    assert json.loads(json.dumps(record)) == record
    original = random_walk(name, players, options, seed)
    replayed = Match.from_record(json.loads(json.dumps(record)))
    assert replayed.to_record() == record
    assert replayed.outcome() == original.outcome()
    assert all_views(replayed) == all_views(original)
    for seat in [None, *range(players)]:
        assert replayed.log(seat) == original.log(seat)
    # a prefix of the record replays to the same intermediate state as the live game did
    cut = len(record["actions"]) // 2
    partial = Match.from_record({**record, "actions": record["actions"][:cut], "outcome": None})
    live = sengoku.new_match(name, players, seed=seed, options=options)
    for seat, text in record["actions"][:cut]:
        live.act(seat, text)
    assert all_views(partial) == all_views(live)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_acting_on_a_clone_never_changes_the_original(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """clone() is independent (state, chance, record, log) and faithful (same future)."""
    marks = checkpoints(name, players, options, 1)

    def check(match: Match, step: int) -> None:
        if step not in marks:
            return
        before = snapshot(match)
        twin = match.clone()
        assert snapshot(twin) == before
        random_walk_from(twin, Rng(step))
        assert snapshot(match) == before
        # the same action on a clone and on a second clone leads to the same state
        a, b = match.clone(), match.clone()
        seat = match.to_act()[0]
        action = match.legal_actions(seat)[-1]
        a.act(seat, action)
        b.act(seat, action)
        assert snapshot(a) == snapshot(b)

    random_walk(name, players, options, 1, check)


def random_walk_from(match: Match, chooser: Rng) -> None:
    for _ in range(MAX_STEPS):
        if match.outcome() is not None:
            return
        seat = chooser.choice(match.to_act())
        match.act(seat, chooser.choice(match.legal_actions(seat)))
    raise AssertionError("no outcome")


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_every_view_is_json_and_leaves_room_for_the_match_keys(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """Every view (each seat and a spectator) survives a JSON round trip unchanged."""
    game = get_game(name)

    def check(match: Match, step: int) -> None:
        for seat in [None, *range(players)]:
            view = match.view(seat)
            assert json.loads(json.dumps(view, allow_nan=False)) == view, f"step {step}"
            assert view["seat"] == seat and view["game"] == name
            own = game.view(match._state, seat)
            assert not set(own) & set(VIEW_KEYS), (
                f"the game's view uses {set(own) & set(VIEW_KEYS)}"
            )

    random_walk(name, players, options, 1, check)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_views_made_together_are_each_seats_own_view(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """``Match.views`` (what a server shows all seats with) gives, for seats in any order and
    a spectator, each seat's own view as the game makes it alone (``Game.view``, made after
    it) as JSON text, key order included, under the match's keys."""
    order: list[int | None] = [None, *range(players)]
    game = get_game(name)

    def check(match: Match, step: int) -> None:
        if step % 3:
            return  # every third position, enough to meet every phase
        Rng(step).shuffle(order)
        made = match.views(order)
        for seat, view in zip(order, made, strict=True):
            assert list(view)[: len(VIEW_KEYS)] == list(VIEW_KEYS) and view["seat"] == seat
            own = {k: v for k, v in view.items() if k not in VIEW_KEYS}
            alone = game.view(match.state, seat)
            assert json.dumps(own) == json.dumps(alone), f"step {step}, seat {seat}"

    random_walk(name, players, options, 2, check)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_a_view_does_not_depend_on_other_seats_secrets(
    name: str, players: int, options: dict[str, Any], seed: int
) -> None:
    """Redrawing everything hidden from a seat changes neither its view nor its legal actions;
    and the redrawing really changes something, so the check is not empty."""
    game = get_game(name)
    marks = checkpoints(name, players, options, seed)
    varied_something = False

    def check(match: Match, step: int) -> None:
        nonlocal varied_something
        if step not in marks:
            return
        state = match._state
        before = snapshot(match)
        for seat in range(players):
            for attempt in range(2):
                other = game.vary_secrets(state, seat, Rng(step * 31 + seat * 7 + attempt))
                assert game.view(other, seat) == game.view(state, seat), (
                    f"step {step}: seat {seat}'s view depends on others' secrets"
                )
                assert game.to_act(other) == game.to_act(state)
                assert [str(a) for a in game.legal_actions(other, seat)] == [
                    str(a) for a in game.legal_actions(state, seat)
                ]
                assert game.view(other, None) == game.view(state, None)
                others = [s for s in range(players) if s != seat]
                if any(game.view(other, s) != game.view(state, s) for s in others):
                    varied_something = True
        assert snapshot(match) == before, "vary_secrets changed the state it was given"

    random_walk(name, players, options, seed, check)
    assert varied_something, "vary_secrets never changed another seat's secrets"


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_determinize_agrees_with_the_view_and_plays_on(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """A determinized match shows the seat the very same view and legal actions, and plays
    on; a :func:`determinizer` of the view draws the very same samples, each its own."""
    marks = checkpoints(name, players, options, 1)
    twice = set(sorted(marks)[::2])  # where a determinizer samples too

    def check(match: Match, step: int) -> None:
        if step not in marks:
            return
        for seat in range(players):
            view = match.view(seat)
            sampled = sengoku.determinize(json.loads(json.dumps(view)), Rng(step + seat))
            assert sampled.view(seat) == view, f"step {step}, seat {seat}"
            assert [str(a) for a in sampled.legal_actions(seat)] == [
                str(a) for a in match.legal_actions(seat)
            ]
            if seat == 0:
                before = snapshot(match)
                played = played_out(sampled, step)
                assert snapshot(match) == before, "playing a sample changed the true match"
                if step not in twice:
                    continue
                sample = determinizer(json.loads(json.dumps(view)))
                # the second sample comes after the first was played to its end
                for _ in range(2):
                    assert played_out(sample(Rng(step + seat)), step) == played, (
                        f"step {step}: determinizer and determinize sample apart"
                    )

    random_walk(name, players, options, 1, check)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_apply_quietly_changes_the_state_as_apply_does(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """A search's quiet apply (no log) leaves the very state and chance that apply leaves:
    the same views after it, and the same random game played on from there."""
    marks = set(sorted(checkpoints(name, players, options, 1))[::5])
    game = get_game(name)

    def check(match: Match, step: int) -> None:
        if step not in marks:
            return
        runs = []
        for quiet in (False, True):
            state, rng, chooser = game.clone(match.state), Rng(step), Rng(step + 1)
            trail: list[Any] = []
            while to_act := game.to_act(state):
                seat = to_act[0]
                action = chooser.choice(game.legal_actions(state, seat))
                if quiet:
                    game.apply_quietly(state, seat, action, rng)
                else:
                    game.apply(state, seat, action, rng)
                if not trail:
                    trail.append([game.view(state, s) for s in [None, *range(players)]])
                trail.append([str(action), rng.getstate()])
            outcome = game.outcome(state)
            assert outcome is not None
            trail.append([game.view(state, s) for s in [None, *range(players)]])
            runs.append(json.dumps([trail, outcome.to_json()], sort_keys=True))
        assert runs[0] == runs[1], f"step {step}: apply_quietly and apply part"

    random_walk(name, players, options, 1, check)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_the_heuristic_chooses_among_the_actions_it_is_offered(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """``Game.policy`` returns one of the actions it is handed, also when they are only some
    of the legal ones (a search asks it to pick among the actions it has not tried yet), or
    ``None``; and never changes the state."""
    game = get_game(name)
    marks = set(sorted(checkpoints(name, players, options, 2))[::2])

    def check(match: Match, step: int) -> None:
        if step not in marks:
            return
        for seat in match.to_act():
            legal = match.legal_actions(seat)
            chooser = Rng(step * 7 + seat)
            offers = [legal]
            if len(legal) > 2:
                shuffled = list(legal)
                chooser.shuffle(shuffled)
                offers += [shuffled[: len(legal) // 2], legal[1:], legal[:-1]]
            before = snapshot(match)
            for offered in offers:
                choice = game.policy(match.state, seat, offered, Rng(step))
                assert choice is None or choice in offered, (step, str(choice))
            assert snapshot(match) == before

    random_walk(name, players, options, 2, check)


def played_out(sample: Match, step: int) -> str:
    """A sampled match told apart from others: its views, legal actions and chance, and the
    random game played on from it (which meets the hidden order of its decks); plays it."""
    start = json.dumps(
        [
            all_views(sample),
            [[str(a) for a in sample.legal_actions(s)] for s in range(sample.players)],
        ]
    )
    chance = sample.rng_state()
    random_walk_from(sample, Rng(step))
    outcome = sample.outcome()
    assert outcome is not None
    history = [[seat, str(action)] for seat, action in sample.history]
    return json.dumps([start, chance, history, outcome.to_json()], sort_keys=True)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_a_rejected_action_leaves_the_match_unchanged(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """Garbage, wrong seats, wrong types and actions of others are refused with a reason."""
    marks = checkpoints(name, players, options, 1)
    bad_inputs: list[Any] = ["", "no such action", None, 17, ("bogus",), ["list"], {"a": 1}]

    def refused(call: Callable[[], Any]) -> None:
        with pytest.raises(IllegalActionError) as info:
            call()
        assert str(info.value).strip(), "an error needs a reason"

    def check(match: Match, step: int) -> None:
        if step not in marks:
            return
        before = snapshot(match)
        to_act = match.to_act()
        seat = to_act[0]
        for bad in bad_inputs:
            refused(lambda bad=bad: match.act(seat, bad))
        for bad_seat in (-1, players, True, "0", None):
            refused(lambda bad_seat=bad_seat: match.act(bad_seat, match.legal_actions(seat)[0]))
        idle = [s for s in range(players) if s not in to_act]
        for other in idle:
            refused(lambda other=other: match.act(other, match.legal_actions(seat)[0]))
        mine = set(map(str, match.legal_actions(seat)))
        for other in to_act[1:]:
            for action in match.legal_actions(other):
                if str(action) not in mine:
                    refused(lambda action=action: match.act(seat, action))
        # a sequence with an illegal last action is refused as a whole
        refused(lambda: match.act_all(seat, [match.legal_actions(seat)[0], "no such action"]))
        assert snapshot(match) == before, f"step {step}: a refused action changed the match"

    match = random_walk(name, players, options, 1, check)
    refused(lambda: match.act(0, "anything"))  # the game is over


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_notation_reads_back(name: str, players: int, options: dict[str, Any]) -> None:
    """parse_action reads each legal action's notation back, whatever its case and spacing."""

    def check(match: Match, step: int) -> None:
        for seat in match.to_act():
            for action in match.legal_actions(seat):
                text = str(action)
                assert text and text == text.strip() and "\n" not in text
                parsed = match.parse_action(seat, text)
                assert parsed == action and type(parsed) is type(action)
                assert match.parse_action(seat, "  " + text.upper().replace(" ", "  ")) == action

    random_walk(name, players, options, 1, check)


@pytest.mark.parametrize("name", sengoku.available_games())
def test_options_are_documented_and_validated(name: str) -> None:
    """Each option has a description and a default; unknown options, bad values and
    unsupported player counts are refused with a clear error."""
    game = get_game(name)
    infos = describe_options(game.options_type)
    for info in infos:
        assert info.description, f"option {info.name} has no description"
        sengoku.new_match(name, game.player_counts[0], seed=1, options={info.name: info.default})
    with pytest.raises(sengoku.OptionError, match="unknown option 'no_such_option'"):
        sengoku.new_match(name, game.player_counts[0], seed=1, options={"no_such_option": 1})
    for info in infos:
        with pytest.raises(sengoku.OptionError, match=info.name):
            sengoku.new_match(
                name, game.player_counts[0], seed=1, options={info.name: ["not", "valid"]}
            )
    for players in (0, 1, max(game.player_counts) + 1):
        if players not in game.player_counts:
            with pytest.raises(sengoku.SetupError):
                sengoku.new_match(name, players, seed=1)
    for option_set in game.option_sets:
        sengoku.new_match(name, game.player_counts[-1], seed=1, options=option_set)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_secret_choices_stay_secret_until_the_last_submits(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """During a simultaneous choice, while another seat has still to submit, no other seat's view
    or log depends on which action a seat chose (design.md: nothing is revealed until the last
    submits)."""
    compared = 0
    chances = 0

    def check(match: Match, step: int) -> None:
        nonlocal compared, chances
        to_act = match.to_act()
        if len(to_act) < 2:
            return
        for chooser in to_act:
            legal = match.legal_actions(chooser)
            if len(legal) < 2:
                continue
            chances += 1
            if chances % 5 or compared >= CHECKS_PER_GAME:
                continue
            waiting = next(s for s in to_act if s != chooser)
            first, second = match.clone(), match.clone()
            length = match.log_length
            first.act(chooser, legal[0])
            second.act(chooser, legal[-1])
            if waiting not in first.to_act() or waiting not in second.to_act():
                continue
            compared += 1
            for seat in [None, *range(players)]:
                if seat == chooser:
                    continue
                assert first.view(seat) == second.view(seat), (
                    f"step {step}: seat {seat} sees what {chooser} chose"
                )
                assert first.log(seat, since=length) == second.log(seat, since=length), (
                    f"step {step}: seat {seat}'s log tells what {chooser} chose"
                )

    random_walk(name, players, options, 1, check)
    assert compared or chances < 5, "no simultaneous secret choice was ever compared"


#: The most ids a game's action vocabulary may have (design.md: at most a few hundred).
MAX_VOCABULARY = 512


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_actions_spell_in_a_fixed_vocabulary_and_views_fill_a_fixed_tensor(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """Every legal action spells in the game's fixed, small token vocabulary, no two alike and
    none a prefix of another, so a walk down the prefix tree picks exactly one legal action;
    every seat's observation tensor has the declared shape, finite values, and does not change
    when only other seats' secrets do."""
    game = get_game(name)
    first = sengoku.new_match(name, players, seed=1, options=options)
    space = ActionSpace.of(first)
    assert 2 <= space.size <= MAX_VOCABULARY
    assert ActionSpace.of(sengoku.new_match(name, players, seed=2, options=options)).tokens == (
        space.tokens
    )
    shape = game.observation_shape(players, first.options)
    used: set[int] = set()
    walker = Rng(99)

    def check(match: Match, step: int) -> None:
        for seat in match.to_act():
            legal = match.legal_actions(seat)
            tree = space.tree(match, seat)
            assert tree.actions() == len(legal), f"step {step}: the tree lost actions"
            for action in legal:
                used.update(space.encode(match, seat, action))
            decision = Decision(space, match, seat)
            chosen = None
            while chosen is None:
                ids = decision.legal_ids()
                assert ids and all(0 <= i < space.size for i in ids)
                chosen = decision.choose(walker.choice(ids))
            assert chosen in legal
            assert space.encode(match, seat, chosen) == tuple(decision.prefix)
        for seat in range(players):
            tensor = game.observation_tensor(match.view(seat))
            check_observation(tensor, shape, name)
            if step % 7 == 0:
                other = game.vary_secrets(match.state, seat, Rng(step))
                view = {**match.view(seat), **game.view(other, seat)}
                assert game.observation_tensor(view) == tensor

    random_walk(name, players, options, 1, check)
    assert len(used) >= 2


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_a_tensor_kept_from_step_to_step_is_the_whole_tensor(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """Where a game gives its observation as parts, they lay out the whole tensor, and a
    seat's tensor kept between steps, its parts made again only where what they read
    changed (``sengoku.envs.tensors.KeptTensor``), equals the whole one at every step of a
    random game, for each seat and the spectator in turn (so that a seat's kept tensor meets
    views several steps apart, as a seat's does in play)."""
    import numpy as np  # the research extras' (in the dev extra), as the adapters use it

    from sengoku.envs.tensors import KeptTensor

    game = get_game(name)
    first = sengoku.new_match(name, players, seed=1, options=options)
    parts = game.observation_parts(players, first.options)
    if parts is None:
        return
    assert parts.size == math.prod(game.observation_shape(players, first.options))
    seats: list[int | None] = [None, *range(players)]
    kept = {seat: KeptTensor(parts) for seat in seats}
    made = total = 0

    def check(match: Match, step: int) -> None:
        nonlocal made, total
        seat = seats[step % len(seats)]
        view = match.view(seat)
        whole = game.observation_tensor(view)  # parts.tensor(view), part after part
        np.testing.assert_array_equal(
            kept[seat].update(view), np.array(whole, dtype=np.float32), f"step {step}"
        )
        made += kept[seat].made
        total += len(parts.parts)

    random_walk(name, players, options, 1, check)
    assert made < total  # parts were kept, not all made again


JUNK = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.tuples(inner),
    max_leaves=8,
)


@pytest.mark.parametrize("name", sengoku.available_games())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(junk=JUNK, seat=st.integers(min_value=-1, max_value=5) | JUNK)
def test_junk_actions_are_refused_with_a_reason(name: str, junk: Any, seat: Any) -> None:
    """Any value sent as an action, by any seat, gets an IllegalActionError with a reason and
    changes nothing (unless it is the notation of a legal action of a seat that may act)."""
    game = get_game(name)
    match = sengoku.new_match(name, game.player_counts[-1], seed=3)
    before = snapshot(match)
    try:
        match.act(seat, junk)
    except IllegalActionError as error:
        assert error.reason
        assert snapshot(match) == before
    else:  # only the notation of a legal action (or the action itself) gets through
        acted, action = match.history[-1]
        assert acted == seat
        assert normalize_notation(str(action)) == normalize_notation(str(junk))


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_an_allowed_undo_is_the_replay_of_the_record_without_that_action(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """Along a random game, whenever a seat may take back its latest action, the match after
    the undo has exactly the record without that action, and the views, log and legal
    actions of a fresh replay of that record; doing the action again at once gives the
    position back. A refused undo says why with one of the reason codes and changes nothing.
    """
    length = len(record_of(name, players, options, 1)["actions"])
    marks = set(range(1, length, max(1, length // UNDO_CHECKS_PER_GAME)))
    codes = {reason.value for reason in UndoReason}
    allowed = 0

    def check(match: Match, step: int) -> None:
        nonlocal allowed
        if step not in marks:
            return
        before = snapshot(match)
        for seat in range(players):
            twin = match.clone()
            try:
                index, action = twin.undo(seat)
            except UndoRefusedError as refused:
                assert refused.code in codes and refused.reason
                assert snapshot(twin) == before, f"step {step}: a refused undo changed the match"
                continue
            allowed += 1
            record = match.to_record()
            assert record["actions"][index] == [seat, str(action)]
            kept = record["actions"][:index] + record["actions"][index + 1 :]
            expected = {**record, "actions": kept}
            assert twin.to_record() == expected, f"step {step}: seat {seat}'s undo"
            fresh = Match.from_record(json.loads(json.dumps(expected)))
            assert snapshot(twin) == snapshot(fresh), f"step {step}: seat {seat}'s undo"
            twin.act(seat, action)
            assert all_views(twin) == all_views(match), f"step {step}: undo and redo"
        assert snapshot(match) == before, f"step {step}: asking about undo changed the match"

    match = random_walk(name, players, options, 1, check)
    assert match.undo_refusal(0) == UndoRefusal(
        UndoReason.GAME_OVER, "the game is over: its actions stand"
    )
    assert allowed, "no undo was ever allowed"

"""Shogun's research encoding: action tokens, decoding by ids, and the observation tensor."""

from __future__ import annotations

from typing import Any

import pytest

import sengoku
from sengoku.core import ActionSpace, Decision, Match, Rng
from sengoku.games.shogun import encoding
from sengoku.games.shogun.actions import BLANK, EMPTY, NAMES, NO_BID, Bid, Plan, TakeTop
from sengoku.games.shogun.state import PHASE_NAMES

from .helpers import GAME, I

OPTION_SETS: list[dict[str, Any]] = [{}, *GAME.option_sets]


def spell(match: Match, seat: int) -> list[list[str]]:
    return [list(GAME.action_tokens(match.state, seat, a)) for a in match.legal_actions(seat)]


def part(tensor: list[float], players: int, name: str) -> list[float]:
    p = encoding.observation_part(players, name)
    return tensor[p.offset : p.offset + p.size]


def test_vocabulary_is_120_tokens_for_every_player_count_and_option() -> None:
    """The vocabulary is one list of 120 distinct tokens whatever the player count or options:
    45 provinces, 61 army counts, and 14 others."""
    first = sengoku.new_match("shogun", 4, seed=1)
    tokens = ActionSpace.of(first).tokens
    assert len(tokens) == len(set(tokens)) == 120
    assert tokens[I["Owari"]] == "province Owari"
    assert tokens[45] == "armies 1" and tokens[105] == "armies 61"
    assert tokens[106:] == (
        "take top card",
        "blank",
        "empty",
        *(f"chests {v}" for v in range(5)),
        *(f"position {i}" for i in range(1, 6)),
        "stay",
    )
    for players in GAME.player_counts:
        for options in OPTION_SETS:
            match = sengoku.new_match("shogun", players, seed=2, options=options)
            assert ActionSpace.of(match).tokens == tokens


def test_first_plan_actions_spell_as_the_card_put_on_the_space() -> None:
    """Seed 1, 4 players: Red's first step (the castle space) spells each province card of his
    hand, then the blank; the space itself is fixed by the state and left out."""
    match = sengoku.new_match("shogun", 4, seed=1)
    assert spell(match, 0) == [
        ["province Kaga"],
        ["province Noto"],
        ["province Omi"],
        ["province Tamba"],
        ["province Kii"],
        ["province Yamato"],
        ["province Settsu"],
        ["province Awa-Shikoku"],
        ["blank"],
    ]


def test_bids_spell_as_chests_or_the_province_card() -> None:
    """After ten planned spaces the bid offers chests 0..4 (within Red's 15 chests) and each
    province card not yet planned; no card (a Plan's or the bid's) spells 'empty'."""
    match = sengoku.new_match("shogun", 4, seed=1)
    hand = match.state.hand[0]
    for space in range(10):
        match.act(0, Plan(space, hand[space] if space < 6 else BLANK))
    assert spell(match, 0) == [
        *([f"chests {v}"] for v in range(5)),
        *([f"province {NAMES[p]}"] for p in hand[6:]),
    ]
    assert GAME.action_tokens(match.state, 0, Bid(NO_BID)) == ["empty"]
    assert GAME.action_tokens(match.state, 0, Plan(9, EMPTY)) == ["empty"]


def test_draft_spells_province_then_stack_and_take_top_alone() -> None:
    """In the draft a pick is the face-up province then the stack; 'take top card' is one
    token, and after it the drawn province is fixed, so the pick spells the stack only."""
    match = sengoku.new_match("shogun", 3, seed=2, options={"setup": "draft"})
    seat = match.to_act()[0]
    assert spell(match, seat) == [
        *(["province Omi", f"armies {n}"] for n in (5, 4, 3, 2)),
        *(["province Shima", f"armies {n}"] for n in (5, 4, 3, 2)),
        ["take top card"],
    ]
    space = ActionSpace.of(match)
    decision = Decision(space, match, seat)
    assert len(decision.legal_ids()) == 3  # Omi, Shima, take top card
    assert decision.choose(space.id("province Omi")) is None
    assert [space.tokens[i] for i in decision.legal_ids()] == [f"armies {n}" for n in (2, 3, 4, 5)]
    match.act(seat, TakeTop())
    assert spell(match, seat) == [[f"armies {n}"] for n in (5, 4, 3, 2)]


def test_positions_marches_armies_and_revolts_spell_their_choice() -> None:
    """Seed 3, 4 players: the first turn-position choice spells 'position 1..5', the first
    march the target province (attack or move alike), the army count 'armies n', and a winter
    choice the revolting province."""
    match = sengoku.new_match("shogun", 4, seed=3)
    rng = Rng(5)
    seen: dict[str, list[list[str]]] = {}
    while match.outcome() is None and len(seen) < 4:
        seat = rng.choice(match.to_act())
        phase = PHASE_NAMES[match.state.phase]
        if phase != "plan":
            seen.setdefault(phase, spell(match, seat))
        match.act(seat, rng.choice(match.legal_actions(seat)))
    assert seen["position"] == [[f"position {i}"] for i in range(1, 6)]
    assert seen["target"] == [
        ["province Kaga"],
        ["province Wakasa"],
        ["province Tamba"],
        ["province Harima"],
        ["province Hoki"],
    ]
    assert seen["armies"] == [["armies 1"], ["armies 2"], ["armies 3"]]
    assert seen["winter"] == [["province Musashi"], ["province Kai"], ["province Mikawa"]]


@pytest.mark.parametrize(("players", "options"), [(3, {"setup": "draft"}), (5, {"board": "moon"})])
def test_a_decision_walked_by_the_ids_of_an_action_gives_that_action_back(
    players: int, options: dict[str, Any]
) -> None:
    """At every step of a random game, every legal action, chosen id by id through a
    Decision (forced ids followed by itself), comes back as exactly that action."""
    match = sengoku.new_match("shogun", players, seed=4, options=options)
    space = ActionSpace.of(match)
    rng = Rng(4)
    while match.outcome() is None:
        seat = rng.choice(match.to_act())
        legal = match.legal_actions(seat)
        for action in legal:
            decision = Decision(space, match, seat)
            ids = space.encode(match, seat, action)
            got = None
            while got is None:
                got = decision.choose(ids[len(decision.prefix)])
            assert got == action and tuple(decision.prefix) == ids
        match.act(seat, rng.choice(legal))


def test_few_ids_at_any_step_and_about_one_token_an_action() -> None:
    """Over random games of each player count (draft and standard), no node of a seat's prefix
    tree offers more than 24 ids (measured: 17, the planning of a big hand), and the legal
    actions spell in 1.04 tokens on average (at most 1.1)."""
    widest, tokens, actions = 0, 0, 0
    for players in GAME.player_counts:
        for seed, options in enumerate(({}, {"setup": "draft"}), start=1):
            match = sengoku.new_match("shogun", players, seed=seed, options=options)
            space = ActionSpace.of(match)
            rng = Rng(seed)
            while match.outcome() is None:
                seat = rng.choice(match.to_act())
                stack = [space.tree(match, seat).root]
                while stack:
                    node = stack.pop()
                    widest = max(widest, len(node))
                    stack.extend(c for c in node.values() if isinstance(c, dict))
                for action in match.legal_actions(seat):
                    tokens += len(space.encode(match, seat, action))
                    actions += 1
                match.act(seat, rng.choice(match.legal_actions(seat)))
    assert 9 <= widest <= 24
    assert 1.0 < tokens / actions <= 1.1


def test_layout_parts_follow_each_other_and_fill_the_shape() -> None:
    """The parts lie end to end from offset 0 and add up to the declared shape, the same for
    every option set; sizes 3,428 / 4,183 / 4,942 for 3 / 4 / 5 players."""
    sizes = {}
    for players in GAME.player_counts:
        offset = 0
        for p in encoding.observation_layout(players):
            assert p.offset == offset and p.size > 0
            offset += p.size
        sizes[players] = offset
        for options in OPTION_SETS:
            match = sengoku.new_match("shogun", players, seed=1, options=options)
            assert GAME.observation_shape(players, match.options) == (offset,)
    assert sizes == {3: 3428, 4: 4183, 5: 4942}


def test_observation_of_a_known_view() -> None:
    """Seed 1, 4 players, in Blue's view after Red planned Kaga on the castle space: the phase
    is planning, the owner one-hots are relative to Blue (Blue's Shinano is seat 0, Red's
    Kaga seat 3, Purple's Mino seat 2), Blue's hand bits are set in row 0 and Red's in row 3,
    and Red's castle card is hidden to Blue but shown in Red's own view."""
    match = sengoku.new_match("shogun", 4, seed=1)
    match.act(0, Plan(0, I["Kaga"]))
    blue = GAME.observation_tensor(match.view(1))
    assert part(blue, 4, "phase") == [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    assert part(blue, 4, "season")[:1] == [1.0] and part(blue, 4, "year")[:1] == [1.0]
    assert part(blue, 4, "to act") == [1.0, 1.0, 1.0, 1.0]
    owner = part(blue, 4, "owner")
    assert owner[I["Shinano"] * 5 : I["Shinano"] * 5 + 5] == [0.0, 1.0, 0.0, 0.0, 0.0]
    assert owner[I["Mino"] * 5 : I["Mino"] * 5 + 5] == [0.0, 0.0, 0.0, 1.0, 0.0]
    assert owner[I["Kaga"] * 5 : I["Kaga"] * 5 + 5] == [0.0, 0.0, 0.0, 0.0, 1.0]
    assert owner[I["Mutsu"] * 5 : I["Mutsu"] * 5 + 5] == [1.0, 0.0, 0.0, 0.0, 0.0]
    hands = part(blue, 4, "hands")
    assert [p for p in range(45) if hands[p]] == match.state.hand[1]
    assert [p for p in range(45) if hands[3 * 45 + p]] == match.state.hand[0]
    width = encoding.PLAN_WIDTH
    plans = part(blue, 4, "plans")
    red_castle = plans[3 * 10 * width : 3 * 10 * width + width]
    assert red_castle[:5] == [0.0, 1.0, 0.0, 0.0, 0.0]  # hidden
    assert not any(red_castle[8:])
    red = GAME.observation_tensor(match.view(0))
    own_castle = part(red, 4, "plans")[:width]
    assert own_castle[:5] == [0.0, 0.0, 0.0, 0.0, 1.0]
    assert [p for p in range(45) if own_castle[8 + p]] == [I["Kaga"]]
    assert part(red, 4, "plans")[width : width + 5] == [1.0, 0.0, 0.0, 0.0, 0.0]  # not yet
    seats = part(red, 4, "seats")
    assert seats[0] == 15 / (15 + 40) and seats[5] == 1 / 11
    armies = part(red, 4, "armies")
    assert armies[2 * I["Kaga"]] == match.state.armies[I["Kaga"]] / 62


def test_spectator_is_seat_0_first_without_secrets() -> None:
    """A spectator's view encodes with seat 0 first: the same as Red's at the start, and after
    Red planned and bid it differs from Red's only in the plans and bids (hidden to it)."""
    match = sengoku.new_match("shogun", 4, seed=1)
    assert GAME.observation_tensor(match.view(None)) == GAME.observation_tensor(match.view(0))
    hand = match.state.hand[0]
    for space in range(10):
        match.act(0, Plan(space, hand[space] if space < 6 else BLANK))
    match.act(0, Bid(2))
    spectator = GAME.observation_tensor(match.view(None))
    red = GAME.observation_tensor(match.view(0))
    differ = {
        p.name
        for p in encoding.observation_layout(4)
        if part(spectator, 4, p.name) != part(red, 4, p.name)
    }
    assert differ == {"plans", "bids"}
    assert part(red, 4, "bids")[:10] == [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    assert part(spectator, 4, "bids")[:5] == [0.0, 1.0, 0.0, 0.0, 0.0]  # hidden


def test_observation_of_a_march_decision() -> None:
    """Seed 3, 4 players, at the first march: the acting seat is row 0 of 'to act', the march
    part holds its kind and source, the action being carried out is marked now, and the
    'turn' one-hot holds the acting turn position."""
    match = sengoku.new_match("shogun", 4, seed=3)
    rng = Rng(5)
    while PHASE_NAMES[match.state.phase] != "target":
        seat = rng.choice(match.to_act())
        match.act(seat, rng.choice(match.legal_actions(seat)))
    seat, kind, source, _ = match.state.pending
    tensor = GAME.observation_tensor(match.view(seat))
    assert part(tensor, 4, "phase")[3] == 1.0
    assert part(tensor, 4, "to act") == [1.0, 0.0, 0.0, 0.0]
    march = part(tensor, 4, "march")
    assert march[kind] == 1.0 and march[1 - kind] == 0.0
    assert [p for p in range(45) if march[2 + p]] == [source]
    assert not any(march[2 + 45 :])  # no target chosen yet
    now = match.state.action_order[match.state.action_idx]
    cards = part(tensor, 4, "action cards")
    assert [a for a in range(10) if cards[4 * a + 3]] == [now]
    assert part(tensor, 4, "turn")[match.state.pos_idx] == 1.0
    assert match.state.positions[match.state.pos_idx] == seat


@pytest.mark.parametrize(
    "options", [{}, {"show_tower": True, "reveal_action_cards": "all_at_once"}]
)
def test_observation_ignores_other_seats_secrets(options: dict[str, Any]) -> None:
    """At many moments of a random game (planning and the actions), a seat's tensor stays the
    same when other seats' plans, bids and the hidden tower are redrawn (vary_secrets)."""
    match = sengoku.new_match("shogun", 4, seed=6, options=options)
    rng = Rng(6)
    step = 0
    while match.outcome() is None:
        if step % 5 == 0:
            for seat in range(4):
                varied = GAME.vary_secrets(match.state, seat, Rng(step))
                view = {**match.view(seat), **GAME.view(varied, seat)}
                assert GAME.observation_tensor(view) == GAME.observation_tensor(match.view(seat))
        seat = rng.choice(match.to_act())
        match.act(seat, rng.choice(match.legal_actions(seat)))
        step += 1

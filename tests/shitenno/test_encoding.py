"""The research encoding (issue 18): action tokens, the prefix tree, the observation tensor."""

from __future__ import annotations

from typing import Any

import pytest

import sengoku
from sengoku.core import ActionSpace, Decision, Match, Rng, options_to_json
from sengoku.games.shitenno.encoding import SEAT_LAYOUT, VOCABULARY, layout
from sengoku.games.shitenno.state import GOLDEN, Phase, State

from .test_control import control
from .util import (
    BU,
    CHUGOKU,
    EXCHANGE,
    GAME,
    KANTO,
    PLUS_ONE,
    SO,
    act,
    fill,
    set_hand,
    tile,
)


def full_view(s: State, seat: int | None) -> dict[str, Any]:
    """The view :meth:`Match.view` would give for state ``s``."""
    return {
        "game": "shitenno",
        "players": s.players,
        "options": options_to_json(s.options),
        "seat": seat,
        "to_act": GAME.to_act(s),
        **GAME.view(s, seat),
    }


def part(tensor: list[float], players: int, name: str) -> list[float]:
    """The values of one part of the observation (see :func:`layout`)."""
    ((offset, size),) = [(o, n) for part, o, n in layout(players) if part == name]
    return tensor[offset : offset + size]


def seat_range(players: int, slot: int, name: str) -> range:
    """Where one field of the block of seat slot ``slot`` (0: the viewing seat) lies."""
    ((start, size),) = [(o, n) for part, o, n in layout(players) if part == "seats"]
    ((offset, width),) = [(o, n) for field, o, n in SEAT_LAYOUT if field == name]
    begin = start + slot * (size // players) + offset
    return range(begin, begin + width)


def seat_field(tensor: list[float], players: int, slot: int, name: str) -> list[float]:
    """The values of one field of the block of seat slot ``slot`` (0: the viewing seat)."""
    return [tensor[i] for i in seat_range(players, slot, name)]


def random_play(players: int, seed: int, options: dict[str, Any] | None = None) -> list[Match]:
    """The match after each action of a seeded random game (copies), start and end included."""
    m = sengoku.new_match("shitenno", players, seed=seed, options=options or {})
    rng = Rng(seed + 100)
    seen = [m.clone()]
    while m.outcome() is None:
        seat = m.to_act()[0]
        m.act(seat, rng.choice(m.legal_actions(seat)))
        seen.append(m.clone())
    return seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_vocabulary_has_47_tokens_for_every_player_count_and_option_set(players: int) -> None:
    """The vocabulary is 47 distinct tokens, the same for every player count and option set."""
    for options in [{}, *GAME.option_sets]:
        space = ActionSpace.of(sengoku.new_match("shitenno", players, seed=1, options=options))
        assert space.tokens == VOCABULARY
        assert space.size == len(set(VOCABULARY)) == 47
    assert VOCABULARY[:3] == ("troop Bu", "troop Sa", "troop Sh")
    assert "province Kanto" in VOCABULARY and "confirm" in VOCABULARY


def test_the_first_actions_of_a_seeded_match_spell_as_one_token() -> None:
    """The Tairo's first choices are the card or tile to add, one token each; a finished lot
    is offered with the single token "offer" (the state knows the lot and its taker), and the
    taker answers "accept" or "refuse"."""
    m = sengoku.new_match("shitenno", 3, seed=1)
    seat = m.to_act()[0]
    spelled = [GAME.action_tokens(m.state, seat, a) for a in m.legal_actions(seat)]
    assert spelled == [
        ["troop Sh"],
        ["troop So"],
        ["troop BuSh"],
        ["troop SaSa"],
        ["koku 1"],
        ["koku 3"],
        ["tile Daimyo"],
        ["tile Shomyo"],
        ["tile Sensei"],
        ["tile Hatamoto"],
    ]
    m.act(seat, "add troop Sh to the lot")
    m.act(seat, "add hierarchy tile Hatamoto to the lot")
    offer = m.legal_actions(seat)[-1]
    assert str(offer) == "offer lot Sh+Hatamoto to Green"
    assert GAME.action_tokens(m.state, seat, offer) == ["offer"]
    m.act(seat, offer)
    taker = m.to_act()[0]
    assert [GAME.action_tokens(m.state, taker, a) for a in m.legal_actions(taker)] == [
        ["accept"],
        ["refuse"],
    ]


def test_a_payment_spells_its_price_cards_tiles_then_confirm() -> None:
    """A Place leaves its province out (chosen just before) and spells the price paid, the
    troop cards in data order, the koku cards highest first, the tiles, then "confirm"."""
    s, rng = control()
    set_hand(s, 0, ["BuSa", "Sh", "Sa"], [1, 3, 2])
    s.tiles[0] = [tile(SO, EXCHANGE), tile(BU, PLUS_ONE)]
    assert GAME.action_tokens(s, 0, GAME.parse_action(s, 0, "control Chugoku")) == [
        "province Chugoku"
    ]
    act(s, 0, "control Chugoku", rng)
    spelled = {str(a): GAME.action_tokens(s, 0, a) for a in GAME.legal_actions(s, 0)}
    assert spelled["place Chugoku paying koku 3"] == ["pay koku", "koku 3", "confirm"]
    assert spelled["place Chugoku paying koku 2+1"] == ["pay koku", "koku 2", "koku 1", "confirm"]
    assert spelled["place Chugoku paying troops Sh+BuSa using Exchange"] == [
        "pay troops",
        "troop Sh",
        "troop BuSa",
        "use Exchange",
        "confirm",
    ]
    assert spelled["place Chugoku paying koku 1+Sa using Exchange, +1"] == [
        "pay koku",
        "troop Sa",
        "koku 1",
        "use Exchange",
        "use +1",
        "confirm",
    ]
    assert len({tuple(t) for t in spelled.values()}) == len(spelled) == 19


def test_the_hatamoto_wild_troop_and_the_golden_flip_are_spelled() -> None:
    """The Hatamoto's wild troop is the token "use Hatamoto" in a troop payment; the
    Sensei's flip names the province and the space; Draw tiles and the end of a turn are
    one token."""
    s, rng = control(hatamoto_every_placement=False, sensei_flip="any_time")
    s.titles[0] = 3  # Red is the Hatamoto (the wild troop once a year)
    set_hand(s, 0, ["Sa", "Bu"])
    act(s, 0, "control Chugoku", rng)
    (wild,) = GAME.legal_actions(s, 0)
    assert str(wild) == "place Chugoku paying troops Bu+Sa using Hatamoto"
    assert GAME.action_tokens(s, 0, wild) == [
        "pay troops",
        "troop Bu",
        "troop Sa",
        "use Hatamoto",
        "confirm",
    ]
    s, rng = control(sensei_flip="any_time")
    s.titles[0] = 2  # Red is the Sensei
    fill(s, KANTO, [1, 0])
    s.tiles[0] = [tile(BU, 2)]  # a Draw tile
    spelled = [GAME.action_tokens(s, 0, a) for a in GAME.legal_actions(s, 0)]
    assert ["flip", "province Kanto", "space 2"] in spelled
    assert ["draw troop"] in spelled and spelled[-1] == ["end turn"]


def test_walking_the_tree_gives_back_every_legal_action() -> None:
    """Along seeded random games, every legal action's ids, chosen one by one through a
    Decision (with and without following forced steps), come back as that action."""
    for players, seed in ((2, 3), (4, 4)):
        for m in random_play(players, seed)[:-1:3]:
            space = ActionSpace.of(m)
            seat = m.to_act()[0]
            for action in m.legal_actions(seat):
                ids = space.encode(m, seat, action)
                for forced in (True, False):
                    decision = Decision(space, m, seat, skip_forced=forced)
                    got = None
                    while got is None:  # forced steps are in the prefix already
                        got = decision.choose(ids[len(decision.prefix)])
                    assert got == action and tuple(decision.prefix) == ids


def test_few_ids_are_offered_at_one_step() -> None:
    """Along seeded random games no decision step offers more than 16 ids (the measured
    worst over 800 games per player count is 15: a sharing's cards and four tiles), and a
    decision asks fewer than 1.5 questions on average (1.1 measured)."""
    widest, questions, decisions = 0, 0, 0
    for players in (2, 3, 4):
        for m in random_play(players, seed=players)[:-1]:
            space = ActionSpace.of(m)
            decision = Decision(space, m, m.to_act()[0])
            chosen = None
            while chosen is None:
                ids = decision.legal_ids()
                widest = max(widest, len(ids))
                questions += 1
                chosen = decision.choose(ids[-1])
            decisions += 1
    assert 10 <= widest <= 16
    assert questions / decisions < 1.5


@pytest.mark.parametrize(("players", "size"), [(2, 313), (3, 382), (4, 451)])
def test_the_layout_fills_the_declared_shape(players: int, size: int) -> None:
    """The parts of the layout follow one another and add up to the shape: 175 + 69 P."""
    parts = layout(players)
    assert GAME.observation_shape(players, None) == (size,)
    assert [o for _, o, _ in parts[1:]] == [o + n for _, o, n in parts[:-1]]
    assert parts[-1][1] + parts[-1][2] == size
    m = sengoku.new_match("shitenno", players, seed=2)
    assert len(GAME.observation_tensor(m.view(1))) == size


def test_the_observation_of_a_known_view() -> None:
    """In an odd year seen by Blue (seat 1): the phase one-hot says control, Blue's own block
    comes first with his hand counts and Red (to act) is the last slot; Kanto's spaces name
    their kamons' owners by slot and the golden one; Chugoku's requirement and next value."""
    s, _ = control()
    set_hand(s, 1, ["Sa", "Sa", "SaSh"], [3])
    fill(s, KANTO, [0, 1])
    s.board[KANTO * 4 + 1] += GOLDEN
    s.score = [10, 20, 0, 0]
    tensor = GAME.observation_tensor(full_view(s, 1))
    assert part(tensor, 4, "phase") == [0, 0, 0, 1, 0, 0, 0]
    troops = seat_field(tensor, 4, 0, "hand troops")
    assert troops[1] == 2 / 6 and troops[9] == 1.0 and sum(troops) == 2 / 6 + 1
    assert seat_field(tensor, 4, 0, "hand koku") == [0.0, 0.0, 1 / 4]
    assert seat_field(tensor, 4, 0, "title") == [0, 1, 0, 0]  # Blue is the Shomyo
    assert seat_field(tensor, 4, 0, "score") == [20 / 256]
    assert seat_field(tensor, 4, 3, "acting") == [1.0]  # Red, three seats after Blue
    assert seat_field(tensor, 4, 3, "hand troops") == [0.0] * 14  # Red's hand is secret
    provinces = part(tensor, 4, "provinces")
    width = len(provinces) // 8
    kanto = provinces[KANTO * width : KANTO * width + width]
    assert kanto[:5] == [0, 0, 0, 1, 0]  # space 1: Red (slot 3), simple
    assert kanto[5:10] == [1, 0, 0, 0, 1]  # space 2: Blue (slot 0), golden
    assert kanto[10:20] == [0.0] * 10  # two free spaces
    chugoku = provinces[CHUGOKU * width : CHUGOKU * width + width]
    assert chugoku[20:] == [1.0, 1 / 4, 2 / 4, 0.0, 0.0, 3 / 11]  # 3 tiles; Bu, Sa, Sa; 3


def test_the_observation_does_not_depend_on_other_seats_secrets() -> None:
    """Redealing what a seat cannot see (other hands, deck orders, stacked tiles) leaves its
    observation unchanged, while a change to its own hand changes it."""
    for players in (2, 4):
        for step, m in enumerate(random_play(players, seed=7)[::9]):
            for seat in range(players):
                tensor = GAME.observation_tensor(m.view(seat))
                other = GAME.vary_secrets(m.state, seat, Rng(step))
                assert GAME.observation_tensor(full_view(other, seat)) == tensor
    s, _ = control()
    before = GAME.observation_tensor(full_view(s, 2))
    set_hand(s, 2, ["Bu"])
    assert GAME.observation_tensor(full_view(s, 2)) != before


def test_a_spectator_is_encoded_with_seat_zero_first_and_no_hand() -> None:
    """A spectator's view encodes like seat 0's with every hand empty (unless open_hands,
    where every hand is in every view and both encodings are the same)."""
    m = sengoku.new_match("shitenno", 3, seed=4)
    spectator, red = GAME.observation_tensor(m.view(None)), GAME.observation_tensor(m.view(0))
    assert seat_field(red, 3, 0, "hand troops") != [0.0] * 14
    hand = [*seat_range(3, 0, "hand troops"), *seat_range(3, 0, "hand koku")]
    assert spectator == [0.0 if i in hand else v for i, v in enumerate(red)]
    m = sengoku.new_match("shitenno", 3, seed=4, options={"open_hands": True})
    assert GAME.observation_tensor(m.view(None)) == GAME.observation_tensor(m.view(0))


def test_the_observation_stays_in_the_unit_interval() -> None:
    """Every value of every seat's observation along a seeded game lies in [0, 1]; at the
    end the phase is "over" and the final scores are filled in."""
    matches = random_play(4, seed=5)
    for m in [*matches[::5], matches[-1]]:
        for seat in range(4):
            assert all(0.0 <= v <= 1.0 for v in GAME.observation_tensor(m.view(seat)))
    end = GAME.observation_tensor(matches[-1].view(2))
    assert part(end, 4, "phase")[Phase.OVER] == 1.0
    final = matches[-1].outcome()
    assert final is not None
    assert seat_field(end, 4, 0, "final score") == [final.scores[2] / 256]

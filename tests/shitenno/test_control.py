"""The odd year: province control (shitenno.md §3.1, §3.2, §4.4; gaps G15, G16)."""

from __future__ import annotations

from typing import Any

from sengoku.core import Rng
from sengoku.games.shitenno.data import kind_of_code
from sengoku.games.shitenno.state import EMPTY, Phase, State

from .test_sharing import sharing
from .util import (
    BU,
    CHUGOKU,
    DAIMYO,
    DRAW,
    EXCHANGE,
    GAME,
    HATAMOTO,
    KANTO,
    KYUSHU,
    PLUS_ONE,
    SA,
    SENSEI,
    SH,
    SHOMYO,
    SO,
    act,
    fill,
    legal,
    new_state,
    odd_year,
    set_hand,
    tile,
)


def control(players: int = 4, **options: Any) -> tuple[State, Rng]:
    """An odd year, Red Daimyo acting first, every hand empty, no bonus tile held; Chugoku's
    stack has Bu/Exchange on top, then Sh/+1, then So/Draw."""
    s, rng = new_state(players, **options)
    odd_year(s, [DAIMYO, SHOMYO, SENSEI, HATAMOTO][:players])
    for p in range(players):
        set_hand(s, p)
        s.tiles[p] = []
    s.stacks[CHUGOKU] = [tile(SO, DRAW), tile(SH, PLUS_ONE), tile(BU, EXCHANGE)]
    return s, rng


def test_requirement_is_n_minus_one_base_plus_top_tile_troop() -> None:
    """shitenno.md §3.1: (N-1) troops of the province's type + 1 of the top tile's troop."""
    s, _ = control()
    assert GAME.view(s, 0)["provinces"][CHUGOKU]["requirement"] == ["Bushi", "Samurai", "Samurai"]
    s.stacks[KANTO] = [tile(SA, DRAW)]
    assert GAME.view(s, 0)["provinces"][KANTO]["requirement"] == ["Samurai"] * 4


def test_troop_payment_with_a_double_card_and_no_change() -> None:
    """shitenno.md §4.4 steps 3-6: Sa+Sa+BuBu pays Sa, Sa, Bu; the second Bu is lost (no
    change); the kamon goes on the leftmost space, scores 3 + 2 (Daimyo) and takes the top
    bonus tile; spent troop cards go to the discard pile."""
    s, rng = control()
    set_hand(s, 0, ["Sa", "Sa", "BuBu", "So"])
    assert "control Chugoku" in legal(s, 0)
    act(s, 0, "control Chugoku", rng)
    assert s.phase is Phase.PAY
    assert legal(s, 0) == ["place Chugoku paying troops Sa+Sa+BuBu"]
    log = act(s, 0, "place Chugoku paying troops Sa+Sa+BuBu", rng)
    assert log == [
        "Red places a kamon on Chugoku space 1 paying troops Samurai, Samurai, Bushi+Bushi: "
        "+5 favour (+2 as Daimyo); takes the bonus tile Exchange (Bushi face)"
    ]
    assert s.hand_troops[0] == [0, 0, 0, 1] + [0] * 10  # only the Sohei is left
    assert s.troop_discard[kind_of_code("Sa")] == 2 and s.troop_discard[kind_of_code("BuBu")] == 1
    assert s.board[CHUGOKU * 4 : CHUGOKU * 4 + 4] == [0, EMPTY, EMPTY, EMPTY]
    assert s.score[0] == 5 and s.kamons[0] == 7
    assert s.tiles[0] == [tile(BU, EXCHANGE)]
    assert GAME.view(s, 0)["provinces"][CHUGOKU]["requirement"] == ["Samurai", "Samurai", "Shinobi"]
    assert s.phase is Phase.CONTROL and s.placed == 1 and GAME.to_act(s) == [0]


def test_koku_payment_costs_the_space_value_without_change() -> None:
    """shitenno.md §3.2 and §4.4 step 3: the koku price is the space value (Kanto's first
    space: 5); 3+2 pays exactly, 3+3 overpays with no change; spent koku leave the game."""
    s, rng = control()
    set_hand(s, 0, koku=[3, 3, 2])
    act(s, 0, "control Kanto", rng)
    assert legal(s, 0) == ["place Kanto paying koku 3+2", "place Kanto paying koku 3+3"]
    act(s, 0, "place Kanto paying koku 3+3", rng)
    assert s.hand_koku[0] == [0, 0, 1, 0] and s.koku_out == [0, 0, 0, 2]
    assert s.score[0] == 5 + 2
    assert s.troop_discard == [0] * 14


def test_fourth_space_needs_the_base_requirement_and_gives_no_bonus() -> None:
    """shitenno.md §3.1: with the stack used up, the fourth space needs N troops of the
    province's type, scores its value (9) and gives no bonus tile."""
    s, rng = control()
    fill(s, KYUSHU, [1, 2, 3])
    s.stacks[KYUSHU] = []
    set_hand(s, 0, ["Bu", "Bu", "BuSa", "Sa"])
    assert GAME.view(s, 0)["provinces"][KYUSHU]["requirement"] == ["Bushi"] * 3
    act(s, 0, "control Kyushu", rng)
    assert legal(s, 0) == ["place Kyushu paying troops Bu+Bu+BuSa"]
    log = act(s, 0, "place Kyushu paying troops Bu+Bu+BuSa", rng)
    assert "bonus tile" not in log[0]
    assert s.board[KYUSHU * 4 + 3] == 0 and s.score[0] == 9 + 2 and s.tiles[0] == []


def test_full_province_cannot_be_targeted() -> None:
    """shitenno.md §4.4 step 2: only a province with a free space can be chosen."""
    s, _ = control()
    fill(s, KYUSHU, [1, 2, 3, 1])
    s.stacks[KYUSHU] = []
    set_hand(s, 0, ["Bu", "Bu", "Bu"], [3, 3, 3, 3])
    assert "control Kyushu" not in legal(s, 0)
    assert "control Tohoku" in legal(s, 0)


def test_at_most_two_placements_then_the_next_player() -> None:
    """shitenno.md §4.4 step 1: 0, 1 or 2 kamons per turn, even in the same province; after
    two the turn passes (nothing else is left to do without a Draw tile)."""
    s, rng = control()
    s.stacks[CHUGOKU] = []
    set_hand(s, 0, koku=[3, 3, 3, 3])
    act(s, 0, "control Chugoku", rng)
    act(s, 0, "place Chugoku paying koku 3", rng)
    act(s, 0, "control Chugoku", rng)
    act(s, 0, "place Chugoku paying koku 3+3", rng)  # second space costs 4
    assert s.board[0:2] == [0, 0]
    assert GAME.to_act(s) == [1] and s.placed == 0


def test_end_turn_without_placing() -> None:
    """shitenno.md §4.4 step 1: a player may place nothing."""
    s, rng = control()
    set_hand(s, 0, koku=[3])
    assert legal(s, 0)[-1] == "end turn"
    act(s, 0, "end turn", rng)
    assert GAME.to_act(s) == [1] and s.kamons[0] == 8


def test_daimyo_and_shomyo_bonus() -> None:
    """shitenno.md §2.5 and §4.4 step 5: +2 for the Daimyo, +1 for the Shomyo per kamon; the
    Sensei and the Hatamoto score only the space value."""
    s, rng = control()
    s.stacks[CHUGOKU] = []  # spaces worth 3, 4, 6, 9
    set_hand(s, 0, koku=[3])
    set_hand(s, 1, koku=[3, 1])
    set_hand(s, 2, koku=[3, 3])
    set_hand(s, 3, koku=[3, 3, 3])
    for seat, payment, gain in ((0, "3", 3 + 2), (1, "3+1", 4 + 1), (2, "3+3", 6), (3, "3+3+3", 9)):
        assert GAME.to_act(s) == [seat]
        act(s, seat, "control Chugoku", rng)
        log = act(s, seat, f"place Chugoku paying koku {payment}", rng)
        assert s.score[seat] == gain, log
        if GAME.to_act(s) == [seat]:
            act(s, seat, "end turn", rng)
        if s.phase is Phase.FLIP:  # the Sensei's golden flip (not a placement)
            act(s, seat, "keep kamons simple", rng)
    assert s.score == [5, 5, 6, 9]


def test_no_mixing_of_troops_and_koku() -> None:
    """shitenno.md §9.2 G15: a payment is troops or koku, not both (without Exchange)."""
    s, _ = control()
    s.stacks[CHUGOKU] = [tile(SH, DRAW)]
    set_hand(s, 0, ["Sa", "Sa"], [1])
    assert "control Chugoku" not in legal(s, 0)


def test_mixed_payments_option() -> None:
    """shitenno.md §6 G15 (option mixed_payments): a koku card may stand in for one troop."""
    s, rng = control(mixed_payments=True)
    s.stacks[CHUGOKU] = [tile(SH, DRAW)]
    set_hand(s, 0, ["Sa", "Sa"], [1])
    act(s, 0, "control Chugoku", rng)
    assert legal(s, 0) == ["place Chugoku paying troops Sa+Sa+koku 1"]


def test_koku_price_with_title_bonus_option() -> None:
    """shitenno.md §6 G16: by default the price is the space value; the option adds the
    Daimyo's +2."""
    s, _ = control()
    set_hand(s, 0, koku=[3, 2])
    assert "control Kanto" in legal(s, 0)
    s2, _ = control(koku_price_includes_title_bonus=True)
    set_hand(s2, 0, koku=[3, 2])
    assert "control Kanto" not in legal(s2, 0)
    set_hand(s2, 0, koku=[3, 2, 2])
    assert "control Kanto" in legal(s2, 0)


def test_turns_follow_the_title_order_after_a_real_sharing() -> None:
    """shitenno.md §2.5 and §4.4: after a sharing, the generals take their odd-year turns in
    the order of the titles just shared: Daimyo, Shomyo, Sensei, Hatamoto."""
    s, rng = sharing()
    for name, to, colour in (
        ("Hatamoto", 1, "Blue"),
        ("Sensei", 2, "Green"),
        ("Shomyo", 3, "Black"),
    ):
        act(s, 0, f"add hierarchy tile {name} to the lot", rng)
        act(s, 0, f"offer lot {name} to {colour}", rng)
        act(s, to, "accept lot", rng)
    assert s.titles == [DAIMYO, HATAMOTO, SENSEI, SHOMYO]  # Red, Blue, Green, Black
    turns = []
    while s.phase is Phase.CONTROL:
        seat = GAME.to_act(s)[0]
        turns.append(seat)
        act(s, seat, "end turn", rng)
    assert turns == [0, 3, 2, 1]
    assert s.phase is Phase.BUILD  # the next sharing

"""Bonus tiles (shitenno.md §4.5, §9.2 G6, G18) and title powers (§2.5, G7, G8)."""

from __future__ import annotations

from sengoku.games.shitenno.data import kind_of_code
from sengoku.games.shitenno.state import GOLDEN, Phase

from .test_control import control
from .util import (
    BU,
    CHUGOKU,
    DRAW,
    EXCHANGE,
    GAME,
    KANSAI,
    KANTO,
    KYUSHU,
    PLUS_ONE,
    SA,
    SENSEI,
    SH,
    SO,
    act,
    english,
    legal,
    set_hand,
    tile,
)


def test_exchange_turns_one_troop_into_another() -> None:
    """shitenno.md §9.2 G6 (Exchange, unit rule): one troop symbol on a paid card becomes the
    type needed; the tile is spent and leaves the game."""
    s, rng = control()
    s.stacks[CHUGOKU] = [tile(SH, DRAW)]  # needs Sa, Sa, Sh
    set_hand(s, 0, ["Sa", "Sa", "Bu"])
    s.tiles[0] = [tile(SO, EXCHANGE)]
    act(s, 0, "control Chugoku", rng)
    assert legal(s, 0) == ["place Chugoku paying troops Bu+Sa+Sa using Exchange"]
    act(s, 0, "place Chugoku paying troops Bu+Sa+Sa using Exchange", rng)
    assert s.tiles[0] == [tile(SH, DRAW)]  # the Exchange is spent, the won tile is kept
    assert s.used_tiles == [tile(SO, EXCHANGE)]


def test_exchange_turns_a_koku_into_a_troop_and_a_troop_into_koku() -> None:
    """shitenno.md §9.2 G6: one koku of a paid koku card becomes a troop, or one troop of a
    paid troop card becomes one koku."""
    s, rng = control()
    s.stacks[CHUGOKU] = [tile(SH, DRAW)]
    set_hand(s, 0, ["Sa", "Sa", "So"], [1, 3])
    s.tiles[0] = [tile(SO, EXCHANGE)]
    act(s, 0, "control Chugoku", rng)
    assert set(legal(s, 0)) >= {
        "place Chugoku paying troops Sa+Sa+So using Exchange",
        "place Chugoku paying troops Sa+Sa+koku 1 using Exchange",
        "place Chugoku paying troops Sa+Sa+koku 3 using Exchange",
        "place Chugoku paying koku 3",
    }
    s2, rng2 = control()
    set_hand(s2, 0, ["So"], [3, 1])
    s2.tiles[0] = [tile(BU, EXCHANGE)]
    act(s2, 0, "control Kanto", rng2)  # price 5 = 3 + 1 + one exchanged troop
    assert legal(s2, 0) == ["place Kanto paying koku 3+1+So using Exchange"]


def test_exchange_card_rule_option() -> None:
    """shitenno.md §6 G6 (option exchange_rule='card'): a whole koku card counts as one troop
    of any type; a troop cannot become another troop."""
    s, rng = control(exchange_rule="card")
    s.stacks[CHUGOKU] = [tile(SH, DRAW)]
    set_hand(s, 0, ["Sa", "Sa", "Bu"], [2])
    s.tiles[0] = [tile(SO, EXCHANGE)]
    act(s, 0, "control Chugoku", rng)
    assert legal(s, 0) == [
        "place Chugoku paying troops Sa+Sa+koku 2 using Exchange",
        "place Chugoku paying koku 2+Bu using Exchange",
        "place Chugoku paying koku 2+Sa using Exchange",
    ]


def test_plus_one_adds_a_troop_of_a_paid_type_or_a_koku() -> None:
    """shitenno.md §9.2 G6 (+1): one more troop of a type printed on a paid troop card, or
    +1 koku on a koku payment."""
    s, rng = control()
    s.stacks[CHUGOKU] = [tile(SH, DRAW)]
    set_hand(s, 0, ["Sa", "Sh"], [3, 1])
    s.tiles[0] = [tile(BU, PLUS_ONE)]
    act(s, 0, "control Chugoku", rng)
    assert "place Chugoku paying troops Sa+Sh using +1" in legal(s, 0)
    s2, rng2 = control()
    set_hand(s2, 0, koku=[3, 1])
    s2.tiles[0] = [tile(BU, PLUS_ONE)]
    act(s2, 0, "control Kanto", rng2)
    assert legal(s2, 0) == ["place Kanto paying koku 3+1 using +1"]
    act(s2, 0, "place Kanto paying koku 3+1 using +1", rng2)
    assert s2.score[0] == 5 + 2 and s2.used_tiles == [tile(BU, PLUS_ONE)]


def test_plus_one_cannot_add_an_unpaid_type() -> None:
    """shitenno.md §9.2 G6: +1 copies a type you already pay with, so Sa+Sa+1 cannot make a
    Shinobi."""
    s, _ = control()
    s.stacks[CHUGOKU] = [tile(SH, DRAW)]
    set_hand(s, 0, ["Sa", "Sa"])
    s.tiles[0] = [tile(BU, PLUS_ONE)]
    assert "control Chugoku" not in legal(s, 0)


def test_several_tiles_on_one_placement_and_the_option() -> None:
    """shitenno.md §9.2 G6: several tiles may be combined on one placement; the option
    combine_bonus_tiles=False allows one."""
    s, rng = control()
    s.stacks[CHUGOKU] = [tile(SH, DRAW)]
    set_hand(s, 0, ["Sa", "Bu"])
    s.tiles[0] = [tile(BU, PLUS_ONE), tile(SO, EXCHANGE)]
    act(s, 0, "control Chugoku", rng)
    assert legal(s, 0) == ["place Chugoku paying troops Bu+Sa using Exchange, +1"]
    s2, _ = control(combine_bonus_tiles=False)
    s2.stacks[CHUGOKU] = [tile(SH, DRAW)]
    set_hand(s2, 0, ["Sa", "Bu"])
    s2.tiles[0] = [tile(BU, PLUS_ONE), tile(SO, EXCHANGE)]
    assert "control Chugoku" not in legal(s2, 0)


def test_draw_tile_draws_a_troop_card_in_secret() -> None:
    """shitenno.md §9.2 G6/G18: a Draw tile gives one troop card; only the drawer sees it."""
    s, rng = control()
    s.tiles[0] = [tile(BU, DRAW)]
    s.troop_deck.append(kind_of_code("SaSa"))
    assert "use Draw tile" in legal(s, 0)
    assert "use Draw tile for a koku card" not in legal(s, 0)
    entries = GAME.apply(s, 0, GAME.parse_action(s, 0, "use Draw tile"), rng)
    assert [(english(e), e.seats) for e in entries] == [
        ("Red uses a Draw tile and draws a troop card", None),
        ("Red draws troop Samurai+Samurai", frozenset({0})),
    ]
    assert s.hand_troops[0][kind_of_code("SaSa")] == 1 and s.tiles[0] == []


def test_draw_tile_koku_option() -> None:
    """shitenno.md §6 G18 (option draw_tile_koku): Draw may take a koku card instead."""
    s, rng = control(draw_tile_koku=True)
    s.tiles[0] = [tile(BU, DRAW)]
    s.koku_deck.append(3)
    act(s, 0, "use Draw tile for a koku card", rng)
    assert s.hand_koku[0][3] == 1


def test_tile_won_on_the_first_placement_helps_the_second() -> None:
    """shitenno.md §9.2 G6 proposal: a tile won on the first placement may be used on the
    second; with new_tiles_usable_same_turn=False only from the next turn."""
    for usable in (True, False):
        s, rng = control(new_tiles_usable_same_turn=usable)
        s.stacks[CHUGOKU] = [tile(SH, DRAW), tile(SA, PLUS_ONE)]
        set_hand(s, 0, ["Sa", "Sa", "Sa", "Sa", "Sa", "Sh"])
        act(s, 0, "control Chugoku", rng)
        act(s, 0, "place Chugoku paying troops Sa+Sa+Sa", rng)
        act(s, 0, "control Chugoku", rng)  # now needs Sa, Sa, Sh
        assert ("place Chugoku paying troops Sa+Sh using +1" in legal(s, 0)) is usable
        if not usable:
            assert s.fresh == [tile(SA, PLUS_ONE)] and s.tiles[0] == []
            act(s, 0, "place Chugoku paying troops Sa+Sa+Sh", rng)
            assert GAME.to_act(s) == [1]  # the turn is over: the tiles are now usable
            assert s.tiles[0] == [tile(SA, PLUS_ONE), tile(SH, DRAW)] and s.fresh == []


def test_sensei_flips_after_his_placements() -> None:
    """shitenno.md §2.5 and §9.2 G8: once per odd year, after his placements, the Sensei may
    turn one of his simple kamons golden."""
    s, rng = control()
    s.board[KANTO * 4] = 2  # Green is Sensei
    set_hand(s, 2, koku=[3])
    act(s, 0, "end turn", rng)
    act(s, 1, "end turn", rng)
    assert not any(a.startswith("flip") for a in legal(s, 2))
    act(s, 2, "control Chugoku", rng)
    act(s, 2, "place Chugoku paying koku 3", rng)
    assert s.phase is Phase.CONTROL and not any(a.startswith("flip") for a in legal(s, 2))
    act(s, 2, "end turn", rng)  # his placements are over: now the flip
    assert s.phase is Phase.FLIP
    assert legal(s, 2) == [
        "flip Chugoku space 1 to golden",
        "flip Kanto space 1 to golden",
        "keep kamons simple",
    ]
    act(s, 2, "flip Kanto space 1 to golden", rng)
    assert s.board[KANTO * 4] == 2 + GOLDEN and s.flipped
    assert GAME.to_act(s) == [3] and GAME.view(s, None)["provinces"][KANTO]["spaces"][0] == {
        "seat": 2,
        "golden": True,
    }
    # once: the year ends without a second flip; his other kamon stays simple
    act(s, 3, "end turn", rng)
    assert s.phase is Phase.BUILD and s.board[CHUGOKU * 4] == 2
    # per odd year: after the next sharing, the Sensei may flip again
    while s.phase is not Phase.CONTROL:
        seat = GAME.to_act(s)[0]
        options = legal(s, seat)
        for start in ("accept", "offer", "add hierarchy", "take the last"):
            chosen = [a for a in options if a.startswith(start)]
            if chosen:
                act(s, seat, chosen[0], rng)
                break
        else:
            act(s, seat, options[0], rng)
    sensei = s.titles.index(SENSEI)
    assert not s.flipped
    s.board[KANSAI * 4] = sensei  # make sure he has a simple kamon
    while s.phase is Phase.CONTROL:
        act(s, GAME.to_act(s)[0], "end turn", rng)
    assert s.phase is Phase.FLIP and GAME.to_act(s) == [sensei]
    assert "flip Kansai space 1 to golden" in legal(s, sensei)


def test_sensei_any_time_option() -> None:
    """shitenno.md §6 G8 (option sensei_flip='any_time'): the flip may come at any moment of
    his turn, still once."""
    s, rng = control(sensei_flip="any_time")
    s.board[KANTO * 4] = 2
    s.board[CHUGOKU * 4] = 2
    act(s, 0, "end turn", rng)
    act(s, 1, "end turn", rng)
    assert "flip Kanto space 1 to golden" in legal(s, 2)
    set_hand(s, 2, koku=[3, 3])
    act(s, 2, "flip Chugoku space 1 to golden", rng)
    assert not any(a.startswith("flip") for a in legal(s, 2))
    act(s, 2, "end turn", rng)
    assert GAME.to_act(s) == [3]


def test_hatamoto_wild_troop_on_every_placement() -> None:
    """shitenno.md §9.2 G7 and §9.3 item 6 (the default swapped to every placement): the
    Hatamoto's title is one troop of his choice on each placement paid with troops."""
    s, rng = control()
    s.stacks[CHUGOKU] = [tile(SA, DRAW), tile(SA, DRAW)]  # needs Sa x 3, twice
    set_hand(s, 3, ["Sa", "Sa", "Sa", "Sa"])
    for seat in range(3):
        act(s, seat, "end turn", rng)
    act(s, 3, "control Chugoku", rng)
    assert legal(s, 3) == ["place Chugoku paying troops Sa+Sa using Hatamoto"]
    act(s, 3, "place Chugoku paying troops Sa+Sa using Hatamoto", rng)
    act(s, 3, "control Chugoku", rng)
    assert legal(s, 3) == ["place Chugoku paying troops Sa+Sa using Hatamoto"]


def test_hatamoto_once_per_year_option() -> None:
    """shitenno.md §6 G7 (option hatamoto_every_placement=False): once per odd year, and he
    may keep it for later."""
    s, rng = control(hatamoto_every_placement=False)
    s.stacks[CHUGOKU] = [tile(SA, DRAW), tile(SA, DRAW)]
    set_hand(s, 3, ["Sa", "Sa", "Sa", "Sa"])
    for seat in range(3):
        act(s, seat, "end turn", rng)
    act(s, 3, "control Chugoku", rng)
    assert legal(s, 3) == [
        "place Chugoku paying troops Sa+Sa using Hatamoto",
        "place Chugoku paying troops Sa+Sa+Sa",
    ]
    act(s, 3, "place Chugoku paying troops Sa+Sa using Hatamoto", rng)
    assert s.wild_used
    assert "control Chugoku" not in legal(s, 3)  # two Samurai left, no wild troop


def test_documented_hatamoto_example_is_legal() -> None:
    """docs/shitenno.md: Kyushu needing Bu, Bu, Sa is paid by a BuBu card and the wild troop,
    the example the docs give; a Bu card beside it would be a spare card and is not used."""
    s, rng = control()
    s.stacks[KYUSHU] = [tile(SA, DRAW)]
    set_hand(s, 3, ["Bu", "BuBu"])
    for seat in range(3):
        act(s, seat, "end turn", rng)
    act(s, 3, "control Kyushu", rng)
    assert legal(s, 3) == ["place Kyushu paying troops BuBu using Hatamoto"]
    act(s, 3, "place Kyushu paying troops BuBu using Hatamoto", rng)
    assert s.hand_troops[3][kind_of_code("Bu")] == 1


def test_documented_exchange_example_is_legal() -> None:
    """docs/shitenno.md: Chugoku needing Bu, Sa, Sa is paid by Sa+Sa+Sh with an Exchange
    turning the Sh into a Bu."""
    s, rng = control()
    set_hand(s, 0, ["Sa", "Sa", "Sh"])
    s.tiles[0] = [tile(SO, EXCHANGE)]
    act(s, 0, "control Chugoku", rng)
    assert legal(s, 0) == ["place Chugoku paying troops Sa+Sa+Sh using Exchange"]


def test_a_kept_plus_one_tile_leaves_the_exchange_payment() -> None:
    """shitenno.md §4.5 and docs 'minimal payments': Kanto's first space costs 5; with koku
    3+1, a Sohei card, a +1 and an Exchange tile, both 3+1 using +1 and 3+1+So using
    Exchange (keeping the +1) are offered."""
    s, rng = control()
    set_hand(s, 0, ["So"], [3, 1])
    s.tiles[0] = [tile(BU, PLUS_ONE), tile(SA, EXCHANGE)]
    act(s, 0, "control Kanto", rng)
    options = legal(s, 0)
    assert "place Kanto paying koku 3+1 using +1" in options
    assert "place Kanto paying koku 3+1+So using Exchange" in options
    act(s, 0, "place Kanto paying koku 3+1+So using Exchange", rng)
    assert tile(BU, PLUS_ONE) in s.tiles[0] and tile(SA, EXCHANGE) not in s.tiles[0]


def test_exchange_and_plus_one_together_on_a_double_card() -> None:
    """shitenno.md §4.5, §9.2 G6 (tiles combine): SaSa pays Sa, Sa; an Exchange turns one of
    its Sa into the Sh needed and a +1 adds a Sa back (a type printed on the card)."""
    s, rng = control()
    s.stacks[CHUGOKU] = [tile(SH, DRAW)]  # needs Sa, Sa, Sh
    set_hand(s, 0, ["SaSa"])
    s.tiles[0] = [tile(BU, PLUS_ONE), tile(BU, EXCHANGE)]
    act(s, 0, "control Chugoku", rng)
    assert legal(s, 0) == ["place Chugoku paying troops SaSa using Exchange, +1"]
    s2, _ = control(combine_bonus_tiles=False)
    s2.stacks[CHUGOKU] = [tile(SH, DRAW)]
    set_hand(s2, 0, ["SaSa"])
    s2.tiles[0] = [tile(BU, PLUS_ONE), tile(BU, EXCHANGE)]
    assert "control Chugoku" not in legal(s2, 0)


def test_hatamoto_wild_troop_never_pays_koku() -> None:
    """shitenno.md §9.2 G7: the wild troop never applies to a koku payment."""
    s, rng = control()
    set_hand(s, 3, koku=[3, 1])
    for seat in range(3):
        act(s, seat, "end turn", rng)
    assert "control Kanto" not in legal(s, 3)  # 4 koku < 5

"""The options of issue 22, each played to the point where its two settings part: who picks
the last lot's tile (G9/G10), spare cards in a payment (§4.4 step 3), +1 on an exchanged koku,
when a Draw tile may be spent and how many cards it gives (§4.5, §9.2 G6). Each test also
checks that the settings agree elsewhere."""

from __future__ import annotations

from typing import Any

from sengoku.core import Rng
from sengoku.games.shitenno.actions import Place
from sengoku.games.shitenno.data import kind_of_code
from sengoku.games.shitenno.state import Phase, State

from .test_control import control
from .test_sharing import sharing
from .util import (
    BU,
    CHUGOKU,
    DAIMYO,
    DRAW,
    EXCHANGE,
    GAME,
    HATAMOTO,
    PLUS_ONE,
    SA,
    act,
    english,
    legal,
    set_hand,
    tile,
)


def _without_options(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "options"}


def _play(s: State, rng: Rng, moves: list[tuple[int, str]]) -> list[str]:
    log: list[str] = []
    for seat, text in moves:
        log += act(s, seat, text, rng)
    return log


def test_last_lot_tile_picked_by_the_keeper_under_the_tairo_option() -> None:
    """shitenno.md §9.2 G9/G10 (option last_lot_tile_chooser): with 2 players, when Blue
    refuses Red's lot, Red keeps it; by default Blue, left without a lot, becomes Tairo and
    picks his own tile; under 'tairo' Red stays Tairo and picks the tile Blue gets."""
    moves = [
        (0, "add troop BuSh to the lot"),
        (0, "add hierarchy tile Daimyo to the lot"),
        (0, "offer lot BuSh+Daimyo to Blue"),
        (1, "refuse lot"),
    ]
    s, rng = sharing(2)
    log = _play(s, rng, moves)
    assert "Blue becomes the Tairo" in log
    assert s.phase is Phase.LAST and GAME.to_act(s) == [1] and s.tairo == 1

    t, trng = sharing(2, last_lot_tile_chooser="tairo")
    tlog = _play(t, trng, moves)
    assert tlog == [line for line in log if "becomes the Tairo" not in line]
    assert t.phase is Phase.LAST and GAME.to_act(t) == [0] and t.tairo == 0
    picks = [
        "take the last lot with Shomyo",
        "take the last lot with Sensei",
        "take the last lot with Hatamoto",
    ]
    assert legal(t, 0) == legal(s, 1) == picks and legal(t, 1) == []
    tlog = act(t, 0, "take the last lot with Hatamoto", trng)
    assert "Blue takes the last lot: Samurai, Samurai, koku 2, koku 1 and the Hatamoto tile" in tlog
    assert t.hand_troops[1][kind_of_code("Sa")] == 2 and t.hand_koku[1] == [0, 1, 1, 0]
    assert t.titles == [DAIMYO, HATAMOTO] and t.phase is Phase.CONTROL


def test_last_lot_tile_chooser_agrees_when_the_last_lot_was_accepted() -> None:
    """shitenno.md §9.2 G9: when the last lot offered is accepted, the Tairo is the player
    left without a lot, so both settings give him the choice; at 4 players the last tile is
    taken by itself either way (§4.3 step 5)."""
    three = [
        (0, "add hierarchy tile Daimyo to the lot"),
        (0, "offer lot Daimyo to Blue"),
        (1, "accept lot"),
        (0, "add hierarchy tile Hatamoto to the lot"),
        (0, "offer lot Hatamoto to Green"),
        (2, "accept lot"),
        (0, "take the last lot with Sensei"),
    ]
    four = [
        (0, "add hierarchy tile Hatamoto to the lot"),
        (0, "offer lot Hatamoto to Blue"),
        (1, "refuse lot"),
        (2, "refuse lot"),
        (3, "refuse lot"),
        (1, "add hierarchy tile Daimyo to the lot"),
        (1, "offer lot Daimyo to Green"),
        (2, "accept lot"),
        (1, "add hierarchy tile Shomyo to the lot"),
        (1, "offer lot Shomyo to Black"),
        (3, "refuse lot"),
    ]
    for players, moves in ((3, three), (4, four)):
        s, rng = sharing(players)
        t, trng = sharing(players, last_lot_tile_chooser="tairo")
        assert _play(s, rng, moves) == _play(t, trng, moves)
        assert _without_options(GAME.view(s, None)) == _without_options(GAME.view(t, None))
        assert s.phase is Phase.CONTROL


def test_overpay_option_offers_a_spare_card_of_the_payment_s_currency() -> None:
    """shitenno.md §4.4 step 3 (option overpay_allowed): Chugoku needs Sa, Sa, Bu. By default
    only minimal payments are offered; with the option each may also carry one spare card of
    its currency, and the spare card is spent like the others."""
    hand = ["Sa", "Sa", "Bu", "So"]
    s, rng = control()
    set_hand(s, 0, hand, [3, 2, 1])
    o, orng = control(overpay_allowed=True)
    set_hand(o, 0, hand, [3, 2, 1])
    assert legal(s, 0) == legal(o, 0)  # the first step does not change
    act(s, 0, "control Chugoku", rng)
    act(o, 0, "control Chugoku", orng)
    minimal = legal(s, 0)
    assert minimal == [
        "place Chugoku paying troops Bu+Sa+Sa",
        "place Chugoku paying koku 2+1",
        "place Chugoku paying koku 3",
    ]
    assert legal(o, 0) == [
        "place Chugoku paying troops Bu+Sa+Sa",
        "place Chugoku paying troops Bu+Sa+Sa+So",
        "place Chugoku paying koku 2+1",
        "place Chugoku paying koku 3+2+1",
        "place Chugoku paying koku 3",
        "place Chugoku paying koku 3+2",
        "place Chugoku paying koku 3+1",
    ]
    act(o, 0, "place Chugoku paying troops Bu+Sa+Sa+So", orng)
    assert o.hand_troops[0] == [0] * 14 and o.troop_discard[kind_of_code("So")] == 1
    assert o.score[0] == s.score[0] + 3 + 2  # the space and the Daimyo's bonus, no more


def test_overpay_option_changes_nothing_without_a_spare_card() -> None:
    """shitenno.md §4.4 step 3: with no card to spare the payments are the same."""
    for options in ({}, {"overpay_allowed": True}):
        s, rng = control(**options)
        set_hand(s, 0, ["Sa", "Sa", "Bu"], [])
        act(s, 0, "control Chugoku", rng)
        assert legal(s, 0) == ["place Chugoku paying troops Bu+Sa+Sa"]


def _koku_payments(s: State) -> list[Place]:
    return [a for a in GAME.legal_actions(s, 0) if isinstance(a, Place) and a.koku and a.plus]


def test_plus_one_on_exchanged_koku_option() -> None:
    """shitenno.md §9.2 G6 (option plus_one_on_exchanged_koku): Chugoku costs 3 koku. A ShSh
    card turned into 2 koku by two Exchanges, plus a +1 tile, pays it only when the +1 may
    add to a koku made by an Exchange; by default it needs a real koku card, and Red cannot
    place there at all."""
    tiles = [tile(BU, EXCHANGE), tile(SA, EXCHANGE), tile(BU, PLUS_ONE)]
    s, _ = control()
    set_hand(s, 0, ["ShSh"], [])
    s.tiles[0] = list(tiles)
    assert "control Chugoku" not in legal(s, 0)
    o, orng = control(plus_one_on_exchanged_koku=True)
    set_hand(o, 0, ["ShSh"], [])
    o.tiles[0] = list(tiles)
    act(o, 0, "control Chugoku", orng)
    assert legal(o, 0) == ["place Chugoku paying koku ShSh using Exchange x2, +1"]
    act(o, 0, "place Chugoku paying koku ShSh using Exchange x2, +1", orng)
    assert o.board[CHUGOKU * 4] == 0 and o.hand_troops[0] == [0] * 14
    assert sorted(o.used_tiles) == sorted(tiles)  # all three spent; Red won Chugoku's tile
    assert o.tiles[0] == [tile(BU, EXCHANGE)]


def test_plus_one_on_a_real_koku_card_is_the_same_under_both_settings() -> None:
    """shitenno.md §9.2 G6: '+1 koku if you are paying at least one koku' holds for a real
    koku card under both settings (Kanto costs 5: koku 2+2 and a +1)."""
    found = []
    for options in ({}, {"plus_one_on_exchanged_koku": True}):
        s, rng = control(**options)
        set_hand(s, 0, [], [2, 2])
        s.tiles[0] = [tile(BU, PLUS_ONE)]
        act(s, 0, "control Kanto", rng)
        found.append([str(a) for a in _koku_payments(s)])
    assert found[0] == found[1] == ["place Kanto paying koku 2+2 using +1"]


def test_draw_tile_timing_option() -> None:
    """shitenno.md §4.5 and §9.2 G6 (option bonus_tile_timing): by default a Draw tile is
    spent at any moment of the turn, never in the middle of a payment; under 'conquest'
    only after choosing a province and before paying, and the payment is still to come."""
    s, rng = control()
    s.tiles[0] = [tile(BU, DRAW)]
    set_hand(s, 0, ["Sa", "Sa", "Bu"])
    assert "use Draw tile" in legal(s, 0)
    act(s, 0, "control Chugoku", rng)
    assert "use Draw tile" not in legal(s, 0)

    c, crng = control(bonus_tile_timing="conquest")
    c.tiles[0] = [tile(BU, DRAW)]
    set_hand(c, 0, ["Sa", "Sa", "Bu"])
    assert "use Draw tile" not in legal(c, 0)
    act(c, 0, "control Chugoku", crng)
    assert legal(c, 0) == [*legal(s, 0), "use Draw tile"]  # the same payments, and Draw
    c.troop_deck.append(kind_of_code("So"))
    act(c, 0, "use Draw tile", crng)
    assert c.phase is Phase.PAY and c.target == CHUGOKU and c.tiles[0] == []
    assert c.hand_troops[0][kind_of_code("So")] == 1
    act(c, 0, "place Chugoku paying troops Bu+Sa+Sa", crng)
    assert c.board[CHUGOKU * 4] == 0


def test_a_draw_tile_alone_keeps_the_turn_open_only_when_spent_in_the_turn() -> None:
    """shitenno.md §4.5 (option bonus_tile_timing): a general with no kamon left but a Draw
    tile still has a choice by default; under 'conquest' he cannot place, so his Draw tile
    has no use now and the turn ends by itself."""
    ends = {}
    for timing in ("own_turn", "conquest"):
        s, rng = control(bonus_tile_timing=timing)
        s.kamons[1] = 0
        s.tiles[1] = [tile(BU, DRAW)]
        act(s, 0, "end turn", rng)
        ends[timing] = GAME.to_act(s)
    assert ends == {"own_turn": [1], "conquest": [2]}


def test_draw_tile_cards_option() -> None:
    """shitenno.md §4.5, §9.2 G6 (option draw_tile_cards; the seed's 'draw extra cards'): a
    Draw tile gives that many troop cards, or koku cards under draw_tile_koku; the public
    line says how many, only the drawer reads which."""
    s, rng = control(draw_tile_cards=2)
    s.tiles[0] = [tile(BU, DRAW)]
    s.troop_deck += [kind_of_code("Bu"), kind_of_code("SaSa")]
    entries = GAME.apply(s, 0, GAME.parse_action(s, 0, "use Draw tile"), rng)
    assert [(english(e), e.seats) for e in entries] == [
        ("Red uses a Draw tile and draws 2 troop cards", None),
        ("Red draws troop Samurai+Samurai", frozenset({0})),
        ("Red draws troop Bushi", frozenset({0})),
    ]
    assert sum(s.hand_troops[0]) == 2 and s.tiles[0] == []

    k, krng = control(draw_tile_cards=3, draw_tile_koku=True)
    k.tiles[0] = [tile(BU, DRAW)]
    k.koku_deck = [1, 3]  # shorter than the draw: both cards, no more
    log = act(k, 0, "use Draw tile for a koku card", krng)
    assert log[0] == "Red uses a Draw tile and draws 2 koku cards"
    assert k.hand_koku[0] == [0, 1, 0, 1] and k.koku_deck == []


def test_one_draw_tile_card_is_the_default() -> None:
    """shitenno.md §9.2 G6 (TT-RS): by default a Draw tile gives one troop card; the choices
    before it, the tiles spent and the turn are the same whatever the count."""
    views = []
    for cards in (1, 3):
        s, rng = control(draw_tile_cards=cards)
        s.tiles[0] = [tile(BU, DRAW), tile(SA, EXCHANGE)]
        s.troop_deck += [kind_of_code("Bu"), kind_of_code("So"), kind_of_code("Sh")]
        before = legal(s, 0)
        act(s, 0, "use Draw tile", rng)
        views.append((before, sum(s.hand_troops[0]), s.tiles[0], GAME.to_act(s)))
    assert views[0][1] == 1 and views[1][1] == 3
    assert views[0][0] == views[1][0]  # the same choices before the draw
    assert views[0][2] == views[1][2] == [tile(SA, EXCHANGE)]  # one tile spent, Exchange kept
    assert views[0][3] == views[1][3] == [0]  # Red's turn goes on

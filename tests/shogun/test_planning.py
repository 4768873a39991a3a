"""Planning, bidding and turn order (shogun.md §4.3-4.5, §8)."""

from __future__ import annotations

import sengoku
from sengoku.core import Rng
from sengoku.games.shogun import battles, planning, state
from sengoku.games.shogun.actions import (
    BLANK,
    EMPTY,
    NO_BID,
    PROVINCE_BID,
    Bid,
    Plan,
    TakePosition,
)

from .helpers import GAME, I, act, empty_state, own


def test_planning_is_one_space_at_a_time_then_the_bid() -> None:
    """shogun.md §4.3: each of the 10 action spaces gets one card in a fixed order, then the bid;
    every planning seat is asked at once."""
    m = sengoku.new_match("shogun", 4, seed=2)
    assert m.to_act() == [0, 1, 2, 3]
    legal = m.legal_actions(0)
    assert all(isinstance(a, Plan) and a.space == 0 for a in legal)
    names = {str(a) for a in legal}
    assert "plan castle: blank" in names and "plan castle: Yamato" in names
    assert "plan castle: empty" not in names  # 8 provinces + 5 chests cover all 11 spaces
    for _ in range(10):
        m.act(0, m.legal_actions(0)[0])  # provinces first, then blanks
    assert all(isinstance(a, Bid) for a in m.legal_actions(0))
    m.act(0, "bid 2")
    assert m.to_act() == [1, 2, 3] and m.legal_actions(0) == []


def test_province_card_at_most_once_and_five_blanks() -> None:
    """shogun.md §4.3: a province card is used at most once; only 5 war-chest cards exist."""
    s = empty_state(4)
    s.phase = state.PLAN
    own(s, 0, "Owari", 3)
    planning.start_season(s, Rng(0), [])
    act(s, 0, Plan(0, I["Owari"]))
    assert Plan(1, I["Owari"]) not in GAME.legal_actions(s, 0)
    for space in range(1, 6):
        act(s, 0, Plan(space, BLANK))
    legal = GAME.legal_actions(s, 0)
    assert Plan(6, BLANK) not in legal
    assert legal == [Plan(6, EMPTY)]  # no cards left: the remaining spaces stay empty


def test_spaces_may_stay_empty_only_when_cards_run_short() -> None:
    """shogun.md §4.3: all 11 spaces must be covered as far as the cards allow."""
    s = empty_state(4)
    own(s, 0, "Owari", 3)
    own(s, 0, "Mino", 3)
    planning.start_season(s, Rng(0), [])
    # 2 provinces + 5 chests = 7 cards for 11 spaces: empties allowed from the start
    assert Plan(0, EMPTY) in GAME.legal_actions(s, 0)
    for space in range(4):
        act(s, 0, Plan(space, EMPTY))
    # now 7 cards for 7 spaces: every space must get a card
    assert Plan(4, EMPTY) not in GAME.legal_actions(s, 0)


def test_bid_options_and_over_bidding() -> None:
    """shogun.md §21.1 Q4: a chest bid above one's chests is forbidden (default); option
    over_bid = pay_what_you_have allows it and the bidder pays what he has."""
    for option, expected in (("forbid", [0, 1, 2]), ("pay_what_you_have", [0, 1, 2, 3, 4])):
        s = empty_state(4, over_bid=option)
        own(s, 0, "Owari", 3)
        s.money[0] = 2
        planning.start_season(s, Rng(0), [])
        act(s, 0, Plan(0, I["Owari"]))
        for space in range(1, 10):
            act(s, 0, Plan(space, EMPTY if space < 6 else BLANK))
        values = [a.value for a in GAME.legal_actions(s, 0)]  # type: ignore[union-attr]
        assert values == expected


def test_bid_nothing_only_without_cards() -> None:
    """shogun.md §4.5: 'no card at all' is possible only if the player lacks cards."""
    s = empty_state(4)
    planning.start_season(s, Rng(0), [])  # seat 0 owns nothing: 5 chest cards only
    for space in range(10):
        act(s, 0, Plan(space, BLANK) if space < 5 else Plan(space, EMPTY))
    assert GAME.legal_actions(s, 0) == [Bid(NO_BID)]


def test_bid_ranking() -> None:
    """shogun.md §4.5, §8, §18 and §20 (a province card counts as 0.5): chests 4 > 3 > 2 > 1 >
    province card > chest 0 > nothing."""
    ranks = [planning.bid_rank(v) for v in (4, 3, 2, 1, PROVINCE_BID, 0, NO_BID)]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 7


def _bid_state(bids: list[int], seed: int) -> tuple[list[int], list[int]]:
    s = empty_state(4)
    for seat, name in enumerate(("Owari", "Mino", "Omi", "Ise")):
        own(s, seat, name, 2)
    planning.start_season(s, Rng(0), [])
    s.plan_n = [11] * 4
    s.bid = list(bids)
    s.bid_card = [s.hand[p][0] if b == PROVINCE_BID else -1 for p, b in enumerate(bids)]
    planning.end_planning(s, Rng(seed), [])
    return s.choosers, s.money


def test_bids_are_paid_to_the_bank_and_ranked() -> None:
    """shogun.md §4.5, §18 (a province-card bid pays nothing): chest bids are paid to the bank,
    a province-card bid costs nothing."""
    choosers, money = _bid_state([1, PROVINCE_BID, 3, 0], 0)
    assert choosers == [2, 0, 1, 3]
    assert money == [14, 15, 12, 15]


def test_bid_ties_are_broken_at_random() -> None:
    """shogun.md §4.5: tied bidders choose in a random order (shuffled daimyo cards)."""
    orders = {tuple(_bid_state([2, 2, PROVINCE_BID, PROVINCE_BID], seed)[0]) for seed in range(40)}
    assert orders == {(0, 1, 2, 3), (1, 0, 2, 3), (0, 1, 3, 2), (1, 0, 3, 2)}


def test_turn_position_comes_with_its_special_card() -> None:
    """shogun.md §4.5: in bid order each player picks a turn position with its special card;
    a high bidder may pick a later position; empty positions are skipped."""
    m = sengoku.new_match("shogun", 3, seed=4)
    for seat in range(3):
        while seat in m.to_act():
            legal = m.legal_actions(seat)
            bid = {0: "bid 3", 1: "bid 1", 2: "bid 0"}[seat]
            m.act(seat, bid if str(legal[0]).startswith("bid") else legal[0])
    s = m._state
    assert s.choosers == [0, 1, 2]
    opts = m.legal_actions(0)
    assert [a.position for a in opts] == [0, 1, 2, 3, 4]  # type: ignore[union-attr]
    m.act(0, opts[4])
    assert all(isinstance(a, TakePosition) and a.position != 4 for a in m.legal_actions(1))
    assert s.pos_of[0] == 4 and battles.special_card(s, 0) == s.specials[4]


def test_last_position_is_assigned_with_five_players() -> None:
    """shogun.md §4.5: with 5 players the last chooser gets the one position left."""
    s = empty_state(5)
    for seat, name in enumerate(("Owari", "Mino", "Omi", "Ise", "Kii")):
        own(s, seat, name, 2)
    planning.start_season(s, Rng(0), [])
    s.plan_n = [11] * 5
    s.bid = [4, 3, 2, 1, 0]
    planning.end_planning(s, Rng(0), [])
    label = state.D.specials[s.specials[4]].label
    log = []
    for seat in range(4):
        log = act(s, seat, TakePosition(seat, s.specials[seat]))
    assert log[1] == f"Black takes position 5 ({label})"


def test_plans_stay_secret_until_revealed() -> None:
    """shogun.md §4.3, §4.6: plans and bids are face down; bids are revealed after planning and
    each action's cards when that action is carried out."""
    m = sengoku.new_match("shogun", 3, seed=8)
    m.act(0, "plan castle: blank")
    assert m.view(1)["plans"][0] == [None] * 10
    assert m.view(0)["plans"][0][0] == -1
    for _ in range(9):
        m.act(0, m.legal_actions(0)[0])
    m.act(0, "bid 2")
    assert m.view(0)["bids"][0] == 2  # Red sees his own bid
    assert m.view(1)["bids"][0] is None and m.view(None)["bids"][0] is None
    while m.to_act() and m._state.phase == state.PLAN:
        seat = m.to_act()[0]
        m.act(seat, m.legal_actions(seat)[0])
    v = m.view(1)
    assert v["bids_revealed"] and None not in v["bids"]
    assert v["bids"][0] == 2 and m.view(None)["bids"][0] == 2
    s = m._state
    shown = set(s.action_order[: s.revealed_n])
    for a in range(10):
        if a not in shown:
            assert v["plans"][0][a] is None or v["plans"][0][a] == EMPTY


def test_over_bid_pays_what_he_has() -> None:
    """shogun.md §21.1 Q4 ([IMR]): with over_bid=pay_what_you_have a 4 bid by a player with 1
    chest costs 1 and still ranks as 4."""
    s = empty_state(4, over_bid="pay_what_you_have")
    for seat, name in enumerate(("Owari", "Mino", "Omi", "Ise")):
        own(s, seat, name, 2)
    planning.start_season(s, Rng(0), [])
    s.money[2] = 1
    s.plan_n = [11] * 4
    s.bid = [3, 3, 4, 0]
    planning.end_planning(s, Rng(0), [])
    assert s.money == [12, 12, 0, 15] and s.choosers[0] == 2

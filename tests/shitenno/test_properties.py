"""Properties checked with hypothesis: payments (shitenno.md §4.4 step 3) and the
conservation of cards, tiles and kamons through whole games."""

from __future__ import annotations

import random
from itertools import combinations, combinations_with_replacement, product

from hypothesis import given, settings
from hypothesis import strategies as st

import sengoku
from sengoku.core import Rng
from sengoku.games.shitenno.data import KIND_UNITS
from sengoku.games.shitenno.payments import (
    can_pay_koku,
    can_pay_troops,
    koku_payable,
    koku_payments,
    purse,
    troop_payments,
)


def _counts(cards: list[int]) -> list[int]:
    counts = [0] * 14
    for k in cards:
        counts[k] += 1
    return counts


hands = st.lists(st.integers(0, 13), max_size=8).map(_counts)
kokus = st.lists(st.integers(0, 3), min_size=3, max_size=3).map(lambda c: [0, *c])
REQS = [
    (0, 2, 1, 0),
    (0, 3, 0, 0),
    (1, 2, 0, 0),
    (3, 0, 0, 1),
    (0, 0, 4, 0),
    (2, 0, 1, 0),
    (0, 0, 3, 1),
]
reqs = st.sampled_from(REQS)


def covers(req: tuple[int, ...], cards: tuple[int, ...]) -> bool:
    units = [0, 0, 0, 0]
    for k in cards:
        for t in KIND_UNITS[k]:
            units[t] += 1
    return all(units[t] >= req[t] for t in range(4))


def submultisets(counts: list[int]) -> list[tuple[int, ...]]:
    out = []
    for choice in product(*(range(c + 1) for c in counts)):
        out.append(tuple(k for k, c in enumerate(choice) for _ in range(c)))
    return out


@settings(max_examples=150, deadline=None)
@given(req=reqs, hand=hands)
def test_troop_payments_are_exactly_the_minimal_covers(
    req: tuple[int, int, int, int], hand: list[int]
) -> None:
    """shitenno.md §4.4 step 3: without tiles, the troop payments are exactly the sets of
    cards that cover the requirement and from which no card can be left out."""
    got = {
        cards
        for cards, _, _, _, _ in troop_payments(req, hand, [0, 0, 0, 0], 0, 0, 0, True, False, True)
    }
    expected = set()
    for cards in submultisets(hand):
        if covers(req, cards) and not any(
            covers(req, cards[:i] + cards[i + 1 :]) for i in range(len(cards))
        ):
            expected.add(cards)
    assert got == expected
    assert can_pay_troops(req, hand, [0, 0, 0, 0], 0, 0, 0, True, False, True) == bool(expected)


@settings(max_examples=150, deadline=None)
@given(price=st.sampled_from([3, 4, 5, 6, 8, 9, 11]), koku=kokus)
def test_koku_payments_are_exactly_the_minimal_sums(price: int, koku: list[int]) -> None:
    """shitenno.md §3.2: the koku payments are the sets worth at least the price from which
    no card can be left out (no change is given)."""
    got = {k for _, k, _, _ in koku_payments(price, [0] * 14, koku, 0, 0, True, True)}
    expected = set()
    for n3, n2, n1 in product(range(koku[3] + 1), range(koku[2] + 1), range(koku[1] + 1)):
        cards = (3,) * n3 + (2,) * n2 + (1,) * n1
        if sum(cards) >= price and not any(sum(cards) - v >= price for v in set(cards)):
            expected.add(cards)
    assert got == expected
    assert can_pay_koku(price, [0] * 14, koku, 0, 0, True, True) == bool(expected)


# -- a brute-force reference for payments with bonus tiles and the wild troop -------------
#
# It follows the wording of shitenno.md §4.5 and §9.2 G6, G7, G15 unit by unit rather than
# the counting shortcuts of payments.py: every card subset, every number of tiles, every
# choice of which units an Exchange converts and which types a +1 adds.


def _troop_feasible(
    req: tuple[int, ...],
    cards: tuple[int, ...],
    kokus: tuple[int, ...],
    plus: int,
    exch: int,
    wild: int,
    unit: bool,
    mixed: bool,
) -> bool:
    """Whether these cards, ``plus`` +1 tiles, ``exch`` Exchange tiles and ``wild`` wild
    troops can be turned into troops covering ``req``."""
    units = [t for k in cards for t in KIND_UNITS[k]]
    printed = sorted({t for k in cards for t in KIND_UNITS[k]})
    # what an Exchange may turn into a troop of any type: ("troop", i) is the i-th troop
    # symbol paid (unit rule); ("koku", j) one koku of the paid koku cards (unit rule) or a
    # whole koku card (card rule). With mixed payments a koku card already is a troop.
    pool: list[tuple[str, int]] = []
    if unit:
        pool += [("troop", i) for i in range(len(units))]
        if not mixed:
            pool += [("koku", j) for j in range(sum(kokus))]
    elif not mixed:
        pool += [("koku", j) for j in range(len(kokus))]
    free = wild + (len(kokus) if mixed else 0)
    for converted in combinations(pool, min(exch, len(pool))):
        gone = {i for kind, i in converted if kind == "troop"}
        fixed = [t for i, t in enumerate(units) if i not in gone]
        for added in combinations_with_replacement(printed, plus if printed else 0):
            have = [fixed.count(t) + added.count(t) for t in range(4)]
            short = sum(max(0, req[t] - have[t]) for t in range(4))
            if short <= free + len(converted):
                return True
    return False


def _koku_feasible(
    price: int, cards: tuple[int, ...], kokus: tuple[int, ...], plus: int, exch: int, unit: bool
) -> bool:
    """Whether these cards and tiles are worth ``price`` koku: an Exchange turns one troop
    symbol (unit rule) or one troop card (card rule) into a koku; a +1 adds a koku when a
    koku card is paid."""
    convertible = sum(len(KIND_UNITS[k]) for k in cards) if unit else len(cards)
    return sum(kokus) + (plus if kokus else 0) + min(exch, convertible) >= price


def _without_one(items: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [items[:i] + items[i + 1 :] for i in range(len(items))]


def _card_sets(hand: list[int], koku: list[int]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    out = []
    for cards in submultisets(hand):
        for values in submultisets(koku):
            if cards or values:
                out.append((cards, tuple(sorted(values, reverse=True))))
    return out


def _tile_counts(plus: int, exch: int, combine: bool) -> list[tuple[int, int]]:
    return [(p, e) for p in range(plus + 1) for e in range(exch + 1) if combine or p + e <= 1]


def reference_troop_payments(
    req: tuple[int, int, int, int],
    hand: list[int],
    koku: list[int],
    plus: int,
    exch: int,
    wild: int,
    unit: bool,
    mixed: bool,
    combine: bool,
) -> set[tuple[object, ...]]:
    """Every minimal troop payment: feasible, and no card, tile or optional wild troop can
    be left out (shitenno.md §4.4 step 3)."""
    out: set[tuple[object, ...]] = set()
    wilds = {0: (0,), 1: (1,), 2: (0, 1)}[wild]
    for cards, kokus in _card_sets(hand, koku):
        for p, e in _tile_counts(plus, exch, combine):
            for w in wilds:

                def ok(c: tuple[int, ...], k: tuple[int, ...], p: int, e: int, w: int) -> bool:
                    return _troop_feasible(req, c, k, p, e, w, unit, mixed)

                if not ok(cards, kokus, p, e, w):
                    continue
                if (p and ok(cards, kokus, p - 1, e, w)) or (e and ok(cards, kokus, p, e - 1, w)):
                    continue
                if wild == 2 and w and ok(cards, kokus, p, e, 0):
                    continue
                if any(ok(c, kokus, p, e, w) for c in _without_one(cards)):
                    continue
                if any(ok(cards, k, p, e, w) for k in _without_one(kokus)):
                    continue
                used = bool(w) and (wild == 2 or not ok(cards, kokus, p, e, 0))
                out.add((cards, kokus, p, e, used))
    return out


def reference_koku_payments(
    price: int, hand: list[int], koku: list[int], plus: int, exch: int, unit: bool, combine: bool
) -> set[tuple[object, ...]]:
    """Every minimal koku payment (shitenno.md §3.2, §4.5)."""
    out: set[tuple[object, ...]] = set()
    for cards, kokus in _card_sets(hand, koku):
        for p, e in _tile_counts(plus, exch, combine):

            def ok(c: tuple[int, ...], k: tuple[int, ...], p: int, e: int) -> bool:
                return _koku_feasible(price, c, k, p, e, unit)

            if not ok(cards, kokus, p, e):
                continue
            if (p and ok(cards, kokus, p - 1, e)) or (e and ok(cards, kokus, p, e - 1)):
                continue
            if any(ok(c, kokus, p, e) for c in _without_one(cards)):
                continue
            if any(ok(cards, k, p, e) for k in _without_one(kokus)):
                continue
            out.add((cards, kokus, p, e))
    return out


small_hands = st.lists(st.integers(0, 13), max_size=5).map(_counts)
small_kokus = st.lists(st.integers(0, 2), min_size=3, max_size=3).map(lambda c: [0, *c])


@settings(max_examples=150, deadline=None)
@given(
    req=reqs,
    hand=small_hands,
    koku=small_kokus,
    plus=st.integers(0, 2),
    exch=st.integers(0, 2),
    wild=st.integers(0, 2),
    unit=st.booleans(),
    mixed=st.booleans(),
    combine=st.booleans(),
)
def test_troop_payments_match_the_brute_force_reference(
    req: tuple[int, int, int, int],
    hand: list[int],
    koku: list[int],
    plus: int,
    exch: int,
    wild: int,
    unit: bool,
    mixed: bool,
    combine: bool,
) -> None:
    """shitenno.md §4.4 step 3, §4.5, §9.2 G6, G7, G15: with any tiles, wild troop and
    option, the troop payments offered are exactly the minimal ones, and the quick check
    that offers the province agrees."""
    got = troop_payments(req, hand, koku, plus, exch, wild, unit, mixed, combine)
    assert len(got) == len(set(got))
    expected = reference_troop_payments(req, hand, koku, plus, exch, wild, unit, mixed, combine)
    assert set(got) == expected
    assert can_pay_troops(req, hand, koku, plus, exch, wild, unit, mixed, combine) == bool(expected)


@settings(max_examples=200, deadline=None)
@given(
    price=st.sampled_from([3, 4, 5, 6, 8, 9, 11]),
    hand=small_hands,
    koku=small_kokus,
    plus=st.integers(0, 2),
    exch=st.integers(0, 2),
    unit=st.booleans(),
    combine=st.booleans(),
)
def test_koku_payments_match_the_brute_force_reference(
    price: int, hand: list[int], koku: list[int], plus: int, exch: int, unit: bool, combine: bool
) -> None:
    """shitenno.md §3.2, §4.5, §9.2 G6: with any tiles, the koku payments offered are
    exactly the minimal ones (a +1 tile may be kept while an Exchange turns a troop card
    into koku), and the quick check agrees."""
    got = koku_payments(price, hand, koku, plus, exch, unit, combine)
    assert len(got) == len(set(got))
    expected = reference_koku_payments(price, hand, koku, plus, exch, unit, combine)
    assert set(got) == expected
    assert can_pay_koku(price, hand, koku, plus, exch, unit, combine) == bool(expected)


def test_reference_agrees_on_seeded_random_cases() -> None:
    """The same comparison on 400 seeded random cases, so that a run without hypothesis's
    shrinking still covers many hands (finding: payments kept +1 tiles and missed the
    Exchange alternatives)."""
    rng = random.Random(2024)
    for _ in range(400):
        req = rng.choice(REQS)
        hand = _counts([rng.randrange(14) for _ in range(rng.randint(0, 5))])
        koku = [0] + [rng.randint(0, 2) for _ in range(3)]
        plus, exch, wild = rng.randint(0, 2), rng.randint(0, 2), rng.randint(0, 2)
        unit, mixed, combine = (rng.random() < 0.5 for _ in range(3))
        assert set(
            troop_payments(req, hand, koku, plus, exch, wild, unit, mixed, combine)
        ) == reference_troop_payments(req, hand, koku, plus, exch, wild, unit, mixed, combine)
        price = rng.choice([3, 4, 5, 6, 8, 9, 11])
        assert set(
            koku_payments(price, hand, koku, plus, exch, unit, combine)
        ) == reference_koku_payments(price, hand, koku, plus, exch, unit, combine)


def test_a_kept_plus_one_tile_leaves_room_for_an_exchange() -> None:
    """shitenno.md §4.5: koku 3+1 and a Sohei card for a price of 5 with a +1 and an
    Exchange tile: 3+1 using +1 and 3+1+So using Exchange are both minimal."""
    so = 3
    hand = [0] * 14
    hand[so] = 1
    got = set(koku_payments(5, hand, [0, 1, 0, 1], 1, 1, True, True))
    assert ((), (3, 1), 1, 0) in got and ((so,), (3, 1), 0, 1) in got


@settings(max_examples=100, deadline=None)
@given(
    req=reqs,
    hand=hands,
    koku=kokus,
    plus=st.integers(0, 2),
    exch=st.integers(0, 2),
    wild=st.integers(0, 2),
    unit=st.booleans(),
    mixed=st.booleans(),
    combine=st.booleans(),
    plus_exchanged=st.booleans(),
)
def test_payment_exists_exactly_when_the_quick_check_says_so(
    req: tuple[int, int, int, int],
    hand: list[int],
    koku: list[int],
    plus: int,
    exch: int,
    wild: int,
    unit: bool,
    mixed: bool,
    combine: bool,
    plus_exchanged: bool,
) -> None:
    """shitenno.md §4.5: on bigger hands too, the quick check that offers a province agrees
    with the full list of payments, so a chosen province always has a payment (with a +1 on
    an exchanged koku allowed or not, §9.2 G6)."""
    full = troop_payments(req, hand, koku, plus, exch, wild, unit, mixed, combine)
    assert bool(full) == can_pay_troops(req, hand, koku, plus, exch, wild, unit, mixed, combine)
    hand_purse = purse(hand, koku, unit)
    for price in (1, 3, 6, 11):
        paid = koku_payments(price, hand, koku, plus, exch, unit, combine, plus_exchanged)
        quick = koku_payable(price, hand_purse, plus, exch, combine, plus_exchanged)
        assert bool(paid) == quick
        if not plus_exchanged:
            assert quick == can_pay_koku(price, hand, koku, plus, exch, unit, combine)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_conservation_through_a_random_game(seed: int, players: int) -> None:
    """shitenno.md §2: 34 troop cards, 24 koku cards, 24 bonus tiles and every kamon are
    always somewhere; scores never fall; the game ends."""
    m = sengoku.new_match("shitenno", players, seed=seed)
    rng = Rng(seed)
    start = m._state.kamons[0]
    last = [0] * players
    while m.outcome() is None:
        s = m._state
        koku_cards = (
            len(s.koku_deck)
            + sum(s.koku_out)
            + sum(s.pool_koku)
            + sum(s.lot_koku)
            + sum(map(sum, s.hand_koku))
        )
        troop_cards = (
            len(s.troop_deck)
            + sum(s.troop_discard)
            + sum(s.pool_troops)
            + sum(s.lot_troops)
            + sum(map(sum, s.hand_troops))
        )
        tiles = sum(map(len, s.stacks)) + sum(map(len, s.tiles)) + len(s.fresh) + len(s.used_tiles)
        assert (troop_cards, koku_cards, tiles) == (34, 24, 24)
        for p in range(players):
            assert s.kamons[p] + sum(1 for v in s.board if v >= 0 and v % 4 == p) == start
            assert s.score[p] >= last[p]
        last = s.score.copy()
        seat = m.to_act()[0]
        m.act(seat, rng.choice(m.legal_actions(seat)))

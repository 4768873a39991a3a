"""The exact payments for one placement (shitenno.md §3.1, §3.2, §4.4 step 3, §4.5, §9.2).

A placement is paid **either** with troops covering the province's current requirement
**or** with koku worth at least the space value. No change is given: a card is always spent
whole. Bonus tiles and the Hatamoto's wild troop may help:

- *Exchange* turns one unit on a card being paid (a troop symbol, or one koku) into another
  unit of the payer's choice (``unit`` rule); under the ``card`` rule a whole koku card
  counts as one troop of any type, or a troop card as one koku;
- *+1* adds one troop of a type printed on a troop card being paid, or one koku when at
  least one koku card is paid;
- the Hatamoto adds one troop of any type to a troop payment.

The legal payments are **all** the **minimal** ones: no card, tile or (once-a-year) wild
troop can be left out without the payment falling short. Paying a useless extra card is
never needed, and leaving it out keeps the list of choices short (a reading, documented in
docs/shitenno.md). Tiles combine freely: a +1 tile may be kept while an Exchange turns a
troop card into koku, and an Exchange may change a needed symbol when a +1 puts a troop of
that printed type back.

A payment is ``(troop kinds, koku values, +1 tiles, Exchange tiles, wild used)``.

Two Samurai and a Shinobi are needed; the hand holds Sa, Sa, Sh and a SaSh double. Both
Sa+Sa+Sh and Sa+SaSh pay exactly; Sa+Sa+SaSh would waste a card and is not offered:

>>> sa, sh, sash = 1, 2, 9
>>> hand = [0] * 14; hand[sa] = 2; hand[sh] = 1; hand[sash] = 1
>>> troop_payments((0, 2, 1, 0), hand, [0, 0, 0, 0], 0, 0, 0, True, False, True)
[((1, 1, 2), (), 0, 0, False), ((1, 9), (), 0, 0, False)]

A price of 5 koku from koku cards 3, 2, 2, 1 (no change is given):

>>> koku_payments(5, [0] * 14, [0, 1, 2, 1], 0, 0, True, True)
[((), (2, 2, 1), 0, 0), ((), (3, 2), 0, 0)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from .data import KIND_UNITS

__all__ = [
    "KokuPayment",
    "Purse",
    "TroopPayment",
    "can_pay_koku",
    "can_pay_troops",
    "koku_payable",
    "koku_payments",
    "purse",
    "troop_payments",
    "troops_payable",
]

TroopPayment = tuple[tuple[int, ...], tuple[int, ...], int, int, bool]
KokuPayment = tuple[tuple[int, ...], tuple[int, ...], int, int]

_KINDS = range(len(KIND_UNITS))

#: What a set of cards brings to a troop payment: (troops still missing, missing troops of
#: a type printed on a paid card, units an Exchange may usefully convert, koku cards that
#: stand in for a troop, matched troop symbols an Exchange may convert for a +1 to refill).
_Stats = tuple[int, int, int, int, int]


def _covers(st: _Stats, p: int, e: int, w: int) -> bool:
    """Whether ``p`` +1 tiles, ``e`` Exchange tiles and ``w`` wild troops complete a
    troop payment with these stats.

    An Exchange first converts units that cover nothing (``conv``). A spare one may still
    convert a symbol that covers a requirement, into a missing type, when a spare +1 tile
    puts a troop of that printed type back (SaSa with Exchange and +1 pays Sa, Sa, Sh).
    """
    deficit, plusable, conv, free, matched = st
    x = e if e < conv else conv
    y = e - x if e - x < matched else matched
    room = plusable + y
    return deficit - (p if p < room else room) <= w + x + free


def _multisets(items: list[tuple[int, int]], size: int) -> list[tuple[int, ...]]:
    """Every sub-multiset of at most ``size`` elements of ``items`` (value, copies)."""
    out: list[tuple[int, ...]] = [()]
    for value, copies in items:
        grown: list[tuple[int, ...]] = []
        for base in out:
            room = size - len(base)
            for c in range(1, min(copies, room) + 1):
                grown.append(base + (value,) * c)
        out += grown
    return out


def troop_payments(
    req: tuple[int, int, int, int],
    hand_troops: Sequence[int],
    hand_koku: Sequence[int],
    plus_avail: int,
    exch_avail: int,
    wild: int,
    unit_rule: bool,
    mixed: bool,
    combine: bool,
) -> list[TroopPayment]:
    """The minimal troop payments of requirement ``req`` (troops needed per type).

    ``hand_troops`` counts the cards of each kind, ``hand_koku`` the koku cards of each
    value (index 1..3). ``wild`` is 0 without a wild troop, 1 when it is free (it helps every
    placement), 2 when it is a once-a-year resource the payer may keep for later.
    """
    n = req[0] + req[1] + req[2] + req[3]
    if not combine:
        exch_avail = min(exch_avail, 1)
        plus_avail = min(plus_avail, 1)
    # a card with no required troop type can only help through an Exchange, one per unit
    relevant = [
        (k, hand_troops[k]) for k in _KINDS if hand_troops[k] and any(req[t] for t in KIND_UNITS[k])
    ]
    others = [
        (k, hand_troops[k])
        for k in _KINDS
        if hand_troops[k] and not any(req[t] for t in KIND_UNITS[k])
    ]
    troop_sets = _multisets(relevant, n)
    if unit_rule and exch_avail and others:
        extra = _multisets(others, min(exch_avail, n))
        troop_sets = [
            tuple(sorted(a + b)) for a in troop_sets for b in extra if len(a) + len(b) <= n
        ]
    koku_cap = n if mixed else min(exch_avail, n)
    koku_items = [(v, hand_koku[v]) for v in (3, 2, 1) if hand_koku[v]] if koku_cap else []
    koku_sets = _multisets(koku_items, koku_cap)

    # what a set of troop cards brings, worked out once per set: (matched, plusable, units)
    card_cache: dict[tuple[int, ...], tuple[int, int, int]] = {}

    def stats(cards: tuple[int, ...], kokus: tuple[int, ...]) -> _Stats:
        got = card_cache.get(cards)
        if got is None:
            u = [0, 0, 0, 0]
            units = 0
            present = 0
            for k in cards:
                for t in KIND_UNITS[k]:
                    u[t] += 1
                    units += 1
                    present |= 1 << t
            matched = 0
            plusable = 0
            for t in range(4):
                m = u[t] if u[t] < req[t] else req[t]
                matched += m
                if present >> t & 1:
                    plusable += req[t] - m
            got = card_cache[cards] = (matched, plusable, units)
        matched, plusable, units = got
        if mixed:
            conv = units - matched if unit_rule else 0
            free = len(kokus)
        else:
            conv = (units - matched + sum(kokus)) if unit_rule else len(kokus)
            free = 0
        return (n - matched, plusable, conv, free, matched if unit_rule else 0)

    def ok(st: _Stats, p: int, e: int, w: int) -> bool:
        return _covers(st, p, e, w)

    w_options = (1,) if wild == 1 else (0, 1) if wild == 2 else (0,)
    w_top = w_options[-1]
    out: list[TroopPayment] = []
    for kokus in koku_sets:
        for cards in troop_sets:
            if len(cards) + len(kokus) > n or not (cards or kokus):
                continue
            st = stats(cards, kokus)
            top_p = min(plus_avail, st[1] + min(exch_avail, st[4]))
            top_e = min(exch_avail, st[2] + st[4])
            # feasibility only grows with tiles and the wild troop: short even with all of
            # them, these cards pay in no way
            if not (
                _covers(st, top_p, top_e, w_top)
                if combine
                else _covers(st, min(top_p, 1), 0, w_top) or _covers(st, 0, min(top_e, 1), w_top)
            ):
                continue
            for w in w_options:
                for p in range(top_p + 1):
                    for e in range(top_e + 1):
                        if (not combine and p + e > 1) or not ok(st, p, e, w):
                            continue
                        if (p and ok(st, p - 1, e, w)) or (e and ok(st, p, e - 1, w)):
                            continue
                        if wild == 2 and w and ok(st, p, e, 0):
                            continue
                        if _card_removable(cards, kokus, stats, ok, p, e, w):
                            continue
                        used = bool(w) and (wild == 2 or not ok(st, p, e, 0))
                        out.append((cards, kokus, p, e, used))
    return out


def _card_removable(
    cards: tuple[int, ...],
    kokus: tuple[int, ...],
    stats: Callable[[tuple[int, ...], tuple[int, ...]], _Stats],
    ok: Callable[[_Stats, int, int, int], bool],
    p: int,
    e: int,
    w: int,
) -> bool:
    """Whether one card (troop or koku) could be left out of a feasible payment."""
    last = -1
    for i, k in enumerate(cards):
        if k != last:
            last = k
            if ok(stats(cards[:i] + cards[i + 1 :], kokus), p, e, w):
                return True
    last = -1
    for i, v in enumerate(kokus):
        if v != last:
            last = v
            if ok(stats(cards, kokus[:i] + kokus[i + 1 :]), p, e, w):
                return True
    return False


def koku_payments(
    price: int,
    hand_troops: Sequence[int],
    hand_koku: Sequence[int],
    plus_avail: int,
    exch_avail: int,
    unit_rule: bool,
    combine: bool,
    plus_exchanged: bool = False,
) -> list[KokuPayment]:
    """The minimal koku payments of ``price`` (koku cards, plus tiles and exchanged troops).

    An Exchange tile turns one troop unit (``unit`` rule; a double card has two) or one
    troop card (``card`` rule) of the payment into one koku; a +1 tile adds one koku when at
    least one koku card is paid, or with ``plus_exchanged`` also when an Exchange made one.

    >>> koku_payments(3, [0, 1] + [0] * 12, [0, 0, 1, 0], 1, 0, True, True)
    [((), (2,), 1, 0)]
    >>> koku_payments(3, [0, 0, 0, 0, 0, 0, 1] + [0] * 7, [0] * 4, 1, 2, True, True, True)
    [((6,), (), 1, 2)]
    """
    if not combine:
        exch_avail = min(exch_avail, 1)
        plus_avail = min(plus_avail, 1)
    out: list[KokuPayment] = []
    c3, c2, c1 = hand_koku[3], hand_koku[2], hand_koku[1]
    troop_items = [(k, hand_troops[k]) for k in _KINDS if hand_troops[k]] if exch_avail else []
    troop_cache: dict[int, list[tuple[int, ...]]] = {}
    for n3 in range(c3 + 1):
        for n2 in range(c2 + 1):
            for n1 in range(c1 + 1):
                total = 3 * n3 + 2 * n2 + n1
                smallest = 1 if n1 else 2 if n2 else 3 if n3 else 0
                if smallest and total - smallest >= price:
                    continue  # a koku card could be left out
                kokus = (3,) * n3 + (2,) * n2 + (1,) * n1
                plus_room = plus_avail if kokus else 0
                # a +1 tile kept for later may leave troop cards to an Exchange: size the
                # troop cards by what the koku cards alone leave unpaid
                needed = price - total
                if needed <= 0:
                    cards_options: list[tuple[int, ...]] = [()]
                else:
                    size = min(needed, exch_avail)
                    cards_options = troop_cache.get(size) or []
                    if size not in troop_cache:
                        cards_options = troop_cache[size] = _multisets(troop_items, size)
                for cards in cards_options:
                    if not (kokus or cards):
                        continue
                    tconv = sum(len(KIND_UNITS[k]) for k in cards) if unit_rule else len(cards)
                    for p in range(plus_avail + 1):
                        for e in range(min(exch_avail, tconv) + 1):
                            if (not combine and p + e > 1) or p > (
                                plus_room if not (plus_exchanged and e) else plus_avail
                            ):
                                continue
                            if total + p + e < price:
                                continue
                            if (p and total + p - 1 + e >= price) or (
                                e and total + p + e - 1 >= price
                            ):
                                continue
                            if cards and _troop_removable(cards, total + p, e, price, unit_rule):
                                continue
                            if (
                                kokus
                                and smallest
                                and total
                                - smallest
                                + (p if len(kokus) > 1 or (plus_exchanged and e) else 0)
                                + e
                                >= price
                            ):
                                continue
                            out.append((cards, kokus, p, e))
    return out


def _troop_removable(
    cards: tuple[int, ...], base: int, e: int, price: int, unit_rule: bool
) -> bool:
    # a troop card is removable if the exchanges still find enough units without it
    for i in range(len(cards)):
        rest = cards[:i] + cards[i + 1 :]
        conv = sum(len(KIND_UNITS[k]) for k in rest) if unit_rule else len(rest)
        if base + min(e, conv) >= price:
            return True
    return False


class Purse(NamedTuple):
    """What a hand brings to any payment, worked out once for every province it may pay."""

    symbols: tuple[int, int, int, int]  #: troop symbols of each type on the troop cards
    printed: int  #: bit ``t`` set when a troop card printing type ``t`` is in hand
    units: int  #: troop symbols in all
    koku_cards: int  #: koku cards
    koku: int  #: the koku cards' worth
    exchangeable: int  #: what Exchanges may turn into koku: troop units, or cards (card rule)


def purse(hand_troops: Sequence[int], hand_koku: Sequence[int], unit_rule: bool) -> Purse:
    """The :class:`Purse` of a hand: troop cards by kind, koku cards by value (index 1..3)."""
    u = [0, 0, 0, 0]
    present = 0
    units = 0
    cards = 0
    for k in _KINDS:
        c = hand_troops[k]
        if c:
            cards += c
            for t in KIND_UNITS[k]:
                u[t] += c
                units += c
                present |= 1 << t
    return Purse(
        (u[0], u[1], u[2], u[3]),
        present,
        units,
        hand_koku[1] + hand_koku[2] + hand_koku[3],
        hand_koku[1] + 2 * hand_koku[2] + 3 * hand_koku[3],
        units if unit_rule else cards,
    )


def can_pay_troops(
    req: tuple[int, int, int, int],
    hand_troops: Sequence[int],
    hand_koku: Sequence[int],
    plus_avail: int,
    exch_avail: int,
    wild: int,
    unit_rule: bool,
    mixed: bool,
    combine: bool,
) -> bool:
    """Whether :func:`troop_payments` would find any payment (cheaper: feasibility is
    monotone, so the whole hand with every tile decides it)."""
    hand = purse(hand_troops, hand_koku, unit_rule)
    return troops_payable(req, hand, plus_avail, exch_avail, wild, unit_rule, mixed, combine)


def troops_payable(
    req: tuple[int, int, int, int],
    hand: Purse,
    plus_avail: int,
    exch_avail: int,
    wild: int,
    unit_rule: bool,
    mixed: bool,
    combine: bool,
) -> bool:
    """:func:`can_pay_troops` of a hand's :class:`Purse`."""
    u = hand.symbols
    present = hand.printed
    matched = plusable = 0
    for t in range(4):
        m = u[t] if u[t] < req[t] else req[t]
        matched += m
        if present >> t & 1:
            plusable += req[t] - m
    units = hand.units
    if mixed:
        conv, free = (units - matched if unit_rule else 0), hand.koku_cards
    else:
        conv, free = (units - matched + hand.koku if unit_rule else hand.koku_cards), 0
    w = 1 if wild else 0
    n = req[0] + req[1] + req[2] + req[3]
    st = (n - matched, plusable, conv, free, matched if unit_rule else 0)
    if combine:
        return _covers(st, plus_avail, exch_avail, w)
    return _covers(st, min(plus_avail, 1), 0, w) or _covers(st, 0, min(exch_avail, 1), w)


def can_pay_koku(
    price: int,
    hand_troops: Sequence[int],
    hand_koku: Sequence[int],
    plus_avail: int,
    exch_avail: int,
    unit_rule: bool,
    combine: bool,
) -> bool:
    """Whether :func:`koku_payments` would find any payment."""
    hand = purse(hand_troops, hand_koku, unit_rule)
    return koku_payable(price, hand, plus_avail, exch_avail, combine)


def koku_payable(
    price: int,
    hand: Purse,
    plus_avail: int,
    exch_avail: int,
    combine: bool,
    plus_exchanged: bool = False,
) -> bool:
    """:func:`can_pay_koku` of a hand's :class:`Purse`."""
    total = hand.koku
    tconv = hand.exchangeable
    koku_paid = total > 0 or (plus_exchanged and exch_avail > 0 and tconv > 0)
    plus = plus_avail if koku_paid else 0
    if combine:
        return total + plus + min(exch_avail, tconv) >= price
    return total + min(plus, 1) >= price or total + min(exch_avail, 1, tconv) >= price

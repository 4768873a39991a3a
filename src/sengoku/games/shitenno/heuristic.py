"""A fast heuristic for Shitenno: a policy for agents and playouts, and a position estimate.

The plan, in one line, is "value lots by reachable points" (``shitenno.md §4.3``, ``§4.4``):

- **Troop units** are worth the points they can buy: a placement needs 3 or 4 troops
  (``shitenno.md §3.1``) and scores a space value of 3 to 11, so a unit is worth about 1
  favour, a little more for the types the open provinces ask for, and almost nothing in the
  last sharing or the last odd year. **Koku** is worth 1 favour each, used or not
  (``shitenno.md §4.7``).
- **Titles** (``shitenno.md §2.5``) are worth their placement bonus (Daimyo +2, Shomyo +1)
  times the placements the holder's hand (with the lot) can pay for, plus an early turn;
  the Sensei is worth the best golden flip on the board, the Hatamoto a wild troop per
  troop payment. A title also sets the seat in the next sharing: the Daimyo will be the
  Tairo, and the others are offered lots in title order; being offered first is worth more
  than building when Tairos put many cards in their lots (``NEXT_SHARING``, 4 players).
  For a lot offered or the last lot, those placements are counted concretely: the open
  spaces, best first, one a province, that the hand plus the lot can pay with troops for
  the public requirement (a +1 or Exchange tile, or the Hatamoto's wild troop, standing in
  for one missing troop) or with koku for the space value; for a share not yet cut, they
  are estimated from units (3.5 a placement) and koku (5).
- **Majorities** (``shitenno.md §4.7``) are worth 6 times an estimated share: a lead counts
  more the fewer free spaces are left to overturn it; a golden kamon weighs 2.

The **sharing** (``shitenno.md §4.3``): the Tairo puts in each lot the tile he values least
and the cards he values least until the lot is worth half a fair share of what is left,
keeping the best tile for the end; at the last split (he and one other left) he puts 30 %
of the table in the lot: taken, he keeps the larger rest and the best tile; refused, he
keeps the lot, so he also adds the cards that let his hand plus the lot pay for a
placement (against players who take or refuse at random, a fairer cut won no more
games). A player offered a lot accepts it when it is worth at least his fair share of what
is left, or, when refusing would leave him the last lot, at least that last lot.

The **odd year** (``shitenno.md §4.4``): use Draw tiles first, then place where the space
value, title bonus, majority gain and bonus tile minus the cheapest payment is best; pay the
cheapest way (koku costs its face, troops their unit value, tiles their use, the Hatamoto's
wild troop nothing); a placement must also beat the worth of the kamon it uses, unless the
supply holds more kamons than the odd years left can take (§4.6); the Sensei gilds the kamon
that helps a majority most.

Only what the acting seat may know is read: its own hand, the board, the top troop face of
each stack, titles, scores, supplies, bonus tiles held, deck sizes and the sharing's cards.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from sengoku.core import Rng

from . import control
from .actions import (
    Accept,
    AddKoku,
    AddTile,
    AddTroop,
    EndTurn,
    Flip,
    NoFlip,
    Offer,
    Place,
    Refuse,
    ShitennoAction,
    TakeLast,
    Target,
    UseDraw,
)
from .board import (
    DAIMYO,
    DRAW,
    GOLDEN_WEIGHT,
    HATAMOTO,
    KOKU_POINTS,
    NKINDS,
    NPROV,
    P_BASE,
    P_MAJORITY,
    P_NEED,
    P_VALUES,
    PLACEMENTS,
    SENSEI,
    SPACES,
    TITLE_BONUS,
)
from .data import KIND_UNITS
from .state import EMPTY, GOLDEN, NO_TITLE, Phase, State

__all__ = ["evaluate", "policy", "score_estimate"]


# Weights, tuned against random opponents (4 players, 1,600 games a setting).
UNIT = 1.0  # a troop unit's worth while placements lie ahead
LATE_UNIT = 0.1  # ... and once no odd year is left to spend it
TILE_GAIN = 2.0  # a bonus tile taken with a placement (its effect is hidden)
TILE_COST = 0.9  # a bonus tile spent on a payment
KAMON_COST = 1.0  # a control kamon used now is one fewer later
KOKU_SPEND = 1.0  # a koku paid is a favour point lost at the end
ACCEPT_RATIO = 1.0  # accept a lot worth this share of the fair share
BUILD_RATIO = 0.5  # the Tairo's lots aim at this share of the fair share
LAST_SPLIT = 0.3  # at the last split, the lot's share of the table
MAJ_SCALE = 1.0  # weight of the majority estimate in a placement's worth
KEEP_REACH = 1  # at the last split, placements the Tairo's hand plus his lot must pay for
# A title's worth as the seat it gives in the next sharing (§4.3): the Daimyo builds the lots,
# the others are offered them in title order. Against Tairos who put many cards in a lot,
# being offered first is worth more than building (fitted against random players in
# 4-player games; docs/ai.md).
NEXT_SHARING = (-1.2, 1.5, 0.4, -0.7)

# -- public facts -------------------------------------------------------------------------


def _free_space(board: list[int], p: int) -> int:
    base = p * SPACES
    for i in range(SPACES):
        if board[base + i] == EMPTY:
            return i
    return -1


def _requirement(s: State, p: int) -> list[int]:
    """Troops the next space of ``p`` needs, from the top tile's public troop face (§3.1)."""
    req = [0, 0, 0, 0]
    stack = s.stacks[p]
    if stack:
        req[P_BASE[p]] += P_NEED[p] - 1
        req[stack[-1] // 3] += 1
    else:
        req[P_BASE[p]] += P_NEED[p]
    return req


def _last_sharing(s: State) -> bool:
    """This sharing ends the game: a supply is empty or the koku deck is (§4.6, G11)."""
    return not s.options.end_after_odd_year and (not s.koku_deck or min(s.kamons) == 0)


def _last_odd_year(s: State) -> bool:
    """This odd year is likely the last: the next sharing should trigger the end (§4.6)."""
    return (
        len(s.koku_deck) <= s.options.draw_koku_per_player * s.players
        or min(s.kamons) <= PLACEMENTS
    )


def _odd_years_left(s: State) -> int:
    """Odd years left, this one included, if every general places two kamons a year: the
    koku deck lasts so many sharings, a supply so many years (§4.6)."""
    draw = max(1, s.options.draw_koku_per_player * s.players)
    years = len(s.koku_deck) // draw
    for q in range(s.players):
        years = min(years, (s.kamons[q] + PLACEMENTS - 1) // PLACEMENTS)
    return max(1, years)


def _unit_values(s: State, base: float) -> list[float]:
    """Each troop type's worth: ``base`` scaled by how much the open provinces ask for it."""
    demand = [0.0, 0.0, 0.0, 0.0]
    for p in range(NPROV):
        space = _free_space(s.board, p)
        if space < 0:
            continue
        weight = P_VALUES[p][space]
        for t, n in enumerate(_requirement(s, p)):
            demand[t] += n * weight
    top = max(demand)
    if top <= 0:
        return [base * 0.5] * 4
    return [base * (0.7 + 0.6 * d / top) for d in demand]


def _share(weights: list[int], first: list[int], seat: int, free: int, players: int) -> float:
    """An estimated chance that ``seat`` wins a province's majority (§4.7): a lead is safer
    the fewer free spaces can still overturn it; ties go to the leftmost kamon."""
    mine = weights[seat]
    best, best_first = 0, SPACES
    for q in range(players):
        if q != seat and (weights[q] > best or (weights[q] == best and first[q] < best_first)):
            best, best_first = weights[q], first[q]
    if mine == 0 and best == 0:
        return 1.0 / players if free else 0.0
    lead = mine > best or (mine == best and first[seat] < best_first)
    if free == 0:
        return 1.0 if lead else 0.0
    x = (mine - best) + (0.5 if lead else -0.5)
    return min(1.0, max(0.0, 0.5 + x / (2 * free + 1)))


def _province(s: State, p: int) -> tuple[list[int], list[int], int]:
    """Majority weights, leftmost kamon per seat and free spaces of province ``p``."""
    weights = [0] * s.players
    first = [SPACES] * s.players
    free = 0
    base = p * SPACES
    for i in range(SPACES):
        v = s.board[base + i]
        if v == EMPTY:
            free += 1
            continue
        owner = v % GOLDEN
        weights[owner] += GOLDEN_WEIGHT if v >= GOLDEN else 1
        if first[owner] == SPACES:
            first[owner] = i
    return weights, first, free


def _place_gain(s: State, seat: int, p: int) -> float:
    """Favour a kamon of ``seat`` on ``p``'s next space brings, payment aside (§4.4, §4.7)."""
    weights, first, free = _province(s, p)
    space = SPACES - free
    before = _share(weights, first, seat, free, s.players)
    weights[seat] += 1
    if first[seat] == SPACES:
        first[seat] = space
    after = _share(weights, first, seat, free - 1, s.players)
    gain = float(P_VALUES[p][space] + TITLE_BONUS[s.titles[seat]])
    gain += MAJ_SCALE * P_MAJORITY[p] * (after - before)
    if s.stacks[p]:
        gain += TILE_GAIN
    return gain


def _flip_gain(s: State, seat: int, cell: int) -> float:
    """What gilding ``seat``'s kamon on board cell ``cell`` adds to its majority (§2.5)."""
    p = cell // SPACES
    weights, first, free = _province(s, p)
    before = _share(weights, first, seat, free, s.players)
    weights[seat] += GOLDEN_WEIGHT - 1
    return P_MAJORITY[p] * (_share(weights, first, seat, free, s.players) - before)


# -- values of cards, payments and titles ------------------------------------------------------


def _cards_value(troops: list[int], koku: list[int], uv: list[float]) -> float:
    value = 0.0
    for k in range(NKINDS):
        c = troops[k]
        if c:
            value += c * sum((uv[t] for t in KIND_UNITS[k]), 0.0)
    return value + KOKU_POINTS * (koku[1] + 2 * koku[2] + 3 * koku[3])


def _units(troops: list[int]) -> list[int]:
    u = [0, 0, 0, 0]
    for k in range(NKINDS):
        c = troops[k]
        if c:
            for t in KIND_UNITS[k]:
                u[t] += c
    return u


def _card_value(kind: int, uv: list[float]) -> float:
    return sum(uv[t] for t in KIND_UNITS[kind])


def _placements(s: State, seat: int, units: float, koku: float) -> float:
    """About how many placements next odd year ``seat`` can pay for, holding its hand plus
    ``units`` troop units and ``koku`` koku (a placement takes 3 or 4 troops, or about 5
    koku; §3.1, §3.2)."""
    hk = s.hand_koku[seat]
    units += sum(_units(s.hand_troops[seat])) + 0.7 * len(s.tiles[seat])
    koku += hk[1] + 2 * hk[2] + 3 * hk[3]
    return min(float(min(PLACEMENTS, s.kamons[seat])), units / 3.5 + koku / 5.0)


def _reach(
    s: State, seat: int, troops: list[int], koku: list[int], title: int
) -> tuple[int, float]:
    """The placements next odd year that ``seat``, holding the troop cards ``troops``, the
    koku cards ``koku``, its bonus tiles and ``title``, can concretely pay for, one a
    province, best first; and their favour net of the koku paid (§3.1, §3.2, §4.4)."""
    hand = troops.copy()
    kk = koku.copy()
    effects = [c % 3 for c in s.tiles[seat]]
    spare = len(effects) - effects.count(DRAW)  # a +1 or Exchange tile: about 1 troop
    wild = 1 if title == HATAMOTO else 0
    open_ = []
    for p in range(NPROV):
        space = _free_space(s.board, p)
        if space >= 0:
            gain = P_VALUES[p][space] + (TILE_GAIN if s.stacks[p] else 0.0)
            open_.append((gain, p, space, _requirement(s, p)))
    open_.sort(reverse=True)
    bonus = TITLE_BONUS[title] if title != NO_TITLE else 0
    count, points = 0, 0.0
    while count < min(PLACEMENTS, s.kamons[seat]):
        units = _units(hand)
        money = kk[1] + 2 * kk[2] + 3 * kk[3]
        done = -1
        for i, (gain, p, space, req) in enumerate(open_):
            short = sum(r - u for r, u in zip(req, units, strict=True) if r > u)
            if short <= spare + wild:
                _spend_troops(hand, req)
                spare -= max(0, short - wild)
                points += gain + bonus
                done = i
                break
            price = P_VALUES[p][space]
            if money >= price:
                points += gain + bonus - KOKU_SPEND * _spend_koku(kk, price)
                done = i
                break
        if done < 0:
            break
        del open_[done]
        count += 1
    return count, points


def _spend_troops(hand: list[int], req: list[int]) -> None:
    """Take from ``hand`` the cards that cover most of ``req``, wasting least (§4.4)."""
    need = req.copy()
    while any(need):
        best, best_key = -1, (0, 0)
        for k in range(NKINDS):
            if hand[k]:
                units = KIND_UNITS[k]
                cover = sum(1 for t in set(units) if need[t]) + (
                    1 if len(units) == 2 and units[0] == units[1] and need[units[0]] > 1 else 0
                )
                key = (cover, -len(units))
                if cover and key > best_key:
                    best, best_key = k, key
        if best < 0:
            return
        hand[best] -= 1
        for t in KIND_UNITS[best]:
            if need[t]:
                need[t] -= 1


def _spend_koku(kk: list[int], price: int) -> int:
    """Take from ``kk`` the koku cards paying ``price`` with the least overpayment."""
    best = (99, 0, 0, 0)
    for c3 in range(kk[3] + 1):
        for c2 in range(kk[2] + 1):
            rest = price - 3 * c3 - 2 * c2
            c1 = max(0, rest)
            if c1 <= kk[1]:
                total = 3 * c3 + 2 * c2 + c1
                if total < best[0]:
                    best = (total, c1, c2, c3)
            if rest <= 0:
                break
    total, c1, c2, c3 = best
    kk[1] -= c1
    kk[2] -= c2
    kk[3] -= c3
    return total


def _title_value(s: State, seat: int, title: int, uv: list[float], placements: float) -> float:
    """What holding ``title`` next odd year is worth to ``seat`` making about
    ``placements`` placements (§2.5); nothing in the last sharing."""
    if _last_sharing(s):
        return 0.0
    order = (3 - title) * 0.4  # an earlier turn takes the better spaces first
    if s.players == len(NEXT_SHARING):  # each title a seat; fewer players, fewer seats
        order += NEXT_SHARING[title]
    if title == HATAMOTO:
        every = s.options.hatamoto_every_placement
        return order + (placements if every else min(1.0, placements)) * sum(uv) / 4
    if title == SENSEI:
        best = 1.0  # a kamon placed this year may be gilded too
        for cell, v in enumerate(s.board):
            if v == seat:
                best = max(best, _flip_gain(s, seat, cell))
        return order + best
    return order + TITLE_BONUS[title] * placements + (0.8 if title == DAIMYO else 0.0)


def _payment_cost(a: Place, uv: list[float]) -> float:
    """What a payment gives up: koku at face value, troop cards at their units' worth, bonus
    tiles at their use; the Hatamoto's wild troop is free every placement (§4.4, §4.5)."""
    cost = KOKU_SPEND * sum(a.kokus) + (a.plus + a.exchange) * TILE_COST
    for k in a.troops:
        cost += _card_value(k, uv)
        if len(KIND_UNITS[k]) == 2 and KIND_UNITS[k][0] != KIND_UNITS[k][1]:
            cost += 0.1  # keep the flexible mixed doubles
    return cost


# -- the policy -----------------------------------------------------------------------------------


def policy(state: State, seat: int, legal: Sequence[ShitennoAction], rng: Rng) -> ShitennoAction:
    """The heuristic's choice among ``legal`` for ``seat``; always one of ``legal``.

    Deterministic given what ``seat`` may know (``rng`` is accepted for the hook's
    signature and left unused).
    """
    if len(legal) == 1:
        return legal[0]
    s = state
    phase = s.phase
    if phase is Phase.BUILD:
        return _build(s, seat, legal)
    if phase is Phase.OFFER:
        return _answer(s, seat, legal)
    if phase is Phase.LAST:
        return _take_last(s, seat, legal)
    if phase is Phase.PAY:
        return _pay(s, seat, legal)
    if phase is Phase.FLIP:
        return _flip(s, seat, legal)
    return _control(s, seat, legal)


def _sharing_values(s: State) -> list[float]:
    return _unit_values(s, LATE_UNIT if _last_sharing(s) else UNIT)


def _waiting(s: State) -> int:
    return sum(1 for t in s.lot_of if t == NO_TITLE)


def _fair_share(s: State, seat: int, uv: list[float]) -> float:
    """What one of the players still without a lot can expect of what is left (§4.3)."""
    waiting = max(1, _waiting(s))
    troops = [s.pool_troops[k] + s.lot_troops[k] for k in range(NKINDS)]
    koku = [s.pool_koku[v] + s.lot_koku[v] for v in range(4)]
    total = _cards_value(troops, koku, uv)
    share = _placements(
        s, seat, sum(_units(troops)) / waiting, (koku[1] + 2 * koku[2] + 3 * koku[3]) / waiting
    )
    tiles = list(s.tiles_left)
    if s.lot_tile != NO_TITLE:
        tiles.append(s.lot_tile)
    total += sum(sorted(_title_value(s, seat, t, uv, share) for t in tiles)[-waiting:])
    return total / waiting


def _pool_placements(s: State, seat: int, share: int) -> float:
    pk = s.pool_koku
    units = sum(_units(s.pool_troops)) / share
    return _placements(s, seat, units, (pk[1] + 2 * pk[2] + 3 * pk[3]) / share)


def _remainder(s: State, seat: int, uv: list[float]) -> float:
    """The last lot: every card left on the table and the best tile left (§4.3 step 5)."""
    rest = _cards_value(s.pool_troops, s.pool_koku, uv)
    placements = _pool_placements(s, seat, 1)
    return rest + max((_title_value(s, seat, t, uv, placements) for t in s.tiles_left), default=0.0)


def _build(s: State, seat: int, legal: Sequence[ShitennoAction]) -> ShitennoAction:
    """The Tairo builds a lot worth part of a fair share, from what he values least, keeping
    the best hierarchy tile for the end; at the last split (he and one other left) he puts
    ``LAST_SPLIT`` of the table's worth in the lot, keeping it if it is refused, and so
    adds cards until his hand plus the lot pays for ``KEEP_REACH`` placements (§4.3)."""
    uv = _sharing_values(s)
    waiting = _waiting(s)
    tiles = [a for a in legal if isinstance(a, AddTile)]
    if tiles:  # the least valuable tile goes in first; the best one stays for the end
        placements = _pool_placements(s, seat, max(1, waiting))
        return min(tiles, key=lambda a: (_title_value(s, seat, a.title, uv, placements), a.title))
    lot_troops, lot_koku = s.lot_troops, s.lot_koku
    lot = _cards_value(lot_troops, lot_koku, uv)
    lot_placements = _placements(
        s, seat, sum(_units(lot_troops)), lot_koku[1] + 2 * lot_koku[2] + 3 * lot_koku[3]
    )
    if s.lot_tile != NO_TITLE:
        lot += _title_value(s, seat, s.lot_tile, uv, lot_placements)
    if waiting <= 2:
        target = LAST_SPLIT * (lot + _remainder(s, seat, uv))
    else:
        target = BUILD_RATIO * _fair_share(s, seat, uv)
    offers = [a for a in legal if isinstance(a, Offer)]
    if offers and lot >= target:
        if waiting <= 2:  # a refused lot is kept: it must pay for a placement (§4.3 step 4)
            more = _reaching_card(s, seat, legal)
            if more is not None:
                return more
        return offers[0]
    mine = _unit_values(s, UNIT)
    hand = s.hand_troops[seat]
    best: ShitennoAction | None = None
    best_key = math.inf
    for a in legal:
        if isinstance(a, AddTroop):
            value = _card_value(a.kind, uv)
            keep = _card_value(a.kind, mine) + 0.2 * sum(
                1 for k in range(NKINDS) if hand[k] and set(KIND_UNITS[k]) & set(KIND_UNITS[a.kind])
            )
        elif isinstance(a, AddKoku):
            value = keep = float(KOKU_POINTS * a.value)
        else:
            continue
        over = max(0.0, lot + value - target)  # do not overshoot the target
        key = keep + 2.0 * over
        if key < best_key:
            best, best_key = a, key
    if best is None:
        return offers[0] if offers else legal[0]
    return best


def _with_lot(
    s: State, seat: int, troops: list[int], koku: list[int]
) -> tuple[list[int], list[int]]:
    """The hand of ``seat`` plus the troop cards ``troops`` and koku cards ``koku``."""
    return (
        [a + b for a, b in zip(s.hand_troops[seat], troops, strict=True)],
        [a + b for a, b in zip(s.hand_koku[seat], koku, strict=True)],
    )


def _reaching_card(s: State, seat: int, legal: Sequence[ShitennoAction]) -> ShitennoAction | None:
    """While the Tairo's hand plus his lot pays for fewer than ``KEEP_REACH`` placements, the
    card that adds most to what it pays for; ``None`` when none helps or none is needed."""
    if _last_sharing(s):
        return None
    ht, hk = _with_lot(s, seat, s.lot_troops, s.lot_koku)
    best = _reach(s, seat, ht, hk, s.lot_tile)
    if best[0] >= min(KEEP_REACH, s.kamons[seat]):
        return None
    choice: ShitennoAction | None = None
    for a in legal:
        if isinstance(a, AddTroop):
            ht[a.kind] += 1
            r = _reach(s, seat, ht, hk, s.lot_tile)
            ht[a.kind] -= 1
        elif isinstance(a, AddKoku):
            hk[a.value] += 1
            r = _reach(s, seat, ht, hk, s.lot_tile)
            hk[a.value] -= 1
        else:
            continue
        if r > best:
            choice, best = a, r
    return choice


def _answer(s: State, seat: int, legal: Sequence[ShitennoAction]) -> ShitennoAction:
    """Accept a lot worth about a fair share of what is left, or, when refusing leaves one
    the last lot, worth at least that last lot; else refuse (§4.3)."""
    uv = _sharing_values(s)
    lt, lk = s.lot_troops, s.lot_koku
    placements = float(_reach(s, seat, *_with_lot(s, seat, lt, lk), s.lot_tile)[0])
    value = _cards_value(lt, lk, uv) + _title_value(s, seat, s.lot_tile, uv, placements)
    last = _waiting(s) <= 2  # refusing leaves me the last lot
    want = _remainder(s, seat, uv) if last else ACCEPT_RATIO * _fair_share(s, seat, uv)
    accept = value >= want
    choice: ShitennoAction = Accept() if accept else Refuse()
    return choice if choice in legal else legal[0]


def _take_last(s: State, seat: int, legal: Sequence[ShitennoAction]) -> ShitennoAction:
    """The last lot: the hierarchy tile worth most to ``seat`` (§4.3 step 5), or, when
    ``seat`` picks it for another player (option ``last_lot_tile_chooser``), least to him."""
    uv = _sharing_values(s)
    takes = [a for a in legal if isinstance(a, TakeLast)]
    if not takes:
        return legal[0]
    taker = s.lot_of.index(NO_TITLE)
    ht, hk = _with_lot(s, taker, s.pool_troops, s.pool_koku)

    def worth(a: TakeLast) -> float:
        return _title_value(s, taker, a.title, uv, float(_reach(s, taker, ht, hk, a.title)[0]))

    if taker != seat:
        return min(takes, key=lambda a: (worth(a), a.title))
    return max(takes, key=lambda a: (worth(a), -a.title))


def _odd_values(s: State) -> list[float]:
    return _unit_values(s, LATE_UNIT if _last_odd_year(s) else UNIT)


def _pay(s: State, seat: int, legal: Sequence[ShitennoAction]) -> ShitennoAction:
    """The cheapest exact payment (§4.4 step 3), after a Draw tile when one may be spent
    here (option ``bonus_tile_timing='conquest'``)."""
    for a in legal:
        if isinstance(a, UseDraw) and not a.koku:
            return a
    uv = _odd_values(s)
    best, best_cost = legal[0], math.inf
    for a in legal:
        if isinstance(a, Place):
            cost = _payment_cost(a, uv)
            if cost < best_cost:
                best, best_cost = a, cost
    return best


def _cheapest(s: State, seat: int, p: int, uv: list[float]) -> float:
    payments = control.payments(s, seat, p)
    return min((_payment_cost(a, uv) for a in payments if isinstance(a, Place)), default=99.0)


def _control(s: State, seat: int, legal: Sequence[ShitennoAction]) -> ShitennoAction:
    """An odd-year turn: Draw tiles first, then the best placement worth its cost, then a
    golden flip when allowed, then end the turn (§4.4, §4.5, §2.5)."""
    for a in legal:
        if isinstance(a, UseDraw) and not a.koku:
            return a
    uv = _odd_values(s)
    best: ShitennoAction | None = None
    best_net = 0.0
    kamon_cost = 0.0 if s.kamons[seat] > PLACEMENTS * _odd_years_left(s) else KAMON_COST
    # the placement with the greatest net worth, the first offered among equals; the greatest
    # gains are priced first, since no payment costs less than nothing: a province whose
    # gain cannot beat the best net so far needs no search of its payments
    targets = [
        (-_place_gain(s, seat, a.province), k, a)
        for k, a in enumerate(legal)
        if isinstance(a, Target)
    ]
    targets.sort()
    first = len(legal)  # the best one's place in ``legal``
    for minus_gain, k, a in targets:
        top = -minus_gain - kamon_cost
        if top < best_net or (top == best_net and k > first):
            continue
        net = -minus_gain - _cheapest(s, seat, a.province, uv)
        net -= kamon_cost
        if net > best_net or (net == best_net and best is not None and k < first):
            best, best_net, first = a, net, k
    if best is not None:
        return best
    flips = [a for a in legal if isinstance(a, Flip)]
    if flips:
        return _best_flip(s, seat, flips)
    for a in legal:
        if isinstance(a, EndTurn):
            return a
    return legal[0]


def _best_flip(s: State, seat: int, flips: list[Flip]) -> Flip:
    return max(
        flips,
        key=lambda a: (_flip_gain(s, seat, a.province * SPACES + a.space), -a.province),
    )


def _flip(s: State, seat: int, legal: Sequence[ShitennoAction]) -> ShitennoAction:
    """The Sensei gilds the kamon that helps a majority most; gilding never hurts (§2.5)."""
    flips = [a for a in legal if isinstance(a, Flip)]
    if flips:
        return _best_flip(s, seat, flips)
    for a in legal:
        if isinstance(a, NoFlip):
            return a
    return legal[0]


# -- the evaluation ---------------------------------------------------------------------------


def score_estimate(state: State) -> list[float]:
    """Each seat's estimated final favour: the score so far, the koku in hand (§4.7), 6 times
    each province's majority share, the troops' and titles' worth while odd years remain
    (during a sharing, the hierarchy tile already taken, §4.3), and a little per kamon left.
    A finished game gives the final scores. It reads the state as given: in search, a
    sample drawn from one seat's view."""
    s = state
    n = s.players
    if s.result is not None:
        return [float(x) for x in s.result]
    est = [float(x) for x in s.score]
    for p in range(NPROV):
        weights, first, free = _province(s, p)
        if not any(weights):
            continue
        for q in range(n):
            est[q] += P_MAJORITY[p] * _share(weights, first, q, free, n)
    late = _last_sharing(s) if s.phase <= Phase.LAST else _last_odd_year(s)
    unit = 0.2 if late else 0.9
    for q in range(n):
        hk, ht = s.hand_koku[q], s.hand_troops[q]
        est[q] += KOKU_POINTS * (hk[1] + 2 * hk[2] + 3 * hk[3])
        est[q] += unit * sum(ht[k] * len(KIND_UNITS[k]) for k in range(NKINDS))
        if not late:
            if s.phase > Phase.LAST:
                bonus = float(TITLE_BONUS[s.titles[q]])
            elif s.lot_of[q] != NO_TITLE:  # the hierarchy tile taken this sharing (§4.3)
                bonus = float(TITLE_BONUS[s.lot_of[q]])
            else:
                bonus = sum(TITLE_BONUS) / len(TITLE_BONUS)
            est[q] += 0.5 * s.kamons[q] + bonus * min(2, s.kamons[q])
    return est


def evaluate(state: State) -> list[float]:
    """Each seat's estimated share of a win: a softmax over :func:`score_estimate`, sharper
    as the supplies run down. A finished game gives the winners equal shares."""
    s = state
    n = s.players
    if s.result is not None:
        best = max(s.result)
        winners = [p for p in range(n) if s.result[p] == best]
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]
    est = score_estimate(s)
    temp = 1.5 + 0.3 * sum(s.kamons) / n
    top = max(est)
    shares = [math.exp((e - top) / temp) for e in est]
    total = sum(shares)
    return [w / total for w in shares]

"""A fast heuristic for Shogun: a policy for agents and playouts, and a position estimate.

Everything is valued in victory points still to come (``shogun.md §11``: 1 VP per province and
per building each winter, 3/2/1 for the regional majorities), so one number compares actions:

- **Buildings** (``shogun.md §5``) are worth a VP per winter left, plus the regional majority
  points they win or save, less their cost in chests; only on a free slot and when affordable.
- **Collecting** (``shogun.md §5``, ``§10.1``) yields chests or rice; where a revolt marker
  already lies the peasants revolt, so the expected loss of the province (and the armies) is
  subtracted; a first marker costs a little (the next collection revolts, no peasant allies).
- **Rice** is worth much while the year's stock is short of provinces plus the expected winter
  loss of the events still undrawn (``shogun.md §10.2``, ``§10.3``), and nothing beyond.
- **Recruits** are worth the added chance of holding a threatened province (threat: the biggest
  enemy stack next to it) and of winning the best attack from it.
- **Battle/Move** (``shogun.md §9``) is worth the best attack from the province (chance of
  winning times the province's worth to us, and to the loser) or a move of spare armies to a
  threatened neighbour of ours.

Planning (``shogun.md §4.3``) is greedy on that table: the best (space, province) pairs within
the chests at hand (all-or-nothing, ``shogun.md §4.6``), blanks elsewhere and, where blanks run
out, the least harmful provinces. The bid (``shogun.md §4.5``) is an unplanned province card
(free, ranks above a 0 bid), chests only in the last season when they are worth little (in
self-play paying a chest earlier cost about 9 points of win rate); positions and special
cards (``shogun.md §6``) are chosen by what they add to the plan. Hunger revolts
(``shogun.md §10.3``) are resolved strongest first.

Chance of winning a throw: each thrown cube comes out with about 2/3 (``shogun.md §15``); the
table ``P_WIN`` holds P(more of n cubes than of d cubes come out).

Only what the acting seat may know is read: its own plan and bid, the board (owners, armies,
buildings, markers), money, rice, VP, hands (public), the events of the year and those drawn,
the revealed action order and the special cards. Never other seats' plans or bids, the supply
(its split with the tower is hidden) or the tower.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TypeVar

from sengoku.core import Rng

from .actions import (
    BLANK,
    EMPTY,
    PROVINCE_BID,
    STAY,
    Armies,
    Bid,
    Draft,
    March,
    Plan,
    Revolt,
    ShogunAction,
    TakePosition,
    TakeTop,
)
from .data import load_data
from .state import BATTLE, OVER, PLAN, POSITION, State

__all__ = ["evaluate", "policy", "score_estimate"]

D = load_data()
N = len(D.provinces)
TAX = D.tax
RICE = D.rice
SLOTS = D.slots
EV_KIND = D.event_kind
EV_LOSS = D.event_loss
NREG = len(D.regions)
BITS = (1, 2, 4)
B_COST = tuple(D.tables.building_costs[k] for k in ("castle", "temple", "theatre"))
MAJ = tuple(D.tables.majority_points[k] for k in ("castle", "temple", "theatre"))
R_KEYS = ("recruit5", "recruit3", "recruit1")
R_COST = tuple(D.tables.recruit[k].cost for k in R_KEYS)
R_ARMIES = tuple(D.tables.recruit[k].armies for k in R_KEYS)
S_CHEST, S_RICE, S_SIX, S_ATTACK, S_DEFENCE = range(5)
POP = tuple(bin(i).count("1") for i in range(8))

P_ATTACKED = 0.5  # chance a threatened province is attacked in a season
RICE_UNIT = 1.0  # VP a needed unit of rice saves (hunger revolts, shogun.md §10.3)
MARKER_COST = 0.3  # a first revolt marker: the next collection revolts, no peasant allies
ARMY_UNIT = 0.04  # an army's worth beyond what it protects or conquers
HOLD_EXTRA = 4.0  # a province's worth beyond its VP: its card, income, no gap
MV_SCALE = 1.0  # scales what a chest is worth
BID_MONEY = 99  # bid a chest from this many chests on (else a spare province card)
LAST_BID = 2  # chests bid in the last season, when chests are worth little
EST_ARMY = 0.1  # evaluate: VP per army per winter left
EST_MONEY = 0.3  # evaluate: VP per chest
EST_RICE = 0.2  # evaluate: VP per rice


def _binom(n: int, q: float) -> list[float]:
    return [math.comb(n, k) * q**k * (1 - q) ** (n - k) for k in range(n + 1)]


def _win_table(size: int, q: float) -> tuple[tuple[float, ...], ...]:
    """``P_WIN[n][d]``: more of ``n`` cubes come out than of ``d`` (each out with ``q``)."""
    pmf = [_binom(n, q) for n in range(size)]
    sf = []  # sf[n][j] = P(A > j)
    for n in range(size):
        row = []
        acc = 1.0
        for j in range(size):
            acc -= pmf[n][j] if j <= n else 0.0
            row.append(max(0.0, acc))
        sf.append(row)
    return tuple(
        tuple(sum(pmf[d][j] * sf[n][j] for j in range(d + 1)) for d in range(size))
        for n in range(size)
    )


CAP = 31
P_WIN = _win_table(CAP, 2 / 3)


def p_win(n: int, d: int) -> float:
    """P(strictly more of ``n`` attacking cubes come out than of ``d`` defending ones)."""
    if n <= 0:
        return 0.0
    if n >= CAP or d >= CAP:
        scale = max(n, d) / (CAP - 1)
        n = min(CAP - 1, int(n / scale))
        d = min(CAP - 1, int(d / scale))
    return P_WIN[n][d]


# -- public facts -------------------------------------------------------------------------


class Facts:
    """What a decision needs about the board, computed once per call from public facts."""

    __slots__ = ("mine", "mv", "seat", "threat", "winters", "worth")

    def __init__(self, s: State, seat: int) -> None:
        self.seat = seat
        left = s.options.years - s.year + 1 if s.phase != OVER else 0
        self.winters = left
        seasons_left = (s.options.years - s.year) * 3 + (3 - s.season)
        # a chest buys about a theatre's VP per winter left; in the last season nothing
        self.mv = 0.05 if seasons_left <= 1 else MV_SCALE * min(0.6, 0.15 + 0.12 * seasons_left)
        owner = s.owner
        armies = s.armies
        nb = s.board.neighbours
        self.mine = [p for p in range(N) if owner[p] == seat]
        threat = [0] * N
        worth = [0.0] * N
        for p in self.mine:
            t = 0
            for q in nb[p]:
                o = owner[q]
                if o >= 0 and o != seat and armies[q] - 1 > t:
                    t = armies[q] - 1
            threat[p] = t
            worth[p] = left * (1 + POP[s.bld[p]]) + 0.3 * (seasons_left - 1) + HOLD_EXTRA
        self.threat = threat
        self.worth = worth


T = TypeVar("T")

_FACTS: dict[tuple[object, ...], Facts] = {}


def _kept(cache: dict[tuple[object, ...], T], key: tuple[object, ...], make: Callable[[], T]) -> T:
    """``cache[key]``, made by ``make`` when missing (the cache is emptied past 256 keys)."""
    got = cache.get(key)
    if got is None:
        if len(cache) > 256:
            cache.clear()
        got = cache[key] = make()
    return got


def _board_key(s: State, seat: int) -> tuple[object, ...]:
    """What :class:`Facts` read: the seat, the board and the time left."""
    return (
        seat,
        s.board,
        s.options.years,
        s.year,
        s.season,
        s.phase == OVER,
        tuple(s.owner),
        tuple(s.armies),
        tuple(s.bld),
    )


def _facts(s: State, seat: int) -> Facts:
    """:class:`Facts` of ``seat``, kept while nothing they read moves (the eleven planning
    steps of a season, a seat's marches and its answers to one battle read the same)."""
    return _kept(_FACTS, _board_key(s, seat), lambda: Facts(s, seat))


def _prov_value(s: State, f: Facts, t: int) -> float:
    """What taking province ``t`` is worth to the attacker (its VP, and the loser's loss)."""
    base = f.winters * (1 + POP[s.bld[t]]) + 0.3 * max(0, f.winters * 3 - 1 - s.season)
    if s.owner[t] >= 0:
        base *= 1.4  # the loser's loss counts too (a third of it in a 4-player game)
    return base + 0.1 * (TAX[t] + RICE[t]) / 2


def _defence(s: State, t: int) -> int:
    o = s.owner[t]
    if o < 0:
        return 2 if s.event >= 0 and EV_KIND[s.event] == "two_peasants" else 1
    return s.armies[t] + (1 if s.markers[t] == 0 else 0)


def _attack_value(s: State, f: Facts, p: int, a: int) -> float:
    """Best expected gain of a Battle from ``p`` holding ``a`` armies (all but one march)."""
    if a < 2:
        return 0.0
    seat = f.seat
    best = 0.0
    for t in s.board.neighbours[p]:
        if s.owner[t] == seat:
            continue
        n = a - 1
        v = p_win(n, _defence(s, t)) * _prov_value(s, f, t) - 0.05 * n
        if v > best:
            best = v
    return best


def _move_value(s: State, f: Facts, p: int, a: int) -> float:
    """Moving spare armies from ``p`` to the most threatened neighbour of ours."""
    spare = a - 1 - f.threat[p]
    if spare <= 0:
        return 0.0
    best = 0.0
    for q in s.board.neighbours[p]:
        if s.owner[q] != f.seat:
            continue
        gain = _hold_gain(f, q, s.armies[q], min(spare, a - 1))
        if gain > best:
            best = gain
    return best


def _hold(a: int, threat: int) -> float:
    return 1.0 - p_win(threat, a + 1) if threat > 0 else 1.0


def _hold_gain(f: Facts, p: int, a: int, k: int) -> float:
    t = f.threat[p]
    if t <= 0:
        return 0.0
    return P_ATTACKED * f.worth[p] * (_hold(a + k, t) - _hold(a, t))


def _rice_need(s: State, seat: int, n_prov: int) -> int:
    """Rice still missing for winter (``shogun.md §10.2``): provinces + likely loss - stock."""
    left = [e for e in s.year_events if e not in s.season_events]
    if left:
        losses = [EV_LOSS[e] for e in left]
        loss = (sum(losses) / len(losses) + max(losses)) / 2
    else:
        loss = 0.0
    return int(n_prov + loss + 0.5) - s.rice[seat]


def _building_counts(s: State) -> list[list[list[int]]]:
    """``counts[region][kind][seat]``: buildings of each kind per region and owner."""
    npl = s.players
    counts = [[[0] * npl for _ in range(3)] for _ in range(NREG)]
    reg = s.board.region
    owner = s.owner
    bld = s.bld
    for p in range(N):
        b = bld[p]
        o = owner[p]
        if b and o >= 0:
            c = counts[reg[p]]
            for k in range(3):
                if b & BITS[k]:
                    c[k][o] += 1
    return counts


def _majority_gain(counts: list[list[list[int]]], seat: int, region: int, kind: int) -> float:
    """Majority points ``seat`` gains in ``region`` by one more building of ``kind`` (§11)."""
    count = counts[region][kind].copy()
    before = _maj_points(count, seat, MAJ[kind])
    lead_before = max(count)
    count[seat] += 1
    after = _maj_points(count, seat, MAJ[kind])
    # others lose points when a lead is tied or overtaken: count a third of it
    others = 0.33 if count[seat] > lead_before > 0 else 0.0
    return after - before + others


def _maj_points(count: list[int], seat: int, pts: int) -> int:
    top = max(count)
    if top == 0 or count[seat] != top:
        return 0
    return pts if count.count(top) == 1 else pts - 1


def _revolt_risk(s: State, f: Facts, p: int, peasants: int) -> float:
    """Expected VP lost in a revolt of ``peasants`` against ``p``'s armies (§9.2, §10)."""
    a = s.armies[p]
    crush = p_win(a, peasants)
    return (1 - crush) * (f.worth[p] + ARMY_UNIT * a) + crush * 0.1 * peasants


# -- planning -------------------------------------------------------------------------------


_TABLES: dict[tuple[object, ...], list[list[float]]] = {}


def _cached_table(s: State, f: Facts, seat: int) -> list[list[float]]:
    """:func:`_table` for the whole hand, kept while ``seat`` plans (nothing public moves)."""
    key = (
        *_board_key(s, seat),
        s.event,
        s.money[seat],
        s.rice[seat],
        tuple(s.hand[seat]),
        tuple(s.markers),
        tuple(s.bsupply),
        tuple(s.year_events),
        tuple(s.season_events),
    )
    return _kept(_TABLES, key, lambda: _table(s, f, seat, s.hand[seat]))


def _table(s: State, f: Facts, seat: int, provs: Sequence[int]) -> list[list[float]]:
    """``V[space][i]``: the worth of planning ``provs[i]`` on each action space."""
    money = s.money[seat]
    mv = f.mv
    w = f.winters
    need = _rice_need(s, seat, len(f.mine))
    rows: list[list[float]] = [[0.0] * len(provs) for _ in range(10)]
    maj_cache: dict[tuple[int, int], float] = {}
    counts = _building_counts(s)
    for i, p in enumerate(provs):
        bld = s.bld[p]
        free = POP[bld] < SLOTS[p]
        safe = _hold(s.armies[p], f.threat[p]) * 0.3 + 0.7
        for k in range(3):
            if free and not bld & BITS[k] and s.bsupply[k] > 0 and money >= B_COST[k]:
                key = (s.board.region[p], k)
                g = maj_cache.get(key)
                if g is None:
                    g = _majority_gain(counts, seat, key[0], k)
                    maj_cache[key] = g
                v = w * (1 + 0.8 * g) * safe
                if k == 0:
                    v += 0.4 * f.threat[p] / (1 + s.armies[p])  # castles defend
                rows[k][i] = v - B_COST[k] * mv
        m = s.markers[p]
        risk = _revolt_risk(s, f, p, m) if m else MARKER_COST
        rice_v = RICE_UNIT * max(0, min(RICE[p], need))
        rows[3][i] = rice_v - risk
        rows[4][i] = TAX[p] * mv - risk
        a = s.armies[p]
        base_atk = _attack_value(s, f, p, a)
        for k in range(3):
            if money < R_COST[k]:
                continue
            n = R_ARMIES[k]
            gain = _hold_gain(f, p, a, n) + 0.5 * (_attack_value(s, f, p, a + n) - base_atk)
            rows[5 + k][i] = gain + ARMY_UNIT * n * w - R_COST[k] * mv
        bv = max(base_atk, _move_value(s, f, p, a))
        rows[8][i] = bv
        rows[9][i] = bv
    return rows


def _intended_bid(s: State, f: Facts, seat: int) -> int:
    """Chests to bid for an early turn and a special card (``shogun.md §4.5``, ``§6``).

    Chests are dear until the last season, so earlier a spare province card is bid instead.
    """
    money = s.money[seat]
    if f.mv <= 0.1:
        return min(LAST_BID, money)
    return 1 if money >= BID_MONEY else 0


def _plan_choice(s: State, f: Facts, seat: int, legal: Sequence[ShogunAction]) -> ShogunAction:
    n = s.plan_n[seat]
    entries = s.plan[seat]
    used = set()
    blanks = 0
    spent = 0
    for sp in range(n):
        e = entries[sp]
        if e >= 0:
            used.add(e)
            spent += _cost(sp)
        elif e == BLANK:
            blanks += 1
    hand = s.hand[seat]
    keep = [j for j in range(len(hand)) if hand[j] not in used]
    provs = [hand[j] for j in keep]
    if n >= 10:
        return _bid_choice(s, f, seat, legal, provs, spent, blanks)
    full = _cached_table(s, f, seat)
    # the spaces still to plan (rows of the spaces planned already are never read)
    rows: list[list[float]] = [[] for _ in range(n)]
    rows += [[row[j] for j in keep] for row in full[n:]]
    budget = s.money[seat] - _intended_bid(s, f, seat) - spent
    cands = [(v, -sp, i) for sp in range(n, 10) for i, v in enumerate(rows[sp]) if v > 0]
    cands.sort(reverse=True)  # earlier spaces first among equals (battle A before B)
    assigned: dict[int, int] = {}
    taken: set[int] = set()
    recruit_at: dict[int, int] = {}
    for v, neg_sp, i in cands:
        sp = -neg_sp
        if sp in assigned or i in taken:
            continue
        c = _cost(sp)
        if c > budget:
            continue
        if sp >= 8:
            # a battle plan sees the armies recruited there this season
            extra = recruit_at.get(i, 0)
            if extra:
                v = max(v, _attack_value(s, f, provs[i], s.armies[provs[i]] + extra))
        if v <= 0:
            continue
        assigned[sp] = i
        taken.add(i)
        budget -= c
        if sp == 4:
            budget += int(TAX[provs[i]] * 0.6)
        if 5 <= sp <= 7:
            recruit_at[i] = R_ARMIES[sp - 5]
    if n in assigned and (chosen := Plan(n, provs[assigned[n]])) in legal:
        return chosen
    # fill the rest: blanks while they last, then the least harmful provinces
    spaces_left = 10 - n
    unassigned = [sp for sp in range(n, 10) if sp not in assigned]
    blanks_left = 5 - blanks
    free_provs = [i for i in range(len(provs)) if i not in taken]
    must_fill = len(unassigned) - blanks_left  # spaces needing a province card
    can_empty = len(provs) + blanks_left < spaces_left + 1
    if must_fill > 0 and not can_empty:
        fill = sorted(((rows[sp][i], sp, i) for sp in unassigned for i in free_provs), reverse=True)
        done_sp: set[int] = set()
        done_i: set[int] = set()
        for _v, sp, i in fill:
            if len(done_sp) >= must_fill:
                break
            if sp in done_sp or i in done_i:
                continue
            done_sp.add(sp)
            done_i.add(i)
            if sp == n and (chosen := Plan(n, provs[i])) in legal:
                return chosen
    blank = Plan(n, BLANK)
    if blank in legal:
        return blank
    empty = Plan(n, EMPTY)
    if empty in legal:
        return empty
    return _best_of(legal, lambda a: rows[n][provs.index(a.card)] if isinstance(a, Plan) else -9)


def _cost(space: int) -> int:
    if space <= 2:
        return B_COST[space]
    if 5 <= space <= 7:
        return R_COST[space - 5]
    return 0


def _bid_choice(
    s: State,
    f: Facts,
    seat: int,
    legal: Sequence[ShogunAction],
    provs: Sequence[int],
    spent: int,
    blanks: int,
) -> ShogunAction:
    want = min(_intended_bid(s, f, seat), s.money[seat] - spent)
    if want > 0 and Bid(want) in legal:
        return Bid(want)
    if provs:
        # a spare province card: free, and it ranks above a 0 bid (shogun.md §4.5)
        p = min(provs, key=lambda q: TAX[q] + RICE[q])
        if (spare := Bid(PROVINCE_BID, p)) in legal:
            return spare
    if Bid(0) in legal:
        return Bid(0)
    return legal[0]


# -- other decisions ------------------------------------------------------------------------


def _position_choice(s: State, f: Facts, seat: int, legal: Sequence[ShogunAction]) -> ShogunAction:
    """Turn position and special card (``shogun.md §6``) by what they add to our plan."""
    plan = s.plan[seat]

    def value(a: ShogunAction) -> float:
        if not isinstance(a, TakePosition):
            return -9.0
        v = 0.3 * (4 - a.position)
        c = a.card
        if c == S_CHEST and plan[4] >= 0:
            v += f.mv
        elif c == S_RICE and plan[3] >= 0:
            v += RICE_UNIT if _rice_need(s, seat, len(f.mine)) > 0 else 0.0
        elif c == S_SIX and plan[5] >= 0:
            v += 1.0 if s.event >= 0 and EV_KIND[s.event] == "recruit_shortage" else 0.5
        elif c == S_ATTACK:
            v += 0.7 * sum(1 for sp in (8, 9) if plan[sp] >= 0)
        elif c == S_DEFENCE:
            v += 0.1 * max((f.threat[p] for p in f.mine), default=0)
        return v

    return _best_of(legal, value)


def _march_choice(s: State, f: Facts, seat: int, legal: Sequence[ShogunAction]) -> ShogunAction:
    """Battle/Move or recruit-move target (``shogun.md §5``, §9): best attack, else a move."""
    kind, src = s.pending[1], s.pending[2]
    a = s.armies[src]

    def value(m: ShogunAction) -> float:
        if not isinstance(m, March):
            return -9.0
        if m.target == STAY:
            return 0.0
        t = m.target
        if m.attack:
            n = a - 1
            return p_win(n, _defence(s, t)) * _prov_value(s, f, t) - 0.1 * n
        if kind == BATTLE:
            spare = max(1, a - 1 - f.threat[src])
            return _hold_gain(f, t, s.armies[t], spare) - _hold_gain(f, src, a - spare, spare)
        return _hold_gain(f, t, s.armies[t], 1) - _hold_gain(f, src, a - 1, 1)

    return _best_of(legal, value)


def _armies_choice(s: State, f: Facts, seat: int, legal: Sequence[ShogunAction]) -> ShogunAction:
    """How many march: enough to win with margin, leaving enough behind to hold."""
    _, _, src, dst = s.pending
    a = s.armies[src]
    t = f.threat[src]
    if s.owner[dst] == seat:
        own_need = t + 1 if t else 1
        n = max(1, a - own_need)
        if f.threat[dst] == 0 and t > 0:
            n = 1
        return _closest(legal, n)
    d = _defence(s, dst)
    gain = _prov_value(s, f, dst)
    best_n, best_v = 1, -1e9
    for act in legal:
        if not isinstance(act, Armies):
            continue
        n = act.n
        v = p_win(n, d) * gain
        left = a - n
        if t > 0:
            v -= P_ATTACKED * f.worth[src] * (1 - _hold(left, t))
        v += 0.02 * n
        if v > best_v:
            best_v, best_n = v, n
    return _closest(legal, best_n)


def _closest(legal: Sequence[ShogunAction], n: int) -> ShogunAction:
    return _best_of(legal, lambda a: -abs(a.n - n) if isinstance(a, Armies) else -1e9)


def _revolt_choice(s: State, legal: Sequence[ShogunAction]) -> ShogunAction:
    """Hunger revolts (``shogun.md §10.3``): the best defended province first."""
    bonus = max(0, s.revolt_bonus)
    return _best_of(
        legal,
        lambda a: (
            p_win(s.armies[a.province], bonus + s.markers[a.province])
            if isinstance(a, Revolt)
            else -9.0
        ),
    )


def _draft_choice(s: State, seat: int, legal: Sequence[ShogunAction]) -> ShogunAction:
    """Draft (``shogun.md §2.4``): rich provinces next to our own, big stacks on them."""

    def value(a: ShogunAction) -> float:
        if isinstance(a, TakeTop):
            return 2.0
        if not isinstance(a, Draft):
            return -9.0
        p = a.province
        near = sum(1 for q in s.board.neighbours[p] if s.owner[q] == seat)
        foes = sum(1 for q in s.board.neighbours[p] if s.owner[q] not in (-1, seat))
        v = TAX[p] * 0.3 + RICE[p] * 0.3 + SLOTS[p] * 0.5 + near * 0.5
        return v + a.stack * 0.05 * (1 + foes - near)

    return _best_of(legal, value)


def _best_of(legal: Sequence[ShogunAction], key: Callable[[ShogunAction], float]) -> ShogunAction:
    """The first action with the highest ``key``."""
    best = legal[0]
    best_v = -1e18
    for a in legal:
        v = key(a)
        if v > best_v:
            best_v, best = v, a
    return best


# -- entry points ---------------------------------------------------------------------------


def policy(state: State, seat: int, legal: Sequence[ShogunAction], rng: Rng) -> ShogunAction | None:
    """The heuristic's choice among ``legal`` for ``seat`` (reads only what ``seat`` knows).

    Deterministic: ``rng`` is not drawn from (chance in playouts comes from the tower and the
    cards). The planning table is cached per seat and public position, so the eleven planning
    steps of a season compute it once.
    """
    if not legal:
        return None
    if len(legal) == 1:
        return legal[0]
    first = legal[0]
    s = state
    if isinstance(first, Revolt):
        return _revolt_choice(s, legal)
    if isinstance(first, (Draft, TakeTop)):
        return _draft_choice(s, seat, legal)
    f = _facts(s, seat)
    if s.phase == PLAN or isinstance(first, (Plan, Bid)):
        return _plan_choice(s, f, seat, legal)
    if s.phase == POSITION or isinstance(first, TakePosition):
        return _position_choice(s, f, seat, legal)
    if isinstance(first, March):
        return _march_choice(s, f, seat, legal)
    return _armies_choice(s, f, seat, legal)


def score_estimate(s: State) -> list[float]:
    """Each seat's estimated final VP: VP so far plus this board scored each winter left."""
    npl = s.players
    if s.phase == OVER:
        return [float(v) for v in s.vp]
    winters = s.options.years - s.year + 1
    per = [0.0] * npl
    counts = [[[0] * npl for _ in range(3)] for _ in range(NREG)]
    reg = s.board.region
    for p in range(N):
        o = s.owner[p]
        if o < 0:
            continue
        b = s.bld[p]
        per[o] += 1 + POP[b] + EST_ARMY * s.armies[p]
        if b:
            for k in range(3):
                if b & BITS[k]:
                    counts[reg[p]][k][o] += 1
    for r in range(NREG):
        for k in range(3):
            c = counts[r][k]
            top = max(c)
            if top == 0:
                continue
            holders = [o for o in range(npl) if c[o] == top]
            award = MAJ[k] if len(holders) == 1 else MAJ[k] - 1
            for o in holders:
                per[o] += award
    return [
        s.vp[o] + winters * per[o] + EST_MONEY * s.money[o] + EST_RICE * s.rice[o]
        for o in range(npl)
    ]


def evaluate(state: State) -> list[float]:
    """Win shares: a softmax over estimated final VP, sharper as the end nears (§11, §12)."""
    s = state
    est = score_estimate(s)
    npl = s.players
    if s.phase == OVER:
        top = max(est)
        win = [o for o in range(npl) if est[o] == top]
        best_m = max(s.money[o] for o in win)
        win = [o for o in win if s.money[o] == best_m]
        return [1.0 / len(win) if o in win else 0.0 for o in range(npl)]
    seasons_left = (s.options.years - s.year) * 3 + (3 - s.season)
    temp = 1.5 + 2.0 * seasons_left  # fitted on heuristic self-play (log loss)
    top = max(est)
    ex = [math.exp((e - top) / temp) for e in est]
    tot = sum(ex)
    return [x / tot for x in ex]

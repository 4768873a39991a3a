"""Hooks for agents: the heuristic policy and the score and win estimates.

The heuristic values what a decision changes in victory points still to come, from what the
seat may know (the board, the open Coins and Ronin, Honor, the War Numbers; never the other
participants' secret bids, which :func:`~.views.determinize` redraws):

- the **War Provinces** still to be resolved this Season are worth their token (1, 2 or 3 VP by
  Season, rules §16.6) plus the token's share of the set bonus if the province is new to the
  clan, times the chance of taking it, which grows with the Force margin over the strongest
  rival there (a tie goes to Honor); moves, Summons, Betrayals, the Ninja and new Strongholds
  are chosen by the change they make to that sum (:func:`_worth`);
- the **bid split** of a Battle (rules §8.3, §16.4) is planned whole, by trying splits of the
  clan's Coins over the four Advantages and pricing each against a model of the others' bids
  (each rival's open Coins, split at random or all on one Advantage); Take Hostage is worth
  the Force it removes from the strongest rival and 1 VP, Hire Ronin the Force of the clan's
  Ronin (Koi: its Coins kept back), both through the chance of winning the Battle, the
  Imperial Poets 1 VP per figure expected to die, Seppuku the VP and Honor of figures that
  would die anyway; Coins still needed in later Battles of this War cost more (:func:`_plan`);
- **Mandates** by what the clan gains from each over the others' gain (:func:`_mandate_value`);
- **Season cards** by what their effect is expected to give in the Seasons left, less their
  price (:func:`card_value`); **shrines** by the Kami's ability and the Kami Turns left.

It never gives Coins or Ronin away, allies with the weakest clan, and commits Seppuku only
when the Battle is lost anyway.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

from sengoku.core import Rng
from sengoku.core.rng import random_after

from . import cards, figures, honor, mandates
from .actions import (
    ALLIANCE,
    AT_KAMI,
    COIN,
    RONIN,
    Announce,
    Answer,
    Bid,
    Build,
    Buy,
    Give,
    Hostage,
    Keep,
    Kill,
    Move,
    Place,
    Replace,
    Summon,
)
from .cards import CARD_TYPE, CARDS
from .data import load_data
from .options import KoiCoins
from .state import (
    BETRAY,
    BUSHI,
    D_ANNOUNCE,
    D_ANSWER,
    D_BENEVOLENCE,
    D_BETRAY,
    D_BID,
    D_BUILD,
    D_BUY,
    D_GEN_ANSWER,
    D_GENEROSITY,
    D_HATE,
    D_HOSTAGE,
    D_KEEP,
    D_MERCY,
    D_MONKEY,
    D_MOVE,
    D_NINJA,
    D_OFFER,
    D_PLACE,
    D_RECRUIT,
    D_REPARATION,
    D_SEPPUKU,
    D_VASSAL,
    DAIMYO,
    HARVEST,
    HIRE_RONIN,
    HOSTAGE,
    MARSHAL,
    MONSTER,
    MONSTER_BASE,
    POETS,
    POLITICAL,
    RECRUIT,
    RESERVE,
    SHINTO,
    SHRINE,
    STRONGHOLD,
    TAKE_HOSTAGE,
    TEA,
    TRAIN,
    WAR,
    State,
)
from .winter import SET_BONUS, VP_BY_SEASON, set_bonus, token_vp, upgrade_vp

D = load_data()
TRACK = D.game.political_track.turns
N_PROVINCES = 8

#: What a Coin, a Ronin and a step of Honor are worth in VP during the Political Phase.
COIN_VP = 0.5
RONIN_VP = 0.4
HONOR_VP = 0.3
#: A figure on the Map, for the Seasons to come (wherever it stands).
FIGURE_VP = 1.2
#: How much another clan's gain counts against the seat's own (the average of the others).
OTHERS = 0.35
#: The value of one win of each Kami's shrine (rules §6.4), before the state's details.
KAMI_VP = {
    "honor_to_top": 1.0,
    "moves": 1.5,
    "ronin": 2 * RONIN_VP,
    "summon_bushi_anywhere": FIGURE_VP,
    "buy_full_cost": 1.0,
    "vp_per_stronghold": 0.0,  # its Strongholds on the Map, counted where it is valued
    "coins": 2 * COIN_VP,
}


#: What Harvest gives in each province, as the heuristic prices it in a year without War.
_HARVEST_WORTH = [
    0.25 * (r.vp + COIN_VP * r.coins + RONIN_VP * r.ronin)
    for r in (D.provinces[p].reward for p in range(N_PROVINCES))
]


class _Counts:
    """Each seat's pieces counted by where they stand, in one pass over the pieces."""

    __slots__ = (
        "bushi_on_map",
        "reserve_daimyo",
        "reserve_figures",
        "reserve_strongholds",
        "shrines",
        "strongholds",
    )

    def __init__(self, s: State) -> None:
        n = s.players
        #: Strongholds on the Map (:func:`.cards.strongholds_on_map`)
        self.strongholds = strongholds = [0] * n
        #: figures in the Reserve (:func:`.figures.reserve_of`)
        self.reserve_figures = reserve_figures = [0] * n
        #: Strongholds in the Reserve (:func:`.figures.strongholds_in_reserve`)
        self.reserve_strongholds = reserve_strongholds = [0] * n
        #: Bushi on the Map
        self.bushi_on_map = bushi_on_map = [0] * n
        #: Daimyo in the Reserve (:func:`.figures.first` finds one)
        self.reserve_daimyo = reserve_daimyo = [0] * n
        #: each seat's Force on each shrine, by slot (:func:`.figures.shrine_force`)
        self.shrines = shrines = [[0] * n for _ in range(HOSTAGE - SHRINE)]
        owner = s.owner
        kind = s.kind
        card = s.card
        index = figures.by_location(s)
        for f in index[RESERVE]:
            if kind[f] == STRONGHOLD:
                reserve_strongholds[owner[f]] += 1
            else:
                reserve_figures[owner[f]] += 1
                if kind[f] == DAIMYO and card[f] == -1:
                    reserve_daimyo[owner[f]] += 1
        for p in range(N_PROVINCES):
            for f in index[p]:
                k = kind[f]
                if k == STRONGHOLD:
                    strongholds[owner[f]] += 1
                elif k == BUSHI:
                    bushi_on_map[owner[f]] += 1
        for slot in range(HOSTAGE - SHRINE):
            force = shrines[slot]
            for f in index[SHRINE + slot]:
                force[owner[f]] += 1


class _Now:
    """What one call of :func:`policy` has worked out about its state (the board's facts,
    the Honor ranks, the score estimates, ...), so that scoring many actions does not count
    the same pieces again. Filled in as asked; the lists it hands out are shared within the
    decision (copy to change)."""

    __slots__ = (
        "_counts",
        "_estimates",
        "_fees",
        "_force",
        "_here",
        "_leaders",
        "_present",
        "_tokens",
        "_worth",
        "_worth_with",
        "at_war",
        "kami_turns",
        "rank",
        "s",
        "shrine_values",
        "war",
    )

    def __init__(self, s: State) -> None:
        self.s = s
        self.war = s.phase == WAR
        rank = [0] * s.players
        for i, q in enumerate(s.honor):
            rank[q] = i
        #: each seat's place on the Honor track (0: the top)
        self.rank = rank
        at_war = [False] * N_PROVINCES
        for p in wars_left(s):
            at_war[p] = True
        #: whether each province is still to be resolved this Season
        self.at_war = at_war
        self.kami_turns = _kami_turns_left(s)
        self._here: list[list[int]] | None = None
        self._force: list[list[int] | None] = [None] * N_PROVINCES
        self._present: list[list[int] | None] = [None] * N_PROVINCES
        self._counts: _Counts | None = None
        self._fees = [-1] * s.players  # each seat's Shipping Route fee, once asked
        self._leaders = [-1] * s.players  # each seat's leading rival, once asked
        self._estimates: list[float] | None = None
        self._tokens: list[tuple[set[int], float, float] | None] = [None] * s.players
        self.shrine_values: dict[int, float] = {}
        self._worth: dict[int, float] = {}
        self._worth_with: dict[tuple[int, int, int, int], float] = {}

    def counts(self) -> _Counts:
        """Each seat's pieces by where they are (see :class:`_Counts`)."""
        got = self._counts
        if got is None:
            got = self._counts = _Counts(self.s)
        return got

    def here(self) -> list[list[int]]:
        """The pieces at each location, by location (:func:`.figures.by_location`): index
        it by province. Read only."""
        got = self._here
        if got is None:
            got = self._here = figures.by_location(self.s)
        return got

    def force(self, p: int) -> list[int]:
        """Each seat's Force in province ``p`` now."""
        got = self._force[p]
        if got is None:
            got = self._force[p] = figures.forces_here(self.s, self.here()[p], self.war)
        return got

    def present(self, p: int) -> list[int]:
        """The seats with Force in province ``p``, in seat order."""
        got = self._present[p]
        if got is None:
            got = self._present[p] = figures.present_here(self.s, self.here()[p])
        return got

    def worth_now(self, seat: int, p: int) -> float:
        """What province ``p`` is worth to ``seat`` with the Forces there now."""
        key = seat * N_PROVINCES + p
        got = self._worth.get(key)
        if got is None:
            got = self._worth[key] = _worth(self, seat, p, self.force(p))
        return got

    def worth_with(self, seat: int, p: int, owner: int, value: int) -> float:
        """What province ``p`` is worth to ``seat`` with ``owner``'s Force there made
        ``value`` (the others' as now): scoring many actions asks the same often."""
        key = (seat, p, owner, value)
        got = self._worth_with.get(key)
        if got is None:
            force = self.force(p).copy()
            force[owner] = value
            got = self._worth_with[key] = _worth(self, seat, p, force)
        return got

    def estimates(self) -> list[float]:
        got = self._estimates
        if got is None:
            s = self.s
            if s.final is not None:
                got = score_estimate(s)
            else:
                left = wars_left(s)
                got = _score_estimate(s, left, [self.force(p) for p in left])
            self._estimates = got
        return got

    def leader(self, seat: int) -> int:
        """The other clan with the best score estimate (the first of equals)."""
        leaders = self._leaders
        got = leaders[seat]
        if got < 0:
            est = self.estimates()
            got = -1
            for q in range(self.s.players):
                if q != seat and (got < 0 or est[q] > est[got]):
                    got = q
            leaders[seat] = got
        return got

    def token_worth(self, seat: int, p: int) -> float:
        """:func:`token_worth`, its parts worked out once per seat."""
        got = self._tokens[seat]
        if got is None:
            s = self.s
            mine = {t % 8 for t in s.tokens[seat]}
            value = float(VP_BY_SEASON[min(s.season, 2)])
            value += cards.total(s, seat, "token_vp", "vp")
            got = self._tokens[seat] = (mine, value, _new_province_vp(len(mine)))
        mine, value, new = got
        return value if p in mine else value + new

    def route_fee(self, seat: int) -> int:
        """What one Shipping Route use costs ``seat`` (:func:`.figures.route_fees`)."""
        fees = self._fees
        got = fees[seat]
        if got < 0:
            got = fees[seat] = sum(c for _, c in figures.route_fees(self.s, seat))
        return got

    def higher(self, a: int, b: int) -> bool:
        """Whether ``a`` has more Honor than ``b``."""
        return self.rank[a] < self.rank[b]

    def strongest(self, values: list[int]) -> int:
        """:func:`.figures.strongest` over all seats."""
        rank = self.rank
        best = -1
        top = 0
        for q, v in enumerate(values):
            if v > top or (v == top and v > 0 and rank[q] < rank[best]):
                best = q
                top = v
        return best


#: The facts of the decision :func:`policy` is making (see :class:`_Now`).
_now: _Now | None = None


def _facts(s: State) -> _Now:
    """The facts of the decision being made on ``s``: each call of :func:`policy` starts
    them afresh, since the state changes between calls."""
    global _now
    now = _now
    if now is None or now.s is not s:
        now = _now = _Now(s)
    return now


def _estimates(s: State) -> list[float]:
    return _facts(s).estimates()


def policy(s: State, seat: int, legal: Sequence[Any], rng: Rng) -> Any | None:
    """The heuristic's choice among ``legal`` (any subset of the legal actions): the action
    with the best value for ``seat`` (ties broken at random); never a gift of Coins or Ronin
    while anything else is offered."""
    acts: Sequence[Any] = legal
    if s.phase == TEA or s.phase == POLITICAL:  # the only phases with gifts (rules._gifts)
        acts = [a for a in legal if not (isinstance(a, Give) and a.purpose in (COIN, RONIN))]
    if not acts:
        return None
    if len(acts) == 1 or s.pending is None:
        return acts[0] if len(acts) == 1 else rng.choice(acts)
    global _now
    _now = None  # the state has changed since the last call: its facts are worked out anew
    kind = s.pending[0]
    if kind == D_BID:
        bids = [a for a in acts if isinstance(a, Bid)]
        return _bid(s, seat, bids) if bids else rng.choice(acts)
    scorer = _SCORERS.get(kind)
    if scorer is None:
        return rng.choice(acts)
    # the best action, a tie going to the greater of the actions' random numbers (one drawn
    # per action, in order; the later action where they are equal): only ties need theirs
    drawn = rng.skip(len(acts))
    best = acts[0]
    top = scorer(s, seat, best)
    at = 1  # the draw of ``best``
    luck = -1.0  # its random number, once a tie needs it
    for k in range(1, len(acts)):
        a = acts[k]
        v = scorer(s, seat, a)
        if v > top:
            best, top, at, luck = a, v, k + 1, -1.0
        elif v == top:
            if luck < 0.0:
                luck = random_after(drawn, at)
            r = random_after(drawn, k + 1)
            if r >= luck:
                best, at, luck = a, k + 1, r
    return best


# ---------------------------------------------------------------------- the War Provinces


def wars_left(s: State) -> list[int]:
    """The provinces whose War Numbers are still to be resolved this Season."""
    if s.phase > WAR:
        return []
    return s.war[s.war_next :]


def _new_province_vp(distinct: int) -> float:
    """What one more different province among the tokens adds to the set bonus, smoothed
    over the steps (3 give 10 VP, 5 give 20, 7 give 30)."""
    if distinct >= SET_BONUS[-1][0]:
        return 0.0
    if distinct < SET_BONUS[0][0]:
        return SET_BONUS[0][1] / SET_BONUS[0][0]
    return 5.0


def token_worth(s: State, seat: int, p: int) -> float:
    """What this Season's War Province token of ``p`` is worth to ``seat``: its VP, Courage,
    and (for a province new among its tokens) its share of the set bonus."""
    mine = {t % 8 for t in s.tokens[seat]}
    value = float(VP_BY_SEASON[min(s.season, 2)])
    value += cards.total(s, seat, "token_vp", "vp")
    if p not in mine:
        value += _new_province_vp(len(mine))
    return value


def _win_chance(now: _Now, seat: int, force: list[int]) -> float:
    """The chance that ``seat`` takes a province's token with these Forces, before the
    Battle's bids: sure alone, else growing with the margin over the strongest rival."""
    mine = force[seat]
    if mine <= 0:
        return 0.0
    rank = now.rank
    rivals = 0
    rival = -1  # the last rival seen
    top = 0
    best = -1  # the strongest rival, a tie to Honor
    for q, x in enumerate(force):
        if q == seat or x <= 0:
            continue
        rivals += 1
        rival = q
        if x > top or (x == top and rank[q] < rank[best]):
            top = x
            best = q
    if not rivals:
        return min(1.0, 0.8 + 0.1 * mine)
    margin = mine - top + (0.4 if rank[seat] < rank[best] else -0.4)
    if rivals == 1 and rival == now.s.ally[seat]:
        return 1.0 if margin > 0 else 0.0
    return min(0.97, max(0.03, 0.5 + 0.18 * margin))


def _worth(now: _Now, seat: int, p: int, force: list[int]) -> float:
    """What province ``p`` is worth to ``seat`` with these Forces: at war, its token times
    the chance of taking it, less the figures lost when it does not; elsewhere a little for
    Harvest."""
    if not now.at_war[p]:
        if force[seat] > 0 and now.strongest(force) == seat:
            return _HARVEST_WORTH[p]
        return 0.0
    chance = _win_chance(now, seat, force)
    return chance * now.token_worth(seat, p) - (1 - chance) * 0.3 * force[seat]


def _piece_force(s: State, owner: int, what: int, p: int) -> int:
    """The Force a piece of type ``what`` of ``owner`` would have in province ``p``."""
    if what >= MONSTER_BASE:
        card = CARDS[what - MONSTER_BASE]
        if card.effect == "lowest_honor_force":
            now = _facts(s)
            present = [q for q in now.present(p) if q != owner]
            if present and all(now.higher(q, owner) for q in present):
                return card.params["force"]
        return max(card.force, 1)
    if what == STRONGHOLD:
        return 1 if honor.is_turtle(s, owner) else 0
    if what == DAIMYO:
        return 1 + cards.total(s, owner, "daimyo_force", "force")
    if what == BUSHI and s.phase == WAR and cards.copies(s, owner, "bushi_war_force"):
        return max(1, cards.total(s, owner, "bushi_war_force", "force"))
    return 1


def _gain_at(s: State, seat: int, p: int, owner: int, delta: int) -> float:
    """The change in ``seat``'s worth of province ``p`` when ``owner`` gains ``delta`` Force."""
    if delta == 0:
        return 0.0
    now = _facts(s)
    before = now.worth_now(seat, p)
    return now.worth_with(seat, p, owner, max(0, now.force(p)[owner] + delta)) - before


# ---------------------------------------------------------------------- Summons and moves


#: The Kami Turns from each turn of the Political Phase on.
_KAMI_LEFT = [TRACK[t:].count("K") for t in range(len(TRACK) + 1)]


def _kami_turns_left(s: State) -> int:
    if s.phase >= WAR:
        return 0
    return _KAMI_LEFT[s.turn] if 0 <= s.turn < len(_KAMI_LEFT) else TRACK[s.turn :].count("K")


def _shrine_value(s: State, seat: int, kami: int) -> float:
    """What one more worshipper at Kami ``kami``'s shrine is worth: the Kami's ability on
    each Kami Turn left this Season, times the better chance of winning the shrine."""
    now = _facts(s)
    key = seat * 64 + kami
    got = now.shrine_values.get(key)
    if got is None:
        got = now.shrine_values[key] = _shrine_value_now(s, seat, kami, now.kami_turns)
    return got


def _shrine_value_now(s: State, seat: int, kami: int, turns: int) -> float:
    if turns == 0 or kami not in s.shrines:
        return 0.0
    info = D.kami[kami]
    value = KAMI_VP.get(info.ability, 0.5)
    if info.ability == "vp_per_stronghold":
        value = float(_facts(s).counts().strongholds[seat])
    elif info.ability == "buy_full_cost" and s.coins[seat] < 2:
        value = 0.3
    value += cards.total(s, seat, "shrine_buy_vp", "vp") * 0.5
    slot = s.shrines.index(kami)
    force = _facts(s).counts().shrines[slot]
    mine = force[seat]
    top = max((force[q] for q in range(s.players) if q != seat), default=0)

    def chance(m: int) -> float:
        if m <= 0:
            return 0.0
        return 0.9 if m > top else (0.55 if m == top else 0.15)

    return turns * value * (chance(mine + 1) - chance(mine))


def _summon_value(s: State, seat: int, what: int, province: int, kami: int) -> float:
    """What Summoning (or Placing) a ``what`` in ``province`` or at ``kami``'s shrine gives."""
    if kami >= 0:
        return FIGURE_VP * 0.5 + _shrine_value(s, seat, kami)
    force = _piece_force(s, seat, what, province)
    value = FIGURE_VP + _gain_at(s, seat, province, seat, force)
    if what == SHINTO and _facts(s).kami_turns:
        value -= 0.2  # keep Shinto for the shrines
    if what >= MONSTER_BASE:
        card = CARDS[what - MONSTER_BASE]
        if card.effect == "enter_steal_vp":
            now = _facts(s)
            value += card.params["vp"] * sum(
                1 for q in now.present(province) if now.higher(q, seat)
            )
    return value + 0.05 * force


def _score_summon(s: State, seat: int, a: Any) -> float:
    if isinstance(a, Summon):
        return _summon_value(s, seat, a.what, a.province, a.kami)
    if isinstance(a, Place):
        if a.where >= AT_KAMI:
            return _summon_value(s, seat, a.what, -1, a.where - AT_KAMI)
        return _summon_value(s, seat, a.what, a.where, -1)
    return 0.0  # end recruit / summon nothing / place nothing


def _score_move(s: State, seat: int, a: Any) -> float:
    """A Move by the change it makes to both provinces; stopping is worth 0.3 (so a Move must
    gain something clear)."""
    if not isinstance(a, Move):
        return 0.3
    now = _facts(s)
    before = now.worth_now(seat, a.src) + now.worth_now(seat, a.dst)
    src = now.force(a.src)[seat] - _piece_force(s, seat, a.what, a.src)
    dst = now.force(a.dst)[seat] + _piece_force(s, seat, a.what, a.dst)
    gain = now.worth_with(seat, a.src, seat, src) + now.worth_with(seat, a.dst, seat, dst) - before
    fee = now.route_fee(seat) if figures.uses_route(s, seat, a.src, a.dst) else 0  # the toll
    return gain - fee * COIN_VP


def _score_build(s: State, seat: int, a: Any) -> float:
    """A Stronghold is a Recruit spot for the Seasons left (more where the clan has none, and
    at war), VP for Kitsune and Susanoo, and Force for Turtle; against its price (3 Coins;
    Bonsai's Sacred Bounty pays 1, rising_sun.md §2.3, §17.9)."""
    if not isinstance(a, Build):
        return 0.0
    p = a.province
    seasons = 3 - s.season
    mine = figures.stronghold_provinces(s, seat)
    value = 0.8 * seasons + (1.0 if p not in mine else 0.0)
    value += 3 * cards.copies(s, seat, "winter_per_stronghold")
    if p in wars_left(s):
        value += 0.6
        if honor.is_turtle(s, seat):
            value += _gain_at(s, seat, p, seat, 1)
    value += sum(1.0 for k in s.shrines if D.kami[k].ability == "vp_per_stronghold") * 0.5
    return value - mandates.price(s, seat, mandates.STRONGHOLD_COST, 0) * COIN_VP


def _score_betray(s: State, seat: int, a: Any) -> float:
    """Replacing a rival's figure: its Force leaves, ours arrives (shrines: the worship)."""
    if not isinstance(a, Replace):
        return 0.2
    owner = s.clan.index(a.clan)
    if a.where >= AT_KAMI:
        return 2 * _shrine_value(s, seat, a.where - AT_KAMI) + 0.3
    p = a.where
    now = _facts(s)
    force = now.force(p).copy()
    before = now.worth_now(seat, p)
    force[owner] -= _piece_force(s, owner, a.what, p)
    force[seat] += _piece_force(s, seat, a.with_what, p)
    gain = _worth(now, seat, p, force) - before
    return gain + FIGURE_VP * (1 + OTHERS) + (0.3 if owner == _leader(s, seat) else 0.0)


def _score_ninja(s: State, seat: int, a: Any) -> float:
    if not isinstance(a, Kill):
        return 0.0
    owner = s.clan.index(a.clan)
    if owner == seat or owner == s.ally[seat]:
        return -5.0
    gain = _gain_at(s, seat, a.province, owner, -_piece_force(s, owner, BUSHI, a.province))
    return gain + FIGURE_VP * OTHERS - HONOR_VP


def _score_hate(s: State, seat: int, a: Any) -> float:
    return 0.1 if isinstance(a, Kill) and a.what == BUSHI else 0.0


# ---------------------------------------------------------------------- Season cards


def card_value(s: State, seat: int, c: int) -> float:
    """What owning Season card ``c`` is expected to give ``seat`` in VP over the Seasons left
    (its price not counted)."""
    card = CARDS[c]
    e = card.effect
    prm = card.params
    wars = 3 - s.season  # War Phases still to come, this one included
    if card.type == "monster":
        force = float(prm.get("force", card.force) if e == "lowest_honor_force" else card.force)
        if e == "lowest_honor_force" and honor.rank(s, seat) < s.players - 2:
            force = (force + card.force) / 2
        value = FIGURE_VP + 1.1 * force * wars
        value += 3 * cards.copies(s, seat, "winter_per_monster")
        if card.oni:
            value += 3 * cards.copies(s, seat, "winter_per_oni")
        if e == "win_battle_vp_per_oni":
            value += prm["vp"] * (1 + cards.monster_cards(s, seat, oni_only=True)) * 0.5 * wars
        elif e == "enter_steal_vp":
            value += prm["vp"] * 0.8
        elif e == "enter_kill_higher":
            value += 0.8
        if card.counts_as_daimyo:
            value += 0.5
        return value
    if card.type == "winter":
        return float(_winter_forecast(s, seat, c))
    rule = _CARD_RULES.get(e)
    value = 0.5 if rule is None else rule(s, seat, prm, wars)
    if card.type == "virtue":
        value += 3 * cards.copies(s, seat, "winter_per_virtue") * (_virtues(s, seat, c) > 0)
        value += cards.copies(s, seat, "war_per_virtue") * 2.5 * wars
    if e == "daimyo_force" and _facts(s).counts().reserve_daimyo[seat]:
        value *= 0.7
    return value


#: What a card of each effect (not a Monster, not a Winter Upgrade) is worth to ``seat`` over
#: ``wars`` War Phases left, ``prm`` its params; 0.5 for an effect not named.
_CARD_RULES: dict[str, Callable[[State, int, dict[str, int], int], float]] = {
    "daimyo_force": lambda s, seat, prm, wars: 1.1 * prm.get("force", 0) * wars,
    "bushi_war_force": lambda s, seat, prm, wars: (
        1.0 * max(0, prm.get("force", 1) - 1) * max(_facts(s).counts().bushi_on_map[seat], 2) * wars
    ),
    "bushi_oni_force": lambda s, seat, prm, wars: (
        0.4 * max(_facts(s).counts().bushi_on_map[seat], 1) * wars
    ),
    "own_killed_vp": lambda s, seat, prm, wars: 2.0 * wars,
    "kill_lower_honor_vp": lambda s, seat, prm, wars: (
        prm.get("vp", 0) * 0.6 * wars * (1 - honor.rank(s, seat) / 4)
    ),
    "enemy_oni_killed_vp": lambda s, seat, prm, wars: 1.0 * wars,
    "extra_hostage": lambda s, seat, prm, wars: 0.8 * wars,
    "spare_vp": lambda s, seat, prm, wars: prm.get("vp", 0) * 0.5 * wars,
    "token_vp": lambda s, seat, prm, wars: prm.get("vp", 0) * 1.8 * wars,
    "war_coins": lambda s, seat, prm, wars: prm.get("coins", 0) * 0.45 * wars,
    "war_ronin": lambda s, seat, prm, wars: prm.get("ronin", 0) * 0.45 * wars,
    "war_per_virtue": lambda s, seat, prm, wars: (
        (prm.get("coins", 0) * 0.45 + prm.get("vp", 0)) * max(1, _virtues(s, seat)) * wars
    ),
    "war_take_from_lower": lambda s, seat, prm, wars: (
        0.6 * (s.players - 1 - honor.rank(s, seat)) * wars
    ),
    "war_move_bushi": lambda s, seat, prm, wars: 0.8 * wars,
    "route_toll": lambda s, seat, prm, wars: 0.3 * wars,
    "spend_gift": lambda s, seat, prm, wars: prm.get("vp", 0) * 0.8 * wars,
    "summon_place_bushi": lambda s, seat, prm, wars: FIGURE_VP * 1.2 * wars,
    "summon_kill_bushi": lambda s, seat, prm, wars: 0.8 * wars,
    "summon_take_coin": lambda s, seat, prm, wars: 0.4 * wars,
    "summon_top_honor_gain": lambda s, seat, prm, wars: (
        (prm.get("vp", 0) + 0.5 * prm.get("coins", 0)) * 0.3 * wars
    ),
    "summon_honor_coins": lambda s, seat, prm, wars: prm.get("coins", 0) * COIN_VP * 0.8 * wars,
    "summon_coins": lambda s, seat, prm, wars: prm.get("coins", 0) * COIN_VP * 1.5 * wars,
    "recruit_end_shinto": lambda s, seat, prm, wars: 1.0 * wars,
    "recruit_end_bushi": lambda s, seat, prm, wars: FIGURE_VP * wars,
    "allied_select_vp": lambda s, seat, prm, wars: prm.get("vp", 0) * 0.6 * wars,
    "allied_vp_bonus": lambda s, seat, prm, wars: prm.get("vp", 0) * 1.5 * wars,
    "merchant": lambda s, seat, prm, wars: 0.6 * wars,
    "betray_extra": lambda s, seat, prm, wars: 0.5 * wars,
    "betray_coins": lambda s, seat, prm, wars: 0.3 * wars,
    "mandate_offer_coin": lambda s, seat, prm, wars: 0.1,
    "shrine_buy_vp": lambda s, seat, prm, wars: 0.6 * wars,
}


def _virtues(s: State, seat: int, new: int = -1) -> int:
    """Different Virtues ``seat`` owns, or (with ``new``) whether card ``new`` adds one."""
    names = {CARDS[c].name for c in s.owned[seat] if CARDS[c].type == "virtue"}
    if new >= 0:
        return int(CARDS[new].name not in names)
    return len(names)


def _winter_forecast(s: State, seat: int, c: int) -> float:
    """A Winter Upgrade's VP as things stand, with a little for what may still come."""
    e = CARDS[c].effect
    vp = CARDS[c].params.get("vp", 0)
    if e == "winter_per_stronghold":
        return vp * (_facts(s).counts().strongholds[seat] + 0.3)
    if e == "winter_per_virtue":
        return vp * (cards.distinct_virtues(s, seat) + 0.2)
    if e == "winter_per_monster":
        return vp * (cards.monster_cards(s, seat) + 0.3)
    if e == "winter_per_oni":
        return vp * (cards.monster_cards(s, seat, oni_only=True) + 0.2)
    if e == "winter_per_alliance":
        return vp * (s.alliance_seasons[seat] + 0.5)
    if e == "winter_per_lone_figure":
        return vp * sum(1 for p in range(8) if len(figures.figures_in(s, seat, p)) == 1)
    return 0.0


def _price(s: State, seat: int, c: int) -> int:
    discount = s.pending[2] if s.pending is not None and s.pending[0] == D_BUY else 0
    return mandates.price(s, seat, CARDS[c].cost, discount)


def _score_buy(s: State, seat: int, a: Any) -> float:
    """A card by its value less its price (Coins at the Political Phase's rate); nothing is
    worth 0. Coins still count at the War, so a dear card must pay for itself."""
    if not isinstance(a, Buy):
        return 0.0
    return card_value(s, seat, a.card) - _price(s, seat, a.card) * COIN_VP * 1.2


# ---------------------------------------------------------------------- Mandates


def _leader(s: State, seat: int) -> int:
    """The other clan with the best score estimate."""
    return _facts(s).leader(seat)


def _recruit_count(s: State, seat: int, bonus: bool) -> int:
    counts = _facts(s).counts()
    spots = counts.strongholds[seat]
    if spots and bonus:
        spots += 1
    return min(spots, counts.reserve_figures[seat])


def _best_moves(s: State, seat: int) -> float:
    """Roughly what one Marshal gives ``seat``: the best gain of each of its figures' Moves."""
    board = s.board
    now = _facts(s)
    at_war = now.at_war
    dragonfly = honor.is_dragonfly(s, seat)
    owner = s.owner
    kind = s.kind
    best_from: list[float | None] = [None] * N_PROVINCES  # the best gain of a Move from each
    total = 0.0
    for f, src in enumerate(s.loc):
        if owner[f] != seat or kind[f] == STRONGHOLD or not 0 <= src < 8:
            continue
        best = best_from[src]
        if best is None:
            best = 0.0
            for dst in range(8) if dragonfly else board.neighbours[src]:
                if dst == src or not at_war[dst]:
                    continue
                before = now.worth_now(seat, src) + now.worth_now(seat, dst)
                a = now.worth_with(seat, src, seat, now.force(src)[seat] - 1)
                b = now.worth_with(seat, dst, seat, now.force(dst)[seat] + 1)
                best = max(best, a + b - before)
            best_from[src] = best
        total += best
        if total > 8:
            break
    return total


def _harvest_gain(s: State, seat: int) -> float:
    now = _facts(s)
    if now.war:
        here = now.here()
        won = [p for p in range(8) if now.strongest(figures.forces_here(s, here[p], False)) == seat]
    else:
        won = [p for p in range(8) if now.strongest(now.force(p)) == seat]
    vp = sum(D.provinces[p].reward.vp for p in won)
    coins = sum(D.provinces[p].reward.coins for p in won)
    ronin = sum(D.provinces[p].reward.ronin for p in won)
    return vp + COIN_VP * coins + RONIN_VP * ronin


def _best_card(s: State, seat: int, discount: int) -> float:
    best = 0.0
    seen = set()
    for c in s.display:
        if CARDS[c].name in seen:
            continue
        seen.add(CARDS[c].name)
        cost = mandates.price(s, seat, CARDS[c].cost, discount)
        if cost <= s.coins[seat]:
            best = max(best, card_value(s, seat, c) - cost * COIN_VP * 1.2)
    return best


def _betray_gain(s: State, seat: int) -> float:
    """The two best replacements (of two different clans) a Betray would make."""
    from .mandates import _betray_targets  # the rules' own list of targets

    saved = (s.picked, s.extra_used)
    s.picked, s.extra_used = [], 0
    try:
        options = _betray_targets(s, seat)
    finally:
        s.picked, s.extra_used = saved
    by_clan: dict[int, float] = {}
    for a in options:
        v = _score_betray(s, seat, a)
        by_clan[a.clan] = max(by_clan.get(a.clan, -9.0), v)
    return sum(sorted(by_clan.values(), reverse=True)[:2])


def _mandate_value(s: State, seat: int, m: int) -> float:
    """What selecting Mandate ``m`` gives ``seat`` less a share of what it gives the others
    (the ally shares the Bonus)."""
    others = [q for q in range(s.players) if q != seat]
    ally = s.ally[seat]

    def gain(q: int, bonus: bool) -> float:
        if m == RECRUIT:
            return FIGURE_VP * _recruit_count(s, q, bonus)
        if m == MARSHAL:
            value = _best_moves(s, q) if q == seat else 0.5
            if (
                bonus
                and s.coins[q] >= mandates.price(s, q, mandates.STRONGHOLD_COST, 0)
                and _facts(s).counts().reserve_strongholds[q]
            ):
                value += 1.0
            return value
        if m == TRAIN:
            return _best_card(s, q, 1 if bonus else 0) if q == seat else 0.8 + 0.3 * bonus
        if m == HARVEST:
            return COIN_VP + (_harvest_gain(s, q) if bonus else 0.0)
        return 0.0

    if m == BETRAY:
        value = _betray_gain(s, seat)
        if ally >= 0:
            value -= HONOR_VP + 1.0
        return value
    mine = gain(seat, True)
    theirs = sum(gain(q, q == ally) for q in others) / len(others)
    if ally >= 0:
        mine += cards.total(s, seat, "allied_select_vp", "vp")
    return mine - OTHERS * theirs


def _score_keep(s: State, seat: int, a: Any) -> float:
    if isinstance(a, Keep | Announce):
        return _mandate_value(s, seat, a.mandate)
    return 0.0


# ---------------------------------------------------------------------- alliances and gifts


def _weakness(s: State, seat: int, q: int) -> float:
    """How much less ``q`` is expected to score than ``seat`` (positive: weaker)."""
    est = _estimates(s)
    return est[seat] - est[q]


def _score_offer(s: State, seat: int, a: Any) -> float:
    """Ally with the weakest clan; no alliance with one that leads."""
    if isinstance(a, Give) and a.purpose == ALLIANCE:
        q = s.clan.index(a.clan)
        return 1.0 + 0.2 * _weakness(s, seat, q)
    return 0.0


def _score_answer(s: State, seat: int, a: Any) -> float:
    if not isinstance(a, Answer):
        return 0.0
    q = s.clan.index(a.clan)
    good = _weakness(s, seat, q) > -6 or s.alliance_seasons[seat] == 0
    return 1.0 if a.accept == good else 0.0


def _score_give_weakest(s: State, seat: int, a: Any) -> float:
    """Whom a spent Coin (Benevolence) or an odd Coin of Reparations goes to: the weakest."""
    if isinstance(a, Give):
        return 1.0 + 0.01 * _weakness(s, seat, s.clan.index(a.clan))
    return 0.0


def _score_generosity(s: State, seat: int, a: Any) -> float:
    return 0.0 if isinstance(a, Give) else 0.1


def _score_yes(s: State, seat: int, a: Any) -> float:
    """Accept the Coin, pay for the Vassal's VP, take the Monkey's Coin."""
    label = str(a)
    return 0.0 if label in ("refuse the coin", "do not pay", "take no coin") else 1.0


# ---------------------------------------------------------------------- the Battle


@functools.lru_cache(maxsize=256)
def _random_bid_dist(coins: int, step: int) -> tuple[float, ...]:
    """The chance of each bid 0..coins on Advantage ``step`` by a clan that splits ``coins``
    at random, one Advantage at a time (what is left, uniformly)."""
    left = [0.0] * (coins + 1)
    left[coins] = 1.0
    for _ in range(step):
        nxt = [0.0] * (coins + 1)
        for r, pr in enumerate(left):
            if pr:
                share = pr / (r + 1)
                for b in range(r + 1):
                    nxt[r - b] += share
        left = nxt
    out = [0.0] * (coins + 1)
    for r, pr in enumerate(left):
        if pr:
            share = pr / (r + 1)
            for b in range(r + 1):
                out[b] += share
    return tuple(out)


@functools.lru_cache(maxsize=256)
def _rival_bid_cdf(coins: int, step: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """For a rival with ``coins``: (P(bid < x), P(bid == x)) for x = 0..coins+1 on Advantage
    ``step``, a mix of a random split (0.55), any amount on it (0.3) and all on it (0.15)."""
    rnd = _random_bid_dist(coins, step)
    eq = [0.55 * rnd[x] + 0.3 / (coins + 1) for x in range(coins + 1)]
    eq[coins] += 0.15
    eq.append(0.0)
    below = [0.0]
    for x in range(coins + 1):
        below.append(below[-1] + eq[x])
    return tuple(below), tuple(eq)


def _win_bids(
    s: State,
    seat: int,
    rank: list[int],
    rivals: list[int],
    a: int,
    most: int,
    bids: tuple[int, ...],
) -> list[float]:
    """The chance that a bid of x wins Advantage ``a`` against ``rivals``, by x = 0..most,
    worked out for the ``bids`` to be tried (Honor breaks a tie; with option
    ``zero_bid_wins`` off a bid of 0 never wins)."""
    coins = s.coins
    against = [(coins[q], _rival_bid_cdf(coins[q], a), rank[seat] < rank[q]) for q in rivals]
    out = [0.0] * (most + 1)
    for x in bids:
        if x > most or (x == 0 and not s.options.zero_bid_wins):
            continue
        chance = 1.0
        for c, (below, eq), higher in against:
            if x > c:
                continue
            chance *= below[x] + (eq[x] if higher else 0.0)
        out[x] = chance
    return out


def _plan(s: State, seat: int) -> list[int]:
    """The whole bid split of ``seat`` in this Battle (Seppuku, Take Hostage, Hire Ronin,
    Imperial Poets), the bids already made kept: the split with the best expected VP."""
    global _battle
    done = s.bids[seat]
    prefix = tuple(done)
    battle = _battle
    if battle[0] is not s.bids:  # another Battle, or another state
        battle = _battle = (s.bids, {})
    known = battle[1].get(seat)
    if known is not None:
        planned = _planned(known, prefix)
        if planned is not None:
            return planned
    p = s.b_prov
    part = s.b_part
    total = s.coins[seat]
    rivals = [q for q in part if q != seat]
    ally = s.ally[seat]
    now = _facts(s)
    here = now.here()[p]
    force = figures.forces_here(s, here, True, part)
    owner = s.owner
    kind = s.kind
    card = s.card
    n_figs = [0] * s.players  # each seat's figures here
    pieces: list[int] = []  # each piece here as figures.what * 8 + its owner
    # the strongest rival figure a hostage could remove, and ours a rival could take
    best_take = (0, -1)
    lose_take = 0
    bushi = [0] * s.players  # a Bushi's Force, per owner, once worked out (at least 1)
    for f in here:
        q = owner[f]
        k = kind[f]
        pieces.append((MONSTER_BASE + card[f] if k == MONSTER else k) * 8 + q)
        if k == STRONGHOLD:
            continue
        n_figs[q] += 1
        if figures.daimyo_like(s, f) or not (q == seat or (q in rivals and q != ally)):
            continue
        if k == BUSHI:
            x = bushi[q]
            if not x:
                x = bushi[q] = figures.force_of(s, f, part, True)
        else:
            x = figures.force_of(s, f, part, True)
        if q == seat:
            lose_take = max(lose_take, x)
        else:
            best_take = max(best_take, (x, q))
    n_mine = n_figs[seat]
    koi = honor.is_koi(s, seat)
    target_share = 1.0 if len(rivals) == 1 else 0.5
    rival_figs = {q: n_figs[q] for q in rivals}
    later = _later_battles(s, seat)
    token = now.token_worth(seat, p)
    coin_cost = 0.08 + 0.3 * min(later, 2)
    rival_ronin = {q: (s.coins[q] / 2 if honor.is_koi(s, q) else s.ronin[q]) for q in rivals}
    key: tuple[Any, ...] = (
        seat,
        tuple(part),
        tuple(force),
        tuple(s.coins),
        tuple(s.ronin),
        tuple(s.honor),
        tuple(s.ally),
        tuple(s.vp[q] > 0 for q in part),
        tuple(pieces),
        best_take,
        lose_take,
        later,
        token,
        s.b_start_coins[seat],
        s.options.zero_bid_wins,
    )
    battle[1][seat] = key
    planned = _planned(key, prefix)
    if planned is not None:
        return planned
    if prefix:
        key = (key, prefix)
    koi_all = s.options.koi_reserve_coins is KoiCoins.ALL
    rank = now.rank
    pool = [seat, *rivals]
    taker = best_take[1]
    dead_won = sum(n for q, n in rival_figs.items() if q != ally)  # killed when we win

    floats = [float(x) for x in force]
    # the figures killed when the Battle is lost to each seat (``n_mine`` added where ours die)
    dead_lost = [0] * s.players
    for w in pool:
        for q, n in rival_figs.items():
            if q != w and q != s.ally[w]:
                dead_lost[w] += n

    def outcome(h: bool, r: bool, kept: int) -> tuple[float, float]:
        """(chance of winning the Battle, expected figures killed) for Hostage won (h),
        Ronin won (r), ``kept`` Coins not bid."""
        base = floats.copy()
        if h and taker >= 0:
            base[taker] -= best_take[0]
        mine = base[seat]
        if r:
            mine += s.ronin[seat] + (kept if koi else 0)
        cases: list[tuple[float, list[float]]] = []
        if r or not rivals:
            cases.append((1.0, base))
        else:
            hirer = rivals[0]  # the first with the most Force and Ronin
            most = base[hirer] + rival_ronin[hirer]
            for q in rivals:
                x = base[q] + rival_ronin[q]
                if x > most:
                    hirer = q
                    most = x
            hired = base.copy()
            hired[hirer] += rival_ronin[hirer]
            cases += [(0.6, hired), (0.4, base)]
        win = 0.0
        kills = 0.0
        # without Take Hostage, a rival may take our strongest non-Daimyo figure
        takes = (
            [(False, 1.0)]
            if h or not lose_take
            else [(True, target_share), (False, 1 - target_share)]
        )
        for pr, f in cases:
            for taken, pr2 in takes:
                # who wins with our Force ``g``: the most Force, a tie to Honor (``rank``),
                # and with no Force at all the highest Honor (rules §16.4)
                g = mine - (lose_take if taken else 0)
                top = g
                for q in rivals:
                    if f[q] > top:
                        top = f[q]
                near = top - 1e-9
                w = seat if top <= 0 or g >= near else -1
                for q in rivals:
                    if (top <= 0 or f[q] >= near) and (w < 0 or rank[q] < rank[w]):
                        w = q
                weight = pr * pr2
                if w == seat:
                    win += weight
                    dead = dead_won - (1 if h and taker >= 0 else 0)
                else:
                    dead = dead_lost[w]
                    if s.ally[w] != seat:
                        dead += n_mine - (1 if taken else 0)
                kills += weight * dead
        return win, kills

    gain_won = token + 0.3 * sum(rival_figs.values())
    loss = n_mine * (0.4 if ally < 0 else 0.2)
    steal = 1.3 if taker >= 0 and s.vp[taker] > 0 else 0.3
    sepp = n_mine * (1 + HONOR_VP + 0.2)
    memo: dict[int, list[tuple[float, float, float]]] = {}
    outcomes: dict[tuple[bool, bool, int], tuple[float, float]] = {}

    def terms(kept: int) -> list[tuple[float, float, float]]:
        """Per (Hostage won, Ronin won): (chance of winning, its VP, figures killed)."""
        if koi_all:
            kept = s.b_start_coins[seat]
        got = memo.get(kept if koi else 0)
        if got is None:
            got = []
            for h in (False, True):
                for r in (False, True):
                    key = (h, r, kept if r else 0)  # kept Coins count only with the Ronin
                    known = outcomes.get(key)
                    if known is None:
                        known = outcomes[key] = outcome(h, r, kept)
                    win, kills = known
                    got.append((win, win * gain_won - (1 - win) * loss, kills))
            memo[kept if koi else 0] = got
        return got

    levels = sorted(
        {0, 1, 2, total // 2, total}
        | {min(total, s.coins[q] + (0 if rank[seat] < rank[q] else 1)) for q in rivals}
        | {min(total, s.coins[q] // 2 + 1) for q in rivals}
    )
    levels = [x for x in levels if x <= total]
    # an Advantage that can change nothing here gets no Coin
    useful = (
        n_mine > 0,
        taker >= 0 or lose_take > 0,
        s.ronin[seat] > 0 or koi or any(rival_ronin.values()),
        True,
    )
    options = [
        (done[a],) if a < len(done) else (tuple(levels) if useful[a] else (0,)) for a in range(4)
    ]
    cs, ch, cr, cp = (_win_bids(s, seat, rank, rivals, a, total, options[a]) for a in range(4))
    xps = options[3]
    best_value = -1e9
    bar = best_value + 1e-9  # what a split must beat
    best = [0, 0, 0, 0]
    # without Koi's kept Coins, the terms are the same for every split: what each Imperial
    # Poets bid adds is worked out once
    fixed = (0.0, 0.0, 0.0, 0.0)
    poets: list[tuple[int, float, float, float, float]] = []
    top00 = top01 = top10 = top11 = 0.0
    least_xp = least_xr = 0
    if not koi:
        (w00, v00, k00), (w01, v01, k01), (w10, v10, k10), (w11, v11, k11) = terms(0)
        fixed = (w00, w01, w10, w11)
        for xp in xps:
            pp = cp[xp]
            poets.append((xp, v00 + pp * k00, v01 + pp * k01, v10 + pp * k10, v11 + pp * k11))
        # the most each term may give: a bound on any split's value with the first three
        # bids chosen, so that a split of the Imperial Poets that cannot beat the best so far
        # is not tried (the chances are never negative; the margin covers rounding)
        top00 = max(x[1] for x in poets)
        top01 = max(x[2] for x in poets)
        top10 = max(x[3] for x in poets)
        top11 = max(x[4] for x in poets)
        least_xp = min(xps)
        least_xr = min(options[2])
    # Koi's terms by the Coins spent (those not spent are kept)
    by_spent: list[list[tuple[float, float, float]] | None] = [None] * (total + 1)
    not_r = [1 - x for x in cr]
    for xs in options[0]:
        ps = cs[xs]
        for xh in options[1]:
            if xs + xh > total:
                break
            ph = ch[xh]
            not_h = 1 - ph
            if not koi:
                # no Hire Ronin bid can do better than the best term at either outcome
                most = not_h * max(top00, top01) + ph * max(top10, top11)
                cheapest = coin_cost * (xs + xh + least_xr + least_xp)
                if most + ph * steal + ps * sepp - cheapest + 1e-6 <= bar:
                    continue
            for xr in options[2]:
                spent3 = xs + xh + xr
                if spent3 > total:
                    break
                pr = cr[xr]
                q00 = not_h * not_r[xr]
                q01 = not_h * pr
                q10 = ph * not_r[xr]
                q11 = ph * pr
                if not koi:
                    w00, w01, w10, w11 = fixed
                    win = q00 * w00 + q01 * w01 + q10 * w10 + q11 * w11
                    extra = ph * steal + ps * (1 - win) * sepp
                    most = q00 * top00 + q01 * top01 + q10 * top10 + q11 * top11
                    if most + extra - coin_cost * (spent3 + least_xp) + 1e-6 <= bar:
                        continue
                    for xp, a00, a01, a10, a11 in poets:
                        spent = spent3 + xp
                        if spent > total:
                            break
                        ev = q00 * a00 + q01 * a01
                        ev += q10 * a10 + q11 * a11
                        ev += extra - coin_cost * spent
                        if ev > bar:
                            best_value = ev
                            bar = best_value + 1e-9
                            best = [xs, xh, xr, xp]
                    continue
                for xp in xps:
                    spent = spent3 + xp
                    if spent > total:
                        break
                    tm = by_spent[spent]
                    if tm is None:
                        tm = by_spent[spent] = terms(total - spent)
                    (w00, v00, k00), (w01, v01, k01), (w10, v10, k10), (w11, v11, k11) = tm
                    pp = cp[xp]
                    win = q00 * w00 + q01 * w01 + q10 * w10 + q11 * w11
                    ev = q00 * (v00 + pp * k00) + q01 * (v01 + pp * k01)
                    ev += q10 * (v10 + pp * k10) + q11 * (v11 + pp * k11)
                    ev += ph * steal + ps * (1 - win) * sepp - coin_cost * spent
                    if ev > bar:
                        best_value = ev
                        bar = best_value + 1e-9
                        best = [xs, xh, xr, xp]
    if len(_PLANS) > 4096:
        _PLANS.clear()
    _PLANS[key] = tuple(best)
    return best


#: Bid splits already planned, by everything a plan depends on: the Battle is the same in
#: every state a search samples from a seat's view, so the plan is made once. A plan made
#: before the seat's first bid stands for its later bids too while they follow it (with
#: those bids fixed the search would find the same split); a plan made after bids that did
#: not follow one is kept under the bids made as well.
_PLANS: dict[tuple[Any, ...], tuple[int, ...]] = {}

#: The Battle being bid on (its state's ``bids``, kept so that it stays that object) and
#: each seat's key into :data:`_PLANS`: nothing but the bids changes while the bids are
#: placed, so a seat's later bids in the same state skip working the key out again.
_battle: tuple[list[list[int]] | None, dict[int, tuple[Any, ...]]] = (None, {})


def _planned(key: tuple[Any, ...], prefix: tuple[int, ...]) -> list[int] | None:
    """The split planned under ``key`` for a seat that has bid ``prefix`` so far, if any:
    the split planned at its first bid while its bids follow that plan."""
    cached = _PLANS.get(key)
    if cached is not None and cached[: len(prefix)] == prefix:
        return list(cached)
    if prefix:
        cached = _PLANS.get((key, prefix))
        if cached is not None:
            return list(cached)
    return None


def _later_battles(s: State, seat: int) -> int:
    """The later provinces at war this Season where ``seat`` and a non-allied rival have
    Force (Battles still to come)."""
    now = _facts(s)
    ally = s.ally[seat]
    n = 0
    for p in s.war[s.war_next :]:
        here = now.present(p)
        if seat in here and any(q != seat and q != ally for q in here):
            n += 1
    return n


def _bid(s: State, seat: int, bids: list[Bid]) -> Bid:
    """This Advantage's share of the planned split (the nearest bid offered)."""
    plan = _plan(s, seat)
    step = bids[0].advantage
    want = plan[step] if step < len(plan) else 0
    best = bids[0]  # the first with the least (distance, Coins)
    gap = abs(best.coins - want)
    for b in bids:
        d = abs(b.coins - want)
        if d < gap or (d == gap and b.coins < best.coins):
            best = b
            gap = d
    return best


def _battle_force(s: State) -> list[int]:
    force = figures.forces(s, s.b_prov, True, s.b_part)
    for q in s.b_part:
        force[q] += s.b_hired[q]
    return force


def _score_seppuku(s: State, seat: int, a: Any) -> float:
    """Commit Seppuku only when the Battle is lost anyway (its figures would die for
    nothing), or when the Ronin alone still win it. The bids are shown by now, so the
    Forces are those after the Take Hostage and Hire Ronin already won."""
    from .war import advantage_winner

    commit = str(a) == "commit seppuku"
    force = _battle_force(s)
    p = s.b_prov
    hirer = advantage_winner(s, HIRE_RONIN)
    hired = [0] * s.players
    if hirer >= 0:
        hired[hirer] = s.ronin[hirer] + (s.coins[hirer] if honor.is_koi(s, hirer) else 0)
    taker = advantage_winner(s, TAKE_HOSTAGE)
    if taker >= 0:
        rivals = [q for q in s.b_part if q != taker and q != s.ally[taker]]
        if rivals:
            top = max(rivals, key=lambda q: force[q] + hired[q])
            takeable = [
                figures.force_of(s, f, s.b_part, True)
                for f in figures.figures_in(s, top, p)
                if not figures.daimyo_like(s, f)
            ]
            force[top] -= max(takeable, default=0)
    for q in s.b_part:
        force[q] += hired[q]
    winner = figures.strongest(s, force, s.b_part)
    if winner < 0:
        winner = honor.best(s, s.b_part)
    lost = winner != seat and s.ally[winner] != seat
    mine = len(figures.figures_in(s, seat, p))
    if commit:
        if lost:
            return mine * (1 + HONOR_VP)
        without = force.copy()
        without[seat] = hired[seat]
        still = figures.strongest(s, without, s.b_part) == seat
        return mine * (1 + HONOR_VP) if still else -5.0
    return 0.0


def _score_hostage(s: State, seat: int, a: Any) -> float:
    """Take the figure that weakens the strongest rival most, and VP where there are some."""
    if not isinstance(a, Hostage):
        return 0.0
    owner = s.clan.index(a.clan)
    if owner == s.ally[seat]:
        return -0.5
    force = _battle_force(s)
    rivals = [q for q in s.b_part if q != seat and q != s.ally[seat]]
    top = max(rivals, key=lambda q: (force[q], -honor.rank(s, q))) if rivals else -1
    f = figures.first(s, owner, a.what, s.b_prov)
    strength = figures.force_of(s, f, s.b_part, True) if f >= 0 else 1
    value = 1.0 + (1.0 if s.vp[owner] > 0 else 0.0) + 0.3 * strength
    if owner == top:
        value += strength * 1.5
    return value


def _score_mercy(s: State, seat: int, a: Any) -> float:
    """Spare the losers (Mercy's VP) unless the Poets, won, pay more for their deaths."""
    from .war import SPARE, _losers_figures, advantage_winner

    dead = len(_losers_figures(s))
    poets = advantage_winner(s, POETS) == seat
    kill_value = (dead if poets else 0) + 0.3 * dead
    spare_value = cards.total(s, seat, "spare_vp", "vp")
    return spare_value if a == SPARE else kill_value


# ---------------------------------------------------------------------- estimates


def score_estimate(s: State) -> list[float]:
    """VP now, plus what the tokens, the set bonus and Winter Upgrades would give today, plus
    (before Winter) the tokens still to be fought for this Season, shared out by Force."""
    if s.final is not None:
        return [float(x) for x in s.final]
    left = wars_left(s)
    force: list[list[int]] = []
    if left:
        here = figures.by_location(s)
        war = s.phase == WAR
        force = [figures.forces_here(s, here[p], war) for p in left]
    return _score_estimate(s, left, force)


def _score_estimate(s: State, left: list[int], force: list[list[int]]) -> list[float]:
    """:func:`score_estimate` (no final scores yet), given each Force in the provinces
    ``left`` to be resolved this Season."""
    out: list[float] = []
    squares: list[int] = []  # each province's sum of squared Forces
    for f in force:
        square = 0
        for x in f:
            square += x * x
        squares.append(square)
    season_vp = VP_BY_SEASON[min(s.season, 2)]
    for seat in range(s.players):
        vp = s.vp[seat] + token_vp(s, seat) + set_bonus(s, seat)
        for c in s.owned[seat]:
            if CARD_TYPE[c] == "winter":
                vp += upgrade_vp(s, seat, c)
        expected = 0.0
        if left:
            mine = {t % 8 for t in s.tokens[seat]}
            new = _new_province_vp(len(mine))
            for p, f, total in zip(left, force, squares, strict=True):
                x = f[seat]
                if total and x:
                    share = x * x / total
                    expected += share * (season_vp + (new if p not in mine else 0))
        out.append(float(vp) + 0.8 * expected + 0.2 * s.coins[seat])
    return out


def evaluate(s: State) -> list[float]:
    """Win shares from the score estimates (a softmax, from 8 VP wide in Spring to 3 VP at
    the end)."""
    scores = score_estimate(s)
    top = max(scores)
    width = 3.0 if s.final is not None else 3.0 + 2.0 * (3 - min(s.season, 3))
    weights = [math.exp((x - top) / width) for x in scores]
    total = sum(weights)
    return [w / total for w in weights]


_SCORERS: dict[int, Any] = {
    D_OFFER: _score_offer,
    D_ANSWER: _score_answer,
    D_KEEP: _score_keep,
    D_ANNOUNCE: _score_keep,
    D_RECRUIT: _score_summon,
    D_PLACE: _score_summon,
    D_MOVE: _score_move,
    D_BUILD: _score_build,
    D_BUY: _score_buy,
    D_BENEVOLENCE: _score_give_weakest,
    D_BETRAY: _score_betray,
    D_NINJA: _score_ninja,
    D_MONKEY: _score_yes,
    D_GENEROSITY: _score_generosity,
    D_GEN_ANSWER: _score_yes,
    D_VASSAL: _score_yes,
    D_HATE: _score_hate,
    D_SEPPUKU: _score_seppuku,
    D_HOSTAGE: _score_hostage,
    D_MERCY: _score_mercy,
    D_REPARATION: _score_give_weakest,
}

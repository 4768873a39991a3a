"""Hooks for agents: a light heuristic policy and score and win estimates.

This is the first heuristic, good enough to beat random play at the obvious decisions (it never
gives Coins away, summons and buys when it can, takes hostages, bids its Coins where its Force
can win); the AI levels of ``docs/ai.md`` search with it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from sengoku.core import Rng

from . import figures
from .actions import (
    COIN,
    RONIN,
    Answer,
    Bid,
    Buy,
    Choice,
    Give,
    Hostage,
    Move,
    Replace,
    Summon,
)
from .cards import CARDS
from .state import HIRE_RONIN, POETS, SEPPUKU, TAKE_HOSTAGE, State
from .winter import set_bonus, token_vp, upgrade_vp

_DECLINES = {
    "end recruit",
    "buy nothing",
    "build nothing",
    "end betrayal",
    "place nothing",
    "summon nothing",
    "kill nothing",
    "take no hostage",
    "take no coin",
    "decline seppuku",
    "refuse the coin",
    "do not pay",
    "give no spent coin",
}


def policy(s: State, seat: int, legal: Sequence[Any], rng: Rng) -> Any | None:
    """A quick choice among ``legal`` (any subset of the legal actions): no gifts, no
    declining what helps, bids aimed at the Battle."""
    acts = [a for a in legal if not (isinstance(a, Give) and a.purpose in (COIN, RONIN))]
    if not acts:
        return None
    bids = [a for a in acts if isinstance(a, Bid)]
    if bids:
        return _bid(s, seat, bids, rng)
    buys = [a for a in acts if isinstance(a, Buy)]
    if buys:
        return max(buys, key=lambda a: (CARDS[a.card].cost, rng.random()))
    hostages = [a for a in acts if isinstance(a, Hostage)]
    if hostages:
        return max(hostages, key=lambda a: (a.what, rng.random()))
    accept = [a for a in acts if isinstance(a, Answer) and a.accept]
    if accept:
        return accept[0]
    useful = [a for a in acts if not (isinstance(a, Choice) and a.label in _DECLINES)]
    if useful:
        if any(isinstance(a, Summon | Replace) for a in useful):
            useful = [a for a in useful if isinstance(a, Summon | Replace)] or useful
        moves = [a for a in useful if isinstance(a, Move)]
        if moves and len(moves) == len([a for a in useful if not isinstance(a, Choice)]):
            return _move(s, seat, moves, acts, rng)
        return rng.choice(useful)
    return rng.choice(acts)


def _move(s: State, seat: int, moves: list[Move], acts: Sequence[Any], rng: Rng) -> Any:
    """Move toward a province at war where the clan is not yet the strongest; else stop."""
    wars = set(s.war[s.war_next :])
    good = []
    for m in moves:
        if m.dst in wars and m.src not in wars:
            force = figures.forces(s, m.dst, False)
            if figures.strongest(s, force) != seat:
                good.append(m)
    if good:
        return rng.choice(good)
    stop = [a for a in acts if isinstance(a, Choice)]
    return stop[0] if stop else rng.choice(moves)


def _bid(s: State, seat: int, bids: list[Bid], rng: Rng) -> Bid:
    """Most Coins on Hire Ronin when Ronin could win the Battle, else on the Poets; a little on
    Take Hostage; nothing on Seppuku unless outmatched."""
    step = bids[0].advantage
    left = max(b.coins for b in bids)
    p = s.b_prov
    force = figures.forces(s, p, True, s.b_part)
    mine = force[seat]
    best_other = max((force[q] for q in s.b_part if q != seat), default=0)
    if step == SEPPUKU:
        want = left // 3 if mine + s.ronin[seat] + 2 < best_other else 0
    elif step == TAKE_HOSTAGE:
        want = min(left, 1 + rng.randbelow(2)) if left > 2 else 0
    elif step == HIRE_RONIN:
        want = (left * 2) // 3 if s.ronin[seat] and mine + s.ronin[seat] >= best_other else 0
    else:
        assert step == POETS
        want = left // 2
    return min(bids, key=lambda b: abs(b.coins - want))


def score_estimate(s: State) -> list[float]:
    """VP now plus what the tokens, the set bonus and Winter Upgrades would give today."""
    out = []
    for seat in range(s.players):
        if s.final is not None:
            out.append(float(s.final[seat]))
            continue
        vp = s.vp[seat] + token_vp(s, seat) + set_bonus(s, seat)
        vp += sum(upgrade_vp(s, seat, c) for c in s.owned[seat] if CARDS[c].type == "winter")
        out.append(float(vp))
    return out


def evaluate(s: State) -> list[float]:
    """Win shares from the score estimates (a softmax, 4 VP wide)."""
    scores = score_estimate(s)
    top = max(scores)
    weights = [math.exp((x - top) / 4.0) for x in scores]
    total = sum(weights)
    return [w / total for w in weights]

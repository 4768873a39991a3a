"""The terms of a seat's position as the heuristic's :func:`~.heuristic.score_estimate`
counts them, for the advisor's reasons (:class:`sengoku.core.Gauge`).

>>> import sengoku
>>> m = sengoku.new_match("shogun", 3, seed=2)
>>> parts = gauges(m.state, 0)
>>> round(sum(g.value * g.weight for g in parts), 6) == round(score_estimate(m.state)[0], 6)
True
"""

from __future__ import annotations

from sengoku.core import Gauge, Term, msg

from .heuristic import BITS, EST_ARMY, EST_MONEY, EST_RICE, MAJ, NREG, POP, D, N, score_estimate
from .messages import province
from .state import OVER, State

__all__ = ["gauges", "score_estimate"]

_REGIONS = tuple(Term(f"shogun.region.{name}") for name in D.regions)


def gauges(s: State, seat: int) -> list[Gauge]:
    """VP so far, each province held (1 VP, its buildings and a little per army, for each
    winter left: shogun.md §11), each region's building majorities (§11.2), chests and rice;
    besides them the armies in each province held."""
    out = [Gauge("vp", msg("shogun.gauge.vp"), float(s.vp[seat]))]
    if s.phase == OVER:
        return out
    npl = s.players
    winters = s.options.years - s.year + 1
    reg = s.board.region
    counts = [[[0] * npl for _ in range(3)] for _ in range(NREG)]
    for p in range(N):
        o = s.owner[p]
        if o < 0:
            continue
        b = s.bld[p]
        if o == seat:
            worth = winters * (1 + POP[b] + EST_ARMY * s.armies[p])
            out.append(Gauge(f"p{p}", msg("shogun.gauge.province", p=province(p)), worth))
            out.append(Gauge(f"a{p}", msg("shogun.gauge.armies", p=province(p)), s.armies[p], 0.0))
        for k in range(3):
            if b & BITS[k]:
                counts[reg[p]][k][o] += 1
    for r in range(NREG):
        award = 0
        for k in range(3):
            c = counts[r][k]
            top = max(c)
            if top and c[seat] == top:
                award += MAJ[k] if c.count(top) == 1 else MAJ[k] - 1
        if award:
            out.append(Gauge(f"r{r}", msg("shogun.gauge.region", r=_REGIONS[r]), winters * award))
    out.append(Gauge("chests", msg("shogun.gauge.chests"), s.money[seat], EST_MONEY))
    out.append(Gauge("rice", msg("shogun.gauge.rice"), s.rice[seat], EST_RICE))
    return out

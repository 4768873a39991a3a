"""The terms of a seat's position as the heuristic's :func:`~.heuristic.score_estimate`
counts them, for the advisor's reasons (:class:`sengoku.core.Gauge`).

>>> import sengoku
>>> m = sengoku.new_match("shitenno", 4, seed=2)
>>> parts = gauges(m.state, 1)
>>> round(sum(g.value * g.weight for g in parts), 6) == round(score_estimate(m.state)[1], 6)
True
"""

from __future__ import annotations

from sengoku.core import Gauge, msg

from .board import KOKU_POINTS, NKINDS, NPROV, P_MAJORITY, TITLE_BONUS
from .data import KIND_UNITS
from .heuristic import _last_odd_year, _last_sharing, _province, _share, score_estimate
from .messages import province
from .state import NO_TITLE, Phase, State

__all__ = ["gauges", "score_estimate"]


def gauges(s: State, seat: int) -> list[Gauge]:
    """Points so far, each province's majority bonus times the chance of holding it
    (shitenno.md §4.7), the koku and troops in hand, and what kamons and a title are still
    worth while odd years remain."""
    if s.result is not None:
        return [Gauge("score", msg("shitenno.gauge.score"), float(s.result[seat]))]
    out = [Gauge("score", msg("shitenno.gauge.score"), float(s.score[seat]))]
    n = s.players
    for p in range(NPROV):
        weights, first, free = _province(s, p)
        if any(weights):
            worth = P_MAJORITY[p] * _share(weights, first, seat, free, n)
            out.append(Gauge(f"p{p}", msg("shitenno.gauge.majority", p=province(p)), worth))
    late = _last_sharing(s) if s.phase <= Phase.LAST else _last_odd_year(s)
    unit = 0.2 if late else 0.9
    hk, ht = s.hand_koku[seat], s.hand_troops[seat]
    koku = KOKU_POINTS * (hk[1] + 2 * hk[2] + 3 * hk[3])
    troops = unit * sum(ht[k] * len(KIND_UNITS[k]) for k in range(NKINDS))
    out.append(Gauge("koku", msg("shitenno.gauge.koku"), koku))
    out.append(Gauge("troops", msg("shitenno.gauge.troops"), troops))
    if not late:
        if s.phase > Phase.LAST:
            bonus = float(TITLE_BONUS[s.titles[seat]])
        elif s.lot_of[seat] != NO_TITLE:
            bonus = float(TITLE_BONUS[s.lot_of[seat]])
        else:
            bonus = sum(TITLE_BONUS) / len(TITLE_BONUS)
        kamons = 0.5 * s.kamons[seat] + bonus * min(2, s.kamons[seat])
        out.append(Gauge("kamons", msg("shitenno.gauge.kamons"), kamons))
    return out

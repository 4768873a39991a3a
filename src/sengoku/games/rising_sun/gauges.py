"""The terms of a clan's position as the heuristic's :func:`~.heuristic.score_estimate`
counts them, for the advisor's reasons (:class:`sengoku.core.Gauge`).

>>> import sengoku
>>> m = sengoku.new_match("rising_sun", 4, seed=2)
>>> parts = gauges(m.state, 2)
>>> round(sum(g.value * g.weight for g in parts), 6) == round(score_estimate(m.state)[2], 6)
True
"""

from __future__ import annotations

from sengoku.core import Gauge, msg

from . import figures
from .cards import CARD_TYPE
from .heuristic import _new_province_vp, score_estimate, wars_left
from .state import WAR, State
from .terms import province
from .winter import VP_BY_SEASON, set_bonus, token_vp, upgrade_vp

__all__ = ["gauges", "score_estimate"]


def gauges(s: State, seat: int) -> list[Gauge]:
    """VP so far, what the War Province tokens and Winter Upgrades would give today
    (rising_sun.md §10), each province still to be fought this Season (its token and set
    bonus times a share by Force squared) and the Coins; besides them the Force margin over
    the strongest rival in each of those provinces."""
    if s.final is not None:
        return [Gauge("vp", msg("rising_sun.gauge.vp"), float(s.final[seat]))]
    out = [
        Gauge("vp", msg("rising_sun.gauge.vp"), float(s.vp[seat])),
        Gauge("tokens", msg("rising_sun.gauge.tokens"), token_vp(s, seat) + set_bonus(s, seat)),
    ]
    upgrades = sum(upgrade_vp(s, seat, c) for c in s.owned[seat] if CARD_TYPE[c] == "winter")
    if upgrades:
        out.append(Gauge("upgrades", msg("rising_sun.gauge.upgrades"), upgrades))
    left = wars_left(s)
    if left:
        here = figures.by_location(s)
        war = s.phase == WAR
        mine = {t % 8 for t in s.tokens[seat]}
        season_vp = VP_BY_SEASON[min(s.season, 2)]
        new = _new_province_vp(len(mine))
        for p in left:
            force = figures.forces_here(s, here[p], war)
            total = sum(x * x for x in force)
            x = force[seat]
            share = x * x / total if total else 0.0
            worth = 0.8 * share * (season_vp + (new if p not in mine else 0))
            out.append(Gauge(f"p{p}", msg("rising_sun.gauge.war", p=province(p)), worth))
            margin = x - max(f for q, f in enumerate(force) if q != seat)
            out.append(Gauge(f"m{p}", msg("rising_sun.gauge.margin", p=province(p)), margin, 0.0))
    out.append(Gauge("coins", msg("rising_sun.gauge.coins"), s.coins[seat], 0.2))
    return out

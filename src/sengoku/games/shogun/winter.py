"""Winter and the end (rules §10.2-§12): the rice loss of the year's fourth event, hunger
revolts, the scoring of the year, and the final tie-break.

>>> winter_row(1), winter_row(4), winter_row(9)
((1, 1), (2, 2), (3, 3))
"""

from __future__ import annotations

from typing import Any

from sengoku.core import LogEntry, Message, Rng, msg, public

from .battles import remove_markers, revolt_recorded
from .messages import SEMICOLON, colour, items, pair, province
from .options import TieBreak
from .planning import start_year
from .state import BUILDING_BITS, OVER, WINTER, D, N, State, popcount

MAJORITY = tuple(D.tables.majority_points[k] for k in ("castle", "temple", "theatre"))


def winter_row(short: int) -> tuple[int, int]:
    """Rules §10.3: (provinces that revolt, extra peasants) for a rice shortage."""
    for lo, hi, provinces, peasants in D.winter:
        if lo <= short <= hi:
            return provinces, peasants
    return 0, 0


def start_winter(s: State, rng: Rng, log: list[LogEntry]) -> None:
    """Rules §11: rice loss from the year's fourth event, then hunger revolts, then scoring."""
    s.phase = WINTER
    last = [e for e in s.year_events if e not in s.season_events]
    loss = D.event_loss[last[0]] if last else 0
    s.season_events.extend(last)
    for p in range(s.players):
        s.rice[p] = max(0, s.rice[p] - loss)
    rice = items(pair(p, s.rice[p]) for p in range(s.players))
    log.append(public(msg("shogun.log.winter", n=s.year, n2=loss, x=rice)))
    s.winter_queue = list(s.autumn_order) if s.autumn_order else list(range(s.players))
    s.revolt_left = []
    s.revolt_bonus = -1
    run_winter(s, rng, log)


def run_winter(s: State, rng: Rng, log: list[LogEntry]) -> None:
    """Each short player in turn (the autumn's order, rules §10.2): his revolting provinces
    drawn, his revolts fought (a choice when there are several); then the scoring."""
    while s.winter_queue:
        seat = s.winter_queue[0]
        if s.revolt_bonus < 0:
            owned = [p for p in range(N) if s.owner[p] == seat]
            short = len(owned) - s.rice[seat]
            if short <= 0:
                s.winter_queue.pop(0)
                continue
            k, bonus = winter_row(short)
            k = min(k, len(owned))
            picks = []
            for _ in range(k):
                picks.append(owned.pop(rng.randbelow(len(owned))))
            s.revolt_left = sorted(picks)
            s.revolt_bonus = bonus
            log.append(
                public(
                    msg(
                        "shogun.log.short",
                        c=colour(seat),
                        n=short,
                        x=items(province(p) for p in s.revolt_left),
                        n2=bonus,
                    )
                )
            )
        if len(s.revolt_left) > 1:
            s.phase = WINTER
            return
        if s.revolt_left:
            _hunger_revolt(s, rng, seat, s.revolt_left.pop(), log)
        s.winter_queue.pop(0)
        s.revolt_bonus = -1
    s.winters = [*s.winters, winter_breakdown(s)]
    _score_winter(s, rng, log)


def choose_revolt(s: State, rng: Rng, seat: int, prov: int, log: list[LogEntry]) -> None:
    """``seat`` has its hunger revolt in ``prov`` next (rules §10.2: he chooses the order)."""
    s.revolt_left.remove(prov)
    _hunger_revolt(s, rng, seat, prov, log)
    run_winter(s, rng, log)


def _hunger_revolt(s: State, rng: Rng, seat: int, prov: int, log: list[LogEntry]) -> None:
    revolt_recorded(s, rng, seat, prov, s.revolt_bonus + s.markers[prov], True, log)


def score_year(s: State) -> tuple[list[int], list[Message]]:
    """Rules §11.3: points per seat this winter and a message per seat explaining them."""
    w = winter_breakdown(s)
    lines = [
        msg(
            "shogun.log.score",
            c=colour(o),
            n=w["points"][o],
            n2=w["provinces"][o],
            n3=w["buildings"][o],
            n4=w["majorities"][o],
        )
        for o in range(s.players)
    ]
    return w["points"], lines


def _score_winter(s: State, rng: Rng, log: list[LogEntry]) -> None:
    """Rules §11.3-4, §12: points scored, markers cleared; the next year or the end."""
    pts, lines = score_year(s)
    for o in range(s.players):
        s.vp[o] += pts[o]
    log.append(public(msg("shogun.log.scoring", n=s.year, x=items(lines, SEMICOLON))))
    for p in range(N):
        if s.markers[p]:
            remove_markers(s, p, s.markers[p])
    s.revolt_left = []
    s.revolt_bonus = -1
    s.winter_queue = []
    if s.year >= s.options.years:
        s.phase = OVER
        s.final_scores = s.vp.copy()
        scores = items(pair(o, s.vp[o]) for o in range(s.players))
        log.append(public(msg("shogun.log.game_ends", x=scores)))
        return
    s.year += 1
    start_year(s, rng, log)


def tiebreaks(s: State) -> list[list[float]] | None:
    """Rules §12 and option ``tie_break``."""
    mode = s.options.tie_break
    if mode is TieBreak.SHARED:
        return None
    out: list[list[float]] = []
    for o in range(s.players):
        counts = [0, 0, 0]
        for p in range(N):
            if s.owner[p] == o:
                for i, bit in enumerate(BUILDING_BITS):
                    if s.bld[p] & bit:
                        counts[i] += 1
        if mode is TieBreak.CHESTS:
            out.append([s.money[o]])
        elif mode is TieBreak.CHESTS_THEN_BUILDINGS:
            out.append([s.money[o], *counts])
        else:
            out.append([*counts])
    return out


def winter_breakdown(s: State) -> dict[str, Any]:
    """Rules §11.3: this winter's points per seat and where they come from: ``provinces``
    (1 each), ``buildings`` (1 each), ``regions`` (per region, per seat: the majority points
    for castles, temples and Nô theatres), ``majorities`` (their sum) and ``points``.

    >>> import sengoku
    >>> m = sengoku.new_match("shogun", 3, seed=2)
    >>> w = winter_breakdown(m.state)
    >>> w["points"] == score_year(m.state)[0], w["provinces"]
    (True, [9, 9, 9])
    """
    npl = s.players
    provinces = [0] * npl
    buildings = [0] * npl
    for p in range(N):
        o = s.owner[p]
        if o >= 0:
            provinces[o] += 1
            buildings[o] += popcount(s.bld[p])
    regions = []
    for r in range(len(D.regions)):
        pts = [0] * npl
        for i, bit in enumerate(BUILDING_BITS):
            count = [0] * npl
            for p in range(N):
                o = s.owner[p]
                if o >= 0 and s.board.region[p] == r and s.bld[p] & bit:
                    count[o] += 1
            top = max(count)
            if top == 0:
                continue
            holders = [o for o in range(npl) if count[o] == top]
            for o in holders:
                pts[o] += MAJORITY[i] if len(holders) == 1 else MAJORITY[i] - 1
        regions.append(pts)
    majorities = [sum(r[o] for r in regions) for o in range(npl)]
    return {
        "year": s.year,
        "provinces": provinces,
        "buildings": buildings,
        "regions": regions,
        "majorities": majorities,
        "points": [provinces[o] + buildings[o] + majorities[o] for o in range(npl)],
    }

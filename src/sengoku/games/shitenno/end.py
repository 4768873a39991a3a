"""The end of Shitenno: its two triggers (§4.6, G11), the final scoring (§4.7) and the winner
(G12).

The end is checked between years (:mod:`.rounds`): at the end of each even year, or with
option ``end_after_odd_year`` at the end of each odd year.
"""

from __future__ import annotations

from sengoku.core import Items, LogEntry, Outcome, msg, public

from .board import GOLDEN_WEIGHT, KOKU_POINTS, NPROV, P_MAJORITY, SPACES
from .messages import COMMA, colour, province
from .options import TieBreak
from .state import EMPTY, GOLDEN, Phase, State

__all__ = ["end_triggered", "final_scoring", "majorities", "outcome"]


def end_triggered(s: State, log: list[LogEntry]) -> bool:
    """Both triggers of §4.6: a supply without kamons, or an empty koku deck."""
    out = [colour(p) for p in range(s.players) if s.kamons[p] == 0]
    if out:
        key = "shitenno.log.no_kamons_one" if len(out) == 1 else "shitenno.log.no_kamons"
        log.append(public(msg(key, x=Items(tuple(out), COMMA))))
        return True
    if not s.koku_deck:
        log.append(public(msg("shitenno.log.koku_out")))
        return True
    return False


def majorities(s: State) -> list[int]:
    """The winner of each province's majority (-1 for none): golden kamons count double, a
    tie goes to the tied player with the leftmost kamon (§4.7)."""
    winners = []
    for p in range(NPROV):
        weight = [0] * s.players
        first: dict[int, int] = {}
        for i in range(SPACES):
            v = s.board[p * SPACES + i]
            if v == EMPTY:
                continue
            owner, golden = v % GOLDEN, v >= GOLDEN
            weight[owner] += GOLDEN_WEIGHT if golden else 1
            first.setdefault(owner, i)
        best = max(weight)
        if best == 0:
            winners.append(-1)
            continue
        tied = [q for q in range(s.players) if weight[q] == best]
        winners.append(min(tied, key=first.__getitem__))
    return winners


def final_scoring(s: State, log: list[LogEntry]) -> None:
    """Koku in hand (and unused tiles under G6's option), then the majorities (§4.7)."""
    s.phase = Phase.OVER
    result = s.score.copy()
    for seat in range(s.players):
        koku = sum(v * s.hand_koku[seat][v] for v in (1, 2, 3)) * KOKU_POINTS
        tiles = len(s.tiles[seat]) * s.options.unused_tile_points
        result[seat] += koku + tiles
        if tiles:
            line = msg("shitenno.log.koku_tile_points", c=colour(seat), n=koku, n2=tiles)
        else:
            line = msg("shitenno.log.koku_points", c=colour(seat), n=koku)
        log.append(public(line))
    for p, winner in enumerate(majorities(s)):
        if winner >= 0:
            result[winner] += P_MAJORITY[p]
            line = msg("shitenno.log.majority", c=colour(winner), p=province(p), n=P_MAJORITY[p])
            log.append(public(line))
    s.result = result
    scores = tuple(
        msg("shitenno.log.seat_score", c=colour(p), n=result[p]) for p in range(s.players)
    )
    log.append(public(msg("shitenno.log.final", x=Items(scores, COMMA))))


def outcome(state: State) -> Outcome | None:
    """The final favour totals; ties shared, or broken per option G12."""
    if state.result is None:
        return None
    tiebreaks = None
    if state.options.tie_break is TieBreak.MAJORITIES_THEN_KOKU:
        won = majorities(state)
        tiebreaks = [
            [won.count(p), sum(v * state.hand_koku[p][v] for v in (1, 2, 3))]
            for p in range(state.players)
        ]
    return Outcome.from_scores(state.result, tiebreaks)

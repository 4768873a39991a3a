"""The Tea Ceremony: alliances for the Season (rules §4.2, §16.5; DZ tea-ceremony, H).

Last Season's alliances end. Then, clockwise from the holder of the Mandate deck, each unallied
clan may offer an alliance to another unallied clan, which accepts or refuses; a clan may offer
again on a later turn (to a clan it has not offered this Season) until it says "no alliance".
A clan has at most one ally, and no alliance is formed later in the Season. This turn order is
ours: the rules let players agree freely, and any pair that both want it can form it here.
"""

from __future__ import annotations

from typing import Any

from sengoku.core import Rng, public

from .actions import ALLIANCE, Answer, Choice, Give, choice
from .engine import Log, applies, ask, decision, push, task
from .honor import who
from .state import D_ANSWER, D_OFFER, TEA, State
from .terms import log_line

T_TEA = 20
T_TEA_ASK = 21

NO_ALLIANCE = choice("no alliance", "no_alliance")


def _targets(s: State, seat: int) -> list[int]:
    """Clans ``seat`` may still offer an alliance to."""
    return [
        q for q in range(s.players) if q != seat and s.ally[q] < 0 and seat * 8 + q not in s.offers
    ]


@task(T_TEA)
def _tea(s: State, rng: Rng, log: Log) -> None:
    s.phase = TEA
    if any(a >= 0 for a in s.ally):
        log.append(public(log_line("alliances_end")))
    s.ally = [-1] * s.players
    s.offers = []
    s.tea_done = [False] * s.players
    push(s, (T_TEA_ASK, s.order.index(s.holder)))


@task(T_TEA_ASK)
def _tea_ask(s: State, rng: Rng, log: Log, start: int) -> None:
    """The next clan clockwise from order position ``start`` that may still make an offer."""
    n = s.players
    for i in range(n):
        seat = s.order[(start + i) % n]
        if s.ally[seat] < 0 and not s.tea_done[seat] and _targets(s, seat):
            ask(s, D_OFFER, seat, (start + i) % n)
            return


@decision(D_OFFER)
def _offer_legal(s: State, seat: int) -> list[Any]:
    return [*(Give(ALLIANCE, s.clan[q]) for q in _targets(s, seat)), NO_ALLIANCE]


@applies(D_OFFER)
def _offer_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    _, _, position = s.pending or ()
    s.pending = None
    if isinstance(action, Choice):
        s.tea_done[seat] = True
        log.append(public(log_line("no_more_offers", c=who(s, seat))))
        push(s, (T_TEA_ASK, position + 1))
        return
    target = s.clan.index(action.clan)
    s.offers.append(seat * 8 + target)
    log.append(public(log_line("offers_alliance", c=who(s, seat), c2=who(s, target))))
    ask(s, D_ANSWER, target, seat, position)


@decision(D_ANSWER)
def _answer_legal(s: State, seat: int) -> list[Any]:
    _, _, proposer, _ = s.pending or ()
    return [Answer(True, s.clan[proposer]), Answer(False, s.clan[proposer])]


@applies(D_ANSWER)
def _answer_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    _, _, proposer, position = s.pending or ()
    s.pending = None
    if action.accept:
        s.ally[seat] = proposer
        s.ally[proposer] = seat
        s.alliance_seasons[seat] += 1
        s.alliance_seasons[proposer] += 1
        log.append(public(log_line("allies", c=who(s, proposer), c2=who(s, seat))))
    else:
        log.append(public(log_line("refuses_alliance", c=who(s, seat), c2=who(s, proposer))))
    push(s, (T_TEA_ASK, position + 1))

"""A year's start and a season's planning (rules §3, §4.1-4.5): the year's four events, the
season's action cards and special cards, the secret plans and bids, the season's event, the
bids paid and ranked, and the turn positions chosen with their special cards.

>>> import sengoku
>>> m = sengoku.new_match("shogun", 3, seed=1)
>>> [str(a) for a in plan_options(m.state, 0)][-2:]
['plan castle: Tajima', 'plan castle: blank']
>>> bid_rank(PROVINCE_BID) > bid_rank(0)
True
"""

from __future__ import annotations

from sengoku.core import LogEntry, Message, Rng, Term, msg, public

from .actions import BLANK, EMPTY, NO_BID, PROVINCE_BID, UNSET, Bid, Plan, TakePosition
from .battles import remove_markers
from .messages import SEMICOLON, action_card, bid_shown, colour, event, items, province, special
from .options import OverBid, TheatreEvent
from .state import EV, PENDING, PLAN, POSITION, SEASONS, THEATRE, UNSET_BID, N, State


def start_year(s: State, rng: Rng, log: list[LogEntry]) -> None:
    """Rules §3: four events for the year, rice back to 0."""
    drawn = [s.events_left.pop(rng.randbelow(len(s.events_left))) for _ in range(4)]
    s.year_events = sorted(drawn)
    s.season_events = []
    s.rice = [0] * s.players
    s.season = 0
    events = items((event(e) for e in s.year_events), SEMICOLON)
    log.append(public(msg("shogun.log.year_begins", n=s.year, x=events)))
    start_season(s, rng, log)


def start_season(s: State, rng: Rng, log: list[LogEntry]) -> None:
    """Rules §4.1-4.3: action cards (5 face up), special cards, then secret planning."""
    s.phase = PLAN
    cards = list(range(10))
    s.action_order = [cards.pop(rng.randbelow(len(cards))) for _ in range(5)]
    specials = list(range(5))
    rng.shuffle(specials)
    s.specials = specials
    npl = s.players
    s.plan = [[UNSET] * 10 for _ in range(npl)]
    s.status = [[PENDING] * 10 for _ in range(npl)]
    s.plan_n = [0] * npl
    s.bid = [UNSET_BID] * npl
    s.bid_card = [-1] * npl
    s.bids_revealed = False
    s.hand = [[p for p in range(N) if s.owner[p] == seat] for seat in range(npl)]
    s.hand_size = [len(h) + 5 for h in s.hand]
    s.revealed_n = 0
    s.event = -1
    s.positions = [-1] * 5
    s.pos_of = [-1] * npl
    s.choosers = []
    s.chooser_idx = 0
    s.action_idx = 0
    s.pos_idx = 0
    s.pending = []
    log.append(
        public(
            msg(
                "shogun.log.season_start",
                n=s.year,
                s=Term(f"shogun.season.{SEASONS[s.season]}"),
                x=items(action_card(a) for a in s.action_order),
                x2=items(special(c) for c in s.specials),
            )
        )
    )


#: Every planning choice, made once (actions are immutable): ``_PLANS[space][card]``, a
#: province card by its number, a blank or nothing at ``BLANK`` and ``EMPTY`` (from the end).
_PLANS = tuple(tuple(Plan(sp, p) for p in (*range(N), EMPTY, BLANK)) for sp in range(10))
assert all(row[BLANK].card == BLANK and row[EMPTY].card == EMPTY for row in _PLANS)
#: The bids, made once: chests 0..4, each province card, nothing.
_CHEST_BIDS = tuple(Bid(v) for v in range(5))
_CARD_BIDS = tuple(Bid(PROVINCE_BID, p) for p in range(N))
_NO_BID = Bid(NO_BID)


def plan_options(s: State, seat: int) -> list[Plan | Bid]:
    """Rules §4.3: one card per space; a province at most once; cover all spaces if possible."""
    n = s.plan_n[seat]
    entries = s.plan[seat]
    used = entries[:n] if n < 10 else entries
    blanks = 0
    usedset = set()
    for e in used:
        if e >= 0:
            usedset.add(e)
        elif e == BLANK:
            blanks += 1
    provs = [p for p in s.hand[seat] if p not in usedset]
    if n < 10:
        plans = _PLANS[n]
        opts: list[Plan | Bid] = [plans[p] for p in provs]
        if blanks < 5:
            opts.append(plans[BLANK])
        if len(provs) + 5 - blanks < 11 - n:
            opts.append(plans[EMPTY])
        return opts
    bids: list[Plan | Bid] = []
    if blanks < 5:
        limit = 4 if s.options.over_bid is OverBid.PAY_WHAT_YOU_HAVE else min(4, s.money[seat])
        bids.extend(_CHEST_BIDS[: max(0, limit + 1)])
    bids.extend(_CARD_BIDS[p] for p in provs)
    if not bids:
        bids.append(_NO_BID)
    return bids


def bid_rank(value: int) -> int:
    """Rules §4.5/§8: chests 4..1 > province card (0.5) > chest 0 > nothing (in half chests)."""
    if value == PROVINCE_BID:
        return 1
    if value in (NO_BID, UNSET_BID):
        return -1
    return 2 * value


def end_planning(s: State, rng: Rng, log: list[LogEntry]) -> None:
    """Rules §4.4-4.5: the event, then bids revealed, paid, ranked (ties at random)."""
    s.bids_revealed = True
    left = [e for e in s.year_events if e not in s.season_events]
    ev = left[rng.randbelow(len(left))]
    s.season_events.append(ev)
    s.event = ev
    log.append(public(msg("shogun.log.event", x=event(ev))))
    if EV[ev] == "theatre_calm" and s.options.no_theatre_event is TheatreEvent.ON_REVEAL:
        for p in range(N):
            if s.bld[p] & THEATRE and s.markers[p]:
                log.append(public(msg("shogun.log.markers_leave", p=province(p))))
                remove_markers(s, p, s.markers[p])
    npl = s.players
    parts = []
    for p in range(npl):
        v = s.bid[p]
        if 0 <= v <= 4:
            s.money[p] -= min(v, s.money[p])
        parts.append(bid_shown(p, v, s.bid_card[p]))
    order = list(range(npl))
    rng.shuffle(order)  # the shuffled daimyo cards break ties (rules §4.5)
    order.sort(key=lambda p: -bid_rank(s.bid[p]))
    s.choosers = order
    s.chooser_idx = 0
    s.phase = POSITION
    log.append(public(msg("shogun.log.bids", x=items(parts), x2=items(colour(p) for p in order))))


def take_position(s: State, seat: int, action: TakePosition, log: list[LogEntry]) -> bool:
    """Rules §4.5: ``seat`` takes a turn position with the special card lying there; the last
    free position goes to the last chooser by itself. True once every seat has one (the
    actions begin, :mod:`.perform`)."""
    s.positions[action.position] = seat
    s.pos_of[seat] = action.position
    s.chooser_idx += 1
    log.append(public(_takes_position(seat, action)))
    npl = s.players
    if s.chooser_idx == npl - 1 and sum(1 for x in s.positions if x < 0) == 1:
        seat = s.choosers[-1]
        pos = s.positions.index(-1)
        s.positions[pos] = seat
        s.pos_of[seat] = pos
        s.chooser_idx = npl
        log.append(public(_takes_position(seat, TakePosition(pos, s.specials[pos]))))
    if s.chooser_idx < npl:
        return False
    s.action_idx = 0
    s.pos_idx = 0
    return True


def _takes_position(seat: int, action: TakePosition) -> Message:
    return msg(
        "shogun.log.takes_position",
        c=colour(seat),
        n=action.position + 1,
        x=special(action.card),
    )

"""Performing the actions (rules §4.6, §5): the season's ten action cards in order, each
carried out by every player in turn order; building, collecting (with the revolt check of
§10.1), recruiting, and the Battle/Move and Recruit 1/move marches; then the season ends.

>>> import sengoku
>>> m = sengoku.new_match("shogun", 3, seed=2)
>>> while m.state.phase != TARGET:
...     m.act(m.to_act()[0], m.legal_actions(m.to_act()[0])[0])
>>> str(march_options(m.state)[0])
'stay in Bitchu'
"""

from __future__ import annotations

from sengoku.core import LogEntry, Message, Rng, Term, msg, public

from .actions import STAY, March
from .battles import add_marker, march_recorded, remove_markers, revolt_recorded, special_card
from .messages import action_card, building, colour, entry, items, pair, province
from .options import RevealCards, RevoltPeasants, ShortRecruit, SixArmies, TheatreEvent
from .planning import start_season
from .state import (
    A_R1,
    A_R3,
    A_R5,
    A_RICE,
    A_TAX,
    A_THEATRE,
    ARMIES,
    BATTLE,
    BUILDING_BITS,
    CANCELLED,
    DONE,
    EV,
    PENDING,
    PLAN,
    RECRUIT_MOVE,
    S_CHEST,
    S_RICE,
    S_SIX,
    TARGET,
    TEMPLE,
    D,
    State,
    popcount,
)
from .winter import start_winter

B_COST = tuple(D.tables.building_costs[k] for k in ("castle", "temple", "theatre"))


def run_actions(s: State, rng: Rng, log: list[LogEntry]) -> None:
    """Rules §4.6: every action card in order, every player in turn order; stop at a decision."""
    in_turn = s.options.reveal_action_cards is RevealCards.IN_TURN
    while s.action_idx < 10:
        a = s.action_order[s.action_idx]
        if s.revealed_n <= s.action_idx:
            s.revealed_n = s.action_idx + 1
            if not in_turn:
                shown = items(_card_shown(s, p, a) for p in s.positions if p >= 0)
                log.append(public(msg("shogun.log.cards_shown", a=action_card(a), x=shown)))
        while s.pos_idx < 5:
            p = s.positions[s.pos_idx]
            if p >= 0 and s.status[p][a] != DONE:
                if in_turn:
                    shown_one = _card_shown(s, p, a)
                    log.append(public(msg("shogun.log.cards_shown", a=action_card(a), x=shown_one)))
                if s.status[p][a] == PENDING and _execute(s, rng, p, a, log):
                    return
            s.pos_idx += 1
        s.action_idx += 1
        s.pos_idx = 0
        if len(s.action_order) < 10:
            rest = [c for c in range(10) if c not in s.action_order]
            s.action_order.append(rest[rng.randbelow(len(rest))])
            log.append(public(msg("shogun.log.next_card", a=action_card(s.action_order[-1]))))
    _end_season(s, rng, log)


def _card_shown(s: State, p: int, a: int) -> Message:
    """Seat ``p``'s card on action ``a`` as revealed in the log."""
    card: Term | Message = entry(s.plan[p][a])
    if s.status[p][a] == CANCELLED:
        card = msg("shogun.log.cancelled", x=card)
    return pair(p, card)


def choose_target(s: State, rng: Rng, seat: int, action: March, log: list[LogEntry]) -> None:
    """The march's target (or staying put); from a province with 2 armies the one army that
    may go goes at once, else the number is asked next (phase ``armies``)."""
    if action.target == STAY:
        log.append(public(msg("shogun.log.stays", c=colour(seat), p=province(action.source))))
        _finish_decision(s, rng, log)
    else:
        s.pending[3] = action.target
        if s.armies[action.source] == 2:
            march_recorded(s, rng, seat, action.source, action.target, 1, log)
            _finish_decision(s, rng, log)
        else:
            s.phase = ARMIES


def choose_armies(s: State, rng: Rng, seat: int, n: int, log: list[LogEntry]) -> None:
    """The number of armies that march to the chosen target."""
    _, _, src, dst = s.pending
    march_recorded(s, rng, seat, src, dst, n, log)
    _finish_decision(s, rng, log)


def _finish_decision(s: State, rng: Rng, log: list[LogEntry]) -> None:
    s.pending = []
    s.pos_idx += 1
    s.phase = PLAN  # placeholder while running; set again at the next decision
    run_actions(s, rng, log)


def _execute(s: State, rng: Rng, seat: int, a: int, log: list[LogEntry]) -> bool:
    """Carry out ``seat``'s card on action ``a``; True when a decision is now pending."""
    s.status[seat][a] = DONE
    prov = s.plan[seat][a]
    if prov < 0:
        return False
    who = colour(seat)
    name = province(prov)
    ev = EV[s.event] if s.event >= 0 else ""
    card = special_card(s, seat)
    if a <= A_THEATRE:
        bit = BUILDING_BITS[a]
        cost = B_COST[a]
        what = building(a)
        why = ""
        if s.money[seat] < cost:
            why = "shogun.log.build_chests"
        elif s.bld[prov] & bit:
            why = "shogun.log.build_has"
        elif popcount(s.bld[prov]) >= D.slots[prov]:
            why = "shogun.log.build_slot"
        elif s.bsupply[a] <= 0:
            why = "shogun.log.build_tiles"
        if why:
            args: dict[str, Term] = {"c": who, "b": what, "p": name}
            if why in ("shogun.log.build_has", "shogun.log.build_slot"):
                args["p2"] = name
            if why in ("shogun.log.build_has", "shogun.log.build_tiles"):
                args["b2"] = what
            log.append(public(msg(why, **args)))
            return False
        s.money[seat] -= cost
        s.bld[prov] |= bit
        s.bsupply[a] -= 1
        log.append(public(msg("shogun.log.builds", c=who, b=what, p=name, n=cost)))
        if a == A_THEATRE and ev == "theatre_calm" and s.markers[prov]:
            mode = s.options.no_theatre_event
            if mode is TheatreEvent.ACTION_ALL:
                remove_markers(s, prov, s.markers[prov])
                log.append(public(msg("shogun.log.markers_leave", p=name)))
            elif mode is TheatreEvent.ACTION_ONE:
                remove_markers(s, prov, 1)
                log.append(public(msg("shogun.log.marker_leaves", p=name)))
        return False
    if a in (A_RICE, A_TAX):
        _collect(s, rng, seat, prov, a, ev, card, log)
        return False
    if a in (A_R5, A_R3):
        if a == A_R5:
            n = 5
            if ev == "recruit_shortage":
                n = 3
                if card == S_SIX:
                    n = 6 if s.options.six_armies_card is SixArmies.SIX else 4
            elif card == S_SIX:
                n = 6
        else:
            n = 2 if ev == "recruit_shortage" else 3
        cost = D.tables.recruit["recruit5" if a == A_R5 else "recruit3"].cost
        _recruit(s, seat, prov, n, cost, log)
        return False
    if a == A_R1:
        if not _recruit(s, seat, prov, 1, D.tables.recruit["recruit1"].cost, log):
            return False
        if any(s.owner[t] == seat for t in s.board.neighbours[prov]):
            s.pending = [seat, RECRUIT_MOVE, prov, -1]
            s.phase = TARGET
            return True
        return False
    # battle/move A or B
    if s.armies[prov] >= 2 and _battle_targets(s, seat, prov):
        s.pending = [seat, BATTLE, prov, -1]
        s.phase = TARGET
        return True
    log.append(public(msg("shogun.log.cannot_march", c=who, p=name)))
    return False


def _recruit(s: State, seat: int, prov: int, n: int, cost: int, log: list[LogEntry]) -> bool:
    """Rules §5: pay and place ``n`` armies (all or nothing, rules §21.1 Q4)."""
    who, where = colour(seat), province(prov)
    if s.money[seat] < cost:
        log.append(public(msg("shogun.log.recruit_chests", c=who, p=where)))
        return False
    if s.supply[seat] < n:
        if s.options.short_recruit is ShortRecruit.CANCEL or s.supply[seat] == 0:
            log.append(public(msg("shogun.log.recruit_supply", c=who, p=where)))
            return False
        n = s.supply[seat]
    s.money[seat] -= cost
    s.supply[seat] -= n
    s.armies[prov] += n
    log.append(public(msg("shogun.log.recruits", c=who, n=n, p=where, n2=cost)))
    return True


#: The events that bound what a collection gives (rules §7): kind -> (action, least, most).
_COLLECT_BOUNDS: dict[str, tuple[int, int, int]] = {
    "rice_min_4": (A_RICE, 4, 99),
    "rice_max_3": (A_RICE, 0, 3),
    "tax_min_6": (A_TAX, 6, 99),
    "tax_max_5": (A_TAX, 0, 5),
}


def _collect(
    s: State, rng: Rng, seat: int, prov: int, a: int, ev: str, special: int, log: list[LogEntry]
) -> None:
    """Rules §5, §7, §10.1: collect rice or taxes, then the revolt check."""
    who, where = colour(seat), province(prov)
    rice = a == A_RICE
    bonus = 1 if special == (S_RICE if rice else S_CHEST) else 0
    late = s.options.special_bonus_after_event_limit  # the +1 card after the event's bound
    v = (D.rice if rice else D.tax)[prov] + (0 if late else bonus)
    bound = _COLLECT_BOUNDS.get(ev)
    if bound is not None and bound[0] == a:
        v = min(max(v, bound[1]), bound[2])
    if late:
        v += bonus
    if rice:
        s.rice[seat] += v
        log.append(public(msg("shogun.log.collects_rice", c=who, n=v, p=where)))
    else:
        s.money[seat] += v
        log.append(public(msg("shogun.log.collects_chests", c=who, n=v, p=where)))
    if s.markers[prov] == 0:
        add_marker(s, prov)
        return
    if s.options.collect_revolt_peasants is RevoltPeasants.AFTER:
        add_marker(s, prov)
    peasants = s.markers[prov]
    if revolt_recorded(s, rng, seat, prov, peasants, False, log):
        add_marker(s, prov)


def _battle_targets(s: State, seat: int, prov: int) -> list[int]:
    """Neighbours a Battle/Move may enter (rules §5, §7 temple event)."""
    temple_peace = s.event >= 0 and EV[s.event] == "temple_peace"
    out = []
    for t in s.board.neighbours[prov]:
        o = s.owner[t]
        if temple_peace and o >= 0 and o != seat and s.bld[t] & TEMPLE:
            continue
        out.append(t)
    return out


def march_options(s: State) -> list[March]:
    """The targets of the pending march (rules §5: Recruit 1/move to an own neighbour,
    Battle/Move to any neighbour the temple event does not protect)."""
    seat, kind, src, _ = s.pending
    if kind == RECRUIT_MOVE:
        return [March(src, STAY, False)] + [
            March(src, t, False) for t in s.board.neighbours[src] if s.owner[t] == seat
        ]
    opts = [March(src, t, s.owner[t] != seat) for t in _battle_targets(s, seat, src)]
    if s.options.battle_move_optional:
        opts.append(March(src, STAY, False))
    return opts


def _end_season(s: State, rng: Rng, log: list[LogEntry]) -> None:
    """The special cards go back (rules §4); the next season, or winter (rules §3)."""
    if s.season == 2:
        s.autumn_order = [p for p in s.positions if p >= 0]
    s.event = -1
    s.pos_of = [-1] * s.players  # special cards go back (rules §4)
    s.season += 1
    if s.season < 3:
        start_season(s, rng, log)
    else:
        start_winter(s, rng, log)

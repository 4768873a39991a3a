"""Battles and revolts (rules §9, §10.1): armies marching into another's or a neutral
province, peasant revolts, the cube tower's throws, devastation, revolt markers; and the
records of each fight that the views show (``battles``).

>>> import sengoku
>>> m = sengoku.new_match("shogun", 3, seed=4)
>>> while m.state.year == 1:
...     m.act(m.to_act()[0], m.legal_actions(m.to_act()[0])[-1])
>>> sorted({b["kind"] for b in m.view(None)["battles"]})
['attack', 'hunger']
"""

from __future__ import annotations

from collections.abc import Sequence

from sengoku.core import Items, LogEntry, Message, Rng, Term, msg, public

from .messages import colour, items, pair, province
from .options import PeasantAllies
from .state import (
    BUILDING_BITS,
    CANCELLED,
    CASTLE,
    EV,
    PENDING,
    S_ATTACK,
    S_DEFENCE,
    SEASONS,
    State,
)


def special_card(s: State, seat: int) -> int:
    """The special card ``seat`` took with its turn position this season (rules §4.5, §6),
    or -1."""
    pos = s.pos_of[seat]
    return s.specials[pos] if pos >= 0 and s.specials else -1


def add_marker(s: State, prov: int) -> None:
    """A revolt marker on ``prov`` (rules §10.1), while any of the 42 is left (rules §1)."""
    if s.markers_left > 0:
        s.markers[prov] += 1
        s.markers_left -= 1


def remove_markers(s: State, prov: int, n: int) -> None:
    """Up to ``n`` of ``prov``'s revolt markers back to the supply."""
    n = min(n, s.markers[prov])
    s.markers[prov] -= n
    s.markers_left += n


def tower_counts(s: State, out: list[int], parties: Sequence[int]) -> Items:
    """What came out of the tower for each party: ``Red 3, peasants 1``."""
    return items(
        msg("shogun.log.pair", c=Term("shogun.term.peasants"), x=out[o])
        if o == s.players
        else pair(o, out[o])
        for o in parties
    )


def _tower(s: State, out: list[int], parties: Sequence[int]) -> Message:
    return msg("shogun.log.tower", x=tower_counts(s, out, parties))


def _fight(head: Message, tower: Message, result: Message) -> Message:
    """A battle or revolt line: who throws what, the tower's answer, the result."""
    return msg("shogun.log.fight", head=head, tower=tower, result=result)


def _noted(head: Message, notes: list[Term | Message]) -> Message:
    """``head`` with the extra cubes thrown in, if any: ``... with 3 (+1 attack card)``."""
    return msg("shogun.log.noted", head=head, notes=items(notes)) if notes else head


def _march(s: State, rng: Rng, seat: int, src: int, dst: int, n: int, log: list[LogEntry]) -> None:
    """Move ``n`` armies; a battle follows if ``dst`` is not the mover's (rules §5, §9)."""
    who, target = colour(seat), province(dst)
    d = s.owner[dst]
    if d == seat:
        s.armies[src] -= n
        s.armies[dst] += n
        log.append(public(msg("shogun.log.moves", c=who, n=n, p=province(src), p2=target)))
        return
    s.armies[src] -= n
    npl = s.players
    thrown = [0] * (npl + 1)
    thrown[seat] = n
    head = msg("shogun.log.attacks", c=who, p=target, p2=province(src), n=n)
    if special_card(s, seat) == S_ATTACK and s.supply[seat] > 0:
        s.supply[seat] -= 1
        thrown[seat] += 1
        head = _noted(head, [Term("shogun.term.plus_attack_card")])
    if d < 0:
        peas = 2 if s.event >= 0 and EV[s.event] == "two_peasants" else 1
        peas = min(peas, s.supply[npl])
        s.supply[npl] -= peas
        thrown[npl] = peas
        out = s.tower.throw(thrown, rng)
        a, g = out[seat], out[npl]
        _to_tray(s, out, (seat, npl))
        s.supply[npl] += g
        tower = _tower(s, out, (seat, npl))
        if a > g:
            s.owner[dst] = seat
            s.armies[dst] = a - g
            s.supply[seat] += g
            result = msg("shogun.log.takes", c=who, p=target, n=a - g)
        else:
            s.supply[seat] += a
            result = msg("shogun.log.stays_neutral", p=target)
        log.append(public(_fight(head, tower, result)))
        return
    loser = colour(d)
    thrown[d] = s.armies[dst]
    s.armies[dst] = 0
    notes: list[Term | Message] = []
    if special_card(s, d) == S_DEFENCE and s.supply[d] > 0:
        s.supply[d] -= 1
        thrown[d] += 1
        notes.append(msg("shogun.log.plus_defence_of", c=loser))
    if s.event >= 0 and EV[s.event] == "castle_defence" and s.bld[dst] & CASTLE and s.supply[d] > 0:
        s.supply[d] -= 1
        thrown[d] += 1
        notes.append(msg("shogun.log.plus_castle_of", c=loser))
    head = _noted(head, notes)
    out = s.tower.throw(thrown, rng)
    a, b, g = out[seat], out[d], out[npl]
    if peasants_help(s, dst):
        s.supply[npl] += g
        allies = g
        _to_tray(s, out, (seat, d, npl))
        tower = _tower(s, out, (seat, d, npl))
    else:
        allies = 0
        _to_tray(s, out, (seat, d))
        tower = _tower(s, out, (seat, d))
    total = b + allies
    if a > total:
        s.supply[seat] += total
        s.supply[d] += b
        lose_province(s, dst)
        cleared = not s.options.conquest_keeps_revolt_markers and s.markers[dst] > 0
        if cleared:
            remove_markers(s, dst, s.markers[dst])
        s.owner[dst] = seat
        s.armies[dst] = a - total
        result = msg("shogun.log.takes", c=who, p=target, n=a - total)
        log.append(public(_fight(head, tower, result)))
        if cleared:
            log.append(public(msg("shogun.log.markers_leave", p=target)))
    elif total > a and b > 0:
        own_loss = max(0, a - allies)
        s.armies[dst] = b - own_loss
        s.supply[d] += own_loss
        s.supply[seat] += a
        result = msg("shogun.log.holds", c=loser, p=target, n=b - own_loss)
        log.append(public(_fight(head, tower, result)))
    else:
        s.supply[seat] += a
        s.supply[d] += b
        why = "shogun.log.peasant_tie" if total > a else "shogun.log.tie"
        log.append(public(_fight(head, tower, msg(why, p=target))))
        devastate(s, dst)


def peasants_help(s: State, prov: int) -> bool:
    mode = s.options.peasant_allies
    if mode is PeasantAllies.NO_MARKER:
        return s.markers[prov] == 0
    if mode is PeasantAllies.AT_MOST_ONE_MARKER:
        return s.markers[prov] <= 1
    return False


def _to_tray(s: State, out: list[int], parties: Sequence[int]) -> None:
    tray = s.tower.tray
    for o, n in enumerate(out):
        if n and o not in parties:
            tray[o] += n


def lose_province(s: State, prov: int) -> None:
    """The owner loses ``prov``'s card: cancel his pending actions there (rules §9.3)."""
    loser = s.owner[prov]
    if loser < 0:
        return
    entries = s.plan[loser]
    status = s.status[loser]
    for a in range(10):
        if entries[a] == prov and status[a] == PENDING:
            status[a] = CANCELLED
    if prov in s.hand[loser]:
        s.hand[loser].remove(prov)


def devastate(s: State, prov: int) -> None:
    """Rules §9.3: buildings and markers removed, the province becomes neutral."""
    lose_province(s, prov)
    for i, bit in enumerate(BUILDING_BITS):
        if s.bld[prov] & bit:
            s.bsupply[i] += 1
    s.bld[prov] = 0
    remove_markers(s, prov, s.markers[prov])
    s.owner[prov] = -1
    s.armies[prov] = 0


def _revolt(
    s: State, rng: Rng, seat: int, prov: int, peasants: int, winter: bool, log: list[LogEntry]
) -> bool:
    """A peasant revolt (rules §9.2, §10): True if the owner crushes it."""
    npl = s.players
    who = colour(seat)
    thrown = [0] * (npl + 1)
    peas = min(peasants, s.supply[npl])
    s.supply[npl] -= peas
    thrown[npl] = peas
    thrown[seat] = s.armies[prov]
    s.armies[prov] = 0
    notes: list[Term | Message] = []
    if s.options.defence_card_in_revolts and special_card(s, seat) == S_DEFENCE and s.supply[seat]:
        s.supply[seat] -= 1
        thrown[seat] += 1
        notes.append(Term("shogun.term.plus_defence_card"))
    if (
        s.options.castle_event_in_revolts
        and s.event >= 0
        and EV[s.event] == "castle_defence"
        and s.bld[prov] & CASTLE
        and s.supply[seat]
    ):
        s.supply[seat] -= 1
        thrown[seat] += 1
        notes.append(Term("shogun.term.plus_castle"))
    out = s.tower.throw(thrown, rng)
    a, g = out[seat], out[npl]
    _to_tray(s, out, (seat, npl))
    s.supply[npl] += g
    kind = "shogun.log.hunger_revolt" if winter else "shogun.log.revolt"
    where = province(prov)
    head = _noted(msg(kind, c=who, p=where, n=peas, n2=thrown[seat]), notes)
    tower = _tower(s, out, (seat, npl))
    if g >= a:
        s.supply[seat] += a
        log.append(public(_fight(head, tower, msg("shogun.log.peasants_win", p=where))))
        devastate(s, prov)
        return False
    s.armies[prov] = a - g
    s.supply[seat] += g
    log.append(public(_fight(head, tower, msg("shogun.log.crushes", c=who, n=a - g))))
    return True


# The views' ``battles``: what a player at the table sees of each fight (rules §9, §10), as
# data rather than as log text. Made once and never changed, so copies of a state share them.


def march_recorded(
    s: State, rng: Rng, seat: int, src: int, dst: int, n: int, log: list[LogEntry]
) -> None:
    """:func:`_march`, and when it is a battle (rules §9.1 a, b) its record."""
    defender = s.owner[dst]
    if defender == seat:
        _march(s, rng, seat, src, dst, n, log)
        return
    defenders = s.armies[dst]
    allies = defender >= 0 and peasants_help(s, dst)
    tray = s.tower.tray.copy()
    action = s.action_order[s.action_idx]
    attack_card = special_card(s, seat) == S_ATTACK
    defence_card = defender >= 0 and special_card(s, defender) == S_DEFENCE
    _march(s, rng, seat, src, dst, n, log)
    assert s.tower.last_throw is not None
    thrown, out = s.tower.last_throw
    bonus = []
    if attack_card and thrown[seat] - tray[seat] > n:
        bonus.append("attack_card")
    if defender >= 0:
        extra = thrown[defender] - tray[defender] - defenders
        if defence_card and extra > 0:
            bonus.append("defence_card")
            extra -= 1
        if extra > 0:
            bonus.append("castle")
    holder = s.owner[dst]
    if holder == seat:
        result = "taken"
    elif defender < 0:
        result = "neutral"
    elif holder == defender:
        result = "held"
    elif allies and out[defender] == 0 and out[s.players] > out[seat]:
        result = "peasant_tie"
    else:
        result = "tie"
    record_battle(
        s,
        "attack",
        action,
        seat,
        defender,
        dst,
        src,
        n,
        defenders,
        bonus,
        thrown,
        tray,
        out,
        allies,
        result,
    )


def revolt_recorded(
    s: State, rng: Rng, seat: int, prov: int, peasants: int, winter: bool, log: list[LogEntry]
) -> bool:
    """:func:`_revolt`, and its record (rules §9.1 c, §10)."""
    defenders = s.armies[prov]
    tray = s.tower.tray.copy()
    action = -1 if winter else s.action_order[s.action_idx]
    defence_card = special_card(s, seat) == S_DEFENCE
    crushed = _revolt(s, rng, seat, prov, peasants, winter, log)
    assert s.tower.last_throw is not None
    thrown, out = s.tower.last_throw
    npl = s.players
    bonus = []
    extra = thrown[seat] - tray[seat] - defenders
    if s.options.defence_card_in_revolts and defence_card and extra > 0:
        bonus.append("defence_card")
        extra -= 1
    if extra > 0:
        bonus.append("castle")
    record_battle(
        s,
        "hunger" if winter else "revolt",
        action,
        -1,
        seat,
        prov,
        -1,
        thrown[npl] - tray[npl],
        defenders,
        bonus,
        thrown,
        tray,
        out,
        False,
        "crushed" if crushed else "devastated",
    )
    return crushed


def record_battle(
    s: State,
    kind: str,
    action: int,
    attacker: int,
    defender: int,
    province: int,
    source: int,
    sent: int,
    defenders: int,
    bonus: list[str],
    thrown: list[int],
    tray: list[int],
    out: list[int],
    allies: bool,
    result: str,
) -> None:
    """Add a fight to ``s.battles``, which holds the latest year's only: between two of a
    player's moves (he plans every season) no fight is lost from sight."""
    season = SEASONS[s.season]
    if s.battles and s.battles[-1]["year"] != s.year:
        s.battles = []
    holder = s.owner[province]
    s.battles = [
        *s.battles,
        {
            "kind": kind,
            "year": s.year,
            "season": season,
            "action": None if action < 0 else action,
            "attacker": None if attacker < 0 else attacker,
            "defender": None if defender < 0 else defender,
            "province": province,
            "source": None if source < 0 else source,
            "sent": sent,
            "defenders": defenders,
            "bonus": bonus,
            "thrown": list(thrown),
            "tray": tray,
            "out": list(out),
            "allies": allies,
            "result": result,
            "holder": None if holder < 0 else holder,
            "survivors": s.armies[province],
        },
    ]

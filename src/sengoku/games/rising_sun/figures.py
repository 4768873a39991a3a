"""Figures and Strongholds on the board: where they are, their Force, killing and moving them.

Every figure has 1 Force unless a card says otherwise (rules §1, H); a Turtle Stronghold counts
1 Force in its province (§2.3); Ronin count only through Hire Ronin (§8.2). Oni of Skulls and
Oni of Blood have their higher Force where their owner has the lowest Honor among the clans
present, in a Battle among its participants (§16.3.4; option ``lowest_honor_alone``).
"""

from __future__ import annotations

from sengoku.core import Items, public
from sengoku.core.messages import Arg

from . import cards, honor
from .actions import what_name
from .cards import CARDS, EFFECT
from .engine import Log
from .honor import name, who
from .state import (
    BUSHI,
    DAIMYO,
    HOSTAGE,
    MONSTER,
    MONSTER_BASE,
    RESERVE,
    SHINTO,
    SHRINE,
    STRONGHOLD,
    State,
)
from .terms import SEMICOLON, card_named, figure, log_line, province

N_PROVINCES = 8


def new_piece(s: State, owner: int, kind: int, card: int, loc: int) -> int:
    """Add a piece row and return its index."""
    s.owner.append(owner)
    s.kind.append(kind)
    s.card.append(card)
    s.loc.append(loc)
    s.moves.append(0)
    return len(s.loc) - 1


def what(s: State, f: int) -> int:
    """A piece's type as actions name it: its kind, or MONSTER_BASE + card for a Monster."""
    return MONSTER_BASE + s.card[f] if s.kind[f] == MONSTER else s.kind[f]


def describe(s: State, f: int) -> str:
    """'Turtle's Oni of Skulls'."""
    return f"{name(s, s.owner[f])}'s {what_name(what(s, f))}"


def group(s: State, pieces: list[int]) -> Items:
    """'Daimyo, 2 Bushi, Oni of Skulls': pieces of one owner by type, counted."""
    counts: dict[int, int] = {}
    for f in pieces:
        counts[what(s, f)] = counts.get(what(s, f), 0) + 1
    named: list[Arg] = [
        figure(w) if n == 1 else log_line("count", n=n, f=figure(w))
        for w, n in sorted(counts.items())
    ]
    return Items(tuple(named))


def find(s: State, owner: int, piece: int, loc: int, unmoved: bool = False) -> int:
    """The first piece of ``owner`` of type ``piece`` at ``loc`` (unmoved ones if asked)."""
    f = first(s, owner, piece, loc, unmoved)
    if f < 0:
        raise LookupError(f"no {what_name(piece)} of seat {owner} at {loc}")
    return f


def first(s: State, owner: int, piece: int, loc: int, unmoved: bool = False) -> int:
    """Like :func:`find`, but -1 where there is no such piece."""
    kind = MONSTER if piece >= MONSTER_BASE else piece
    card = piece - MONSTER_BASE if piece >= MONSTER_BASE else -1
    owners, kinds, cards_, moves = s.owner, s.kind, s.card, s.moves
    for f in by_location(s)[loc]:
        if (
            owners[f] == owner
            and kinds[f] == kind
            and cards_[f] == card
            and not (unmoved and moves[f])
        ):
            return f
    return -1


#: Locations: the provinces, the shrines, a hostage place per seat (5 at most), the Reserve.
_LOCATIONS = HOSTAGE + 5 + 1


def by_location(s: State) -> list[list[int]]:
    """The pieces at each location, indexed by the location (a province, a shrine, a hostage
    place; the Reserve, -1, is the last list), each list in piece order: worked out once for
    an arrangement of the pieces and kept on the state while ``s.loc`` stays the same (copies
    of the state share it). Read it, never change it.

    >>> from sengoku.core import Rng
    >>> from .rules import RisingSun
    >>> s = RisingSun().setup(4, RisingSun.options_type(), Rng(1))
    >>> index = by_location(s)
    >>> index[RESERVE] == [f for f, where in enumerate(s.loc) if where == RESERVE]
    True
    >>> by_location(s) is index  # nothing moved
    True
    """
    kept = s.loc_index
    if kept is not None and kept[0] == s.loc:
        return kept[1]
    index: list[list[int]] = [[] for _ in range(_LOCATIONS)]
    for f, where in enumerate(s.loc):
        index[where].append(f)
    s.loc_index = (s.loc.copy(), index)
    return index


def is_figure(s: State, f: int) -> bool:
    """Figures are Daimyo, Shinto, Bushi and Monsters; Strongholds are not."""
    return s.kind[f] != STRONGHOLD


def daimyo_like(s: State, f: int) -> bool:
    """A Daimyo, or a Yurei, which counts as a Daimyo for immunities (§9.1)."""
    kind = s.kind[f]
    return kind == DAIMYO or (kind == MONSTER and CARDS[s.card[f]].counts_as_daimyo)


def is_oni(s: State, f: int) -> bool:
    return s.kind[f] == MONSTER and CARDS[s.card[f]].oni


def gives_force(s: State, f: int) -> bool:
    """Whether a piece adds Force where it stands: any figure, and Turtle's Strongholds."""
    return s.kind[f] != STRONGHOLD or honor.is_turtle(s, s.owner[f])


def at(s: State, loc: int) -> list[int]:
    """The pieces at ``loc``."""
    return list(by_location(s)[loc])


def reserve_of(s: State, seat: int) -> list[int]:
    """``seat``'s figures in its Reserve (Strongholds excluded)."""
    owner, kind = s.owner, s.kind
    return [f for f in by_location(s)[RESERVE] if owner[f] == seat and kind[f] != STRONGHOLD]


def strongholds_in_reserve(s: State, seat: int) -> int:
    owner, kind = s.owner, s.kind
    return sum(1 for f in by_location(s)[RESERVE] if owner[f] == seat and kind[f] == STRONGHOLD)


def stronghold_provinces(s: State, seat: int) -> list[int]:
    """The provinces holding at least one of ``seat``'s Strongholds, sorted."""
    index = by_location(s)
    owner, kind = s.owner, s.kind
    out = []
    for p in range(N_PROVINCES):
        for f in index[p]:
            if owner[f] == seat and kind[f] == STRONGHOLD:
                out.append(p)
                break
    return out


def present(s: State, p: int) -> list[int]:
    """The seats with Force in province ``p`` (figures, or Turtle Strongholds), in seat order."""
    return present_here(s, at(s, p))


def present_here(s: State, here: list[int]) -> list[int]:
    """The seats with Force among the pieces ``here`` (all at one place), in seat order."""
    seen = [False] * s.players
    owner = s.owner
    kind = s.kind
    for f in here:
        o = owner[f]
        if not seen[o] and (kind[f] != STRONGHOLD or honor.is_turtle(s, o)):
            seen[o] = True
    return [q for q in range(s.players) if seen[q]]


def figures_in(s: State, seat: int, p: int) -> list[int]:
    """``seat``'s figures (not Strongholds) in province ``p``."""
    owner, kind = s.owner, s.kind
    return [f for f in by_location(s)[p] if owner[f] == seat and kind[f] != STRONGHOLD]


def force_of(s: State, f: int, among: list[int], war: bool) -> int:
    """The Force of piece ``f`` in its province; ``among`` are the clans there for "lowest
    Honor" (all present clans, or a Battle's participants)."""
    kind = s.kind[f]
    owner = s.owner[f]
    if kind == STRONGHOLD:
        return 1 if honor.is_turtle(s, owner) else 0
    if kind == SHINTO:
        return 1
    if kind == DAIMYO:
        return 1 + cards.total(s, owner, "daimyo_force", "force")
    if kind == BUSHI:
        return _bushi_force(s, owner, war, s.loc[f])
    card = CARDS[s.card[f]]
    if card.effect == "lowest_honor_force" and _lowest(s, owner, among):
        return card.params["force"]
    return card.force


def _bushi_force(s: State, owner: int, war: bool, loc: int) -> int:
    """The Force of a Bushi of ``owner`` at ``loc``."""
    base = 1
    war_cards = 0  # Bushi War cards owned, and their Force
    war_force = 0
    might = 0
    for c in s.owned[owner]:  # as cards.copies and cards.total count them
        e = EFFECT[c]
        if e == "bushi_oni_force":
            might += CARDS[c].params["force"]
        elif e == "bushi_war_force":
            war_cards += 1
            war_force += CARDS[c].params["force"]
    if war and war_cards:
        base = max(base, war_force)
    if might and any(is_oni(s, g) for g in at(s, loc)):
        base += might
    return base


def _lowest(s: State, owner: int, among: list[int]) -> bool:
    others = [q for q in among if q != owner]
    if not others:
        return s.options.lowest_honor_alone
    return all(honor.higher(s, q, owner) for q in others)


def forces(s: State, p: int, war: bool, among: list[int] | None = None) -> list[int]:
    """Each seat's Force in province ``p``."""
    return forces_here(s, at(s, p), war, among)


def forces_here(s: State, here: list[int], war: bool, among: list[int] | None = None) -> list[int]:
    """Each seat's Force from the pieces ``here`` (all of one province, as :func:`at` lists
    them); ``among`` as for :func:`force_of`, by default the seats present."""
    out = [0] * s.players
    kind = s.kind
    owner = s.owner
    bushi = [0] * s.players  # a Bushi's Force, per owner, once worked out (at least 1)
    for f in here:
        k = kind[f]
        o = owner[f]
        if k == BUSHI:
            b = bushi[o]
            if not b:
                b = bushi[o] = _bushi_force(s, o, war, s.loc[f])
            out[o] += b
        elif k == STRONGHOLD:  # as force_of counts the rest
            if honor.is_turtle(s, o):
                out[o] += 1
        elif k == SHINTO:
            out[o] += 1
        elif k == DAIMYO:
            out[o] += 1 + cards.total(s, o, "daimyo_force", "force")
        else:  # a Monster: only Oni of the lowest Honor depend on ``among``
            card = CARDS[s.card[f]]
            if card.effect == "lowest_honor_force":
                if among is None:
                    among = present_here(s, here)
                out[o] += force_of(s, f, among, war)
            else:
                out[o] += card.force
    return out


def shrine_force(s: State, slot: int) -> list[int]:
    """Each seat's Force on a shrine: 1 per Shinto (or Komainu) worshipping there (§6.3)."""
    out = [0] * s.players
    owner = s.owner
    for f in by_location(s)[SHRINE + slot]:
        out[owner[f]] += 1
    return out


def strongest(s: State, values: list[int], seats: list[int] | None = None) -> int:
    """The seat with the most of ``values`` (a tie goes to Honor); -1 if nobody has any."""
    pool = [q for q in (range(s.players) if seats is None else seats) if values[q] > 0]
    if not pool:
        return -1
    top = max(values[q] for q in pool)
    return honor.best(s, [q for q in pool if values[q] == top])


# ---------------------------------------------------------------------- killing


def kill(s: State, killer: int, victims: list[int], log: Log, why: str, **args: Arg) -> int:
    """Kill figures (to their owners' Reserves) and score what killing them gives: Righteousness
    for the victims' owners (their own figures, Seppuku too), Justice for the killer per
    lower-Honor clan it killed (§9). ``why`` names the log line (``"killed_seppuku"``:
    'Koi commits Seppuku: Koi's 2 Bushi killed in Edo', with ``args`` besides the victims ``x``
    and the province ``p``). The victims stand in one province. Return how many died."""
    if not victims:
        return 0
    (spot,) = {s.loc[f] for f in victims}
    by_owner: dict[int, list[int]] = {}
    for f in victims:
        by_owner.setdefault(s.owner[f], []).append(f)
    words = Items(
        tuple(
            log_line("pieces", c=who(s, owner), x=group(s, pieces))
            for owner, pieces in by_owner.items()
        ),
        SEMICOLON,
    )
    for f in victims:
        s.loc[f] = RESERVE
        s.moves[f] = 0
    log.append(public(log_line(why, x=words, p=province(spot), **args)))
    for owner, pieces in by_owner.items():
        vp = cards.total(s, owner, "own_killed_vp", "vp") * len(pieces)
        honor.gain_vp(s, owner, vp, log, "vp_card", d=card_named("Righteousness"))
        if killer >= 0 and owner != killer and honor.higher(s, killer, owner):
            vp = cards.total(s, killer, "kill_lower_honor_vp", "vp")
            honor.gain_vp(s, killer, vp, log, "vp_card", d=card_named("Justice"))
    return len(victims)


# ---------------------------------------------------------------------- moving


def toll(s: State, seat: int, src: int, dst: int) -> list[tuple[int, int]]:
    """Path of the Serpent: (owner, coins) each other owner charges for this Move, if it uses
    a Shipping Route (once per route use, FAQ §12). Dragonfly's flight uses no route, nor
    does Way of Naginata's move 'to any province' (the caller leaves those out)."""
    return route_fees(s, seat) if uses_route(s, seat, src, dst) else []


def uses_route(s: State, seat: int, src: int, dst: int) -> bool:
    """Whether ``seat``'s Move from ``src`` to ``dst`` uses a Shipping Route (see :func:`toll`)."""
    return not honor.is_dragonfly(s, seat) and s.board.is_route(src, dst)


def route_fees(s: State, seat: int) -> list[tuple[int, int]]:
    """What every other owner of Path of the Serpent charges ``seat`` for one route use."""
    return [
        (o, cards.total(s, o, "route_toll", "coins"))
        for o in cards.owners(s, "route_toll")
        if o != seat
    ]

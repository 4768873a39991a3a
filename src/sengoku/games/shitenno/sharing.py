"""The even year of Shitenno, the sharing (§4.3): the Tairo lays out cards, builds lots card by
card with one hierarchy tile each, offers each lot down the title order; the last player
without a lot takes what is left; hierarchy tiles become titles.

:func:`act` carries out one sharing action and says whether the sharing is over; what
follows it (the end check, the odd year) is :mod:`.rounds`' business.
"""

from __future__ import annotations

from sengoku.core import Items, LogEntry, Rng, Term, msg, public

from .actions import (
    Accept,
    AddKoku,
    AddTile,
    AddTroop,
    Offer,
    Refuse,
    ShitennoAction,
    TakeLast,
)
from .board import NKINDS, cards_held, draw_troop, kinds, reshuffle, values
from .messages import COMMA, colour, lot, title, troop_card
from .options import LastLotChooser, Reshuffle
from .state import NO_TITLE, Phase, State

__all__ = [
    "act",
    "begin_sharing",
    "build_actions",
    "last_lot_actions",
    "last_player",
    "offer_order",
    "sharing_line",
    "title_order",
    "titles_line",
]

_ANSWERS: tuple[ShitennoAction, ...] = (Accept(), Refuse())
_ADD_TROOPS = tuple(AddTroop(k) for k in range(NKINDS))
_ADD_KOKUS = (AddKoku(0), AddKoku(1), AddKoku(2), AddKoku(3))


def begin_sharing(s: State, rng: Rng) -> list[LogEntry]:
    """An even year: the holder of the highest title is Tairo and lays out the cards."""
    opts, n = s.options, s.players
    s.phase = Phase.BUILD
    s.tairo = min(range(n), key=s.titles.__getitem__)
    s.pool_troops = [0] * NKINDS
    s.pool_koku = [0, 0, 0, 0]
    s.lot_troops = [0] * NKINDS
    s.lot_koku = [0, 0, 0, 0]
    s.lot_tile = NO_TITLE
    s.lot_of = [NO_TITLE] * n
    s.offer_queue = []
    s.tiles_left = list(range(4)) if opts.all_titles_available else list(range(n))
    s.order, s.turn, s.placed = [], 0, 0
    want = opts.draw_troops_per_player * n
    if opts.troop_reshuffle is Reshuffle.BEFORE_SHARING and len(s.troop_deck) < want:
        reshuffle(s, rng)
    for _ in range(want):
        kind = draw_troop(s, rng)
        if kind is None:
            break
        s.pool_troops[kind] += 1
    for _ in range(min(opts.draw_koku_per_player * n, len(s.koku_deck))):
        s.pool_koku[s.koku_deck.pop()] += 1
    return [sharing_line(s)]


def sharing_line(s: State) -> LogEntry:
    """The public line that opens a sharing: the Tairo and the cards laid out."""
    return public(
        msg(
            "shitenno.log.even",
            n=s.year // 2 + 1,
            c=colour(s.tairo),
            x=cards_held(s.pool_troops, s.pool_koku),
        )
    )


def title_order(s: State) -> list[int]:
    """The seats in title order, highest first (§2.5)."""
    return sorted(range(s.players), key=s.titles.__getitem__)


def titles_line(s: State) -> Items:
    """Each general's title, in title order: ``Red Daimyo, Blue Shomyo``."""
    return Items(
        tuple(
            msg("shitenno.log.seat_title", c=colour(p), a=title(s.titles[p]))
            for p in title_order(s)
        ),
        COMMA,
    )


def offer_order(s: State) -> list[int]:
    """The players without a lot, other than the Tairo, in title order (§4.3 step 4)."""
    return sorted(
        (p for p in range(s.players) if s.lot_of[p] == NO_TITLE and p != s.tairo),
        key=s.titles.__getitem__,
    )


def build_actions(s: State) -> list[ShitennoAction]:
    """The Tairo's next step: a face-up card or a hierarchy tile into the lot, or the offer
    (§4.3 step 3; an empty lot under G13)."""
    acts: list[ShitennoAction] = [_ADD_TROOPS[k] for k in range(NKINDS) if s.pool_troops[k]]
    acts += [_ADD_KOKUS[v] for v in (1, 2, 3) if s.pool_koku[v]]
    if s.lot_tile == NO_TITLE:
        acts += [AddTile(t) for t in s.tiles_left]
    elif (
        s.options.empty_lots
        or any(s.lot_troops)
        or any(s.lot_koku)
        or not (any(s.pool_troops) or any(s.pool_koku))
    ):
        acts.append(
            Offer(
                tuple(kinds(s.lot_troops)),
                tuple(values(s.lot_koku)),
                s.lot_tile,
                offer_order(s)[0],
            )
        )
    return acts


def answers() -> list[ShitennoAction]:
    """Accept or refuse the lot offered (§4.3 step 4)."""
    return list(_ANSWERS)


def last_lot_actions(s: State) -> list[ShitennoAction]:
    """The hierarchy tiles the last lot may take (§4.3 step 5, G9), picked by the Tairo: the
    last player himself, or under option ``last_lot_tile_chooser='tairo'`` the keeper of the
    last lot offered."""
    return [TakeLast(t) for t in s.tiles_left]


def act(s: State, seat: int, action: ShitennoAction, log: list[LogEntry]) -> bool:
    """Carry out a sharing action; True when it ended the sharing (titles handed out)."""
    name = colour(seat)
    if isinstance(action, AddTroop):
        s.pool_troops[action.kind] -= 1
        s.lot_troops[action.kind] += 1
        log.append(public(msg("shitenno.log.add_troop", c=name, x=troop_card(action.kind))))
    elif isinstance(action, AddKoku):
        s.pool_koku[action.value] -= 1
        s.lot_koku[action.value] += 1
        log.append(public(msg("shitenno.log.add_koku", c=name, n=action.value)))
    elif isinstance(action, AddTile):
        s.tiles_left.remove(action.title)
        s.lot_tile = action.title
        log.append(public(msg("shitenno.log.add_tile", c=name, a=title(action.title))))
    elif isinstance(action, Offer):
        s.offer_queue = offer_order(s)
        s.phase = Phase.OFFER
        to = colour(s.offer_queue[0])
        log.append(public(msg("shitenno.log.offers", c=name, x=_lot(s), c2=to)))
    elif isinstance(action, Accept):
        log.append(public(msg("shitenno.log.accepts", c=name, x=_lot(s))))
        _give_lot(s, seat)
        s.phase = Phase.BUILD
        return _after_lot(s, log)
    elif isinstance(action, Refuse):
        s.offer_queue.pop(0)
        log.append(public(msg("shitenno.log.refuses", c=name)))
        if s.offer_queue:
            log.append(public(msg("shitenno.log.offered", c=colour(s.offer_queue[0]))))
        else:  # everyone refused: the Tairo keeps it and hands the role on (§4.3 step 4)
            keeper = s.tairo
            log.append(public(msg("shitenno.log.keeps", c=colour(keeper), x=_lot(s))))
            _give_lot(s, keeper)
            s.phase = Phase.BUILD
            waiting = [p for p in range(s.players) if s.lot_of[p] == NO_TITLE]
            if (
                len(waiting) == 1
                and len(s.tiles_left) > 1
                and s.options.last_lot_tile_chooser is LastLotChooser.TAIRO
            ):
                s.phase = Phase.LAST  # G9: the keeper stays Tairo and picks the last lot's tile
                return False
            s.tairo = min(waiting, key=s.titles.__getitem__)
            log.append(public(msg("shitenno.log.tairo", c=colour(s.tairo))))
            return _after_lot(s, log)
    elif isinstance(action, TakeLast):
        _take_last(s, action.title, log)
        return True
    return False


def _lot(s: State) -> Items | Term:
    return lot(
        kinds(s.lot_troops),
        values(s.lot_koku),
        None if s.lot_tile == NO_TITLE else s.lot_tile,
    )


def _give_lot(s: State, seat: int) -> None:
    hand_t, hand_k = s.hand_troops[seat], s.hand_koku[seat]
    for k in range(NKINDS):
        hand_t[k] += s.lot_troops[k]
    for v in (1, 2, 3):
        hand_k[v] += s.lot_koku[v]
    s.lot_of[seat] = s.lot_tile
    s.lot_troops = [0] * NKINDS
    s.lot_koku = [0, 0, 0, 0]
    s.lot_tile = NO_TITLE
    s.offer_queue = []


def _after_lot(s: State, log: list[LogEntry]) -> bool:
    """After a lot has gone: when only the Tairo is left, the last lot (§4.3 step 5); True
    when that ended the sharing."""
    waiting = [p for p in range(s.players) if s.lot_of[p] == NO_TITLE]
    if len(waiting) > 1:
        return False
    s.tairo = waiting[0]
    if len(s.tiles_left) == 1:
        _take_last(s, s.tiles_left[0], log)
        return True
    s.phase = Phase.LAST
    return False


def last_player(s: State) -> int:
    """The one player without a lot, once the others all have one (§4.3 step 5)."""
    return s.lot_of.index(NO_TITLE)


def _take_last(s: State, tile: int, log: list[LogEntry]) -> None:
    """The last player takes every card left and a hierarchy tile; the tiles become titles
    (§4.3 steps 5 and 6)."""
    seat = last_player(s)
    left = cards_held(s.pool_troops, s.pool_koku)
    s.lot_troops, s.pool_troops = s.pool_troops, [0] * NKINDS
    s.lot_koku, s.pool_koku = s.pool_koku, [0, 0, 0, 0]
    s.tiles_left.remove(tile)
    s.lot_tile = tile
    log.append(public(msg("shitenno.log.last", c=colour(seat), x=left, a=title(tile))))
    _give_lot(s, seat)
    s.titles = s.lot_of.copy()
    s.tiles_left = []
    log.append(public(msg("shitenno.log.titles", x=titles_line(s))))

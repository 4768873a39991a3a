"""Clans at the table: names, seating, the Honor track, and gains of VP, Coins and Ronin.

Honor is a strict order (rules §3, §16.5, H): ``state.honor`` lists the seats from the top.
Any tie is won by the tied clan with the highest Honor.

Gains happen inside *events* (rules §12, §15.5, FAQ, H): all that one Mandate, one Kami's
ability, one War Advantage or the start of War gives is one event, so Loyalty (+1 VP for an
allied owner who gained VP) and Way of the Merchant (+1 Coin when a richer clan took Coins from
the pile) fire once per event. "Richer" compares the Coins held when the event began (our
reading, documented in ``docs/rising_sun.md``); the Merchant's own Coin starts no new event.
"""

from __future__ import annotations

from sengoku.core import Term, public
from sengoku.core.messages import Arg, Items

from . import cards, terms
from .data import load_data
from .engine import QUIET, Log, task
from .state import WINTER, State
from .terms import (
    HONOR_SEP,
    card,
    card_named,
    clan,
    counted,
    log_line,
    seat_term,
)

D = load_data()
CLAN_NAMES = terms.CLAN_NAMES
#: seats are people; each plays a clan, which logs and actions name
SEAT_NAMES = terms.SEAT_NAMES

#: Each clan's ability key, by clan number (read on hot paths instead of the clan's data).
ABILITY: tuple[str, ...] = tuple(c.ability for c in D.clans)

T_EVENT_OPEN = 100
T_EVENT_CLOSE = 101


def name(s: State, seat: int) -> str:
    """The clan name of ``seat`` (its seat name before clans are given)."""
    number = s.clan[seat]
    return CLAN_NAMES[number] if number >= 0 else SEAT_NAMES[seat]


def who(s: State, seat: int) -> Term:
    """``seat`` as the log names it: its clan (its seat before clans are given), a term that
    names the seat."""
    number = s.clan[seat]
    return clan(number, seat) if number >= 0 else seat_term(seat)


def ability(s: State, seat: int) -> str:
    """The key of ``seat``'s clan ability (``"eddies_in_the_stream"`` for Koi, ...)."""
    return ABILITY[s.clan[seat]]


def is_koi(s: State, seat: int) -> bool:
    return ability(s, seat) == "eddies_in_the_stream"


def is_lotus(s: State, seat: int) -> bool:
    return ability(s, seat) == "dictate_the_flow"


def is_turtle(s: State, seat: int) -> bool:
    return ability(s, seat) == "shell_of_the_eternal"


def is_dragonfly(s: State, seat: int) -> bool:
    return ability(s, seat) == "gossamer_wings"


def is_bonsai(s: State, seat: int) -> bool:
    return ability(s, seat) == "sacred_bounty"


def left(s: State, seat: int) -> int:
    """The seat to the left of ``seat``: the next clan clockwise (rules §2.1, §6.1)."""
    order = s.order
    return order[(order.index(seat) + 1) % len(order)]


def clockwise_from(s: State, seat: int) -> list[int]:
    """All seats clockwise, starting with ``seat``."""
    order = s.order
    i = order.index(seat)
    return order[i:] + order[:i]


def allied(s: State, a: int, b: int) -> bool:
    return a != b and s.ally[a] == b


# ---------------------------------------------------------------------- Honor (§3)


def rank(s: State, seat: int) -> int:
    """0 for the top of the Honor track."""
    return s.honor.index(seat)


def higher(s: State, a: int, b: int) -> bool:
    """Whether ``a`` has more Honor than ``b``."""
    return s.honor.index(a) < s.honor.index(b)


def best(s: State, seats: list[int]) -> int:
    """The seat of ``seats`` with the highest Honor."""
    return min(seats, key=s.honor.index)


def gain_honor(s: State, seat: int, steps: int, log: Log) -> None:
    """Move up ``steps`` slots, one swap with the clan above at a time (§3)."""
    moved = 0
    for _ in range(steps):
        i = s.honor.index(seat)
        if i == 0:
            break
        s.honor[i - 1], s.honor[i] = s.honor[i], s.honor[i - 1]
        moved += 1
    if moved:
        key = "honor_up_1" if moved == 1 else "honor_up_n"
        log.append(public(log_line(key, c=who(s, seat), n=moved, x=_track(s))))


def lose_honor(s: State, seat: int, steps: int, log: Log) -> None:
    """Move down ``steps`` slots, one swap with the clan below at a time (§3)."""
    moved = 0
    for _ in range(steps):
        i = s.honor.index(seat)
        if i == len(s.honor) - 1:
            break
        s.honor[i + 1], s.honor[i] = s.honor[i], s.honor[i + 1]
        moved += 1
    if moved:
        key = "honor_down_1" if moved == 1 else "honor_down_n"
        log.append(public(log_line(key, c=who(s, seat), n=moved, x=_track(s))))


def honor_to_top(s: State, seat: int, log: Log) -> None:
    """Amaterasu: straight to the top; every clan that was above drops one slot (§6.4)."""
    if s.honor[0] == seat:
        log.append(public(log_line("honor_highest", c=who(s, seat))))
        return
    s.honor.remove(seat)
    s.honor.insert(0, seat)
    log.append(public(log_line("honor_top", c=who(s, seat), x=_track(s))))


def _track(s: State) -> Items:
    """The Honor track from the top: 'Koi > Lotus > Turtle'."""
    return Items(tuple(who(s, p) for p in s.honor), HONOR_SEP)


# ---------------------------------------------------------------------- gains and events


def open_event(s: State) -> None:
    """Begin an event: remember the Coins everyone holds for Way of the Merchant."""
    s.ev_open = True
    s.ev_before[:] = s.coins
    s.ev_vp[:] = [False] * s.players
    s.ev_coin[:] = [False] * s.players


def close_event(s: State, log: Log) -> None:
    """End an event: Loyalty and Way of the Merchant fire once for it (rules §12)."""
    s.ev_open = False
    loyal = s.phase < WINTER or s.options.loyalty_in_winter
    for p in range(s.players):
        if loyal and s.ev_vp[p] and allied_now(s, p):
            extra = cards.total(s, p, "allied_vp_bonus", "vp")
            if extra:
                s.vp[p] += extra
                line = log_line("vp_card", c=who(s, p), n=extra, d=card_named("Loyalty"))
                log.append(public(line))
    before = s.ev_before
    for m in cards.owners(s, "merchant"):
        if any(s.ev_coin[g] and before[g] > before[m] for g in range(s.players) if g != m):
            extra = from_pile(
                s, s.coins, D.game.supply.coins, cards.total(s, m, "merchant", "coins")
            )
            if not extra:
                continue
            s.coins[m] += extra
            line = log_line(counted("coins_merchant", extra), c=who(s, m), n=extra)
            log.append(public(line))


def allied_now(s: State, seat: int) -> bool:
    """Whether ``seat`` has an ally now (in Winter: the Autumn ally, unless the Cleanup ended
    the alliance under option ``alliance_into_winter``)."""
    return s.ally[seat] >= 0


@task(T_EVENT_OPEN)
def _event_open(s: State, rng: object, log: Log) -> None:
    open_event(s)


@task(T_EVENT_CLOSE)
def _event_close(s: State, rng: object, log: Log) -> None:
    close_event(s, log)


def gain_vp(s: State, seat: int, n: int, log: Log, why: str = "", **args: Arg) -> None:
    """``seat`` gains ``n`` VP (one VP gain of the current event, or an event of its own).
    ``why`` names the log line (``"vp_card"``: rising_sun.log.vp_card, with ``args`` besides
    the clan ``c`` and the number ``n``); without it the gain is not logged."""
    _gain(s, seat, n, log, s.vp, s.ev_vp, why, args)


def gain_coins(s: State, seat: int, n: int, log: Log, why: str = "", **args: Arg) -> None:
    """``seat`` takes ``n`` Coins from the common pile (within the event, or one of its own),
    or what is left of it (:func:`from_pile`); ``why`` as for :func:`gain_vp`, counted
    (``"coins_kami"``: coins_kami_1 or coins_kami_n)."""
    n = from_pile(s, s.coins, D.game.supply.coins, n)
    _gain(s, seat, n, log, s.coins, s.ev_coin, counted(why, n) if why else "", args)


def from_pile(s: State, held: list[int], box: int, n: int) -> int:
    """How many of ``n`` Coins or Ronin the common pile gives: all of them, or with the
    option ``box_supply`` no more than the box's ``box`` less those the clans ``held``
    (rules §17.5). Coins and Ronin spent or discarded go back to the pile.

    >>> from types import SimpleNamespace as Space
    >>> s = Space(options=Space(box_supply=True))
    >>> from_pile(s, [30, 30], 65, 8), from_pile(s, [40, 30], 65, 8)
    (5, 0)
    >>> from_pile(Space(options=Space(box_supply=False)), [40, 30], 65, 8)
    8
    """
    if not s.options.box_supply:
        return n
    return max(0, min(n, box - sum(held)))


def _gain(
    s: State,
    seat: int,
    n: int,
    log: Log,
    counts: list[int],
    marks: list[bool],
    key: str,
    args: dict[str, Arg],
) -> None:
    if n <= 0:
        return
    alone = not s.ev_open
    if alone:
        open_event(s)
    counts[seat] += n
    marks[seat] = True
    if key and log is not QUIET:
        log.append(public(log_line(key, c=who(s, seat), n=n, **args)))
    if alone:
        close_event(s, log)


def gain_ronin(s: State, seat: int, n: int, log: Log, why: str = "", **args: Arg) -> None:
    """``seat`` takes ``n`` Ronin tokens from the common pile, or what is left of it
    (:func:`from_pile`; ``why`` as for :func:`gain_vp`)."""
    n = from_pile(s, s.ronin, D.game.supply.ronin, n)
    if n <= 0:
        return
    s.ronin[seat] += n
    if why:
        log.append(public(log_line(why, c=who(s, seat), n=n, **args)))


def steal_vp(s: State, thief: int, victim: int, n: int, log: Log, why: int = -1) -> int:
    """Move up to ``n`` VP from ``victim`` to ``thief`` (none below 0); return how many.
    The theft is logged as done by Season card ``why``, unless it is -1 (the caller tells it)."""
    got = min(n, s.vp[victim])
    if got:
        s.vp[victim] -= got
        gain_vp(s, thief, got, log)
        if why >= 0:
            line = log_line("steals_vp", c=who(s, thief), n=got, c2=who(s, victim), d=card(why))
            log.append(public(line))
    return got

"""The words of Rising Sun's messages: log lines and action descriptions as catalog keys with
typed arguments (:mod:`sengoku.core.messages`), rendered from ``web/i18n/rising_sun.<lang>.json``.

A clan (or, before the clans are given, a seat) is a term that names its seat; provinces,
Kami, Mandates, Season cards, figures, War Advantages and seasons are terms of the catalog.

>>> from sengoku.core import render
>>> from sengoku.games.catalog import catalog
>>> line = log_line("summons", c=clan(2, 1), f=figure(2), p=province(3))
>>> render(line, catalog("rising_sun"))
'Turtle summons Bushi in Kyōto'
>>> render(line, catalog("rising_sun", "ja"))
'亀が京都に武士を召喚する'
>>> counted("coins_kami", 1), counted("coins_kami", 3)
('coins_kami_1', 'coins_kami_n')
"""

from __future__ import annotations

from collections.abc import Sequence

from sengoku.core.messages import Arg, Items, Message, Term, msg

from .data import load_data
from .state import KIND_NAMES, MONSTER_BASE, SEASON_NAMES

D = load_data()
CLAN_NAMES = tuple(c.name for c in D.clans)
PROVINCE_NAMES = D.province_names
KAMI_NAMES = tuple(k.name for k in D.kami)
MANDATE_NAMES = tuple(D.game.mandates.names)
ADVANTAGE_NAMES = tuple(D.game.advantages.names)
CARD_NAMES = tuple(c.name for c in D.cards)
#: seats are people; each plays a clan, which logs and actions name
SEAT_NAMES = ("Player 1", "Player 2", "Player 3", "Player 4", "Player 5")

SCOPE = "rising_sun"
#: separators of the game's own lists (the Honor track, the four bids of a clan)
HONOR_SEP = "rising_sun.sep.honor"
SLASH_SEP = "rising_sun.sep.slash"
SEMICOLON = "ui.sep.semicolon"

# The terms are made once (they are immutable): a log line costs a lookup, not a new term.
_PROVINCE_TERMS = tuple(Term(f"rising_sun.province.{name}") for name in PROVINCE_NAMES)
_KAMI_TERMS = tuple(Term(f"rising_sun.kami.{name}") for name in KAMI_NAMES)
_MANDATE_TERMS = tuple(Term(f"rising_sun.mandate.{name}") for name in MANDATE_NAMES)
_ADVANTAGE_TERMS = tuple(Term(f"rising_sun.advantage.{name}") for name in ADVANTAGE_NAMES)
_CARD_TERMS = tuple(Term(f"rising_sun.card.{name}") for name in CARD_NAMES)
_CLAN_TERMS = {
    (n, seat): Term(f"rising_sun.clan.{name}", seat)
    for n, name in enumerate(CLAN_NAMES)
    for seat in (None, *range(len(SEAT_NAMES)))
}
_KIND_TERMS = tuple(Term(f"rising_sun.kind.{name}") for name in KIND_NAMES)


def log_line(key: str, **args: Arg) -> Message:
    """A log line's message: ``rising_sun.log.<key>``."""
    return msg(f"rising_sun.log.{key}", **args)


def act(key: str, **args: Arg) -> Message:
    """An action's description: ``rising_sun.act.<key>``."""
    return msg(f"rising_sun.act.{key}", **args)


def counted(key: str, n: int) -> str:
    """The key of a line that counts Coins: ``<key>_1`` for one, ``<key>_n`` for more."""
    return f"{key}_1" if n == 1 else f"{key}_n"


def clan(number: int, seat: int | None = None) -> Term:
    """Clan ``number`` (an index into the clans), naming ``seat`` when given."""
    got = _CLAN_TERMS.get((number, seat))
    return got if got is not None else Term(f"rising_sun.clan.{CLAN_NAMES[number]}", seat)


def seat_term(seat: int) -> Term:
    """A seat by its player name (before the clans are given)."""
    return Term(f"rising_sun.colour.{SEAT_NAMES[seat]}", seat)


def province(p: int) -> Term:
    return _PROVINCE_TERMS[p]


def kami(k: int) -> Term:
    return _KAMI_TERMS[k]


def mandate(m: int) -> Term:
    return _MANDATE_TERMS[m]


def advantage(a: int) -> Term:
    return _ADVANTAGE_TERMS[a]


def card(c: int) -> Term:
    """A Season card (by its index; copies share their name)."""
    return _CARD_TERMS[c]


def card_named(name: str) -> Term:
    """A Season card by its name (``"Loyalty"``)."""
    if name not in CARD_NAMES:
        raise KeyError(f"no Season card is named {name!r}")
    return Term(f"rising_sun.card.{name}")


def season(i: int) -> Term:
    return Term(f"rising_sun.season.{SEASON_NAMES[i]}")


def figure(what: int) -> Term:
    """A piece type as actions name it: a kind, or ``MONSTER_BASE`` + a Monster's card."""
    if what >= MONSTER_BASE:
        return card(what - MONSTER_BASE)
    return _KIND_TERMS[what]


def items(values: Sequence[Arg], sep: str = "ui.sep.comma") -> Items:
    """A list of arguments shown as one, joined by the catalog's entry ``sep``."""
    return Items(tuple(values), sep)

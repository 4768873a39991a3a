"""Shitenno's words in messages (:mod:`sengoku.core.messages`): the catalog terms of colours,
provinces, titles, troop and koku cards, bonus tiles and payments, and how an action is named.

The notation writes a troop card by its code (``Sa``, ``BuSh``); a person reads its troops
(``Samurai``, ``Bushi+Shinobi``), in every language:

>>> from sengoku.core import render
>>> from sengoku.games.shitenno.actions import AddTroop, Place, kind_of_code
>>> render(action_message(AddTroop(kind_of_code("BuSh"))), CATALOG)
'add troop Bushi+Shinobi to the lot'
>>> render(action_message(Place(0, False, (1, 1, 6), (), exchange=1, wild=True)), CATALOG)
'place Chugoku paying troops Samurai, Samurai, Bushi+Shinobi using Exchange, Hatamoto'
>>> render(action_message(Place(7, True, (), (3, 2))), CATALOG)
'place Kanto paying koku 3+2'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sengoku.core import Items, Message, Term, msg

from ..catalog import catalog
from .actions import (
    COLOURS,
    PROVINCE_NAMES,
    TITLE_NAMES,
    Accept,
    AddKoku,
    AddTile,
    AddTroop,
    EndTurn,
    Flip,
    NoFlip,
    Offer,
    Place,
    Refuse,
    ShitennoAction,
    TakeLast,
    Target,
    UseDraw,
)
from .data import DATA, KIND_UNITS, TROOP_NAMES

CATALOG = catalog("shitenno")
COMMA = "ui.sep.comma"
SEMICOLON = "ui.sep.semicolon"
EFFECTS = tuple(e.name for e in DATA.bonus.effects)
HATAMOTO = 3

# The terms are made once (they are immutable): a log line costs a lookup, not a new term.
_COLOUR_TERMS = tuple(Term(f"shitenno.colour.{c}", seat=s) for s, c in enumerate(COLOURS))
_PROVINCE_TERMS = tuple(Term(f"shitenno.province_log.{name}") for name in PROVINCE_NAMES)
_TITLE_TERMS = tuple(Term(f"shitenno.rank.{name}") for name in TITLE_NAMES)
_TROOP_TERMS = tuple(Term(f"shitenno.troop.{name}") for name in TROOP_NAMES)
_EFFECT_TERMS = tuple(Term(f"shitenno.effect.{name}") for name in EFFECTS)


def colour(seat: int) -> Term:
    """A general, by his colour (shitenno.md §2.6)."""
    return _COLOUR_TERMS[seat]


def province(p: int) -> Term:
    return _PROVINCE_TERMS[p]


def title(t: int) -> Term:
    """A title, or the hierarchy tile that gives it (0 Daimyo ... 3 Hatamoto)."""
    return _TITLE_TERMS[t]


def troop(t: int) -> Term:
    """A troop type (0 Bushi, 1 Samurai, 2 Shinobi, 3 Sohei)."""
    return _TROOP_TERMS[t]


def effect(e: int) -> Term:
    """A bonus tile's effect (0 Exchange, 1 +1, 2 Draw)."""
    return _EFFECT_TERMS[e]


def troop_card(kind: int) -> Term | Message:
    """A troop card of a kind: a single troop, or a double card's two."""
    units = KIND_UNITS[kind]
    if len(units) == 1:
        return troop(units[0])
    return msg("shitenno.card.double", t=troop(units[0]), t2=troop(units[1]))


def koku_card(value: int) -> Term:
    return Term(f"shitenno.term.koku_{value}")


def cards(troops: Iterable[int], kokus: Iterable[int], empty: str) -> Items | Term:
    """Troop cards (by kind) then koku cards (by value); the term ``empty`` for none."""
    parts = [troop_card(k) for k in troops] + [koku_card(v) for v in kokus]
    return Items(tuple(parts), COMMA) if parts else Term(empty)


def lot(troops: Sequence[int], kokus: Sequence[int], tile: int | None) -> Items | Term:
    """A lot (shitenno.md §4.3): its cards, then its hierarchy tile."""
    parts: list[Term | Message] = [troop_card(k) for k in troops]
    parts += [koku_card(v) for v in kokus]
    if tile is not None:
        parts.append(title(tile))
    return Items(tuple(parts), COMMA) if parts else Term("shitenno.term.nothing")


def bonus_tile(code: int) -> Message:
    """Taking a bonus tile (code ``troop * 3 + effect``): its effect and troop face."""
    return msg("shitenno.log.bonus_tile", e=effect(code % 3), k=troop(code // 3))


def payment(place: Place) -> Message:
    """What a placement pays (shitenno.md §3.1-§3.2, §4.5): koku or troops, the cards, and
    the tiles or the Hatamoto's troop it uses."""
    troops = [troop_card(k) for k in place.troops]
    if place.koku:
        parts: list[Items | Term | Message] = []
        if place.kokus:
            parts.append(Items(tuple(place.kokus), "shitenno.sep.plus"))
        paid = msg("shitenno.pay.koku", x=Items((*parts, *troops), COMMA))
    else:
        koku = [koku_card(v) for v in place.kokus]
        paid = msg("shitenno.pay.troops", x=Items((*troops, *koku), COMMA))
    extras: list[Term | Message] = []
    for e, count in ((0, place.exchange), (1, place.plus)):
        if count == 1:
            extras.append(effect(e))
        elif count > 1:
            extras.append(msg("shitenno.pay.times", e=effect(e), n=count))
    if place.wild:
        extras.append(title(HATAMOTO))
    if not extras:
        return paid
    return msg("shitenno.pay.using", pay=paid, tiles=Items(tuple(extras), COMMA))


def action_message(action: ShitennoAction) -> Message:
    """How a person reads ``action`` (the catalog's ``shitenno.act.*``)."""
    if isinstance(action, AddTroop):
        return msg("shitenno.act.add_troop", x=troop_card(action.kind))
    if isinstance(action, AddKoku):
        return msg("shitenno.act.add_koku", n=action.value)
    if isinstance(action, AddTile):
        return msg("shitenno.act.add_tile", a=title(action.title))
    if isinstance(action, Offer):
        x = lot(action.troops, action.koku, action.title)
        return msg("shitenno.act.offer", x=x, c=colour(action.to))
    if isinstance(action, Accept):
        return msg("shitenno.act.accept")
    if isinstance(action, Refuse):
        return msg("shitenno.act.refuse")
    if isinstance(action, TakeLast):
        return msg("shitenno.act.take_last", a=title(action.title))
    if isinstance(action, Target):
        return msg("shitenno.act.control", p=province(action.province))
    if isinstance(action, Place):
        return msg("shitenno.act.place", p=province(action.province), x=payment(action))
    if isinstance(action, UseDraw):
        return msg("shitenno.act.draw_koku" if action.koku else "shitenno.act.draw")
    if isinstance(action, Flip):
        return msg("shitenno.act.flip", p=province(action.province), n=action.space + 1)
    if isinstance(action, NoFlip):
        return msg("shitenno.act.no_flip")
    if isinstance(action, EndTurn):
        return msg("shitenno.act.end_turn")
    raise TypeError(f"not a Shitenno action: {action!r}")

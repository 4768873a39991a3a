"""Shogun's words in messages (:mod:`sengoku.core.messages`): the catalog terms of colours,
provinces, action cards, events, special cards and buildings, and how an action is named.

The log writes an action card by its title (``shogun.card.*``: "collect taxes"), a planning
space by its short name (``shogun.space.*``: "tax"), an event by its effect
(``shogun.effect.*``) and a special card by its label (``shogun.special_label.*``), the
English of the engine's own data; each language's catalog translates the same keys.

>>> from sengoku.core import render
>>> from sengoku.games.shogun.actions import Plan
>>> render(action_message(Plan(4, 19)), CATALOG)
'plan tax: Owari'
"""

from __future__ import annotations

from collections.abc import Iterable

from sengoku.core import Items, Message, Term, msg

from ..catalog import catalog
from .actions import (
    BLANK,
    EMPTY,
    NO_BID,
    PROVINCE_BID,
    STAY,
    Armies,
    Bid,
    Draft,
    March,
    Plan,
    Revolt,
    ShogunAction,
    TakePosition,
    TakeTop,
)
from .data import ACTIONS, BUILDINGS, load_data

_D = load_data()
COLOURS = ("Red", "Blue", "Yellow", "Purple", "Black")
CATALOG = catalog("shogun")
COMMA = "ui.sep.comma"
SEMICOLON = "ui.sep.semicolon"

# The terms are made once (they are immutable): a log line costs a lookup, not a new term.
_COLOUR_TERMS = tuple(Term(f"shogun.colour.{c}", seat=s) for s, c in enumerate(COLOURS))
_PROVINCE_TERMS = tuple(Term(f"shogun.province.{name}") for name in _D.names)
_CARD_TERMS = tuple(Term(f"shogun.card.{a}") for a in ACTIONS)
_SPACE_TERMS = tuple(Term(f"shogun.space.{a}") for a in ACTIONS)
_BUILDING_TERMS = tuple(Term(f"shogun.building_log.{b}") for b in BUILDINGS)


def colour(seat: int) -> Term:
    """A seat, by its colour (shogun.md §2)."""
    return _COLOUR_TERMS[seat]


def province(p: int) -> Term:
    return _PROVINCE_TERMS[p]


def action_card(a: int) -> Term:
    """An action card (``a`` in 0..9, the player-board order) by its title."""
    return _CARD_TERMS[a]


def space(a: int) -> Term:
    """An action space of the planning board by its short name."""
    return _SPACE_TERMS[a]


def event(ev: int) -> Term:
    """An event card by its effect (shogun.md §7)."""
    return Term(f"shogun.effect.{_D.events[ev].kind}")


def special(card: int) -> Term:
    """A special card by its label (shogun.md §6)."""
    return Term(f"shogun.special_label.{_D.specials[card].kind}")


def building(i: int) -> Term:
    """A building (0 castle, 1 temple, 2 Nō theatre)."""
    return _BUILDING_TERMS[i]


def entry(e: int) -> Term:
    """A plan entry: a province card, a blank (war-chest) card, or nothing."""
    if e == BLANK:
        return Term("shogun.term.blank")
    if e == EMPTY:
        return Term("shogun.term.empty")
    return province(e)


def items(values: Iterable[Term | Message | int], sep: str = COMMA) -> Items:
    return Items(tuple(values), sep)


def pair(seat: int, value: Term | Message | int) -> Message:
    """A seat and its value: ``Red 3``, ``Red Kaga``."""
    return msg("shogun.log.pair", c=colour(seat), x=value)


def action_message(action: ShogunAction) -> Message:
    """How a person reads ``action`` (the catalog's ``shogun.act.*``)."""
    if isinstance(action, Plan):
        return msg("shogun.act.plan", a=space(action.space), x=entry(action.card))
    if isinstance(action, Bid):
        return bid_action(action.value, action.province)
    if isinstance(action, TakePosition):
        return msg("shogun.act.position", n=action.position + 1, x=special(action.card))
    if isinstance(action, March):
        if action.target == STAY:
            return msg("shogun.act.stay", p=province(action.source))
        verb = "shogun.act.attack" if action.attack else "shogun.act.move"
        return msg(verb, p=province(action.target), p2=province(action.source))
    if isinstance(action, Armies):
        return msg("shogun.act.armies", n=action.n)
    if isinstance(action, Draft):
        return msg("shogun.act.draft", p=province(action.province), n=action.stack)
    if isinstance(action, TakeTop):
        return msg("shogun.act.top")
    if isinstance(action, Revolt):
        return msg("shogun.act.revolt", p=province(action.province))
    raise TypeError(f"not a Shogun action: {action!r}")


def bid_action(value: int, card: int) -> Message:
    """A bid as a move (shogun.md §4.3): war chests, a province card or nothing."""
    if value == PROVINCE_BID:
        return msg("shogun.act.bid_card", p=province(card))
    if value == NO_BID:
        return msg("shogun.act.bid_nothing")
    return msg("shogun.act.bid_chests", n=value)


def bid_planned(seat: int, value: int, card: int) -> Message:
    """The private line of a seat's bid (shogun.md §4.3)."""
    if value == PROVINCE_BID:
        return msg("shogun.log.bids_card", c=colour(seat), p=province(card))
    if value == NO_BID:
        return msg("shogun.log.bids_nothing", c=colour(seat))
    return msg("shogun.log.bids_chests", c=colour(seat), n=value)


def bid_shown(seat: int, value: int, card: int) -> Message:
    """A seat's bid as revealed to all (shogun.md §4.5)."""
    if value == PROVINCE_BID:
        return msg("shogun.log.bid_card", c=colour(seat), p=province(card))
    if value == NO_BID:
        return msg("shogun.log.bid_nothing", c=colour(seat))
    return pair(seat, value)

"""Shogun's actions: one small ``NamedTuple`` type per kind of decision.

``str(action)`` is the notation used in logs, records and at the prompt.

>>> str(Plan(4, 19)), str(Plan(0, BLANK)), str(Bid(3)), str(Bid(PROVINCE_BID, 19))
('plan tax: Owari', 'plan castle: blank', 'bid 3', 'bid province card Owari')
>>> str(TakeTop()), str(Draft(19, 5))
('take top card', 'draft Owari with 5')
>>> str(March(19, 20, True)), str(Armies(6)), str(March(19, STAY, False))
('attack Mino from Owari', 'with 6', 'stay in Owari')
"""

from __future__ import annotations

from typing import NamedTuple

from .data import ACTION_SHORT, load_data

NAMES = load_data().names
SPECIAL_LABELS = tuple(c.label for c in load_data().specials)

#: Plan entries: a province id, or one of these.
UNSET = -3
EMPTY = -2
BLANK = -1
#: Bid values: 0..4 war chests, or these.
PROVINCE_BID = 5
NO_BID = -1
#: March target meaning "do not move".
STAY = -1


class TakeTop(NamedTuple):
    """Draft, first step of a pile pick: take the pile's top card (it is revealed to all)."""

    def __str__(self) -> str:
        return "take top card"


class Draft(NamedTuple):
    """Put an army stack on a province card: a face-up one, or the top card just taken."""

    province: int
    stack: int

    def __str__(self) -> str:
        return f"draft {NAMES[self.province]} with {self.stack}"


class Plan(NamedTuple):
    """Put a card on one action space: a province, a blank (war-chest card) or nothing."""

    space: int
    card: int

    def __str__(self) -> str:
        if self.card == BLANK:
            what = "blank"
        elif self.card == EMPTY:
            what = "empty"
        else:
            what = NAMES[self.card]
        return f"plan {ACTION_SHORT[self.space]}: {what}"


class Bid(NamedTuple):
    """The card on the bid space: a war-chest card (0-4), a named province card, or none.

    ``province`` is the province card's id for ``value == PROVINCE_BID``, else ``-1``.
    """

    value: int
    province: int = -1

    def __str__(self) -> str:
        if self.value == PROVINCE_BID:
            return f"bid province card {NAMES[self.province]}"
        if self.value == NO_BID:
            return "bid nothing"
        return f"bid {self.value}"


class TakePosition(NamedTuple):
    """Choose a turn-order space (1-5) together with the special card lying there."""

    position: int
    card: int

    def __str__(self) -> str:
        return f"take position {self.position + 1} ({SPECIAL_LABELS[self.card]})"


class March(NamedTuple):
    """Where armies go from ``source`` (``STAY``: nowhere); ``attack`` if a battle follows."""

    source: int
    target: int
    attack: bool

    def __str__(self) -> str:
        if self.target == STAY:
            return f"stay in {NAMES[self.source]}"
        verb = "attack" if self.attack else "move to"
        return f"{verb} {NAMES[self.target]} from {NAMES[self.source]}"


class Armies(NamedTuple):
    """How many armies march (after the target was chosen)."""

    n: int

    def __str__(self) -> str:
        return f"with {self.n}"


class Revolt(NamedTuple):
    """Winter: resolve the hunger revolt in this province next."""

    province: int

    def __str__(self) -> str:
        return f"revolt in {NAMES[self.province]}"


ShogunAction = TakeTop | Draft | Plan | Bid | TakePosition | March | Armies | Revolt

"""Shitenno's actions: small immutable values whose ``str()`` is their notation.

Each kind of decision is its own ``NamedTuple`` type. Every type ends with a constant ``op``
field, so that two actions of different kinds never compare equal even when their other
fields match (``AddTroop(2)`` and ``AddKoku(2)`` are different moves).

Even year (the sharing), the Tairo builds a lot card by card and offers it:

>>> str(AddTroop(kind_of_code("SaSh"))), str(AddKoku(2)), str(AddTile(1))
('add troop SaSh to the lot', 'add koku 2 to the lot', 'add hierarchy tile Shomyo to the lot')
>>> str(Offer((1, kind_of_code("SaSh")), (2,), 1, 0))
'offer lot Sa+SaSh+koku 2+Shomyo to Red'
>>> str(Accept()), str(Refuse()), str(TakeLast(2))
('accept lot', 'refuse lot', 'take the last lot with Sensei')

Odd year (province control), a placement is two steps: the province, then the exact payment:

>>> str(Target(7)), str(Place(7, True, (), (3, 2)))
('control Kanto', 'place Kanto paying koku 3+2')
>>> str(Place(7, True, (), (3, 2)))
'place Kanto paying koku 3+2'
>>> str(Place(0, False, (1, 1, 6), (), plus=0, exchange=1, wild=True))
'place Chugoku paying troops Sa+Sa+BuSh using Exchange, Hatamoto'
>>> str(UseDraw()), str(Flip(7, 0)), str(NoFlip()), str(EndTurn())
('use Draw tile', 'flip Kanto space 1 to golden', 'keep kamons simple', 'end turn')
"""

from __future__ import annotations

from typing import NamedTuple

from .data import DATA, KIND_CODES, kind_of_code

__all__ = [
    "Accept",
    "AddKoku",
    "AddTile",
    "AddTroop",
    "EndTurn",
    "Flip",
    "NoFlip",
    "Offer",
    "Place",
    "Refuse",
    "ShitennoAction",
    "TakeLast",
    "Target",
    "UseDraw",
    "kind_of_code",
]

PROVINCE_NAMES: tuple[str, ...] = tuple(p.name for p in DATA.provinces)
TITLE_NAMES: tuple[str, ...] = tuple(t.name for t in DATA.titles)
COLOURS: tuple[str, ...] = DATA.setup.colours


def lot_text(troops: tuple[int, ...], koku: tuple[int, ...], title: int | None) -> str:
    """A lot in words: its cards then its hierarchy tile, joined by ``+``."""
    parts = [KIND_CODES[k] for k in troops] + [f"koku {v}" for v in koku]
    if title is not None:
        parts.append(TITLE_NAMES[title])
    return "+".join(parts) if parts else "nothing"


class AddTroop(NamedTuple):
    """The Tairo puts one face-up troop card of this kind into the lot he is building."""

    kind: int
    op: str = "add troop"

    def __str__(self) -> str:
        return f"add troop {KIND_CODES[self.kind]} to the lot"


class AddKoku(NamedTuple):
    """The Tairo puts one face-up koku card of this value into the lot."""

    value: int
    op: str = "add koku"

    def __str__(self) -> str:
        return f"add koku {self.value} to the lot"


class AddTile(NamedTuple):
    """The Tairo puts the hierarchy tile of this title (0 Daimyo … 3 Hatamoto) into the lot."""

    title: int
    op: str = "add tile"

    def __str__(self) -> str:
        return f"add hierarchy tile {TITLE_NAMES[self.title]} to the lot"


class Offer(NamedTuple):
    """The Tairo offers the finished lot (cards and tile, as built) to seat ``to``."""

    troops: tuple[int, ...]
    koku: tuple[int, ...]
    title: int
    to: int
    op: str = "offer"

    def __str__(self) -> str:
        return f"offer lot {lot_text(self.troops, self.koku, self.title)} to {COLOURS[self.to]}"


class Accept(NamedTuple):
    """The player offered the lot takes it and leaves the sharing."""

    op: str = "accept"

    def __str__(self) -> str:
        return "accept lot"


class Refuse(NamedTuple):
    """The player offered the lot refuses it; it goes to the next player, or back."""

    op: str = "refuse"

    def __str__(self) -> str:
        return "refuse lot"


class TakeLast(NamedTuple):
    """The last player without a lot takes every card left and picks one hierarchy tile."""

    title: int
    op: str = "take last"

    def __str__(self) -> str:
        return f"take the last lot with {TITLE_NAMES[self.title]}"


class Target(NamedTuple):
    """Choose the province of your next placement; the payment is the next step."""

    province: int
    op: str = "target"

    def __str__(self) -> str:
        return f"control {PROVINCE_NAMES[self.province]}"


class Place(NamedTuple):
    """Place a control kamon in ``province``, paying exactly these cards and tiles.

    ``koku`` tells which price is paid (the space value in koku, or the troop requirement);
    ``troops`` and ``kokus`` are the cards discarded (troop kinds, koku values), ``plus``
    and ``exchange`` the bonus tiles spent, ``wild`` whether the Hatamoto's wild troop is used.
    """

    province: int
    koku: bool
    troops: tuple[int, ...]
    kokus: tuple[int, ...]
    plus: int = 0
    exchange: int = 0
    wild: bool = False
    op: str = "place"

    def __str__(self) -> str:
        return f"place {PROVINCE_NAMES[self.province]} paying {self.payment()}"

    def payment(self) -> str:
        """The payment in words: ``koku 3+2``, ``troops Sa+SaSh using +1``."""
        troops = [KIND_CODES[k] for k in self.troops]
        if self.koku:
            cards = "+".join([str(v) for v in self.kokus] + troops)
            paying = f"koku {cards}"
        else:
            cards = "+".join(troops + [f"koku {v}" for v in self.kokus])
            paying = f"troops {cards}"
        extras = []
        if self.exchange:
            extras.append("Exchange" + (f" x{self.exchange}" if self.exchange > 1 else ""))
        if self.plus:
            extras.append("+1" + (f" x{self.plus}" if self.plus > 1 else ""))
        if self.wild:
            extras.append("Hatamoto")
        using = f" using {', '.join(extras)}" if extras else ""
        return paying + using


class UseDraw(NamedTuple):
    """Spend a Draw tile to draw one troop card (or, with ``draw_tile_koku``, a koku card)."""

    koku: bool = False
    op: str = "draw"

    def __str__(self) -> str:
        return "use Draw tile for a koku card" if self.koku else "use Draw tile"


class Flip(NamedTuple):
    """The Sensei turns his kamon on ``space`` (0-based) of ``province`` to its golden face."""

    province: int
    space: int
    op: str = "flip"

    def __str__(self) -> str:
        return f"flip {PROVINCE_NAMES[self.province]} space {self.space + 1} to golden"


class NoFlip(NamedTuple):
    """The Sensei declines this year's golden flip."""

    op: str = "no flip"

    def __str__(self) -> str:
        return "keep kamons simple"


class EndTurn(NamedTuple):
    """End your odd-year turn (after 0, 1 or 2 placements)."""

    op: str = "end turn"

    def __str__(self) -> str:
        return "end turn"


ShitennoAction = (
    AddTroop
    | AddKoku
    | AddTile
    | Offer
    | Accept
    | Refuse
    | TakeLast
    | Target
    | Place
    | UseDraw
    | Flip
    | NoFlip
    | EndTurn
)

"""The state of one Shitenno game: flat, slotted data with a cheap :meth:`State.copy`.

Cards are counted, not listed: a hand holds ``troops[kind]`` troop cards of each of the 14
kinds (4 singles, 10 doubles; see :data:`~sengoku.games.shitenno.data.KIND_UNITS`) and
``koku[value]`` koku cards of each value 1..3 (index 0 unused). Only the decks are ordered
lists (the last element is the top card). The board is 32 integers, 4 per province, left to
right: ``-1`` for a free space, the seat number for a simple kamon, ``seat + 4`` for a
golden one. A bonus tile is the code ``troop_type * 3 + effect``.
"""

from __future__ import annotations

import enum

from .options import ShitennoOptions

__all__ = ["EMPTY", "GOLDEN", "NO_TITLE", "Phase", "State"]

EMPTY = -1
GOLDEN = 4
NO_TITLE = -1


class Phase(enum.IntEnum):
    """Where the game stands; the even year has the first three, the odd year the next two."""

    BUILD = 0  # the Tairo builds a lot
    OFFER = 1  # a player decides on the lot offered to him
    LAST = 2  # the last player without a lot picks its hierarchy tile
    CONTROL = 3  # a player's odd-year turn: placements, Draw tiles, end turn
    PAY = 4  # the player chose a province and now picks the exact payment
    FLIP = 5  # the Sensei chooses a kamon to gild, after his placements
    OVER = 6


class State:
    """Everything about one game, public and secret; :meth:`Shitenno.view` decides who sees what."""

    __slots__ = (
        "board",
        "flipped",
        "fresh",
        "hand_koku",
        "hand_troops",
        "kamons",
        "koku_deck",
        "koku_out",
        "lot_koku",
        "lot_of",
        "lot_tile",
        "lot_troops",
        "offer_queue",
        "options",
        "order",
        "phase",
        "placed",
        "players",
        "pool_koku",
        "pool_troops",
        "result",
        "score",
        "stacks",
        "tairo",
        "target",
        "tiles",
        "tiles_left",
        "titles",
        "troop_deck",
        "troop_discard",
        "turn",
        "used_tiles",
        "wild_used",
        "year",
    )

    players: int
    options: ShitennoOptions
    phase: Phase
    year: int  # 0, 1, 2, ...: even years share, odd years control provinces
    titles: list[int]  # title per seat (0 Daimyo .. 3 Hatamoto)
    score: list[int]
    kamons: list[int]  # control kamons left in each supply
    hand_troops: list[list[int]]  # per seat, count per troop kind
    hand_koku: list[list[int]]  # per seat, count per koku value (index 1..3)
    tiles: list[list[int]]  # per seat, bonus tiles held (codes)
    fresh: list[int]  # tiles the acting player won this turn (codes)
    used_tiles: list[int]  # spent bonus tiles, out of the game (codes)
    troop_deck: list[int]  # kinds, top last
    troop_discard: list[int]  # count per kind
    koku_deck: list[int]  # values, top last
    koku_out: list[int]  # spent koku cards, out of the game, count per value
    board: list[int]  # 32 spaces
    stacks: list[list[int]]  # per province, bonus tiles still stacked (top last)
    # the sharing
    tairo: int
    pool_troops: list[int]  # face-up troop cards, count per kind
    pool_koku: list[int]  # face-up koku cards, count per value
    lot_troops: list[int]
    lot_koku: list[int]
    lot_tile: int  # NO_TITLE until chosen
    tiles_left: list[int]  # hierarchy tiles not yet in a lot
    lot_of: list[int]  # hierarchy tile each seat got this year, NO_TITLE for none yet
    offer_queue: list[int]  # seats still to answer the current offer, first first
    # province control
    order: list[int]  # seats in title order
    turn: int  # index into order
    placed: int  # placements in the current turn
    target: int  # the province chosen for the placement being paid (PAY), else -1
    flipped: bool  # the Sensei has gilded a kamon this odd year
    wild_used: bool  # the Hatamoto has used his wild troop this odd year
    # the end
    result: list[int] | None  # final scores once over

    def copy(self) -> State:
        """An independent copy: lists are copied, immutable values shared."""
        s = State.__new__(State)
        s.players = self.players
        s.options = self.options
        s.phase = self.phase
        s.year = self.year
        s.titles = self.titles.copy()
        s.score = self.score.copy()
        s.kamons = self.kamons.copy()
        s.hand_troops = [h.copy() for h in self.hand_troops]
        s.hand_koku = [h.copy() for h in self.hand_koku]
        s.tiles = [t.copy() for t in self.tiles]
        s.fresh = self.fresh.copy()
        s.used_tiles = self.used_tiles.copy()
        s.troop_deck = self.troop_deck.copy()
        s.troop_discard = self.troop_discard.copy()
        s.koku_deck = self.koku_deck.copy()
        s.koku_out = self.koku_out.copy()
        s.board = self.board.copy()
        s.stacks = [t.copy() for t in self.stacks]
        s.tairo = self.tairo
        s.pool_troops = self.pool_troops.copy()
        s.pool_koku = self.pool_koku.copy()
        s.lot_troops = self.lot_troops.copy()
        s.lot_koku = self.lot_koku.copy()
        s.lot_tile = self.lot_tile
        s.tiles_left = self.tiles_left.copy()
        s.lot_of = self.lot_of.copy()
        s.offer_queue = self.offer_queue.copy()
        s.order = self.order.copy()
        s.turn = self.turn
        s.placed = self.placed
        s.target = self.target
        s.flipped = self.flipped
        s.wild_used = self.wild_used
        s.result = None if self.result is None else self.result.copy()
        return s

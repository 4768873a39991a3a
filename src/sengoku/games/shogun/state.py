"""The state of a Shogun match: one slotted object of flat lists, cheap to clone, and the
numbers every part of the rules indexes it with (phases, action spaces, special cards,
building bits).

>>> from sengoku.games.shogun.data import ACTIONS, SPECIAL_KINDS
>>> popcount(CASTLE | THEATRE), ACTIONS[A_R1], SPECIAL_KINDS[S_SIX]
(2, 'recruit1', 'six_armies')
"""

from __future__ import annotations

from typing import Any

from sengoku.core import LogEntry

from .data import Board, load_data
from .options import ShogunOptions
from .tower import Tower

D = load_data()
#: provinces: ids 0..44 in the order of ``data/provinces.json`` index the per-province lists
N = len(D.provinces)
#: the event kind of each event card
EV = D.event_kind

# the action spaces in player-board order (``data.ACTIONS``)
A_CASTLE, A_TEMPLE, A_THEATRE, A_RICE, A_TAX, A_R5, A_R3, A_R1, A_BA, A_BB = range(10)
# the special cards in data order (``data.SPECIAL_KINDS``)
S_CHEST, S_RICE, S_SIX, S_ATTACK, S_DEFENCE = range(5)

# phases
DRAFT = 0
PLAN = 1
POSITION = 2
TARGET = 3
ARMIES = 4
WINTER = 5
OVER = 6
PHASE_NAMES = ("draft", "plan", "position", "target", "armies", "winter", "over")
SEASONS = ("spring", "summer", "autumn", "winter")

# building bits
CASTLE = 1
TEMPLE = 2
THEATRE = 4
BUILDING_BITS = (CASTLE, TEMPLE, THEATRE)


def popcount(bits: int) -> int:
    """Number of buildings in a bitmask."""
    return (bits & 1) + ((bits >> 1) & 1) + ((bits >> 2) & 1)


# pending decision kinds
BATTLE = 0
RECRUIT_MOVE = 1

# plan entry status
PENDING = 0
DONE = 1
CANCELLED = 2

UNSET_BID = -9


class State:
    """Everything about one match. Province ids index the flat per-province lists."""

    __slots__ = (
        "action_idx",
        "action_order",
        "armies",
        "autumn_order",
        "battles",
        "bid",
        "bid_card",
        "bids_revealed",
        "bld",
        "board",
        "bsupply",
        "chooser_idx",
        "choosers",
        "deck_bottom",
        "deck_top",
        "draft_drawn",
        "draft_order",
        "draft_up",
        "event",
        "events_left",
        "final_scores",
        "hand",
        "hand_size",
        "last_seen",
        "markers",
        "markers_left",
        "money",
        "options",
        "owner",
        "pending",
        "phase",
        "plan",
        "plan_n",
        "players",
        "pos_idx",
        "pos_of",
        "positions",
        "revealed_n",
        "revolt_bonus",
        "revolt_left",
        "rice",
        "season",
        "season_events",
        "setup_log",
        "specials",
        "stacks_left",
        "status",
        "supply",
        "tower",
        "vp",
        "winter_queue",
        "winters",
        "year",
        "year_events",
    )

    players: int
    options: ShogunOptions
    board: Board
    phase: int
    year: int
    season: int
    owner: list[int]
    armies: list[int]
    bld: list[int]
    markers: list[int]
    markers_left: int
    money: list[int]
    rice: list[int]
    vp: list[int]
    supply: list[int]
    tower: Tower
    bsupply: list[int]
    events_left: list[int]
    year_events: list[int]
    season_events: list[int]
    event: int
    action_order: list[int]
    action_idx: int
    pos_idx: int
    revealed_n: int
    specials: list[int]
    plan: list[list[int]]
    status: list[list[int]]
    plan_n: list[int]
    bid: list[int]
    bid_card: list[int]
    bids_revealed: bool
    hand: list[list[int]]
    hand_size: list[int]
    choosers: list[int]
    chooser_idx: int
    positions: list[int]
    pos_of: list[int]
    pending: list[int]
    autumn_order: list[int]
    winter_queue: list[int]
    revolt_left: list[int]
    revolt_bonus: int
    draft_order: list[int]
    draft_drawn: int
    draft_up: list[int]
    deck_top: list[int]
    deck_bottom: list[int]
    last_seen: list[list[int]]
    stacks_left: list[list[int]]
    final_scores: list[int] | None
    setup_log: tuple[LogEntry, ...]
    # the fights of the latest year that had any, and each winter's scoring (public
    # records, never changed once made: copies share them; see battles.record_battle)
    battles: list[dict[str, Any]]
    winters: list[dict[str, Any]]

    def clone(self) -> State:
        """An independent copy (lists copied, immutable parts shared)."""
        s = State.__new__(State)
        s.players = self.players
        s.options = self.options
        s.board = self.board
        s.phase = self.phase
        s.year = self.year
        s.season = self.season
        s.owner = self.owner.copy()
        s.armies = self.armies.copy()
        s.bld = self.bld.copy()
        s.markers = self.markers.copy()
        s.markers_left = self.markers_left
        s.money = self.money.copy()
        s.rice = self.rice.copy()
        s.vp = self.vp.copy()
        s.supply = self.supply.copy()
        s.tower = self.tower.clone()
        s.bsupply = self.bsupply.copy()
        s.events_left = self.events_left.copy()
        s.year_events = self.year_events.copy()
        s.season_events = self.season_events.copy()
        s.event = self.event
        s.action_order = self.action_order.copy()
        s.action_idx = self.action_idx
        s.pos_idx = self.pos_idx
        s.revealed_n = self.revealed_n
        s.specials = self.specials.copy()
        s.plan = [p.copy() for p in self.plan]
        s.status = [p.copy() for p in self.status]
        s.plan_n = self.plan_n.copy()
        s.bid = self.bid.copy()
        s.bid_card = self.bid_card.copy()
        s.bids_revealed = self.bids_revealed
        s.hand = [h.copy() for h in self.hand]
        s.hand_size = self.hand_size.copy()
        s.choosers = self.choosers.copy()
        s.chooser_idx = self.chooser_idx
        s.positions = self.positions.copy()
        s.pos_of = self.pos_of.copy()
        s.pending = self.pending.copy()
        s.autumn_order = self.autumn_order.copy()
        s.winter_queue = self.winter_queue.copy()
        s.revolt_left = self.revolt_left.copy()
        s.revolt_bonus = self.revolt_bonus
        s.draft_order = self.draft_order.copy()
        s.draft_drawn = self.draft_drawn
        s.draft_up = self.draft_up.copy()
        s.deck_top = self.deck_top.copy()
        s.deck_bottom = self.deck_bottom.copy()
        s.last_seen = [x.copy() for x in self.last_seen]
        s.stacks_left = [x.copy() for x in self.stacks_left]
        s.final_scores = None if self.final_scores is None else self.final_scores.copy()
        s.setup_log = self.setup_log
        s.battles = self.battles.copy()
        s.winters = self.winters.copy()
        return s

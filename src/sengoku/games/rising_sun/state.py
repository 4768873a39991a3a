"""The state of a Rising Sun match: one slotted object of flat lists, cheap to clone.

Pieces (figures and Strongholds) are rows of four parallel lists: ``owner`` (a seat), ``kind``
(Daimyo, Shinto, Bushi, Monster, Stronghold), ``card`` (the Season card of a Monster, else -1)
and ``loc`` (where it is). Each clan's 10 figures and 4 Strongholds are rows from the start; a
Monster gets its row when it is bought.

What happens next is an *agenda*: a stack of small tasks (tuples of ints) that the engine pops
and runs until one of them needs a decision, which it leaves in ``pending``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from sengoku.core import LogEntry

from .data import Board
from .options import RisingSunOptions, Settings

# phases (view["phase"])
CLANS, TEA, POLITICAL, WAR, WINTER, OVER = range(6)
PHASE_NAMES = ("clans", "tea", "political", "war", "winter", "over")
SEASON_NAMES = ("spring", "summer", "autumn", "winter")

# piece kinds; an action names a piece type as its kind, or MONSTER_BASE + card for a Monster
DAIMYO, SHINTO, BUSHI, MONSTER, STRONGHOLD = range(5)
KIND_NAMES = ("Daimyo", "Shinto", "Bushi", "Monster", "Stronghold")
MONSTER_BASE = 10

# locations: a province 0..7, a shrine SHRINE + slot, held hostage by seat c at HOSTAGE + c
RESERVE = -1
SHRINE = 8
HOSTAGE = 12

# the Mandates (tile codes) and the War Advantages, in the rules' order
RECRUIT, MARSHAL, TRAIN, HARVEST, BETRAY = range(5)
SEPPUKU, TAKE_HOSTAGE, HIRE_RONIN, POETS = range(4)

# pending decisions: pending[0]; pending[1] is the deciding seat (except D_BID)
(
    D_CLAN,
    D_OFFER,
    D_ANSWER,
    D_KEEP,
    D_ANNOUNCE,
    D_RECRUIT,
    D_PLACE,
    D_MOVE,
    D_BUILD,
    D_BUY,
    D_BENEVOLENCE,
    D_BETRAY,
    D_NINJA,
    D_MONKEY,
    D_GENEROSITY,
    D_GEN_ANSWER,
    D_VASSAL,
    D_HATE,
    D_BID,
    D_SEPPUKU,
    D_HOSTAGE,
    D_MERCY,
    D_REPARATION,
) = range(23)
DECISION_NAMES = (
    "clan",
    "offer",
    "answer",
    "keep",
    "announce",
    "recruit",
    "place",
    "move",
    "build",
    "buy",
    "benevolence",
    "betray",
    "ninja",
    "monkey",
    "generosity",
    "generosity_answer",
    "vassal",
    "hate",
    "bid",
    "seppuku",
    "hostage",
    "mercy",
    "reparation",
)


class BattleRecord(NamedTuple):
    """A Battle once fought, for the table to show how it went (public once the bids are shown).

    ``bids[i]``, ``forces[i]`` and ``reparations[i]`` belong to ``participants[i]``;
    ``advantages`` holds the winner of each War Advantage in the rules' order (-1: nobody);
    ``forces`` counts hired Ronin; ``hostages`` are (captor, owner, piece type) triples with
    types as actions name them; ``reparations`` are the Coins each participant received.
    """

    season: int
    war: int
    province: int
    participants: tuple[int, ...]
    bids: tuple[tuple[int, ...], ...]
    advantages: tuple[int, ...]
    forces: tuple[int, ...]
    winner: int
    killed: int
    hostages: tuple[tuple[int, int, int], ...]
    reparations: tuple[int, ...]


# where a D_PLACE may put its piece
W_STRONGHOLD, W_ANY, W_SHRINE = range(3)
# what a D_MOVE is for
M_MARSHAL, M_FUJIN, M_NAGINATA = range(3)


class State:
    """Everything about one match."""

    __slots__ = (
        "agenda",
        "alliance_seasons",
        "ally",
        "asked",
        "b_adv",
        "b_force",
        "b_hired",
        "b_killed",
        "b_part",
        "b_prov",
        "b_souls",
        "b_start_coins",
        "b_taken",
        "b_winner",
        "battles",
        "bid_done",
        "bids",
        "board",
        "breakdown",
        "card",
        "clan",
        "coins",
        "deck",
        "display",
        "drawn",
        "ev_before",
        "ev_coin",
        "ev_open",
        "ev_vp",
        "extra_used",
        "final",
        "holder",
        "honor",
        "kind",
        "loc",
        "loc_index",
        "moves",
        "mt_announced",
        "mt_by",
        "mt_kept",
        "mt_pool",
        "offers",
        "options",
        "order",
        "owned",
        "owner",
        "pending",
        "phase",
        "picked",
        "players",
        "ronin",
        "season",
        "season_set",
        "settings",
        "setup_log",
        "shrines",
        "slot_any",
        "slots",
        "summoned",
        "tea_done",
        "tokens",
        "turn",
        "vp",
        "war",
        "war_next",
    )

    players: int
    options: RisingSunOptions
    settings: Settings
    board: Board
    season_set: str
    phase: int
    season: int
    clan: list[int]
    order: list[int]
    honor: list[int]
    vp: list[int]
    coins: list[int]
    ronin: list[int]
    ally: list[int]
    alliance_seasons: list[int]
    owner: list[int]
    kind: list[int]
    card: list[int]
    loc: list[int]
    #: the pieces at each location, and the ``loc`` they were found in
    #: (:func:`.figures.by_location`, which works them out again once ``loc`` differs)
    loc_index: tuple[list[int], list[list[int]]] | None
    moves: list[int]
    owned: list[list[int]]
    display: list[int]
    shrines: list[int]
    war: list[int]
    war_next: int
    tokens: list[list[int]]
    deck: list[int]
    drawn: list[int]
    holder: int
    mt_by: list[int]
    mt_pool: list[list[int]]
    mt_kept: list[int]
    mt_announced: list[int]
    turn: int
    agenda: list[tuple[int, ...]]
    #: what the task that asked the pending decision found out for its legal actions (the
    #: Moves, targets or cards open): its ``pending`` and that, read by the decision's legal
    #: actions; every action clears it (:func:`.engine.ask_with`)
    asked: tuple[tuple[int, ...], Any] | None
    pending: tuple[int, ...] | None
    slots: list[int]
    slot_any: int
    summoned: int
    picked: list[int]
    extra_used: int
    offers: list[int]
    tea_done: list[bool]
    bids: list[list[int]]
    bid_done: list[bool]
    b_prov: int
    b_part: list[int]
    b_killed: int
    b_hired: list[int]
    b_souls: list[int]
    b_start_coins: list[int]
    b_winner: int
    b_adv: list[int]
    b_force: list[int]
    b_taken: list[list[int]]
    battles: list[BattleRecord]
    ev_open: bool
    ev_before: list[int]
    ev_vp: list[bool]
    ev_coin: list[bool]
    final: list[int] | None
    breakdown: list[list[int]]
    setup_log: tuple[LogEntry, ...]

    def clone(self) -> State:
        """An independent copy (lists copied, immutable parts shared)."""
        s = State.__new__(State)
        s.players = self.players
        s.options = self.options
        s.settings = self.settings
        s.board = self.board
        s.season_set = self.season_set
        s.phase = self.phase
        s.season = self.season
        s.clan = self.clan.copy()
        s.order = self.order.copy()
        s.honor = self.honor.copy()
        s.vp = self.vp.copy()
        s.coins = self.coins.copy()
        s.ronin = self.ronin.copy()
        s.ally = self.ally.copy()
        s.alliance_seasons = self.alliance_seasons.copy()
        s.owner = self.owner.copy()
        s.kind = self.kind.copy()
        s.card = self.card.copy()
        s.loc = self.loc.copy()
        s.loc_index = self.loc_index  # read only, and checked against ``loc`` at each use
        s.moves = self.moves.copy()
        s.owned = [o.copy() for o in self.owned]
        s.display = self.display.copy()
        s.shrines = self.shrines.copy()
        s.war = self.war.copy()
        s.war_next = self.war_next
        s.tokens = [t.copy() for t in self.tokens]
        s.deck = self.deck.copy()
        s.drawn = self.drawn.copy()
        s.holder = self.holder
        s.mt_by = self.mt_by.copy()
        s.mt_pool = [p.copy() for p in self.mt_pool]
        s.mt_kept = self.mt_kept.copy()
        s.mt_announced = self.mt_announced.copy()
        s.turn = self.turn
        s.agenda = self.agenda.copy()
        s.asked = self.asked  # never changed, only replaced
        s.pending = self.pending
        s.slots = self.slots.copy()
        s.slot_any = self.slot_any
        s.summoned = self.summoned
        s.picked = self.picked.copy()
        s.extra_used = self.extra_used
        s.offers = self.offers.copy()
        s.tea_done = self.tea_done.copy()
        s.bids = [b.copy() for b in self.bids]
        s.bid_done = self.bid_done.copy()
        s.b_prov = self.b_prov
        s.b_part = self.b_part.copy()
        s.b_killed = self.b_killed
        s.b_hired = self.b_hired.copy()
        s.b_souls = self.b_souls.copy()
        s.b_start_coins = self.b_start_coins.copy()
        s.b_winner = self.b_winner
        s.b_adv = self.b_adv.copy()
        s.b_force = self.b_force.copy()
        s.b_taken = [x.copy() for x in self.b_taken]
        s.battles = self.battles.copy()
        s.ev_open = self.ev_open
        s.ev_before = self.ev_before.copy()
        s.ev_vp = self.ev_vp.copy()
        s.ev_coin = self.ev_coin.copy()
        s.final = None if self.final is None else self.final.copy()
        s.breakdown = [b.copy() for b in self.breakdown]
        s.setup_log = self.setup_log
        return s


def blank_state(players: int, options: RisingSunOptions, settings: Settings, board: Board) -> State:
    """A state with nothing in it yet (the set-up fills it)."""
    s = State()
    s.players = players
    s.options = options
    s.settings = settings
    s.board = board
    s.season_set = options.season_set.value
    s.phase = CLANS
    s.season = 0
    s.clan = [-1] * players
    s.order = list(range(players))
    s.honor = list(range(players))
    s.vp = [0] * players
    s.coins = [0] * players
    s.ronin = [0] * players
    s.ally = [-1] * players
    s.alliance_seasons = [0] * players
    s.owner = []
    s.kind = []
    s.card = []
    s.loc = []
    s.loc_index = None
    s.moves = []
    s.owned = [[] for _ in range(players)]
    s.display = []
    s.shrines = []
    s.war = []
    s.war_next = 0
    s.tokens = [[] for _ in range(players)]
    s.deck = []
    s.drawn = []
    s.holder = 0
    s.mt_by = []
    s.mt_pool = []
    s.mt_kept = []
    s.mt_announced = []
    s.turn = 0
    s.agenda = []
    s.asked = None
    s.pending = None
    s.slots = [0] * 8
    s.slot_any = 0
    s.summoned = 0
    s.picked = []
    s.extra_used = 0
    s.offers = []
    s.tea_done = [False] * players
    s.bids = [[] for _ in range(players)]
    s.bid_done = [False] * players
    s.b_prov = -1
    s.b_part = []
    s.b_killed = 0
    s.b_hired = [0] * players
    s.b_souls = []
    s.b_start_coins = [0] * players
    s.b_winner = -1
    s.b_adv = []
    s.b_force = []
    s.b_taken = []
    s.battles = []
    s.ev_open = False
    s.ev_before = [0] * players
    s.ev_vp = [False] * players
    s.ev_coin = [False] * players
    s.final = None
    s.breakdown = []
    s.setup_log = ()
    return s

"""The rules of Shitenno as a :class:`~sengoku.core.Game`: setup, the two years, scoring.

Read :mod:`sengoku.games.shitenno` first for the flow of a game. Rule references such as
``§4.3`` point into ``shared/rules/shitenno.md``; ``G7`` names a gap whose reading is an
option (:class:`~sengoku.games.shitenno.options.ShitennoOptions`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import msgspec

from sengoku.core import (
    Game,
    Items,
    LogEntry,
    Message,
    Outcome,
    Rng,
    Term,
    msg,
    parse_options,
    private,
    public,
    without_sources,
)

from ..catalog import catalog
from . import encoding, heuristic
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
from .data import DATA, KIND_CODES, KIND_UNITS, TROOP_NAMES, kind_of_code
from .messages import (
    COMMA,
    action_message,
    bonus_tile,
    cards,
    colour,
    lot,
    payment,
    province,
    title,
    troop_card,
)
from .options import ExchangeRule, Reshuffle, SenseiTiming, ShitennoOptions, TieBreak
from .payments import koku_payable, koku_payments, purse, troop_payments, troops_payable
from .state import EMPTY, GOLDEN, NO_TITLE, Phase, State

__all__ = ["Shitenno"]

DAIMYO, SHOMYO, SENSEI, HATAMOTO = 0, 1, 2, 3
EXCHANGE, PLUS_ONE, DRAW = 0, 1, 2
EFFECT_NAMES = tuple(e.name for e in DATA.bonus.effects)
TITLE_BONUS = tuple(t.placement_bonus for t in DATA.titles)
SPACES = DATA.spaces_per_province
NPROV = len(DATA.provinces)
P_BASE = tuple(TROOP_NAMES.index(p.troop) for p in DATA.provinces)
P_NEED = tuple(p.troops_needed for p in DATA.provinces)
P_VALUES = tuple(p.values for p in DATA.provinces)
P_MAJORITY = tuple(p.majority_bonus for p in DATA.provinces)
NKINDS = len(KIND_UNITS)
PLACEMENTS = DATA.setup.placements_per_turn
GOLDEN_WEIGHT = DATA.setup.golden_weight
KOKU_POINTS = DATA.setup.koku_points
_PHASES = {p.name.lower(): p for p in Phase}


def _need(province: int, top: int | None) -> tuple[int, int, int, int]:
    """Troops needed for a province's next space, by troop: (N-1) of the province's type and
    the troop ``top`` of its stack's top tile, or N of the province's type once the stack is
    empty (``top`` ``None``; §3.1)."""
    need = [0, 0, 0, 0]
    need[P_BASE[province]] += P_NEED[province] - (top is not None)
    if top is not None:
        need[top] += 1
    return (need[0], need[1], need[2], need[3])


# by province and top troop: every requirement (§3.1), and as the view names it, made once
_NEEDS = {(p, top): _need(p, top) for p in range(NPROV) for top in (None, 0, 1, 2, 3)}
#: Actions made once (they are immutable): a placement's first step in each province, the
#: answers to a lot, the Tairo's additions to it, the Sensei's flips, the ends of a turn.
_TARGETS = tuple(Target(p) for p in range(NPROV))
_ANSWERS: tuple[ShitennoAction, ...] = (Accept(), Refuse())
_ADD_TROOPS = tuple(AddTroop(k) for k in range(NKINDS))
_ADD_KOKUS = (AddKoku(0), AddKoku(1), AddKoku(2), AddKoku(3))
_FLIPS = tuple(Flip(i // SPACES, i % SPACES) for i in range(NPROV * SPACES))
_DRAW_TROOPS, _DRAW_KOKU = UseDraw(False), UseDraw(True)
_NO_FLIP = NoFlip()
_END_TURN = EndTurn()
_REQUIREMENT_NAMES = {
    key: tuple(TROOP_NAMES[t] for t in range(4) for _ in range(need[t]))
    for key, need in _NEEDS.items()
}


@lru_cache(maxsize=4096)
def _placements(
    province: int,
    req: tuple[int, int, int, int],
    price: int,
    hand_troops: tuple[int, ...],
    hand_koku: tuple[int, ...],
    plus: int,
    exch: int,
    wild: int,
    unit: bool,
    mixed: bool,
    combine: bool,
) -> tuple[Place, ...]:
    """The :class:`Place` actions of every exact payment (troops, then koku) of a space
    needing ``req`` troops or ``price`` koku, from this hand and these tiles. Kept for the
    hands and requirements met again (a search meets the same ones over and over; the
    actions are immutable, so they are shared)."""
    troops = [
        Place(province, False, cards, kokus, pl, ex, w)
        for cards, kokus, pl, ex, w in troop_payments(
            req, hand_troops, hand_koku, plus, exch, wild, unit, mixed, combine
        )
    ]
    koku = [
        Place(province, True, cards, kokus, pl, ex, False)
        for cards, kokus, pl, ex in koku_payments(
            price, hand_troops, hand_koku, plus, exch, unit, combine
        )
    ]
    return (*troops, *koku)


def _troop_deck(options: ShitennoOptions) -> list[int]:
    """The troop deck's kinds, unshuffled: the singles, then the doubles of option G4."""
    deck = [t for t in range(4) for _ in range(DATA.troops.singles_per_type)]
    deck += [kind_of_code(code) for code in options.double_troop_cards.split()]
    return deck


def _koku_deck(options: ShitennoOptions) -> list[int]:
    """The koku deck's values, unshuffled (G3)."""
    return [v for v, n in zip((1, 2, 3), options.koku_counts(), strict=True) for _ in range(n)]


def _bonus_tiles(options: ShitennoOptions) -> list[int]:
    """The 24 bonus tiles as codes ``troop * 3 + effect``; troop faces spread evenly (G5)."""
    return [(i % 4) * 3 + e for e, n in enumerate(options.effect_counts()) for i in range(n)]


def _tile_json(code: int) -> dict[str, Any]:
    return {"troop": TROOP_NAMES[code // 3], "effect": EFFECT_NAMES[code % 3]}


def _tile_code(data: dict[str, Any]) -> int:
    return TROOP_NAMES.index(data["troop"]) * 3 + EFFECT_NAMES.index(data["effect"])


def _codes(counts: list[int]) -> list[str]:
    return [code for code, n in zip(KIND_CODES, counts, strict=True) if n for _ in range(n)]


def _values(counts: list[int]) -> list[int]:
    return [3] * counts[3] + [2] * counts[2] + [1] * counts[1]


def _counts_of_codes(codes: list[str]) -> list[int]:
    counts = [0] * NKINDS
    for code in codes:
        counts[kind_of_code(code)] += 1
    return counts


def _counts_of_values(values: list[int]) -> list[int]:
    counts = [0, 0, 0, 0]
    for v in values:
        counts[v] += 1
    return counts


def _cards(troops: list[int], koku: list[int]) -> Items | Term:
    """Cards held or laid out, by kind and value counts (``no card`` for none)."""
    return cards(Shitenno._kinds(troops), _values(koku), "shitenno.term.no_card")


class Shitenno(Game[State, ShitennoAction]):
    """Shitenno (Cédric Lefebvre, Ludonaute 2011) for 2 to 4 generals.

    A game alternates two years. In an **even year** (the sharing, §4.3) the Tairo lays out
    troop and koku cards, builds lots from them card by card (:class:`AddTroop`,
    :class:`AddKoku`, one hierarchy tile with :class:`AddTile`), and offers each lot down
    the title order (:class:`Offer`); each player :class:`Accept`\\ s or :class:`Refuse`\\ s.
    When everybody refuses, the Tairo keeps the lot and the next player becomes Tairo; the
    last player takes what is left (:class:`TakeLast`). Hierarchy tiles become titles.
    In an **odd year** (§4.4) each player in title order places up to two control kamons,
    each in two steps: :class:`Target` picks a province the player can pay for, then a
    :class:`Place` names the exact payment; Draw tiles
    (:class:`UseDraw`), the Sensei's golden flip (:class:`Flip`/:class:`NoFlip`) and
    :class:`EndTurn` complete the turn. After the last year (§4.6) koku and province
    majorities are scored (§4.7).

    >>> import sengoku
    >>> m = sengoku.new_match("shitenno", players=3, seed=1)
    >>> m.to_act(), m.view(1)["titles"]
    ([1], ['Sensei', 'Daimyo', 'Shomyo'])
    >>> m.view(1)["face_up"]
    {'troops': ['Sh', 'Sh', 'Sh', 'So', 'BuSh', 'SaSa'], 'koku': [3, 3, 1]}
    >>> [str(a) for a in m.legal_actions(1)][:3]
    ['add troop Sh to the lot', 'add troop So to the lot', 'add troop BuSh to the lot']
    """

    name = "shitenno"
    title = "Shitenno"
    player_counts = (2, 3, 4)
    options_type = ShitennoOptions
    catalog = catalog("shitenno")
    option_sets = (
        {
            "hatamoto_every_placement": False,
            "exchange_rule": "card",
            "combine_bonus_tiles": False,
            "new_tiles_usable_same_turn": False,
            "empty_lots": False,
        },
        {
            "all_titles_available": False,
            "end_after_odd_year": True,
            "tie_break": "majorities_then_koku",
            "sensei_flip": "any_time",
            "unused_tile_points": 1,
        },
        {
            "mixed_payments": True,
            "koku_price_includes_title_bonus": True,
            "troop_reshuffle": "before_sharing",
            "draw_tile_koku": True,
            "draw_troops_per_player": 1,
        },
    )

    def seat_name(self, seat: int) -> str:
        """Seats are the generals' colours: Red, Blue, Green, Black (§2.6)."""
        return COLOURS[seat]

    def action_message(self, action: ShitennoAction) -> Message:
        """How a replay names a move, troop cards by their troops
        (:func:`~sengoku.games.shitenno.messages.action_message`)."""
        return action_message(action)

    def client_data(self) -> dict[str, Any]:
        """Provinces (§3), troop types, koku cards, bonus tiles, titles and set-up facts,
        for drawing the board.

        >>> data = Shitenno().client_data()
        >>> data["provinces"][0]["name"], [t["name"] for t in data["titles"]][:2]
        ('Chugoku', ['Daimyo', 'Shomyo'])
        """
        data: dict[str, Any] = without_sources(msgspec.to_builtins(DATA))
        return data

    # -- setup ------------------------------------------------------------------------

    def setup(self, players: int, options: ShitennoOptions, rng: Rng) -> State:
        """Shuffle the decks, stack the bonus tiles, deal titles and hands (§4.1)."""
        s = State()
        s.players, s.options = players, options
        s.year = 0
        s.troop_deck = _troop_deck(options)
        rng.shuffle(s.troop_deck)
        s.koku_deck = _koku_deck(options)
        rng.shuffle(s.koku_deck)
        tiles = _bonus_tiles(options)
        rng.shuffle(tiles)
        per = DATA.bonus_tiles_per_province
        s.stacks = [tiles[i * per : (i + 1) * per] for i in range(NPROV)]
        titles = list(range(4)) if options.all_titles_available else list(range(players))
        rng.shuffle(titles)  # G9: N of the 4 titles at random (or the top N, shuffled)
        s.titles = titles[:players]
        s.score = [0] * players
        s.kamons = [options.kamons(players)] * players
        s.hand_troops = [[0] * NKINDS for _ in range(players)]
        s.hand_koku = [[0, 0, 0, 0] for _ in range(players)]
        s.tiles = [[] for _ in range(players)]
        s.fresh, s.used_tiles = [], []
        s.troop_discard = [0] * NKINDS
        s.koku_out = [0, 0, 0, 0]
        s.board = [EMPTY] * (NPROV * SPACES)
        for seat in range(players):
            for _ in range(DATA.setup.start_hand_troops):
                kind = self._draw_troop(s, rng)
                if kind is not None:
                    s.hand_troops[seat][kind] += 1
        s.order, s.turn, s.placed, s.target = [], 0, 0, -1
        s.flipped = s.wild_used = False
        s.result = None
        self._begin_sharing(s, rng)  # its log line is given by initial_log
        return s

    def initial_log(self, state: State) -> Sequence[LogEntry]:
        """The set-up, as :meth:`setup` left it: the titles dealt and the Tairo laying out
        the cards (public), and each general's starting hand (private to him)."""
        s = state
        lines = [public(msg("shitenno.log.dealt", x=self._titles(s)))]
        lines += [
            private(
                msg("shitenno.log.starts", c=colour(p), x=_cards(s.hand_troops[p], s.hand_koku[p])),
                p,
            )
            for p in range(s.players)
        ]
        lines.append(self._sharing_line(s))
        return lines

    def clone(self, state: State) -> State:
        """A cheap copy (list copies only)."""
        return state.copy()

    # -- whose turn, what may be done -------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        """One seat at a time: the Tairo, the player offered a lot, or the one whose turn it is."""
        phase = state.phase
        if phase is Phase.OFFER:
            return [state.offer_queue[0]]
        if phase is Phase.BUILD or phase is Phase.LAST:
            return [state.tairo]
        if phase is Phase.OVER:
            return []
        return [state.order[state.turn]]

    def legal_actions(self, state: State, seat: int) -> list[ShitennoAction]:
        """Every legal action of ``seat`` now, in a stable order."""
        s = state
        phase = s.phase
        if phase is Phase.OVER or seat != self.to_act(s)[0]:
            return []
        if phase is Phase.BUILD:
            return self._build_actions(s)
        if phase is Phase.OFFER:
            return list(_ANSWERS)
        if phase is Phase.LAST:
            return [TakeLast(t) for t in s.tiles_left]
        if phase is Phase.FLIP:
            return [*self._flips(s, seat), _NO_FLIP]
        if phase is Phase.PAY:
            return self._payments(s, seat, s.target)
        acts: list[ShitennoAction] = []
        if s.placed < PLACEMENTS and s.kamons[seat] > 0:
            acts += self._targets(s, seat)
        if DRAW in self._usable_effects(s, seat):
            if s.troop_deck or any(s.troop_discard):
                acts.append(_DRAW_TROOPS)
            if s.options.draw_tile_koku and s.koku_deck:
                acts.append(_DRAW_KOKU)
        if self._may_flip_now(s, seat):
            acts += self._flips(s, seat)
        acts.append(_END_TURN)
        return acts

    def _build_actions(self, s: State) -> list[ShitennoAction]:
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
                    tuple(self._kinds(s.lot_troops)),
                    tuple(_values(s.lot_koku)),
                    s.lot_tile,
                    self._offer_order(s)[0],
                )
            )
        return acts

    @staticmethod
    def _kinds(counts: list[int]) -> list[int]:
        return [k for k, c in enumerate(counts) if c for _ in range(c)]

    def _offer_order(self, s: State) -> list[int]:
        """The players without a lot, other than the Tairo, in title order (§4.3 step 4)."""
        return sorted(
            (p for p in range(s.players) if s.lot_of[p] == NO_TITLE and p != s.tairo),
            key=s.titles.__getitem__,
        )

    def _usable_effects(self, s: State, seat: int) -> list[int]:
        return [code % 3 for code in s.tiles[seat]]

    def _requirement(self, s: State, province: int) -> tuple[int, int, int, int]:
        """Troops needed for the province's next space, by troop (:func:`_need`: §3.1)."""
        stack = s.stacks[province]
        return _NEEDS[province, stack[-1] // 3 if stack else None]

    def _price(self, s: State, seat: int, province: int, space: int) -> int:
        """The koku price: the space value (§3.2), plus the title bonus under G16's alternative."""
        price = P_VALUES[province][space]
        if s.options.koku_price_includes_title_bonus:
            price += TITLE_BONUS[s.titles[seat]]
        return price

    def _payment_means(self, s: State, seat: int) -> tuple[int, int, int]:
        """(+1 tiles, Exchange tiles, wild) the seat may use now; wild as in troop_payments."""
        effects = self._usable_effects(s, seat)
        wild = 0
        if s.titles[seat] == HATAMOTO:  # G7
            wild = 1 if s.options.hatamoto_every_placement else (0 if s.wild_used else 2)
        return effects.count(PLUS_ONE), effects.count(EXCHANGE), wild

    @staticmethod
    def _free_space(s: State, province: int) -> int:
        base = province * SPACES
        for i in range(SPACES):
            if s.board[base + i] == EMPTY:
                return i
        return -1

    def _targets(self, s: State, seat: int) -> list[ShitennoAction]:
        """The provinces with a free space that the seat can pay for (first step); the hand
        is summed up once (its :class:`~.payments.Purse`) for every province."""
        opts = s.options
        plus, exch, wild = self._payment_means(s, seat)
        unit = opts.exchange_rule is ExchangeRule.UNIT
        mixed, combine = opts.mixed_payments, opts.combine_bonus_tiles
        hand = purse(s.hand_troops[seat], s.hand_koku[seat], unit)
        acts: list[ShitennoAction] = []
        for p in range(NPROV):
            space = self._free_space(s, p)
            if space < 0:
                continue
            if troops_payable(
                self._requirement(s, p), hand, plus, exch, wild, unit, mixed, combine
            ) or koku_payable(self._price(s, seat, p, space), hand, plus, exch, combine):
                acts.append(_TARGETS[p])
        return acts

    def _payments(self, s: State, seat: int, p: int) -> list[ShitennoAction]:
        """Every exact payment for the next space of province ``p`` (second step)."""
        opts = s.options
        plus, exch, wild = self._payment_means(s, seat)
        return list(
            _placements(
                p,
                self._requirement(s, p),
                self._price(s, seat, p, self._free_space(s, p)),
                tuple(s.hand_troops[seat]),
                tuple(s.hand_koku[seat]),
                plus,
                exch,
                wild,
                opts.exchange_rule is ExchangeRule.UNIT,
                opts.mixed_payments,
                opts.combine_bonus_tiles,
            )
        )

    def _simple_kamons(self, s: State, seat: int) -> list[int]:
        return [i for i, v in enumerate(s.board) if v == seat]

    def _flips(self, s: State, seat: int) -> list[ShitennoAction]:
        return [_FLIPS[i] for i in self._simple_kamons(s, seat)]

    def _may_flip_now(self, s: State, seat: int) -> bool:
        return (
            s.options.sensei_flip is SenseiTiming.ANY_TIME
            and s.titles[seat] == SENSEI
            and not s.flipped
            and seat in s.board
        )

    # -- applying ---------------------------------------------------------------------

    def apply(
        self, state: State, seat: int, action: ShitennoAction, rng: Rng
    ) -> Sequence[LogEntry]:
        """Carry out a legal action; returns the log lines (secrets in private lines)."""
        s = state
        name = colour(seat)
        log: list[LogEntry] = []
        if isinstance(action, Place):
            self._place(s, seat, action, log)
            s.phase = Phase.CONTROL
            s.target = -1
            self._maybe_end_turn(s, rng, log)
        elif isinstance(action, Target):
            s.phase = Phase.PAY
            s.target = action.province
            log.append(public(msg("shitenno.log.goes", c=name, p=province(action.province))))
        elif isinstance(action, AddTroop):
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
            s.offer_queue = self._offer_order(s)
            s.phase = Phase.OFFER
            to = colour(s.offer_queue[0])
            log.append(public(msg("shitenno.log.offers", c=name, x=self._lot(s), c2=to)))
        elif isinstance(action, Accept):
            log.append(public(msg("shitenno.log.accepts", c=name, x=self._lot(s))))
            self._give_lot(s, seat)
            s.phase = Phase.BUILD
            self._after_lot(s, rng, log)
        elif isinstance(action, Refuse):
            s.offer_queue.pop(0)
            log.append(public(msg("shitenno.log.refuses", c=name)))
            if s.offer_queue:
                log.append(public(msg("shitenno.log.offered", c=colour(s.offer_queue[0]))))
            else:  # everyone refused: the Tairo keeps it and hands the role on (§4.3 step 4)
                keeper = s.tairo
                log.append(public(msg("shitenno.log.keeps", c=colour(keeper), x=self._lot(s))))
                self._give_lot(s, keeper)
                s.phase = Phase.BUILD
                waiting = [p for p in range(s.players) if s.lot_of[p] == NO_TITLE]
                s.tairo = min(waiting, key=s.titles.__getitem__)
                log.append(public(msg("shitenno.log.tairo", c=colour(s.tairo))))
                self._after_lot(s, rng, log)
        elif isinstance(action, TakeLast):
            self._take_last(s, action.title, rng, log)
        elif isinstance(action, UseDraw):
            self._use_draw(s, seat, action.koku, rng, log)
            self._maybe_end_turn(s, rng, log)
        elif isinstance(action, Flip):
            s.board[action.province * SPACES + action.space] += GOLDEN
            s.flipped = True
            where = province(action.province)
            log.append(public(msg("shitenno.log.flip", c=name, p=where, n=action.space + 1)))
            if s.phase is Phase.FLIP:
                self._next_turn(s, rng, log)
            else:
                self._maybe_end_turn(s, rng, log)
        elif isinstance(action, NoFlip):
            log.append(public(msg("shitenno.log.no_flip", c=name)))
            self._next_turn(s, rng, log)
        else:  # EndTurn
            log.append(public(msg("shitenno.log.ends", c=name)))
            self._end_turn(s, rng, log)
        return log

    # the sharing (§4.3)

    def _lot(self, s: State) -> Items | Term:
        return lot(
            self._kinds(s.lot_troops),
            _values(s.lot_koku),
            None if s.lot_tile == NO_TITLE else s.lot_tile,
        )

    def _give_lot(self, s: State, seat: int) -> None:
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

    def _after_lot(self, s: State, rng: Rng, log: list[LogEntry]) -> None:
        """After a lot has gone: when only the Tairo is left, the last lot (§4.3 step 5)."""
        waiting = [p for p in range(s.players) if s.lot_of[p] == NO_TITLE]
        if len(waiting) > 1:
            return
        s.tairo = waiting[0]
        if len(s.tiles_left) == 1:
            self._take_last(s, s.tiles_left[0], rng, log)
        else:
            s.phase = Phase.LAST

    def _take_last(self, s: State, tile: int, rng: Rng, log: list[LogEntry]) -> None:
        seat = s.tairo
        left = _cards(s.pool_troops, s.pool_koku)
        s.lot_troops, s.pool_troops = s.pool_troops, [0] * NKINDS
        s.lot_koku, s.pool_koku = s.pool_koku, [0, 0, 0, 0]
        s.tiles_left.remove(tile)
        s.lot_tile = tile
        log.append(public(msg("shitenno.log.last", c=colour(seat), x=left, a=title(tile))))
        self._give_lot(s, seat)
        self._end_sharing(s, rng, log)

    def _end_sharing(self, s: State, rng: Rng, log: list[LogEntry]) -> None:
        """Hierarchy tiles become titles (§4.3 step 6); then the end check (§4.6, G11)."""
        s.titles = s.lot_of.copy()
        s.tiles_left = []
        log.append(public(msg("shitenno.log.titles", x=self._titles(s))))
        if not s.options.end_after_odd_year and self._end_triggered(s, log):
            self._final_scoring(s, log)
            return
        self._begin_control(s, rng, log)

    def _title_order(self, s: State) -> list[int]:
        return sorted(range(s.players), key=s.titles.__getitem__)

    def _titles(self, s: State) -> Items:
        """Each general's title, in title order: ``Red Daimyo, Blue Shomyo``."""
        return Items(
            tuple(
                msg("shitenno.log.seat_title", c=colour(p), a=title(s.titles[p]))
                for p in self._title_order(s)
            ),
            COMMA,
        )

    def _end_triggered(self, s: State, log: list[LogEntry]) -> bool:
        """Both triggers of §4.6: a supply without kamons, or an empty koku deck."""
        out = [colour(p) for p in range(s.players) if s.kamons[p] == 0]
        if out:
            key = "shitenno.log.no_kamons_one" if len(out) == 1 else "shitenno.log.no_kamons"
            log.append(public(msg(key, x=Items(tuple(out), COMMA))))
            return True
        if not s.koku_deck:
            log.append(public(msg("shitenno.log.koku_out")))
            return True
        return False

    def _draw_troop(self, s: State, rng: Rng) -> int | None:
        """The top troop card; an empty deck is first rebuilt from the discards (§4.4.8, G17)."""
        if not s.troop_deck:
            self._reshuffle(s, rng)
            if not s.troop_deck:
                return None
        return s.troop_deck.pop()

    def _reshuffle(self, s: State, rng: Rng) -> None:
        deck = s.troop_deck + self._kinds(s.troop_discard)
        rng.shuffle(deck)
        s.troop_deck = deck
        s.troop_discard = [0] * NKINDS

    def _begin_sharing(self, s: State, rng: Rng) -> list[LogEntry]:
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
            self._reshuffle(s, rng)
        for _ in range(want):
            kind = self._draw_troop(s, rng)
            if kind is None:
                break
            s.pool_troops[kind] += 1
        for _ in range(min(opts.draw_koku_per_player * n, len(s.koku_deck))):
            s.pool_koku[s.koku_deck.pop()] += 1
        return [self._sharing_line(s)]

    @staticmethod
    def _sharing_line(s: State) -> LogEntry:
        """The public line that opens a sharing: the Tairo and the cards laid out."""
        return public(
            msg(
                "shitenno.log.even",
                n=s.year // 2 + 1,
                c=colour(s.tairo),
                x=_cards(s.pool_troops, s.pool_koku),
            )
        )

    # province control (§4.4)

    def _begin_control(self, s: State, rng: Rng, log: list[LogEntry]) -> None:
        s.year += 1
        s.phase = Phase.CONTROL
        s.order = self._title_order(s)
        s.turn, s.placed = 0, 0
        s.flipped = s.wild_used = False
        s.fresh = []
        log.append(public(msg("shitenno.log.odd", n=s.year // 2 + 1)))
        self._maybe_end_turn(s, rng, log)

    def _place(self, s: State, seat: int, a: Place, log: list[LogEntry]) -> None:
        hand_t, hand_k = s.hand_troops[seat], s.hand_koku[seat]
        for k in a.troops:
            hand_t[k] -= 1
            s.troop_discard[k] += 1  # spent troops come back later (§4.4 step 8)
        for v in a.kokus:
            hand_k[v] -= 1
            s.koku_out[v] += 1  # spent koku leave the game
        tiles = s.tiles[seat]
        for effect, count in ((PLUS_ONE, a.plus), (EXCHANGE, a.exchange)):
            for _ in range(count):
                code = next(c for c in tiles if c % 3 == effect)
                tiles.remove(code)
                s.used_tiles.append(code)
        if a.wild and not s.options.hatamoto_every_placement:
            s.wild_used = True
        p = a.province
        space = self._free_space(s, p)
        s.board[p * SPACES + space] = seat
        s.kamons[seat] -= 1
        rank = s.titles[seat]
        points = P_VALUES[p][space] + TITLE_BONUS[rank]
        s.score[seat] += points
        s.placed += 1
        line = msg(
            "shitenno.log.places",
            c=colour(seat),
            p=province(p),
            n=space + 1,
            x=payment(a),
            n2=points,
        )
        if TITLE_BONUS[rank]:
            line = msg(
                "shitenno.log.places_title", **line.args, n3=TITLE_BONUS[rank], a=title(rank)
            )
        if s.stacks[p]:
            code = s.stacks[p].pop()
            if s.options.new_tiles_usable_same_turn:
                tiles.append(code)
            else:
                s.fresh.append(code)
            line = msg("shitenno.log.and_tile", place=line, tile=bonus_tile(code))
        log.append(public(line))

    def _use_draw(self, s: State, seat: int, koku: bool, rng: Rng, log: list[LogEntry]) -> None:
        tiles = s.tiles[seat]
        code = next(c for c in tiles if c % 3 == DRAW)
        tiles.remove(code)
        s.used_tiles.append(code)
        if koku:
            value = s.koku_deck.pop()
            s.hand_koku[seat][value] += 1
            log.append(public(msg("shitenno.log.draw_koku", c=colour(seat))))
            log.append(private(msg("shitenno.log.drew_koku", c=colour(seat), n=value), seat))
            return
        kind = self._draw_troop(s, rng)
        log.append(public(msg("shitenno.log.draw_troop", c=colour(seat))))
        if kind is not None:
            s.hand_troops[seat][kind] += 1
            drew = msg("shitenno.log.drew_troop", c=colour(seat), x=troop_card(kind))
            log.append(private(drew, seat))

    def _maybe_end_turn(self, s: State, rng: Rng, log: list[LogEntry]) -> None:
        """End the turn at once when public facts leave nothing to do but end it."""
        while s.phase is Phase.CONTROL:
            seat = s.order[s.turn]
            if s.placed < PLACEMENTS and s.kamons[seat] > 0 and EMPTY in s.board:
                return
            if DRAW in self._usable_effects(s, seat) and (
                s.troop_deck or any(s.troop_discard) or (s.options.draw_tile_koku and s.koku_deck)
            ):
                return
            if self._may_flip_now(s, seat):
                return
            self._end_turn(s, rng, log)

    def _end_turn(self, s: State, rng: Rng, log: list[LogEntry]) -> None:
        seat = s.order[s.turn]
        if (
            s.titles[seat] == SENSEI
            and not s.flipped
            and seat in s.board
            and s.options.sensei_flip is SenseiTiming.AFTER_PLACEMENTS
        ):
            s.phase = Phase.FLIP  # G8: the golden flip comes after his placements
            return
        self._next_turn(s, rng, log)

    def _next_turn(self, s: State, rng: Rng, log: list[LogEntry]) -> None:
        seat = s.order[s.turn]
        s.tiles[seat] += s.fresh
        s.fresh = []
        s.turn += 1
        s.placed = 0
        s.phase = Phase.CONTROL
        if s.turn < len(s.order):
            self._maybe_end_turn(s, rng, log)
            return
        if s.options.end_after_odd_year and self._end_triggered(s, log):
            self._final_scoring(s, log)
            return
        s.year += 1
        log += self._begin_sharing(s, rng)

    # the end (§4.7)

    def _majorities(self, s: State) -> list[int]:
        """The winner of each province's majority (-1 for none): golden kamons count
        double, a tie goes to the tied player with the leftmost kamon."""
        winners = []
        for p in range(NPROV):
            weight = [0] * s.players
            first: dict[int, int] = {}
            for i in range(SPACES):
                v = s.board[p * SPACES + i]
                if v == EMPTY:
                    continue
                owner, golden = v % GOLDEN, v >= GOLDEN
                weight[owner] += GOLDEN_WEIGHT if golden else 1
                first.setdefault(owner, i)
            best = max(weight)
            if best == 0:
                winners.append(-1)
                continue
            tied = [q for q in range(s.players) if weight[q] == best]
            winners.append(min(tied, key=first.__getitem__))
        return winners

    def _final_scoring(self, s: State, log: list[LogEntry]) -> None:
        s.phase = Phase.OVER
        result = s.score.copy()
        for seat in range(s.players):
            koku = sum(v * s.hand_koku[seat][v] for v in (1, 2, 3)) * KOKU_POINTS
            tiles = len(s.tiles[seat]) * s.options.unused_tile_points
            result[seat] += koku + tiles
            if tiles:
                line = msg("shitenno.log.koku_tile_points", c=colour(seat), n=koku, n2=tiles)
            else:
                line = msg("shitenno.log.koku_points", c=colour(seat), n=koku)
            log.append(public(line))
        for p, winner in enumerate(self._majorities(s)):
            if winner >= 0:
                result[winner] += P_MAJORITY[p]
                line = msg(
                    "shitenno.log.majority", c=colour(winner), p=province(p), n=P_MAJORITY[p]
                )
                log.append(public(line))
        s.result = result
        scores = tuple(
            msg("shitenno.log.seat_score", c=colour(p), n=result[p]) for p in range(s.players)
        )
        log.append(public(msg("shitenno.log.final", x=Items(scores, COMMA))))

    def outcome(self, state: State) -> Outcome | None:
        """The final favour totals; ties shared, or broken per option G12."""
        if state.result is None:
            return None
        tiebreaks = None
        if state.options.tie_break is TieBreak.MAJORITIES_THEN_KOKU:
            won = self._majorities(state)
            tiebreaks = [
                [won.count(p), sum(v * state.hand_koku[p][v] for v in (1, 2, 3))]
                for p in range(state.players)
            ]
        return Outcome.from_scores(state.result, tiebreaks)

    # -- information ------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Board, lots, titles, scores, supplies and hand sizes for all; the seat's own hand.

        Hidden: other hands (unless ``open_hands``), the order of both decks, and the
        bonus tiles under the top of each stack (their troop faces) and the bonus faces of
        the stacked tiles (§3.1).
        """
        return self.views(state, [seat])[0]

    def views(self, state: State, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        """The seats' views (:meth:`view`), the public part made once and shared."""
        public = self._public_view(state)
        made = []
        for seat in seats:
            v = dict(public)
            if seat is not None:
                v["hand"] = self._hand_json(state, seat)
            made.append(v)
        return made

    def _public_view(self, state: State) -> dict[str, Any]:
        # all a spectator sees ("hand" is None)
        s = state
        board = s.board
        provinces = []
        for p, stack in enumerate(s.stacks):
            base = p * SPACES
            top = stack[-1] // 3 if stack else None
            provinces.append(
                {
                    "name": PROVINCE_NAMES[p],
                    "spaces": [
                        None if cell == EMPTY else {"seat": cell % GOLDEN, "golden": cell >= GOLDEN}
                        for cell in board[base : base + SPACES]
                    ],
                    "stack": len(stack),
                    "top_tile_troop": None if top is None else TROOP_NAMES[top],
                    "requirement": list(_REQUIREMENT_NAMES[p, top]),
                }
            )
        open_hands = s.options.open_hands
        acting = None if s.phase is Phase.OVER else self.to_act(s)[0]
        v: dict[str, Any] = {
            "year": s.year,
            "round": s.year // 2 + 1,
            "phase": s.phase.name.lower(),
            "titles": [TITLE_NAMES[t] for t in s.titles],
            "scores": s.score.copy(),
            "kamons": s.kamons.copy(),
            "troop_cards": [sum(h) for h in s.hand_troops],
            "koku_cards": [sum(h) for h in s.hand_koku],
            "bonus_tiles": [[_tile_json(c) for c in t] for t in s.tiles],
            "new_bonus_tiles": [_tile_json(c) for c in s.fresh],
            "used_bonus_tiles": [_tile_json(c) for c in s.used_tiles],
            "provinces": provinces,
            "troop_deck": len(s.troop_deck),
            "troop_discard": _codes(s.troop_discard),
            "koku_deck": len(s.koku_deck),
            "koku_spent": _values(s.koku_out),
            "tairo": s.tairo if s.phase <= Phase.LAST else None,
            "face_up": {"troops": _codes(s.pool_troops), "koku": _values(s.pool_koku)},
            "lot": {
                "troops": _codes(s.lot_troops),
                "koku": _values(s.lot_koku),
                "tile": None if s.lot_tile == NO_TITLE else TITLE_NAMES[s.lot_tile],
            },
            "hierarchy_tiles": [TITLE_NAMES[t] for t in s.tiles_left],
            "lots_taken": [None if t == NO_TITLE else TITLE_NAMES[t] for t in s.lot_of],
            "offer_queue": s.offer_queue.copy(),
            "order": s.order.copy(),
            "turn": s.turn,
            "acting": acting,
            "placements": s.placed,
            "target": None if s.target < 0 else PROVINCE_NAMES[s.target],
            "sensei_flipped": s.flipped,
            "hatamoto_wild_used": s.wild_used,
            "hand": None,
            "final_scores": None if s.result is None else s.result.copy(),
        }
        if open_hands:
            v["hands"] = [self._hand_json(s, p) for p in range(s.players)]
        return v

    @staticmethod
    def _hand_json(s: State, seat: int) -> dict[str, Any]:
        return {"troops": _codes(s.hand_troops[seat]), "koku": _values(s.hand_koku[seat])}

    def determinize(self, view: dict[str, Any], rng: Rng) -> State:
        """Rebuild a full state from a seat's view, sampling what the seat cannot know:
        other hands from the unaccounted cards, both deck orders, and the stacked tiles
        (keeping each visible top troop face)."""
        seat: int = view["seat"]
        opts = parse_options(ShitennoOptions, view["options"])
        s = State()
        s.players, s.options = view["players"], opts
        n = s.players
        s.phase = _PHASES[view["phase"]]
        s.year = view["year"]
        s.titles = [TITLE_NAMES.index(t) for t in view["titles"]]
        s.score = list(view["scores"])
        s.kamons = list(view["kamons"])
        s.tiles = [[_tile_code(t) for t in ts] for ts in view["bonus_tiles"]]
        s.fresh = [_tile_code(t) for t in view["new_bonus_tiles"]]
        s.used_tiles = [_tile_code(t) for t in view["used_bonus_tiles"]]
        s.troop_discard = _counts_of_codes(view["troop_discard"])
        s.koku_out = _counts_of_values(view["koku_spent"])
        s.board = []
        for prov in view["provinces"]:
            for sp in prov["spaces"]:
                s.board.append(
                    EMPTY if sp is None else sp["seat"] + (GOLDEN if sp["golden"] else 0)
                )
        s.tairo = view["tairo"] if view["tairo"] is not None else 0
        s.pool_troops = _counts_of_codes(view["face_up"]["troops"])
        s.pool_koku = _counts_of_values(view["face_up"]["koku"])
        s.lot_troops = _counts_of_codes(view["lot"]["troops"])
        s.lot_koku = _counts_of_values(view["lot"]["koku"])
        tile = view["lot"]["tile"]
        s.lot_tile = NO_TITLE if tile is None else TITLE_NAMES.index(tile)
        s.tiles_left = [TITLE_NAMES.index(t) for t in view["hierarchy_tiles"]]
        s.lot_of = [NO_TITLE if t is None else TITLE_NAMES.index(t) for t in view["lots_taken"]]
        s.offer_queue = list(view["offer_queue"])
        s.order = list(view["order"])
        s.turn, s.placed = view["turn"], view["placements"]
        s.target = -1 if view["target"] is None else PROVINCE_NAMES.index(view["target"])
        s.flipped, s.wild_used = view["sensei_flipped"], view["hatamoto_wild_used"]
        s.result = None if view["final_scores"] is None else list(view["final_scores"])

        # bonus tile stacks: what is not held, spent or fresh lies on the board
        unseen = _bonus_tiles(opts)
        for code in [*(c for t in s.tiles for c in t), *s.fresh, *s.used_tiles]:
            unseen.remove(code)
        s.stacks = self._deal_stacks(
            unseen,
            [prov["stack"] for prov in view["provinces"]],
            [
                None
                if prov["top_tile_troop"] is None
                else TROOP_NAMES.index(prov["top_tile_troop"])
                for prov in view["provinces"]
            ],
            rng,
        )

        # hands and decks: the cards nobody can see are dealt to the hidden hands
        known = view["hands"] if opts.open_hands else None
        mine = view["hand"]
        s.hand_troops = [
            _counts_of_codes(mine["troops"])
            if p == seat or known is None
            else _counts_of_codes(known[p]["troops"])
            for p in range(n)
        ]
        s.hand_koku = [
            _counts_of_values(mine["koku"])
            if p == seat or known is None
            else _counts_of_values(known[p]["koku"])
            for p in range(n)
        ]
        secret = [p for p in range(n) if p != seat and known is None]
        troops = _troop_deck(opts)
        kokus = _koku_deck(opts)
        for counts in [
            *(s.hand_troops[p] for p in range(n) if p not in secret),
            s.troop_discard,
            s.pool_troops,
            s.lot_troops,
        ]:
            for k in range(NKINDS):
                for _ in range(counts[k]):
                    troops.remove(k)
        for counts in [
            *(s.hand_koku[p] for p in range(n) if p not in secret),
            s.koku_out,
            s.pool_koku,
            s.lot_koku,
        ]:
            for v in (1, 2, 3):
                for _ in range(counts[v]):
                    kokus.remove(v)
        self._deal_hidden(s, secret, troops, kokus, view["troop_cards"], view["koku_cards"], rng)
        return s

    def _deal_hidden(
        self,
        s: State,
        secret: list[int],
        troops: list[int],
        kokus: list[int],
        troop_sizes: list[int],
        koku_sizes: list[int],
        rng: Rng,
    ) -> None:
        """Deal the unseen ``troops`` and ``kokus`` to the ``secret`` hands (to their public
        sizes) and the rest to the decks, in random order.

        A player who has chosen a province (phase PAY) has shown that he can pay for it,
        so his hand is first given one payment drawn from the unseen cards.
        """
        rng.shuffle(troops)
        rng.shuffle(kokus)
        for p in secret:
            s.hand_troops[p] = [0] * NKINDS
            s.hand_koku[p] = [0, 0, 0, 0]
        acting = s.order[s.turn] if s.phase is Phase.PAY else -1
        if acting in secret:
            pool_t, pool_k = [0] * NKINDS, [0, 0, 0, 0]
            for k in troops:
                pool_t[k] += 1
            for v in kokus:
                pool_k[v] += 1
            hand_t, hand_k = s.hand_troops[acting], s.hand_koku[acting]
            s.hand_troops[acting], s.hand_koku[acting] = pool_t, pool_k
            fitting = [
                a
                for a in self._payments(s, acting, s.target)
                if isinstance(a, Place)
                and len(a.troops) <= troop_sizes[acting]
                and len(a.kokus) <= koku_sizes[acting]
            ]
            s.hand_troops[acting], s.hand_koku[acting] = hand_t, hand_k
            if fitting:
                pay = rng.choice(fitting)
                for k in pay.troops:
                    troops.remove(k)
                    hand_t[k] += 1
                for v in pay.kokus:
                    kokus.remove(v)
                    hand_k[v] += 1
        for p in secret:
            for _ in range(troop_sizes[p] - sum(s.hand_troops[p])):
                s.hand_troops[p][troops.pop()] += 1
            for _ in range(koku_sizes[p] - sum(s.hand_koku[p])):
                s.hand_koku[p][kokus.pop()] += 1
        s.troop_deck, s.koku_deck = troops, kokus

    @staticmethod
    def _deal_stacks(
        pool: list[int], sizes: list[int], tops: list[int | None], rng: Rng
    ) -> list[list[int]]:
        """Stacks of the given sizes from ``pool``, each top tile of the given troop type."""
        pool = pool.copy()
        rng.shuffle(pool)
        stacks: list[list[int]] = [[] for _ in sizes]
        top_codes: list[int | None] = []
        for troop in tops:
            if troop is None:
                top_codes.append(None)
                continue
            code = next(c for c in pool if c // 3 == troop)
            pool.remove(code)
            top_codes.append(code)
        for p, size in enumerate(sizes):
            if size:
                stacks[p] = [pool.pop() for _ in range(size - 1)]
                top = top_codes[p]
                assert top is not None
                stacks[p].append(top)
        return stacks

    def vary_secrets(self, state: State, seat: int, rng: Rng) -> State:
        """Redeal everything hidden from ``seat``: other hands, deck orders, stacked tiles."""
        s = state.copy()
        others = [] if s.options.open_hands else [p for p in range(s.players) if p != seat]
        troops = s.troop_deck + [k for p in others for k in self._kinds(s.hand_troops[p])]
        kokus = s.koku_deck + [v for p in others for v in _values(s.hand_koku[p])]
        self._deal_hidden(
            s,
            others,
            troops,
            kokus,
            [sum(h) for h in s.hand_troops],
            [sum(h) for h in s.hand_koku],
            rng,
        )
        pool = [c for stack in s.stacks for c in stack]
        s.stacks = self._deal_stacks(
            pool, [len(t) for t in s.stacks], [t[-1] // 3 if t else None for t in s.stacks], rng
        )
        return s

    # -- research encodings (:mod:`~sengoku.games.shitenno.encoding`) -------------------

    def action_vocabulary(self, players: int, options: ShitennoOptions) -> list[str]:
        """The 47 action tokens, the same for every player count and option set."""
        return list(encoding.VOCABULARY)

    def action_tokens(self, state: State, seat: int, action: ShitennoAction) -> list[str]:
        """A card, tile or province token; a payment as its cards and tiles, then confirm."""
        return encoding.action_tokens(state, seat, action)

    def observation_shape(self, players: int, options: ShitennoOptions) -> tuple[int, ...]:
        """``(175 + 69 * players,)``: 313, 382 or 451 values."""
        return encoding.observation_shape(players)

    def observation_tensor(self, view: dict[str, Any]) -> list[float]:
        """The view as :func:`~sengoku.games.shitenno.encoding.layout` lays it out."""
        return encoding.observation_tensor(view)

    # -- hooks for agents -------------------------------------------------------------

    def policy(
        self, state: State, seat: int, legal: Sequence[ShitennoAction], rng: Rng
    ) -> ShitennoAction | None:
        """The heuristic's choice (:mod:`~sengoku.games.shitenno.heuristic`)."""
        return heuristic.policy(state, seat, legal, rng)

    def evaluate(self, state: State) -> Sequence[float] | None:
        """Estimated win shares (:mod:`~sengoku.games.shitenno.heuristic`)."""
        return heuristic.evaluate(state)

    def estimate(self, state: State) -> Sequence[float] | None:
        """Estimated final scores (:mod:`~sengoku.games.shitenno.heuristic`)."""
        return heuristic.score_estimate(state)

    # -- presentation -----------------------------------------------------------------

    def explain_illegal(self, state: State, seat: int, action: Any) -> str | None:
        """Say in words why an action is refused, for the common mistakes."""
        s = state
        if isinstance(action, Place):
            if s.phase is not Phase.CONTROL:
                return "kamons are placed only during your odd-year turn"
            if s.placed >= PLACEMENTS:
                return "at most two kamons may be placed per turn (§4.4)"
            if s.kamons[seat] == 0:
                return f"{COLOURS[seat]} has no control kamon left"
            base = action.province * SPACES if 0 <= action.province < NPROV else 0
            if EMPTY not in s.board[base : base + SPACES]:
                return "that province has no free space"
            return (
                "that payment is not an exact payment you can make: pay the requirement in "
                "troops or the space value in koku, with no card to spare (§4.4 step 3)"
            )
        if isinstance(action, Target):
            if s.phase is not Phase.CONTROL:
                return "a province is chosen only at the start of a placement in your turn"
            return (
                "you cannot place there now: the province is full, you have placed two "
                "kamons or have none left, or no payment of yours covers it"
            )
        if isinstance(action, AddTroop | AddKoku | AddTile | Offer) and s.phase is Phase.BUILD:
            return "that card or tile is not on the table, or the lot is not ready to offer"
        return None

    def render_text(self, view: dict[str, Any]) -> str | None:
        """The view as text for a terminal."""
        from .text import render

        return render(view)

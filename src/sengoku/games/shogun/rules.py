"""The rules of Shogun on the core protocol (see ``docs/shogun.md``).

A match runs: (draft) -> for each year: four events drawn -> spring, summer, autumn (each:
secret planning of 10 action spaces and a bid, the season's event, bids revealed and paid, turn
positions chosen with their special cards, the 10 actions in card order) -> winter (rice loss,
hunger revolts, scoring). ``apply`` runs every automatic step until the next decision.

>>> import sengoku
>>> m = sengoku.new_match("shogun", 4, seed=1)
>>> m.to_act(), str(m.legal_actions(0)[0])
([0, 1, 2, 3], 'plan castle: Kaga')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from sengoku.core import (
    Game,
    Items,
    LogEntry,
    Message,
    OptionError,
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
    BLANK,
    EMPTY,
    NO_BID,
    PROVINCE_BID,
    STAY,
    UNSET,
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
from .data import ACTION_SHORT, ACTION_TITLES, ACTIONS, Board, load_data
from .messages import (
    COLOURS,
    SEMICOLON,
    action_card,
    action_message,
    bid_planned,
    bid_shown,
    building,
    colour,
    entry,
    event,
    items,
    pair,
    province,
    space,
    special,
)
from .options import (
    OverBid,
    PeasantAllies,
    RevealCards,
    RevoltPeasants,
    Setup,
    ShogunOptions,
    ShortRecruit,
    SixArmies,
    TheatreEvent,
    TieBreak,
)
from .state import (
    ARMIES,
    BATTLE,
    BUILDING_BITS,
    CANCELLED,
    CASTLE,
    DONE,
    DRAFT,
    OVER,
    PENDING,
    PHASE_NAMES,
    PLAN,
    POSITION,
    RECRUIT_MOVE,
    SEASONS,
    TARGET,
    TEMPLE,
    THEATRE,
    UNSET_BID,
    WINTER,
    State,
)
from .tower import MODELS, Tower

D = load_data()
N = len(D.provinces)
NAMES = D.names
A_CASTLE, A_TEMPLE, A_THEATRE, A_RICE, A_TAX, A_R5, A_R3, A_R1, A_BA, A_BB = range(10)
S_CHEST, S_RICE, S_SIX, S_ATTACK, S_DEFENCE = range(5)
EV = D.event_kind
B_COST = tuple(D.tables.building_costs[k] for k in ("castle", "temple", "theatre"))
MAJORITY = tuple(D.tables.majority_points[k] for k in ("castle", "temple", "theatre"))
SUPPLY_BUILDINGS = tuple(D.tables.buildings[k] for k in ("castle", "temple", "theatre"))
CUBES = D.tables.cubes_per_colour
PEASANTS = D.tables.peasant_cubes
MARKERS = D.tables.revolt_markers


def board_for(players: int, options: ShogunOptions) -> Board:
    """The compiled board for these options; raise :class:`OptionError` for bad moon lists."""
    if options.board.value == "sun":
        return D.board("sun", players)
    sea: list[tuple[str, str]] = []
    for route in _split(options.moon_sea_routes):
        a, _, b = route.partition("/")
        if a not in D.index or b not in D.index or a == b:
            raise OptionError(
                f"option 'moon_sea_routes': {route!r} is not 'Province/Province' of two provinces"
            )
        sea.append((a, b))
    removed = _split(options.moon_three_player_removed)
    if any(r not in D.index for r in removed) or len(set(removed)) != len(removed):
        raise OptionError("option 'moon_three_player_removed': unknown or repeated province")
    if players == 3 and options.setup is Setup.STANDARD:
        clash = set(removed) & {NAMES[p] for row in D.lineups[3] for p in row}
        if clash:
            raise OptionError(
                "option 'moon_three_player_removed': the standard 3-player line-up uses "
                + ", ".join(sorted(clash))
            )
    try:
        return D.board("moon", players, sea, removed)
    except ValueError as exc:
        raise OptionError(f"option 'moon_three_player_removed': {exc}") from None


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def popcount(bits: int) -> int:
    """Number of buildings in a bitmask."""
    return (bits & 1) + ((bits >> 1) & 1) + ((bits >> 2) & 1)


class Shogun(Game[State, ShogunAction]):
    """Shogun (Dirk Henn, 2006) for 3 to 5 players, both board sides, draft or standard line-up."""

    name = "shogun"
    title = "Shogun"
    player_counts = (3, 4, 5)
    options_type = ShogunOptions
    catalog = catalog("shogun")
    option_sets = (
        {"board": "moon"},
        {"setup": "draft"},
        {"board": "moon", "setup": "draft"},
        {
            "tower_model": "imr",
            "show_tower": True,
            "over_bid": "pay_what_you_have",
            "short_recruit": "place_remaining",
            "collect_revolt_peasants": "after",
            "peasant_allies": "at_most_one_marker",
            "battle_move_optional": True,
            "six_armies_card": "plus_one",
            "defence_card_in_revolts": True,
            "castle_event_in_revolts": True,
            "years": 1,
        },
        {
            "tower_model": "wos",
            "no_theatre_event": "on_reveal",
            "tie_break": "chests_then_buildings",
            "years": 3,
        },
        {"no_theatre_event": "action_one", "tie_break": "buildings", "peasant_allies": "never"},
    )

    def seat_name(self, seat: int) -> str:
        return COLOURS[seat]

    def action_message(self, action: ShogunAction) -> Message:
        """How a replay names a move (:func:`~sengoku.games.shogun.messages.action_message`)."""
        return action_message(action)

    def client_data(self) -> dict[str, Any]:
        """Provinces (§14.1), the graph (§14.2-14.4), events, special cards, the action
        spaces in player-board order and the cost tables, for drawing the board.

        >>> data = Shogun().client_data()
        >>> data["provinces"][0]["name"], data["actions"][4], data["tables"]["recruit"]["recruit5"]
        ('Mutsu', {'id': 'tax', 'title': 'collect taxes', 'short': 'tax'}, {'cost': 3, 'armies': 5})
        """
        data: dict[str, Any] = without_sources(
            {
                "colours": list(COLOURS),
                "regions": D.regions,
                "provinces": msgspec.to_builtins(D.provinces),
                "adjacency": msgspec.to_builtins(D.adjacency),
                "events": msgspec.to_builtins(D.events),
                "specials": msgspec.to_builtins(D.specials),
                "tables": msgspec.to_builtins(D.tables),
                "actions": [
                    {"id": i, "title": t, "short": s}
                    for i, t, s in zip(ACTIONS, ACTION_TITLES, ACTION_SHORT, strict=True)
                ],
            }
        )
        return data

    # ------------------------------------------------------------------ setup

    def setup(self, players: int, options: ShogunOptions, rng: Rng) -> State:
        s = _blank_state(players, options, board_for(players, options))
        log: list[LogEntry] = []
        if options.setup is Setup.STANDARD:
            for seat, row in enumerate(D.lineups[players]):
                for prov, stack in zip(row, D.stacks[players], strict=True):
                    s.owner[prov] = seat
                    s.armies[prov] = stack
                    s.supply[seat] -= stack
            log.append(public(msg("shogun.log.lineup")))
            _start_game(s, rng, log)
        else:
            s.phase = DRAFT
            n_stacks = len(D.stacks[players])
            s.stacks_left = [list(D.stacks[players]) for _ in range(players)]
            start = rng.randbelow(players)
            s.draft_order = [(start + i) % players for _ in range(n_stacks) for i in range(players)]
            s.deck_top = [p for p in range(N) if s.board.in_play[p]]
            s.draft_up = [_draw_card(s, rng), _draw_card(s, rng)]
            first, second = s.draft_up
            log.append(
                public(
                    msg(
                        "shogun.log.draft_first",
                        c=colour(start),
                        p=province(first),
                        p2=province(second),
                    )
                )
            )
        s.setup_log = tuple(log)
        return s

    def initial_log(self, state: State) -> Sequence[LogEntry]:
        return state.setup_log

    def clone(self, state: State) -> State:
        return state.clone()

    # ------------------------------------------------------------------ who acts

    def to_act(self, state: State) -> list[int]:
        ph = state.phase
        if ph == PLAN:
            return [p for p in range(state.players) if state.plan_n[p] < 11]
        if ph in (TARGET, ARMIES):
            return [state.pending[0]]
        if ph == POSITION:
            return [state.choosers[state.chooser_idx]]
        if ph == DRAFT:
            return [state.draft_order[0]]
        if ph == WINTER:
            return [state.winter_queue[0]]
        return []

    def legal_actions(self, state: State, seat: int) -> list[ShogunAction]:
        if seat not in self.to_act(state):
            return []
        ph = state.phase
        if ph == PLAN:
            return _plan_options(state, seat)  # type: ignore[return-value]
        if ph == TARGET:
            return _march_options(state)  # type: ignore[return-value]
        if ph == ARMIES:
            return [Armies(n) for n in range(1, state.armies[state.pending[2]])]
        if ph == POSITION:
            return [TakePosition(i, state.specials[i]) for i in range(5) if state.positions[i] < 0]
        if ph == DRAFT:
            stacks = sorted(set(state.stacks_left[seat]), reverse=True)
            if state.draft_drawn >= 0:
                return [Draft(state.draft_drawn, st) for st in stacks]
            out: list[ShogunAction] = [Draft(c, st) for c in state.draft_up for st in stacks]
            if state.deck_top or state.deck_bottom:
                out.append(TakeTop())
            return out
        if ph == WINTER:
            return [Revolt(p) for p in state.revolt_left]
        return []

    # ------------------------------------------------------------------ apply

    def apply(self, state: State, seat: int, action: ShogunAction, rng: Rng) -> Sequence[LogEntry]:
        s = state
        log: list[LogEntry] = []
        who = colour(seat)
        if isinstance(action, Plan):
            s.plan[seat][action.space] = action.card
            s.plan_n[seat] += 1
            line = msg("shogun.log.plans", c=who, a=space(action.space), x=entry(action.card))
            log.append(private(line, seat))
        elif isinstance(action, Bid):
            s.bid[seat] = action.value
            s.bid_card[seat] = action.province
            s.plan_n[seat] = 11
            log.append(private(bid_planned(seat, action.value, action.province), seat))
            if all(n == 11 for n in s.plan_n):
                _end_planning(s, rng, log)
        elif isinstance(action, TakePosition):
            s.positions[action.position] = seat
            s.pos_of[seat] = action.position
            s.chooser_idx += 1
            log.append(public(_takes_position(seat, action)))
            _after_position(s, rng, log)
        elif isinstance(action, March):
            if action.target == STAY:
                log.append(public(msg("shogun.log.stays", c=who, p=province(action.source))))
                _finish_decision(s, rng, log)
            else:
                s.pending[3] = action.target
                if s.armies[action.source] == 2:
                    _march_recorded(s, rng, seat, action.source, action.target, 1, log)
                    _finish_decision(s, rng, log)
                else:
                    s.phase = ARMIES
        elif isinstance(action, Armies):
            _, _, src, dst = s.pending
            _march_recorded(s, rng, seat, src, dst, action.n, log)
            _finish_decision(s, rng, log)
        elif isinstance(action, TakeTop):
            s.last_seen[seat] = sorted(s.draft_up)
            s.draft_drawn = _draw_card(s, rng)
            log.append(public(msg("shogun.log.top_card", c=who, p=province(s.draft_drawn))))
        elif isinstance(action, Draft):
            _apply_draft(s, rng, seat, action, log)
        else:
            s.revolt_left.remove(action.province)
            _hunger_revolt(s, rng, seat, action.province, log)
            _run_winter(s, rng, log)
        return log

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER or state.final_scores is None:
            return None
        return Outcome.from_scores(state.final_scores, _tiebreaks(state))

    # ------------------------------------------------------------------ information

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return _view(state, seat)

    def views(self, state: State, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        """The seats' views (:meth:`view`): a spectator's made once and shared, with each
        seat's own plans and bids (what it may see of them) put in."""
        public = _view(state, None)
        return [public if seat is None else {**public, **_own(state, seat)} for seat in seats]

    def determinize(self, view: dict[str, Any], rng: Rng) -> State:
        return _determinize(view, rng)

    def vary_secrets(self, state: State, seat: int, rng: Rng) -> State:
        s = state.clone()
        for p in range(s.players):
            if p != seat:
                _resample_plan(s, p, rng, _visible_plan(s, p, seat))
        if not s.options.show_tower:
            reserve = [s.supply[o] + t for o, t in enumerate(s.tower.contents())]
            _sample_tower(s, reserve, rng)
        return s

    # ------------------------------------------------------------------ research encodings

    def action_vocabulary(self, players: int, options: ShogunOptions) -> list[str]:
        """The 120 action tokens (:mod:`~sengoku.games.shogun.encoding`)."""
        return encoding.action_vocabulary(players, options)

    def action_tokens(self, state: State, seat: int, action: ShogunAction) -> list[str]:
        """What ``action`` puts where, mostly one token (:mod:`~sengoku.games.shogun.encoding`)."""
        return encoding.action_tokens(state, seat, action)

    def observation_shape(self, players: int, options: ShogunOptions) -> tuple[int, ...]:
        """One flat part per player count (:mod:`~sengoku.games.shogun.encoding`)."""
        return encoding.observation_shape(players, options)

    def observation_tensor(self, view: dict[str, Any]) -> list[float]:
        """The view, seats relative to its own (:mod:`~sengoku.games.shogun.encoding`)."""
        return encoding.observation_tensor(view)

    def explain_illegal(self, state: State, seat: int, action: Any) -> str | None:
        if seat not in self.to_act(state):
            return None
        phase = PHASE_NAMES[state.phase]
        if state.phase == PLAN and isinstance(action, Plan) and action.space != state.plan_n[seat]:
            return (
                f"plan the spaces in order: {COLOURS[seat]} is at space "
                f"{state.plan_n[seat] + 1} ({ACTION_TITLES[min(state.plan_n[seat], 9)]})"
            )
        if (
            state.phase == PLAN
            and isinstance(action, Bid)
            and action.value in range(5)
            and action.value > state.money[seat]
        ):
            return f"a bid of {action.value} is more than {COLOURS[seat]}'s chests"
        return f"not a legal action in the {phase} phase"

    def render_text(self, view: dict[str, Any]) -> str | None:
        from .text import render

        return render(view)

    # ------------------------------------------------------------------ hooks for agents

    def policy(
        self, state: State, seat: int, legal: Sequence[ShogunAction], rng: Rng
    ) -> ShogunAction | None:
        """The heuristic's choice (:mod:`~sengoku.games.shogun.heuristic`)."""
        return heuristic.policy(state, seat, legal, rng)

    def evaluate(self, state: State) -> Sequence[float] | None:
        """Estimated win shares (:mod:`~sengoku.games.shogun.heuristic`)."""
        return heuristic.evaluate(state)

    def estimate(self, state: State) -> Sequence[float] | None:
        """Estimated final scores (:mod:`~sengoku.games.shogun.heuristic`)."""
        return heuristic.score_estimate(state)


# ====================================================================== setup helpers


def _blank_state(players: int, options: ShogunOptions, board: Board) -> State:
    s = State()
    s.players = players
    s.options = options
    s.board = board
    s.phase = PLAN
    s.year = 1
    s.season = 0
    s.owner = [-1] * N
    s.armies = [0] * N
    s.bld = [0] * N
    s.markers = [0] * N
    s.markers_left = MARKERS
    s.money = [D.tables.starting_chests[str(players)]] * players
    s.rice = [0] * players
    s.vp = [0] * players
    s.supply = [CUBES] * players + [PEASANTS]
    s.tower = Tower(players, MODELS[options.tower_model.value])
    s.bsupply = list(SUPPLY_BUILDINGS)
    s.events_left = list(range(len(D.events)))
    s.year_events = []
    s.season_events = []
    s.event = -1
    s.action_order = []
    s.action_idx = 0
    s.pos_idx = 0
    s.revealed_n = 0
    s.specials = []
    s.plan = [[UNSET] * 10 for _ in range(players)]
    s.status = [[PENDING] * 10 for _ in range(players)]
    s.plan_n = [0] * players
    s.bid = [UNSET_BID] * players
    s.bid_card = [-1] * players
    s.bids_revealed = False
    s.hand = [[] for _ in range(players)]
    s.hand_size = [0] * players
    s.choosers = []
    s.chooser_idx = 0
    s.positions = [-1] * 5
    s.pos_of = [-1] * players
    s.pending = []
    s.autumn_order = []
    s.winter_queue = []
    s.revolt_left = []
    s.revolt_bonus = -1
    s.draft_order = []
    s.draft_drawn = -1
    s.draft_up = []
    s.deck_top = []
    s.deck_bottom = []
    s.last_seen = [[] for _ in range(players)]
    s.stacks_left = [[] for _ in range(players)]
    s.final_scores = None
    s.setup_log = ()
    s.battles = []
    s.winters = []
    return s


def _start_game(s: State, rng: Rng, log: list[LogEntry]) -> None:
    """Prime the tower (rules §2.5) and start the first year."""
    pri = D.tables.tower_priming
    thrown = [min(pri.per_player, s.supply[p]) for p in range(s.players)] + [pri.peasants]
    for o, n in enumerate(thrown):
        s.supply[o] -= n
    out = s.tower.prime(thrown, rng)
    for o, n in enumerate(out):
        s.supply[o] += n
    if s.options.show_tower:
        # the counts a careful player keeps (option show_tower); hidden otherwise
        line = msg(
            "shogun.log.primed_out",
            n=pri.per_player,
            n2=pri.peasants,
            x=_tower_counts(s, out, range(s.players + 1)),
        )
    else:
        line = msg("shogun.log.primed", n=pri.per_player, n2=pri.peasants)
    log.append(public(line))
    _start_year(s, rng, log)


def _start_year(s: State, rng: Rng, log: list[LogEntry]) -> None:
    """Rules §3: four events for the year, rice back to 0."""
    drawn = [s.events_left.pop(rng.randbelow(len(s.events_left))) for _ in range(4)]
    s.year_events = sorted(drawn)
    s.season_events = []
    s.rice = [0] * s.players
    s.season = 0
    events = items((event(e) for e in s.year_events), SEMICOLON)
    log.append(public(msg("shogun.log.year_begins", n=s.year, x=events)))
    _start_season(s, rng, log)


def _start_season(s: State, rng: Rng, log: list[LogEntry]) -> None:
    """Rules §4.1-4.3: action cards (5 face up), special cards, then secret planning."""
    s.phase = PLAN
    cards = list(range(10))
    s.action_order = [cards.pop(rng.randbelow(len(cards))) for _ in range(5)]
    specials = list(range(5))
    rng.shuffle(specials)
    s.specials = specials
    npl = s.players
    s.plan = [[UNSET] * 10 for _ in range(npl)]
    s.status = [[PENDING] * 10 for _ in range(npl)]
    s.plan_n = [0] * npl
    s.bid = [UNSET_BID] * npl
    s.bid_card = [-1] * npl
    s.bids_revealed = False
    s.hand = [[p for p in range(N) if s.owner[p] == seat] for seat in range(npl)]
    s.hand_size = [len(h) + 5 for h in s.hand]
    s.revealed_n = 0
    s.event = -1
    s.positions = [-1] * 5
    s.pos_of = [-1] * npl
    s.choosers = []
    s.chooser_idx = 0
    s.action_idx = 0
    s.pos_idx = 0
    s.pending = []
    log.append(
        public(
            msg(
                "shogun.log.season_start",
                n=s.year,
                s=Term(f"shogun.season.{SEASONS[s.season]}"),
                x=items(action_card(a) for a in s.action_order),
                x2=items(special(c) for c in s.specials),
            )
        )
    )


# ====================================================================== draft


def _deck_size(s: State) -> int:
    return len(s.deck_top) + len(s.deck_bottom)


def _draw_card(s: State, rng: Rng) -> int:
    """Draw the top card of the province pile (its unknown part is in random order)."""
    if s.deck_top:
        return s.deck_top.pop(rng.randbelow(len(s.deck_top)))
    return s.deck_bottom.pop(0)


def _apply_draft(s: State, rng: Rng, seat: int, action: Draft, log: list[LogEntry]) -> None:
    """Rules §2.4: take a card, place a stack there, refill the face-up cards."""
    s.draft_order.pop(0)
    prov = action.province
    who, where = colour(seat), province(prov)
    if prov == s.draft_drawn:
        s.draft_drawn = -1
        how = msg("shogun.log.places", c=who, n=action.stack, p=where)
    else:
        s.last_seen[seat] = sorted(s.draft_up)
        i = s.draft_up.index(prov)
        if _deck_size(s):
            s.draft_up[i] = _draw_card(s, rng)
            turned = province(s.draft_up[i])
            how = msg("shogun.log.drafts_turned", c=who, p=where, n=action.stack, p2=turned)
        else:
            s.draft_up.pop(i)
            how = msg("shogun.log.drafts", c=who, p=where, n=action.stack)
    s.owner[prov] = seat
    s.armies[prov] = action.stack
    s.supply[seat] -= action.stack
    s.stacks_left[seat].remove(action.stack)
    log.append(public(how))
    if not s.draft_order:
        s.draft_up = []
        s.deck_top = []
        s.deck_bottom = []
        _start_game(s, rng, log)
        return
    nxt = s.draft_order[0]
    if sorted(s.draft_up) == s.last_seen[nxt] and len(s.draft_up) == 2 and _deck_size(s) >= 2:
        # the same two cards as on his previous pick: under the pile, two new ones (rules §2.4)
        s.deck_bottom.extend(s.draft_up)
        s.draft_up = [_draw_card(s, rng), _draw_card(s, rng)]
        first, second = s.draft_up
        log.append(public(msg("shogun.log.under_pile", p=province(first), p2=province(second))))


# ====================================================================== planning


#: Every planning choice, made once (actions are immutable): ``_PLANS[space][card]``, a
#: province card by its number, a blank or nothing at ``BLANK`` and ``EMPTY`` (from the end).
_PLANS = tuple(tuple(Plan(sp, p) for p in (*range(N), EMPTY, BLANK)) for sp in range(10))
assert all(row[BLANK].card == BLANK and row[EMPTY].card == EMPTY for row in _PLANS)
#: The bids, made once: chests 0..4, each province card, nothing.
_CHEST_BIDS = tuple(Bid(v) for v in range(5))
_CARD_BIDS = tuple(Bid(PROVINCE_BID, p) for p in range(N))
_NO_BID = Bid(NO_BID)


def _plan_options(s: State, seat: int) -> list[Plan | Bid]:
    """Rules §4.3: one card per space; a province at most once; cover all spaces if possible."""
    n = s.plan_n[seat]
    entries = s.plan[seat]
    used = entries[:n] if n < 10 else entries
    blanks = 0
    usedset = set()
    for e in used:
        if e >= 0:
            usedset.add(e)
        elif e == BLANK:
            blanks += 1
    provs = [p for p in s.hand[seat] if p not in usedset]
    if n < 10:
        plans = _PLANS[n]
        opts: list[Plan | Bid] = [plans[p] for p in provs]
        if blanks < 5:
            opts.append(plans[BLANK])
        if len(provs) + 5 - blanks < 11 - n:
            opts.append(plans[EMPTY])
        return opts
    bids: list[Plan | Bid] = []
    if blanks < 5:
        limit = 4 if s.options.over_bid is OverBid.PAY_WHAT_YOU_HAVE else min(4, s.money[seat])
        bids.extend(_CHEST_BIDS[: max(0, limit + 1)])
    bids.extend(_CARD_BIDS[p] for p in provs)
    if not bids:
        bids.append(_NO_BID)
    return bids


def bid_rank(value: int) -> int:
    """Rules §4.5/§8: chests 4..1 > province card (0.5) > chest 0 > nothing (in half chests)."""
    if value == PROVINCE_BID:
        return 1
    if value in (NO_BID, UNSET_BID):
        return -1
    return 2 * value


def _end_planning(s: State, rng: Rng, log: list[LogEntry]) -> None:
    """Rules §4.4-4.5: the event, then bids revealed, paid, ranked (ties at random)."""
    s.bids_revealed = True
    left = [e for e in s.year_events if e not in s.season_events]
    ev = left[rng.randbelow(len(left))]
    s.season_events.append(ev)
    s.event = ev
    log.append(public(msg("shogun.log.event", x=event(ev))))
    if EV[ev] == "theatre_calm" and s.options.no_theatre_event is TheatreEvent.ON_REVEAL:
        for p in range(N):
            if s.bld[p] & THEATRE and s.markers[p]:
                log.append(public(msg("shogun.log.markers_leave", p=province(p))))
                _remove_markers(s, p, s.markers[p])
    npl = s.players
    parts = []
    for p in range(npl):
        v = s.bid[p]
        if 0 <= v <= 4:
            s.money[p] -= min(v, s.money[p])
        parts.append(bid_shown(p, v, s.bid_card[p]))
    order = list(range(npl))
    rng.shuffle(order)  # the shuffled daimyo cards break ties (rules §4.5)
    order.sort(key=lambda p: -bid_rank(s.bid[p]))
    s.choosers = order
    s.chooser_idx = 0
    s.phase = POSITION
    log.append(public(msg("shogun.log.bids", x=items(parts), x2=items(colour(p) for p in order))))
    _after_position(s, rng, log)


def _after_position(s: State, rng: Rng, log: list[LogEntry]) -> None:
    """Auto-assign the last free position; start the actions once everyone has one."""
    npl = s.players
    if s.chooser_idx == npl - 1 and sum(1 for x in s.positions if x < 0) == 1:
        seat = s.choosers[-1]
        pos = s.positions.index(-1)
        s.positions[pos] = seat
        s.pos_of[seat] = pos
        s.chooser_idx = npl
        log.append(public(_takes_position(seat, TakePosition(pos, s.specials[pos]))))
    if s.chooser_idx < npl:
        return
    s.action_idx = 0
    s.pos_idx = 0
    _run_actions(s, rng, log)


# ====================================================================== actions


def _special(s: State, seat: int) -> int:
    pos = s.pos_of[seat]
    return s.specials[pos] if pos >= 0 and s.specials else -1


def _takes_position(seat: int, action: TakePosition) -> Message:
    return msg(
        "shogun.log.takes_position",
        c=colour(seat),
        n=action.position + 1,
        x=special(action.card),
    )


def _run_actions(s: State, rng: Rng, log: list[LogEntry]) -> None:
    """Rules §4.6: every action card in order, every player in turn order; stop at a decision."""
    in_turn = s.options.reveal_action_cards is RevealCards.IN_TURN
    while s.action_idx < 10:
        a = s.action_order[s.action_idx]
        if s.revealed_n <= s.action_idx:
            s.revealed_n = s.action_idx + 1
            if not in_turn:
                shown = items(_card_shown(s, p, a) for p in s.positions if p >= 0)
                log.append(public(msg("shogun.log.cards_shown", a=action_card(a), x=shown)))
        while s.pos_idx < 5:
            p = s.positions[s.pos_idx]
            if p >= 0 and s.status[p][a] != DONE:
                if in_turn:
                    shown_one = _card_shown(s, p, a)
                    log.append(public(msg("shogun.log.cards_shown", a=action_card(a), x=shown_one)))
                if s.status[p][a] == PENDING and _execute(s, rng, p, a, log):
                    return
            s.pos_idx += 1
        s.action_idx += 1
        s.pos_idx = 0
        if len(s.action_order) < 10:
            rest = [c for c in range(10) if c not in s.action_order]
            s.action_order.append(rest[rng.randbelow(len(rest))])
            log.append(public(msg("shogun.log.next_card", a=action_card(s.action_order[-1]))))
    _end_season(s, rng, log)


def _card_shown(s: State, p: int, a: int) -> Message:
    """Seat ``p``'s card on action ``a`` as revealed in the log."""
    card: Term | Message = entry(s.plan[p][a])
    if s.status[p][a] == CANCELLED:
        card = msg("shogun.log.cancelled", x=card)
    return pair(p, card)


def _finish_decision(s: State, rng: Rng, log: list[LogEntry]) -> None:
    s.pending = []
    s.pos_idx += 1
    s.phase = PLAN  # placeholder while running; set again at the next decision
    _run_actions(s, rng, log)


def _execute(s: State, rng: Rng, seat: int, a: int, log: list[LogEntry]) -> bool:
    """Carry out ``seat``'s card on action ``a``; True when a decision is now pending."""
    s.status[seat][a] = DONE
    prov = s.plan[seat][a]
    if prov < 0:
        return False
    who = colour(seat)
    name = province(prov)
    ev = EV[s.event] if s.event >= 0 else ""
    card = _special(s, seat)
    if a <= A_THEATRE:
        bit = BUILDING_BITS[a]
        cost = B_COST[a]
        what = building(a)
        why = ""
        if s.money[seat] < cost:
            why = "shogun.log.build_chests"
        elif s.bld[prov] & bit:
            why = "shogun.log.build_has"
        elif popcount(s.bld[prov]) >= D.slots[prov]:
            why = "shogun.log.build_slot"
        elif s.bsupply[a] <= 0:
            why = "shogun.log.build_tiles"
        if why:
            args: dict[str, Term] = {"c": who, "b": what, "p": name}
            if why in ("shogun.log.build_has", "shogun.log.build_slot"):
                args["p2"] = name
            if why in ("shogun.log.build_has", "shogun.log.build_tiles"):
                args["b2"] = what
            log.append(public(msg(why, **args)))
            return False
        s.money[seat] -= cost
        s.bld[prov] |= bit
        s.bsupply[a] -= 1
        log.append(public(msg("shogun.log.builds", c=who, b=what, p=name, n=cost)))
        if a == A_THEATRE and ev == "theatre_calm" and s.markers[prov]:
            mode = s.options.no_theatre_event
            if mode is TheatreEvent.ACTION_ALL:
                _remove_markers(s, prov, s.markers[prov])
                log.append(public(msg("shogun.log.markers_leave", p=name)))
            elif mode is TheatreEvent.ACTION_ONE:
                _remove_markers(s, prov, 1)
                log.append(public(msg("shogun.log.marker_leaves", p=name)))
        return False
    if a in (A_RICE, A_TAX):
        _collect(s, rng, seat, prov, a, ev, card, log)
        return False
    if a in (A_R5, A_R3):
        if a == A_R5:
            n = 5
            if ev == "recruit_shortage":
                n = 3
                if card == S_SIX:
                    n = 6 if s.options.six_armies_card is SixArmies.SIX else 4
            elif card == S_SIX:
                n = 6
        else:
            n = 2 if ev == "recruit_shortage" else 3
        cost = D.tables.recruit["recruit5" if a == A_R5 else "recruit3"].cost
        _recruit(s, seat, prov, n, cost, log)
        return False
    if a == A_R1:
        if not _recruit(s, seat, prov, 1, D.tables.recruit["recruit1"].cost, log):
            return False
        if any(s.owner[t] == seat for t in s.board.neighbours[prov]):
            s.pending = [seat, RECRUIT_MOVE, prov, -1]
            s.phase = TARGET
            return True
        return False
    # battle/move A or B
    if s.armies[prov] >= 2 and _battle_targets(s, seat, prov):
        s.pending = [seat, BATTLE, prov, -1]
        s.phase = TARGET
        return True
    log.append(public(msg("shogun.log.cannot_march", c=who, p=name)))
    return False


def _recruit(s: State, seat: int, prov: int, n: int, cost: int, log: list[LogEntry]) -> bool:
    """Rules §5: pay and place ``n`` armies (all or nothing, rules §21.1 Q4)."""
    who, where = colour(seat), province(prov)
    if s.money[seat] < cost:
        log.append(public(msg("shogun.log.recruit_chests", c=who, p=where)))
        return False
    if s.supply[seat] < n:
        if s.options.short_recruit is ShortRecruit.CANCEL or s.supply[seat] == 0:
            log.append(public(msg("shogun.log.recruit_supply", c=who, p=where)))
            return False
        n = s.supply[seat]
    s.money[seat] -= cost
    s.supply[seat] -= n
    s.armies[prov] += n
    log.append(public(msg("shogun.log.recruits", c=who, n=n, p=where, n2=cost)))
    return True


def _collect(
    s: State, rng: Rng, seat: int, prov: int, a: int, ev: str, special: int, log: list[LogEntry]
) -> None:
    """Rules §5, §7, §10.1: collect rice or taxes, then the revolt check."""
    who, where = colour(seat), province(prov)
    if a == A_RICE:
        v = D.rice[prov]
        if ev == "rice_min_4":
            v = max(v, 4)
        elif ev == "rice_max_3":
            v = min(v, 3)
        if special == S_RICE:
            v += 1
        s.rice[seat] += v
        log.append(public(msg("shogun.log.collects_rice", c=who, n=v, p=where)))
    else:
        v = D.tax[prov]
        if ev == "tax_min_6":
            v = max(v, 6)
        elif ev == "tax_max_5":
            v = min(v, 5)
        if special == S_CHEST:
            v += 1
        s.money[seat] += v
        log.append(public(msg("shogun.log.collects_chests", c=who, n=v, p=where)))
    if s.markers[prov] == 0:
        _add_marker(s, prov)
        return
    after = s.options.collect_revolt_peasants is RevoltPeasants.AFTER
    if after:
        _add_marker(s, prov)
    peasants = s.markers[prov]
    if _revolt_recorded(s, rng, seat, prov, peasants, False, log):
        _add_marker(s, prov)


def _add_marker(s: State, prov: int) -> None:
    if s.markers_left > 0:
        s.markers[prov] += 1
        s.markers_left -= 1


def _remove_markers(s: State, prov: int, n: int) -> None:
    n = min(n, s.markers[prov])
    s.markers[prov] -= n
    s.markers_left += n


def _battle_targets(s: State, seat: int, prov: int) -> list[int]:
    """Neighbours a Battle/Move may enter (rules §5, §7 temple event)."""
    temple_peace = s.event >= 0 and EV[s.event] == "temple_peace"
    out = []
    for t in s.board.neighbours[prov]:
        o = s.owner[t]
        if temple_peace and o >= 0 and o != seat and s.bld[t] & TEMPLE:
            continue
        out.append(t)
    return out


def _march_options(s: State) -> list[March]:
    seat, kind, src, _ = s.pending
    if kind == RECRUIT_MOVE:
        return [March(src, STAY, False)] + [
            March(src, t, False) for t in s.board.neighbours[src] if s.owner[t] == seat
        ]
    opts = [March(src, t, s.owner[t] != seat) for t in _battle_targets(s, seat, src)]
    if s.options.battle_move_optional:
        opts.append(March(src, STAY, False))
    return opts


def _tower_counts(s: State, out: list[int], parties: Sequence[int]) -> Items:
    """What came out of the tower for each party: ``Red 3, peasants 1``."""
    return items(
        msg("shogun.log.pair", c=Term("shogun.term.peasants"), x=out[o])
        if o == s.players
        else pair(o, out[o])
        for o in parties
    )


def _tower(s: State, out: list[int], parties: Sequence[int]) -> Message:
    return msg("shogun.log.tower", x=_tower_counts(s, out, parties))


def _fight(head: Message, tower: Message, result: Message) -> Message:
    """A battle or revolt line: who throws what, the tower's answer, the result."""
    return msg("shogun.log.fight", head=head, tower=tower, result=result)


def _noted(head: Message, notes: list[Term | Message]) -> Message:
    """``head`` with the extra cubes thrown in, if any: ``... with 3 (+1 attack card)``."""
    return msg("shogun.log.noted", head=head, notes=items(notes)) if notes else head


def _march(s: State, rng: Rng, seat: int, src: int, dst: int, n: int, log: list[LogEntry]) -> None:
    """Move ``n`` armies; a battle follows if ``dst`` is not the mover's (rules §5, §9)."""
    who, target = colour(seat), province(dst)
    d = s.owner[dst]
    if d == seat:
        s.armies[src] -= n
        s.armies[dst] += n
        log.append(public(msg("shogun.log.moves", c=who, n=n, p=province(src), p2=target)))
        return
    s.armies[src] -= n
    npl = s.players
    thrown = [0] * (npl + 1)
    thrown[seat] = n
    head = msg("shogun.log.attacks", c=who, p=target, p2=province(src), n=n)
    if _special(s, seat) == S_ATTACK and s.supply[seat] > 0:
        s.supply[seat] -= 1
        thrown[seat] += 1
        head = _noted(head, [Term("shogun.term.plus_attack_card")])
    if d < 0:
        peas = 2 if s.event >= 0 and EV[s.event] == "two_peasants" else 1
        peas = min(peas, s.supply[npl])
        s.supply[npl] -= peas
        thrown[npl] = peas
        out = s.tower.throw(thrown, rng)
        a, g = out[seat], out[npl]
        _to_tray(s, out, (seat, npl))
        s.supply[npl] += g
        tower = _tower(s, out, (seat, npl))
        if a > g:
            s.owner[dst] = seat
            s.armies[dst] = a - g
            s.supply[seat] += g
            result = msg("shogun.log.takes", c=who, p=target, n=a - g)
        else:
            s.supply[seat] += a
            result = msg("shogun.log.stays_neutral", p=target)
        log.append(public(_fight(head, tower, result)))
        return
    loser = colour(d)
    thrown[d] = s.armies[dst]
    s.armies[dst] = 0
    notes: list[Term | Message] = []
    if _special(s, d) == S_DEFENCE and s.supply[d] > 0:
        s.supply[d] -= 1
        thrown[d] += 1
        notes.append(msg("shogun.log.plus_defence_of", c=loser))
    if s.event >= 0 and EV[s.event] == "castle_defence" and s.bld[dst] & CASTLE and s.supply[d] > 0:
        s.supply[d] -= 1
        thrown[d] += 1
        notes.append(msg("shogun.log.plus_castle_of", c=loser))
    head = _noted(head, notes)
    out = s.tower.throw(thrown, rng)
    a, b, g = out[seat], out[d], out[npl]
    if _peasants_help(s, dst):
        s.supply[npl] += g
        allies = g
        _to_tray(s, out, (seat, d, npl))
        tower = _tower(s, out, (seat, d, npl))
    else:
        allies = 0
        _to_tray(s, out, (seat, d))
        tower = _tower(s, out, (seat, d))
    total = b + allies
    if a > total:
        s.supply[seat] += total
        s.supply[d] += b
        _lose_province(s, dst)
        s.owner[dst] = seat
        s.armies[dst] = a - total
        result = msg("shogun.log.takes", c=who, p=target, n=a - total)
        log.append(public(_fight(head, tower, result)))
    elif total > a and b > 0:
        own_loss = max(0, a - allies)
        s.armies[dst] = b - own_loss
        s.supply[d] += own_loss
        s.supply[seat] += a
        result = msg("shogun.log.holds", c=loser, p=target, n=b - own_loss)
        log.append(public(_fight(head, tower, result)))
    else:
        s.supply[seat] += a
        s.supply[d] += b
        why = "shogun.log.peasant_tie" if total > a else "shogun.log.tie"
        log.append(public(_fight(head, tower, msg(why, p=target))))
        _devastate(s, dst)


def _peasants_help(s: State, prov: int) -> bool:
    mode = s.options.peasant_allies
    if mode is PeasantAllies.NO_MARKER:
        return s.markers[prov] == 0
    if mode is PeasantAllies.AT_MOST_ONE_MARKER:
        return s.markers[prov] <= 1
    return False


def _to_tray(s: State, out: list[int], parties: Sequence[int]) -> None:
    tray = s.tower.tray
    for o, n in enumerate(out):
        if n and o not in parties:
            tray[o] += n


def _lose_province(s: State, prov: int) -> None:
    """The owner loses ``prov``'s card: cancel his pending actions there (rules §9.3)."""
    loser = s.owner[prov]
    if loser < 0:
        return
    entries = s.plan[loser]
    status = s.status[loser]
    for a in range(10):
        if entries[a] == prov and status[a] == PENDING:
            status[a] = CANCELLED
    if prov in s.hand[loser]:
        s.hand[loser].remove(prov)


def _devastate(s: State, prov: int) -> None:
    """Rules §9.3: buildings and markers removed, the province becomes neutral."""
    _lose_province(s, prov)
    for i, bit in enumerate(BUILDING_BITS):
        if s.bld[prov] & bit:
            s.bsupply[i] += 1
    s.bld[prov] = 0
    _remove_markers(s, prov, s.markers[prov])
    s.owner[prov] = -1
    s.armies[prov] = 0


def _revolt(
    s: State, rng: Rng, seat: int, prov: int, peasants: int, winter: bool, log: list[LogEntry]
) -> bool:
    """A peasant revolt (rules §9.2, §10): True if the owner crushes it."""
    npl = s.players
    who = colour(seat)
    thrown = [0] * (npl + 1)
    peas = min(peasants, s.supply[npl])
    s.supply[npl] -= peas
    thrown[npl] = peas
    thrown[seat] = s.armies[prov]
    s.armies[prov] = 0
    notes: list[Term | Message] = []
    if s.options.defence_card_in_revolts and _special(s, seat) == S_DEFENCE and s.supply[seat]:
        s.supply[seat] -= 1
        thrown[seat] += 1
        notes.append(Term("shogun.term.plus_defence_card"))
    if (
        s.options.castle_event_in_revolts
        and s.event >= 0
        and EV[s.event] == "castle_defence"
        and s.bld[prov] & CASTLE
        and s.supply[seat]
    ):
        s.supply[seat] -= 1
        thrown[seat] += 1
        notes.append(Term("shogun.term.plus_castle"))
    out = s.tower.throw(thrown, rng)
    a, g = out[seat], out[npl]
    _to_tray(s, out, (seat, npl))
    s.supply[npl] += g
    kind = "shogun.log.hunger_revolt" if winter else "shogun.log.revolt"
    where = province(prov)
    head = _noted(msg(kind, c=who, p=where, n=peas, n2=thrown[seat]), notes)
    tower = _tower(s, out, (seat, npl))
    if g >= a:
        s.supply[seat] += a
        log.append(public(_fight(head, tower, msg("shogun.log.peasants_win", p=where))))
        _devastate(s, prov)
        return False
    s.armies[prov] = a - g
    s.supply[seat] += g
    log.append(public(_fight(head, tower, msg("shogun.log.crushes", c=who, n=a - g))))
    return True


# ====================================================================== battle records
# The views' ``battles``: what a player at the table sees of each fight (rules §9, §10), as
# data rather than as log text. Made once and never changed, so copies of a state share them.


def _march_recorded(
    s: State, rng: Rng, seat: int, src: int, dst: int, n: int, log: list[LogEntry]
) -> None:
    """:func:`_march`, and when it is a battle (rules §9.1 a, b) its record."""
    defender = s.owner[dst]
    if defender == seat:
        _march(s, rng, seat, src, dst, n, log)
        return
    defenders = s.armies[dst]
    allies = defender >= 0 and _peasants_help(s, dst)
    tray = s.tower.tray.copy()
    action = s.action_order[s.action_idx]
    attack_card = _special(s, seat) == S_ATTACK
    defence_card = defender >= 0 and _special(s, defender) == S_DEFENCE
    _march(s, rng, seat, src, dst, n, log)
    assert s.tower.last_throw is not None
    thrown, out = s.tower.last_throw
    bonus = []
    if attack_card and thrown[seat] - tray[seat] > n:
        bonus.append("attack_card")
    if defender >= 0:
        extra = thrown[defender] - tray[defender] - defenders
        if defence_card and extra > 0:
            bonus.append("defence_card")
            extra -= 1
        if extra > 0:
            bonus.append("castle")
    holder = s.owner[dst]
    if holder == seat:
        result = "taken"
    elif defender < 0:
        result = "neutral"
    elif holder == defender:
        result = "held"
    elif allies and out[defender] == 0 and out[s.players] > out[seat]:
        result = "peasant_tie"
    else:
        result = "tie"
    _record_battle(
        s,
        "attack",
        action,
        seat,
        defender,
        dst,
        src,
        n,
        defenders,
        bonus,
        thrown,
        tray,
        out,
        allies,
        result,
    )


def _revolt_recorded(
    s: State, rng: Rng, seat: int, prov: int, peasants: int, winter: bool, log: list[LogEntry]
) -> bool:
    """:func:`_revolt`, and its record (rules §9.1 c, §10)."""
    defenders = s.armies[prov]
    tray = s.tower.tray.copy()
    action = -1 if winter else s.action_order[s.action_idx]
    defence_card = _special(s, seat) == S_DEFENCE
    crushed = _revolt(s, rng, seat, prov, peasants, winter, log)
    assert s.tower.last_throw is not None
    thrown, out = s.tower.last_throw
    npl = s.players
    bonus = []
    extra = thrown[seat] - tray[seat] - defenders
    if s.options.defence_card_in_revolts and defence_card and extra > 0:
        bonus.append("defence_card")
        extra -= 1
    if extra > 0:
        bonus.append("castle")
    _record_battle(
        s,
        "hunger" if winter else "revolt",
        action,
        -1,
        seat,
        prov,
        -1,
        thrown[npl] - tray[npl],
        defenders,
        bonus,
        thrown,
        tray,
        out,
        False,
        "crushed" if crushed else "devastated",
    )
    return crushed


def _record_battle(
    s: State,
    kind: str,
    action: int,
    attacker: int,
    defender: int,
    province: int,
    source: int,
    sent: int,
    defenders: int,
    bonus: list[str],
    thrown: list[int],
    tray: list[int],
    out: list[int],
    allies: bool,
    result: str,
) -> None:
    """Add a fight to ``s.battles``, which holds the latest year's only: between two of a
    player's moves (he plans every season) no fight is lost from sight."""
    season = SEASONS[s.season]
    if s.battles and s.battles[-1]["year"] != s.year:
        s.battles = []
    holder = s.owner[province]
    s.battles = [
        *s.battles,
        {
            "kind": kind,
            "year": s.year,
            "season": season,
            "action": None if action < 0 else action,
            "attacker": None if attacker < 0 else attacker,
            "defender": None if defender < 0 else defender,
            "province": province,
            "source": None if source < 0 else source,
            "sent": sent,
            "defenders": defenders,
            "bonus": bonus,
            "thrown": list(thrown),
            "tray": tray,
            "out": list(out),
            "allies": allies,
            "result": result,
            "holder": None if holder < 0 else holder,
            "survivors": s.armies[province],
        },
    ]


def _copy_battle(b: dict[str, Any]) -> dict[str, Any]:
    return {
        **b,
        "bonus": list(b["bonus"]),
        "thrown": list(b["thrown"]),
        "tray": list(b["tray"]),
        "out": list(b["out"]),
    }


def winter_breakdown(s: State) -> dict[str, Any]:
    """Rules §11.3: this winter's points per seat and where they come from: ``provinces``
    (1 each), ``buildings`` (1 each), ``regions`` (per region, per seat: the majority points
    for castles, temples and Nô theatres), ``majorities`` (their sum) and ``points``.

    >>> import sengoku
    >>> m = sengoku.new_match("shogun", 3, seed=2)
    >>> w = winter_breakdown(m.state)
    >>> w["points"] == score_year(m.state)[0], w["provinces"]
    (True, [9, 9, 9])
    """
    npl = s.players
    provinces = [0] * npl
    buildings = [0] * npl
    for p in range(N):
        o = s.owner[p]
        if o >= 0:
            provinces[o] += 1
            buildings[o] += popcount(s.bld[p])
    regions = []
    for r in range(len(D.regions)):
        pts = [0] * npl
        for i, bit in enumerate(BUILDING_BITS):
            count = [0] * npl
            for p in range(N):
                o = s.owner[p]
                if o >= 0 and s.board.region[p] == r and s.bld[p] & bit:
                    count[o] += 1
            top = max(count)
            if top == 0:
                continue
            holders = [o for o in range(npl) if count[o] == top]
            for o in holders:
                pts[o] += MAJORITY[i] if len(holders) == 1 else MAJORITY[i] - 1
        regions.append(pts)
    majorities = [sum(r[o] for r in regions) for o in range(npl)]
    return {
        "year": s.year,
        "provinces": provinces,
        "buildings": buildings,
        "regions": regions,
        "majorities": majorities,
        "points": [provinces[o] + buildings[o] + majorities[o] for o in range(npl)],
    }


def _copy_winter(w: dict[str, Any]) -> dict[str, Any]:
    return {
        "year": w["year"],
        "provinces": list(w["provinces"]),
        "buildings": list(w["buildings"]),
        "regions": [list(r) for r in w["regions"]],
        "majorities": list(w["majorities"]),
        "points": list(w["points"]),
    }


def _end_season(s: State, rng: Rng, log: list[LogEntry]) -> None:
    if s.season == 2:
        s.autumn_order = [p for p in s.positions if p >= 0]
    s.event = -1
    s.pos_of = [-1] * s.players  # special cards go back (rules §4)
    s.season += 1
    if s.season < 3:
        _start_season(s, rng, log)
    else:
        _start_winter(s, rng, log)


# ====================================================================== winter


def winter_row(short: int) -> tuple[int, int]:
    """Rules §10.3: (provinces that revolt, extra peasants) for a rice shortage."""
    for lo, hi, provinces, peasants in D.winter:
        if lo <= short <= hi:
            return provinces, peasants
    return 0, 0


def _start_winter(s: State, rng: Rng, log: list[LogEntry]) -> None:
    """Rules §11: rice loss from the year's fourth event, then hunger revolts, then scoring."""
    s.phase = WINTER
    last = [e for e in s.year_events if e not in s.season_events]
    loss = D.event_loss[last[0]] if last else 0
    s.season_events.extend(last)
    for p in range(s.players):
        s.rice[p] = max(0, s.rice[p] - loss)
    rice = items(pair(p, s.rice[p]) for p in range(s.players))
    log.append(public(msg("shogun.log.winter", n=s.year, n2=loss, x=rice)))
    s.winter_queue = list(s.autumn_order) if s.autumn_order else list(range(s.players))
    s.revolt_left = []
    s.revolt_bonus = -1
    _run_winter(s, rng, log)


def _run_winter(s: State, rng: Rng, log: list[LogEntry]) -> None:
    while s.winter_queue:
        seat = s.winter_queue[0]
        if s.revolt_bonus < 0:
            owned = [p for p in range(N) if s.owner[p] == seat]
            short = len(owned) - s.rice[seat]
            if short <= 0:
                s.winter_queue.pop(0)
                continue
            k, bonus = winter_row(short)
            k = min(k, len(owned))
            picks = []
            for _ in range(k):
                picks.append(owned.pop(rng.randbelow(len(owned))))
            s.revolt_left = sorted(picks)
            s.revolt_bonus = bonus
            log.append(
                public(
                    msg(
                        "shogun.log.short",
                        c=colour(seat),
                        n=short,
                        x=items(province(p) for p in s.revolt_left),
                        n2=bonus,
                    )
                )
            )
        if len(s.revolt_left) > 1:
            s.phase = WINTER
            return
        if s.revolt_left:
            _hunger_revolt(s, rng, seat, s.revolt_left.pop(), log)
        s.winter_queue.pop(0)
        s.revolt_bonus = -1
    s.winters = [*s.winters, winter_breakdown(s)]
    _score_winter(s, rng, log)


def _hunger_revolt(s: State, rng: Rng, seat: int, prov: int, log: list[LogEntry]) -> None:
    _revolt_recorded(s, rng, seat, prov, s.revolt_bonus + s.markers[prov], True, log)


def score_year(s: State) -> tuple[list[int], list[Message]]:
    """Rules §11.3: points per seat this winter and a message per seat explaining them."""
    w = winter_breakdown(s)
    lines = [
        msg(
            "shogun.log.score",
            c=colour(o),
            n=w["points"][o],
            n2=w["provinces"][o],
            n3=w["buildings"][o],
            n4=w["majorities"][o],
        )
        for o in range(s.players)
    ]
    return w["points"], lines


def _score_winter(s: State, rng: Rng, log: list[LogEntry]) -> None:
    pts, lines = score_year(s)
    for o in range(s.players):
        s.vp[o] += pts[o]
    log.append(public(msg("shogun.log.scoring", n=s.year, x=items(lines, SEMICOLON))))
    for p in range(N):
        if s.markers[p]:
            _remove_markers(s, p, s.markers[p])
    s.revolt_left = []
    s.revolt_bonus = -1
    s.winter_queue = []
    if s.year >= s.options.years:
        s.phase = OVER
        s.final_scores = s.vp.copy()
        scores = items(pair(o, s.vp[o]) for o in range(s.players))
        log.append(public(msg("shogun.log.game_ends", x=scores)))
        return
    s.year += 1
    _start_year(s, rng, log)


def _tiebreaks(s: State) -> list[list[float]] | None:
    """Rules §12 and option ``tie_break``."""
    mode = s.options.tie_break
    if mode is TieBreak.SHARED:
        return None
    out: list[list[float]] = []
    for o in range(s.players):
        counts = [0, 0, 0]
        for p in range(N):
            if s.owner[p] == o:
                for i, bit in enumerate(BUILDING_BITS):
                    if s.bld[p] & bit:
                        counts[i] += 1
        if mode is TieBreak.CHESTS:
            out.append([s.money[o]])
        elif mode is TieBreak.CHESTS_THEN_BUILDINGS:
            out.append([s.money[o], *counts])
        else:
            out.append([*counts])
    return out


# ====================================================================== views


def _revealed_actions(s: State) -> set[int]:
    return set(s.action_order[: s.revealed_n])


def _visible_plan(s: State, p: int, viewer: int | None) -> list[int | None]:
    """Seat ``p``'s plan as ``viewer`` sees it (``None`` = hidden)."""
    if viewer == p:
        return list(s.plan[p])
    if not s.bids_revealed:
        return [None] * 10
    entries = s.plan[p]
    status = s.status[p]
    if s.options.reveal_action_cards is RevealCards.IN_TURN:
        # a card is turned when its owner's turn for that action comes (status leaves PENDING)
        return [e if (e == EMPTY or status[a] != PENDING) else None for a, e in enumerate(entries)]
    shown = _revealed_actions(s)
    return [
        e if (e == EMPTY or a in shown or status[a] == CANCELLED) else None
        for a, e in enumerate(entries)
    ]


def _own(s: State, seat: int | None) -> dict[str, Any]:
    """The parts of ``seat``'s view that differ from another seat's: the plans and the bids
    as it may see them (its own while secret, all once revealed)."""
    npl = s.players
    return {
        "plans": [_visible_plan(s, p, seat) for p in range(npl)],
        "bids": [
            (s.bid[p] if (s.bids_revealed or p == seat) and s.bid[p] != UNSET_BID else None)
            for p in range(npl)
        ],
        "bid_cards": [
            (s.bid_card[p] if (s.bids_revealed or p == seat) else -1) for p in range(npl)
        ],
    }


def _view(s: State, seat: int | None) -> dict[str, Any]:
    npl = s.players
    contents = s.tower.contents()
    own = _own(s, seat)
    v: dict[str, Any] = {
        "phase": PHASE_NAMES[s.phase],
        "year": s.year,
        "season": SEASONS[s.season],
        "colours": list(COLOURS[:npl]),
        "owner": s.owner.copy(),
        "armies": s.armies.copy(),
        "buildings": s.bld.copy(),
        "markers": s.markers.copy(),
        "markers_left": s.markers_left,
        "money": s.money.copy(),
        "rice": s.rice.copy(),
        "vp": s.vp.copy(),
        "building_supply": s.bsupply.copy(),
        "tray": s.tower.tray.copy(),
        "events_left": sorted(s.events_left),
        "year_events": s.year_events.copy(),
        "season_events": s.season_events.copy(),
        "event": s.event,
        "action_order": s.action_order.copy(),
        "action_idx": s.action_idx,
        "pos_idx": s.pos_idx,
        "revealed_n": s.revealed_n,
        "specials": s.specials.copy(),
        "plans": own["plans"],
        "plan_status": [x.copy() for x in s.status],
        "plan_n": s.plan_n.copy(),
        "bids": own["bids"],
        "bid_cards": own["bid_cards"],
        "bids_revealed": s.bids_revealed,
        "hand": [h.copy() for h in s.hand],
        "hand_size": s.hand_size.copy(),
        "choosers": s.choosers.copy(),
        "chooser_idx": s.chooser_idx,
        "positions": s.positions.copy(),
        "pos_of": s.pos_of.copy(),
        "pending": s.pending.copy(),
        "autumn_order": s.autumn_order.copy(),
        "winter_queue": s.winter_queue.copy(),
        "revolt_left": s.revolt_left.copy(),
        "revolt_bonus": s.revolt_bonus,
        "draft_order": s.draft_order.copy(),
        "draft_drawn": s.draft_drawn,
        "draft_up": s.draft_up.copy(),
        "deck_top": sorted(s.deck_top),
        "deck_bottom": s.deck_bottom.copy(),
        "last_seen": [x.copy() for x in s.last_seen],
        "stacks_left": [x.copy() for x in s.stacks_left],
        "final_scores": None if s.final_scores is None else s.final_scores.copy(),
        "battles": [_copy_battle(b) for b in s.battles],
        "winters": [_copy_winter(w) for w in s.winters],
    }
    if s.options.show_tower:
        v["supply"] = s.supply.copy()
        v["tower"] = contents
    else:
        v["reserve"] = [s.supply[o] + contents[o] for o in range(npl + 1)]
        v["tower_flow"] = s.tower.flow.copy()
    return v


def _sample_tower(s: State, reserve: list[int], rng: Rng) -> None:
    """Redraw the hidden split of each colour's reserve between supply and tower.

    The only unknown is what stayed inside at priming (rules §2.5): every later throw is seen
    (``tower.flow`` = cubes in minus cubes out since). So the priming throw is re-run with the
    configured model; a colour whose result contradicts what is known (fewer than 0 inside now,
    or more than its reserve) is re-drawn, and after a few tries drawn uniformly from the
    priming results that fit.
    """
    npl = s.players
    pri = D.tables.tower_priming
    flow = s.tower.flow
    model = s.tower.model
    hi = [pri.per_player] * npl + [pri.peasants]
    counts: list[int | None] = [None] * (npl + 1)
    for _ in range(8):
        t = Tower(npl, model)
        out = t.prime(list(hi), rng)
        for o in range(npl + 1):
            if counts[o] is None:
                c = hi[o] - out[o] + flow[o]
                if 0 <= c <= reserve[o]:
                    counts[o] = c
        if None not in counts:
            break
    final: list[int] = []
    for o in range(npl + 1):
        got = counts[o]
        if got is None:
            lo = max(0, flow[o])
            top = max(lo, min(hi[o] + flow[o], reserve[o]))
            got = lo + rng.randbelow(top - lo + 1)
        final.append(min(got, reserve[o]))
    s.tower.set_contents(final)
    s.supply = [r - c for r, c in zip(reserve, final, strict=True)]


def _resample_plan(s: State, p: int, rng: Rng, known: Sequence[int | None]) -> None:
    """Redraw seat ``p``'s hidden plan entries (and bid) consistently with what is known."""
    if not s.bids_revealed:
        # planning is still going on: redo p's filled steps at random
        done = s.plan_n[p]
        s.plan[p] = [UNSET] * 10
        s.plan_n[p] = 0
        s.bid[p] = UNSET_BID
        s.bid_card[p] = -1
        for _ in range(done):
            opts = _plan_options(s, p)
            act = opts[rng.randbelow(len(opts))]
            if isinstance(act, Plan):
                s.plan[p][act.space] = act.card
                s.plan_n[p] += 1
            else:
                s.bid[p] = act.value
                s.bid_card[p] = act.province
                s.plan_n[p] = 11
        return
    entries = s.plan[p]
    hidden = [a for a in range(10) if known[a] is None]
    if not hidden:
        return
    shown = {e for e in known if e is not None and e >= 0}
    blanks = sum(1 for e in known if e == BLANK)
    b = s.bid[p]
    if 0 <= b <= 4:
        blanks += 1
    elif b == PROVINCE_BID:
        shown.add(s.bid_card[p])  # revealed with the bids: not on any action space
    pool = [x for x in s.hand[p] if x not in shown] + [BLANK] * max(0, 5 - blanks)
    rng.shuffle(pool)
    for a, card in zip(hidden, pool, strict=False):
        entries[a] = card


def _determinize(view: dict[str, Any], rng: Rng) -> State:
    seat: int = view["seat"]
    npl: int = view["players"]
    options = parse_options(ShogunOptions, view["options"])
    s = _blank_state(npl, options, board_for(npl, options))
    s.phase = PHASE_NAMES.index(view["phase"])
    s.year = view["year"]
    s.season = SEASONS.index(view["season"])
    s.owner = list(view["owner"])
    s.armies = list(view["armies"])
    s.bld = list(view["buildings"])
    s.markers = list(view["markers"])
    s.markers_left = view["markers_left"]
    s.money = list(view["money"])
    s.rice = list(view["rice"])
    s.vp = list(view["vp"])
    s.bsupply = list(view["building_supply"])
    s.tower.tray = list(view["tray"])
    s.events_left = list(view["events_left"])
    s.year_events = list(view["year_events"])
    s.season_events = list(view["season_events"])
    s.event = view["event"]
    s.action_order = list(view["action_order"])
    s.action_idx = view["action_idx"]
    s.pos_idx = view["pos_idx"]
    s.revealed_n = view["revealed_n"]
    s.specials = list(view["specials"])
    s.status = [list(x) for x in view["plan_status"]]
    s.plan_n = list(view["plan_n"])
    s.bids_revealed = view["bids_revealed"]
    s.hand = [list(h) for h in view["hand"]]
    s.hand_size = list(view["hand_size"])
    s.choosers = list(view["choosers"])
    s.chooser_idx = view["chooser_idx"]
    s.positions = list(view["positions"])
    s.pos_of = list(view["pos_of"])
    s.pending = list(view["pending"])
    s.autumn_order = list(view["autumn_order"])
    s.winter_queue = list(view["winter_queue"])
    s.revolt_left = list(view["revolt_left"])
    s.revolt_bonus = view["revolt_bonus"]
    s.draft_order = list(view["draft_order"])
    s.draft_drawn = view["draft_drawn"]
    s.draft_up = list(view["draft_up"])
    s.deck_top = list(view["deck_top"])
    s.deck_bottom = list(view["deck_bottom"])
    s.last_seen = [list(x) for x in view["last_seen"]]
    s.stacks_left = [list(x) for x in view["stacks_left"]]
    fs = view["final_scores"]
    s.final_scores = None if fs is None else list(fs)
    s.battles = [_copy_battle(b) for b in view["battles"]]
    s.winters = [_copy_winter(w) for w in view["winters"]]
    if options.show_tower:
        s.supply = list(view["supply"])
        s.tower.set_contents(list(view["tower"]))
    else:
        s.tower.flow = list(view["tower_flow"])
        _sample_tower(s, list(view["reserve"]), rng)
    bids = view["bids"]
    s.bid = [UNSET_BID if b is None else b for b in bids]
    s.bid_card = list(view["bid_cards"])
    plans = view["plans"]
    for p in range(npl):
        s.plan[p] = [UNSET if e is None else e for e in plans[p]]
        if p != seat:
            _resample_plan(s, p, rng, plans[p])
    return s

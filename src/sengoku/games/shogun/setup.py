"""Set-up (rules §2): the board for the options, the blank state, the standard line-up or the
draft of starting provinces, the priming of the tower; then the first year begins
(:mod:`.planning`).

>>> from sengoku.core import Rng, parse_options
>>> from sengoku.games.shogun.options import ShogunOptions
>>> s = setup(4, parse_options(ShogunOptions, {"setup": "draft"}), Rng(1))
>>> s.phase == DRAFT, len(s.draft_up), len(s.draft_order)
(True, 2, 32)
"""

from __future__ import annotations

from sengoku.core import LogEntry, OptionError, Rng, msg, public

from .actions import UNSET, Draft, ShogunAction, TakeTop
from .battles import tower_counts
from .data import Board
from .messages import colour, province
from .options import Setup, ShogunOptions
from .planning import start_year
from .state import DRAFT, PENDING, PLAN, UNSET_BID, D, N, State
from .tower import MODELS, Tower

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
        clash = set(removed) & {D.names[p] for row in lineup_for(3, options) for p in row}
        if clash:
            raise OptionError(
                "option 'moon_three_player_removed': the standard 3-player line-up uses "
                + ", ".join(sorted(clash))
            )
    land = D.moon_land if options.moon_land_adjacency.value == "moon" else None
    try:
        return D.board("moon", players, sea, removed, land)
    except ValueError as exc:
        raise OptionError(f"option 'moon_three_player_removed': {exc}") from None


def lineup_for(players: int, options: ShogunOptions) -> tuple[tuple[int, ...], ...]:
    """The standard line-up (rules §14.6): one row of provinces per seat, in stack order; the
    moon side's data set with ``moon_lineup=moon``; player C's row of 5 from ``five_player_c``.
    Raise :class:`OptionError` for a row C that is not 7 provinces free of the other rows."""
    moon = options.board.value == "moon" and options.moon_lineup.value == "moon"
    tables = D.moon_lineups if moon else D.lineups
    five = tables[5]
    others = {p for seat, row in enumerate(five) if seat != 2 for p in row}
    row = tuple(D.index.get(n, -1) for n in _split(options.five_player_c))
    if len(row) != len(D.stacks[5]) or -1 in row or len(set(row)) != len(row) or others & set(row):
        raise OptionError(
            "option 'five_player_c': 7 distinct provinces that no other player of the 5-player "
            "line-up starts in"
        )
    return (*five[:2], row, *five[3:]) if players == 5 else tables[players]


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def blank_state(players: int, options: ShogunOptions, board: Board) -> State:
    """A match before anything is placed: full supplies, the starting chests (§2.2), an empty
    tower, spring of the first year."""
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
            x=tower_counts(s, out, range(s.players + 1)),
        )
    else:
        line = msg("shogun.log.primed", n=pri.per_player, n2=pri.peasants)
    log.append(public(line))
    start_year(s, rng, log)


def setup(players: int, options: ShogunOptions, rng: Rng) -> State:
    """Rules §2: the standard line-up (§14.6) and the game begins, or the draft (§2.4) begins."""
    s = blank_state(players, options, board_for(players, options))
    log: list[LogEntry] = []
    lineup = lineup_for(players, options)  # checks the option five_player_c in any case
    if options.setup is Setup.STANDARD:
        for seat, row in enumerate(lineup):
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


def draft_options(s: State, seat: int) -> list[ShogunAction]:
    """Rules §2.4: a face-up card with one of ``seat``'s stacks, or the pile's top card (then
    its stack)."""
    stacks = sorted(set(s.stacks_left[seat]), reverse=True)
    if s.draft_drawn >= 0:
        return [Draft(s.draft_drawn, st) for st in stacks]
    out: list[ShogunAction] = [Draft(c, st) for c in s.draft_up for st in stacks]
    if s.deck_top or s.deck_bottom:
        out.append(TakeTop())
    return out


def take_top(s: State, rng: Rng, seat: int, log: list[LogEntry]) -> None:
    """``seat`` turns the pile's top card for everyone to see; he places a stack there next."""
    s.last_seen[seat] = sorted(s.draft_up)
    s.draft_drawn = _draw_card(s, rng)
    log.append(public(msg("shogun.log.top_card", c=colour(seat), p=province(s.draft_drawn))))


def _deck_size(s: State) -> int:
    return len(s.deck_top) + len(s.deck_bottom)


def _draw_card(s: State, rng: Rng) -> int:
    """Draw the top card of the province pile (its unknown part is in random order)."""
    if s.deck_top:
        return s.deck_top.pop(rng.randbelow(len(s.deck_top)))
    return s.deck_bottom.pop(0)


def apply_draft(s: State, rng: Rng, seat: int, action: Draft, log: list[LogEntry]) -> None:
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
    if (
        s.options.draft_same_two_cards
        and sorted(s.draft_up) == s.last_seen[nxt]
        and len(s.draft_up) == 2
        and _deck_size(s) >= 2
    ):
        # the same two cards as on his previous pick: under the pile, two new ones (rules §2.4)
        s.deck_bottom.extend(s.draft_up)
        s.draft_up = [_draw_card(s, rng), _draw_card(s, rng)]
        first, second = s.draft_up
        log.append(public(msg("shogun.log.under_pile", p=province(first), p2=province(second))))

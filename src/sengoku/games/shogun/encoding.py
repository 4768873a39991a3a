"""Shogun's research encoding (:mod:`sengoku.core.encoding`): action tokens, observations.

**Vocabulary.** One list of 120 tokens for every player count and every option (a board's
unused provinces keep their ids and are never offered):

========================  =====  ===============================================================
part                      size   used by
========================  =====  ===============================================================
``province <name>``       45     the card a ``Plan`` or a ``Bid`` puts on the space, the face-up
                                 card a ``Draft`` takes, the target of a ``March``, the province
                                 of a winter ``Revolt``
``armies 1`` .. ``61``    61     the stack a ``Draft`` places, the ``Armies`` that march (a colour
                                 has 62 cubes and one army stays behind)
``take top card``         1      ``TakeTop``
``blank``, ``empty``      2      a ``Plan`` with a war-chest card / no card; ``empty`` also spells
                                 ``bid nothing`` (no card on the bid space)
``chests 0`` .. ``4``     5      a war-chest ``Bid``
``position 1`` .. ``5``   5      ``TakePosition`` (the special card is the one lying there)
``stay``                  1      a ``March`` that does not move
========================  =====  ===============================================================

An action is spelled by what it puts where; whatever the state already fixes is left out: the
plan space (planning goes space by space), the source of a march and whether it attacks (the
target's owner says so), the special card of a position, the province of a ``Draft`` right
after ``take top card``. So nearly every action is one token; a ``Draft`` of a face-up card is
two (the province, then the stack).

>>> import sengoku
>>> from sengoku.core import ActionSpace
>>> match = sengoku.new_match("shogun", 4, seed=1)
>>> space = ActionSpace.of(match)
>>> space.size, space.tokens[19], space.tokens[45]
(120, 'province Owari', 'armies 1')
>>> [list(match.game.action_tokens(match.state, 0, a)) for a in match.legal_actions(0)[-2:]]
[['province Awa-Shikoku'], ['blank']]

**Observation.** A flat vector of ``observation_size(players)`` floats (3 players: 3,428; 4:
4,183; 5: 4,942), the same layout for every option. Seats are relative: row 0 is the viewing
seat, row ``k`` the seat ``k`` places after it (a spectator's view, seat ``None``, is encoded
with seat 0 first and, like the view, without any plan or bid). Provinces are in the data's
order (ids 0-44 of ``data/provinces.json``), whatever the board; ``in play`` marks those on it.
The parts, in order (:func:`observation_layout` gives offsets and sizes; ``P`` = players):

=================  ==============  ===============================================================
part               size            meaning (normalisation)
=================  ==============  ===============================================================
phase              7               one-hot: draft, plan, position, target, armies, winter, over
year               3               one-hot year 1-3
years              3               one-hot years to play (option ``years``)
season             4               one-hot spring, summer, autumn, winter
to act             P               per seat: may act now
owner              45 x (P+1)      per province one-hot: neutral, seat 0 .. P-1
armies             45 x 2          per province: armies / 62, min(armies, 10) / 10
buildings          45 x 3          per province: castle, temple, Nō theatre
markers            45              revolt markers / 6 (at most one collect per province a season,
                                   two markers each with ``collect_revolt_peasants=after``)
in play            45              the province is on this board (3 players: 8 removed)
region             45 x 5          per province one-hot region on this board side
province values    45 x 3          tax / 7, rice / 5, building slots / 3 (data maxima)
seats              P x 6           chests, rice, VP as v / (v + 40), v / (v + 20), v / (v + 100),
                                   provinces / 45, armies on the board / 62, plan steps done / 11
positions          5 x (6+P)       per turn position: special card one-hot (5), free, seat one-hot
choosing           P x P           per seat one-hot place in the order of choosing positions
tower              1 + (P+1) x 4   ``show_tower``; per colour (seats, then peasants): reserve
                                   (supply + tower) / 62 (peasants / 20), tray v / (v + 10), inside
                                   the tower v / (v + 10) (``show_tower`` only), tower flow
                                   0.5 + v / 2(|v| + 10) (otherwise; cubes in minus cubes out
                                   since priming, may be negative)
supplies           4               castles, temples, Nō theatres left / 28, 26, 26; markers / 42
events             12 x 4          per event: in the deck, one of this year's, drawn this year,
                                   this season's
action cards       10 x 4          per action space: card turned up, place in the order / 9,
                                   carried out, being carried out now
turn               5               one-hot turn position now acting (during the actions)
plans              P x 10 x 53     per seat and space: not planned yet, hidden, blank, empty,
                                   province card (5); pending, done, cancelled (3); province (45)
bids               P x 55          per seat: not yet, hidden, chests, province card, nothing (5);
                                   chests one-hot 0-4 (5); the province card (45)
hands              P x 45          per seat: its province cards this season
march              2 + 45 x 2      the pending decision: battle, recruit move; source; target
winter             45 + 1 + P      provinces with a hunger revolt to choose, the revolts' extra
                                   peasants / 3, per seat: still in the winter queue
draft              45 x 4 + P x    face-up cards, the card taken from the pile, the pile's unseen
                   (4 + P + 45)    cards, the cards put under the pile; per seat: stacks left per
                                   size 2-5 / in the line-up, one-hot place among the next P
                                   picks, the face-up cards it saw at its last pick
=================  ==============  ===============================================================

>>> view = match.view(0)
>>> tensor = observation_tensor(view)
>>> len(tensor) == observation_size(4) and all(0.0 <= x <= 1.0 for x in tensor)
True
>>> phase = observation_part(4, "phase")
>>> tensor[phase.offset : phase.offset + phase.size]  # planning
[0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, NamedTuple

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
from .data import load_data
from .options import ShogunOptions
from .state import BATTLE, PHASE_NAMES, SEASONS, State

D = load_data()
N = len(D.provinces)
NAMES = D.names
CUBES = D.tables.cubes_per_colour
PEASANTS = D.tables.peasant_cubes
MARKERS = D.tables.revolt_markers
SUPPLY_BUILDINGS = tuple(D.tables.buildings[k] for k in ("castle", "temple", "theatre"))
MAX_TAX = max(D.tax)
MAX_RICE = max(D.rice)
MAX_SLOTS = 3
MAX_YEARS = 3
SPACES = 10
SPECIALS = len(D.specials)
POSITIONS = 5
EVENTS = len(D.events)
REGIONS = len(D.regions)
STACK_SIZES = tuple(sorted({s for stacks in D.stacks.values() for s in stacks}))
MAX_BONUS = max(row[3] for row in D.winter)
#: Markers one province can gather in a year: one collect a season (a province card is
#: planned once), two markers each with ``collect_revolt_peasants=after``, three seasons.
MAX_MARKERS = 6
#: Scales for counts without a maximum in the data: such a count ``v`` is ``v / (v + scale)``
#: (a half at the scale, below 1 however large), see :func:`squash`.
CHESTS_SCALE = 40
RICE_SCALE = 20
VP_SCALE = 100
#: Small counts (tray, tower contents, tower flow, low army counts) are scaled by this.
SMALL = 10


def squash(value: float, scale: float) -> float:
    """A count without a maximum as a number in [0, 1): a half at ``scale``.

    >>> squash(0, 40), squash(40, 40), squash(120, 40)
    (0.0, 0.5, 0.75)
    """
    return value / (value + scale) if value > 0 else 0.0


def signed_squash(value: float, scale: float) -> float:
    """A signed count as a number in (0, 1): a half at 0, 3/4 at ``scale``, 1/4 at ``-scale``.

    >>> signed_squash(0, 10), signed_squash(10, 10), signed_squash(-10, 10)
    (0.5, 0.75, 0.25)
    """
    return 0.5 + 0.5 * value / (abs(value) + scale)


#: Plan steps: ten action spaces and the bid.
STEPS = SPACES + 1

# -- vocabulary -----------------------------------------------------------------------------

PROVINCE_TOKENS = tuple(f"province {name}" for name in NAMES)
ARMIES_TOKENS = tuple(f"armies {n}" for n in range(1, CUBES))
TAKE_TOP = "take top card"
BLANK_TOKEN = "blank"
EMPTY_TOKEN = "empty"
CHESTS_TOKENS = tuple(f"chests {v}" for v in range(5))
POSITION_TOKENS = tuple(f"position {i + 1}" for i in range(POSITIONS))
STAY_TOKEN = "stay"
VOCABULARY = (
    *PROVINCE_TOKENS,
    *ARMIES_TOKENS,
    TAKE_TOP,
    BLANK_TOKEN,
    EMPTY_TOKEN,
    *CHESTS_TOKENS,
    *POSITION_TOKENS,
    STAY_TOKEN,
)


def action_vocabulary(players: int, options: ShogunOptions) -> list[str]:
    """The 120 action tokens, the same for every player count and option.

    >>> vocabulary = action_vocabulary(3, ShogunOptions())
    >>> len(vocabulary), vocabulary[:2], vocabulary[-1]
    (120, ['province Mutsu', 'province Echigo'], 'stay')
    """
    return list(VOCABULARY)


def _card(card: int) -> str:
    if card == BLANK:
        return BLANK_TOKEN
    if card == EMPTY:
        return EMPTY_TOKEN
    return PROVINCE_TOKENS[card]


def action_tokens(state: State, seat: int, action: ShogunAction) -> list[str]:
    """The tokens that spell ``action``: what it puts where (see the module's docstring).

    >>> import sengoku
    >>> state = sengoku.new_match("shogun", 4, seed=1, options={"setup": "draft"}).state
    >>> owari = D.index["Owari"]
    >>> action_tokens(state, 0, Draft(owari, 5)), action_tokens(state, 0, Plan(4, owari))
    (['province Owari', 'armies 5'], ['province Owari'])
    >>> action_tokens(state, 0, Bid(3)), action_tokens(state, 0, March(owari, -1, False))
    (['chests 3'], ['stay'])
    """
    if isinstance(action, Plan):
        return [_card(action.card)]
    if isinstance(action, Bid):
        if action.value == PROVINCE_BID:
            return [PROVINCE_TOKENS[action.province]]
        if action.value == NO_BID:
            return [EMPTY_TOKEN]
        return [CHESTS_TOKENS[action.value]]
    if isinstance(action, March):
        return [STAY_TOKEN] if action.target == STAY else [PROVINCE_TOKENS[action.target]]
    if isinstance(action, Armies):
        return [ARMIES_TOKENS[action.n - 1]]
    if isinstance(action, Draft):
        stack = ARMIES_TOKENS[action.stack - 1]
        if action.province == state.draft_drawn:  # the card just taken from the pile
            return [stack]
        return [PROVINCE_TOKENS[action.province], stack]
    if isinstance(action, TakeTop):
        return [TAKE_TOP]
    if isinstance(action, TakePosition):
        return [POSITION_TOKENS[action.position]]
    if isinstance(action, Revolt):
        return [PROVINCE_TOKENS[action.province]]
    raise TypeError(f"not a Shogun action: {action!r}")


# -- observation layout ---------------------------------------------------------------------


class Part(NamedTuple):
    """One part of the observation: its place in the vector and what it holds."""

    name: str
    offset: int
    size: int
    meaning: str


#: Card kinds of a plan space and of the bid space (the one-hot at the start of each).
PLAN_KINDS = ("not planned yet", "hidden", "blank", "empty", "province card")
BID_KINDS = ("not yet", "hidden", "chests", "province card", "nothing")
STATUS_KINDS = ("pending", "done", "cancelled")
PLAN_WIDTH = len(PLAN_KINDS) + len(STATUS_KINDS) + N
BID_WIDTH = len(BID_KINDS) + 5 + N


def _parts(players: int) -> list[tuple[str, int, str]]:
    p = players
    return [
        ("phase", len(PHASE_NAMES), "one-hot: " + ", ".join(PHASE_NAMES)),
        ("year", MAX_YEARS, "one-hot year 1-3"),
        ("years", MAX_YEARS, "one-hot years to play"),
        ("season", len(SEASONS), "one-hot " + ", ".join(SEASONS)),
        ("to act", p, "per seat: may act now"),
        ("owner", N * (p + 1), "per province one-hot: neutral, seat 0 .. P-1"),
        ("armies", N * 2, "per province: armies / 62, min(armies, 10) / 10"),
        ("buildings", N * 3, "per province: castle, temple, Nō theatre"),
        ("markers", N, "per province: revolt markers / 6"),
        ("in play", N, "per province: on this board"),
        ("region", N * REGIONS, "per province one-hot region on this board side"),
        ("province values", N * 3, "per province: tax / 7, rice / 5, slots / 3"),
        ("seats", p * 6, "per seat: chests, rice, VP, provinces, armies, plan steps done"),
        ("positions", POSITIONS * (SPECIALS + 1 + p), "per position: special, free, seat"),
        ("choosing", p * p, "per seat one-hot place in the choosing order"),
        ("tower", 1 + (p + 1) * 4, "show_tower; per colour: reserve, tray, tower, flow"),
        ("supplies", 4, "castles, temples, Nō theatres, revolt markers left"),
        ("events", EVENTS * 4, "per event: in the deck, this year's, drawn, this season's"),
        ("action cards", SPACES * 4, "per action space: turned up, place, done, now"),
        ("turn", POSITIONS, "one-hot turn position acting now"),
        ("plans", p * SPACES * PLAN_WIDTH, "per seat and space: kind, status, province"),
        ("bids", p * BID_WIDTH, "per seat: kind, chests one-hot, province card"),
        ("hands", p * N, "per seat: its province cards"),
        ("march", 2 + N * 2, "pending kind (battle, recruit move), source, target"),
        ("winter", N + 1 + p, "revolts to choose, extra peasants / 3, seats in the queue"),
        (
            "draft",
            N * 4 + p * (len(STACK_SIZES) + p + N),
            "face up, taken, pile, under the pile; per seat: stacks, next picks, last seen",
        ),
    ]


@functools.cache
def observation_layout(players: int) -> tuple[Part, ...]:
    """The observation's parts with their offsets and sizes for ``players``.

    >>> [(p.name, p.offset, p.size) for p in observation_layout(4)[:6]]
    [('phase', 0, 7), ('year', 7, 3), ('years', 10, 3), ('season', 13, 4), ('to act', 17, 4), \
('owner', 21, 225)]
    """
    out, offset = [], 0
    for name, size, meaning in _parts(players):
        out.append(Part(name, offset, size, meaning))
        offset += size
    return tuple(out)


def observation_size(players: int) -> int:
    """The number of floats in an observation for ``players``."""
    last = observation_layout(players)[-1]
    return last.offset + last.size


def observation_part(players: int, name: str) -> Part:
    """One part of the layout by name (raises ``KeyError`` for an unknown one)."""
    for part in observation_layout(players):
        if part.name == name:
            return part
    raise KeyError(name)


def observation_shape(players: int, options: ShogunOptions) -> tuple[int, ...]:
    """``(observation_size(players),)``: the layout does not depend on the options."""
    return (observation_size(players),)


@functools.cache
def _offsets(players: int) -> dict[str, int]:
    return {part.name: part.offset for part in observation_layout(players)}


@functools.cache
def _board_block(players: int, side: str, removed: str) -> tuple[float, ...]:
    """``in play``, ``region`` and ``province values``, which only the board decides."""
    if side == "sun":
        names: Sequence[str] = D.adjacency.sun_three_player_removed
    else:
        names = [x.strip() for x in removed.split(",") if x.strip()]
    gone = set(names) if players == 3 else set()
    in_play = [0.0 if p.name in gone else 1.0 for p in D.provinces]
    region = [0.0] * (N * REGIONS)
    for i, p in enumerate(D.provinces):
        region[i * REGIONS + D.regions.index(p.sun_region if side == "sun" else p.moon_region)] = (
            1.0
        )
    values = []
    for p in D.provinces:
        values += [p.tax / MAX_TAX, p.rice / MAX_RICE, p.slots / MAX_SLOTS]
    return (*in_play, *region, *values)


def observation_tensor(view: dict[str, Any]) -> list[float]:
    """One seat's view (``Match.view``) as ``observation_size(players)`` floats.

    Reads the view only. Seats are relative to ``view["seat"]`` (a spectator: seat 0 first).
    """
    players: int = view["players"]
    seat: int = 0 if view["seat"] is None else view["seat"]
    order = [(seat + k) % players for k in range(players)]
    rel = [(q - seat) % players for q in range(players)]
    at = _offsets(players)
    out = [0.0] * observation_size(players)
    phase = view["phase"]
    acting = phase in ("target", "armies")
    options = view["options"]

    # -- the game's progress
    out[at["phase"] + PHASE_NAMES.index(phase)] = 1.0
    out[at["year"] + min(view["year"], MAX_YEARS) - 1] = 1.0
    out[at["years"] + min(options["years"], MAX_YEARS) - 1] = 1.0
    out[at["season"] + SEASONS.index(view["season"])] = 1.0
    for q in view["to_act"]:
        out[at["to act"] + rel[q]] = 1.0

    # -- the board
    owner, armies = view["owner"], view["armies"]
    base, width = at["owner"], players + 1
    for i in range(N):
        o = owner[i]
        out[base + i * width + (0 if o < 0 else 1 + rel[o])] = 1.0
    base = at["armies"]
    for i, a in enumerate(armies):
        out[base + 2 * i] = a / CUBES
        out[base + 2 * i + 1] = min(a, SMALL) / SMALL
    base = at["buildings"]
    for i, bits in enumerate(view["buildings"]):
        for b in range(3):
            if bits >> b & 1:
                out[base + 3 * i + b] = 1.0
    base = at["markers"]
    for i, m in enumerate(view["markers"]):
        out[base + i] = min(m, MAX_MARKERS) / MAX_MARKERS
    # in play, region and province values lie end to end and depend on the board alone
    block = _board_block(players, options["board"], options["moon_three_player_removed"])
    out[at["in play"] : at["in play"] + len(block)] = block

    # -- the seats
    provinces = [0] * players
    on_board = [0] * players
    for i in range(N):
        o = owner[i]
        if o >= 0:
            provinces[o] += 1
            on_board[o] += armies[i]
    base = at["seats"]
    for k, q in enumerate(order):
        out[base + 6 * k : base + 6 * k + 6] = [
            squash(view["money"][q], CHESTS_SCALE),
            squash(view["rice"][q], RICE_SCALE),
            squash(view["vp"][q], VP_SCALE),
            provinces[q] / N,
            on_board[q] / CUBES,
            view["plan_n"][q] / STEPS,
        ]
    base, width = at["positions"], SPECIALS + 1 + players
    specials, positions = view["specials"], view["positions"]
    for i in range(POSITIONS):
        if i < len(specials):
            out[base + i * width + specials[i]] = 1.0
        taker = positions[i]
        out[base + i * width + SPECIALS + (0 if taker < 0 else 1 + rel[taker])] = 1.0
    base = at["choosing"]
    for place, q in enumerate(view["choosers"]):
        out[base + rel[q] * players + place] = 1.0

    # -- tower and supplies
    base = at["tower"]
    shown = "tower" in view
    out[base] = float(shown)
    for k, colour in enumerate([*order, players]):
        scale = PEASANTS if colour == players else CUBES
        row = base + 1 + 4 * k
        if shown:
            reserve = view["supply"][colour] + view["tower"][colour]
            out[row + 2] = squash(view["tower"][colour], SMALL)
        else:
            reserve = view["reserve"][colour]
            out[row + 3] = signed_squash(view["tower_flow"][colour], SMALL)
        out[row] = reserve / scale
        out[row + 1] = squash(view["tray"][colour], SMALL)
    base = at["supplies"]
    for b in range(3):
        out[base + b] = view["building_supply"][b] / SUPPLY_BUILDINGS[b]
    out[base + 3] = view["markers_left"] / MARKERS

    # -- events and the season's action cards
    base = at["events"]
    for e in view["events_left"]:
        out[base + 4 * e] = 1.0
    for e in view["year_events"]:
        out[base + 4 * e + 1] = 1.0
    for e in view["season_events"]:
        out[base + 4 * e + 2] = 1.0
    if view["event"] >= 0:
        out[base + 4 * view["event"] + 3] = 1.0
    base = at["action cards"]
    action_idx = view["action_idx"]
    for place, a in enumerate(view["action_order"]):
        row = base + 4 * a
        out[row] = 1.0
        out[row + 1] = place / (SPACES - 1)
        if acting:
            out[row + 2] = float(place < action_idx)
            out[row + 3] = float(place == action_idx)
    if acting:
        out[at["turn"] + view["pos_idx"]] = 1.0

    # -- plans, bids and hands
    base = at["plans"]
    revealed = view["bids_revealed"]
    for k, q in enumerate(order):
        done = view["plan_n"][q]
        statuses = view["plan_status"][q]
        for space, entry in enumerate(view["plans"][q]):
            row = base + (k * SPACES + space) * PLAN_WIDTH
            if entry is None:
                kind = 1 if revealed or space < done else 0
            elif entry == UNSET:
                kind = 0
            elif entry == BLANK:
                kind = 2
            elif entry == EMPTY:
                kind = 3
            else:
                kind = 4
                out[row + len(PLAN_KINDS) + len(STATUS_KINDS) + entry] = 1.0
            out[row + kind] = 1.0
            out[row + len(PLAN_KINDS) + statuses[space]] = 1.0
    base = at["bids"]
    for k, q in enumerate(order):
        row = base + k * BID_WIDTH
        bid = view["bids"][q]
        if bid is None:
            out[row + (1 if view["plan_n"][q] == STEPS else 0)] = 1.0
        elif bid == PROVINCE_BID:
            out[row + 3] = 1.0
            out[row + len(BID_KINDS) + 5 + view["bid_cards"][q]] = 1.0
        elif bid == NO_BID:
            out[row + 4] = 1.0
        else:
            out[row + 2] = 1.0
            out[row + len(BID_KINDS) + bid] = 1.0
    base = at["hands"]
    for k, q in enumerate(order):
        for p in view["hand"][q]:
            out[base + k * N + p] = 1.0

    # -- the decision in progress: a march, the winter's revolts, the draft
    pending = view["pending"]
    if pending:
        base = at["march"]
        out[base + (0 if pending[1] == BATTLE else 1)] = 1.0
        out[base + 2 + pending[2]] = 1.0
        if pending[3] >= 0:
            out[base + 2 + N + pending[3]] = 1.0
    base = at["winter"]
    for p in view["revolt_left"]:
        out[base + p] = 1.0
    out[base + N] = max(0, view["revolt_bonus"]) / MAX_BONUS
    for q in view["winter_queue"]:
        out[base + N + 1 + rel[q]] = 1.0
    base = at["draft"]
    for p in view["draft_up"]:
        out[base + p] = 1.0
    if view["draft_drawn"] >= 0:
        out[base + N + view["draft_drawn"]] = 1.0
    for p in view["deck_top"]:
        out[base + 2 * N + p] = 1.0
    for p in view["deck_bottom"]:
        out[base + 3 * N + p] = 1.0
    lineup = D.stacks[players]
    width = len(STACK_SIZES) + players + N
    for k, q in enumerate(order):
        row = base + 4 * N + k * width
        left = view["stacks_left"][q]
        for j, size in enumerate(STACK_SIZES):
            if size in lineup:
                out[row + j] = left.count(size) / lineup.count(size)
        for p in view["last_seen"][q]:
            out[row + len(STACK_SIZES) + players + p] = 1.0
    for place, q in enumerate(view["draft_order"][:players]):
        out[base + 4 * N + rel[q] * width + len(STACK_SIZES) + place] = 1.0
    return out

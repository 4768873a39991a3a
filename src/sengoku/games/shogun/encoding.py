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
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from sengoku.core import TensorPart, TensorParts

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


class _Seat:
    """What every part of one view's observation needs and no move changes: the player
    count and the seats from the viewer's on (a spectator: seat 0 first)."""

    __slots__ = ("order", "players", "rel", "v")

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.v = view
        players: int = view["players"]
        seat: int = 0 if view["seat"] is None else view["seat"]
        self.players = players
        self.order = [(seat + k) % players for k in range(players)]
        self.rel = [(q - seat) % players for q in range(players)]


def _hot(size: int, index: int) -> list[float]:
    out = [0.0] * size
    out[index] = 1.0
    return out


def _to_act(t: _Seat) -> list[float]:
    out = [0.0] * t.players
    for q in t.v["to_act"]:
        out[t.rel[q]] = 1.0
    return out


def _owner(t: _Seat) -> dict[int, float]:
    width, rel = t.players + 1, t.rel
    out: dict[int, float] = {}
    for i, o in enumerate(t.v["owner"]):
        out[i * width + (0 if o < 0 else 1 + rel[o])] = 1.0
    return out


def _armies(t: _Seat) -> list[float]:
    out = [0.0] * (N * 2)
    for i, a in enumerate(t.v["armies"]):
        out[2 * i] = a / CUBES
        out[2 * i + 1] = min(a, SMALL) / SMALL
    return out


def _buildings(t: _Seat) -> dict[int, float]:
    out: dict[int, float] = {}
    for i, bits in enumerate(t.v["buildings"]):
        for b in range(3):
            if bits >> b & 1:
                out[3 * i + b] = 1.0
    return out


def _board(t: _Seat, start: int, size: int) -> list[float]:
    """``in play``, ``region`` or ``province values``: only the board decides them."""
    options = t.v["options"]
    block = _board_block(t.players, options["board"], options["moon_three_player_removed"])
    return list(block[start : start + size])


def _seats(t: _Seat) -> list[float]:
    v = t.v
    owner, armies = v["owner"], v["armies"]
    money, rice, vp, plan_n = v["money"], v["rice"], v["vp"], v["plan_n"]
    provinces = [0] * t.players
    on_board = [0] * t.players
    for i in range(N):
        o = owner[i]
        if o >= 0:
            provinces[o] += 1
            on_board[o] += armies[i]
    out: list[float] = []
    for q in t.order:
        out += [
            squash(money[q], CHESTS_SCALE),
            squash(rice[q], RICE_SCALE),
            squash(vp[q], VP_SCALE),
            provinces[q] / N,
            on_board[q] / CUBES,
            plan_n[q] / STEPS,
        ]
    return out


def _positions(t: _Seat) -> dict[int, float]:
    width = SPECIALS + 1 + t.players
    out: dict[int, float] = {}
    specials, positions = t.v["specials"], t.v["positions"]
    for i in range(POSITIONS):
        if i < len(specials):
            out[i * width + specials[i]] = 1.0
        taker = positions[i]
        out[i * width + SPECIALS + (0 if taker < 0 else 1 + t.rel[taker])] = 1.0
    return out


def _choosing(t: _Seat) -> dict[int, float]:
    out: dict[int, float] = {}
    for place, q in enumerate(t.v["choosers"]):
        out[t.rel[q] * t.players + place] = 1.0
    return out


def _tower(t: _Seat) -> list[float]:
    v, players = t.v, t.players
    out = [0.0] * (1 + (players + 1) * 4)
    shown = "tower" in v
    out[0] = float(shown)
    for k, colour in enumerate([*t.order, players]):
        scale = PEASANTS if colour == players else CUBES
        row = 1 + 4 * k
        if shown:
            reserve = v["supply"][colour] + v["tower"][colour]
            out[row + 2] = squash(v["tower"][colour], SMALL)
        else:
            reserve = v["reserve"][colour]
            out[row + 3] = signed_squash(v["tower_flow"][colour], SMALL)
        out[row] = reserve / scale
        out[row + 1] = squash(v["tray"][colour], SMALL)
    return out


def _supplies(t: _Seat) -> list[float]:
    supply = t.v["building_supply"]
    return [*(supply[b] / SUPPLY_BUILDINGS[b] for b in range(3)), t.v["markers_left"] / MARKERS]


def _events(t: _Seat) -> dict[int, float]:
    v = t.v
    out: dict[int, float] = {}
    for e in v["events_left"]:
        out[4 * e] = 1.0
    for e in v["year_events"]:
        out[4 * e + 1] = 1.0
    for e in v["season_events"]:
        out[4 * e + 2] = 1.0
    if v["event"] >= 0:
        out[4 * v["event"] + 3] = 1.0
    return out


def _action_cards(t: _Seat) -> dict[int, float]:
    v = t.v
    out: dict[int, float] = {}
    acting = v["phase"] in ("target", "armies")
    action_idx = v["action_idx"]
    for place, a in enumerate(v["action_order"]):
        row = 4 * a
        out[row] = 1.0
        out[row + 1] = place / (SPACES - 1)
        if acting:
            out[row + 2] = float(place < action_idx)
            out[row + 3] = float(place == action_idx)
    return out


def _turn(t: _Seat) -> dict[int, float]:
    out: dict[int, float] = {}
    if t.v["phase"] in ("target", "armies"):
        out[t.v["pos_idx"]] = 1.0
    return out


#: Where a plan space's status and its province card start in its row.
_STATUS_AT = len(PLAN_KINDS)
_CARD_AT = len(PLAN_KINDS) + len(STATUS_KINDS)


def _plans(t: _Seat) -> dict[int, float]:
    v = t.v
    plans, plan_n, plan_status = v["plans"], v["plan_n"], v["plan_status"]
    revealed = v["bids_revealed"]
    out: dict[int, float] = {}
    for k, q in enumerate(t.order):
        done = plan_n[q]
        statuses = plan_status[q]
        row = k * SPACES * PLAN_WIDTH
        for space, entry in enumerate(plans[q]):
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
                out[row + _CARD_AT + entry] = 1.0
            out[row + kind] = 1.0
            out[row + _STATUS_AT + statuses[space]] = 1.0
            row += PLAN_WIDTH
    return out


def _bids(t: _Seat) -> dict[int, float]:
    v = t.v
    out: dict[int, float] = {}
    for k, q in enumerate(t.order):
        row = k * BID_WIDTH
        bid = v["bids"][q]
        if bid is None:
            out[row + (1 if v["plan_n"][q] == STEPS else 0)] = 1.0
        elif bid == PROVINCE_BID:
            out[row + 3] = 1.0
            out[row + len(BID_KINDS) + 5 + v["bid_cards"][q]] = 1.0
        elif bid == NO_BID:
            out[row + 4] = 1.0
        else:
            out[row + 2] = 1.0
            out[row + len(BID_KINDS) + bid] = 1.0
    return out


def _hands(t: _Seat) -> dict[int, float]:
    out: dict[int, float] = {}
    hand = t.v["hand"]
    for k, q in enumerate(t.order):
        for p in hand[q]:
            out[k * N + p] = 1.0
    return out


def _march(t: _Seat) -> dict[int, float]:
    out: dict[int, float] = {}
    pending = t.v["pending"]
    if pending:
        out[0 if pending[1] == BATTLE else 1] = 1.0
        out[2 + pending[2]] = 1.0
        if pending[3] >= 0:
            out[2 + N + pending[3]] = 1.0
    return out


def _winter(t: _Seat) -> dict[int, float]:
    v = t.v
    out: dict[int, float] = {}
    for p in v["revolt_left"]:
        out[p] = 1.0
    out[N] = max(0, v["revolt_bonus"]) / MAX_BONUS
    for q in v["winter_queue"]:
        out[N + 1 + t.rel[q]] = 1.0
    return out


def _draft(t: _Seat) -> dict[int, float]:
    v, players = t.v, t.players
    width = len(STACK_SIZES) + players + N
    out: dict[int, float] = {}
    for p in v["draft_up"]:
        out[p] = 1.0
    if v["draft_drawn"] >= 0:
        out[N + v["draft_drawn"]] = 1.0
    for p in v["deck_top"]:
        out[2 * N + p] = 1.0
    for p in v["deck_bottom"]:
        out[3 * N + p] = 1.0
    lineup = D.stacks[players]
    for k, q in enumerate(t.order):
        row = 4 * N + k * width
        left = v["stacks_left"][q]
        for j, size in enumerate(STACK_SIZES):
            if size in lineup:
                out[row + j] = left.count(size) / lineup.count(size)
        for p in v["last_seen"][q]:
            out[row + len(STACK_SIZES) + players + p] = 1.0
    for place, q in enumerate(v["draft_order"][:players]):
        out[4 * N + t.rel[q] * width + len(STACK_SIZES) + place] = 1.0
    return out


#: The parts made as dicts of their places that are not 0 (TensorPart.sparse).
_SPARSE = frozenset(
    (
        "owner",
        "buildings",
        "positions",
        "choosing",
        "events",
        "action cards",
        "turn",
        "plans",
        "bids",
        "hands",
        "march",
        "winter",
        "draft",
    )
)
_ENCODERS: dict[str, Callable[[_Seat], Any]] = {
    "phase": lambda t: _hot(len(PHASE_NAMES), PHASE_NAMES.index(t.v["phase"])),
    "year": lambda t: _hot(MAX_YEARS, min(t.v["year"], MAX_YEARS) - 1),
    "years": lambda t: _hot(MAX_YEARS, min(t.v["options"]["years"], MAX_YEARS) - 1),
    "season": lambda t: _hot(len(SEASONS), SEASONS.index(t.v["season"])),
    "to act": _to_act,
    "owner": _owner,
    "armies": _armies,
    "buildings": _buildings,
    "markers": lambda t: [min(m, MAX_MARKERS) / MAX_MARKERS for m in t.v["markers"]],
    "in play": lambda t: _board(t, 0, N),
    "region": lambda t: _board(t, N, N * REGIONS),
    "province values": lambda t: _board(t, N + N * REGIONS, N * 3),
    "seats": _seats,
    "positions": _positions,
    "choosing": _choosing,
    "tower": _tower,
    "supplies": _supplies,
    "events": _events,
    "action cards": _action_cards,
    "turn": _turn,
    "plans": _plans,
    "bids": _bids,
    "hands": _hands,
    "march": _march,
    "winter": _winter,
    "draft": _draft,
}


@functools.cache
def tensor_parts(players: int) -> TensorParts:
    """The observation as :func:`observation_layout`'s parts, each made from a ``_Seat``."""
    return TensorParts(
        _Seat,
        tuple(
            TensorPart(part.name, part.size, _ENCODERS[part.name], part.name in _SPARSE)
            for part in observation_layout(players)
        ),
    )


def observation_tensor(view: dict[str, Any]) -> list[float]:
    """One seat's view (``Match.view``) as ``observation_size(players)`` floats.

    Reads the view only. Seats are relative to ``view["seat"]`` (a spectator: seat 0 first).
    """
    return tensor_parts(view["players"]).tensor(view)

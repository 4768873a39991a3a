"""Shitenno's research encoding: a fixed token vocabulary for actions, a fixed-size observation.

See :mod:`sengoku.core.encoding` for the rules a spelling follows. Shitenno's notations of an
``Offer`` (the whole lot) and a ``Place`` (the whole payment) would make tens of thousands of
distinct actions; spelled in tokens they are a few choices among a few dozen ids each.

**The vocabulary** is the same 47 tokens for every player count and every option set:

========================  ====  ============================================================
part                      size  tokens
========================  ====  ============================================================
troop cards                 14  ``troop Bu`` ... ``troop SoSo`` (the 14 kinds, data order)
koku cards                   3  ``koku 1``, ``koku 2``, ``koku 3``
hierarchy tiles              4  ``tile Daimyo`` ... ``tile Hatamoto``
lot answers                  3  ``offer``, ``accept``, ``refuse``
provinces                    8  ``province Chugoku`` ... ``province Kanto`` (data order)
payment kind                 2  ``pay troops``, ``pay koku``
payment helpers              3  ``use Exchange``, ``use +1``, ``use Hatamoto``
end of payment               1  ``confirm``
Draw tile                    2  ``draw troop``, ``draw koku``
golden flip                  6  ``flip``, ``space 1`` ... ``space 4``, ``no flip``
end of turn                  1  ``end turn``
========================  ====  ============================================================

**Spellings.** What the state fixes is left out: the lot being offered was built step by
step and goes to the one seat next in title order, and a payment is for the province chosen
just before (``Target``).

* ``AddTroop``/``AddKoku``/``AddTile``: the card or tile, one token (``["troop SaSh"]``,
  ``["koku 2"]``, ``["tile Shomyo"]``); ``Offer``: ``["offer"]``; ``Accept``, ``Refuse``:
  ``["accept"]``, ``["refuse"]``; ``TakeLast``: the tile picked, ``["tile Sensei"]``.
* ``Target``: ``["province Kanto"]``.
* ``Place``: the price paid, the cards (troop kinds in data order, then koku values from the
  highest), the tiles and the wild troop, then ``confirm``:
  ``["pay koku", "koku 3", "koku 2", "confirm"]``,
  ``["pay troops", "troop Sa", "troop Sa", "troop BuSh", "use Exchange", "use Hatamoto",
  "confirm"]``.
* ``UseDraw``: ``["draw troop"]`` or ``["draw koku"]``; ``Flip``: ``["flip", "province
  Kanto", "space 1"]``; ``NoFlip``: ``["no flip"]``; ``EndTurn``: ``["end turn"]``.

>>> import sengoku
>>> m = sengoku.new_match("shitenno", 3, seed=1)
>>> [action_tokens(m.state, 1, a) for a in m.legal_actions(1)][:3]
[['troop Sh'], ['troop So'], ['troop BuSh']]
>>> from .actions import Place
>>> action_tokens(m.state, 1, Place(7, True, (), (3, 2)))
['pay koku', 'koku 3', 'koku 2', 'confirm']

**The observation** of one seat's view is a flat list of floats in [0, 1]. Seats are taken
in seat order starting from the viewing seat (own seat first, then the next seat numbers;
the order of play follows the titles, which every seat's block holds). A spectator's view
(seat ``None``) is encoded with seat 0 first and an empty hand. With ``P`` players it has
``175 + 69 P`` values (313, 382, 451); the parts, in order (:func:`layout`):

==================  ==========  =============================================================
part                size        meaning (normalised by)
==================  ==========  =============================================================
phase               7           one-hot: build, offer, last, control, pay, flip, over
year                1           the year (by twice the most sharings the koku deck allows)
decks               2           troop and koku cards left in the decks (by the box's cards)
turn                3           placements this turn (by 2), Sensei flipped, wild troop used
target              8           one-hot: the province being paid for
hierarchy tiles     4           tiles not yet in a lot
lot                 21          the lot being built or offered: troop cards per kind (by the
                                box's count of the kind), koku cards per value (likewise),
                                its hierarchy tile one-hot
face-up cards       17          the Tairo's face-up cards, troops per kind and koku per value
spent cards         17          the troop discard per kind, spent koku per value
stacked tiles       12          bonus tiles still on the board per troop face and effect
                                (by the box's count of each)
new tiles           3           tiles won this turn per effect (by the box's count of each)
seats               37 P        one block per seat, own seat first (below)
provinces           8 (4P+10)   one block per province, data order (below)
==================  ==========  =============================================================

A seat's block (37, :data:`SEAT_LAYOUT`): title one-hot (4); score (by
:data:`SCORE_SCALE`); kamons in supply (by the kamons dealt); troop and koku cards in hand
(by the box's cards, 2); bonus tiles held per effect (3); hierarchy tile of the lot taken in
the latest sharing, one-hot (4); is the Tairo; is to act; waits to answer the lot offered;
has had his turn this odd year; final score (by :data:`SCORE_SCALE`); hand troop cards per
kind (14) and koku cards per value (3), known for one's own seat, and for every seat with
``open_hands``, zero otherwise.

A province's block (4 P + 10): per space left to right, its kamon's owner one-hot by seat
slot (P) and whether it is golden (1); the bonus tiles stacked (by 3); the troops of each
type its next space requires (by 4); the value of its next free space (by the highest
value; 0 when full).

>>> view = m.view(1)
>>> tensor = observation_tensor(view)
>>> len(tensor) == observation_shape(3)[0] == 382
True
>>> start = {name: offset for name, offset, _ in layout(3)}
>>> tensor[start["phase"] : start["phase"] + 7]
[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from sengoku.core import TensorPart, TensorParts, parse_options

from .actions import (
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
from .board import bonus_tiles, koku_deck, troop_deck
from .data import DATA, KIND_CODES, TROOP_NAMES, kind_of_code
from .options import ShitennoOptions
from .state import Phase, State

__all__ = [
    "SCORE_SCALE",
    "SEAT_LAYOUT",
    "VOCABULARY",
    "action_tokens",
    "layout",
    "observation_shape",
    "observation_tensor",
]

NKINDS = len(KIND_CODES)
NPROV = len(PROVINCE_NAMES)
SPACES = DATA.spaces_per_province
NTITLES = len(TITLE_NAMES)
EFFECT_NAMES = tuple(e.name for e in DATA.bonus.effects)
NEFFECTS = len(EFFECT_NAMES)
PHASE_NAMES = tuple(p.name.lower() for p in Phase)
PLACEMENTS = DATA.setup.placements_per_turn
MAX_NEED = max(p.troops_needed for p in DATA.provinces)
MAX_VALUE = max(v for p in DATA.provinces for v in p.values)
#: Favour points that the scores are divided by: every space's value and every majority
#: bonus (256), a bound no score comes near (the best of 2,400 random games scored 133).
SCORE_SCALE = sum(v for p in DATA.provinces for v in p.values) + sum(
    p.majority_bonus for p in DATA.provinces
)

TROOP_TOKENS = tuple(f"troop {code}" for code in KIND_CODES)
KOKU_TOKENS = ("", "koku 1", "koku 2", "koku 3")  # by value; index 0 unused
TILE_TOKENS = tuple(f"tile {name}" for name in TITLE_NAMES)
PROVINCE_TOKENS = tuple(f"province {name}" for name in PROVINCE_NAMES)
SPACE_TOKENS = tuple(f"space {i + 1}" for i in range(SPACES))
PAY_TROOPS, PAY_KOKU = "pay troops", "pay koku"
USE_EXCHANGE, USE_PLUS, USE_WILD = "use Exchange", "use +1", "use Hatamoto"
CONFIRM = "confirm"

#: The action tokens, the same for every player count and option set; a token's place is its id.
VOCABULARY: tuple[str, ...] = (
    *TROOP_TOKENS,
    *KOKU_TOKENS[1:],
    *TILE_TOKENS,
    "offer",
    "accept",
    "refuse",
    *PROVINCE_TOKENS,
    PAY_TROOPS,
    PAY_KOKU,
    USE_EXCHANGE,
    USE_PLUS,
    USE_WILD,
    CONFIRM,
    "draw troop",
    "draw koku",
    "flip",
    *SPACE_TOKENS,
    "no flip",
    "end turn",
)


def action_tokens(state: State, seat: int, action: ShitennoAction) -> list[str]:
    """The tokens that spell ``action``, one of ``seat``'s legal actions in ``state``.

    The state is not read: what it fixes (the lot offered and to whom, the province paid
    for) is simply left out of the spelling.
    """
    if isinstance(action, AddTroop):
        return [TROOP_TOKENS[action.kind]]
    if isinstance(action, AddKoku):
        return [KOKU_TOKENS[action.value]]
    if isinstance(action, AddTile | TakeLast):
        return [TILE_TOKENS[action.title]]
    if isinstance(action, Target):
        return [PROVINCE_TOKENS[action.province]]
    if isinstance(action, Place):
        return _payment_tokens(action)
    if isinstance(action, Flip):
        return ["flip", PROVINCE_TOKENS[action.province], SPACE_TOKENS[action.space]]
    if isinstance(action, UseDraw):
        return ["draw koku" if action.koku else "draw troop"]
    if isinstance(action, Offer):
        return ["offer"]
    if isinstance(action, Accept):
        return ["accept"]
    if isinstance(action, Refuse):
        return ["refuse"]
    if isinstance(action, NoFlip):
        return ["no flip"]
    assert isinstance(action, EndTurn), action
    return ["end turn"]


def _payment_tokens(action: Place) -> list[str]:
    """A payment in a canonical order: its price, the cards sorted, the helpers, confirm."""
    tokens = [PAY_KOKU if action.koku else PAY_TROOPS]
    tokens += [TROOP_TOKENS[k] for k in sorted(action.troops)]
    tokens += [KOKU_TOKENS[v] for v in sorted(action.kokus, reverse=True)]
    tokens += [USE_EXCHANGE] * action.exchange + [USE_PLUS] * action.plus
    if action.wild:
        tokens.append(USE_WILD)
    tokens.append(CONFIRM)
    return tokens


# -- the observation ---------------------------------------------------------------------

_STACKED = len(TROOP_NAMES) * NEFFECTS


def _offsets(sizes: tuple[tuple[str, int], ...]) -> list[tuple[str, int, int]]:
    parts, offset = [], 0
    for name, size in sizes:
        parts.append((name, offset, size))
        offset += size
    return parts


#: One seat's block in the observation as ``(name, offset, size)``, offsets in the block.
SEAT_LAYOUT: tuple[tuple[str, int, int], ...] = tuple(
    _offsets(
        (
            ("title", NTITLES),
            ("score", 1),
            ("kamons", 1),
            ("troop cards", 1),
            ("koku cards", 1),
            ("bonus tiles", NEFFECTS),
            ("lot taken", NTITLES),
            ("tairo", 1),
            ("acting", 1),
            ("offer queue", 1),
            ("turn done", 1),
            ("final score", 1),
            ("hand troops", NKINDS),
            ("hand koku", 3),
        )
    )
)
_SEAT_FIELDS = SEAT_LAYOUT[-1][1] + SEAT_LAYOUT[-1][2]


def layout(players: int) -> list[tuple[str, int, int]]:
    """The observation's parts as ``(name, offset, size)`` for ``players`` players.

    >>> layout(2)[:3]
    [('phase', 0, 7), ('year', 7, 1), ('decks', 8, 2)]
    """
    return _offsets(
        (
            ("phase", len(PHASE_NAMES)),
            ("year", 1),
            ("decks", 2),
            ("turn", 3),
            ("target", NPROV),
            ("hierarchy tiles", NTITLES),
            ("lot", NKINDS + 3 + NTITLES),
            ("face-up cards", NKINDS + 3),
            ("spent cards", NKINDS + 3),
            ("stacked tiles", _STACKED),
            ("new tiles", NEFFECTS),
            ("seats", _SEAT_FIELDS * players),
            ("provinces", NPROV * (SPACES * (players + 1) + 1 + len(TROOP_NAMES) + 1)),
        )
    )


def observation_shape(players: int) -> tuple[int]:
    """The observation's shape, ``(175 + 69 * players,)``; options do not change it."""
    _, offset, size = layout(players)[-1]
    return (offset + size,)


class _Box:
    """What the box holds under one option set: the normalisers of the observation."""

    __slots__ = (
        "effects",
        "kamons",
        "koku",
        "koku_cards",
        "koku_cards_per_sharing",
        "stacked",
        "troop_cards",
        "troops",
    )

    def __init__(self, options: ShitennoOptions) -> None:
        deck = troop_deck(options)
        self.troop_cards = len(deck)
        self.troops = [max(1, deck.count(k)) for k in range(NKINDS)]
        kokus = koku_deck(options)
        self.koku_cards = max(1, len(kokus))
        self.koku = [1, *(max(1, kokus.count(v)) for v in (1, 2, 3))]
        tiles = bonus_tiles(options)
        self.stacked = [tiles.count(code) for code in range(_STACKED)]
        self.effects = [max(1, n) for n in options.effect_counts()]
        self.kamons = (options.kamons_2_players, options.kamons_3_players, options.kamons_4_players)
        self.koku_cards_per_sharing = options.draw_koku_per_player


@lru_cache(maxsize=64)
def _box(options: tuple[tuple[str, Any], ...]) -> _Box:
    return _Box(parse_options(ShitennoOptions, dict(options)))


_KIND_OF_CODE = {code: kind_of_code(code) for code in KIND_CODES}
_TITLE_OF_NAME = {name: i for i, name in enumerate(TITLE_NAMES)}
_TROOP_OF_NAME = {name: i for i, name in enumerate(TROOP_NAMES)}
_EFFECT_OF_NAME = {name: i for i, name in enumerate(EFFECT_NAMES)}
_PHASE_OF_NAME = {name: i for i, name in enumerate(PHASE_NAMES)}
_PROVINCE_OF_NAME = {name: i for i, name in enumerate(PROVINCE_NAMES)}


def _one_hot(size: int, index: int | None) -> list[float]:
    out = [0.0] * size
    if index is not None:
        out[index] = 1.0
    return out


def _troops(codes: list[str], box: _Box) -> list[float]:
    out = [0.0] * NKINDS
    for code in codes:
        out[_KIND_OF_CODE[code]] += 1.0
    return [n / box.troops[k] for k, n in enumerate(out)]


def _koku(values: list[int], box: _Box) -> list[float]:
    out = [0.0, 0.0, 0.0, 0.0]
    for v in values:
        out[v] += 1.0
    return [out[v] / box.koku[v] for v in (1, 2, 3)]


def _effects(tiles: list[dict[str, str]], box: _Box) -> list[float]:
    out = [0.0] * NEFFECTS
    for tile in tiles:
        out[_EFFECT_OF_NAME[tile["effect"]]] += 1.0
    return [n / box.effects[e] for e, n in enumerate(out)]


class _Seen:
    """What every part of one view's observation needs and no move changes: the player
    count, the box's normalisers and the seats from the viewer's on."""

    __slots__ = ("box", "players", "seats", "slot", "v")

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.v = view
        self.players: int = view["players"]
        me: int = view["seat"] or 0
        self.box = _box(tuple(sorted(view["options"].items())))
        self.seats = [(me + i) % self.players for i in range(self.players)]
        self.slot = {q: i for i, q in enumerate(self.seats)}


def _year(t: _Seen) -> list[float]:
    box = t.box
    rounds = -(-box.koku_cards // (box.koku_cards_per_sharing * t.players))
    return [min(1.0, t.v["year"] / (2 * rounds))]


def _turn(t: _Seen) -> list[float]:
    v = t.v
    return [
        v["placements"] / PLACEMENTS,
        float(v["sensei_flipped"]),
        float(v["hatamoto_wild_used"]),
    ]


def _target(t: _Seen) -> list[float]:
    target = t.v["target"]
    return _one_hot(NPROV, None if target is None else _PROVINCE_OF_NAME[target])


def _lot(t: _Seen) -> list[float]:
    lot = t.v["lot"]
    out = _troops(lot["troops"], t.box) + _koku(lot["koku"], t.box)
    return out + _one_hot(NTITLES, None if lot["tile"] is None else _TITLE_OF_NAME[lot["tile"]])


def _stacked(t: _Seen) -> list[float]:
    v, box = t.v, t.box
    seen = [*v["new_bonus_tiles"], *v["used_bonus_tiles"]]
    for held in v["bonus_tiles"]:
        seen += held
    stacked = box.stacked.copy()
    for tile in seen:
        stacked[_TROOP_OF_NAME[tile["troop"]] * NEFFECTS + _EFFECT_OF_NAME[tile["effect"]]] -= 1
    return [n / max(1, box.stacked[code]) for code, n in enumerate(stacked)]


_PARTS: tuple[Callable[[_Seen], list[float]], ...] = (
    lambda t: _one_hot(len(PHASE_NAMES), _PHASE_OF_NAME[t.v["phase"]]),
    _year,
    lambda t: [t.v["troop_deck"] / t.box.troop_cards, t.v["koku_deck"] / t.box.koku_cards],
    _turn,
    _target,
    lambda t: [float(name in t.v["hierarchy_tiles"]) for name in TITLE_NAMES],
    _lot,
    lambda t: _troops(t.v["face_up"]["troops"], t.box) + _koku(t.v["face_up"]["koku"], t.box),
    lambda t: _troops(t.v["troop_discard"], t.box) + _koku(t.v["koku_spent"], t.box),
    _stacked,
    lambda t: _effects(t.v["new_bonus_tiles"], t.box),
    lambda t: _seat_blocks(t.v, t.seats, _PHASE_OF_NAME[t.v["phase"]], t.box),
    lambda t: _province_blocks(t.v, t.slot, t.players),
)


@lru_cache(maxsize=8)
def tensor_parts(players: int) -> TensorParts:
    """The observation as :func:`layout`'s parts, each made from what it reads of the view."""
    parts = zip(layout(players), _PARTS, strict=True)
    return TensorParts(
        _Seen, tuple(TensorPart(name, size, encode) for (name, _, size), encode in parts)
    )


def observation_tensor(view: dict[str, Any]) -> list[float]:
    """One seat's view (as :meth:`Match.view` gives it) as :func:`layout` lays it out."""
    return tensor_parts(view["players"]).tensor(view)


def _seat_blocks(view: Mapping[str, Any], seats: list[int], phase: int, box: _Box) -> list[float]:
    players: int = view["players"]
    kamons = box.kamons[players - 2]
    hands: list[dict[str, Any] | None] = [None] * players
    if "hands" in view:
        hands = list(view["hands"])
    if view["hand"] is not None:
        hands[view["seat"]] = view["hand"]
    order, turn = view["order"], view["turn"]
    odd_year = Phase.CONTROL <= phase <= Phase.FLIP
    finals = view["final_scores"]
    out: list[float] = []
    for q in seats:
        taken = view["lots_taken"][q]
        out += _one_hot(NTITLES, _TITLE_OF_NAME[view["titles"][q]])
        out += [
            view["scores"][q] / SCORE_SCALE,
            view["kamons"][q] / kamons,
            view["troop_cards"][q] / box.troop_cards,
            view["koku_cards"][q] / box.koku_cards,
        ]
        out += _effects(view["bonus_tiles"][q], box)
        out += _one_hot(NTITLES, None if taken is None else _TITLE_OF_NAME[taken])
        out += [
            float(view["tairo"] == q),
            float(view["acting"] == q),
            float(q in view["offer_queue"]),
            float(odd_year and order.index(q) < turn),
            0.0 if finals is None else finals[q] / SCORE_SCALE,
        ]
        hand = hands[q]
        if hand is None:
            out += [0.0] * (NKINDS + 3)
        else:
            out += _troops(hand["troops"], box) + _koku(hand["koku"], box)
    return out


def _province_blocks(view: Mapping[str, Any], slot: dict[int, int], players: int) -> list[float]:
    out: list[float] = []
    for p, province in enumerate(view["provinces"]):
        free = None
        for i, space in enumerate(province["spaces"]):
            owner = [0.0] * (players + 1)
            if space is None:
                free = i if free is None else free
            else:
                owner[slot[space["seat"]]] = 1.0
                owner[players] = float(space["golden"])
            out += owner
        need = [0.0] * len(TROOP_NAMES)
        for troop in province["requirement"]:
            need[_TROOP_OF_NAME[troop]] += 1.0 / MAX_NEED
        out.append(province["stack"] / DATA.bonus_tiles_per_province)
        out += need
        out.append(0.0 if free is None else DATA.provinces[p].values[free] / MAX_VALUE)
    return out

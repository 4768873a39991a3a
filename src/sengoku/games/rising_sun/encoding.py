"""Rising Sun's research encoding: a fixed token vocabulary for its actions, and one seat's view
as a fixed-length vector of floats (issue 18; the protocol is :mod:`sengoku.core.encoding`).

**Vocabulary.** :func:`vocabulary` is the same list of 111 tokens for every player count and
every option (all five clans, the Season cards of every Set), so one policy can play any table:

======================  =====  ==========================================================
part                    size   tokens
======================  =====  ==========================================================
kinds                   24     ``choose``, ``offer alliance``, ``accept``, ``refuse``,
                               ``give coin``, ``give ronin``, ``give spent coin``,
                               ``offer coin``, ``keep``, ``announce``, ``summon``,
                               ``place``, ``move``, ``build``, ``buy``, ``replace``,
                               ``kill``, ``take hostage``, ``bid``, ``commit seppuku``,
                               ``spare the losers``, ``take coin``, ``pay``, ``pass``
clans                   5      ``clan Koi`` ... ``clan Bonsai`` (rank order)
figures                 4      ``figure Daimyo``, ``figure Shinto``, ``figure Bushi``,
                               ``figure Stronghold`` (a Monster is named by its card)
cards                   47     ``card Komainu`` ...: one per card *name* (copies share it)
provinces               8      ``province Hokkaido`` ... ``province Kyushu``
kami                    7      ``kami Amaterasu`` ... ``kami Tsukuyomi``
mandates                5      ``mandate Recruit`` ... ``mandate Betray``
coins                   11     ``coins 0`` ... ``coins 9``, ``coins +10``
======================  =====  ==========================================================

**Spellings** (:func:`spell`): a kind token, then the action's arguments in its notation's
order. A Summon that climbs to a shrine names the Kami *before* the province it passes
(``summon``, ``figure Shinto``, ``kami Hachiman``, ``province Nagato``), so that neither it
nor the Summon that stays (``summon``, ``figure Shinto``, ``province Nagato``) spells a prefix
of the other. A bid is its Coins in tens and a last digit: 13 is ``coins +10``, ``coins 3``
(the digit closes it). Every "no", "end" and "nothing" choice is ``pass``. Parts the pending
decision fixes are left out: the Advantage of a bid, the clan whose offer an ``accept`` or
``refuse`` answers.

>>> import sengoku
>>> m = sengoku.new_match("rising_sun", 3, seed=2, options={"clans": "fixed"})
>>> [spell(m.state, 0, a) for a in m.legal_actions(0)][:3]
[['offer alliance', 'clan Lotus'], ['offer alliance', 'clan Turtle'], ['pass']]
>>> from .actions import Bid, Summon
>>> spell(m.state, 0, Bid(2, 13)), spell(m.state, 0, Summon(1, 5, 2))
(['bid', 'coins +10', 'coins 3'], ['summon', 'figure Shinto', 'kami Hachiman', 'province Nagato'])

**Observation.** :func:`observation` reads a view (as ``Match.view`` gives it) into
``size(players)`` floats in [0, 1] (a count past its scale, rare, reads 1). Seats appear
relative to the viewer: *r* = 0 is the viewer, *r* = 1 the clan on its left (the next in
``view["order"]``, the seating), and so on; a spectator's view (seat ``None``) is encoded as
seat 0's table, with no secrets in it. The parts, for *n* players (:func:`layout` gives
their offsets; ``docs/rising_sun.md`` has the table):

* ``game`` (25): phase, Season, the Season set, the position on the Political track (one-hot);
* ``decision`` (24 + 2n + 12 + n): the pending decision (one-hot, last: none), who decides,
  who may act, the decision's details (Move context and Moves left, a Train discount, where a
  placement may go, the Coins or hostages still to give, the clan whose offer or figure it is);
* ``clans`` (n x (30 + 4n)): per seat, its clan, Honor place, VP/100, Coins/40, Ronin/10, ally,
  Seasons allied/3, Tea Ceremony done, offers made, its Reserve by figure, hostages it holds
  by owner, cards owned by type, War Province tokens by province, their VP/20 and distinct/8;
* ``board`` (8 x (7n + n + 4)): per province and seat, Daimyo, Shinto/3, Bushi/6, Monsters/4,
  Strongholds/4, Force/15 and figures moved this Mandate/6; per province its War Number
  (one-hot of n + 2), whether its War is over, the Recruit slots left/4;
* ``shrines`` (4 x (7 + n)): each shrine's Kami and each seat's worshippers/4;
* ``monsters`` (8 x (n + 14)): per Monster name, owner and where it is (province, shrine,
  Reserve, held hostage);
* ``cards`` (47 x (2 + n)): per card name, in this match's decks, on display/2, owned/2 by seat;
* ``mandates`` (1 + n + 7 x (11 + n) + 17): deck size/10, holder, each Mandate Turn's
  Mandate (or face down), selector and the tile kept as far as the viewer knows, the viewer's
  latest draw and the tiles it returned, the tiles it is drawing now;
* ``battle`` (8 + 11n + 5n + 2): the province, per seat taking part, bids done, bids seen and
  the four bids/40, Ronin hired/10, Coins at the start/40, Force/15, hostages taken/3; the
  winner of the Battle and of each Advantage; figures killed/10; Wars fought/(n + 2);
* ``steps`` (n + 3): the clans picked by a Betray, its extra replacements/2, Recruit's
  any-Stronghold slots/4 and the figures Summoned so far/6.

Offsets and sizes, for 4 players (1223 values in all; 1014 for 3, 1440 for 5):

>>> [(p.name, p.offset, p.size) for p in layout(4)]  # doctest: +NORMALIZE_WHITESPACE
[('game', 0, 25), ('decision', 25, 48), ('clans', 73, 184), ('board', 257, 288),
 ('shrines', 545, 44), ('monsters', 589, 144), ('cards', 733, 282), ('mandates', 1015, 127),
 ('battle', 1142, 74), ('steps', 1216, 7)]
>>> obs = observation(m.view(0))
>>> len(obs) == size(3), [p.name for p in layout(3)][:3]
(True, ['game', 'decision', 'clans'])
>>> clans = offset(3, "clans")  # Koi's first 5 values: its clan, one-hot
>>> obs[clans : clans + 5]
[1.0, 0.0, 0.0, 0.0, 0.0]
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from sengoku.core.encoding import EncodingError, TensorPart, TensorParts

from . import kami, mandates, summons, tea, war
from .actions import (
    ALLIANCE,
    AT_KAMI,
    BENEVOLENCE,
    COIN,
    GENEROSITY,
    REPARATION,
    RONIN,
    Announce,
    Answer,
    Bid,
    Build,
    Buy,
    Choice,
    ChooseClan,
    Give,
    Hostage,
    Keep,
    Kill,
    Move,
    Place,
    Replace,
    Summon,
)
from .cards import CARDS
from .data import CARD_TYPES, SETS, load_data
from .state import (
    D_ANSWER,
    D_BENEVOLENCE,
    D_BID,
    D_BUY,
    D_GEN_ANSWER,
    D_HATE,
    D_HOSTAGE,
    D_MOVE,
    D_PLACE,
    D_REPARATION,
    DECISION_NAMES,
    HOSTAGE,
    KIND_NAMES,
    MONSTER,
    MONSTER_BASE,
    PHASE_NAMES,
    SEASON_NAMES,
    SHRINE,
    STRONGHOLD,
    State,
)

D = load_data()
N_PROVINCES = len(D.province_names)
N_SHRINES = D.game.shrines.count
N_MANDATES = len(D.game.mandates.names)
N_ADVANTAGES = len(D.game.advantages.names)
TRACK = D.game.political_track.turns
MANDATE_TURNS = TRACK.count("M")
FIGS = D.game.figures

# ---------------------------------------------------------------------- the vocabulary

KINDS = (
    "choose",
    "offer alliance",
    "accept",
    "refuse",
    "give coin",
    "give ronin",
    "give spent coin",
    "offer coin",
    "keep",
    "announce",
    "summon",
    "place",
    "move",
    "build",
    "buy",
    "replace",
    "kill",
    "take hostage",
    "bid",
    "commit seppuku",
    "spare the losers",
    "take coin",
    "pay",
    "pass",
)
CLAN_TOKENS = tuple(f"clan {c.name}" for c in D.clans)
FIGURE_KINDS = tuple(k for k in range(len(KIND_NAMES)) if k != MONSTER)
FIGURE_TOKENS = tuple(f"figure {KIND_NAMES[k]}" for k in FIGURE_KINDS)
#: the distinct card names, in the data's order (copies of a card share a name)
CARD_NAMES = tuple(dict.fromkeys(c.name for c in D.cards))
CARD_TOKENS = tuple(f"card {name}" for name in CARD_NAMES)
PROVINCE_TOKENS = tuple(f"province {p}" for p in D.province_names)
KAMI_TOKENS = tuple(f"kami {k.name}" for k in D.kami)
MANDATE_TOKENS = tuple(f"mandate {m}" for m in D.game.mandates.names)
DIGIT_TOKENS = tuple(f"coins {d}" for d in range(10))
TENS = "coins +10"

VOCABULARY: tuple[str, ...] = (
    *KINDS,
    *CLAN_TOKENS,
    *FIGURE_TOKENS,
    *CARD_TOKENS,
    *PROVINCE_TOKENS,
    *KAMI_TOKENS,
    *MANDATE_TOKENS,
    *DIGIT_TOKENS,
    TENS,
)

#: each Choice's token, by its label ("pay 2 coins for 2 VP" is matched by its first word)
CHOICE_TOKENS: dict[str, str] = {
    **{
        c.label: "pass"
        for c in (
            tea.NO_ALLIANCE,
            mandates.END_RECRUIT,
            mandates.END_MOVES,
            mandates.BUILD_NOTHING,
            mandates.BUY_NOTHING,
            mandates.GIVE_NO_COIN,
            mandates.END_BETRAYAL,
            mandates.OFFER_NO_COIN,
            summons.PLACE_NOTHING,
            summons.SUMMON_NOTHING,
            summons.KILL_NOTHING,
            summons.TAKE_NO_COIN,
            kami.DO_NOT_PAY,
            war.DECLINE,
            war.NO_HOSTAGE,
            war.NO_MERCY,
        )
    },
    mandates.ACCEPT_COIN.label: "accept",
    mandates.REFUSE_COIN.label: "refuse",
    summons.TAKE_COIN.label: "take coin",
    war.COMMIT.label: "commit seppuku",
    war.SPARE.label: "spare the losers",
}
#: each Give's kind token, by purpose: a Reparation's odd Coin (War, where no gift is offered)
#: shares ``give coin`` with a gift
GIVE_TOKENS = {
    COIN: "give coin",
    RONIN: "give ronin",
    ALLIANCE: "offer alliance",
    GENEROSITY: "offer coin",
    BENEVOLENCE: "give spent coin",
    REPARATION: "give coin",
}


def vocabulary() -> list[str]:
    """Rising Sun's action tokens: the same for every player count and options.

    >>> len(vocabulary()), vocabulary()[:2], vocabulary()[-1]
    (111, ['choose', 'offer alliance'], 'coins +10')
    """
    return list(VOCABULARY)


def what_token(what: int) -> str:
    """The token of a piece type as actions name it: a figure kind, or a Monster's card."""
    if what >= MONSTER_BASE:
        return f"card {CARDS[what - MONSTER_BASE].name}"
    return FIGURE_TOKENS[FIGURE_KINDS.index(what)]


def where_token(where: int) -> str:
    """A province, or a Kami for ``AT_KAMI + kami`` (its shrine)."""
    return KAMI_TOKENS[where - AT_KAMI] if where >= AT_KAMI else PROVINCE_TOKENS[where]


def coin_tokens(coins: int) -> list[str]:
    """A number of Coins: one ``coins +10`` per ten, then the last digit, which closes it."""
    return [TENS] * (coins // 10) + [DIGIT_TOKENS[coins % 10]]


def spell(state: State, seat: int, action: Any) -> list[str]:
    """The tokens of ``action``, one of ``seat``'s legal actions in ``state`` (the action
    alone says enough: the state and seat are the protocol's, unused here)."""
    if isinstance(action, Choice):
        token = CHOICE_TOKENS.get(action.label)
        if token is None and action.label.startswith("pay "):
            token = "pay"  # Path of the Vassal: 'pay 2 coins for 2 VP'
        if token is None:
            raise EncodingError(f"Rising Sun spells no choice {action.label!r}")
        return [token]
    if isinstance(action, Give):
        return [GIVE_TOKENS[action.purpose], CLAN_TOKENS[action.clan]]
    if isinstance(action, Summon):
        climb = [] if action.kami < 0 else [KAMI_TOKENS[action.kami]]
        return ["summon", what_token(action.what), *climb, PROVINCE_TOKENS[action.province]]
    if isinstance(action, Move):
        src, dst = PROVINCE_TOKENS[action.src], PROVINCE_TOKENS[action.dst]
        return ["move", what_token(action.what), src, dst]
    if isinstance(action, Bid):
        return ["bid", *coin_tokens(action.coins)]
    if isinstance(action, Place):
        return ["place", what_token(action.what), where_token(action.where)]
    if isinstance(action, Replace):
        return [
            "replace",
            CLAN_TOKENS[action.clan],
            what_token(action.what),
            where_token(action.where),
            what_token(action.with_what),
        ]
    if isinstance(action, Kill):
        clan, what = CLAN_TOKENS[action.clan], what_token(action.what)
        return ["kill", clan, what, PROVINCE_TOKENS[action.province]]
    if isinstance(action, Hostage):
        return ["take hostage", CLAN_TOKENS[action.clan], what_token(action.what)]
    if isinstance(action, Buy):
        return ["buy", f"card {CARDS[action.card].name}"]
    if isinstance(action, Build):
        return ["build", PROVINCE_TOKENS[action.province]]
    if isinstance(action, Keep):
        return ["keep", MANDATE_TOKENS[action.mandate]]
    if isinstance(action, Announce):
        return ["announce", MANDATE_TOKENS[action.mandate]]
    if isinstance(action, Answer):
        return ["accept" if action.accept else "refuse"]
    if isinstance(action, ChooseClan):
        return ["choose", CLAN_TOKENS[action.clan]]
    raise EncodingError(f"Rising Sun spells no action {action!r}")


# ---------------------------------------------------------------------- the observation


class Part(NamedTuple):
    """One part of the observation: where it starts, how long it is, what it holds."""

    name: str
    offset: int
    size: int
    meaning: str


MONSTER_NAMES = tuple(dict.fromkeys(c.name for c in D.cards if c.type == "monster"))
#: where a Monster can be: a province, a shrine, the Reserve, held hostage
MONSTER_PLACES = N_PROVINCES + N_SHRINES + 2
#: the card names of each Set's match (Core and the Set)
IN_GAME = {name: frozenset(c.name for c in D.cards if c.set in ("core", name)) for name in SETS}
#: what counts are divided by (most are the largest count the data allows)
SCALE = {
    "vp": 100.0,
    "coins": 40.0,
    "ronin": 10.0,
    "force": 15.0,
    "seasons": 3.0,
    "tokens": 3.0,
    "token_vp": 20.0,
    "cards": 2.0,
    "card_types": 10.0,
    "monsters": 4.0,
    "hostages": 3.0,
    "worship": 4.0,
    "slots": 4.0,
    "moved": 6.0,
    "summoned": 6.0,
    "killed": 10.0,
    "deck": 10.0,
    "draw": float(D.game.mandates.draw),
}
#: a Reserve's Daimyo, Shinto, Bushi, Strongholds and Monsters are divided by these
RESERVE_SCALE = (FIGS.daimyo, FIGS.shinto, FIGS.bushi, FIGS.strongholds, SCALE["monsters"])


def _sizes(n: int) -> list[tuple[str, int, str]]:
    return [
        (
            "game",
            len(PHASE_NAMES) + len(SEASON_NAMES) + len(SETS) + len(TRACK) + 1,
            "phase, Season, the Season set, Political track position (one-hot)",
        ),
        (
            "decision",
            len(DECISION_NAMES) + 1 + 2 * n + 12 + n,
            "the pending decision (one-hot, last: none), who decides, who may act, its details",
        ),
        (
            "clans",
            n * (30 + 4 * n),
            "per seat: clan, Honor, VP, Coins, Ronin, ally, Reserve, "
            "hostages, cards by type, War Province tokens",
        ),
        (
            "board",
            N_PROVINCES * (8 * n + 4),
            "per province and seat: figures by type, "
            "Strongholds, Force, moved; per province: War Number, War over, Recruit slots",
        ),
        ("shrines", N_SHRINES * (len(D.kami) + n), "each shrine's Kami and worshippers by seat"),
        (
            "monsters",
            len(MONSTER_NAMES) * (n + MONSTER_PLACES),
            "per Monster name: owner and place",
        ),
        (
            "cards",
            len(CARD_NAMES) * (2 + n),
            "per card name: in this match, on display, owned by seat",
        ),
        (
            "mandates",
            1 + n + MANDATE_TURNS * (2 * N_MANDATES + 1 + n) + 3 * N_MANDATES + 2,
            "deck, holder, each Mandate Turn, the viewer's draws",
        ),
        (
            "battle",
            N_PROVINCES + 11 * n + (1 + N_ADVANTAGES) * n + 2,
            "the Battle: province, per seat its part and bids, winners, kills, progress",
        ),
        ("steps", n + 3, "Betray's picked clans and extras, Recruit's slots and Summons"),
    ]


def layout(players: int) -> list[Part]:
    """The parts of the observation for ``players``, with their offsets."""
    out, at = [], 0
    for name, length, meaning in _sizes(players):
        out.append(Part(name, at, length, meaning))
        at += length
    return out


def size(players: int) -> int:
    """The length of the observation for ``players``."""
    return sum(length for _, length, _ in _sizes(players))


def offset(players: int, name: str) -> int:
    """Where part ``name`` starts."""
    return next(p.offset for p in layout(players) if p.name == name)


def _one_hot(size_: int, index: int) -> list[float]:
    out = [0.0] * size_
    if 0 <= index < size_:
        out[index] = 1.0
    return out


class _Table:
    """What every part needs: the view, the players, and the seats in the viewer's order."""

    __slots__ = ("n", "rel", "seats", "v", "viewer")

    def __init__(self, v: Mapping[str, Any]) -> None:
        self.v = v
        self.n: int = v["players"]
        self.viewer: int = 0 if v["seat"] is None else v["seat"]
        order: list[int] = v["order"]
        start = order.index(self.viewer)
        self.seats = [order[(start + r) % self.n] for r in range(self.n)]
        self.rel = {q: r for r, q in enumerate(self.seats)}

    def seat_hot(self, seat: int) -> list[float]:
        """A seat as a one-hot of its place relative to the viewer (zeros for none)."""
        return _one_hot(self.n, self.rel.get(seat, -1))

    def seats_hot(self, seats: Sequence[int]) -> list[float]:
        out = [0.0] * self.n
        for q in seats:
            if q in self.rel:
                out[self.rel[q]] = 1.0
        return out


def _game(t: _Table) -> list[float]:
    v = t.v
    set_ = SETS.index(v["season_set"]) if v["season_set"] in SETS else -1
    return [
        *_one_hot(len(PHASE_NAMES), PHASE_NAMES.index(v["phase"])),
        *_one_hot(len(SEASON_NAMES), SEASON_NAMES.index(v["season"])),
        *_one_hot(len(SETS), set_),
        *_one_hot(len(TRACK) + 1, v["turn"]),
    ]


def _decision(t: _Table) -> list[float]:
    v, n = t.v, t.n
    pending: list[int] = v["pending"] or [-1, -1, -1, -1, -1, -1]
    kind, arg = pending[0], pending[2:]
    details = [0.0] * 12
    other = -1
    if kind == D_MOVE:  # (context, Moves left; -1: each figure once)
        details[arg[0]] = 1.0
        details[3] = arg[1] / 2 if arg[1] > 0 else 0.0
        details[4] = float(arg[1] < 0)
    elif kind == D_BUY:  # (discount)
        details[5] = float(arg[0] > 0)
    elif kind == D_PLACE:  # (what, where it may go, a Summon, optional)
        details[6 + arg[1]] = 1.0
        details[9] = float(arg[2])
        details[10] = float(arg[3])
    elif kind in (D_BENEVOLENCE, D_HOSTAGE, D_REPARATION):  # (how many are left)
        details[11] = arg[0] / SCALE["hostages"]
    elif kind in (D_ANSWER, D_GEN_ANSWER, D_HATE):  # (the offering or the victim's seat, ...)
        other = arg[0]
    return [
        *_one_hot(len(DECISION_NAMES) + 1, len(DECISION_NAMES) if kind < 0 else kind),
        *t.seat_hot(-1 if kind in (-1, D_BID) else pending[1]),
        *t.seats_hot(v["to_act"]),
        *details,
        *_one_hot(n, t.rel.get(other, -1)),
    ]


#: Each card's place in CARD_TYPES.
_CARD_TYPE_PLACE = tuple(CARD_TYPES.index(card.type) for card in CARDS)


def _clans(t: _Table) -> list[float]:
    v, n = t.v, t.n
    reserve = [[0] * 5 for _ in range(n)]
    held = [[0] * n for _ in range(n)]  # held[captor][owner relative to the viewer]
    for owner, kind, _card, loc, _moves in v["pieces"]:
        if loc == -1:
            reserve[owner][FIGURE_KINDS.index(kind) if kind != MONSTER else 4] += 1
        elif loc >= HOSTAGE:
            held[loc - HOSTAGE][t.rel[owner]] += 1
    offers = [[0.0] * n for _ in range(n)]
    for code in v["offers"]:
        offers[code // 8][t.rel[code % 8]] = 1.0
    out: list[float] = []
    for q in t.seats:
        clan = v["clan_ids"][q]
        types = [0] * len(CARD_TYPES)
        for c in v["owned"][q]:
            types[_CARD_TYPE_PLACE[c]] += 1
        tokens = [0] * N_PROVINCES
        token_vp = 0
        for token in v["tokens"][q]:
            tokens[token % N_PROVINCES] += 1
            token_vp += D.game.war_tokens.vp_by_season[token // N_PROVINCES]
        out += _one_hot(len(CLAN_TOKENS), clan)
        out += _one_hot(n, v["honor"].index(q))
        out += [v["vp"][q] / SCALE["vp"], v["coins"][q] / SCALE["coins"]]
        out += [v["ronin"][q] / SCALE["ronin"]]
        out += t.seat_hot(v["ally"][q])
        out += [v["alliance_seasons"][q] / SCALE["seasons"], float(v["tea_done"][q])]
        out += offers[q]
        out += [x / s for x, s in zip(reserve[q], RESERVE_SCALE, strict=True)]
        out += [x / SCALE["hostages"] for x in held[q]]
        out += [x / SCALE["card_types"] for x in types]
        out += [x / SCALE["tokens"] for x in tokens]
        distinct = sum(1 for x in tokens if x)
        out += [token_vp / SCALE["token_vp"], distinct / N_PROVINCES]
    return out


def _board(t: _Table) -> list[float]:
    v, n = t.v, t.n
    # counts[province][seat relative][Daimyo, Shinto, Bushi, Monster, Stronghold, moved]:
    # the first five are the piece kinds' own numbers
    counts = [[[0] * (STRONGHOLD + 2) for _ in range(n)] for _ in range(N_PROVINCES)]
    for owner, kind, _card, loc, moves in v["pieces"]:
        if 0 <= loc < N_PROVINCES:
            row = counts[loc][t.rel[owner]]
            row[kind] += 1
            if moves:
                row[STRONGHOLD + 1] += 1
    wars = n + 2
    out: list[float] = []
    for p in range(N_PROVINCES):
        force = v["force"][p]
        for r, q in enumerate(t.seats):
            d, s, b, m, h, moved = counts[p][r]
            out += [d / FIGS.daimyo, s / FIGS.shinto, b / FIGS.bushi, m / SCALE["monsters"]]
            out += [h / FIGS.strongholds, force[q] / SCALE["force"], moved / SCALE["moved"]]
        number = v["war"].index(p) if p in v["war"] else -1
        out += _one_hot(wars, number)
        out += [float(0 <= number < v["war_next"]), v["slots"][p] / SCALE["slots"]]
    return out


def _shrines(t: _Table) -> list[float]:
    v = t.v
    worship = [[0] * t.n for _ in range(N_SHRINES)]
    for owner, _kind, _card, loc, _moves in v["pieces"]:
        if SHRINE <= loc < SHRINE + N_SHRINES:
            worship[loc - SHRINE][t.rel[owner]] += 1
    out: list[float] = []
    for slot in range(N_SHRINES):
        k = v["shrines"][slot] if slot < len(v["shrines"]) else -1
        out += _one_hot(len(D.kami), k)
        out += [x / SCALE["worship"] for x in worship[slot]]
    return out


def _monsters(t: _Table) -> list[float]:
    rows = {name: [0.0] * (t.n + MONSTER_PLACES) for name in MONSTER_NAMES}
    for owner, kind, card, loc, _moves in t.v["pieces"]:
        if kind != MONSTER:
            continue
        row = rows[CARDS[card].name]
        row[t.rel[owner]] = 1.0
        if 0 <= loc < SHRINE + N_SHRINES:  # a province, or a shrine
            place = loc
        else:  # in the Reserve, or held hostage
            place = MONSTER_PLACES - 2 if loc < 0 else MONSTER_PLACES - 1
        row[t.n + place] = 1.0
    return [x for name in MONSTER_NAMES for x in rows[name]]


#: Each card's place in CARD_NAMES (copies of one card share it), and each card name's
#: ``present`` flags per Season Set.
_CARD_PLACE = tuple(CARD_NAMES.index(card.name) for card in CARDS)
_PRESENT = {name: tuple(float(card in IN_GAME[name]) for card in CARD_NAMES) for name in IN_GAME}
_ABSENT = (0.0,) * len(CARD_NAMES)


def _cards(t: _Table) -> list[float]:
    v, n, rel = t.v, t.n, t.rel
    shown = [0] * len(CARD_NAMES)
    for c in v["display"]:
        shown[_CARD_PLACE[c]] += 1
    width = 2 + n
    counts = [0] * (len(CARD_NAMES) * width)  # per card name: -, shown, owned per seat
    owned = v["owned"]
    for q in range(n):
        column = 2 + rel[q]
        for c in owned[q]:
            counts[_CARD_PLACE[c] * width + column] += 1
    for i, count in enumerate(shown):
        counts[i * width + 1] = count
    out = [x / SCALE["cards"] for x in counts]
    present = _PRESENT.get(v["season_set"], _ABSENT)
    for i in range(len(CARD_NAMES)):
        out[i * width] = present[i]
    return out


def _tiles(tiles: Sequence[int]) -> list[float]:
    out = [0.0] * N_MANDATES
    for m in tiles:
        out[m] += 1 / SCALE["draw"]
    return out


def _mandates(t: _Table) -> list[float]:
    v = t.v
    out = [v["deck_size"] / SCALE["deck"], *t.seat_hot(v["holder"])]
    for turn in range(MANDATE_TURNS):
        if turn < len(v["selectors"]):
            shown, kept = v["mandates"][turn], v["kept"][turn]
            out += _one_hot(N_MANDATES, shown)
            out += [float(shown < 0), *t.seat_hot(v["selectors"][turn])]
            out += _one_hot(N_MANDATES, -1 if kept is None else kept)
        else:
            out += [0.0] * (2 * N_MANDATES + 1 + t.n)
    draws: list[list[Any]] = v["my_draws"]
    if draws:
        turn, pool = max(draws, key=lambda d: int(d[0]))
        back = list(pool)
        kept = v["kept"][turn]
        if kept is not None and kept in back:
            back.remove(kept)
        out += _tiles(pool) + _tiles(back)
        out.append(float(turn == len(v["selectors"]) - 1))
    else:
        out += [0.0] * (2 * N_MANDATES + 1)
    out += _tiles(v["drawn"] or ())
    out.append(v["drawing"] / SCALE["draw"])
    return out


def _battle(t: _Table) -> list[float]:
    v, n = t.v, t.n
    b = v["battle"]
    part: list[int] = b["participants"]
    out = _one_hot(N_PROVINCES, b["province"])
    for q in t.seats:
        bids = b["bids"][q]
        seen = bids is not None
        four = [*(bids or ()), 0, 0, 0, 0][:N_ADVANTAGES]
        force = b["forces"][part.index(q)] if q in part and b["forces"] else 0
        taken = sum(1 for captor, _owner, _what in b["taken"] if captor == q)
        out += [float(q in part), float(b["bid_done"][q]), float(seen)]
        out += [x / SCALE["coins"] for x in four]
        out += [b["hired"][q] / SCALE["ronin"], b["start_coins"][q] / SCALE["coins"]]
        out += [force / SCALE["force"], taken / SCALE["hostages"]]
    out += t.seat_hot(b["winner"])
    advantages = [*b["advantages"], -1, -1, -1, -1][:N_ADVANTAGES]
    for winner in advantages:
        out += t.seat_hot(winner)
    out += [b["killed"] / SCALE["killed"], v["war_next"] / (n + 2)]
    return out


def _steps(t: _Table) -> list[float]:
    v = t.v
    return [
        *t.seats_hot(v["picked"]),
        v["extra_used"] / 2,
        v["slot_any"] / SCALE["slots"],
        v["summoned"] / SCALE["summoned"],
    ]


_PARTS: tuple[Callable[[_Table], list[float]], ...] = (
    _game,
    _decision,
    _clans,
    _board,
    _shrines,
    _monsters,
    _cards,
    _mandates,
    _battle,
    _steps,
)


def parts(view: dict[str, Any]) -> dict[str, list[float]]:
    """The observation of ``view`` part by part (checked against :func:`layout`)."""
    t = _Table(view)
    out: dict[str, list[float]] = {}
    for part, encode in zip(layout(t.n), _PARTS, strict=True):
        values = encode(t)
        if len(values) != part.size:  # pragma: no cover - a layout mistake
            raise EncodingError(f"part {part.name} has {len(values)} values, not {part.size}")
        out[part.name] = values
    return out


@functools.cache
def tensor_parts(players: int) -> TensorParts:
    """The observation as parts of :func:`layout`, each made from a ``_Table`` of the view."""
    encoders = zip(layout(players), _PARTS, strict=True)
    return TensorParts(
        _Table, tuple(TensorPart(p.name, p.size, encode) for p, encode in encoders), clamp=True
    )


def observation(view: dict[str, Any]) -> list[float]:
    """One seat's view (or a spectator's, as seat 0's table) as ``size(players)`` floats.

    A count past its scale (more than 40 Coins, 100 VP, 10 cards of a type: none of 120
    random games came near) reads 1.
    """
    return tensor_parts(view["players"]).tensor(view)

"""What each seat may know, and sampling a full state from it (rules §6.1, §8.3; issue 16).

Secret are: the order of the Mandate deck; the 4 tiles a holder draws, and the 3 it returns
(known to it, and to the next holder once drawn); the tile Lotus keeps face down (known to
Lotus only); and the Coins each Battle participant puts on the War Advantages, until the last
participant has bid. Everything else is public: the board, the shrines, every clan's Coins and
Ronin (shown openly in Battle), cards, Honor and VP.

:func:`determinize` rebuilds a whole state from a seat's view, drawing the secrets at random
but consistently with what the seat saw: the Season's Mandate history is sampled turn by turn
(with backtracking) so that every pool the seat drew, every Mandate shown face up and every
tile the seat kept fit.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from sengoku.core import Rng, parse_options

from . import figures, honor
from .data import load_data
from .options import RisingSunOptions, settings
from .state import (
    CLANS,
    D_BID,
    D_KEEP,
    DECISION_NAMES,
    PHASE_NAMES,
    SEASON_NAMES,
    WAR,
    WINTER,
    BattleRecord,
    State,
    blank_state,
)
from .war import bidders

D = load_data()
DRAW = D.game.mandates.draw


def _hidden_keep(s: State, turn: int) -> bool:
    return s.mt_announced[turn] < 0 or honor.is_lotus(s, s.mt_by[turn])


def view(s: State, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator): what every seat sees alike, with what
    ``seat`` alone may see put in (:func:`own_parts`)."""
    v = _shared(s)
    v.update(own_parts(s, seat, v["battle"]))
    return v


def views(s: State, seats: Sequence[int | None]) -> list[dict[str, Any]]:
    """The views of ``seats`` (``Game.views``): the spectator's made once and shared, each
    seat's own parts put in; each equals the seat's :func:`view`."""
    public = view(s, None)
    return [
        public if seat is None else {**public, **own_parts(s, seat, public["battle"])}
        for seat in seats
    ]


def own_parts(s: State, seat: int | None, battle: dict[str, Any]) -> dict[str, Any]:
    """What only ``seat`` may see: the Mandates it kept face down, the tiles it drew and is
    choosing from, and its own secret bids while a Battle's bidding is open (``battle``: the
    shared Battle, whose bids these replace)."""
    pending = s.pending
    bidding = pending is not None and pending[0] == D_BID and bool(bidders(s))
    keeping = pending is not None and pending[0] == D_KEEP
    return {
        "kept": [
            None if _hidden_keep(s, t) and seat != s.mt_by[t] else s.mt_kept[t]
            for t in range(len(s.mt_kept))
        ],
        "my_draws": [[t, s.mt_pool[t].copy()] for t in range(len(s.mt_by)) if s.mt_by[t] == seat],
        "drawn": s.drawn.copy() if keeping and seat == s.holder else None,
        "battle": {
            **battle,
            "bids": [
                s.bids[q].copy() if (not bidding or q == seat) else None for q in range(s.players)
            ],
        },
    }


def _pile(s: State) -> dict[str, int] | None:
    """What is left in the common pile with the option ``box_supply`` (rules §17.5), else
    ``None`` (unlimited)."""
    if not s.options.box_supply:
        return None
    supply = D.game.supply
    return {"coins": supply.coins - sum(s.coins), "ronin": supply.ronin - sum(s.ronin)}


def _shared(s: State) -> dict[str, Any]:
    """Everything of the view that all seats see alike; the seat's own parts (placed here, so
    that the keys keep their order) are filled in by :func:`own_parts`."""
    pending = s.pending
    season = SEASON_NAMES[3] if s.phase >= WINTER else SEASON_NAMES[s.season]
    keeping = pending is not None and pending[0] == D_KEEP
    v: dict[str, Any] = {
        "phase": PHASE_NAMES[s.phase],
        "season": season,
        "season_set": s.season_set,
        "decision": None if pending is None else DECISION_NAMES[pending[0]],
        "clans": [None if c < 0 else honor.CLAN_NAMES[c] for c in s.clan],
        "clan_ids": s.clan.copy(),
        "order": s.order.copy(),
        "honor": s.honor.copy(),
        "vp": s.vp.copy(),
        "coins": s.coins.copy(),
        "ronin": s.ronin.copy(),
        "pile": _pile(s),
        "ally": s.ally.copy(),
        "alliance_seasons": s.alliance_seasons.copy(),
        "pieces": [
            [s.owner[f], s.kind[f], s.card[f], s.loc[f], s.moves[f]] for f in range(len(s.loc))
        ],
        "force": [figures.forces(s, p, s.phase == WAR) for p in range(8)],
        "owned": [o.copy() for o in s.owned],
        "display": s.display.copy(),
        "shrines": s.shrines.copy(),
        "war": s.war.copy(),
        "war_next": s.war_next,
        "tokens": [t.copy() for t in s.tokens],
        "holder": s.holder,
        "deck_size": len(s.deck),
        "turn": s.turn,
        "mandates": s.mt_announced.copy(),
        "selectors": s.mt_by.copy(),
        "kept": None,
        "my_draws": None,
        "drawn": None,
        "drawing": len(s.drawn) if keeping else 0,
        "agenda": [list(t) for t in s.agenda],
        "pending": None if pending is None else list(pending),
        "slots": s.slots.copy(),
        "slot_any": s.slot_any,
        "summoned": s.summoned,
        "picked": s.picked.copy(),
        "extra_used": s.extra_used,
        "offers": s.offers.copy(),
        "tea_done": s.tea_done.copy(),
        "battle": {
            "province": s.b_prov,
            "participants": s.b_part.copy(),
            "bids": None,
            "bid_done": s.bid_done.copy(),
            "killed": s.b_killed,
            "hired": s.b_hired.copy(),
            "souls": s.b_souls.copy(),
            "start_coins": s.b_start_coins.copy(),
            "winner": s.b_winner,
            "advantages": s.b_adv.copy(),
            "forces": s.b_force.copy(),
            "taken": [x.copy() for x in s.b_taken],
        },
        "battles": [_battle_json(r) for r in s.battles],
        "event": {
            "open": s.ev_open,
            "before": s.ev_before.copy(),
            "vp": s.ev_vp.copy(),
            "coins": s.ev_coin.copy(),
        },
        "final": None if s.final is None else s.final.copy(),
        "breakdown": [b.copy() for b in s.breakdown],
    }
    return v


def _battle_json(r: BattleRecord) -> dict[str, Any]:
    return {
        k: [list(x) if isinstance(x, tuple) else x for x in v] if isinstance(v, tuple) else v
        for k, v in r._asdict().items()
    }


def _battle_record(r: dict[str, Any]) -> BattleRecord:
    fields: dict[str, Any] = {
        k: tuple(tuple(x) if isinstance(x, list) else x for x in v) if isinstance(v, list) else v
        for k, v in r.items()
    }
    return BattleRecord(**fields)


def determinize(v: dict[str, Any], rng: Rng) -> State:
    """A full state agreeing with view ``v``, its secrets drawn from ``rng``."""
    return determinizer(v)(rng)


def determinizer(v: dict[str, Any]) -> Callable[[Rng], State]:
    """:func:`determinize` for view ``v`` as a function of the ``rng``: the public state is
    made once, and each call copies it and draws the secrets (hidden bids, in seat order,
    then the Mandates)."""
    seat: int = v["seat"]
    public = _public_state(v)
    hidden = v["battle"]["bids"]

    def sample(rng: Rng) -> State:
        s = public.clone()
        s.bids = [
            list(x) if x is not None else _sample_bids(s, q, rng) for q, x in enumerate(hidden)
        ]
        if s.phase != CLANS:  # no deck before the clans sit down
            _sample_mandates(s, v, seat, rng)
        return s

    return sample


def _public_state(v: dict[str, Any]) -> State:
    """The state of view ``v`` without its secrets: no bids, the blank Mandate deck."""
    n: int = v["players"]
    options = parse_options(RisingSunOptions, v["options"])
    st = settings(options)
    s = blank_state(n, options, st, D.board(options.extra_route_nagato_kyushu))
    s.season_set = v["season_set"]
    s.phase = PHASE_NAMES.index(v["phase"])
    s.season = min(SEASON_NAMES.index(v["season"]), 2)
    s.clan = list(v["clan_ids"])
    s.order = list(v["order"])
    s.honor = list(v["honor"])
    s.vp = list(v["vp"])
    s.coins = list(v["coins"])
    s.ronin = list(v["ronin"])
    s.ally = list(v["ally"])
    s.alliance_seasons = list(v["alliance_seasons"])
    for owner, kind, card, loc, moves in v["pieces"]:
        figures.new_piece(s, owner, kind, card, loc)
        s.moves[-1] = moves
    s.owned = [list(o) for o in v["owned"]]
    s.display = list(v["display"])
    s.shrines = list(v["shrines"])
    s.war = list(v["war"])
    s.war_next = v["war_next"]
    s.tokens = [list(t) for t in v["tokens"]]
    s.holder = v["holder"]
    s.turn = v["turn"]
    s.mt_announced = list(v["mandates"])
    s.mt_by = list(v["selectors"])
    s.agenda = [tuple(t) for t in v["agenda"]]
    s.pending = None if v["pending"] is None else tuple(v["pending"])
    s.slots = list(v["slots"])
    s.slot_any = v["slot_any"]
    s.summoned = v["summoned"]
    s.picked = list(v["picked"])
    s.extra_used = v["extra_used"]
    s.offers = list(v["offers"])
    s.tea_done = list(v["tea_done"])
    b = v["battle"]
    s.b_prov = b["province"]
    s.b_part = list(b["participants"])
    s.bid_done = list(b["bid_done"])
    s.b_killed = b["killed"]
    s.b_hired = list(b["hired"])
    s.b_souls = list(b["souls"])
    s.b_start_coins = list(b["start_coins"])
    s.b_winner = b["winner"]
    s.b_adv = list(b["advantages"])
    s.b_force = list(b["forces"])
    s.b_taken = [list(x) for x in b["taken"]]
    s.battles = [_battle_record(r) for r in v["battles"]]
    e = v["event"]
    s.ev_open = e["open"]
    s.ev_before = list(e["before"])
    s.ev_vp = list(e["vp"])
    s.ev_coin = list(e["coins"])
    s.final = None if v["final"] is None else list(v["final"])
    s.breakdown = [list(x) for x in v["breakdown"]]
    return s


def _sample_bids(s: State, q: int, rng: Rng) -> list[int]:
    """Some bids for a participant whose bids are hidden: as many steps as it may have made."""
    steps = 4 if s.bid_done[q] else rng.randbelow(4)
    left = s.coins[q]
    out = []
    for _ in range(steps):
        x = rng.randbelow(left + 1)
        out.append(x)
        left -= x
    return out


def _sample_mandates(s: State, v: dict[str, Any], seat: int, rng: Rng) -> None:
    """Draw the Season's Mandate history (pools, kept tiles), the tiles being drawn now and
    the deck's order, consistent with what ``seat`` saw."""
    kinds = len(D.game.mandates.names)
    counts = [0] * kinds
    for m in s.settings.deck:
        counts[m] += 1
    mine = dict(v["my_draws"])
    turns: list[Turn] = [(mine.get(t), v["kept"][t]) for t in range(len(s.mt_by))]
    drawing = v["drawing"]
    current = list(v["drawn"]) if v["drawn"] is not None else None
    found = _search(counts, turns, drawing, current, rng)
    if found is None:  # pragma: no cover - a view always has a consistent history
        raise ValueError("no Mandate history fits this view")
    pools, keeps, drawn, rest = found
    s.mt_pool = pools
    s.mt_kept = keeps
    s.drawn = drawn
    s.deck = rest


Turn = tuple[list[int] | None, int | None]


def _search(
    counts: list[int],
    turns: list[Turn],
    drawing: int,
    current: list[int] | None,
    rng: Rng,
) -> tuple[list[list[int]], list[int], list[int], list[int]] | None:
    pools: list[list[int]] = []
    keeps: list[int] = []

    def new_tiles(remaining: list[int], k: int) -> list[list[int]]:
        """Every multiset of ``k`` tiles from ``remaining``, in a random order weighted by
        how likely a fair shuffle makes it (one random number per multiset, in the order
        :func:`_multisets` lists them)."""
        powers, tiles = _multisets(tuple(remaining), k)
        random = rng.random
        keys = [-(random() ** power) for power in powers]
        # a stable sort: equal keys keep the listed order
        return [tiles[i] for i in sorted(range(len(keys)), key=keys.__getitem__)]

    def step(t: int, back: list[int], remaining: list[int]) -> list[int] | None:
        if t == len(turns):
            return finish(back, remaining)
        known_pool, known_keep = turns[t]
        k = min(DRAW, len(back) + sum(remaining)) - len(back)
        if known_pool is not None:
            extra = _minus(known_pool, back)
            choices = [extra] if extra is not None and len(extra) == k else []
        else:
            choices = new_tiles(remaining, k)
        for extra in choices:
            left = remaining.copy()
            if any(_take(left, x) is False for x in extra):
                continue
            pool = sorted(back + extra)
            if known_keep is not None:
                keep_options = [known_keep] if known_keep in pool else []
            else:
                keep_options = sorted(set(pool))
                keep_options.sort(key=lambda _x: rng.random())
            for keep in keep_options:
                rest = pool.copy()
                rest.remove(keep)
                pools.append(pool)
                keeps.append(keep)
                got = step(t + 1, rest, left)
                if got is not None:
                    return got
                pools.pop()
                keeps.pop()
        return None

    drawn_out: list[int] = []

    def finish(back: list[int], remaining: list[int]) -> list[int] | None:
        left = remaining.copy()
        if drawing:
            k = drawing - len(back)
            if current is not None:
                extra = _minus(current, back)
                if extra is None or len(extra) != k or any(_take(left, x) is False for x in extra):
                    return None
                drawn_out[:] = current
            else:
                extra = new_tiles(left, k)[0] if k > 0 else []
                for x in extra:
                    _take(left, x)
                drawn_out[:] = back + extra
            back = []
        tiles = [m for m, c in enumerate(left) for _ in range(c)]
        rng.shuffle(tiles)
        return back + tiles

    deck = step(0, [], list(counts))
    if deck is None:
        return None
    return pools, keeps, list(drawn_out), deck


@functools.lru_cache(maxsize=1024)
def _multisets(remaining: tuple[int, ...], k: int) -> tuple[list[float], list[list[int]]]:
    """Every multiset of ``k`` tiles from ``remaining`` (a count per kind), each with the
    power that turns a uniform random number into its key of a weighted random order (1 over
    the number of ways a fair shuffle draws it): the greater ``take`` of each kind first.
    Kinds from which too few tiles are left to complete a multiset are not tried. Worked out
    once per distinct ``remaining``, as every determinization of a position asks the same
    (so the lists are shared: read them, never change them).

    >>> _multisets((2, 1), 2)
    ([1.0, 0.5], [[0, 0], [0, 1]])
    """
    powers: list[float] = []
    tiles: list[list[int]] = []
    suffix = [0] * (len(remaining) + 1)  # the tiles from kind i on
    for i in range(len(remaining) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + remaining[i]

    def build(i: int, left: int, chosen: list[int], weight: int) -> None:
        if left == 0:
            powers.append(1.0 / weight)
            tiles.append(chosen.copy())
            return
        if suffix[i] < left:  # i == len(remaining) among them
            return
        for take in range(min(left, remaining[i]), -1, -1):
            chosen.extend([i] * take)
            build(i + 1, left - take, chosen, weight * _choose(remaining[i], take))
            del chosen[len(chosen) - take :]

    build(0, k, [], 1)
    return powers, tiles


def _choose(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


def _minus(pool: list[int], back: list[int]) -> list[int] | None:
    """``pool`` less the tiles of ``back``, or None if ``back`` is not inside it."""
    rest = list(pool)
    for x in back:
        if x not in rest:
            return None
        rest.remove(x)
    return rest


def _take(counts: list[int], x: int) -> bool:
    if counts[x] <= 0:
        return False
    counts[x] -= 1
    return True

"""What each seat of Shitenno sees (its view), and the reverse: a full state sampled to agree
with a view (:func:`determinize`), and the secrets redealt for the conformance suite
(:func:`vary_secrets`).

Public: the board, scores, supplies, titles, the sharing's face-up cards and lots, discards,
spent koku, bonus tiles held and spent, the top tile's troop face on each stack, deck and hand
sizes. Hidden: other hands (unless ``open_hands``), the order of both decks, and the stacked
tiles but for each top troop face (§3.1, G14).

>>> import sengoku
>>> m = sengoku.new_match("shitenno", players=2, seed=5)
>>> v = views(m.state, [0, None])
>>> v[0]["hand"] is not None, v[1]["hand"] is None, v[0]["provinces"][0]["stack"]
(True, True, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sengoku.core import Rng, parse_options

from . import control, rounds
from .actions import PROVINCE_NAMES, TITLE_NAMES, Place
from .board import (
    EFFECT_NAMES,
    NKINDS,
    SPACES,
    bonus_tiles,
    kinds,
    koku_deck,
    troop_deck,
    values,
)
from .data import KIND_CODES, TROOP_NAMES, kind_of_code
from .options import ShitennoOptions
from .state import EMPTY, GOLDEN, NO_TITLE, Phase, State

__all__ = ["determinize", "vary_secrets", "views"]

_PHASES = {p.name.lower(): p for p in Phase}
#: A province's requirement as the view names it, by province and top troop (§3.1).
_REQUIREMENT_NAMES = {
    key: tuple(TROOP_NAMES[t] for t in range(4) for _ in range(need[t]))
    for key, need in control.NEEDS.items()
}


def _tile_json(code: int) -> dict[str, Any]:
    return {"troop": TROOP_NAMES[code // 3], "effect": EFFECT_NAMES[code % 3]}


def _tile_code(data: dict[str, Any]) -> int:
    return TROOP_NAMES.index(data["troop"]) * 3 + EFFECT_NAMES.index(data["effect"])


def _codes(counts: list[int]) -> list[str]:
    return [code for code, n in zip(KIND_CODES, counts, strict=True) if n for _ in range(n)]


def _counts_of_codes(codes: list[str]) -> list[int]:
    counts = [0] * NKINDS
    for code in codes:
        counts[kind_of_code(code)] += 1
    return counts


def _counts_of_values(kokus: list[int]) -> list[int]:
    counts = [0, 0, 0, 0]
    for v in kokus:
        counts[v] += 1
    return counts


def views(state: State, seats: Sequence[int | None]) -> list[dict[str, Any]]:
    """The seats' views (``seat`` None: a spectator's), the public part made once and shared:
    board, lots, titles, scores, supplies and hand sizes for all; each seat's own hand."""
    public = _public_view(state)
    made = []
    for seat in seats:
        v = dict(public)
        if seat is not None:
            v["hand"] = _hand_json(state, seat)
        made.append(v)
    return made


def _public_view(state: State) -> dict[str, Any]:
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
    acting = None if s.phase is Phase.OVER else rounds.to_act(s)[0]
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
        "koku_spent": values(s.koku_out),
        "tairo": s.tairo if s.phase <= Phase.LAST else None,
        "face_up": {"troops": _codes(s.pool_troops), "koku": values(s.pool_koku)},
        "lot": {
            "troops": _codes(s.lot_troops),
            "koku": values(s.lot_koku),
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
        v["hands"] = [_hand_json(s, p) for p in range(s.players)]
    return v


def _hand_json(s: State, seat: int) -> dict[str, Any]:
    return {"troops": _codes(s.hand_troops[seat]), "koku": values(s.hand_koku[seat])}


def determinize(view: dict[str, Any], rng: Rng) -> State:
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
            s.board.append(EMPTY if sp is None else sp["seat"] + (GOLDEN if sp["golden"] else 0))
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
    unseen = bonus_tiles(opts)
    for code in [*(c for t in s.tiles for c in t), *s.fresh, *s.used_tiles]:
        unseen.remove(code)
    s.stacks = _deal_stacks(
        unseen,
        [prov["stack"] for prov in view["provinces"]],
        [
            None if prov["top_tile_troop"] is None else TROOP_NAMES.index(prov["top_tile_troop"])
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
    troops = troop_deck(opts)
    kokus = koku_deck(opts)
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
    _deal_hidden(s, secret, troops, kokus, view["troop_cards"], view["koku_cards"], rng)
    return s


def _deal_hidden(
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
            for a in control.payments(s, acting, s.target)
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


def vary_secrets(state: State, seat: int, rng: Rng) -> State:
    """Redeal everything hidden from ``seat``: other hands, deck orders, stacked tiles."""
    s = state.copy()
    others = [] if s.options.open_hands else [p for p in range(s.players) if p != seat]
    troops = s.troop_deck + [k for p in others for k in kinds(s.hand_troops[p])]
    kokus = s.koku_deck + [v for p in others for v in values(s.hand_koku[p])]
    _deal_hidden(
        s,
        others,
        troops,
        kokus,
        [sum(h) for h in s.hand_troops],
        [sum(h) for h in s.hand_koku],
        rng,
    )
    pool = [c for stack in s.stacks for c in stack]
    s.stacks = _deal_stacks(
        pool, [len(t) for t in s.stacks], [t[-1] // 3 if t else None for t in s.stacks], rng
    )
    return s

"""What each seat sees (design: one view function per seat) and what agents sample: the view,
the secrets another seat may not see (plans, bids, the tower's inside), ``vary_secrets``
and ``determinize``.

>>> import sengoku
>>> m = sengoku.new_match("shogun", 3, seed=1)
>>> m.act(0, m.legal_actions(0)[0])
>>> view(m.state, 0)["plans"][0][0] >= 0, view(m.state, 1)["plans"][0][0]
(True, None)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sengoku.core import Rng, parse_options

from .actions import BLANK, EMPTY, PROVINCE_BID, UNSET, Plan
from .messages import COLOURS
from .options import RevealCards, ShogunOptions
from .planning import plan_options
from .setup import blank_state, board_for
from .state import CANCELLED, PENDING, PHASE_NAMES, SEASONS, UNSET_BID, D, State
from .tower import Tower


def vary_secrets(state: State, seat: int, rng: Rng) -> State:
    """A copy of ``state`` with everything hidden from ``seat`` drawn again: the other seats'
    hidden plan entries and bids, and (unless ``show_tower``) the tower's inside."""
    s = state.clone()
    for p in range(s.players):
        if p != seat:
            resample_plan(s, p, rng, visible_plan(s, p, seat))
    if not s.options.show_tower:
        reserve = [s.supply[o] + t for o, t in enumerate(s.tower.contents())]
        sample_tower(s, reserve, rng)
    return s


def _revealed_actions(s: State) -> set[int]:
    return set(s.action_order[: s.revealed_n])


def visible_plan(s: State, p: int, viewer: int | None) -> list[int | None]:
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


def own_parts(s: State, seat: int | None) -> dict[str, Any]:
    """The parts of ``seat``'s view that differ from another seat's: the plans and the bids
    as it may see them (its own while secret, all once revealed)."""
    npl = s.players
    return {
        "plans": [visible_plan(s, p, seat) for p in range(npl)],
        "bids": [
            (s.bid[p] if (s.bids_revealed or p == seat) and s.bid[p] != UNSET_BID else None)
            for p in range(npl)
        ],
        "bid_cards": [
            (s.bid_card[p] if (s.bids_revealed or p == seat) else -1) for p in range(npl)
        ],
    }


def view(s: State, seat: int | None) -> dict[str, Any]:
    npl = s.players
    contents = s.tower.contents()
    own = own_parts(s, seat)
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


def sample_tower(s: State, reserve: list[int], rng: Rng) -> None:
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


def resample_plan(s: State, p: int, rng: Rng, known: Sequence[int | None]) -> None:
    """Redraw seat ``p``'s hidden plan entries (and bid) consistently with what is known."""
    if not s.bids_revealed:
        # planning is still going on: redo p's filled steps at random
        done = s.plan_n[p]
        s.plan[p] = [UNSET] * 10
        s.plan_n[p] = 0
        s.bid[p] = UNSET_BID
        s.bid_card[p] = -1
        for _ in range(done):
            opts = plan_options(s, p)
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


def determinize(view: dict[str, Any], rng: Rng) -> State:
    """A full state agreeing with one seat's ``view``; its secrets drawn from ``rng``."""
    seat: int = view["seat"]
    npl: int = view["players"]
    options = parse_options(ShogunOptions, view["options"])
    s = blank_state(npl, options, board_for(npl, options))
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
        sample_tower(s, list(view["reserve"]), rng)
    bids = view["bids"]
    s.bid = [UNSET_BID if b is None else b for b in bids]
    s.bid_card = list(view["bid_cards"])
    plans = view["plans"]
    for p in range(npl):
        s.plan[p] = [UNSET if e is None else e for e in plans[p]]
        if p != seat:
            resample_plan(s, p, rng, plans[p])
    return s


def _copy_battle(b: dict[str, Any]) -> dict[str, Any]:
    return {
        **b,
        "bonus": list(b["bonus"]),
        "thrown": list(b["thrown"]),
        "tray": list(b["tray"]),
        "out": list(b["out"]),
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

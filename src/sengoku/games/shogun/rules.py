"""The rules of Shogun on the core protocol (see ``docs/shogun.md``): the ``Game`` class,
which hands each step to the module of its part of the game, in the order of a year
(rules §3): :mod:`.setup` (set-up, the draft, the tower's priming), :mod:`.planning` (a year's
events; a season's cards, plans, bids and turn positions), :mod:`.perform` (the actions),
:mod:`.battles` (battles, revolts and their records), :mod:`.winter` (hunger revolts,
scoring, the end) and :mod:`.views` (what each seat sees, and the secrets agents sample).
``apply`` runs every automatic step until the next decision.

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
    Gauge,
    LogEntry,
    Message,
    Outcome,
    Rng,
    TensorParts,
    msg,
    private,
    without_sources,
)

from ..catalog import catalog
from . import encoding, gauges, heuristic, perform, planning, setup, views, winter
from .actions import Armies, Bid, Draft, March, Plan, Revolt, ShogunAction, TakePosition, TakeTop
from .data import ACTION_SHORT, ACTION_TITLES, ACTIONS, load_data
from .messages import COLOURS, action_message, bid_planned, colour, entry, space
from .options import ShogunOptions
from .state import ARMIES, DRAFT, OVER, PHASE_NAMES, PLAN, POSITION, TARGET, WINTER, State

D = load_data()


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
        {
            "board": "moon",
            "setup": "draft",
            "moon_land_adjacency": "moon",
            "draft_same_two_cards": False,
        },
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
            "special_bonus_after_event_limit": False,
            "conquest_keeps_revolt_markers": False,
            "five_player_c": "Kai, Musashi, Suruga, Settsu, Tajima, Bitchu, Iwami",
            "years": 1,
        },
        {
            "tower_model": "wos",
            "board": "moon",
            "moon_lineup": "moon",
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
        return setup.setup(players, options, rng)

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
            return planning.plan_options(state, seat)  # type: ignore[return-value]
        if ph == TARGET:
            return perform.march_options(state)  # type: ignore[return-value]
        if ph == ARMIES:
            return [Armies(n) for n in range(1, state.armies[state.pending[2]])]
        if ph == POSITION:
            return [TakePosition(i, state.specials[i]) for i in range(5) if state.positions[i] < 0]
        if ph == DRAFT:
            return setup.draft_options(state, seat)
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
                planning.end_planning(s, rng, log)
        elif isinstance(action, TakePosition):
            if planning.take_position(s, seat, action, log):
                perform.run_actions(s, rng, log)
        elif isinstance(action, March):
            perform.choose_target(s, rng, seat, action, log)
        elif isinstance(action, Armies):
            perform.choose_armies(s, rng, seat, action.n, log)
        elif isinstance(action, TakeTop):
            setup.take_top(s, rng, seat, log)
        elif isinstance(action, Draft):
            setup.apply_draft(s, rng, seat, action, log)
        else:
            winter.choose_revolt(s, rng, seat, action.province, log)
        return log

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER or state.final_scores is None:
            return None
        return Outcome.from_scores(state.final_scores, winter.tiebreaks(state))

    # ------------------------------------------------------------------ information

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def views(self, state: State, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        """The seats' views (:meth:`view`): a spectator's made once and shared, with each
        seat's own plans and bids (what it may see of them) put in."""
        public = views.view(state, None)
        return [
            public if seat is None else {**public, **views.own_parts(state, seat)} for seat in seats
        ]

    def determinize(self, view: dict[str, Any], rng: Rng) -> State:
        return views.determinize(view, rng)

    def vary_secrets(self, state: State, seat: int, rng: Rng) -> State:
        return views.vary_secrets(state, seat, rng)

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

    def observation_parts(self, players: int, options: ShogunOptions) -> TensorParts:
        return encoding.tensor_parts(players)

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

    def gauges(self, state: State, seat: int) -> Sequence[Gauge]:
        """The terms of the estimate (:mod:`~sengoku.games.shogun.gauges`)."""
        return gauges.gauges(state, seat)

"""Rising Sun on the core protocol (see ``docs/rising_sun.md``).

The rules live one module per part of the game, as the rulebook orders them: :mod:`.season`
(set-up, Seasonal Setup, the Political track, Cleanup), :mod:`.tea` (the Tea Ceremony),
:mod:`.mandates` (Mandate Turns), :mod:`.summons` (Summoning and what follows it),
:mod:`.kami` (Kami Turns), :mod:`.war` (the War Phase and Battles) and :mod:`.winter` (the final
scoring). They register tasks and decisions with :mod:`.engine`; this class dispatches to them.

>>> import sengoku
>>> m = sengoku.new_match("rising_sun", 4, seed=3, options={"clans": "fixed"})
>>> m.view(0)["clans"], m.view(0)["phase"], m.to_act()
(['Koi', 'Lotus', 'Turtle', 'Dragonfly'], 'tea', [0])
>>> [str(a) for a in m.legal_actions(0)][:2]
['offer alliance to Lotus', 'offer alliance to Turtle']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
    public,
    without_sources,
)
from sengoku.games.catalog import catalog as read_catalog

from . import (
    encoding,
    gauges,
    heuristic,
    honor,
    kami,
    mandates,
    season,
    summons,
    tea,
    views,
    war,
    winter,
)
from .actions import COIN, RONIN, Give, RisingSunAction, describe
from .data import describe_edges, load_data
from .engine import DECISIONS, QUIET, Log, run
from .options import RisingSunOptions
from .state import D_BID, DECISION_NAMES, POLITICAL, TEA, State
from .terms import SCOPE, log_line

D = load_data()
_MODULES = (kami, mandates, season, summons, tea, war, winter)  # they register the rules


class RisingSun(Game[State, RisingSunAction]):
    """Rising Sun (Eric M. Lang, CMON 2018), base game, 3 to 5 players, any base Season set."""

    name = "rising_sun"
    title = "Rising Sun"
    player_counts = (3, 4, 5)
    options_type = RisingSunOptions
    catalog = read_catalog(SCOPE)
    option_sets = (
        {"season_set": "archway"},
        {"season_set": "horseman", "clans": "chosen"},
        {"season_set": "tower", "clans": "fixed"},
        {
            "zero_bid_wins": False,
            "won_with_figure": "took_part",
            "koi_reserve_coins": "all",
            "lowest_honor_alone": True,
            "extra_route_nagato_kyushu": True,
            "carry_over_cards": False,
            "allied_loser_reparations": False,
            "alliance_into_winter": False,
            "season_set": "random",
        },
        {"gifts": False, "clans": "fixed", "clan_list": "Bonsai, Dragonfly, Turtle, Lotus, Koi"},
    )

    def seat_name(self, seat: int) -> str:
        """Seats are people (Player 1 to 5); each plays a clan, which ``view["clans"]`` names."""
        return honor.SEAT_NAMES[seat] if 0 <= seat < len(honor.SEAT_NAMES) else f"seat {seat}"

    def client_data(self) -> dict[str, Any]:
        """The provinces with their rewards, the borders and routes (each with its certainty),
        the clans, the Kami, every Season card and the fixed sequences, for drawing the game.

        >>> data = RisingSun().client_data()
        >>> data["provinces"][3]["name"], data["provinces"][3]["reward"]
        ('Kyoto', {'vp': 4, 'coins': 0, 'ronin': 0})
        >>> data["political_track"], data["cards"][1]["name"]
        ('MMMKMMKMMK', 'Oni of Skulls')
        """
        data: dict[str, Any] = without_sources(
            {
                "provinces": msgspec.to_builtins(D.provinces),
                "edges": describe_edges(D),
                "clans": msgspec.to_builtins(D.clans),
                "kami": msgspec.to_builtins(D.kami),
                "cards": msgspec.to_builtins(D.cards),
                "mandates": list(D.game.mandates.names),
                "advantages": list(D.game.advantages.names),
                "political_track": D.game.political_track.turns,
                "decisions": list(DECISION_NAMES),
            }
        )
        return data

    # ------------------------------------------------------------------ set-up

    def setup(self, players: int, options: RisingSunOptions, rng: Rng) -> State:
        return season.setup(players, options, rng)

    def initial_log(self, state: State) -> Sequence[LogEntry]:
        return state.setup_log

    def clone(self, state: State) -> State:
        return state.clone()

    # ------------------------------------------------------------------ playing

    def to_act(self, state: State) -> list[int]:
        pending = state.pending
        if pending is None:
            return []
        if pending[0] == D_BID:
            return war.bidders(state)
        return [pending[1]]

    def legal_actions(self, state: State, seat: int) -> list[RisingSunAction]:
        if seat not in self.to_act(state):
            return []
        assert state.pending is not None
        legal: list[Any] = DECISIONS[state.pending[0]].legal(state, seat)
        return legal + _gifts(state, seat)

    def apply(
        self, state: State, seat: int, action: RisingSunAction, rng: Rng
    ) -> Sequence[LogEntry]:
        log: list[LogEntry] = []
        _carry_out(state, seat, action, rng, log)
        return log

    def apply_quietly(self, state: State, seat: int, action: RisingSunAction, rng: Rng) -> None:
        _carry_out(state, seat, action, rng, QUIET)
        QUIET.clear()  # what the quieter handlers still said

    def outcome(self, state: State) -> Outcome | None:
        return None if state.final is None else winter.outcome_of(state)

    # ------------------------------------------------------------------ information

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def views(self, state: State, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        """The seats' views (:meth:`view`): a spectator's made once and shared, with each
        seat's face-down Mandates, drawn tiles and secret bids put in."""
        return views.views(state, seats)

    def determinize(self, view: dict[str, Any], rng: Rng) -> State:
        return views.determinize(view, rng)

    def determinizer(self, view: dict[str, Any]) -> Callable[[Rng], State]:
        return views.determinizer(view)

    def vary_secrets(self, state: State, seat: int, rng: Rng) -> State:
        sample = views.view(state, seat)
        sample.update(seat=seat, players=state.players, options=_options_json(state))
        return views.determinize(sample, rng)

    def action_message(self, action: RisingSunAction) -> Message:
        """An action as a person reads it, from the catalog's ``rising_sun.act.*``.

        >>> from sengoku.core import render
        >>> from sengoku.games.catalog import catalog
        >>> from .actions import Keep
        >>> render(RisingSun().action_message(Keep(3)), catalog("rising_sun", "ja"))
        '収穫を残す'
        """
        return describe(action)

    def explain_illegal(self, state: State, seat: int, action: Any) -> str | None:
        if state.pending is None or seat not in self.to_act(state):
            return None
        kind = DECISION_NAMES[state.pending[0]]
        if isinstance(action, Give) and action.purpose in (COIN, RONIN):
            if not state.options.gifts:
                return "gifts are off in this match (option gifts)"
            if state.phase not in (TEA, POLITICAL):
                return "Coins and Ronin may be given only in the Tea Ceremony and Political Phase"
        return f"not a legal action now: {honor.name(state, seat)} is to decide ({kind})"

    # ------------------------------------------------------------------ research encodings

    def action_vocabulary(self, players: int, options: RisingSunOptions) -> list[str]:
        """The same 111 tokens for every player count and options
        (:mod:`~sengoku.games.rising_sun.encoding`)."""
        return encoding.vocabulary()

    def action_tokens(self, state: State, seat: int, action: RisingSunAction) -> list[str]:
        return encoding.spell(state, seat, action)

    def observation_shape(self, players: int, options: RisingSunOptions) -> tuple[int, ...]:
        return (encoding.size(players),)

    def observation_tensor(self, view: dict[str, Any]) -> list[float]:
        """The view with seats relative to the viewer; a spectator's is seat 0's table."""
        return encoding.observation(view)

    def observation_parts(self, players: int, options: RisingSunOptions) -> TensorParts:
        return encoding.tensor_parts(players)

    def render_text(self, view: dict[str, Any]) -> str | None:
        from .text import render

        return render(view)

    # ------------------------------------------------------------------ hooks for agents

    def policy(
        self, state: State, seat: int, legal: Sequence[RisingSunAction], rng: Rng
    ) -> RisingSunAction | None:
        """The heuristic's choice (:mod:`~sengoku.games.rising_sun.heuristic`)."""
        return heuristic.policy(state, seat, legal, rng)

    def evaluate(self, state: State) -> Sequence[float] | None:
        """Estimated win shares (:mod:`~sengoku.games.rising_sun.heuristic`)."""
        return heuristic.evaluate(state)

    def estimate(self, state: State) -> Sequence[float] | None:
        """Estimated final scores (:mod:`~sengoku.games.rising_sun.heuristic`)."""
        return heuristic.score_estimate(state)

    def gauges(self, state: State, seat: int) -> Sequence[Gauge]:
        """The terms of the estimate (:mod:`~sengoku.games.rising_sun.gauges`)."""
        return gauges.gauges(state, seat)


def _options_json(state: State) -> dict[str, Any]:
    from sengoku.core import options_to_json

    return options_to_json(state.options)


#: The gifts of a Coin or a Ronin to each clan, made once (actions are immutable).
_GIFTS: dict[tuple[int, int], Give] = {
    (purpose, c): Give(purpose, c) for purpose in (COIN, RONIN) for c in range(len(D.clans))
}


def _gifts(s: State, seat: int) -> list[Any]:
    """Coins and Ronin may be given during the Tea Ceremony and the Political Phase only
    (rules §4.2, DZ negotiation and war-phase, H): offered at each of the giver's own
    decisions there, and giving does not end the decision."""
    if not s.options.gifts or s.phase not in (TEA, POLITICAL):
        return []
    out: list[Any] = []
    for q in range(s.players):
        if q == seat:
            continue
        if s.coins[seat]:
            out.append(_GIFTS[COIN, s.clan[q]])
        if s.ronin[seat]:
            out.append(_GIFTS[RONIN, s.clan[q]])
    return out


def _carry_out(s: State, seat: int, action: RisingSunAction, rng: Rng, log: Log) -> None:
    s.asked = None  # what the last decision's legal actions were made of may change now
    if isinstance(action, Give) and action.purpose in (COIN, RONIN):
        _give(s, seat, action, log)
        return
    assert s.pending is not None
    DECISIONS[s.pending[0]].apply(s, rng, log, seat, action)
    run(s, rng, log)


def _give(s: State, seat: int, action: Give, log: list[LogEntry]) -> None:
    target = s.clan.index(action.clan)
    if action.purpose == COIN:
        s.coins[seat] -= 1
        s.coins[target] += 1
        key = "gives_coin"
    else:
        s.ronin[seat] -= 1
        s.ronin[target] += 1
        key = "gives_ronin"
    log.append(public(log_line(key, c=honor.who(s, seat), c2=honor.who(s, target))))

"""The rules of Shitenno as a :class:`~sengoku.core.Game`: a thin class over the modules that
hold the rules, one per part of the game.

- :mod:`.rounds`: the setup (§4.1), whose turn it is, and the round of two years (§4.2);
- :mod:`.sharing`: the even year, lots and titles (§4.3);
- :mod:`.control`: the odd year, placements and the titles' powers (§4.4, §2.5), paid as
  :mod:`.payments` works out;
- :mod:`.bonus`: the bonus tiles (§4.5);
- :mod:`.end`: the end and the final scoring (§4.6, §4.7);
- :mod:`.views`: what each seat sees, :func:`~.views.determinize`, :func:`~.views.vary_secrets`;
- :mod:`.board`: the tables and card counts they all read.

Read :mod:`sengoku.games.shitenno` first for the flow of a game. Rule references such as
``§4.3`` point into ``shared/rules/shitenno.md``; ``G7`` names a gap whose reading is an
option (:class:`~sengoku.games.shitenno.options.ShitennoOptions`).
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
    without_sources,
)

from ..catalog import catalog
from . import encoding, end, gauges, heuristic, rounds, views
from .actions import COLOURS, AddKoku, AddTile, AddTroop, Offer, Place, ShitennoAction, Target
from .board import NPROV, PLACEMENTS, SPACES
from .data import DATA
from .messages import action_message
from .options import ShitennoOptions
from .state import EMPTY, Phase, State

__all__ = ["Shitenno"]


class Shitenno(Game[State, ShitennoAction]):
    """Shitenno (Cédric Lefebvre, Ludonaute 2011) for 2 to 4 generals.

    A game alternates two years. In an **even year** (the sharing, §4.3) the Tairo lays out
    troop and koku cards, builds lots from them card by card (:class:`AddTroop`,
    :class:`AddKoku`, one hierarchy tile with :class:`AddTile`), and offers each lot down
    the title order (:class:`Offer`); each player :class:`Accept`\\ s or :class:`Refuse`\\ s.
    When everybody refuses, the Tairo keeps the lot and the next player becomes Tairo; the
    last player takes what is left (:class:`TakeLast`). Hierarchy tiles become titles.
    In an **odd year** (§4.4) each player in title order places up to two control kamons,
    each in two steps: :class:`Target` picks a province the player can pay for, then a
    :class:`Place` names the exact payment; Draw tiles
    (:class:`UseDraw`), the Sensei's golden flip (:class:`Flip`/:class:`NoFlip`) and
    :class:`EndTurn` complete the turn. After the last year (§4.6) koku and province
    majorities are scored (§4.7).

    >>> import sengoku
    >>> m = sengoku.new_match("shitenno", players=3, seed=1)
    >>> m.to_act(), m.view(1)["titles"]
    ([1], ['Sensei', 'Daimyo', 'Shomyo'])
    >>> m.view(1)["face_up"]
    {'troops': ['Sh', 'Sh', 'Sh', 'So', 'BuSh', 'SaSa'], 'koku': [3, 3, 1]}
    >>> [str(a) for a in m.legal_actions(1)][:3]
    ['add troop Sh to the lot', 'add troop So to the lot', 'add troop BuSh to the lot']
    """

    name = "shitenno"
    title = "Shitenno"
    player_counts = (2, 3, 4)
    options_type = ShitennoOptions
    catalog = catalog("shitenno")
    option_sets = (
        {
            "hatamoto_every_placement": False,
            "exchange_rule": "card",
            "combine_bonus_tiles": False,
            "new_tiles_usable_same_turn": False,
            "empty_lots": False,
            "overpay_allowed": True,
            "last_lot_tile_chooser": "tairo",
        },
        {
            "all_titles_available": False,
            "end_after_odd_year": True,
            "tie_break": "majorities_then_koku",
            "sensei_flip": "any_time",
            "unused_tile_points": 1,
        },
        {
            "mixed_payments": True,
            "koku_price_includes_title_bonus": True,
            "troop_reshuffle": "before_sharing",
            "draw_tile_koku": True,
            "draw_troops_per_player": 1,
            "draw_tile_cards": 2,
            "bonus_tile_timing": "conquest",
            "plus_one_on_exchanged_koku": True,
        },
    )

    def seat_name(self, seat: int) -> str:
        """Seats are the generals' colours: Red, Blue, Green, Black (§2.6)."""
        return COLOURS[seat]

    def action_message(self, action: ShitennoAction) -> Message:
        """How a replay names a move, troop cards by their troops
        (:func:`~sengoku.games.shitenno.messages.action_message`)."""
        return action_message(action)

    def client_data(self) -> dict[str, Any]:
        """Provinces (§3), troop types, koku cards, bonus tiles, titles and set-up facts,
        for drawing the board.

        >>> data = Shitenno().client_data()
        >>> data["provinces"][0]["name"], [t["name"] for t in data["titles"]][:2]
        ('Chugoku', ['Daimyo', 'Shomyo'])
        """
        data: dict[str, Any] = without_sources(msgspec.to_builtins(DATA))
        return data

    # -- the rules (:mod:`.rounds` and the modules it calls) ---------------------------

    def setup(self, players: int, options: ShitennoOptions, rng: Rng) -> State:
        """Shuffle the decks, stack the bonus tiles, deal titles and hands (§4.1)."""
        return rounds.setup(players, options, rng)

    def initial_log(self, state: State) -> Sequence[LogEntry]:
        """The titles dealt and the first cards laid out (public), each starting hand (private)."""
        return rounds.initial_log(state)

    def clone(self, state: State) -> State:
        """A cheap copy (list copies only)."""
        return state.copy()

    def to_act(self, state: State) -> list[int]:
        """One seat at a time: the Tairo, the player offered a lot, or the one whose turn it is."""
        return rounds.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[ShitennoAction]:
        """Every legal action of ``seat`` now, in a stable order."""
        return rounds.legal_actions(state, seat)

    def apply(
        self, state: State, seat: int, action: ShitennoAction, rng: Rng
    ) -> Sequence[LogEntry]:
        """Carry out a legal action; returns the log lines (secrets in private lines)."""
        return rounds.act(state, seat, action, rng)

    def outcome(self, state: State) -> Outcome | None:
        """The final favour totals; ties shared, or broken per option G12."""
        return end.outcome(state)

    # -- information (:mod:`.views`) -----------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Board, lots, titles, scores, supplies and hand sizes for all; the seat's own hand.

        Hidden: other hands (unless ``open_hands``), the order of both decks, and the
        bonus tiles under the top of each stack (their troop faces) and the bonus faces of
        the stacked tiles (§3.1).
        """
        return views.views(state, [seat])[0]

    def views(self, state: State, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        """The seats' views (:meth:`view`), the public part made once and shared."""
        return views.views(state, seats)

    def determinize(self, view: dict[str, Any], rng: Rng) -> State:
        """Rebuild a full state from a seat's view, sampling what the seat cannot know:
        other hands from the unaccounted cards, both deck orders, and the stacked tiles
        (keeping each visible top troop face)."""
        return views.determinize(view, rng)

    def vary_secrets(self, state: State, seat: int, rng: Rng) -> State:
        """Redeal everything hidden from ``seat``: other hands, deck orders, stacked tiles."""
        return views.vary_secrets(state, seat, rng)

    # -- research encodings (:mod:`~sengoku.games.shitenno.encoding`) -------------------

    def action_vocabulary(self, players: int, options: ShitennoOptions) -> list[str]:
        """The 47 action tokens, the same for every player count and option set."""
        return list(encoding.VOCABULARY)

    def action_tokens(self, state: State, seat: int, action: ShitennoAction) -> list[str]:
        """A card, tile or province token; a payment as its cards and tiles, then confirm."""
        return encoding.action_tokens(state, seat, action)

    def observation_shape(self, players: int, options: ShitennoOptions) -> tuple[int, ...]:
        """``(175 + 69 * players,)``: 313, 382 or 451 values."""
        return encoding.observation_shape(players)

    def observation_tensor(self, view: dict[str, Any]) -> list[float]:
        """The view as :func:`~sengoku.games.shitenno.encoding.layout` lays it out."""
        return encoding.observation_tensor(view)

    def observation_parts(self, players: int, options: ShitennoOptions) -> TensorParts:
        return encoding.tensor_parts(players)

    # -- hooks for agents -------------------------------------------------------------

    def policy(
        self, state: State, seat: int, legal: Sequence[ShitennoAction], rng: Rng
    ) -> ShitennoAction | None:
        """The heuristic's choice (:mod:`~sengoku.games.shitenno.heuristic`)."""
        return heuristic.policy(state, seat, legal, rng)

    def evaluate(self, state: State) -> Sequence[float] | None:
        """Estimated win shares (:mod:`~sengoku.games.shitenno.heuristic`)."""
        return heuristic.evaluate(state)

    def estimate(self, state: State) -> Sequence[float] | None:
        """Estimated final scores (:mod:`~sengoku.games.shitenno.heuristic`)."""
        return heuristic.score_estimate(state)

    def gauges(self, state: State, seat: int) -> Sequence[Gauge]:
        """The terms of the estimate (:mod:`~sengoku.games.shitenno.gauges`)."""
        return gauges.gauges(state, seat)

    # -- presentation -----------------------------------------------------------------

    def explain_illegal(self, state: State, seat: int, action: Any) -> str | None:
        """Say in words why an action is refused, for the common mistakes."""
        s = state
        if isinstance(action, Place):
            if s.phase is not Phase.CONTROL:
                return "kamons are placed only during your odd-year turn"
            if s.placed >= PLACEMENTS:
                return "at most two kamons may be placed per turn (§4.4)"
            if s.kamons[seat] == 0:
                return f"{COLOURS[seat]} has no control kamon left"
            base = action.province * SPACES if 0 <= action.province < NPROV else 0
            if EMPTY not in s.board[base : base + SPACES]:
                return "that province has no free space"
            return (
                "that payment is not an exact payment you can make: pay the requirement in "
                "troops or the space value in koku, with no card to spare (§4.4 step 3)"
            )
        if isinstance(action, Target):
            if s.phase is not Phase.CONTROL:
                return "a province is chosen only at the start of a placement in your turn"
            return (
                "you cannot place there now: the province is full, you have placed two "
                "kamons or have none left, or no payment of yours covers it"
            )
        if isinstance(action, AddTroop | AddKoku | AddTile | Offer) and s.phase is Phase.BUILD:
            return "that card or tile is not on the table, or the lot is not ready to offer"
        return None

    def render_text(self, view: dict[str, Any]) -> str | None:
        """The view as text for a terminal."""
        from .text import render

        return render(view)

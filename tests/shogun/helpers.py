"""Helpers for Shogun scenario tests: build positions directly and script the tower."""

from __future__ import annotations

from typing import Any

from sengoku.core import LogEntry, Rng, parse_options, render
from sengoku.games.shogun import perform, rules, setup
from sengoku.games.shogun.actions import BLANK, ShogunAction
from sengoku.games.shogun.data import load_data
from sengoku.games.shogun.options import ShogunOptions
from sengoku.games.shogun.state import PENDING, State
from sengoku.games.shogun.tower import TowerModel

D = load_data()
I = D.index  # noqa: E741 - province ids by name
GAME = rules.Shogun()


def text(entry: LogEntry) -> str:
    """A log line in English (the game's catalog)."""
    return entry.message if isinstance(entry.message, str) else render(entry.message, GAME.catalog)


CASTLE_A, TEMPLE_A, THEATRE_A, RICE_A, TAX_A, R5_A, R3_A, R1_A, BA_A, BB_A = range(10)


class Scripted(TowerModel):
    """A tower that lets out exactly the scripted counts; the rest of each throw stays inside."""

    name = "scripted"
    levels = 1

    def __init__(self, *outs: list[int]) -> None:
        self.outs = [list(o) for o in outs]
        self.seen: list[list[int]] = []

    def drop(
        self, inside: list[list[int]], falling: list[int], rng: Rng, priming: bool
    ) -> list[int]:
        self.seen.append(list(falling))
        out = self.outs.pop(0)
        shelf = inside[0]
        for o in range(len(falling)):
            avail = falling[o] + shelf[o]
            assert out[o] <= avail, f"scripted {out} but only {falling} + {shelf} available"
            shelf[o] = avail - out[o]
        return list(out)


def empty_state(players: int = 4, **options: Any) -> State:
    """A state with nothing on the board, an empty tower, full supplies, in spring planning."""
    opts = parse_options(ShogunOptions, options)
    s = setup.blank_state(players, opts, setup.board_for(players, opts))
    s.year_events = [0, 1, 2, 3]
    s.events_left = list(range(4, 12))
    s.specials = [0, 1, 2, 3, 4]
    return s


def own(s: State, seat: int, name: str, armies: int, bld: int = 0, markers: int = 0) -> int:
    """Give ``name`` to ``seat`` with armies (taken from supply), buildings and markers."""
    p = I[name]
    s.owner[p] = seat
    s.armies[p] = armies
    s.supply[seat] -= armies
    s.bld[p] = bld
    s.markers[p] = markers
    s.markers_left -= markers
    return p


def script(s: State, *outs: list[int]) -> Scripted:
    model = Scripted(*outs)
    s.tower.model = model
    return model


def run_season(
    s: State,
    plans: dict[int, dict[int, int]],
    order: list[int] | None = None,
    event: int = -1,
    specials: dict[int, int] | None = None,
    seed: int = 0,
) -> list[str]:
    """Set the plans (seat -> action -> province id) and carry out the season's actions.

    Seats sit in turn order 0, 1, 2, ...; ``specials`` gives a seat a special card (others
    hold none, so that a test sees one effect at a time).
    Stops at the first decision; returns the public log.
    """
    n = s.players
    s.plan = [[BLANK] * 10 for _ in range(n)]
    for seat, entries in plans.items():
        for a, card in entries.items():
            s.plan[seat][a] = card
    s.status = [[PENDING] * 10 for _ in range(n)]
    s.plan_n = [11] * n
    s.bid = [0] * n
    s.bids_revealed = True
    s.hand = [[p for p in range(len(s.owner)) if s.owner[p] == seat] for seat in range(n)]
    s.hand_size = [len(h) + 5 for h in s.hand]
    s.action_order = list(range(10)) if order is None else list(order)
    s.action_idx = s.pos_idx = s.revealed_n = 0
    s.positions = list(range(n)) + [-1] * (5 - n)
    # only the seats named in ``specials`` hold a special card (position = seat)
    s.pos_of = [-1] * n
    cards = list(range(5))
    for seat, card in (specials or {}).items():
        j = cards.index(card)
        cards[j], cards[seat] = cards[seat], cards[j]
        s.pos_of[seat] = seat
    s.specials = cards
    s.event = event
    log: list[LogEntry] = []
    perform.run_actions(s, Rng(seed), log)
    return [text(e) for e in log]


def act(s: State, seat: int, action: ShogunAction | str, seed: int = 0) -> list[str]:
    """Apply a legal action (or its notation) through the game; assert it is legal."""
    legal = GAME.legal_actions(s, seat)
    if isinstance(action, str):
        action = next(a for a in legal if str(a) == action)
    assert action in legal, f"{action} not in {[str(a) for a in legal]}"
    return [text(e) for e in GAME.apply(s, seat, action, Rng(seed))]

"""Helpers for Shitenno scenario tests: build a state directly and act on it by notation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sengoku.core import LogEntry, Rng, parse_options, render
from sengoku.games.shitenno import Shitenno, ShitennoOptions
from sengoku.games.shitenno.data import TROOP_CODES, TROOP_NAMES, kind_of_code
from sengoku.games.shitenno.state import EMPTY, Phase, State

GAME = Shitenno()
# province numbers (data order)
CHUGOKU, CHUBU, HOKKAIDO, KYUSHU, TOHOKU, SHIKOKU, KANSAI, KANTO = range(8)
# troop types and bonus-tile effects
BU, SA, SH, SO = range(4)
EXCHANGE, PLUS_ONE, DRAW = range(3)
DAIMYO, SHOMYO, SENSEI, HATAMOTO = range(4)


def english(entry: LogEntry) -> str:
    """A log line in English (the game's catalog)."""
    return entry.message if isinstance(entry.message, str) else render(entry.message, GAME.catalog)


def card_words(code: str) -> str:
    """A troop card as the log names it: ``Samurai``, ``Bushi+Shinobi`` for ``BuSh``."""
    return "+".join(TROOP_NAMES[TROOP_CODES.index(code[i : i + 2])] for i in range(0, len(code), 2))


def tile(troop: int, effect: int) -> int:
    """A bonus tile's code."""
    return troop * 3 + effect


def new_state(players: int = 4, seed: int = 1, **options: Any) -> tuple[State, Rng]:
    """A freshly set-up state and the rng to continue it with."""
    rng = Rng(seed)
    return GAME.setup(players, parse_options(ShitennoOptions, options), rng), rng


def legal(s: State, seat: int) -> list[str]:
    """The notation of ``seat``'s legal actions."""
    return [str(a) for a in GAME.legal_actions(s, seat)]


def act(s: State, seat: int, text: str, rng: Rng) -> list[str]:
    """Carry out the legal action with this notation; return all log lines' texts."""
    assert seat in GAME.to_act(s), f"{seat} may not act now; to act: {GAME.to_act(s)}"
    action = GAME.parse_action(s, seat, text)
    return [english(e) for e in GAME.apply(s, seat, action, rng)]


def set_hand(s: State, seat: int, troops: Sequence[str] = (), koku: Sequence[int] = ()) -> None:
    """Give ``seat`` exactly these cards (troop codes, koku values)."""
    s.hand_troops[seat] = [0] * 14
    for code in troops:
        s.hand_troops[seat][kind_of_code(code)] += 1
    s.hand_koku[seat] = [0, 0, 0, 0]
    for v in koku:
        s.hand_koku[seat][v] += 1


def odd_year(s: State, titles: list[int]) -> None:
    """Put ``s`` at the start of an odd year with these titles (first in order acts)."""
    s.titles = list(titles)
    s.year = 1
    s.phase = Phase.CONTROL
    s.order = sorted(range(s.players), key=titles.__getitem__)
    s.turn = 0
    s.placed = 0
    s.target = -1
    s.flipped = s.wild_used = False
    s.fresh = []
    s.pool_troops = [0] * 14
    s.pool_koku = [0, 0, 0, 0]
    s.tiles_left = []


def fill(s: State, province: int, seats: list[int]) -> None:
    """Put simple kamons of ``seats`` on the first spaces of ``province``."""
    for i, seat in enumerate(seats):
        s.board[province * 4 + i] = seat
    for i in range(len(seats), 4):
        s.board[province * 4 + i] = EMPTY

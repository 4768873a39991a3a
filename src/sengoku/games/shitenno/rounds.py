"""The frame of a Shitenno game: the setup (§4.1) and the round of two years (§4.2), an even
year's sharing (:mod:`.sharing`) and an odd year's province control (:mod:`.control`), with
the end check between years (:mod:`.end`, §4.6, G11).

>>> from sengoku.core import Rng
>>> s = setup(3, ShitennoOptions(), Rng(1))
>>> s.phase.name, s.year, [sum(h) for h in s.hand_troops], s.kamons
('BUILD', 0, [2, 2, 2], [10, 10, 10])
"""

from __future__ import annotations

from collections.abc import Sequence

from sengoku.core import LogEntry, Rng, msg, private, public

from . import control, end, sharing
from .actions import ShitennoAction
from .board import NKINDS, NPROV, SPACES, bonus_tiles, cards_held, draw_troop, koku_deck, troop_deck
from .data import DATA
from .messages import colour
from .options import ShitennoOptions
from .state import EMPTY, Phase, State

__all__ = [
    "act",
    "after_odd_year",
    "after_sharing",
    "initial_log",
    "legal_actions",
    "setup",
    "to_act",
]


def setup(players: int, options: ShitennoOptions, rng: Rng) -> State:
    """Shuffle the decks, stack the bonus tiles, deal titles and hands (§4.1); the first
    sharing begins."""
    s = State()
    s.players, s.options = players, options
    s.year = 0
    s.troop_deck = troop_deck(options)
    rng.shuffle(s.troop_deck)
    s.koku_deck = koku_deck(options)
    rng.shuffle(s.koku_deck)
    tiles = bonus_tiles(options)
    rng.shuffle(tiles)
    per = DATA.bonus_tiles_per_province
    s.stacks = [tiles[i * per : (i + 1) * per] for i in range(NPROV)]
    titles = list(range(4)) if options.all_titles_available else list(range(players))
    rng.shuffle(titles)  # G9: N of the 4 titles at random (or the top N, shuffled)
    s.titles = titles[:players]
    s.score = [0] * players
    s.kamons = [options.kamons(players)] * players
    s.hand_troops = [[0] * NKINDS for _ in range(players)]
    s.hand_koku = [[0, 0, 0, 0] for _ in range(players)]
    s.tiles = [[] for _ in range(players)]
    s.fresh, s.used_tiles = [], []
    s.troop_discard = [0] * NKINDS
    s.koku_out = [0, 0, 0, 0]
    s.board = [EMPTY] * (NPROV * SPACES)
    for seat in range(players):
        for _ in range(DATA.setup.start_hand_troops):
            kind = draw_troop(s, rng)
            if kind is not None:
                s.hand_troops[seat][kind] += 1
    s.order, s.turn, s.placed, s.target = [], 0, 0, -1
    s.flipped = s.wild_used = False
    s.result = None
    sharing.begin_sharing(s, rng)  # its log line is given by initial_log
    return s


def initial_log(s: State) -> Sequence[LogEntry]:
    """The set-up, as :func:`setup` left it: the titles dealt and the Tairo laying out the
    cards (public), and each general's starting hand (private to him)."""
    lines = [public(msg("shitenno.log.dealt", x=sharing.titles_line(s)))]
    lines += [
        private(
            msg("shitenno.log.starts", c=colour(p), x=cards_held(s.hand_troops[p], s.hand_koku[p])),
            p,
        )
        for p in range(s.players)
    ]
    lines.append(sharing.sharing_line(s))
    return lines


def after_sharing(s: State, rng: Rng, log: list[LogEntry]) -> None:
    """The titles are handed out: the end check of the seed's reading (§4.6), else the odd
    year."""
    if not s.options.end_after_odd_year and end.end_triggered(s, log):
        end.final_scoring(s, log)
    elif control.begin_control(s, rng, log):
        after_odd_year(s, rng, log)


def after_odd_year(s: State, rng: Rng, log: list[LogEntry]) -> None:
    """Every general has had his turn: the end check under ``end_after_odd_year`` (G11),
    else the next sharing."""
    if s.options.end_after_odd_year and end.end_triggered(s, log):
        end.final_scoring(s, log)
        return
    s.year += 1
    log += sharing.begin_sharing(s, rng)


def to_act(s: State) -> list[int]:
    """One seat at a time: the Tairo, the player offered a lot, or the one whose turn it is."""
    phase = s.phase
    if phase is Phase.OFFER:
        return [s.offer_queue[0]]
    if phase is Phase.BUILD or phase is Phase.LAST:
        return [s.tairo]
    if phase is Phase.OVER:
        return []
    return [s.order[s.turn]]


def legal_actions(s: State, seat: int) -> list[ShitennoAction]:
    """Every legal action of ``seat`` now, in a stable order."""
    phase = s.phase
    if phase is Phase.OVER or seat != to_act(s)[0]:
        return []
    if phase is Phase.BUILD:
        return sharing.build_actions(s)
    if phase is Phase.OFFER:
        return sharing.answers()
    if phase is Phase.LAST:
        return sharing.last_lot_actions(s)
    if phase is Phase.FLIP:
        return control.flip_actions(s, seat)
    if phase is Phase.PAY:
        return control.pay_actions(s, seat)
    return control.turn_actions(s, seat)


def act(s: State, seat: int, action: ShitennoAction, rng: Rng) -> list[LogEntry]:
    """Carry out a legal action; returns the log lines (secrets in private lines)."""
    log: list[LogEntry] = []
    if s.phase <= Phase.LAST:
        if sharing.act(s, seat, action, log):
            after_sharing(s, rng, log)
    elif control.act(s, seat, action, rng, log):
        after_odd_year(s, rng, log)
    return log

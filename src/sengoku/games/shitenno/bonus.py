"""Shitenno's bonus tiles (§2.4, §4.5, §9.2 G6): won with a kamon on spaces 1 to 3, held face
up, spent once. Exchange and +1 tiles are spent inside a payment (:mod:`.payments` works out
which payments they make possible); a Draw tile is an action of its own.

A tile is the code ``troop * 3 + effect`` (:mod:`.board`); a seat's tiles are
``State.tiles[seat]``, those won in the current turn and not yet usable ``State.fresh``, the
spent ones ``State.used_tiles``.
"""

from __future__ import annotations

from sengoku.core import LogEntry, Rng, msg, private, public

from .actions import UseDraw
from .board import DRAW, draw_troop
from .messages import colour, troop_card
from .options import DrawTiming
from .state import Phase, State

__all__ = ["draw_actions", "spend", "take_tile", "tiles_usable", "usable_effects", "use_draw"]

_DRAW_TROOPS, _DRAW_KOKU = UseDraw(False), UseDraw(True)


def usable_effects(s: State, seat: int) -> list[int]:
    """The effects of the tiles ``seat`` may spend now."""
    return [code % 3 for code in s.tiles[seat]]


def draw_actions(s: State, seat: int) -> list[UseDraw]:
    """The Draw tile's choices now: a troop card while there is one to draw, a koku card
    under G18's option while the koku deck lasts. Under ``bonus_tile_timing='conquest'``
    only while paying for a placement (phase PAY), else at any moment of the turn."""
    acts: list[UseDraw] = []
    conquest = s.options.bonus_tile_timing is DrawTiming.CONQUEST
    if conquest is (s.phase is Phase.PAY) and DRAW in usable_effects(s, seat):
        if s.troop_deck or any(s.troop_discard):
            acts.append(_DRAW_TROOPS)
        if s.options.draw_tile_koku and s.koku_deck:
            acts.append(_DRAW_KOKU)
    return acts


def spend(s: State, seat: int, effect: int, count: int) -> None:
    """Spend ``count`` of the seat's tiles with this effect."""
    tiles = s.tiles[seat]
    for _ in range(count):
        code = next(c for c in tiles if c % 3 == effect)
        tiles.remove(code)
        s.used_tiles.append(code)


def take_tile(s: State, seat: int, province: int) -> int | None:
    """The top tile of the province's stack goes to the seat who placed there (§3.1, §4.4
    step 6): usable at once, or from his next turn (G6's option); None when none is left."""
    if not s.stacks[province]:
        return None
    code = s.stacks[province].pop()
    if s.options.new_tiles_usable_same_turn:
        s.tiles[seat].append(code)
    else:
        s.fresh.append(code)
    return code


def tiles_usable(s: State, seat: int) -> None:
    """At the end of a seat's turn the tiles he won in it become usable."""
    s.tiles[seat] += s.fresh
    s.fresh = []


def use_draw(s: State, seat: int, koku: bool, rng: Rng, log: list[LogEntry]) -> None:
    """Spend a Draw tile: the top troop cards (or koku cards, G18's option), as many as
    ``draw_tile_cards`` says, go to the hand; the others only learn how many were drawn."""
    spend(s, seat, DRAW, 1)
    want = s.options.draw_tile_cards
    name = colour(seat)
    if koku:
        drawn = [s.koku_deck.pop() for _ in range(min(want, len(s.koku_deck)))]
        if want == 1 or len(drawn) == 1:
            log.append(public(msg("shitenno.log.draw_koku", c=name)))
        else:
            log.append(public(msg("shitenno.log.draw_kokus", c=name, n=len(drawn))))
        for value in drawn:
            s.hand_koku[seat][value] += 1
            log.append(private(msg("shitenno.log.drew_koku", c=name, n=value), seat))
        return
    kinds: list[int] = []
    for _ in range(want):
        kind = draw_troop(s, rng)
        if kind is None:
            break
        kinds.append(kind)
    if want == 1 or len(kinds) == 1:
        log.append(public(msg("shitenno.log.draw_troop", c=name)))
    else:
        log.append(public(msg("shitenno.log.draw_troops", c=name, n=len(kinds))))
    for kind in kinds:
        s.hand_troops[seat][kind] += 1
        log.append(private(msg("shitenno.log.drew_troop", c=name, x=troop_card(kind)), seat))

"""The odd year of Shitenno, province control (§4.4): in title order each general places up to
two kamons, each in two steps (a province he can pay for, then an exact payment from
:mod:`.payments`), may spend Draw tiles (:mod:`.bonus`), and ends his turn; the titles' powers
(§2.5: the Daimyo's and Shomyo's favour, the Sensei's golden flip, the Hatamoto's wild troop).

:func:`act` carries out one action of the odd year and says whether the year is over; what
follows it (the end check, the next sharing) is :mod:`.rounds`' business.
"""

from __future__ import annotations

from functools import lru_cache

from sengoku.core import LogEntry, Rng, msg, public

from . import bonus
from .actions import EndTurn, Flip, NoFlip, Place, ShitennoAction, Target, UseDraw
from .board import (
    EXCHANGE,
    HATAMOTO,
    NPROV,
    P_BASE,
    P_NEED,
    P_VALUES,
    PLACEMENTS,
    PLUS_ONE,
    SENSEI,
    SPACES,
    TITLE_BONUS,
)
from .messages import bonus_tile, colour, payment, province, title
from .options import ExchangeRule, SenseiTiming
from .payments import (
    koku_payable,
    koku_payments,
    purse,
    troop_payments,
    troops_payable,
)
from .sharing import title_order
from .state import EMPTY, GOLDEN, Phase, State

__all__ = [
    "NEEDS",
    "act",
    "begin_control",
    "flip_actions",
    "free_space",
    "pay_actions",
    "payments",
    "requirement",
    "turn_actions",
]


def _need(province: int, top: int | None) -> tuple[int, int, int, int]:
    """Troops needed for a province's next space, by troop: (N-1) of the province's type and
    the troop ``top`` of its stack's top tile, or N of the province's type once the stack is
    empty (``top`` ``None``; §3.1)."""
    need = [0, 0, 0, 0]
    need[P_BASE[province]] += P_NEED[province] - (top is not None)
    if top is not None:
        need[top] += 1
    return (need[0], need[1], need[2], need[3])


#: By province and top troop: every requirement (§3.1), made once.
NEEDS: dict[tuple[int, int | None], tuple[int, int, int, int]] = {
    (p, top): _need(p, top) for p in range(NPROV) for top in (None, 0, 1, 2, 3)
}
#: Actions made once (they are immutable): a placement's first step in each province, the
#: Sensei's flips, the ends of a turn.
_TARGETS = tuple(Target(p) for p in range(NPROV))
_FLIPS = tuple(Flip(i // SPACES, i % SPACES) for i in range(NPROV * SPACES))
_NO_FLIP = NoFlip()
_END_TURN = EndTurn()


@lru_cache(maxsize=4096)
def _placements(
    province: int,
    req: tuple[int, int, int, int],
    price: int,
    hand_troops: tuple[int, ...],
    hand_koku: tuple[int, ...],
    plus: int,
    exch: int,
    wild: int,
    unit: bool,
    mixed: bool,
    combine: bool,
    plus_exchanged: bool,
    overpay: bool,
) -> tuple[Place, ...]:
    """The :class:`Place` actions of every exact payment (troops, then koku) of a space
    needing ``req`` troops or ``price`` koku, from this hand and these tiles. Kept for the
    hands and requirements met again (a search meets the same ones over and over; the
    actions are immutable, so they are shared)."""
    troops = [
        Place(province, False, cards, kokus, pl, ex, w)
        for cards, kokus, pl, ex, w in troop_payments(
            req, hand_troops, hand_koku, plus, exch, wild, unit, mixed, combine
        )
    ]
    koku = [
        Place(province, True, cards, kokus, pl, ex, False)
        for cards, kokus, pl, ex in koku_payments(
            price, hand_troops, hand_koku, plus, exch, unit, combine, plus_exchanged
        )
    ]
    if overpay:
        troops = _with_spare_cards(troops, hand_troops, hand_koku)
        koku = _with_spare_cards(koku, hand_troops, hand_koku)
    return (*troops, *koku)


def _with_spare_cards(
    minimal: list[Place], hand_troops: tuple[int, ...], hand_koku: tuple[int, ...]
) -> list[Place]:
    """Under ``overpay_allowed``: each minimal payment, then the same with one spare card of
    its currency added (a troop card to a troop payment, a koku card to a koku payment), each
    payment once. One spare card at most keeps the list of choices short; more would never
    serve the payer better."""
    out: list[Place] = []
    seen: set[Place] = set()
    for a in minimal:
        if a.koku:
            spares = [(v,) for v in (3, 2, 1) if hand_koku[v] > a.kokus.count(v)]
        else:
            spares = [(k,) for k, c in enumerate(hand_troops) if c > a.troops.count(k)]
        for extra in [(), *spares]:
            if a.koku:
                b = a._replace(kokus=tuple(sorted(a.kokus + extra, reverse=True)))
            else:
                b = a._replace(troops=tuple(sorted(a.troops + extra)))
            if b not in seen:
                seen.add(b)
                out.append(b)
    return out


def begin_control(s: State, rng: Rng, log: list[LogEntry]) -> bool:
    """An odd year: turns in title order (§4.4 step 1); True if it is over at once."""
    s.year += 1
    s.phase = Phase.CONTROL
    s.order = title_order(s)
    s.turn, s.placed = 0, 0
    s.flipped = s.wild_used = False
    s.fresh = []
    log.append(public(msg("shitenno.log.odd", n=s.year // 2 + 1)))
    return _maybe_end_turn(s, rng, log)


# -- what may be done -----------------------------------------------------------------


def turn_actions(s: State, seat: int) -> list[ShitennoAction]:
    """In a turn (phase CONTROL): provinces to place in, Draw tiles, the Sensei's flip under
    G8's ``any_time``, and ending the turn."""
    acts: list[ShitennoAction] = []
    if s.placed < PLACEMENTS and s.kamons[seat] > 0:
        acts += _targets(s, seat)
    acts += bonus.draw_actions(s, seat)
    if _may_flip_now(s, seat):
        acts += _flips(s, seat)
    acts.append(_END_TURN)
    return acts


def pay_actions(s: State, seat: int) -> list[ShitennoAction]:
    """The second step of a placement: every exact payment, and under
    ``bonus_tile_timing='conquest'`` the Draw tile's draws before paying."""
    acts = payments(s, seat, s.target)
    acts += bonus.draw_actions(s, seat)
    return acts


def flip_actions(s: State, seat: int) -> list[ShitennoAction]:
    """The Sensei's golden flip after his placements (G8), or keeping his kamons simple."""
    return [*_flips(s, seat), _NO_FLIP]


def requirement(s: State, province: int) -> tuple[int, int, int, int]:
    """Troops needed for the province's next space, by troop (:func:`_need`: §3.1)."""
    stack = s.stacks[province]
    return NEEDS[province, stack[-1] // 3 if stack else None]


def _price(s: State, seat: int, province: int, space: int) -> int:
    """The koku price: the space value (§3.2), plus the title bonus under G16's alternative."""
    price = P_VALUES[province][space]
    if s.options.koku_price_includes_title_bonus:
        price += TITLE_BONUS[s.titles[seat]]
    return price


def _payment_means(s: State, seat: int) -> tuple[int, int, int]:
    """(+1 tiles, Exchange tiles, wild) the seat may use now; wild as in troop_payments."""
    effects = bonus.usable_effects(s, seat)
    wild = 0
    if s.titles[seat] == HATAMOTO:  # G7
        wild = 1 if s.options.hatamoto_every_placement else (0 if s.wild_used else 2)
    return effects.count(PLUS_ONE), effects.count(EXCHANGE), wild


def free_space(s: State, province: int) -> int:
    """The leftmost free space of the province (§4.4 step 4), -1 when it is full."""
    base = province * SPACES
    for i in range(SPACES):
        if s.board[base + i] == EMPTY:
            return i
    return -1


def _targets(s: State, seat: int) -> list[ShitennoAction]:
    """The provinces with a free space that the seat can pay for (first step); the hand
    is summed up once (its :class:`~.payments.Purse`) for every province."""
    opts = s.options
    plus, exch, wild = _payment_means(s, seat)
    unit = opts.exchange_rule is ExchangeRule.UNIT
    mixed, combine = opts.mixed_payments, opts.combine_bonus_tiles
    plus_exchanged = opts.plus_one_on_exchanged_koku
    hand = purse(s.hand_troops[seat], s.hand_koku[seat], unit)
    acts: list[ShitennoAction] = []
    for p in range(NPROV):
        space = free_space(s, p)
        if space < 0:
            continue
        if troops_payable(
            requirement(s, p), hand, plus, exch, wild, unit, mixed, combine
        ) or koku_payable(_price(s, seat, p, space), hand, plus, exch, combine, plus_exchanged):
            acts.append(_TARGETS[p])
    return acts


def payments(s: State, seat: int, p: int) -> list[ShitennoAction]:
    """Every exact payment for the next space of province ``p`` (second step)."""
    opts = s.options
    plus, exch, wild = _payment_means(s, seat)
    return list(
        _placements(
            p,
            requirement(s, p),
            _price(s, seat, p, free_space(s, p)),
            tuple(s.hand_troops[seat]),
            tuple(s.hand_koku[seat]),
            plus,
            exch,
            wild,
            opts.exchange_rule is ExchangeRule.UNIT,
            opts.mixed_payments,
            opts.combine_bonus_tiles,
            opts.plus_one_on_exchanged_koku,
            opts.overpay_allowed,
        )
    )


def _flips(s: State, seat: int) -> list[ShitennoAction]:
    return [_FLIPS[i] for i, v in enumerate(s.board) if v == seat]


def _may_flip_now(s: State, seat: int) -> bool:
    return (
        s.options.sensei_flip is SenseiTiming.ANY_TIME
        and s.titles[seat] == SENSEI
        and not s.flipped
        and seat in s.board
    )


# -- applying -------------------------------------------------------------------------


def act(s: State, seat: int, action: ShitennoAction, rng: Rng, log: list[LogEntry]) -> bool:
    """Carry out an action of the odd year; True when it ended the year."""
    if isinstance(action, Place):
        _place(s, seat, action, log)
        s.phase = Phase.CONTROL
        s.target = -1
        return _maybe_end_turn(s, rng, log)
    if isinstance(action, Target):
        s.phase = Phase.PAY
        s.target = action.province
        log.append(public(msg("shitenno.log.goes", c=colour(seat), p=province(action.province))))
        return False
    if isinstance(action, UseDraw):
        bonus.use_draw(s, seat, action.koku, rng, log)
        if s.phase is Phase.PAY:  # drawn during a conquest: the payment is still to come
            return False
        return _maybe_end_turn(s, rng, log)
    if isinstance(action, Flip):
        s.board[action.province * SPACES + action.space] += GOLDEN
        s.flipped = True
        where = province(action.province)
        log.append(public(msg("shitenno.log.flip", c=colour(seat), p=where, n=action.space + 1)))
        if s.phase is Phase.FLIP:
            return _next_turn(s, rng, log)
        return _maybe_end_turn(s, rng, log)
    if isinstance(action, NoFlip):
        log.append(public(msg("shitenno.log.no_flip", c=colour(seat))))
        return _next_turn(s, rng, log)
    log.append(public(msg("shitenno.log.ends", c=colour(seat))))  # EndTurn
    return _end_turn(s, rng, log)


def _place(s: State, seat: int, a: Place, log: list[LogEntry]) -> None:
    """Pay, put the kamon on the leftmost free space, score it, take the tile (§4.4)."""
    hand_t, hand_k = s.hand_troops[seat], s.hand_koku[seat]
    for k in a.troops:
        hand_t[k] -= 1
        s.troop_discard[k] += 1  # spent troops come back later (§4.4 step 8)
    for v in a.kokus:
        hand_k[v] -= 1
        s.koku_out[v] += 1  # spent koku leave the game
    bonus.spend(s, seat, PLUS_ONE, a.plus)
    bonus.spend(s, seat, EXCHANGE, a.exchange)
    if a.wild and not s.options.hatamoto_every_placement:
        s.wild_used = True
    p = a.province
    space = free_space(s, p)
    s.board[p * SPACES + space] = seat
    s.kamons[seat] -= 1
    rank = s.titles[seat]
    points = P_VALUES[p][space] + TITLE_BONUS[rank]
    s.score[seat] += points
    s.placed += 1
    line = msg(
        "shitenno.log.places",
        c=colour(seat),
        p=province(p),
        n=space + 1,
        x=payment(a),
        n2=points,
    )
    if TITLE_BONUS[rank]:
        line = msg("shitenno.log.places_title", **line.args, n3=TITLE_BONUS[rank], a=title(rank))
    code = bonus.take_tile(s, seat, p)
    if code is not None:
        line = msg("shitenno.log.and_tile", place=line, tile=bonus_tile(code))
    log.append(public(line))


def _maybe_end_turn(s: State, rng: Rng, log: list[LogEntry]) -> bool:
    """End the turn at once when public facts leave nothing to do but end it; True when
    that ended the year."""
    while s.phase is Phase.CONTROL:
        seat = s.order[s.turn]
        if s.placed < PLACEMENTS and s.kamons[seat] > 0 and EMPTY in s.board:
            return False
        if bonus.draw_actions(s, seat):
            return False
        if _may_flip_now(s, seat):
            return False
        if _end_turn(s, rng, log):
            return True
    return False


def _end_turn(s: State, rng: Rng, log: list[LogEntry]) -> bool:
    seat = s.order[s.turn]
    if (
        s.titles[seat] == SENSEI
        and not s.flipped
        and seat in s.board
        and s.options.sensei_flip is SenseiTiming.AFTER_PLACEMENTS
    ):
        s.phase = Phase.FLIP  # G8: the golden flip comes after his placements
        return False
    return _next_turn(s, rng, log)


def _next_turn(s: State, rng: Rng, log: list[LogEntry]) -> bool:
    bonus.tiles_usable(s, s.order[s.turn])
    s.turn += 1
    s.placed = 0
    s.phase = Phase.CONTROL
    if s.turn < len(s.order):
        return _maybe_end_turn(s, rng, log)
    return True

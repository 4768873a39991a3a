"""Kami Turns (rules §6.3, §6.4, §16.3.1; H): after the 3rd, 5th and 7th Mandate Turns the
four shrines are resolved left to right. On each, the clan with the most Force (1 per Shinto or
Komainu worshipping there; a tie goes to Honor) gets that Kami's ability at once, before the
next shrine, so an Amaterasu resolved earlier can decide a later tie. An empty shrine is
skipped. Each shrine's ability is one event (§12).
"""

from __future__ import annotations

from typing import Any

from sengoku.core import Rng, public

from . import cards, figures, honor
from .actions import Choice, choice
from .cards import CARDS
from .data import load_data
from .engine import Log, applies, ask, decision, push, task
from .honor import T_EVENT_CLOSE, T_EVENT_OPEN, who
from .mandates import T_MOVE_ASK, T_TRAIN_ASK
from .state import BUSHI, D_VASSAL, M_FUJIN, W_ANY, State
from .summons import T_PLACE_ASK
from .terms import kami, log_line

D = load_data()

T_KAMI = 60
T_KAMI_ABILITY = 61
T_VASSAL_ASK = 62

DO_NOT_PAY = choice("do not pay", "do_not_pay")


@task(T_KAMI)
def _kami(s: State, rng: Rng, log: Log, slot: int) -> None:
    if slot == 0:
        log.append(public(log_line("kami_turn", n=s.turn // 3)))
    if slot >= len(s.shrines):
        return
    winner = figures.strongest(s, figures.shrine_force(s, slot))
    tasks: list[tuple[int, ...]] = []
    if winner >= 0:
        tasks = [(T_EVENT_OPEN,), (T_KAMI_ABILITY, slot, winner), (T_EVENT_CLOSE,)]
        tasks += [
            (T_VASSAL_ASK, winner, c) for c in s.owned[winner] if CARDS[c].effect == "shrine_buy_vp"
        ]
    push(s, *tasks, (T_KAMI, slot + 1))


@task(T_KAMI_ABILITY)
def _ability(s: State, rng: Rng, log: Log, slot: int, seat: int) -> None:
    number = s.shrines[slot]
    params = D.kami[number].params
    k = kami(number)
    log.append(public(log_line("wins_shrine", c=who(s, seat), k=k)))
    key = D.kami[number].ability
    if key == "honor_to_top":
        honor.honor_to_top(s, seat, log)
    elif key == "moves":
        for f in range(len(s.moves)):
            s.moves[f] = 0
        push(s, (T_MOVE_ASK, seat, M_FUJIN, params["moves"]))
    elif key == "ronin":
        honor.gain_ronin(s, seat, params["ronin"], log, "ronin_kami", k=k)
    elif key == "summon_bushi_anywhere":
        push(s, (T_PLACE_ASK, seat, BUSHI, W_ANY, 1, 1))
    elif key == "buy_full_cost":
        push(s, (T_TRAIN_ASK, seat, 0))
    elif key == "vp_per_stronghold":
        vp = params["vp"] * cards.strongholds_on_map(s, seat)
        honor.gain_vp(s, seat, vp, log, "vp_kami", k=k)
    elif key == "coins":
        honor.gain_coins(s, seat, params["coins"], log, "coins_kami", k=k)
    else:  # pragma: no cover - the data names only these abilities (checked in tests)
        raise ValueError(f"unknown Kami ability {key!r}")


@task(T_VASSAL_ASK)
def _vassal_ask(s: State, rng: Rng, log: Log, seat: int, card: int) -> None:
    if s.coins[seat] >= CARDS[card].params["coins"]:
        ask(s, D_VASSAL, seat, card)


def _pay_choice(card: int) -> Choice:
    """Path of the Vassal's offer: 'pay 2 coins for 3 VP'."""
    coins, vp = CARDS[card].params["coins"], CARDS[card].params["vp"]
    label = f"pay {coins} coin{'' if coins == 1 else 's'} for {vp} VP"
    return choice(label, "pay_1" if coins == 1 else "pay_n", n=coins, n2=vp)


_PAY = {c.index: _pay_choice(c.index) for c in CARDS if c.effect == "shrine_buy_vp"}


def _pay(card: int) -> Choice:
    return _PAY[card]


@decision(D_VASSAL)
def _vassal_legal(s: State, seat: int) -> list[Any]:
    _, _, card = s.pending or ()
    if s.coins[seat] < CARDS[card].params["coins"]:  # gifts may have spent the Coins
        return [DO_NOT_PAY]
    return [_pay(card), DO_NOT_PAY]


@applies(D_VASSAL)
def _vassal_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    """Path of the Vassal: after winning a shrine, Coins for VP."""
    _, _, card = s.pending or ()
    s.pending = None
    if action == DO_NOT_PAY:
        return
    params = CARDS[card].params
    s.coins[seat] -= params["coins"]
    honor.gain_vp(s, seat, params["vp"], log, "vp_vassal")

"""The War Phase (rules §8, §16.4; DZ war pages, H).

At the start of War the War Upgrade cards fire once. They are simultaneous, and where their
order matters the clan with more Honor would choose to go last (§3), so: first every gain
(Coins, Ronin, VP; Koi then turns its Ronin into Coins), clan by clan in Honor order; then the
Ways of the Righteous, which take Coins from lower-Honor clans, from the lowest owner up; then
the Ways of Naginata's moves, from the lowest owner up.

Then each province with a War Number is resolved in number order: with no Force there the
token is discarded; with one clan it takes the token; with two allies alone the stronger takes
it (a tie goes to Honor); otherwise every clan with Force there fights a Battle.

A Battle: every participant's Coins and Ronin are open; all participants secretly and at once
put Coins on the four War Advantages, one Advantage at a time (Seppuku, Take Hostage, Hire
Ronin, Imperial Poets; what is not bid stays behind the screen); nothing is shown until the
last has bid. Then left to right: the highest bid wins each Advantage, a tie goes to Honor
(option ``zero_bid_wins``: also when everyone bid 0). Seppuku, Take Hostage and Hire Ronin come
before the Battle Outcome, Imperial Poets after it; then War Reparations. Each Advantage and
the Outcome are separate events (§12).
"""

from __future__ import annotations

from typing import Any

from sengoku.core import Rng, private, public

from . import cards, figures, honor
from .actions import (
    ADVANTAGE_NAMES,
    PROVINCE_NAMES,
    REPARATION,
    Bid,
    Choice,
    Give,
    Hostage,
)
from .cards import CARDS
from .engine import Log, applies, ask, decision, push, task
from .honor import T_EVENT_CLOSE, T_EVENT_OPEN, coins_text, name
from .mandates import T_MOVE_ASK
from .options import KoiCoins, WonWithFigure
from .state import (
    D_BID,
    D_HOSTAGE,
    D_MERCY,
    D_REPARATION,
    D_SEPPUKU,
    HIRE_RONIN,
    HOSTAGE,
    M_NAGINATA,
    POETS,
    SEPPUKU,
    TAKE_HOSTAGE,
    WAR,
    BattleRecord,
    State,
)

T_WAR_START = 70
T_WAR_CARD = 71
T_KOI = 72
T_WAR_PROVINCE = 73
T_ADVANTAGE = 74
T_OUTCOME = 75
T_SOULS = 76
T_REPARATIONS = 77
T_BATTLE_END = 78

COMMIT = Choice("commit seppuku")
DECLINE = Choice("decline seppuku")
NO_HOSTAGE = Choice("take no hostage")
SPARE = Choice("spare the losers")
NO_MERCY = Choice("kill the losers")


# ---------------------------------------------------------------------- start of War


@task(T_WAR_START)
def _war_start(s: State, rng: Rng, log: Log) -> None:
    s.phase = WAR
    wars = ", ".join(f"{i + 1} {PROVINCE_NAMES[p]}" for i, p in enumerate(s.war))
    log.append(public(f"the War Phase begins; War Numbers: {wars}"))
    late = ("war_take_from_lower", "war_move_bushi")

    def cards_of(seat: int, effects: tuple[str, ...]) -> list[tuple[int, ...]]:
        return [(T_WAR_CARD, seat, c) for c in s.owned[seat] if CARDS[c].effect in effects]

    gains = tuple({c.effect for c in CARDS if c.type == "war"} - set(late))
    tasks: list[tuple[int, ...]] = [(T_EVENT_OPEN,)]
    for seat in s.honor:
        tasks += cards_of(seat, gains)
        if honor.is_koi(s, seat):
            tasks.append((T_KOI, seat))
    for effect in late:
        for seat in reversed(s.honor):
            tasks += cards_of(seat, (effect,))
    tasks += [(T_EVENT_CLOSE,), (T_WAR_PROVINCE,)]
    push(s, *tasks)


@task(T_WAR_CARD)
def _war_card(s: State, rng: Rng, log: Log, seat: int, c: int) -> None:
    card = CARDS[c]
    p = card.params
    why = f"({card.name})"
    if card.effect == "war_coins":
        honor.gain_coins(s, seat, p["coins"], log, why)
    elif card.effect == "war_ronin":
        honor.gain_ronin(s, seat, p["ronin"], log, why)
    elif card.effect == "war_per_virtue":
        virtues = cards.distinct_virtues(s, seat)
        honor.gain_coins(s, seat, p["coins"] * virtues, log, why)
        honor.gain_vp(s, seat, p["vp"] * virtues, log, why)
    elif card.effect == "war_take_from_lower":
        for q in range(s.players):
            if honor.higher(s, seat, q) and s.coins[q]:
                got = min(p["coins"], s.coins[q])
                s.coins[q] -= got
                s.coins[seat] += got
                log.append(
                    public(f"{name(s, seat)} takes {coins_text(got)} from {name(s, q)} {why}")
                )
    elif card.effect == "war_move_bushi":
        push(s, (T_MOVE_ASK, seat, M_NAGINATA, 1))


@task(T_KOI)
def _koi(s: State, rng: Rng, log: Log, seat: int) -> None:
    """Eddies in the Stream: Koi discards its Ronin and takes as many Coins (§2.3)."""
    n = s.ronin[seat]
    if n:
        s.ronin[seat] = 0
        honor.gain_coins(s, seat, n, log, f"for its {n} Ronin (Eddies in the Stream)")


# ---------------------------------------------------------------------- provinces at war


def take_token(s: State, seat: int, p: int, log: Log, how: str) -> None:
    """``seat`` takes the province's War Province token (Courage: VP per token)."""
    s.tokens[seat].append(s.season * 8 + p)
    log.append(public(f"{name(s, seat)} takes the War Province token of {PROVINCE_NAMES[p]} {how}"))
    honor.gain_vp(s, seat, cards.total(s, seat, "token_vp", "vp"), log, "for Courage")


@task(T_WAR_PROVINCE)
def _war_province(s: State, rng: Rng, log: Log) -> None:
    if s.war_next >= len(s.war):
        return
    p = s.war[s.war_next]
    s.war_next += 1
    push(s, (T_WAR_PROVINCE,))
    here = figures.present(s, p)
    title = f"War {s.war_next} in {PROVINCE_NAMES[p]}"
    if not here:
        log.append(public(f"{title}: no clan has Force there; the token is discarded"))
    elif len(here) == 1:
        take_token(s, here[0], p, log, "unopposed")
    elif len(here) == 2 and honor.allied(s, here[0], here[1]):
        force = figures.forces(s, p, True)
        winner = figures.strongest(s, force, here)
        log.append(
            public(f"{title}: the allies {name(s, here[0])} and {name(s, here[1])} do not fight")
        )
        take_token(s, winner, p, log, f"with more Force ({force[winner]})")
    else:
        _begin_battle(s, p, here, title, log)


def _begin_battle(s: State, p: int, here: list[int], title: str, log: Log) -> None:
    s.b_prov = p
    s.b_part = list(here)
    s.bids = [[] for _ in range(s.players)]
    s.bid_done = [q not in here for q in range(s.players)]
    s.b_killed = 0
    s.b_hired = [0] * s.players
    s.b_souls = [
        f
        for f in figures.at(s, p)
        if s.card[f] >= 0 and CARDS[s.card[f]].effect == "win_battle_vp_per_oni"
    ]
    s.b_start_coins = s.coins.copy()
    s.b_winner = -1
    s.b_adv = [-1] * len(ADVANTAGE_NAMES)
    s.b_force = []
    s.b_taken = []
    force = figures.forces(s, p, True, here)
    sides = ", ".join(
        f"{name(s, q)} ({force[q]} Force, {coins_text(s.coins[q])}, {s.ronin[q]} Ronin)"
        for q in here
    )
    log.append(public(f"{title}: Battle between {sides}"))
    ask(s, D_BID)


def bidders(s: State) -> list[int]:
    """The participants still placing their secret bids."""
    return [q for q in s.b_part if not s.bid_done[q]]


@decision(D_BID)
def _bid_legal(s: State, seat: int) -> list[Any]:
    step = len(s.bids[seat])
    left = s.coins[seat] - sum(s.bids[seat])
    return [Bid(step, x) for x in range(left + 1)]


@applies(D_BID)
def _bid_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    s.bids[seat].append(action.coins)
    log.append(
        private(f"{name(s, seat)} bids {action.coins} on {ADVANTAGE_NAMES[action.advantage]}", seat)
    )
    if len(s.bids[seat]) == len(ADVANTAGE_NAMES):
        s.bid_done[seat] = True
    if bidders(s):
        return
    s.pending = None
    _reveal(s, log)


def _reveal(s: State, log: Log) -> None:
    parts = []
    for q in s.b_part:
        s.coins[q] -= sum(s.bids[q])
        parts.append(f"{name(s, q)} " + "/".join(map(str, s.bids[q])))
    short = "/".join(ADVANTAGE_NAMES)
    log.append(public(f"the bids are shown ({short}): " + ", ".join(parts)))
    tasks: list[tuple[int, ...]] = []
    for a in (SEPPUKU, TAKE_HOSTAGE, HIRE_RONIN):
        tasks += [(T_EVENT_OPEN,), (T_ADVANTAGE, a), (T_EVENT_CLOSE,)]
    tasks += [(T_EVENT_OPEN,), (T_OUTCOME,), (T_SOULS,), (T_EVENT_CLOSE,)]
    tasks += [(T_EVENT_OPEN,), (T_ADVANTAGE, POETS), (T_EVENT_CLOSE,)]
    push(s, *tasks, (T_REPARATIONS,), (T_BATTLE_END,))


def advantage_winner(s: State, a: int) -> int:
    """The highest bid on Advantage ``a`` wins; a tie goes to the highest Honor (§16.4)."""
    top = max(s.bids[q][a] for q in s.b_part)
    if top == 0 and not s.options.zero_bid_wins:
        return -1
    return honor.best(s, [q for q in s.b_part if s.bids[q][a] == top])


def _won_text(s: State, a: int, w: int) -> str:
    others = ", ".join(f"{name(s, q)} {s.bids[q][a]}" for q in s.b_part if q != w)
    return f"{name(s, w)} wins {ADVANTAGE_NAMES[a]} with {coins_text(s.bids[w][a])} ({others})"


@task(T_ADVANTAGE)
def _advantage(s: State, rng: Rng, log: Log, a: int) -> None:
    p = s.b_prov
    w = advantage_winner(s, a)
    s.b_adv[a] = w
    if w < 0:
        log.append(public(f"nobody wins {ADVANTAGE_NAMES[a]}: every bid was 0"))
        return
    text = _won_text(s, a, w)
    if a == SEPPUKU:
        if figures.figures_in(s, w, p):
            log.append(public(text))
            ask(s, D_SEPPUKU, w)
        else:
            log.append(public(f"{text}, with no figure there to sacrifice"))
    elif a == TAKE_HOSTAGE:
        log.append(public(text))
        _hostage_ask(s, w, 1 + cards.total(s, w, "extra_hostage", "hostages"))
    elif a == HIRE_RONIN:
        hired = s.ronin[w]
        if honor.is_koi(s, w):
            coins = s.coins[w]
            if s.options.koi_reserve_coins is KoiCoins.ALL:
                coins = s.b_start_coins[w]
            hired += coins
        s.b_hired[w] = hired
        log.append(public(f"{text}: +{hired} Force"))
    else:
        died = "1 figure" if s.b_killed == 1 else f"{s.b_killed} figures"
        log.append(public(f"{text}: {died} died in this Battle"))
        honor.gain_vp(s, w, s.b_killed, log, "from the Imperial Poets")


@decision(D_SEPPUKU)
def _seppuku_legal(s: State, seat: int) -> list[Any]:
    return [COMMIT, DECLINE]


@applies(D_SEPPUKU)
def _seppuku_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    """Seppuku: all or none of one's figures in the province die, each for 1 VP and 1 Honor
    (§16.4); the clan stays in the Battle."""
    s.pending = None
    if action != COMMIT:
        log.append(public(f"{name(s, seat)} declines Seppuku"))
        return
    victims = figures.figures_in(s, seat, s.b_prov)
    n = figures.kill(s, seat, victims, log, f"{name(s, seat)} commits Seppuku")
    s.b_killed += n
    honor.gain_vp(s, seat, n, log, "for Seppuku")
    honor.gain_honor(s, seat, n, log)


def _hostage_targets(s: State, seat: int) -> list[Hostage]:
    seen = set()
    for f in figures.at(s, s.b_prov):
        owner = s.owner[f]
        if owner != seat and figures.is_figure(s, f) and not figures.daimyo_like(s, f):
            seen.add((s.clan[owner], figures.what(s, f)))
    return [Hostage(c, w) for c, w in sorted(seen)]


def _hostage_ask(s: State, seat: int, left: int) -> None:
    if left > 0 and _hostage_targets(s, seat):
        ask(s, D_HOSTAGE, seat, left)


@decision(D_HOSTAGE)
def _hostage_legal(s: State, seat: int) -> list[Any]:
    return [*_hostage_targets(s, seat), NO_HOSTAGE]


@applies(D_HOSTAGE)
def _hostage_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    """Take Hostage: a figure of another clan (an ally's too) leaves the province for the
    captor's screen, not killed; its owner loses 1 VP to the captor (§16.4)."""
    _, _, left = s.pending or ()
    s.pending = None
    if action == NO_HOSTAGE:
        log.append(public(f"{name(s, seat)} takes no hostage"))
        return
    owner = s.clan.index(action.clan)
    f = figures.find(s, owner, action.what, s.b_prov)
    s.loc[f] = HOSTAGE + seat
    s.b_taken.append([seat, owner, action.what])
    stolen = honor.steal_vp(s, seat, owner, 1, log, "")
    took = f"{name(s, seat)} takes {figures.describe(s, f)} hostage from {PROVINCE_NAMES[s.b_prov]}"
    log.append(public(took + (f" and steals {stolen} VP" if stolen else "")))
    _hostage_ask(s, seat, left - 1)


# ---------------------------------------------------------------------- the outcome


@task(T_OUTCOME)
def _outcome(s: State, rng: Rng, log: Log) -> None:
    """The most Force wins (a tie goes to Honor; if nobody has Force, the highest-Honor
    participant wins); every figure of the losers dies, except the winner's ally's."""
    p = s.b_prov
    force = figures.forces(s, p, True, s.b_part)
    for q in s.b_part:
        force[q] += s.b_hired[q]
    top = max(force[q] for q in s.b_part)
    if top > 0:
        w = honor.best(s, [q for q in s.b_part if force[q] == top])
    else:
        w = honor.best(s, s.b_part)
    s.b_winner = w
    s.b_force = [force[q] for q in s.b_part]
    others = ", ".join(f"{name(s, q)} {force[q]}" for q in s.b_part if q != w)
    log.append(
        public(
            f"{name(s, w)} wins the Battle of {PROVINCE_NAMES[p]} with {force[w]} Force ({others})"
        )
    )
    take_token(s, w, p, log, "as the victor")
    if _losers_figures(s) and cards.copies(s, w, "spare_vp"):
        ask(s, D_MERCY, w)
    else:
        _kill_losers(s, log)


def _losers_figures(s: State) -> list[int]:
    w = s.b_winner
    return [
        f
        for f in figures.at(s, s.b_prov)
        if figures.is_figure(s, f) and s.owner[f] != w and s.owner[f] != s.ally[w]
    ]


def _kill_losers(s: State, log: Log) -> None:
    w = s.b_winner
    victims = _losers_figures(s)
    oni = sum(1 for f in victims if figures.is_oni(s, f))
    s.b_killed += figures.kill(s, w, victims, log, "the losers fall")
    honor.gain_vp(s, w, oni * cards.total(s, w, "enemy_oni_killed_vp", "vp"), log, "for Boldness")


@decision(D_MERCY)
def _mercy_legal(s: State, seat: int) -> list[Any]:
    return [SPARE, NO_MERCY]


@applies(D_MERCY)
def _mercy_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    s.pending = None
    if action == SPARE:
        log.append(public(f"{name(s, seat)} spares the losers"))
        honor.gain_vp(s, seat, cards.total(s, seat, "spare_vp", "vp"), log, "for Mercy")
    else:
        _kill_losers(s, log)


@task(T_SOULS)
def _souls(s: State, rng: Rng, log: Log) -> None:
    """Oni of Souls: its owner won the Battle 'with it' (option ``won_with_figure``)."""
    w = s.b_winner
    alive = s.options.won_with_figure is WonWithFigure.ALIVE
    for f in range(len(s.loc)):
        if s.owner[f] != w or s.card[f] < 0:
            continue
        card = CARDS[s.card[f]]
        if card.effect != "win_battle_vp_per_oni":
            continue
        if (s.loc[f] == s.b_prov) if alive else (f in s.b_souls):
            vp = card.params["vp"] * cards.monster_cards(s, w, oni_only=True)
            honor.gain_vp(s, w, vp, log, f"for winning with {card.name}")


@task(T_REPARATIONS)
def _reparations(s: State, rng: Rng, log: Log) -> None:
    """The losers' bids are gone; the winner's bid Coins are shared equally among the losers,
    and the winner chooses who gets any odd Coins (§16.4)."""
    w = s.b_winner
    paid = sum(s.bids[w])
    losers = _repaid_losers(s)
    if not paid or not losers:
        return
    share, odd = divmod(paid, len(losers))
    if share:
        for q in losers:
            s.coins[q] += share
        log.append(
            public(
                f"War Reparations: {name(s, w)}'s {coins_text(paid)} go to "
                + ", ".join(f"{name(s, q)} {share}" for q in losers)
            )
        )
    s.picked = []
    if odd:
        ask(s, D_REPARATION, w, odd)


def _repaid_losers(s: State) -> list[int]:
    """The losers who share the winner's bid Coins (the winner's ally only with the option)."""
    w = s.b_winner
    return [
        q for q in s.b_part if q != w and (s.options.allied_loser_reparations or s.ally[w] != q)
    ]


def _reparation_losers(s: State) -> list[int]:
    return [q for q in _repaid_losers(s) if q not in s.picked]


@decision(D_REPARATION)
def _reparation_legal(s: State, seat: int) -> list[Any]:
    return [Give(REPARATION, s.clan[q]) for q in _reparation_losers(s)]


@applies(D_REPARATION)
def _reparation_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    _, _, odd = s.pending or ()
    s.pending = None
    q = s.clan.index(action.clan)
    s.coins[q] += 1
    s.picked.append(q)
    log.append(public(f"{name(s, seat)} gives an odd Coin of the Reparations to {name(s, q)}"))
    if odd > 1:
        ask(s, D_REPARATION, seat, odd - 1)


def _repaid(s: State) -> tuple[int, ...]:
    """The Coins each participant received as War Reparations in this Battle."""
    losers = _repaid_losers(s)
    share = sum(s.bids[s.b_winner]) // len(losers) if losers else 0
    return tuple((share if q in losers else 0) + (1 if q in s.picked else 0) for q in s.b_part)


@task(T_BATTLE_END)
def _battle_end(s: State, rng: Rng, log: Log) -> None:
    s.battles.append(
        BattleRecord(
            season=s.season,
            war=s.war_next,
            province=s.b_prov,
            participants=tuple(s.b_part),
            bids=tuple(tuple(s.bids[q]) for q in s.b_part),
            advantages=tuple(s.b_adv),
            forces=tuple(s.b_force),
            winner=s.b_winner,
            killed=s.b_killed,
            hostages=tuple((c, o, w) for c, o, w in s.b_taken),
            reparations=_repaid(s),
        )
    )
    s.b_adv = []
    s.b_force = []
    s.b_taken = []
    s.b_prov = -1
    s.b_part = []
    s.bids = [[] for _ in range(s.players)]
    s.bid_done = [False] * s.players
    s.b_killed = 0
    s.b_hired = [0] * s.players
    s.b_souls = []
    s.b_winner = -1
    s.picked = []

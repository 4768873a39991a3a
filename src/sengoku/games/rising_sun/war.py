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

from sengoku.core import Items, Message, Rng, private, public

from . import cards, figures, honor
from .actions import (
    ADVANTAGE_NAMES,
    REPARATION,
    Bid,
    Give,
    Hostage,
    choice,
)
from .cards import CARDS
from .engine import QUIET, Log, applies, ask, decision, push, task
from .honor import T_EVENT_CLOSE, T_EVENT_OPEN, who
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
from .terms import (
    SLASH_SEP,
    advantage,
    card,
    card_named,
    counted,
    figure,
    items,
    log_line,
    province,
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

COMMIT = choice("commit seppuku", "commit_seppuku")
DECLINE = choice("decline seppuku", "decline_seppuku")
NO_HOSTAGE = choice("take no hostage", "no_hostage")
SPARE = choice("spare the losers", "spare")
NO_MERCY = choice("kill the losers", "no_mercy")


# ---------------------------------------------------------------------- start of War


@task(T_WAR_START)
def _war_start(s: State, rng: Rng, log: Log) -> None:
    s.phase = WAR
    log.append(public(log_line("war_begins", x=war_numbers(s))))
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


def war_numbers(s: State) -> Message:
    """'War Numbers: 1 Kansai, 2 Edo, ...'."""
    numbered = [log_line("war_number", n=i + 1, p=province(p)) for i, p in enumerate(s.war)]
    return log_line("war_numbers", x=items(numbered))


@task(T_WAR_CARD)
def _war_card(s: State, rng: Rng, log: Log, seat: int, c: int) -> None:
    effect = CARDS[c].effect
    p = CARDS[c].params
    d = card(c)
    if effect == "war_coins":
        honor.gain_coins(s, seat, p["coins"], log, "coins_card", d=d)
    elif effect == "war_ronin":
        honor.gain_ronin(s, seat, p["ronin"], log, "ronin_card", d=d)
    elif effect == "war_per_virtue":
        virtues = cards.distinct_virtues(s, seat)
        honor.gain_coins(s, seat, p["coins"] * virtues, log, "coins_card", d=d)
        honor.gain_vp(s, seat, p["vp"] * virtues, log, "vp_card_paren", d=d)
    elif effect == "war_take_from_lower":
        for q in range(s.players):
            if honor.higher(s, seat, q) and s.coins[q]:
                got = min(p["coins"], s.coins[q])
                s.coins[q] -= got
                s.coins[seat] += got
                key = counted("coins_from_card", got)
                log.append(public(log_line(key, c=who(s, seat), n=got, c2=who(s, q), d=d)))
    elif effect == "war_move_bushi":
        push(s, (T_MOVE_ASK, seat, M_NAGINATA, 1))


@task(T_KOI)
def _koi(s: State, rng: Rng, log: Log, seat: int) -> None:
    """Eddies in the Stream: Koi discards its Ronin and takes as many Coins (§2.3)."""
    n = s.ronin[seat]
    if n:
        s.ronin[seat] = 0
        honor.gain_coins(s, seat, n, log, "coins_koi", n2=n)


# ---------------------------------------------------------------------- provinces at war


def take_token(s: State, seat: int, p: int, log: Log, how: str, force: int = -1) -> None:
    """``seat`` takes the province's War Province token (Courage: VP per token); ``how`` names
    the log line (``"unopposed"``, ``"victor"``, ``"force"`` with the ``force``)."""
    s.tokens[seat].append(s.season * 8 + p)
    c, where = who(s, seat), province(p)
    if how == "force":
        log.append(public(log_line("token_force", c=c, p=where, n=force)))
    else:
        log.append(public(log_line(f"token_{how}", c=c, p=where)))
    vp = cards.total(s, seat, "token_vp", "vp")
    honor.gain_vp(s, seat, vp, log, "vp_card", d=card_named("Courage"))


@task(T_WAR_PROVINCE)
def _war_province(s: State, rng: Rng, log: Log) -> None:
    if s.war_next >= len(s.war):
        return
    p = s.war[s.war_next]
    s.war_next += 1
    push(s, (T_WAR_PROVINCE,))
    here = figures.present(s, p)
    n, where = s.war_next, province(p)
    if not here:
        log.append(public(log_line("war_empty", n=n, p=where)))
    elif len(here) == 1:
        take_token(s, here[0], p, log, "unopposed")
    elif len(here) == 2 and honor.allied(s, here[0], here[1]):
        force = figures.forces(s, p, True)
        winner = figures.strongest(s, force, here)
        c, c2 = who(s, here[0]), who(s, here[1])
        log.append(public(log_line("war_allies", n=n, p=where, c=c, c2=c2)))
        take_token(s, winner, p, log, "force", force[winner])
    else:
        _begin_battle(s, p, here, log)


def _begin_battle(s: State, p: int, here: list[int], log: Log) -> None:
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
    if log is not QUIET:
        force = figures.forces(s, p, True, here)
        sides = [
            log_line(
                counted("side", s.coins[q]), c=who(s, q), n=force[q], n2=s.coins[q], n3=s.ronin[q]
            )
            for q in here
        ]
        log.append(public(log_line("battle", n=s.war_next, p=province(p), x=items(sides))))
    ask(s, D_BID)


def bidders(s: State) -> list[int]:
    """The participants still placing their secret bids."""
    return [q for q in s.b_part if not s.bid_done[q]]


#: The bids of up to 63 Coins on each Advantage, made once (actions are immutable).
_BIDS: tuple[tuple[Bid, ...], ...] = tuple(tuple(Bid(a, x) for x in range(64)) for a in range(4))


@decision(D_BID)
def _bid_legal(s: State, seat: int) -> list[Any]:
    step = len(s.bids[seat])
    left = s.coins[seat] - sum(s.bids[seat])
    if 0 <= step < len(_BIDS) and 0 <= left < len(_BIDS[step]):
        return list(_BIDS[step][: left + 1])
    return [Bid(step, x) for x in range(left + 1)]


@applies(D_BID)
def _bid_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    s.bids[seat].append(action.coins)
    if log is not QUIET:
        line = log_line("bids", c=who(s, seat), n=action.coins, a=advantage(action.advantage))
        log.append(private(line, seat))
    if len(s.bids[seat]) == len(ADVANTAGE_NAMES):
        s.bid_done[seat] = True
    if bidders(s):
        return
    s.pending = None
    _reveal(s, log)


def _reveal(s: State, log: Log) -> None:
    for q in s.b_part:
        s.coins[q] -= sum(s.bids[q])
    if log is not QUIET:
        parts = [
            log_line("clan_bids", c=who(s, q), x=Items(tuple(s.bids[q]), SLASH_SEP))
            for q in s.b_part
        ]
        names = Items(tuple(advantage(a) for a in range(len(ADVANTAGE_NAMES))), SLASH_SEP)
        log.append(public(log_line("bids_shown", x=names, x2=items(parts))))
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


def _won(s: State, a: int, w: int, key: str, **args: int) -> Message:
    """'Koi wins Hire Ronin with 2 Coins (Lotus 1)' and what follows, by ``key``
    (``wins_advantage``, ``wins_ronin``, ...: counted by the Coins bid)."""
    others = [log_line("clan_n", c=who(s, q), n=s.bids[q][a]) for q in s.b_part if q != w]
    coins = s.bids[w][a]
    c, x = who(s, w), items(others)
    return log_line(counted(key, coins), c=c, a=advantage(a), n=coins, x=x, **args)


@task(T_ADVANTAGE)
def _advantage(s: State, rng: Rng, log: Log, a: int) -> None:
    p = s.b_prov
    w = advantage_winner(s, a)
    s.b_adv[a] = w
    said = log is not QUIET
    if w < 0:
        if said:
            log.append(public(log_line("nobody_wins", a=advantage(a))))
        return
    if a == SEPPUKU:
        if figures.figures_in(s, w, p):
            if said:
                log.append(public(_won(s, a, w, "wins_advantage")))
            ask(s, D_SEPPUKU, w)
        elif said:
            log.append(public(_won(s, a, w, "wins_seppuku_alone")))
    elif a == TAKE_HOSTAGE:
        if said:
            log.append(public(_won(s, a, w, "wins_advantage")))
        _hostage_ask(s, w, 1 + cards.total(s, w, "extra_hostage", "hostages"))
    elif a == HIRE_RONIN:
        hired = s.ronin[w]
        if honor.is_koi(s, w):
            coins = s.coins[w]
            if s.options.koi_reserve_coins is KoiCoins.ALL:
                coins = s.b_start_coins[w]
            hired += coins
        s.b_hired[w] = hired
        if said:
            log.append(public(_won(s, a, w, "wins_ronin", n2=hired)))
    else:
        if said:
            died = "wins_poets_1" if s.b_killed == 1 else "wins_poets_n"
            log.append(public(_won(s, a, w, died, n2=s.b_killed)))
        honor.gain_vp(s, w, s.b_killed, log, "vp_poets")


@decision(D_SEPPUKU)
def _seppuku_legal(s: State, seat: int) -> list[Any]:
    return [COMMIT, DECLINE]


@applies(D_SEPPUKU)
def _seppuku_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    """Seppuku: all or none of one's figures in the province die, each for 1 VP and 1 Honor
    (§16.4); the clan stays in the Battle."""
    s.pending = None
    if action != COMMIT:
        log.append(public(log_line("declines_seppuku", c=who(s, seat))))
        return
    victims = figures.figures_in(s, seat, s.b_prov)
    n = figures.kill(s, seat, victims, log, "killed_seppuku", c=who(s, seat))
    s.b_killed += n
    honor.gain_vp(s, seat, n, log, "vp_seppuku")
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
        log.append(public(log_line("no_hostage", c=who(s, seat))))
        return
    owner = s.clan.index(action.clan)
    f = figures.find(s, owner, action.what, s.b_prov)
    s.loc[f] = HOSTAGE + seat
    s.b_taken.append([seat, owner, action.what])
    stolen = honor.steal_vp(s, seat, owner, 1, log)
    took = {"c": who(s, seat), "c2": who(s, owner), "f": figure(action.what)}
    where = province(s.b_prov)
    if stolen:
        log.append(public(log_line("hostage_vp", p=where, n=stolen, **took)))
    else:
        log.append(public(log_line("hostage", p=where, **took)))
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
    others = items([log_line("clan_n", c=who(s, q), n=force[q]) for q in s.b_part if q != w])
    line = log_line("wins_battle", c=who(s, w), p=province(p), n=force[w], x=others)
    log.append(public(line))
    take_token(s, w, p, log, "victor")
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
    s.b_killed += figures.kill(s, w, victims, log, "killed_losers")
    vp = oni * cards.total(s, w, "enemy_oni_killed_vp", "vp")
    honor.gain_vp(s, w, vp, log, "vp_card", d=card_named("Boldness"))


@decision(D_MERCY)
def _mercy_legal(s: State, seat: int) -> list[Any]:
    return [SPARE, NO_MERCY]


@applies(D_MERCY)
def _mercy_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    s.pending = None
    if action == SPARE:
        log.append(public(log_line("spares", c=who(s, seat))))
        vp = cards.total(s, seat, "spare_vp", "vp")
        honor.gain_vp(s, seat, vp, log, "vp_card", d=card_named("Mercy"))
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
        souls = CARDS[s.card[f]]
        if souls.effect != "win_battle_vp_per_oni":
            continue
        if (s.loc[f] == s.b_prov) if alive else (f in s.b_souls):
            vp = souls.params["vp"] * cards.monster_cards(s, w, oni_only=True)
            honor.gain_vp(s, w, vp, log, "vp_souls", d=card(s.card[f]))


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
        shares = items([log_line("clan_n", c=who(s, q), n=share) for q in losers])
        log.append(public(log_line(counted("reparations", paid), c=who(s, w), n=paid, x=shares)))
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
    log.append(public(log_line("odd_coin", c=who(s, seat), c2=who(s, q))))
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

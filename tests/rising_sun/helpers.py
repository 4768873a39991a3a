"""Helpers for Rising Sun scenario tests: set a table up exactly, then play it through the
public API (``Match.act`` with notation), so every step is checked as a player's would be."""

from __future__ import annotations

from typing import Any

import sengoku
from sengoku.core import LogEntry, Match, Rng, render
from sengoku.games.rising_sun import figures, mandates
from sengoku.games.rising_sun.data import load_data
from sengoku.games.rising_sun.engine import push, run
from sengoku.games.rising_sun.rules import RisingSun
from sengoku.games.rising_sun.state import (
    BUSHI,
    DAIMYO,
    MONSTER,
    POLITICAL,
    RESERVE,
    SHINTO,
    SHRINE,
    STRONGHOLD,
    WAR,
    State,
)
from sengoku.games.rising_sun.war import T_WAR_PROVINCE

D = load_data()
P = D.index  # province ids by name
KAMI = D.kami_index
CLANS = [c.name for c in D.clans]
MANDATE = {name: i for i, name in enumerate(D.game.mandates.names)}
KINDS = {"Daimyo": DAIMYO, "Shinto": SHINTO, "Bushi": BUSHI, "Stronghold": STRONGHOLD}


def text(entry: LogEntry) -> str:
    """A log entry's English, as ``Match.log`` renders it."""
    return render(entry.message, RisingSun.catalog)


def public_text(log: list[LogEntry]) -> list[str]:
    """The English of the public entries of ``log``."""
    return [text(e) for e in log if e.seats is None]


def table(
    clans: tuple[str, ...] = ("Koi", "Lotus", "Turtle", "Dragonfly"),
    shrines: tuple[str, ...] = ("Amaterasu", "Hachiman", "Raijin", "Tsukuyomi"),
    empty: bool = True,
    **options: Any,
) -> Match:
    """A match of ``clans`` (seat i plays the i-th) in Spring's Political Phase, with nothing
    pending, no Coins, the given shrines and (``empty``) every piece in its Reserve."""
    opts = {"clans": "fixed", "clan_list": ", ".join(clans), **options}
    m = sengoku.new_match("rising_sun", len(clans), seed=0, options=opts)
    s = m.state
    s.agenda = []
    s.pending = None
    s.phase = POLITICAL
    s.coins = [0] * s.players
    s.shrines = [KAMI[k] for k in shrines]
    if empty:
        for f in range(len(s.loc)):
            s.loc[f] = RESERVE
    refresh(m)
    return m


def refresh(m: Match) -> None:
    """Forget the match's cached legal actions after the state was set by hand."""
    m._legal.clear()


def seat(m: Match, clan: str) -> int:
    return m.state.clan.index(CLANS.index(clan))


def card_index(name: str, season_set: str = "") -> int:
    """The first card called ``name`` (in ``season_set`` if given, else Core or any set)."""
    for c in D.cards:
        if c.name == name and (not season_set or c.set in (season_set, "core")):
            return c.index
    raise LookupError(name)


def give(m: Match, clan: str, *names: str, season_set: str = "") -> list[int]:
    """``clan`` owns these cards (a Monster's figure waits in its Reserve); returns the card
    indices (a second copy of a name takes the next card of that name)."""
    s = m.state
    q = seat(m, clan)
    out = []
    for name in names:
        taken = {c for o in s.owned for c in o}
        c = next(
            c.index
            for c in D.cards
            if c.name == name
            and c.index not in taken
            and (not season_set or c.set in (season_set, "core"))
        )
        s.owned[q].append(c)
        if D.cards[c].type == "monster":
            figures.new_piece(s, q, MONSTER, c, RESERVE)
        out.append(c)
    refresh(m)
    return out


def put(m: Match, clan: str, what: str, where: str, n: int = 1) -> list[int]:
    """Move ``n`` of ``clan``'s ``what`` (Daimyo, Shinto, Bushi, Stronghold or a Monster's
    name) from its Reserve to a province or a shrine (a Kami's name)."""
    s = m.state
    q = seat(m, clan)
    loc = SHRINE + s.shrines.index(KAMI[where]) if where in KAMI else P[where]
    moved = []
    for f in range(len(s.loc)):
        if len(moved) == n:
            break
        if s.owner[f] != q or s.loc[f] != RESERVE:
            continue
        if (what in KINDS and s.kind[f] == KINDS[what]) or (
            s.kind[f] == MONSTER and D.cards[s.card[f]].name == what
        ):
            s.loc[f] = loc
            moved.append(f)
    assert len(moved) == n, f"{clan} has not {n} {what} in its Reserve"
    refresh(m)
    return moved


def count(m: Match, clan: str, what: str, where: str) -> int:
    """How many of ``clan``'s ``what`` stand at ``where`` (a province, a Kami, 'Reserve')."""
    s = m.state
    q = seat(m, clan)
    if where == "Reserve":
        loc = RESERVE
    elif where in KAMI:
        loc = SHRINE + s.shrines.index(KAMI[where])
    else:
        loc = P[where]
    return sum(
        1
        for f in range(len(s.loc))
        if s.owner[f] == q
        and s.loc[f] == loc
        and (
            (what in KINDS and s.kind[f] == KINDS[what])
            or (s.kind[f] == MONSTER and D.cards[s.card[f]].name == what)
        )
    )


def honor(m: Match, *clans: str) -> None:
    """Set the Honor track, top first."""
    m.state.honor = [seat(m, c) for c in clans]
    refresh(m)


def ally(m: Match, a: str, b: str) -> None:
    s = m.state
    s.ally[seat(m, a)] = seat(m, b)
    s.ally[seat(m, b)] = seat(m, a)
    refresh(m)


def coins(m: Match, **amounts: int) -> None:
    for clan, n in amounts.items():
        m.state.coins[seat(m, clan)] = n
    refresh(m)


def select(m: Match, clan: str, mandate: str) -> list[str]:
    """``clan`` has selected ``mandate`` (as if just kept face up); run until a decision.
    Returns the new public log lines."""
    s = m.state
    s.holder = seat(m, clan)
    log: list[LogEntry] = []
    mandates.select(s, seat(m, clan), MANDATE[mandate], log)
    run(s, Rng(0), log)
    m._log.extend(log)
    refresh(m)
    return public_text(log)


def war_in(m: Match, *provinces: str) -> list[str]:
    """Start resolving War Numbers in these provinces (in order); run until a decision."""
    s = m.state
    s.phase = WAR
    s.war = [P[p] for p in provinces]
    s.war_next = 0
    log: list[LogEntry] = []
    push(s, (T_WAR_PROVINCE,))
    run(s, Rng(0), log)
    m._log.extend(log)
    refresh(m)
    return public_text(log)


def act(m: Match, clan: str, *notations: str) -> list[str]:
    """``clan`` plays these actions in order; returns the public log lines they made."""
    start = m.log_length
    for text in notations:
        m.act(seat(m, clan), text)
    return m.log(None, since=start)


def legal(m: Match, clan: str) -> list[str]:
    return [str(a) for a in m.legal_actions(seat(m, clan))]


def to_act(m: Match) -> list[str]:
    return [CLANS[m.state.clan[q]] for q in m.to_act()]


def vp(m: Match, clan: str) -> int:
    return m.state.vp[seat(m, clan)]


def has(m: Match, clan: str) -> dict[str, int]:
    """``clan``'s VP, Coins and Ronin."""
    s: State = m.state
    q = seat(m, clan)
    return {"vp": s.vp[q], "coins": s.coins[q], "ronin": s.ronin[q]}


def run_task(m: Match, *task: tuple[int, ...]) -> list[str]:
    """Push these engine tasks and run until a decision; returns the public log lines."""
    s = m.state
    log: list[LogEntry] = []
    push(s, *task)
    run(s, Rng(0), log)
    m._log.extend(log)
    refresh(m)
    return public_text(log)


def kami_turn(m: Match) -> list[str]:
    """A Kami Turn now (the four shrines, left to right)."""
    from sengoku.games.rising_sun.kami import T_KAMI

    m.state.turn = 4
    return run_task(m, (T_KAMI, 0))


def start_war(m: Match) -> list[str]:
    """The start of the War Phase, with no War Numbers to resolve."""
    from sengoku.games.rising_sun.war import T_WAR_START

    m.state.war = []
    return run_task(m, (T_WAR_START,))


def winter(m: Match) -> list[str]:
    """The final scoring now."""
    from sengoku.games.rising_sun.winter import T_WINTER

    return run_task(m, (T_WINTER,))


def passive(m: Match, seat_: int) -> Any:
    """A dull player: no alliance, the first Mandate, nothing summoned, moved or bought, no
    Seppuku and no hostage, 0 on every Advantage."""
    options = m.legal_actions(seat_)
    for word in (
        "no alliance",
        "refuse alliance",
        "end recruit",
        "end moves",
        "buy nothing",
        "build nothing",
        "end betrayal",
        "place nothing",
        "summon nothing",
        "kill nothing",
        "bid 0 on",
        "decline seppuku",
        "take no hostage",
        "take no coin",
        "offer no coin",
        "do not pay",
        "give no spent coin",
        "kill the losers",
    ):
        for a in options:
            if str(a).startswith(word):
                return a
    return options[0]


def play_until(m: Match, done: Any, chooser: Any = passive, limit: int = 5000) -> None:
    """Let ``chooser(match, seat)`` play every seat until ``done(match)`` holds."""
    for _ in range(limit):
        if done(m) or m.outcome() is not None:
            return
        q = m.to_act()[0]
        m.act(q, chooser(m, q))
    raise AssertionError("the condition never came")

"""Setting up the game and running its Seasons (rules §2, §4.1, §4.2, §16.5; H unless noted).

Set-up: clans are given (option ``clans``); players sit and play clockwise in Honor rank order
(Koi, Lotus, Turtle, Dragonfly, Bonsai); each clan puts its Daimyo, a Bushi and a Stronghold in
its home province; 4 of the 7 Kami are drawn onto the shrines, left to right; the Mandate deck
is shuffled and goes to the clan at the top of the Honor track.

Each of Spring, Summer and Autumn: Seasonal Setup (players + 2 of the Season's War Province
tokens with War Numbers, the Season's cards on display, income, hostages home), the Tea
Ceremony, the Political Phase (Mandate and Kami Turns as the track prints them), the War Phase
and the Seasonal Cleanup (Coins and Ronin discarded, worshippers home, Mandates reshuffled; the
deck sits with the clan left of the last selector). Then Winter.
"""

from __future__ import annotations

from typing import Any

from sengoku.core import LogEntry, OptionError, Rng, public

from . import figures, honor
from .actions import ChooseClan
from .data import SETS, load_data
from .engine import Log, applies, ask, decision, push, run, task
from .honor import T_EVENT_CLOSE, T_EVENT_OPEN, who
from .kami import T_KAMI
from .mandates import T_MANDATE_TURN
from .options import ClanChoice, RisingSunOptions, SeasonSet, settings
from .state import (
    BUSHI,
    CLANS,
    D_CLAN,
    DAIMYO,
    POLITICAL,
    RESERVE,
    SEASON_NAMES,
    SHINTO,
    SHRINE,
    STRONGHOLD,
    State,
    blank_state,
)
from .tea import T_TEA
from .terms import CLAN_NAMES, card, clan, items, log_line, province, seat_term
from .terms import kami as kami_term
from .terms import season as season_term
from .war import T_WAR_START, war_numbers
from .winter import T_WINTER, return_hostages

D = load_data()
TRACK = D.game.political_track.turns
WAR_PROVINCES = tuple(D.index[p] for p in D.game.war_tokens.per_season)

T_CLAN_ASK = 1
T_START = 2
T_SEASON = 3
T_POLITICAL = 4
T_CLEANUP = 5
T_INCOME = 6
T_HOSTAGES_HOME = 7


def setup(players: int, options: RisingSunOptions, rng: Rng) -> State:
    """A new match: clans given (or their choice pending), or the first Tea Ceremony."""
    st = settings(options)
    if len(st.clan_list) < players:
        raise OptionError(
            f"option 'clan_list': {players} players need {players} clans, not {len(st.clan_list)}"
        )
    s = blank_state(players, options, st, D.board(options.extra_route_nagato_kyushu))
    if options.season_set is SeasonSet.RANDOM:  # rules §17.4: Tower only when asked for
        # one draw from all four, as before the option, and another only when Tower is not
        # allowed: a record made before keeps its Set unless that Set was Tower
        s.season_set = rng.choice(SETS)
        allowed = [n for n in SETS if D.sets[n].in_base_box or options.random_set_tower]
        if s.season_set not in allowed:
            s.season_set = rng.choice(allowed)
    log: list[LogEntry] = [public(log_line(f"set_{s.season_set}"))]
    pool = list(st.clan_list)
    if options.clans is ClanChoice.CHOSEN:
        push(s, (T_CLAN_ASK, 0), (T_START,))
    else:
        if options.clans is ClanChoice.RANDOM:
            rng.shuffle(pool)
        s.clan = pool[:players]
        push(s, (T_START,))
    run(s, rng, log)
    s.setup_log = tuple(log)
    return s


@task(T_CLAN_ASK)
def _clan_ask(s: State, rng: Rng, log: Log, seat: int) -> None:
    s.phase = CLANS
    ask(s, D_CLAN, seat)


@decision(D_CLAN)
def _clan_legal(s: State, seat: int) -> list[Any]:
    return [ChooseClan(c) for c in sorted(s.settings.clan_list) if c not in s.clan]


@applies(D_CLAN)
def _clan_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    s.pending = None
    s.clan[seat] = action.clan
    line = log_line("takes_clan", c=seat_term(seat), c2=clan(action.clan, seat))
    log.append(public(line))
    if seat + 1 < s.players:
        push(s, (T_CLAN_ASK, seat + 1))


@task(T_START)
def _start(s: State, rng: Rng, log: Log) -> None:
    """Seating, the starting pieces, the shrines and the Mandate deck (rules §2, §4.1)."""
    s.order = sorted(range(s.players), key=lambda p: D.clans[s.clan[p]].rank)
    s.honor = s.order.copy()
    figs = D.game.figures
    start = D.game.start
    for seat in range(s.players):
        home = D.index[s.settings.homes[CLAN_NAMES[s.clan[seat]]]]
        counts = (
            (DAIMYO, figs.daimyo, start.daimyo),
            (SHINTO, figs.shinto, 0),
            (BUSHI, figs.bushi, start.bushi),
            (STRONGHOLD, figs.strongholds, start.strongholds),
        )
        for kind, total, placed in counts:
            for i in range(total):
                figures.new_piece(s, seat, kind, -1, home if i < placed else RESERVE)
    kami = list(range(len(D.kami)))
    rng.shuffle(kami)
    s.shrines = kami[: D.game.shrines.count]
    s.deck = list(s.settings.deck)
    rng.shuffle(s.deck)
    s.holder = s.honor[0]
    homes = s.settings.homes
    seats = [
        log_line("seated", c=who(s, p), c2=seat_term(p), p=province(D.index[homes[clan_name]]))
        for p in s.order
        for clan_name in [CLAN_NAMES[s.clan[p]]]
    ]
    log.append(public(log_line("seating", x=items(seats))))
    log.append(public(log_line("shrines", x=items([kami_term(k) for k in s.shrines]))))
    log.append(public(log_line("holds_deck", c=who(s, s.holder))))
    push(s, (T_SEASON, 0))


@task(T_SEASON)
def _season(s: State, rng: Rng, log: Log, season: int) -> None:
    """Seasonal Setup: Prepare for War, Set Season Cards, Seasonal Income, Return Hostages
    (rules §4.2; the order is DZ's and MGM's, §16.5)."""
    s.season = season
    s.turn = 0
    s.mt_by, s.mt_pool, s.mt_kept, s.mt_announced = [], [], [], []
    tokens = list(WAR_PROVINCES)
    rng.shuffle(tokens)
    s.war = tokens[: s.players + D.game.war_tokens.extra_over_players]
    s.war_next = 0
    new = D.cards_of(s.season_set, season)
    kept = s.display if s.options.carry_over_cards else []
    s.display = sorted(kept + new)
    log.append(public(log_line("season_begins", s=season_term(season))))
    log.append(public(war_numbers(s)))
    log.append(public(log_line("display", x=items([card(c) for c in s.display]))))
    push(
        s,
        (T_EVENT_OPEN,),
        (T_INCOME,),
        (T_EVENT_CLOSE,),
        (T_EVENT_OPEN,),
        (T_HOSTAGES_HOME,),
        (T_EVENT_CLOSE,),
        (T_TEA,),
        (T_POLITICAL,),
        (T_WAR_START,),
        (T_CLEANUP,),
    )


@task(T_INCOME)
def _income(s: State, rng: Rng, log: Log) -> None:
    for seat in s.order:
        income = s.settings.incomes[CLAN_NAMES[s.clan[seat]]]
        honor.gain_coins(s, seat, income, log)
    held = [log_line("clan_n", c=who(s, p), n=s.coins[p]) for p in s.order]
    log.append(public(log_line("income", x=items(held))))


@task(T_HOSTAGES_HOME)
def _hostages_home(s: State, rng: Rng, log: Log) -> None:
    return_hostages(s, log)


@task(T_POLITICAL)
def _political(s: State, rng: Rng, log: Log) -> None:
    """The next turn on the Political track: a Mandate Turn or a Kami Turn (§1, §6)."""
    s.phase = POLITICAL
    if s.turn >= len(TRACK):
        return
    kind = TRACK[s.turn]
    s.turn += 1
    push(s, (T_MANDATE_TURN,) if kind == "M" else (T_KAMI, 0), (T_POLITICAL,))


@task(T_CLEANUP)
def _cleanup(s: State, rng: Rng, log: Log) -> None:
    """Seasonal Cleanup (§4.2): Coins and Ronin to the pile, worshippers home, the Mandates
    reshuffled; map figures, hostages and alliances stay (alliances end at the next Tea
    Ceremony; the Autumn one lasts into Winter, §16.5, option ``alliance_into_winter``)."""
    s.coins = [0] * s.players
    s.ronin = [0] * s.players
    for f in range(len(s.loc)):
        if SHRINE <= s.loc[f] < SHRINE + 4:
            s.loc[f] = RESERVE
    s.deck = list(s.settings.deck)
    rng.shuffle(s.deck)
    s.drawn = []
    s.mt_by, s.mt_pool, s.mt_kept, s.mt_announced = [], [], [], []
    log.append(public(log_line("cleanup", c=who(s, s.holder))))
    if s.season + 1 < len(SEASON_NAMES) - 1:
        push(s, (T_SEASON, s.season + 1))
        return
    if not s.options.alliance_into_winter and any(a >= 0 for a in s.ally):
        s.ally = [-1] * s.players
        log.append(public(log_line("autumn_alliances_end")))
    push(s, (T_WINTER,))

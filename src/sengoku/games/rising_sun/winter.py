"""Winter: the final scoring (rules §4.3, §16.6, DZ winter, H) and the winner.

1. Hostages go home (their captors' Coin no longer matters).
2. Winter Upgrade cards score (the whole Winter scoring is one event: Loyalty adds to it only
   with option ``loyalty_in_winter``).
3. War Province tokens: 1 VP each from Spring, 2 from Summer, 3 from Autumn.
4. The set bonus for different provinces among one's tokens: 3-4 give 10 VP, 5-6 20, 7-8 30.
Most VP wins; a tie goes to the highest Honor; tied leaders who are allies share the win.
"""

from __future__ import annotations

from sengoku.core import Outcome, Rng, public

from . import cards, figures, honor
from .cards import CARDS
from .data import load_data
from .engine import Log, task
from .honor import who
from .state import HOSTAGE, OVER, RESERVE, WINTER, State
from .terms import card, figure, items, log_line

D = load_data()
VP_BY_SEASON = tuple(D.game.war_tokens.vp_by_season)
SET_BONUS = tuple(D.game.set_bonus.steps)

T_WINTER = 90

#: the parts of the final score, as view["breakdown"] lists them per seat
BREAKDOWN = ("seasons", "upgrades", "tokens", "set_bonus", "loyalty")


def return_hostages(s: State, log: Log) -> None:
    """Every hostage goes back to its owner's Reserve; its captor takes 1 Coin (rules §16.5)."""
    for f in range(len(s.loc)):
        if s.loc[f] >= HOSTAGE:
            captor = s.loc[f] - HOSTAGE
            s.loc[f] = RESERVE
            owner, piece = who(s, s.owner[f]), figure(figures.what(s, f))
            log.append(public(log_line("returns_home", c=owner, f=piece, c2=who(s, captor))))
            honor.gain_coins(s, captor, D.game.hostage_return.coins, log, "coins_hostage")


def upgrade_vp(s: State, seat: int, c: int) -> int:
    """What Winter Upgrade card ``c`` gives ``seat`` (rules §9)."""
    card = CARDS[c]
    vp = card.params.get("vp", 0)
    effect = card.effect
    if effect == "winter_per_stronghold":
        return vp * cards.strongholds_on_map(s, seat)
    if effect == "winter_per_virtue":
        return vp * cards.distinct_virtues(s, seat)
    if effect == "winter_per_monster":
        return vp * cards.monster_cards(s, seat)
    if effect == "winter_per_oni":
        return vp * cards.monster_cards(s, seat, oni_only=True)
    if effect == "winter_per_alliance":
        return vp * s.alliance_seasons[seat]
    if effect == "winter_per_lone_figure":
        return vp * sum(1 for p in range(8) if len(figures.figures_in(s, seat, p)) == 1)
    raise ValueError(f"{card.name} is not a Winter Upgrade")


def token_vp(s: State, seat: int) -> int:
    return sum(VP_BY_SEASON[t // 8] for t in s.tokens[seat])


def set_bonus(s: State, seat: int) -> int:
    """VP for the number of different provinces among ``seat``'s tokens."""
    distinct = len({t % 8 for t in s.tokens[seat]})
    bonus = 0
    for least, vp in SET_BONUS:
        if distinct >= least:
            bonus = vp
    return bonus


@task(T_WINTER)
def _winter(s: State, rng: Rng, log: Log) -> None:
    s.phase = WINTER
    log.append(public(log_line("winter")))
    return_hostages(s, log)
    honor.open_event(s)
    before = s.vp.copy()
    parts = [[before[p], 0, 0, 0, 0] for p in range(s.players)]
    for seat in range(s.players):
        for c in s.owned[seat]:
            if CARDS[c].type == "winter":
                vp = upgrade_vp(s, seat, c)
                parts[seat][1] += vp
                honor.gain_vp(s, seat, vp, log, "vp_card", d=card(c))
        tokens = token_vp(s, seat)
        parts[seat][2] = tokens
        honor.gain_vp(s, seat, tokens, log, "vp_tokens", n2=len(s.tokens[seat]))
        bonus = set_bonus(s, seat)
        parts[seat][3] = bonus
        distinct = len({t % 8 for t in s.tokens[seat]})
        honor.gain_vp(s, seat, bonus, log, "vp_set", n2=distinct)
    honor.close_event(s, log)
    for seat in range(s.players):
        parts[seat][4] = s.vp[seat] - sum(parts[seat][:4])
    s.breakdown = parts
    s.final = s.vp.copy()
    s.phase = OVER
    ranking = sorted(range(s.players), key=lambda p: (-s.vp[p], s.honor.index(p)))
    scores = items([log_line("clan_n", c=who(s, p), n=s.vp[p]) for p in ranking])
    log.append(public(log_line("final_score", x=scores)))
    winners = outcome_of(s).winners
    if len(winners) == 1:
        log.append(public(log_line("winner", c=who(s, winners[0]))))
    else:  # tied allied leaders share the win: two of them
        log.append(public(log_line("winners", c=who(s, winners[0]), c2=who(s, winners[1]))))


def outcome_of(s: State) -> Outcome:
    """Most VP; Honor breaks ties; tied allied leaders share the win (§16.6)."""
    assert s.final is not None
    n = s.players
    tiebreak = [[float(n - s.honor.index(p))] for p in range(n)]
    top = max(s.final)
    leaders = [p for p in range(n) if s.final[p] == top]
    first = honor.best(s, leaders)
    mate = s.ally[first]
    if mate in leaders and honor.allied_now(s, first):
        tiebreak[mate] = list(tiebreak[first])
    return Outcome.from_scores(s.final, tiebreak)

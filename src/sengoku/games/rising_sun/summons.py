"""Summoning and placing figures, and what follows them: cards that fire "after you Summon",
and Monsters that act on entering a province.

To Summon is to bring a figure from the Reserve onto the board by Recruit, by Raijin, or a
bought Monster's arrival; to Place (Path of the Kenin, the Samurai, the Light) is not a Summon
(rules §6.1, §12, H). One Summon instance (a whole Recruit, one arrival) is one trigger of the
"after you Summon" cards, which then fire in this order: the gains that depend on Honor first
(Path of the Spirit, the Patron, the Warlord), then the choices (the Kenin, the Monkey, the
Ninja), so no Honor lost to a Monkey or a Ninja spoils a Spirit (our reading).

A Monster "enters" a province whenever it arrives there: Summoned, Moved or put there by a
Betray (our reading of Oni of Hate and Oni of Spite, rules §9.2, §16.3.4).
"""

from __future__ import annotations

from typing import Any

from sengoku.core import Message, Rng, public

from . import cards, figures, honor
from .actions import (
    AT_KAMI,
    Choice,
    Kill,
    Place,
    Summon,
    choice,
)
from .cards import CARDS
from .engine import Log, applies, ask, decision, push, task
from .honor import who
from .state import (
    BUSHI,
    D_HATE,
    D_MONKEY,
    D_NINJA,
    D_PLACE,
    MONSTER,
    MONSTER_BASE,
    RESERVE,
    SHINTO,
    SHRINE,
    W_ANY,
    W_SHRINE,
    W_STRONGHOLD,
    State,
)
from .terms import counted, figure, kami, log_line, province

T_PLACE_ASK = 30
T_ENTER = 31
T_AFTER_SUMMON = 32
T_NINJA_ASK = 33
T_MONKEY_ASK = 34
T_HATE_KILL = 35

PLACE_NOTHING = choice("place nothing", "place_nothing")
SUMMON_NOTHING = choice("summon nothing", "summon_nothing")
KILL_NOTHING = choice("kill nothing", "kill_nothing")
TAKE_COIN = choice("take 1 coin from the richest", "take_coin")
TAKE_NO_COIN = choice("take no coin", "take_no_coin")


def reserve_piece(s: State, seat: int, what: int) -> int:
    """A piece of type ``what`` in ``seat``'s Reserve, or -1."""
    return figures.first(s, seat, what, RESERVE)


def worships(what: int) -> bool:
    """Whether a figure of this type may climb to a shrine when Summoned (Shinto, Komainu)."""
    return what == SHINTO or (what >= MONSTER_BASE and CARDS[what - MONSTER_BASE].counts_as_shinto)


def summon_options(s: State, seat: int, what: int, provinces: list[int]) -> list[Any]:
    """Summons of a ``what`` into ``provinces``, with the shrine climbs a Shinto may make.

    Dragonfly Summons anywhere, so where its Shinto passes on the way up does not matter: its
    climbs are listed once, from the first province offered."""
    out: list[Any] = [Summon(what, p) for p in provinces]
    if worships(what) and provinces:
        starts = provinces[:1] if honor.is_dragonfly(s, seat) else provinces
        out.extend(Summon(what, p, k) for p in starts for k in s.shrines)
    return out


def put(s: State, f: int, where: int) -> None:
    """Move piece ``f`` to a province or to the shrine of Kami ``where - AT_KAMI``."""
    s.loc[f] = SHRINE + s.shrines.index(where - AT_KAMI) if where >= AT_KAMI else where
    s.moves[f] = 0


def summon_line(s: State, seat: int, action: Summon) -> Message:
    """'Koi summons Shinto in Edo, who climbs to Hachiman's shrine'."""
    c, f, p = who(s, seat), figure(action.what), province(action.province)
    if action.kami >= 0:
        return log_line("summons_climbs", c=c, f=f, p=p, k=kami(action.kami))
    return log_line("summons", c=c, f=f, p=p)


# ---------------------------------------------------------------------- one placement


def _place_targets(s: State, seat: int, where: int, summon: bool) -> list[int]:
    if where == W_SHRINE:
        return [AT_KAMI + k for k in s.shrines]
    if where == W_ANY or (summon and honor.is_dragonfly(s, seat)):
        return list(range(figures.N_PROVINCES))
    return figures.stronghold_provinces(s, seat)


@task(T_PLACE_ASK)
def _place_ask(
    s: State, rng: Rng, log: Log, seat: int, what: int, where: int, summon: int, optional: int
) -> None:
    """Offer one Summon or Place of a ``what`` from the Reserve (Raijin, a Monster's arrival,
    the Kenin, the Samurai, the Light)."""
    if reserve_piece(s, seat, what) < 0 or not _place_targets(s, seat, where, bool(summon)):
        if not optional:
            log.append(public(log_line("stays_reserve", c=who(s, seat), f=figure(what))))
        return
    ask(s, D_PLACE, seat, what, where, summon, optional)


@decision(D_PLACE)
def _place_legal(s: State, seat: int) -> list[Any]:
    _, _, what, where, summon, optional = s.pending or ()
    targets = _place_targets(s, seat, where, bool(summon))
    out: list[Any] = (
        summon_options(s, seat, what, targets) if summon else [Place(what, t) for t in targets]
    )
    if optional:
        out.append(SUMMON_NOTHING if summon else PLACE_NOTHING)
    return out


@applies(D_PLACE)
def _place_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    s.pending = None
    if isinstance(action, Choice):
        return
    f = reserve_piece(s, seat, action.what)
    if isinstance(action, Summon):
        put(s, f, AT_KAMI + action.kami if action.kami >= 0 else action.province)
        log.append(public(summon_line(s, seat, action)))
        push(s, (T_ENTER, f), (T_AFTER_SUMMON, seat))
    else:
        put(s, f, action.where)
        where = action.where
        c, piece = who(s, seat), figure(action.what)
        if where >= AT_KAMI:
            line = log_line("places_shrine", c=c, f=piece, k=kami(where - AT_KAMI))
        else:
            line = log_line("places", c=c, f=piece, p=province(where))
        log.append(public(line))
        push(s, (T_ENTER, f))


# ---------------------------------------------------------------------- after a Summon


@task(T_AFTER_SUMMON)
def _after_summon(s: State, rng: Rng, log: Log, seat: int) -> None:
    """The cards that fire once per Summon instance (rules §9.2, §12)."""
    if cards.copies(s, seat, "summon_top_honor_gain") and s.honor[0] == seat:
        honor.gain_coins(
            s, seat, cards.total(s, seat, "summon_top_honor_gain", "coins"), log, "coins_spirit"
        )
        vp = cards.total(s, seat, "summon_top_honor_gain", "vp")
        honor.gain_vp(s, seat, vp, log, "vp_spirit")
    for c in s.owned[seat]:
        card = CARDS[c]
        if card.effect == "summon_honor_coins":
            below = len(s.honor) - 1 - honor.rank(s, seat)
            if below >= card.params["above"]:
                honor.gain_coins(s, seat, card.params["coins"], log, "coins_patron")
    coins = cards.total(s, seat, "summon_coins", "coins")
    honor.gain_coins(s, seat, coins, log, "coins_warlord")
    tasks: list[tuple[int, ...]] = []
    for c in s.owned[seat]:
        effect = CARDS[c].effect
        if effect == "summon_place_bushi":
            tasks.append((T_PLACE_ASK, seat, BUSHI, W_STRONGHOLD, 0, 1))
    tasks += [
        (T_MONKEY_ASK, seat, c) for c in s.owned[seat] if CARDS[c].effect == "summon_take_coin"
    ]
    tasks += [
        (T_NINJA_ASK, seat, c) for c in s.owned[seat] if CARDS[c].effect == "summon_kill_bushi"
    ]
    push(s, *tasks)


@task(T_MONKEY_ASK)
def _monkey_ask(s: State, rng: Rng, log: Log, seat: int, card: int) -> None:
    if any(s.coins[q] for q in range(s.players) if q != seat):
        ask(s, D_MONKEY, seat, card)


@decision(D_MONKEY)
def _monkey_legal(s: State, seat: int) -> list[Any]:
    if not any(s.coins[q] for q in range(s.players) if q != seat):
        return [TAKE_NO_COIN]
    return [TAKE_COIN, TAKE_NO_COIN]


@applies(D_MONKEY)
def _monkey_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    """Path of the Monkey: a Coin from each richest opponent, then Honor lost once (FAQ)."""
    _, _, card = s.pending or ()
    s.pending = None
    if action != TAKE_COIN:
        return
    params = CARDS[card].params
    others = [q for q in range(s.players) if q != seat]
    top = max(s.coins[q] for q in others)
    for q in others:
        if s.coins[q] == top:
            got = min(params["coins"], s.coins[q])
            s.coins[q] -= got
            s.coins[seat] += got
            line = log_line(counted("coins_monkey", got), c=who(s, seat), n=got, c2=who(s, q))
            log.append(public(line))
    honor.lose_honor(s, seat, params["honor"], log)


@task(T_NINJA_ASK)
def _ninja_ask(s: State, rng: Rng, log: Log, seat: int, card: int) -> None:
    if _bushi_on_map(s):
        ask(s, D_NINJA, seat, card)


def _bushi_on_map(s: State) -> list[tuple[int, int]]:
    return sorted(
        {
            (s.owner[f], s.loc[f])
            for f in range(len(s.loc))
            if s.kind[f] == BUSHI and 0 <= s.loc[f] < figures.N_PROVINCES
        }
    )


@decision(D_NINJA)
def _ninja_legal(s: State, seat: int) -> list[Any]:
    out: list[Any] = [Kill(s.clan[q], BUSHI, p) for q, p in _bushi_on_map(s)]
    out.append(KILL_NOTHING)
    return out


@applies(D_NINJA)
def _ninja_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    """Path of the Ninja: any one Bushi on the Map dies; dishonourable, so Honor is lost."""
    _, _, card = s.pending or ()
    s.pending = None
    if not isinstance(action, Kill):
        return
    victim = s.clan.index(action.clan)
    f = figures.find(s, victim, BUSHI, action.province)
    figures.kill(s, seat, [f], log, "killed_ninja", c=who(s, seat))
    honor.lose_honor(s, seat, CARDS[card].params["honor"], log)


# ---------------------------------------------------------------------- entering Monsters


@task(T_ENTER)
def _enter(s: State, rng: Rng, log: Log, f: int) -> None:
    """Oni of Hate and Oni of Spite act when they enter a province (rules §9.2, §16.3.4)."""
    if s.kind[f] != MONSTER or not 0 <= s.loc[f] < figures.N_PROVINCES:
        return
    card = CARDS[s.card[f]]
    owner, p = s.owner[f], s.loc[f]
    higher = [q for q in s.honor if honor.higher(s, q, owner)]
    if card.effect == "enter_kill_higher":
        push(s, *[(T_HATE_KILL, owner, q, p) for q in higher])
    elif card.effect == "enter_steal_vp":
        for q in higher:
            if q in figures.present(s, p):
                honor.steal_vp(s, owner, q, card.params["vp"], log, s.card[f])


def _hate_victims(s: State, victim: int, p: int) -> list[int]:
    """The kinds of ``victim``'s figures in ``p`` an Oni of Hate may kill: Bushi, Shinto."""
    kinds = {s.kind[f] for f in figures.figures_in(s, victim, p)}
    return [k for k in (BUSHI, SHINTO) if k in kinds]


@task(T_HATE_KILL)
def _hate_kill(s: State, rng: Rng, log: Log, owner: int, victim: int, p: int) -> None:
    kinds = _hate_victims(s, victim, p)
    if len(kinds) == 2:
        ask(s, D_HATE, owner, victim, p)
    elif kinds:
        f = figures.find(s, victim, kinds[0], p)
        figures.kill(s, owner, [f], log, "killed_hate", c=who(s, owner))


@decision(D_HATE)
def _hate_legal(s: State, seat: int) -> list[Any]:
    _, _, victim, p = s.pending or ()
    return [Kill(s.clan[victim], k, p) for k in _hate_victims(s, victim, p)]


@applies(D_HATE)
def _hate_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    _, _, victim, p = s.pending or ()
    s.pending = None
    f = figures.find(s, victim, action.what, p)
    figures.kill(s, seat, [f], log, "killed_hate", c=who(s, seat))

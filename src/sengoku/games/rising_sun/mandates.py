"""The Mandate Turns of the Political Phase (rules §6.1, §6.2 and the seed's Political Mandates
chapter, H).

The deck holder draws the top 4 tiles, keeps 1 and puts the other 3 back on top face down;
Lotus keeps its tile face down and announces any Mandate (Dictate the Flow). Every clan then
carries the Mandate out, clockwise from the selector's left with the selector last, except
Train, where the selector goes first. The selector and its ally also get the Bonus. The whole
Mandate is one event (§12). Afterwards the deck passes to the left.
"""

from __future__ import annotations

from typing import Any

from sengoku.core import Rng, private, public

from . import cards, figures, honor
from .actions import (
    AT_KAMI,
    BENEVOLENCE,
    GENEROSITY,
    MANDATE_NAMES,
    Announce,
    Build,
    Buy,
    Choice,
    Give,
    Keep,
    Move,
    Replace,
    choice,
)
from .cards import CARDS
from .data import load_data
from .engine import QUIET, Log, applies, ask, ask_with, decision, found_for, push, task
from .honor import T_EVENT_CLOSE, T_EVENT_OPEN, who
from .state import (
    BETRAY,
    BUSHI,
    D_ANNOUNCE,
    D_BENEVOLENCE,
    D_BETRAY,
    D_BUILD,
    D_BUY,
    D_GEN_ANSWER,
    D_GENEROSITY,
    D_KEEP,
    D_MOVE,
    D_RECRUIT,
    HARVEST,
    M_MARSHAL,
    M_NAGINATA,
    MARSHAL,
    MONSTER,
    MONSTER_BASE,
    RECRUIT,
    RESERVE,
    SHINTO,
    SHRINE,
    STRONGHOLD,
    TRAIN,
    W_ANY,
    W_SHRINE,
    W_STRONGHOLD,
    State,
)
from .summons import (
    T_AFTER_SUMMON,
    T_ENTER,
    T_PLACE_ASK,
    reserve_piece,
    summon_line,
    summon_options,
)
from .terms import card as card_term
from .terms import card_named, counted, figure, items, kami, log_line, province
from .terms import mandate as mandate_term

D = load_data()
STRONGHOLD_COST = D.game.stronghold_cost.coins

T_MANDATE_TURN = 40
T_SELECTED = 41
T_EXEC = 42
T_RECRUIT_ASK = 43
T_MOVE_ASK = 44
T_BUILD_ASK = 45
T_TRAIN_ASK = 46
T_BENEVOLENCE_ASK = 47
T_BETRAY_ASK = 48
T_RECRUIT_END = 49
T_GENEROSITY_ASK = 50
T_PASS_DECK = 51

END_RECRUIT = choice("end recruit", "end_recruit")
END_MOVES = choice("end moves", "end_moves")
BUILD_NOTHING = choice("build nothing", "build_nothing")
BUY_NOTHING = choice("buy nothing", "buy_nothing")
GIVE_NO_COIN = choice("give no spent coin", "give_no_spent")
END_BETRAYAL = choice("end betrayal", "end_betrayal")
OFFER_NO_COIN = choice("offer no coin", "offer_no_coin")
ACCEPT_COIN = choice("accept the coin", "accept_coin")
REFUSE_COIN = choice("refuse the coin", "refuse_coin")


def bonus_for(s: State, seat: int, selector: int) -> bool:
    """The selector and its current ally get a Mandate's Bonus (§6.1)."""
    return seat == selector or s.ally[selector] == seat


def price(s: State, seat: int, cost: int, discount: int) -> int:
    """What ``seat`` pays: Bonsai pays at most 1 (Sacred Bounty), then discounts (§2.3)."""
    if honor.is_bonsai(s, seat):
        cost = min(cost, 1)
    return max(0, cost - discount)


# ---------------------------------------------------------------------- the Mandate Turn


@task(T_MANDATE_TURN)
def _mandate_turn(s: State, rng: Rng, log: Log) -> None:
    n = min(D.game.mandates.draw, len(s.deck))
    s.drawn = s.deck[:n]
    s.deck = s.deck[n:]
    ask(s, D_KEEP, s.holder)


@decision(D_KEEP)
def _keep_legal(s: State, seat: int) -> list[Any]:
    return [Keep(m) for m in sorted(set(s.drawn))]


@applies(D_KEEP)
def _keep_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    s.pending = None
    pool = s.drawn
    kept = pool.pop(pool.index(action.mandate))
    s.mt_by.append(seat)
    s.mt_pool.append(sorted([kept, *pool]))
    s.mt_kept.append(kept)
    s.deck = pool + s.deck
    s.drawn = []
    c, m = who(s, seat), mandate_term(kept)
    if log is QUIET:
        pass
    elif pool:
        back = items([mandate_term(x) for x in pool])
        log.append(private(log_line("keeps", c=c, m=m, x=back), seat))
    else:
        log.append(private(log_line("keeps_only", c=c, m=m), seat))
    if honor.is_lotus(s, seat):
        s.mt_announced.append(-1)
        log.append(public(log_line("face_down", c=c)))
        ask(s, D_ANNOUNCE, seat)
        return
    s.mt_announced.append(kept)
    select(s, seat, kept, log)


@decision(D_ANNOUNCE)
def _announce_legal(s: State, seat: int) -> list[Any]:
    return [Announce(m) for m in range(len(MANDATE_NAMES))]


@applies(D_ANNOUNCE)
def _announce_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    s.pending = None
    s.mt_announced[-1] = action.mandate
    select(s, seat, action.mandate, log)


def select(s: State, selector: int, mandate: int, log: Log) -> None:
    """The Mandate is on the track: everything it does, as tasks (§6.1)."""
    key = "announces" if honor.is_lotus(s, selector) else "selects"
    if mandate == HARVEST:
        key += "_harvest"
    log.append(public(log_line(key, c=who(s, selector), m=mandate_term(mandate))))
    if mandate == TRAIN:
        order = honor.clockwise_from(s, selector)
    else:
        order = honor.clockwise_from(s, honor.left(s, selector))
    tasks: list[tuple[int, ...]] = [(T_EVENT_OPEN,), (T_SELECTED, mandate, selector)]
    if mandate != BETRAY:
        tasks += [(T_EXEC, mandate, seat, selector) for seat in order]
    if mandate == RECRUIT:
        tasks.append((T_RECRUIT_END, selector))
    tasks.append((T_EVENT_CLOSE,))
    tasks += [
        (T_GENEROSITY_ASK, selector, c)
        for c in s.owned[selector]
        if CARDS[c].effect == "mandate_offer_coin"
    ]
    tasks.append((T_PASS_DECK,))
    push(s, *tasks)


@task(T_SELECTED)
def _selected(s: State, rng: Rng, log: Log, mandate: int, selector: int) -> None:
    """What selecting does by itself: Honesty; Betray's broken alliance and Honor (§6.2)."""
    if mandate != BETRAY:
        if s.ally[selector] >= 0:
            vp = cards.total(s, selector, "allied_select_vp", "vp")
            honor.gain_vp(s, selector, vp, log, "vp_card", d=card_named("Honesty"))
        return
    ally = s.ally[selector]
    if ally >= 0:
        s.ally[selector] = s.ally[ally] = -1
        log.append(public(log_line("breaks_alliance", c=who(s, selector), c2=who(s, ally))))
        honor.lose_honor(s, selector, 1, log)
    honor.gain_coins(
        s, selector, cards.total(s, selector, "betray_coins", "coins"), log, "coins_shadow"
    )
    s.picked = []
    s.extra_used = 0
    push(s, (T_BETRAY_ASK, selector))


@task(T_EXEC)
def _execute(s: State, rng: Rng, log: Log, mandate: int, seat: int, selector: int) -> None:
    bonus = bonus_for(s, seat, selector)
    if mandate == RECRUIT:
        provinces = figures.stronghold_provinces(s, seat)
        s.slots = [0] * 8
        s.summoned = 0
        if honor.is_dragonfly(s, seat):
            count = cards.strongholds_on_map(s, seat)
            s.slot_any = count + (1 if bonus and count else 0)
        else:
            for f in range(len(s.loc)):
                if s.owner[f] == seat and s.kind[f] == STRONGHOLD and 0 <= s.loc[f] < 8:
                    s.slots[s.loc[f]] += 1
            s.slot_any = 1 if bonus and provinces else 0
        push(s, (T_RECRUIT_ASK, seat))
    elif mandate == MARSHAL:
        for f in range(len(s.moves)):
            s.moves[f] = 0
        tasks: list[tuple[int, ...]] = [(T_MOVE_ASK, seat, M_MARSHAL, -1)]
        if bonus:
            tasks.append((T_BUILD_ASK, seat))
        push(s, *tasks)
    elif mandate == TRAIN:
        push(s, (T_TRAIN_ASK, seat, 1 if bonus else 0))
    elif mandate == HARVEST:
        honor.gain_coins(s, seat, 1, log)
        if bonus:
            harvest(s, seat, log)


def harvest(s: State, seat: int, log: Log) -> None:
    """Harvest Bonus: the reward of every province where ``seat`` has the most Force (a tie
    goes to Honor), all in one gain (§6.2, seed Harvest example)."""
    won = [p for p in range(8) if figures.strongest(s, figures.forces(s, p, False)) == seat]
    vp = sum(D.provinces[p].reward.vp for p in won)
    coins = sum(D.provinces[p].reward.coins for p in won)
    ronin = sum(D.provinces[p].reward.ronin for p in won)
    coins = honor.from_pile(s, s.coins, D.game.supply.coins, coins)  # what is left of them
    ronin = honor.from_pile(s, s.ronin, D.game.supply.ronin, ronin)
    if not won:
        log.append(public(log_line("harvests_nothing", c=who(s, seat))))
        return
    where = items([province(p) for p in won])
    line = log_line(counted("harvests", coins), c=who(s, seat), x=where, n=vp, n2=coins, n3=ronin)
    log.append(public(line))
    honor.gain_vp(s, seat, vp, log)
    honor.gain_coins(s, seat, coins, log)
    honor.gain_ronin(s, seat, ronin, log)


# ---------------------------------------------------------------------- Recruit


def _recruit_provinces(s: State, seat: int) -> list[int]:
    if honor.is_dragonfly(s, seat):
        return list(range(8)) if s.slot_any > 0 else []
    strongholds = figures.stronghold_provinces(s, seat)
    return [p for p in strongholds if s.slots[p] > 0 or s.slot_any > 0]


def _reserve_types(s: State, seat: int) -> list[int]:
    owner, kind, card = s.owner, s.kind, s.card
    types: set[int] = set()
    for f in figures.by_location(s)[RESERVE]:
        if owner[f] == seat:
            k = kind[f]
            if k != STRONGHOLD:
                types.add(MONSTER_BASE + card[f] if k == MONSTER else k)
    return sorted(types)


@task(T_RECRUIT_ASK)
def _recruit_ask(s: State, rng: Rng, log: Log, seat: int) -> None:
    provinces = _recruit_provinces(s, seat)
    types = _reserve_types(s, seat) if provinces else []
    if types:
        ask_with(s, (provinces, types), D_RECRUIT, seat)
    elif s.summoned:
        push(s, (T_AFTER_SUMMON, seat))


@decision(D_RECRUIT)
def _recruit_legal(s: State, seat: int) -> list[Any]:
    found = found_for(s)
    provinces, types = found or (_recruit_provinces(s, seat), _reserve_types(s, seat))
    out: list[Any] = []
    for what in types:
        out += summon_options(s, seat, what, provinces)
    out.append(END_RECRUIT)
    return out


@applies(D_RECRUIT)
def _recruit_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    s.pending = None
    if isinstance(action, Choice):
        if s.summoned:
            push(s, (T_AFTER_SUMMON, seat))
        return
    p = action.province
    if s.slots[p] > 0:
        s.slots[p] -= 1
    else:
        s.slot_any -= 1
    f = reserve_piece(s, seat, action.what)
    s.loc[f] = SHRINE + s.shrines.index(action.kami) if action.kami >= 0 else p
    s.summoned += 1
    if log is not QUIET:
        log.append(public(summon_line(s, seat, action)))
    push(s, (T_ENTER, f), (T_RECRUIT_ASK, seat))


@task(T_RECRUIT_END)
def _recruit_end(s: State, rng: Rng, log: Log, selector: int) -> None:
    """'At the end of Recruit' cards, once every clan has recruited (§6.1 FAQ: end-of-Mandate
    effects come after every player): Path of the Light, Path of the Samurai."""
    tasks: list[tuple[int, ...]] = []
    for seat in honor.clockwise_from(s, honor.left(s, selector)):
        for c in s.owned[seat]:
            if CARDS[c].effect == "recruit_end_shinto":
                tasks.append((T_PLACE_ASK, seat, SHINTO, W_SHRINE, 0, 1))
            elif CARDS[c].effect == "recruit_end_bushi":
                tasks.append((T_PLACE_ASK, seat, BUSHI, W_ANY, 0, 1))
    push(s, *tasks)


# ---------------------------------------------------------------------- Marshal, Fujin, Naginata


def _moves(s: State, seat: int, context: int) -> list[Move]:
    """Every Move open to ``seat``, sorted: Marshal (each figure once, Turtle's Strongholds
    too), Fujin (any figure, twice if it likes), Way of Naginata (a Bushi to any province). A
    Shipping Route is closed to a clan that cannot pay the Serpents' tolls (figures.toll)."""
    anywhere = context == M_NAGINATA or honor.is_dragonfly(s, seat)
    turtle = honor.is_turtle(s, seat)
    fee = 0 if anywhere else sum(c for _, c in figures.route_fees(s, seat))
    routes_open = fee <= s.coins[seat]
    board = s.board
    owner, kind, loc, card, moved = s.owner, s.kind, s.loc, s.card, s.moves
    seen: set[tuple[int, int]] = set()
    out: list[Move] = []
    index = figures.by_location(s)
    # the provinces in turn (the Moves are sorted at the end)
    for f in [f for p in range(8) for f in index[p]]:
        src = loc[f]
        if owner[f] != seat:
            continue
        k = kind[f]
        if (k == STRONGHOLD and not turtle) or (context == M_MARSHAL and moved[f]):
            continue
        if context == M_NAGINATA and k != BUSHI:
            continue
        key = (MONSTER_BASE + card[f] if k == MONSTER else k, src)
        if key in seen:
            continue
        seen.add(key)
        targets = [q for q in range(8) if q != src] if anywhere else board.neighbours[src]
        for dst in targets:
            if routes_open or anywhere or not board.is_route(src, dst):
                out.append(Move(key[0], src, dst))
    out.sort()
    return out


@task(T_MOVE_ASK)
def _move_ask(s: State, rng: Rng, log: Log, seat: int, context: int, left: int) -> None:
    if left != 0:
        moves = _moves(s, seat, context)
        if moves:
            ask_with(s, moves, D_MOVE, seat, context, left)


@decision(D_MOVE)
def _move_legal(s: State, seat: int) -> list[Any]:
    _, _, context, _ = s.pending or ()
    return [*(found_for(s) or _moves(s, seat, context)), END_MOVES]


@applies(D_MOVE)
def _move_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    _, _, context, left = s.pending or ()
    s.pending = None
    if isinstance(action, Choice):
        return
    f = figures.find(s, seat, action.what, action.src, unmoved=context == M_MARSHAL)
    move = {
        "c": who(s, seat),
        "f": figure(action.what),
        "p": province(action.src),
        "p2": province(action.dst),
    }
    tolls = [] if context == M_NAGINATA else figures.toll(s, seat, action.src, action.dst)
    if len(tolls) > 1:  # pragma: no cover - the Season sets hold one Path of the Serpent
        raise AssertionError("one Move pays one toll")
    for owner, coins in tolls:
        s.coins[seat] -= coins
        s.coins[owner] += coins
        line = log_line(counted("moves_toll", coins), c2=who(s, owner), n=coins, **move)
        log.append(public(line))
    if not tolls:
        log.append(public(log_line("moves", **move)))
    s.loc[f] = action.dst
    s.moves[f] += 1
    push(s, (T_ENTER, f), (T_MOVE_ASK, seat, context, left - 1 if left > 0 else -1))


@task(T_BUILD_ASK)
def _build_ask(s: State, rng: Rng, log: Log, seat: int) -> None:
    if figures.strongholds_in_reserve(s, seat) and s.coins[seat] >= price(
        s, seat, STRONGHOLD_COST, 0
    ):
        ask(s, D_BUILD, seat)


@decision(D_BUILD)
def _build_legal(s: State, seat: int) -> list[Any]:
    if s.coins[seat] < price(s, seat, STRONGHOLD_COST, 0):  # gifts may have spent the Coins
        return [BUILD_NOTHING]
    return [*(Build(p) for p in range(8)), BUILD_NOTHING]


@applies(D_BUILD)
def _build_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    s.pending = None
    if isinstance(action, Choice):
        return
    cost = price(s, seat, STRONGHOLD_COST, 0)
    s.coins[seat] -= cost
    f = figures.find(s, seat, STRONGHOLD, RESERVE)
    s.loc[f] = action.province
    line = log_line(counted("builds", cost), c=who(s, seat), p=province(action.province), n=cost)
    log.append(public(line))
    push(s, (T_BENEVOLENCE_ASK, seat, cost))


# ---------------------------------------------------------------------- Train (and Ryujin)


def _affordable(s: State, seat: int, discount: int) -> list[int]:
    """One card of each name on display that ``seat`` can pay for: of two copies (Tower's
    Ways of Naginata cost 1 and 0) the cheaper, which has the same effect."""
    cheapest: dict[str, int] = {}
    for c in sorted(s.display):
        name_ = CARDS[c].name
        if name_ not in cheapest or CARDS[c].cost < CARDS[cheapest[name_]].cost:
            cheapest[name_] = c
    return sorted(
        c for c in cheapest.values() if price(s, seat, CARDS[c].cost, discount) <= s.coins[seat]
    )


@task(T_TRAIN_ASK)
def _train_ask(s: State, rng: Rng, log: Log, seat: int, discount: int) -> None:
    cards_ = _affordable(s, seat, discount)
    if cards_:
        ask_with(s, cards_, D_BUY, seat, discount)


@decision(D_BUY)
def _buy_legal(s: State, seat: int) -> list[Any]:
    _, _, discount = s.pending or ()
    return [*(Buy(c) for c in found_for(s) or _affordable(s, seat, discount)), BUY_NOTHING]


@applies(D_BUY)
def _buy_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    """The card is the clan's at once; a Monster arrives and is Summoned (§6.2)."""
    _, _, discount = s.pending or ()
    s.pending = None
    if isinstance(action, Choice):
        return
    card = CARDS[action.card]
    cost = price(s, seat, card.cost, discount)
    s.coins[seat] -= cost
    s.display.remove(action.card)
    s.owned[seat].append(action.card)
    if log is not QUIET:
        line = log_line(counted("buys", cost), c=who(s, seat), d=card_term(action.card), n=cost)
        log.append(public(line))
    tasks: list[tuple[int, ...]] = [(T_BENEVOLENCE_ASK, seat, cost)]
    if card.type == "monster":
        figures.new_piece(s, seat, MONSTER, action.card, RESERVE)
        tasks.append((T_PLACE_ASK, seat, MONSTER_BASE + action.card, W_STRONGHOLD, 1, 0))
    push(s, *tasks)


@task(T_BENEVOLENCE_ASK)
def _benevolence_ask(s: State, rng: Rng, log: Log, seat: int, left: int) -> None:
    """Benevolence: 1 of the Coins just spent may go to another clan instead of the pile,
    once per copy and Coin (FAQ)."""
    left = min(left, cards.copies(s, seat, "spend_gift"))
    if left > 0:
        ask(s, D_BENEVOLENCE, seat, left)


@decision(D_BENEVOLENCE)
def _benevolence_legal(s: State, seat: int) -> list[Any]:
    others = [Give(BENEVOLENCE, s.clan[q]) for q in range(s.players) if q != seat]
    return [*others, GIVE_NO_COIN]


@applies(D_BENEVOLENCE)
def _benevolence_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    _, _, left = s.pending or ()
    s.pending = None
    if isinstance(action, Choice):
        return
    target = s.clan.index(action.clan)
    s.coins[target] += honor.from_pile(s, s.coins, D.game.supply.coins, 1)
    card = next(CARDS[c] for c in s.owned[seat] if CARDS[c].effect == "spend_gift")
    log.append(public(log_line("benevolence", c=who(s, seat), c2=who(s, target))))
    honor.gain_honor(s, seat, card.params["honor"], log)
    honor.gain_vp(s, seat, card.params["vp"], log, "vp_card", d=card_named("Benevolence"))
    push(s, (T_BENEVOLENCE_ASK, seat, left - 1))


# ---------------------------------------------------------------------- Betray


def _betray_targets(s: State, seat: int) -> list[Replace]:
    """Up to 2 figures of 2 different opponents on the Map, each for a figure of the same type
    from the betrayer's Reserve; Daimyo (and Yurei) and Shinto on shrines are immune; any
    Monster replaces any Monster; Komainu counts as a Monster and a Shinto (§6.2, FAQ). Path
    of the Unrighteous adds a figure per card, of any clan, even a Shinto on a shrine. Sorted."""
    extras = cards.total(s, seat, "betray_extra", "figures")
    mine = _reserve_types(s, seat)
    monsters = [w for w in mine if w >= MONSTER_BASE]
    shintos = [w for w in mine if w == SHINTO or (w in monsters and _komainu(w))]
    seen: set[tuple[int, int, int]] = set()
    out: list[Replace] = []
    index = figures.by_location(s)
    # the Map and the shrines in turn, not the Reserves or hostages (sorted at the end)
    for loc, f in [(at, f) for at in range(SHRINE + 4) for f in index[at]]:
        on_map = loc < 8
        on_shrine = not on_map
        owner = s.owner[f]
        if owner == seat or s.kind[f] == STRONGHOLD or figures.daimyo_like(s, f):
            continue
        standard = on_map and len(s.picked) < 2 and owner not in s.picked
        extra = s.extra_used < extras and (on_map or on_shrine)
        if not (standard or extra):
            continue
        target = figures.what(s, f)
        key = (owner, target, loc)
        if key in seen:
            continue
        seen.add(key)
        if on_shrine:
            options = shintos
        elif target == BUSHI:
            options = [w for w in mine if w == BUSHI]
        elif target == SHINTO:
            options = shintos
        elif _komainu(target):
            options = sorted({*shintos, *monsters})
        else:
            options = monsters
        where = AT_KAMI + s.shrines[loc - SHRINE] if on_shrine else loc
        out += [Replace(s.clan[owner], target, where, w) for w in options]
    out.sort()
    return out


def _komainu(what: int) -> bool:
    return what >= MONSTER_BASE and CARDS[what - MONSTER_BASE].counts_as_shinto


@task(T_BETRAY_ASK)
def _betray_ask(s: State, rng: Rng, log: Log, seat: int) -> None:
    targets = _betray_targets(s, seat)
    if targets:
        ask_with(s, targets, D_BETRAY, seat)


@decision(D_BETRAY)
def _betray_legal(s: State, seat: int) -> list[Any]:
    return [*(found_for(s) or _betray_targets(s, seat)), END_BETRAYAL]


@applies(D_BETRAY)
def _betray_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    """Replacing is not killing (the figure goes back to its owner's Reserve) and not a
    Summon (no Shinto climbs)."""
    s.pending = None
    if isinstance(action, Choice):
        return
    owner = s.clan.index(action.clan)
    where = action.where
    loc = SHRINE + s.shrines.index(where - AT_KAMI) if where >= AT_KAMI else where
    f = figures.find(s, owner, action.what, loc)
    g = reserve_piece(s, seat, action.with_what)
    if 0 <= loc < 8 and len(s.picked) < 2 and owner not in s.picked:
        s.picked.append(owner)
    else:
        s.extra_used += 1
    s.loc[f] = RESERVE
    s.moves[f] = 0
    s.loc[g] = loc
    args = {
        "c": who(s, seat),
        "c2": who(s, owner),
        "f": figure(action.what),
        "f2": figure(action.with_what),
    }
    if where >= AT_KAMI:
        line = log_line("replaces_shrine", k=kami(where - AT_KAMI), **args)
    else:
        line = log_line("replaces", p=province(where), **args)
    log.append(public(line))
    push(s, (T_ENTER, g), (T_BETRAY_ASK, seat))


# ---------------------------------------------------------------------- Generosity, the deck


@task(T_GENEROSITY_ASK)
def _generosity_ask(s: State, rng: Rng, log: Log, seat: int, card: int) -> None:
    if s.coins[seat] >= CARDS[card].params["coins"]:
        ask(s, D_GENEROSITY, seat, card)


@decision(D_GENEROSITY)
def _generosity_legal(s: State, seat: int) -> list[Any]:
    _, _, card = s.pending or ()
    if s.coins[seat] < CARDS[card].params["coins"]:  # gifts may have spent the Coins
        return [OFFER_NO_COIN]
    return [*(Give(GENEROSITY, s.clan[q]) for q in range(s.players) if q != seat), OFFER_NO_COIN]


@applies(D_GENEROSITY)
def _generosity_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    _, _, card = s.pending or ()
    s.pending = None
    if isinstance(action, Choice):
        return
    target = s.clan.index(action.clan)
    log.append(public(log_line("generosity", c=who(s, seat), c2=who(s, target))))
    ask(s, D_GEN_ANSWER, target, seat, card)


@decision(D_GEN_ANSWER)
def _gen_answer_legal(s: State, seat: int) -> list[Any]:
    return [ACCEPT_COIN, REFUSE_COIN]


@applies(D_GEN_ANSWER)
def _gen_answer_apply(s: State, rng: Rng, log: Log, seat: int, action: Any) -> None:
    _, _, giver, card = s.pending or ()
    s.pending = None
    if action != ACCEPT_COIN:
        log.append(public(log_line("refuses_coin", c=who(s, seat))))
        return
    coins = CARDS[card].params["coins"]
    s.coins[giver] -= coins
    s.coins[seat] += coins
    line = log_line(counted("accepts_coin", coins), c=who(s, seat), n=coins, c2=who(s, giver))
    log.append(public(line))
    honor.gain_honor(s, giver, CARDS[card].params["honor"], log)


@task(T_PASS_DECK)
def _pass_deck(s: State, rng: Rng, log: Log) -> None:
    s.holder = honor.left(s, s.holder)

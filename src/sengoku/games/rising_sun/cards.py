"""The Season cards' effects, keyed by the ``effect`` of each card in ``data/cards.json``.

A card's numbers (Coins, VP, Force) are its ``params`` in the data, so a corrected card text is
a data change; :data:`EFFECTS` says, for each effect key, when the rules consult it (rules §12,
§15.5, §16.3). Having a card means owning it: Monster and Oni cards count whether or not the
figure is on the board, Strongholds count only on the Map (§15.5, DZ "having" ruling, H).

>>> from .data import load_data
>>> sorted({c.effect for c in load_data().cards}) == sorted(EFFECTS)
True
>>> EFFECTS["allied_vp_bonus"]
'whenever its owner gains VP while allied: +vp VP, once per event (Loyalty, FAQ)'
"""

from __future__ import annotations

from .data import Card, load_data
from .state import STRONGHOLD, State

D = load_data()
CARDS: tuple[Card, ...] = tuple(D.cards)

#: Every effect key, with when the engine applies it (the module that does it in brackets).
EFFECTS: dict[str, str] = {
    "monster": "a Monster figure with the card's Force (figures)",
    "lowest_honor_force": "Force = params force where its owner has the lowest Honor, else its "
    "card Force (figures)",
    "daimyo_force": "its owner's Daimyo have +force Force (figures)",
    "bushi_war_force": "its owner's Bushi have Force = force during the War Phase (figures)",
    "bushi_oni_force": "its owner's Bushi have +force Force in a province with any Oni (figures)",
    "own_killed_vp": "+vp VP for each of its owner's figures killed, Seppuku included (figures)",
    "kill_lower_honor_vp": "+vp VP when its owner kills figures of a lower-Honor clan, per "
    "such clan (figures)",
    "enemy_oni_killed_vp": "+vp VP per Oni of another clan its owner kills in a Battle's "
    "outcome (war)",
    "extra_hostage": "+hostages hostage when its owner wins Take Hostage (war)",
    "spare_vp": "when its owner would kill the losers of a Battle, it may spare them all for "
    "+vp VP (war)",
    "token_vp": "+vp VP each time its owner takes a War Province token (war)",
    "win_battle_vp_per_oni": "Oni of Souls: when its owner wins a Battle with it, +vp VP per Oni "
    "card owned (war)",
    "war_coins": "start of War: +coins Coins (war)",
    "war_ronin": "start of War: +ronin Ronin (war)",
    "war_per_virtue": "start of War: +coins Coins and +vp VP per different Virtue owned (war)",
    "war_take_from_lower": "start of War: take coins Coin from each clan with less Honor (war)",
    "war_move_bushi": "start of War: may move 1 own Bushi to any province (war)",
    "route_toll": "a clan that moves one of its figures over a Shipping Route pays its owner "
    "coins Coin (figures)",
    "spend_gift": "when its owner spends Coins on a card or Stronghold, it may give 1 of them "
    "to another clan for +honor Honor and +vp VP, per card (summons)",
    "summon_place_bushi": "after its owner Summons: may place a Bushi at one of its "
    "Strongholds (summons)",
    "summon_kill_bushi": "after its owner Summons: may kill any Bushi on the Map and lose "
    "honor Honor (summons)",
    "summon_take_coin": "after its owner Summons: may take coins Coin from the richest "
    "opponent(s) and lose honor Honor once (summons)",
    "summon_top_honor_gain": "after its owner Summons: +coins Coins and +vp VP if it has the "
    "highest Honor (summons)",
    "summon_honor_coins": "after its owner Summons: +coins Coins if its Honor is above at least "
    "'above' clans (summons)",
    "summon_coins": "after its owner Summons: +coins Coins (summons)",
    "recruit_end_shinto": "at the end of a Recruit: may place a Shinto on a shrine (mandates)",
    "recruit_end_bushi": "at the end of a Recruit: may place a Bushi in any province (mandates)",
    "allied_select_vp": "+vp VP when its owner, allied, selects a Mandate other than Betray "
    "(mandates)",
    "allied_vp_bonus": "whenever its owner gains VP while allied: +vp VP, once per event "
    "(Loyalty, FAQ)",
    "merchant": "whenever a richer clan takes Coins from the pile: +coins Coin, once per event "
    "(honor)",
    "betray_extra": "each Betray may replace figures more figure of any clan, even a Shinto on "
    "a shrine (mandates)",
    "betray_coins": "+coins Coins when its owner selects Betray (mandates)",
    "mandate_offer_coin": "after its owner selects a Mandate: may offer coins Coin to a clan; "
    "if accepted, +honor Honor (mandates)",
    "shrine_buy_vp": "after its owner wins a shrine: may pay coins Coins for vp VP (kami)",
    "enter_kill_higher": "Oni of Hate: on entering a province, kills 1 Bushi or Shinto of each "
    "clan of higher Honor there (summons)",
    "enter_steal_vp": "Oni of Spite: on entering a province, steals vp VP from each clan of "
    "higher Honor with Force there (summons)",
    "winter_per_stronghold": "Winter: +vp VP per own Stronghold on the Map (winter)",
    "winter_per_virtue": "Winter: +vp VP per different Virtue owned (winter)",
    "winter_per_monster": "Winter: +vp VP per Monster card owned (winter)",
    "winter_per_oni": "Winter: +vp VP per Oni card owned (winter)",
    "winter_per_alliance": "Winter: +vp VP per Season (Spring-Autumn) in which its owner "
    "formed an alliance (winter)",
    "winter_per_lone_figure": "Winter: +vp VP per province where its owner has exactly 1 "
    "figure (winter)",
}

_unknown = sorted({c.effect for c in CARDS} - set(EFFECTS))
if _unknown:  # a data file naming an effect the engine does not have
    raise ValueError(f"cards.json names unknown effects: {_unknown}")


#: Each card's ``effect``, by card index (read on hot paths instead of the whole card).
EFFECT: tuple[str, ...] = tuple(c.effect for c in CARDS)
#: Each card's ``type`` ("monster", "virtue", "winter", ...), by card index.
CARD_TYPE: tuple[str, ...] = tuple(c.type for c in CARDS)


def copies(s: State, seat: int, effect: str) -> int:
    """How many cards with ``effect`` ``seat`` owns."""
    n = 0
    for c in s.owned[seat]:
        if EFFECT[c] == effect:
            n += 1
    return n


def total(s: State, seat: int, effect: str, param: str) -> int:
    """The sum of ``param`` over ``seat``'s cards with ``effect`` (copies stack)."""
    n = 0
    for c in s.owned[seat]:
        if EFFECT[c] == effect:
            n += CARDS[c].params[param]
    return n


def owners(s: State, effect: str) -> list[int]:
    """The seats owning at least one card with ``effect``, in seat order."""
    out: list[int] = []
    for p, owned in enumerate(s.owned):
        for c in owned:
            if EFFECT[c] == effect:
                out.append(p)
                break
    return out


def distinct_virtues(s: State, seat: int) -> int:
    """How many different Virtues ``seat`` owns (by name)."""
    return len({CARDS[c].name for c in s.owned[seat] if CARDS[c].type == "virtue"})


def monster_cards(s: State, seat: int, oni_only: bool = False) -> int:
    """How many Monster (or Oni) cards ``seat`` owns, on the board or not."""
    return sum(
        1 for c in s.owned[seat] if CARDS[c].type == "monster" and (CARDS[c].oni or not oni_only)
    )


def strongholds_on_map(s: State, seat: int) -> int:
    """``seat``'s Strongholds on the Map (those in the Reserve are not owned, §15.5)."""
    owner = s.owner
    kind = s.kind
    n = 0
    for f, where in enumerate(s.loc):
        if 0 <= where < 8 and owner[f] == seat and kind[f] == STRONGHOLD:
            n += 1
    return n

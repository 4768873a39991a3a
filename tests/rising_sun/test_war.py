"""The War Phase: start of War, provinces in War Number order, Battles step by step."""

from __future__ import annotations

from typing import Any

import pytest

from sengoku.core import IllegalActionError, Match, Rng
from sengoku.games.rising_sun.actions import COIN, Give
from sengoku.games.rising_sun.engine import push, run
from sengoku.games.rising_sun.war import T_WAR_START

from .helpers import (
    CLANS,
    P,
    act,
    ally,
    coins,
    count,
    give,
    has,
    honor,
    legal,
    put,
    seat,
    start_war,
    table,
    text,
    to_act,
    vp,
    war_in,
)


def bid(m: Match, clan: str, seppuku: int, hostage: int, ronin: int, poets: int) -> list[str]:
    return act(
        m,
        clan,
        f"bid {seppuku} on Seppuku",
        f"bid {hostage} on Take Hostage",
        f"bid {ronin} on Hire Ronin",
        f"bid {poets} on Imperial Poets",
    )


def nagato_example() -> Match:
    """The official battle example (DZ example-playing-a-battle, rules §8.3): Nagato with
    Turtle (Oni of Skulls and a Bushi), Koi (2 Bushi) and Lotus (a Shinto); Turtle and Lotus
    are allies; Lotus holds 3 Ronin."""
    m = table()
    honor(m, "Koi", "Lotus", "Turtle", "Dragonfly")
    give(m, "Turtle", "Oni of Skulls")
    put(m, "Turtle", "Oni of Skulls", "Nagato")
    put(m, "Turtle", "Bushi", "Nagato")
    put(m, "Koi", "Bushi", "Nagato", 2)
    put(m, "Lotus", "Shinto", "Nagato")
    ally(m, "Lotus", "Turtle")
    coins(m, Koi=3, Lotus=5, Turtle=2)
    m.state.ronin[seat(m, "Lotus")] = 3
    return m


def test_the_official_battle_example_step_by_step() -> None:
    """rising_sun.md §8.3 (DZ worked example), §16.4: the Oni of Skulls has Force 3 (Turtle
    has the lowest Honor there), so Turtle has 4, Koi 2, Lotus 1. Lotus wins Seppuku and
    kills its Shinto; wins the Take Hostage tie with Turtle on Honor and takes its ally's
    Oni; wins Hire Ronin 2-1 (+3); wins the Battle 3 against Koi's 2 and Turtle's 1. Koi's two
    figures die, Turtle's Bushi is spared (allied). Koi wins the Poets 3-1: 3 VP. Lotus's 5 bid
    Coins go to the losers, 2 each and the odd one where Lotus wants."""
    m = nagato_example()
    lines = war_in(m, "Nagato")
    assert "War 1 in Nagato: Battle between Koi (2 Force" in lines[0]
    assert "Turtle (4 Force, 2 Coins, 0 Ronin)" in lines[0]
    assert sorted(to_act(m)) == ["Koi", "Lotus", "Turtle"]  # secret and simultaneous
    bid(m, "Turtle", 0, 1, 1, 0)
    bid(m, "Koi", 0, 0, 0, 3)
    out = bid(m, "Lotus", 1, 1, 2, 1)
    assert out[0] == (
        "the bids are shown (Seppuku/Take Hostage/Hire Ronin/Imperial Poets): "
        "Koi 0/0/0/3, Lotus 1/1/2/1, Turtle 0/1/1/0"
    )
    assert to_act(m) == ["Lotus"] and legal(m, "Lotus") == ["commit seppuku", "decline seppuku"]
    out = act(m, "Lotus", "commit seppuku")
    assert "Lotus commits Seppuku: Lotus's Shinto killed in Nagato" in out
    assert vp(m, "Lotus") == 1
    assert m.state.honor[0] == seat(m, "Lotus")  # +1 Honor: above Koi now
    assert "Lotus wins Take Hostage with 1 Coin (Koi 0, Turtle 1)" in out
    assert legal(m, "Lotus") == [
        "take Koi's Bushi hostage",
        "take Turtle's Bushi hostage",
        "take Turtle's Oni of Skulls hostage",
        "take no hostage",
    ]
    m.state.vp[seat(m, "Turtle")] = 2
    out = act(m, "Lotus", "take Turtle's Oni of Skulls hostage")
    assert "Lotus takes Turtle's Oni of Skulls hostage from Nagato and steals 1 VP" in out
    assert "Lotus wins Hire Ronin with 2 Coins (Koi 0, Turtle 1): +3 Force" in out
    assert "Lotus wins the Battle of Nagato with 3 Force (Koi 2, Turtle 1)" in out
    assert "the losers fall: Koi's 2 Bushi killed in Nagato" in out
    assert count(m, "Turtle", "Bushi", "Nagato") == 1  # the ally is spared
    assert (
        "Koi wins Imperial Poets with 3 Coins (Lotus 1, Turtle 0): 3 figures died in this Battle"
        in out
    )
    assert vp(m, "Koi") == 3
    assert m.state.tokens[seat(m, "Lotus")] == [m.state.season * 8 + 5]
    assert "War Reparations: Lotus's 5 Coins go to Koi 2, Turtle 2" in out
    assert legal(m, "Lotus") == ["give the odd coin to Koi", "give the odd coin to Turtle"]
    act(m, "Lotus", "give the odd coin to Turtle")
    assert has(m, "Koi")["coins"] == 2 and has(m, "Turtle")["coins"] == 3 + 2 - 2
    assert has(m, "Lotus") == {"vp": 2, "coins": 0, "ronin": 3}  # Ronin are not spent
    assert count(m, "Turtle", "Oni of Skulls", "Reserve") == 0  # held hostage by Lotus
    assert m.to_act() == []
    koi, lotus, turtle = seat(m, "Koi"), seat(m, "Lotus"), seat(m, "Turtle")
    oni = m.view(None)["battles"][-1]["hostages"][0][2]
    assert m.view(None)["battles"] == [  # the table's account of the Battle, for everyone
        {
            "season": 0,
            "war": 1,
            "province": P["Nagato"],
            "participants": [koi, lotus, turtle],
            "bids": [[0, 0, 0, 3], [1, 1, 2, 1], [0, 1, 1, 0]],
            "advantages": [lotus, lotus, lotus, koi],
            "forces": [2, 3, 1],
            "winner": lotus,
            "killed": 3,
            "hostages": [[lotus, turtle, oni]],
            "reparations": [2, 0, 3],
        }
    ]
    assert m.view(None)["battle"]["province"] == -1


def test_bids_stay_secret_until_the_last_participant_has_bid() -> None:
    """rising_sun.md §8.3: the split is secret and simultaneous; a bidder sees its own bids,
    the others see nothing until everyone has bid; a bid is at most the Coins left."""
    m = nagato_example()
    war_in(m, "Nagato")
    act(m, "Koi", "bid 2 on Seppuku")
    koi, lotus = seat(m, "Koi"), seat(m, "Lotus")
    assert m.view(koi)["battle"]["bids"][koi] == [2]
    assert m.view(lotus)["battle"]["bids"][koi] is None
    assert m.view(None)["battle"]["bids"][koi] is None
    assert legal(m, "Koi") == ["bid 0 on Take Hostage", "bid 1 on Take Hostage"]
    with pytest.raises(IllegalActionError):
        act(m, "Koi", "bid 2 on Take Hostage")
    assert "bids 2 on Seppuku" not in " ".join(m.log(lotus))
    assert "Koi bids 2 on Seppuku" in m.log(koi)


def test_a_province_with_one_clan_or_two_allies_has_no_battle() -> None:
    """rising_sun.md §8.2: no Force: the token is discarded; one clan takes it; two allies
    alone do not fight and the stronger takes it (a tie goes to Honor); anything else is a
    Battle of every clan with Force there, allies included."""
    m = table()
    put(m, "Koi", "Bushi", "Edo")
    put(m, "Lotus", "Bushi", "Kyoto")
    put(m, "Turtle", "Bushi", "Kyoto")
    ally(m, "Lotus", "Turtle")
    put(m, "Koi", "Stronghold", "Oshu")  # a Stronghold that is not Turtle's has no Force
    lines = war_in(m, "Oshu", "Edo", "Kyoto")
    assert lines[0] == "War 1 in Ōshū: no clan has Force there; the token is discarded"
    assert "Koi takes the War Province token of Edo unopposed" in lines
    assert "War 3 in Kyōto: the allies Lotus and Turtle do not fight" in lines
    assert "Lotus takes the War Province token of Kyōto with more Force (1)" in lines
    assert m.to_act() == []
    m2 = table()
    for clan in ("Koi", "Lotus", "Turtle"):
        put(m2, clan, "Bushi", "Kyoto")
    ally(m2, "Lotus", "Turtle")
    war_in(m2, "Kyoto")
    assert sorted(to_act(m2)) == ["Koi", "Lotus", "Turtle"]


def test_start_of_war_upgrades_fire_once_in_honor_order_and_koi_converts_ronin() -> None:
    """rising_sun.md §8.1, §16.4: War Upgrades fire once at the start of the War Phase, clan by
    clan in Honor order; Koi turns its Ronin into Coins (after its own cards: Way of the Ronin
    becomes Coins too)."""
    m = table()
    honor(m, "Turtle", "Koi", "Lotus", "Dragonfly")
    give(m, "Koi", "Way of the Ronin", "Way of the Shogun")
    give(m, "Turtle", "Way of the Shogun")
    m.state.ronin[seat(m, "Koi")] = 1
    m.state.war = []
    log: list[Any] = []
    push(m.state, (T_WAR_START,))
    run(m.state, Rng(0), log)
    texts = [text(e) for e in log]
    assert texts[1] == "Turtle takes 3 Coins (Way of the Shogun)"
    assert texts[2:5] == [
        "Koi takes 2 Ronin (Way of the Ronin)",
        "Koi takes 3 Coins (Way of the Shogun)",
        "Koi takes 3 Coins for its 3 Ronin (Eddies in the Stream)",
    ]
    assert has(m, "Koi") == {"vp": 0, "coins": 6, "ronin": 0}


def test_start_of_war_effects_resolve_as_the_higher_honor_clan_would_choose() -> None:
    """rising_sun.md §3, §8.1: start-of-War effects are simultaneous and the higher-Honor clan
    would go last: Way of the Righteous takes its Coins after the others' start-of-War gains
    (Lotus's Way of the Shogun), and Ways of Naginata move from the lowest owner up."""
    m = table(season_set="tower")
    give(m, "Koi", "Way of the Righteous", season_set="horseman")
    give(m, "Lotus", "Way of the Shogun")
    give(m, "Lotus", "Way of Naginata", season_set="tower")
    give(m, "Turtle", "Way of Naginata", season_set="tower")
    put(m, "Lotus", "Bushi", "Nagato")
    put(m, "Turtle", "Bushi", "Kyoto")
    lines = start_war(m)
    assert lines.index("Lotus takes 3 Coins (Way of the Shogun)") < lines.index(
        "Koi takes 1 Coin from Lotus (Way of the Righteous)"
    )
    assert has(m, "Koi")["coins"] == 1 and has(m, "Lotus")["coins"] == 2
    assert to_act(m) == ["Turtle"]  # below Lotus: Turtle moves first, Lotus sees it
    act(m, "Turtle", "move Bushi from Kyoto to Edo")
    assert to_act(m) == ["Lotus"]


def test_coins_and_ronin_cannot_be_given_in_war() -> None:
    """rising_sun.md §4.2, §16.4 point 4: gifts are offered in the Tea Ceremony and the
    Political Phase, never during War."""
    m = nagato_example()
    war_in(m, "Nagato")
    assert not any(o.startswith("give 1") for o in legal(m, "Koi"))
    gift = Give(COIN, CLANS.index("Lotus"))
    with pytest.raises(IllegalActionError, match="only in the Tea Ceremony and Political"):
        m.act(seat(m, "Koi"), gift)


def test_zero_bids_go_to_honor_by_default_and_to_nobody_with_the_option() -> None:
    """rising_sun.md §16.4 point 1 (option zero_bid_wins, default the literal rule): when all
    bid 0, the highest-Honor participant wins the Advantage; with the option off nobody does;
    and with nobody's Force left the highest-Honor participant wins the Battle (§8.3)."""
    for literal in (True, False):
        m = table(zero_bid_wins=literal)
        put(m, "Lotus", "Bushi", "Kyoto")
        put(m, "Dragonfly", "Bushi", "Kyoto", 2)
        coins(m, Lotus=1, Dragonfly=1)
        war_in(m, "Kyoto")
        bid(m, "Lotus", 0, 0, 0, 0)
        out = bid(m, "Dragonfly", 0, 0, 0, 0)
        if literal:
            assert "Lotus wins Seppuku with 0 Coins (Dragonfly 0)" in out
            assert legal(m, "Lotus") == ["commit seppuku", "decline seppuku"]
            out = act(m, "Lotus", "commit seppuku", "take Dragonfly's Bushi hostage")
            assert "Dragonfly wins the Battle of Kyōto with 1 Force (Lotus 0)" in out
            # 1 for Seppuku, none stolen (Dragonfly has 0 VP), 1 from the Poets (0-0: Honor)
            assert vp(m, "Lotus") == 1 + 1
            assert vp(m, "Dragonfly") == 0
        else:
            assert "nobody wins Seppuku: every bid was 0" in out
            assert "Dragonfly wins the Battle of Kyōto with 2 Force (Lotus 1)" in out
            assert vp(m, "Lotus") == 0 and vp(m, "Dragonfly") == 0


def test_nobody_with_force_left_the_highest_honor_wins() -> None:
    """rising_sun.md §8.3, §16.4: when nobody has Force left, the participant with the highest
    Honor wins the Battle (Honor as it is then: Seppuku has just raised Lotus above Koi); a
    participant with no figures stays in the Battle."""
    m = table()
    put(m, "Koi", "Bushi", "Kyoto")
    put(m, "Lotus", "Bushi", "Kyoto")
    coins(m, Koi=0, Lotus=2)
    war_in(m, "Kyoto")
    bid(m, "Koi", 0, 0, 0, 0)
    bid(m, "Lotus", 1, 1, 0, 0)
    out = act(m, "Lotus", "commit seppuku", "take Koi's Bushi hostage")
    assert "Lotus wins the Battle of Kyōto with 0 Force (Koi 0)" in out
    assert m.state.tokens[seat(m, "Lotus")] == [3]


def test_koi_coins_count_as_ronin_when_it_wins_hire_ronin() -> None:
    """rising_sun.md §2.3, §8.4 (option koi_reserve_coins): Koi's Coins left behind its screen
    count as Ronin; with 'all', the Coins it bid count too."""
    for option, hired in (("unallocated", 2), ("all", 5)):
        m = table(koi_reserve_coins=option)
        put(m, "Koi", "Bushi", "Kyoto")
        put(m, "Lotus", "Bushi", "Kyoto", 4)
        coins(m, Koi=5, Lotus=2)
        war_in(m, "Kyoto")
        bid(m, "Koi", 0, 0, 3, 0)
        bid(m, "Lotus", 1, 1, 0, 0)
        out = act(m, "Lotus", "decline seppuku", "take no hostage")
        assert f"Koi wins Hire Ronin with 3 Coins (Lotus 0): +{hired} Force" in out


def test_reparations_skip_the_allied_loser_with_the_option() -> None:
    """rising_sun.md §8.3 (option allied_loser_reparations): by default the winner's ally, if it
    lost, shares the Reparations; with the option off only the others do."""
    for shared in (True, False):
        m = table(allied_loser_reparations=shared)
        put(m, "Koi", "Bushi", "Kyoto", 3)
        put(m, "Lotus", "Bushi", "Kyoto")
        put(m, "Turtle", "Bushi", "Kyoto")
        ally(m, "Koi", "Lotus")
        coins(m, Koi=4)
        war_in(m, "Kyoto")
        bid(m, "Koi", 0, 0, 0, 4)
        bid(m, "Lotus", 0, 0, 0, 0)
        bid(m, "Turtle", 0, 0, 0, 0)
        out = act(m, "Koi", "decline seppuku", "take no hostage")
        expect = "Lotus 2, Turtle 2" if shared else "Turtle 4"
        assert f"War Reparations: Koi's 4 Coins go to {expect}" in out
        assert count(m, "Lotus", "Bushi", "Kyoto") == 1  # spared: Koi's ally
        assert count(m, "Turtle", "Bushi", "Kyoto") == 0

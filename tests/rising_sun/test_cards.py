"""Every Core and base-set Season card, each shown firing at the right moment (rules §9, §12,
§15.5, §16.3). The last test checks that each card of the data has its test here."""

from __future__ import annotations

import re

from sengoku.games.rising_sun import figures
from sengoku.games.rising_sun.data import load_data
from sengoku.games.rising_sun.state import WAR

from .helpers import (
    P,
    act,
    ally,
    coins,
    count,
    give,
    has,
    honor,
    kami_turn,
    legal,
    put,
    seat,
    select,
    start_war,
    table,
    to_act,
    vp,
    war_in,
    winter,
)
from .test_war import bid


def koi_wins_unbid(m) -> list[str]:  # type: ignore[no-untyped-def]
    """A Battle in Kyoto where Koi and Lotus bid nothing: Koi, higher in Honor, wins Seppuku
    and Take Hostage and uses neither; the lines logged."""
    war_in(m, "Kyoto")
    bid(m, "Lotus", 0, 0, 0, 0)
    bid(m, "Koi", 0, 0, 0, 0)
    return act(m, "Koi", "decline seppuku", "take no hostage")


def force(m, clan: str, province: str, war: bool = False) -> int:  # type: ignore[no-untyped-def]
    s = m.state
    if war:
        s.phase = WAR
    return figures.forces(s, P[province], war)[seat(m, clan)]


# ---------------------------------------------------------------------- Core


def test_komainu_worships_like_a_shinto_and_is_betrayed_as_both() -> None:
    """rising_sun.md §9.1, §12, §16.3.4: Komainu (Core, Spring, 2) is a Monster of Force 1 that
    counts as a Shinto: Summoned on arrival it may climb to a shrine and worships with 1 Force;
    Betray treats it as both a Monster and a Shinto (FAQ)."""
    m = table()
    put(m, "Koi", "Stronghold", "Edo")
    coins(m, Koi=2)
    select(m, "Lotus", "Train")
    act(m, "Lotus", "buy nothing")
    act(m, "Turtle", "buy nothing")
    act(m, "Dragonfly", "buy nothing")
    act(m, "Koi", "buy Komainu")
    assert "summon Komainu in Edo to Hachiman" in legal(m, "Koi")
    act(m, "Koi", "summon Komainu in Edo to Hachiman")
    lines = kami_turn(m)
    assert "Koi wins Hachiman's shrine" in lines and has(m, "Koi")["ronin"] == 2
    m2 = table()
    give(m2, "Lotus", "Komainu")
    put(m2, "Lotus", "Komainu", "Kyoto")
    put(m2, "Turtle", "Shinto", "Edo")
    give(m2, "Koi", "Oni of Skulls")
    select(m2, "Koi", "Betray")
    assert "replace Lotus's Komainu in Kyoto with Shinto" in legal(m2, "Koi")
    assert "replace Lotus's Komainu in Kyoto with Oni of Skulls" in legal(m2, "Koi")
    assert "replace Turtle's Shinto in Edo with Shinto" in legal(m2, "Koi")
    m3 = table()
    give(m3, "Koi", "Komainu")
    put(m3, "Turtle", "Shinto", "Edo")
    select(m3, "Koi", "Betray")
    assert "replace Turtle's Shinto in Edo with Komainu" in legal(m3, "Koi")
    assert force(m3, "Turtle", "Edo") == 1


def test_oni_of_skulls_has_force_3_where_its_owner_has_the_lowest_honor() -> None:
    """rising_sun.md §9.1, §16.3.4 (option lowest_honor_alone): Oni of Skulls (Core, Spring, 2):
    Force 3 where its owner has the lowest Honor of the clans present, else 1; alone it has 1
    unless the option says so."""
    m = table()
    give(m, "Dragonfly", "Oni of Skulls")
    put(m, "Dragonfly", "Oni of Skulls", "Kyoto")
    assert force(m, "Dragonfly", "Kyoto") == 1
    put(m, "Koi", "Bushi", "Kyoto")
    assert force(m, "Dragonfly", "Kyoto") == 3
    honor(m, "Dragonfly", "Koi", "Lotus", "Turtle")
    assert force(m, "Dragonfly", "Kyoto") == 1
    m2 = table(lowest_honor_alone=True)
    give(m2, "Dragonfly", "Oni of Skulls")
    put(m2, "Dragonfly", "Oni of Skulls", "Kyoto")
    assert force(m2, "Dragonfly", "Kyoto") == 3


def test_path_of_the_lion_and_path_of_the_dragon_strengthen_the_daimyo() -> None:
    """rising_sun.md §9.1: Path of the Lion (Spring, 0) gives the Daimyo +1 Force, Path of the
    Dragon (Autumn, 3) +3; they stack and touch no other figure."""
    m = table()
    put(m, "Koi", "Daimyo", "Edo")
    put(m, "Koi", "Bushi", "Edo")
    assert force(m, "Koi", "Edo") == 2
    give(m, "Koi", "Path of the Lion")
    assert force(m, "Koi", "Edo") == 3
    give(m, "Koi", "Path of the Dragon")
    assert force(m, "Koi", "Edo") == 6


def test_righteousness_scores_each_own_figure_killed_seppuku_included() -> None:
    """rising_sun.md §9.1, §16.3.2 (FAQ1, PBF9): +1 VP per own figure killed, Seppuku included;
    the two copies stack."""
    m = table()
    give(m, "Lotus", "Righteousness", "Righteousness")
    put(m, "Lotus", "Bushi", "Kyoto", 2)
    put(m, "Koi", "Bushi", "Kyoto")
    coins(m, Lotus=1)
    war_in(m, "Kyoto")
    bid(m, "Koi", 0, 0, 0, 0)
    bid(m, "Lotus", 1, 0, 0, 0)
    out = act(m, "Lotus", "commit seppuku")
    assert "Lotus gains 4 VP for Righteousness" in out  # 2 figures x 2 cards
    assert "Lotus gains 2 VP for Seppuku" in out


def test_way_of_the_shogun_and_way_of_the_moneylender_pay_at_the_start_of_war() -> None:
    """rising_sun.md §9.1, §8.1 (PBF288): Way of the Shogun gives 3 Coins, Way of the Moneylender
    5, once, at the start of the War Phase."""
    m = table()
    give(m, "Lotus", "Way of the Shogun", "Way of the Moneylender")
    assert has(m, "Lotus")["coins"] == 0
    start_war(m)
    assert has(m, "Lotus")["coins"] == 8


def test_path_of_the_serpent_charges_for_shipping_routes() -> None:
    """rising_sun.md §9.1, §12 (FAQ): Path of the Serpent (Core, Summer, 0): another clan pays
    the owner 1 Coin each time one of its figures takes a Shipping Route; borders are free; a
    clan that cannot pay cannot take the route; Dragonfly flies and uses no route."""
    m = table()
    give(m, "Turtle", "Path of the Serpent")
    put(m, "Koi", "Bushi", "Kansai", 2)
    coins(m, Koi=1)
    select(m, "Lotus", "Marshal")
    assert to_act(m) == ["Koi"]
    out = act(m, "Koi", "move Bushi from Kansai to Shikoku")
    assert out == [
        "Koi moves Bushi from Kansai to Shikoku (pays Turtle 1 Coin for the Serpent's route)"
    ]
    assert has(m, "Turtle")["coins"] == 1
    options = legal(m, "Koi")
    assert "move Bushi from Kansai to Hokkaido" not in options  # no Coin left for the route
    assert "move Bushi from Kansai to Nagato" in options  # a border
    m2 = table()
    give(m2, "Turtle", "Path of the Serpent")
    put(m2, "Dragonfly", "Bushi", "Kansai")
    select(m2, "Lotus", "Marshal")
    act(m2, "Dragonfly", "move Bushi from Kansai to Shikoku")
    assert has(m2, "Turtle")["coins"] == 0


def test_respect_takes_one_more_hostage() -> None:
    """rising_sun.md §9.1: Respect (Core, Summer, 0): with Respect, winning Take Hostage takes 2
    figures."""
    m = table()
    give(m, "Koi", "Respect")
    put(m, "Koi", "Bushi", "Kyoto")
    put(m, "Lotus", "Bushi", "Kyoto", 3)
    coins(m, Koi=1)
    war_in(m, "Kyoto")
    bid(m, "Lotus", 0, 0, 0, 0)
    bid(m, "Koi", 0, 1, 0, 0)
    act(m, "Koi", "decline seppuku", "take Lotus's Bushi hostage")
    assert legal(m, "Koi") == ["take Lotus's Bushi hostage", "take no hostage"]
    out = act(m, "Koi", "take Lotus's Bushi hostage")
    assert "Koi takes Lotus's Bushi hostage from Kyōto" in out
    assert m.log(None).count("Koi takes Lotus's Bushi hostage from Kyōto") == 2


def test_way_of_bushido_pays_per_different_virtue() -> None:
    """rising_sun.md §9.1 (read as 2 Coins and 2 VP per different Virtue): Way of Bushido (Core,
    Summer, 3): two Righteousness and a Respect are 2 different Virtues: +4 Coins, +4 VP at the
    start of War."""
    m = table()
    give(m, "Koi", "Way of Bushido", "Righteousness", "Righteousness", "Respect")
    start_war(m)
    assert has(m, "Koi")["coins"] == 4 and vp(m, "Koi") == 4


def test_way_of_the_ronin_gives_two_ronin() -> None:
    """rising_sun.md §9.1 (PBF288): Way of the Ronin (Core, Summer, 1): +2 Ronin at the start of
    War."""
    m = table()
    give(m, "Lotus", "Way of the Ronin", "Way of the Ronin")
    start_war(m)
    assert has(m, "Lotus")["ronin"] == 4


def test_yurei_has_force_2_and_a_daimyos_immunities() -> None:
    """rising_sun.md §9.1, §16.3.4: Yurei has Force 2 and counts as a Daimyo: it cannot be
    replaced by Betray nor taken hostage."""
    m = table()
    give(m, "Lotus", "Yurei")
    put(m, "Lotus", "Yurei", "Kyoto")
    put(m, "Lotus", "Bushi", "Kyoto")
    give(m, "Koi", "Oni of Skulls")
    assert force(m, "Lotus", "Kyoto") == 3
    select(m, "Koi", "Betray")
    assert legal(m, "Koi") == ["replace Lotus's Bushi in Kyoto with Bushi", "end betrayal"]
    m2 = table()
    give(m2, "Lotus", "Yurei")
    put(m2, "Lotus", "Yurei", "Kyoto")
    put(m2, "Koi", "Bushi", "Kyoto")
    coins(m2, Koi=1)
    war_in(m2, "Kyoto")
    bid(m2, "Lotus", 0, 0, 0, 0)
    bid(m2, "Koi", 0, 1, 0, 0)
    out = act(m2, "Koi", "decline seppuku")
    assert "Koi wins Take Hostage with 1 Coin (Lotus 0)" in out
    assert to_act(m2) == []  # no hostage to take: the battle went on


def test_form_of_the_kitsune_counts_strongholds_on_the_map() -> None:
    """rising_sun.md §9.1, §15.5 (DZ 'having' ruling): Form of the Kitsune (Core, Autumn, 4): +3
    VP per Stronghold on the Map; Strongholds in the Reserve are not owned."""
    m = table()
    give(m, "Koi", "Form of the Kitsune")
    put(m, "Koi", "Stronghold", "Edo", 2)
    winter(m)
    assert vp(m, "Koi") == 6


def test_form_of_the_phoenix_counts_different_virtues() -> None:
    """rising_sun.md §9.1: Form of the Phoenix (Core, Autumn, 3): +3 VP per different Virtue
    owned."""
    m = table()
    give(m, "Koi", "Form of the Phoenix", "Righteousness", "Righteousness", "Respect")
    winter(m)
    assert vp(m, "Koi") == 6


def test_river_dragon_has_force_5() -> None:
    """rising_sun.md §9.1, §16.3.4: the River Dragon (Autumn, 3) has Force 5."""
    m = table()
    give(m, "Turtle", "River Dragon")
    put(m, "Turtle", "River Dragon", "Kyushu")
    assert force(m, "Turtle", "Kyushu") == 5


# ---------------------------------------------------------------------- Archway


def test_benevolence_gives_a_spent_coin_for_honor_and_vp() -> None:
    """rising_sun.md §9.2, §12 (FAQ): Benevolence (Archway, Spring, 1): when its owner spends
    Coins on a card or a Stronghold, it may give 1 of them to another clan for +1 Honor and +2
    VP, once per Coin and copy; a free card offers nothing."""
    m = table(season_set="archway")
    honor(m, "Lotus", "Koi", "Turtle", "Dragonfly")
    give(m, "Koi", "Benevolence", season_set="archway")
    coins(m, Koi=5)
    select(m, "Koi", "Marshal")
    act(m, "Koi", "build a Stronghold in Edo")
    assert "give 1 spent coin to Lotus" in legal(m, "Koi")
    out = act(m, "Koi", "give 1 spent coin to Lotus")
    assert out[0] == "Koi gives 1 of the spent Coins to Lotus"
    assert has(m, "Koi") == {"vp": 2, "coins": 2, "ronin": 0}
    assert has(m, "Lotus")["coins"] == 1 and m.state.honor[0] == seat(m, "Koi")
    select(m, "Koi", "Train")
    act(m, "Koi", "buy Path of the Lion")  # free: nothing spent, nothing to give
    assert to_act(m) == ["Lotus"]


def test_path_of_the_kenin_places_a_bushi_after_a_summon() -> None:
    """rising_sun.md §9.2, §12: Path of the Kenin (Archway, Spring, 2): after its owner Summons
    (a whole Recruit is one Summon), it may place an extra Bushi at one of its Strongholds;
    placing is not a Summon."""
    m = table(season_set="archway")
    give(m, "Koi", "Path of the Kenin", season_set="archway")
    put(m, "Koi", "Stronghold", "Edo")
    select(m, "Lotus", "Recruit")
    act(m, "Koi", "summon Bushi in Edo")
    assert legal(m, "Koi") == ["place Bushi in Edo", "place nothing"]
    act(m, "Koi", "place Bushi in Edo")
    assert count(m, "Koi", "Bushi", "Edo") == 2 and m.to_act() == []


def test_path_of_the_light_and_samurai_place_at_the_end_of_recruit() -> None:
    """rising_sun.md §9.2, §6.1 (FAQ: end-of-Mandate effects come after every player): after
    everyone has recruited, Path of the Light places a Shinto on a shrine and Path of the Samurai
    a Bushi in any province."""
    m = table(season_set="archway")
    give(m, "Turtle", "Path of the Light", "Path of the Samurai", season_set="archway")
    put(m, "Koi", "Stronghold", "Edo")
    select(m, "Lotus", "Recruit")
    assert to_act(m) == ["Koi"]  # Turtle, with no Stronghold, recruits nothing
    act(m, "Koi", "end recruit")
    assert legal(m, "Turtle")[:2] == [
        "place Shinto at Amaterasu's shrine",
        "place Shinto at Hachiman's shrine",
    ]
    act(m, "Turtle", "place Shinto at Raijin's shrine", "place Bushi in Shikoku")
    assert count(m, "Turtle", "Shinto", "Raijin") == 1
    assert count(m, "Turtle", "Bushi", "Shikoku") == 1


def test_justice_scores_killing_a_lower_honor_clan() -> None:
    """rising_sun.md §9.2: Justice (Archway, Summer, 1): +3 VP when its owner kills figures of a
    lower-Honor clan."""
    m = table(season_set="archway")
    give(m, "Koi", "Justice", season_set="archway")
    put(m, "Koi", "Bushi", "Kyoto", 2)
    put(m, "Turtle", "Bushi", "Kyoto")
    war_in(m, "Kyoto")
    bid(m, "Turtle", 0, 0, 0, 0)
    out = bid(m, "Koi", 0, 0, 0, 0)
    out += act(m, "Koi", "decline seppuku", "take no hostage")
    assert "Koi gains 3 VP for Justice" in out


def test_oni_of_blood_has_force_2_or_4() -> None:
    """rising_sun.md §9.2, §16.3.4: Oni of Blood (Archway, Horseman, Tower; Summer, 3): Force 2,
    or 4 where its owner has the lowest Honor."""
    m = table(season_set="archway")
    give(m, "Lotus", "Oni of Blood", season_set="archway")
    put(m, "Lotus", "Oni of Blood", "Edo")
    assert force(m, "Lotus", "Edo") == 2
    put(m, "Koi", "Bushi", "Edo")
    assert force(m, "Lotus", "Edo") == 4


def test_oni_of_souls_scores_a_battle_won_with_it() -> None:
    """rising_sun.md §9.2, §8.4, §16.4 (option won_with_figure): Oni of Souls: winning a Battle
    with it gives 2 VP per Oni card owned (off the board too). Taken hostage before the Outcome,
    it is not there at the end: no VP by default (DZ: alive and present), 4 VP with took_part
    (FAQ1: in the Battle at some point)."""
    for option, souls in (("alive", 0), ("took_part", 4)):
        m = table(season_set="teapot", won_with_figure=option)
        give(m, "Koi", "Oni of Souls", "Oni of Skulls")
        put(m, "Koi", "Oni of Souls", "Kyoto")
        put(m, "Koi", "Bushi", "Kyoto", 3)
        put(m, "Lotus", "Bushi", "Kyoto")
        coins(m, Lotus=1)
        war_in(m, "Kyoto")
        bid(m, "Koi", 0, 0, 0, 0)
        bid(m, "Lotus", 0, 1, 0, 0)
        act(m, "Koi", "decline seppuku")
        out = act(m, "Lotus", "take Koi's Oni of Souls hostage")
        assert "Koi wins the Battle of Kyōto with 3 Force (Lotus 1)" in out
        assert vp(m, "Koi") == souls + 1  # and the Poets: 1 killed (Koi had no VP to steal)
        assert ("Koi gains 4 VP for winning with Oni of Souls" in out) == bool(souls)
    m = table(season_set="teapot")
    give(m, "Koi", "Oni of Souls", "Oni of Skulls")
    put(m, "Koi", "Oni of Souls", "Kyoto")
    put(m, "Koi", "Bushi", "Kyoto", 2)
    put(m, "Lotus", "Bushi", "Kyoto")
    out = koi_wins_unbid(m)
    assert "Koi gains 4 VP for winning with Oni of Souls" in out


def test_form_of_the_beast_counts_monster_cards_on_the_board_or_not() -> None:
    """rising_sun.md §9.2, §15.5: Form of the Beast (Archway, Autumn, 4): +3 VP per Monster card
    owned, its figure anywhere."""
    m = table(season_set="archway")
    give(m, "Koi", "Form of the Beast", "Komainu", "Oni of Skulls", season_set="archway")
    put(m, "Koi", "Komainu", "Edo")
    winter(m)
    assert vp(m, "Koi") == 6


def test_way_of_the_katana_makes_bushi_force_2_in_war_only() -> None:
    """rising_sun.md §9.2: Way of the Katana (Archway, Autumn, 3): its owner's Bushi have Force 2
    during the War Phase."""
    m = table(season_set="archway")
    give(m, "Koi", "Way of the Katana", season_set="archway")
    put(m, "Koi", "Bushi", "Edo", 2)
    assert force(m, "Koi", "Edo") == 2
    assert force(m, "Koi", "Edo", war=True) == 4


def test_oni_of_hate_kills_a_figure_of_each_higher_clan_on_entering() -> None:
    """rising_sun.md §9.2, §16.3.4: when it enters a province (here by Marshal), Oni of Hate
    kills 1 Bushi or Shinto of each clan with higher Honor there; its owner chooses which where a
    clan has both; lower clans are untouched."""
    m = table(season_set="archway")
    give(m, "Dragonfly", "Oni of Hate", season_set="archway")
    put(m, "Dragonfly", "Oni of Hate", "Kansai")
    put(m, "Koi", "Bushi", "Kyoto")
    put(m, "Koi", "Shinto", "Kyoto")
    put(m, "Lotus", "Shinto", "Kyoto")
    honor(m, "Koi", "Lotus", "Dragonfly", "Turtle")
    put(m, "Turtle", "Bushi", "Kyoto")
    select(m, "Koi", "Marshal")
    act(m, "Lotus", "end moves")
    act(m, "Turtle", "end moves")
    act(m, "Dragonfly", "move Oni of Hate from Kansai to Kyoto")
    assert legal(m, "Dragonfly") == ["kill Koi's Bushi in Kyoto", "kill Koi's Shinto in Kyoto"]
    act(m, "Dragonfly", "kill Koi's Shinto in Kyoto")
    assert count(m, "Koi", "Shinto", "Kyoto") == 0 and count(m, "Koi", "Bushi", "Kyoto") == 1
    assert count(m, "Lotus", "Shinto", "Kyoto") == 0  # only one kind: killed at once
    assert count(m, "Turtle", "Bushi", "Kyoto") == 1


def test_oni_of_spite_steals_from_higher_clans_on_entering() -> None:
    """rising_sun.md §9.2, §16.3.4: when it enters a province (here Summoned on arrival after a
    Train), Oni of Spite steals 2 VP from each clan with higher Honor and Force there."""
    m = table(season_set="archway")
    honor(m, "Koi", "Lotus", "Turtle", "Dragonfly")
    put(m, "Dragonfly", "Stronghold", "Kyoto")
    put(m, "Koi", "Bushi", "Kyoto")
    put(m, "Lotus", "Bushi", "Edo")
    m.state.vp = [5, 5, 5, 1]
    m.state.season = 2
    m.state.display = load_data().cards_of("archway", 2)
    coins(m, Dragonfly=3)
    select(m, "Dragonfly", "Train")
    act(m, "Dragonfly", "buy Oni of Spite")
    out = act(m, "Dragonfly", "summon Oni of Spite in Kyoto")
    assert "Dragonfly steals 2 VP from Koi (Oni of Spite)" in out
    assert vp(m, "Dragonfly") == 3 and vp(m, "Lotus") == 5


# ---------------------------------------------------------------------- Horseman


def test_courage_scores_each_war_province_token() -> None:
    """rising_sun.md §9.2: Courage (Horseman, Spring, 3): +2 VP each time its owner takes a War
    Province token."""
    m = table(season_set="horseman")
    give(m, "Koi", "Courage", season_set="horseman")
    put(m, "Koi", "Bushi", "Edo")
    put(m, "Koi", "Bushi", "Oshu")
    out = war_in(m, "Edo", "Oshu")
    assert out.count("Koi gains 2 VP for Courage") == 2


def test_path_of_the_ninja_kills_any_bushi_after_a_summon_and_costs_honor() -> None:
    """rising_sun.md §9.2: Path of the Ninja (Horseman, Spring, 2): after its owner Summons it
    may kill any one Bushi on the Map, and loses Honor for it."""
    m = table(season_set="horseman")
    give(m, "Koi", "Path of the Ninja", season_set="horseman")
    put(m, "Koi", "Stronghold", "Edo")
    put(m, "Turtle", "Bushi", "Kyushu")
    select(m, "Lotus", "Recruit")
    act(m, "Koi", "summon Bushi in Edo")
    assert legal(m, "Koi") == [
        "kill Koi's Bushi in Edo",
        "kill Turtle's Bushi in Kyushu",
        "kill nothing",
    ]
    out = act(m, "Koi", "kill Turtle's Bushi in Kyushu")
    assert out[0] == "Koi's Ninja strikes: Turtle's Bushi killed in Kyūshū"
    assert m.state.honor[:2] == [seat(m, "Lotus"), seat(m, "Koi")]


def test_way_of_the_righteous_takes_a_coin_from_each_lower_clan() -> None:
    """rising_sun.md §9.2: Way of the Righteous (Horseman, Spring, 2): at the start of War, 1
    Coin from each clan with less Honor."""
    m = table(season_set="horseman")
    honor(m, "Lotus", "Koi", "Turtle", "Dragonfly")
    give(m, "Koi", "Way of the Righteous", season_set="horseman")
    coins(m, Lotus=2, Turtle=2, Dragonfly=0)
    start_war(m)
    assert has(m, "Koi")["coins"] == 1 and has(m, "Lotus")["coins"] == 2


def test_mercy_may_spare_the_losers_for_vp() -> None:
    """rising_sun.md §9.2: Mercy (Horseman, Summer, 1): when its owner would kill the opposing
    figures it may spare them all for +2 VP."""
    m = table(season_set="horseman")
    give(m, "Koi", "Mercy", season_set="horseman")
    put(m, "Koi", "Bushi", "Kyoto", 2)
    put(m, "Lotus", "Bushi", "Kyoto")
    koi_wins_unbid(m)
    assert legal(m, "Koi") == ["spare the losers", "kill the losers"]
    act(m, "Koi", "spare the losers")
    assert count(m, "Lotus", "Bushi", "Kyoto") == 1 and vp(m, "Koi") == 2


def test_path_of_the_monkey_takes_from_the_richest_and_costs_honor_once() -> None:
    """rising_sun.md §9.2, §12 (FAQ): Path of the Monkey (Horseman, Summer, 0): after its owner
    Summons it may take 1 Coin from each of the richest opponents (an ally is an opponent too)
    and loses Honor once."""
    m = table(season_set="horseman")
    give(m, "Koi", "Path of the Monkey", season_set="horseman")
    put(m, "Koi", "Stronghold", "Edo")
    ally(m, "Koi", "Lotus")
    coins(m, Lotus=3, Turtle=3, Dragonfly=1)
    select(m, "Turtle", "Recruit")
    act(m, "Koi", "summon Bushi in Edo")
    act(m, "Koi", "take 1 coin from the richest")
    assert [has(m, c)["coins"] for c in ("Koi", "Lotus", "Turtle", "Dragonfly")] == [2, 2, 2, 1]
    assert m.state.honor[:2] == [seat(m, "Lotus"), seat(m, "Koi")]


def test_form_of_the_demon_counts_oni_cards() -> None:
    """rising_sun.md §9.2, §15.5: Form of the Demon (Horseman, Autumn, 3): +3 VP per Oni card
    owned (Komainu is no Oni)."""
    m = table(season_set="horseman")
    give(
        m,
        "Koi",
        "Form of the Demon",
        "Oni of Skulls",
        "Komainu",
        "Oni of Blood",
        season_set="horseman",
    )
    winter(m)
    assert vp(m, "Koi") == 6


def test_path_of_the_spirit_pays_the_top_of_the_honor_track_after_a_summon() -> None:
    """rising_sun.md §9.2: Path of the Spirit (Horseman, Autumn, 2): after its owner Summons, +2
    Coins and +2 VP if it has the highest Honor; nothing otherwise."""
    for top, gain in ((True, 2), (False, 0)):
        m = table(season_set="horseman")
        give(m, "Lotus", "Path of the Spirit", season_set="horseman")
        put(m, "Lotus", "Stronghold", "Nagato")
        if top:
            honor(m, "Lotus", "Koi", "Turtle", "Dragonfly")
        select(m, "Koi", "Recruit")
        act(m, "Lotus", "summon Bushi in Nagato")
        assert has(m, "Lotus") == {"vp": gain, "coins": gain, "ronin": 0}


# ---------------------------------------------------------------------- Teapot


def test_honesty_rewards_an_allied_selector() -> None:
    """rising_sun.md §9.2: Honesty (Teapot, Spring, 0): while allied, +2 VP each time its owner
    selects a Mandate other than Betray."""
    m = table()
    give(m, "Koi", "Honesty")
    select(m, "Koi", "Harvest")
    assert vp(m, "Koi") == 0
    ally(m, "Koi", "Lotus")
    select(m, "Koi", "Harvest")
    assert vp(m, "Koi") == 2
    select(m, "Koi", "Betray")
    assert vp(m, "Koi") == 2


def test_path_of_the_patron_and_the_warlord_pay_after_a_summon() -> None:
    """rising_sun.md §9.2, §12: after its owner Summons, Path of the Patron gives 2 Coins if its
    Honor is above at least 2 clans, Path of the Warlord 1 Coin per copy; once per Summon, not
    per figure."""
    m = table()
    give(m, "Lotus", "Path of the Patron", "Path of the Warlord", "Path of the Warlord")
    put(m, "Lotus", "Stronghold", "Nagato", 2)
    select(m, "Koi", "Recruit")
    act(m, "Lotus", "summon Bushi in Nagato", "summon Bushi in Nagato")
    assert has(m, "Lotus")["coins"] == 2 + 2  # Lotus is above Turtle and Dragonfly


def test_loyalty_adds_a_vp_once_per_event_while_allied() -> None:
    """rising_sun.md §9.2, §12 (FAQ): Loyalty (Teapot, Summer, 1): +1 VP each time its allied
    owner gains VP, counted per event: a Harvest of several provinces is one event."""
    m = table()
    give(m, "Koi", "Loyalty")
    ally(m, "Koi", "Lotus")
    put(m, "Koi", "Bushi", "Kyoto")
    put(m, "Koi", "Bushi", "Kansai")
    out = select(m, "Koi", "Harvest")
    assert vp(m, "Koi") == 4 + 3 + 1
    assert out.count("Koi gains 1 VP for Loyalty") == 1


def test_way_of_the_merchant_pays_when_a_richer_clan_takes_coins() -> None:
    """rising_sun.md §9.2, §16.3.2 (FAQ1, PBF288): Way of the Merchant (Teapot, Summer, 2):
    whenever a clan richer than its owner takes Coins from the pile, +1 Coin, once per event; no
    trigger from a poorer clan."""
    m = table()
    give(m, "Koi", "Way of the Merchant")
    coins(m, Lotus=3, Turtle=3)
    out = select(m, "Dragonfly", "Harvest")  # everyone takes 1: Lotus and Turtle are richer
    assert has(m, "Koi")["coins"] == 1 + 1
    assert out.count("Koi takes 1 Coin as a Merchant") == 1
    m2 = table()
    give(m2, "Koi", "Way of the Merchant")
    coins(m2, Koi=5)
    select(m2, "Dragonfly", "Harvest")
    assert has(m2, "Koi")["coins"] == 6


def test_form_of_the_kindred_counts_seasons_allied_even_if_broken() -> None:
    """rising_sun.md §9.2, §12 (FAQ): Form of the Kindred (Teapot, Autumn, 3): +3 VP per Season
    (Spring-Autumn) in which its owner had an alliance, even one broken later."""
    m = table()
    give(m, "Koi", "Form of the Kindred")
    m.state.alliance_seasons[seat(m, "Koi")] = 2
    winter(m)
    assert vp(m, "Koi") == 6


def test_path_of_the_unrighteous_betrays_one_more_even_on_a_shrine() -> None:
    """rising_sun.md §9.2: Path of the Unrighteous (Teapot, Autumn, 0): each Betray may replace 1
    more figure, of any clan, even a Shinto on a shrine."""
    m = table()
    give(m, "Koi", "Path of the Unrighteous")
    put(m, "Lotus", "Bushi", "Kyoto", 2)
    put(m, "Turtle", "Shinto", "Hachiman")
    select(m, "Koi", "Betray")
    assert "replace Turtle's Shinto at Hachiman's shrine with Shinto" in legal(m, "Koi")
    act(m, "Koi", "replace Lotus's Bushi in Kyoto with Bushi")
    act(m, "Koi", "replace Lotus's Bushi in Kyoto with Bushi")  # the extra: the same clan
    assert m.to_act() == []  # 2 + 1 figures: Turtle's worshipper is out of reach now
    assert count(m, "Koi", "Bushi", "Kyoto") == 2
    m = table()
    give(m, "Koi", "Path of the Unrighteous")
    put(m, "Lotus", "Bushi", "Kyoto")
    put(m, "Turtle", "Shinto", "Hachiman")
    select(m, "Koi", "Betray")
    act(m, "Koi", "replace Turtle's Shinto at Hachiman's shrine with Shinto")
    assert count(m, "Koi", "Shinto", "Hachiman") == 1
    assert "replace Lotus's Bushi in Kyoto with Bushi" in legal(m, "Koi")


# ---------------------------------------------------------------------- Tower


def test_generosity_offers_a_coin_after_a_mandate_for_honor() -> None:
    """rising_sun.md §9.2: Generosity (Tower, Spring, 0): after its owner selects a Mandate it
    may offer 1 Coin to a clan; if that clan accepts, its owner gains Honor."""
    m = table(season_set="tower")
    honor(m, "Lotus", "Koi", "Turtle", "Dragonfly")
    give(m, "Koi", "Generosity", season_set="tower")
    coins(m, Koi=2)
    select(m, "Koi", "Harvest")
    assert "offer 1 coin to Turtle" in legal(m, "Koi")
    act(m, "Koi", "offer 1 coin to Turtle")
    assert legal(m, "Turtle")[:2] == ["accept the coin", "refuse the coin"]
    act(m, "Turtle", "accept the coin")
    assert has(m, "Turtle")["coins"] == 2 and m.state.honor[0] == seat(m, "Koi")


def test_path_of_the_vassal_buys_vp_after_winning_a_shrine() -> None:
    """rising_sun.md §9.2, §6.3: Path of the Vassal (Tower, Spring, 0): after its owner wins a
    shrine it may pay 2 Coins for 2 VP."""
    m = table(season_set="tower")
    give(m, "Koi", "Path of the Vassal", season_set="tower")
    put(m, "Koi", "Shinto", "Raijin")
    coins(m, Koi=2)
    kami_turn(m)
    act(m, "Koi", "summon nothing")  # Raijin's gift first
    assert legal(m, "Koi") == ["pay 2 coins for 2 VP", "do not pay"] + [
        f"give 1 coin to {c}" for c in ("Lotus", "Turtle", "Dragonfly")
    ]
    act(m, "Koi", "pay 2 coins for 2 VP")
    assert has(m, "Koi") == {"vp": 2, "coins": 0, "ronin": 0}


def test_path_of_might_helps_bushi_beside_any_oni() -> None:
    """rising_sun.md §9.2: Path of Might (Tower, Summer, 1): its owner's Bushi have +1 Force in a
    province with any Oni."""
    m = table(season_set="tower")
    give(m, "Koi", "Path of Might", season_set="tower")
    give(m, "Lotus", "Oni of Skulls")
    put(m, "Koi", "Bushi", "Kyoto", 2)
    assert force(m, "Koi", "Kyoto") == 2
    put(m, "Lotus", "Oni of Skulls", "Kyoto")
    assert force(m, "Koi", "Kyoto") == 4


def test_path_of_the_shadow_pays_for_a_betrayal() -> None:
    """rising_sun.md §9.2: Path of the Shadow (Tower, Summer, 1): +3 Coins when its owner selects
    Betray."""
    m = table(season_set="tower")
    give(m, "Koi", "Path of the Shadow", season_set="tower")
    select(m, "Koi", "Betray")
    assert has(m, "Koi")["coins"] == 3


def test_way_of_naginata_moves_a_bushi_anywhere_at_the_start_of_war() -> None:
    """rising_sun.md §9.2, §15.5: Way of Naginata (Tower, Summer 1 and Autumn 0): at the start of
    War its owner may move 1 Bushi to any province."""
    m = table(season_set="tower")
    give(m, "Turtle", "Way of Naginata", season_set="tower")
    put(m, "Turtle", "Bushi", "Kyushu")
    start_war(m)
    assert "move Bushi from Kyushu to Oshu" in legal(m, "Turtle")
    act(m, "Turtle", "move Bushi from Kyushu to Oshu")
    assert count(m, "Turtle", "Bushi", "Oshu") == 1 and m.to_act() == []


def test_boldness_scores_enemy_oni_killed() -> None:
    """rising_sun.md §9.2: Boldness (Tower, Autumn, 1): +4 VP per Oni of another clan its owner
    kills in a Battle."""
    m = table(season_set="tower")
    give(m, "Koi", "Boldness", season_set="tower")
    give(m, "Lotus", "Oni of Skulls")
    put(m, "Koi", "Bushi", "Kyoto", 5)
    put(m, "Lotus", "Oni of Skulls", "Kyoto")
    out = koi_wins_unbid(m)
    assert "Koi gains 4 VP for Boldness" in out


def test_form_of_the_fox_counts_provinces_with_exactly_one_figure() -> None:
    """rising_sun.md §9.2: Form of the Fox (Tower, Autumn, 3): +3 VP per province where its owner
    has exactly 1 figure (a Stronghold is no figure)."""
    m = table(season_set="tower")
    give(m, "Koi", "Form of the Fox", season_set="tower")
    put(m, "Koi", "Bushi", "Edo")
    put(m, "Koi", "Stronghold", "Edo")
    put(m, "Koi", "Bushi", "Kyoto", 2)
    put(m, "Koi", "Daimyo", "Oshu")
    winter(m)
    assert vp(m, "Koi") == 6


def test_every_card_has_a_test_here() -> None:
    """rising_sun.md §9.1, §9.2: each Core and base-set card's name appears in a docstring of
    this module (so a card without a test shows up)."""
    tests = [f for name, f in globals().items() if name.startswith("test_")]
    docs = re.sub(r"\s+", " ", " ".join(f.__doc__ or "" for f in tests))
    missing = sorted({c.name for c in load_data().cards if c.name not in docs})
    assert missing == []

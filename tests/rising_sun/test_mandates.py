"""The Mandate Turns and the five Mandates, with the worked examples of the official Political
Mandates chapter (the seed ``shared/seeds/002_*.txt``)."""

from __future__ import annotations

import pytest

import sengoku
from sengoku.core import IllegalActionError

from .helpers import (
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
    select,
    table,
    to_act,
    vp,
)


def test_lotus_recruits_four_with_the_yurei_and_sends_a_shinto_to_hachiman() -> None:
    """rising_sun.md §6.2 (seed Recruit example): Lotus, with Strongholds 2 in Kyushu and 1 in
    Nagato, recruits last and Summons 4 figures (one per Stronghold and the Bonus): a Bushi and
    a Shinto in Kyushu, a Shinto in Nagato that climbs to Hachiman, and the Yurei from its
    Reserve in Nagato with the Bonus."""
    m = table()
    put(m, "Lotus", "Stronghold", "Kyushu", 2)
    put(m, "Lotus", "Stronghold", "Nagato")
    put(m, "Turtle", "Stronghold", "Kyoto")
    give(m, "Lotus", "Yurei")
    select(m, "Lotus", "Recruit")
    assert to_act(m) == ["Turtle"]  # the others recruit first, clockwise from Lotus's left
    act(m, "Turtle", "end recruit")
    assert to_act(m) == ["Lotus"]
    act(
        m,
        "Lotus",
        "summon Bushi in Kyushu",
        "summon Shinto in Kyushu",
        "summon Shinto in Nagato to Hachiman",
        "summon Yurei in Nagato",
    )
    assert count(m, "Lotus", "Bushi", "Kyushu") == 1
    assert count(m, "Lotus", "Shinto", "Kyushu") == 1
    assert count(m, "Lotus", "Shinto", "Nagato") == 0
    assert count(m, "Lotus", "Shinto", "Hachiman") == 1
    assert count(m, "Lotus", "Yurei", "Nagato") == 1
    assert m.to_act() == []  # 4 Summons used all three Strongholds and the Bonus


def test_recruit_gives_one_figure_per_stronghold_and_the_bonus_at_any_of_them() -> None:
    """rising_sun.md §6.2: without the Bonus a clan Summons only at its Strongholds, one per
    Stronghold; a Shinto may climb only when it is Summoned."""
    m = table()
    put(m, "Koi", "Stronghold", "Edo")
    put(m, "Turtle", "Stronghold", "Kyoto")
    select(m, "Turtle", "Recruit")
    assert to_act(m) == ["Koi"]
    options = legal(m, "Koi")
    assert "summon Bushi in Edo" in options and "summon Bushi in Kyoto" not in options
    act(m, "Koi", "summon Bushi in Edo")
    assert to_act(m) == ["Turtle"]  # Koi's one Stronghold is used up; no Bonus for Koi
    act(m, "Turtle", "summon Daimyo in Kyoto", "summon Bushi in Kyoto")
    assert count(m, "Turtle", "Daimyo", "Kyoto") == count(m, "Turtle", "Bushi", "Kyoto") == 1


def test_koi_as_dragonflys_ally_marshals_and_builds_in_shikoku() -> None:
    """rising_sun.md §6.2 (seed Marshal example): Dragonfly selects Marshal and goes last;
    Koi moves a Bushi from Kansai to Nagato across a border, its Oni of Blood and Daimyo to
    Hokkaido by Shipping Routes, leaves its Bushi in Edo, may not move its Shinto on Raijin's
    shrine, and as Dragonfly's ally pays 3 Coins to build a Stronghold in Shikoku."""
    m = table(season_set="archway")
    give(m, "Koi", "Oni of Blood", season_set="archway")
    put(m, "Koi", "Bushi", "Kansai")
    put(m, "Koi", "Bushi", "Edo")
    put(m, "Koi", "Oni of Blood", "Kansai")
    put(m, "Koi", "Daimyo", "Kansai")
    put(m, "Koi", "Shinto", "Raijin")
    ally(m, "Koi", "Dragonfly")
    coins(m, Koi=4)
    select(m, "Dragonfly", "Marshal")
    assert to_act(m) == ["Koi"]
    options = legal(m, "Koi")
    assert not any("Shinto" in o for o in options)  # figures on shrines never move
    assert "move Bushi from Kansai to Nagato" in options  # a border (verified, §15.1)
    act(
        m,
        "Koi",
        "move Bushi from Kansai to Nagato",
        "move Oni of Blood from Kansai to Hokkaido",
        "move Daimyo from Kansai to Hokkaido",
    )
    assert not any(o.startswith("move Bushi from Nagato") for o in legal(m, "Koi"))  # once each
    act(m, "Koi", "end moves")
    assert "build a Stronghold in Shikoku" in legal(m, "Koi")
    act(m, "Koi", "build a Stronghold in Shikoku")
    assert count(m, "Koi", "Stronghold", "Shikoku") == 1
    assert count(m, "Koi", "Bushi", "Edo") == 1 and count(m, "Koi", "Daimyo", "Hokkaido") == 1
    assert has(m, "Koi")["coins"] == 1


def test_marshal_bonus_only_for_the_selector_and_its_ally() -> None:
    """rising_sun.md §6.1: the Bonus is for the selector and its current ally only; Bonsai
    pays at most 1 Coin for a Stronghold (§2.3); no more than 4 Strongholds."""
    m = table(clans=("Koi", "Lotus", "Bonsai"))
    coins(m, Koi=5, Lotus=5, Bonsai=1)
    select(m, "Bonsai", "Marshal")
    assert to_act(m) == ["Bonsai"]  # Koi and Lotus have nothing on the Map and no Bonus
    act(m, "Bonsai", "build a Stronghold in Oshu")
    assert has(m, "Bonsai")["coins"] == 0
    m2 = table(clans=("Koi", "Lotus", "Bonsai"))
    coins(m2, Koi=20)
    for _ in range(4):
        select(m2, "Koi", "Marshal")
        act(m2, "Koi", "build a Stronghold in Edo")
    select(m2, "Koi", "Marshal")
    assert m2.to_act() == []  # all 4 Strongholds are placed
    assert count(m2, "Koi", "Stronghold", "Edo") == 4


def test_turtle_trains_oni_of_skulls_for_one_coin_and_summons_it() -> None:
    """rising_sun.md §6.2 (seed Train example): Turtle selects Train and chooses first; the
    Oni of Skulls costs 2, the Bonus makes it 1; the Monster is Summoned at once to a province
    with a Turtle Stronghold."""
    m = table()
    put(m, "Turtle", "Stronghold", "Kyoto")
    coins(m, Turtle=3, Koi=2, Dragonfly=2, Lotus=2)
    m.state.display = sorted(m.state.display)
    select(m, "Turtle", "Train")
    assert to_act(m) == ["Turtle"]
    act(m, "Turtle", "buy Oni of Skulls")
    assert has(m, "Turtle")["coins"] == 2
    assert legal(m, "Turtle")[:1] == ["summon Oni of Skulls in Kyoto"]
    act(m, "Turtle", "summon Oni of Skulls in Kyoto")
    assert count(m, "Turtle", "Oni of Skulls", "Kyoto") == 1
    assert to_act(m) == ["Dragonfly"]  # then clockwise
    assert "buy Oni of Skulls" not in legal(m, "Dragonfly")  # bought: gone from the display
    act(m, "Dragonfly", "buy Righteousness")
    assert has(m, "Dragonfly")["coins"] == 0  # no Bonus for Dragonfly: full price


def test_of_two_copies_on_display_the_cheaper_is_offered() -> None:
    """rising_sun.md §6.2, §15.5, §4.2: Tower's two Ways of Naginata (Summer 1, Autumn 0) can
    both be on display; a clan buys the free one, even with no Coin."""
    from sengoku.games.rising_sun.data import load_data

    m = table(season_set="tower")
    m.state.display = [c.index for c in load_data().cards if c.name == "Way of Naginata"]
    select(m, "Koi", "Train")
    act(m, "Koi", "buy nothing")
    assert legal(m, "Lotus") == ["buy Way of Naginata", "buy nothing"]  # no Bonus, no Coin
    act(m, "Lotus", "buy Way of Naginata")
    assert [load_data().cards[c].cost for c in m.state.display] == [1]


def test_koi_betrays_turtles_oni_of_skulls_and_a_dragonfly_bushi() -> None:
    """rising_sun.md §6.2 (seed Betray example): Koi replaces Turtle's Oni of Skulls with the
    Komainu from its Reserve (any Monster for any Monster) and a Dragonfly Bushi with a Koi
    Bushi; the replaced figures go back to their owners' Reserves, not killed."""
    m = table()
    give(m, "Turtle", "Oni of Skulls")
    give(m, "Koi", "Komainu")
    put(m, "Turtle", "Oni of Skulls", "Nagato")
    put(m, "Dragonfly", "Bushi", "Kyoto")
    put(m, "Dragonfly", "Daimyo", "Kyoto")
    select(m, "Koi", "Betray")
    options = legal(m, "Koi")
    assert not any("Daimyo" in o for o in options)  # Daimyo are immune
    act(m, "Koi", "replace Turtle's Oni of Skulls in Nagato with Komainu")
    assert not any(o.startswith("replace Turtle's") for o in legal(m, "Koi"))  # 2 clans
    act(m, "Koi", "replace Dragonfly's Bushi in Kyoto with Bushi")
    assert m.to_act() == []  # two figures replaced
    assert count(m, "Koi", "Komainu", "Nagato") == 1 and count(m, "Koi", "Bushi", "Kyoto") == 1
    assert count(m, "Turtle", "Oni of Skulls", "Reserve") == 1
    assert count(m, "Dragonfly", "Bushi", "Reserve") == 6
    assert "killed" not in " ".join(m.log(None))


def test_betray_breaks_the_alliance_and_costs_honor_only_if_allied() -> None:
    """rising_sun.md §6.2, §16.5: an allied betrayer's alliance breaks at once and it loses 1
    Honor; unallied, no Honor is lost; Shinto on shrines are immune; no Shinto climbs (a
    replacement is not a Summon)."""
    m = table()
    ally(m, "Lotus", "Turtle")
    put(m, "Koi", "Shinto", "Hachiman")
    put(m, "Koi", "Shinto", "Edo")
    select(m, "Lotus", "Betray")
    assert m.state.ally == [-1] * 4
    assert m.state.honor == [seat(m, c) for c in ("Koi", "Turtle", "Lotus", "Dragonfly")]
    options = legal(m, "Lotus")
    assert options == ["replace Koi's Shinto in Edo with Shinto", "end betrayal"]
    act(m, "Lotus", "replace Koi's Shinto in Edo with Shinto")
    assert count(m, "Lotus", "Shinto", "Edo") == 1
    m2 = table()
    before = list(m2.state.honor)
    select(m2, "Lotus", "Betray")
    assert m2.state.honor == before


def test_the_harvest_example() -> None:
    """rising_sun.md §6.2 (seed Harvest example): Dragonfly selects Harvest and takes 1 Coin;
    its Bonus gives Nagato (alone: 1 VP, 1 Coin, 1 Ronin), Kansai (2 against 1 and 1: 3 VP)
    and Kyoto (2 against Turtle's 2, won on Honor: 4 VP), but not Edo (1 against Koi's 1, Koi
    has more Honor) nor Oshu (1 against Koi's 2)."""
    m = table()
    honor(m, "Koi", "Lotus", "Dragonfly", "Turtle")
    put(m, "Dragonfly", "Bushi", "Nagato")
    put(m, "Dragonfly", "Bushi", "Kansai", 2)
    put(m, "Lotus", "Bushi", "Kansai")
    put(m, "Turtle", "Shinto", "Kansai")
    put(m, "Dragonfly", "Bushi", "Kyoto", 2)
    put(m, "Turtle", "Bushi", "Kyoto", 2)
    put(m, "Dragonfly", "Shinto", "Edo")
    put(m, "Koi", "Bushi", "Edo")
    put(m, "Dragonfly", "Daimyo", "Oshu")
    put(m, "Koi", "Bushi", "Oshu", 2)
    lines = select(m, "Dragonfly", "Harvest")
    assert has(m, "Dragonfly") == {"vp": 1 + 3 + 4, "coins": 1 + 1, "ronin": 1}
    assert has(m, "Koi") == {"vp": 0, "coins": 1, "ronin": 0}  # everyone takes 1 Coin
    assert "Dragonfly harvests Kyōto, Kansai, Nagato: 8 VP, 1 Coin, 1 Ronin" in lines


def test_harvest_bonus_goes_to_the_ally_too() -> None:
    """rising_sun.md §6.1: the selector's ally gets the Bonus as well; others only the Coin."""
    m = table()
    ally(m, "Koi", "Turtle")
    put(m, "Turtle", "Bushi", "Kyoto")
    put(m, "Lotus", "Bushi", "Kansai")
    select(m, "Koi", "Harvest")
    assert has(m, "Turtle") == {"vp": 4, "coins": 1, "ronin": 0}
    assert has(m, "Lotus") == {"vp": 0, "coins": 1, "ronin": 0}


def test_a_mandate_turn_draws_four_keeps_one_and_returns_three() -> None:
    """rising_sun.md §6.1, §1: the holder draws the top 4 of the 10 tiles, keeps 1 face up and
    returns 3 face down on top; all clans perform it clockwise from the selector's left with
    the selector last; the deck then passes left; the first holder is the top of the Honor
    track, and after the third Mandate comes a Kami Turn."""
    m = sengoku.new_match("rising_sun", 4, seed=11, options={"clans": "fixed", "gifts": False})
    while m.view(None)["phase"] == "tea":
        m.act(m.to_act()[0], "no alliance")
    koi = 0
    assert m.to_act() == [koi] and m.view(None)["deck_size"] == 6
    drawn = m.view(koi)["drawn"]
    assert len(drawn) == 4 and m.view(1)["drawn"] is None
    first = m.legal_actions(koi)[0]
    m.act(koi, first)
    assert m.view(None)["deck_size"] == 9
    assert m.view(None)["mandates"] == [first.mandate]
    assert m.view(koi)["my_draws"] == [[0, sorted(drawn)]]
    while m.view(None)["selectors"] == [koi]:  # the Mandate is carried out
        seat_now = m.to_act()[0]
        m.act(seat_now, m.legal_actions(seat_now)[-1])
    assert m.view(None)["holder"] == 1  # passed to Lotus, on Koi's left


def test_train_is_performed_by_the_selector_first() -> None:
    """rising_sun.md §6.1, §6.2: Train is the one Mandate the selector performs first, then
    clockwise; a player may buy only one card, and copies of a card stack."""
    m = table()
    coins(m, Koi=9, Lotus=9, Turtle=9, Dragonfly=9)
    select(m, "Turtle", "Train")
    order = []
    while m.to_act():
        clan = to_act(m)[0]
        order.append(clan)
        act(
            m,
            clan,
            "buy Way of the Shogun" if "buy Way of the Shogun" in legal(m, clan) else "buy nothing",
        )
    assert order == ["Turtle", "Dragonfly", "Koi", "Lotus"]
    assert [len(o) for o in m.state.owned] == [0, 0, 1, 1]


def test_an_illegal_choice_is_refused_and_changes_nothing() -> None:
    """rising_sun.md §6.2: a Recruit at a province without a Stronghold, or a card one cannot
    pay for, is refused with a reason."""
    m = table()
    put(m, "Koi", "Stronghold", "Edo")
    select(m, "Koi", "Recruit")
    while to_act(m) != ["Koi"]:
        act(m, to_act(m)[0], "end recruit")
    before = m.view(0)
    with pytest.raises(IllegalActionError):
        act(m, "Koi", "summon Bushi in Kyoto")
    assert m.view(0) == before
    assert vp(m, "Koi") == 0

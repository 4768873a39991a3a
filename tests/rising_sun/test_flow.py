"""Set-up, seating, Honor, the Seasons' course, the Tea Ceremony and player counts."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest

import sengoku
from sengoku.core import Match, OptionError
from sengoku.games.rising_sun.state import SHRINE

from .helpers import (
    CLANS,
    MANDATE,
    P,
    act,
    ally,
    coins,
    count,
    give,
    has,
    honor,
    kami_turn,
    passive,
    play_until,
    put,
    seat,
    select,
    table,
    to_act,
    vp,
    war_in,
)


def game(players: int = 4, seed: int = 1, **options: Any) -> Match:
    return sengoku.new_match("rising_sun", players, seed=seed, options={"gifts": False, **options})


def phase(m: Match) -> str:
    return str(m.view(None)["phase"])


def mandates_per_season(m: Match) -> list[int]:
    """How many Mandates were selected in each Season begun so far, from the log."""
    counts: list[int] = []
    for line in m.log(None):
        if line.endswith(" begins") and line.split()[0] in ("Spring", "Summer", "Autumn"):
            counts.append(0)
        elif " selects " in line or " announces " in line:
            counts[-1] += 1
    return [c for c in counts if c]


# ---------------------------------------------------------------------- set-up


def test_seating_and_the_first_player_follow_honor_rank() -> None:
    """rising_sun.md §2.1, §16.2.1, §4.1: clans sit clockwise in Honor rank order (Koi, Lotus,
    Turtle, Dragonfly, Bonsai), whatever seat plays them; the Honor track starts in that order;
    the top clan holds the Mandate deck and takes the first Mandate Turn."""
    for seed in range(1, 12):
        m = game(5, seed)
        view = m.view(None)
        ranks = [CLANS.index(view["clans"][q]) for q in view["order"]]
        assert ranks == sorted(ranks)
        assert view["honor"] == view["order"]
        assert view["holder"] == view["order"][0] and view["clans"][view["holder"]] == "Koi"
    m = game(3, 4)
    clans = m.view(None)["clans"]
    assert len(set(clans)) == 3 and set(clans) <= set(CLANS)


def test_clans_are_given_fixed_random_or_chosen() -> None:
    """rising_sun.md §2.1, §4.1 (option clans): fixed gives seat i the i-th clan of clan_list;
    random draws; chosen lets each seat in turn take one of the clans left."""
    m = game(3, clans="fixed", clan_list="Bonsai, Turtle, Koi, Lotus")
    assert m.view(None)["clans"] == ["Bonsai", "Turtle", "Koi"]
    assert m.view(None)["order"] == [2, 1, 0]  # Koi, Turtle, Bonsai clockwise
    drawn = {tuple(game(4, seed).view(None)["clans"]) for seed in range(8)}
    assert len(drawn) > 1
    m = game(3, clans="chosen", clan_list="Koi, Turtle, Bonsai, Dragonfly")
    assert phase(m) == "clans" and m.to_act() == [0]
    assert [str(a) for a in m.legal_actions(0)] == [
        "choose Koi",
        "choose Turtle",
        "choose Dragonfly",
        "choose Bonsai",
    ]
    m.act(0, "choose Bonsai")
    assert "choose Bonsai" not in [str(a) for a in m.legal_actions(1)]
    m.act(1, "choose Turtle")
    m.act(2, "choose Dragonfly")
    assert phase(m) == "tea" and m.view(None)["order"] == [1, 2, 0]
    with pytest.raises(OptionError, match="4 players need 4 clans"):
        game(4, clans="fixed", clan_list="Koi, Lotus, Turtle")


def test_starting_pieces_shrines_and_the_mandate_deck() -> None:
    """rising_sun.md §1, §2.2, §4.1: each clan has 10 figures (1 Daimyo, 3 Shinto, 6 Bushi) and 4
    Strongholds, and starts with its Daimyo, a Bushi and a Stronghold at home, the rest in its
    Reserve, on 0 VP; 4 different Kami of the 7 are drawn onto the shrines; the Mandate deck has
    10 tiles, 2 of each Mandate."""
    m = game(5, 3, clans="fixed")
    s = m.state
    homes = {
        "Koi": "Edo",
        "Lotus": "Nagato",
        "Turtle": "Kyoto",
        "Dragonfly": "Hokkaido",
        "Bonsai": "Kyushu",
    }
    for clan, home in homes.items():
        q = seat(m, clan)
        assert [count(m, clan, k, home) for k in ("Daimyo", "Bushi", "Shinto", "Stronghold")] == [
            1,
            1,
            0,
            1,
        ]
        assert [
            count(m, clan, k, "Reserve") for k in ("Daimyo", "Bushi", "Shinto", "Stronghold")
        ] == [0, 5, 3, 3]
        assert s.vp[q] == 0
    assert len(s.shrines) == 4 == len(set(s.shrines))
    shrines = {tuple(game(4, seed).state.shrines) for seed in range(6)}
    assert len(shrines) > 1
    pool = Counter(s.deck + s.drawn)
    assert pool == Counter(dict.fromkeys(range(5), 2))


def test_player_counts_change_only_the_war_numbers_and_the_empty_honor_slots() -> None:
    """rising_sun.md §10, §16.7, §1: players + 2 War Numbers each Season (5, 6, 7), on different
    provinces; the Honor track holds just the clans in play; 7 Mandate Turns whatever the count."""
    for players, wars in ((3, 5), (4, 6), (5, 7)):
        m = game(players, 2)
        war = m.view(None)["war"]
        assert len(war) == wars == len(set(war))
        assert sorted(m.view(None)["honor"]) == list(range(players))
        play_until(m, lambda m: m.view(None)["season"] == "summer")
        assert mandates_per_season(m) == [7]


def test_jd_s_wrong_rules_are_not_followed() -> None:
    """rising_sun.md §11 (the AI-written notes that get rules wrong): a Season has 7 Mandate
    Turns, not players + 2; the next selector is the left neighbour, not the next in Honor; final
    scoring adds no points for Honor or Monsters by themselves (§4.3)."""
    m = game(5, 9, clans="fixed")
    m.state.honor = list(reversed(m.state.honor))
    play_until(m, lambda m: m.outcome() is not None)
    assert mandates_per_season(m) == [7, 7, 7]
    picks = [
        line.split()[0] for line in m.log(None) if " selects " in line or " announces " in line
    ]
    clockwise = ["Koi", "Lotus", "Turtle", "Dragonfly", "Bonsai"]
    for a, b in itertools.pairwise(picks):
        assert clockwise[(clockwise.index(a) + 1) % 5] == b
    t = table()
    give(t, "Koi", "Oni of Skulls")
    from .helpers import winter

    winter(t)
    assert t.state.final == [0, 0, 0, 0]


# ---------------------------------------------------------------------- Honor


def test_honor_moves_by_single_swaps_and_amaterasu_jumps_to_the_top() -> None:
    """rising_sun.md §3, §16.5: gaining Honor swaps with the clan above, losing with the clan
    below, with no effect at the ends; Amaterasu puts a clan on top and those above drop one."""
    from sengoku.games.rising_sun import honor as track

    m = table()
    s = m.state
    log: list[Any] = []
    koi, lotus, turtle, dragonfly = (seat(m, c) for c in ("Koi", "Lotus", "Turtle", "Dragonfly"))
    track.gain_honor(s, turtle, 1, log)
    assert s.honor == [koi, turtle, lotus, dragonfly]
    track.gain_honor(s, koi, 3, log)
    assert s.honor == [koi, turtle, lotus, dragonfly]
    track.lose_honor(s, koi, 2, log)
    assert s.honor == [turtle, lotus, koi, dragonfly]
    track.lose_honor(s, dragonfly, 1, log)
    assert s.honor == [turtle, lotus, koi, dragonfly]
    track.honor_to_top(s, dragonfly, log)
    assert s.honor == [dragonfly, turtle, lotus, koi]


def test_every_tie_goes_to_honor() -> None:
    """rising_sun.md §3: Force in a province (Harvest), on a shrine (Kami Turn) and Coins on a
    War Advantage all tie in favour of the higher Honor."""
    m = table()
    honor(m, "Turtle", "Koi", "Lotus", "Dragonfly")
    put(m, "Koi", "Bushi", "Kyoto")
    put(m, "Turtle", "Bushi", "Kyoto")
    put(m, "Koi", "Shinto", "Tsukuyomi")
    put(m, "Turtle", "Shinto", "Tsukuyomi")
    select(m, "Koi", "Harvest")
    ally(m, "Koi", "Lotus")
    assert has(m, "Koi")["vp"] == 0  # Kyoto tied: Turtle's
    lines = kami_turn(m)
    assert "Turtle wins Tsukuyomi's shrine" in lines


# ---------------------------------------------------------------------- the Seasons


def test_seasonal_setup_cards_income_and_the_seasons_course() -> None:
    """rising_sun.md §4.2, §14, §16.5: each Season lays out its 12 cards (7 Core and 5 of the
    set; unbought ones stay, option carry_over_cards), every clan takes its income, then the Tea
    Ceremony, the Political Phase (Kami Turns after the 3rd, 5th and 7th Mandate), War and
    Cleanup; three Seasons, then Winter."""
    m = game(4, 6, clans="fixed")
    assert len(m.view(None)["display"]) == 12
    assert m.view(None)["coins"] == [5, 7, 6, 6]
    play_until(m, lambda m: m.outcome() is not None)
    log = m.log(None)
    starts = ("Spring", "Summer", "Autumn", "Winter", "Kami", "the War Phase", "Seasonal Cleanup")
    marks = [
        line if line.startswith("Kami") else next(p for p in starts if line.startswith(p))
        for line in log
        if line.startswith(starts)
    ]
    one = ["Kami Turn 1", "Kami Turn 2", "Kami Turn 3", "the War Phase", "Seasonal Cleanup"]
    assert marks == ["Spring", *one, "Summer", *one, "Autumn", *one, "Winter"]
    selected = [i for i, line in enumerate(log) if " selects " in line or " announces " in line]
    kami = [i for i, line in enumerate(log) if line.startswith("Kami Turn")]
    assert [sum(1 for x in selected if x < k) for k in kami] == [3, 5, 7, 10, 12, 14, 17, 19, 21]
    m2 = game(4, 6, carry_over_cards=False)
    play_until(m2, lambda m: m.view(None)["season"] == "summer")
    assert len(m2.view(None)["display"]) == 12
    m3 = game(4, 6)
    play_until(m3, lambda m: m.view(None)["season"] == "summer")
    assert len(m3.view(None)["display"]) == 24  # nobody bought anything in Spring


def test_cleanup_discards_coins_and_ronin_and_sends_worshippers_home() -> None:
    """rising_sun.md §4.2, §7: at the Seasonal Cleanup all Coins and Ronin are discarded, every
    figure on a shrine goes back to its owner's Reserve, map figures stay, and the deck waits
    with the clan left of the last selector, who starts the next Season."""
    from sengoku.games.rising_sun.season import T_CLEANUP

    from .helpers import run_task

    m = table(empty=False)
    s = m.state
    s.ronin = [2, 0, 1, 0]
    s.coins = [3, 1, 0, 4]
    put(m, "Turtle", "Shinto", "Raijin")
    on_map = [f for f in range(len(s.loc)) if 0 <= s.loc[f] < 8]
    select(m, "Lotus", "Harvest")  # Lotus's Mandate Turn; the deck passes to Turtle
    run_task(m, (T_CLEANUP,))
    assert not any(SHRINE <= loc < SHRINE + 4 for loc in s.loc)
    assert count(m, "Turtle", "Shinto", "Reserve") == 3
    assert all(0 <= s.loc[f] < 8 for f in on_map)
    assert s.ronin == [0, 0, 0, 0]
    assert s.coins == [5, 7, 6, 6]  # only the next Season's income: the old Coins are gone
    assert m.view(None)["holder"] == seat(m, "Turtle")
    assert phase(m) == "tea" and m.view(None)["season"] == "summer"


def test_hostages_come_home_at_the_next_seasonal_setup_with_a_coin_for_the_captor() -> None:
    """rising_sun.md §4.2, §16.5: every hostage returns to its owner's Reserve at the next
    Seasonal Setup, after income, and its captor takes 1 Coin from the pile for each."""
    from .test_war import bid

    m = table()
    put(m, "Koi", "Bushi", "Kyoto")
    put(m, "Lotus", "Bushi", "Kyoto", 2)
    coins(m, Koi=1)
    war_in(m, "Kyoto")
    bid(m, "Lotus", 0, 0, 0, 0)
    bid(m, "Koi", 0, 1, 0, 0)
    act(m, "Koi", "decline seppuku", "take Lotus's Bushi hostage")
    from sengoku.games.rising_sun.season import T_SEASON

    from .helpers import run_task

    m.state.coins = [0, 0, 0, 0]
    lines = run_task(m, (T_SEASON, 1))
    assert "Lotus's Bushi returns home from Koi" in lines
    assert has(m, "Koi")["coins"] == 5 + 1
    assert count(m, "Lotus", "Bushi", "Reserve") == 6  # 4 never out, 1 killed, 1 home


def test_one_war_token_per_province_each_season() -> None:
    """rising_sun.md §15.4, §16.1.4: a Season's War Numbers go to different provinces (one token
    per province and Season, drawn at random), numbered 1..N in draw order."""
    seen = set()
    for seed in range(10):
        m = game(5, seed)
        war = m.view(None)["war"]
        assert len(set(war)) == 7
        seen.add(tuple(war))
    assert len(seen) == 10


# ---------------------------------------------------------------------- the Tea Ceremony


def test_tea_ceremony_offers_answers_and_one_ally_each() -> None:
    """rising_sun.md §4.2, §16.5: clockwise from the deck holder, unallied clans may offer an
    alliance to unallied clans, who accept or refuse; a clan has at most one ally; a clan may
    offer again to another clan later; with 3 players someone stays unallied."""
    m = game(4, 1, clans="fixed")
    assert phase(m) == "tea" and m.to_act() == [0]
    assert [str(a) for a in m.legal_actions(0)] == [
        "offer alliance to Lotus",
        "offer alliance to Turtle",
        "offer alliance to Dragonfly",
        "no alliance",
    ]
    m.act(0, "offer alliance to Turtle")
    assert m.to_act() == [2] and [str(a) for a in m.legal_actions(2)] == [
        "accept alliance with Koi",
        "refuse alliance with Koi",
    ]
    m.act(2, "refuse alliance with Koi")
    assert m.to_act() == [1]  # Lotus is next clockwise
    m.act(1, "offer alliance to Dragonfly")
    m.act(3, "accept alliance with Lotus")
    assert m.view(None)["ally"] == [-1, 3, -1, 1]
    assert m.to_act() == [2]  # Dragonfly is allied now; Turtle's turn
    assert [str(a) for a in m.legal_actions(2)] == ["offer alliance to Koi", "no alliance"]
    m.act(2, "offer alliance to Koi")
    m.act(0, "accept alliance with Turtle")
    assert phase(m) == "political"
    assert m.view(None)["alliance_seasons"] == [1, 1, 1, 1]
    m3 = game(3, 1)
    play_until(m3, lambda m: phase(m) != "tea", chooser=lambda m, q: m.legal_actions(q)[0])
    assert sorted(m3.view(None)["ally"]).count(-1) >= 1


def test_alliances_end_at_the_next_tea_ceremony_and_none_form_later() -> None:
    """rising_sun.md §4.2, §16.5: an alliance lasts the Season; the next Tea Ceremony ends it; no
    alliance is formed outside the Tea Ceremony."""

    def allying(m: Match, q: int) -> Any:
        options = [str(a) for a in m.legal_actions(q)]
        for text in options:
            if text.startswith(("offer alliance", "accept alliance")):
                return m.parse_action(q, text)
        return passive(m, q)

    m = game(4, 3, clans="fixed")
    play_until(m, lambda m: phase(m) != "tea", chooser=allying)
    assert m.view(None)["ally"].count(-1) == 0
    offers = set()
    while m.view(None)["season"] == "spring" and m.outcome() is None:  # no new alliance
        q = m.to_act()[0]
        offers |= {str(a) for a in m.legal_actions(q) if "alliance" in str(a)}
        m.act(q, passive(m, q))
    assert offers == set()
    assert phase(m) == "tea" and m.view(None)["ally"] == [-1] * 4


def test_gifts_of_coins_and_ronin_in_the_tea_ceremony_and_political_phase() -> None:
    """rising_sun.md §4.2 (negotiation, option gifts): a clan may give a Coin or a Ronin to
    another at each of its decisions in the Tea Ceremony and the Political Phase; a gift does not
    end the decision; with gifts off they are not offered."""
    m = sengoku.new_match("rising_sun", 3, seed=1, options={"clans": "fixed"})
    koi = 0
    assert "give 1 coin to Lotus" in [str(a) for a in m.legal_actions(koi)]
    m.act(koi, "give 1 coin to Lotus")
    assert m.view(None)["coins"][:2] == [4, 8] and m.to_act() == [koi]
    assert "give 1 coin to Lotus" not in [str(a) for a in game(3, 1).legal_actions(koi)]
    m.state.ronin[koi] = 1
    m._legal.clear()
    m.act(koi, "give 1 ronin to Turtle")
    assert m.view(None)["ronin"] == [0, 0, 1]


def test_allies_get_each_others_bonus_and_stay_opponents_for_cards() -> None:
    """rising_sun.md §4.2 (effects of an alliance), §6.1: the selector's ally performs the Bonus
    too, and a clan that is no ally does not; allies are still opponents for card effects
    (Oni of Spite steals from an allied clan of higher Honor)."""
    m = table()
    ally(m, "Koi", "Turtle")
    coins(m, Turtle=3, Lotus=3)
    select(m, "Koi", "Marshal")
    assert to_act(m) == ["Turtle"]  # Lotus has nothing to move and no Bonus; Turtle builds
    act(m, "Turtle", "build a Stronghold in Oshu")
    assert count(m, "Turtle", "Stronghold", "Oshu") == 1 and m.to_act() == []
    m = table(season_set="archway")
    ally(m, "Koi", "Dragonfly")
    give(m, "Dragonfly", "Oni of Spite", season_set="archway")
    put(m, "Dragonfly", "Oni of Spite", "Kansai")
    put(m, "Koi", "Bushi", "Kyoto")
    m.state.vp[seat(m, "Koi")] = 4
    select(m, "Lotus", "Marshal")
    act(m, "Dragonfly", "move Oni of Spite from Kansai to Kyoto")
    assert vp(m, "Koi") == 2 and vp(m, "Dragonfly") == 2


def test_mandate_deck_and_clan_data_options_take_effect() -> None:
    """rising_sun.md §15.6, §15.8, §16.8 (options mandate_deck, clan_homes, clan_incomes): the
    Mandate deck's make-up and each clan's home and income are data a corrected printing can
    change; bad values are refused."""
    m = game(
        3, 1, clans="fixed", mandate_deck="Recruit: 4, Marshal: 2, Train: 2, Harvest: 2, Betray: 0"
    )
    assert Counter(m.state.deck + m.state.drawn) == Counter({0: 4, 1: 2, 2: 2, 3: 2})
    homes = "Koi: Kyushu, Lotus: Nagato, Turtle: Kyoto, Dragonfly: Hokkaido, Bonsai: Edo"
    m = game(
        3,
        1,
        clans="fixed",
        clan_homes=homes,
        clan_incomes="Koi: 9, Lotus: 7, Turtle: 6, Dragonfly: 6, Bonsai: 4",
    )
    assert count(m, "Koi", "Daimyo", "Kyushu") == 1 and m.view(None)["coins"][0] == 9
    with pytest.raises(OptionError, match="at least 10 tiles"):
        game(3, mandate_deck="Recruit: 2, Marshal: 2, Train: 2, Harvest: 2, Betray: 1")
    with pytest.raises(OptionError, match="not a province"):
        game(3, clan_homes=homes.replace("Edo", "Atlantis"))
    with pytest.raises(OptionError, match="missing: Bonsai"):
        game(3, clan_incomes="Koi: 5, Lotus: 7, Turtle: 6, Dragonfly: 6")
    assert P["Kyushu"] == 7 and MANDATE["Betray"] == 4


def test_coins_and_ronin_run_out_only_with_the_box_supply_option() -> None:
    """rising_sun.md §17.5: the box holds 65 Coins and 20 Ronin, but no rule caps the supply,
    so both are unlimited by default; with ``box_supply`` a clan takes only what is left of
    the pile, and what is spent or discarded goes back to it."""
    from sengoku.games.rising_sun import honor

    for capped in (False, True):
        m = table(box_supply=capped)
        s = m.state
        coins(m, Koi=30, Lotus=34)  # 64 of 65 held: 1 left in the pile
        s.ronin = [10, 9, 0, 0]  # 19 of 20
        select(m, "Dragonfly", "Harvest")  # every clan takes 1 Coin
        if capped:  # the first to take, Koi (left of the selector), got the last Coin
            assert s.coins == [31, 34, 0, 0]
            assert m.view(None)["pile"] == {"coins": 0, "ronin": 1}
        else:
            assert m.view(2)["pile"] is None
            assert s.coins == [31, 35, 1, 1]
        honor.gain_ronin(s, seat(m, "Turtle"), 3, [])
        honor.gain_ronin(s, seat(m, "Dragonfly"), 2, [])
        assert s.ronin == ([10, 9, 1, 0] if capped else [10, 9, 3, 2])
        before = s.coins[3]
        s.coins[0] -= 5  # spent: back to the pile
        honor.gain_coins(s, seat(m, "Dragonfly"), 7, [])
        assert s.coins[3] - before == (5 if capped else 7)

"""Kami Turns, the seven Kami, Winter scoring and the five clan abilities."""

from __future__ import annotations

import sengoku

from .helpers import (
    act,
    ally,
    coins,
    count,
    give,
    has,
    honor,
    kami_turn,
    legal,
    play_until,
    put,
    seat,
    select,
    table,
    to_act,
    vp,
    war_in,
    winter,
)
from .test_war import bid

# ---------------------------------------------------------------------- Kami Turns


def test_shrines_resolve_left_to_right_and_amaterasu_can_decide_a_later_tie() -> None:
    """rising_sun.md §6.3, §16.3.1: the shrines are taken left to right, each ability at once;
    Amaterasu's winner goes to the top of the Honor track, which wins it a later tie; an empty
    shrine is skipped."""
    m = table(shrines=("Amaterasu", "Tsukuyomi", "Hachiman", "Raijin"))
    honor(m, "Koi", "Lotus", "Turtle", "Dragonfly")
    put(m, "Turtle", "Shinto", "Amaterasu")
    put(m, "Turtle", "Shinto", "Tsukuyomi")
    put(m, "Koi", "Shinto", "Tsukuyomi")
    lines = kami_turn(m)
    assert lines[:3] == [
        "Kami Turn 1",
        "Turtle wins Amaterasu's shrine",
        "Turtle rises to the top of the Honor track (Turtle > Koi > Lotus > Dragonfly)",
    ]
    assert "Turtle wins Tsukuyomi's shrine" in lines  # 1-1 with Koi: Turtle's Honor is higher now
    assert has(m, "Turtle")["coins"] == 2
    assert not any("Hachiman" in line or "Raijin" in line for line in lines)


def test_shinto_stay_on_their_shrine_for_every_kami_turn_of_the_season() -> None:
    """rising_sun.md §6.3, §4.2: a Shinto stays on its shrine until the Cleanup, so it counts in
    each of the Season's three Kami Turns."""
    m = table(shrines=("Hachiman", "Amaterasu", "Tsukuyomi", "Susanoo"))
    put(m, "Lotus", "Shinto", "Hachiman")
    for _ in range(3):
        kami_turn(m)
    assert has(m, "Lotus")["ronin"] == 6
    assert count(m, "Lotus", "Shinto", "Hachiman") == 1


def test_each_kami_ability() -> None:
    """rising_sun.md §6.4, §16.3.1: Amaterasu (top of Honor), Fujin (up to 2 Moves, one figure
    twice), Hachiman (2 Ronin), Raijin (Summon a Bushi anywhere, a Summon that triggers cards),
    Ryujin (a card at full price; Bonsai's cap still holds), Susanoo (1 VP per Stronghold on the
    Map), Tsukuyomi (2 Coins)."""
    m = table(shrines=("Fujin", "Hachiman", "Susanoo", "Tsukuyomi"))
    put(m, "Koi", "Shinto", "Fujin")
    put(m, "Koi", "Bushi", "Edo")
    put(m, "Lotus", "Shinto", "Hachiman")
    put(m, "Turtle", "Shinto", "Susanoo")
    put(m, "Turtle", "Stronghold", "Kyoto", 2)
    put(m, "Turtle", "Stronghold", "Oshu")
    put(m, "Dragonfly", "Shinto", "Tsukuyomi")
    kami_turn(m)
    assert to_act(m) == ["Koi"]
    act(m, "Koi", "move Bushi from Edo to Kyoto", "move Bushi from Kyoto to Kansai")
    assert count(m, "Koi", "Bushi", "Kansai") == 1
    assert has(m, "Lotus")["ronin"] == 2 and vp(m, "Turtle") == 3
    assert has(m, "Dragonfly")["coins"] == 2
    m = table(clans=("Koi", "Lotus", "Bonsai"), shrines=("Raijin", "Ryujin", "Amaterasu", "Fujin"))
    give(m, "Koi", "Path of the Warlord")
    put(m, "Koi", "Shinto", "Raijin")
    put(m, "Bonsai", "Shinto", "Ryujin")
    coins(m, Bonsai=1)
    kami_turn(m)
    assert "summon Bushi in Kyushu" in legal(m, "Koi")
    act(m, "Koi", "summon Bushi in Kyushu")
    assert has(m, "Koi")["coins"] == 1  # the Warlord fires: Raijin's is a Summon
    assert "buy Way of the Shogun" in legal(m, "Bonsai")
    act(m, "Bonsai", "buy Way of the Shogun")
    assert has(m, "Bonsai")["coins"] == 0
    m = table(shrines=("Ryujin", "Amaterasu", "Fujin", "Raijin"))
    put(m, "Lotus", "Shinto", "Ryujin")
    coins(m, Lotus=1)
    kami_turn(m)
    assert "buy Way of the Shogun" not in legal(m, "Lotus")  # full price: 2


# ---------------------------------------------------------------------- Winter


def test_winter_scores_tokens_by_season_and_the_set_bonus() -> None:
    """rising_sun.md §4.3, §16.6: War Province tokens give 1 VP (Spring), 2 (Summer) or 3
    (Autumn); tokens of 3-4 different provinces add 10 VP, 5-6 add 20, 7-8 add 30, duplicates not
    counted; Coins, Ronin and Honor give nothing."""
    m = table()
    koi, lotus = seat(m, "Koi"), seat(m, "Lotus")
    m.state.tokens[koi] = [0, 8 + 0, 16 + 1, 2]  # Hokkaido twice, Oshu, Edo
    m.state.tokens[lotus] = [16 + p for p in range(7)]
    coins(m, Turtle=9)
    lines = winter(m)
    assert vp(m, "Koi") == 1 + 2 + 3 + 1 + 10
    assert vp(m, "Lotus") == 7 * 3 + 30
    assert vp(m, "Turtle") == 0
    assert "Koi gains 10 VP for tokens of 3 different provinces" in lines
    assert m.view(None)["breakdown"][koi] == [0, 0, 7, 10, 0]


def test_a_final_tie_goes_to_honor_and_allies_share_it() -> None:
    """rising_sun.md §4.3, §16.6, §16.5 (option alliance_into_winter): most VP wins; a tie goes
    to the highest Honor; tied leaders who are allies (the Autumn alliance lasts into Winter)
    share the win; with the option off they do not, and the log says the alliance ended."""
    m = table()
    m.state.vp = [10, 10, 4, 10]
    honor(m, "Dragonfly", "Lotus", "Koi", "Turtle")
    winter(m)
    assert m.outcome().winners == (seat(m, "Dragonfly"),)
    assert m.outcome().ranks == (3, 2, 4, 1)
    m = table()
    m.state.vp = [10, 10, 4, 10]
    honor(m, "Dragonfly", "Lotus", "Koi", "Turtle")
    ally(m, "Dragonfly", "Koi")
    winter(m)
    assert m.outcome().winners == (seat(m, "Koi"), seat(m, "Dragonfly"))
    from sengoku.games.rising_sun.season import T_CLEANUP

    from .helpers import run_task

    m = table(alliance_into_winter=False)
    m.state.vp = [10, 10, 4, 10]
    m.state.season = 2
    honor(m, "Dragonfly", "Lotus", "Koi", "Turtle")
    ally(m, "Dragonfly", "Koi")
    lines = run_task(m, (T_CLEANUP,))
    assert m.outcome().winners == (seat(m, "Dragonfly"),)
    # the end of the Autumn alliance is told, as every other change is
    assert "the Autumn alliances end before the Winter scoring" in lines
    assert lines.index("the Autumn alliances end before the Winter scoring") < len(lines) - 1


def test_loyalty_in_winter_only_with_its_option() -> None:
    """rising_sun.md §16.5, §12 (option loyalty_in_winter, default off: no source has Loyalty
    fire in Winter): with it on, the whole Winter scoring is one event, +1 VP per copy."""
    for on, extra in ((False, 0), (True, 2)):
        m = table(loyalty_in_winter=on)
        give(m, "Koi", "Loyalty", "Loyalty")
        ally(m, "Koi", "Lotus")
        m.state.tokens[seat(m, "Koi")] = [16, 17, 18]
        winter(m)
        assert vp(m, "Koi") == 9 + 10 + extra
        assert m.view(None)["breakdown"][seat(m, "Koi")][4] == extra


# ---------------------------------------------------------------------- the clans


def test_koi_eddies_in_the_stream() -> None:
    """rising_sun.md §2.3, §16.2.3: at the start of War Koi's Ronin become Coins; when Koi wins
    Hire Ronin each Coin it kept back adds 1 Force."""
    m = table()
    put(m, "Koi", "Bushi", "Kyoto")
    put(m, "Lotus", "Bushi", "Kyoto", 3)
    m.state.ronin[seat(m, "Koi")] = 2
    coins(m, Koi=2, Lotus=1)
    from .helpers import start_war

    start_war(m)
    assert has(m, "Koi") == {"vp": 0, "coins": 4, "ronin": 0}
    war_in(m, "Kyoto")
    bid(m, "Koi", 0, 0, 1, 0)
    bid(m, "Lotus", 1, 0, 0, 0)
    act(m, "Lotus", "decline seppuku")
    out = act(m, "Koi", "take no hostage")
    assert "Koi wins Hire Ronin with 1 Coin (Lotus 0): +3 Force" in out
    assert "Koi wins the Battle of Kyōto with 4 Force (Lotus 3)" in out


def test_lotus_dictates_the_flow() -> None:
    """rising_sun.md §2.3, §16.2.3, §12: Lotus keeps its tile face down and announces any
    Mandate, even one it did not draw; the tile still leaves the deck; others never learn it."""
    m = sengoku.new_match("rising_sun", 3, seed=4, options={"clans": "fixed", "gifts": False})
    lotus = 1
    play_until(m, lambda m: m.view(None)["holder"] == lotus and m.view(None)["decision"] == "keep")
    drawn = m.view(lotus)["drawn"]
    kept = min(drawn)
    missing = next(x for x in range(5) if x not in drawn)
    names = ["Recruit", "Marshal", "Train", "Harvest", "Betray"]
    m.act(lotus, f"keep {names[kept]}")
    turn = len(m.view(None)["selectors"]) - 1
    assert m.view(None)["mandates"][turn] == -1 and m.view(0)["kept"][turn] is None
    assert m.view(lotus)["kept"][turn] == kept
    assert m.view(None)["deck_size"] == 10 - turn - 1
    assert [str(a) for a in m.legal_actions(lotus)] == [f"announce {n}" for n in names]
    m.act(lotus, f"announce {names[missing]}")
    assert m.view(None)["mandates"][turn] == missing
    assert m.view(0)["kept"][turn] is None and m.view(None)["kept"][turn] is None
    assert f"Lotus announces {names[missing]}" in m.log(None)
    assert not any("Lotus keeps" in line for line in m.log(0) + m.log(2) + m.log(None))
    assert f"Lotus keeps {names[kept]}" in m.log(lotus)[-3]


def test_turtle_shell_of_the_eternal() -> None:
    """rising_sun.md §2.3, §16.2.3: Turtle's Strongholds move like figures and count 1 Force
    (Harvest and War); they are never killed, taken hostage or Betrayed."""
    m = table()
    put(m, "Turtle", "Stronghold", "Kyoto")
    put(m, "Koi", "Bushi", "Edo")
    select(m, "Turtle", "Marshal")
    act(m, "Koi", "end moves")
    assert legal(m, "Turtle")[-1] == "end moves"
    assert "move Stronghold from Kyoto to Edo" in legal(m, "Turtle")
    act(m, "Turtle", "move Stronghold from Kyoto to Edo")
    assert count(m, "Turtle", "Stronghold", "Edo") == 1
    put(m, "Turtle", "Bushi", "Edo")
    coins(m, Koi=3)
    war_in(m, "Edo")
    bid(m, "Turtle", 0, 0, 0, 0)
    bid(m, "Koi", 1, 1, 1, 0)
    assert legal(m, "Koi") == ["commit seppuku", "decline seppuku"]
    act(m, "Koi", "decline seppuku")
    assert legal(m, "Koi") == ["take Turtle's Bushi hostage", "take no hostage"]
    out = act(m, "Koi", "take Turtle's Bushi hostage")
    assert "Turtle wins the Battle of Edo with 1 Force (Koi 1)" not in out
    assert "Koi wins the Battle of Edo with 1 Force (Turtle 1)" in out  # the Stronghold's 1
    assert count(m, "Turtle", "Stronghold", "Edo") == 1  # never killed nor taken
    m2 = table()
    put(m2, "Turtle", "Stronghold", "Kyoto")
    put(m2, "Turtle", "Bushi", "Kyoto")
    select(m2, "Koi", "Betray")
    assert legal(m2, "Koi") == ["replace Turtle's Bushi in Kyoto with Bushi", "end betrayal"]


def test_dragonfly_gossamer_wings() -> None:
    """rising_sun.md §2.3, §16.2.3: Dragonfly Summons into any province (still one figure per
    Stronghold, plus the Bonus) and Moves to any province, needing no border or route."""
    m = table()
    put(m, "Dragonfly", "Stronghold", "Hokkaido")
    put(m, "Dragonfly", "Bushi", "Hokkaido")
    select(m, "Dragonfly", "Recruit")
    options = legal(m, "Dragonfly")
    assert "summon Bushi in Nagato" in options and "summon Shinto in Hokkaido to Raijin" in options
    act(m, "Dragonfly", "summon Bushi in Nagato", "summon Daimyo in Shikoku")
    assert m.to_act() == []  # 1 Stronghold + the Bonus = 2 figures
    select(m, "Koi", "Marshal")
    assert to_act(m) == ["Dragonfly"]
    assert "move Bushi from Hokkaido to Kyoto" in legal(m, "Dragonfly")  # no route, no border


def test_bonsai_sacred_bounty() -> None:
    """rising_sun.md §2.3, §16.2.3: everything Bonsai buys costs at most 1 Coin (a Stronghold
    too), and discounts come after the cap: a Train Bonus purchase is free."""
    m = table(clans=("Koi", "Lotus", "Bonsai"))
    coins(m, Bonsai=1)
    select(m, "Bonsai", "Train")
    act(m, "Bonsai", "buy Oni of Skulls")
    assert has(m, "Bonsai")["coins"] == 1  # cost 2, capped to 1, then the Bonus: 0
    select(m, "Koi", "Train")
    while to_act(m) != ["Bonsai"]:
        act(m, to_act(m)[0], "buy nothing")
    act(m, "Bonsai", "buy Way of the Shogun")
    assert has(m, "Bonsai")["coins"] == 0  # cost 2, capped to 1, no Bonus

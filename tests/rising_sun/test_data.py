"""Rising Sun's data: every value with its source and certainty, checked on load, and the
defaults the reference recommends where it leaves a point open."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

import sengoku
from sengoku.core import describe_options, new_match
from sengoku.games.rising_sun.data import SETS, DataError, load_data
from sengoku.games.rising_sun.options import RisingSunOptions

D = load_data()
NAMES = ("Hokkaido", "Oshu", "Edo", "Kyoto", "Kansai", "Nagato", "Shikoku", "Kyushu")


def raw(name: str) -> Any:
    text = resources.files("sengoku.games.rising_sun").joinpath("data").joinpath(name)
    return json.loads(text.read_text(encoding="utf-8"))


def test_every_fact_names_its_source_and_certainty() -> None:
    """rising_sun.md §0: every data value carries a source (a section of the reference, with
    the reference's source tags) and a certainty."""
    for name in ("board.json", "clans.json", "kami.json", "cards.json", "game.json"):
        data = raw(name)
        assert "§" in data["source"], name
        for key, items in data.items():
            if isinstance(items, list) and items and isinstance(items[0], dict):
                for item in items:
                    assert "§" in item["source"], (name, item)
                    assert any(k.endswith("certainty") for k in item), (name, item)
            elif isinstance(items, dict):  # one fact, or facts by name (cards.json's sets)
                named = all(isinstance(v, dict) for v in items.values())
                for fact in items.values() if named else [items]:
                    assert "§" in fact["source"] and fact["certainty"], (name, key)


def test_components_and_constants() -> None:
    """rising_sun.md §1: 10 figures per clan (1 Daimyo, 3 Shinto, 6 Bushi) and 4 Strongholds;
    8 provinces; 7 Kami, 4 on shrines; 7 Mandate and 3 Kami Turns per Season; a deck of 10
    Mandates, 2 of each; players + 2 War Numbers; 7 Core and 5 Set cards per Season."""
    g = D.game
    assert (g.figures.daimyo, g.figures.shinto, g.figures.bushi, g.figures.strongholds) == (
        1,
        3,
        6,
        4,
    )
    assert len(D.provinces) == 8 and len(D.kami) == 7 and g.shrines.count == 4
    assert g.political_track.turns == "MMMKMMKMMK"
    assert g.mandates.deck == dict.fromkeys(g.mandates.names, 2)
    assert g.war_tokens.extra_over_players == 2
    for season in range(3):
        for name in SETS:
            assert len(D.cards_of(name, season)) == 12


def test_province_names_and_harvest_rewards() -> None:
    """rising_sun.md §5.1, §15.2, §16.1.1, §16.1.3: the 8 official names, and the Harvest
    rewards: Hokkaido 2 Ronin, Oshu 3 Coins, Edo 2 VP 2 Coins, Kyoto 4 VP, Kansai 3 VP, Nagato
    and Kyushu 1 VP 1 Coin 1 Ronin, Shikoku 3 Coins (M/L), each province with one War Number
    slot (§16.1.4)."""
    assert D.province_names == NAMES
    rewards = {p.name: (p.reward.vp, p.reward.coins, p.reward.ronin) for p in D.provinces}
    assert rewards == {
        "Hokkaido": (0, 0, 2),
        "Oshu": (0, 3, 0),
        "Edo": (2, 2, 0),
        "Kyoto": (4, 0, 0),
        "Kansai": (3, 0, 0),
        "Nagato": (1, 1, 1),
        "Shikoku": (0, 3, 0),
        "Kyushu": (1, 1, 1),
    }
    certainty = {p.name: p.certainty for p in D.provinces}
    assert (
        certainty["Shikoku"] == "M/L" and certainty["Kyushu"] == "M" and certainty["Kyoto"] == "H"
    )
    assert all(p.war_slots == 1 for p in D.provinces)


def test_the_map_graph_with_its_verified_flags() -> None:
    """rising_sun.md §5.2, §15.1, §16.1.2, §16.0: the 11 edges of the only map source (SA,
    translated), each with a verified flag, true only for Kansai-Nagato; Hokkaido by Shipping
    Routes only; connected, Nagato of degree 1 and Kansai of degree 5; the Nagato-Kyushu route
    only with its option."""
    edges = {(e.a, e.b): (e.kind, e.verified) for e in D.edges if not e.option}
    assert len(edges) == 11
    assert [pair for pair, (_, verified) in edges.items() if verified] == [("Kansai", "Nagato")]
    borders = {pair for pair, (kind, _) in edges.items() if kind == "border"}
    assert borders == {
        ("Kansai", "Nagato"),
        ("Oshu", "Edo"),
        ("Oshu", "Kyoto"),
        ("Edo", "Kyoto"),
        ("Kyoto", "Kansai"),
    }
    board = D.board(False)
    idx = D.index
    assert len(board.neighbours[idx["Nagato"]]) == 1 and len(board.neighbours[idx["Kansai"]]) == 5
    assert all(board.is_route(idx["Hokkaido"], q) for q in board.neighbours[idx["Hokkaido"]])
    assert idx["Kyushu"] not in board.neighbours[idx["Nagato"]]
    extra = D.board(True)
    assert idx["Kyushu"] in extra.neighbours[idx["Nagato"]] and extra.is_route(
        idx["Nagato"], idx["Kyushu"]
    )


def test_the_nagato_kyushu_route_option_allows_the_move() -> None:
    """rising_sun.md §15.1 (option extra_route_nagato_kyushu): with the option a figure may
    Move from Nagato to Kyushu; without it, not."""
    from .helpers import legal, put, select, table

    for extra in (False, True):
        m = table(extra_route_nagato_kyushu=extra)
        put(m, "Koi", "Bushi", "Nagato")
        select(m, "Lotus", "Marshal")
        assert ("move Bushi from Nagato to Kyushu" in legal(m, "Koi")) == extra


def test_clans_homes_incomes_with_their_certainty() -> None:
    """rising_sun.md §2.2, §15.3, §16.2.2: the five base clans with Honor ranks 1-5, homes Koi
    Edo, Lotus Nagato, Turtle Kyoto, Dragonfly Hokkaido, Bonsai Kyushu and incomes 5, 7, 6, 6,
    4, each with its certainty; the options default to these values."""
    assert [(c.name, c.rank, c.home, c.income) for c in D.clans] == [
        ("Koi", 1, "Edo", 5),
        ("Lotus", 2, "Nagato", 7),
        ("Turtle", 3, "Kyoto", 6),
        ("Dragonfly", 4, "Hokkaido", 6),
        ("Bonsai", 5, "Kyushu", 4),
    ]
    assert D.clans[0].home_certainty == "M/H" and D.clans[0].income_certainty == "L/M"
    defaults = {o.name: o.default for o in describe_options(RisingSunOptions)}
    assert (
        defaults["clan_homes"]
        == "Koi: Edo, Lotus: Nagato, Turtle: Kyoto, Dragonfly: Hokkaido, Bonsai: Kyushu"
    )
    assert defaults["clan_incomes"] == "Koi: 5, Lotus: 7, Turtle: 6, Dragonfly: 6, Bonsai: 4"


def test_the_seven_kami() -> None:
    """rising_sun.md §6.4, §16.3.1: the seven base Kami and their abilities."""
    assert [(k.name, k.ability) for k in D.kami] == [
        ("Amaterasu", "honor_to_top"),
        ("Fujin", "moves"),
        ("Hachiman", "ronin"),
        ("Raijin", "summon_bushi_anywhere"),
        ("Ryujin", "buy_full_cost"),
        ("Susanoo", "vp_per_stronghold"),
        ("Tsukuyomi", "coins"),
    ]


def test_the_core_and_set_card_lists() -> None:
    """rising_sun.md §9.1, §9.2, §15.5: the Core cards per Season with their costs, and the sets'
    shared Oni: Oni of Hate not in Tower, Oni of Spite not in Teapot, Oni of Souls in Spring in
    Tower; Way of Naginata twice in Tower (Summer 1, Autumn 0); Boldness costs 1 (L)."""
    core = {(c.season, c.name, c.cost) for c in D.cards if c.set == "core"}
    assert core == {
        (0, "Komainu", 2),
        (0, "Oni of Skulls", 2),
        (0, "Path of the Lion", 0),
        (0, "Righteousness", 2),
        (0, "Way of the Shogun", 2),
        (1, "Path of the Serpent", 0),
        (1, "Respect", 0),
        (1, "Way of Bushido", 3),
        (1, "Way of the Ronin", 1),
        (1, "Yurei", 3),
        (2, "Form of the Kitsune", 4),
        (2, "Form of the Phoenix", 3),
        (2, "Path of the Dragon", 3),
        (2, "River Dragon", 3),
        (2, "Way of the Moneylender", 0),
    }

    def sets_with(name: str) -> set[str]:
        return {c.set for c in D.cards if c.name == name}

    assert sets_with("Oni of Hate") == {"archway", "horseman", "teapot"}
    assert sets_with("Oni of Spite") == {"archway", "horseman", "tower"}
    assert {c.season for c in D.cards if c.name == "Oni of Souls" and c.set == "tower"} == {0}
    assert sorted((c.season, c.cost) for c in D.cards if c.name == "Way of Naginata") == [
        (1, 1),
        (2, 0),
    ]
    assert next(c.cost for c in D.cards if c.name == "Boldness") == 1


def test_monster_stats() -> None:
    """rising_sun.md §16.3.4, §1: every figure has Force 1 unless its card says otherwise:
    Yurei 2, River Dragon 5, Oni of Blood 2 (4 at lowest Honor), Oni of Skulls 1 (3)."""
    force = {c.name: (c.force, c.params.get("force")) for c in D.cards if c.type == "monster"}
    assert force["Yurei"] == (2, None) and force["River Dragon"] == (5, None)
    assert force["Oni of Blood"] == (2, 4) and force["Oni of Skulls"] == (1, 3)
    assert force["Komainu"] == force["Oni of Hate"] == force["Oni of Souls"] == (1, None)


def test_no_expansion_cards_are_in_the_base_game() -> None:
    """rising_sun.md §9.3: expansion and promo cards (Ship, Mountain, promos, Lucky Gods) are
    not part of the base game."""
    names = {c.name for c in D.cards}
    for card in (
        "Dignity",
        "Path of the Builder",
        "Piety",
        "Phoenix",
        "Daikaiju",
        "Hotei",
        "Sincerity",
    ):
        assert card not in names
    assert {c.set for c in D.cards} == {"core", *SETS}


def test_path_of_the_monkey_is_kept_in_horseman_but_marked_low() -> None:
    """rising_sun.md §16.3.3: the FAQ groups Path of the Monkey with Dynasty Invasion; it stays in
    Horseman (SA) with certainty L."""
    entry = next(c for c in raw("cards.json")["cards"] if c["name"] == "Path of the Monkey")
    assert entry["set"] == "horseman" and entry["certainty"].startswith("L")


def test_gap_defaults_are_the_recommended_readings() -> None:
    """rising_sun.md §13, §15.8, §16.8: the open points are options whose defaults are the
    reference's recommendations: Teapot set, leftover cards carried over, the literal zero-bid
    rule, DZ's 'alive' reading, Koi's unbid Coins, a lone Oni at base Force, no Nagato-Kyushu
    route, the Autumn alliance lasting into Winter."""
    o = RisingSunOptions()
    assert o.season_set.value == "teapot" and o.carry_over_cards is True
    assert o.zero_bid_wins is True and o.won_with_figure.value == "alive"
    assert o.koi_reserve_coins.value == "unallocated" and o.lowest_honor_alone is False
    assert o.extra_route_nagato_kyushu is False and o.alliance_into_winter is True
    assert o.mandate_deck == "Recruit: 2, Marshal: 2, Train: 2, Harvest: 2, Betray: 2"


def test_what_the_printed_game_would_settle_is_data_or_an_option() -> None:
    """rising_sun.md §15.7: the board's edges (verified flags), the Nagato-Kyushu route, the
    clan screens (homes, incomes) and the components (the Mandate deck) are each a data value
    or an option, so a correction from the printed game is no rewrite."""
    names = {o.name for o in describe_options(RisingSunOptions)}
    assert {
        "extra_route_nagato_kyushu",
        "clan_homes",
        "clan_incomes",
        "mandate_deck",
        "carry_over_cards",
    } <= names
    assert all(isinstance(e["verified"], bool) for e in raw("board.json")["edges"])


def test_bad_data_is_refused_on_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """rising_sun.md §5 (proposal: one data file with checks): an asymmetric or broken file is
    refused with DataError."""
    from sengoku.games.rising_sun import data

    good = data._read

    def broken(name: str) -> bytes:
        text = good(name)
        if name == "board.json":
            text = text.replace(b'"a": "Kansai", "b": "Nagato"', b'"a": "Kansai", "b": "Kansai"')
        return text

    data.load_data.cache_clear()
    monkeypatch.setattr(data, "_read", broken)
    try:
        with pytest.raises(DataError, match="not two different provinces"):
            data.load_data()
    finally:
        monkeypatch.undo()
        data.load_data.cache_clear()
        assert data.load_data().province_names == NAMES


def test_the_game_is_registered_for_3_to_5_players() -> None:
    """rising_sun.md §1, §10: the base game seats 3 to 5."""
    assert "rising_sun" in sengoku.available_games()
    assert sengoku.get_game("rising_sun").player_counts == (3, 4, 5)
    with pytest.raises(sengoku.SetupError):
        sengoku.new_match("rising_sun", 6)


def test_a_random_set_is_one_of_the_base_box_sets() -> None:
    """rising_sun.md §17.4: the retail base box holds Teapot, Horseman and Archway; Tower's
    provenance is unverified, so season_set=random draws Tower only with random_set_tower."""
    assert {n for n, s in D.sets.items() if s.in_base_box} == {"teapot", "horseman", "archway"}
    assert "unverified" in D.sets["tower"].source
    drawn = {
        new_match("rising_sun", 3, seed=seed, options={"season_set": "random"}).view(0)[
            "season_set"
        ]
        for seed in range(40)
    }
    assert drawn == {"teapot", "horseman", "archway"}
    options = {"season_set": "random", "random_set_tower": True}
    with_tower = {
        new_match("rising_sun", 3, seed=seed, options=options).view(0)["season_set"]
        for seed in range(40)
    }
    assert with_tower == {"teapot", "horseman", "archway", "tower"}

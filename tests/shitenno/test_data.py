"""The components as data (shitenno.md §2, §3): loaded, typed and checked."""

from __future__ import annotations

import pytest

import sengoku
from sengoku.games.shitenno.board import bonus_tiles, koku_deck, troop_deck
from sengoku.games.shitenno.data import DATA, KIND_UNITS, kind_of_code, load
from sengoku.games.shitenno.options import ShitennoOptions


def test_provinces_match_the_board() -> None:
    """shitenno.md §3: 8 provinces of 4 spaces; 3-troop ones 3/4/6/9, 4-troop ones 5/6/8/11,
    a majority bonus of 6, and one 3- and one 4-troop province per troop type."""
    assert len(DATA.provinces) == 8
    for p in DATA.provinces:
        expected = (3, 4, 6, 9) if p.troops_needed == 3 else (5, 6, 8, 11)
        assert p.values == expected
        assert p.majority_bonus == 6
        assert p.source
    kanto = next(p for p in DATA.provinces if p.name == "Kanto")
    assert (kanto.troop, kanto.troops_needed, kanto.display) == ("Samurai", 4, "Kantō")


def test_troop_deck_has_34_cards_of_which_10_doubles() -> None:
    """shitenno.md §2.2: 24 singles (6 per type) and the 10 unordered pairs."""
    deck = troop_deck(ShitennoOptions())
    assert len(deck) == 34
    singles = [k for k in deck if len(KIND_UNITS[k]) == 1]
    doubles = [k for k in deck if len(KIND_UNITS[k]) == 2]
    assert len(singles) == 24 and all(singles.count(t) == 6 for t in range(4))
    assert sorted(doubles) == list(range(4, 14))  # every pair exactly once
    assert kind_of_code("SaSh") == kind_of_code("ShSa")


def test_koku_deck_has_24_cards_worth_40() -> None:
    """shitenno.md §2.3: 12 x 1, 8 x 2, 4 x 3 koku = 24 cards, 40 koku."""
    deck = koku_deck(ShitennoOptions())
    assert len(deck) == 24 and sum(deck) == 40
    assert (deck.count(1), deck.count(2), deck.count(3)) == (12, 8, 4)


def test_bonus_tiles_every_pair_twice() -> None:
    """shitenno.md §2.4 and §9.2 G5: 24 tiles, each (troop type, effect) pair twice."""
    tiles = bonus_tiles(ShitennoOptions())
    assert len(tiles) == 24
    assert all(tiles.count(code) == 2 for code in range(12))
    assert [e.name for e in DATA.bonus.effects] == ["exchange", "plus_one", "draw"]


def test_titles_in_rank_order() -> None:
    """shitenno.md §2.5: Daimyo (4 seals, +2), Shomyo (3, +1), Sensei (2), Hatamoto (1)."""
    assert [(t.name, t.seals, t.placement_bonus) for t in DATA.titles] == [
        ("Daimyo", 4, 2),
        ("Shomyo", 3, 1),
        ("Sensei", 2, 0),
        ("Hatamoto", 1, 0),
    ]


def test_setup_numbers() -> None:
    """shitenno.md §4.1: 12/10/8 kamons, 2 starting troop cards; §2.6 colours."""
    assert DATA.setup.kamons_per_player == {"2": 12, "3": 10, "4": 8}
    assert DATA.setup.start_hand_troops == 2
    assert DATA.setup.colours == ("Red", "Blue", "Green", "Black")


def test_load_is_repeatable_and_checked() -> None:
    """shitenno.md §2: loading again gives the same checked data."""
    assert load() == DATA


def test_options_that_break_the_counts_are_refused() -> None:
    """shitenno.md §6 G3/G4/G5: option values must keep the box counts."""
    with pytest.raises(sengoku.OptionError, match="koku_cards"):
        sengoku.new_match("shitenno", 2, seed=1, options={"koku_cards_1": 11})
    with pytest.raises(sengoku.OptionError, match="double_troop_cards"):
        sengoku.new_match("shitenno", 2, seed=1, options={"double_troop_cards": "BuBu Xy"})
    with pytest.raises(sengoku.OptionError, match="bonus_"):
        sengoku.new_match("shitenno", 2, seed=1, options={"bonus_draw_tiles": 9})
    with pytest.raises(sengoku.OptionError, match="kamons_4_players"):
        sengoku.new_match("shitenno", 4, seed=1, options={"kamons_4_players": 9})
    m = sengoku.new_match(
        "shitenno", 2, seed=1, options={"koku_cards_1": 24, "koku_cards_2": 0, "koku_cards_3": 0}
    )
    assert m.view(0)["koku_deck"] == 22

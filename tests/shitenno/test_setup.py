"""Setup (shitenno.md §4.1) and the start of the first even year."""

from __future__ import annotations

import pytest

import sengoku
from sengoku.core import Rng
from sengoku.games.shitenno.actions import COLOURS, TITLE_NAMES
from sengoku.games.shitenno.state import Phase

from .util import GAME, card_words, english, new_state

TITLE_ORDER = list(TITLE_NAMES)


@pytest.mark.parametrize(("players", "kamons"), [(2, 12), (3, 10), (4, 8)])
def test_setup_per_player_count(players: int, kamons: int) -> None:
    """shitenno.md §4.1: kamons per player count (G2), 2 troop cards each, 3 bonus tiles per
    province, distinct titles dealt at random (G9: from all four), and the first even year
    opens with the Tairo's draw of 2N troop + N koku cards (G1)."""
    s, _ = new_state(players)
    assert s.kamons == [kamons] * players
    assert [sum(h) for h in s.hand_troops] == [2] * players
    assert [sum(h) for h in s.hand_koku] == [0] * players
    assert [len(t) for t in s.stacks] == [3] * 8
    assert len(set(s.titles)) == players and set(s.titles) <= {0, 1, 2, 3}
    assert s.phase is Phase.BUILD
    assert s.tairo == min(range(players), key=s.titles.__getitem__)
    assert sum(s.pool_troops) == 2 * players and sum(s.pool_koku) == players
    assert len(s.troop_deck) == 34 - 2 * players - 2 * players
    assert len(s.koku_deck) == 24 - players
    assert s.score == [0] * players
    assert s.tiles_left == [0, 1, 2, 3]
    assert GAME.to_act(s) == [s.tairo]


def test_titles_over_many_seeds_use_all_four() -> None:
    """shitenno.md §9.2 G9: with 2 players any 2 of the 4 titles may be dealt."""
    seen = set()
    for seed in range(40):
        s, _ = new_state(2, seed=seed)
        seen.update(s.titles)
    assert seen == {0, 1, 2, 3}


def test_top_n_titles_option() -> None:
    """shitenno.md §6 G9 (first proposal, option all_titles_available=False): only the top N
    titles are dealt and shared."""
    for seed in range(10):
        s, _ = new_state(3, seed=seed, all_titles_available=False)
        assert sorted(s.titles) == [0, 1, 2]
        assert s.tiles_left == [0, 1, 2]


def test_draw_counts_option() -> None:
    """shitenno.md §6 G1: the draw counts are options."""
    s, _ = new_state(4, draw_troops_per_player=1, draw_koku_per_player=2)
    assert sum(s.pool_troops) == 4 and sum(s.pool_koku) == 8


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_log_tells_titles_tairo_and_private_hands(players: int) -> None:
    """shitenno.md §4.1, §4.3 step 1: the log opens with the titles dealt and the Tairo
    laying out the cards (public); each general's starting hand is a line only he reads."""
    m = sengoku.new_match("shitenno", players, seed=9)
    view = m.view(None)
    by_rank = sorted(range(players), key=lambda p: TITLE_ORDER.index(view["titles"][p]))
    titles = ", ".join(f"{COLOURS[p]} {view['titles'][p]}" for p in by_rank)
    face_up = view["face_up"]
    cards = ", ".join(
        [card_words(c) for c in face_up["troops"]] + [f"koku {v}" for v in face_up["koku"]]
    )
    opening = [
        f"titles dealt: {titles}",
        f"round 1, even year: {COLOURS[view['tairo']]} is the Tairo and lays out {cards}",
    ]
    assert m.log(None) == opening
    for seat in range(players):
        hand = ", ".join(card_words(c) for c in m.view(seat)["hand"]["troops"])
        assert m.log(seat) == [opening[0], f"{COLOURS[seat]} starts with {hand}", opening[1]]
    # the hands are secret: redrawing the others' hands changes no line seat 0 may read
    entries = GAME.initial_log(m._state)
    for k in range(5):
        varied = GAME.vary_secrets(m._state, 0, Rng(k))
        other = GAME.initial_log(varied)
        assert [english(e) for e in other if e.visible_to(0)] == [
            english(e) for e in entries if e.visible_to(0)
        ]
        assert [english(e) for e in other if e.visible_to(None)] == opening

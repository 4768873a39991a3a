"""Discards, the end of the game and final scoring (shitenno.md §4.4 step 8, §4.6, §4.7;
gaps G11, G12, G17)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from sengoku.core import Rng
from sengoku.games.shitenno import board, sharing
from sengoku.games.shitenno.data import kind_of_code
from sengoku.games.shitenno.state import Phase, State

from .test_control import control
from .util import (
    CHUBU,
    CHUGOKU,
    DAIMYO,
    DRAW,
    GAME,
    HOKKAIDO,
    KYUSHU,
    SA,
    SENSEI,
    SHOMYO,
    act,
    new_state,
    set_hand,
    tile,
)


def two_player_sharing(**options: Any) -> tuple[State, Rng]:
    """A 2-player sharing with Red as Tairo (Daimyo), no face-up cards, empty hands."""
    s, rng = new_state(2, **options)
    s.titles = [DAIMYO, SHOMYO]
    s.tairo = 0
    s.pool_troops = [0] * 14
    s.pool_koku = [0, 0, 0, 0]
    set_hand(s, 0)
    set_hand(s, 1)
    return s, rng


def finish_sharing(s: State, rng: Rng) -> list[str]:
    """Red offers the Daimyo tile, Blue refuses, Blue takes the last lot with Shomyo."""
    act(s, 0, "add hierarchy tile Daimyo to the lot", rng)
    act(s, 0, "offer lot Daimyo to Blue", rng)
    act(s, 1, "refuse lot", rng)
    return act(s, 1, "take the last lot with Shomyo", rng)


def test_game_goes_on_without_a_trigger() -> None:
    """shitenno.md §4.6: with kamons left and koku in the deck the odd year follows."""
    s, rng = two_player_sharing()
    finish_sharing(s, rng)
    assert s.phase is Phase.CONTROL and GAME.outcome(s) is None


def test_end_when_a_player_has_no_kamon_left() -> None:
    """shitenno.md §4.6 (a): at the end of an even year in which a general has no kamon left
    in his supply, the game ends (G11 default: before the odd year)."""
    s, rng = two_player_sharing()
    s.kamons[1] = 0
    log = finish_sharing(s, rng)
    assert "Blue has no kamon left: the game ends" in log
    assert s.phase is Phase.OVER and GAME.to_act(s) == [] and GAME.outcome(s) is not None


def test_end_when_the_koku_deck_is_exhausted() -> None:
    """shitenno.md §4.6 (b): the sharing that empties the koku deck is the last year."""
    s, rng = two_player_sharing()
    s.koku_deck = []
    log = finish_sharing(s, rng)
    assert "the koku deck is exhausted: the game ends" in log
    assert s.phase is Phase.OVER


def test_end_after_odd_year_option() -> None:
    """shitenno.md §6 G11 (option end_after_odd_year): the odd year after the trigger is still
    played, then the game ends."""
    s, rng = two_player_sharing(end_after_odd_year=True)
    s.koku_deck = []
    finish_sharing(s, rng)
    assert s.phase is Phase.CONTROL
    act(s, 0, "end turn", rng)
    log = act(s, 1, "end turn", rng)
    assert "the koku deck is exhausted: the game ends" in log
    assert s.phase is Phase.OVER


def test_final_scoring_golden_kamons_and_leftmost_tie_break() -> None:
    """shitenno.md §4.7: 1 point per koku in hand; 6 per province majority, golden kamons
    counting 2 and a tie going to the tied player whose kamon is furthest left."""
    s, rng = two_player_sharing()
    s.score = [10, 10]
    s.board[CHUGOKU * 4 : CHUGOKU * 4 + 2] = [0, 1 + 4]  # Red 1, Blue golden 2: Blue
    s.board[CHUBU * 4 : CHUBU * 4 + 2] = [1, 0]  # 1-1: Blue is further left
    s.board[HOKKAIDO * 4 : HOKKAIDO * 4 + 3] = [0 + 4, 1, 1]  # 2-2: Red is further left
    set_hand(s, 0, ["SaSa"], [3, 1])
    set_hand(s, 1, [], [2])
    s.koku_deck = []
    log = finish_sharing(s, rng)
    assert "Blue wins the majority of Chugoku: +6" in log
    assert "Blue wins the majority of Chubu: +6" in log
    assert "Red wins the majority of Hokkaido: +6" in log
    assert not any("Kyushu" in line for line in log)
    outcome = GAME.outcome(s)
    assert outcome is not None
    assert outcome.scores == (10 + 4 + 6, 10 + 2 + 12)
    assert outcome.winners == (1,)
    assert GAME.view(s, None)["final_scores"] == [20, 24]


def test_troops_and_tiles_score_nothing() -> None:
    """shitenno.md §4.7 and §9.2 G6: troop cards and unused bonus tiles score 0; the option
    unused_tile_points changes the latter."""
    for points in (0, 1):
        s, rng = two_player_sharing(unused_tile_points=points)
        set_hand(s, 0, ["SaSa", "Bu"])
        s.tiles[0] = [0, 1]
        s.koku_deck = []
        finish_sharing(s, rng)
        outcome = GAME.outcome(s)
        assert outcome is not None and outcome.scores[0] == 2 * points


def test_tie_is_shared_by_default() -> None:
    """shitenno.md §6 G12: tied generals share the victory."""
    s, rng = two_player_sharing()
    s.board[KYUSHU * 4] = 0
    s.score = [4, 10]
    set_hand(s, 1, [], [])
    s.koku_deck = []
    finish_sharing(s, rng)
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.scores == (10, 10) and outcome.winners == (0, 1)


def test_tie_break_chain_option() -> None:
    """shitenno.md §6 G12 (option tie_break='majorities_then_koku'): most majorities first."""
    s, rng = two_player_sharing(tie_break="majorities_then_koku")
    s.board[KYUSHU * 4] = 0
    s.score = [4, 10]
    s.koku_deck = []
    finish_sharing(s, rng)
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.scores == (10, 10) and outcome.winners == (0,)


def test_spent_troops_are_reshuffled_when_the_deck_runs_out() -> None:
    """shitenno.md §4.4 step 8 and §6 G17: spent troop cards form a new deck as soon as the
    deck is empty."""
    s, rng = control()
    s.troop_deck = []
    s.troop_discard = [0] * 14
    s.troop_discard[kind_of_code("SoSo")] = 1
    s.tiles[0] = [2]  # a Bushi/Draw tile
    act(s, 0, "use Draw tile", rng)
    assert s.hand_troops[0][kind_of_code("SoSo")] == 1
    assert s.troop_discard == [0] * 14 and s.troop_deck == []


def test_spent_koku_never_come_back() -> None:
    """shitenno.md §4.4 step 8: spent koku leave the game. Koku paid for a placement are in
    no deck after the troop deck is rebuilt, nor after the next sharing's draw."""
    s, rng = control()
    s.koku_deck = [1, 1, 2, 2, 1, 1, 1, 1]
    deck_before = Counter(s.koku_deck)
    set_hand(s, 0, koku=[3, 2])
    act(s, 0, "control Kanto", rng)
    act(s, 0, "place Kanto paying koku 3+2", rng)
    assert s.koku_out == [0, 0, 1, 1] and s.hand_koku[0] == [0, 0, 0, 0]
    # force a reshuffle of the troop discards
    s.troop_deck = []
    s.troop_discard = [0] * 14
    s.troop_discard[kind_of_code("Bu")] = 3
    s.tiles[0] = [tile(SA, DRAW)]
    act(s, 0, "use Draw tile", rng)
    assert len(s.troop_deck) == 2 and all(k == kind_of_code("Bu") for k in s.troop_deck)
    assert Counter(s.koku_deck) == deck_before  # the koku deck never took them back
    assert 3 not in s.koku_deck
    for seat in (0, 1, 2, 3):
        if GAME.to_act(s) == [seat]:
            act(s, seat, "end turn", rng)
    assert s.phase is Phase.BUILD  # the next sharing laid out koku from the deck
    laid_out = Counter({v: s.pool_koku[v] for v in (1, 2, 3) if s.pool_koku[v]})
    assert laid_out + Counter(s.koku_deck) == deck_before
    assert s.pool_koku[3] == 0 and s.koku_out == [0, 0, 1, 1]


def test_sharing_draw_finishes_the_deck_before_reshuffling(monkeypatch: Any) -> None:
    """shitenno.md §6 G17 default: the last cards of the deck are drawn, then the discards are
    shuffled into a new deck to complete the Tairo's draw; with 'before_sharing' the
    discards are shuffled in first whenever the deck is short."""
    for option in ("when_empty", "before_sharing"):
        rebuilt: list[tuple[list[int], int]] = []
        reshuffle = board.reshuffle

        def spy(
            s: State,
            rng: Rng,
            reshuffle: Any = reshuffle,
            rebuilt: list[tuple[list[int], int]] = rebuilt,
        ) -> None:
            rebuilt.append((list(s.troop_deck), sum(s.pool_troops)))
            reshuffle(s, rng)

        monkeypatch.setattr(board, "reshuffle", spy)  # the draws' reshuffle
        monkeypatch.setattr(sharing, "reshuffle", spy)  # the one before a sharing
        s, rng = control(2, troop_reshuffle=option)
        s.titles = [DAIMYO, SENSEI]
        soso = kind_of_code("SoSo")
        s.troop_deck = [soso]
        s.troop_discard = [0] * 14
        s.troop_discard[kind_of_code("Bu")] = 9
        act(s, 0, "end turn", rng)
        act(s, 1, "end turn", rng)
        monkeypatch.undo()
        assert s.phase is Phase.BUILD
        assert sum(s.pool_troops) == 4 and len(s.troop_deck) == 6
        assert s.troop_discard == [0] * 14
        assert s.pool_troops[soso] + s.troop_deck.count(soso) == 1
        if option == "when_empty":
            # the SoSo was drawn first, from the old deck; the deck was then empty
            assert rebuilt == [([], 1)]
            assert s.pool_troops[soso] == 1
        else:
            # the discards were shuffled in first: the SoSo was still in the deck and
            # nothing had been drawn yet
            assert rebuilt == [([soso], 0)]


def test_before_sharing_reshuffle_mixes_the_old_deck_in() -> None:
    """shitenno.md §6 G17 ('before_sharing'): since the discards are shuffled in before the
    draw, the last card of the old deck is not always drawn; with 'when_empty' it always
    is."""
    kept = {"when_empty": 0, "before_sharing": 0}
    for option in kept:
        for seed in range(12):
            s, rng = control(2, seed=seed, troop_reshuffle=option)
            s.titles = [DAIMYO, SENSEI]
            soso = kind_of_code("SoSo")
            s.troop_deck = [soso]
            s.troop_discard = [0] * 14
            s.troop_discard[kind_of_code("Bu")] = 9
            act(s, 0, "end turn", rng)
            act(s, 1, "end turn", rng)
            kept[option] += soso in s.troop_deck
    assert kept["when_empty"] == 0 and kept["before_sharing"] > 0


def test_plural_for_several_players_without_kamons() -> None:
    """shitenno.md §4.6 (a): the end line names every general without a kamon, with the
    verb agreeing."""
    s, rng = two_player_sharing()
    s.kamons = [0, 0]
    log = finish_sharing(s, rng)
    assert "Red, Blue have no kamon left: the game ends" in log

"""Hidden information: the Mandate tiles, Lotus's face-down tile, and sampling from a view."""

from __future__ import annotations

from collections import Counter

import sengoku
from sengoku.core import Match, Rng

from .helpers import play_until


def game(seed: int = 3) -> Match:
    m = sengoku.new_match("rising_sun", 4, seed=seed, options={"clans": "fixed", "gifts": False})
    play_until(m, lambda m: m.view(None)["phase"] == "political")
    return m


def test_the_returned_tiles_are_known_to_the_returner_and_then_the_next_drawer() -> None:
    """rising_sun.md §6.1, §12: the holder alone sees the 4 tiles it draws; the 3 it puts back
    are known to it, and to the next holder once drawn (they are in its 4); the others see
    neither, only the Mandate on the track."""
    m = game()
    koi, lotus, turtle = 0, 1, 2
    drawn = m.view(koi)["drawn"]
    assert len(drawn) == 4
    assert all(m.view(q)["drawn"] is None for q in (None, lotus, turtle, 3))
    keep = m.legal_actions(koi)[0]
    m.act(koi, keep)
    back = Counter(drawn) - Counter([keep.mandate])
    assert m.view(koi)["my_draws"] == [[0, sorted(drawn)]]
    assert m.view(lotus)["my_draws"] == [] and m.view(None)["my_draws"] == []
    play_until(m, lambda m: m.view(None)["holder"] == lotus and m.view(None)["decision"] == "keep")
    assert Counter(m.view(lotus)["drawn"]) & back == back  # the 3 put back, and 1 more
    assert m.view(turtle)["drawn"] is None


def test_determinize_keeps_what_the_seat_knows_of_the_deck() -> None:
    """rising_sun.md §6.1 (issue: determinize samples the hidden parts): a state sampled from
    Koi's view, right after Koi put 3 tiles back, has exactly those 3 on top of the deck; the
    rest of the deck is drawn at random, so samples differ."""
    m = game()
    drawn = m.view(0)["drawn"]
    keep = m.legal_actions(0)[0]
    m.act(0, keep)
    back = sorted((Counter(drawn) - Counter([keep.mandate])).elements())
    while m.view(None)["decision"] != "keep":
        q = m.to_act()[0]
        m.act(q, m.legal_actions(q)[-1])
    view = m.view(0)
    decks = set()
    for seed in range(12):
        sample = sengoku.determinize(view, Rng(seed))
        assert sample.view(0) == view
        lotus_pool = sample.state.drawn
        assert Counter(lotus_pool) & Counter(back) == Counter(back)
        decks.add(tuple(sample.state.deck))
    assert len(decks) > 1
    other = sengoku.determinize(m.view(2), Rng(1))
    assert other.view(2) == m.view(2)


def test_lotus_face_down_tiles_are_sampled_for_the_others() -> None:
    """rising_sun.md §2.3, §12: the tile under Lotus's announced Mandate is unknown to the
    others; their samples put different tiles there, all consistent with the deck."""
    m = game(4)
    play_until(m, lambda m: m.view(None)["holder"] == 1 and m.view(None)["decision"] == "keep")
    m.act(1, m.legal_actions(1)[-1])
    m.act(1, "announce Harvest")
    turn = len(m.view(None)["selectors"]) - 1
    kept = {sengoku.determinize(m.view(2), Rng(s)).state.mt_kept[turn] for s in range(20)}
    assert len(kept) > 1
    truth = m.state.mt_kept[turn]
    assert all(
        sengoku.determinize(m.view(1), Rng(s)).state.mt_kept[turn] == truth for s in range(5)
    )

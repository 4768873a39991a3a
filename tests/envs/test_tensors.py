"""Kept tensors (sengoku.envs.tensors): parts made again exactly when what they read changed."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import sengoku
from sengoku.core import EncodingError, TensorPart, TensorParts
from sengoku.envs.common import TokenPlay
from sengoku.envs.tensors import KeptTensor


def _toy(made: list[str]) -> TensorParts:
    """Three parts that note when they are made: one reads ``gold``, one asks whether
    ``tower`` is in the view, one goes through the whole view."""

    def gold(v: Any) -> list[float]:
        made.append("gold")
        return [v["gold"] / 10]

    def tower(v: Any) -> dict[int, float]:
        made.append("tower")
        return {1: 1.0} if "tower" in v else {0: 1.0}

    def keys(v: Any) -> list[float]:
        made.append("keys")
        return [len(list(v)) / 10]

    return TensorParts(
        lambda view: view,
        (
            TensorPart("gold", 1, gold),
            TensorPart("tower", 2, tower, True),
            TensorPart("n", 1, keys),
        ),
    )


def test_a_part_is_made_again_only_when_a_key_it_read_changed() -> None:
    made: list[str] = []
    kept = KeptTensor(_toy(made))
    np.testing.assert_allclose(kept.update({"gold": 5, "rice": 1}), [0.5, 1.0, 0.0, 0.2], 1e-6)
    assert sorted(made) == ["gold", "keys", "tower"]
    made.clear()
    kept.update({"gold": 5, "rice": 1})  # nothing changed: nothing made
    assert made == [] and kept.made == 0
    kept.update({"gold": 5, "rice": 2})  # only the part that went through every key
    assert made == ["keys"]
    made.clear()
    array = kept.update({"gold": 3, "rice": 2, "tower": [1]})  # a key added: "in" saw it
    assert sorted(made) == ["gold", "keys", "tower"]
    np.testing.assert_allclose(array, [0.3, 0.0, 1.0, 0.3], 1e-6)


def test_a_sparse_place_off_the_part_is_an_encoding_error_and_nothing_is_kept() -> None:
    """A place past the part (or below 0) raises; the next view makes every part again."""
    calls: list[str] = []
    place = {"at": 5}
    parts = TensorParts(
        lambda view: view,
        (
            TensorPart("one", 2, lambda v: {place["at"]: 1.0} if v["x"] else {}, True),
            TensorPart("two", 1, lambda v: calls.append("two") or [0.0]),
        ),
    )
    with pytest.raises(EncodingError, match="part one has no place 5"):
        parts.tensor({"x": 1})
    kept = KeptTensor(parts)
    with pytest.raises(EncodingError, match="part one has no place 5"):
        kept.update({"x": 1})
    place["at"] = -1
    with pytest.raises(EncodingError, match="part one has no place -1"):
        kept.update({"x": 1})
    place["at"] = 1
    calls.clear()
    assert kept.update({"x": 1}).tolist() == [0.0, 1.0, 0.0]
    assert calls == ["two"]  # made again although its key did not change


def test_a_play_gives_the_kept_tensor_read_only_and_equal_to_the_whole() -> None:
    """``TokenPlay.view_array`` is ``view_tensor`` as float32, for every seat and the
    spectator, along a game; it cannot be written to."""
    play = TokenPlay(sengoku.new_match("shogun", 3, seed=2), recall=False)
    steps = 0
    while (seat := play.current_seat()) is not None and steps < 150:
        for who in (None, 0, 1, 2):
            array = play.view_array(who)
            np.testing.assert_array_equal(array, np.array(play.view_tensor(who), np.float32))
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 1.0
        play.step(play.legal_ids(seat)[-1], seat)
        steps += 1

"""Shogun's log lines and action descriptions are messages every language renders in words
(tests/messages_check.py): its catalog terms for colours, provinces, action cards, events and
special cards, and no engine code (an option value, a data kind) in the English."""

from __future__ import annotations

import re
from typing import Any

import pytest

import sengoku
from sengoku.core import Message, Rng, render
from sengoku.games.shogun.messages import CATALOG, action_message
from sengoku.sim import play_randomly
from tests.messages_check import check_random_games

#: what an engine code looks like in English: a data kind or option value (``plus_one``,
#: ``theatre_calm``), a Python ``None``, a negative sentinel (``-1``)
RAW = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|\bNone\b|(?<![\w-])-\d")

OPTIONS: list[dict[str, Any]] = [
    {},
    {"setup": "draft", "show_tower": True},
    {"board": "moon", "reveal_action_cards": "in_turn", "battle_move_optional": True},
    {"defence_card_in_revolts": True, "castle_event_in_revolts": True, "years": 1},
    {"no_theatre_event": "on_reveal", "short_recruit": "place_remaining"},
]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_line_and_move_is_a_message_in_every_language(players: int) -> None:
    """shogun.md §2-§11: every log line (each seat's and a spectator's) and every legal
    action's description of random games, draft and line-up, both boards, the options that
    change what is logged: a message whose keys each language holds, with the placeholders
    its arguments give, rendered without a code."""
    checked = 0
    for i, options in enumerate(OPTIONS):
        checked += check_random_games("shogun", players, range(10 * i, 10 * i + 2), RAW, options)
    assert checked > 300


def test_the_english_names_a_move_by_its_notation() -> None:
    """The notation is already words (docs/shogun.md): a replay's English says the same."""
    match = sengoku.new_match("shogun", 3, seed=2, options={"setup": "draft"})
    rng = Rng(2)
    seen = 0
    while to_act := match.to_act():
        legal = match.legal_actions(to_act[0])
        for action in legal:
            assert render(action_message(action), CATALOG) == str(action)
            seen += 1
        match.act(to_act[0], rng.choice(legal))
    assert seen > 1000


def test_winter_lines_are_found_by_key() -> None:
    """shogun.md §10-§11: a winter's report (the browser's winter card) runs from its
    ``shogun.log.winter`` line to the next ``shogun.log.year_begins``: rice, hunger revolts
    and the scoring."""
    match = play_randomly(sengoku.new_match("shogun", 4, seed=3), Rng(3))
    log = match.log_entries(None)
    keys = [m.key if isinstance(m, Message) else "" for m in log]
    starts = [i for i, k in enumerate(keys) if k == "shogun.log.winter"]
    assert len(starts) == 2
    first = log[starts[0]]
    assert isinstance(first, Message) and first.args["n"] == 1
    block = keys[starts[0] : keys.index("shogun.log.year_begins", starts[0])]
    assert block[-1] == "shogun.log.scoring"

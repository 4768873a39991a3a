"""Shitenno's log lines and action descriptions are messages every language renders in words
(tests/messages_check.py): troop cards by their troops, never by the notation's codes."""

from __future__ import annotations

import re
from typing import Any

import pytest

from sengoku.core import render
from sengoku.games.shitenno.actions import Offer, Place
from sengoku.games.shitenno.data import kind_of_code
from sengoku.games.shitenno.messages import CATALOG, action_message
from tests.messages_check import check_random_games

#: what an engine code looks like in English: a troop card's code (``Sa``, ``BuSh``), a bonus
#: tile's ``troop/effect`` (``So/+1``), an effect's data name (``plus_one``)
RAW = re.compile(r"\b(?:Bu|Sa|Sh|So)+\b|\w/[+\w]|\b[a-z]+_[a-z_]+\b")

OPTIONS: list[dict[str, Any]] = [
    {},
    {"mixed_payments": True, "exchange_rule": "card", "draw_tile_koku": True},
    {"end_after_odd_year": True, "unused_tile_points": 1, "sensei_flip": "any_time"},
    {"hatamoto_every_placement": False, "empty_lots": True, "open_hands": True},
]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_line_and_move_is_a_message_in_every_language(players: int) -> None:
    """shitenno.md §4.1-§4.7: every log line (each seat's, private hands and draws included,
    and a spectator's) and every legal action's description of random games, under options
    that change payments and the end: a message whose keys each language holds, with the
    placeholders its arguments give, rendered without a code."""
    checked = 0
    for i, options in enumerate(OPTIONS):
        checked += check_random_games("shitenno", players, range(10 * i, 10 * i + 3), RAW, options)
    assert checked > 300


def test_cards_and_payments_read_as_troops() -> None:
    """shitenno.md §3.1-§3.2, §4.5: a lot and a payment name each troop card's troops; koku
    payments keep their sum's form; the tiles used follow."""
    offer = Offer((kind_of_code("Sa"), kind_of_code("BuSh")), (2,), 1, 0)
    assert render(action_message(offer), CATALOG) == (
        "offer lot Samurai, Bushi+Shinobi, koku 2, Shomyo to Red"
    )
    mixed = Place(3, True, (kind_of_code("SoSo"),), (3,), plus=2, exchange=1)
    assert render(action_message(mixed), CATALOG) == (
        "place Kyushu paying koku 3, Sohei+Sohei using Exchange, +1 x2"
    )
    troops = Place(3, False, (kind_of_code("Bu"),), (1,), wild=True)
    assert render(action_message(troops), CATALOG) == (
        "place Kyushu paying troops Bushi, koku 1 using Hatamoto"
    )

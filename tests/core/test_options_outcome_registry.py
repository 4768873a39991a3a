"""Options validation, outcomes and the registry."""

from __future__ import annotations

from typing import Annotated

import pytest
from msgspec import Meta

import sengoku
from sengoku.core import (
    GameOptions,
    OptionError,
    Outcome,
    describe_options,
    get_game,
    options_to_json,
    parse_options,
    register,
    unregister,
)
from tests.toygame import Auction, AuctionOptions, TieBreak


class Sample(GameOptions):
    years: Annotated[int, Meta(ge=1, le=5, description="Years to play.")] = 2
    fast: Annotated[bool, Meta(description="Skip the slow part.")] = False


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"yeers": 3}, "unknown option 'yeers'; known options: years, fast"),
        ({"years": 6}, "option 'years': Expected `int` <= 5"),
        ({"years": "3"}, "option 'years': Expected `int`, got `str`"),
        ({"years": True}, "option 'years': Expected `int`, got `bool`"),
        ({"fast": 1}, "option 'fast': Expected `bool`, got `int`"),
        ({1: 2}, "option names must be strings, not 1"),
        ([("years", 2)], "options must be a mapping of names to values, not list"),
    ],
)
def test_bad_options_get_a_clear_error(raw: object, message: str) -> None:
    with pytest.raises(OptionError) as info:
        parse_options(Sample, raw)  # type: ignore[arg-type]
    assert str(info.value) == message


def test_options_parse_enums_from_their_values_and_back() -> None:
    parsed = parse_options(AuctionOptions, {"tie_break": "lowest_seat", "rounds": 5})
    assert parsed.tie_break is TieBreak.LOWEST_SEAT and parsed.rounds == 5
    assert options_to_json(parsed) == {
        "rounds": 5,
        "coins": 4,
        "hand": 1,
        "tie_break": "lowest_seat",
    }
    assert parse_options(AuctionOptions, parsed) is parsed
    with pytest.raises(OptionError, match="option 'tie_break': Invalid enum value 'coin'"):
        parse_options(AuctionOptions, {"tie_break": "coin"})


def test_describe_options_gives_defaults_docs_and_choices() -> None:
    infos = {i.name: i for i in describe_options(AuctionOptions)}
    assert infos["rounds"].default == 3 and infos["rounds"].schema["maximum"] == 8
    assert infos["tie_break"].schema["enum"] == ["lowest_seat", "random"]
    assert infos["tie_break"].description.startswith("Who wins a tied bid")


def test_options_in_a_match_are_reported_in_view_and_record() -> None:
    match = sengoku.new_match("auction", 2, seed=1, options={"rounds": 1})
    assert match.view(0)["options"]["rounds"] == 1
    assert match.to_record()["options"] == {
        "rounds": 1,
        "coins": 4,
        "hand": 1,
        "tie_break": "random",
    }


def test_outcome_ranks_ties_and_tiebreaks() -> None:
    """Seats left tied by every tie-break share a place and the win."""
    outcome = Outcome.from_scores([5, 9, 9, 1], tiebreaks=[[0], [2], [2], [0]])
    assert outcome.winners == (1, 2)
    assert outcome.ranks == (3, 1, 1, 4)
    assert outcome.ranking == (1, 2, 0, 3)
    assert outcome.rewards() == (0.0, 0.5, 0.5, 0.0)
    assert Outcome.from_json(outcome.to_json()) == outcome


def test_registry_names_and_lazy_targets() -> None:
    register("auction_copy", "tests.toygame:Auction")
    try:
        with pytest.raises(ValueError, match="calls itself 'auction'"):
            get_game("auction_copy")
    finally:
        unregister("auction_copy")
    assert "auction_copy" not in sengoku.available_games()
    with pytest.raises(ValueError, match="lower-case"):
        register("Bad Name", Auction())
    assert isinstance(get_game("auction"), Auction)


class WithTuple(GameOptions):
    sizes: Annotated[tuple[int, ...], Meta(description="Sizes.")] = (1, 2)


def test_options_json_is_what_json_reads_back() -> None:
    """Tuples in options become lists, so records and views survive a JSON round trip."""
    as_json = options_to_json(parse_options(WithTuple, {"sizes": [3, 4]}))
    assert as_json == {"sizes": [3, 4]}
    assert parse_options(WithTuple, as_json) == WithTuple(sizes=(3, 4))

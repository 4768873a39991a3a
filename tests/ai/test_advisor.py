"""The advisor (sengoku.ai.advisor): hints from a seat's view only, reasons from the game's own
terms, and reviews of finished matches."""

from __future__ import annotations

import itertools
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import sengoku
from sengoku.ai.advisor import (
    PLAYED_VISITS,
    Review,
    _searcher,
    advise,
    decisions,
    judge,
    review,
)
from sengoku.core import Match, Rng, get_game, render
from sengoku.games.catalog import catalog
from sengoku.sim import play_match

GAMES = (("shogun", 3), ("shitenno", 4), ("rising_sun", 4))
LANGUAGES = ("en", "ja", "zh", "nl")


def positions(game: str, players: int, seed: int, every: int) -> list[Match]:
    """Clones of a match played by random agents, every ``every`` actions, to its end."""
    match = play_match(game, players, seed, ["random"] * players)
    replay = sengoku.new_match(game, players, seed)
    found = []
    for number, (seat, action) in enumerate(match.history):
        if number % every == 0:
            found.append(replay.clone())
        replay.act(seat, action)
    found.append(replay)
    return found


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_the_gauges_add_up_to_the_estimate(game: str, players: int) -> None:
    """A seat's weighted gauges are the terms of the heuristic's score estimate: they add up to
    it in every position from the set-up to the end, and each key is named once."""
    rules = get_game(game)
    checked = 0
    for match in positions(game, players, 7, 23):
        estimate = rules.estimate(match.state)
        assert estimate is not None
        for seat in range(players):
            gauges = rules.gauges(match.state, seat)
            keys = [g.key for g in gauges]
            assert len(keys) == len(set(keys)), keys
            total = sum(g.value * g.weight for g in gauges)
            assert total == pytest.approx(estimate[seat], abs=1e-6), (seat, gauges)
            checked += 1
    assert checked > 10


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_every_gauge_reads_in_four_languages(game: str, players: int) -> None:
    """Each gauge's label has a template in en, ja, zh and nl (never the raw key), and its
    change fills the ``{d}`` placeholder."""
    rules = get_game(game)
    labels = {}
    for match in positions(game, players, 3, 17):
        for seat in range(players):
            for g in rules.gauges(match.state, seat):
                labels[g.label.key] = g.label
    assert len(labels) >= 3
    for lang in LANGUAGES:
        words = catalog(game, lang)
        for key, label in labels.items():
            assert key in words, (lang, key)
            text = render(label._replace(args={**label.args, "d": "+4"}), words)
            assert "+4" in text and "{" not in text and key not in text, (lang, text)


def twin_with_other_secrets(match: Match, seat: int, seed: int) -> Match:
    """``match`` with everything hidden from ``seat`` redrawn (the others' hands, the decks'
    order): another match that ``seat`` cannot tell from this one."""
    other = match.game.vary_secrets(match.state, seat, Rng(seed))
    return Match(match.game, match.players, match.options, match.seed, other, Rng(seed + 1))


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_hint_depends_only_on_the_seats_view(game: str, players: int) -> None:
    """Two matches that differ only in another seat's secrets give the same hint for the same
    seed (the advisor reads the seat's view, never the state)."""
    compared = 0
    for match in positions(game, players, 11, 41)[1:4]:
        for seat in match.to_act():
            legal = match.legal_actions(seat)
            if len(legal) < 2:
                continue
            twin = twin_with_other_secrets(match, seat, 5)
            others = [s for s in range(players) if s != seat]
            if all(twin.view(s) == match.view(s) for s in others):
                continue  # nothing was hidden from this seat here
            first = advise(match.view(seat), legal, seed=9, iterations=24)
            second = advise(twin.view(seat), twin.legal_actions(seat), seed=9, iterations=24)
            assert first.to_json() == second.to_json()
            compared += 1
    assert compared


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_hint_gives_three_options_best_first_with_reasons(game: str, players: int) -> None:
    """The first option is the search's choice, the others follow by visits; each has a
    chance to win between 0 and 1 and at most two reasons; the wire form names each action
    by its notation and message."""
    match = positions(game, players, 2, 31)[2]
    seat = match.to_act()[0]
    legal = match.legal_actions(seat)
    advice = advise(match.view(seat), legal, seed=4, iterations=60)
    assert 1 <= len(advice.options) <= 3 and advice.iterations == 60
    visits = [o.visits for o in advice.options[1:]]
    assert visits == sorted(visits, reverse=True)
    wire = advice.to_json()
    legal_notations = {str(a) for a in legal}
    for option in wire["options"]:
        assert option["action"]["notation"] in legal_notations
        assert 0.0 <= option["win"] <= 1.0 and option["visits"] > 0
        assert len(option["reasons"]) <= 2
        assert option["action"]["message"]["key"]
    assert any(o["reasons"] for o in wire["options"])
    json.dumps(wire)


def test_the_played_action_is_judged_on_enough_playouts() -> None:
    """A review's judgement of a move the search did not prefer rests on at least
    PLAYED_VISITS playouts through it; the move the search prefers costs nothing."""
    match = positions("shitenno", 3, 5, 19)[2]
    seat = match.to_act()[0]
    view, legal = match.view(seat), match.legal_actions(seat)
    agent = _searcher(3, 40, None)
    preferred = agent.preferred(agent.search(view), legal)
    same = judge(7, view, legal, preferred, seed=3, iterations=40)
    assert same.preferred == str(preferred) and same.cost == 0.0
    other = next(a for a in reversed(legal) if a != preferred)
    judged = judge(7, view, legal, other, seed=3, iterations=40)
    assert judged.played == str(other) and judged.choices == len(legal)
    root = _searcher(3, 40, None).search(view, include=other)
    assert 0.0 <= judged.after <= 1.0 and 0.0 <= judged.before <= 1.0
    # without the extra playouts the played move may be nearly unvisited
    assert root.children[other].visits < 40
    agent = _searcher(3, 40, None)
    root = agent.search(view, include=other)
    before = root.children[other].visits
    agent.refine(root, view, other, PLAYED_VISITS)
    assert root.children[other].visits == before + PLAYED_VISITS


@pytest.fixture(scope="module")
def reviewed() -> tuple[Match, Review]:
    # a short match (6 Kamons per general, not 10): a review's cost follows the match's length
    match = play_match("shitenno", 3, 4, ["easy", "random", "heuristic"], {"kamons_3_players": 6})
    return match, review(match, iterations=8)


def test_a_review_judges_every_decision_from_its_seat(reviewed: tuple[Match, Review]) -> None:
    """Every action with more than one legal choice is judged once, in order, by the seat that
    made it; forced actions are not. Win chances are kept to four places, as the JSON has
    them."""
    match, result = reviewed
    expected = [(n, seat, str(played)) for n, seat, _, _, played in decisions(match)]
    assert [(j.number, j.seat, j.played) for j in result.judgements] == expected
    assert len(expected) < len(match.history)  # some actions were forced
    for j in result.judgements:
        assert 0.0 <= j.after <= 1.0 and 0.0 <= j.before <= 1.0 and j.choices > 1
        # as its JSON keeps them, so a cost worked out again from the JSON is the same
        assert j.before == round(j.before, 4) and j.after == round(j.after, 4)
        assert j.cost == max(0.0, j.before - j.after)
        if j.played == j.preferred:
            assert j.after == j.before


def test_a_reviews_charts_turning_points_and_summaries(reviewed: tuple[Match, Review]) -> None:
    """Per seat: the chance to win before each of its decisions, ending in its share of the
    win; the three biggest swings from one decision to the next, in match order; how many
    choices were the search's."""
    match, result = reviewed
    outcome = match.outcome()
    assert outcome is not None and result.winners == list(outcome.winners)
    for seat in range(3):
        mine = result.of(seat)
        chart = result.chart(seat)
        assert [n for n, _ in chart[:-1]] == [j.number for j in mine]
        assert chart[-1] == (
            len(match.history),
            1 / len(outcome.winners) if seat in outcome.winners else 0.0,
        )
        points = result.turning_points(seat)
        assert len(points) == min(3, len(mine))
        assert [p["number"] for p in points] == sorted(p["number"] for p in points)
        swings = sorted((abs(b[1] - a[1]) for a, b in itertools.pairwise(chart)), reverse=True)
        assert sorted(abs(p["swing"]) for p in points) == pytest.approx(
            sorted(swings[:3]), abs=1e-3
        )
        summary = result.summary(seat)
        assert summary["decisions"] == len(mine)
        agreed = sum(j.played == j.preferred for j in mine) / len(mine)
        assert summary["agreed"] == pytest.approx(agreed, abs=1e-3)
        assert summary["mistakes"] == sum(j.cost >= 0.1 for j in mine)


def test_a_review_survives_json_and_is_the_same_judged_in_parallel(
    reviewed: tuple[Match, Review],
) -> None:
    """A review depends on the record and its budget only: judged in four threads it is the
    same, and it comes back whole from its JSON."""
    match, result = reviewed
    data = result.to_json()
    assert Review.from_json(json.loads(json.dumps(data))).to_json() == data
    with ThreadPoolExecutor(4) as pool:
        again = review(match, iterations=8, mapper=pool.map)
    assert again.to_json() == data


def test_only_a_finished_match_is_reviewed() -> None:
    """A match still going on has no review: a clear error."""
    with pytest.raises(ValueError, match="finished"):
        review(sengoku.new_match("shitenno", 3, seed=1))


def test_advice_takes_only_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """The advisor's search samples its states from the view it is handed (a spy on the
    determinizer sees only views of the advising seat)."""
    import sengoku.ai.ismcts as ismcts

    seen: list[Any] = []
    real = ismcts.determinizer

    def spy(view: dict[str, Any]) -> Any:
        seen.append(view)
        return real(view)

    monkeypatch.setattr(ismcts, "determinizer", spy)
    match = positions("rising_sun", 3, 1, 29)[1]
    seat = match.to_act()[0]
    advise(match.view(seat), match.legal_actions(seat), seed=1, iterations=6)
    assert seen and all(v == match.view(seat) for v in seen)


def test_the_first_hint_is_the_move_hard_plays_most_often() -> None:
    """Replaying hard's rule on a search's rewards: where one move is clearly better it is the
    hint; where moves are equal, hard's visits spread evenly and it keeps its anchor (the
    heuristic's move), so the hint does too; a move not playable now is never the hint (the
    caller then keeps the anchor)."""
    from sengoku.ai.advisor import _likely_choice

    agent = _searcher(1, 400, None)
    rng = Rng(3)

    def rewards(mean: float) -> list[float]:  # a spread of about 0.2 around the mean
        return [min(1.0, max(0.0, mean + 0.2 * (rng.random() - 0.5) * 3.4)) for _ in range(80)]

    clear = {"anchor": rewards(0.40), "better": rewards(0.60), "worse": rewards(0.30)}
    order = list(clear)
    assert _likely_choice(clear, order, set(order), agent, Rng(1)) == "better"
    close = {"anchor": rewards(0.40), **{k: rewards(0.40) for k in "abcd"}}
    assert _likely_choice(close, list(close), set(close), agent, Rng(1)) == "anchor"
    # hard would always play "better": if it may not be played, there is no such move
    assert _likely_choice(clear, order, {"anchor", "worse"}, agent, Rng(1)) is None

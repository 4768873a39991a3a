"""Agents: seeded, legal, and blind to what their seat may not know."""

from __future__ import annotations

from typing import Any

import pytest

import sengoku
from sengoku.ai import Agent, AgentSpecError, HeuristicAgent, RandomAgent, make_agent
from sengoku.ai.ismcts import ISMCTSAgent
from sengoku.core import Match, Rng, get_game
from sengoku.sim import play_match, play_randomly

GAMES = [("auction", 3), ("rising_sun", 4), ("shitenno", 4), ("shogun", 4)]


def agents_for(name: str) -> list[Agent]:
    fast = 8 if name != "auction" else 30
    return [
        RandomAgent(1),
        HeuristicAgent(2),
        ISMCTSAgent(3, iterations=fast, playout="random"),
        ISMCTSAgent(4, iterations=fast, playout="heuristic", depth=20),
    ]


def states_along_a_game(name: str, players: int, seed: int, every: int) -> list[Match]:
    kept: list[Match] = []

    def keep(match: Match) -> None:
        if len(match.history) % every == 0:
            kept.append(match.clone())

    play_randomly(sengoku.new_match(name, players, seed=seed), Rng(seed), keep)
    return kept


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_agents_return_legal_actions_and_repeat_under_a_seed(name: str, players: int) -> None:
    """Each agent picks one of the legal actions, and the same seed and view give the same pick."""
    for match in states_along_a_game(name, players, seed=3, every=40)[:6]:
        seat = match.to_act()[-1]
        view, legal = match.view(seat), match.legal_actions(seat)
        for first, second in zip(agents_for(name), agents_for(name), strict=True):
            choice = first.choose(view, legal)
            assert choice in legal
            assert str(second.choose(view, legal)) == str(choice)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_decisions_do_not_depend_on_other_seats_secrets(name: str, players: int) -> None:
    """An agent given the view of a state whose hidden parts were redrawn decides the same:
    it can only use what the seat may know."""
    game = get_game(name)
    for match in states_along_a_game(name, players, seed=5, every=37)[:5]:
        seat = match.to_act()[0]
        other = Match(
            game, players, match.options, None, game.vary_secrets(match.state, seat, Rng(9)), Rng(1)
        )
        for first, second in zip(agents_for(name), agents_for(name), strict=True):
            a = first.choose(match.view(seat), match.legal_actions(seat))
            b = second.choose(other.view(seat), other.legal_actions(seat))
            assert str(a) == str(b)


class Spy(Agent):
    """Records what the runner hands an agent."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.calls: list[tuple[Any, list[Any]]] = []

    def choose(self, view: dict[str, Any] | None, legal: Any) -> Any:
        self.calls.append((view, list(legal)))
        return self.rng.choice(legal)


def test_the_runner_hands_agents_views_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Agents get a seat's view (a plain JSON dict for their own seat) and the legal actions:
    never the match or its state."""
    spies: list[Spy] = []

    def spy_factory(spec: str, seed: int) -> Agent:
        spies.append(Spy(seed))
        return spies[-1]

    monkeypatch.setattr("sengoku.sim.runner.make_agent", spy_factory)
    match = play_match("shitenno", 3, 11, ["x", "x", "x"])
    assert match.outcome() is not None
    for seat, spy in enumerate(spies):
        assert spy.calls
        for view, legal in spy.calls:
            assert isinstance(view, dict) and view["seat"] == seat
            assert all(
                type(v) in (dict, list, str, int, float, bool, type(None)) for v in view.values()
            )
            assert legal


def test_ismcts_beats_random_at_the_test_game() -> None:
    """A modest search wins the auction clearly more often than its 1/3 share."""
    wins = 0.0
    for seed in range(30):
        match = sengoku.new_match("auction", 3, seed=seed)
        bots: list[Agent] = [
            ISMCTSAgent(seed, iterations=60),
            RandomAgent(seed + 100),
            RandomAgent(seed + 200),
        ]
        while match.outcome() is None:
            seat = match.to_act()[0]
            match.act(seat, bots[seat].choose(match.view(seat), match.legal_actions(seat)))
        outcome = match.outcome()
        assert outcome is not None
        wins += 1 / len(outcome.winners) if 0 in outcome.winners else 0
    assert wins >= 17


def test_agent_specs() -> None:
    assert isinstance(make_agent("random", 1), RandomAgent)
    assert isinstance(make_agent("Heuristic", 1), HeuristicAgent)
    search = make_agent("ismcts:25", 1)
    assert isinstance(search, ISMCTSAgent) and search.iterations == 25
    hard = make_agent("hard", 1)
    assert isinstance(hard, ISMCTSAgent) and hard.time_limit is not None
    assert hard.time_limit <= 2.0
    for bad in ("ismcts", "ismcts:0", "ismcts:many", "genius", "random:3"):
        with pytest.raises(AgentSpecError):
            make_agent(bad, 1)
    with pytest.raises(ValueError, match="iteration budget"):
        ISMCTSAgent(1, iterations=None, time_limit=None)


@pytest.mark.parametrize("name", ["shogun", "shitenno", "rising_sun"])  # they evaluate
def test_a_playout_still_going_at_the_time_limit_is_cut_and_evaluated(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The time limit holds inside an iteration (a slow playout, a loaded machine): with a
    clock that has passed the limit as soon as the search starts, the first playout stops at
    its first look at the clock and is scored by the game's evaluation, not played out, and
    no second iteration starts."""
    import sengoku.ai.ismcts as ismcts

    readings = iter([0.0])
    monkeypatch.setattr(ismcts.time, "perf_counter", lambda: next(readings, 100.0))
    game = get_game(name)
    cut: list[bool] = []
    real_evaluate = type(game).evaluate

    def evaluate(self: Any, state: Any) -> Any:
        cut.append(self.outcome(state) is None)
        return real_evaluate(self, state)

    monkeypatch.setattr(type(game), "evaluate", evaluate)
    match = sengoku.new_match(name, 3, seed=2)
    seat = match.to_act()[0]
    agent = ISMCTSAgent(5, iterations=None, time_limit=1.0, playout="random")
    chosen = agent.choose(match.view(seat), match.legal_actions(seat))
    assert chosen in match.legal_actions(seat)
    assert agent.last_iterations == 1 and cut == [True]


def test_search_keeps_its_subtree_only_within_one_information_set() -> None:
    """Across a seat's own consecutive planning steps the subtree of the chosen step is reused;
    once the view is not the one expected (here another seat's planning progress, which is
    public), it is not."""
    match = sengoku.new_match("shogun", 4, seed=3)
    agent = ISMCTSAgent(5, iterations=40, playout="random", depth=30)
    first = agent.choose(match.view(2), match.legal_actions(2))
    assert agent.reused_visits == 0
    match.act(2, first)
    second = agent.choose(match.view(2), match.legal_actions(2))
    assert agent.reused_visits > 0
    match.act(2, second)
    before = match.view(2)
    match.act(0, match.legal_actions(0)[0])
    assert match.view(2) != before
    agent.choose(match.view(2), match.legal_actions(2))
    assert agent.reused_visits == 0


def test_without_deep_widening_the_search_is_a_rollout_algorithm() -> None:
    """deep_widening=0 grows no tree below the root: each root action is judged by playouts
    that continue with the heuristic on each sampled state, and nothing is kept for the next
    decision."""
    from sengoku.ai.ismcts import Node

    match = sengoku.new_match("shitenno", 4, seed=2)
    seat = match.to_act()[0]
    agent = ISMCTSAgent(1, iterations=60, playout="heuristic", depth=20, deep_widening=0)
    roots: list[Node] = []

    def iterate_and_keep(root: Node, *args: Any, **options: Any) -> None:
        roots.append(root)
        original(root, *args, **options)

    original = agent._iterate
    agent._iterate = iterate_and_keep  # type: ignore[method-assign]
    choice = agent.choose(match.view(seat), match.legal_actions(seat))
    root = roots[0]
    assert len(root.children) > 1
    assert sum(child.visits for child in root.children.values()) == root.visits == 60
    assert all(not child.children for child in root.children.values())
    match.act(seat, choice)
    if seat in match.to_act():
        agent.choose(match.view(seat), match.legal_actions(seat))
        assert agent.reused_visits == 0


def test_opponent_noise_is_checked_and_keeps_the_search_seeded() -> None:
    """Playouts may let the other seats act at random part of the time (a player who is not
    the heuristic); the search stays deterministic under its seed, and its choices legal."""
    with pytest.raises(ValueError, match="opponent_noise"):
        ISMCTSAgent(1, opponent_noise=1.5)
    for match in states_along_a_game("shitenno", 4, seed=8, every=45)[:4]:
        seat = match.to_act()[0]
        view, legal = match.view(seat), match.legal_actions(seat)
        agents = [ISMCTSAgent(3, iterations=12, playout="heuristic", opponent_noise=0.5)]
        agents.append(ISMCTSAgent(3, iterations=12, playout="heuristic", opponent_noise=0.5))
        picks = {str(agent.choose(view, legal)) for agent in agents}
        assert len(picks) == 1 and picks.pop() in {str(a) for a in legal}
    per_game = ISMCTSAgent(1, iterations=4, playout="heuristic", opponent_noise={"*": 0.25})
    match = sengoku.new_match("shogun", 4, seed=1)
    seat = match.to_act()[0]
    per_game.choose(match.view(seat), match.legal_actions(seat))
    assert per_game._noise == 0.25
    with pytest.raises(ValueError, match="opponent_noise"):
        ISMCTSAgent(1, opponent_noise={"shogun": 2.0})


def test_a_search_that_trusts_the_heuristic_keeps_its_move_unless_sure() -> None:
    """With a very large ``overrule_z`` the search never has the confidence to overrule the
    heuristic, so it plays the heuristic's move; with none it plays its most visited one."""
    differs = 0
    for match in states_along_a_game("shitenno", 4, seed=4, every=29)[:6]:
        seat = match.to_act()[0]
        view, legal = match.view(seat), match.legal_actions(seat)
        heuristic = str(HeuristicAgent(1).choose(view, legal))
        trusting = ISMCTSAgent(2, iterations=40, playout="heuristic", depth=20, overrule_z=1e9)
        assert str(trusting.choose(view, legal)) == heuristic
        plain = ISMCTSAgent(2, iterations=40, playout="heuristic", depth=20)
        differs += str(plain.choose(view, legal)) != heuristic
    assert differs  # the assertion above is not vacuous


def test_a_trusted_phase_is_left_to_the_heuristic_without_a_search() -> None:
    """In a phase the levels trust to the heuristic (a Shitenno offer's answer) the search
    plays the heuristic's choice on the same sampled state and runs no iteration; in the
    others it searches as before."""
    searched = offers = 0
    for match in states_along_a_game("shitenno", 4, seed=6, every=3):
        seat = match.to_act()[0]
        view, legal = match.view(seat), match.legal_actions(seat)
        if len(legal) < 2:
            continue
        agent = ISMCTSAgent(
            5, iterations=6, playout="heuristic", depth=10, trusted_phases={"shitenno": ["offer"]}
        )
        choice = agent.choose(view, legal)
        if view["phase"] == "offer":
            offers += 1
            assert agent.last_iterations == 0
            assert str(choice) == str(HeuristicAgent(5).choose(view, legal))
        else:
            searched += agent.last_iterations == 6
    assert offers and searched  # both kinds of decision were met
    assert make_agent("hard", 1).trusted_phases == {"shitenno": ("offer",)}


def test_rewards_blend_wins_with_shares_of_the_points() -> None:
    """``score_weight`` moves part of each seat's reward to its share of all points scored."""
    from sengoku.ai.ismcts import blend

    assert blend([1.0, 0.0], [30, 10], 0.0) == [1.0, 0.0]
    assert blend([1.0, 0.0], [30, 10], 0.5) == pytest.approx([0.875, 0.125])
    assert blend([1.0, 0.0], None, 0.5) == [1.0, 0.0]
    with pytest.raises(ValueError, match="score_weight"):
        ISMCTSAgent(1, score_weight=-0.1)

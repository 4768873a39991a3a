"""Information-set Monte Carlo tree search (ISMCTS) over determinized matches.

Each iteration samples a full match consistent with the agent's view
(:func:`sengoku.determinize`), walks the tree from the agent's decision by UCB with
availability counts (Cowling, Powley and Whitehouse, 2012: a child is only a candidate in the
iterations where its action is legal), adds one node, plays the rest out with a pluggable
policy (random, or the game's heuristic), optionally cut short after some actions and scored
by the game's evaluation, and credits each node with the reward of the seat that chose it, so
three to five players each pursue their own result.

With ``deep_widening=0`` no tree grows below the root: each root action is judged by
playouts that continue with the heuristic on each sampled state (a rollout algorithm). The
levels use it, with three guards for a heuristic-led search against unknown opponents:
playouts let the other seats act at random part of the time (``opponent_noise``), rewards
count a share of the points as well as the win so a safe lead still tells moves apart
(``score_weight``), and the heuristic's move is only overruled by one whose mean reward is
better by ``overrule_z`` standard errors. Where a game's heuristic is known to beat the
search, its decisions in those phases are left to it (``trusted_phases``).

Where the agent acts again straight after its own move (a Shogun plan is eleven such steps)
and a tree grows below the root, the subtree under that move is kept for the next decision,
but only when the new view is the one that move was expected to lead to: equal views mean
the same information set, so the statistics still apply.

The search never sees the true match: only the view it is handed, and its own chance.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from sengoku.core import Match, Outcome, determinizer, get_game

from .agents import Agent, heuristic_choice

# A playout looks at the clock every this many actions (a few milliseconds of play at most).
_CLOCK_STEPS = 16


class Node:
    """One decision in the tree: its children by action, and its statistics."""

    __slots__ = ("avail", "children", "reward", "seat", "square", "visits", "win")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.square = 0.0  # the sum of squared rewards, for the spread of the mean
        self.win = 0.0  # the sum of the seat's win shares alone (the reward blends in more)

    def mean_and_error(self) -> tuple[float, float]:
        """The mean reward and the squared standard error of that mean."""
        n = self.visits
        mean = self.reward / n
        return mean, max(0.0, self.square / n - mean * mean) / n


#: What a search may be told at the end of each playout: the final (or cut) state, the
#: root's action the iteration went through (``None`` where it chose none) and the reward
#: the searching seat got.
PlayoutWatcher = Callable[[Any, Any, float], None]


def outcome_rewards(outcome: Outcome) -> list[float]:
    """Each seat's reward at the end: a share of the win, plus a little for a better place."""
    n = len(outcome.scores)
    win = outcome.rewards()
    return [0.8 * win[s] + 0.2 * (n - outcome.ranks[s]) / (n - 1) for s in range(n)]


def score_shares(scores: Sequence[float]) -> list[float]:
    """Each seat's share of all the points scored (negative scores count as none).

    >>> score_shares([30, 10, 0, -5])
    [0.75, 0.25, 0.0, 0.0]
    """
    points = [max(0.0, float(x)) for x in scores]
    total = sum(points)
    if total <= 0:
        return [1.0 / len(points)] * len(points)
    return [x / total for x in points]


def blend(rewards: Sequence[float], scores: Sequence[float] | None, weight: float) -> list[float]:
    """``rewards`` with ``weight`` of each moved to the seat's :func:`score_shares`."""
    if not weight or scores is None:
        return list(rewards)
    shares = score_shares(scores)
    return [(1 - weight) * r + weight * x for r, x in zip(rewards, shares, strict=True)]


class ISMCTSAgent(Agent):
    """A single-observer ISMCTS agent.

    Args:
        seed: the agent's own seed (for determinizations, playouts and ties).
        iterations: iterations per decision (``None``: as many as ``time_limit`` allows);
            visits kept from the previous decision count towards it, down to a quarter.
        time_limit: at most this many seconds per decision (``None``: no limit): the search
            stops before an iteration as long as the longest one so far would end past it,
            and a playout still going at the time limit (a slow one, or a loaded machine) is
            cut there and scored with the game's :meth:`~sengoku.core.Game.evaluate` (a game
            without one plays it to the end).
        playout: ``"random"`` or ``"heuristic"`` (the game's :meth:`~sengoku.core.Game.policy`).
        depth: cut playouts after this many actions and score them with the game's
            :meth:`~sengoku.core.Game.evaluate` (``None``: play to the end).
        exploration: the UCB exploration constant.
        widening: progressive widening; a node with ``v`` visits has at most
            ``1 + widening * sqrt(v)`` children, added in the order the heuristic prefers
            (with heuristic playouts) or at random.
        deep_widening: the same below the root (default: ``widening``); ``0`` grows no tree
            below the root: each root action is judged by playouts from it (a rollout
            algorithm).
        opponent_noise: in playouts, the share of the other seats' decisions taken at random
            instead of by the heuristic (people and weaker bots do not play like it); or a
            share per game name, ``"*"`` for the others.
        overrule_z: with heuristic playouts, play the heuristic's move (the root's first
            child) unless the chosen move's mean reward beats it by this many standard
            errors (``0``: the most visited move).
        trusted_phases: per game name, the view phases (``view["phase"]``) whose decisions
            are the heuristic's, taken without a search (with heuristic playouts only).
        score_weight: the share of each reward given by the seat's share of all points
            scored (the game's :meth:`~sengoku.core.Game.estimate` where a playout is cut),
            the rest by the win and the place.

    With an iteration budget and no time limit the agent is deterministic under its seed.
    """

    def __init__(
        self,
        seed: int,
        iterations: int | None = 200,
        time_limit: float | None = None,
        playout: str = "random",
        depth: int | None = None,
        exploration: float = 0.7,
        widening: float = 1.0,
        deep_widening: float | None = None,
        opponent_noise: float | Mapping[str, float] = 0.0,
        overrule_z: float = 0.0,
        trusted_phases: Mapping[str, Collection[str]] | None = None,
        score_weight: float = 0.0,
    ) -> None:
        super().__init__(seed)
        if iterations is None and time_limit is None:
            raise ValueError("ISMCTS needs an iteration budget, a time limit, or both")
        if playout not in ("random", "heuristic"):
            raise ValueError(f"playout is 'random' or 'heuristic', not {playout!r}")
        self.iterations = iterations
        self.time_limit = time_limit
        self.playout = playout
        self.depth = depth
        self.exploration = exploration
        self.widening = widening
        self.deep_widening = widening if deep_widening is None else deep_widening
        noises = (
            opponent_noise.values() if isinstance(opponent_noise, Mapping) else [opponent_noise]
        )
        if not all(0.0 <= x <= 1.0 for x in noises):
            raise ValueError(f"opponent_noise is a share between 0 and 1, not {opponent_noise}")
        self.opponent_noise = opponent_noise
        self._noise = 0.0  # the share for the game being played
        self.overrule_z = overrule_z
        self.trusted_phases = dict(trusted_phases or {})
        if not 0.0 <= score_weight <= 1.0:
            raise ValueError(f"score_weight is a share between 0 and 1, not {score_weight}")
        self.score_weight = score_weight
        self.last_iterations = 0
        self.reused_visits = 0
        self._kept: tuple[dict[str, Any], Node] | None = None
        self._deadline: float | None = None  # of the decision being searched

    def choose(self, view: dict[str, Any] | None, legal: Sequence[Any]) -> Any:
        """Search from ``view`` and return the most visited of ``legal``."""
        if len(legal) == 1:
            return legal[0]
        assert view is not None, "ISMCTS needs the seat's view"
        if self.trusts(view):
            self._kept = None
            self.last_iterations = 0
            return heuristic_choice(view, legal, self.rng)
        root = self.search(view)
        chosen = self.preferred(root, legal)
        self._keep(view, root, chosen, view["seat"])
        return chosen

    def trusts(self, view: dict[str, Any]) -> bool:
        """Whether this decision is left to the heuristic (``trusted_phases``)."""
        return self.playout == "heuristic" and view.get("phase") in self.trusted_phases.get(
            view["game"], ()
        )

    def search(
        self,
        view: dict[str, Any],
        include: Any = None,
        watch: PlayoutWatcher | None = None,
        prior: Any = None,
    ) -> Node:
        """Run the search from ``view`` and return its root: the root's children are the
        actions tried, each with its visits, rewards and win shares.

        Args:
            view: the seat's view.
            include: an action the root tries early whatever the heuristic prefers (a
                review judges the action that was played), second after the heuristic's.
            watch: called at the end of each playout with its final state, the root's action
                the iteration went through and the seat's reward (an advisor reads its
                terms there).
            prior: the root's first child, the move the search keeps unless overruled
                (default: the heuristic's choice on the first sample).
        """
        me: int = view["seat"]
        game = get_game(view["game"])
        noise = self.opponent_noise
        if isinstance(noise, Mapping):
            noise = noise.get(view["game"], noise.get("*", 0.0))
        self._noise = noise
        root = self._reusable(view) or Node(me)
        self.reused_visits = root.visits
        start = time.perf_counter()
        deadline = None if self.time_limit is None else start + self.time_limit
        self._deadline = deadline
        count = 0
        budget = self.iterations
        if budget is not None:  # visits kept from the last decision count towards it
            budget = max(budget - self.reused_visits, budget // 4)
        longest = 0.0
        before = start
        sample = determinizer(view)
        while budget is None or count < budget:
            if deadline is not None and count:
                # stop where one more iteration, as long as the longest so far, would end late
                now = time.perf_counter()
                longest = max(longest, now - before)
                before = now
                if now + longest >= deadline:
                    break
            self._iterate(root, sample(self.rng), me, game, include, watch, prior=prior)
            count += 1
        self.last_iterations = count
        return root

    def refine(self, root: Node, view: dict[str, Any], action: Any, iterations: int) -> None:
        """Run ``iterations`` more iterations through the root's ``action`` (after
        :meth:`search` on the same ``view``), so that its statistics rest on enough playouts
        (a review judges the action that was played, which the search may have left
        nearly unvisited)."""
        game = get_game(view["game"])
        sample = determinizer(view)
        self._deadline = None
        for _ in range(iterations):
            self._iterate(root, sample(self.rng), view["seat"], game, force=action)

    def preferred(self, root: Node, legal: Sequence[Any]) -> Any:
        """The action of ``legal`` the search chose at ``root``: the most visited, kept to the
        heuristic's unless overruled (``overrule_z``)."""
        wanted = {str(a): a for a in legal}
        best = max(
            (child.visits, child.reward, str(action))
            for action, child in root.children.items()
            if str(action) in wanted
        )
        chosen = wanted[best[2]]
        if self.overrule_z and self.playout == "heuristic" and root.children:
            chosen = self._overruled(root, chosen, wanted)
        return chosen

    def _overruled(self, root: Node, chosen: Any, wanted: dict[str, Any]) -> Any:
        """The heuristic's move (the root's first child) unless ``chosen`` beats its mean
        reward by ``overrule_z`` standard errors."""
        first = next(iter(root.children))
        if str(first) not in wanted or first == chosen:
            return chosen
        mean, error = root.children[chosen].mean_and_error()
        prior_mean, prior_error = root.children[first].mean_and_error()
        if mean - prior_mean > self.overrule_z * math.sqrt(error + prior_error):
            return chosen
        return wanted[str(first)]

    def _keep(self, view: dict[str, Any], root: Node, chosen: Any, me: int) -> None:
        """Remember the subtree of ``chosen`` with the view it leads to, if the agent acts
        again right away and that view is the same in every sample (nothing is revealed)."""
        self._kept = None
        child = root.children.get(chosen)
        if child is None or self.deep_widening == 0:
            return
        expected = None
        sample_of = determinizer(view)
        for _ in range(2):
            sample = sample_of(self.rng)
            sample.act(me, chosen)
            if me not in sample.to_act():
                return
            next_view = sample.view(me)
            if expected is not None and next_view != expected:
                return
            expected = next_view
        if expected is not None:
            self._kept = (expected, child)

    def _reusable(self, view: dict[str, Any]) -> Node | None:
        kept, self._kept = self._kept, None
        if kept is not None and kept[0] == view:
            return kept[1]
        return None

    def _iterate(
        self,
        root: Node,
        match: Match,
        me: int,
        game: Any,
        include: Any = None,
        watch: PlayoutWatcher | None = None,
        force: Any = None,
        prior: Any = None,
    ) -> None:
        rng = self.rng
        node = root
        path: list[Node] = [root]
        c = self.exploration
        guided = self.playout == "heuristic"
        rollout = self.deep_widening == 0
        first: Any = None  # the root's action this iteration went through
        while True:
            to_act = match.to_act()
            if not to_act or (rollout and node is not root):
                break
            seat = me if me in to_act else to_act[0]
            legal = match.legal_actions(seat)
            if len(legal) == 1 and node is not root:
                match.act(seat, legal[0])
                continue
            children = node.children
            if force is not None and node is root:  # this iteration goes through ``force``
                child = children.get(force)
                first = force
                match.act(seat, force)
                if child is None:
                    child = children[force] = Node(seat)
                    child.avail = 1
                    path.append(child)
                    break
                node = child
                path.append(node)
                continue
            untried = []
            tried = []
            for action in legal:
                child = children.get(action)
                if child is None:
                    untried.append(action)
                else:
                    child.avail += 1
                    tried.append((action, child))
            # progressive widening: a node tries a new action only as its visits grow, the
            # heuristic's choice first, so a small budget refines the heuristic's line
            widening = self.widening if node is root else self.deep_widening
            if untried and (not tried or len(children) < 1 + widening * node.visits**0.5):
                action = None
                if node is root and tried and include is not None and include in untried:
                    action = include  # second, after the heuristic's choice
                elif node is root and not tried and prior is not None:
                    action = prior
                elif guided:
                    action = game.policy(match.state, seat, untried, rng)
                if action is None or action in children:  # a tried one would lose its stats
                    action = untried[rng.randbelow(len(untried))]
                child = children[action] = Node(seat)
                child.avail = 1
                match.act(seat, action)
                path.append(child)
                if node is root:
                    first = action
                break
            best_value = -1.0
            best = tried[0]
            for action, child in tried:
                value = child.reward / child.visits + c * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if value > best_value:
                    best_value, best = value, (action, child)
            match.act(seat, best[0])
            if node is root:
                first = best[0]
            node = best[1]
            path.append(node)
        rewards, wins = self._playout(match, game, me)
        for visited in path:
            visited.visits += 1
            reward = rewards[visited.seat]
            visited.reward += reward
            visited.square += reward * reward
            visited.win += wins[visited.seat]
        if watch is not None:
            watch(match.state, first, rewards[me])

    def _playout(self, match: Match, game: Any, me: int) -> tuple[Sequence[float], Sequence[float]]:
        """Play ``match`` on (in place) and return each seat's reward and its win share."""
        # The playout talks to the game directly: every action it plays comes from the
        # game's own legal list, so the match's checks and bookkeeping would only cost time;
        # the sampled match is thrown away afterwards.
        rng = self.rng
        heuristic = self.playout == "heuristic"
        noise = self._noise
        weight = self.score_weight
        depth = self.depth
        deadline = self._deadline
        state = match.state
        steps = 0
        while True:
            if (
                deadline is not None
                and steps
                and steps % _CLOCK_STEPS == 0
                and time.perf_counter() >= deadline
            ):
                depth = steps  # out of time: scored here, as at a depth cut
            to_act = game.to_act(state)
            if not to_act:
                outcome = game.outcome(state)
                return blend(outcome_rewards(outcome), outcome.scores, weight), outcome.rewards()
            if depth is not None and steps >= depth:
                values = game.evaluate(state)
                if values is not None:
                    scores = game.estimate(state) if weight else None
                    return blend(values, scores, weight), values
                depth = deadline = None  # the game has no evaluation: play to the end
            seat = to_act[0]
            legal = game.legal_actions(state, seat)
            action = None
            if heuristic and (seat == me or not noise or rng.random() >= noise):
                action = game.policy(state, seat, legal, rng)
            if action is None:
                action = legal[rng.randbelow(len(legal))]
            game.apply_quietly(state, seat, action, rng)
            steps += 1

"""The advisor: hints from one seat's view, and the review of a finished match.

Both run the ``hard`` level's search (:data:`~sengoku.ai.agents.LEVELS`) from a seat's view,
never from the true state, and read its root: each action tried, its visits and the mean win
share of the playouts through it (the search's estimate of the seat's chance to win after
that action, the others and chance playing on as the playouts play them).

- :func:`advise` gives the search's three best actions for a seat, best first (its choice,
  then by visits), each with its win chance and short reasons: the terms of the game's own
  evaluation (:meth:`~sengoku.core.Game.gauges`) where the playouts through that action end
  furthest from the average of all playouts ("Kyoto: +4 VP", "Force margin in Kyoto: +2").
- :func:`judge` evaluates one decision that was played; :func:`review` every decision of a
  finished match (each from its own seat's view, at a fixed budget, so a review is the same
  wherever it runs), giving a :class:`Review`: per seat, the win chance across the match,
  its turning points and how close its choices were to the search's.

>>> import sengoku
>>> m = sengoku.new_match("shitenno", 3, seed=4)
>>> seat = m.to_act()[0]
>>> advice = advise(m.view(seat), m.legal_actions(seat), seed=1, iterations=12)
>>> len(advice.options), 0.0 <= advice.options[0].win <= 1.0
(3, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sengoku.core import Game, Gauge, Match, Message, Rng, action_to_json, get_game
from sengoku.core.messages import message_to_json, msg

from .agents import LEVELS, heuristic_choice
from .ismcts import ISMCTSAgent, Node

__all__ = [
    "HINT_ITERATIONS",
    "HINT_SEARCHES",
    "HINT_TIME_LIMIT",
    "MISTAKE",
    "REVIEW_ITERATIONS",
    "Advice",
    "Exploration",
    "Judgement",
    "Option",
    "Review",
    "advise",
    "advise_from",
    "decisions",
    "explore",
    "judge",
    "review",
    "search_seeds",
    "usual_choice",
]

#: A hint runs ``HINT_SEARCHES`` of ``hard``'s searches (in parallel on the server), each
#: with up to ``HINT_ITERATIONS`` iterations and within ``HINT_TIME_LIMIT`` seconds, so that
#: it answers within 2 s: see :func:`advise` for how it stays ``hard``'s choice.
HINT_SEARCHES = 3
HINT_ITERATIONS = 400
HINT_TIME_LIMIT = 1.4
_HARD_ITERATIONS = int(LEVELS["hard"]["iterations"])
#: A review's search per decision: ``hard``'s search at 120 iterations (``hard`` has 200, at
#: most 1.8 s), without a time limit, so that a review depends only on the record and its
#: seed, not on the machine's load; it keeps a 4-player Shitenno review within 3 CPU-minutes
#: (docs/performance.md).
REVIEW_ITERATIONS = 120
#: The played action's win chance rests on at least this many playouts (or a tenth of the
#: budget, if more): where the search left it nearly unvisited, more are run through it.
PLAYED_VISITS = 12
#: A choice that gives away at least this share of the win chance counts as a mistake.
MISTAKE = 0.1
#: A reason is shown only for a change of at least this much (in the gauge's own unit).
_NOTABLE = 0.25


def _searcher(seed: int, iterations: int | None, time_limit: float | None) -> ISMCTSAgent:
    """``hard``'s search with another budget; with more iterations than ``hard``'s, the
    root widens as slowly as ``hard``'s does over its budget, so it ends as wide."""
    settings = {k: v for k, v in LEVELS["hard"].items() if k != "agent"}
    settings.update(iterations=iterations, time_limit=time_limit)
    if iterations is not None and iterations > _HARD_ITERATIONS:
        settings["widening"] = math.sqrt(_HARD_ITERATIONS / iterations)
    return ISMCTSAgent(seed, **settings)


def _preferred(agent: ISMCTSAgent, view: dict[str, Any], root: Node, legal: Sequence[Any]) -> Any:
    """What ``hard`` plays at ``root``: the heuristic's move (the root's first child) in a
    phase the levels leave to it, else the search's choice."""
    if agent.trusts(view) and root.children:
        return next(iter(root.children))
    return agent.preferred(root, legal)


def usual_choice(view: dict[str, Any], legal: Sequence[Any], seed: int, samples: int = 8) -> Any:
    """The heuristic's most frequent choice over ``samples`` states drawn from ``view`` (the
    first of equals): ``hard`` anchors its search to its choice on one sample, which varies
    where the hidden parts matter to it."""
    rng = Rng(seed ^ 0xA5C4)
    counts: dict[Any, int] = {}
    for _ in range(samples):
        choice = heuristic_choice(view, legal, rng)
        counts[choice] = counts.get(choice, 0) + 1
    return max(counts, key=lambda a: counts[a])


def _likely_choice(
    rewards: Mapping[Any, Sequence[float]],
    order: Sequence[Any],
    wanted: Collection[str],
    agent: ISMCTSAgent,
    rng: Rng,
    runs: int = 40,
) -> Any:
    """The root action that ``hard`` would play most often, by replaying its rule ``runs``
    times on the playout rewards of a longer search, drawn again with replacement (twice:
    each replay first draws its own set of each action's rewards, since the longer search's
    means are estimates too, then its visits from that set).

    Each replay is ``hard``'s root over its 200 iterations: actions join in ``order`` (the
    anchor first) as the visits grow (progressive widening), UCB1 chooses among them, each
    visit draws one of that action's rewards; then the most visited is played unless the
    anchor is within ``overrule_z`` standard errors of it. Where rewards are close, ``hard``'s
    visits spread evenly and its choice turns on chance: the replays see that too."""
    order = [a for a in order if rewards.get(a)]
    if not order:
        return None
    anchor = order[0]
    c, z = agent.exploration, agent.overrule_z
    widening = float(LEVELS["hard"].get("widening", 1.0))
    counts: dict[Any, int] = {}
    for _ in range(runs):
        # the longer search's rewards are a sample too: each replay draws its own
        pools = []
        for action in order:
            found = rewards[action]
            pools.append([found[rng.randbelow(len(found))] for _ in found])
        visits: list[int] = []
        sums: list[float] = []
        squares: list[float] = []
        avail: list[int] = []
        for done in range(_HARD_ITERATIONS):
            if len(visits) < len(order) and (not visits or len(visits) < 1 + widening * done**0.5):
                pick = len(visits)
                visits.append(0)
                sums.append(0.0)
                squares.append(0.0)
                avail.append(0)
            else:
                pick, best = 0, -1.0
                for k in range(len(visits)):
                    value = sums[k] / visits[k] + c * math.sqrt(math.log(avail[k]) / visits[k])
                    if value > best:
                        pick, best = k, value
            for k in range(len(avail)):
                avail[k] += 1
            pool = pools[pick]
            r = pool[rng.randbelow(len(pool))]
            visits[pick] += 1
            sums[pick] += r
            squares[pick] += r * r
        top = max(range(len(visits)), key=lambda k: (visits[k], sums[k], str(order[k])))
        choice = order[top]
        if top != 0:
            errors = [
                max(0.0, squares[k] / visits[k] - (sums[k] / visits[k]) ** 2) / visits[k]
                for k in (top, 0)
            ]
            lead = sums[top] / visits[top] - sums[0] / visits[0]
            if lead <= z * math.sqrt(errors[0] + errors[1]):
                choice = anchor
        counts[choice] = counts.get(choice, 0) + 1
    playable = {a: n for a, n in counts.items() if str(a) in wanted}
    return max(playable, key=lambda a: playable[a]) if playable else None


def _win(node: Node) -> float:
    return node.win / node.visits if node.visits else 0.0


# --------------------------------------------------------------------------------- hints


@dataclass(frozen=True)
class Option:
    """One action the advisor suggests.

    Attributes:
        action: the action (one of the legal actions it was given).
        win: the search's estimate of the seat's chance to win after it (a share, 0 to 1).
        visits: how many of the search's playouts went through it.
        reasons: up to two messages (catalog keys and arguments) saying what it changes.
    """

    action: Any
    win: float
    visits: int
    reasons: tuple[Message, ...] = ()

    def to_json(self, game: Game[Any, Any] | None = None) -> dict[str, Any]:
        """The wire form (docs/protocol.md): the action (with ``game``, its message too),
        the win chance, the reasons."""
        action = action_to_json(self.action)
        if game is not None:
            action["message"] = message_to_json(game.action_message(self.action))
        return {
            "action": action,
            "win": round(self.win, 3),
            "visits": self.visits,
            "reasons": [message_to_json(r) for r in self.reasons],
        }


@dataclass(frozen=True)
class Advice:
    """The advisor's answer for one decision: its best options, best first."""

    game: str
    seat: int
    options: tuple[Option, ...]
    iterations: int

    def to_json(self) -> dict[str, Any]:
        """The wire form (docs/protocol.md)."""
        game = get_game(self.game)
        return {
            "seat": self.seat,
            "iterations": self.iterations,
            "options": [o.to_json(game) for o in self.options],
        }


class _Tally:
    """Sums of gauge values over some playouts, and how many playouts had each gauge."""

    __slots__ = ("count", "seen", "sums")

    def __init__(self) -> None:
        self.count = 0
        self.sums: dict[str, float] = {}
        self.seen: dict[str, int] = {}

    def add(self, gauges: Sequence[Gauge]) -> None:
        self.count += 1
        sums, seen = self.sums, self.seen
        for g in gauges:
            sums[g.key] = sums.get(g.key, 0.0) + g.value
            seen[g.key] = seen.get(g.key, 0) + 1

    def merge(self, other: _Tally) -> None:
        self.count += other.count
        for key, value in other.sums.items():
            self.sums[key] = self.sums.get(key, 0.0) + value
        for key, n in other.seen.items():
            self.seen[key] = self.seen.get(key, 0) + n

    def mean(self, key: str, fact: bool) -> float | None:
        """The mean of a gauge: over the playouts that had it for a fact (``None`` if none
        did), over all of them for a term of the estimate (missing, it is worth nothing)."""
        if fact:
            seen = self.seen.get(key)
            return self.sums[key] / seen if seen else None
        return self.sums.get(key, 0.0) / self.count


class _Terms:
    """The advising seat's gauges at the end of each playout, tallied per root action and
    over all playouts, and each root action's playout rewards."""

    def __init__(self) -> None:
        self.labels: dict[str, tuple[Message, float]] = {}  # each key's label and weight
        self.by_action: dict[Any, _Tally] = {}
        self.all = _Tally()
        self.rewards: dict[Any, list[float]] = {}

    def add(self, action: Any, reward: float, gauges: Sequence[Gauge]) -> None:
        """One playout through the root's ``action``: its reward, and the gauges at its end."""
        self.rewards.setdefault(action, []).append(reward)
        tally = self.by_action.get(action)
        if tally is None:
            tally = self.by_action[action] = _Tally()
        tally.add(gauges)
        self.all.add(gauges)
        labels = self.labels
        for g in gauges:
            if g.key not in labels:
                labels[g.key] = (g.label, g.weight)

    def merge(self, other: _Terms) -> None:
        """Add what another search found (from the same view)."""
        for action, rewards in other.rewards.items():
            self.rewards.setdefault(action, []).extend(rewards)
        for action, tally in other.by_action.items():
            self.by_action.setdefault(action, _Tally()).merge(tally)
        self.all.merge(other.all)
        for key, label in other.labels.items():
            self.labels.setdefault(key, label)

    def reasons(self, action: Any) -> tuple[Message, ...]:
        """Where ``action``'s playouts end furthest from all playouts: the term of the
        estimate that differs most in points, then the fact that differs most (or the next
        term), each as its label with the change filled in."""
        tally = self.by_action.get(action)
        if tally is None or not tally.count:
            return ()
        terms: list[tuple[float, float, str]] = []  # (rank, change, key)
        facts: list[tuple[float, float, str]] = []
        for key, (_, weight) in self.labels.items():
            fact = not weight
            mine, everyone = tally.mean(key, fact), self.all.mean(key, fact)
            if mine is None or everyone is None:
                continue
            change = mine - everyone
            rank = abs(change) * (weight or 1.0)
            if rank >= _NOTABLE:
                (facts if fact else terms).append((rank, change, key))
        terms.sort(reverse=True)
        facts.sort(reverse=True)
        chosen = terms[:1] + (facts[:1] or terms[1:2])
        out = []
        for _, change, key in chosen:
            label = self.labels[key][0]
            out.append(msg(label.key, **label.args, d=_signed(change)))
        return tuple(out)


@dataclass
class Exploration:
    """What searches from one view found at their root: each action tried (in the order
    they joined the root, the anchor first), its visits and win shares, and the playouts'
    rewards and gauges. It travels back from a worker, and several add up
    (:meth:`merge`)."""

    order: list[Any]
    visits: dict[Any, int]
    wins: dict[Any, float]
    terms: _Terms
    iterations: int
    trusted: bool

    def merge(self, other: Exploration) -> Exploration:
        """Both searches' findings as one."""
        self.order += [a for a in other.order if a not in self.visits]
        for action in other.order:
            self.visits[action] = self.visits.get(action, 0) + other.visits[action]
            self.wins[action] = self.wins.get(action, 0.0) + other.wins[action]
        self.terms.merge(other.terms)
        self.iterations += other.iterations
        return self


def explore(
    view: dict[str, Any],
    legal: Sequence[Any],
    seed: int,
    prior: Any,
    iterations: int | None = HINT_ITERATIONS,
    time_limit: float | None = None,
) -> Exploration:
    """One of a hint's searches: ``hard``'s search from ``view`` anchored to ``prior``
    (runs in a worker)."""
    game = get_game(view["game"])
    seat = view["seat"]
    agent = _searcher(seed, iterations, time_limit)
    terms = _Terms()

    def watch(state: Any, action: Any, reward: float) -> None:
        terms.add(action, reward, game.gauges(state, seat))

    root = agent.search(view, watch=watch, prior=prior)
    order = list(root.children)
    return Exploration(
        order,
        {a: root.children[a].visits for a in order},
        {a: root.children[a].win for a in order},
        terms,
        agent.last_iterations,
        agent.trusts(view),
    )


def _signed(x: float) -> str:
    """A change as people read it: ``+4``, ``-2``, ``+0.5``.

    >>> _signed(4.2), _signed(-2.0), _signed(0.46)
    ('+4', '-2', '+0.5')
    """
    if abs(x) >= 1:
        return f"{round(x):+d}"
    return f"{x:+.1f}"


def advise(
    view: dict[str, Any],
    legal: Sequence[Any],
    seed: int,
    top: int = 3,
    iterations: int | None = HINT_ITERATIONS,
    time_limit: float | None = None,
    searches: int = 1,
    mapper: Callable[..., Iterable[Exploration]] = map,
) -> Advice:
    """The search's ``top`` best actions among ``legal`` for the seat whose ``view`` it is.

    The first is the move ``hard`` would most often play here (:func:`_likely_choice`):
    ``hard`` anchors its search to the heuristic's move on one sample and keeps it unless
    its favourite after 200 noisy iterations beats it by a standard error, so two of its
    runs often part where moves are close. A hint anchors to the heuristic's most frequent
    move (:func:`usual_choice`), runs ``searches`` searches of up to ``iterations`` each
    (the root widening as slowly as ``hard``'s; ``mapper`` may run them in parallel) and,
    from their pooled rewards, picks the move that ``hard``'s rule would choose most often.

    It reads only ``view`` (two matches that differ in another seat's secrets give the
    same advice for the same seed), and with ``time_limit=None`` depends only on its seed.
    """
    prior = usual_choice(view, legal, seed)
    tasks = [(view, legal, s, prior, iterations, time_limit) for s in search_seeds(seed, searches)]
    found = list(mapper(_explore_task, tasks))
    for other in found[1:]:
        found[0].merge(other)
    return advise_from(view, legal, found[0], seed, top)


def _explore_task(task: tuple[Any, ...]) -> Exploration:
    return explore(*task)


def search_seeds(seed: int, searches: int) -> list[int]:
    """The seeds of a hint's ``searches`` searches (the first is ``seed``).

    >>> search_seeds(5, 3)[0], len(set(search_seeds(5, 3)))
    (5, 3)
    """
    return [seed] + [Rng(seed ^ (k << 20)).randbelow(2**53) for k in range(1, searches)]


def advise_from(
    view: dict[str, Any], legal: Sequence[Any], found: Exploration, seed: int, top: int = 3
) -> Advice:
    """The advice from searches' findings (:func:`explore`, merged): the move ``hard`` would
    most often play first, then the others by visits."""
    wanted = {str(a) for a in legal}
    best = found.order[0]  # in a phase ``hard`` leaves to the heuristic
    if not found.trusted:
        agent = _searcher(seed, _HARD_ITERATIONS, None)
        chosen = _likely_choice(found.terms.rewards, found.order, wanted, agent, Rng(seed ^ 0x11C3))
        best = chosen if chosen is not None else best
    visits, wins = found.visits, found.wins
    ranked = sorted(
        (a for a in found.order if str(a) in wanted),
        key=lambda a: (a != best, -visits[a], -wins[a] / max(1, visits[a])),
    )
    options = tuple(
        Option(a, wins[a] / max(1, visits[a]), visits[a], found.terms.reasons(a))
        for a in ranked[:top]
    )
    return Advice(view["game"], view["seat"], options, found.iterations)


# -------------------------------------------------------------------------------- review


@dataclass(frozen=True)
class Judgement:
    """One decision of a finished match, judged from its seat's view.

    Attributes:
        number: the action's place in the match's history (0 for the first).
        seat: who decided.
        played: the notation of the action played.
        preferred: the notation of the action the search preferred.
        before: the seat's win chance with the preferred action (the position's worth).
        after: its win chance with the action played.
        choices: how many legal actions there were.
    """

    number: int
    seat: int
    played: str
    preferred: str
    before: float
    after: float
    choices: int

    @property
    def cost(self) -> float:
        """The win chance the choice gave away (never below 0)."""
        return max(0.0, self.before - self.after)


def decisions(match: Match) -> Iterator[tuple[int, int, dict[str, Any], list[Any], Any]]:
    """Each decision of ``match``'s history with more than one legal action, as
    ``(number, seat, view, legal, played)``, replayed from its start."""
    replay = Match.new(match.game, match.players, match.seed, match.options)
    for number, (seat, action) in enumerate(match.history):
        legal = replay.legal_actions(seat)
        if len(legal) > 1:
            yield number, seat, replay.view(seat), legal, action
        replay.act(seat, action)


def decision_seed(seed: int, number: int) -> int:
    """The seed of the search that judges decision ``number`` of a match seeded ``seed``.

    >>> decision_seed(7, 3) == decision_seed(7, 3) != decision_seed(7, 4)
    True
    """
    return Rng(seed ^ 0x5EED_AD71 ^ (number << 12)).randbelow(2**53)


def judge(
    number: int,
    view: dict[str, Any],
    legal: Sequence[Any],
    played: Any,
    seed: int,
    iterations: int = REVIEW_ITERATIONS,
) -> Judgement:
    """Judge one decision: the search from ``view``, with the action ``played`` tried
    whatever the heuristic prefers, at a fixed budget (runs in a worker)."""
    agent = _searcher(seed, iterations, None)
    root = agent.search(view, include=played)
    preferred = _preferred(agent, view, root, legal)
    before = _win(root.children[preferred])
    if played != preferred:
        child = root.children.get(played)
        need = max(PLAYED_VISITS, iterations // 10) - (child.visits if child else 0)
        if need > 0:
            agent.refine(root, view, played, need)
    after = _win(root.children[played])
    # kept as the JSON keeps them, so that a review read back from its JSON is the same review
    # (its costs, swings and mistakes are worked out from these two)
    before, after = round(before, 4), round(after, 4)
    return Judgement(number, view["seat"], str(played), str(preferred), before, after, len(legal))


def _judge_task(task: tuple[int, dict[str, Any], list[Any], Any, int, int]) -> Judgement:
    return judge(*task)


@dataclass
class Review:
    """The review of a finished match: every decision judged, and per seat what a player
    reads from them."""

    game: str
    players: int
    seed: int
    iterations: int
    judgements: list[Judgement]
    winners: list[int] = field(default_factory=list)

    def of(self, seat: int) -> list[Judgement]:
        """``seat``'s decisions, in order."""
        return [j for j in self.judgements if j.seat == seat]

    def chart(self, seat: int) -> list[tuple[int, float]]:
        """``seat``'s win chance across the match: ``(action number, chance)`` before each of
        its decisions, and the result at the end (its share of the win)."""
        points = [(j.number, j.before) for j in self.of(seat)]
        end = max((j.number for j in self.judgements), default=0) + 1
        share = 1.0 / len(self.winners) if seat in self.winners else 0.0
        return [*points, (end, share)]

    def turning_points(self, seat: int, count: int = 3) -> list[dict[str, Any]]:
        """``seat``'s ``count`` biggest swings of win chance, each from one of its decisions
        to its next (or to the result): what was played there, what the search preferred,
        and how much the choice itself gave away (the rest of a swing is the others' play
        and chance)."""
        mine = self.of(seat)
        chart = self.chart(seat)
        swings: list[dict[str, Any]] = []
        for i, j in enumerate(mine):
            swing = chart[i + 1][1] - j.before
            swings.append(
                {
                    "number": j.number,
                    "swing": round(swing, 3),
                    "before": round(j.before, 3),
                    "played": j.played,
                    "preferred": j.preferred,
                    "cost": round(j.cost, 3),
                }
            )
        swings.sort(key=lambda s: -abs(s["swing"]))
        return sorted(swings[:count], key=lambda s: s["number"])

    def summary(self, seat: int) -> dict[str, Any]:
        """How close ``seat``'s choices were to the search's: decisions judged, the share
        that were its choice, the mean win chance given away per decision, and mistakes
        (choices that gave away at least :data:`MISTAKE`)."""
        mine = self.of(seat)
        n = len(mine)
        agreed = sum(j.played == j.preferred for j in mine)
        return {
            "decisions": n,
            "agreed": round(agreed / n, 3) if n else None,
            "mean_cost": round(sum(j.cost for j in mine) / n, 4) if n else None,
            "mistakes": sum(j.cost >= MISTAKE for j in mine),
        }

    def to_json(self) -> dict[str, Any]:
        """The review as JSON data (docs/protocol.md): every judgement, and per seat its
        chart, turning points and summary."""
        return {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "iterations": self.iterations,
            "winners": list(self.winners),
            "decisions": [
                {
                    "number": j.number,
                    "seat": j.seat,
                    "played": j.played,
                    "preferred": j.preferred,
                    "before": round(j.before, 4),
                    "after": round(j.after, 4),
                    "choices": j.choices,
                }
                for j in self.judgements
            ],
            "seats": [
                {
                    "seat": s,
                    "chart": [[n, round(w, 4)] for n, w in self.chart(s)],
                    "turning_points": self.turning_points(s),
                    "summary": self.summary(s),
                }
                for s in range(self.players)
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Review:
        """A review back from :meth:`to_json`'s data."""
        return cls(
            data["game"],
            data["players"],
            data["seed"],
            data["iterations"],
            [
                Judgement(
                    d["number"],
                    d["seat"],
                    d["played"],
                    d["preferred"],
                    d["before"],
                    d["after"],
                    d["choices"],
                )
                for d in data["decisions"]
            ],
            list(data["winners"]),
        )


def review(
    match: Match,
    iterations: int = REVIEW_ITERATIONS,
    seed: int | None = None,
    mapper: Callable[[Callable[[Any], Judgement], Iterable[Any]], Iterable[Judgement]] = map,
) -> Review:
    """Judge every decision of the finished ``match`` (see :func:`judge`).

    Args:
        match: a finished match (from its record: :meth:`Match.from_record`).
        iterations: the search's budget per decision.
        seed: the seed the decisions' searches are drawn from (default: the match's, or 0).
        mapper: how the decisions are mapped over the judge (``map``, or an executor's
            ``map`` to judge them in several processes; the result is the same).
    """
    outcome = match.outcome()
    if outcome is None:
        raise ValueError("only a finished match can be reviewed")
    base = seed if seed is not None else match.seed or 0
    tasks = [
        (number, view, legal, played, decision_seed(base, number), iterations)
        for number, _, view, legal, played in decisions(match)
    ]
    judgements = list(mapper(_judge_task, tasks))
    return Review(
        match.game.name, match.players, base, iterations, judgements, list(outcome.winners)
    )

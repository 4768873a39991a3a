"""What the research adapters share: a match played one action token at a time.

:class:`TokenPlay` wraps a :class:`~sengoku.core.Match` for the PettingZoo and OpenSpiel
adapters. Each step takes one integer id of the game's :class:`~sengoku.core.ActionSpace`
for one seat; once a seat's ids spell a whole legal action, the match carries it out. It
gives each seat

* an **action mask** over the ids (what may come next for that seat now);
* an **observation**: the game's :meth:`~sengoku.core.Game.observation_tensor` of the seat's
  view followed by the seat's ids chosen so far in the action it is spelling (per token, the
  times it was used over :data:`SPELLING_SCALE`), so that a policy knows where it stands;
* an **information state** with perfect recall: the seat's view now, its spelling so far and
  a digest of its whole history, in order: at each of its actions the view it acted on and
  the action, and every log line it may read;
* its **reward**: at the end, 1 shared among the winners, 0 for the others.

The seat that acts next is the one in the middle of a spelling, else the first seat in
``to_act()``; a simultaneous secret choice is thus asked of one seat after another, which
shows nothing, since a seat's view never holds another seat's pending secret.

>>> import sengoku
>>> play = TokenPlay(sengoku.new_match("shitenno", 2, seed=3))
>>> seat = play.current_seat()
>>> mask = play.action_mask(seat)
>>> sum(mask) == len(play.legal_ids(seat)) > 0
True
>>> while play.match.outcome() is None:
...     action = play.step(play.legal_ids(play.current_seat())[0])
>>> sum(play.rewards())
1.0
"""

from __future__ import annotations

import hashlib
import math
from array import array as floats
from collections.abc import Sequence
from typing import Any

import msgspec

from sengoku.core import ActionSpace, Decision, EncodingError, Match, determinize
from sengoku.core.encoding import check_observation
from sengoku.core.rng import Rng

__all__ = ["TokenPlay"]

#: A token used ``k`` times in the spelling so far reads ``k / SPELLING_SCALE`` (at most 1):
#: no spelling of the three games repeats a token more than 11 times.
SPELLING_SCALE = 12


class TokenPlay:
    """A match played token by token; see the module docs.

    Args:
        match: the match to play (it is changed in place).
        skip_forced: follow spellings by themselves where only one id can come next.
        recall: keep each seat's history digest for :meth:`information_state` (OpenSpiel
            asks for it); without it (PettingZoo) each action costs less, and
            :meth:`information_state` raises :class:`~sengoku.core.EncodingError`.
    """

    __slots__ = (
        "_arrays",
        "_checked",
        "_decisions",
        "_digests",
        "_fresh",
        "_kept",
        "_log_seen",
        "_tensors",
        "game",
        "match",
        "observation_size",
        "recall",
        "shape",
        "skip_forced",
        "space",
    )

    def __init__(self, match: Match, skip_forced: bool = True, recall: bool = True) -> None:
        self.match = match
        self.game = match.game
        self.skip_forced = skip_forced
        self.recall = recall
        self._checked = False  # the game's observations are checked in full once
        self.space = ActionSpace.of(match)
        self.shape = tuple(self.game.observation_shape(match.players, match.options))
        self.observation_size = math.prod(self.shape) + self.space.size
        self._decisions: dict[int, Decision] = {}
        self._fresh: dict[int, Decision] = {}  # unstarted decisions, until the match changes
        self._tensors: dict[int | None, list[float]] = {}  # view tensors, until it changes
        self._arrays: dict[int | None, Any] = {}  # the same as float32 arrays
        self._kept: dict[int | None, Any] = {}  # KeptTensor per seat, for the whole match
        self._digests = [_digest(b"", f"seat {s}") for s in range(match.players)]
        self._log_seen = 0
        self._note_log()

    # -- acting ------------------------------------------------------------------------------

    def current_seat(self) -> int | None:
        """The seat whose id comes next when seats take turns, ``None`` once the game is over.

        That is a seat in the middle of a spelling, else the first seat in ``to_act()``.
        """
        if self._decisions:
            return next(iter(self._decisions))
        to_act = self.match.to_act()
        return to_act[0] if to_act else None

    def acting_seats(self) -> list[int]:
        """The seats that may take an id now when seats choose at once: ``to_act()``."""
        return self.match.to_act()

    def decision(self, seat: int) -> Decision:
        """``seat``'s decision, its spelling so far; the seat must be one that may act."""
        decision = self._decisions.get(seat) or self._fresh.get(seat)
        if decision is None:
            if seat not in self.match.to_act():
                raise EncodingError(f"seat {seat} may not act now")
            decision = self._fresh[seat] = Decision(self.space, self.match, seat, self.skip_forced)
        return decision

    def legal_ids(self, seat: int) -> list[int]:
        """The ids ``seat`` may take now (``[]`` if it may not act)."""
        if seat not in self._decisions and seat not in self.match.to_act():
            return []
        return self.decision(seat).legal_ids()

    def action_mask(self, seat: int) -> list[int]:
        """1 for each id ``seat`` may take now, 0 for the others."""
        mask = [0] * self.space.size
        for i in self.legal_ids(seat):
            mask[i] = 1
        return mask

    def step(self, token: int, seat: int | None = None) -> Any | None:
        """Take id ``token`` for ``seat`` (default: the current seat); return the action once
        the spelling is complete and the match has carried it out.

        Raises :class:`~sengoku.core.EncodingError`, changing nothing, for an id that may not
        come next, a seat that may not act, or once the game is over.
        """
        if seat is None:
            seat = self.current_seat()
            if seat is None:
                raise EncodingError("the game is over; nobody chooses")
        action = self.spell(token, seat)
        if action is not None:
            self._act(seat, action)  # spelled from the legal actions: legal
        return action

    def spell(self, token: int, seat: int) -> Any | None:
        """Take id ``token`` for ``seat`` and return the action once the spelling is complete,
        without carrying it out (:meth:`carry_out` does); the seat's spelling is then over.

        Raises :class:`~sengoku.core.EncodingError`, changing nothing, for an id that may not
        come next or a seat that may not act.
        """
        decision = self.decision(seat)
        action = decision.choose(token)
        self._fresh.pop(seat, None)
        if action is None:
            self._decisions[seat] = decision
        else:
            self._decisions.pop(seat, None)
        return action

    def carry_out(self, seat: int, action: Any) -> None:
        """Carry out ``seat``'s legal ``action`` (not being spelled) on the match, and add
        what the seat saw, what it did and the new log lines to the seats' histories; for
        agents that choose whole actions, too, playing beside agents that spell.

        Raises :class:`~sengoku.core.EncodingError`, changing nothing, if the seat is in the
        middle of a spelling or the action is not legal.
        """
        if seat in self._decisions:
            raise EncodingError(f"seat {seat} is in the middle of a spelling")
        if action not in self.match.legal_actions(seat):
            raise EncodingError(f"{action!s} is not a legal action of seat {seat} now")
        self._act(seat, action)

    def _act(self, seat: int, action: Any) -> None:
        """Carry out a legal action of a seat that is not spelling; respell the others."""
        if self.recall:
            seen = msgspec.json.encode(self.match.view(seat), order="sorted")
            self.match.act(seat, action)
            self._digests[seat] = _digest(self._digests[seat] + seen, f"did {action}")
            self._note_log()
        else:
            self.match.act(seat, action)
        self._fresh, self._tensors, self._arrays = {}, {}, {}
        to_act = self.match.to_act()
        respelled: dict[int, Decision] = {}
        for other, pending in self._decisions.items():
            # another seat's spelling stands on the legal actions it had, which a secret
            # choice of this seat cannot have changed; spell it again on the new ones
            if other in to_act:
                fresh = Decision(self.space, self.match, other, self.skip_forced)
                fresh.replay(pending.prefix)
                respelled[other] = fresh
        self._decisions = respelled

    def _note_log(self) -> None:
        """Add the log lines since the last call to each seat's digest (those it may read)."""
        if not self.recall:
            return
        start = self._log_seen
        for seat in range(self.match.players):
            for line in self.match.log(seat, since=start):
                self._digests[seat] = _digest(self._digests[seat], f"log {line}")
        self._log_seen = self.match.log_length

    # -- what a seat knows -----------------------------------------------------------------

    def pending(self, seat: int) -> list[int]:
        """The ids ``seat`` has chosen so far in the action it is spelling."""
        decision = self._decisions.get(seat)
        return list(decision.prefix) if decision is not None else []

    def observation(self, seat: int) -> list[float]:
        """The seat's observation: its view as the game's tensor, then its spelling so far."""
        values = self.view_tensor(seat)
        counts = [0.0] * self.space.size
        for token in self.pending(seat):
            counts[token] = min(1.0, counts[token] + 1 / SPELLING_SCALE)
        return [*values, *counts]

    def public_observation(self) -> list[float]:
        """What everybody sees (the spectator's view) as an observation, with no spelling."""
        return [*self.view_tensor(None), *([0.0] * self.space.size)]

    def view_tensor(self, seat: int | None) -> list[float]:
        """The game's tensor of the seat's view (``None``: the public one), the first part of
        an observation: its size checked each time, its values (in [0, 1]) the first time
        (the conformance suite checks them over whole games).

        Made once per seat until the match changes (a spelling of several ids asks again
        and again): the same list, to read and never change.
        """
        values = self._tensors.get(seat)
        if values is not None:
            return values
        values = self._tensors[seat] = self.game.observation_tensor(self.match.view(seat))
        self.check_tensor(values)
        return values

    def check_tensor(self, values: Sequence[float]) -> None:
        """Raise :class:`~sengoku.core.EncodingError` for a view tensor of the wrong size,
        or, the first time, one with a value outside [0, 1]."""
        if not self._checked:
            check_observation(values, self.shape, self.game.name)
            self._checked = True
        elif len(values) != self.observation_size - self.space.size:
            check_observation(values, self.shape, self.game.name)

    def view_array(self, seat: int | None) -> Any:
        """:meth:`view_tensor` as a read-only float32 numpy array (numpy: the ``pettingzoo``
        or ``openspiel`` extra), made once per seat until the match changes.

        Where the game gives its tensor as parts (:meth:`~sengoku.core.Game.observation_parts`),
        each seat's array is kept for the whole match and only the parts whose inputs
        changed are made again (:class:`~sengoku.envs.tensors.KeptTensor`).
        """
        array = self._arrays.get(seat)
        if array is not None:
            return array
        import numpy as np

        from .tensors import KeptTensor

        tensor = self._kept.get(seat)
        if tensor is None and seat not in self._kept:
            parts = self.game.observation_parts(self.match.players, self.match.options)
            tensor = self._kept[seat] = None if parts is None else KeptTensor(parts)
        if tensor is None:  # the game gives its tensor whole: as float32, through array("f")
            array = np.frombuffer(floats("f", self.view_tensor(seat)), dtype=np.float32)
        else:
            array = tensor.update(self.match.view(seat)).copy()
            array.flags.writeable = False
            self.check_tensor(array)
        self._arrays[seat] = array
        return array

    def observation_into(self, seat: int | None, out: Any) -> None:
        """Write ``seat``'s observation (as :meth:`observation`: its view's tensor, then its
        spelling so far) into the float array ``out``; ``None``: the public one, with no
        spelling. Through :meth:`view_array` (numpy)."""
        values = self.view_array(seat)
        size = len(values)
        out[:size] = values
        out[size:] = 0.0
        if seat is not None:
            for token in self.pending(seat):
                place = size + token
                out[place] = min(1.0, out[place] + 1 / SPELLING_SCALE)

    def observation_string(self, seat: int | None) -> str:
        """The seat's view and spelling so far (``None``: the public view), as JSON text."""
        view = self.match.view(seat)
        spelled = [] if seat is None else [self.space.tokens[i] for i in self.pending(seat)]
        return msgspec.json.encode({"view": view, "spelling": spelled}, order="sorted").decode()

    def information_state(self, seat: int) -> str:
        """The seat's information state with perfect recall (see the module docs)."""
        if not self.recall:
            raise EncodingError("this play keeps no history (made with recall=False)")
        return f"{self.observation_string(seat)}\nhistory {self._digests[seat].hex()}"

    def rewards(self) -> tuple[float, ...]:
        """Each seat's reward: the outcome's (1 shared among the winners), 0 before the end."""
        outcome = self.match.outcome()
        if outcome is None:
            return (0.0,) * self.match.players
        return outcome.rewards()

    # -- copies --------------------------------------------------------------------------------

    def clone(self) -> TokenPlay:
        """An independent copy: stepping it never changes this one."""
        twin = TokenPlay.__new__(TokenPlay)
        twin.match = self.match.clone()
        twin.game, twin.space, twin.shape = self.game, self.space, self.shape
        twin.observation_size, twin.skip_forced = self.observation_size, self.skip_forced
        twin.recall, twin._checked = self.recall, self._checked
        twin._digests = list(self._digests)
        twin._log_seen = self._log_seen
        twin._decisions, twin._fresh, twin._tensors = {}, {}, {}
        twin._arrays, twin._kept = {}, {}
        twin._respell(self._decisions)
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> TokenPlay:
        return self.clone()

    def __getstate__(self) -> dict[str, Any]:
        """For pickle: the match as its record and chance state (a match sampled for search,
        which has no record, as itself), the spellings, the digests."""
        seeded = self.match.seed is not None
        return {
            "record": self.match.to_record() if seeded else None,
            "match": None if seeded else self.match,
            "rng": self.match.rng_state(),
            "skip_forced": self.skip_forced,
            "recall": self.recall,
            "pending": {seat: d.prefix for seat, d in self._decisions.items()},
            "digests": self._digests,
            "log_seen": self._log_seen,
        }

    def __setstate__(self, saved: dict[str, Any]) -> None:
        match = saved["match"] or Match.from_record(saved["record"])
        if match.rng_state() != saved["rng"]:
            raise EncodingError("the record does not replay to the saved chance state")
        TokenPlay.__init__(self, match, saved["skip_forced"], saved.get("recall", True))
        self._log_seen = saved["log_seen"]
        self._digests = list(saved["digests"])
        for seat, prefix in saved["pending"].items():
            decision = Decision(self.space, self.match, seat, self.skip_forced)
            decision.replay(prefix)
            self._decisions[seat] = decision

    def resample(self, seat: int, rng: Rng) -> TokenPlay:
        """A copy in which all that ``seat`` cannot see is drawn anew from ``rng``.

        Built on the game's ``determinize``: ``seat``'s view, spelling so far and
        information state stay the same; the other seats' hidden parts, the face-down
        decks and the future chance are sampled. The copy has no record.
        """
        twin = TokenPlay.__new__(TokenPlay)
        twin.match = determinize(self.match.view(seat), rng)
        twin.game, twin.space, twin.shape = self.game, self.space, self.shape
        twin.observation_size, twin.skip_forced = self.observation_size, self.skip_forced
        twin.recall, twin._checked = self.recall, self._checked
        twin._digests = [
            self._digests[s] if s == seat else _digest(b"", f"sampled seat {s}")
            for s in range(self.match.players)
        ]
        twin._log_seen = twin.match.log_length
        twin._decisions, twin._fresh, twin._tensors = {}, {}, {}
        twin._arrays, twin._kept = {}, {}
        twin._respell({s: d for s, d in self._decisions.items() if s == seat})
        return twin

    def _respell(self, decisions: dict[int, Decision]) -> None:
        for seat, pending in decisions.items():
            decision = Decision(self.space, self.match, seat, self.skip_forced)
            decision.replay(pending.prefix)
            self._decisions[seat] = decision


def _digest(before: bytes, entry: str) -> bytes:
    """The digest of a history ``before`` followed by ``entry``."""
    return hashlib.sha256(before + entry.encode()).digest()

"""Structured actions are read as JSON, not as Python (docs/protocol.md, "Actions"): a number
argument sent as a boolean (``true`` for 1) or as a number with a fraction (``3.0`` for 3)
names no legal action, though Python finds them equal. It is refused with the argument that
has the wrong type, and nothing changes; the same action with its right types is taken."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sengoku.core import IllegalActionError, action_to_json
from sengoku.server.hub import MatchSetup
from sengoku.server.store import Seat, Store, digest

from .test_memory import new_hub, run, store  # noqa: F401  (the store fixture)


def _number_args(form: dict[str, Any]) -> list[str]:
    """The arguments of an action's structured form that are integers."""
    return [k for k, v in form["args"].items() if type(v) is int]


@pytest.mark.parametrize("game", ["shogun", "shitenno", "rising_sun"])
def test_a_number_sent_as_a_boolean_or_a_float_is_refused(store: Store, game: str) -> None:  # noqa: F811
    """Played at random until a seat may take an action with a number argument of 0 or 1
    (and, for the float, any number argument): ``true``/``false`` and ``3.0`` in its place
    are refused with ``argument '<name>' must be an integer``, the match's number and every
    view unchanged; the action as ``action_to_json`` writes it is taken."""

    async def scenario() -> None:
        hub = new_hub(store)
        seats = [Seat(n, "human", None, None, digest(f"t{n}")) for n in range(3)]
        live = await hub.create(MatchSetup(game, 3, None, 5, seats, None, digest("h")))
        rng = random.Random(1)
        tried_bool = tried_float = False
        for _ in range(400):
            seat = live.match.to_act()[0]
            legal = live.match.legal_actions(seat)
            forms = [action_to_json(a) for a in legal]
            for form in forms:
                for key in _number_args(form):
                    value = form["args"][key]
                    wrong: list[Any] = [] if tried_float else [float(value)]
                    if value in (0, 1) and not tried_bool:
                        wrong.append(bool(value))
                    for bad in wrong:
                        number = live.number
                        views = [live.match.view(s) for s in range(3)]
                        sent = {"name": form["name"], "args": {**form["args"], key: bad}}
                        with pytest.raises(
                            IllegalActionError, match=f"argument '{key}' must be an integer"
                        ) as refused:
                            await hub.submit(live, seat, sent)
                        assert ("a boolean" if isinstance(bad, bool) else "a fraction") in str(
                            refused.value
                        )
                        assert live.number == number
                        assert [live.match.view(s) for s in range(3)] == views
                        tried_bool |= isinstance(bad, bool)
                        tried_float |= isinstance(bad, float)
                    if wrong:
                        taken = await hub.submit(
                            live, seat, {"name": form["name"], "args": form["args"]}
                        )
                        assert taken == form["notation"]
                        break
                else:
                    continue
                break
            else:
                await hub.submit(live, seat, rng.choice(legal))
            if tried_bool and tried_float:
                return
        raise AssertionError(f"no number argument met (bool {tried_bool}, float {tried_float})")

    run(scenario)

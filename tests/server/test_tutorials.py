"""The tutorials over HTTP (docs/protocol.md, "Tutorials"): a game's steps and texts, and each
step's position as the learner's seat sees it, with the moves the step asks for."""

from __future__ import annotations

import json
from pathlib import Path

from sengoku.core import action_to_json, get_game, message_to_json
from sengoku.server import ServerSettings

from .test_memory import run, serving


def test_tutorials_over_http(tmp_path: Path) -> None:
    """``/api/games`` says which games have a tutorial; ``/api/tutorials/<game>`` gives its
    steps and their texts in four languages; each step's position is the learner's own view
    (nothing of another seat's secrets: the engine's view of that seat), its log, and for a
    step that asks for a move the legal actions and the learner's moves up to the next step,
    the first of them among the legal ones. Unknown games and steps out of range are refused;
    ``/learn/<game>`` is the page."""
    settings = ServerSettings(database_url=f"sqlite:///{tmp_path / 'db.sqlite'}", bot_workers=1)

    async def scenario() -> None:
        async with serving(settings) as client:
            games = (await client.get("/api/games")).json()
            # every game says whether it has one (a test-only game has none)
            assert all(isinstance(g["tutorial"], bool) for g in games)
            assert {g["name"] for g in games if g["tutorial"]} == {
                "shogun",
                "shitenno",
                "rising_sun",
            }
            for game in ("shogun", "shitenno", "rising_sun"):
                tutorial = get_game(game).tutorial()
                assert tutorial is not None
                got = (await client.get(f"/api/tutorials/{game}")).json()
                assert got["players"] == tutorial.players and got["seat"] == tutorial.seat
                assert [s["id"] for s in got["steps"]] == [s.id for s in tutorial.steps]
                assert sorted(got["texts"]) == ["en", "ja", "nl", "zh"]
                assert "moves" not in got  # the page asks for each step's position
                for index in (0, len(tutorial.steps) // 2, len(tutorial.steps) - 1):
                    step = tutorial.steps[index]
                    frame = (await client.get(f"/api/tutorials/{game}/steps/{index}")).json()
                    match = tutorial.match(step.at)
                    assert frame["number"] == step.at
                    assert frame["view"] == json.loads(json.dumps(match.view(tutorial.seat)))
                    seen = match.log_entries(tutorial.seat)  # the lines the learner may read
                    assert frame["log"] == json.loads(
                        json.dumps([message_to_json(e) for e in seen])
                    )
                    assert frame["log_length"] == match.log_length
                    assert (frame["outcome"] is not None) == (index == len(tutorial.steps) - 1)
                do = next(i for i, s in enumerate(tutorial.steps) if s.do)
                frame = (await client.get(f"/api/tutorials/{game}/steps/{do}")).json()
                match = tutorial.match(tutorial.steps[do].at)
                wanted = match.parse_action(tutorial.seat, tutorial.moves[tutorial.steps[do].at][1])
                assert frame["expected"][0]["notation"] == str(wanted)
                assert {**action_to_json(wanted)}.items() <= frame["expected"][0].items()
                assert frame["expected"][0] in frame["legal"]
                after = tutorial.steps[do + 1].at - tutorial.steps[do].at
                assert 1 <= len(frame["expected"]) <= after
            # Rising Sun's bid step asks for the four bids of the war's secret split in order
            rising_sun = get_game("rising_sun").tutorial()
            assert rising_sun is not None
            bid = next(i for i, s in enumerate(rising_sun.steps) if s.id == "bid")
            frame = (await client.get(f"/api/tutorials/rising_sun/steps/{bid}")).json()
            assert [m["notation"] for m in frame["expected"]] == [
                "bid 0 on Seppuku",
                "bid 0 on Take Hostage",
                "bid 1 on Hire Ronin",
                "bid 1 on Imperial Poets",
            ]
            missing = await client.get("/api/tutorials/chess")
            assert (
                missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_tutorial"
            )
            for bad in (-1, 10_000):
                late = await client.get(f"/api/tutorials/shitenno/steps/{bad}")
                assert late.status_code == 422
            page = await client.get("/learn/shogun")
            assert page.status_code == 200 and "text/html" in page.headers["content-type"]

    run(scenario)

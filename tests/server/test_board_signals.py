"""What the server tells the board besides the position (docs/protocol.md): which seats a bot
is deciding for (``thinking``) and the turn clock's deadlines (``clock``)."""

from __future__ import annotations

from datetime import UTC, datetime

from .harness import Server


def test_the_clients_hear_which_seats_a_bot_is_thinking_for(server: Server) -> None:
    """A bot's decision in flight is announced (``thinking``), to a spectator too, and so is
    its end, here when the host hands the seats to people before the bots have decided."""
    made = server.create("shitenno", 4, ["hard"] * 4, seed=5)
    watcher = server.client(made["id"])
    welcome = watcher.until(lambda m: m["type"] == "welcome")
    first = welcome["view"]["to_act"]
    if welcome["thinking"] != first:  # the bots may have started before the hello
        seen = watcher.until(lambda m: m["type"] == "thinking" and m["seats"], timeout=30)
        assert seen["seats"] == first and seen["match"] == made["id"]
    host = {"Authorization": f"Bearer {made['host_token']}"}
    for seat in range(4):
        server.post(f"/api/matches/{made['id']}/seats/{seat}", json={"kind": "human"}, headers=host)
    done = watcher.until(lambda m: m["type"] == "thinking" and not m["seats"], timeout=60)
    assert done["seats"] == []
    assert watcher.latest is not None and watcher.latest["number"] == 0
    watcher.close()


def _when(iso: str) -> datetime:
    assert iso.endswith("Z")
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))


def test_updates_carry_the_turn_clocks_deadlines(server: Server) -> None:
    """With a turn clock each update says, per seat, when a bot decides for the person the
    match waits for (ISO time, UTC); after a move the next person's clock starts afresh.
    A match without a clock says ``null``."""
    made = server.create("shitenno", 3, ["human"] * 3, seed=4, turn_clock=300)
    tokens = [s["token"] for s in made["seats"]]
    watcher = server.client(made["id"])
    welcome = watcher.until(lambda m: m["type"] == "welcome")
    clock = welcome["clock"]
    assert clock["seconds"] == 300 and len(clock["deadlines"]) == 3
    (seat,) = welcome["view"]["to_act"]
    now = datetime.now(UTC)
    for s, deadline in enumerate(clock["deadlines"]):
        if s == seat:
            left = (_when(deadline) - now).total_seconds()
            assert 290 < left <= 301, left
        else:
            assert deadline is None
    me = server.client(made["id"], tokens[seat])
    legal = me.until(lambda m: m["type"] == "welcome")["legal"]
    assert me.act(legal[0]["notation"])["type"] == "accepted"
    update = watcher.until(lambda m: m["type"] == "update")
    after = update["clock"]["deadlines"]
    for s in update["view"]["to_act"]:
        assert after[s] is not None and (_when(after[s]) - now).total_seconds() > 290
    if seat not in update["view"]["to_act"]:
        assert after[seat] is None
    me.close()
    watcher.close()
    plain = server.create("shitenno", 3, ["human"] * 3, seed=4)
    spectator = server.client(plain["id"])
    assert spectator.until(lambda m: m["type"] == "welcome")["clock"] is None
    spectator.close()

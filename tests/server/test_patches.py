"""Updates as view patches (docs/protocol.md, "Patches"): a client that asks for them
rebuilds, update by update, exactly the views a client without them is sent, and a ``sync``
brings the whole view and log again."""

from __future__ import annotations

import json
from typing import Any

from sengoku.server.patch import apply
from tests.server.harness import Client, Server, play_to_end


def _patched_client(server: Server, match_id: str, token: str | None) -> Client:
    client = Client(server.ws_base + f"/ws/matches/{match_id}", token, hello=False)
    client.send({"type": "hello", "token": token, "patches": True})
    client.until(lambda m: m["type"] == "welcome")
    return client


def _views(client: Client) -> list[tuple[int, Any]]:
    """Each welcome/update's number and view, rebuilding patched views in order."""
    views: list[tuple[int, Any]] = []
    view: Any = None
    for m in client.received:
        if m["type"] not in ("welcome", "update"):
            continue
        view = apply(view, m["patch"]) if "patch" in m else m["view"]
        assert "patch" not in m or m["type"] == "update"
        views.append((m["number"], view))
    return views


def test_patched_updates_rebuild_every_view_of_a_seat_and_a_spectator(server: Server) -> None:
    """Over a whole 4-player Shitenno match, a seat's and a spectator's patched updates give
    the same views, in the same order, as their plain updates; most updates are patches,
    and the patches are much shorter than the views they stand for."""
    made = server.create("shitenno", 4, ["human", "easy", "easy", "easy"], seed=4)
    token = made["seats"][0]["token"]
    plain_seat = server.client(made["id"], token)
    plain_seat.until(lambda m: m["type"] == "welcome")
    plain_watcher = server.client(made["id"])
    plain_watcher.until(lambda m: m["type"] == "welcome")
    patched_seat = _patched_client(server, made["id"], token)
    patched_watcher = _patched_client(server, made["id"], None)

    final = play_to_end(plain_seat, lambda legal: legal[len(legal) // 2]["notation"])
    assert final["outcome"] is not None
    for client in (plain_watcher, patched_seat, patched_watcher):
        client.until(lambda m: m["type"] == "update" and m["outcome"] is not None)
    for plain, patched in ((plain_seat, patched_seat), (plain_watcher, patched_watcher)):
        rebuilt, sent = _views(patched)[1:], _views(plain)
        assert rebuilt and sent[len(sent) - len(rebuilt) :] == rebuilt  # since its welcome
        updates = [m for m in patched.received if m["type"] == "update"]
        patches = [len(json.dumps(m["patch"])) for m in updates if "patch" in m]
        assert len(patches) > 0.8 * len(updates)
        views = [len(json.dumps(view)) for _, view in rebuilt]
        assert sum(patches) < sum(views) / 3
    for client in (plain_seat, plain_watcher, patched_seat, patched_watcher):
        client.close()


def test_sync_sends_the_whole_view_and_log_again(server: Server) -> None:
    """A patched client that sends ``sync`` gets an update with the whole view (no patch)
    and, with ``reset``, the whole log it may read."""
    made = server.create("shitenno", 3, ["human", "easy", "easy"], seed=2)
    token = made["seats"][0]["token"]
    client = _patched_client(server, made["id"], token)
    welcome = client.latest
    assert welcome is not None and welcome["legal"]
    client.act(welcome["legal"][0]["notation"], ref="x", expect=welcome["number"])
    client.drain()
    rebuilt = _views(client)[-1]
    client.send({"type": "sync"})
    answer = client.until(lambda m: m["type"] == "update" and m.get("reset") is True)
    assert "patch" not in answer and (answer["number"], answer["view"]) == rebuilt
    record = server.get(
        f"/api/matches/{made['id']}/record", headers={"Authorization": f"Bearer {token}"}
    ).json()
    assert answer["log"] == record["log"] and answer["log_length"] >= len(record["log"])
    client.close()

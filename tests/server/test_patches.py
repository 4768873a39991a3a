"""Updates as view patches (docs/protocol.md, "Patches"): a client that asks for them
rebuilds, update by update, exactly the views a client without them is sent, and a ``sync``
brings the whole view and log again."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

import sengoku
from sengoku.core import Match, Rng
from sengoku.server.bots import make_pool
from sengoku.server.hub import Hub, MatchSetup
from sengoku.server.live import Connection, Position
from sengoku.server.patch import apply
from sengoku.server.store import Seat, Store, digest
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


def test_each_seats_view_is_made_and_encoded_once_per_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """However many connections show a seat (three tabs of seat 0, five spectators), a move
    makes each shown seat's view once, and connections in the same state get the same text."""
    store = Store(f"sqlite:///{tmp_path / 'sengoku.db'}")
    store.migrate()
    views: list[int | None] = []
    real_view, real_views = Match.view, Match.views

    def counted(self: Match, seat: int | None = None) -> Any:
        views.append(seat)
        return real_view(self, seat)

    def counted_together(self: Match, seats: Any) -> Any:
        views.extend(seats)
        return real_views(self, seats)

    async def scenario() -> None:
        hub = Hub(store, lambda: make_pool(1, False), "easy")
        seats = [Seat(n, "human", None, None, digest(f"t{n}")) for n in range(3)]
        live = await hub.create(MatchSetup("shitenno", 3, None, 5, seats, None, digest("h")))
        texts: dict[int, list[str]] = {}
        conns = []
        for n, seat in enumerate([0, 0, 0, None, None, None, None, None]):
            texts[n] = []

            async def send(text: str, n: int = n) -> None:
                texts[n].append(text)

            conn = Connection(seat, send, token_digest=None if seat is None else digest("t0"))
            conn.patches = n % 2 == 0
            hub.connect(live, conn, 0)
            conns.append(conn)
        monkeypatch.setattr(Match, "view", counted)
        monkeypatch.setattr(Match, "views", counted_together)
        actor = live.match.to_act()[0]
        await hub.submit(live, actor, live.match.legal_actions(actor)[0])
        monkeypatch.setattr(Match, "view", real_view)
        monkeypatch.setattr(Match, "views", real_views)
        await asyncio.sleep(0.1)  # the writers send what is queued
        assert sorted(views, key=str) == sorted([0, None], key=str)  # once each
        updates = [json.loads(t[-1]) for t in texts.values()]
        assert all(u["type"] == "update" and u["number"] == 1 for u in updates)
        by_kind = {(u["seat"], "patch" in u): texts[n][-1] for n, u in enumerate(updates)}
        for n, u in enumerate(updates):  # one text per seat and kind of update
            assert texts[n][-1] is by_kind[u["seat"], "patch" in u]
        assert len(by_kind) == 4
        await hub.close()

    asyncio.run(scenario())
    store.dispose()


@pytest.mark.parametrize("name", sengoku.available_games())
def test_a_views_size_is_the_length_of_its_json(name: str) -> None:
    """The size the server compares a patch with, worked out from the view's parts without
    encoding the view whole, is the length of the view's JSON, for every seat and a spectator."""
    match = sengoku.new_match(name, 3, seed=4)
    rng = Rng(4)
    for number in range(25):
        position = Position(match, number)
        for seat in (None, 0, 1, 2):
            assert position.size(seat) == len(msgspec.json.encode(match.view(seat)))
            assert position.size(seat) == len(position.text(seat))
        if match.outcome() is not None:
            break
        seat = match.to_act()[0]
        legal = match.legal_actions(seat)
        match.act(seat, legal[rng.randbelow(len(legal))])

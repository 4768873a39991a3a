"""How a server runs: :class:`ServerSettings`, every limit a client can meet, and where its
database is."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from platformdirs import user_data_dir

from sengoku.ai.advisor import REVIEW_ITERATIONS

__all__ = ["ServerSettings", "default_database_url"]


def default_database_url(explicit: str | None = None) -> str:
    """The database to use: ``explicit``, else ``SENGOKU_DB``, else the embedded default,
    an SQLite file in the user's data directory."""
    if explicit:
        return explicit
    fallback = f"sqlite:///{Path(user_data_dir('sengoku', appauthor=False)) / 'sengoku.db'}"
    return os.environ.get("SENGOKU_DB") or fallback


@dataclass(frozen=True)
class ServerSettings:
    """How a server runs; every limit a client can meet is here.

    Attributes:
        database_url: ``sqlite:///PATH`` (default: the user's data directory) or
            ``postgresql://USER@HOST/DB``.
        bot_workers: processes bots think in (default: the number of cores).
        bot_processes: ``False`` runs bots in threads (for tests and tiny machines).
        max_message_bytes: the largest WebSocket message or HTTP body accepted.
        max_frame_bytes: a WebSocket frame larger than this gets ``too_large`` and the
            connection closes (1009); the transport refuses frames over ``transport_frame_bytes``.
        messages_per_second, message_burst: each connection's rate limit (a token bucket).
        matches_per_minute: how many matches one address may create per minute.
        hello_timeout: seconds a new WebSocket has to say who it is.
        max_connections, connections_per_address: the most WebSockets open at once, in all
            and from one address.
        spectators_per_match: the most spectators one match takes at once.
        connections_per_seat: the most connections one seat of a match takes at once (so
            spectators never crowd out the players).
        public_url: the server's address as people reach it (``https://games.example.org``),
            for links; empty: taken from each request's ``Host`` header.
        trusted_proxies: addresses (or networks) of reverse proxies whose
            ``X-Forwarded-For`` is believed: a client's address is then the right-most
            untrusted one there. Empty: the peer's address, and the header is ignored.
        clock_level: the bot that plays a person's overdue turn when a turn clock is set.
        idle_seconds: a running match with no connection, no bot to move and no turn clock
            running leaves memory after this long (0: never); the next request replays it.
        finished_cache: how many finished matches nobody watches stay in memory (the most
            recently asked for), so their records and replays need no replay from the database.
        abandon_idle_days: a running match nobody moved in for this many days is abandoned
            (``status = "abandoned"``: out of the lobby's running list, no more moves, no
            outcome, no rating); 0: never. Its host may abandon an unrated one at any time.
        open_tables_per_player: how many open tables (not started yet) one account may host
            at once, so the lobby's list cannot be flooded.
        sign_ins_per_minute: sign-in attempts one address may make a minute.
        failed_sign_ins: wrong passwords for one name within 15 minutes before its sign-ins
            are refused (429) until the oldest is 15 minutes old.
        sign_ups_per_hour: accounts one address may make in an hour.
        session_idle_seconds, session_max_seconds: a session ends when unused this long, and
            this long after the sign-in whatever happens.
        process_name: with several processes on PostgreSQL, the name the reverse proxy
            routes this one by (``?at=NAME``; default ``p`` and the process id);
            process_address: where it listens (``host:port``), noted beside it in the database.
        owner_lease: seconds this process's matches stay its own after it last said it
            lives (it says so every fifth of that); once it has been silent that long, the
            other processes take them over.
        review_workers: processes the reviews of finished matches are made in (apart from
            the bots'); review_iterations: the search's budget per decision of a review
            (0: no reviews).
    """

    database_url: str = ""
    bot_workers: int = 0
    bot_processes: bool = True
    max_message_bytes: int = 64 * 1024
    max_frame_bytes: int = 1 << 20
    transport_frame_bytes: int = 16 << 20
    messages_per_second: float = 20.0
    message_burst: int = 40
    matches_per_minute: int = 30
    hello_timeout: float = 10.0
    spectators_per_match: int = 256
    max_connections: int = 10_000
    connections_per_address: int = 256
    connections_per_seat: int = 8
    clock_level: str = "easy"
    public_url: str = ""
    trusted_proxies: tuple[str, ...] = ()
    idle_seconds: float = 600.0
    finished_cache: int = 256
    abandon_idle_days: float = 14.0
    open_tables_per_player: int = 3
    sign_ins_per_minute: int = 10
    failed_sign_ins: int = 5
    sign_ups_per_hour: int = 10
    session_idle_seconds: float = 14 * 24 * 3600.0
    session_max_seconds: float = 60 * 24 * 3600.0
    process_name: str = ""
    process_address: str = ""
    owner_lease: float = 3.0
    review_workers: int = 1
    review_iterations: int = REVIEW_ITERATIONS

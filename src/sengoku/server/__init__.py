"""The game server: ``sengoku serve``. HTTP + WebSocket play, bots, durable storage.

Needs the ``server`` extra (FastAPI, uvicorn, SQLAlchemy, Alembic); a PostgreSQL database also
needs the ``postgres`` extra (psycopg), imported only for a ``postgresql://`` URL. The protocol is
in ``docs/protocol.md``; the architecture in ``docs/architecture.md``.
"""

from sengoku.collector import tune_collector

from .app import ServerSettings, create_app, default_database_url

__all__ = ["ServerSettings", "create_app", "default_database_url", "tune_collector"]

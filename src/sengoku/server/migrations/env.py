"""Alembic environment: migrate the connection the server hands over (``Store.migrate``)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import engine_from_config, pool

from sengoku.server.models import Base

config = context.config
target_metadata = Base.metadata

connection = config.attributes.get("connection")
if connection is not None:
    context.configure(connection=connection, target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()
else:  # run from the alembic command line with sqlalchemy.url set
    engine = engine_from_config(
        config.get_section(config.config_ini_section, {}),
        prefix="sqlalchemy.",
        poolclass=pool.NullPool,
    )
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()

"""Alembic's entry point for Rummoli's own migrations (run by the server at start, or by ``alembic``)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from rummoli.server.storage.schema import metadata


def run() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    elif context.is_offline_mode():
        context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=metadata,
                          literal_binds=True, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    else:
        engine = create_engine(str(config.get_main_option("sqlalchemy.url")))
        with engine.connect() as conn:
            context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
            with context.begin_transaction():
                context.run_migrations()
        engine.dispose()


if hasattr(context, "config"):  # run by alembic; imported elsewhere (a doctest run) it does nothing
    run()

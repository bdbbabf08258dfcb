"""Alembic's environment: migrations run on the connection :func:`atout.server.db.upgrade`
hands over (there is no alembic.ini; the server runs them itself at start)."""

from __future__ import annotations

from alembic import context

from atout.server.db import Base


def run() -> None:
    """Run the migrations on the connection the server gave."""
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("the migrations run through atout.server.db.upgrade")
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if getattr(context, "config", None) is not None:  # set only while an Alembic command runs
    run()

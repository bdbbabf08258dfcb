"""The Alembic migrations of the server's database, run by :func:`atout.server.db.upgrade`."""

"""Several hosts that start at the same moment on a fresh PostgreSQL database: the migrations run
once, under an advisory lock, and every host starts (docs/deploy.md, "Migrations")."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from sqlalchemy import create_engine, inspect, text

from .conftest import drop_postgres_database, fresh_postgres_database, postgres_url

OPEN = """
import sys, time
from atout.server.db import open_database
time.sleep(max(0.0, float(sys.argv[2]) - time.time()))  # every host at the same instant
open_database(sys.argv[1]).dispose()
"""


@pytest.mark.parametrize("round_", [1, 2])
def test_hosts_starting_at_once_migrate_a_fresh_database_once(round_: int) -> None:
    url = postgres_url()
    if url is None:
        pytest.skip("set ATOUT_TEST_POSTGRES_URL to a PostgreSQL server")
    db, name = fresh_postgres_database(url)
    try:
        at = str(time.time() + 3.0)
        hosts = [
            subprocess.Popen([sys.executable, "-c", OPEN, db, at], stderr=subprocess.PIPE) for _ in range(6)
        ]
        for host in hosts:
            try:
                assert host.wait(timeout=60) == 0, host.stderr.read().decode()[-400:]  # type: ignore[union-attr]
            except subprocess.TimeoutExpired:
                for other in hosts:
                    other.kill()
                pytest.fail("hosts migrating at once waited on each other for a minute")
        engine = create_engine(db)
        with engine.connect() as connection:
            assert {"tables", "seats", "deals", "actions", "workers"} <= set(
                inspect(connection).get_table_names()
            )
            assert connection.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
        engine.dispose()
    finally:
        drop_postgres_database(url, name)

"""The backups of docs/deploy.md, taken and restored as the guide says: a table is backed up
while its server runs and plays on, the server is stopped, a new server starts on the restored
copy, and the table resumes where the backup left it: its person comes back with the seat's
token, is told the very view they had then, and plays the deal to its end.

SQLite: the online backup (``sqlite3 DB ".backup FILE"``, and Python's ``sqlite3`` backup API),
restored by copying the file back in place of the database and its ``-wal`` and ``-shm`` files.
PostgreSQL: ``pg_dump -Fc`` and ``pg_restore --no-owner`` into a fresh database.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import make_url

from atout.games import deal_from_dealt
from atout.rules import Rules

from .conftest import (
    Message,
    SeatClient,
    ServerProcess,
    drop_postgres_database,
    fresh_postgres_database,
    postgres_url,
)

SEATS: list[dict[str, Any]] = [
    {"kind": "human", "name": "Ann"},
    {"kind": "bot", "bot": "rules"},
    {"kind": "bot", "bot": "random"},
    {"kind": "bot", "bot": "rules"},
]
COMMAND_TIMEOUT = 60.0
"""Seconds a backup or restore command may take (they take well under one here)."""


def missing(reason: str) -> None:
    """Skip for want of a tool, but fail under ``CI=true``, where every test must run."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true: {reason}")
    pytest.skip(reason)


def tool(name: str) -> str:
    """The path of a command-line tool: on the ``PATH``, else in PostgreSQL 15's directory."""
    found = shutil.which(name) or shutil.which(name, path="/usr/lib/postgresql/15/bin")
    if found is None:
        missing(f"{name} is not installed")
    assert found is not None
    return found


def run(*command: str) -> None:
    """Run a command of the guide; its output in the failure if it fails."""
    done = subprocess.run(command, capture_output=True, text=True, timeout=COMMAND_TIMEOUT, check=False)
    assert done.returncode == 0, f"{' '.join(command)} failed: {done.stderr or done.stdout}"


def my_turn(
    client: SeatClient, rng: random.Random, decisions: int, pending: Message | None = None
) -> Message:
    """Play ``decisions`` of this seat's decisions (as :meth:`SeatClient.play_deal` chooses),
    from ``pending`` (a message of this seat's turn not acted on yet) or the next message on, and
    return the message of this seat's next turn: the bots have played up to it and the table
    waits for this seat, with nothing left to write."""
    message = pending
    while True:
        view = None if message is None else message.get("view")
        if (
            message is not None
            and message["type"] in ("update", "state")
            and view
            and view["current_player"] == client.seat
        ):
            if decisions == 0:
                return message
            words = view["legal_actions"]
            chosen = rng.choice([w for w in words if w != "pass"] or words)
            client.send({"type": "action", "seq": message["seq"], "action": chosen})
            decisions -= 1
        message = client.recv(20.0)
        assert message["type"] not in ("deal_over", "error"), message


def back_up_restore_and_finish(
    db_url: str, back_up: Callable[[], None], restore: Callable[[], str], rng: random.Random
) -> None:
    """Play a table part way on ``db_url``, ``back_up`` while the server runs, play on, stop the
    server; ``restore`` (the restored database's URL), start a server on it, and finish the deal
    from the backup's point."""
    server = ServerProcess(db_url)
    server.start()
    try:
        created = server.create(preset="fft", players=4, seats=SEATS, sit=0)
        table_id, token = created["table_id"], created["token"]
        client = server.connect(table_id, token, 0)
        at_backup = my_turn(client, rng, 4)
        actions_at_backup = len(server.log(table_id).deals[0].actions)
        back_up()
        later = my_turn(client, rng, 1, at_backup)  # the live table moves on past the backup
        assert later["seq"] > at_backup["seq"] and later["view"] != at_backup["view"]
        client.close()
    finally:
        server.stop()

    restored = ServerProcess(restore())
    restored.start()
    try:
        assert restored.http.get("/healthz").json()["database"]["reachable"] is True
        record = restored.log(table_id)
        assert len(record.deals) == 1 and len(record.deals[0].actions) == actions_at_backup
        # the page comes back with the last number it had, which the backup never reached
        client = restored.connect(table_id, token, 0, last_seq=later["seq"])
        state = client.recv_until("state")
        assert state["seq"] == at_backup["seq"] and state["view"] == at_backup["view"]
        over = client.play_deal(rng)
        client.close()
        record = restored.log(table_id)
        deal = deal_from_dealt(
            Rules.from_options(record.rules), record.deals[0].dealer, record.deals[0].dealt
        )
        for _seq, _seat, words in record.deals[0].actions:
            deal.apply(deal.parse(words))
        assert deal.is_over() and over["scores"] == deal.scores() == record.deals[0].scores
    finally:
        restored.stop()


@pytest.mark.parametrize("method", ["sqlite3-cli", "python-api"])
def test_a_sqlite_backup_taken_while_the_server_runs_resumes_the_table(tmp_path: Path, method: str) -> None:
    database, backup = tmp_path / "atout.sqlite3", tmp_path / "backup" / "atout.sqlite3"
    backup.parent.mkdir()
    sqlite3_cli = tool("sqlite3") if method == "sqlite3-cli" else ""

    def back_up() -> None:
        if method == "sqlite3-cli":
            run(sqlite3_cli, str(database), f".backup '{backup}'")
        else:
            script = (
                "import sqlite3, sys\n"
                "source, target = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2])\n"
                "source.backup(target)\n"
                "target.close(); source.close()\n"
            )
            run(sys.executable, "-c", script, str(database), str(backup))

    def restore() -> str:
        for leftover in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
            leftover.unlink(missing_ok=True)
        shutil.copyfile(backup, database)
        return f"sqlite:///{database}"

    back_up_restore_and_finish(f"sqlite:///{database}", back_up, restore, random.Random(5))


def test_a_postgresql_dump_taken_while_the_server_runs_resumes_the_table(tmp_path: Path) -> None:
    base = postgres_url()
    if not base:
        pytest.skip("ATOUT_TEST_POSTGRES_URL is not set")
    pg_dump, pg_restore = tool("pg_dump"), tool("pg_restore")
    url, name = fresh_postgres_database(base)
    dump = tmp_path / "atout.dump"
    created: list[str] = []

    def libpq(sqlalchemy_url: str) -> str:
        """The URL as PostgreSQL's own tools read it (no ``+psycopg``)."""
        return make_url(sqlalchemy_url).set(drivername="postgresql").render_as_string(hide_password=False)

    def back_up() -> None:
        run(pg_dump, "-Fc", "-f", str(dump), libpq(url))

    def restore() -> str:
        fresh, fresh_name = fresh_postgres_database(base)
        created.append(fresh_name)
        run(pg_restore, "--no-owner", "-d", libpq(fresh), str(dump))
        return fresh

    try:
        back_up_restore_and_finish(url, back_up, restore, random.Random(6))
    finally:
        for database in [name, *created]:
            drop_postgres_database(base, database)

"""A database that refuses writes never stalls a table in silence: the table's clients are told
(``error`` with code ``server_error``), nothing is applied that was not saved, and the table goes
on by itself once the database accepts writes again. The refusal is the database's own: a trigger
that aborts every insert into the log, added and dropped while the server runs.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url


@contextmanager
def refused_writes(db_url: str) -> Iterator[None]:
    """Every insert into ``actions`` fails while the block runs."""
    engine = create_engine(db_url, isolation_level="AUTOCOMMIT")
    postgres = make_url(db_url).get_backend_name() == "postgresql"
    with engine.connect() as connection:
        if postgres:
            connection.execute(
                text(
                    "CREATE OR REPLACE FUNCTION atout_refuse() RETURNS trigger AS "
                    "$$ BEGIN RAISE EXCEPTION 'writes refused'; END $$ LANGUAGE plpgsql"
                )
            )
            connection.execute(
                text(
                    "CREATE TRIGGER atout_refuse BEFORE INSERT ON actions FOR EACH ROW EXECUTE FUNCTION atout_refuse()"
                )
            )
        else:
            connection.execute(
                text(
                    "CREATE TRIGGER atout_refuse BEFORE INSERT ON actions BEGIN SELECT RAISE(ABORT, 'writes refused'); END"
                )
            )
    try:
        yield
    finally:
        with engine.connect() as connection:
            connection.execute(text("DROP TRIGGER atout_refuse" + (" ON actions" if postgres else "")))
        engine.dispose()


def test_a_table_of_bots_tells_its_clients_and_goes_on_when_the_database_comes_back(server: Any) -> None:
    """The bots' moves cannot be saved for a while: the watchers hear ``server_error`` once, no move
    is told that the log does not hold, and the deal ends once writes are accepted again."""
    with refused_writes(server.db_url):
        created = server.create(
            preset="fft", players=3, seats=[{"kind": "bot", "bot": "rules"}] * 3, sit=None
        )
        table_id = created["table_id"]
        watcher = server.connect(table_id, None, None)
        error = watcher.recv_until("error", 20)
        assert error["code"] == "server_error" and "could not save" in error["message"]
        time.sleep(1.0)
        assert server.log(table_id).deals[0].actions == [], "nothing was saved, nothing applied"
        assert all(m["type"] != "update" for m in watcher.drain(0.2))
    over = watcher.recv_until("deal_over", 60)
    record = server.log(table_id)
    assert over["scores"] == record.deals[0].scores and record.deals[0].actions
    watcher.close()


def test_a_move_the_database_refuses_changes_nothing_and_can_be_made_again(server: Any) -> None:
    """A person's move that cannot be saved is answered ``server_error``; the seat's view and the
    log are as before, and the same move is accepted once the database takes writes again."""
    created = server.create(
        preset="fft",
        players=3,
        seats=[{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "rules"}] * 2,
        sit=0,
    )
    table_id = created["table_id"]
    client = server.connect(table_id, created["token"], 0)
    while True:
        message = client.recv()
        view = message.get("view")
        if view and view["current_player"] == 0 and view["legal_actions"]:
            break
    before = server.log(table_id).deals[0].actions
    move = {"type": "action", "seq": message["seq"], "action": view["legal_actions"][-1]}
    with refused_writes(server.db_url):
        error = client.error_for(move)
        assert error["code"] == "server_error" and error["seq"] == message["seq"]
        assert server.log(table_id).deals[0].actions == before
        client.send({"type": "resync"})
        assert client.recv_until("state")["view"] == view
    client.send(move)
    update = client.recv_until("update")
    assert update["seq"] == message["seq"] + 1
    assert server.log(table_id).deals[0].actions[len(before)][2] == view["legal_actions"][-1]
    client.close()

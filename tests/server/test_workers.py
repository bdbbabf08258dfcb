"""Several workers on one PostgreSQL database are one server: a table has one owner, and any
worker serves any table by relaying to it. Two ``atout serve`` processes on the same database and
different ports (what two machines are), and ``atout serve --workers 2`` on one port; real
websockets, a fresh database for this module.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import create_engine, text

from atout.server.ownership import NAMESPACE, table_key

from .conftest import (
    Message,
    SeatClient,
    ServerProcess,
    drop_postgres_database,
    fresh_postgres_database,
    postgres_url,
)

OWNER = (
    "SELECT w.id, w.address FROM pg_locks l JOIN workers w ON w.backend_pid = l.pid "
    "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 "
    "AND l.classid = CAST(:ns AS bigint)::oid AND l.objid = CAST(:key AS bigint)::oid"
)


def owner_of(db_url: str, table_id: str) -> tuple[str, str] | None:
    """The worker id and internal address of the table's owner, as the database says."""
    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            row = connection.execute(text(OWNER), {"ns": NAMESPACE, "key": table_key(table_id)}).one_or_none()
    finally:
        engine.dispose()
    return None if row is None else (str(row[0]), str(row[1]))


def workers_of(db_url: str) -> list[tuple[str, str]]:
    """Every registered worker whose lock connection is open: id and address."""
    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text(
                    "SELECT id, address FROM workers WHERE backend_pid IN (SELECT pid FROM pg_stat_activity) "
                    "ORDER BY id"
                )
            ).all()
    finally:
        engine.dispose()
    return [(str(r[0]), str(r[1])) for r in rows]


@pytest.fixture(scope="module")
def cluster_db() -> Iterator[str]:
    """A fresh PostgreSQL database for this module (the tests skip without a server, and fail
    without one under CI=true)."""
    base = postgres_url()
    if not base:
        pytest.skip("ATOUT_TEST_POSTGRES_URL is not set")
    url, name = fresh_postgres_database(base)
    yield url
    drop_postgres_database(base, name)


@pytest.fixture(scope="module")
def two(cluster_db: str) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Two servers on the same database, each a worker of one server; a table nobody uses is put
    away after half a second."""
    first = ServerProcess(cluster_db, args=("--idle-unload", "0.5"))
    second = ServerProcess(cluster_db, args=("--idle-unload", "0.5"))
    try:
        first.start()
        second.start()
        yield first, second
    finally:
        first.stop()
        second.stop()


def _turn(client: SeatClient, timeout: float = 20.0) -> Message:
    """Messages until the client's seat has a decision to make; the message that said so."""
    end = time.monotonic() + timeout
    while True:
        view = client.view
        if view and view["current_player"] == client.seat and view["legal_actions"]:
            return next(m for m in reversed(client.received) if m["type"] in ("state", "update"))
        client.recv(max(0.1, end - time.monotonic()))


def test_two_seats_through_two_workers_see_every_update_and_finish_the_deal(
    two: tuple[ServerProcess, ServerProcess],
) -> None:
    owner, other = two
    created = owner.create(
        preset="fft",
        players=4,
        seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        + [{"kind": "bot", "bot": "rules"}] * 2,
        sit=0,
    )
    table_id = created["table_id"]
    assert owner_of(owner.db_url, table_id) is not None, "the creating worker owns the table"
    claimed = other.post(f"/api/tables/{table_id}/seats/1/claim", {"name": "Bob"})  # relayed
    assert claimed.status_code == 200, claimed.text
    assert other.info(table_id) == owner.info(table_id)
    ann = owner.connect(table_id, created["token"], 0)
    bob = other.connect(table_id, claimed.json()["token"], 1)
    results: dict[int, Message] = {}
    failures: list[BaseException] = []

    def play(client: SeatClient) -> None:
        try:
            results[client.seat or 0] = client.play_deal(random.Random(client.seat), timeout=60)
        except BaseException as exc:  # the main thread reports it
            failures.append(exc)

    threads = [threading.Thread(target=play, args=(c,)) for c in (ann, bob)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(90)
    assert not failures, failures
    assert results[0]["scores"] == results[1]["scores"] == owner.log(table_id).deals[0].scores
    for client in (ann, bob):
        seqs = [m["seq"] for m in client.received if m["type"] == "update"]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), "an update was missed"
        assert seqs[-1] == owner.seat_seq(table_id, client.seat or 0), "the last update is the log's"
    assert owner.leaks(table_id, [ann, bob]) == []
    ann.close()
    bob.close()


def test_two_actions_racing_through_two_workers_one_wins(two: tuple[ServerProcess, ServerProcess]) -> None:
    """The same seat, connected through both workers, sends two moves for one turn at once: one
    is applied, the other refused (stale or not your turn), and the log holds one action there."""
    owner, other = two
    created = owner.create(
        preset="fft",
        players=3,
        seats=[{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "rules"}] * 2,
    )
    table_id = created["table_id"]
    here = owner.connect(table_id, created["token"], 0)
    there = other.connect(table_id, created["token"], 0)
    rng = random.Random(7)
    for _ in range(4):
        message = _turn(here)
        assert _turn(there)["seq"] == message["seq"]
        words = here.view["legal_actions"] if here.view else []
        choices = [w for w in words if w != "pass"] or words
        mine, theirs = rng.choice(choices), rng.choice(choices)
        before = len(owner.log(table_id).deals[-1].actions)
        start = threading.Barrier(2)

        def send(client: SeatClient, action: str, seq: int, start: threading.Barrier) -> None:
            start.wait(5)
            client.send({"type": "action", "seq": seq, "action": action})

        senders = [
            threading.Thread(target=send, args=(here, mine, message["seq"], start)),
            threading.Thread(target=send, args=(there, theirs, message["seq"], start)),
        ]
        for thread in senders:
            thread.start()
        for thread in senders:
            thread.join(10)
        answers: dict[str, list[Message]] = {}
        for name, client in (("here", here), ("there", there)):
            got = [client.recv_until("update")]
            got += client.drain(0.5)
            answers[name] = [m for m in got if m["type"] == "error"]
        refused = [name for name, errors in answers.items() if errors]
        assert len(refused) == 1, answers
        assert answers[refused[0]][0]["code"] in ("stale", "not_your_turn"), answers
        actions = owner.log(table_id).deals[-1].actions
        winner = theirs if refused[0] == "here" else mine
        assert actions[before][1:] == (0, winner)
        assert all(a[1] != 0 for a in actions[before + 1 :]), "the refused move was never applied"
    here.close()
    there.close()


def test_a_table_lives_on_one_worker_and_moves_when_it_is_put_away(
    two: tuple[ServerProcess, ServerProcess],
) -> None:
    """Each table has one owner whichever worker is asked; a table put away (idle) is let go
    and taken by the next worker that is asked for it."""
    first, second = two
    cluster_db = first.db_url
    created = first.create(preset="fft", players=3, seats=[{"kind": "bot", "bot": "random"}] * 3, sit=None)
    table_id = created["table_id"]
    watcher = first.connect(table_id, None, None)  # keeps the table in its owner's memory
    watcher.recv_until("deal_over", 30)
    owner = owner_of(cluster_db, table_id)
    assert owner is not None
    assert second.info(table_id)["state"] == "between_deals"
    assert owner_of(cluster_db, table_id) == owner, "the relay took nothing"
    watcher.close()
    end = time.monotonic() + 30
    while owner_of(cluster_db, table_id) is not None and time.monotonic() < end:
        time.sleep(0.1)  # nobody there: the table is put away and let go
    assert owner_of(cluster_db, table_id) is None
    assert second.info(table_id)["state"] == "between_deals"
    now = owner_of(cluster_db, table_id)
    assert now is not None and now != owner, "the worker asked took the free table"


def test_workers_2_share_one_port_and_the_internal_addresses_want_the_secret(cluster_db: str) -> None:
    server = ServerProcess(cluster_db, args=("--workers", "2"))
    try:
        server.start()
        end = time.monotonic() + 30
        while len(mine := [w for w in workers_of(cluster_db) if worker_pid(w[0]) in server.children()]) < 2:
            assert time.monotonic() < end, workers_of(cluster_db)
            time.sleep(0.1)
        owners: set[str] = set()
        body = {"preset": "fft", "players": 3, "seats": [{"kind": "bot", "bot": "random"}] * 3, "sit": None}
        for _ in range(40):  # a new connection each: the kernel spreads them over the workers
            created = httpx.post(f"{server.base}/api/tables", json=body, timeout=20).json()
            owner = owner_of(cluster_db, created["table_id"])
            assert owner is not None
            owners.add(owner[0])
            info = httpx.get(f"{server.base}/api/tables/{created['table_id']}", timeout=20)
            assert info.status_code == 200 and info.json()["table_id"] == created["table_id"]
            if len(owners) == 2:
                break
        assert owners == {w[0] for w in mine}, "each worker creates tables, and owns those"
        for _worker, address in mine:
            refused = httpx.get(f"http://{address}/api/tables/{created['table_id']}", timeout=10)
            assert refused.status_code == 403, refused.text
            assert refused.json() == {"error": "this address is for the server's own workers", "field": None}
    finally:
        server.stop()


def worker_pid(worker: str) -> int:
    """The process id in a worker's id (``host/pid``)."""
    return int(worker.rpartition("/")[2])

"""Faults a server of several workers on PostgreSQL survives, each while a deal is played: the
table's owner killed (``kill -9``), the database restarted, one worker cut off from the database.
Every time the clients are told (a close 1012 or an ``error`` ``server_error``), they come back
(to another worker when theirs cannot serve), every deal completes, and what each client was told
is what the log holds: no committed action lost, nothing told that was not committed.
"""

from __future__ import annotations

import contextlib
import glob
import os
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url
from websockets.exceptions import ConnectionClosed, WebSocketException

from .conftest import (
    Message,
    ServerProcess,
    drop_postgres_database,
    free_port,
    fresh_postgres_database,
    leaks,
    postgres_url,
    seat_states,
)
from .test_workers import owner_of, worker_pid


class Player:
    """A person at one seat, in a thread of its own: plays its turns, and when its websocket is
    closed comes back to the next server of its list with its last ``seq`` and view, as the page
    does. ``pause_after``: after that many moves it waits (``paused`` set) until ``go_on``."""

    def __init__(
        self,
        servers: list[ServerProcess],
        table_id: str,
        token: str,
        seat: int,
        pause_after: int | None = None,
    ) -> None:
        self.servers, self.table_id, self.token, self.seat = servers, table_id, token, seat
        self.pause_after = pause_after
        self.paused, self.go_on = threading.Event(), threading.Event()
        self.told: list[tuple[int, float, Message]] = []
        """Every message, with the index of the server it came through and when."""
        self.closes: list[int | None] = []
        self.over: Message | None = None
        self.failure: BaseException | None = None
        self.rng = random.Random(seat)
        self.thread = threading.Thread(target=self._run, name=f"seat {seat}", daemon=True)

    def start(self) -> Player:
        self.thread.start()
        return self

    def join(self, timeout: float) -> None:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), f"seat {self.seat} did not finish its deal"
        if self.failure is not None:
            raise self.failure

    def _run(self) -> None:
        try:
            self._play(time.monotonic() + 120)
        except BaseException as exc:  # the test's thread reports it
            self.failure = exc

    def _play(self, end: float) -> None:
        turn, moves = 0, 0
        last_seq: int | None = None
        view: Message | None = None
        while time.monotonic() < end:
            which = turn % len(self.servers)
            turn += 1
            try:
                client = self.servers[which].connect(self.table_id, self.token, self.seat, last_seq, view)
            except (OSError, WebSocketException, TimeoutError):
                time.sleep(0.2)  # the server is not listening (yet): the page's retry delay
                continue
            acted_at: int | None = None
            try:
                client.send({"type": "ping"})  # after the hello's catch-up: then play on
                while True:
                    message = client.recv(max(0.1, end - time.monotonic()))
                    self.told.append((which, time.monotonic(), message))
                    kind = message["type"]
                    if kind in ("state", "update"):
                        last_seq, view = message["seq"], client.view
                    if kind == "deal_over":
                        self.over = message
                        return
                    if kind == "error" and message["code"] == "server_error":
                        acted_at = None  # not saved: the move is made again, at a person's pace
                        time.sleep(0.2)
                        client.send({"type": "ping"})
                        continue
                    current = client.view
                    if kind not in ("state", "update", "pong") or not current or acted_at == last_seq:
                        continue
                    if current["current_player"] != self.seat or not current["legal_actions"]:
                        continue
                    if moves == self.pause_after:
                        self.paused.set()
                        self.go_on.wait(60)
                    words = current["legal_actions"]
                    action = self.rng.choice([w for w in words if w != "pass"] or words)
                    client.send({"type": "action", "seq": last_seq, "action": action})
                    acted_at, moves = last_seq, moves + 1
            except ConnectionClosed:
                self.closes.append(client.ws.close_code)
            finally:
                client.close()
        raise TimeoutError(f"seat {self.seat}: the deal did not end")


def told_is_logged(server: ServerProcess, table_id: str, players: list[Player]) -> None:
    """Every view a player was told (a ``state``, an ``update`` applied) is its seat's view at
    that number in the log, and each player's last number is the log's: nothing committed was
    lost, nothing was told that was not committed."""
    record = server.log(table_id)
    expected: dict[tuple[int, int], Message] = {}
    for seat, seq, deal in seat_states(record, [p.seat for p in players]):
        expected[(seat, seq)] = deal.view(seat).to_json()
    for player in players:
        views = [m for _, _, m in player.told if m["type"] in ("state", "update") and m.get("view")]
        assert views, f"seat {player.seat} was told nothing"
        for message in views:
            assert message["view"] == expected[(player.seat, message["seq"])], (player.seat, message["seq"])
        assert views[-1]["seq"] == max(seq for seat, seq in expected if seat == player.seat)
    assert leaks(record, {p.seat: [m for _, _, m in p.told] for p in players}) == []


def one_person_table(server: ServerProcess) -> tuple[str, str]:
    """A 4-player table: a person at seat 0, rules bots elsewhere; its id and the person's token."""
    created = server.create(
        preset="fft",
        players=4,
        seats=[{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "rules"}] * 3,
    )
    return created["table_id"], created["token"]


@pytest.fixture
def fault_db() -> Iterator[str]:
    """A fresh database on the test PostgreSQL server (skipped without one, failed under CI)."""
    base = postgres_url()
    if not base:
        pytest.skip("ATOUT_TEST_POSTGRES_URL is not set")
    url, name = fresh_postgres_database(base)
    yield url
    drop_postgres_database(base, name)


def test_the_owner_killed_mid_deal_costs_only_its_connections(fault_db: str) -> None:
    server = ServerProcess(fault_db, args=("--workers", "2"))
    try:
        server.start()
        tables = [one_person_table(server) for _ in range(4)]
        players = [Player([server], table_id, token, 0, pause_after=3).start() for table_id, token in tables]
        for player in players:
            assert player.paused.wait(30), "the deal did not reach the person's fourth move"
        owner = owner_of(fault_db, tables[0][0])
        assert owner is not None
        killed = worker_pid(owner[0])
        assert killed in server.children()
        os.kill(killed, signal.SIGKILL)
        for player in players:
            player.go_on.set()
        for player in players:
            player.join(120)
            assert player.over is not None
        assert players[0].closes, "the killed worker's clients were cut off"
        for (table_id, _token), player in zip(tables, players, strict=True):
            told_is_logged(server, table_id, [player])
            assert server.log(table_id).deals[0].scores == player.over["scores"]
        end = time.monotonic() + 30
        while killed in server.children() or len(server.children()) < 2:
            assert time.monotonic() < end, "the supervisor did not start a worker again"
            time.sleep(0.1)
    finally:
        server.stop()


# ---------------------------------------------------------------------- a private PostgreSQL
class PrivatePostgres:
    """A PostgreSQL cluster of the test's own, in a temporary directory on a free port, started
    with ``initdb`` and ``pg_ctl`` (as the ``postgres`` user when the tests run as root)."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            if os.environ.get("CI") == "true":
                pytest.fail("CI=true: PostgreSQL's initdb is needed (/usr/lib/postgresql/*/bin)")
            pytest.skip("no PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb)")
        self.bin = Path(found[-1]).parent
        self.dir = Path(tempfile.mkdtemp(prefix="atout-pg-"))
        self.port = free_port()
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
        self._run("initdb", "-D", f"{self.dir}/data", "-U", "postgres", "--auth=trust", "-E", "UTF8")
        self.start()

    def _run(self, *command: str) -> None:
        line = [str(self.bin / command[0]), *command[1:]]
        if os.geteuid() == 0:
            line = ["su", "postgres", "-c", " ".join(f"'{part}'" for part in line)]
        subprocess.run(line, check=True, capture_output=True, timeout=60)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"
        self._run("pg_ctl", "-D", f"{self.dir}/data", "-l", f"{self.dir}/log", "-w", "-o", options, "start")

    def restart(self) -> None:
        self._run("pg_ctl", "-D", f"{self.dir}/data", "-m", "fast", "-w", "stop")
        self.start()

    def close(self) -> None:
        try:
            self._run("pg_ctl", "-D", f"{self.dir}/data", "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


def test_a_database_restart_mid_deal_is_told_and_the_deal_resumes() -> None:
    cluster = PrivatePostgres()
    first = second = None
    try:
        url, _name = fresh_postgres_database(cluster.url)
        first, second = ServerProcess(url), ServerProcess(url)
        first.start()
        second.start()
        table_id, token = one_person_table(first)
        player = Player([first, second], table_id, token, 0, pause_after=3).start()
        assert player.paused.wait(30)
        cluster.restart()
        player.go_on.set()
        player.join(120)
        told = [m for _, _, m in player.told]
        assert 1012 in player.closes or any(
            m["type"] == "error" and m["code"] == "server_error" for m in told
        ), "the restart was not told"
        told_is_logged(first, table_id, [player])
        assert player.over is not None and first.log(table_id).deals[0].scores == player.over["scores"]
    finally:
        for server in (first, second):
            if server is not None:
                server.stop()
        cluster.close()


# ---------------------------------------------------------------------- a partition
class CuttableProxy:
    """A TCP proxy to the database, for one worker, that the test can cut: every connection
    through it is closed and new ones are refused, as a network partition ends them."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        self.cut_off = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self.lock:
                if self.cut_off:
                    client.close()
                    upstream.close()
                    return
                self.sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        with self.lock:
            self.cut_off = True
            self.listener.close()
            for sock in self.sockets:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()


def test_a_worker_cut_off_from_the_database_stops_and_the_other_takes_over(fault_db: str) -> None:
    parsed = make_url(fault_db)
    proxy = CuttableProxy(parsed.host or "127.0.0.1", parsed.port or 5432)
    through_proxy = parsed.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    cut_off, other = ServerProcess(through_proxy), ServerProcess(fault_db)
    try:
        cut_off.start()
        other.start()
        table_id, token = one_person_table(cut_off)
        owner = owner_of(fault_db, table_id)
        assert (
            owner is not None and cut_off.process is not None and worker_pid(owner[0]) == cut_off.process.pid
        )
        player = Player([cut_off, other], table_id, token, 0, pause_after=3).start()
        assert player.paused.wait(30)
        before = len(cut_off.log(table_id).deals[0].actions)
        proxy.cut()
        cut_at = time.monotonic()
        player.go_on.set()
        player.join(120)
        assert player.over is not None
        after_cut = [m for which, at, m in player.told if which == 0 and at > cut_at]
        assert all(m["type"] in ("error", "pong") for m in after_cut), after_cut
        assert all(m["code"] == "server_error" for m in after_cut if m["type"] == "error")
        record = other.log(table_id)
        assert len(record.deals[0].actions) > before and record.deals[0].scores == player.over["scores"]
        told_is_logged(other, table_id, [player])
        owner = owner_of(fault_db, table_id)
        assert owner is None or (other.process is not None and worker_pid(owner[0]) == other.process.pid)
    finally:
        cut_off.stop()
        other.stop()
        proxy.cut()


__all__ = ["CuttableProxy", "Player", "PrivatePostgres"]

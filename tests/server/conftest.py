"""A real server for the server tests: ``atout serve`` in a subprocess on a free port, on a
SQLite file, and on PostgreSQL when ``ATOUT_TEST_POSTGRES_URL`` is set (required under CI).

The fixtures hand out objects whose methods the tests use: :class:`ServerProcess` (REST calls,
websocket seats) and :class:`SeatClient` (one browser at one seat, keeping every message).
Nothing is mocked: real processes, a real database, real websockets.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from websockets.sync.client import ClientConnection, connect

from atout.cards import NAMES
from atout.engine.wire import apply_view_delta
from atout.games import Deal, deal_from_dealt
from atout.games.fairness import knowable, scan_card_names
from atout.rules import Rules
from atout.server.db import open_database
from atout.server.store import Store, TableRecord

Message = dict[str, Any]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class SeatClient:
    """One websocket client; every message it receives is kept in ``received``. It holds its
    seat's view as a page does: the full view of each ``state``, then each ``update``'s delta
    applied (:func:`atout.engine.wire.apply_view_delta`), which it puts on the update as
    ``view`` for the tests to read."""

    def __init__(self, ws: ClientConnection, seat: int | None, stack: contextlib.ExitStack) -> None:
        self.ws, self.seat, self.stack = ws, seat, stack
        self.received: list[Message] = []
        self.view: Message | None = None

    def send(self, message: Message | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = 10.0) -> Message:
        message: Message = json.loads(self.ws.recv(timeout=timeout))
        if message["type"] == "state":
            self.view = message.get("view")
        elif message["type"] == "update":
            assert "view" not in message, "an update carries what changed, not the whole view"
            assert self.view is not None, "an update came before any state"
            self.view = message["view"] = apply_view_delta(self.view, message)
        self.received.append(message)
        return message

    def recv_until(self, kind: str, timeout: float = 20.0) -> Message:
        """Messages up to the first of this type."""
        end = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.1, end - time.monotonic()))
            if message["type"] == kind:
                return message

    def drain(self, quiet: float = 0.3) -> list[Message]:
        """Every message that comes until none has for ``quiet`` seconds."""
        got = []
        while True:
            try:
                got.append(self.recv(quiet))
            except TimeoutError:
                return got

    def error_for(self, message: Message | str) -> Message:
        """Send a message that must be refused; the error."""
        self.send(message)
        return self.recv_until("error", 5.0)

    def play_deal(self, rng: random.Random, timeout: float = 60.0) -> Message:
        """Play this seat's decisions (never passing when something else is allowed, so that
        deals are played) until the deal is over; the ``deal_over`` message."""
        end = time.monotonic() + timeout
        self.send({"type": "resync"})  # whatever came before, start from the state now
        while time.monotonic() < end:
            message = self.recv(max(0.1, end - time.monotonic()))
            if message["type"] == "deal_over":
                return message
            view = message.get("view")
            if message["type"] in ("update", "state") and view and view["current_player"] == self.seat:
                words = view["legal_actions"]
                if words:
                    chosen = rng.choice([w for w in words if w != "pass"] or words)
                    self.send({"type": "action", "seq": message["seq"], "action": chosen})
        raise TimeoutError("the deal did not end")

    def close(self) -> None:
        self.stack.close()


class ServerProcess:
    """``atout serve`` in a subprocess, and clients of it."""

    def __init__(self, db_url: str, leave_timeout: float = 60.0, args: tuple[str, ...] = ()) -> None:
        self.db_url, self.leave_timeout, self.args = db_url, leave_timeout, args
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.http = httpx.Client(base_url=self.base, timeout=20.0)

    def start(self) -> None:
        command = [sys.executable, "-m", "atout", "serve", "--port", str(self.port), "--db", self.db_url]
        command += ["--bot-pause", "0", "--leave-timeout", str(self.leave_timeout), "--bot-workers", "1"]
        command += [
            "--no-warm-up"
        ]  # the tests' bots are random and rules: no kernel to load (make test compiled them)
        if "--analysis" not in self.args:  # the solver's analyses only where a test asks for them
            command += ["--analysis", "on-demand"]
        command += self.args
        self.process = subprocess.Popen(command, stderr=subprocess.PIPE)
        # up, and its bot worker warm: every table a test creates then starts alike (the
        # table info's bots_warming false), so that two tables' streams may be compared
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.process.stderr.read().decode()}")  # type: ignore[union-attr]
            try:
                health = httpx.get(f"{self.base}/healthz", timeout=1).json()
                if health["ok"] is True and health["bots_warming"] is False:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the server did not start, or its bot worker did not warm up")

    def children(self) -> list[int]:
        """The server's child processes (its bot workers among them), Linux only."""
        assert self.process is not None
        pid = self.process.pid
        try:
            return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        except OSError:
            return []

    def kill(self) -> None:
        """SIGKILL: no shutdown, nothing flushed but what was committed."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.http.close()

    # -------------------------------------------------------------- REST
    def post(self, path: str, body: Message | None = None, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.http.post(path, json=body or {}, headers=headers)

    def create(self, **body: Any) -> Message:
        response = self.post("/api/tables", body)
        assert response.status_code == 200, response.text
        created: Message = response.json()
        return created

    def info(self, table_id: str) -> Message:
        response = self.http.get(f"/api/tables/{table_id}")
        assert response.status_code == 200, response.text
        info: Message = response.json()
        return info

    # -------------------------------------------------------------- websockets
    def connect(
        self,
        table_id: str,
        token: str | None,
        seat: int | None,
        last_seq: int | None = None,
        view: Message | None = None,
    ) -> SeatClient:
        """A client at a seat (or watching); one that comes back with ``last_seq`` brings the
        ``view`` it held then, as a page does."""
        stack = contextlib.ExitStack()
        ws = stack.enter_context(connect(f"ws://127.0.0.1:{self.port}/ws/tables/{table_id}", open_timeout=10))
        client = SeatClient(ws, seat, stack)
        client.view = view
        client.send({"type": "hello", "token": token, "last_seq": last_seq})
        return client

    def log(self, table_id: str) -> TableRecord:
        """The table as the database holds it."""
        engine = open_database(self.db_url)
        try:
            record = Store(engine).load(table_id)
        finally:
            engine.dispose()
        assert record is not None
        return record

    def seat_seq(self, table_id: str, seat: int) -> int:
        """The seat's sequence number now, worked out from the log (:func:`seat_states`)."""
        last = 0
        for _seat, seq, _deal in seat_states(self.log(table_id), [seat]):
            last = seq
        return last

    def leaks(self, table_id: str, clients: list[SeatClient]) -> list[str]:
        """Every card name a seated client received that its seat could not know then."""
        return leaks(self.log(table_id), {c.seat: c.received for c in clients if c.seat is not None})


def seat_states(record: TableRecord, seats: list[int]) -> Iterator[tuple[int, int, Deal]]:
    """``(seat, seq, deal)``: each seat's sequence number and the deal when it took it. A seat's
    number moves at each deal dealt and with each action that changed its view (docs/server.md),
    so it is worked out here from the log and the views, as a client would see them."""
    rules = Rules.from_options(record.rules)
    for dealt in record.deals:
        deal = deal_from_dealt(rules, dealt.dealer, dealt.dealt)
        starts = dealt.seat_seqs or [dealt.seq] * rules.players
        seqs = {seat: starts[seat] for seat in seats}
        views = {seat: deal.view(seat) for seat in seats}
        for seat in seats:
            yield seat, seqs[seat], deal
        for _seq, _seat, words in dealt.actions:
            deal.apply(deal.parse(words))
            for seat in seats:
                view = deal.view(seat)
                if view != views[seat]:
                    views[seat] = view
                    seqs[seat] += 1
                yield seat, seqs[seat], deal


def named_not_located(message: Message) -> int:
    """The cards a message may name without saying where they lie: the 5-player called card,
    named to all (rule book §4.3), and the cards the caller may call."""
    view = message.get("view") or {}
    names = [view["called_card"]] if view.get("called_card") else []
    if view.get("phase") == "call":
        names += [w.split()[-1] for w in view["legal_actions"]]
    return sum(1 << NAMES.index(n) for n in set(names) if n in NAMES)


def leaks(record: TableRecord, messages: dict[int, list[Message]]) -> list[str]:
    """Card names in any seat's messages that the seat could not know at that message's seq
    (:func:`atout.games.fairness.knowable` of the server's deal, rebuilt from its log, when the
    seat's number last took that value)."""
    allowed: dict[tuple[int, int], int] = {}
    for seat, seq, deal in seat_states(record, list(messages)):
        allowed[(seat, seq)] = knowable(deal, seat)
    found = []
    for seat, received in messages.items():
        for message in received:
            if message["type"] == "error" or message["seq"] is None or message["seq"] == 0:
                continue
            mask = allowed[(seat, message["seq"])] | named_not_located(message)
            # the table's id is random text: "-1C_" in it would read as the ace of clubs
            for leak in scan_card_names(json.dumps(message).replace(record.id, "<table>"), mask):
                found.append(f"seat {seat}, {message['type']} at seq {message['seq']}: {leak}")
    return found


# ------------------------------------------------------------------ databases and servers
def postgres_url() -> str | None:
    """The PostgreSQL server to test on, if any; under CI it must be given."""
    url = os.environ.get("ATOUT_TEST_POSTGRES_URL")
    if not url and os.environ.get("CI") == "true":
        pytest.fail("CI=true: set ATOUT_TEST_POSTGRES_URL to a PostgreSQL server for the server tests")
    return url


def fresh_postgres_database(url: str) -> tuple[str, str]:
    """A new empty database on that server: its URL, and its name to drop afterwards."""
    name = f"atout_test_{secrets.token_hex(4)}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return make_url(url).set(database=name).render_as_string(hide_password=False), name


def drop_postgres_database(url: str, name: str) -> None:
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A fresh database of each backend (PostgreSQL only when a server is given)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'atout.sqlite3'}"
        return
    base = postgres_url()
    if not base:
        pytest.skip("ATOUT_TEST_POSTGRES_URL is not set")
    url, name = fresh_postgres_database(base)
    yield url
    drop_postgres_database(base, name)


@pytest.fixture(scope="session")
def server(db_url: str) -> Iterator[ServerProcess]:
    """One running server per backend: bots without pause, a person replaced 2 s after leaving."""
    process = ServerProcess(db_url, leave_timeout=2.0)
    process.start()
    yield process
    process.stop()


@pytest.fixture
def fresh_server(db_url: str) -> Iterator[ServerProcess]:
    """A server of its own (to be killed), on the same database."""
    process = ServerProcess(db_url)
    process.start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def server_factory(db_url: str) -> Iterator[Callable[..., ServerProcess]]:
    """Start servers of one's own with more ``atout serve`` arguments (stopped after the module)."""
    started: list[ServerProcess] = []

    def make(*args: str, leave_timeout: float = 60.0) -> ServerProcess:
        process = ServerProcess(db_url, leave_timeout, tuple(args))
        process.start()
        started.append(process)
        return process

    yield make
    for process in started:
        process.stop()

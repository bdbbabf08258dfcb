"""Load on an atout server, measured from the outside: tables of four scripted people over real
websockets, through the documented API only (docs/server.md, docs/protocol.md).

Run with ``.venv/bin/python bench/load.py --serve sqlite --tables 10,100 --pace person --seconds 20``
(or ``--serve postgresql[:URL]``, a fresh database in that PostgreSQL server, by default the one of
``ATOUT_TEST_POSTGRES_URL``; or ``--url http://127.0.0.1:8000 --pids 1234`` against a server already
running, whose listed processes and their children are measured). Every value of ``--tables`` runs in
turn on a fresh server (and, with ``--src DIR`` given more than once, on each source tree in turn:
``git worktree add /tmp/atout-before <commit>`` then ``--src /tmp/atout-before/src --src src`` measures
two versions in one run). A started server runs ``atout serve --bot-pause 0 --no-warm-up
--idle-unload S`` (and ``--workers N`` when given) from that tree, on a fresh database.

Each table is a 4-player FFT table of four people, no bot: created by the REST lobby, its other three
seats claimed, then one websocket per seat. A seat answers its turn with a uniformly random legal
action of its view, at once (``--pace once``) or after a person's pause (``--pace person``: 0.6 to
1.4 s, uniform); after ``deal_over`` seat 0 asks for the next deal (``POST /next``, after the same
pause), so tables play whole deals and rematches. Tables start gradually (``--ramp`` a second), spread
over ``--clients`` processes (asyncio, ``websockets``); once all play, ``--warm-up`` seconds pass, then
``--seconds`` are measured. Then every table finishes its deal at once and stays between deals with its
people connected (the idle memory), then everyone leaves and the bench waits for the server to unload
its tables (``/healthz`` ``live_tables`` 0, after its ``--idle-unload``).

A seat holds its view from the last ``state`` and applies each ``update`` to it: an update that
carries a whole ``view`` replaces it; the delta form (``events``, ``set``, ``add``) is applied field by
field, ``events`` appended to the view's events.

How an update is matched to the action that caused it (exact at any pace, no timing assumed). The
actor's own first update after it sent an action is that action's (a seat acts only on its up-to-date
view, so no earlier update is still on its way to it); whether the action was public is read there,
from its new events (every kind but ``discard`` and ``talon_seen`` is public, docs/protocol.md). Each
seat receives its updates in the order of the actions, and a public action changes every seat's view:
so another seat's update that brings a public event belongs to the first public action after the
last one matched for that seat; one that brings none (the others' view after the écart's last card)
belongs to the last of the actions seen by nobody else before the next public one. An action's
latency is the time from its sending to the last of the updates matched to it (every seat whose view
it changed, the actor's own included); the actions counted are those sent during the measured seconds.

Figures: actions a second; the latency's median, 99th percentile and maximum; errors by code (the
server's ``error`` messages, closed websockets, refused requests); the server's CPU (ms an action,
% of a core) and resident memory (``/proc``, the processes and all their children; a PostgreSQL
server's own processes are not among them unless listed in ``--pids``) per table above its size
before any table: while playing, idle between deals with everyone connected, and after the
tables were unloaded; messages and bytes received an action (all clients); the clients' own CPU, as
a share of this machine's cores and the busiest client's share of one core, so that the reader sees
the clients were not the bottleneck.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import multiprocessing
import os
import random
import resource
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit

import httpx
from rich.console import Console
from rich.table import Table
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

Message = dict[str, Any]
AT_ONCE = 0.025
"""Seconds a seat waits at full speed: 40 actions a second at most, under the server's flood limit."""

PRIVATE_KINDS = frozenset({"discard", "talon_seen"})
"""The event kinds a seat's view holds for that seat alone (docs/protocol.md, "Events")."""
PERSON_PAUSE = (0.6, 1.4)
"""A person's pause before a move, seconds, drawn uniformly."""
CLIENT_CORE_SHARE = 0.5
"""The share of a core a client process is meant to stay under."""
CLIENT_MS_PER_ACTION = 1.0
"""A client's CPU per action (its four updates read, a move chosen and sent), measured, with room."""
PLAYERS = 4
STEP_TIMEOUT = 60.0
"""Seconds any one step (a request, a connection, a phase of the run) may take before it counts as
failed: every wait of the bench is bounded."""


class BenchError(Exception):
    """A run that cannot go on: said in one line."""


# ---------------------------------------------------------------- arguments
class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}\n")


@dataclass(frozen=True)
class Options:
    """The run, checked."""

    url: str | None
    pids: tuple[int, ...]
    backend: str | None
    postgres_url: str | None
    workers: int | None
    srcs: tuple[Path | None, ...]
    tables: tuple[int, ...]
    pace: str
    seconds: float
    warm_up: float
    ramp: float
    clients: int | None
    idle_unload: float
    seed: int
    json: bool


def parse_options(argv: list[str] | None = None) -> Options:
    """The options, or one line saying what is wrong (exit status 2)."""
    parser = _Parser(prog="bench/load.py", description=(__doc__ or "").splitlines()[0])
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--url", help="a running server, e.g. http://127.0.0.1:8000")
    target.add_argument(
        "--serve",
        default="sqlite",
        help="start atout serve on a fresh database: sqlite (default), postgresql or postgresql:URL",
    )
    parser.add_argument("--pids", default="", help="with --url: the server's processes, e.g. 1234,1240")
    parser.add_argument("--workers", type=_positive_int, help="with --serve: atout serve --workers N")
    parser.add_argument("--src", action="append", help="with --serve: run the server from this source tree")
    parser.add_argument("--tables", default="10", type=_table_counts, help="tables, e.g. 10,100,300,1000")
    parser.add_argument("--pace", default="once", choices=("once", "person"), help="how fast seats act")
    parser.add_argument("--seconds", type=_positive_float, default=20.0, help="measured seconds")
    parser.add_argument("--warm-up", type=_non_negative_float, default=5.0, help="seconds before measuring")
    parser.add_argument("--ramp", type=_positive_float, default=50.0, help="tables started a second")
    parser.add_argument("--clients", type=_positive_int, help="client processes (default: by the load)")
    parser.add_argument(
        "--idle-unload", type=_non_negative_float, default=5.0, help="the server's --idle-unload, seconds"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the seats' choices")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    url: str | None = args.url
    if url is not None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/"):
            parser.error(f"--url: expected http://host:port, found {url!r}")
        url = url.rstrip("/")
    pids = tuple(_pid(parser, text) for text in args.pids.split(",") if text.strip())
    if pids and url is None:
        parser.error("--pids goes with --url (a started server is measured by itself)")
    if url is not None and (args.src or args.workers):
        parser.error("--src and --workers go with --serve (a running server is as it was started)")
    backend, _, postgres = (None, "", "") if url is not None else str(args.serve).partition(":")
    if backend not in (None, "sqlite", "postgresql"):
        parser.error(f"--serve: expected sqlite, postgresql or postgresql:URL, found {args.serve!r}")
    if backend == "sqlite" and postgres:
        parser.error("--serve sqlite takes no URL (a fresh file in a temporary folder)")
    postgres = postgres or (os.environ.get("ATOUT_TEST_POSTGRES_URL", "") if backend == "postgresql" else "")
    if backend == "postgresql" and not postgres:
        parser.error("--serve postgresql: give postgresql:URL or set ATOUT_TEST_POSTGRES_URL")
    srcs: list[Path | None] = []
    for text in args.src or []:
        path = Path(text).resolve()
        if not (path / "atout" / "__init__.py").is_file():
            parser.error(f"--src {text}: no atout package in that folder (give a tree's src folder)")
        srcs.append(path)
    return Options(
        url=url,
        pids=pids,
        backend=backend,
        postgres_url=postgres or None,
        workers=args.workers,
        srcs=tuple(srcs) or (None,),
        tables=args.tables,
        pace=args.pace,
        seconds=args.seconds,
        warm_up=args.warm_up,
        ramp=args.ramp,
        clients=args.clients,
        idle_unload=args.idle_unload,
        seed=args.seed,
        json=args.json,
    )


def _number(text: str, kind: type[int] | type[float], low: float, strict: bool) -> Any:
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value) or value < low or (strict and value == low):
        raise argparse.ArgumentTypeError(f"{text} is not {'above' if strict else 'at least'} {low:g}")
    return value


def _positive_int(text: str) -> int:
    value: int = _number(text, int, 0, True)
    return value


def _positive_float(text: str) -> float:
    value: float = _number(text, float, 0, True)
    return value


def _non_negative_float(text: str) -> float:
    value: float = _number(text, float, 0, False)
    return value


def _table_counts(text: str) -> tuple[int, ...]:
    counts = tuple(_positive_int(item.strip()) for item in text.split(","))
    if not counts:
        raise argparse.ArgumentTypeError("give at least one count")
    return counts


def _pid(parser: _Parser, text: str) -> int:
    if not text.strip().isdigit() or not Path(f"/proc/{text.strip()}").is_dir():
        parser.error(f"--pids: no process {text.strip()!r} on this machine")
    return int(text)


# ---------------------------------------------------------------- the wire, as a client reads it
def apply_update(view: Mapping[str, Any], update: Mapping[str, Any]) -> dict[str, Any]:
    """The view after an ``update``: its whole ``view`` when it carries one, else its delta
    applied (``set`` replaces fields, ``add`` appends to list fields, ``events`` to the events)."""
    whole = update.get("view")
    if isinstance(whole, dict):
        return whole
    out = dict(view)
    out.update(update.get("set") or {})
    for name, items in (update.get("add") or {}).items():
        out[name] = [*out[name], *items]
    out["events"] = [*out.get("events", []), *update.get("events", [])]
    return out


def brings_public_event(update: Mapping[str, Any]) -> bool:
    """Whether an update's new events hold one that every seat's view holds."""
    return any(event.get("kind") not in PRIVATE_KINDS for event in update.get("events", []))


# ---------------------------------------------------------------- matching updates to actions
@dataclass
class Action:
    """One action sent: by which seat, when, and the updates it caused (their arrival times)."""

    seat: int
    sent: float
    public: bool | None = None
    """Whether it put a public event in the views; known from the actor's own update."""
    refused: bool = False
    told: list[float] = field(default_factory=list)


@dataclass
class DealLog:
    """One deal of one table: its actions, and each seat's updates in the order they came, as
    ``(time, brought a public event, the index of the seat's own action it answers or None)``."""

    actions: list[Action] = field(default_factory=list)
    updates: list[list[tuple[float, bool, int | None]]] = field(
        default_factory=lambda: [[] for _ in range(PLAYERS)]
    )

    def match(self) -> int:
        """Give each update to its action (the module's docstring says how); the updates that fit
        no action."""
        actions, unmatched = self.actions, 0
        for seat, updates in enumerate(self.updates):
            last = -1
            for at, public, own in updates:
                if own is not None:
                    found: int | None = own
                elif public:
                    found = self._public_after(last, seat)
                else:
                    found = self._quiet_after(last, seat)
                if found is None:
                    unmatched += 1
                    continue
                actions[found].told.append(at)
                last = max(last, found)
        return unmatched

    def _public_after(self, last: int, seat: int) -> int | None:
        return next(
            (
                k
                for k in range(last + 1, len(self.actions))
                if self.actions[k].public and self.actions[k].seat != seat
            ),
            None,
        )

    def _quiet_after(self, last: int, seat: int) -> int | None:
        found = None
        for k in range(last + 1, len(self.actions)):
            action = self.actions[k]
            if action.refused:
                continue
            if action.public is not False:
                break
            if action.seat != seat:
                found = k
        return found


# ---------------------------------------------------------------- a client process
@dataclass(frozen=True)
class ClientConfig:
    """What one client process plays."""

    base: str
    first_table: int
    tables: int
    pace: str
    ramp: float
    seed: int


class SetupError(Exception):
    """A table that could not be set up: the error's code."""


class Seat:
    """One person at one table: a websocket, the view it holds and its action on its way."""

    def __init__(self, number: int, token: str) -> None:
        self.number, self.token = number, token
        self.ws: ClientConnection | None = None
        self.view: Message | None = None
        self.seq = 0
        self.deal_no = 0
        self.waiting: int | None = None
        """The index, in its deal's log, of the action it sent and has no answer to yet."""
        self.turn: asyncio.Task[None] | None = None


class TablePlayer:
    """One table of four scripted people."""

    def __init__(self, client: ClientRun, index: int) -> None:
        self.client, self.index = client, index
        self.rng = random.Random(f"{client.config.seed}/{index}")
        self.table_id = ""
        self.seats: list[Seat] = []
        self.logs: dict[int, DealLog] = {}
        self.readers: list[asyncio.Task[None]] = []
        self.sending: set[asyncio.Task[None]] = set()
        self.between_deals = False
        self.next_deal: asyncio.Task[None] | None = None
        self.parked = asyncio.Event()
        self.failed = False

    # ------------------------------------------------------------ setting up
    async def start(self) -> None:
        """Create the table, claim its seats, connect every seat; its first deal is then played."""
        seats = [{"kind": "human", "name": f"Person {n + 1}"} for n in range(PLAYERS)]
        created = await self.client.post("/api/tables", {"preset": "fft", "players": PLAYERS, "seats": seats})
        self.table_id = created["table_id"]
        tokens = [created["token"]]
        for number in range(1, PLAYERS):
            claimed = await self.client.post(
                f"/api/tables/{self.table_id}/seats/{number}/claim", {"name": f"Person {number + 1}"}
            )
            tokens.append(claimed["token"])
        self.seats = [Seat(number, token) for number, token in enumerate(tokens)]
        for seat in self.seats:
            try:
                seat.ws = await connect(
                    f"{self.client.ws_base}/ws/tables/{self.table_id}",
                    open_timeout=STEP_TIMEOUT,
                    ping_interval=None,
                    max_size=None,
                )
            except (OSError, TimeoutError, ConnectionClosed) as exc:
                raise SetupError(f"connect:{type(exc).__name__}") from None
            self.readers.append(asyncio.create_task(self.read(seat)))
            await seat.ws.send(json.dumps({"type": "hello", "token": seat.token, "last_seq": None}))

    # ------------------------------------------------------------ reading
    async def read(self, seat: Seat) -> None:
        assert seat.ws is not None
        try:
            while True:
                raw = await seat.ws.recv(decode=False)
                now = time.monotonic()
                self.client.received(now, len(raw))
                message = json.loads(raw)
                self.handle(seat, message, now)
        except ConnectionClosed as closed:
            if not self.client.leaving:
                code = closed.rcvd.code if closed.rcvd is not None else "no_close_frame"
                self.fail(f"closed:{code}")
        except (ValueError, KeyError, TypeError) as exc:
            self.fail(f"bad_message:{type(exc).__name__}")

    def handle(self, seat: Seat, message: Message, now: float) -> None:
        kind = message.get("type")
        if kind == "state":
            seat.view, seat.seq, seat.waiting = message.get("view"), message["seq"], None
            if seat.view is not None:
                seat.deal_no = message["deal_no"]
                self.between_deals = False
            if message.get("over") is not None:
                self.deal_over(seat)
        elif kind == "update":
            if seat.view is None and not isinstance(message.get("view"), dict):
                self.client.error("update_without_state")
                self.send_soon(seat, {"type": "resync"})
                return
            seat.view = apply_update(seat.view or {}, message)
            seat.seq, seat.deal_no = message["seq"], message["deal_no"]
            public = brings_public_event(message)
            log = self.log(seat.deal_no)
            log.updates[seat.number].append((now, public, seat.waiting))
            if seat.waiting is not None:
                log.actions[seat.waiting].public = public
                seat.waiting = None
        elif kind == "deal_over":
            seat.seq = message["seq"]
            self.deal_over(seat)
            return
        elif kind == "error":
            self.client.error(f"error:{message.get('code')}")
            if seat.waiting is not None:
                self.log(seat.deal_no).actions[seat.waiting].refused = True
                seat.waiting = None
            self.send_soon(seat, {"type": "resync"})
            return
        else:
            return  # table, pong
        self.maybe_act(seat)

    def log(self, deal_no: int) -> DealLog:
        log = self.logs.get(deal_no)
        if log is None:
            log = self.logs[deal_no] = DealLog()
        return log

    # ------------------------------------------------------------ acting
    def maybe_act(self, seat: Seat) -> None:
        view = seat.view
        if view is None or seat.waiting is not None or seat.turn is not None:
            return
        if view.get("current_player") != seat.number or not view.get("legal_actions"):
            return
        seat.turn = asyncio.create_task(self.play_turn(seat, self.client.pause(self.rng)))

    async def play_turn(self, seat: Seat, pause: float) -> None:
        if pause:
            await asyncio.sleep(pause)
        seat.turn = None
        view = seat.view
        if (
            seat.ws is None
            or view is None
            or seat.waiting is not None
            or view["current_player"] != seat.number
        ):
            return
        words = self.rng.choice(view["legal_actions"])
        log = self.log(seat.deal_no)
        seat.waiting = len(log.actions)
        log.actions.append(Action(seat.number, time.monotonic()))
        with suppress(ConnectionClosed):  # the reader says why
            await seat.ws.send(json.dumps({"type": "action", "seq": seat.seq, "action": words}))

    def send_soon(self, seat: Seat, message: Message) -> None:
        if seat.ws is not None:
            task = asyncio.create_task(self._send(seat.ws, message))
            self.sending.add(task)
            task.add_done_callback(self.sending.discard)

    @staticmethod
    async def _send(ws: ClientConnection, message: Message) -> None:
        with suppress(ConnectionClosed):
            await ws.send(json.dumps(message))

    # ------------------------------------------------------------ deals
    def deal_over(self, seat: Seat) -> None:
        if seat.number != 0 or self.between_deals:
            return
        self.between_deals = True
        self.client.deal_finished(time.monotonic())
        if self.client.parking:
            self.parked.set()
        elif self.next_deal is None:
            self.next_deal = asyncio.create_task(self.ask_next_deal(self.client.pause(self.rng)))

    async def ask_next_deal(self, pause: float) -> None:
        try:
            if pause:
                await asyncio.sleep(pause)
            if self.client.parking:
                self.parked.set()
                return
            await self.client.post(f"/api/tables/{self.table_id}/next", {}, self.seats[0].token)
        except SetupError as exc:
            self.fail(str(exc))
        finally:
            self.next_deal = None

    def park(self) -> None:
        """Stop at the end of this deal (played on at once), between deals."""
        if self.failed or (self.between_deals and self.next_deal is None):
            self.parked.set()
            return
        for seat in self.seats:
            if seat.turn is not None:
                seat.turn.cancel()
                seat.turn = None
            self.maybe_act(seat)

    def fail(self, code: str) -> None:
        if not self.failed:
            self.failed = True
            self.client.error(code)
            self.client.failed_tables += 1
        self.parked.set()

    async def leave(self) -> None:
        for task in [*self.sending, *(s.turn for s in self.seats), self.next_deal]:
            if task is not None:
                task.cancel()
        await asyncio.gather(*(seat.ws.close() for seat in self.seats if seat.ws is not None))
        for task in self.readers:
            task.cancel()


class ClientRun:
    """The tables of one client process, and what it counted."""

    def __init__(self, config: ClientConfig) -> None:
        self.config = config
        self.ws_base = "ws" + config.base.removeprefix("http")
        self.http = httpx.AsyncClient(
            base_url=config.base, timeout=STEP_TIMEOUT, limits=httpx.Limits(max_connections=16)
        )
        self.tables = [TablePlayer(self, config.first_table + i) for i in range(config.tables)]
        self.window: tuple[float, float] | None = None
        self.cpu: list[float] = []
        self.messages = 0
        self.bytes = 0
        self.deals = 0
        self.errors: Counter[str] = Counter()
        self.failed_tables = 0
        self.parking = False
        self.leaving = False

    def in_window(self, now: float) -> bool:
        return self.window is not None and self.window[0] <= now < self.window[1]

    def received(self, now: float, size: int) -> None:
        if self.in_window(now):
            self.messages += 1
            self.bytes += size

    def deal_finished(self, now: float) -> None:
        if self.in_window(now):
            self.deals += 1

    def error(self, code: str) -> None:
        self.errors[code] += 1

    def pause(self, rng: random.Random) -> float:
        if self.config.pace == "once" or self.parking:
            return AT_ONCE  # a seat stays under the server's 50 messages a second (flood limit)
        return rng.uniform(*PERSON_PAUSE)

    async def post(self, path: str, body: Message, token: str | None = None) -> Message:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        try:
            response = await self.http.post(path, json=body, headers=headers)
        except httpx.HTTPError as exc:
            raise SetupError(f"http:{type(exc).__name__}") from None
        if response.status_code != 200:
            raise SetupError(f"http:{response.status_code}")
        answer: Message = response.json()
        return answer

    async def start(self) -> None:
        """Start the tables at the ramp's pace; return once each plays or failed."""
        step = 1.0 / self.config.ramp
        began = time.monotonic()

        async def start_one(position: int, table: TablePlayer) -> None:
            await asyncio.sleep(max(0.0, began + position * step - time.monotonic()))
            try:
                await asyncio.wait_for(table.start(), STEP_TIMEOUT)
            except (SetupError, TimeoutError) as exc:
                table.fail(str(exc) or "setup_timeout")

        await asyncio.gather(*(start_one(i, t) for i, t in enumerate(self.tables)))

    def measure(self, start: float, end: float) -> None:
        """Count from ``start`` to ``end`` (monotonic times), noting this process's CPU at both."""
        self.window = (start, end)
        loop = asyncio.get_running_loop()
        for at in (start, end):
            loop.call_later(max(0.0, at - time.monotonic()), lambda: self.cpu.append(time.process_time()))

    async def park(self) -> int:
        """Every table finishes its deal and stays between deals; the tables that did."""
        self.parking = True
        for table in self.tables:
            table.park()
        with suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(t.parked.wait() for t in self.tables)), STEP_TIMEOUT * 3)
        unparked = sum(not t.parked.is_set() for t in self.tables)
        if unparked:
            self.errors["not_between_deals"] += unparked
        return sum(t.parked.is_set() and not t.failed for t in self.tables)

    async def leave(self) -> None:
        self.leaving = True
        await asyncio.gather(*(t.leave() for t in self.tables), return_exceptions=True)
        await self.http.aclose()

    def results(self) -> Message:
        latencies: list[float] = []
        actions = unmatched = 0
        for table in self.tables:
            for log in table.logs.values():
                unmatched += log.match()
                for action in log.actions:
                    if self.in_window(action.sent) and not action.refused:
                        actions += 1
                        if action.told:
                            latencies.append((max(action.told) - action.sent) * 1000)
        window = self.window or (0.0, 0.0)
        cpu = self.cpu[1] - self.cpu[0] if len(self.cpu) == 2 else None
        return {
            "actions": actions,
            "latencies_ms": latencies,
            "unmatched_updates": unmatched,
            "messages": self.messages,
            "bytes": self.bytes,
            "deals": self.deals,
            "errors": dict(self.errors),
            "failed_tables": self.failed_tables,
            "cpu_s": cpu,
            "window_s": window[1] - window[0],
        }


def client_process(conn: Connection, config: ClientConfig) -> None:
    """A client process: plays its tables as the parent's orders come (over ``conn``)."""
    _raise_file_limit()
    try:
        asyncio.run(_client(conn, config))
    except Exception as exc:  # told to the parent, which says it in one line
        conn.send(("failed", f"{type(exc).__name__}: {exc}"))


async def _client(conn: Connection, config: ClientConfig) -> None:
    run = ClientRun(config)

    async def order() -> Any:
        return await asyncio.to_thread(conn.recv)

    await run.start()
    conn.send(("started", run.failed_tables))
    _, start, end = await order()
    run.measure(start, end)
    await order()  # park
    conn.send(("parked", await run.park()))
    await order()  # leave
    await run.leave()
    conn.send(("results", run.results()))


def _raise_file_limit() -> None:
    """As many open files as allowed: thousands of websockets."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# ---------------------------------------------------------------- the server's processes
def _descendants(pids: tuple[int, ...]) -> set[int]:
    found, todo = set(), list(pids)
    while todo:
        pid = todo.pop()
        if pid in found or not Path(f"/proc/{pid}").exists():
            continue
        found.add(pid)
        for task in Path(f"/proc/{pid}/task").glob("*/children"):
            with suppress(OSError):
                todo.extend(int(child) for child in task.read_text().split())
    return found


def _cpu_seconds(pids: set[int]) -> dict[int, float]:
    tick = os.sysconf("SC_CLK_TCK")
    out = {}
    for pid in pids:
        with suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
            out[pid] = (int(fields[11]) + int(fields[12])) / tick
    return out


def _rss_bytes(pids: set[int]) -> int:
    page = os.sysconf("SC_PAGE_SIZE")
    total = 0
    for pid in pids:
        with suppress(OSError, IndexError, ValueError):
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * page
    return total


@dataclass
class Server:
    """The server measured: its address and the processes whose CPU and memory count."""

    base: str
    pids: tuple[int, ...]
    label: str

    def processes(self) -> set[int]:
        return _descendants(self.pids)

    def cpu(self) -> dict[int, float]:
        return _cpu_seconds(self.processes())

    def rss(self) -> int | None:
        return _rss_bytes(self.processes()) if self.pids else None

    def health(self) -> Message | None:
        with suppress(httpx.HTTPError, ValueError):
            answer: Message = httpx.get(f"{self.base}/healthz", timeout=5).json()
            return answer
        return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def _database(options: Options, folder: Path) -> Iterator[str]:
    """A fresh database for one started server, dropped afterwards (PostgreSQL)."""
    if options.backend == "sqlite":
        yield f"sqlite:///{folder / 'load.sqlite3'}"
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    assert options.postgres_url is not None
    name = f"atout_load_{secrets.token_hex(4)}"
    try:
        admin = create_engine(options.postgres_url, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:  # a bad URL, a server down: one line
        raise BenchError(f"PostgreSQL {options.postgres_url}: {str(exc).splitlines()[0]}") from None
    try:
        yield make_url(options.postgres_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def started_server(options: Options, src: Path | None) -> Iterator[Server]:
    """``atout serve`` on a fresh database, from ``src`` when given; stopped afterwards."""
    with tempfile.TemporaryDirectory(prefix="atout-load-") as tmp, _database(options, Path(tmp)) as db:
        port = _free_port()
        command = [sys.executable, "-m", "atout", "serve", "--port", str(port), "--db", db]
        command += ["--bot-pause", "0", "--no-warm-up", "--idle-unload", f"{options.idle_unload:g}"]
        if options.workers is not None:
            command += ["--workers", str(options.workers)]
        env = dict(os.environ)
        if src is not None:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(src), env.get("PYTHONPATH", "")]))
        log = (Path(tmp) / "server.log").open("w+")
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        server = Server(f"http://127.0.0.1:{port}", (process.pid,), _label(options, src))
        try:
            end = time.monotonic() + STEP_TIMEOUT
            while (health := server.health()) is None or health.get("ok") is not True:
                if process.poll() is not None or time.monotonic() > end:
                    log.seek(0)
                    said = [line for line in log.read().splitlines() if line.strip()]
                    raise BenchError(f"the server did not start: {said[-1] if said else 'no word'}")
                time.sleep(0.1)
            yield server
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            log.close()


def _label(options: Options, src: Path | None) -> str:
    where = "this tree" if src is None else src.parent.name if src.name == "src" else src.name
    workers = f", {options.workers} workers" if options.workers else ""
    return f"{where}, {options.backend}{workers}, {options.pace}"


# ---------------------------------------------------------------- one run
def default_clients(tables: int, pace: str) -> int:
    """Enough client processes for each to stay under about half a core: at a person's pace a
    table makes about an action a second; at once, as many as the server answers, bounded by
    the cores."""
    cores = os.cpu_count() or 1
    if pace == "once":
        return max(1, min(cores, tables))
    rate = tables / statistics.mean(PERSON_PAUSE)
    return max(1, min(tables, math.ceil(rate * CLIENT_MS_PER_ACTION / 1000 / CLIENT_CORE_SHARE)))


class Clients:
    """The client processes of one run, and the orders sent to them."""

    def __init__(self, base: str, tables: int, options: Options) -> None:
        count = min(tables, options.clients or default_clients(tables, options.pace))
        context = multiprocessing.get_context("spawn")
        self.conns: list[Connection] = []
        self.processes: list[multiprocessing.process.BaseProcess] = []
        shares = [tables // count + (i < tables % count) for i in range(count)]
        for i, share in enumerate(shares):
            config = ClientConfig(
                base, sum(shares[:i]), share, options.pace, options.ramp / count, options.seed
            )
            mine, theirs = context.Pipe()
            process = context.Process(target=client_process, args=(theirs, config), daemon=True)
            process.start()
            self.conns.append(mine)
            self.processes.append(process)

    def send(self, *order: Any) -> None:
        for conn in self.conns:
            conn.send(order)

    def expect(self, kind: str, timeout: float) -> list[Any]:
        """Each client's answer of that kind."""
        answers, end = [], time.monotonic() + timeout
        for conn in self.conns:
            if not conn.poll(max(0.0, end - time.monotonic())):
                raise BenchError(f"a client process did not answer ({kind}) within {timeout:.0f} s")
            said, value = conn.recv()
            if said != kind:
                raise BenchError(f"a client process stopped: {value}")
            answers.append(value)
        return answers

    def stop(self) -> None:
        for process in self.processes:
            process.join(5)
            if process.is_alive():
                process.kill()
                process.join()


def run_once(options: Options, server: Server, tables: int) -> Message:
    """One run against ``server``: start the tables, measure, park, leave; the figures."""
    before = server.rss()
    clients = Clients(server.base, tables, options)
    try:
        clients.expect("started", tables / options.ramp + STEP_TIMEOUT * 2)
        start = time.monotonic() + options.warm_up
        end = start + options.seconds
        clients.send("measure", start, end)
        time.sleep(max(0.0, start - time.monotonic()))
        cpu_start = server.cpu()
        time.sleep(max(0.0, end - time.monotonic()))
        cpu_end = server.cpu()
        live = server.rss()
        clients.send("park")
        parked = sum(clients.expect("parked", STEP_TIMEOUT * 4))
        time.sleep(1.0)
        idle = server.rss()
        clients.send("leave")
        results = clients.expect("results", STEP_TIMEOUT * 2)
        unloaded, live_tables = _after_unload(server, options.idle_unload, options.workers or 1)
    finally:
        clients.stop()
    return _figures(
        options, server, tables, len(clients.conns), results, cpu_start, cpu_end, parked,
        {"before": before, "live": live, "idle": idle, "unloaded": unloaded}, live_tables,
    )  # fmt: skip


def _after_unload(server: Server, idle_unload: float, workers: int) -> tuple[int | None, int | None]:
    """The server's memory once it unloaded its idle tables (or gave up waiting), and its live
    tables then. With several workers each ``/healthz`` is one worker's: several answers in a row
    must say none."""
    end = time.monotonic() + idle_unload + STEP_TIMEOUT / 2
    live_tables, quiet = None, 0
    while time.monotonic() < end and quiet < 3 * workers:
        health = server.health()
        live_tables = health.get("live_tables") if health else None
        quiet = quiet + 1 if live_tables == 0 else 0
        time.sleep(0.05 if live_tables == 0 else 0.25)
    time.sleep(0.5)
    return server.rss(), live_tables


def _figures(
    options: Options,
    server: Server,
    tables: int,
    clients: int,
    results: list[Message],
    cpu_start: dict[int, float],
    cpu_end: dict[int, float],
    parked: int,
    rss: dict[str, int | None],
    live_tables: int | None,
) -> Message:
    seconds = statistics.mean(r["window_s"] for r in results)
    actions = sum(r["actions"] for r in results)
    latencies = sorted(x for r in results for x in r["latencies_ms"])
    errors: Counter[str] = Counter()
    for r in results:
        errors.update(r["errors"])
    server_cpu = sum(cpu_end[pid] - cpu_start.get(pid, 0.0) for pid in cpu_end) if server.pids else None
    client_cpu = [r["cpu_s"] for r in results if r["cpu_s"] is not None]
    per_table = {
        name: None
        if value is None or rss["before"] is None
        else round((value - rss["before"]) / 1024 / tables, 1)
        for name, value in rss.items()
        if name != "before"
    }
    return {
        "config": server.label,
        "tables": tables,
        "clients": clients,
        "seconds": round(seconds, 2),
        "actions": actions,
        "actions_per_s": round(actions / seconds, 1),
        "latency_ms": _percentiles(latencies),
        "latency_samples": len(latencies),
        "unmatched_updates": sum(r["unmatched_updates"] for r in results),
        "deals_finished": sum(r["deals"] for r in results),
        "errors": dict(errors),
        "failed_tables": sum(r["failed_tables"] for r in results),
        "server_cpu_ms_per_action": None if server_cpu is None or not actions else round(server_cpu / actions * 1000, 3),
        "server_cpu_pct_core": None if server_cpu is None else round(server_cpu / seconds * 100, 1),
        "server_rss_mb": {k: None if v is None else round(v / 2**20, 1) for k, v in rss.items()},
        "server_rss_kb_per_table": per_table,
        "tables_between_deals": parked,
        "live_tables_after_unload": live_tables,
        "messages_per_action": round(sum(r["messages"] for r in results) / actions, 2) if actions else None,
        "bytes_per_action": round(sum(r["bytes"] for r in results) / actions) if actions else None,
        "client_cpu_pct_cores": round(sum(client_cpu) / seconds / (os.cpu_count() or 1) * 100, 1),
        "client_cpu_max_pct_core": round(max(client_cpu, default=0.0) / seconds * 100, 1),
    }  # fmt: skip


def _percentiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p99": None, "max": None}
    return {
        "p50": round(statistics.median(values), 2),
        "p99": round(values[math.ceil(0.99 * len(values)) - 1], 2),
        "max": round(values[-1], 2),
    }


# ---------------------------------------------------------------- output
def _shown(value: object, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def print_table(runs: list[Message]) -> None:
    table = Table(title="atout server under load: 4-player FFT tables of four people")
    columns = (
        "configuration", "tables", "actions/s", "p50 ms", "p99 ms", "max ms", "errors",
        "server CPU ms/action", "server CPU % core", "RSS KB/table live", "idle", "unloaded",
        "msgs/action", "bytes/action", "client CPU % cores (max % core)",
    )  # fmt: skip
    for name in columns:
        left = name in ("configuration", "errors")
        table.add_column(name, justify="left" if left else "right", no_wrap=name == "configuration")
    for run in runs:
        errors = sum(run["errors"].values())
        codes = ", ".join(f"{code} {n}" for code, n in sorted(run["errors"].items()))
        rss = run["server_rss_kb_per_table"]
        table.add_row(
            run["config"],
            _shown(run["tables"]),
            _shown(run["actions_per_s"]),
            _shown(run["latency_ms"]["p50"]),
            _shown(run["latency_ms"]["p99"]),
            _shown(run["latency_ms"]["max"]),
            f"{errors} ({codes})" if errors else "0",
            _shown(run["server_cpu_ms_per_action"], 2),
            _shown(run["server_cpu_pct_core"]),
            _shown(rss["live"]),
            _shown(rss["idle"]),
            _shown(rss["unloaded"]),
            _shown(run["messages_per_action"], 2),
            _shown(run["bytes_per_action"]),
            f"{run['client_cpu_pct_cores']:.0f} ({run['client_cpu_max_pct_core']:.0f})",
        )
    console = Console()
    if not console.is_terminal:
        console = Console(width=220)  # a file or a pipe: one line a run
    console.print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    console.print(table)


def main(argv: list[str] | None = None) -> int:
    options = parse_options(argv)
    _raise_file_limit()
    runs = []
    try:
        for src in options.srcs:
            for tables in options.tables:
                if options.url is not None:
                    server = Server(options.url, options.pids, f"{options.url}, {options.pace}")
                    if server.health() is None:
                        raise BenchError(f"no atout server answers at {options.url}/healthz")
                    runs.append(run_once(options, server, tables))
                    continue
                with started_server(options, src) as server:
                    runs.append(run_once(options, server, tables))
    except BenchError as exc:
        print(f"bench/load.py: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    if options.json:
        print(json.dumps({"python": sys.version.split()[0], "cores": os.cpu_count(), "runs": runs}, indent=1))
    else:
        print_table(runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())

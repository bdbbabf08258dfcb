"""Live tables: the seats, the deal in progress, the connections, and the manager of them all.

Each table has one :class:`asyncio.Lock`; everything that reads or changes it runs under that
lock, so tables never wait on each other. An action is checked by the engine, committed to the
log, then applied and told to every seat, each from its own view (``deal.view(seat)``) only.
Every applied action and every new deal takes the next sequence number; each seat keeps a
buffer of its recent updates for a client that reconnects with the last number it saw.

Computer players (bots, and a ``rules`` bot for a person who left mid-deal) are driven by one
task per table that asks the process pool (:mod:`atout.server.botpool`) and then applies the
answer like any other action.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import random
import secrets
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from atout.engine.errors import IllegalActionError
from atout.games import Deal, deal_from_dealt, new_deal, next_dealer
from atout.rules import Rules
from atout.scoring.summary import summary_to_json
from atout.server.botpool import QUICK_BOTS, BotPool, check_bot
from atout.server.config import ServerConfig
from atout.server.db import now
from atout.server.store import DealRecord, SeatRecord, Store, TableRecord

log = logging.getLogger(__name__)

Message = dict[str, Any]
LEFT_BOT = "rules"
"""The bot that plays for a person who left mid-deal."""


class TableError(Exception):
    """A refused request: an HTTP status, a one-line message and the field at fault."""

    def __init__(self, status: int, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.field = status, message, field


class MessageError(Exception):
    """A refused websocket message: its code (``bad_message``, ``not_your_turn``, ``stale``,
    ``illegal``, ``not_seated``), a message, and the rule for an illegal action."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.rule = code, message, rule


def new_token() -> str:
    """A seat's secret: whoever holds it holds the seat."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What is stored of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(eq=False)
class Connection:
    """One open websocket: the seat it speaks for (``None``: a watcher) and its outbox, which a
    sender task empties in order (``None`` in the outbox closes it)."""

    seat: int | None = None
    token_hash: str | None = None
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)

    def send(self, message: Message) -> None:
        """Queue a message for this client."""
        self.outbox.put_nowait(json.dumps(message, ensure_ascii=False))


class Table:
    """One table: its rules and seats, the current deal rebuilt from the log, the running totals,
    the connections and the tasks that play for bots and watch for people who left."""

    def __init__(self, record: TableRecord, store: Store, pool: BotPool, config: ServerConfig) -> None:
        self.id = record.id
        self.preset = record.preset
        self.rules = Rules.from_options(record.rules)
        self.state = record.state
        self.seats = record.seats
        self.store, self.pool, self.config = store, pool, config
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.ended: list[DealRecord] = [d for d in record.deals if d.scores is not None]
        self.totals = [sum(d.scores[s] for d in self.ended if d.scores) for s in range(self.rules.players)]
        self.deal: Deal | None = None
        self.deal_no = 0
        self.deal_seq = 0
        self.seq = 0
        self.buffers: list[deque[Message]] = [deque(maxlen=config.buffer) for _ in self.seats]
        self.seen_events = [0] * len(self.seats)
        self._driver: asyncio.Task[None] | None = None
        self._timers: dict[int, asyncio.Task[None]] = {}
        if record.deals:
            last = record.deals[-1]
            self.deal = deal_from_dealt(self.rules, last.dealer, last.dealt)
            for _seq, _seat, words in last.actions:
                self.deal.apply(self.deal.parse(words))
            self.deal_no, self.deal_seq = last.deal_no, last.seq
            self.seq = max([last.seq, *(a[0] for a in last.actions)])
            self._count_events()

    # ------------------------------------------------------------------ reading
    def seat_info(self, s: int) -> Message:
        """A seat as everyone may see it."""
        seat = self.seats[s]
        replaced = seat.kind == "human" and seat.left_at is not None
        return {
            "seat": s,
            "kind": seat.kind,
            "name": seat.name,
            "bot": LEFT_BOT if replaced else seat.bot,
            "connected": any(c.seat == s for c in self.connections),
            "replaced_by_bot": replaced,
        }

    def facts(self) -> Message:
        """Numbers of these rules that the page shows beside the bids and must not compute:
        contracts and their multipliers, points needed by bouts, poignée sizes (French only)."""
        rules = self.rules
        french = rules.game == "french"
        bidding = french and rules.players >= 3
        return {
            "contracts": [{"name": c, "multiplier": rules.multiplier(c)} for c in rules.contracts]
            if bidding
            else [],
            "thresholds": [rules.threshold(b) for b in range(4)] if french else None,
            "poignee_levels": list(rules.poignee_levels()) if bidding else None,
        }

    def info(self) -> Message:
        """The public table info (docs/server.md)."""
        return {
            "table_id": self.id,
            "game": self.rules.game,
            "players": self.rules.players,
            "preset": self.preset,
            "rules": self.rules.to_dict(),
            "facts": self.facts(),
            "seats": [self.seat_info(s) for s in range(len(self.seats))],
            "deal_no": self.deal_no,
            "dealer": None if self.deal is None else self.deal.dealer,
            "state": self.state,
            "seq": self.seq,
            "totals": list(self.totals),
            "history": [list(d.scores or []) for d in self.ended],
            "deals": [
                {"deal_no": d.deal_no, "dealer": d.dealer, "scores": d.scores, "outcome": d.outcome}
                for d in self.ended
            ],
        }

    def seat_of(self, token: str | None) -> int | None:
        """The seat a person holds with this token, or ``None``."""
        if not token:
            return None
        digest = token_hash(token)
        for s, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.token_hash and hmac.compare_digest(seat.token_hash, digest):
                return s
        return None

    def _view_json(self, s: int) -> Message | None:
        return None if self.deal is None else self.deal.view(s).to_json()

    def state_message(self, conn: Connection) -> Message:
        """A full resync for this connection."""
        return {
            "type": "state",
            "seq": self.seq,
            "seat": conn.seat,
            "table": self.info(),
            "deal_no": self.deal_no,
            "view": None if conn.seat is None else self._view_json(conn.seat),
            "totals": list(self.totals),
        }

    def table_message(self) -> Message:
        """The table info, for every connection."""
        return {"type": "table", "seq": self.seq, "table": self.info()}

    def _count_events(self) -> None:
        for s in range(len(self.seats)):
            view = self._view_json(s)
            self.seen_events[s] = 0 if view is None else len(view["events"])

    def _bot_seat(self) -> int | None:
        """The seat a computer must play now, if any."""
        if self.state != "playing" or self.deal is None or self.deal.is_over():
            return None
        s = self.deal.current_player
        seat = self.seats[s]
        if seat.kind == "bot" or (seat.kind == "human" and seat.left_at is not None):
            return s
        return None

    def _bot_spec(self, s: int) -> str:
        seat = self.seats[s]
        if seat.kind == "bot" and seat.bot:
            return seat.bot
        return LEFT_BOT

    def _connected(self, s: int) -> bool:
        return any(c.seat == s for c in self.connections)

    # ------------------------------------------------------------------ sending
    def broadcast_table(self) -> None:
        """Tell everyone the table info changed."""
        message = self.table_message()
        for conn in self.connections:
            conn.send(message)

    def _to_seat(self, s: int, message: Message) -> None:
        self.buffers[s].append(message)
        for conn in self.connections:
            if conn.seat == s:
                conn.send(message)

    # ------------------------------------------------------------------ websocket side
    async def hello(self, conn: Connection, token: str | None, last_seq: int | None) -> None:
        """A client says who it is: a token's seat gets its missed updates (or a full state), a
        watcher the table; a person a bot replaced takes the seat back."""
        async with self.lock:
            s = self.seat_of(token)
            if token and s is None:
                conn.send(self._error("not_seated", "this token holds no seat at this table"))
            conn.seat = s
            conn.token_hash = None if s is None or token is None else token_hash(token)
            self.connections.add(conn)
            if s is None:
                conn.send(self.table_message())
                return
            self._cancel_timer(s)
            seat = self.seats[s]
            if seat.left_at is not None:
                seat.left_at = None
                await asyncio.to_thread(self.store.save_seat, self.id, seat)
            missed = self._missed(s, last_seq)
            if missed is None:
                conn.send(self.state_message(conn))
            else:
                for message in missed:
                    conn.send(message)
            self.broadcast_table()

    def _missed(self, s: int, last_seq: int | None) -> list[Message] | None:
        """The updates after ``last_seq`` from the seat's buffer, or ``None`` if the gap is not all
        there (unknown, from another deal, or beyond the buffer)."""
        if last_seq is None or self.deal is None or last_seq < self.deal_seq or last_seq > self.seq:
            return None
        if last_seq == self.seq:  # between deals the end may not have arrived: resync
            return [] if self.state == "playing" else None
        missed = [m for m in self.buffers[s] if m["seq"] > last_seq]
        if not missed or missed[0]["seq"] != last_seq + 1:
            return None
        return missed

    async def resync(self, conn: Connection) -> None:
        """A full state, on request."""
        async with self.lock:
            conn.send(self.state_message(conn))

    async def leave(self, conn: Connection) -> None:
        """A websocket closed: a person who left mid-deal gets a bot after the timeout."""
        async with self.lock:
            self.connections.discard(conn)
            s = conn.seat
            if s is not None and not self._connected(s) and self.state == "playing":
                self._start_timer(s)
            self.broadcast_table()

    async def act(self, conn: Connection, seq: int, words: str) -> None:
        """A person's action: checked (seat and token, turn, sequence number, the engine), then
        committed and told to every seat. Raises :class:`MessageError`, changing nothing."""
        async with self.lock:
            s = conn.seat
            if s is None or conn.token_hash is None:
                raise MessageError("not_seated", "say hello with your seat's token before you act")
            seat = self.seats[s]
            if seat.kind != "human" or seat.token_hash != conn.token_hash:
                raise MessageError("not_seated", f"seat {s} is no longer yours")
            if self.state != "playing" or self.deal is None or self.deal.is_over():
                raise MessageError("not_your_turn", "no deal is being played")
            if self.deal.current_player != s:
                raise MessageError("not_your_turn", f"it is seat {self.deal.current_player}'s turn")
            if seq != self.seq:
                raise MessageError("stale", f"you acted on seq {seq}; the table is at seq {self.seq}")
            try:
                action = self.deal.parse(words)
            except ValueError as exc:
                raise MessageError("illegal", str(exc)) from None
            if action not in self.deal.legal_actions():
                try:
                    self.deal.apply(action)
                except IllegalActionError as exc:
                    raise MessageError("illegal", exc.reason, exc.rule) from None
                raise RuntimeError("the engine applied an action it did not list")  # pragma: no cover
            await self._commit(s, action)

    # ------------------------------------------------------------------ applying
    async def _commit(self, s: int, action: int) -> None:
        """Log the action, then apply it and tell everyone (under the lock)."""
        deal = self.deal
        assert deal is not None
        words = deal.action_name(action)
        await asyncio.to_thread(self.store.append_action, self.id, self.deal_no, self.seq + 1, s, words)
        deal.apply(action)
        self.seq += 1
        for seat in range(len(self.seats)):
            view = deal.view(seat).to_json()
            events = view["events"][self.seen_events[seat] :]
            self.seen_events[seat] = len(view["events"])
            self._to_seat(
                seat,
                {"type": "update", "seq": self.seq, "deal_no": self.deal_no, "events": events, "view": view},
            )
        if deal.is_over():
            await self._end_deal()
        else:
            self._kick()

    async def _end_deal(self) -> None:
        deal = self.deal
        assert deal is not None
        scores = deal.scores()
        await asyncio.to_thread(self.store.end_deal, self.id, self.deal_no, scores, deal.outcome)
        record = DealRecord(self.deal_no, deal.dealer, {}, self.deal_seq, scores, deal.outcome)
        self.ended.append(record)
        self.totals = [t + x for t, x in zip(self.totals, scores, strict=True)]
        self.state = "between_deals"
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        summary = None if deal.summary is None else summary_to_json(deal.summary)
        for s in range(len(self.seats)):
            self._to_seat(
                s,
                {
                    "type": "deal_over",
                    "seq": self.seq,
                    "deal_no": self.deal_no,
                    "scores": scores,
                    "totals": list(self.totals),
                    "summary": summary,
                    "outcome": deal.outcome,
                },
            )
        self.broadcast_table()

    async def start_deal(self) -> None:
        """Deal the next deal (under the lock): the first dealer at random, then
        :func:`atout.games.next_dealer`."""
        dealer = secrets.randbelow(self.rules.players) if self.deal is None else next_dealer(self.deal)
        deal = new_deal(self.rules, dealer=dealer, rng=random.Random(secrets.randbits(64)))
        record = DealRecord(self.deal_no + 1, dealer, deal.dealt(), self.seq + 1)
        await asyncio.to_thread(self.store.start_deal, self.id, record)
        self.deal, self.deal_no, self.seq, self.deal_seq = deal, record.deal_no, record.seq, record.seq
        self.state = "playing"
        for buffer in self.buffers:
            buffer.clear()
        self._count_events()
        for conn in self.connections:
            conn.send(self.state_message(conn))
        for s, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.left_at is None and not self._connected(s):
                self._start_timer(s)
        self._kick()

    async def resume(self) -> None:
        """After loading from the log: finish a deal whose end was not recorded, watch for the
        people of a deal in progress, and let the bots play."""
        async with self.lock:
            if self.deal is not None and self.deal.is_over() and self.state == "playing":
                await self._end_deal()
            if self.state == "playing":
                for s, seat in enumerate(self.seats):
                    if seat.kind == "human" and seat.left_at is None:
                        self._start_timer(s)
                self._kick()

    # ------------------------------------------------------------------ computer players
    def _kick(self) -> None:
        """Start the bot driver if a computer is to play and none is running (under the lock)."""
        for seat in self.seats:
            if seat.kind == "bot" and seat.bot:
                self.pool.warm(seat.bot)
        if (self._driver is None or self._driver.done()) and self._bot_seat() is not None:
            self._driver = asyncio.create_task(self._drive(), name=f"bots {self.id}")

    async def _drive(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            async with self.lock:
                s = self._bot_seat()
                if s is None or self.deal is None:
                    return
                spec, seq = self._bot_spec(s), self.seq
                view_json = json.dumps(self.deal.view(s).to_json())
            started = loop.time()
            try:
                words = await self.pool.decide(spec, view_json)
            except Exception:  # a bot that fails must not stop the table
                log.exception("bot %s failed at table %s; playing the first legal action", spec, self.id)
                words = None
            pause = self.config.bot_pause if spec.partition(":")[0] in QUICK_BOTS else 0.0
            rest = pause - (loop.time() - started)
            if rest > 0:
                await asyncio.sleep(rest)
            async with self.lock:
                if self.seq != seq or self._bot_seat() != s or self.deal is None:
                    continue
                legal = self.deal.legal_actions()
                action = legal[0]
                if words is not None:
                    try:
                        action = self.deal.parse(words)
                    except ValueError:
                        log.error("bot %s answered %r at table %s", spec, words, self.id)
                if action not in legal:
                    action = legal[0]
                await self._commit(s, action)

    # ------------------------------------------------------------------ people who leave
    def _start_timer(self, s: int) -> None:
        self._cancel_timer(s)
        self._timers[s] = asyncio.create_task(self._replace_later(s), name=f"leave {self.id}/{s}")

    def _cancel_timer(self, s: int) -> None:
        timer = self._timers.pop(s, None)
        if timer is not None:
            timer.cancel()

    async def _replace_later(self, s: int) -> None:
        await asyncio.sleep(self.config.leave_timeout)
        async with self.lock:
            self._timers.pop(s, None)
            seat = self.seats[s]
            if self._connected(s) or seat.kind != "human" or seat.left_at is not None:
                return
            if self.state != "playing":
                return
            seat.left_at = now()
            await asyncio.to_thread(self.store.save_seat, self.id, seat)
            self.broadcast_table()
            self._kick()

    # ------------------------------------------------------------------ lobby side
    def _check_seat(self, s: int) -> SeatRecord:
        if not 0 <= s < len(self.seats):
            raise TableError(404, f"no seat {s} at this table (seats 0 to {len(self.seats) - 1})", "seat")
        return self.seats[s]

    def _seated(self, token: str | None) -> int:
        s = self.seat_of(token)
        if s is None:
            raise TableError(
                403, "a seated person's token is needed (Authorization: Bearer <token>)", "token"
            )
        return s

    async def _fill_check(self) -> None:
        """Deal the first deal once no seat is open."""
        if self.state == "waiting" and all(seat.kind != "open" for seat in self.seats):
            await self.start_deal()

    async def claim(self, s: int, name: str) -> str:
        """Take an open seat; its new token."""
        async with self.lock:
            seat = self._check_seat(s)
            if seat.kind != "open":
                raise TableError(409, f"seat {s} is taken", "seat")
            token = new_token()
            seat.kind, seat.name, seat.bot = "human", name or seat.name or f"Player {s + 1}", None
            seat.token_hash, seat.left_at = token_hash(token), None
            await asyncio.to_thread(self.store.save_seat, self.id, seat)
            self.broadcast_table()
            await self._fill_check()
            return token

    async def reclaim(self, s: int, token: str) -> str:
        """Take back one's seat (from the bot that played for one)."""
        async with self.lock:
            self._check_seat(s)
            if self.seat_of(token) != s:
                raise TableError(403, f"this token does not hold seat {s}", "token")
            seat = self.seats[s]
            if seat.left_at is not None:
                seat.left_at = None
                await asyncio.to_thread(self.store.save_seat, self.id, seat)
                if self.state == "playing" and not self._connected(s):
                    self._start_timer(s)
                self.broadcast_table()
            return token

    async def set_seat(self, token: str | None, s: int, kind: str, bot: str | None) -> None:
        """Between deals, a seated person makes a seat a bot or opens it."""
        async with self.lock:
            self._seated(token)
            seat = self._check_seat(s)
            if self.state == "playing":
                raise TableError(409, "seats change between deals only", "seat")
            if kind == "bot":
                try:
                    seat.bot = check_bot(bot or "")
                except ValueError as exc:
                    raise TableError(400, str(exc), "bot") from None
                seat.name = _bot_name(seat.bot)
            elif kind == "open":
                seat.bot, seat.name = None, ""
            else:
                raise TableError(400, f"a seat becomes a bot or open, not {kind!r}", "kind")
            seat.kind, seat.token_hash, seat.left_at = kind, None, None
            self._cancel_timer(s)
            for conn in self.connections:  # whoever sat there now only watches
                if conn.seat == s:
                    conn.seat = conn.token_hash = None
                    conn.send(self._error("not_seated", f"seat {s} was made {kind}: you are watching"))
            await asyncio.to_thread(self.store.save_seat, self.id, seat)
            self.broadcast_table()
            await self._fill_check()

    async def next_deal(self, token: str | None) -> None:
        """A seated person deals the next deal."""
        async with self.lock:
            self._seated(token)
            if self.state != "between_deals":
                raise TableError(
                    409, f"the table is {self.state.replace('_', ' ')}, not between deals", "state"
                )
            open_seats = [s for s, seat in enumerate(self.seats) if seat.kind == "open"]
            if open_seats:
                raise TableError(409, f"seat {open_seats[0]} is open: fill it first", "seats")
            await self.start_deal()

    def _error(self, code: str, message: str, rule: str | None = None) -> Message:
        return {"type": "error", "seq": self.seq, "code": code, "message": message, "rule": rule}

    def error_message(self, error: MessageError) -> Message:
        """An ``error`` message for a refused websocket message."""
        return self._error(error.code, error.message, error.rule)

    async def close(self) -> None:
        """Stop this table's tasks (server shutdown)."""
        tasks = [t for t in (self._driver, *self._timers.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for conn in self.connections:
            conn.outbox.put_nowait(None)


def _bot_name(spec: str) -> str:
    return {"random": "Random bot", "rules": "Rules bot"}.get(
        spec, spec.replace("expert:", "Expert ").title()
    )


@dataclass
class SeatRequest:
    """A seat asked for at creation: ``human`` (the creator's, or kept for someone by name),
    ``bot`` with its level, or ``open``."""

    kind: str
    name: str = ""
    bot: str | None = None


class TableManager:
    """Every live table, loaded from the log on first use."""

    def __init__(self, store: Store, pool: BotPool, config: ServerConfig) -> None:
        self.store, self.pool, self.config = store, pool, config
        self.tables: dict[str, Table] = {}
        self._loading = asyncio.Lock()

    async def get(self, table_id: str) -> Table:
        """The table of that id, resumed from its log if it is not live; 404 otherwise."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        async with self._loading:
            table = self.tables.get(table_id)
            if table is None:
                record = await asyncio.to_thread(self.store.load, table_id)
                if record is None:
                    raise TableError(404, f"no table {table_id!r}", "table_id")
                table = Table(record, self.store, self.pool, self.config)
                self.tables[table_id] = table
                await table.resume()
        return table

    async def create(
        self, preset: str, rules: Rules, seats: list[SeatRequest], sit: int | None
    ) -> tuple[Table, str | None]:
        """A new table; the creator's token when ``sit`` is a seat. The first deal is dealt at once
        when no seat is open."""
        if len(seats) != rules.players:
            raise TableError(400, f"{len(seats)} seats given for {rules.players} players", "seats")
        records: list[SeatRecord] = []
        token: str | None = None
        for s, request in enumerate(seats):
            if request.kind == "bot":
                try:
                    spec = check_bot(request.bot or "")
                except ValueError as exc:
                    raise TableError(400, str(exc), f"seats.{s}.bot") from None
                records.append(SeatRecord(s, "bot", request.name or _bot_name(spec), spec))
            elif request.kind == "human" and s == sit:
                token = new_token()
                records.append(
                    SeatRecord(s, "human", request.name or f"Player {s + 1}", None, token_hash(token))
                )
            elif request.kind in ("human", "open"):
                records.append(SeatRecord(s, "open", request.name))
            else:
                raise TableError(
                    400, f"a seat is human, bot or open, not {request.kind!r}", f"seats.{s}.kind"
                )
        if sit is not None and (not 0 <= sit < len(seats) or seats[sit].kind != "human"):
            raise TableError(400, f"sit must be the index of a human seat, not {sit}", "sit")
        record = TableRecord(secrets.token_urlsafe(9), preset, rules.to_dict(), "waiting", records, [])
        await asyncio.to_thread(self.store.create_table, record)
        table = Table(record, self.store, self.pool, self.config)
        self.tables[table.id] = table
        async with table.lock:
            await table._fill_check()
        return table, token

    async def close(self) -> None:
        """Stop every table's tasks."""
        for table in list(self.tables.values()):
            await table.close()

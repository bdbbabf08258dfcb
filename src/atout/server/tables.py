"""A live table as an actor: one task owns its seats, the deal in progress (rebuilt from the log),
the sequence numbers, the timers and the bots' turns, and does one thing at a time from its inbox.

The websocket and the lobby hand it requests (:meth:`Table.hello`, :meth:`Table.act`,
:meth:`Table.claim`...), which it runs in order; a bot's decision is made elsewhere (the bot pool)
and comes back to the inbox as a move; a person's departure timer does the same. After each
request the table moves itself on: it ends a finished deal, deals a wanted one, and asks the bot
whose turn it is. Tables never wait on each other.

Persistence and fan-out are parts it uses. An action is checked by the engine, committed to the
log (:meth:`atout.server.store.Store.commit`, grouped with other tables' writes), then applied
and told: each seat from its own view only, through its :class:`~atout.server.streams.SeatStream`,
which numbers and sends a message (what changed) only when that seat's view changed. A step
another seat takes in secret therefore reaches nobody else, not even as a number
(docs/protocol.md, "What a seat may infer").
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from atout.engine.errors import IllegalActionError
from atout.engine.refusals import refusal_text
from atout.games import Deal, deal_from_dealt, new_deal, next_dealer
from atout.personas import persona_name, personas
from atout.rules import Rules
from atout.scoring.breakdown import breakdown_json
from atout.scoring.summary import summary_to_json
from atout.server.botpool import QUICK_BOTS, BotPool, check_bot
from atout.server.config import ServerConfig
from atout.server.connection import CLOSE_SERVER, Connection
from atout.server.db import now
from atout.server.metrics import Metrics
from atout.server.prepared import PreparedDeals
from atout.server.store import DealRecord, SeatRecord, Store, TableRecord
from atout.server.store import append_action as append_action_write
from atout.server.store import end_deal as end_deal_write
from atout.server.store import save_seat as save_seat_write
from atout.server.store import start_deal as start_deal_write
from atout.server.streams import Message, SeatStream, encode
from atout.server.writer import LogConflict, Write

log = logging.getLogger(__name__)

LEFT_BOT = "rules"
"""The bot that plays for a person who left mid-deal."""
RETRY_DELAYS = (0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
"""Seconds between tries of a write the database refused (the last one repeats)."""
WATCHERS_DELAY = 1.0
"""Seconds over which watchers coming and going are told as one change of the table info
(``watchers``): hundreds of them cost the players one message a second at most."""


class TableError(Exception):
    """A refused request: an HTTP status, a one-line message and the field at fault."""

    def __init__(self, status: int, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.field = status, message, field


class MessageError(Exception):
    """A refused websocket message: its code (``bad_message``, ``not_your_turn``, ``stale``,
    ``illegal``, ``not_seated``, ``server_error``), a message in words (no seat number, no card
    code), and for an illegal action the rule, the engine's refusal code (``reason``, e.g.
    ``follow_suit``) and its ``params`` of wire words (``{"suit": "H"}``)."""

    def __init__(
        self,
        code: str,
        message: str,
        rule: str | None = None,
        reason: str | None = None,
        params: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.code, self.message, self.rule = code, message, rule
        self.reason, self.params = reason, params


class SaveError(Exception):
    """The database refused a write; nothing was changed in memory."""


Job = tuple[Callable[..., Awaitable[Any]], tuple[Any, ...], "asyncio.Future[Any] | None", float]
"""A request in a table's inbox: what to run, with what, who waits for its answer, and when it
arrived (``time.perf_counter``)."""


def new_token() -> str:
    """A seat's secret: whoever holds it holds the seat."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What is stored of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def bot_name(spec: str) -> str:
    """The name a bot's seat gets: ``Rules bot``, ``Expert Fast``..."""
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


def dealt_hand_size(rules: Rules) -> int:
    """How many cards each playing seat is dealt under these rules (the engine deals one)."""
    hands = new_deal(rules, rng=0).dealt()["hands"]
    assert isinstance(hands, list)
    return max(len(hand.split()) if isinstance(hand, str) else len(hand) for hand in hands)


def public_hands(deal: Deal) -> list[list[str]] | None:
    """Each seat's hand as dealt, by card name (a dead player's empty), once the deal is over and
    public: played to its end (the count is open, rule book §3.11); ``None`` for a deal cancelled
    (its hands are thrown in unseen) or not over."""
    if not deal.is_over() or deal.outcome != "played":
        return None
    hands = deal.dealt()["hands"]
    assert isinstance(hands, list)
    return [str(hand).split() if isinstance(hand, str) else [str(card) for card in hand] for hand in hands]


class Table:
    """One table: its rules and seats, the current deal, the running totals, the connections,
    each seat's stream, and the tasks that play for bots and watch for people who left."""

    def __init__(
        self,
        record: TableRecord,
        store: Store,
        pool: BotPool,
        config: ServerConfig,
        prepared: PreparedDeals | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.id = record.id
        self.metrics = metrics
        self.on_conflict: Callable[[Table], None] | None = None
        """Called when the log holds another write where this table meant to write: another
        worker moved the table on, and this copy must leave memory (the manager sets it)."""
        self.on_deal_over: Callable[[Table, int], None] | None = None
        """Called when a deal has ended and been recorded (its analysis starts: atout.server.study)."""
        self.preset = record.preset
        self.rules = Rules.from_options(record.rules)
        self.state = record.state
        self.seats = record.seats
        self.host_hash = record.host_hash
        self.settings: dict[str, object] = {"hints": True, **record.settings}
        """The host's choices that are not rules (``tables.settings_json``): ``hints`` allowed."""
        self.hints_used = [0] * len(record.seats)
        """The hints each seat asked for in the deal in progress (kept in memory only)."""
        self._hinting: asyncio.Task[None] | None = None
        self.store, self.pool, self.config, self.prepared = store, pool, config, prepared
        self.connections: set[Connection] = set()
        self.pins = 0
        self.idle_since: float | None = None
        self.closed = False
        self.ended: list[DealRecord] = [d for d in record.deals if d.scores is not None]
        self.totals = [sum(d.scores[s] for d in self.ended if d.scores) for s in range(self.rules.players)]
        self.deal: Deal | None = None
        self.deal_no = 0
        self.deal_seq = 0
        self.version = 0
        """The log's sequence number: every applied action and every deal dealt takes the next."""
        self.watch = SeatStream(0, config.buffer, config.buffer_bytes)
        """The watchers' stream, of the deal's public view: one message, encoded once, for all of
        them; kept (its view key) only while someone watches, a watcher who comes gets a state."""
        self._watchers_due: asyncio.TimerHandle | None = None
        self._watchers_told = 0
        self._hand_size = dealt_hand_size(self.rules)
        self.streams = [SeatStream(0, config.buffer, config.buffer_bytes) for _ in self.seats]
        self.personas = personas(self.id, len(self.seats))
        """Each seat's persona number, distinct at the table and fixed by its id: a bot's name."""
        self._inbox: asyncio.Queue[Job] = asyncio.Queue()
        self._actor: asyncio.Task[None] | None = None
        self._running = False
        self._thinking: asyncio.Task[None] | None = None
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._info_due: asyncio.TimerHandle | None = None
        self._retry: asyncio.TimerHandle | None = None
        self._failures = 0
        self._start_wanted = False
        self._told_at = 0.0
        self._failing = False
        if record.deals:
            self._rebuild(record.deals[-1])
        self.watch.seq = len(record.deals) + len(self.ended)

    def _rebuild(self, last: DealRecord) -> None:
        """The last deal replayed from the log, each seat's stream numbered as it was told."""
        deal = deal_from_dealt(self.rules, last.dealer, last.dealt)
        starts = last.seat_seqs or [last.seq] * len(self.seats)
        for s, stream in enumerate(self.streams):
            stream.resume(starts[s], deal.view(s))
        for _seq, _seat, words in last.actions:
            deal.apply(deal.parse(words))
            for s, stream in enumerate(self.streams):
                stream.note(deal.view(s))
        self.deal, self.deal_no, self.deal_seq = deal, last.deal_no, last.seq
        self.version = max([last.seq, *(a[0] for a in last.actions)])

    # ------------------------------------------------------------------ reading
    def seat_info(self, s: int) -> Message:
        """A seat as everyone may see it."""
        seat = self.seats[s]
        replaced = seat.kind == "human" and seat.left_at is not None
        # a bot keeps a name given at creation; one named after its level gets its persona's
        persona = None
        if seat.kind == "bot" and seat.name in ("", bot_name(seat.bot or "")):
            persona = self.personas[s]
        return {
            "seat": s,
            "kind": seat.kind,
            "name": seat.name if persona is None else persona_name(persona),
            "persona": persona,
            "bot": LEFT_BOT if replaced else seat.bot,
            "connected": self._connected(s),
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
            "hand_size": self._hand_size,
        }

    def info(self) -> Message:
        """The public table info (docs/server.md): the same for everyone, so it holds no
        sequence number."""
        return {
            "table_id": self.id,
            "game": self.rules.game,
            "players": self.rules.players,
            "preset": self.preset,
            "rules": self.rules.to_dict(),
            "facts": self.facts(),
            "settings": dict(self.settings),
            "bot_pause": self.config.bot_pause,
            "bots_warming": self.pool.warming,
            "watchers": self.watchers(),
            "seats": [self.seat_info(s) for s in range(len(self.seats))],
            "deal_no": self.deal_no,
            "dealer": None if self.deal is None else self.deal.dealer,
            "state": self.state,
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

    def is_host(self, token: str | None) -> bool:
        """Whether ``token`` is the host's (the person who created the table)."""
        return bool(token and self.host_hash and hmac.compare_digest(self.host_hash, token_hash(token)))

    def seq_of(self, conn: Connection) -> int:
        """The sequence number of this connection's stream."""
        return self.watch.seq if conn.seat is None else self.streams[conn.seat].seq

    def watchers(self) -> int:
        """The connections that watch without a seat (relayed ones included: every connection to
        a table is its owner's)."""
        return sum(1 for conn in self.connections if conn.seat is None)

    def _watching(self) -> bool:
        return any(conn.seat is None for conn in self.connections)

    @property
    def busy(self) -> bool:
        """Whether anything keeps the table in memory: a connection, a request, a task."""
        return bool(
            self.connections
            or self.pins
            or self._running
            or not self._inbox.empty()
            or self._thinking
            or self._hinting
            or self._timers
            or self._info_due
            or self._watchers_due
            or self._retry
        )

    def _connected(self, s: int) -> bool:
        return any(c.seat == s for c in self.connections)

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
        return seat.bot if seat.kind == "bot" and seat.bot else LEFT_BOT

    # ------------------------------------------------------------------ messages
    def _state_message(self, conn: Connection) -> Message:
        s = conn.seat
        view = None
        if self.deal is not None:
            view = (self.deal.public_view() if s is None else self.deal.view(s)).to_json()
        return {
            "type": "state",
            "seq": self.seq_of(conn),
            "seat": s,
            "table": self.info(),
            "deal_no": self.deal_no,
            "view": view,
            "totals": list(self.totals),
            "over": self._over() if self.state == "between_deals" else None,
        }

    def _error(self, conn: Connection, code: str, message: str, rule: str | None = None) -> Message:
        return {"type": "error", "seq": self.seq_of(conn), "code": code, "message": message, "rule": rule}

    def error_message(self, conn: Connection, error: MessageError) -> Message:
        """An ``error`` message for a refused websocket message; an illegal action's adds the
        engine's ``reason`` code and its ``params``."""
        message = self._error(conn, error.code, error.message, error.rule)
        if error.reason is not None:
            message["reason"], message["params"] = error.reason, dict(error.params or {})
        return message

    def _send(self, conn: Connection, message: Message) -> None:
        conn.send_text(encode(message))

    def _info_changed(self) -> None:
        """The table info changed: tell everyone once, shortly (changes that come together, such
        as many connections closing, make one message)."""
        if self._info_due is None and not self.closed:
            loop = asyncio.get_running_loop()
            self._info_due = loop.call_later(self.config.info_delay, self._send_info)

    def _watchers_changed(self) -> None:
        """A watcher came or went: the players are told the count once, a while later."""
        if self._watchers_due is None and not self.closed:
            loop = asyncio.get_running_loop()
            self._watchers_due = loop.call_later(WATCHERS_DELAY, self._tell_watchers)

    def _tell_watchers(self) -> None:
        self._watchers_due = None
        if self.watchers() != self._watchers_told:
            self._info_changed()

    def _send_info(self) -> None:
        self._info_due = None
        if not self.connections:
            return
        info = self.info()
        self._watchers_told = info["watchers"]
        texts: dict[int, str] = {}
        for conn in list(self.connections):
            seq = self.seq_of(conn)
            text = texts.get(seq)
            if text is None:
                text = texts[seq] = encode({"type": "table", "seq": seq, "table": info})
            conn.send_text(text)

    def _to_seat(self, s: int, message: Message, keep: bool = True) -> None:
        text = encode(message)
        if keep:
            self.streams[s].keep(message["seq"], text)
        for conn in self.connections:
            if conn.seat == s:
                conn.send_text(text)

    def _to_watchers(self, message: Message) -> None:
        text = encode(message)
        for conn in self.connections:
            if conn.seat is None:
                conn.send_text(text)

    def _tell_watchers_view(self, deal: Deal) -> None:
        """The public view after an action: an update to every watcher when it changed (a full
        state if the stream had no view yet)."""
        public = deal.public_view()
        if self.watch.key is None:
            self.watch.note(public)
            for conn in self.connections:
                if conn.seat is None:
                    self._send(conn, self._state_message(conn))
            return
        update = self.watch.observe(public)
        if update is not None:
            update["deal_no"] = self.deal_no
            self._to_watchers(update)

    def _tell_all_failed(self) -> None:
        for conn in self.connections:
            self._tell_if_failing(conn)

    def _tell_if_failing(self, conn: Connection) -> None:
        if self._failing:
            message = "the server could not save the table's last move; it tries again"
            self._send(conn, self._error(conn, "server_error", message))

    # ------------------------------------------------------------------ the actor
    def _start_actor(self) -> None:
        if self._actor is None or self._actor.done():
            self._actor = asyncio.create_task(self._run(), name=f"table {self.id}")

    async def _call(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        """Run ``fn(*args)`` in the table's turn and answer what it returns or raises. The
        request runs to its end even if the caller stops waiting (it is the table's task that
        runs it)."""
        if self.closed:
            raise TableError(503, "this table was just put away: try again")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._inbox.put_nowait((fn, args, future, time.perf_counter()))
        self._start_actor()
        return await future

    def _post(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Have the table run ``fn(*args)`` in its turn, nobody waiting for it."""
        if not self.closed:
            self._inbox.put_nowait((fn, args, None, time.perf_counter()))
            self._start_actor()

    async def _run(self) -> None:
        """The table's one task: each request in turn, then the table moves itself on."""
        while True:
            fn, args, future, _arrived = await self._inbox.get()
            self._running = True
            try:
                result = await fn(*args)
            except asyncio.CancelledError:
                if future is not None and not future.done():
                    future.set_exception(TableError(503, "this table was just put away: try again"))
                raise
            except Exception as exc:
                if future is not None:
                    if not future.done():
                        future.set_exception(exc)
                else:
                    self._failed(exc)
            else:
                if future is not None and not future.done():
                    future.set_result(result)
            finally:
                self._running = False
            await self._advance()

    async def _advance(self, retrying: bool = False) -> None:
        """Move the table on as far as it goes: end a finished deal, deal a wanted one, ask the
        bot whose turn it is. A write the database refuses is told to the clients and tried
        again later (:data:`RETRY_DELAYS`)."""
        if self.closed or (self._retry is not None and not retrying):
            return
        self._retry = None
        try:
            while True:
                if self.state == "playing" and self.deal is not None and self.deal.is_over():
                    await self._end_deal()
                elif self._start_wanted:
                    await self.start_deal()
                else:
                    break
        except Exception as exc:
            self._failed(exc)
            return
        if self._failing and self._thinking is None and self._bot_seat() is None:
            self._recovered()
        self._think_if_due()

    async def _retry_now(self) -> None:
        await self._advance(retrying=True)

    async def _nothing(self) -> None:
        """A request that only lets the table move on."""

    def _failed(self, exc: Exception) -> None:
        """A write refused (or a failure) while the table moved itself on: tell the clients once,
        and try again after a while."""
        if not isinstance(exc, SaveError):
            log.error("table %s: moving on failed; it tries again", self.id, exc_info=exc)
        if not self._failing:
            self._failing = True
            self._tell_all_failed()
        delay = RETRY_DELAYS[min(self._failures, len(RETRY_DELAYS) - 1)]
        self._failures += 1
        if self._retry is not None:
            self._retry.cancel()
        loop = asyncio.get_running_loop()
        self._retry = loop.call_later(delay, self._post, self._retry_now)

    def _recovered(self) -> None:
        if self._failing:
            self._failing = False
            log.info("table %s: the database accepts writes again", self.id)
        self._failures = 0

    async def _save(self, write: Write) -> None:
        """Commit one change to the log; any refusal is a :class:`SaveError`."""
        try:
            await self.store.commit(write)
        except LogConflict as exc:
            # another writer holds this place of the log (a worker that took the table over
            # while this one had not yet noticed it lost it): this memory is behind the log
            log.error("table %s: another worker wrote its log; the table is put away", self.id)
            if self.metrics is not None:
                self.metrics.write_failed()
            if self.on_conflict is not None:
                self.on_conflict(self)
            raise SaveError("another worker wrote this table's log") from exc
        except Exception as exc:
            if self.metrics is not None:
                self.metrics.write_failed()
            log.warning("table %s: the database refused a write: %s", self.id, exc)
            raise SaveError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from exc

    # ------------------------------------------------------------------ websocket side
    async def hello(self, conn: Connection, token: str | None, last_seq: int | None) -> None:
        """A client says who it is: a token's seat gets its missed messages (or a full state), a
        watcher the table; a person a bot replaced takes the seat back."""
        await self._call(self._hello, conn, token, last_seq)

    async def _hello(self, conn: Connection, token: str | None, last_seq: int | None) -> None:
        s = self.seat_of(token)
        conn.seat = s
        conn.token_hash = None if s is None or token is None else token_hash(token)
        self.connections.add(conn)
        self.idle_since = None
        if token and s is None:
            self._send(conn, self._error(conn, "not_seated", "this token holds no seat at this table"))
        if s is None:
            if self.deal is not None and self.watch.key is None:
                self.watch.note(self.deal.public_view())  # the public stream, kept from now on
            self._send(conn, self._state_message(conn) if self.deal else self._table_message(conn))
            self._tell_if_failing(conn)
            self._watchers_changed()
            return
        self._cancel_timer(s)
        seat = self.seats[s]
        if seat.left_at is not None:
            seat.left_at = None
            with contextlib.suppress(SaveError):
                await self._save(save_seat_write(self.id, seat))
        missed = self.streams[s].missed(last_seq, self.state == "playing")
        if missed is None:
            self._send(conn, self._state_message(conn))
        else:
            for text in missed:
                conn.send_text(text)
        self._tell_if_failing(conn)
        self._info_changed()

    def _table_message(self, conn: Connection) -> Message:
        return {"type": "table", "seq": self.seq_of(conn), "table": self.info()}

    async def resync(self, conn: Connection) -> None:
        """A full state, on request (after what is already queued for this connection)."""
        await self._call(self._resync, conn)

    async def _resync(self, conn: Connection) -> None:
        self._send(conn, self._state_message(conn))

    def pong(self, conn: Connection) -> None:
        """Answer a ping, after everything already queued for this connection."""
        self._send(conn, {"type": "pong", "seq": self.seq_of(conn)})

    async def leave(self, conn: Connection) -> None:
        """A websocket closed: a person who left mid-deal gets a bot after the timeout."""
        if self.closed:
            self.connections.discard(conn)
            return
        await self._call(self._leave, conn)

    async def _leave(self, conn: Connection) -> None:
        self.connections.discard(conn)
        s = conn.seat
        if s is None:
            self._watchers_changed()
            return
        if not self._connected(s):
            if self.state == "playing":
                self._start_timer(s)
            self._info_changed()

    async def act(self, conn: Connection, seq: int, words: str) -> None:
        """A person's action: checked (seat and token, turn, sequence number, the engine), then
        committed and told. Raises :class:`MessageError`, changing nothing."""
        await self._call(self._act, conn, seq, words, time.perf_counter())

    async def _act(self, conn: Connection, seq: int, words: str, arrived: float) -> None:
        s = conn.seat
        if s is None or conn.token_hash is None:
            raise MessageError("not_seated", "say hello with your seat's token before you act")
        seat = self.seats[s]
        if seat.kind != "human" or seat.token_hash != conn.token_hash:
            raise MessageError("not_seated", "this seat is no longer yours")
        if self.state != "playing" or self.deal is None or self.deal.is_over():
            raise MessageError("not_your_turn", "no deal is being played")
        if self.deal.current_player != s:
            raise MessageError("not_your_turn", "it is another player's turn")
        if seq != self.streams[s].seq:
            raise MessageError("stale", f"you acted on seq {seq}; your seat is at seq {self.streams[s].seq}")
        try:
            action = self.deal.parse(words)
        except ValueError as exc:
            raise MessageError(
                "illegal", f"not a move of this game: {exc}", None, "not_an_action", {}
            ) from None
        if action not in self.deal.legal_actions():
            try:
                self.deal.clone().apply(action)
            except IllegalActionError as exc:
                words = refusal_text(exc.code, exc.params, self.rules.game)
                raise MessageError("illegal", words, exc.rule, exc.code, exc.params) from None
            raise RuntimeError("the engine accepted an action it did not list")  # pragma: no cover
        try:
            await self._commit(s, action, arrived)
        except SaveError:
            raise MessageError(
                "server_error", "the server could not save your move; nothing changed: try again"
            ) from None

    # ------------------------------------------------------------------ hints
    async def hint(self, conn: Connection) -> None:
        """A seated person asks what the strongest bot would do from their own view (docs/server.md,
        "Hints"). Refused (:class:`MessageError`) when the host turned hints off, when it is not
        their turn, or while a hint is being worked out. Everyone is told at once that this seat
        used a hint, nothing more; the hint itself comes to that seat alone when it is ready."""
        await self._call(self._hint, conn)

    async def _hint(self, conn: Connection) -> None:
        s = conn.seat
        if s is None or conn.token_hash is None:
            raise MessageError("not_seated", "say hello with your seat's token before you ask for a hint")
        if self.seats[s].kind != "human" or self.seats[s].token_hash != conn.token_hash:
            raise MessageError("not_seated", "this seat is no longer yours")
        if not self.settings.get("hints", True):
            raise MessageError("hints_off", "the host turned hints off at this table")
        if self.state != "playing" or self.deal is None or self.deal.is_over():
            raise MessageError("not_your_turn", "no deal is being played")
        if self.deal.current_player != s:
            raise MessageError("not_your_turn", "it is another player's turn")
        if self._hinting is not None:
            raise MessageError("hint_busy", "a hint is already being worked out: wait for it")
        self.hints_used[s] += 1
        view_json = encode(self.deal.view(s).to_json())
        self._hinting = asyncio.create_task(
            self._work_out_hint(s, view_json, self.version, self.deal_no), name=f"hint {self.id}/{s}"
        )
        notice = {"type": "hint_used", "deal_no": self.deal_no, "seat": s, "hints": self.hints_used[s]}
        for other in self.connections:
            self._send(other, {**notice, "seq": self.seq_of(other)})

    async def _work_out_hint(self, s: int, view_json: str, version: int, deal_no: int) -> None:
        try:
            hint: dict[str, object] | None = await self.pool.hint(view_json)
        except Exception:  # a failed hint must not stop the table
            log.exception("a hint failed at table %s", self.id)
            hint = None
        self._post(self._hint_done, s, version, deal_no, hint)

    async def _hint_done(self, s: int, version: int, deal_no: int, hint: dict[str, object] | None) -> None:
        """A hint back: sent to its seat if the deal is still where the seat asked (a seat that
        acted meanwhile no longer needs it)."""
        self._hinting = None
        if self.version != version or self.deal_no != deal_no:
            return
        stream = self.streams[s]
        if hint is None:
            failed = "the hint could not be worked out: try again"
            for conn in self.connections:
                if conn.seat == s:
                    self._send(conn, self._error(conn, "server_error", failed))
            return
        self._to_seat(s, {"type": "hint", "seq": stream.seq, "deal_no": deal_no, **hint}, keep=False)

    # ------------------------------------------------------------------ applying
    async def _commit(self, s: int, action: int, arrived: float) -> None:
        """Log the action, then apply it and tell each seat whose view changed. Raises
        :class:`SaveError`, changing nothing, when the log refuses it. ``arrived``: when the
        action came (``time.perf_counter``), for the metrics."""
        deal = self.deal
        assert deal is not None
        words = deal.action_name(action)
        await self._save(append_action_write(self.id, self.deal_no, self.version + 1, s, words))
        deal.apply(action)
        self.version += 1
        told_others = False
        for seat, stream in enumerate(self.streams):
            update = stream.observe(deal.view(seat))
            if update is None:
                continue
            told_others = told_others or seat != s
            update["deal_no"] = self.deal_no
            self._to_seat(seat, update)
        if self._watching():
            self._tell_watchers_view(deal)
        else:
            self.watch.key = None  # nobody watches: nothing kept, a watcher who comes gets a state
        if told_others:
            self._told_at = asyncio.get_running_loop().time()
        if self.metrics is not None:
            self.metrics.action_committed()
            self.metrics.action_told(time.perf_counter() - arrived)
        await self._end_if_over()

    async def _end_if_over(self) -> None:
        """End the deal now if it is over; if the write is refused the table tries again."""
        if self.state == "playing" and self.deal is not None and self.deal.is_over():
            try:
                await self._end_deal()
            except SaveError as exc:
                self._failed(exc)

    async def _end_deal(self) -> None:
        """Record the end of a deal that is over, then tell everyone."""
        deal = self.deal
        assert deal is not None
        scores = deal.scores()
        await self._save(end_deal_write(self.id, self.deal_no, scores, deal.outcome))
        record = DealRecord(self.deal_no, deal.dealer, {}, self.deal_seq, scores, deal.outcome)
        self.ended.append(record)
        self.totals = [t + x for t, x in zip(self.totals, scores, strict=True)]
        self.state = "between_deals"
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        self.pool.forget(f"{self.id}/")
        over = {"type": "deal_over", **(self._over() or {})}
        for s, stream in enumerate(self.streams):
            self._to_seat(s, {**over, "seq": stream.seq}, keep=False)
            stream.clear()
        self._to_watchers({**over, "seq": self.watch.seq})
        self._info_changed()
        if self.on_deal_over is not None:
            self.on_deal_over(self, self.deal_no)

    def _over(self) -> Message | None:
        """The last deal's result, as ``deal_over`` tells it: its scores, the totals, its summary
        and its score explained term by term (``breakdown``); ``None`` before any deal ends. A
        ``state`` message between deals carries it too, so that a reload shows the result."""
        deal = self.deal
        if deal is None or not deal.is_over() or not self.ended:
            return None
        summary = deal.summary
        return {
            "deal_no": self.deal_no,
            "scores": list(self.ended[-1].scores or []),
            "totals": list(self.totals),
            "summary": None if summary is None else summary_to_json(summary),
            "breakdown": None if summary is None else breakdown_json(summary),
            "outcome": deal.outcome,
            "hands": public_hands(deal),
            "hints": list(self.hints_used),
        }

    async def start_deal(self) -> None:
        """Deal the next deal (in the table's turn): a prepared deal if the server has one for
        these rules, else a shuffle; the first dealer at random, then
        :func:`atout.games.next_dealer`. A deal that is over as soon as it is dealt (a petit sec)
        ends at once."""
        dealer = secrets.randbelow(self.rules.players) if self.deal is None else next_dealer(self.deal)
        prepared = None if self.prepared is None else self.prepared.take(self.rules)
        if prepared is not None:
            dealer = prepared.dealer
            deal = deal_from_dealt(self.rules, dealer, prepared.dealt)
        else:
            deal = new_deal(self.rules, dealer=dealer, rng=random.Random(secrets.randbits(64)))
        starts = [stream.seq + 1 for stream in self.streams]
        record = DealRecord(self.deal_no + 1, dealer, deal.dealt(), self.version + 1, seat_seqs=starts)
        try:
            await self._save(start_deal_write(self.id, record))
        except SaveError:
            if prepared is not None and self.prepared is not None:
                self.prepared.give_back(prepared)
            raise
        self._start_wanted = False
        self.deal, self.deal_no, self.version, self.deal_seq = deal, record.deal_no, record.seq, record.seq
        self.state = "playing"
        self.hints_used = [0] * len(self.seats)
        for s, stream in enumerate(self.streams):
            stream.begin(deal.view(s))
        self.watch.begin(deal.public_view() if self._watching() else None)
        for conn in self.connections:
            self._send(conn, self._state_message(conn))
        for s, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.left_at is None and not self._connected(s):
                self._start_timer(s)
        self._info_changed()
        await self._end_if_over()

    async def resume(self) -> None:
        """After loading from the log: finish what was left (a deal's end, a deal to deal, the
        bots' moves) and watch for the people of a deal in progress."""
        await self._call(self._resume)

    async def _resume(self) -> None:
        if self.state == "waiting" and all(seat.kind != "open" for seat in self.seats):
            self._start_wanted = True
        if self.state == "playing":
            for s, seat in enumerate(self.seats):
                if seat.kind == "human" and seat.left_at is None:
                    self._start_timer(s)

    # ------------------------------------------------------------------ the bots
    def _think_if_due(self) -> None:
        """Ask the bot whose turn it is, unless one is thinking already; its move comes back to
        the inbox."""
        if self.closed or self._thinking is not None:
            return
        s = self._bot_seat()
        if s is None or self.deal is None:
            return
        spec = self._bot_spec(s)
        view_json = encode(self.deal.view(s).to_json())
        self._thinking = asyncio.create_task(
            self._think(s, spec, view_json, self.version, self.deal_no), name=f"bot {self.id}/{s}"
        )

    async def _think(self, s: int, spec: str, view_json: str, version: int, deal_no: int) -> None:
        loop = asyncio.get_running_loop()
        try:
            words: str | None = await self.pool.decide(spec, view_json, f"{self.id}/{deal_no}/{s}")
        except Exception:  # a bot that fails must not stop the table
            log.exception("bot %s failed at table %s; playing the first legal action", spec, self.id)
            words = None
        if spec.partition(":")[0] in QUICK_BOTS:
            # a quick bot plays no sooner than the pause after the others were last told
            # something: a step of its own that nobody else sees adds no visible wait
            rest = self._told_at + self.config.bot_pause - loop.time()
            if rest > 0:
                await asyncio.sleep(rest)
        self._post(self._bot_move, s, version, spec, words, time.perf_counter())

    async def _bot_move(self, s: int, version: int, spec: str, words: str | None, arrived: float) -> None:
        """A bot's decision back: played if the table is where the bot saw it."""
        self._thinking = None
        if self.version != version or self._bot_seat() != s or self.deal is None:
            return
        legal = self.deal.legal_actions()
        action = legal[0]
        if words is not None:
            try:
                action = self.deal.parse(words)
            except ValueError:
                log.error("bot %s answered %r at table %s", spec, words, self.id)
        if action not in legal:
            action = legal[0]
        await self._commit(s, action, arrived)
        if self.metrics is not None:
            self.metrics.bot_move()
        self._recovered()

    # ------------------------------------------------------------------ people who leave
    def _start_timer(self, s: int, delay: float | None = None) -> None:
        self._cancel_timer(s)
        wait = self.config.leave_timeout if delay is None else delay
        self._timers[s] = asyncio.create_task(self._replace_later(s, wait), name=f"leave {self.id}/{s}")

    def _cancel_timer(self, s: int) -> None:
        timer = self._timers.pop(s, None)
        if timer is not None:
            timer.cancel()

    async def _replace_later(self, s: int, delay: float) -> None:
        await asyncio.sleep(delay)
        self._post(self._replace, s, asyncio.current_task())

    async def _replace(self, s: int, timer: asyncio.Task[None] | None) -> None:
        """A person's time to come back ran out: a bot plays for them."""
        if self._timers.get(s) is not timer:
            return  # the timer was cancelled or started again since
        del self._timers[s]
        seat = self.seats[s]
        if self._connected(s) or seat.kind != "human" or seat.left_at is not None or self.state != "playing":
            return
        seat.left_at = now()
        try:
            await self._save(save_seat_write(self.id, seat))
        except SaveError:
            seat.left_at = None
            self._start_timer(s, RETRY_DELAYS[-1])
            return
        self._info_changed()

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

    async def _save_seat(self, seat: SeatRecord, before: SeatRecord) -> None:
        """Save a changed seat; on a refusal put it back and answer 503."""
        try:
            await self._save(save_seat_write(self.id, seat))
        except SaveError:
            seat.__dict__.update(before.__dict__)
            raise TableError(503, "the server could not save this; nothing changed: try again") from None

    async def deal_if_full(self) -> None:
        """Deal the first deal once no seat is open (tried again later if the write fails)."""
        await self._call(self._deal_if_full)

    async def _deal_if_full(self) -> None:
        if self.state == "waiting" and all(seat.kind != "open" for seat in self.seats):
            try:
                await self.start_deal()
            except SaveError:
                self._start_wanted = True

    async def claim(self, s: int, name: str, token: str | None = None) -> str:
        """Take an open seat; its new token. A token that already holds a seat here is refused:
        nobody holds two seats."""
        result: str = await self._call(self._claim, s, name, token)
        return result

    async def _claim(self, s: int, name: str, token: str | None) -> str:
        seat = self._check_seat(s)
        held = self.seat_of(token)
        if held is not None:
            raise TableError(409, f"you hold seat {held} at this table already", "seat")
        if seat.kind != "open":
            raise TableError(409, f"seat {s} is taken", "seat")
        new = new_token()
        before = SeatRecord(**seat.__dict__)
        seat.kind, seat.name, seat.bot = "human", name or seat.name or f"Player {s + 1}", None
        seat.token_hash, seat.left_at = token_hash(new), None
        await self._save_seat(seat, before)
        self._info_changed()
        await self._deal_if_full()
        return new

    async def reclaim(self, s: int, token: str) -> str:
        """Take back one's seat (from the bot that played for one)."""
        result: str = await self._call(self._reclaim, s, token)
        return result

    async def _reclaim(self, s: int, token: str) -> str:
        self._check_seat(s)
        if self.seat_of(token) != s:
            raise TableError(403, f"this token does not hold seat {s}", "token")
        seat = self.seats[s]
        if seat.left_at is not None:
            before = SeatRecord(**seat.__dict__)
            seat.left_at = None
            await self._save_seat(seat, before)
            if self.state == "playing" and not self._connected(s):
                self._start_timer(s)
            self._info_changed()
        return token

    async def set_seat(self, token: str | None, s: int, kind: str, bot: str | None) -> None:
        """Between deals, a seat becomes a bot or open. A person's seat is given away only by
        that person, or by the host once its holder has left (no connection open); a bot's or
        an open seat by any seated person or the host."""
        await self._call(self._set_seat, token, s, kind, bot)

    async def _set_seat(self, token: str | None, s: int, kind: str, bot: str | None) -> None:
        mine = self.seat_of(token)
        host = self.is_host(token)
        if mine is None and not host:
            raise TableError(
                403,
                "a seated person's or the host's token is needed (Authorization: Bearer <token>)",
                "token",
            )
        seat = self._check_seat(s)
        if seat.kind == "human" and s != mine:
            if not host:
                raise TableError(403, f"seat {s} is {seat.name}'s: only they can give it away", "seat")
            if self._connected(s):
                raise TableError(
                    409,
                    f"{seat.name} is still at the table: the host gives a seat away once its holder has left",
                    "seat",
                )
        if self.state == "playing":
            raise TableError(409, "seats change between deals only", "seat")
        before = SeatRecord(**seat.__dict__)
        if kind == "bot":
            try:
                seat.bot = check_bot(bot or "")
            except ValueError as exc:
                raise TableError(400, str(exc), "bot") from None
            seat.name = bot_name(seat.bot)
        elif kind == "open":
            seat.bot, seat.name = None, ""
        else:
            raise TableError(400, f"a seat becomes a bot or open, not {kind!r}", "kind")
        seat.kind, seat.token_hash, seat.left_at = kind, None, None
        await self._save_seat(seat, before)
        self._cancel_timer(s)
        for conn in self.connections:  # whoever sat there now only watches
            if conn.seat == s:
                message = self._error(
                    conn,
                    "not_seated",
                    "a bot took your seat: you are watching"
                    if kind == "bot"
                    else "your seat was opened: you are watching",
                )
                conn.seat = conn.token_hash = None
                self._send(conn, message)
        self._info_changed()
        await self._deal_if_full()

    async def next_deal(self, token: str | None) -> None:
        """A seated person (or the host) deals the next deal."""
        await self._call(self._next_deal, token)

    async def _next_deal(self, token: str | None) -> None:
        if self.seat_of(token) is None and not self.is_host(token):
            self._seated(token)
        if self.state != "between_deals":
            raise TableError(409, f"the table is {self.state.replace('_', ' ')}, not between deals", "state")
        open_seats = [s for s, seat in enumerate(self.seats) if seat.kind == "open"]
        if open_seats:
            raise TableError(409, f"seat {open_seats[0]} is open: fill it first", "seats")
        try:
            await self.start_deal()
        except SaveError:
            raise TableError(503, "the server could not deal the next deal: try again") from None

    async def close(self) -> None:
        """Stop this table's tasks and close its connections (shutdown, or leaving memory);
        requests still waiting are answered 503."""
        self.closed = True
        running = (self._actor, self._thinking, self._hinting, *self._timers.values())
        tasks = [t for t in running if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        while not self._inbox.empty():
            _fn, _args, future, _at = self._inbox.get_nowait()
            if future is not None and not future.done():
                future.set_exception(TableError(503, "this table was just put away: try again"))
        self._timers.clear()
        self._thinking = self._hinting = None
        for handle in (self._info_due, self._retry, self._watchers_due):
            if handle is not None:
                handle.cancel()
        self._info_due = self._retry = self._watchers_due = None
        for conn in self.connections:
            conn.close(CLOSE_SERVER)


__all__ = [
    "LEFT_BOT",
    "MessageError",
    "SaveError",
    "SeatRequest",
    "Table",
    "TableError",
    "bot_name",
    "new_token",
    "token_hash",
]

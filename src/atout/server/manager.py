"""Every live table: created, loaded from the log on first use, pinned while a request or a
websocket uses it, and unloaded once it has had nothing to do for a while (memory follows the
live tables; a table comes back from its log when asked for again).

A worker loads only the tables it owns (:mod:`atout.server.ownership`): it takes a table nobody
owns, and answers :class:`Elsewhere` (with the owner's address, for the relay) for a table another
worker owns. When its ownership is lost (its database unreachable) it closes every table at once,
their websockets with 1012 ("try again"), so that no move is played nor told that it could not
commit; they come back from their logs on demand once the database answers again."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Callable

from atout.rules import Rules
from atout.server.botpool import BotPool, check_bot
from atout.server.config import ServerConfig
from atout.server.metrics import Metrics
from atout.server.ownership import Ownership, OwnershipUnavailable, ownership_for
from atout.server.prepared import PreparedDeals
from atout.server.store import SeatRecord, Store, TableRecord
from atout.server.tables import SeatRequest, Table, TableError, bot_name, new_token, token_hash

log = logging.getLogger(__name__)

CLOSE_TRY_AGAIN = 1012
"""Close code: this worker stopped serving the table for a while; reconnect (the page does)."""
OWNER_TRIES = 5
"""How many times a table is tried for when its owner lets go of it between two looks."""


class Elsewhere(TableError):
    """The table is owned by another worker, at ``address`` (the relay forwards to it); a
    request that cannot be relayed is answered 503."""

    def __init__(self, table_id: str, address: str) -> None:
        super().__init__(503, "this table is served by another worker: try again")
        self.table_id, self.address = table_id, address


class TableManager:
    """The live tables, by id."""

    def __init__(
        self,
        store: Store,
        pool: BotPool,
        config: ServerConfig,
        prepared: PreparedDeals | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.store, self.pool, self.config, self.metrics = store, pool, config, metrics
        self.ownership: Ownership = ownership_for(config.db_url, config.internal_address)
        self.ownership.on_lost(self._ownership_lost)
        self._closing: set[asyncio.Task[None]] = set()
        if prepared is None and config.deals_file:
            prepared = PreparedDeals.read(config.deals_file)
        self.prepared = prepared
        self.tables: dict[str, Table] = {}
        self.on_deal_over: Callable[[Table, int], None] | None = None
        """Given to every table: called when one of its deals has ended (atout.server.study)."""
        self._loading = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        pool.on_ready(self._bots_ready)

    def start(self) -> None:
        """Start unloading idle tables and keeping this worker's ownership (in the running event
        loop)."""
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep(), name="unload idle tables")
            starting = asyncio.create_task(self.ownership.start(), name="ownership start")
            self._closing.add(starting)
            starting.add_done_callback(self._closing.discard)

    def _bots_ready(self) -> None:
        """The bot workers are warm: every live table tells its info again (``bots_warming``)."""
        for table in self.tables.values():
            table._info_changed()

    async def get(self, table_id: str) -> Table:
        """The table of that id, resumed from its log if it is not live; 404 otherwise;
        :class:`Elsewhere` when another worker owns it. The caller that holds it across an
        ``await`` pins it with :meth:`use`."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        async with self._loading:
            table = self.tables.get(table_id)
            if table is None:
                await self._own(table_id)
                try:
                    record = await asyncio.to_thread(self.store.load, table_id)
                except Exception as exc:
                    log.warning("loading table %s failed: %s", table_id, exc)
                    await self.ownership.release(table_id)
                    raise TableError(503, "the server could not read this table: try again") from None
                if record is None:
                    await self.ownership.release(table_id)
                    raise TableError(404, f"no table {table_id!r}", "table_id")
                table = self._new_table(record)
                self.tables[table_id] = table
                await table.resume()
        return table

    async def _own(self, table_id: str) -> None:
        """Take the table, or raise :class:`Elsewhere` naming its owner; 503 when the database
        cannot be reached."""
        try:
            for _ in range(OWNER_TRIES):
                if await self.ownership.acquire(table_id):
                    return
                address = await self.ownership.owner(table_id)
                if address:
                    raise Elsewhere(table_id, address)
                await asyncio.sleep(0.05)  # its owner let go between the two looks
        except OwnershipUnavailable:
            raise TableError(503, "the server cannot reach its database: try again") from None
        raise TableError(503, "this table is changing hands: try again")

    def _new_table(self, record: TableRecord) -> Table:
        table = Table(record, self.store, self.pool, self.config, self.prepared, self.metrics)
        table.on_conflict = self._put_away
        table.on_deal_over = self.on_deal_over
        return table

    def _put_away(self, table: Table) -> None:
        """Another worker wrote this table's log: this copy leaves memory at once (its websockets
        closed with 1012, so that pages reconnect to the owner) and is rebuilt from the log when
        asked for again."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        for conn in list(table.connections):
            conn.close(CLOSE_TRY_AGAIN)
        task = asyncio.get_running_loop().create_task(
            self._close_and_release(table), name=f"close {table.id}"
        )
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def _close_and_release(self, table: Table) -> None:
        await table.close()
        self.pool.forget(f"{table.id}/")
        async with self._loading:
            if table.id not in self.tables:
                await self.ownership.release(table.id)

    def _ownership_lost(self) -> None:
        """This worker owns nothing any more: every table closes at once, its websockets with
        1012 so that pages reconnect (to a worker that can serve them)."""
        tables = list(self.tables.values())
        self.tables.clear()
        for table in tables:
            for conn in list(table.connections):
                conn.close(CLOSE_TRY_AGAIN)
            task = asyncio.get_running_loop().create_task(table.close(), name=f"close {table.id}")
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)
            self.pool.forget(f"{table.id}/")
        if tables:
            log.warning("closed %d tables: their ownership was lost", len(tables))

    @contextlib.asynccontextmanager
    async def use(self, table_id: str) -> AsyncIterator[Table]:
        """The table, kept in memory until the block ends."""
        while True:
            table = await self.get(table_id)
            if not table.closed:
                break
        table.pins += 1
        try:
            yield table
        finally:
            table.pins -= 1

    async def create(
        self,
        preset: str,
        rules: Rules,
        seats: list[SeatRequest],
        sit: int | None,
        settings: dict[str, object] | None = None,
    ) -> tuple[Table, str | None]:
        """A new table; the creator's token when ``sit`` is a seat (the creator is its host).
        ``settings``: the host's choices that are not rules (``{"hints": bool}``). The first deal
        is dealt at once when no seat is open."""
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
                records.append(SeatRecord(s, "bot", request.name or bot_name(spec), spec))
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
        host = None if token is None else token_hash(token)
        table_id, choices = secrets.token_urlsafe(9), dict(settings or {})
        record = TableRecord(table_id, preset, rules.to_dict(), "waiting", records, [], host, choices)
        try:
            owned = await self.ownership.acquire(record.id)
        except OwnershipUnavailable:
            owned = False
        if not owned:
            raise TableError(503, "the server cannot reach its database: try again")
        try:
            await asyncio.to_thread(self.store.create_table, record)
        except Exception as exc:
            log.warning("creating a table failed: %s", exc)
            await self.ownership.release(record.id)
            raise TableError(503, "the server could not save the new table: try again") from None
        table = self._new_table(record)
        self.tables[table.id] = table
        table.pins += 1
        try:
            await table.deal_if_full()
        finally:
            table.pins -= 1
        return table, token

    async def unload_idle(self, older_than: float) -> list[str]:
        """Unload every table that has had nothing to do for ``older_than`` seconds; their ids."""
        loop = asyncio.get_running_loop()
        gone = []
        for table_id, table in list(self.tables.items()):
            if table.busy:
                table.idle_since = None
                continue
            if table.idle_since is None:
                table.idle_since = loop.time()
            if loop.time() - table.idle_since < older_than:
                continue
            async with self._loading:
                if table.busy or self.tables.get(table_id) is not table:
                    continue
                del self.tables[table_id]
            await table.close()
            self.pool.forget(f"{table_id}/")
            async with self._loading:
                if table_id not in self.tables:  # not taken up again meanwhile
                    await self.ownership.release(table_id)
            gone.append(table_id)
        return gone

    async def _sweep(self) -> None:
        period = max(0.05, min(self.config.idle_unload / 2, 10.0))
        while True:
            await asyncio.sleep(period)
            try:
                await self.unload_idle(self.config.idle_unload)
            except Exception:  # the sweep goes on whatever one table does
                log.exception("unloading idle tables failed")

    async def close(self) -> None:
        """Stop every table's tasks."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for table in list(self.tables.values()):
            await table.close()
        for task in list(self._closing):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.ownership.close()


__all__ = ["CLOSE_TRY_AGAIN", "Elsewhere", "TableManager"]

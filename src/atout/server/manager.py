"""Every live table: created, loaded from the log on first use, pinned while a request or a
websocket uses it, and unloaded once it has had nothing to do for a while (memory follows the
live tables; a table comes back from its log when asked for again)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator

from atout.rules import Rules
from atout.server.botpool import BotPool, check_bot
from atout.server.config import ServerConfig
from atout.server.prepared import PreparedDeals
from atout.server.store import SeatRecord, Store, TableRecord
from atout.server.tables import SeatRequest, Table, TableError, bot_name, new_token, token_hash

log = logging.getLogger(__name__)


class TableManager:
    """The live tables, by id."""

    def __init__(
        self, store: Store, pool: BotPool, config: ServerConfig, prepared: PreparedDeals | None = None
    ) -> None:
        self.store, self.pool, self.config = store, pool, config
        if prepared is None and config.deals_file:
            prepared = PreparedDeals.read(config.deals_file)
        self.prepared = prepared
        self.tables: dict[str, Table] = {}
        self._loading = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        pool.on_ready(self._bots_ready)

    def start(self) -> None:
        """Start unloading idle tables (in the running event loop)."""
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep(), name="unload idle tables")

    def _bots_ready(self) -> None:
        """The bot workers are warm: every live table tells its info again (``bots_warming``)."""
        for table in self.tables.values():
            table._info_changed()

    async def get(self, table_id: str) -> Table:
        """The table of that id, resumed from its log if it is not live; 404 otherwise. The
        caller that holds it across an ``await`` pins it with :meth:`use`."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        async with self._loading:
            table = self.tables.get(table_id)
            if table is None:
                try:
                    record = await asyncio.to_thread(self.store.load, table_id)
                except Exception as exc:
                    log.warning("loading table %s failed: %s", table_id, exc)
                    raise TableError(503, "the server could not read this table: try again") from None
                if record is None:
                    raise TableError(404, f"no table {table_id!r}", "table_id")
                table = Table(record, self.store, self.pool, self.config, self.prepared)
                self.tables[table_id] = table
                await table.resume()
        return table

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
        self, preset: str, rules: Rules, seats: list[SeatRequest], sit: int | None
    ) -> tuple[Table, str | None]:
        """A new table; the creator's token when ``sit`` is a seat (the creator is its host).
        The first deal is dealt at once when no seat is open."""
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
        record = TableRecord(secrets.token_urlsafe(9), preset, rules.to_dict(), "waiting", records, [], host)
        try:
            await asyncio.to_thread(self.store.create_table, record)
        except Exception as exc:
            log.warning("creating a table failed: %s", exc)
            raise TableError(503, "the server could not save the new table: try again") from None
        table = Table(record, self.store, self.pool, self.config, self.prepared)
        self.tables[table.id] = table
        table.pins += 1
        try:
            async with table.lock:
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
            async with self._loading, table.lock:
                if table.busy or self.tables.get(table_id) is not table:
                    continue
                del self.tables[table_id]
            await table.close()
            self.pool.forget(f"{table_id}/")
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


__all__ = ["TableManager"]

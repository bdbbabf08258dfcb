"""Which worker owns a table: one owner per table across every worker process and machine.

On SQLite there is one server process, and it owns every table (:class:`LocalOwnership`). On
PostgreSQL (:class:`PostgresOwnership`) a worker owns a table while it holds the session-level
advisory lock ``pg_try_advisory_lock(NAMESPACE, table_key(id))`` on one connection of its own, kept
for that purpose. A worker that dies, even by ``kill -9``, ends that session and so frees its
tables at once. The ``workers`` registry (worker id, the lock connection's ``pg_backend_pid()``,
its internal address) joined with ``pg_locks`` tells any worker where a table's owner listens.

The worker checks its lock connection every :data:`CHECK_PERIOD` seconds. When it is lost (the
database restarted, or cannot be reached) the worker no longer owns anything: the callbacks given
to :meth:`Ownership.on_lost` are told at once (the manager closes the tables), and the worker
connects again in the background; tables are taken again on demand.

>>> 0 <= table_key("Ab3_xY-9zQ") < 2**31
True
>>> table_key("Ab3_xY-9zQ") == table_key("Ab3_xY-9zQ") != table_key("Ab3_xY-9zQR")
True
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import secrets
import socket
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import make_url

log = logging.getLogger(__name__)

NAMESPACE = 0x61746F
"""The first key of every table lock (``"ato"``), so that other users of advisory locks in the
same database do not collide with the tables'."""
CHECK_PERIOD = 1.0
"""Seconds between two checks of the lock connection."""
QUERY_TIMEOUT = 3.0
"""Seconds a query on the lock connection may take before the connection is taken as lost."""
CONNECT_WAIT = 2.0
"""Seconds a request waits for the lock connection to come (back) before it is answered 503."""
SECRET_NAME = "relay_secret"
"""The ``cluster`` row that holds the secret the workers relay requests to each other with."""


def table_key(table_id: str) -> int:
    """The second key of a table's advisory lock: 31 bits of a hash of its id."""
    return int.from_bytes(hashlib.blake2b(table_id.encode(), digest_size=4).digest(), "big") & 0x7FFFFFFF


def worker_id() -> str:
    """This process's name in the registry: host name and process id."""
    return f"{socket.gethostname()}/{os.getpid()}"


class OwnershipUnavailable(Exception):
    """The database cannot be reached: no table can be taken, nor its owner found."""


class Ownership:
    """One process serving every table: it owns them all (SQLite, or no other worker)."""

    def __init__(self) -> None:
        self.worker_id = worker_id()
        self.address: str | None = None
        """Where the other workers reach this one (``host:port``); ``None`` when alone."""
        self.secret: str | None = None
        """The relay secret the workers share; ``None`` when alone."""
        self._lost: list[Callable[[], None]] = []

    @property
    def shared(self) -> bool:
        """Whether other workers may own tables (and requests may have to be relayed)."""
        return False

    @property
    def healthy(self) -> bool:
        """Whether tables can be taken now."""
        return True

    def on_lost(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` when this worker stops owning its tables (its lock connection lost)."""
        self._lost.append(callback)

    def owns(self, table_id: str) -> bool:
        """Whether this worker owns the table now."""
        return True

    async def start(self) -> None:
        """Begin (in the running event loop)."""

    async def close(self) -> None:
        """Let go of every table."""

    async def acquire(self, table_id: str) -> bool:
        """Take the table if nobody owns it; whether this worker owns it now."""
        return True

    async def release(self, table_id: str) -> None:
        """Let go of the table (it left this worker's memory)."""

    async def owner(self, table_id: str) -> str | None:
        """The internal address of the worker that owns the table, ``None`` if nobody does."""
        return None


LocalOwnership = Ownership
"""The ownership of a server alone on its database."""


class PostgresOwnership(Ownership):
    """Tables owned through advisory locks held on one PostgreSQL connection of this worker."""

    def __init__(self, db_url: str, address: str | None) -> None:
        super().__init__()
        self.address = address
        self.conninfo = make_url(db_url).set(drivername="postgresql").render_as_string(hide_password=False)
        self._conn: Any = None  # psycopg.AsyncConnection, imported when the worker starts
        self._ready = asyncio.Event()
        self._owned: set[str] = set()
        self._keeper: asyncio.Task[None] | None = None
        self._outage_told = False

    @property
    def shared(self) -> bool:
        return True

    @property
    def healthy(self) -> bool:
        return self._conn is not None

    def owns(self, table_id: str) -> bool:
        return self._conn is not None and table_id in self._owned

    async def start(self) -> None:
        if self._keeper is None:
            self._keeper = asyncio.create_task(self._keep(), name="table ownership")

    async def close(self) -> None:
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
            self._keeper = None
        conn, self._conn = self._conn, None
        self._owned.clear()
        if conn is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(
                    conn.execute("DELETE FROM workers WHERE id = %s", (self.worker_id,)), 2.0
                )
            with contextlib.suppress(Exception):
                await conn.close()

    async def acquire(self, table_id: str) -> bool:
        if self.owns(table_id):
            return True
        row = await self._query("SELECT pg_try_advisory_lock(%s, %s)", (NAMESPACE, table_key(table_id)))
        if row is not None and row[0]:
            self._owned.add(table_id)
            return True
        return False

    async def release(self, table_id: str) -> None:
        if table_id not in self._owned:
            return
        self._owned.discard(table_id)
        with contextlib.suppress(OwnershipUnavailable):
            await self._query("SELECT pg_advisory_unlock(%s, %s)", (NAMESPACE, table_key(table_id)))

    async def owner(self, table_id: str) -> str | None:
        row = await self._query(
            "SELECT w.address FROM pg_locks l JOIN workers w ON w.backend_pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 "
            "AND l.classid = %s::bigint::oid AND l.objid = %s::bigint::oid "
            "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
            "LIMIT 1",
            (NAMESPACE, table_key(table_id)),
        )
        return str(row[0]) if row is not None and row[0] else None

    # ------------------------------------------------------------------ the lock connection
    async def _connection(self) -> Any:
        """The lock connection, waiting a little for it to come back; else unavailable."""
        if self._conn is None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._ready.wait(), CONNECT_WAIT)
        if self._conn is None:
            raise OwnershipUnavailable("the server cannot reach its database")
        return self._conn

    async def _query(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        """One row of a query on the lock connection; a connection that fails or does not answer
        in time is lost (:meth:`_drop`) and the query unavailable."""
        conn = await self._connection()

        async def run() -> Any:
            cursor = await conn.execute(sql, params)
            return await cursor.fetchone()

        task = asyncio.ensure_future(run())
        done, _ = await asyncio.wait({task}, timeout=QUERY_TIMEOUT)
        if task in done and task.exception() is None:
            return task.result()
        if task not in done:
            task.add_done_callback(lambda t: t.cancelled() or t.exception())
            reason = "no answer"
        else:
            reason = str(task.exception()).splitlines()[0] if str(task.exception()) else "failed"
        if self._conn is conn:
            self._drop(reason)
        raise OwnershipUnavailable("the server cannot reach its database")

    def _drop(self, reason: str) -> None:
        """The lock connection is lost: nothing is owned any more; tell whoever listens."""
        conn, self._conn = self._conn, None
        self._ready.clear()
        owned, self._owned = self._owned, set()
        log.warning(
            "worker %s lost its database connection (%s): it let go of %d tables",
            self.worker_id,
            reason,
            len(owned),
        )
        if conn is not None:
            closing = asyncio.ensure_future(conn.close())
            closing.add_done_callback(lambda t: t.cancelled() or t.exception())
        for callback in self._lost:
            try:
                callback()
            except Exception:  # one listener's failure must not keep the others from hearing
                log.exception("a listener of the lost ownership failed")

    async def _connect(self) -> None:
        """Open the lock connection, register this worker on it, read (or make) the secret."""
        import psycopg

        conn = await psycopg.AsyncConnection.connect(
            self.conninfo,
            autocommit=True,
            connect_timeout=3,
            keepalives=1,
            keepalives_idle=5,
            keepalives_interval=2,
            keepalives_count=2,
            application_name=f"atout {self.worker_id}"[:63],
        )
        try:
            await conn.execute(
                "DELETE FROM workers WHERE id = %s OR backend_pid = pg_backend_pid() "
                "OR backend_pid NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL)",
                (self.worker_id,),
            )
            await conn.execute(
                "INSERT INTO workers (id, backend_pid, address, started_at) VALUES (%s, pg_backend_pid(), %s, now())",
                (self.worker_id, self.address or ""),
            )
            await conn.execute(
                "INSERT INTO cluster (name, value) VALUES (%s, %s) ON CONFLICT (name) DO NOTHING",
                (SECRET_NAME, secrets.token_urlsafe(32)),
            )
            cursor = await conn.execute("SELECT value FROM cluster WHERE name = %s", (SECRET_NAME,))
            row = await cursor.fetchone()
            if row is None:
                raise RuntimeError("the relay secret could not be read")
        except BaseException:
            with contextlib.suppress(Exception):
                await conn.close()
            raise
        self.secret = str(row[0])
        self._conn = conn
        self._ready.set()

    async def _keep(self) -> None:
        """Keep the lock connection: open it (again) when there is none, check it regularly."""
        while True:
            if self._conn is None:
                try:
                    await asyncio.wait_for(self._connect(), QUERY_TIMEOUT + 3.0)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    if not self._outage_told:
                        log.warning("worker %s cannot reach its database: %s", self.worker_id, exc)
                        self._outage_told = True
                else:
                    if self._outage_told:
                        log.warning("worker %s reaches its database again", self.worker_id)
                    self._outage_told = False
            else:
                with contextlib.suppress(OwnershipUnavailable):
                    await self._query("SELECT 1")
            await asyncio.sleep(CHECK_PERIOD)


def ownership_for(db_url: str, address: str | None) -> Ownership:
    """PostgreSQL ownership for a PostgreSQL URL, else the one-process kind."""
    if db_url and make_url(db_url).get_backend_name() == "postgresql":
        return PostgresOwnership(db_url, address)
    return LocalOwnership()


__all__ = [
    "CHECK_PERIOD",
    "NAMESPACE",
    "LocalOwnership",
    "Ownership",
    "OwnershipUnavailable",
    "PostgresOwnership",
    "ownership_for",
    "table_key",
    "worker_id",
]

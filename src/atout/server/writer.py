"""Group commits: the writes of every table, several in one transaction, each still committed
before its table hears that it is done.

A table hands a :class:`Write` to :meth:`LogWriter.write` and awaits it. One writer thread takes
every write waiting, runs them in one transaction on its own connection and commits; then it
answers each. While one transaction commits, the next tables' writes gather, so that the busier
the server, the more writes share a commit (and its round trip and disk flush). A transaction
that fails is not the end of its writes: each is then run alone, so that one table's refused
write (its table is told) never costs another table's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Table, insert
from sqlalchemy.engine import Connection, Engine

log = logging.getLogger(__name__)


class LogConflict(Exception):
    """Another write holds this write's place in the log (another worker wrote the table)."""


@dataclass
class Write:
    """One change to the log: ``run`` makes it on a connection inside a transaction;
    ``already`` (optional) tells, after ``run`` failed alone, whether the change is in the
    database already (a retry after a commit whose answer was lost), or raises
    :class:`LogConflict` when another change holds its place. A write that is one row
    inserted names its ``table`` and ``row``: the rows of one table in a transaction are inserted
    by one statement."""

    run: Callable[[Connection], None]
    already: Callable[[Connection], bool] | None = None
    name: str = "write"
    table: Table | None = None
    row: dict[str, Any] | None = None


@dataclass
class _Pending:
    write: Write
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[None]
    queued_at: float = field(default_factory=time.perf_counter)


CommitObserver = Callable[[float, int], None]
"""Told of each commit: its seconds and how many writes it held."""


class LogWriter:
    """The writer thread and its queue. :meth:`write` from any event loop; :meth:`close` stops
    the thread after the writes already queued."""

    def __init__(self, engine: Engine, max_batch: int = 500, on_commit: CommitObserver | None = None) -> None:
        self.engine, self.max_batch, self.on_commit = engine, max_batch, on_commit
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._connection: Connection | None = None
        self.commits = 0
        self.writes = 0

    async def write(self, write: Write) -> None:
        """Commit ``write``; raises what the database raised when it (alone) was refused."""
        loop = asyncio.get_running_loop()
        pending = _Pending(write, loop, loop.create_future())
        self._start()
        self._queue.put(pending)
        await pending.future

    def close(self) -> None:
        """Stop the thread once what is queued is written."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(None)
            thread.join(timeout=30)

    # ------------------------------------------------------------------ the thread
    def _start(self) -> None:
        if self._thread is None:
            with self._lock:
                if self._thread is None:
                    self._thread = threading.Thread(target=self._loop, name="atout log writer", daemon=True)
                    self._thread.start()

    def _loop(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                break
            batch = [first]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._commit(batch)
            if stop:
                break
        self._drop_connection()

    def _commit(self, batch: list[_Pending]) -> None:
        start = time.perf_counter()
        try:
            self._transaction([p.write for p in batch])
        except Exception as exc:
            self._drop_connection()
            if len(batch) == 1:
                self._alone(batch[0], exc)
                return
            log.info("a grouped commit of %d writes failed (%s); each is tried alone", len(batch), exc)
            for pending in batch:
                try:
                    self._transaction([pending.write])
                except Exception as alone:
                    self._drop_connection()
                    self._alone(pending, alone)
                else:
                    self._answer(pending, None)
            return
        self.commits += 1
        self.writes += len(batch)
        if self.on_commit is not None:
            self.on_commit(time.perf_counter() - start, len(batch))
        for pending in batch:
            self._answer(pending, None)

    def _alone(self, pending: _Pending, exc: Exception) -> None:
        """A write refused alone: done after all if ``already`` finds it, else refused."""
        check = pending.write.already
        if check is not None:
            try:
                with self.engine.connect() as connection:
                    if check(connection):
                        self._answer(pending, None)
                        return
            except LogConflict as conflict:
                self._answer(pending, conflict)
                return
            except Exception:  # the database is away: the write is refused as it was
                pass
        self._answer(pending, exc)

    def _transaction(self, writes: list[Write]) -> None:
        if self._connection is None:
            self._connection = self.engine.connect()
        connection = self._connection
        rows: dict[Table, list[dict[str, Any]]] = {}
        with connection.begin():
            for write in writes:
                if write.table is not None and write.row is not None:
                    rows.setdefault(write.table, []).append(write.row)
                else:
                    write.run(connection)
            for table, batch in rows.items():
                connection.execute(insert(table), batch)

    def _drop_connection(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                connection.invalidate()
                connection.close()
            except Exception:  # a connection already broken closes as it can
                pass

    @staticmethod
    def _answer(pending: _Pending, exc: Exception | None) -> None:
        def settle() -> None:
            if pending.future.done():
                return
            if exc is None:
                pending.future.set_result(None)
            else:
                pending.future.set_exception(exc)

        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            pending.loop.call_soon_threadsafe(settle)


__all__ = ["CommitObserver", "LogConflict", "LogWriter", "Write"]

"""What the server tells its operators: its metrics in the Prometheus text format (``GET
/metrics``) and whether its database answers (``GET /healthz``).

Each app has its own :class:`Metrics` and registry (never the library's global one, so that
several apps in one process do not collide). The tables and the log writer call its methods as
things happen; the tables open and the connections are read from the live
:class:`~atout.server.manager.TableManager` when Prometheus scrapes; the websocket messages and
bytes sent are counted as a table's connection writes them (a relayed connection is counted
by the worker that owns its table only).

>>> metrics = Metrics()
>>> metrics.action_committed()
>>> metrics.action_told(0.004)
>>> metrics.commit(0.002, entries=3)
>>> metrics.sent(120)
>>> text = metrics.exposition()[0].decode()
>>> [line for line in text.splitlines() if line.startswith(("atout_actions_", "atout_websocket_bytes_"))
...  and "_total" in line]
['atout_actions_committed_total 1.0', 'atout_websocket_bytes_sent_total 120.0']
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder
from prometheus_client.registry import Collector
from sqlalchemy import text
from sqlalchemy.engine import Engine

if TYPE_CHECKING:
    from atout.server.manager import TableManager

SECONDS_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)
"""Buckets of the latency histograms, in seconds: from half a millisecond to a second."""
ENTRIES_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
"""Buckets of the entries one commit holds."""
DATABASE_TIMEOUT = 2.0
"""Seconds ``/healthz`` waits for the database's answer to ``SELECT 1``."""


class _LiveTables(Collector):
    """The gauges read at scrape time: the tables open in this process and their connections."""

    def __init__(self) -> None:
        self.manager: TableManager | None = None

    def collect(self) -> Iterator[Metric]:
        tables = [] if self.manager is None else list(self.manager.tables.values())
        yield GaugeMetricFamily("atout_tables_open", "Tables live in this process's memory.", len(tables))
        yield GaugeMetricFamily(
            "atout_connections",
            "Websockets open to this process's tables (people and watchers who said hello).",
            sum(len(table.connections) for table in tables),
        )


class _Counts(Collector):
    """The counters the event loop keeps as plain numbers."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        m = self.metrics
        yield CounterMetricFamily(
            "atout_actions_committed", "Actions (people's and bots') committed to the log.", m.actions
        )
        yield CounterMetricFamily("atout_bot_moves", "Moves the bots played.", m.bot_moves)
        yield CounterMetricFamily(
            "atout_websocket_messages_sent",
            "Websocket messages this process's tables sent to their clients.",
            m.messages_sent,
        )
        yield CounterMetricFamily(
            "atout_websocket_bytes_sent",
            "Bytes (UTF-8) of websocket messages this process's tables sent to their clients.",
            m.bytes_sent,
        )


class Metrics:
    """The server's metrics: one registry, and a method for each thing that happens."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self._live = _LiveTables()
        self.registry.register(self._live)
        ProcessCollector(registry=self.registry)  # memory, CPU time, open files of this process
        # counted on the event loop as plain numbers (no lock), read at each scrape
        self.actions = self.bot_moves = self.messages_sent = self.bytes_sent = 0
        self.registry.register(_Counts(self))
        self.told = Histogram(
            "atout_action_told_seconds",
            "Seconds from an action's arrival (a person's message, a bot's answer) to every seat "
            "whose view changed being told.",
            buckets=SECONDS_BUCKETS,
            registry=self.registry,
        )
        self.commit_seconds = Histogram(
            "atout_commit_seconds",
            "Seconds one database transaction of the log took.",
            buckets=SECONDS_BUCKETS,
            registry=self.registry,
        )
        self.commit_entries = Histogram(
            "atout_commit_entries",
            "Entries (actions, deals, seats; of one table or several) one transaction held.",
            buckets=ENTRIES_BUCKETS,
            registry=self.registry,
        )
        self.write_failures = Counter(
            "atout_database_write_failures", "Writes the database refused or failed.", registry=self.registry
        )

    def watch(self, manager: TableManager) -> None:
        """Read the tables open and their connections from ``manager`` at each scrape."""
        self._live.manager = manager

    def action_committed(self, count: int = 1) -> None:
        """``count`` actions were committed to the log."""
        self.actions += count

    def action_told(self, seconds: float) -> None:
        """An action was told to every seat whose view changed, ``seconds`` after it arrived."""
        self.told.observe(seconds)

    def commit(self, seconds: float, entries: int) -> None:
        """One transaction of the log committed ``entries`` entries in ``seconds``."""
        self.commit_seconds.observe(seconds)
        self.commit_entries.observe(entries)

    def write_failed(self) -> None:
        """The database refused a write (or failed it)."""
        self.write_failures.inc()

    def bot_move(self) -> None:
        """A bot's move was played."""
        self.bot_moves += 1

    def sent(self, nbytes: int, messages: int = 1) -> None:
        """``messages`` websocket messages of ``nbytes`` bytes in all went to a client."""
        self.messages_sent += messages
        self.bytes_sent += nbytes

    def exposition(self, accept: str = "") -> tuple[bytes, str]:
        """The metrics now, in the format the scraper's ``Accept`` header asks for (the
        Prometheus text format by default, else OpenMetrics); the body and its content type.
        Call it on the event loop: the gauges read the live tables."""
        encoder, content_type = choose_encoder(accept)
        return encoder(self.registry), content_type


async def database_health(engine: Engine, timeout: float = DATABASE_TIMEOUT) -> dict[str, Any]:
    """Whether the database answers ``SELECT 1`` within ``timeout`` seconds (asked in a worker
    thread): ``{"reachable": true, "ms": 0.4}``, or ``{"reachable": false, "error": "<one line>"}``."""

    def ask() -> float:
        started = time.perf_counter()
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        return (time.perf_counter() - started) * 1000

    try:
        ms = await asyncio.wait_for(asyncio.to_thread(ask), timeout)
    except TimeoutError:
        return {"reachable": False, "error": f"no answer to SELECT 1 within {timeout:g} s"}
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return {"reachable": False, "error": first}
    return {"reachable": True, "ms": round(ms, 2)}


__all__ = [
    "DATABASE_TIMEOUT",
    "ENTRIES_BUCKETS",
    "SECONDS_BUCKETS",
    "Metrics",
    "database_health",
]

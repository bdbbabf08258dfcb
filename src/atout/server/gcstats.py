"""The garbage collector's pauses, measured in the server: how many full collections ran and how
long the longest stopped the event loop (``GET /healthz`` reports them).

The server freezes what it made at start (:func:`freeze_startup`: imports, the app, the database
engine) so that full collections no longer walk it; what they still walk are the live tables.

>>> stats = GcStats()
>>> stats.start(); import gc; _ = gc.collect(); stats.stop()
>>> stats.full_collections >= 1 and stats.longest_ms >= 0
True
"""

from __future__ import annotations

import gc
import time
from typing import Any


class GcStats:
    """Full (generation 2) collections seen, and their longest and total pause."""

    def __init__(self) -> None:
        self.full_collections = 0
        self.longest_ms = 0.0
        self.total_ms = 0.0
        self.longest_young_ms = 0.0
        self.frozen = 0
        self._started: float | None = None

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif self._started is not None:
            pause = (time.perf_counter() - self._started) * 1000
            self._started = None
            if info.get("generation") != 2:
                self.longest_young_ms = max(self.longest_young_ms, pause)
                return
            self.full_collections += 1
            self.total_ms += pause
            self.longest_ms = max(self.longest_ms, pause)

    def start(self) -> None:
        """Measure from now on (the objects frozen are counted now: counting walks them all)."""
        self.frozen = gc.get_freeze_count()
        if self._callback not in gc.callbacks:
            gc.callbacks.append(self._callback)

    def stop(self) -> None:
        """Stop measuring."""
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)

    def report(self) -> dict[str, float | int]:
        """The figures, rounded, with the number of objects frozen out of the collector."""
        return {
            "full_collections": self.full_collections,
            "longest_full_ms": round(self.longest_ms, 1),
            "total_full_ms": round(self.total_ms, 1),
            "longest_young_ms": round(self.longest_young_ms, 1),
            "frozen_objects": self.frozen,
        }


THRESHOLDS = (30_000, 20, 100)
"""The collector's thresholds in the server (Python's are 700, 10, 10). A table's futures and
messages live about a second at a person's pace: with young collections every 700 allocations
they survive two and are promoted, and full collections follow every few seconds, each walking
every live table's objects. Measured with ``bench/load.py`` at 1,000 tables on SQLite: Python's
thresholds gave 22 full collections in a run, the longest 958 ms (a p99 over a second); these
gave none (p99 169 ms)."""


def freeze_startup() -> None:
    """Collect once, move every object alive now out of the collector's reach for good, and set
    the server's thresholds (:data:`THRESHOLDS`)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


__all__ = ["THRESHOLDS", "GcStats", "freeze_startup"]

"""What one seat is told: a stream of messages numbered by that seat's own sequence number, which
moves only when that seat's view changes (docs/server.md, docs/protocol.md).

A step another seat takes in secret (declining a poignée, choosing the trumps it shows) leaves
this seat's view as it was, so it sends nothing and numbers nothing: the stream of a seat is a
function of the views of that seat alone. An update carries what changed in the view (a delta,
:func:`atout.engine.wire.view_delta`), the full view travels only in a ``state``. Each stream keeps
its recent messages, encoded, for a client that comes back with the last number it saw (it holds
the view they apply to); they are dropped when a deal ends.
"""

from __future__ import annotations

import json
from collections import deque
from typing import Any

from atout.engine.wire import ViewKey, view_changes, view_delta, view_key
from atout.games import View

Message = dict[str, Any]


def encode(message: Message) -> str:
    """A message as the text sent (compact JSON, UTF-8 characters kept)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


class SeatStream:
    """One seat's sequence number, what its last view was, and its buffer."""

    def __init__(self, seq: int, buffer_messages: int, buffer_bytes: int) -> None:
        self.seq = seq
        self.deal_seq = seq
        """The number of the ``state`` that began the current deal for this seat."""
        self.key: ViewKey | None = None
        """What the seat's last view was (:func:`atout.engine.wire.view_key`), ``None`` before a deal."""
        self.buffer: deque[tuple[int, str]] = deque()
        self.buffer_bytes = 0
        self._max_messages, self._max_bytes = buffer_messages, buffer_bytes

    def begin(self, view: View | None) -> int:
        """A deal was dealt (or rebuilt): the next number, and nothing buffered before it."""
        self.seq += 1
        self.deal_seq = self.seq
        self.key = None if view is None else view_key(view)
        self.clear()
        return self.seq

    def resume(self, seq: int, view: View | None) -> None:
        """Rebuilt from the log: the deal began at ``seq`` with this first view (the views after
        each logged action follow through :meth:`note`)."""
        self.seq = self.deal_seq = seq
        self.key = None if view is None else view_key(view)
        self.clear()

    def note(self, view: View) -> bool:
        """Take this view as the seat's own: whether it changed (and took the next number)."""
        if self.key is not None and not view_changes(self.key, view):
            return False
        self.key = view_key(view)
        self.seq += 1
        return True

    def observe(self, view: View) -> Message | None:
        """The update this view makes (numbered), or ``None`` when the view did not change: its
        new events and the fields that changed (``set``, ``add``)."""
        before = self.key
        if before is None:  # pragma: no cover - a deal's first view is told by a state
            raise RuntimeError("an update needs the view it follows")
        changes = view_changes(before, view)
        if not changes:
            return None
        self.key = view_key(view)
        self.seq += 1
        return {"type": "update", "seq": self.seq, **view_delta(before, view, changes)}

    def keep(self, seq: int, text: str) -> None:
        """Remember a message of the current deal for a reconnecting client (bounded)."""
        self.buffer.append((seq, text))
        self.buffer_bytes += len(text)
        while self.buffer and (len(self.buffer) > self._max_messages or self.buffer_bytes > self._max_bytes):
            _, dropped = self.buffer.popleft()
            self.buffer_bytes -= len(dropped)

    def clear(self) -> None:
        """Forget the buffered messages."""
        self.buffer.clear()
        self.buffer_bytes = 0

    def missed(self, last_seq: int | None, playing: bool) -> list[str] | None:
        """The messages after ``last_seq``, or ``None`` when the gap is not all buffered
        (unknown, from another deal, beyond the buffer, between deals)."""
        if last_seq is None or last_seq < self.deal_seq or last_seq > self.seq:
            return None
        if last_seq == self.seq:
            return [] if playing else None
        missed = [(seq, text) for seq, text in self.buffer if seq > last_seq]
        if not missed or missed[0][0] != last_seq + 1:
            return None
        return [text for _, text in missed]


__all__ = ["SeatStream", "encode"]

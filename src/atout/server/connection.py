"""One open websocket as a table sees it: who it speaks for, a bounded outbox of encoded messages,
and a budget of incoming messages.

A client that does not read fills its outbox; past :attr:`Limits.outbox_bytes` or
:attr:`Limits.outbox_messages` its queued messages are dropped and the connection is closed
with :data:`CLOSE_SLOW`. A client that sends more than its budget (a burst of
:attr:`Limits.burst` messages, then :attr:`Limits.rate` a second) is closed with
:data:`CLOSE_FLOOD`. Either way it costs the other tables nothing: nothing waits on it.

>>> conn = Connection(Limits(outbox_messages=2))
>>> conn.send_text("a"), conn.send_text("b"), conn.send_text("c")
(True, True, False)
>>> conn.close_code == CLOSE_SLOW, conn.queued_bytes
(True, 0)
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field

CLOSE_SLOW = 4008
"""Close code: the client did not read its messages fast enough (it may reconnect)."""
CLOSE_FLOOD = 4029
"""Close code: the client sent more messages than a person's page ever does."""
CLOSE_SERVER = 1001
"""Close code: the server is going away (shutdown)."""


@dataclass(frozen=True)
class Limits:
    """What one connection may cost: queued bytes and messages, and incoming messages."""

    outbox_bytes: int = 2 << 20
    outbox_messages: int = 2000
    burst: int = 200
    rate: float = 50.0


@dataclass(eq=False)
class Connection:
    """One websocket: its seat (``None``: a watcher), the hash of the token it said hello with,
    and its outbox, emptied in order by :meth:`next_text`."""

    limits: Limits = field(default_factory=Limits)
    seat: int | None = None
    token_hash: str | None = None
    close_code: int | None = None
    queued_bytes: int = 0
    _outbox: deque[str] = field(default_factory=deque)
    _ready: asyncio.Event = field(default_factory=asyncio.Event)
    _tokens: float = -1.0
    _refilled: float = 0.0

    @property
    def closed(self) -> bool:
        """Whether the connection is being closed (nothing more is queued)."""
        return self.close_code is not None

    def send_text(self, text: str) -> bool:
        """Queue an encoded message; ``False`` if the connection is closed or just overflowed."""
        if self.close_code is not None:
            return False
        if (
            len(self._outbox) >= self.limits.outbox_messages
            or self.queued_bytes + len(text) > self.limits.outbox_bytes
        ):
            self.close(CLOSE_SLOW)
            return False
        self._outbox.append(text)
        self.queued_bytes += len(text)
        self._ready.set()
        return True

    def close(self, code: int) -> None:
        """Drop what is queued and have the sender close the websocket with ``code``."""
        if self.close_code is None:
            self.close_code = code
        self._outbox.clear()
        self.queued_bytes = 0
        self._ready.set()

    async def next_text(self) -> str | None:
        """The next message to write, or ``None`` once the connection is to be closed."""
        while not self._outbox:
            if self.close_code is not None:
                return None
            self._ready.clear()
            await self._ready.wait()
        if self.close_code is not None:
            return None
        text = self._outbox.popleft()
        self.queued_bytes -= len(text)
        return text

    def allow_message(self) -> bool:
        """Take one incoming message from the budget; ``False`` (and closed) when it is spent."""
        now = time.monotonic()
        if self._tokens < 0:
            self._tokens, self._refilled = float(self.limits.burst), now
        self._tokens = min(float(self.limits.burst), self._tokens + (now - self._refilled) * self.limits.rate)
        self._refilled = now
        if self._tokens < 1.0:
            self.close(CLOSE_FLOOD)
            return False
        self._tokens -= 1.0
        return True


__all__ = ["CLOSE_FLOOD", "CLOSE_SERVER", "CLOSE_SLOW", "Connection", "Limits"]

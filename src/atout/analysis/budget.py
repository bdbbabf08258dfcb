"""Work under a hard time limit: a forked child does it and sends each finished piece; at the
deadline the parent ends the child and keeps the pieces it has.

An exact search cannot be stopped half-way and still say something true, and how long the next
trick back takes is not known beforehand (it often grows tenfold): so the search runs in a child
process (``os.fork``: the compiled solver and the deal come along, nothing starts afresh), and
what it finished before the deadline is exact. Where ``os.fork`` is missing (Windows) the work
runs here instead, and stops when the next piece is likely to overrun (:func:`run_here`).
"""

from __future__ import annotations

import math
import os
import pickle
import select
import signal
import struct
import time
from collections.abc import Callable, Iterator
from typing import Any

CAN_FORK = hasattr(os, "fork")
_HEADER = struct.Struct("!I")


def run_forked(work: Callable[[], Iterator[Any]], deadline: float) -> tuple[list[Any], bool]:
    """Run ``work()`` in a forked child until it ends or ``time.monotonic()`` reaches ``deadline``;
    returns the items it yielded by then and whether it ended. An error in the child is raised here
    as a :class:`RuntimeError` naming it."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_fd)
        # a last resort if the parent is gone (ended without ending us): the alarm's default action
        # ends the process even in the middle of the compiled search
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.alarm(max(1, math.ceil(deadline - time.monotonic()) + 1))
        code = 0
        try:
            for item in work():
                _send(write_fd, ("item", item))
        except BaseException as exc:  # report any failure to the parent, then leave
            _send(write_fd, ("error", f"{type(exc).__name__}: {exc}"))
            code = 1
        finally:
            os._exit(code)
    os.close(write_fd)
    items: list[Any] = []
    buffer = b""
    ended = False
    error = ""
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            ready, _, _ = select.select([read_fd], [], [], left)
            if not ready:
                break
            chunk = os.read(read_fd, 1 << 16)
            if not chunk:
                ended = True
                break
            buffer += chunk
            while len(buffer) >= _HEADER.size:
                (size,) = _HEADER.unpack_from(buffer)
                if len(buffer) < _HEADER.size + size:
                    break
                kind, value = pickle.loads(buffer[_HEADER.size : _HEADER.size + size])
                buffer = buffer[_HEADER.size + size :]
                if kind == "error":
                    error = value
                else:
                    items.append(value)
    finally:
        os.close(read_fd)
        if not ended:
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    if error:
        raise RuntimeError(error)
    return items, ended


def _send(fd: int, message: tuple[str, Any]) -> None:
    data = pickle.dumps(message)
    data = _HEADER.pack(len(data)) + data
    while data:
        data = data[os.write(fd, data) :]


def run_here(
    work: Callable[[], Iterator[Any]], deadline: float, growth: float = 10.0
) -> tuple[list[Any], bool]:
    """Run ``work()`` in this process, taking items while the next one, guessed to take ``growth``
    times as long as the last, would end before ``deadline``; returns the items and whether it ended."""
    items: list[Any] = []
    start = time.monotonic()
    for item in work():
        items.append(item)
        now = time.monotonic()
        if now + growth * (now - start) > deadline:
            return items, False
        start = now
    return items, True


def run(work: Callable[[], Iterator[Any]], seconds: float | None) -> tuple[list[Any], bool]:
    """``work()``'s items within ``seconds`` (``None``: all of them), and whether it ended."""
    if seconds is None:
        return list(work()), True
    deadline = time.monotonic() + seconds
    return run_forked(work, deadline) if CAN_FORK else run_here(work, deadline)

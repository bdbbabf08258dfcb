"""Bots in child processes: the host's side of the line protocol (docs/bot-protocol.md).

A :class:`ProcessBot` is a :class:`~atout.bots.base.Bot` that runs a command, any program in any
language, and sends it only the wire form of each view (:func:`atout.engine.wire.view_to_json`):
a bot in its own process cannot reach the deal through frames or the garbage collector.
:func:`process_bot` runs an atout bot so (``atout bot-serve SPEC``).

The child starts at the first decision and serves every later one. A wrong answer (not JSON,
another id, not an action, an illegal action, the bot's own ``error``), no answer within the
timeout, or a child that dies raise :class:`BotError`, naming the bot and what it said; after a
timeout or a death the child is gone and the next decision starts a new one. What the child
writes on stderr is kept (its last lines end the error message) or passed through.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import sys
import time
import weakref
from collections import deque
from collections.abc import Hashable, Sequence
from types import TracebackType
from typing import Any, Final, Literal

from atout.bots.base import Bot, View
from atout.bots.serve import PROTOCOL
from atout.engine.actions import parse_action
from atout.engine.austrian.actions import parse_austrian_action
from atout.engine.wire import action_to_json

DECISION_TIMEOUT: Final = 60.0
"""Seconds a bot has to answer one decision."""
START_TIMEOUT: Final = 30.0
"""Seconds more for the first decision of a child, which starts it (an atout bot: 0.3-2 s)."""
STDERR_LINES: Final = 20
"""How many of the child's last stderr lines are kept (``capture``)."""
MAX_ANSWER: Final = 1 << 20
"""The longest answer line read, in bytes."""
_GRACE: Final = 2.0
"""Seconds a child has to leave after ``bye`` before it is killed."""

Stderr = Literal["capture", "inherit"]
"""``capture``: the child's stderr is kept, its last lines quoted in errors; ``inherit``: it
goes to the host's own stderr."""


class BotError(RuntimeError):
    """A bot in a child process that failed; the message names the bot and what went wrong."""


class BotTimeout(BotError):
    """A bot that did not answer in time (its child was stopped)."""


class BotDied(BotError):
    """A bot whose child process ended, or could not start."""


class ProcessBot:
    """A bot that is a child process speaking the line protocol; a context manager.

    ``command`` is the program and its arguments. ``name`` (default: the command) names the bot
    in errors. ``timeout`` is each decision's limit in seconds, ``start_timeout`` the first
    decision's extra allowance."""

    def __init__(
        self,
        command: Sequence[str],
        name: str | None = None,
        *,
        timeout: float = DECISION_TIMEOUT,
        start_timeout: float = START_TIMEOUT,
        stderr: Stderr = "capture",
    ) -> None:
        if not command:
            raise ValueError("a bot command needs at least a program")
        if stderr not in ("capture", "inherit"):
            raise ValueError(f"stderr must be capture or inherit, not {stderr!r}")
        self.command = list(command)
        self.name = name if name is not None else shlex.join(self.command)
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.stderr_mode: Stderr = stderr
        self.stderr_lines: deque[str] = deque(maxlen=STDERR_LINES)
        """The child's last lines on stderr (``capture``), the latest last."""
        self.starts = 0
        """How many children were started (more than one: restarted after a failure)."""
        self._proc: subprocess.Popen[bytes] | None = None
        self._selector: selectors.BaseSelector | None = None
        self._out = bytearray()
        self._err = bytearray()
        self._table: tuple[int, str] | None = None
        """The seat and game of the last hello."""
        self._decisions = 0
        self._decisions_here = 0
        """Decisions asked of the present child (its first one has time to start)."""
        self._seed: int | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None

    # ------------------------------------------------------------------ the Bot protocol
    def choose(self, view: View, legal: Sequence[int]) -> int:
        """One of ``legal``, as the child answers from the wire form of ``view``."""
        if self._proc is None:
            self._start()
        elif self._proc.poll() is not None:
            raise self._died("since its last decision")
        first = self._decisions_here == 0  # of this child: it may still be starting
        if self._table != (view.seat, view.game):
            self._table = (view.seat, view.game)
            hello = {"type": "hello", "protocol": PROTOCOL, "seat": view.seat, "game": view.game}
            self._send({**hello, "seed": self._seed})
        self._decisions += 1
        self._decisions_here += 1
        ident = self._decisions
        self._send({"type": "decide", "id": ident, "view": view.to_json()})
        timeout = self.timeout + (self.start_timeout if first else 0.0)
        line = self._read_answer(ident, time.monotonic() + timeout, timeout)
        try:
            return self._action(line, ident, view, legal)
        except BotError as exc:
            self._tell(ident, str(exc))
            raise

    # ------------------------------------------------------------------ life of the child
    @property
    def running(self) -> bool:
        """Whether a child is alive now."""
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        """The child's process id, while it runs."""
        return self._proc.pid if self._proc is not None and self.running else None

    def start(self) -> None:
        """Start the child now, if none runs, and go on at once: it loads while the host works
        (several bots started so load side by side). Else the first decision starts it."""
        if self._proc is None:
            self._start()

    def reset(self, seed: int | None = None) -> None:
        """A new game: the next decision is preceded by a ``hello`` with ``seed`` (as is every
        later hello), and the bot starts afresh."""
        self._seed, self._table = seed, None

    def close(self) -> None:
        """Say ``bye`` and let the child leave (killed if it lingers). The bot may be used
        again: the next decision starts a new child."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                self._send_raw({"type": "bye"})
                assert proc.stdin is not None
                proc.stdin.close()
                proc.wait(_GRACE)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._drop()

    def __enter__(self) -> ProcessBot:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ProcessBot({self.command!r}, name={self.name!r}, pid={self.pid})"

    def _start(self) -> None:
        self._drop()
        try:
            proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE if self.stderr_mode == "capture" else None,
            )
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise BotDied(f"bot {self.name!r}: cannot start {shlex.join(self.command)}: {reason}") from None
        self._proc = proc
        self.starts += 1
        self._finalizer = weakref.finalize(self, _kill, proc)
        selector = selectors.DefaultSelector()
        assert proc.stdout is not None
        selector.register(proc.stdout, selectors.EVENT_READ, "out")
        if proc.stderr is not None:
            selector.register(proc.stderr, selectors.EVENT_READ, "err")
        self._selector = selector
        self._table = None
        self._decisions_here = 0

    def _drop(self) -> None:
        """Kill the child if alive and forget it (its last stderr lines stay)."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr is not None:
            self._drain_stderr(proc)
        if self._finalizer is not None:
            self._finalizer()
        if self._selector is not None:
            self._selector.close()
        self._proc = self._selector = self._finalizer = None
        self._out.clear()

    # ------------------------------------------------------------------ talking
    def _send(self, message: dict[str, Any]) -> None:
        try:
            self._send_raw(message)
        except OSError:
            raise self._died("while being sent a message") from None

    def _send_raw(self, message: dict[str, Any]) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        proc.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        proc.stdin.flush()

    def _tell(self, ident: int, message: str) -> None:
        """Tell the child why its answer was refused (it may be gone: then nothing)."""
        if self.running:
            with contextlib.suppress(OSError):
                self._send_raw({"type": "error", "id": ident, "message": message})

    def _read_answer(self, ident: int, deadline: float, timeout: float) -> bytes:
        """The child's next line on stdout, waiting at most until ``deadline``."""
        assert self._proc is not None and self._selector is not None
        while True:
            end = self._out.find(b"\n")
            if end >= 0:
                line = bytes(self._out[:end])
                del self._out[: end + 1]
                return line
            if len(self._out) > MAX_ANSWER:
                self._drop()
                raise BotError(
                    f"bot {self.name!r}: an answer to decision {ident} longer than {MAX_ANSWER} bytes"
                )
            left = deadline - time.monotonic()
            if left <= 0:
                self._drop()
                raise BotTimeout(
                    f"bot {self.name!r}: no answer to decision {ident} within {timeout:g} s; "
                    f"its process was stopped{self._stderr_tail()}"
                )
            for key, _ in self._selector.select(left):
                data = os.read(key.fd, 65536)
                if key.data == "err":
                    self._take_stderr(data)
                    if not data:
                        self._selector.unregister(key.fileobj)
                elif data:
                    self._out += data
                else:
                    raise self._died(f"during decision {ident}")

    def _action(self, line: bytes, ident: int, view: View, legal: Sequence[int]) -> int:
        """The legal action the answer names; :class:`BotError` saying what is wrong with it."""
        said = line.decode("utf-8", "replace").strip()
        quoted = repr(said[:200])
        try:
            answer: Any = json.loads(said)
        except ValueError:
            raise BotError(
                f"bot {self.name!r} answered decision {ident} with {quoted}, which is not JSON"
            ) from None
        if not isinstance(answer, dict):
            raise BotError(f"bot {self.name!r} answered decision {ident} with {quoted}, not a JSON object")
        if answer.get("id") != ident:
            raise BotError(
                f"bot {self.name!r} answered id {answer.get('id')!r} to decision {ident}: {quoted}"
            )
        if "error" in answer:
            raise BotError(f"bot {self.name!r} could not decide {ident}: {str(answer['error'])[:300]}")
        words = answer.get("action")
        if not isinstance(words, str):
            raise BotError(f"bot {self.name!r} answered decision {ident} without an action: {quoted}")
        names = [action_to_json(a, view.rules) for a in legal]
        if words in names:
            return legal[names.index(words)]
        parse = parse_austrian_action if view.rules.game == "austrian" else parse_action
        try:
            action = parse(words)
        except ValueError as exc:
            raise BotError(
                f"bot {self.name!r} answered {words[:100]!r} to decision {ident}: not an action ({exc})"
            ) from None
        for candidate in legal:
            if candidate == action:
                return candidate
        raise BotError(
            f"bot {self.name!r} answered {words[:100]!r} to decision {ident}, which is not legal now; "
            f"legal: {', '.join(names)}"
        )

    # ------------------------------------------------------------------ failures
    def _died(self, when: str) -> BotDied:
        """The error for a child that ended (it is waited for, its last stderr read, then dropped)."""
        proc = self._proc
        assert proc is not None
        try:
            code = proc.wait(_GRACE)
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            how = "closed its output"
        elif code < 0:
            try:
                how = f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                how = f"was killed by signal {-code}"
        else:
            how = f"ended with exit code {code}"
        self._drop()
        return BotDied(f"bot {self.name!r}: its process {how} {when}{self._stderr_tail()}")

    def _take_stderr(self, data: bytes) -> None:
        self._err += data
        *lines, rest = self._err.split(b"\n")
        if not data and rest:  # the end: the last line has no newline
            lines, rest = [*lines, rest], bytearray()
        self.stderr_lines.extend(x.decode("utf-8", "replace").rstrip() for x in lines if x.strip())
        self._err = bytearray(rest[-MAX_ANSWER:])  # a line without end is kept in part

    def _drain_stderr(self, proc: subprocess.Popen[bytes]) -> None:
        """Read what the ended child wrote on stderr up to its end (briefly: a grandchild may keep
        the pipe open)."""
        assert proc.stderr is not None
        deadline = time.monotonic() + 0.5
        with selectors.DefaultSelector() as selector:
            selector.register(proc.stderr, selectors.EVENT_READ)
            while (left := deadline - time.monotonic()) > 0 and selector.select(left):
                data = os.read(proc.stderr.fileno(), 65536)
                self._take_stderr(data)
                if not data:
                    break

    def _stderr_tail(self) -> str:
        if not self.stderr_lines:
            return ""
        last = list(self.stderr_lines)[-3:]
        return "; its last words on stderr: " + " | ".join(line[:200] for line in last)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """Stop a child for good and close its pipes (also when its bot is garbage collected)."""
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()


def bot_command(spec: str, seed: int | None = None) -> list[str]:
    """The command that serves the atout bot ``spec`` (``rules``, ``expert:strong``) with this
    Python; ``-P``: the current folder cannot shadow a module."""
    command = [sys.executable, "-P", "-m", "atout", "bot-serve", spec]
    return command if seed is None else [*command, "--seed", str(seed)]


def process_bot(spec: str, seed: int | None = None, **options: Any) -> ProcessBot:
    """The atout bot ``spec`` in a child process, seeded with ``seed``; ``options`` as for
    :class:`ProcessBot` (``timeout``, ``stderr``)."""
    return ProcessBot(bot_command(spec, seed), name=spec, **options)


class BotPool:
    """Process bots kept from game to game, one per key (a seat, a role) and spec: :meth:`get`
    resets the bot with the game's seed, so that it plays as a new bot with that seed would."""

    def __init__(self, **options: Any) -> None:
        self.options = options
        self.bots: dict[Hashable, ProcessBot] = {}

    def get(self, key: Hashable, spec: str, seed: int | None) -> Bot:
        """The process bot kept under ``key`` for ``spec``, reset with ``seed``."""
        bot = self.bots.get((key, spec))
        if bot is None:
            bot = self.bots[(key, spec)] = process_bot(spec, **self.options)
        bot.reset(seed)
        return bot

    def close(self) -> None:
        """Close every bot of the pool."""
        for bot in self.bots.values():
            bot.close()
        self.bots.clear()

    def __enter__(self) -> BotPool:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


__all__ = [
    "DECISION_TIMEOUT",
    "BotDied",
    "BotError",
    "BotPool",
    "BotTimeout",
    "ProcessBot",
    "bot_command",
    "process_bot",
]

"""Computer players off the event loop: worker processes that get a bot's spec, a key and the
wire JSON of its seat's view, nothing else, and answer with an action's words.

A worker rebuilds the view with :func:`atout.engine.wire.view_from_json` and asks the bot
(:func:`atout.bots.make_bot`): the bot never sees the deal. A bot is kept per key (the caller's
``table/deal/seat``) between its decisions, since bots keep state between them (the expert
chooses its whole écart at the first discard and then discards it card by card). Every decision
of a key goes to the same bot in the same worker: each worker is a one-process executor, and the
pool places a key's bot once:

* the keys of one group (the key up to its last ``/``: a table's deal) share a worker, since a
  table asks one decision at a time and never waits on itself;
* a new group goes to the worker holding the fewest groups, then running the fewest decisions,
  so that tables spread over the workers and, while there are no more tables than workers, no
  table waits behind another's decision;
* a worker holds at most ``bots_per_worker`` bots: a new one drops its least recently used bot,
  so memory stays bounded when :meth:`BotPool.forget` is never called.

A key never moves: with more tables than workers, the tables on one worker take turns even when
another is free for a moment, the price of keeping a bot where its state is (rebuilding the
expert's écart from the view at each card would cost its simulation six times; docs/server.md
gives the figures).

A new bot's random generator is seeded by :func:`bot_seed` from the pool's secret and its key.
A worker that dies is replaced (its bots start afresh) and the decision retried.

Once started, each worker first loads every compiled kernel the bots use, in every game
(:func:`warm_kernels`): from numba's on-disk cache in a second or two when ``atout warm-up`` has
filled it, else compiling them. :attr:`BotPool.warming` tells whether a worker still is, and
the callbacks given to :meth:`BotPool.on_ready` are called (in the event loop) when none is.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import multiprocessing
import os
import secrets
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from atout.bots.base import Bot

log = logging.getLogger(__name__)

BOT_LEVELS: tuple[dict[str, object], ...] = (
    {"bot": "random", "label": "Random (any legal card)", "time": "instant"},
    {"bot": "rules", "label": "Rules (the reference bot)", "time": "under 1 ms a decision"},
    {"bot": "expert:fast", "label": "Expert, fast", "time": "about 30 ms a decision"},
    {"bot": "expert:strong", "label": "Expert, strong", "time": "about 300 ms a decision (median)"},
)
"""The bots offered to play against, with the time per move their levels promise (docs/bots.md)."""

QUICK_BOTS = frozenset({"random", "rules"})
"""The bots that answer at once, and wait the configured pause so that people can follow."""

BOTS_PER_WORKER = 256
"""The most bots a worker keeps by default (an expert bot weighs a few kilobytes)."""

_bots: dict[str, tuple[str, Bot]] = {}
"""In a worker: the bots by key, with their spec."""


def check_bot(spec: str) -> str:
    """``spec`` if it names a bot offered at a table, else :class:`ValueError` naming them."""
    offered = [str(level["bot"]) for level in BOT_LEVELS]
    if spec not in offered:
        raise ValueError(f"unknown bot {spec!r}; bots: {', '.join(offered)}")
    return spec


def bot_seed(secret: int, key: str) -> int:
    """The seed of the bot ``key`` in a pool of that secret (64 bits of a hash of both).

    >>> bot_seed(7, "t1/0/2") == bot_seed(7, "t1/0/2") != bot_seed(8, "t1/0/2")
    True
    """
    digest = hashlib.blake2b(f"{secret}/{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def group_of(key: str) -> str:
    """The group of a key, which shares its worker: the key up to its last ``/`` (a table's deal).

    >>> group_of("t1/3/2"), group_of("solo")
    ('t1/3', 'solo')
    """
    return key.rpartition("/")[0] or key


def _choose(bot: Bot, view_json: str) -> str:
    """The words of the action ``bot`` takes from this wire view."""
    from atout.engine.wire import view_from_json

    data = json.loads(view_json)
    view = view_from_json(data)
    action = bot.choose(view, view.legal_actions)
    return str(data["legal_actions"][list(view.legal_actions).index(action)])


def decide(spec: str, view_json: str, key: str | None = None, seed: int | None = None) -> str:
    """The words of the action the bot ``spec`` takes from this wire view (run in a worker): the
    bot kept under ``key`` in this process, else a new one seeded by ``seed`` (random if None),
    kept under ``key`` (with no key, a bot for this decision alone)."""
    from atout.bots import make_bot

    held = _bots.get(key) if key is not None else None
    if held is not None and held[0] == spec:
        bot = held[1]
    else:
        bot = make_bot(spec, rng=secrets.randbits(64) if seed is None else seed)
        if key is not None:
            _bots[key] = (spec, bot)
    return _choose(bot, view_json)


def _hint_in_worker(view_json: str, drop: tuple[str, ...]) -> dict[str, object]:
    """Drop the bots the pool has let go on this worker, then give the hint for this view
    (:func:`atout.bots.hint.hint_json`: a fresh strongest bot, seeded from the view)."""
    from atout.bots.hint import hint_json

    drop_bots(drop)
    return hint_json(view_json)


def drop_bots(keys: Iterable[str]) -> None:
    """Forget the bots of these keys in this process."""
    for key in keys:
        _bots.pop(key, None)


def _decide_in_worker(spec: str, view_json: str, key: str, seed: int, drop: tuple[str, ...]) -> str:
    """Drop the bots the pool has let go on this worker, then decide."""
    drop_bots(drop)
    return decide(spec, view_json, key, seed)


def _held() -> tuple[int, list[str]]:
    """This process's id and the keys of the bots it holds."""
    return os.getpid(), sorted(_bots)


def _watch_parent(parent: int) -> None:
    """End this worker when the server is gone (killed without a shutdown: its workers would
    otherwise wait for work forever)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _start_worker() -> None:
    """A new worker: watch the server, and import the bots before the first decision."""
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    import atout.bots  # noqa: F401


def warm_kernels() -> float:
    """In a worker: load (or compile) every kernel the bots use, in every game, by throwaway
    bots' first decisions (:func:`atout.bots.warm.warm_up`, the solver's aside); the seconds it
    took. A failure is logged, not raised: the bots then compile on first use."""
    start = time.perf_counter()
    try:
        from atout.bots.warm import warm_up

        warm_up(solver=False)
    except Exception:
        log.exception("loading the bots' compiled kernels failed; they compile on first use")
    return time.perf_counter() - start


class _Worker:
    """One worker process (a one-process executor) and what the pool knows of it: the keys of
    its bots (least recently used first), how many each group has, the decisions running, and
    the keys to drop with its next decision."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self.executor = ProcessPoolExecutor(1, mp_context=context, initializer=_start_worker)
        self.keys: OrderedDict[str, None] = OrderedDict()
        self.groups: Counter[str] = Counter()
        self.busy = 0
        self.drop: dict[str, None] = {}

    def load(self) -> tuple[int, int]:
        """What a new group weighs the worker by: its groups, then its running decisions."""
        return len(self.groups), self.busy


class BotPool:
    """The workers the tables share; a bot per key, kept in one worker (see the module doc).

    ``seed`` fixes the secret the bots' seeds come from (:func:`bot_seed`): random by default.
    """

    def __init__(
        self, workers: int, bots_per_worker: int = BOTS_PER_WORKER, seed: int | None = None, warm: bool = True
    ) -> None:
        self.workers = max(1, workers)
        self.warm = warm
        self.bots_per_worker = max(1, bots_per_worker)
        self.secret = secrets.randbits(64) if seed is None else seed
        self._workers: list[_Worker | None] = [None] * self.workers
        self._where: dict[str, int] = {}
        self._group_worker: dict[str, int] = {}
        self._started = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._warming: set[Future[float]] = set()
        self._warming_lock = threading.Lock()
        self._ready_callbacks: list[Callable[[], object]] = []

    def _worker(self, i: int) -> _Worker:
        worker = self._workers[i]
        if worker is None:
            worker = self._workers[i] = _Worker()
            if self._started and self.warm:
                self._warm(i, worker)
        return worker

    def worker_of(self, key: str) -> int | None:
        """The index of the worker that holds the bot ``key``, if one does."""
        return self._where.get(key)

    def _place(self, key: str) -> int:
        """The worker of ``key``'s bot: where it is, else where its group is, else the lightest
        worker; a full worker lets its least recently used bot go."""
        i = self._where.get(key)
        if i is not None:
            self._worker(i).keys.move_to_end(key)
            return i
        group = group_of(key)
        i = self._group_worker.get(group)
        if i is None:
            loads = [(w.load() if w is not None else (0, 0), j) for j, w in enumerate(self._workers)]
            i = min(loads)[1]
        worker = self._worker(i)
        if len(worker.keys) >= self.bots_per_worker:
            oldest = next(iter(worker.keys))
            self._remove(oldest)
            worker.drop[oldest] = None
        worker.drop.pop(key, None)
        worker.keys[key] = None
        worker.groups[group] += 1
        self._where[key] = i
        self._group_worker[group] = i
        return i

    def _remove(self, key: str) -> None:
        """Let the bot ``key`` go from the pool's books (its worker is told apart)."""
        worker = self._workers[self._where.pop(key)]
        assert worker is not None
        del worker.keys[key]
        group = group_of(key)
        worker.groups[group] -= 1
        if not worker.groups[group]:
            del worker.groups[group]
            del self._group_worker[group]

    def _replace(self, i: int, worker: _Worker) -> None:
        """Let a broken worker go, with its bots; a new one starts at its next use."""
        if self._workers[i] is not worker:
            return
        for key in list(worker.keys):
            self._remove(key)
        self._workers[i] = None
        worker.executor.shutdown(wait=False, cancel_futures=True)

    def start(self) -> None:
        """Start the workers now, each loading the bots' kernels (:func:`warm_kernels`) before
        its first decision; a worker started later (one replaced) does too. Called in the event
        loop, it calls the :meth:`on_ready` callbacks there once every worker is warm."""
        with contextlib.suppress(RuntimeError):
            self._loop = asyncio.get_running_loop()
        self._started = True
        for i in range(self.workers):
            self._worker(i)

    @property
    def warming(self) -> bool:
        """Whether a worker is still loading the bots' kernels (its decisions wait for it)."""
        with self._warming_lock:
            return bool(self._warming)

    def on_ready(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` (in the event loop) each time the last warming worker is warm."""
        self._ready_callbacks.append(callback)

    def _warm(self, i: int, worker: _Worker) -> None:
        """Queue the warm-up as worker ``i``'s first task, noted until it is done."""
        try:
            future = worker.executor.submit(warm_kernels)
        except BrokenProcessPool:
            self._replace(i, worker)
            return
        with self._warming_lock:
            self._warming.add(future)
        future.add_done_callback(self._warmed)

    def _warmed(self, future: Future[float]) -> None:
        """A warm-up is over (in the executor's thread): the last one tells the event loop."""
        with self._warming_lock:
            self._warming.discard(future)
            last = not self._warming
        if last and self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody to tell
                self._loop.call_soon_threadsafe(self._tell_ready)

    def _tell_ready(self) -> None:
        if not self.warming:
            for callback in self._ready_callbacks:
                callback()

    async def ready(self) -> None:
        """Wait until no worker is warming."""
        while self.warming:
            await asyncio.sleep(0.05)

    def _submit(self, i: int, fn: Callable[..., object], *args: object) -> None:
        """Queue work on worker ``i`` without waiting for it; a broken worker is let go."""
        worker = self._worker(i)
        try:
            worker.executor.submit(fn, *args)
        except BrokenProcessPool:
            self._replace(i, worker)

    async def decide(self, spec: str, view_json: str, key: str) -> str:
        """The action words of the bot ``key`` (of spec ``spec``) for this view, computed in its
        worker, where the bot stays for the key's next decisions. A broken worker is replaced
        and the decision retried once (by a new bot), then left to a ``rules`` bot here."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            i = self._place(key)
            worker = self._worker(i)
            drop = tuple(worker.drop)
            worker.drop.clear()
            seed = bot_seed(self.secret, key)
            worker.busy += 1
            try:
                return await loop.run_in_executor(
                    worker.executor, _decide_in_worker, spec, view_json, key, seed, drop
                )
            except BrokenProcessPool:
                log.warning("bot worker %d broken (attempt %d); starting a new one", i, attempt)
                self._replace(i, worker)
            except asyncio.CancelledError:
                if self._workers[i] is worker:  # the drops may not have been sent
                    worker.drop.update((k, None) for k in drop if self._where.get(k) != i)
                raise
            finally:
                worker.busy -= 1
        return await asyncio.to_thread(decide, "rules", view_json)

    async def hint(self, view_json: str) -> dict[str, object]:
        """The hint for a seat's wire view (``{"action", "reason"}``, :mod:`atout.bots.hint`),
        computed in the worker running the fewest decisions; no bot is kept. A broken worker is
        replaced and the hint asked once more; ``ValueError`` for a view with nothing to decide."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            loads = [(w.busy if w is not None else 0, j) for j, w in enumerate(self._workers)]
            i = min(loads)[1]
            worker = self._worker(i)
            drop = tuple(worker.drop)
            worker.drop.clear()
            worker.busy += 1
            try:
                return await loop.run_in_executor(worker.executor, _hint_in_worker, view_json, drop)
            except BrokenProcessPool:
                log.warning("bot worker %d broken during a hint (attempt %d); starting a new one", i, attempt)
                self._replace(i, worker)
            except asyncio.CancelledError:
                if self._workers[i] is worker:
                    worker.drop.update((k, None) for k in drop if self._where.get(k) != i)
                raise
            finally:
                worker.busy -= 1
        raise RuntimeError("the bot workers broke twice while working out a hint")

    def forget(self, prefix: str) -> None:
        """Drop the bots whose key starts with ``prefix`` (a table's ``"table_id/"`` when its deal
        ends): at once from the pool's books, and in their workers as soon as these are free.
        Does not wait."""
        for i, worker in enumerate(self._workers):
            if worker is None:
                continue
            keys = [key for key in worker.keys if key.startswith(prefix)]
            if keys:
                for key in keys:
                    self._remove(key)
                drop = [*worker.drop, *keys]
                worker.drop.clear()
                self._submit(i, drop_bots, drop)

    async def held(self) -> list[tuple[int, list[str]]]:
        """Each worker's process id and the keys of the bots it holds, as the workers tell."""
        loop = asyncio.get_running_loop()
        asks = [loop.run_in_executor(self._worker(i).executor, _held) for i in range(self.workers)]
        return list(await asyncio.gather(*asks))

    def close(self) -> None:
        """Stop the workers."""
        for i, worker in enumerate(self._workers):
            if worker is not None:
                worker.executor.shutdown(wait=True, cancel_futures=True)
                self._workers[i] = None
        self._where.clear()
        self._group_worker.clear()

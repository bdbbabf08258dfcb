"""Computer players off the event loop: a process pool whose workers get a bot's spec and the
wire JSON of its seat's view, nothing else, and answer with an action's words.

A worker rebuilds the view with :func:`atout.engine.wire.view_from_json` and asks the bot
(:func:`atout.bots.make_bot`): the bot never sees the deal. Bots are kept per worker and spec.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import secrets
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
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

_bots: dict[str, Bot] = {}


def check_bot(spec: str) -> str:
    """``spec`` if it names a bot offered at a table, else :class:`ValueError` naming them."""
    offered = [str(level["bot"]) for level in BOT_LEVELS]
    if spec not in offered:
        raise ValueError(f"unknown bot {spec!r}; bots: {', '.join(offered)}")
    return spec


def decide(spec: str, view_json: str) -> str:
    """The words of the action the bot ``spec`` takes from this wire view (run in a worker)."""
    from atout.bots import make_bot
    from atout.engine.wire import view_from_json

    data = json.loads(view_json)
    view = view_from_json(data)
    bot = _bots.get(spec)
    if bot is None:
        bot = _bots[spec] = make_bot(spec, rng=secrets.randbits(64))
    action = bot.choose(view, view.legal_actions)
    return str(data["legal_actions"][list(view.legal_actions).index(action)])


def _watch_parent(parent: int) -> None:
    """End this worker when the server is gone (killed without a shutdown: its workers would
    otherwise wait for work forever)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _start_worker() -> None:
    """A new worker: watch the server, and import the bots before the first decision."""
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    _warm()


def _warm() -> None:
    """Import the bots."""
    import atout.bots  # noqa: F401


def warm_bot(spec: str) -> None:
    """Make a bot's first decisions (a bid and a card of a 4-player deal) in a worker, so that
    its compiled kernels are loaded before a table waits for it (the expert's first decision in
    a new process takes seconds otherwise)."""
    from atout.games import is_card_play, new_deal
    from atout.rules import Rules

    deal = new_deal(Rules(), rng=0)
    decide(spec, json.dumps(deal.view(deal.current_player).to_json()))
    while not is_card_play(deal):
        deal.apply(deal.legal_actions()[-1])
    decide(spec, json.dumps(deal.view(deal.current_player).to_json()))


class BotPool:
    """The pool the tables share; a broken pool (a worker killed) is replaced and the decision
    retried once."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._executor: Executor | None = None
        self._warmed: set[str] = set()

    def _pool(self) -> Executor:
        if self._executor is None:
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_start_worker)
        return self._executor

    def start(self) -> None:
        """Start the workers now, so that the first bot move does not wait for them."""
        pool = self._pool()
        for _ in range(self.workers):
            pool.submit(_warm)

    def warm(self, spec: str) -> None:
        """Have each worker load a slow-starting bot (the expert levels) once, in the background."""
        if spec.startswith("expert") and spec not in self._warmed:
            self._warmed.add(spec)
            pool = self._pool()
            for _ in range(self.workers):
                pool.submit(warm_bot, spec)

    async def decide(self, spec: str, view_json: str) -> str:
        """The bot's action words for this view, computed in a worker process."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            try:
                return await loop.run_in_executor(self._pool(), decide, spec, view_json)
            except BrokenProcessPool:
                log.warning("bot pool broken (attempt %d); starting a new one", attempt)
                self._executor = None
                self._warmed.clear()
        return await asyncio.to_thread(decide, "rules", view_json)

    def close(self) -> None:
        """Stop the workers."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

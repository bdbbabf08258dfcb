"""The computer players' compiled kernels, ready before a bot needs them.

The kernels are compiled by numba on their first call (:mod:`atout.jit`), into numba's on-disk
cache: beside their modules (``__pycache__``), or in ``NUMBA_CACHE_DIR`` when it is set. A
first call in a new process then loads them from that cache in a fraction of a second instead
of compiling for many seconds. :func:`warm_up` makes every call the bots make, in every game,
so that a set-up step (``atout warm-up``, run by ``make run`` and ``make test``) fills the
cache, and a bot worker of the server loads every kernel before its first decision.

>>> sorted(GAMES)
['austrian', 'french-2', 'french-3', 'french-4', 'french-5']
"""

from __future__ import annotations

import importlib
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from atout.games import Deal, is_card_play, new_deal
from atout.jit import AVAILABLE, numba
from atout.presets import rules_for
from atout.rules import Rules

KERNEL_MODULES = (
    "atout.bots.expert.dealer",
    "atout.bots.rules.kernel",
    "atout.solver.fast",
    "atout.batched.bits",
    "atout.batched.french",
    "atout.batched.austrian",
    "atout.batched.two_player",
)
"""The modules that compile kernels (every one that imports :mod:`atout.jit`)."""

BATCHED_MODULES = KERNEL_MODULES[3:]
"""The batched simulator's (:mod:`atout.batched`), for research: warmed with the solver's."""

BOT_MODULES = KERNEL_MODULES[:2]
"""Those the bots offered at a table use (the solver's is used by the cheat and the tools)."""

GAMES: dict[str, Callable[[], Rules]] = {
    "french-3": lambda: Rules(players=3),
    "french-4": lambda: Rules(players=4),
    "french-5": lambda: Rules(players=5),
    "french-2": lambda: Rules(players=2),
    "austrian": lambda: rules_for("tarock"),
}
"""Every game a bot plays: French for 3, 4, 5 and 2 players, and Austrian Tarock."""

BOT = "expert:fast"
"""The bot whose decisions are made: the expert's levels differ in numbers only, not in the
kernels they call or their types (the random and rules bots compile nothing)."""


def kernels(modules: tuple[str, ...] = KERNEL_MODULES) -> dict[str, Any]:
    """The compiled functions of these modules by ``module.name``: numba's dispatchers, those
    inlined into their callers included (they compile apart only when Python calls them)."""
    if not AVAILABLE:
        return {}
    found: dict[str, Any] = {}
    for name in modules:
        for attr, value in vars(importlib.import_module(name)).items():
            if isinstance(value, numba.core.dispatcher.Dispatcher) and value not in found.values():
                found[f"{name}.{attr}"] = value
    return found


def entry_points(modules: tuple[str, ...] = KERNEL_MODULES) -> dict[str, Any]:
    """The kernels Python calls (not inlined): each must be compiled by :func:`warm_up`."""
    return {name: d for name, d in kernels(modules).items() if d.targetoptions.get("inline") != "always"}


def signatures(modules: tuple[str, ...] = KERNEL_MODULES) -> dict[str, set[str]]:
    """The types each kernel is compiled (or loaded) for in this process, by name."""
    return {name: {str(sig) for sig in d.signatures} for name, d in kernels(modules).items()}


def cached(dispatcher: Any) -> bool:
    """Whether every type ``dispatcher`` holds in this process is in numba's on-disk cache."""
    cache = dispatcher._cache
    return all(cache.load_overload(sig, dispatcher.targetctx) is not None for sig in dispatcher.signatures)


def cache_folder() -> Path:
    """Where numba keeps the kernels: ``NUMBA_CACHE_DIR`` when set, else beside the modules."""
    return Path(os.environ.get("NUMBA_CACHE_DIR") or Path(__file__).resolve().parents[1])


def _decide(bot: Any, deal: Deal) -> None:
    """The bot's decision at the deal's current seat, through the wire view as a worker gets
    it (:func:`atout.server.botpool.decide`), applied."""
    from atout.engine.wire import view_from_json

    data = json.loads(json.dumps(deal.view(deal.current_player).to_json()))
    view = view_from_json(data)
    deal.apply(bot.choose(view, view.legal_actions))


def play_openings(bot_spec: str = BOT, cards: int = 2) -> None:
    """In each game, a deal of throwaway bots: every decision up to the card play, then ``cards``
    cards (the bidding, the écart and the search of the card play call every kernel the bots
    use: ``tests/bots/test_warm.py`` plays whole deals to check it)."""
    from atout.bots import make_bot

    for rules in GAMES.values():
        deal = new_deal(rules(), rng=0)
        bots = [make_bot(bot_spec, rng=seat) for seat in range(deal.rules.players)]
        played = 0
        while not deal.is_over() and played < cards:
            if is_card_play(deal):
                played += 1
            _decide(bots[deal.current_player], deal)


def warm_up(solver: bool = True) -> dict[str, float]:
    """Compile every kernel (or load it from numba's cache): the bots' first decisions in every
    game, then the playouts and, with ``solver``, the exact solver's tiny solves and the batched
    simulator's deals of every game (the tools' kernels, which no bot at a table uses). The
    seconds each part took, by name; nothing when numba is not installed."""
    if not AVAILABLE:
        return {}
    from atout.bots.rules import kernel

    took: dict[str, float] = {}
    start = time.perf_counter()
    play_openings()
    took["bots"] = time.perf_counter() - start
    start = time.perf_counter()
    kernel.warm_up()
    took["playouts"] = time.perf_counter() - start
    if solver:
        from atout.solver import fast

        took["solver"] = fast.warm_up()
        start = time.perf_counter()
        for name in BATCHED_MODULES:
            importlib.import_module(name).warm_up()
        took["batched"] = time.perf_counter() - start
    return took


__all__ = [
    "BATCHED_MODULES",
    "BOT",
    "BOT_MODULES",
    "GAMES",
    "KERNEL_MODULES",
    "cache_folder",
    "cached",
    "entry_points",
    "kernels",
    "play_openings",
    "signatures",
    "warm_up",
]

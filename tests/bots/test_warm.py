"""The warm-up (``atout warm-up``, and each bot worker of the server at its start) covers every
compiled kernel: after it, numba's on-disk cache holds each kernel Python calls, and whole deals
of every game by the expert bots compile or load nothing more.

numba comes with the ``solver-fast`` extra; without it these tests skip, except under CI=true.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from atout.bots import make_bot
from atout.bots import warm as warm_module
from atout.bots.warm import (
    BOT_MODULES,
    GAMES,
    KERNEL_MODULES,
    entry_points,
    kernels,
    signatures,
    warm_up,
)
from atout.games import new_deal
from atout.jit import AVAILABLE

pytestmark = pytest.mark.skipif(
    not AVAILABLE and os.environ.get("CI") != "true", reason="numba is not installed"
)

SOURCE = Path(warm_module.__file__).resolve().parents[1]


def test_every_module_that_compiles_is_warmed() -> None:
    """Each module that imports atout.jit is one of the warm-up's kernel modules."""
    compiling = set()
    for path in SOURCE.rglob("*.py"):
        if re.search(r"^from atout\.jit import|^import atout\.jit", path.read_text(), re.M):
            compiling.add(".".join(("atout", *path.relative_to(SOURCE).with_suffix("").parts)))
    compiling.discard("atout.bots.warm")
    assert compiling == set(KERNEL_MODULES)


def test_warm_up_puts_every_kernel_in_the_on_disk_cache() -> None:
    """After the warm-up each kernel Python calls has an index in numba's cache with an entry
    for these sources, and every type compiled or loaded here can be loaded from the cache."""
    assert AVAILABLE
    took = warm_up(solver=True)
    assert set(took) == {"bots", "playouts", "solver", "batched"}
    points = entry_points()
    # the solver's, the playouts' and the dealings' entry points at least
    for name in ("_search_jit", "_playout_jit", "_evaluate_jit", "_judge_world_jit", "_deal"):
        assert any(key.endswith(f".{name}") for key in points), name
    missing = [name for name, d in points.items() if not d._cache._cache_file._load_index()]
    assert missing == []
    loaded = {name: d for name, d in kernels().items() if d.signatures}
    assert set(points) & set(loaded)
    not_cached = [name for name, d in loaded.items() if not warm_module.cached(d)]
    assert not_cached == []


@pytest.mark.parametrize("game", sorted(GAMES))
def test_whole_deals_need_no_kernel_the_warm_up_did_not_load(game: str) -> None:
    """A whole deal of expert bots, after the warm-up, calls no kernel with types it has not
    compiled or loaded: a bot worker warmed at its start never compiles during a game."""
    assert AVAILABLE
    warm_up(solver=False)
    before = signatures(BOT_MODULES)
    for seed in (1, 2):
        deal = new_deal(GAMES[game](), rng=seed)
        bots = [make_bot("expert:fast", rng=seed * 10 + seat) for seat in range(deal.rules.players)]
        while not deal.is_over():
            seat = deal.current_player
            deal.apply(bots[seat].choose(deal.view(seat), deal.legal_actions()))
    assert signatures(BOT_MODULES) == before

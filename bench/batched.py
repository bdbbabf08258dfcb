"""Speed of the batched simulator on one core: full random deals per second for every game.

Run ``.venv/bin/python bench/batched.py [--seconds S] [--seed N] [--json]`` (needs the
``solver-fast`` extra for numba; OpenSpiel's ``tarok`` is timed too when the ``rl`` extra is
installed). The process is pinned to one core. Every row plays whole deals with uniformly random
legal actions:

* ``compiled``: :func:`atout.batched.random_deals`, the deals dealt and played in compiled code;
* ``stepped``: :class:`atout.batched.BatchedDeals` of 1024 deals stepped from Python with
  :meth:`~atout.batched.BatchedDeals.random_actions` (decisions per second in ``steps/s``);
* ``tarok (C++)``: OpenSpiel's Slovenian Tarok for 4 players (54 cards), its chance and player
  nodes driven from Python by a uniformly random driver, as OpenSpiel's random simulation does.

Rates are per second of this process's CPU time (the machine may be shared; the wall-clock rate
is in the JSON output); the last line is French Tarot for 4 players compiled, as a multiple of
``tarok``. Kernels are compiled (or loaded from numba's cache) before timing.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from rich.console import Console
from rich.table import Table

from atout.presets import rules_for
from atout.rules import Rules

GAMES: dict[str, Rules] = {
    "french 4": rules_for("fft", players=4),
    "french 3": rules_for("fft", players=3),
    "french 5": rules_for("fft", players=5),
    "french 5, dead player": rules_for("fft", players=5, five_player_mode="dead_player"),
    "french 2": rules_for("fft", players=2),
    "austrian 3": rules_for("tarock"),
}
CHUNK = 50_000
"""Deals per call of the compiled loop."""
BATCH = 1024
"""Deals per batch of the stepped simulator."""


@dataclass
class Row:
    """One game's figures, or why it was not measured."""

    game: str
    way: str
    deals: int = 0
    steps: int = 0
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    note: str = ""

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.cpu_seconds if self.cpu_seconds else 0.0

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.cpu_seconds if self.cpu_seconds else 0.0


def _timed(row: Row, seconds: float, run: Callable[[], tuple[int, int]]) -> Row:
    """Call ``run`` (returning deals and steps done) until ``seconds`` of CPU time are spent."""
    cpu, wall = time.process_time(), time.perf_counter()
    while row.cpu_seconds < seconds:
        deals, steps = run()
        row.deals += deals
        row.steps += steps
        row.cpu_seconds = time.process_time() - cpu
        row.wall_seconds = time.perf_counter() - wall
    return row


def bench_compiled(name: str, rules: Rules, seconds: float, seed: int) -> Row:
    from atout.batched import random_deals

    row = Row(name, "compiled")
    try:
        random_deals(rules, 8, seed=seed)  # compiled or loaded before timing
    except Exception as exc:
        row.note = f"not measured: {exc}"
        return row
    seeds = iter(range(seed, seed + 10**9))

    def run() -> tuple[int, int]:
        random_deals(rules, CHUNK, seed=next(seeds))
        return CHUNK, 0

    return _timed(row, seconds, run)


def bench_stepped(name: str, rules: Rules, seconds: float, seed: int) -> Row:
    from atout.batched import BatchedDeals

    row = Row(name, "stepped")
    try:
        batch = BatchedDeals(rules, BATCH, seed=seed)
        batch.step(batch.random_actions())
    except Exception as exc:
        row.note = f"not measured: {exc}"
        return row

    def run() -> tuple[int, int]:
        batch.reset()
        steps = 0
        while not batch.done().all():
            actions = batch.random_actions()
            steps += int((actions >= 0).sum())
            batch.step(actions)
        return BATCH, steps

    return _timed(row, seconds, run)


def spiel_random_deal(game: Any, draw: Callable[[], float]) -> Callable[[], tuple[int, int]]:
    """One whole deal of an OpenSpiel game per call, as OpenSpiel's random simulation plays it:
    chance outcomes drawn by their probability, the players' actions uniformly among the legal
    ones. Returns ``(1, decisions)``: chance steps are not counted."""

    def run() -> tuple[int, int]:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r, acc, action = draw(), 0.0, outcomes[-1][0]
                for outcome, probability in outcomes:
                    acc += probability
                    if r < acc:
                        action = outcome
                        break
                state.apply_action(action)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(draw() * len(legal))])
                steps += 1
        return 1, steps

    return run


def bench_tarok(seconds: float, seed: int) -> Row:
    row = Row("tarok 4 (OpenSpiel C++)", "from Python")
    try:
        import pyspiel
    except ImportError as exc:
        row.note = f"not measured: {exc}"
        return row
    game = pyspiel.load_game("tarok", {"players": 4, "rng_seed": seed})
    run = spiel_random_deal(game, random.Random(seed).random)
    run()
    row.note = f"open-spiel {importlib.metadata.version('open-spiel')}"
    return _timed(row, seconds, run)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per row (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    rows = [bench_compiled(name, rules, args.seconds, args.seed) for name, rules in GAMES.items()]
    rows += [bench_stepped(name, rules, args.seconds, args.seed) for name, rules in GAMES.items()]
    tarok = bench_tarok(args.seconds, args.seed)
    rows.append(tarok)
    french = rows[0]
    ratio = french.deals_per_second / tarok.deals_per_second if tarok.deals_per_second else None
    result = {
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "rows": [
            {**asdict(r), "deals_per_second": r.deals_per_second, "steps_per_second": r.steps_per_second}
            for r in rows
        ],
        "french_4_compiled_over_tarok": ratio,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return result
    table = Table(title="Batched simulator, one core (rates per CPU second)")
    for column in ("game", "way", "deals/s", "steps/s", "note"):
        table.add_column(column, justify="right" if column.endswith("/s") else "left")
    for r in rows:
        table.add_row(
            r.game,
            r.way,
            f"{r.deals_per_second:,.0f}" if r.deals else "-",
            f"{r.steps_per_second:,.0f}" if r.steps else "-",
            r.note,
        )
    Console().print(table)
    if ratio is not None:
        print(f"french 4 compiled / tarok (C++): {ratio:.1f}x")
    return result


if __name__ == "__main__":
    main()

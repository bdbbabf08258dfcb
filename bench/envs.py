"""Speed of the research environments, in one run on one core: atout's PettingZoo environment,
its OpenSpiel game, its batched simulator, and OpenSpiel's C++ ``tarok`` driven from Python.

Run ``.venv/bin/python bench/envs.py [--seconds S] [--seed N] [--json]`` (needs the ``rl`` and
``solver-fast`` extras: ``pip install -e '.[rl,solver-fast]'``). Every row is French Tarot for 4
players (FFT rules) but the last, and every decision is uniformly random among the legal ones:

* ``pettingzoo``: ``atout.envs.pettingzoo.env`` (``debug_views=False``: no wire view in the
  infos), one ``step`` per decision, the action drawn from the observation's action mask
  (observations and masks are built at every step, as a learner gets them);
* ``openspiel``: ``python_atout_french(players=4)`` driven as OpenSpiel's random simulation does
  (chance outcomes drawn by their probability: the deal is 78 chance steps, not counted as steps);
* ``batched (stepped)``: :class:`atout.batched.BatchedDeals`, a batch of deals stepped together
  from Python, each step drawing every deal's action from its legal mask;
* ``batched (compiled)``: :func:`atout.batched.random_deals`, whole random deals in compiled code;
* ``tarok (C++)``: OpenSpiel's ``tarok`` (Slovenian Tarok, 54 cards, 4 players), driven from
  Python like ``openspiel``. Random bidding there mostly picks contracts that end at the first lost
  trick, so its deals are far shorter than French Tarot's: steps per deal says by how much.

The rows are run in turn, ``--rounds`` times over (each row's best round is kept), so that a
change in the machine's load touches every row alike. ``deals/s`` counts whole deals (cancelled
ones included, as the engine counts them), ``steps/s`` the decisions applied (chance steps
excluded). The last line gives the batched simulator's full random deals per second as a multiple
of ``tarok``'s, measured in this run.
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

BATCH = 1024
"""Deals per batch for the stepped batched simulator."""
COMPILED_CHUNK = 20_000
"""Deals per call of the compiled random-deal loop."""


@dataclass
class Row:
    """One environment's figures, or why it was not measured."""

    name: str
    deals: int = 0
    steps: int = 0
    seconds: float = 0.0
    note: str = ""

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds if self.seconds else 0.0

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0


def _timed(name: str, seconds: float, episode: Callable[[], int]) -> Row:
    """Run ``episode`` (one deal, returning its decisions) again and again for ``seconds``."""
    row = Row(name)
    start = time.perf_counter()
    while True:
        row.steps += episode()
        row.deals += 1
        row.seconds = time.perf_counter() - start
        if row.seconds >= seconds:
            return row


def bench_pettingzoo(seconds: float, seed: int) -> Row:
    try:
        from atout.envs.pettingzoo import env as make_env
    except ImportError as exc:
        return Row("pettingzoo", note=f"not measured: {exc}")
    environment = make_env(rules=rules_for("fft", players=4), debug_views=False)
    rng = random.Random(seed)
    environment.reset(seed=seed)

    def episode() -> int:
        environment.reset(seed=rng.getrandbits(31))
        steps = 0
        for _agent in environment.agent_iter():
            observation, _reward, terminated, truncated, _info = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            environment.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        return steps

    episode()  # warm-up
    return _timed("pettingzoo", seconds, episode)


def _spiel_episode(game: Any, rng: random.Random) -> Callable[[], int]:
    draw = rng.random

    def episode() -> int:
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
        return steps

    return episode


def bench_openspiel(seconds: float, seed: int) -> Row:
    try:
        import pyspiel

        import atout.envs.openspiel  # noqa: F401  (registers the games)
    except ImportError as exc:
        return Row("openspiel", note=f"not measured: {exc}")
    game = pyspiel.load_game("python_atout_french(players=4)")
    episode = _spiel_episode(game, random.Random(seed))
    episode()
    return _timed("openspiel", seconds, episode)


def bench_tarok(seconds: float, seed: int) -> Row:
    try:
        import pyspiel
    except ImportError as exc:
        return Row("tarok (C++)", note=f"not measured: {exc}")
    game = pyspiel.load_game("tarok", {"players": 4, "rng_seed": seed})
    episode = _spiel_episode(game, random.Random(seed))
    episode()
    row = _timed("tarok (C++)", seconds, episode)
    row.note = f"open-spiel {importlib.metadata.version('open-spiel')}, Slovenian Tarok, 54 cards"
    return row


def bench_batched_stepped(seconds: float, seed: int) -> Row:
    try:
        import numpy as np

        from atout.batched import BatchedDeals
    except ImportError as exc:
        return Row("batched (stepped)", note=f"not measured: {exc}")
    batch = BatchedDeals(rules_for("fft", players=4), BATCH, seed=seed)
    generator = np.random.default_rng(seed)

    def run_batch() -> int:
        batch.reset(int(generator.integers(2**31)))
        steps = 0
        while not batch.done().all():
            mask = batch.legal_mask()
            live = mask.any(axis=1)
            # a random legal action per deal: the largest of random keys over the legal ones
            keys = np.where(mask, generator.random(mask.shape), -1.0)
            batch.step(keys.argmax(axis=1))
            steps += int(live.sum())
        return steps

    run_batch()
    row = Row("batched (stepped)", note=f"batches of {BATCH}")
    start = time.perf_counter()
    while row.seconds < seconds:
        row.steps += run_batch()
        row.deals += BATCH
        row.seconds = time.perf_counter() - start
    return row


def bench_batched_compiled(seconds: float, seed: int) -> Row:
    try:
        from atout.batched import random_deals
    except ImportError as exc:
        return Row("batched (compiled)", note=f"not measured: {exc}")
    rules = rules_for("fft", players=4)
    random_deals(rules, 100, seed=seed)  # compiled, or loaded from the cache
    row = Row("batched (compiled)", note="steps not counted: whole deals in one call")
    start = time.perf_counter()
    chunk = 0
    while row.seconds < seconds:
        random_deals(rules, COMPILED_CHUNK, seed=seed + chunk)
        chunk += 1
        row.deals += COMPILED_CHUNK
        row.seconds = time.perf_counter() - start
    return row


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per row (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rounds", type=int, default=3, help="rounds over every row; each row's best is kept (default 3)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be positive and --rounds at least 1")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    benches = (bench_pettingzoo, bench_openspiel, bench_batched_stepped, bench_batched_compiled, bench_tarok)
    rounds = [[bench(args.seconds, args.seed + r) for bench in benches] for r in range(args.rounds)]
    rows = [max(runs, key=lambda row: row.deals_per_second) for runs in zip(*rounds, strict=True)]
    by_name = {row.name: row for row in rows}
    tarok, compiled = by_name["tarok (C++)"], by_name["batched (compiled)"]
    ratio = compiled.deals_per_second / tarok.deals_per_second if tarok.deals and compiled.deals else None
    machine = f"Python {platform.python_version()}, {platform.machine()}, load {os.getloadavg()[0]:.2f}"
    if args.json:
        print(
            json.dumps(
                {
                    "machine": machine,
                    "rows": [
                        {
                            **asdict(r),
                            "deals_per_second": r.deals_per_second,
                            "steps_per_second": r.steps_per_second,
                        }
                        for r in rows
                    ],
                    "batched_over_tarok_deals": ratio,
                },
                indent=2,
            )
        )
        return
    console = Console(width=max(120, Console().width))
    console.print(machine, markup=False)
    table = Table(title="Random full deals, one core (French Tarot 4 players, FFT; tarok: its own game)")
    for column in ("environment", "deals/s", "steps/s", "steps/deal", "deals", "note"):
        table.add_column(column, justify="left" if column in ("environment", "note") else "right")
    for row in rows:
        if not row.deals:
            table.add_row(row.name, "-", "-", "-", "-", row.note)
            continue
        per_deal = f"{row.steps / row.deals:.1f}" if row.steps else "-"
        steps = f"{row.steps_per_second:,.0f}" if row.steps else "-"
        table.add_row(row.name, f"{row.deals_per_second:,.0f}", steps, per_deal, f"{row.deals:,}", row.note)
    console.print(table)
    if ratio is not None:
        console.print(f"batched (compiled) full random deals per second: {ratio:.1f}× OpenSpiel's C++ tarok")
    sys.stdout.flush()


if __name__ == "__main__":
    main()

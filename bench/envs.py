"""Speed of the research environments, in one run on one core: atout's PettingZoo environment,
its OpenSpiel game, its batched simulator, and OpenSpiel's C++ ``tarok`` driven from Python.

Run ``.venv/bin/python bench/envs.py [--seconds S] [--rounds R] [--seed N] [--json]`` (needs the
``rl`` and ``solver-fast`` extras: ``pip install -e '.[rl,solver-fast]'``). Every row is French
Tarot for 4 players (FFT rules) but the last, and every decision is uniformly random among the
legal ones:

* ``pettingzoo``: ``atout.envs.pettingzoo.env`` (``debug_views=False``: no wire view in the
  infos), one ``step`` per decision, the action drawn from the observation's action mask
  (observations and masks are built at every step, as a learner gets them);
* ``openspiel``: ``python_atout_french(players=4)`` driven as OpenSpiel's random simulation does
  (chance outcomes drawn by their probability: the deal is 78 chance steps, not counted as steps);
* ``batched, stepped``: :class:`atout.batched.BatchedDeals`, 1024 deals stepped together from
  Python with their random legal actions;
* ``batched, compiled``: :func:`atout.batched.random_deals`, whole random deals in compiled code;
* ``tarok (C++)``: OpenSpiel's ``tarok`` (Slovenian Tarok, 54 cards, 4 players), driven from
  Python like ``openspiel``. Random bidding there mostly picks contracts that end at the first lost
  trick, so its deals are far shorter than French Tarot's: steps per deal says by how much.

The process is pinned to one core and rates are per second of its CPU time (as in
``bench/batched.py``, whose rows this reuses). The rows are run in turn, ``--rounds`` times over
(each row's best round is kept), so that a change in the machine's load touches every row alike.
``deals/s`` counts whole deals (cancelled ones included, as the engine counts them), ``steps/s``
the decisions applied. The last line gives the batched simulator's full random deals per second
as a multiple of ``tarok``'s, measured in this run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
from collections.abc import Callable
from dataclasses import asdict

from rich.console import Console
from rich.table import Table

from atout.presets import rules_for
from batched import BATCH, Row, _timed, bench_compiled, bench_stepped, bench_tarok, spiel_random_deal

RULES = rules_for("fft", players=4)


def bench_pettingzoo(seconds: float, seed: int) -> Row:
    row = Row("pettingzoo", "AEC env")
    try:
        from atout.envs.pettingzoo import env as make_env
    except ImportError as exc:
        row.note = f"not measured: {exc}"
        return row
    environment = make_env(rules=RULES, debug_views=False)
    rng = random.Random(seed)

    def run() -> tuple[int, int]:
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
        return 1, steps

    run()  # warm-up
    return _timed(row, seconds, run)


def bench_openspiel(seconds: float, seed: int) -> Row:
    row = Row("openspiel", "python_atout_french")
    try:
        import pyspiel

        import atout.envs.openspiel  # noqa: F401  (registers the games)
    except ImportError as exc:
        row.note = f"not measured: {exc}"
        return row
    run = spiel_random_deal(pyspiel.load_game("python_atout_french(players=4)"), random.Random(seed).random)
    run()
    return _timed(row, seconds, run)


BENCHES: dict[str, Callable[[float, int], Row]] = {
    "pettingzoo": bench_pettingzoo,
    "openspiel": bench_openspiel,
    "batched, stepped": lambda seconds, seed: bench_stepped("batched", RULES, seconds, seed),
    "batched, compiled": lambda seconds, seed: bench_compiled("batched", RULES, seconds, seed),
    "tarok (C++)": bench_tarok,
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="CPU seconds per row and round (default 5)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rounds", type=int, default=3, help="rounds over every row; each row's best is kept (default 3)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be positive and --rounds at least 1")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    rounds = [[bench(args.seconds, args.seed + r) for bench in BENCHES.values()] for r in range(args.rounds)]
    best = [max(runs, key=lambda row: row.deals_per_second) for runs in zip(*rounds, strict=True)]
    rows = dict(zip(BENCHES, best, strict=True))
    tarok, compiled = rows["tarok (C++)"], rows["batched, compiled"]
    ratio = compiled.deals_per_second / tarok.deals_per_second if tarok.deals and compiled.deals else None
    machine = f"Python {platform.python_version()}, {platform.machine()}, load {os.getloadavg()[0]:.2f}"
    if args.json:
        figures = [
            {
                **asdict(r),
                "name": name,
                "deals_per_second": r.deals_per_second,
                "steps_per_second": r.steps_per_second,
            }
            for name, r in rows.items()
        ]
        print(json.dumps({"machine": machine, "rows": figures, "batched_over_tarok_deals": ratio}, indent=2))
        return
    console = Console(width=max(120, Console().width))
    console.print(machine, markup=False)
    title = "Random full deals, one core, per CPU second (French Tarot 4 players, FFT; tarok: its own game)"
    table = Table(title=title)
    for column in ("environment", "deals/s", "steps/s", "steps/deal", "deals", "note"):
        table.add_column(column, justify="left" if column in ("environment", "note") else "right")
    for name, row in rows.items():
        if not row.deals:
            table.add_row(name, "-", "-", "-", "-", row.note)
            continue
        per_deal = f"{row.steps / row.deals:.1f}" if row.steps else "-"
        steps = f"{row.steps_per_second:,.0f}" if row.steps else "-"
        note = row.note or (f"batches of {BATCH}" if name == "batched, stepped" else "")
        table.add_row(name, f"{row.deals_per_second:,.0f}", steps, per_deal, f"{row.deals:,}", note)
    console.print(table)
    if ratio is not None:
        console.print(f"batched (compiled) full random deals per second: {ratio:.1f}× OpenSpiel's C++ tarok")


if __name__ == "__main__":
    main()

"""Speed of the Austrian open-hand solver: nodes, nodes per second and solve time by cards per hand.

Run with ``.venv/bin/python bench/austrian_solver.py [--cards 3 4 5 6 7 8] [--positions P]
[--seed S] [--moves] [--compare-up-to K] [--json]``. Everything runs in this one Python process,
on one thread. The positions are random endings of Austrian Tarock with the default rules: a
seeded deal with uniformly random bids, talon choice, discard, game and cards, played until every
hand holds the given number of cards, at the start of a trick. Each position is solved by a fresh
:class:`~atout.solver.austrian.AustrianSolver` (empty transposition table): ``solve()``, or
``move_values()`` (every legal card's value, what the expert bot asks) with ``--moves``.

The second table solves the same positions (up to ``--compare-up-to`` cards per hand) with the
transposition table, the equivalent-card pruning, both, or the move ordering switched off, and
gives the ratio of nodes and time to the full solver; the values must agree.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from functools import partial
from typing import Any

from rich.console import Console
from rich.table import Table

from atout.rules import Rules
from atout.solver.austrian import AustrianPosition, AustrianSolver, random_ending

VARIANTS: dict[str, dict[str, bool]] = {
    "no TT": {"transposition": False},
    "no pruning": {"equivalence": False},
    "neither": {"transposition": False, "equivalence": False},
    "no ordering": {"ordering": False},
}


def positions(cards: int, count: int, seed: int) -> list[AustrianPosition]:
    rng = random.Random(seed * 1000 + cards)
    rules = Rules(game="austrian", players=3)
    return [AustrianPosition.from_deal(random_ending(rules, cards, rng)) for _ in range(count)]


def run(make: Any, moves: bool) -> tuple[int, int, float]:
    """(value, nodes, seconds) of one fresh solver: its value, or the best of its cards' values."""
    start = time.perf_counter()
    solver = make()
    if moves:
        values = solver.move_values()
        pos = solver.position
        value = (max if pos.maximizes(pos.player) else min)(values.values())
    else:
        value = solver.solve().value
    return value, solver.nodes, time.perf_counter() - start


def summary(runs: list[tuple[int, int, float]]) -> dict[str, float]:
    nodes = sum(r[1] for r in runs)
    seconds = sum(r[2] for r in runs)
    times = sorted(r[2] for r in runs)
    return {
        "nodes": nodes,
        "seconds": seconds,
        "mean_nodes": nodes / len(runs),
        "max_nodes": max(r[1] for r in runs),
        "nodes_per_s": nodes / seconds if seconds else 0.0,
        "median_s": statistics.median(times),
        "mean_s": seconds / len(runs),
        "max_s": times[-1],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, nargs="+", default=[3, 4, 5, 6, 7, 8])
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--moves", action="store_true", help="time move_values() instead of solve()")
    parser.add_argument(
        "--compare-up-to", type=int, default=0, help="largest hand size for the ablation table"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    rows: list[dict[str, Any]] = []
    ablation: list[dict[str, Any]] = []
    for cards in args.cards:
        todo = positions(cards, args.positions, args.seed)
        runs = [run(partial(AustrianSolver, pos), args.moves) for pos in todo]
        row: dict[str, Any] = {"cards": cards, "positions": len(todo), **summary(runs)}
        rows.append(row)
        print(f"{cards} cards: {row['seconds']:.1f}s", file=sys.stderr, flush=True)
        if cards <= args.compare_up_to:
            for name, options in VARIANTS.items():
                other = [run(partial(AustrianSolver, pos, **options), args.moves) for pos in todo]
                if [r[0] for r in other] != [r[0] for r in runs]:
                    raise SystemExit(f"{name}: the values differ from the full solver at {cards} cards")
                ablation.append(
                    {
                        "cards": cards,
                        "without": name,
                        "nodes_ratio": sum(r[1] for r in other) / row["nodes"],
                        "time_ratio": sum(r[2] for r in other) / row["seconds"],
                    }
                )
    machine = {"python": sys.version.split()[0], "platform": platform.platform()}
    if args.json:
        print(json.dumps({"machine": machine, "solve": rows, "ablation": ablation}, indent=2))
        return 0
    console = Console()
    what = "move_values()" if args.moves else "solve()"
    console.print(f"Python {machine['python']} on {machine['platform']}, one thread, {what}")
    table = Table(title=f"Austrian random endings ({args.positions} per row)")
    for col in ("cards/hand", "mean nodes", "max nodes", "nodes/s", "median s", "mean s", "max s"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            str(r["cards"]),
            f"{r['mean_nodes']:,.0f}",
            f"{r['max_nodes']:,}",
            f"{r['nodes_per_s']:,.0f}",
            f"{r['median_s']:.4f}",
            f"{r['mean_s']:.4f}",
            f"{r['max_s']:.4f}",
        )
    console.print(table)
    if ablation:
        abl = Table(title="Speed-ups switched off: nodes and time relative to the full solver")
        for col in ("cards/hand", "without", "nodes ×", "time ×"):
            abl.add_column(col, justify="right")
        for a in ablation:
            abl.add_row(str(a["cards"]), a["without"], f"{a['nodes_ratio']:.1f}", f"{a['time_ratio']:.1f}")
        console.print(abl)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

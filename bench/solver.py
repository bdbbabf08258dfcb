"""Speed of the exact open-hand solver: nodes per second and solve time by cards per hand.

Run with ``.venv/bin/python bench/solver.py [--players 4] [--cards 3 5 7 8] [--positions P]
[--seed S] [--compare-up-to K] [--json]``. Everything runs in this one Python process, on one
thread. The positions are random endings: a seeded random deal played with uniformly random
actions until every hand holds the given number of cards, at the start of a trick. Each
position is solved once by a fresh :class:`Solver` (empty transposition table).

The second table solves the same positions (up to ``--compare-up-to`` cards per hand) with the
transposition table, the equivalent-card pruning or both switched off, and gives the ratio of
nodes and time to the full solver; the values must agree, which the script checks.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from atout.rules import Rules
from atout.solver import Position, Solver
from atout.solver.position import random_ending

VARIANTS: dict[str, dict[str, bool]] = {
    "full": {},
    "no TT": {"transposition": False},
    "no pruning": {"equivalence": False},
    "neither": {"transposition": False, "equivalence": False},
}


def positions(players: int, cards: int, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed * 1000 + players * 100 + cards)
    return [Position.from_deal(random_ending(Rules(players=players), cards, rng)) for _ in range(count)]


def run(pos: Position, options: dict[str, bool]) -> tuple[int, int, float]:
    start = time.perf_counter()
    result = Solver(pos, **options).solve()
    return result.value, result.nodes, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--cards", type=int, nargs="+", default=[3, 5, 6, 7, 8])
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--compare-up-to", type=int, default=6, help="largest hand size for the ablation table"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    rows: list[dict[str, Any]] = []
    ablation: list[dict[str, Any]] = []
    for cards in args.cards:
        todo = positions(args.players, cards, args.positions, args.seed)
        runs = [run(p, {}) for p in todo]
        nodes = sum(r[1] for r in runs)
        seconds = sum(r[2] for r in runs)
        times = sorted(r[2] for r in runs)
        rows.append(
            {
                "players": args.players,
                "cards": cards,
                "positions": len(todo),
                "nodes_per_s": nodes / seconds if seconds else 0.0,
                "mean_nodes": nodes / len(todo),
                "median_s": statistics.median(times),
                "mean_s": seconds / len(todo),
                "max_s": times[-1],
            }
        )
        if cards <= args.compare_up_to:
            base = {"nodes": nodes, "seconds": seconds}
            for name, options in VARIANTS.items():
                if name == "full":
                    continue
                other = [run(p, options) for p in todo]
                if [r[0] for r in other] != [r[0] for r in runs]:
                    raise SystemExit(f"{name}: the values differ from the full solver at {cards} cards")
                ablation.append(
                    {
                        "cards": cards,
                        "without": name,
                        "nodes_ratio": sum(r[1] for r in other) / base["nodes"],
                        "time_ratio": sum(r[2] for r in other) / base["seconds"],
                    }
                )
    machine = {"python": sys.version.split()[0], "platform": platform.platform()}
    if args.json:
        print(json.dumps({"machine": machine, "solve": rows, "ablation": ablation}, indent=2))
        return 0
    console = Console()
    console.print(f"Python {machine['python']} on {machine['platform']}, one thread, pure Python")
    table = Table(title=f"Exact solve, {args.players} players, random endings ({args.positions} per row)")
    for col in ("cards/hand", "nodes/s", "mean nodes", "median s", "mean s", "max s"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            str(r["cards"]),
            f"{r['nodes_per_s']:,.0f}",
            f"{r['mean_nodes']:,.0f}",
            f"{r['median_s']:.3f}",
            f"{r['mean_s']:.3f}",
            f"{r['max_s']:.3f}",
        )
    console.print(table)
    if ablation:
        abl = Table(title="Speed-ups switched off: nodes and time relative to the full solver (same values)")
        for col in ("cards/hand", "without", "nodes ×", "time ×"):
            abl.add_column(col, justify="right")
        for a in ablation:
            abl.add_row(str(a["cards"]), a["without"], f"{a['nodes_ratio']:.1f}", f"{a['time_ratio']:.1f}")
        console.print(abl)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

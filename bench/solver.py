"""Speed of the exact open-hand solver: nodes per second and solve time by cards per hand.

Run with ``.venv/bin/python bench/solver.py [--players 3 4 5] [--cards 5 6 7 8] [--positions P]
[--seed S] [--moves] [--no-fast] [--python-up-to K] [--reference REV] [--reference-up-to K]
[--compare-up-to K] [--json]``. Everything runs in this one Python process, on one thread. The
positions are random endings: a seeded random deal played with uniformly random actions until
every hand holds the given number of cards, at the start of a trick. Each position is solved by
a fresh :class:`Solver` (empty transposition table): ``solve()``, or ``move_values()`` (every
legal card's value, what the expert bot asks) with ``--moves``.

For each position, back to back: the pure-Python search (``fast=False``; ``--python-up-to``
leaves it out above that hand size); the compiled search (numba, the ``solver-fast`` extra) if
it is installed, which must give the same value and the same node count; and with
``--reference REV`` the solver of that commit (its ``src/atout/solver/search.py``, read with
``git show``, over today's ``position.py``), up to ``--reference-up-to`` cards per hand, which
must give the same value. The ratios are totals over the row (reference nodes / nodes,
reference seconds / seconds), so slow positions weigh most.

The last table solves the same positions (up to ``--compare-up-to`` cards per hand) in Python
with the transposition table, the equivalent-card pruning or both switched off, and gives the
ratio of nodes and time to the full solver; the values must agree.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

from rich.console import Console
from rich.table import Table

from atout.rules import Rules
from atout.solver import Position, Solver
from atout.solver import fast as fast_search
from atout.solver.position import random_ending

VARIANTS: dict[str, dict[str, bool]] = {
    "no TT": {"transposition": False},
    "no pruning": {"equivalence": False},
    "neither": {"transposition": False, "equivalence": False},
}
ROOT = Path(__file__).resolve().parent.parent


def positions(players: int, cards: int, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed * 1000 + players * 100 + cards)
    return [Position.from_deal(random_ending(Rules(players=players), cards, rng)) for _ in range(count)]


def reference_module(rev: str) -> ModuleType:
    """The solver's search as it was at commit ``rev``, imported under another name."""
    source = subprocess.run(
        ["git", "show", f"{rev}:src/atout/solver/search.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "reference_search.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("reference_search", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["reference_search"] = module
    spec.loader.exec_module(module)
    return module


def run(make: Any, moves: bool) -> tuple[int, int, float]:
    """(value, nodes, seconds) of one fresh solver: its value, or the best of its cards' values."""
    start = time.perf_counter()
    solver = make()
    if moves:
        values = solver.move_values()
        value = (max if solver.position.attack[solver.position.player] else min)(values.values())
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
        "max_s": times[-1],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[4], choices=(3, 4, 5))
    parser.add_argument("--cards", type=int, nargs="+", default=[3, 5, 6, 7, 8])
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--moves", action="store_true", help="time move_values() instead of solve()")
    parser.add_argument("--no-fast", action="store_true", help="leave the compiled search out")
    parser.add_argument("--python-up-to", type=int, default=99, help="largest hand size for pure Python")
    parser.add_argument("--reference", metavar="REV", help="also run the solver of this commit")
    parser.add_argument("--reference-up-to", type=int, default=7, help="largest hand size for the reference")
    parser.add_argument(
        "--compare-up-to", type=int, default=0, help="largest hand size for the ablation table"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    use_fast = fast_search.AVAILABLE and not args.no_fast
    reference = reference_module(args.reference) if args.reference else None
    if use_fast:  # compile (or load from numba's cache) before timing anything
        fast_search.warm_up()
    rows: list[dict[str, Any]] = []
    ablation: list[dict[str, Any]] = []
    for players in args.players:
        for cards in args.cards:
            todo = positions(players, cards, args.positions, args.seed)
            python: list[tuple[int, int, float]] = []
            compiled: list[tuple[int, int, float]] = []
            old: list[tuple[int, int, float]] = []
            for pos in todo:
                mine = None
                if cards <= args.python_up_to:
                    python.append(run(partial(Solver, pos, fast=False), args.moves))
                    mine = python[-1]
                if use_fast:
                    compiled.append(run(partial(Solver, pos, fast=True), args.moves))
                    if mine is not None and compiled[-1][:2] != mine[:2]:
                        raise SystemExit(f"compiled search: {compiled[-1][:2]} != {mine[:2]} at {pos}")
                    mine = mine or compiled[-1]
                if reference is not None and cards <= args.reference_up_to:
                    old.append(run(partial(reference.Solver, pos), args.moves))
                    if mine is not None and old[-1][0] != mine[0]:
                        raise SystemExit(f"reference: {old[-1][0]} != {mine[0]} at {pos}")
            row: dict[str, Any] = {"players": players, "cards": cards, "positions": len(todo)}
            for key, runs in (("python", python), ("fast", compiled), ("reference", old)):
                if runs:
                    row[key] = summary(runs)
            rows.append(row)
            done = ", ".join(
                f"{key} {row[key]['seconds']:.1f}s" for key in ("python", "fast", "reference") if key in row
            )
            print(f"{players} players, {cards} cards: {done}", file=sys.stderr, flush=True)
            if cards <= args.compare_up_to and python:
                base = row["python"]
                for name, options in VARIANTS.items():
                    other = [run(partial(Solver, pos, fast=False, **options), args.moves) for pos in todo]
                    if [r[0] for r in other] != [r[0] for r in python]:
                        raise SystemExit(f"{name}: the values differ from the full solver at {cards} cards")
                    ablation.append(
                        {
                            "players": players,
                            "cards": cards,
                            "without": name,
                            "nodes_ratio": sum(r[1] for r in other) / base["nodes"],
                            "time_ratio": sum(r[2] for r in other) / base["seconds"],
                        }
                    )
    machine = {"python": sys.version.split()[0], "platform": platform.platform(), "numba": use_fast}
    if args.json:
        print(json.dumps({"machine": machine, "solve": rows, "ablation": ablation}, indent=2))
        return 0
    console = Console()
    what = "move_values()" if args.moves else "solve()"
    console.print(f"Python {machine['python']} on {machine['platform']}, one thread, {what}")

    def time_table(title: str, key: str) -> Table:
        table = Table(title=title)
        for col in ("players", "cards/hand", "mean nodes", "max nodes", "nodes/s", "median s", "max s"):
            table.add_column(col, justify="right")
        for r in rows:
            if key in r:
                p = r[key]
                table.add_row(
                    str(r["players"]),
                    str(r["cards"]),
                    f"{p['mean_nodes']:,.0f}",
                    f"{p['max_nodes']:,}",
                    f"{p['nodes_per_s']:,.0f}",
                    f"{p['median_s']:.4f}",
                    f"{p['max_s']:.4f}",
                )
        return table

    console.print(time_table(f"Pure Python, random endings ({args.positions} per row)", "python"))
    if use_fast:
        console.print(time_table("Compiled (numba): the same positions, values and nodes", "fast"))
    if reference is not None:
        console.print(time_table(f"Reference: the solver of {args.reference}, same positions", "reference"))
    if use_fast or reference is not None:
        ratios = Table(title="Ratios (totals over the row)")
        columns = ["players", "cards/hand"]
        if use_fast:
            columns.append("Python s ÷ numba s")
        if reference is not None:
            columns += ["ref nodes ÷ nodes", "ref s ÷ Python s"]
            if use_fast:
                columns.append("ref s ÷ numba s")
        for col in columns:
            ratios.add_column(col, justify="right")
        for r in rows:
            p, f, o = r.get("python"), r.get("fast"), r.get("reference")
            cells = [str(r["players"]), str(r["cards"])]
            if use_fast:
                cells.append(f"{p['seconds'] / f['seconds']:.1f}" if p and f else "-")
            if reference is not None:
                base = p or f
                cells.append(f"{o['nodes'] / base['nodes']:.1f}" if o and base else "-")
                cells.append(f"{o['seconds'] / p['seconds']:.1f}" if o and p else "-")
                if use_fast:
                    cells.append(f"{o['seconds'] / f['seconds']:.0f}" if o and f else "-")
            ratios.add_row(*cells)
        console.print(ratios)
    if ablation:
        abl = Table(title="Speed-ups switched off (Python): nodes and time relative to the full solver")
        for col in ("players", "cards/hand", "without", "nodes ×", "time ×"):
            abl.add_column(col, justify="right")
        for a in ablation:
            abl.add_row(
                str(a["players"]),
                str(a["cards"]),
                a["without"],
                f"{a['nodes_ratio']:.1f}",
                f"{a['time_ratio']:.1f}",
            )
        console.print(abl)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

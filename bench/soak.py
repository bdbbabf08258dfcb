"""Random simulation of every game, player count and preset, with every invariant checked.

Plays ``--deals`` random legal deals (default 20,000) for each table below, exactly as
``atout simulate`` does, over ``--workers`` processes, and prints one row per table:
deals played, invariants broken, and deals per second. Exits 1 if any invariant broke.

    .venv/bin/python bench/soak.py                 # 20,000 deals per table
    .venv/bin/python bench/soak.py --deals 2000 --json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rich.console import Console
from rich.table import Table

from atout.cli.simulate import run_simulation
from atout.presets import rules_for

# (preset, players, extra options): every game and player count under the defaults and under
# each preset, the dead-player table, and the house variants the engine plays, all at once.
HOUSE_VARIANTS = {
    "petit_sec_rule": "petit_imprenable",
    "excuse_sec_redeal": True,
    "misere_bonus": 10,
    "partial_slam": {"max_missing": 3},
    "bid_pousse": True,
}
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    *(("fft", n, {}) for n in (2, 3, 4, 5)),
    ("fft", 5, {"five_player_mode": "dead_player"}),
    *(("japanese", n, {}) for n in (2, 3, 4)),
    *(("chinese", n, {}) for n in (2, 3, 4, 5)),
    *(("czech", n, {}) for n in (3, 4, 5)),
    *(("french-sheet", n, {}) for n in (2, 3, 4, 5)),
    ("tarock", 3, {}),
    ("tarock", 3, {"austrian_scoring": "zero_sum", "austrian_talon_mode": "free_choice"}),
    ("tarock-seed", 3, {}),
    *(("fft", n, {**HOUSE_VARIANTS, "play_direction": "clockwise"}) for n in (3, 4, 5)),
]


def _label(options: dict[str, Any]) -> str:
    if options == {**HOUSE_VARIANTS, "play_direction": "clockwise"}:
        return "house variants, clockwise"
    return ", ".join(f"{k}={v}" for k, v in options.items()) or "-"


def soak(table: tuple[str, int, dict[str, Any]], deals: int, seed: int) -> dict[str, Any]:
    preset, players, options = table
    rules = rules_for(preset, {**options, "players": players})
    report = run_simulation(rules, deals, seed)
    return {
        "preset": preset,
        "players": players,
        "options": options,
        "label": _label(options),
        "deals": deals,
        "played": report["outcomes"].get("played", 0),
        "broken": len(report["broken"]),
        "first_broken": report["broken"][:3],
        "deals_per_second": report["deals_per_second"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=20_000, help="deals per table (default 20000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.workers < 1:
        parser.error("--deals and --workers must be at least 1")
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        rows = list(pool.map(soak, TABLES, [args.deals] * len(TABLES), [args.seed] * len(TABLES)))
    wall = time.perf_counter() - start
    if args.json:
        print(json.dumps({"rows": rows, "wall_seconds": round(wall, 1)}, indent=1))
    else:
        table = Table(title=f"Random deals with every invariant checked (seed {args.seed})")
        for name in ("preset", "players", "options", "deals", "played", "broken", "deals/s"):
            table.add_column(
                name,
                justify="right" if name in ("players", "deals", "played", "broken", "deals/s") else "left",
            )
        for row in rows:
            table.add_row(
                row["preset"],
                str(row["players"]),
                row["label"],
                f"{row['deals']:,}",
                f"{row['played']:,}",
                str(row["broken"]),
                f"{row['deals_per_second']:,.0f}",
            )
        console = Console()
        console.print(table)
        total = sum(r["deals"] for r in rows)
        broken = sum(r["broken"] for r in rows)
        console.print(
            f"{total:,} deals in {len(rows)} tables, {broken} broke an invariant; {wall:.0f} s wall"
        )
    return 1 if any(r["broken"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())

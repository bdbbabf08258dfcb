"""Fairness of the seat views: random deals of every game, every seat's view scanned after every action.

Run with ``.venv/bin/python bench/leaks.py [--deals N] [--seed S] [--twin-rate R] [--stream-rate T] [--json]``.
For each game (French Tarot for 2, 3, 4 and 5 players, 5 with a dead player, Austrian Tarock)
the ``N`` deals are shared out among the presets that apply and the game's house options
(:func:`atout.games.fairness.rule_sets`); each deal is played by uniformly random legal actions, and
after every action :class:`atout.games.fairness.Scanner` checks every seat's view against what the rule
book lets that seat know. In a share ``R`` of the states the acting seat's phase, turn and legal
actions are compared with twin deals (the cards it cannot see dealt again) and a card it cannot
see is tried, its refusal scanned for card names. After a share ``T`` of the deals a twin pair of
each kind the rules allow (:mod:`atout.games.twins`: a declined poignée or misère, the trumps a
poignée shows, the holder of the called king, cards swapped between hidden places) is played in
lockstep and the seat's streams of distinct views compared. The table gives, per game, the deals,
the views checked, the twin checks, the twin streams (pairs, rounds and views compared) and the
leaks found; the first leaks are printed, and the exit code is 1 if there is any.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from typing import Any

from rich.console import Console
from rich.table import Table

from atout.games.fairness import SWEPT_GAMES, Sweep, rule_sets, sweep

DEFAULT_DEALS = 10_000
DEFAULT_TWIN_RATE = 0.01
DEFAULT_STREAM_RATE = 0.005
SHOWN_LEAKS = 10


def sweep_game(
    game: str, deals: int, seed: int, twin_rate: float, stream_rate: float = DEFAULT_STREAM_RATE
) -> tuple[Sweep, int, float]:
    """The game's deals shared out among its rule sets: the sweep, the rule sets, the CPU time."""
    sets = rule_sets(game)
    found = Sweep()
    start = time.process_time()
    for i, (name, rules) in enumerate(sets.items()):
        share = deals // len(sets) + (i < deals % len(sets))
        before = len(found.leaks)
        sweep(
            rules,
            share,
            seed ^ zlib.crc32(f"{game}, {name}".encode()),
            twin_rate=twin_rate,
            found=found,
            stream_rate=stream_rate,
        )
        found.leaks[before:] = [f"{game}, {name}: {leak}" for leak in found.leaks[before:]]
    return found, len(sets), time.process_time() - start


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--deals", type=int, default=DEFAULT_DEALS, help=f"deals per game (default {DEFAULT_DEALS})"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and actions (default 1)")
    parser.add_argument(
        "--twin-rate",
        type=float,
        default=DEFAULT_TWIN_RATE,
        help=f"share of states checked against twin deals (default {DEFAULT_TWIN_RATE})",
    )
    parser.add_argument(
        "--stream-rate",
        type=float,
        default=DEFAULT_STREAM_RATE,
        help=f"share of deals after which twin pairs' streams are compared (default {DEFAULT_STREAM_RATE})",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    if not 0 <= args.twin_rate <= 1:
        parser.error("--twin-rate must be between 0 and 1")
    if not 0 <= args.stream_rate <= 1:
        parser.error("--stream-rate must be between 0 and 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    rows: list[dict[str, Any]] = []
    leaks: list[str] = []
    for game in SWEPT_GAMES:
        found, sets, seconds = sweep_game(game, args.deals, args.seed, args.twin_rate, args.stream_rate)
        leaks += found.leaks
        rows.append(
            {
                "game": game,
                "rule_sets": sets,
                "deals": found.deals,
                "views": found.views,
                "twin_checks": found.twins,
                "refusals": found.refusals,
                "wire_views": found.wire_views,
                "twin_streams": found.twin_streams,
                "stream_rounds": found.stream_rounds,
                "stream_views": found.stream_views,
                "leaks": len(found.leaks),
                "cpu_s": seconds,
            }
        )
    if args.json:
        json.dump({"options": vars(args), "games": rows, "leaks": leaks[:SHOWN_LEAKS]}, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 1 if leaks else 0
    console = Console(width=None if sys.stdout.isatty() else 160)
    table = Table(
        title=f"Leaks in the seat views (seed {args.seed}, twin rate {args.twin_rate}, "
        f"stream rate {args.stream_rate})"
    )
    for column in (
        "game",
        "rule sets",
        "deals",
        "views checked",
        "twin checks",
        "wire views",
        "twin streams",
        "stream rounds",
        "stream views",
        "leaks found",
        "CPU s",
        "views/s",
    ):
        table.add_column(column, justify="left" if column == "game" else "right", no_wrap=column == "game")
    for row in rows:
        table.add_row(
            row["game"],
            str(row["rule_sets"]),
            f"{row['deals']:,}",
            f"{row['views']:,}",
            f"{row['twin_checks']:,}",
            f"{row['wire_views']:,}",
            f"{row['twin_streams']:,}",
            f"{row['stream_rounds']:,}",
            f"{row['stream_views']:,}",
            str(row["leaks"]),
            f"{row['cpu_s']:.1f}",
            f"{row['views'] / max(row['cpu_s'], 1e-9):,.0f}",
        )
    console.print(table)
    for leak in leaks[:SHOWN_LEAKS]:
        console.print(leak, markup=False)
    if len(leaks) > SHOWN_LEAKS:
        console.print(f"... and {len(leaks) - SHOWN_LEAKS} more leaks")
    return 1 if leaks else 0


if __name__ == "__main__":
    sys.exit(main())

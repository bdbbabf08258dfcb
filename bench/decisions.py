"""How much each expert setting loses per card decision against the best card on the true deal.

Run with ``.venv/bin/python bench/decisions.py [--bots SPEC ...] [--players 4] [--deals N]
[--every K] [--seed S] [--truth-solver C] [--json]``. Deals are played by the rules bot in every
seat (so the inference model of the expert is exact). At every ``K``-th card decision of a
deal where the seat has at least two cards to play, each expert setting (``expert`` level strings such as
``fast`` or ``"fast,bid_inference=false"``) chooses a card from the seat's view alone, with the
same seed for every setting; then every legal card is valued on the **true deal** as the cheat
bot values it with ``solver_cards=C``: by the exact solver once every hand holds at most ``C`` cards (the seat's engine
score for the solved outcome), else by a playout with the rules bot in every seat (the seat's score). A
setting's loss at a decision is the best card's value minus its card's value (0 when it plays a
best card). The table gives each setting's mean loss in playout and in solver decisions, its CPU time per decision, and its paired difference from the first setting with
a 95% interval (normal, over decisions): the settings face the very same positions, so small
differences in card play separate here long before they do in arena scores, where one different
card changes the rest of the game. Before the endings, though, one rules-bot playout is a rough
judge of the best card: read the solver rows first.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from atout.bots.expert import ExpertBot
from atout.bots.expert.search import card_values
from positions import positive, rules_bot_card_decisions

EVALUATORS = ("playout", "solver")


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Each setting's losses, by evaluator, over the same decisions."""
    specs: list[str] = args.bots
    losses: dict[str, dict[str, list[float]]] = {s: {e: [] for e in EVALUATORS} for s in specs}
    seconds: dict[str, list[float]] = {s: [] for s in specs}
    rng = random.Random(args.seed)
    start = time.perf_counter()
    for deal, view, legal, number in rules_bot_card_decisions(args.players, args.deals, rng):
        if len(legal) < 2 or number % args.every:
            continue
        decision_seed = rng.getrandbits(63)
        chosen = {}
        for spec in specs:
            bot = ExpertBot.at_level(spec, rng=decision_seed)
            cpu = time.process_time()
            chosen[spec] = bot.choose(view, legal)
            seconds[spec].append(time.process_time() - cpu)
        values, _, evaluator = card_values(deal, view.seat, legal, args.truth_solver)
        if len(set(values.values())) > 1:
            best = max(values.values())
            for spec in specs:
                losses[spec][evaluator].append(best - values[chosen[spec]])
    return report(args, losses, seconds, time.perf_counter() - start)


def report(
    args: argparse.Namespace,
    losses: dict[str, dict[str, list[float]]],
    seconds: dict[str, list[float]],
    elapsed: float,
) -> dict[str, Any]:
    """The figures as plain values: per setting and evaluator, mean loss and the paired difference
    from the first setting with its 95% interval."""
    first = args.bots[0]
    rows = []
    for spec in args.bots:
        row: dict[str, Any] = {
            "bot": spec,
            "cpu_ms_mean": round(1000 * statistics.fmean(seconds[spec]), 2) if seconds[spec] else None,
        }
        for evaluator in EVALUATORS:
            mine, theirs = losses[spec][evaluator], losses[first][evaluator]
            diffs = [a - b for a, b in zip(mine, theirs, strict=True)]
            mean_diff = statistics.fmean(diffs) if diffs else 0.0
            half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
            row[evaluator] = {
                "decisions": len(mine),
                "mean_loss": round(statistics.fmean(mine), 4) if mine else None,
                "best_share": round(sum(x == 0 for x in mine) / len(mine), 4) if mine else None,
                "vs_first": round(mean_diff, 4),
                "ci95": [round(mean_diff - half, 4), round(mean_diff + half, 4)],
            }
        rows.append(row)
    return {
        "players": args.players,
        "deals": args.deals,
        "every": args.every,
        "seed": args.seed,
        "truth_solver": args.truth_solver,
        "seconds": round(elapsed, 1),
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", nargs="+", default=["fast", "fast,bid_inference=false"])
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--deals", type=positive, default=20)
    parser.add_argument("--every", type=positive, default=1, help="measure every K-th card decision")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--truth-solver", type=int, default=5, help="cards per hand from which the truth is solved"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    for spec in args.bots:
        try:
            ExpertBot.at_level(spec)
        except ValueError as exc:
            parser.error(str(exc))
    result = measure(args)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    table = Table(
        title=f"Loss per card decision against the best card on the true deal, {result['players']} players, "
        f"{result['deals']} rules-bot deals ({result['seconds']} s)"
    )
    for column in (
        "expert setting",
        "cpu ms",
        "evaluator",
        "decisions",
        "best card",
        "mean loss",
        "vs first",
        "95% CI",
    ):
        table.add_column(column, justify="left" if column in ("expert setting", "evaluator") else "right")
    for row in result["rows"]:
        for evaluator in EVALUATORS:
            cell = row[evaluator]
            if not cell["decisions"]:
                continue
            low, high = cell["ci95"]
            table.add_row(
                row["bot"],
                f"{row['cpu_ms_mean']:.1f}",
                evaluator,
                str(cell["decisions"]),
                f"{cell['best_share']:.1%}",
                f"{cell['mean_loss']:.3f}",
                f"{cell['vs_first']:+.3f}",
                f"[{low:+.3f}, {high:+.3f}]",
            )
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

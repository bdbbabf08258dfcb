"""Speed of the analysis of a finished deal (``atout.analysis``): seconds per deal, the first trick
solved within the time budget, nodes searched.

Run with ``.venv/bin/python bench/analysis.py [--games 4 3 5 austrian] [--deals N] [--seed S]
[--seconds B] [--bot rules] [--json]``. Each deal is shuffled from the seed and played to the end by
the bot at every seat (a deal everybody passes is dealt again); its record is analysed by
``analyse_record(record, seconds=B)`` in this process (the compiled solver loaded once beforehand,
as a server's worker has it). The second table gives, for each trick, how long solving it took
(its every card and the best line from it) over the deals that reached it.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from typing import Any

from atout.analysis import analyse_record
from atout.analysis import budget as analysis_budget
from atout.bots.registry import make_bot
from atout.games import Deal, new_deal
from atout.presets import rules_for
from atout.records import deal_to_record
from atout.rules import Rules
from atout.solver.search import fast_module

GAMES = {
    "3": Rules(players=3),
    "4": Rules(players=4),
    "5": Rules(players=5),
    "dead": Rules(players=5, five_player_mode="dead_player"),
    "austrian": rules_for("tarock"),
}


def played(rules: Rules, rng: random.Random, bot: str) -> Deal:
    """A deal played to the end by ``bot`` at every seat, with a contract."""
    while True:
        deal = new_deal(rules, dealer=rng.randrange(rules.players), rng=rng)
        bots = [make_bot(bot, rng=rng) for _ in range(rules.players)]
        while not deal.is_over():
            seat = deal.current_player
            deal.apply(bots[seat].choose(deal.view(seat), deal.legal_actions()))
        if deal.summary is not None:
            return deal


def run_game(name: str, deals: int, seed: int, seconds: float, bot: str) -> dict[str, Any]:
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    for _ in range(deals):
        record = deal_to_record(played(GAMES[name], rng, bot))
        began = time.perf_counter()
        analysis = analyse_record(record, seconds=seconds)
        spent = time.perf_counter() - began
        rows.append(
            {
                "seconds": spent,
                "from_trick": analysis.from_trick,
                "tricks": max(c.trick for c in analysis.cards),
                "nodes": analysis.nodes,
                "mistakes": len(analysis.mistakes),
                "trick_seconds": analysis.trick_seconds,
            }
        )
    times = [r["seconds"] for r in rows]
    starts = [r["from_trick"] for r in rows]
    per_trick: dict[int, list[float]] = {}
    for r in rows:
        for trick, s in r["trick_seconds"].items():
            per_trick.setdefault(trick, []).append(s)
    return {
        "game": name,
        "deals": deals,
        "tricks": rows[0]["tricks"],
        "median_s": statistics.median(times),
        "mean_s": statistics.fmean(times),
        "max_s": max(times),
        "from_trick_median": statistics.median(starts),
        "from_trick_best": min(starts),
        "from_trick_worst": max(starts),
        "mean_nodes": statistics.fmean(r["nodes"] for r in rows),
        "mean_mistakes": statistics.fmean(r["mistakes"] for r in rows),
        "per_trick": {t: (statistics.median(v), max(v), len(v)) for t, v in sorted(per_trick.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["4", "3", "5", "austrian"], choices=sorted(GAMES))
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=5.0, help="the analysis's time budget per deal")
    parser.add_argument("--bot", default="rules")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    module = fast_module()
    if module is not None:
        module.warm_up()
    results = [run_game(g, args.deals, args.seed, args.seconds, args.bot) for g in args.games]
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(
        f"Python {platform.python_version()}, compiled solver: {'yes' if module else 'no'}, "
        f"forked budget: {'yes' if analysis_budget.CAN_FORK else 'no'}; "
        f"{args.deals} deals a game, bot {args.bot}, seed {args.seed}, budget {args.seconds:g} s"
    )
    print()
    print(
        "| game | tricks | median s | mean s | max s | from_trick median (best-worst) | mean nodes | mistakes/deal |"
    )
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    for r in results:
        print(
            f"| {r['game']} | {r['tricks']} | {r['median_s']:.2f} | {r['mean_s']:.2f} | {r['max_s']:.2f} | "
            f"{r['from_trick_median']:g} ({r['from_trick_best']}-{r['from_trick_worst']}) | "
            f"{r['mean_nodes']:,.0f} | {r['mean_mistakes']:.1f} |"
        )
    for r in results:
        print()
        print(f"{r['game']}: seconds to solve each trick (median, max, deals that reached it)")
        print("| trick | median s | max s | deals |")
        print("|--:|--:|--:|--:|")
        for trick, (median, most, count) in sorted(r["per_trick"].items(), reverse=True):
            print(f"| {trick} | {median:.3f} | {most:.3f} | {count} |")


if __name__ == "__main__":
    main()

"""Decision time of each bot in each game: mean and p99 per decision, as a table.

Run with ``.venv/bin/python bench/bots.py [--deals N] [--seed S] [--json]``. Each game is played
to its end with the bot in every seat; only the bot's ``choose`` is timed (not the view).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from atout.bots import bot_names, make_bot
from atout.games import new_deal
from atout.rules import Rules

GAMES: dict[str, Rules] = {
    "french 2": Rules(players=2),
    "french 3": Rules(players=3),
    "french 4": Rules(players=4),
    "french 5": Rules(players=5),
    "french 5, dead player": Rules(players=5, five_player_mode="dead_player"),
    "austrian 3": Rules(game="austrian", players=3),
}


def decision_times(bot_name: str, rules: Rules, deals: int, seed: int) -> list[float]:
    """Seconds per decision of one bot playing every seat of ``deals`` deals."""
    times: list[float] = []
    clock = time.perf_counter
    for d in range(deals):
        deal = new_deal(rules, dealer=d % rules.players, rng=seed + d)
        bot = make_bot(bot_name, rng=seed + d)
        while not deal.is_over():
            seat = deal.current_player
            view, legal = deal.view(seat), deal.legal_actions()
            start = clock()
            action = bot.choose(view, legal)
            times.append(clock() - start)
            deal.apply(action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    for name in bot_names():
        for game, rules in GAMES.items():
            times = sorted(decision_times(name, rules, args.deals, args.seed))
            rows.append(
                {
                    "bot": name,
                    "game": game,
                    "decisions": len(times),
                    "mean_ms": round(1000 * statistics.fmean(times), 4),
                    "p99_ms": round(1000 * times[int(0.99 * (len(times) - 1))], 4),
                }
            )
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    table = Table(title=f"Decision time per bot and game ({args.deals} deals each)")
    for column in ("bot", "game", "decisions", "mean ms", "p99 ms"):
        table.add_column(column, justify="left" if column in ("bot", "game") else "right")
    for row in rows:
        table.add_row(
            row["bot"], row["game"], str(row["decisions"]), f"{row['mean_ms']:.4f}", f"{row['p99_ms']:.4f}"
        )
    Console().print(table)


if __name__ == "__main__":
    main()

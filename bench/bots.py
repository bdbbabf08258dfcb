"""Decision time of each bot in each game: mean and p99 per decision, as a table.

Run with ``.venv/bin/python bench/bots.py [--deals N] [--seed S] [--bots NAME ...] [--games GAME ...]
[--clock wall|cpu] [--json]``. Each game is played to its end with the bot in every seat; only the
bot's ``choose`` is timed (not the view). Besides all decisions, the table gives the card decisions
with a choice (two legal cards or more): mean, median and p99; and the other decisions with a
choice (bids, call, écart, talon half, game...): median and max. Bots are names or ``name:level``
(``expert:strong``); the default is every bot at its default level. ``--clock cpu`` times this
process's CPU time instead of the wall clock, for a machine busy with other work.
``--no-numba`` hides numba from the import: the pure-Python paths, which decide alike.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

if "--no-numba" in sys.argv:  # before atout is imported: its kernels then run as plain Python
    sys.modules["numba"] = None  # type: ignore[assignment]

from rich.console import Console
from rich.table import Table

from atout.bots import bot_names, make_bot
from atout.engine.actions import ACTIONS, ActionKind
from atout.engine.austrian import AustrianDeal
from atout.engine.austrian.actions import AustrianAction, AustrianActionKind
from atout.games import Deal, new_deal
from atout.rules import Rules

GAMES: dict[str, Rules] = {
    "french 2": Rules(players=2),
    "french 3": Rules(players=3),
    "french 4": Rules(players=4),
    "french 5": Rules(players=5),
    "french 5, dead player": Rules(players=5, five_player_mode="dead_player"),
    "austrian 3": Rules(game="austrian", players=3),
}


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
"""``wall``: elapsed time; ``cpu``: this process's CPU time, which other work on a busy machine
does not inflate."""


def decision_times(
    bot_name: str, rules: Rules, deals: int, seed: int, clock_name: str = "wall"
) -> tuple[list[float], list[float], list[float]]:
    """Seconds per decision of one bot playing every seat of ``deals`` deals: all decisions, the
    card decisions with a choice, and the other decisions with a choice (bids, call, écart...)."""
    times: list[float] = []
    card_times: list[float] = []
    other_times: list[float] = []
    clock = CLOCKS[clock_name]
    for d in range(deals):
        deal = new_deal(rules, dealer=d % rules.players, rng=seed + d)
        bot = make_bot(bot_name, rng=seed + d)
        while not deal.is_over():
            seat = deal.current_player
            view, legal = deal.view(seat), deal.legal_actions()
            start = clock()
            action = bot.choose(view, legal)
            times.append(clock() - start)
            if len(legal) > 1:
                (card_times if is_card_play(deal, legal[0]) else other_times).append(times[-1])
            deal.apply(action)
    return times, card_times, other_times


def is_card_play(deal: Deal, action: int) -> bool:
    """Whether ``action`` plays a card (the decision is a card play)."""
    if isinstance(deal, AustrianDeal):
        return AustrianAction(action).kind is AustrianActionKind.PLAY
    return ACTIONS[action].kind is ActionKind.PLAY


def _ms(times: list[float], q: float) -> float:
    return round(1000 * times[int(q * (len(times) - 1))], 4) if times else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bots", nargs="+", default=list(bot_names()), help="names or name:level")
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES), metavar="GAME")
    parser.add_argument("--clock", choices=list(CLOCKS), default="wall", help="wall time or CPU time")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-numba", action="store_true", help="time the pure-Python paths")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    for name in args.bots:
        for game in args.games:
            all_times, card_times, other_times = decision_times(
                name, GAMES[game], args.deals, args.seed, args.clock
            )
            times, cards, others = sorted(all_times), sorted(card_times), sorted(other_times)
            rows.append(
                {
                    "bot": name,
                    "game": game,
                    "decisions": len(times),
                    "mean_ms": round(1000 * statistics.fmean(times), 4),
                    "p99_ms": _ms(times, 0.99),
                    "card_choices": len(cards),
                    "card_mean_ms": round(1000 * statistics.fmean(cards), 4) if cards else 0.0,
                    "card_median_ms": _ms(cards, 0.5),
                    "card_p99_ms": _ms(cards, 0.99),
                    "other_choices": len(others),
                    "other_median_ms": _ms(others, 0.5),
                    "other_max_ms": _ms(others, 1.0),
                }
            )
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    table = Table(title=f"Decision time per bot and game ({args.deals} deals each, {args.clock} clock)")
    columns = ["bot", "game", "decisions", "mean ms", "p99 ms", "card choices", "mean", "median", "p99"]
    columns += ["other choices", "median", "max"]
    for column in columns:
        table.add_column(column, justify="left" if column in ("bot", "game") else "right")
    for row in rows:
        table.add_row(
            row["bot"],
            row["game"],
            str(row["decisions"]),
            f"{row['mean_ms']:.4f}",
            f"{row['p99_ms']:.4f}",
            str(row["card_choices"]),
            f"{row['card_mean_ms']:.2f}",
            f"{row['card_median_ms']:.2f}",
            f"{row['card_p99_ms']:.2f}",
            str(row["other_choices"]),
            f"{row['other_median_ms']:.2f}",
            f"{row['other_max_ms']:.2f}",
        )
    Console().print(table)


if __name__ == "__main__":
    main()

"""What a hint costs: the time a bot worker takes to answer ``{"type": "hint"}``, by kind of decision.

Run with ``.venv/bin/python bench/hints.py [--deals N] [--seed S] [--games GAME ...] [--clock wall|cpu]``.
Deals are played by the rules bot in every seat; at every decision with a choice, the seat's wire
view (as the table encodes it) goes through :func:`atout.bots.hint.hint_json`, the whole of a bot
worker's part: reading the view, the strongest bot's decision and its reason. The table gives, per
game and kind of hint (``search``: a card; ``simulation``: a bid, call, écart or Austrian
declaration; ``rules``: the rules bot's, no figures), the hints timed, the median, p95 and longest
time, the mean worlds behind the figures and the mean size of the answer's JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict

from atout.bots import make_bot
from atout.bots.hint import hint_json
from atout.games import new_deal
from atout.presets import rules_for
from atout.rules import Rules

GAMES: dict[str, Rules] = {
    "french 4": Rules(players=4),
    "french 3": Rules(players=3),
    "french 5": Rules(players=5),
    "french 2": Rules(players=2),
    "austrian 3": rules_for("tarock"),
}
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def _ms(times: list[float], q: float) -> float:
    ordered = sorted(times)
    return round(1000 * ordered[round(q * (len(ordered) - 1))], 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES), metavar="GAME")
    parser.add_argument("--clock", choices=list(CLOCKS), default="cpu")
    args = parser.parse_args()
    clock = CLOCKS[args.clock]
    hint_json(json.dumps(new_deal(Rules(players=4), rng=0).view(1).to_json()))  # kernels loaded first
    print(
        f"{'game':<11} {'kind':<11} {'hints':>5} {'median ms':>9} {'p95 ms':>7} {'max ms':>7} {'worlds':>6} {'bytes':>5}"
    )
    for game in args.games:
        rules = GAMES[game]
        rows: dict[str, list[tuple[float, int, int]]] = defaultdict(list)
        rules_bot = make_bot("rules")
        for d in range(args.deals):
            deal = new_deal(rules, dealer=d % rules.players, rng=args.seed + d)
            while not deal.is_over():
                view = deal.view(deal.current_player)
                if len(view.legal_actions) > 1:
                    text = json.dumps(view.to_json())
                    start = clock()
                    answer = hint_json(text)
                    spent = clock() - start
                    reason = answer["reason"]
                    rows[reason["method"]].append((spent, reason["worlds"], len(json.dumps(answer))))
                deal.apply(rules_bot.choose(view, view.legal_actions))
        for kind, got in sorted(rows.items()):
            times = [t for t, _, _ in got]
            worlds = statistics.fmean(w for _, w, _ in got)
            size = statistics.fmean(b for _, _, b in got)
            print(
                f"{game:<11} {kind:<11} {len(got):>5} {_ms(times, 0.5):>9} {_ms(times, 0.95):>7} "
                f"{_ms(times, 1.0):>7} {worlds:>6.0f} {size:>5.0f}"
            )


if __name__ == "__main__":
    main()

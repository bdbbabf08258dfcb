"""How fast worlds are drawn from a seat's view (:mod:`atout.engine.worlds`), for every game.

Run with ``.venv/bin/python bench/worlds.py [--deals N] [--draws K] [--seed S]``. Each game's
deals are played at random; at every fourth decision, each playing seat's view is read once
(:class:`~atout.engine.worlds.Resampler`) and ``K`` worlds are drawn from it. The table gives, per
game, the views, the mean time to read a view (the layout, and the count of its dealings), the
worlds drawn per second once read, and the share of views whose layout was too large to count
(dealt close to uniformly instead).
"""

from __future__ import annotations

import argparse
import random
import time

from atout.engine.worlds import Resampler
from atout.games import new_deal, playing_seats
from atout.presets import rules_for
from atout.rules import Rules

GAMES = {
    "french 3": Rules(players=3),
    "french 4": Rules(players=4),
    "french 5 (called king)": Rules(players=5),
    "french 5 (dead player)": Rules(players=5, five_player_mode="dead_player"),
    "2 players": Rules(players=2),
    "austrian": rules_for("tarock"),
}


def measure(rules: Rules, deals: int, draws: int, seed: int) -> tuple[int, float, float, float]:
    """Views, seconds to read one, worlds per second, share of views dealt without counting."""
    views = uncounted = 0
    reading = drawing = 0.0
    rng = random.Random(seed)
    for number in range(deals):
        deal = new_deal(rules, dealer=number % rules.players, rng=seed * 1000 + number)
        step = 0
        while not deal.is_over():
            if step % 4 == 0:
                for seat in playing_seats(deal):
                    view = deal.view(seat)
                    start = time.perf_counter()
                    resampler = Resampler(view)
                    resampler.draw(rng)
                    reading += time.perf_counter() - start
                    start = time.perf_counter()
                    for _ in range(draws):
                        resampler.draw(rng)
                    drawing += time.perf_counter() - start
                    views += 1
                    uncounted += not resampler.exact
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
            step += 1
    return views, reading / views, views * draws / drawing, uncounted / views


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--draws", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game':24} {'views':>6} {'read ms':>8} {'worlds/s':>9} {'uncounted':>9}")
    for name, rules in GAMES.items():
        views, read, rate, uncounted = measure(rules, args.deals, args.draws, args.seed)
        print(f"{name:24} {views:6d} {read * 1000:8.2f} {rate:9.0f} {uncounted:9.1%}")


if __name__ == "__main__":
    main()

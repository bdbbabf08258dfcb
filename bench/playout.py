"""Rules-bot playouts per second: the plain loop (a view per decision) against the fast driver.

Run with ``.venv/bin/python bench/playout.py [--positions N] [--repeats R] [--seed S]``.
For 3, 4 and 5 players, ``N`` start positions are drawn by playing seeded deals with the rules
bot: **first card** (bids, call and écart done, before the first card and its declarations) and
**mid-deal** (half the tricks played). Each position is cloned and played to the end of the deal
by :func:`~atout.bots.rules.playout.play_to_end_slow` and by
:func:`~atout.bots.rules.playout.play_to_end`, one after the other, position by position, so that
both drivers run under the same load (the machine may be shared); times are the process's CPU
time. A run plays every position; each rate is the best of ``R`` runs. The two drivers must play
the very same actions: the script checks it.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time

from atout.bots.rules import RulesBot
from atout.bots.rules.playout import play_to_end, play_to_end_slow
from atout.engine.french import FrenchDeal, Phase
from atout.rules import Rules

PLAYER_COUNTS = (3, 4, 5)
STARTS = ("first card", "mid-deal")
_BEFORE_PLAY = (Phase.BIDDING, Phase.CALL, Phase.DISCARD, Phase.CHELEM, Phase.EXCUSE_SEC)


def positions(players: int, start: str, count: int, seed: int) -> list[FrenchDeal]:
    """``count`` deals stopped at ``start``, played so far by the rules bot."""
    bot = RulesBot()
    rng = random.Random(seed)
    out: list[FrenchDeal] = []
    while len(out) < count:
        deal = FrenchDeal.new(Rules(players=players), dealer=rng.randrange(players), rng=rng.randrange(2**32))
        half = deal.n_tricks // 2
        while not deal.is_over():
            if start == "first card" and deal.phase not in _BEFORE_PLAY:
                break
            if start == "mid-deal" and deal.trick_no >= half:
                break
            deal.apply(bot.choose(deal.view(deal.current_player), deal.legal_actions()))
        if not deal.is_over():
            out.append(deal)
    return out


def timed(deals: list[FrenchDeal]) -> tuple[float, float]:
    """CPU seconds to play every deal (a clone of it) to its end by the plain loop and by the fast
    driver, position by position in turn; :class:`SystemExit` if the two play differently."""
    slow = fast = 0.0
    clock = time.process_time
    for deal in deals:
        first, second = deal.clone(), deal.clone()
        begin = clock()
        play_to_end_slow(first)
        middle = clock()
        play_to_end(second)
        end = clock()
        slow += middle - begin
        fast += end - middle
        if first.history != second.history or first.scores() != second.scores():
            raise SystemExit(f"the drivers played differently from {deal.history}")
    return slow, fast


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200, help="start positions per row")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    print(f"Python {platform.python_version()} on {platform.platform()}; load {load[0]:.2f}")
    print(f"{args.positions} playouts per row and driver, best of {args.repeats} runs (CPU time)")
    print()
    header = f"{'players':>7}  {'start':<10}  {'slow /s':>9}  {'fast /s':>9}  {'ratio':>6}  {'ms slow':>8}  {'ms fast':>8}"
    print(header)
    print("-" * len(header))
    ratios: list[float] = []
    for players in PLAYER_COUNTS:
        for start in STARTS:
            deals = positions(players, start, args.positions, args.seed * 1000 + players)
            slow_times: list[float] = []
            fast_times: list[float] = []
            for _ in range(args.repeats):
                slow, fast = timed(deals)
                slow_times.append(slow)
                fast_times.append(fast)
            slow, fast = min(slow_times), min(fast_times)
            ratios.append(slow / fast)
            print(
                f"{players:>7}  {start:<10}  {len(deals) / slow:>9.0f}  {len(deals) / fast:>9.0f}  "
                f"{slow / fast:>5.2f}x  {slow / len(deals) * 1e3:>8.3f}  {fast / len(deals) * 1e3:>8.3f}"
            )
    print()
    print(f"ratio (slow time / fast time): min {min(ratios):.2f}x, max {max(ratios):.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Rules-bot playouts per second: the plain loop (a view per decision), the fast driver, and the
compiled card play.

Run with ``.venv/bin/python bench/playout.py [--positions N] [--repeats R] [--seed S]``.
For 3, 4 and 5 players, ``N`` start positions are drawn by playing seeded deals with the rules
bot: **first card** (bids, call and écart done, before the first card and its declarations) and
**mid-deal** (half the tricks played). Each position is cloned and played to the end of the deal
by :func:`~atout.bots.rules.playout.play_to_end_slow` and by
:func:`~atout.bots.rules.playout.play_to_end`, one after the other, position by position, so that
both drivers run under the same load (the machine may be shared); times are the process's CPU
time. A run plays every position; each rate is the best of ``R`` runs. The two drivers must play
the very same actions: the script checks it. With numba installed (the ``solver-fast`` extra),
a third column plays each position by :func:`atout.bots.rules.kernel.finish` (the Python driver up
to the first card's declarations, then the compiled card play), which must give the same
scores.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time

from atout.bots.rules import RulesBot, kernel
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


def timed(deals: list[FrenchDeal]) -> tuple[float, float, float]:
    """CPU seconds to play every deal (a clone of it) to its end by the plain loop, the fast driver
    and (with numba; else 0) the compiled card play, position by position in turn;
    :class:`SystemExit` if they end differently."""
    slow = fast = compiled = 0.0
    clock = time.process_time
    for deal in deals:
        first, second, third = deal.clone(), deal.clone(), deal.clone()
        begin = clock()
        play_to_end_slow(first)
        middle = clock()
        play_to_end(second)
        end = clock()
        slow += middle - begin
        fast += end - middle
        if first.history != second.history or first.scores() != second.scores():
            raise SystemExit(f"the drivers played differently from {deal.history}")
        if kernel.AVAILABLE:
            begin = clock()
            outcome = kernel.finish(third)
            compiled += clock() - begin
            if outcome.scores != first.scores():
                raise SystemExit(f"the compiled card play ended differently from {deal.history}")
    return slow, fast, compiled


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
    if kernel.AVAILABLE:
        kernel.warm_up()
    else:
        print("numba is not installed: no compiled column (pip install -e '.[solver-fast]')")
    header = f"{'players':>7}  {'start':<10}  {'slow /s':>9}  {'fast /s':>9}  {'compiled /s':>11}"
    header += f"  {'ratio':>6}  {'compiled':>8}  {'ms slow':>8}  {'ms fast':>8}  {'ms compiled':>11}"
    print(header)
    print("-" * len(header))
    ratios: list[float] = []
    compiled_ratios: list[float] = []
    for players in PLAYER_COUNTS:
        for start in STARTS:
            deals = positions(players, start, args.positions, args.seed * 1000 + players)
            runs = [timed(deals) for _ in range(args.repeats)]
            slow, fast, compiled = (min(run[i] for run in runs) for i in range(3))
            ratios.append(slow / fast)
            count = len(deals)
            row = f"{players:>7}  {start:<10}  {count / slow:>9.0f}  {count / fast:>9.0f}  "
            if compiled:
                compiled_ratios.append(slow / compiled)
                row += f"{count / compiled:>11.0f}  {slow / fast:>5.2f}x  {slow / compiled:>7.1f}x  "
                row += (
                    f"{slow / count * 1e3:>8.3f}  {fast / count * 1e3:>8.3f}  {compiled / count * 1e3:>11.4f}"
                )
            else:
                row += f"{'-':>11}  {slow / fast:>5.2f}x  {'-':>8}  {slow / count * 1e3:>8.3f}  "
                row += f"{fast / count * 1e3:>8.3f}  {'-':>11}"
            print(row)
    print()
    print(f"ratio (slow time / fast time): min {min(ratios):.2f}x, max {max(ratios):.2f}x")
    if compiled_ratios:
        low, high = min(compiled_ratios), max(compiled_ratios)
        print(f"compiled (slow time / compiled time): min {low:.1f}x, max {high:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

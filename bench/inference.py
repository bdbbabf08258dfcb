"""How close the expert's sampled worlds come to the true deal, with and without inference.

Run with ``.venv/bin/python bench/inference.py [--players 4] [--deals N] [--worlds W] [--seed S]
[--every K] [--mismatch M ...] [--json]``. Deals are played by the rules bot in every seat (so the
likelihood model is exact); at every ``K``-th card decision with hidden cards left, the seat to
play draws ``W`` worlds from its own view, the same number each way: plain sampling, bids weighed
(:func:`~atout.bots.expert.likelihood.bid_weigher`), and bids weighed with plays judged by
:func:`~atout.bots.expert.likelihood.play_judge` (importance weights, one factor ``M`` per play
the rules bot would not have made there). A world's accuracy is the share of the seat's hidden
cards it puts where they truly are (another seat's hand, the chien or the hidden écart); with
importance weights the mean is weighted. The table gives each way's mean accuracy over the
decisions and its paired difference from plain sampling with a 95% interval (normal, over
decisions). This measures belief, not strength: the arena measures strength.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from atout.bots.expert.likelihood import MISMATCH, bid_weigher
from atout.bots.expert.worlds import WorldSampler, layout_of
from atout.cards import BIT, cards_of
from atout.engine.french import FrenchDeal
from atout.engine.view import SeatView
from positions import positive, rules_bot_card_decisions

Way = Callable[[SeatView], WorldSampler]


def ways(mismatches: list[float], selects: list[int], repairs: list[int]) -> dict[str, Way]:
    """The samplers compared, by name."""
    out: dict[str, Way] = {
        "plain": lambda view: WorldSampler(view, None, None),
        "bids": lambda view: WorldSampler(view, bid_weigher(view), None),
    }
    for m in mismatches:
        out[f"bids+plays {m:g}"] = _judged(m)
    for r in selects:
        out[f"bids, likeliest of {r}"] = _selected(r)
        SELECTED.add(f"bids, likeliest of {r}")
    for r in repairs:
        out[f"bids, {r} repairs"] = _selected(r + 1, repair=True)
        SELECTED.add(f"bids, {r} repairs")
    return out


def _judged(mismatch: float) -> Way:
    def make(view: SeatView) -> WorldSampler:
        return WorldSampler(view, bid_weigher(view), mismatch)

    return make


SELECTED: set[str] = set()
"""The ways that select worlds (their worlds count alike, not by weight)."""


def _selected(select: int, repair: bool = False) -> Way:
    def make(view: SeatView) -> WorldSampler:
        return WorldSampler(view, bid_weigher(view), MISMATCH, select=select, repair=repair)

    return make


def places(deal: FrenchDeal, hidden: int) -> dict[int, int]:
    """Where each hidden card is in ``deal``: a seat's hand, or -1 (the chien or the écart)."""
    return {
        card: next((s for s in range(deal.n) if deal.hands[s] & BIT[card]), -1) for card in cards_of(hidden)
    }


def accuracy(world: FrenchDeal, truth: dict[int, int]) -> float:
    """The share of hidden cards the world puts in their true place."""
    found = places(world, sum(BIT[c] for c in truth))
    return sum(found[card] == holder for card, holder in truth.items()) / len(truth)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    samplers = ways(args.mismatch, args.select, args.repair)
    scores: dict[str, list[float]] = {name: [] for name in samplers}
    seconds = dict.fromkeys(samplers, 0.0)
    drawn = dict.fromkeys(samplers, 0)
    rng = random.Random(args.seed)
    decisions = 0
    start = time.perf_counter()
    for deal, view, _, number in rules_bot_card_decisions(args.players, args.deals, rng):
        layout = layout_of(view)
        if number % args.every or not layout.hidden:
            continue
        truth = places(deal, layout.hidden)
        for name, make in samplers.items():
            sampler = make(view)
            draw_rng = random.Random(rng.getrandbits(63))
            total = weights = 0.0
            for _ in range(args.worlds):
                began = time.process_time()
                found = sampler.draw(draw_rng)
                seconds[name] += time.process_time() - began
                if found is None:
                    break
                drawn[name] += 1
                world, weight = found
                if name in SELECTED:
                    weight = 1.0
                total += weight * accuracy(world, truth)
                weights += weight
            scores[name].append(total / weights if weights else math.nan)
        decisions += 1
    keep = [i for i in range(decisions) if not any(math.isnan(scores[n][i]) for n in scores)]
    rows = []
    plain = [scores["plain"][i] for i in keep]
    for name in samplers:
        values = [scores[name][i] for i in keep]
        diffs = [v - p for v, p in zip(values, plain, strict=True)]
        half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
        mean_diff = statistics.fmean(diffs) if diffs else 0.0
        rows.append(
            {
                "way": name,
                "accuracy": statistics.fmean(values) if values else None,
                "vs_plain": mean_diff,
                "ci95": [mean_diff - half, mean_diff + half],
                "ms_per_world": 1000 * seconds[name] / max(drawn[name], 1),
            }
        )
    return {
        "players": args.players,
        "deals": args.deals,
        "decisions": len(keep),
        "worlds": args.worlds,
        "seed": args.seed,
        "seconds": round(time.perf_counter() - start, 1),
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--deals", type=positive, default=20)
    parser.add_argument("--worlds", type=positive, default=16)
    parser.add_argument("--every", type=positive, default=4, help="measure every K-th card decision")
    parser.add_argument("--mismatch", type=float, nargs="*", default=[0.5, 0.1])
    parser.add_argument("--select", type=positive, nargs="*", default=[4], help="likeliest of R dealings")
    parser.add_argument(
        "--repair",
        type=positive,
        nargs="*",
        default=[3],
        help="a dealing and up to R repairs of its likeliest",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = measure(args)
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    table = Table(
        title=f"Hidden cards placed right, {report['players']} players, {report['decisions']} decisions "
        f"of {report['deals']} rules-bot deals, {report['worlds']} worlds each ({report['seconds']} s)"
    )
    for column in ("sampling", "accuracy", "vs plain", "95% CI", "CPU ms per world"):
        table.add_column(column, justify="left" if column == "sampling" else "right")
    for row in report["rows"]:
        low, high = row["ci95"]
        table.add_row(
            row["way"],
            f"{row['accuracy']:.4f}",
            f"{row['vs_plain']:+.4f}",
            f"[{low:+.4f}, {high:+.4f}]",
            f"{row['ms_per_world']:.2f}",
        )
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

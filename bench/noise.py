"""What sampling noise costs the expert per decision, judged by the expert's own valuation.

Run with ``.venv/bin/python bench/noise.py [--kind cards|bids] [--bots SPEC ...] [--deals N]
[--tricks T] [--reference-worlds W] [--reference-dealings D] [--repeats R] [--seed S] [--json]``.

Deals are played by the rules bot in every seat. At each card decision of the first ``T`` tricks
with two or more cards to play (``--kind cards``), or at each bid (``--kind bids``), a
**reference** values every option with far more worlds than a level affords: ``W`` worlds for a
card (the strong level's search, work unbounded, no racing), ``D`` dealings for a bid (every legal bid, as the
strong level simulates them). Each expert setting then decides ``R`` times from the seat's view,
with other seeds; its loss is the reference's best value minus the reference's value of the option
it chose. So the loss is what the setting's fewer worlds cost under its own model (the worlds it
believes in, rules-bot playouts), not against the true deal (``bench/decisions.py`` does that):
a setting with no noise loses 0. The table gives each setting's mean loss, the paired difference
from the first setting with a 95% interval over decisions, and its CPU time per decision.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from rich.console import Console
from rich.table import Table

from atout.bots.expert import ExpertBot
from atout.bots.expert.simulation import choose_by_simulation
from atout.bots.rules import RulesBot
from atout.engine.actions import ACTIONS, Action, ActionKind
from atout.engine.french import FrenchDeal
from atout.engine.view import SeatView
from atout.rules import Rules
from positions import positive, rules_bot_card_decisions


def bid_decisions(players: int, deals: int, rng: random.Random) -> Iterator[tuple[SeatView, list[Action]]]:
    """Every bid of ``deals`` seeded rules-bot deals: the bidder's view and legal bids."""
    bot = RulesBot()
    for index in range(deals):
        deal = FrenchDeal.new(Rules(players=players), dealer=index % players, rng=rng.getrandbits(63))
        while not deal.is_over():
            legal = deal.legal_actions()
            if not legal or ACTIONS[legal[0]].kind is not ActionKind.BID:
                break
            view = deal.view(deal.current_player)
            yield view, legal
            deal.apply(bot.choose(view, legal))


def _representative(card: int, values: Mapping[Any, float]) -> int:
    """The card valued for ``card``: itself, or the lowest of the equivalent cards it belongs to
    (equivalent cards are merged into the lowest, and touch in card order)."""
    return card if card in values else max(k for k in values if k <= card)


def _losses(
    args: argparse.Namespace,
    rng: random.Random,
    view: SeatView,
    legal: list[Action],
    values: Mapping[Any, float],
    choice: Callable[[ExpertBot, Mapping[Any, float]], Any],
) -> dict[str, tuple[list[float], float]]:
    """Each setting deciding ``args.repeats`` times (the same seeds for all): its losses (the best
    of the reference's ``values`` minus the value of its ``choice``) and CPU seconds."""
    best = max(values.values())
    seeds = [rng.getrandbits(63) for _ in range(args.repeats)]
    row = {}
    for spec in args.bots:
        losses = []
        cpu = time.process_time()
        for seed in seeds:
            bot = ExpertBot.at_level(spec, rng=seed)
            bot.choose(view, legal)
            losses.append(best - values[choice(bot, values)])
        row[spec] = (losses, time.process_time() - cpu)
    return row


def _card(bot: ExpertBot, values: Mapping[Any, float]) -> int:
    assert bot.last is not None
    return _representative(bot.last.card, values)


def _bid(bot: ExpertBot, _values: Mapping[Any, float]) -> tuple[int, ...]:
    assert bot.last_simulation is not None
    return bot.last_simulation.option


def card_losses(
    args: argparse.Namespace, rng: random.Random
) -> Iterator[dict[str, tuple[list[float], float]]]:
    """Per card decision: each setting's losses (one per repeat) and CPU seconds."""
    for _deal, view, legal, _number in rules_bot_card_decisions(args.players, args.deals, rng):
        if len(legal) < 2 or len(view.tricks) >= args.tricks:
            continue
        reference = ExpertBot.at_level(
            f"strong,samples={args.reference_worlds},work=1000000000,race=0", rng=rng.getrandbits(63)
        )
        reference.choose(view, legal)
        decision = reference.last
        if decision is None or len(decision.values) < 2:
            continue
        values = decision.values
        yield _losses(args, rng, view, legal, values, _card)


def bid_losses(
    args: argparse.Namespace, rng: random.Random
) -> Iterator[dict[str, tuple[list[float], float]]]:
    """Per bid: each setting's losses (one per repeat) and CPU seconds."""
    rules = RulesBot()
    for view, legal in bid_decisions(args.players, args.deals, rng):
        options = [(a,) for a in legal]
        rules_option = (rules.choose(view, legal),)
        reference = choose_by_simulation(
            view, options, rules_option, random.Random(rng.getrandbits(63)), args.reference_dealings, 0.0
        )
        means = reference.means
        yield _losses(args, rng, view, legal, means, _bid)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Each setting's mean loss per decision, paired with the first setting's."""
    rng = random.Random(args.seed)
    start = time.perf_counter()
    losses: dict[str, list[float]] = {spec: [] for spec in args.bots}
    seconds: dict[str, float] = dict.fromkeys(args.bots, 0.0)
    decisions = 0
    rows = card_losses(args, rng) if args.kind == "cards" else bid_losses(args, rng)
    for row in rows:
        decisions += 1
        for spec, (mine, cpu) in row.items():
            losses[spec].append(statistics.fmean(mine))
            seconds[spec] += cpu
    first = args.bots[0]
    out = []
    for spec in args.bots:
        diffs = [a - b for a, b in zip(losses[spec], losses[first], strict=True)]
        mean_diff = statistics.fmean(diffs) if diffs else 0.0
        half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
        mine = losses[spec]
        out.append(
            {
                "bot": spec,
                "mean_loss": round(statistics.fmean(mine), 4) if mine else None,
                "vs_first": round(mean_diff, 4),
                "ci95": [round(mean_diff - half, 4), round(mean_diff + half, 4)],
                "cpu_ms": round(1000 * seconds[spec] / max(1, decisions * args.repeats), 1),
            }
        )
    return {
        "kind": args.kind,
        "players": args.players,
        "deals": args.deals,
        "decisions": decisions,
        "repeats": args.repeats,
        "reference": args.reference_worlds if args.kind == "cards" else args.reference_dealings,
        "seed": args.seed,
        "seconds": round(time.perf_counter() - start, 1),
        "rows": out,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", choices=("cards", "bids"), default="cards")
    parser.add_argument("--bots", nargs="+", default=["strong", "strong,race=2"])
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--deals", type=positive, default=4)
    parser.add_argument("--tricks", type=positive, default=10, help="card decisions of the first T tricks")
    parser.add_argument("--reference-worlds", type=positive, default=400)
    parser.add_argument("--reference-dealings", type=positive, default=512)
    parser.add_argument("--repeats", type=positive, default=2)
    parser.add_argument("--seed", type=int, default=1)
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
    what = "card decision" if args.kind == "cards" else "bid"
    table = Table(
        title=f"Loss per {what} to sampling noise, against a reference of {result['reference']} "
        f"{'worlds' if args.kind == 'cards' else 'dealings'}: {result['decisions']} decisions of "
        f"{result['deals']} rules-bot deals, {result['players']} players ({result['seconds']} s)"
    )
    for column in ("expert setting", "cpu ms", "mean loss", "vs first", "95% CI"):
        table.add_column(column, justify="left" if column == "expert setting" else "right")
    for row in result["rows"]:
        low, high = row["ci95"]
        table.add_row(
            row["bot"],
            f"{row['cpu_ms']:.1f}",
            f"{row['mean_loss']:.3f}",
            f"{row['vs_first']:+.3f}",
            f"[{low:+.3f}, {high:+.3f}]",
        )
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

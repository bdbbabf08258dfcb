"""How often each Austrian Tarock contract is chosen and made, under each preset.

Run with ``.venv/bin/python bench/austrian_contracts.py [--rules PRESET ...] [--bots SPEC ...]
[--deals N] [--seed S] [--option name=value ...] [--json]``. Every preset plays the very same deals
(the arena's deal plan: seeds drawn from ``S``, the dealer rotating), with the same bots seeded
alike seat by seat, so the presets are compared deal by deal. ``--bots`` gives one bot for every
seat or one per seat (default ``expert:fast`` everywhere, the computer players a table offers);
``cheat`` plays with every hand open.

For each contract (threesome with the first or the second talon half, or solo; game 1 "36 or more"
or game 2 "35 or less") the table gives how many deals chose it, its share of the deals, how many
the declarer made, the share made with a 95% Wilson interval, and the declarer's mean card points;
then every contract together, the deals everyone passed, and the mean score of a declarer and of
a defender per deal.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

from atout.arena import ArenaSetup, _bot_seed, deal_plan, play
from atout.bots import make_bot
from atout.bots.base import Bot
from atout.games import new_deal
from atout.presets import rules_for
from atout.rules import Rules, RulesError, parse_option_words
from atout.scoring import AustrianSummary, declarer_wins

CONTRACTS: tuple[tuple[str, int | None, str], ...] = (
    ("threesome", 1, "36_or_more"),
    ("threesome", 1, "35_or_less"),
    ("threesome", 2, "36_or_more"),
    ("threesome", 2, "35_or_less"),
    ("solo", None, "36_or_more"),
    ("solo", None, "35_or_less"),
)
"""Every Austrian contract: the bid, the talon half taken (none in a solo), the game."""


def contract_name(bid: str, half: int | None, game: str) -> str:
    """A contract as a person reads it: ``threesome, first half, game 1 (36 or more)``."""
    halves = {1: "first half", 2: "second half", None: "no talon"}
    games = {"36_or_more": "game 1 (36 or more)", "35_or_less": "game 2 (35 or less)"}
    return f"{bid}, {halves[half]}, {games[game]}"


def wilson(made: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``made / n``.

    >>> [round(x, 3) for x in wilson(19, 19)]
    [0.832, 1.0]
    """
    if n == 0:
        return (0.0, 1.0)
    p = made / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return (max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale))


@dataclass
class Tally:
    """One preset's deals: per contract, the deals, the declarer's wins and card points."""

    deals: int = 0
    passed: int = 0
    chosen: dict[tuple[str, int | None, str], int] = field(default_factory=dict)
    made: dict[tuple[str, int | None, str], int] = field(default_factory=dict)
    points: dict[tuple[str, int | None, str], int] = field(default_factory=dict)
    declarer_score: int = 0
    defender_score: int = 0
    seconds: float = 0.0

    def add(self, summary: AustrianSummary | None, scores: Sequence[int]) -> None:
        self.deals += 1
        if summary is None:
            self.passed += 1
            return
        key = (summary.bid, summary.talon_half if summary.bid == "threesome" else None, summary.game_type)
        self.chosen[key] = self.chosen.get(key, 0) + 1
        self.made[key] = self.made.get(key, 0) + declarer_wins(summary)
        self.points[key] = self.points.get(key, 0) + summary.points
        self.declarer_score += scores[summary.declarer]
        self.defender_score += sum(s for seat, s in enumerate(scores) if seat != summary.declarer)

    def rows(self) -> list[dict[str, Any]]:
        """Each contract chosen at least once, then every contract together."""
        out = []
        for key in CONTRACTS:
            n = self.chosen.get(key, 0)
            if n:
                out.append(self._row(contract_name(*key), n, self.made[key], self.points[key]))
        n = sum(self.chosen.values())
        out.append(self._row("every contract", n, sum(self.made.values()), sum(self.points.values())))
        return out

    def _row(self, name: str, n: int, made: int, points: int) -> dict[str, Any]:
        low, high = wilson(made, n)
        return {
            "contract": name,
            "chosen": n,
            "chosen_share": n / self.deals if self.deals else 0.0,
            "made": made,
            "made_share": made / n if n else 0.0,
            "made_ci95": [low, high],
            "mean_points": points / n if n else 0.0,
        }

    def report(self) -> dict[str, Any]:
        played = self.deals - self.passed
        return {
            "deals": self.deals,
            "all_passed": self.passed,
            "contracts": self.rows(),
            "mean_declarer_score": self.declarer_score / played if played else 0.0,
            "mean_defender_score": self.defender_score / (2 * played) if played else 0.0,
            "seconds": self.seconds,
        }


def run(rules: Rules, bots: Sequence[str], deals: int, seed: int) -> Tally:
    """Play the deal plan of ``deals`` deals from ``seed`` with ``bots`` in the three seats."""
    plan = deal_plan(ArenaSetup(rules, "random", "random", "random", deals=deals, seed=seed))
    tally = Tally()
    start = time.process_time()
    for _, deal_seed, dealer in plan:
        deal = new_deal(rules, dealer=dealer, rng=deal_seed)
        seated: list[Bot | None] = [make_bot(bots[s], rng=_bot_seed(deal_seed, s)) for s in range(3)]
        play(deal, seated, None)
        summary = deal.summary
        assert summary is None or isinstance(summary, AustrianSummary)
        tally.add(summary, deal.scores())
    tally.seconds = time.process_time() - start
    return tally


def _percent(x: float) -> str:
    return f"{100 * x:.0f}%"


def print_report(
    console: Console, preset: str, rules: Rules, bots: Sequence[str], report: dict[str, Any]
) -> None:
    changed = ", ".join(
        f"{k}={json.dumps(v)}" for k, v in rules.changed().items() if k not in ("game", "players")
    )
    table = Table(title=f"{preset} ({changed or 'every default'}); bots {', '.join(bots)}")
    for column in ("contract", "chosen", "of deals", "made", "made share", "95% CI", "mean points"):
        table.add_column(column, justify="left" if column == "contract" else "right", no_wrap=True)
    for row in report["contracts"]:
        low, high = row["made_ci95"]
        table.add_row(
            row["contract"],
            str(row["chosen"]),
            _percent(row["chosen_share"]),
            str(row["made"]),
            _percent(row["made_share"]),
            f"[{_percent(low)}, {_percent(high)}]",
            f"{row['mean_points']:.1f}",
        )
    console.print(table)
    console.print(
        f"{report['deals']} deals, {report['all_passed']} passed by everyone; mean score per deal "
        f"of the declarer {report['mean_declarer_score']:.1f}, of a defender "
        f"{report['mean_defender_score']:.1f}; {report['seconds']:.0f} s of CPU"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rules", nargs="+", default=["tarock", "tarock-seed"], help="presets to compare")
    parser.add_argument("--bots", nargs="+", default=["expert:fast"], help="one bot, or one per seat")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], help="name=value on top of each preset")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if len(args.bots) not in (1, 3):
        parser.error("--bots takes one bot, or three (one per seat)")
    bots = args.bots * 3 if len(args.bots) == 1 else args.bots
    try:
        options = parse_option_words(args.option)
    except RulesError as exc:
        parser.error(str(exc))
    console = Console(highlight=False, width=120)
    out: dict[str, Any] = {"bots": bots, "seed": args.seed, "options": options, "presets": {}}
    for name in args.rules:
        rules = rules_for(name, options)
        if rules.game != "austrian":
            parser.error(f"{name} is not an Austrian Tarock preset")
        report = run(rules, bots, args.deals, args.seed).report()
        out["presets"][name] = report
        if not args.json:
            print_report(console, name, rules, bots, report)
    if args.json:
        print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``atout simulate``: many random legal deals, every one checked against the invariants."""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from atout.cli.common import (
    GameOption,
    OptionsOption,
    PlayersOption,
    RulesOption,
    fail,
    rules_from_cli,
)
from atout.games import broken_invariants, new_deal, next_dealer
from atout.records import write_record
from atout.rules import Rules
from atout.scoring import AustrianSummary, FrenchSummary, Summary, contract_made, declarer_wins


def simulate_command(
    players: PlayersOption = None,
    game: GameOption = None,
    preset: RulesOption = "fft",
    deals: Annotated[int, typer.Option("--deals", "-n", help="How many deals to play.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the whole run.")] = 0,
    option: OptionsOption = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    save_failures: Annotated[
        Path | None,
        typer.Option("--save-failures", help="Folder for records of deals that break an invariant."),
    ] = None,
) -> None:
    """Play random legal deals, check every invariant on each, and summarise the results."""
    if deals < 1:
        fail("--deals must be at least 1")
    rules = rules_from_cli(players, option, preset, game)
    players = rules.players
    try:
        new_deal(rules, rng=0)
    except ValueError as exc:
        fail(str(exc))
    report = run_simulation(rules, deals, seed, progress=not json_output, save_failures=save_failures)
    if json_output:
        typer.echo(json.dumps(report, indent=1))
    else:
        print_report(report)
    if report["broken"]:
        raise typer.Exit(1)


def run_simulation(
    rules: Rules, deals: int, seed: int, progress: bool = False, save_failures: Path | None = None
) -> dict[str, Any]:
    """Play ``deals`` random deals (dealer rotating) and gather the figures of the report."""
    rng = random.Random(seed)
    n = rules.players
    contracts: Counter[str] = Counter()
    made: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    totals = [0] * n
    broken: list[dict[str, Any]] = []
    start = time.perf_counter()
    with Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not progress,
        transient=True,
    ) as bar:
        task = bar.add_task("deals", total=deals)
        dealer = 0
        for d in range(deals):
            deal_seed = rng.getrandbits(63)
            deal = new_deal(rules, dealer=dealer, rng=deal_seed)
            deal.play_out(rng)
            dealer = next_dealer(deal)
            problems = broken_invariants(deal)
            if problems:
                broken.append({"deal": d, "seed": deal_seed, "problems": problems})
                if save_failures is not None:
                    save_failures.mkdir(parents=True, exist_ok=True)
                    (save_failures / f"deal-{d}.json").write_text(
                        write_record(deal, deal_seed), encoding="utf-8"
                    )
            result = contract_of(deal.summary)
            if deal.summary is None:
                outcomes[deal.outcome.split(":")[0].split(";")[0]] += 1
            else:
                outcomes["played"] += 1
            if result is not None:
                contracts[result[0]] += 1
                made[result[0]] += result[1]
            for seat, value in enumerate(deal.scores()):
                totals[seat] += value
            bar.advance(task)
    elapsed = time.perf_counter() - start
    taken = sum(contracts.values())
    order = [c for c in rules.contracts if contracts[c]] if rules.game == "french" else sorted(contracts)
    return {
        "game": rules.game,
        "players": n,
        "deals": deals,
        "seed": seed,
        "options": rules.changed(),
        "outcomes": dict(outcomes),
        "contracts": {c: {"taken": contracts[c], "made": made[c]} for c in order},
        "success_rate": round(sum(made.values()) / taken, 4) if taken else None,
        "mean_score_by_seat": [round(t / deals, 2) for t in totals],
        "broken": broken,
        "deals_per_second": round(deals / elapsed, 1),
    }


def contract_of(summary: Summary | None) -> tuple[str, bool] | None:
    """The contract of a played deal and whether its taker (or declarer) made it; ``None``
    for a cancelled deal or a game without contracts (2 players)."""
    if isinstance(summary, FrenchSummary):
        return summary.contract, contract_made(summary)
    if isinstance(summary, AustrianSummary):
        return f"{summary.bid} {summary.game_type}", declarer_wins(summary)
    return None


def print_report(report: dict[str, Any]) -> None:
    console = Console()
    outcomes = report["outcomes"]
    game = "Austrian Tarock" if report["game"] == "austrian" else "French Tarot"
    counts = ", ".join(f"{count} {kind}" for kind, count in sorted(outcomes.items()))
    console.print(
        f"[bold]{report['deals']}[/] deals of {game} for {report['players']} players (seed {report['seed']}): "
        f"{counts}; {report['deals_per_second']:.0f} deals/s"
    )
    table = Table(title="Contracts (taker or declarer)")
    table.add_column("contract")
    table.add_column("taken", justify="right")
    table.add_column("made", justify="right")
    table.add_column("success", justify="right")
    for name, row in report["contracts"].items():
        table.add_row(
            name.replace("_", " "), str(row["taken"]), str(row["made"]), f"{row['made'] / row['taken']:.1%}"
        )
    rate = report["success_rate"]
    if report["contracts"]:
        console.print(table)
        console.print(f"Success rate: {rate:.1%}")
    console.print(
        "Mean score by seat: "
        + ", ".join(f"seat {i}: {v:+.2f}" for i, v in enumerate(report["mean_score_by_seat"]))
    )
    if report["broken"]:
        console.print(f"[bold red]{len(report['broken'])} deal(s) broke an invariant[/]")
        for item in report["broken"][:5]:
            console.print(f"  deal {item['deal']} (seed {item['seed']}): {'; '.join(item['problems'])}")
    else:
        total = {"austrian": "70 (74 with a jack of 3)"}.get(report["game"], "91")
        console.print(
            f"[green]Every invariant held on every deal[/] ({total} points shared, every card once, "
            "scores as the rules share them)."
        )

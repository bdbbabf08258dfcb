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
from atout.engine.deal import next_dealer
from atout.engine.french import FrenchDeal
from atout.engine.invariants import broken_invariants
from atout.records import write_record
from atout.rules import Rules
from atout.scoring import contract_made


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
        FrenchDeal.new(rules, rng=0)
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
            deal = FrenchDeal.new(rules, dealer=dealer, rng=deal_seed)
            dealer = next_dealer(rules, dealer)
            deal.play_out(rng)
            problems = broken_invariants(deal)
            if problems:
                broken.append({"deal": d, "seed": deal_seed, "problems": problems})
                if save_failures is not None:
                    save_failures.mkdir(parents=True, exist_ok=True)
                    (save_failures / f"deal-{d}.json").write_text(
                        write_record(deal, deal_seed), encoding="utf-8"
                    )
            summary = deal.summary
            if summary is None:
                outcomes["petit sec" if deal.outcome.startswith("petit sec") else "all passed"] += 1
            else:
                outcomes["played"] += 1
                contracts[summary.contract] += 1
                made[summary.contract] += contract_made(summary)
            for seat, value in enumerate(deal.scores()):
                totals[seat] += value
            bar.advance(task)
    elapsed = time.perf_counter() - start
    played = outcomes["played"]
    return {
        "players": n,
        "deals": deals,
        "seed": seed,
        "options": rules.changed(),
        "outcomes": dict(outcomes),
        "contracts": {c: {"taken": contracts[c], "made": made[c]} for c in rules.contracts if contracts[c]},
        "success_rate": round(sum(made.values()) / played, 4) if played else None,
        "mean_score_by_seat": [round(t / deals, 2) for t in totals],
        "broken": broken,
        "deals_per_second": round(deals / elapsed, 1),
    }


def print_report(report: dict[str, Any]) -> None:
    console = Console()
    outcomes = report["outcomes"]
    console.print(
        f"[bold]{report['deals']}[/] deals for {report['players']} players (seed {report['seed']}): "
        f"{outcomes.get('played', 0)} played, {outcomes.get('all passed', 0)} all passed, "
        f"{outcomes.get('petit sec', 0)} petit sec; {report['deals_per_second']:.0f} deals/s"
    )
    table = Table(title="Contracts")
    table.add_column("contract")
    table.add_column("taken", justify="right")
    table.add_column("made", justify="right")
    table.add_column("success", justify="right")
    for name, row in report["contracts"].items():
        table.add_row(
            name.replace("_", " "), str(row["taken"]), str(row["made"]), f"{row['made'] / row['taken']:.1%}"
        )
    console.print(table)
    rate = report["success_rate"]
    console.print(f"Success rate: {rate:.1%}" if rate is not None else "No deal was played.")
    console.print(
        "Mean score by seat: "
        + ", ".join(f"seat {i}: {v:+.2f}" for i, v in enumerate(report["mean_score_by_seat"]))
    )
    if report["broken"]:
        console.print(f"[bold red]{len(report['broken'])} deal(s) broke an invariant[/]")
        for item in report["broken"][:5]:
            console.print(f"  deal {item['deal']} (seed {item['seed']}): {'; '.join(item['problems'])}")
    else:
        console.print(
            "[green]Every invariant held on every deal[/] (91 points, zero-sum scores, every card once)."
        )

"""Speed of the atout deal engine: random deals per second and legal-move generations per second.

Run with ``make bench`` or ``.venv/bin/python bench/engine.py [--deals N] [--seed S] [--json]``.
Everything runs in this one Python process, on one thread. Each figure is the best of
``--repeats`` timed runs over the same seeded workload (the median is in the JSON output).
When ``pyspiel`` (open-spiel) is importable, OpenSpiel's C++ ``tarok`` game is timed too,
driven from Python by the same kind of uniformly random driver.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

from atout.engine import FrenchDeal, Phase
from atout.games import Deal, deal_class
from atout.rules import Rules

PLAYER_COUNTS = (3, 4, 5)
# Every game: French Tarot for 3, 4 and 5 players with every driver, and the other games
# (2 players, five with a dead player, Austrian Tarock) through the list and playout drivers.
GAMES: dict[str, Rules] = {
    **{f"french {n}": Rules(players=n) for n in PLAYER_COUNTS},
    "french 2": Rules(players=2),
    "french 5, dead player": Rules(players=5, five_player_mode="dead_player"),
    "austrian 3": Rules(game="austrian", players=3),
}
MASK_GAMES = {f"french {n}" for n in PLAYER_COUNTS}
DEFAULT_DEALS = 4000
DEFAULT_REPEATS = 3
DEFAULT_POSITIONS = 3000
LEGAL_CALLS = 300_000
OPENSPIEL_DEALS_FACTOR = 5
OPENSPIEL_PLAYERS = 4
PLAY = Phase.PLAY


# ---------------------------------------------------------------- results


@dataclass
class DealRun:
    """One driver over ``deals`` random deals of one game."""

    game: str
    players: int
    driver: str
    deals: int
    times: list[float]
    decisions: int
    outcomes: dict[str, int]
    checksum: int

    @property
    def best(self) -> float:
        return min(self.times)

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    def summary(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "driver": self.driver,
            "deals": self.deals,
            "times_s": self.times,
            "deals_per_s_best": self.deals / self.best,
            "deals_per_s_median": self.deals / self.median,
            "decisions_per_deal": self.decisions / self.deals,
            "decisions_per_s_best": self.decisions / self.best,
            "outcomes": self.outcomes,
        }


@dataclass
class LegalRun:
    """One way of generating the legal cards, timed over sampled play positions."""

    method: str
    call: str
    calls: int
    times: list[float]

    @property
    def best(self) -> float:
        return min(self.times)

    def summary(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "call": self.call,
            "calls": self.calls,
            "times_s": self.times,
            "calls_per_s_best": self.calls / self.best,
            "calls_per_s_median": self.calls / statistics.median(self.times),
            "ns_per_call_best": self.best / self.calls * 1e9,
        }


@dataclass
class OpenSpielRun:
    """OpenSpiel's ``tarok`` under the random driver, or why it was not timed."""

    available: bool
    note: str
    version: str | None = None
    game: str | None = None
    parameters: dict[str, Any] = field(default_factory=dict)
    deals: int = 0
    times: list[float] = field(default_factory=list)
    decisions: int = 0

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"available": self.available, "note": self.note}
        if self.available:
            best = min(self.times)
            out |= {
                "version": self.version,
                "game": self.game,
                "parameters": self.parameters,
                "deals": self.deals,
                "times_s": self.times,
                "deals_per_s_best": self.deals / best,
                "deals_per_s_median": self.deals / statistics.median(self.times),
                "decisions_per_deal": self.decisions / self.deals,
                "decisions_per_s_best": self.decisions / best,
            }
        return out


# ---------------------------------------------------------------- atout drivers


def _outcome_kind(outcome: str) -> str:
    return outcome.split(":")[0].split(";")[0]


Finisher = Callable[[Deal, random.Random], None]


def _finish_with_lists(deal: Deal, rng: random.Random) -> None:
    """Every decision from ``legal_actions()`` and ``apply()``."""
    draw = rng.random
    while not deal.is_over():
        legal = deal.legal_actions()
        deal.apply(legal[int(draw() * len(legal))])


def _finish_with_masks(deal: Deal, rng: random.Random) -> None:
    """Card play from the ``legal_play_mask()`` bitset; the k-th set bit is the k-th entry of
    ``legal_actions()``, so the same draws play the same deal as :func:`_finish_with_lists`."""
    if not isinstance(deal, FrenchDeal):
        raise TypeError("the mask driver plays French Tarot for 3 to 5 players")
    draw = rng.random
    while not deal.is_over():
        if deal.phase is PLAY:
            mask = deal.legal_play_mask()
            for _ in range(int(draw() * mask.bit_count())):
                mask &= mask - 1
            deal.apply((mask & -mask).bit_length() - 1)
        else:
            legal = deal.legal_actions()
            deal.apply(legal[int(draw() * len(legal))])


def _finish_with_play_out(deal: Deal, rng: random.Random) -> None:
    """``FrenchDeal.play_out``: the engine's own loop for simulations and rollouts (same draws)."""
    deal.play_out(rng)


def run_driver(finish: Finisher, rules: Rules, deals: int, seed: int) -> tuple[float, int, Counter[str], int]:
    """Random full deals finished by ``finish``: (seconds, decisions, outcomes, checksum)."""
    players = rules.players
    rng = random.Random(seed)
    new = deal_class(rules).new
    decisions = 0
    checksum = 0
    outcomes: Counter[str] = Counter()
    start = time.perf_counter()
    for d in range(deals):
        deal = new(rules, dealer=d % players, rng=rng)
        finish(deal, rng)
        scores = deal.scores()
        decisions += len(deal.history)
        checksum = (checksum * 31 + scores[0] + 7 * len(deal.history)) % (1 << 61)
        outcomes[_outcome_kind(deal.outcome)] += 1
    return time.perf_counter() - start, decisions, outcomes, checksum


DRIVERS: dict[str, Finisher] = {
    "list": _finish_with_lists,
    "mask": _finish_with_masks,
    "playout": _finish_with_play_out,
}


def bench_deals(game: str, driver: str, deals: int, seed: int, repeats: int) -> DealRun:
    finish = DRIVERS[driver]
    times: list[float] = []
    decisions = checksum = 0
    outcomes: Counter[str] = Counter()
    for _ in range(repeats):
        seconds, decisions, outcomes, checksum = run_driver(finish, GAMES[game], deals, seed)
        times.append(seconds)
    return DealRun(game, GAMES[game].players, driver, deals, times, decisions, dict(outcomes), checksum)


# ---------------------------------------------------------------- legal-move generation


def sample_positions(count: int, seed: int) -> list[FrenchDeal]:
    """Copies of random deals in the play phase, about a quarter of the card plays of each deal,
    taken in turn from 3-, 4- and 5-player deals."""
    rng = random.Random(seed)
    positions: list[FrenchDeal] = []
    d = 0
    while len(positions) < count:
        players = PLAYER_COUNTS[d % len(PLAYER_COUNTS)]
        deal = FrenchDeal.new(Rules(players=players), dealer=d % players, rng=rng)
        while not deal.is_over() and len(positions) < count:
            if deal.phase is PLAY and rng.random() < 0.25:
                positions.append(deal.clone())
            legal = deal.legal_actions()
            deal.apply(legal[int(rng.random() * len(legal))])
        d += 1
    for position in positions:
        if position._compute_legal_play_mask() != sum(1 << a for a in position.legal_actions()):
            raise AssertionError("legal_play_mask and legal_actions disagree")
    return positions


def _time_compute(positions: list[FrenchDeal], rounds: int) -> float:
    compute = [p._compute_legal_play_mask for p in positions]
    start = time.perf_counter()
    for _ in range(rounds):
        for f in compute:
            f()
    return time.perf_counter() - start


def _time_legal_actions(positions: list[FrenchDeal], rounds: int) -> float:
    start = time.perf_counter()
    for _ in range(rounds):
        for p in positions:
            p._legal = -1
            p.legal_actions()
    return time.perf_counter() - start


def _time_cached(positions: list[FrenchDeal], rounds: int) -> float:
    cached = [p.legal_play_mask for p in positions]
    for f in cached:
        f()
    start = time.perf_counter()
    for _ in range(rounds):
        for f in cached:
            f()
    return time.perf_counter() - start


LEGAL_METHODS: tuple[tuple[str, str, Callable[[list[FrenchDeal], int], float]], ...] = (
    ("mask, generated", "deal._compute_legal_play_mask()", _time_compute),
    ("list, generated", "deal._legal = -1; deal.legal_actions()", _time_legal_actions),
    ("mask, cached (not a generation)", "deal.legal_play_mask() after a first call", _time_cached),
)


def bench_legal(positions: list[FrenchDeal], repeats: int) -> list[LegalRun]:
    rounds = max(1, LEGAL_CALLS // len(positions))
    calls = rounds * len(positions)
    runs: list[LegalRun] = []
    for method, call, timer in LEGAL_METHODS:
        times = [timer(positions, rounds) for _ in range(repeats)]
        runs.append(LegalRun(method, call, calls, times))
    return runs


# ---------------------------------------------------------------- OpenSpiel


def bench_openspiel(deals: int, seed: int, repeats: int) -> OpenSpielRun:
    try:
        import pyspiel
    except ImportError:
        return OpenSpielRun(
            available=False,
            note="pyspiel is not importable: install it with `pip install open-spiel` "
            "(or the extra: `pip install -e '.[openspiel]'`) to compare with OpenSpiel's tarok",
        )
    defaults = dict(pyspiel.load_game("tarok").get_parameters())
    game_type = pyspiel.load_game("tarok").get_type()
    params: dict[str, Any] = {"rng_seed": seed}
    if "players" in defaults and game_type.min_num_players <= OPENSPIEL_PLAYERS <= game_type.max_num_players:
        params["players"] = OPENSPIEL_PLAYERS
    times: list[float] = []
    decisions = 0
    for _ in range(repeats):
        game = pyspiel.load_game("tarok", params)
        rng = random.Random(seed)
        draw = rng.random
        decisions = 0
        start = time.perf_counter()
        for _ in range(deals):
            state = game.new_initial_state()
            chance = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    r = draw()
                    action = outcomes[-1][0]
                    acc = 0.0
                    for outcome, probability in outcomes:
                        acc += probability
                        if r < acc:
                            action = outcome
                            break
                    state.apply_action(action)
                    chance += 1
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[int(draw() * len(legal))])
            decisions += len(state.history()) - chance
        times.append(time.perf_counter() - start)
    loaded = pyspiel.load_game("tarok", params)
    return OpenSpielRun(
        available=True,
        note=(
            f"OpenSpiel 'tarok' is {game_type.long_name} (54 cards, its own contracts and scoring), "
            f"not French Tarot; default parameters {defaults}; {loaded.num_players()} players here. "
            "Random bidding there mostly picks contracts that end at the first lost trick, so its "
            "deals are much shorter: compare decisions per second as well as deals per second."
        ),
        version=importlib.metadata.version("open-spiel"),
        game=f"tarok ({game_type.long_name})",
        parameters=dict(loaded.get_parameters()),
        deals=deals,
        times=times,
        decisions=decisions,
    )


# ---------------------------------------------------------------- output


def environment() -> dict[str, Any]:
    try:
        atout_version = importlib.metadata.version("atout")
    except importlib.metadata.PackageNotFoundError:
        atout_version = "unknown"
    return {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "atout": atout_version,
        "threads": 1,
    }


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def print_report(
    console: Console,
    env: dict[str, Any],
    args: argparse.Namespace,
    deal_runs: list[DealRun],
    legal_runs: list[LegalRun],
    positions: int,
    spiel: OpenSpielRun,
    load_before: str,
    load_after: str,
    wall: float,
) -> None:
    console.print(f"[bold]atout engine benchmark[/bold]  atout {env['atout']}")
    console.print(f"Python {env['python']} on {env['platform']} ({env['machine']}, {env['cpus']} CPUs)")
    console.print(
        f"single-threaded, one process; seed {args.seed}; best of {args.repeats} runs of the same "
        f"seeded workload; load average (1/5/15 min) before {load_before}, after {load_after}"
    )

    table = Table(title=f"Random full deals ({args.deals} deals per run)")
    for name in (
        "game",
        "driver",
        "deals/s",
        "median deals/s",
        "decisions/deal",
        "decisions/s",
        "outcomes",
    ):
        table.add_column(name, justify="left" if name in ("game", "driver", "outcomes") else "right")
    for run in deal_runs:
        s = run.summary()
        table.add_row(
            run.game,
            run.driver,
            f"{s['deals_per_s_best']:,.0f}",
            f"{s['deals_per_s_median']:,.0f}",
            f"{s['decisions_per_deal']:.1f}",
            f"{s['decisions_per_s_best']:,.0f}",
            ", ".join(f"{k} {v}" for k, v in sorted(run.outcomes.items())),
        )
    console.print(table)
    same = all(
        a.checksum == b.checksum
        for a in deal_runs
        for b in deal_runs
        if a.game == b.game and a.driver != b.driver
    )
    console.print(f"the list, mask and playout drivers played the same deals: {'yes' if same else 'NO'}")

    table = Table(title=f"Legal-move generation ({positions} play positions from 3/4/5-player deals)")
    for name in ("method", "call", "calls", "calls/s", "ns/call"):
        table.add_column(name, justify="left" if name in ("method", "call") else "right")
    for legal_run in legal_runs:
        s = legal_run.summary()
        table.add_row(
            legal_run.method,
            legal_run.call,
            f"{legal_run.calls:,}",
            f"{s['calls_per_s_best']:,.0f}",
            f"{s['ns_per_call_best']:,.0f}",
        )
    console.print(table)
    console.print("(loop overhead included; the list figure includes building the Action list)")

    if not spiel.available:
        console.print(f"OpenSpiel: {spiel.note}", markup=False)
    else:
        s = spiel.summary()
        four = {r.driver: r.summary() for r in deal_runs if r.game == f"french {OPENSPIEL_PLAYERS}"}
        table = Table(title=f"atout vs OpenSpiel {spiel.game}, {OPENSPIEL_PLAYERS} players")
        for name in (
            "engine",
            "deals",
            "deals/s",
            "decisions/deal",
            "decisions/s",
            "deals/s ratio",
            "decisions/s ratio",
        ):
            table.add_column(name, justify="left" if name == "engine" else "right")
        table.add_row(
            f"OpenSpiel {spiel.version} tarok (C++)",
            f"{spiel.deals:,}",
            f"{s['deals_per_s_best']:,.0f}",
            f"{s['decisions_per_deal']:.1f}",
            f"{s['decisions_per_s_best']:,.0f}",
            "1.00",
            "1.00",
        )
        for driver, r in four.items():
            table.add_row(
                f"atout, {driver} driver",
                f"{r['deals']:,}",
                f"{r['deals_per_s_best']:,.0f}",
                f"{r['decisions_per_deal']:.1f}",
                f"{r['decisions_per_s_best']:,.0f}",
                f"{r['deals_per_s_best'] / s['deals_per_s_best']:.3f}",
                f"{r['decisions_per_s_best'] / s['decisions_per_s_best']:.3f}",
            )
        console.print(table)
        console.print(f"parameters {spiel.parameters}. {spiel.note}", markup=False)
    console.print(f"total wall time {wall:.1f} s")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--deals", type=int, default=DEFAULT_DEALS, help=f"deals per timed run (default {DEFAULT_DEALS})"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of every random driver (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    parser.add_argument(
        "--repeats",
        type=int,
        default=DEFAULT_REPEATS,
        help=f"timed runs per figure (default {DEFAULT_REPEATS})",
    )
    parser.add_argument(
        "--positions",
        type=int,
        default=DEFAULT_POSITIONS,
        help=f"play positions for legal-move timing (default {DEFAULT_POSITIONS})",
    )
    parser.add_argument(
        "--openspiel-deals",
        type=int,
        default=None,
        help=f"OpenSpiel deals per timed run (default {OPENSPIEL_DEALS_FACTOR} x --deals)",
    )
    args = parser.parse_args(argv)
    for name in ("deals", "repeats", "positions"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if args.openspiel_deals is None:
        args.openspiel_deals = OPENSPIEL_DEALS_FACTOR * args.deals
    elif args.openspiel_deals < 1:
        parser.error("--openspiel-deals must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    env = environment()
    load_before = _load()
    wall = time.perf_counter()
    deal_runs = [
        bench_deals(game, driver, args.deals, args.seed, args.repeats)
        for game in GAMES
        for driver in DRIVERS
        if driver != "mask" or game in MASK_GAMES
    ]
    positions = sample_positions(args.positions, args.seed)
    legal_runs = bench_legal(positions, args.repeats)
    spiel = bench_openspiel(args.openspiel_deals, args.seed, args.repeats)
    wall = time.perf_counter() - wall
    load_after = _load()
    if args.json:
        report = {
            "environment": env,
            "options": {k: v for k, v in vars(args).items() if k != "json"},
            "statistic": f"best of {args.repeats}",
            "load_average_before": load_before,
            "load_average_after": load_after,
            "deals": [r.summary() for r in deal_runs],
            "drivers_agree": all(
                a.checksum == b.checksum for a in deal_runs for b in deal_runs if a.game == b.game
            ),
            "legal_moves": {"positions": len(positions), "runs": [r.summary() for r in legal_runs]},
            "openspiel": spiel.summary(),
            "wall_s": wall,
        }
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        console = Console()
        if not console.is_terminal:
            console = Console(width=130)
        print_report(
            console, env, args, deal_runs, legal_runs, len(positions), spiel, load_before, load_after, wall
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

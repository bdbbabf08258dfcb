"""Decision latency through the web server's bot pool (:mod:`atout.server.botpool`), the way the
tables ask it: ``T`` tables at once, each a seeded 4-player deal with the bot in every seat, every
decision a view's wire JSON sent to the pool and awaited.

Run with ``.venv/bin/python bench/botpool.py [--workers 2] [--deals 2] [--expert-deals 2]
[--repeats 3] [--compare SRC] [--ecart-deals N] [--json]``. For ``rules`` and ``expert:fast``, with 1 and 4 tables,
a fresh pool of ``--workers`` processes; each table first plays one deal uncounted (the workers
start and load the bots), then ``--deals`` deals (``--expert-deals`` for the expert), its bots
forgotten at each deal's end where the pool keeps a bot per key. Per decision: the time from the
call to the answer (median and p95 in ms), and the decisions answered per second over all tables.
Each row is run ``--repeats`` times: the table gives the median of each figure over the runs, the
decisions of all runs and the slowest decision of all.

``--compare SRC`` measures another tree's pool too, e.g. the code before a change
(``git archive REV src | tar -x -C /tmp/before``, then ``--compare /tmp/before/src``): each run
of a row is made in a child process with ``SRC`` first on the import path, next to a run of this
tree's, in alternate order, so that both meet the same load (the machine may be shared). Both
play the same deals; the answers may differ where the bots keep state.

``--ecart-deals N`` also times the expert's écarts (``fast`` and ``strong``, 3, 4 and 5 players,
``N`` seeded deals each, bid by the rules bot, in this process): the first card, where the whole
écart is chosen by simulation, the later cards, discarded from the plan the bot keeps, and the
whole écart so, beside what it would cost a bot that keeps no state and must choose it anew at
each card (the first card's time times the cards). ``--repeats 0`` leaves out the pool's rows.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

from atout.bots import make_bot
from atout.engine.actions import ACTIONS, ActionKind
from atout.games import is_card_play, new_deal
from atout.rules import Rules
from atout.server.botpool import BotPool

SPECS = ("rules", "expert:fast")
TABLES = (1, 4)


async def play_table(pool: BotPool, spec: str, name: str, deals: int, seed: int, times: list[float]) -> None:
    """``deals`` seeded deals of one table, each decision asked of the pool and timed."""
    keyed = "key" in inspect.signature(pool.decide).parameters
    clock = time.perf_counter
    for number in range(deals):
        deal = new_deal(Rules(players=4), dealer=number % 4, rng=1000 * seed + number)
        while not deal.is_over():
            seat = deal.current_player
            text = json.dumps(deal.view(seat).to_json())
            start = clock()
            if keyed:
                words = await pool.decide(spec, text, f"{name}/{number}/{seat}")
            else:
                words = await pool.decide(spec, text)  # type: ignore[call-arg]
            times.append(clock() - start)
            deal.apply(deal.parse(words))
        if keyed:
            pool.forget(f"{name}/")


async def measure_row(spec: str, tables: int, workers: int, deals: int) -> dict[str, Any]:
    """One row: a fresh pool, a deal per table uncounted, then the timed deals."""
    pool = BotPool(workers)
    pool.start()
    await pool.ready()
    try:
        warmup: list[float] = []
        await asyncio.gather(
            *(play_table(pool, spec, f"w{t}", 1, 900 + t, warmup) for t in range(max(tables, workers)))
        )
        times: list[float] = []
        start = time.perf_counter()
        await asyncio.gather(*(play_table(pool, spec, f"t{t}", deals, t, times) for t in range(tables)))
        elapsed = time.perf_counter() - start
    finally:
        pool.close()
    ordered = sorted(times)
    return {
        "bot": spec,
        "tables": tables,
        "workers": workers,
        "decisions": len(times),
        "median_ms": 1000 * statistics.median(ordered),
        "p95_ms": 1000 * ordered[int(0.95 * (len(ordered) - 1))],
        "max_ms": 1000 * ordered[-1],
        "per_s": len(times) / elapsed,
    }


def run_elsewhere(src: str, spec: str, tables: int, workers: int, deals: int) -> dict[str, Any]:
    """The same row measured in a child process with another tree's code first on the path."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    args = ["--row", spec, str(tables), "--workers", str(workers), "--deals", str(deals), "--json"]
    out = subprocess.run(
        [sys.executable, __file__, *args], env=env, capture_output=True, text=True, check=True
    )
    row: dict[str, Any] = json.loads(out.stdout)
    return row


def ecart_costs(spec: str, players: int, deals: int) -> dict[str, Any]:
    """What the bot's écarts cost in seeded deals bid by the rules bot: the first card (the
    simulation that chooses the whole écart), each later card (from the plan kept), and an
    écart whose every card is chosen anew (its first card's cost times its cards: a bot that
    keeps no state and rebuilds the plan from each view)."""
    rules_bot = make_bot("rules")
    firsts: list[float] = []
    laters: list[float] = []
    kept: list[float] = []
    rebuilt: list[float] = []
    make_bot(spec, rng=0)  # imports
    for seed in range(-1, deals):
        deal = new_deal(Rules(players=players), rng=seed)
        bot = make_bot(spec, rng=seed)
        times: list[float] = []
        while not is_card_play(deal) and not deal.is_over():
            legal = deal.legal_actions()
            view = deal.view(deal.current_player)
            if ACTIONS[legal[0]].kind is ActionKind.DISCARD:
                start = time.perf_counter()
                action = bot.choose(view, legal)
                times.append(time.perf_counter() - start)
            else:
                action = rules_bot.choose(view, legal)
            deal.apply(action)
        if times and seed >= 0:  # the first deal loads the compiled kernels
            firsts.append(times[0])
            laters.extend(times[1:])
            kept.append(sum(times))
            rebuilt.append(times[0] * len(times))
    return {
        "bot": spec,
        "players": players,
        "ecarts": len(firsts),
        "cards": (len(firsts) + len(laters)) / len(firsts),
        "first_median_ms": 1000 * statistics.median(firsts),
        "first_max_ms": 1000 * max(firsts),
        "later_median_ms": 1000 * statistics.median(laters),
        "kept_median_ms": 1000 * statistics.median(kept),
        "rebuilt_median_ms": 1000 * statistics.median(rebuilt),
    }


def summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Repeated runs of a row as one: the decisions of all, the median of each figure, the max of all."""
    row = dict(runs[0])
    row["decisions"] = sum(r["decisions"] for r in runs)
    for field in ("median_ms", "p95_ms", "per_s"):
        row[field] = statistics.median(r[field] for r in runs)
    row["max_ms"] = max(r["max_ms"] for r in runs)
    row["runs"] = len(runs)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--workers", type=int, default=2, help="worker processes (the server's default: 2)")
    parser.add_argument("--deals", type=int, default=2, help="timed deals per table of the rules bot")
    parser.add_argument("--expert-deals", type=int, default=2, help="timed deals per table of the expert")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each row (the median is shown)")
    parser.add_argument("--compare", metavar="SRC", help="another tree's src directory, measured too")
    parser.add_argument(
        "--ecart-deals", type=int, default=0, help="also time the expert's écarts in this many deals"
    )
    parser.add_argument("--row", nargs=2, metavar=("SPEC", "TABLES"), help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    if args.row:
        row = asyncio.run(measure_row(args.row[0], int(args.row[1]), args.workers, args.deals))
        print(json.dumps(row))
        return
    rows: list[dict[str, Any]] = []
    for spec in SPECS:
        deals = args.deals if spec == "rules" else args.expert_deals
        for tables in TABLES:
            runs: dict[str, list[dict[str, Any]]] = {code: [] for code in (args.compare, "this tree") if code}
            for repeat in range(args.repeats):
                for code in list(runs)[:: -1 if repeat % 2 else 1]:
                    if code == "this tree":
                        row = asyncio.run(measure_row(spec, tables, args.workers, deals))
                    else:
                        row = run_elsewhere(code, spec, tables, args.workers, deals)
                    runs[code].append(row)
            rows.extend({"code": code, **summary(measured)} for code, measured in runs.items() if measured)
    ecarts = [
        ecart_costs(spec, players, args.ecart_deals)
        for spec in ("expert:fast", "expert:strong")
        for players in (3, 4, 5)
        if args.ecart_deals
    ]
    if args.json:
        print(json.dumps({"decisions": rows, "ecarts": ecarts}, indent=1))
        return
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    header = f"{'code':<16} {'bot':<12} {'tables':>6} {'decisions':>9} {'median ms':>9} {'p95 ms':>8} {'max ms':>8} {'decisions/s':>11}"
    if rows:
        print(header)
        print("-" * len(header))
    for r in rows:
        print(
            f"{r['code'][-16:]:<16} {r['bot']:<12} {r['tables']:>6} {r['decisions']:>9} {r['median_ms']:>9.2f} "
            f"{r['p95_ms']:>8.2f} {r['max_ms']:>8.1f} {r['per_s']:>11.1f}"
        )
    if ecarts:
        header = (
            f"{'bot':<14} {'players':>7} {'écarts':>6} {'cards':>5} {'1st card ms':>11} {'1st max ms':>10} "
            f"{'later ms':>8} {'écart, plan kept ms':>19} {'écart, rebuilt ms':>17}"
        )
        print()
        print(header)
        print("-" * len(header))
    for e in ecarts:
        print(
            f"{e['bot']:<14} {e['players']:>7} {e['ecarts']:>6} {e['cards']:>5.1f} {e['first_median_ms']:>11.1f} "
            f"{e['first_max_ms']:>10.1f} {e['later_median_ms']:>8.3f} {e['kept_median_ms']:>19.1f} "
            f"{e['rebuilt_median_ms']:>17.1f}"
        )


if __name__ == "__main__":
    main()

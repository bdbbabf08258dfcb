"""The score keeper on long sessions: ``atout score`` on 1,000, 10,000 and 100,000 deals.

Writes a session of random valid 4-player summaries (takers, contracts, piles, petit au bout,
poignées, chelems) to a temporary directory, then runs ``python -m atout score FILE`` (and
``--json``) in a fresh process for each size and prints the wall time with start-up, the deals
per second, the process's CPU time and its peak memory (maximum resident set size, from
``os.wait4``):

    .venv/bin/python bench/scoresheet.py
    .venv/bin/python bench/scoresheet.py --sizes 1000 10000 --json

The peak memory should not grow with the session: the input is read deal by deal and the
rows go to a temporary file. ``--src DIR`` times the code of another tree (its ``src``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from atout.scoring.piles import open_span

CONTRACTS = ("petite", "garde", "garde_sans", "garde_contre")


def summary(rng: random.Random) -> dict[str, Any]:
    """A random 4-player deal summary that can happen."""
    contract = rng.choice(CONTRACTS)
    out: dict[str, Any] = {"game": "french", "players": 4, "taker": rng.randrange(4), "contract": contract}
    slam = rng.random()
    if slam < 0.01:
        out.update(oudlers=3, points=91, chelem={"announced": rng.random() < 0.5, "won_by": "attack"})
        if contract == "garde_contre":
            out.update(oudlers=3, points=88, chelem={"announced": False, "won_by": "attack"})
    else:
        oudlers = rng.randrange(4)
        low, high = open_span(4, 6, contract, False, oudlers)
        out.update(oudlers=oudlers, points=rng.randrange(low // 2 + 1, high // 2))
        if oudlers and rng.random() < 0.05:
            out["petit_au_bout"] = "attack"
        elif oudlers < 3 and rng.random() < 0.05:
            out["petit_au_bout"] = "defense"
    if rng.random() < 0.1:
        out["poignees"] = [{"side": rng.choice(("attack", "defense")), "level": "simple"}]
    return out


def write_session(path: Path, deals: int, seed: int) -> None:
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as out:
        out.write("[\n")
        for i in range(deals):
            out.write(("" if i == 0 else ",\n") + json.dumps(summary(rng)))
        out.write("\n]\n")


def run(path: Path, json_output: bool, src: str | None) -> dict[str, Any]:
    """One fresh ``python -m atout score`` process: its wall time, CPU time and peak memory."""
    args = [sys.executable, "-m", "atout", "score", str(path), *(["--json"] if json_output else [])]
    env = {**os.environ, "PYTHONPATH": src} if src else None
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(args, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            err.seek(0)
            raise SystemExit(f"atout score failed: {err.read().decode()[-500:]}")
        output_bytes = out.tell()
    return {
        "seconds": seconds,
        "cpu_seconds": usage.ru_utime + usage.ru_stime,
        "peak_mib": usage.ru_maxrss / 1024,
        "output_bytes": output_bytes,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    parser.add_argument("--src", help="time the atout found in this directory (another tree's src)")
    options = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for deals in options.sizes:
            path = Path(tmp) / f"session-{deals}.json"
            write_session(path, deals, options.seed)
            for mode in ("table", "json"):
                result = run(path, mode == "json", options.src)
                results.append(
                    {"deals": deals, "output": mode, **result, "deals_per_s": deals / result["seconds"]}
                )
    if options.json:
        print(json.dumps({"python": sys.version.split()[0], "results": results}))
        return
    print(f"{'deals':>8}  {'output':<6}  {'seconds':>8}  {'CPU s':>7}  {'deals/s':>9}  {'peak MiB':>8}")
    for r in results:
        print(
            f"{r['deals']:>8,}  {r['output']:<6}  {r['seconds']:>8.2f}  {r['cpu_seconds']:>7.2f}"
            f"  {r['deals_per_s']:>9,.0f}  {r['peak_mib']:>8.1f}"
        )
    print("seconds: wall time of a fresh `python -m atout score` process, start-up included;")
    print("CPU s: its user + system time (the fairer figure on a busy machine); deals/s: by wall time")


if __name__ == "__main__":
    main()

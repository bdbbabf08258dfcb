"""Arena throughput over local processes (``--workers``) and over a local Ray cluster (``--ray``).

Run with ``.venv/bin/python bench/arena_scale.py [--rules-deals N] [--expert-deals M] [--seed S]
[--repeats R] [--json]`` (needs the ray extra). Two matches, French 4 players, full track: rules
against rules with rules elsewhere (``N`` deals, default 1000: a cheap bot, so the arena's own
costs show) and ``expert:fast`` against rules with rules elsewhere (``M`` deals, default 100: a
bot that thinks). Each is run by ``atout arena ... --json`` as a child process with ``--workers 1``
and ``--workers 2``, and with ``--ray`` on a Ray head this script starts on this machine with 1 and
then 2 CPUs (its own port and folder, stopped by ending its process group). At each size, every
match runs locally then on Ray, in turn, ``R`` times (default 2), so that both see the same load
of a shared machine; a one-deal rules run at each size shows the fixed cost of starting (the
processes' spawn, or joining the cluster and its workers' imports).

``seconds`` is the report's (the best of ``R``): from the arena's start to its last deal, the
workers' start included but not the command's imports (the JSON's ``command_s``, the child's wall
time, includes them). ``deals/s`` is deals over seconds, ``per worker`` that over the processes or
Ray CPUs, ``start s`` the one-deal run's seconds at that place, ``Ray cost`` Ray's seconds over the
local processes' at the same size, minus one, and ``past start`` the same with each place's start
taken off both. The script stops with an error if a match's report differs anywhere but its
timings between any two runs.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from rich.console import Console
from rich.table import Table

BIN = Path(sys.executable).parent
SIZES = (1, 2)
TIMINGS = ("seconds", "ray", "workers")
RAY_STARTED = "Ray runtime started"
RULES = "rules vs rules"
EXPERT = "expert:fast vs rules"
MATCHES = {
    RULES: ("--candidate", "rules", "--baseline", "rules", "--reference", "rules"),
    EXPERT: ("--candidate", "expert:fast", "--baseline", "rules", "--reference", "rules"),
}
START = "start (1 rules deal)"


@dataclass
class Runs:
    """One match at one place (local processes or Ray, at one size): its seconds, run by run."""

    match: str
    place: str
    workers: int
    deals: int
    seconds: list[float] = field(default_factory=list)
    """The report's seconds: from the arena's start to its last deal, workers' start included."""
    command: list[float] = field(default_factory=list)
    """The command's wall seconds, its imports included."""

    @property
    def best(self) -> float:
        return min(self.seconds)


def row(runs: Runs, start: Runs, local: Runs | None, local_start: Runs | None) -> dict[str, Any]:
    """A match's figures at one place; ``local`` and ``local_start`` are the local processes' at the
    same size when ``runs`` are Ray's."""
    played = runs.best - start.best
    figures: dict[str, Any] = {
        "match": runs.match,
        "place": runs.place,
        "workers": runs.workers,
        "deals": runs.deals,
        "seconds": round(runs.best, 2),
        "deals_per_s": round(runs.deals / runs.best, 2),
        "deals_per_s_per_worker": round(runs.deals / runs.best / runs.workers, 2),
        "start_s": round(start.best, 2),
        "ray_cost": None,
        "ray_cost_past_start": None,
        "command_s": round(min(runs.command), 2),
        "all_seconds": [round(s, 2) for s in runs.seconds],
    }
    if local is not None and local_start is not None:
        figures["ray_cost"] = round(runs.best / local.best - 1, 3)
        local_played = local.best - local_start.best
        if played > 0 and local_played > 0:
            figures["ray_cost_past_start"] = round(played / local_played - 1, 3)
    return figures


def _figures(report: dict[str, Any]) -> dict[str, Any]:
    """The report without where and how fast it ran."""
    figures = {k: v for k, v in report.items() if k not in TIMINGS}
    for side in ("candidate", "baseline"):
        figures[side] = {k: v for k, v in report[side].items() if k != "ms_per_decision"}
    return figures


def arena(args: list[str]) -> tuple[dict[str, Any], float]:
    """The report of ``atout arena ARGS --json`` and the command's wall seconds; exit on failure."""
    started = time.perf_counter()
    done = subprocess.run([str(BIN / "atout"), "arena", *args, "--json"], capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
        sys.exit(f"error: atout arena {' '.join(args)}: {lines[-1]}")
    report: dict[str, Any] = json.loads(done.stdout)
    return report, elapsed


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _watch(stream: IO[str], lines: list[str], started: threading.Event) -> None:
    """Keep the output of ``ray start`` (the pipe never fills) and tell when the head is up."""
    for line in stream:
        lines.append(line)
        if RAY_STARTED in line:
            started.set()
    started.set()


@contextlib.contextmanager
def ray_head(cpus: int) -> Iterator[tuple[str, float]]:
    """A Ray head on this machine with ``cpus`` CPUs: its address and how long it took to start.
    It runs in a process group of its own with a folder of its own, both ended on leaving (other
    clusters on the machine live on)."""
    if not (BIN / "ray").exists():
        sys.exit("error: ray is not installed: pip install -e '.[ray]' (or make test)")
    port = _free_port()
    folder = Path(tempfile.mkdtemp(prefix="ray-", dir="/tmp"))  # short: Ray's socket paths are limited
    command = [
        str(BIN / "ray"),
        *("start", "--head", f"--port={port}", f"--num-cpus={cpus}", f"--temp-dir={folder}", "--block"),
        *("--include-dashboard=false", "--disable-usage-stats"),
    ]
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    clock = time.perf_counter()
    head = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True
    )
    lines: list[str] = []
    started = threading.Event()
    assert head.stdout is not None
    threading.Thread(target=_watch, args=(head.stdout, lines, started), daemon=True).start()
    try:
        if not started.wait(timeout=300) or not any(RAY_STARTED in line for line in lines):
            tail = "".join(lines).strip().splitlines() or ["no output"]
            sys.exit(f"error: ray start failed: {tail[-1]}")
        yield f"127.0.0.1:{port}", time.perf_counter() - clock
    finally:
        head.terminate()  # the head drains and stops what it started
        try:
            head.wait(timeout=60)
        finally:
            with contextlib.suppress(ProcessLookupError):  # anything of its group that outlived it
                os.killpg(head.pid, signal.SIGKILL)
            shutil.rmtree(folder, ignore_errors=True)


def measure(
    deals: dict[str, int], seed: int, repeats: int, console: Console
) -> tuple[list[Runs], list[float]]:
    """Every match at every size, locally and on Ray, in turn, each ``repeats`` times; and each Ray
    head's start seconds. The first runs of each size are one rules deal (the ``START`` match)."""
    runs: list[Runs] = []
    heads: list[float] = []
    reference: dict[str, dict[str, Any]] = {}
    counts = {START: 1, **deals}
    for size in SIZES:
        with ray_head(size) as (address, took):
            heads.append(took)
            places = {f"workers {size}": ["--workers", str(size)], f"Ray {size} CPU": ["--ray", address]}
            sized = {(m, p): Runs(m, p, size, n) for m, n in counts.items() for p in places}
            for repeat in range(repeats):
                for (match, place), runs_here in sized.items():
                    console.print(f"[dim]{match}, {place}, run {repeat + 1} of {repeats}[/dim]")
                    pair = MATCHES[RULES if match == START else match]
                    where = places[place]
                    report, command = arena(
                        [*pair, "--deals", str(counts[match]), "--seed", str(seed), *where]
                    )
                    figures = _figures(report)
                    if reference.setdefault(match, figures) != figures:
                        sys.exit(f"error: {match}: {place} gave another report than the first run")
                    runs_here.seconds.append(float(report["seconds"]))
                    runs_here.command.append(command)
            runs.extend(sized.values())
    return runs, heads


def rows(runs: list[Runs]) -> list[dict[str, Any]]:
    """Each match's figures at each place, Ray's beside the local processes' of the same size."""
    by = {(r.match, r.place): r for r in runs}
    out: list[dict[str, Any]] = []
    for runs_here in runs:
        if runs_here.match == START:
            continue
        start = by[START, runs_here.place]
        local_place = f"workers {runs_here.workers}"
        local = by[runs_here.match, local_place] if runs_here.place != local_place else None
        local_start = by[START, local_place] if local is not None else None
        out.append(row(runs_here, start, local, local_start))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rules-deals", type=int, default=1000, help="deals of rules vs rules")
    parser.add_argument("--expert-deals", type=int, default=100, help="deals of expert:fast vs rules")
    parser.add_argument("--seed", type=int, default=1, help="the arena's seed")
    parser.add_argument("--repeats", type=int, default=2, help="runs of each; the best counts")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    for name in ("rules_deals", "expert_deals", "repeats"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    console = Console(stderr=True, quiet=args.json)
    load_before = os.getloadavg()
    deals = {RULES: args.rules_deals, EXPERT: args.expert_deals}
    runs, heads = measure(deals, args.seed, args.repeats, console)
    load_after = os.getloadavg()
    figures = sorted(rows(runs), key=lambda r: list(deals).index(r["match"]))
    machine = {
        "cpus": os.cpu_count(),
        "processor": platform.processor() or platform.machine(),
        "python": platform.python_version(),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in load_after],
        "ray_head_start_s": [round(h, 2) for h in heads],
    }
    if args.json:
        result = {"seed": args.seed, "repeats": args.repeats, "machine": machine, "runs": figures}
        print(json.dumps(result, indent=1))
        return
    table = Table(
        title=f"atout arena, French 4 players, full track, seed {args.seed}, best of {args.repeats}"
    )
    columns = (
        "match",
        "where",
        "deals",
        "seconds",
        "deals/s",
        "per worker",
        "start s",
        "Ray cost",
        "past start",
    )
    for column in columns:
        table.add_column(column, justify="left" if column in ("match", "where") else "right")
    for f in figures:
        cost, past = f["ray_cost"], f["ray_cost_past_start"]
        table.add_row(
            f["match"],
            f["place"],
            str(f["deals"]),
            f"{f['seconds']:.2f}",
            f"{f['deals_per_s']:.1f}",
            f"{f['deals_per_s_per_worker']:.1f}",
            f"{f['start_s']:.2f}",
            "" if cost is None else f"{cost:+.0%}",
            "" if past is None else f"{past:+.0%}",
        )
    out = Console(width=max(Console().width, 120))
    out.print(
        f"{machine['cpus']} CPUs ({machine['processor']}), Python {machine['python']}, load average "
        f"{load_before[0]:.1f} before and {load_after[0]:.1f} after; Ray heads started in "
        + " and ".join(f"{h:.1f} s" for h in heads)
    )
    out.print(table)


if __name__ == "__main__":
    main()

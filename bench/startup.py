"""Start-up cost of the ``atout`` command: the CPU time of each command, beside bare Python.

Run with ``.venv/bin/python bench/startup.py [--runs N] [--json]``. Each command runs ``N`` times
(default 7) as a child process, after one untimed run that fills the bytecode caches; its figure
is the median CPU time (user + system) of those runs, read from ``resource.getrusage(RUSAGE_CHILDREN)``
before and after each child, so the load of other processes on the machine does not count. The wall
time is printed beside it. The commands are those a person types to look something up (help, the
version, the rules, a score, a replay), one that starts a game's help, and a one-deal simulation;
``python -c pass`` and ``python -c "import atout"`` show the floor every command pays.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from atout.games import new_deal
from atout.records import write_record
from atout.rules import Rules

DEFAULT_RUNS = 7
SUMMARY = '{"game": "french", "players": 4, "taker": 0, "contract": "garde", "oudlers": 2, "points": 49}\n'
"""The deal summary ``atout score -`` reads (README's example)."""


@dataclass
class Timing:
    """One command's runs: CPU seconds (user + system) and wall seconds, run by run."""

    label: str
    cpu: list[float]
    wall: list[float]
    exit_code: int = 0
    """The first non-zero exit status, if a run failed (its times are then of that failure)."""

    def as_dict(self) -> dict[str, object]:
        return {
            "command": self.label,
            "cpu_median_s": round(statistics.median(self.cpu), 4),
            "cpu_min_s": round(min(self.cpu), 4),
            "wall_median_s": round(statistics.median(self.wall), 4),
            "cpu_s": [round(t, 4) for t in self.cpu],
            "exit_code": self.exit_code,
        }


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_command(label: str, argv: list[str], stdin: str, runs: int) -> Timing:
    """``runs`` timed runs of ``argv`` (after one untimed run); a failure is kept, not hidden."""
    cpu: list[float] = []
    wall: list[float] = []
    exit_code = 0
    for run in range(runs + 1):
        before, started = _children_cpu(), time.perf_counter()
        done = subprocess.run(argv, input=stdin, capture_output=True, text=True, check=False)
        elapsed, used = time.perf_counter() - started, _children_cpu() - before
        exit_code = exit_code or done.returncode
        if run:
            cpu.append(used)
            wall.append(elapsed)
    return Timing(label, cpu, wall, exit_code)


def write_deal_record(folder: Path) -> Path:
    """A finished 4-player deal, played at random and written by the records API."""
    rng = random.Random(1)
    deal = new_deal(Rules(), dealer=0, rng=rng)
    while not deal.is_over():
        deal.apply(rng.choice(deal.legal_actions()))
    path = folder / "deal.json"
    path.write_text(write_record(deal, 1), encoding="utf-8")
    return path


def commands(record: Path) -> list[tuple[str, list[str], str]]:
    """(label, argv, stdin) of every command timed."""
    python = sys.executable
    atout = str(Path(python).parent / "atout")
    return [
        ("python -c pass", [python, "-c", "pass"], ""),
        ('python -c "import atout"', [python, "-c", "import atout"], ""),
        ("atout --help", [atout, "--help"], ""),
        ("atout --version", [atout, "--version"], ""),
        ("atout rules", [atout, "rules"], ""),
        ("atout score - (one summary)", [atout, "score", "-"], SUMMARY),
        ("atout replay FILE", [atout, "replay", str(record)], ""),
        ("atout play --help", [atout, "play", "--help"], ""),
        ("atout simulate --deals 1", [atout, "simulate", "--deals", "1"], ""),
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=DEFAULT_RUNS, help="timed runs per command")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    with tempfile.TemporaryDirectory() as folder:
        record = write_deal_record(Path(folder))
        timings = [time_command(label, cmd, stdin, args.runs) for label, cmd, stdin in commands(record)]
    if args.json:
        print(json.dumps({"runs": args.runs, "commands": [t.as_dict() for t in timings]}, indent=1))
        return
    table = Table(title=f"Start-up, median of {args.runs} runs (CPU = user + system of the child)")
    table.add_column("command")
    table.add_column("CPU s", justify="right")
    table.add_column("min CPU s", justify="right")
    table.add_column("wall s", justify="right")
    table.add_column("status")
    for t in timings:
        table.add_row(
            t.label,
            f"{statistics.median(t.cpu):.3f}",
            f"{min(t.cpu):.3f}",
            f"{statistics.median(t.wall):.3f}",
            "ok" if t.exit_code == 0 else f"failed (exit {t.exit_code})",
        )
    console = Console()
    console.print(f"Python {sys.version.split()[0]}, {sys.executable}")
    console.print(table)


if __name__ == "__main__":
    main()

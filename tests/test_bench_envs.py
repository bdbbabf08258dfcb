"""bench/envs.py runs as its docstring says and measures every row (none "not measured" where the
rl and solver-fast extras are installed, as make test installs them)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench" / "envs.py"


def test_every_environment_is_measured() -> None:
    run = subprocess.run(
        [sys.executable, str(BENCH), "--seconds", "0.3", "--rounds", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    rows = {row["name"]: row for row in report["rows"]}
    assert set(rows) == {"pettingzoo", "openspiel", "batched, stepped", "batched, compiled", "tarok (C++)"}
    for name, row in rows.items():
        assert row["deals"] > 0 and row["deals_per_second"] > 0, (name, row["note"])
    assert rows["pettingzoo"]["steps"] / rows["pettingzoo"]["deals"] > 4  # whole deals, not one step
    assert report["batched_over_tarok_deals"] == (
        rows["batched, compiled"]["deals_per_second"] / rows["tarok (C++)"]["deals_per_second"]
    )

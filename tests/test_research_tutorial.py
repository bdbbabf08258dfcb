"""docs/research.md's tutorial, as a new user runs it, shortened: train the example policy on the
PettingZoo environment, then measure it in the arena through ``--bot-command``."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "research"


def test_train_then_measure_in_the_arena(tmp_path: Path) -> None:
    policy = tmp_path / "policy.npz"
    trained = subprocess.run(
        [sys.executable, str(EXAMPLES / "train_policy.py"), "--minutes", "0.05", "--out", str(policy)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert trained.returncode == 0, trained.stderr
    assert trained.stdout.startswith("trained on ") and policy.exists()
    weights = np.load(policy)["W"]
    assert weights.any(), "the policy learnt nothing from its deals"
    bot = shlex.join([sys.executable, str(EXAMPLES / "policy_bot.py"), str(policy)])
    arena = subprocess.run(
        [sys.executable, "-m", "atout", "arena", "--bot-command", bot, "--deals", "3", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert arena.returncode == 0, arena.stderr
    report = json.loads(arena.stdout)
    assert report["candidate_bot"] == bot and report["games_played"] == 24
    low, high = report["ci95"]
    assert low <= report["mean_d"] <= high


def test_the_trainer_refuses_bad_arguments(tmp_path: Path) -> None:
    run = subprocess.run(
        [
            sys.executable,
            str(EXAMPLES / "train_policy.py"),
            "--minutes",
            "0",
            "--out",
            str(tmp_path / "p.npz"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "--minutes must be positive" in run.stderr
    assert "Traceback" not in run.stderr


def test_the_examples_of_docs_research_md_run_as_written() -> None:
    """Every Python example of the tutorial page runs: the PettingZoo loop, ISMCTS made on the
    OpenSpiel game, the batched simulator's loop (whose deals end with scores summing to 0)."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "research.md").read_text(encoding="utf-8")
    examples = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    assert len(examples) == 3
    for example in examples:
        namespace: dict[str, Any] = {}
        exec(compile(example, "docs/research.md", "exec"), namespace)
    assert namespace["scores"].shape == (1024, 4) and not namespace["scores"].sum(axis=1).any()

"""Fast start: the commands that look something up (help, version, rules, score, replay) import
none of the heavy modules (numba and numpy, ray, the arena, the bots), which only the commands that
play (play, arena) load, inside their functions. Checked on the modules a real run of each command
has loaded when it exits, not on timings (``bench/startup.py`` gives those)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

HEAVY = ("numba", "numpy", "llvmlite", "ray", "atout.arena", "atout.bots", "atout.bots.expert")
"""What a look-up must not import (``atout.bots`` loads the registry, which loads every bot)."""

WRAPPER = """
import atexit, json, sys
out = sys.argv[1]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
sys.argv = ["atout", *sys.argv[2:]]
from atout.cli.main import main
main()
"""
"""Runs ``atout ARGS`` as the console script does and writes, at exit, the modules it loaded."""

SUMMARY = '{"game": "french", "players": 4, "taker": 0, "contract": "garde", "oudlers": 2, "points": 49}'


def _loaded(tmp_path: Path, args: list[str], stdin: str = "") -> tuple[set[str], str]:
    """The modules ``atout ARGS`` loaded (it must succeed), and its output."""
    out = tmp_path / "modules.json"
    command = [sys.executable, "-c", WRAPPER, str(out), *args]
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return set(json.loads(out.read_text(encoding="utf-8"))), done.stdout


LOOK_UPS = [
    (["--help"], "", "Usage"),
    (["--version"], "", "atout "),
    (["rules"], "", "fft"),
    (["rules", "tarock"], "", "austrian"),
    (["score", "-"], SUMMARY, "garde"),
    (["score", "-", "--json"], SUMMARY, '"scores"'),
    (["replay", "{record}"], "", "Trick"),
    (["play", "--help"], "", "--bot"),
    (["arena", "--help"], "", "--candidate"),
]


@pytest.mark.parametrize("args, stdin, shown", LOOK_UPS, ids=[" ".join(a) for a, _, _ in LOOK_UPS])
def test_a_look_up_imports_no_heavy_module(
    args: list[str],
    stdin: str,
    shown: str,
    tmp_path: Path,
    played: Callable[..., Any],
    record_file: Callable[[Any], Path],
) -> None:
    args = [str(record_file(played())) if a == "{record}" else a for a in args]
    modules, output = _loaded(tmp_path, args, stdin)
    assert shown in output  # the command did its work
    assert [m for m in HEAVY if m in modules] == []


def test_the_check_sees_a_heavy_import(tmp_path: Path) -> None:
    """The same check on a command that plays: the bots, the arena and numba are loaded there (by
    the expert: the registry imports each bot when first made)."""
    candidate = "expert:fast,samples=2,simulations=0"
    modules, _ = _loaded(tmp_path, ["arena", "--deals", "1", "-p", "3", "--json", "--candidate", candidate])
    assert {"atout.arena", "atout.bots", "atout.bots.expert", "numba"} <= modules

"""Honest dependencies: ``make run`` installs what playing needs and no more, ``make test`` what the
tests need; the core package requires neither numba, ray nor the independent bot (each is an
extra); the licence is MIT, in the metadata and in the LICENSE file."""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORE = {
    "typer",
    "rich",
    "pydantic",
    "fastapi",
    "uvicorn",
    "websockets",
    "sqlalchemy",
    "alembic",
    "platformdirs",
    "babel",
    "httpx",
    "prometheus-client",
    "uvloop",
    "httptools",
    "markdown-it-py",
}
"""What playing needs: the command line, the web game that `make run` serves (its workers relaying
to each other, its metrics, the rule book's pages), and their languages."""


def _planned(target: str, tmp_path: Path) -> str:
    """The commands ``make TARGET`` would run for a venv that does not exist yet (``make -n``)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    venv = tmp_path / "venv"
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    done = subprocess.run(
        ["make", "-n", "--no-print-directory", target, f"VENV={venv}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _extras(plan: str) -> set[str]:
    """The extras of every ``pip install -e '.[...]'`` in a plan."""
    found = re.findall(r"pip install .*-e '\.\[([^\]]*)\]'", plan)
    assert found, plan
    return {extra for group in found for extra in group.split(",")}


def test_make_run_installs_only_what_playing_needs(tmp_path: Path) -> None:
    """numba stays (the computer players' speed counts on it); no test tools, no ray, no magmacrunch."""
    plan = _planned("run", tmp_path)
    assert _extras(plan) == {"solver-fast"}
    assert "pip check" in plan
    # the bots' kernels are compiled once into numba's cache before the server starts
    assert plan.index("atout warm-up --no-solver") < plan.index("atout serve")
    assert plan.rstrip().endswith("atout serve --host 127.0.0.1 --port 8000")
    assert _extras(_planned("bench", tmp_path)) == {"solver-fast"}  # the benchmark needs no more


def test_make_test_installs_what_the_tests_need(tmp_path: Path) -> None:
    """The dev tools, numba, ray (tests/cli/test_arena_ray.py), the independent bot and the research
    environments' packages (tests/envs), checked by pip."""
    plan = _planned("test", tmp_path)
    assert _extras(plan) == {"dev", "solver-fast", "ray", "magmacrunch", "rl"}
    assert "pip check" in plan
    assert "--no-deps" not in plan
    assert re.search(r"atout warm-up$", plan, re.M)  # every kernel, the solver's too


def test_the_core_requires_no_optional_package() -> None:
    requirements = importlib.metadata.requires("atout") or []
    core = {re.split(r"[<>=; \[]", r, maxsplit=1)[0] for r in requirements if "extra ==" not in r}
    assert core == CORE
    optional = {
        r.split(";")[0].strip(): r.split("extra ==")[1].strip(' "') for r in requirements if "extra ==" in r
    }
    assert optional["ray>=2.9"] == "ray"
    assert optional["numba>=0.60"] == "solver-fast"
    assert optional["magmacrunch-tarot==0.1.1"] == "magmacrunch"
    assert {name for name, extra in optional.items() if extra == "rl"} == {
        "open-spiel>=1.5",
        "pettingzoo>=1.24",
        "gymnasium>=1.0",
        "numpy>=1.26",
    }


def test_the_licence_is_mit() -> None:
    metadata = importlib.metadata.metadata("atout")
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 the atout authors\n")

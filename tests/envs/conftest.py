"""What the environment tests share: the ``rl`` extra (numpy, PettingZoo, Gymnasium) must be
installed. Without it these tests are not collected, except under ``CI=true``, where the import
fails the run (``pip install -e '.[rl]'``)."""

from __future__ import annotations

import importlib.util
import os

import pytest

CI = os.environ.get("CI") == "true"
REQUIRED = ("numpy", "pettingzoo", "gymnasium")
MISSING = [name for name in REQUIRED if importlib.util.find_spec(name) is None]

if MISSING and not CI:
    collect_ignore_glob = ["test_*.py"]


def pytest_report_header(config: pytest.Config) -> str | None:
    """Say why the environment tests were left out."""
    if MISSING and not CI:
        return f"tests/envs not collected: {', '.join(MISSING)} missing (pip install -e '.[rl]')"
    return None

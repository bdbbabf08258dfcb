"""What the page tests share: Debian's chromium driven by Playwright, and the rule that a missing
tool skips a test except under ``CI=true``, where every test must run."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CI = os.environ.get("CI") == "true"


def missing(reason: str) -> None:
    """Skip for want of a tool, but fail under CI, where every test must run."""
    if CI:
        pytest.fail(f"CI=true: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless chromium for a test module (never a downloaded browser)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright for Python is not installed (pip install -e '.[dev]')")
    if not CHROMIUM.exists():
        missing("no /usr/bin/chromium")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield chromium
        chromium.close()

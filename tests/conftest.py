"""The ``magmacrunch`` marker: a test that needs the independent bot's package (``magmacrunch-tarot``,
the ``magmacrunch`` extra) is skipped where it is not installed, except under ``CI=true``, where
``make test`` installs it and the test must run (and so fails without it)."""

from __future__ import annotations

import os

import pytest

from atout.bots.magmacrunch import INSTALL, PACKAGE, installed


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "magmacrunch: needs the magmacrunch-tarot package (skipped without it unless CI=true)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if installed() or os.environ.get("CI") == "true":
        return
    skip = pytest.mark.skip(reason=f"{PACKAGE} is not installed ({INSTALL}); under CI=true it fails")
    for item in items:
        if item.get_closest_marker("magmacrunch") is not None:
            item.add_marker(skip)

"""Fixtures for the command-line tests: the ``atout`` app run in-process, and recorded deals."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from atout import i18n
from atout.bots.random_bot import RandomBot
from atout.cli.main import app
from atout.engine import FrenchDeal
from atout.records import write_record
from atout.rules import Rules

RunAtout = Callable[..., Result]


@pytest.fixture
def atout() -> RunAtout:
    """Run ``atout ARGS...`` with optional stdin text; stdout and stderr kept apart."""
    runner = CliRunner()

    def run(*args: str, input: str | None = None) -> Result:
        try:
            return runner.invoke(app, list(args), input=input)
        finally:
            i18n.use(None)  # a --lang is the process's: the next run starts from the environment's

    return run


def finished_deal(players: int = 4, seed: int = 0, **options: object) -> FrenchDeal:
    """A deal played to the end by random legal actions, with a contract taken (not cancelled)."""
    rules = Rules.from_options({"players": players, **options})
    for s in range(seed, seed + 100):
        rng = random.Random(s)
        deal = FrenchDeal.new(rules, dealer=s % players, rng=rng)
        bot = RandomBot(rng)
        while not deal.is_over():
            deal.apply(bot.choose(None, deal.legal_actions()))
        if deal.summary is not None:
            return deal
    raise AssertionError("no deal was played")


@pytest.fixture
def record_file(tmp_path: Path) -> Callable[[FrenchDeal], Path]:
    """Write a deal's record to a file and return its path."""

    def write(deal: FrenchDeal, name: str = "deal.json") -> Path:
        path = tmp_path / name
        path.write_text(write_record(deal), encoding="utf-8")
        return path

    return write


@pytest.fixture
def played() -> Callable[..., FrenchDeal]:
    """``played(players, seed, **options)``: a finished deal with a contract taken."""
    return finished_deal

"""Fixtures for the scoring tests: the score command run in a small typer app."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner, Result

from atout.cli.score import score_command

RunScore = Callable[..., Result]


@pytest.fixture
def score_app() -> typer.Typer:
    app = typer.Typer()
    app.command()(score_command)
    return app


@pytest.fixture
def run_score(score_app: typer.Typer, tmp_path: Path) -> RunScore:
    """Run the score command on a JSON value (written to a file) or on raw text given on stdin."""

    def run(data: object = None, *args: str, stdin: str | None = None) -> Result:
        if stdin is not None:
            return CliRunner().invoke(score_app, ["-", *args], input=stdin)
        path = tmp_path / "summary.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        return CliRunner().invoke(score_app, [str(path), *args])

    return run

"""A long session is scored deal by deal: the memory does not grow with it, the output is the
same as for a short one (rule book §3.14)."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path
from typing import Any

import typer
from typer.testing import CliRunner

GARDE: dict[str, Any] = {"game": "french", "players": 4, "taker": 0, "contract": "garde", "oudlers": 2}


def _session(deals: int) -> list[dict[str, Any]]:
    return [{**GARDE, "taker": i % 4, "points": 30 + i % 40} for i in range(deals)]


def _peak(score_app: typer.Typer, path: Path, *args: str) -> tuple[int, str]:
    tracemalloc.start()
    try:
        result = CliRunner().invoke(score_app, [str(path), *args])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.exit_code == 0, result.stderr
    return peak, result.stdout


def test_memory_does_not_grow_with_the_session_3_14(score_app: typer.Typer, tmp_path: Path) -> None:
    peaks = {}
    for deals in (500, 5000):
        path = tmp_path / f"session-{deals}.json"
        path.write_text(json.dumps(_session(deals)), encoding="utf-8")
        for args in ((), ("--json",)):
            peak, out = _peak(score_app, path, *args)
            peaks[deals, args] = peak - len(out) * 2  # the runner keeps the printed text
    for args in ((), ("--json",)):
        # ten times the deals, not ten times the memory (before: the whole session, then a
        # rich table of it, was held in memory)
        assert peaks[5000, args] < 1.5 * peaks[500, args] + 200_000, peaks


def test_json_of_a_long_session_is_the_text_json_dumps_writes_9(
    score_app: typer.Typer, tmp_path: Path
) -> None:
    path = tmp_path / "session.json"
    session = _session(300)
    path.write_text(json.dumps(session, indent=2), encoding="utf-8")
    result = CliRunner().invoke(score_app, [str(path), "--json"])
    data = json.loads(result.stdout)
    assert result.stdout == json.dumps(data) + "\n"
    assert len(data["deals"]) == 300 and data["totals"] == [
        sum(column) for column in zip(*(d["scores"] for d in data["deals"]), strict=True)
    ]


def test_table_of_a_long_session_has_one_line_per_deal_and_the_totals_3_14(
    score_app: typer.Typer, tmp_path: Path
) -> None:
    path = tmp_path / "session.json"
    path.write_text(json.dumps(_session(1000)), encoding="utf-8")
    lines = CliRunner().invoke(score_app, [str(path)]).stdout.splitlines()
    deals = [line for line in lines if line.strip()[:1].isdigit()]
    assert len(deals) == 1000 and deals[-1].lstrip().startswith("1000  ")
    totals = CliRunner().invoke(score_app, [str(path), "--json"])
    assert lines[-2].split()[1:] == [str(t) for t in json.loads(totals.stdout)["totals"]]

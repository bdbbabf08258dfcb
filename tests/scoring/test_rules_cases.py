"""Every worked case of the rule book's scoring cases (tests/scoring/worked_cases.json), scored through ``score --json``."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from atout.scoring import parse_summary, score, summary_to_json

CASES_FILE = Path(__file__).with_name("worked_cases.json")


def _load_cases() -> list[Any]:
    if not CASES_FILE.exists():
        return [pytest.param(None, id="missing")]
    cases = json.loads(CASES_FILE.read_text(encoding="utf-8"))
    return [pytest.param(case, id=case["id"]) for case in cases]


def _require(case: dict[str, Any] | None) -> dict[str, Any]:
    if case is None:
        message = f"worked cases not found at {CASES_FILE}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return case


@pytest.mark.parametrize("case", _load_cases())
def test_worked_case_scores_through_score_command_9(case: dict[str, Any] | None, run_score: Any) -> None:
    case = _require(case)
    result = run_score(case["input"], "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == {"scores": case["expected"]["scores"]}


@pytest.mark.parametrize("case", _load_cases())
def test_worked_case_summary_round_trips_9(case: dict[str, Any] | None) -> None:
    case = _require(case)
    summary = parse_summary(case["input"])
    assert parse_summary(summary_to_json(summary)) == summary
    assert score(summary) == case["expected"]["scores"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_worked_cases_as_a_session_give_column_totals_3_14(players: int, run_score: Any) -> None:
    cases = [_require(p.values[0]) for p in _load_cases()]
    chosen = [c for c in cases if c["input"]["game"] == "french" and c["input"]["players"] == players]
    result = run_score([c["input"] for c in chosen], "--json")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["deals"] == [{"scores": c["expected"]["scores"]} for c in chosen]
    assert out["totals"] == [sum(col) for col in zip(*(c["expected"]["scores"] for c in chosen), strict=True)]
    assert sum(out["totals"]) == 0


def test_worked_french_rows_sum_to_zero_3_14() -> None:
    cases = [_require(p.values[0]) for p in _load_cases()]
    french = [c for c in cases if c["input"]["game"] == "french"]
    assert french
    assert all(sum(c["expected"]["scores"]) == 0 for c in french)


def test_missing_cases_file_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception):
        _require(None)

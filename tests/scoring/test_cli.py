"""The ``score`` command: a table or JSON for one summary or a session; clear one-line errors, exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import typer
from typer.testing import CliRunner

FOUR: dict[str, Any] = {
    "game": "french",
    "players": 4,
    "taker": 0,
    "contract": "petite",
    "oudlers": 2,
    "points": 51,
}
LOST: dict[str, Any] = {**FOUR, "contract": "garde", "oudlers": 1, "points": 48}
FIVE: dict[str, Any] = {**FOUR, "players": 5, "partner": 1}
APP_SOURCE = (
    "import typer\n"
    "from atout.cli.score import score_command\n"
    "app = typer.Typer()\n"
    "app.command()(score_command)\n"
    "app()\n"
)


def test_json_for_one_summary_is_its_scores_9(run_score: Any) -> None:
    result = run_score(FOUR, "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"scores": [105, -35, -35, -35]}


def test_json_for_a_session_lists_deals_and_totals_3_14(run_score: Any) -> None:
    result = run_score([FOUR, LOST, FOUR], "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "deals": [
            {"scores": [105, -35, -35, -35]},
            {"scores": [-168, 56, 56, 56]},
            {"scores": [105, -35, -35, -35]},
        ],
        "totals": [42, -14, -14, -14],
    }


def test_a_list_of_one_summary_is_a_session(run_score: Any) -> None:
    result = run_score([FOUR], "--json")
    assert json.loads(result.stdout) == {
        "deals": [{"scores": [105, -35, -35, -35]}],
        "totals": [105, -35, -35, -35],
    }


def test_table_shows_each_deal_and_running_totals_3_14(run_score: Any) -> None:
    result = run_score([FOUR, LOST])
    assert result.exit_code == 0
    out = result.stdout
    assert "Seat 1" in out and "Seat 4" in out and "Total" in out
    assert "+105 (105)" in out and "-168 (-63)" in out and "+56 (21)" in out
    assert "petite by seat 1" in out and "garde by seat 1" in out


def test_table_for_austrian_positive_only_shows_zero_scores_5_7(run_score: Any) -> None:
    summary = {
        "game": "austrian",
        "declarer": 1,
        "bid": "solo",
        "talon_half": None,
        "game_type": "36_or_more",
        "points": 50,
    }
    result = run_score(summary)
    assert result.exit_code == 0
    assert "+130 (130)" in result.stdout and "0 (0)" in result.stdout


def test_dash_reads_stdin(run_score: Any) -> None:
    result = run_score(None, "--json", stdin=json.dumps(FIVE))
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"scores": [70, 35, -35, -35, -35]}


def test_bad_json_is_one_line_exit_2(run_score: Any) -> None:
    result = run_score(None, "--json", stdin='{"game": "french",')
    assert result.exit_code == 2
    assert result.stderr.startswith("error: stdin is not valid JSON: ")
    assert result.stderr.count("\n") == 1 and result.stdout == ""


def test_unreadable_file_is_one_line_exit_2(score_app: typer.Typer, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.json"
    result = CliRunner().invoke(score_app, [str(missing)])
    assert result.exit_code == 2
    assert result.stderr == f"error: cannot read {missing}: No such file or directory\n"
    result = CliRunner().invoke(score_app, [str(tmp_path)])
    assert result.exit_code == 2 and result.stderr.startswith(f"error: cannot read {tmp_path}: ")


def test_file_not_in_utf8_is_refused_exit_2(score_app: typer.Typer, tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"game": "fran\xe7ais"}')
    result = CliRunner().invoke(score_app, [str(path)])
    assert result.exit_code == 2 and result.stderr.startswith(f"error: cannot read {path}: ")


def test_error_in_a_session_names_the_deal_and_field_9(run_score: Any) -> None:
    bad = {**FOUR, "poignees": [{"side": "attack", "level": "quad"}]}
    result = run_score([FOUR, bad], "--json")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: deal 2: poignees[0].level: ")
    assert result.stdout == ""


def test_players_differing_within_a_session_is_refused_9(run_score: Any) -> None:
    result = run_score([FOUR, FOUR, FIVE])
    assert result.exit_code == 2
    assert result.stderr == "error: deal 3: players: 5 players, but deal 1 has 4\n"


def test_a_session_item_that_is_not_an_object_is_refused_9(run_score: Any) -> None:
    result = run_score([FOUR, 3])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: deal 2: summary: ")


def test_empty_list_and_scalar_input_are_refused(run_score: Any) -> None:
    inputs: list[object] = [[], 42, "garde", None]
    for data in inputs:
        result = run_score(data)
        assert result.exit_code == 2, data
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1


def test_score_command_runs_in_a_subprocess_9(tmp_path: Path) -> None:
    path = tmp_path / "session.json"
    path.write_text(json.dumps([FOUR, LOST]), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", APP_SOURCE, str(path), "--json"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["totals"] == [-63, 21, 21, 21]


def test_score_command_subprocess_refusal_exit_2_without_traceback_9() -> None:
    done = subprocess.run(
        [sys.executable, "-c", APP_SOURCE, "-", "--json"],
        input=json.dumps({**FOUR, "oudlers": 4}),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == "error: oudlers: must be a whole number from 0 to 3, not 4\n"
    assert done.stdout == ""

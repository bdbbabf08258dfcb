"""``atout score`` on input it cannot use: one line naming the field, exit code 2, no traceback;
and the deal records it reads besides summaries (docs/records.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from atout.games import new_deal
from atout.records import deal_to_record, write_record
from atout.rules import Rules

FOUR: dict[str, Any] = {
    "game": "french",
    "players": 4,
    "taker": 0,
    "contract": "garde",
    "oudlers": 2,
    "points": 50,
}
AUSTRIAN: dict[str, Any] = {
    "game": "austrian",
    "declarer": 1,
    "bid": "solo",
    "talon_half": None,
    "game_type": "36_or_more",
    "points": 50,
}


def _refused(result: Any, start: str) -> None:
    assert result.exit_code == 2, result.stdout
    assert result.stdout == "" and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"error: {start}"), result.stderr
    assert result.stderr.count("\n") == 1


def test_points_1e308_is_refused_naming_points_not_an_overflow_9(run_score: Any) -> None:
    result = run_score({**FOUR, "points": 1e308})
    _refused(result, "points: expected a number of card points 0..91, found 1e308")


@pytest.mark.parametrize(
    ("partial_slam", "field"),
    [
        ({"announced_made": "x"}, "partial_slam.announced_made"),
        ({"unannounced_made": [1]}, "partial_slam.unannounced_made"),
        ({"announced_failed": 1.5}, "partial_slam.announced_failed"),
        ({"requires_announcement": "yes"}, "partial_slam.requires_announcement"),
        ({"requires_announcement": 1}, "partial_slam.requires_announcement"),
        ({"max_missing": True}, "partial_slam.max_missing"),
    ],
)
def test_partial_slam_values_of_the_wrong_type_are_refused_7_v6(
    run_score: Any, partial_slam: dict[str, Any], field: str
) -> None:
    # before: a non-numeric value raised TypeError when scored; the others were accepted
    summary = {
        **FOUR,
        "options": {"partial_slam": partial_slam},
        "partial_slam": {"announced": False, "made": True},
    }
    result = run_score(summary, "--json")
    _refused(result, f"options.partial_slam: {field} must be ")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"game": "french", "game": "french"}', "stdin: duplicate key 'game' in an object"),
        (json.dumps(FOUR)[:-1] + ', "points": 60}', "stdin: duplicate key 'points' in an object"),
        (
            json.dumps([FOUR, FOUR])[:-2] + ', "chelem": {"won_by": null, "won_by": "attack"}}]',
            "stdin: deal 2: duplicate key 'won_by' in an object",
        ),
        ('{"points": NaN}', "stdin: NaN is not a JSON value"),
        ("[" + "9" * 5000 + "]", "stdin: deal 1: a whole number has more than 4300 digits"),
        ("[" * 100_000, "stdin: deal 1: nested too deeply"),
        ('{"a": ' * 100_000, "stdin: nested too deeply"),
    ],
)
def test_json_a_user_cannot_mean_is_refused_in_one_line_9(run_score: Any, text: str, message: str) -> None:
    _refused(run_score(None, stdin=text), message)


def test_rules_fft_on_an_austrian_summary_scores_it_as_the_default_does_8(run_score: Any) -> None:
    # fft is every default of atout: it changes nothing for an Austrian summary either
    default = run_score(AUSTRIAN, "--json")
    fft = run_score(AUSTRIAN, "--json", "--rules", "fft")
    assert fft.exit_code == default.exit_code == 0
    assert json.loads(fft.stdout) == json.loads(default.stdout) == {"scores": [0, 130, 0]}


@pytest.mark.parametrize(
    ("summary", "preset", "message"),
    [
        (
            AUSTRIAN,
            "japanese",
            "game: the japanese preset is for french, not for this austrian summary",
        ),
        (FOUR, "tarock", "game: the tarock preset is for austrian, not for this french summary"),
    ],
)
def test_a_preset_of_the_other_game_says_why_it_does_not_apply_8(
    run_score: Any, summary: dict[str, Any], preset: str, message: str
) -> None:
    _refused(run_score(summary, "--rules", preset), message)


def _finished(rules: Rules, seed: int = 5) -> Any:
    for s in range(seed, seed + 50):
        rng = random.Random(s)
        deal = new_deal(rules, rng=rng)
        while not deal.is_over():
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.summary is not None:
            return deal
    raise AssertionError("no deal played out")


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(players=5), Rules(players=5, five_player_mode="dead_player"), Rules(players=2)],
    ids=["4p", "5p", "dead_player", "2p"],
)
def test_score_reads_a_saved_deal_record_by_its_summary_9(
    score_app: typer.Typer, tmp_path: Path, rules: Rules
) -> None:
    deal = _finished(rules)
    path = tmp_path / "deal.json"
    path.write_text(write_record(deal, seed=5), encoding="utf-8")
    result = CliRunner().invoke(score_app, [str(path), "--json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == {"scores": deal.scores()}


def test_a_session_may_mix_records_and_summaries_9(score_app: typer.Typer, tmp_path: Path) -> None:
    deal = _finished(Rules())
    path = tmp_path / "session.json"
    path.write_text(json.dumps([deal_to_record(deal), FOUR]), encoding="utf-8")
    result = CliRunner().invoke(score_app, [str(path), "--json"])
    assert result.exit_code == 0, result.stderr
    assert [d["scores"] for d in json.loads(result.stdout)["deals"]] == [deal.scores(), [204, -68, -68, -68]]


def test_a_record_without_a_score_is_refused_saying_why_9(score_app: typer.Typer, tmp_path: Path) -> None:
    unfinished = new_deal(Rules(), rng=1)
    unfinished.apply(unfinished.legal_actions()[0])
    cancelled = new_deal(Rules(), rng=1)
    while not cancelled.is_over():
        cancelled.apply(cancelled.legal_actions()[0])  # everyone passes
    cases = [
        (deal_to_record(unfinished), "error: result: the record is of an unfinished deal"),
        (deal_to_record(cancelled), "error: result.summary: none, the deal was not played out"),
        ({**deal_to_record(_finished(Rules())), "version": 2}, "error: version: this atout reads"),
    ]
    for record, message in cases:
        path = tmp_path / "deal.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        _refused(CliRunner().invoke(score_app, [str(path)]), message.removeprefix("error: "))


def test_a_record_brings_its_own_rules_so_rules_is_refused_9(score_app: typer.Typer, tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_text(write_record(_finished(Rules())), encoding="utf-8")
    _refused(CliRunner().invoke(score_app, [str(path), "--rules", "czech"]), "--rules: a deal record carries")


def test_a_record_summary_that_cannot_happen_names_its_field_9(
    score_app: typer.Typer, tmp_path: Path
) -> None:
    record = deal_to_record(_finished(Rules()))
    record["result"]["summary"]["oudlers"] = 4
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    _refused(CliRunner().invoke(score_app, [str(path)]), "result.summary.oudlers: ")


def test_a_record_whose_scores_disagree_with_its_summary_is_refused_9(
    score_app: typer.Typer, tmp_path: Path
) -> None:
    deal = _finished(Rules())
    record = deal_to_record(deal)
    record["result"]["scores"] = [0, 0, 0, 0]
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(score_app, [str(path)])
    _refused(result, f"result.scores: recorded [0, 0, 0, 0], but the summary scores {deal.scores()}")

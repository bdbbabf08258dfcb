"""``atout arena``: duplicate pairing, the bootstrap interval, the JSON report, bad arguments, and
the target (the rules bot beats the random bot in every game)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from atout.arena import ArenaSetup, bootstrap_ci, run_arena
from atout.records import load_record, replay
from atout.rules import Rules

KEYS = {
    "game",
    "players",
    "options",
    "candidate_bot",
    "candidate_level",
    "baseline_bot",
    "reference_bot",
    "track",
    "deals",
    "resumed",
    "seed",
    "games_played",
    "mean_d",
    "ci95",
    "resamples",
    "candidate",
    "baseline",
    "workers",
    "ray",
    "seconds",
}
SIDE_KEYS = {
    "mean_score",
    "taker_share",
    "taker_success_rate",
    "mean_points_as_taker",
    "mean_points_as_partner",
    "mean_points_as_defender",
    "bids",
    "decisions",
    "ms_per_decision",
}


def test_json_report(atout: Any) -> None:
    result = atout("arena", "--deals", "3", "--seed", "2", "-p", "3", "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert set(report) == KEYS
    assert set(report["candidate"]) == SIDE_KEYS == set(report["baseline"])
    assert report["games_played"] == 3 * 3 * 2
    low, high = report["ci95"]
    assert low <= report["mean_d"] <= high


def test_duplicate_halves_share_the_cards(atout: Any, tmp_path: Path) -> None:
    result = atout(
        "arena",
        "--deals",
        "2",
        "-p",
        "5",
        "-o",
        "five_player_mode=dead_player",
        "--save-dir",
        str(tmp_path),
        "--json",
    )
    assert result.exit_code == 0, result.stderr
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 2 * 4 * 2  # deals x playing seats x (candidate, baseline)
    for candidate in tmp_path.glob("*-candidate.json"):
        baseline = candidate.with_name(candidate.name.replace("candidate", "baseline"))
        a, b = load_record(candidate), load_record(baseline)
        assert a["hands"] == b["hands"] and a["chien"] == b["chien"] and a["dealer"] == b["dealer"]
        assert replay(a).scores() == a["result"]["scores"]


def test_bootstrap_known_cases() -> None:
    assert bootstrap_ci([3.0] * 50) == (3.0, 3.0)
    low, high = bootstrap_ci([0.0, 1.0] * 200, resamples=2000, seed=1)
    # the mean is 0.5 with standard error 0.025: the interval is about 0.5 ± 0.049
    assert 0.44 < low < 0.46 and 0.54 < high < 0.56
    assert bootstrap_ci([1.0, 5.0, 2.0], seed=4) == bootstrap_ci([1.0, 5.0, 2.0], seed=4)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--deals", "0"], "--deals must be at least 1"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--candidate", "nobody"], "--candidate: unknown bot 'nobody'"),
        (["--baseline", "nobody"], "--baseline: unknown bot 'nobody'"),
        (["--candidate", "expert", "--level", "huge"], "unknown expert level 'huge'"),
        (["--candidate", "rules", "--level", "fast"], "the rules bot has no levels"),
        (["-p", "7"], "error:"),
        pytest.param(
            ["--reference", "magmacrunch", "-p", "3"],
            "--reference: the magmacrunch bot plays only the 4-player",
            marks=pytest.mark.magmacrunch,
        ),
    ],
)
def test_bad_arguments(atout: Any, args: list[str], message: str) -> None:
    result = atout("arena", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


TARGETS = {
    "french 2": (Rules(players=2), 20),
    "french 3": (Rules(players=3), 20),
    "french 4": (Rules(players=4), 20),
    "french 5": (Rules(players=5), 15),
    "french 5 dead player": (Rules(players=5, five_player_mode="dead_player"), 15),
    "austrian": (Rules(game="austrian", players=3), 30),
}


@pytest.mark.parametrize("game", sorted(TARGETS))
def test_rules_beats_random(game: str) -> None:
    """The target on a few deals (the 200-deal figures are in docs/bots.md)."""
    rules, deals = TARGETS[game]
    report = run_arena(ArenaSetup(rules, "rules", "random", "random", deals=deals, seed=1, resamples=500))
    assert report["ci95"][0] > 0, report["ci95"]


def test_think_gives_every_expert_bot_a_clock_budget(atout: Any) -> None:
    result = atout(
        "arena",
        "--candidate",
        "expert",
        "--baseline",
        "rules",
        "--reference",
        "expert:strong",
        "--think",
        "0.01",
        "--deals",
        "1",
        "-p",
        "3",
        "--json",
    )
    assert result.exit_code == 0, result.stdout
    report = json.loads(result.stdout)
    assert report["candidate_bot"] == "expert:fast,think=0.01"
    assert report["reference_bot"] == "expert:strong,think=0.01"
    bad = atout("arena", "--think", "0", "--deals", "1")
    assert bad.exit_code == 2 and "--think" in bad.stderr + bad.stdout

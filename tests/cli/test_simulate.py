"""``atout simulate``: random legal deals checked against the invariants, summarised as a table or JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from atout.records import load_record, replay

KEYS = {
    "game",
    "players",
    "deals",
    "seed",
    "options",
    "outcomes",
    "contracts",
    "success_rate",
    "mean_score_by_seat",
    "broken",
    "deals_per_second",
}


def simulate_json(atout: Any, *args: str) -> dict[str, Any]:
    result = atout("simulate", *args, "--json")
    assert result.exit_code == 0, result.stderr
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def check_report(report: dict[str, Any], players: int, deals: int) -> None:
    assert set(report) == KEYS
    assert report["players"] == players and report["deals"] == deals
    assert report["broken"] == []
    assert sum(report["outcomes"].values()) == deals
    assert set(report["outcomes"]) <= {"played", "all passed", "petit sec"}
    played = report["outcomes"].get("played", 0)
    assert sum(row["taken"] for row in report["contracts"].values()) == played
    assert all(0 <= row["made"] <= row["taken"] for row in report["contracts"].values())
    made = sum(row["made"] for row in report["contracts"].values())
    assert report["success_rate"] == (round(made / played, 4) if played else None)
    assert len(report["mean_score_by_seat"]) == players
    assert abs(sum(report["mean_score_by_seat"])) < 0.01 * players  # zero-sum, up to rounding
    assert report["deals_per_second"] > 0


@pytest.mark.parametrize("players", [3, 4, 5])
def test_json_report_has_the_documented_keys_and_adds_up(atout: Any, players: int) -> None:
    report = simulate_json(atout, "--players", str(players), "--deals", "150", "--seed", "7")
    check_report(report, players, 150)
    assert report["seed"] == 7 and report["options"] == {}


def test_two_thousand_four_player_deals_break_no_invariant(atout: Any) -> None:
    report = simulate_json(atout, "--players", "4", "--deals", "2000", "--seed", "2024")
    check_report(report, 4, 2000)
    assert report["outcomes"]["played"] > 1500
    assert set(report["contracts"]) == {"petite", "garde", "garde_sans", "garde_contre"}


def test_the_same_seed_gives_the_same_figures(atout: Any) -> None:
    first = simulate_json(atout, "--deals", "120", "--seed", "5")
    second = simulate_json(atout, "--deals", "120", "--seed", "5")
    other = simulate_json(atout, "--deals", "120", "--seed", "6")
    first.pop("deals_per_second"), second.pop("deals_per_second"), other.pop("deals_per_second")
    assert first == second
    assert first != other


def test_option_no_petite_means_no_petite_is_taken(atout: Any) -> None:
    report = simulate_json(atout, "--deals", "300", "--seed", "1", "--option", "no_petite=true")
    check_report(report, 4, 300)
    assert report["options"] == {"no_petite": True}
    assert "petite" not in report["contracts"]
    assert "garde" in report["contracts"]


def test_option_bid_pousse_lets_pousse_be_taken(atout: Any) -> None:
    report = simulate_json(atout, "--deals", "300", "--seed", "1", "-o", "bid_pousse=true")
    check_report(report, 4, 300)
    assert report["options"] == {"bid_pousse": True}
    assert report["contracts"]["pousse"]["taken"] > 0


def test_several_options_are_all_applied(atout: Any) -> None:
    report = simulate_json(
        atout,
        "--players",
        "5",
        "--deals",
        "100",
        "-o",
        "play_direction=clockwise",
        "-o",
        "called_card_fallback=queen_only",
    )
    check_report(report, 5, 100)
    assert report["options"] == {"play_direction": "clockwise", "called_card_fallback": "queen_only"}


def test_the_table_report_says_every_invariant_held(atout: Any) -> None:
    result = atout("simulate", "--deals", "60", "--seed", "3")
    assert result.exit_code == 0
    assert "60 deals of French Tarot for 4 players (seed 3)" in " ".join(result.stdout.split())
    assert "Contracts" in result.stdout and "Success rate" in result.stdout
    assert "Every invariant held on every deal" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--option", "nope=1"], "error: unknown option 'nope'"),
        (["--option", "no_petite"], "error: an option is written name=value, not 'no_petite'"),
        (["--option", "play_direction=up"], "error: play_direction must be one of"),
        (
            ["-p", "2", "--option", "misere_bonus=10"],
            "error: misère and partial-slam declarations are not played with 2 players",
        ),
        (["--players", "6"], "error: players must be 2, 3, 4 or 5"),
        (["--players", "6"], "error: players must be 2, 3, 4 or 5 for French Tarot, not 6"),
        (["--deals", "0"], "error: --deals must be at least 1"),
        (["--deals", "-5"], "error: --deals must be at least 1"),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message(atout: Any, args: list[str], message: str) -> None:
    result = atout("simulate", *args, "--json")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message)
    assert len(result.stderr.splitlines()) == 1


def test_a_deal_that_breaks_an_invariant_exits_1_and_is_saved(
    atout: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import atout.cli.simulate as simulate

    monkeypatch.setattr(simulate, "broken_invariants", lambda deal: ["planted problem"])
    folder = tmp_path / "failures"
    result = atout("simulate", "--deals", "3", "--seed", "1", "--json", "--save-failures", str(folder))
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert [b["deal"] for b in report["broken"]] == [0, 1, 2]
    assert all(b["problems"] == ["planted problem"] for b in report["broken"])
    saved = sorted(folder.glob("deal-*.json"))
    assert [p.name for p in saved] == ["deal-0.json", "deal-1.json", "deal-2.json"]
    for path, broken in zip(saved, report["broken"], strict=True):
        record = load_record(path)
        assert record["seed"] == broken["seed"]
        assert replay(record).is_over()


def test_simulate_runs_through_the_console_entry_in_a_subprocess() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "atout",
            "simulate",
            "--players",
            "3",
            "--deals",
            "40",
            "--seed",
            "9",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    check_report(json.loads(done.stdout), 3, 40)

"""rule book §4.4 and §5 through the command line: the 2-player game and Austrian Tarock are
simulated, played, recorded and replayed like French Tarot for 3 to 5 players."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from atout.games import new_deal
from atout.presets import rules_for
from atout.records import read_record, replay, write_record

CARD_WORDS = [
    *(f"T{n}" for n in range(21, 0, -1)),
    "EX",
    *(
        f"{r}{s}"
        for s in "SHDC"
        for r in ("K", "Q", "C", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1")
    ),
]


def answers(bid: str) -> str:
    """Candidate answers for every prompt: a bid, a talon half, a game, then every card."""
    words = [bid, "accept_first_half", "36_or_more", "no", *CARD_WORDS]
    return "\n".join(words * 25) + "\n"


@pytest.mark.parametrize(
    ("args", "players"), [(["-p", "2"], 2), (["-r", "tarock"], 3), (["-g", "austrian"], 3)]
)
def test_simulate_plays_every_game_without_breaking_an_invariant(
    atout: Any, args: list[str], players: int
) -> None:
    result = atout("simulate", *args, "--deals", "400", "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["players"] == players and report["broken"] == []
    assert sum(report["outcomes"].values()) == 400


def test_simulate_austrian_reports_bids_and_declarer_success(atout: Any) -> None:
    report = json.loads(atout("simulate", "-r", "tarock", "-n", "300", "--json").stdout)
    assert report["game"] == "austrian"
    assert set(report["contracts"]) <= {
        f"{b} {g}" for b in ("threesome", "solo") for g in ("36_or_more", "35_or_less")
    }
    assert 0 <= report["success_rate"] <= 1
    zero = json.loads(
        atout("simulate", "-r", "tarock", "-o", "austrian_scoring=zero_sum", "-n", "100", "--json").stdout
    )
    assert zero["broken"] == [] and abs(sum(zero["mean_score_by_seat"])) < 1e-6


@pytest.mark.parametrize(
    ("args", "bid", "title"),
    [(["-p", "2"], "pass", "French Tarot for 2"), (["-r", "tarock"], "threesome", "Austrian Tarock for 3")],
)
def test_play_a_whole_deal_of_every_game(
    atout: Any, tmp_path: Path, args: list[str], bid: str, title: str
) -> None:
    path = tmp_path / "deal.json"
    result = atout("play", *args, "--seed", "2", "--save", str(path), input=answers(bid))
    assert result.exit_code == 0, result.stderr
    assert title in result.stdout and "Scores" in result.stdout
    shown = atout("replay", str(path))
    assert shown.exit_code == 0 and "Tricks" in shown.stdout


@pytest.mark.parametrize("preset", ["tarock", "tarock-seed"])
@pytest.mark.parametrize("players", [2, 3])
def test_records_of_every_game_replay_identically(preset: str, players: int) -> None:
    rules = rules_for(preset) if players == 3 else rules_for("fft", players=2)
    for seed in range(20):
        rng = random.Random(seed)
        deal = new_deal(rules, dealer=seed % rules.players, rng=rng)
        deal.play_out(rng)
        again = replay(read_record(write_record(deal, seed)))
        assert type(again) is type(deal)
        assert again.events == deal.events and again.scores() == deal.scores()

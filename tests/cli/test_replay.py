"""``atout replay FILE``: the hands, the bids, a trick table and the scores of a recorded deal;
a bad file exits with code 2 and one ``error:`` line on stderr, never a traceback."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text

from atout.cli.render import cards_markup, describe_event
from atout.engine import FrenchDeal
from atout.records import deal_to_record, write_record
from atout.rules import Rules


def plain(markup: str) -> str:
    return Text.from_markup(markup).plain


def trick_rows(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if re.match(r"^│\s*\d+ │", line)]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_replay_prints_hands_bids_tricks_and_scores(
    atout: Any, played: Any, record_file: Any, players: int
) -> None:
    deal: FrenchDeal = played(players, seed=2)
    result = atout("replay", str(record_file(deal)))
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    words = " ".join(out.split())  # long hands wrap at the terminal width
    assert f"French Tarot, {players} players" in out
    for seat, hand in enumerate(deal.initial_hands):
        assert f"Seat {seat + 1}: {plain(cards_markup(hand))}" in words
    assert f"Chien: {plain(cards_markup(deal.initial_chien))}" in words
    for event in deal.events:
        if event.kind == "bid":
            line = describe_event(event)
            assert line is not None and plain(line) in out
    assert "Tricks" in out
    assert len(trick_rows(out)) == len(deal.tricks)
    scores = ", ".join(f"Seat {s + 1} {v:+d}" for s, v in enumerate(deal.scores()))
    assert f"Scores: {scores}" in out


def test_each_trick_row_shows_the_cards_and_the_winner(atout: Any, played: Any, record_file: Any) -> None:
    deal: FrenchDeal = played(4, seed=5)
    rows = trick_rows(atout("replay", str(record_file(deal))).stdout)
    for row, (seats, cards, winner) in zip(rows, deal.tricks, strict=True):
        cells = [c.strip() for c in row.strip("│").split("│")]
        by_seat = dict(zip(seats, cards, strict=True))
        assert cells[1:5] == [plain(cards_markup(1 << by_seat[s])) for s in range(4)]
        assert cells[5] == f"Seat {winner + 1}"


def test_replay_prints_the_contract_verdict(atout: Any, played: Any, record_file: Any) -> None:
    deal: FrenchDeal = played(4, seed=9)
    out = atout("replay", str(record_file(deal))).stdout
    assert deal.summary is not None
    contract = deal.summary.contract.replace("_", " ")
    assert re.search(
        rf"The attack has [\d.]+ points with (no bout|1 bout|[23] bouts) and needed \d+: {contract} (made|lost)\.",
        out,
    )


def test_replay_shows_the_options_of_the_record(atout: Any, played: Any, record_file: Any) -> None:
    deal: FrenchDeal = played(4, seed=1, bid_pousse=True)
    out = atout("replay", str(record_file(deal))).stdout
    assert "options {'bid_pousse': True}" in out


def test_a_cancelled_deal_says_so_and_scores_zero(atout: Any, record_file: Any) -> None:
    deal = FrenchDeal.new(Rules(), rng=0)
    while not deal.is_over():
        deal.apply(deal.legal_actions()[0])
    out = atout("replay", str(record_file(deal))).stdout
    assert "Cancelled:" in out
    assert "Tricks" not in out
    assert "Scores: Seat 1 +0, Seat 2 +0, Seat 3 +0, Seat 4 +0" in out


def test_an_unfinished_deal_replays_without_scores(atout: Any, record_file: Any) -> None:
    deal = FrenchDeal.new(Rules(), rng=4)
    deal.apply(deal.legal_actions()[-1])  # the first bidder takes the top contract
    while len(deal.tricks) < 3:
        deal.apply(deal.legal_actions()[0])
    result = atout("replay", str(record_file(deal)))
    assert result.exit_code == 0
    assert len(trick_rows(result.stdout)) == 3
    assert "Scores" not in result.stdout


def _bad_records(deal: FrenchDeal) -> dict[str, tuple[bytes, str]]:
    """Bad files and the start of the message each must give."""
    good = deal_to_record(deal)
    bad_scores = json.loads(json.dumps(good))
    bad_scores["result"]["scores"] = [1, 2, 3, -6]
    bad_action = json.loads(json.dumps(good))
    bad_action["actions"][0] = "play KS"
    bad_card = json.loads(json.dumps(good))
    bad_card["hands"][1] = "XX " + " ".join(bad_card["hands"][1].split()[1:])
    bad_option = {**good, "options": {"nope": 1}}
    return {
        "not_json": (b"{not json", "not JSON: "),
        "not_utf8": ("écart".encode("latin-1"), "not a UTF-8 text file"),
        "wrong_format": (json.dumps({**good, "format": "pgn"}).encode(), "format: expected 'atout-deal'"),
        "wrong_version": (json.dumps({**good, "version": 9}).encode(), "version: this atout reads version 1"),
        "unknown_option": (json.dumps(bad_option).encode(), "options: unknown option 'nope'"),
        "bad_card": (json.dumps(bad_card).encode(), "hands[1]: not a card: 'XX'"),
        "illegal_action": (json.dumps(bad_action).encode(), "actions[0] 'play KS': "),
        "bad_scores": (json.dumps(bad_scores).encode(), "result.scores: recorded [1, 2, 3, -6]"),
    }


@pytest.mark.parametrize(
    "kind",
    [
        "not_json",
        "not_utf8",
        "wrong_format",
        "wrong_version",
        "unknown_option",
        "bad_card",
        "illegal_action",
        "bad_scores",
    ],
)
def test_a_bad_record_exits_2_with_one_error_line(atout: Any, played: Any, tmp_path: Path, kind: str) -> None:
    data, message = _bad_records(played(4, seed=3))[kind]
    path = tmp_path / f"{kind}.json"
    path.write_bytes(data)
    result = atout("replay", str(path))
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"error: {path}: {message}")
    assert "Traceback" not in result.output


def test_a_missing_file_exits_2_naming_it(atout: Any, tmp_path: Path) -> None:
    path = tmp_path / "absent.json"
    result = atout("replay", str(path))
    assert result.exit_code == 2
    assert result.stderr == f"error: {path}: No such file or directory\n"


def test_replay_reads_what_write_record_wrote_byte_for_byte(played: Any, tmp_path: Path, atout: Any) -> None:
    deal = played(5, seed=4)
    path = tmp_path / "five.json"
    path.write_text(write_record(deal, seed=4), encoding="utf-8")
    result = atout("replay", str(path))
    assert result.exit_code == 0
    assert "French Tarot, 5 players" in result.stdout
    if deal.called_card >= 0:
        assert "calls" in result.stdout

"""``atout analyse RECORD``: a finished deal's analysis in words (seats from 1, cards by name, "all
hands visible" said plainly) or as JSON; bad input is one line, exit code 2, no traceback."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from atout.bots.random_bot import RandomBot
from atout.engine import FrenchDeal
from atout.games import new_deal
from atout.presets import rules_for
from atout.records import deal_to_record, write_record
from atout.rules import Rules

from .conftest import RunAtout, finished_deal


def _mistaken_deal() -> FrenchDeal:
    """A random 4-player deal whose last four tricks hold a card that cost points."""
    from atout.analysis import analyse_record

    for seed in range(40):
        deal = finished_deal(4, seed)
        if analyse_record(deal_to_record(deal), from_trick=15, ecart=False).mistakes:
            return deal
    raise AssertionError("no deal with a mistake")


def _refused(result: Any, start: str) -> None:
    assert result.exit_code == 2, result.stdout
    assert result.stdout == "" and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"error: {start}"), result.stderr
    assert result.stderr.count("\n") == 1


def test_the_analysis_in_words(atout: RunAtout, record_file: Callable[[FrenchDeal], Path]) -> None:
    path = record_file(_mistaken_deal())
    result = atout("analyse", str(path), "--from-trick", "15")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "computed with all hands visible" in out
    assert "Tricks 15 to 18 solved exactly, as asked; the earlier tricks were not analysed." in out
    assert "With best play from trick 15 the attack would take" in out
    line = next(text for text in out.splitlines() if "points lost; best:" in text)
    assert re.match(
        r"\s+Trick 1[5-8]: Seat [1-4] \((attack|defence)\) played \S+: [\d.]+ points lost; best: ", line
    )
    assert "Seat 0" not in out and "seat 0" not in out
    assert "With the same cards played" in out  # the bid one level away, in hindsight


def test_the_analysis_as_json_keeps_the_interface(
    atout: RunAtout, record_file: Callable[[FrenchDeal], Path]
) -> None:
    path = record_file(_mistaken_deal())
    result = atout("analyse", str(path), "--from-trick", "16", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["format"] == "atout-analysis" and data["version"] == 1 and data["open_hands"] is True
    assert data["game"] == "french" and data["players"] == 4 and data["from_trick"] == 16
    cards = data["cards"]
    assert [c["trick"] for c in cards] == sorted(c["trick"] for c in cards) and len(cards) == 12
    for card in cards:
        assert card["side"] in ("attack", "defence") and card["lost"] >= 0
        assert card["card"] in card["values"]
        assert (card["lost"] > 0) == bool(card["best_cards"])


def test_the_analysis_in_french_and_of_an_austrian_deal(atout: RunAtout, tmp_path: Path) -> None:
    rng = random.Random(4)
    while True:
        deal = new_deal(rules_for("tarock"), rng=rng)
        bot = RandomBot(rng)
        while not deal.is_over():
            deal.apply(bot.choose(None, deal.legal_actions()))  # type: ignore[arg-type]
        if deal.summary is not None:
            break
    path = tmp_path / "tarock.json"
    path.write_text(write_record(deal), encoding="utf-8")
    english = atout("analyse", str(path), "--from-trick", "13")
    assert english.exit_code == 0, english.stderr
    assert "Tricks 13 to 16 solved exactly, as asked" in english.stdout
    assert "Declarer: Seat" in english.stdout and "the declarer would take" in english.stdout
    french = atout("--lang", "fr", "analyse", str(path), "--from-trick", "13")
    assert french.exit_code == 0, french.stderr
    assert "toutes les mains visibles" in french.stdout


def test_the_budget_is_a_few_seconds(atout: RunAtout, record_file: Callable[[FrenchDeal], Path]) -> None:
    path = record_file(finished_deal(4, 2))
    result = atout("analyse", str(path), "--seconds", "1", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert 1 < data["from_trick"] <= 18 and data["seconds"] < 4
    assert data["time_limited"] is True


def _two_player(tmp_path: Path) -> Path:
    rng = random.Random(1)
    deal = new_deal(Rules(players=2), rng=rng)
    deal.play_out(rng)
    path = tmp_path / "two.json"
    path.write_text(write_record(deal), encoding="utf-8")
    return path


def _unfinished(tmp_path: Path) -> Path:
    record = deal_to_record(finished_deal(4, 1))
    record["actions"] = record["actions"][:-2]
    del record["result"]
    path = tmp_path / "unfinished.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def _text(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("make", "start"),
    [
        (lambda tmp: tmp / "missing.json", "{path}: No such file or directory"),
        (lambda tmp: _text(tmp, "not json"), "{path}: not JSON"),
        (lambda tmp: _text(tmp, '{"format": "atout-score"}'), "{path}: format: expected 'atout-deal'"),
        (_unfinished, "{path}: the deal is not finished"),
        (_two_player, "{path}: the 2-player game is not analysed"),
    ],
)
def test_bad_input_is_one_line(atout: RunAtout, tmp_path: Path, make: Any, start: str) -> None:
    path = make(tmp_path)
    _refused(atout("analyse", str(path)), start.format(path=path))


def test_a_trick_out_of_the_deal_is_refused(
    atout: RunAtout, record_file: Callable[[FrenchDeal], Path]
) -> None:
    path = record_file(finished_deal(4, 1))
    _refused(
        atout("analyse", str(path), "--from-trick", "30"), f"{path}: from_trick: the deal has tricks 1 to 18"
    )


def test_the_commands_default_time_is_the_analysis_own() -> None:
    """The command names its default without loading the solver; it is the analysis's."""
    import inspect

    from atout.analysis import DEFAULT_SECONDS
    from atout.cli.analyse import analyse_command

    assert inspect.signature(analyse_command).parameters["seconds"].default == DEFAULT_SECONDS

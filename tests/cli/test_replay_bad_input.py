"""``atout replay`` and the record reader on bad input: one line, exit code 2, no traceback; a
played dead-player record replays (docs/records.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from atout.engine.dead_player import DeadPlayerDeal
from atout.games import new_deal
from atout.records import RecordError, deal_to_record, read_record, replay, write_record
from atout.rules import Rules


def _played(rules: Rules, seed: int = 3) -> Any:
    for s in range(seed, seed + 50):
        rng = random.Random(s)
        deal = new_deal(rules, dealer=s % rules.players, rng=rng)
        while not deal.is_over():
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.summary is not None:
            return deal
    raise AssertionError("no deal played out")


def _refused(result: Any, start: str) -> None:
    assert result.exit_code == 2, result.stdout
    assert result.stdout == "" and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"error: {start}"), result.stderr
    assert result.stderr.count("\n") == 1


def test_a_played_dead_player_record_replays_trick_by_trick_4_3(atout: Any, tmp_path: Path) -> None:
    # before: KeyError in the trick table, the dead seat having no card in any trick
    deal = _played(Rules(players=5, five_player_mode="dead_player"))
    assert isinstance(deal, DeadPlayerDeal)
    path = tmp_path / "dead.json"
    path.write_text(write_record(deal, seed=3), encoding="utf-8")
    result = atout("replay", str(path))
    assert result.exit_code == 0, result.stderr
    assert "Tricks" in result.stdout and "Scores:" in result.stdout


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"format": "atout-deal", "seed": ' + "7" * 5000 + "}", "a whole number has more than 4300 digits"),
        ('{"format": "atout-deal", "format": "atout-deal"}', "duplicate key 'format' in an object"),
        ('{"format": "atout-deal", "seed": NaN}', "NaN is not a JSON value"),
    ],
)
def test_json_a_user_cannot_mean_is_one_error_line(
    atout: Any, tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    _refused(atout("replay", str(path)), f"{path}: {message}")
    with pytest.raises(RecordError, match=f"^{message}$"):
        read_record(text)


def test_a_key_given_twice_in_the_result_is_refused(tmp_path: Path, atout: Any) -> None:
    text = write_record(_played(Rules()))
    twice = text.replace('"outcome": "played"', '"outcome": "played", "outcome": "played"')
    assert twice != text
    path = tmp_path / "twice.json"
    path.write_text(twice, encoding="utf-8")
    _refused(atout("replay", str(path)), f"{path}: duplicate key 'outcome'")


TABLES = [
    Rules(),
    Rules(players=3),
    Rules(players=5),
    Rules(players=5, five_player_mode="dead_player"),
    Rules(players=2),
    Rules(game="austrian", players=3),
]


@pytest.mark.parametrize("rules", TABLES, ids=["4p", "3p", "5p", "dead", "2p", "austrian"])
def test_every_game_refuses_an_unknown_key_alike(rules: Rules) -> None:
    # before: only the Austrian records refused it; the French ones ignored it
    record = deal_to_record(_played(rules))
    replay(record)
    with pytest.raises(RecordError, match=r"^hand: unknown key \(did you mean 'hands'\?\)$"):
        replay({**record, "hand": "x"})
    with pytest.raises(RecordError, match=r"^bogus: unknown key \(a record has actions, dealer, "):
        replay({**record, "bogus": 1})


@pytest.mark.parametrize("rules", TABLES, ids=["4p", "3p", "5p", "dead", "2p", "austrian"])
@pytest.mark.parametrize("name", ["players", "game"])
def test_every_game_refuses_players_or_game_among_the_options(rules: Rules, name: str) -> None:
    record = deal_to_record(_played(rules))
    options = {**record["options"], name: record[name]}
    with pytest.raises(
        RecordError, match=rf"^options\.{name}: {name} is given at the top level of the record"
    ):
        replay({**record, "options": options})


def test_the_refusal_of_an_option_key_reaches_replay_as_one_line(atout: Any, tmp_path: Path) -> None:
    record = deal_to_record(_played(Rules()))
    path = tmp_path / "deal.json"
    path.write_text(json.dumps({**record, "options": {"players": 4}}), encoding="utf-8")
    _refused(atout("replay", str(path)), f"{path}: options.players: ")

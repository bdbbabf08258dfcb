"""The docs stay true: the examples of docs/engine.md and docs/notation.md run as written, the record
in docs/records.md replays, and the tables name the real keys and action ids."""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import pytest

from atout.cards import parse_card
from atout.engine.actions import ACTIONS, N_ACTIONS
from atout.records import deal_to_record, read_record, replay

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("name", ["engine.md", "notation.md", "protocol.md"])
def test_the_examples_of_the_docs_run_as_written(name: str) -> None:
    result = doctest.testfile(
        str(DOCS / name), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False, report=True
    )
    assert result.attempted > 10
    assert result.failed == 0


def _json_blocks(text: str) -> list[str]:
    return re.findall(r"```json\n(.*?)```", text, re.DOTALL)


def test_the_record_example_replays_to_its_recorded_scores() -> None:
    (block,) = _json_blocks((DOCS / "records.md").read_text(encoding="utf-8"))
    record = read_record(block)
    deal = replay(record)
    assert deal.is_over()
    assert deal.scores() == record["result"]["scores"]
    assert deal_to_record(deal, seed=record["seed"]) == record


def test_the_record_key_table_lists_every_key_written() -> None:
    text = (DOCS / "records.md").read_text(encoding="utf-8")
    section = text.split("## Keys", 1)[1].split("##", 1)[0]
    documented = set(re.findall(r"^\| `(\w+)`", section, re.MULTILINE))
    (block,) = _json_blocks(text)
    assert documented == set(json.loads(block))


def test_the_action_table_gives_the_real_ids_and_names() -> None:
    text = (DOCS / "notation.md").read_text(encoding="utf-8").split("## Actions", 1)[1]
    rows = re.findall(r"^\| (\d+)\s+\| [^|]+\| `([^`]+)`", text, re.MULTILINE)
    assert len(rows) == N_ACTIONS - 3 * 78 - 21  # every action that is not a card action or a shown trump
    for number, name in rows:
        assert str(ACTIONS[int(number)]) == name
    ranges = re.findall(r"^\| (\d+)-(\d+)\s+\| [^|]+\| `(play|discard|call) (\w+)`", text, re.MULTILINE)
    assert len(ranges) == 3
    (shows,) = re.findall(r"^\| (\d+)-(\d+)\s+\| [^|]+\| `show T1` .. `show T21`", text, re.MULTILINE)
    assert [str(ACTIONS[n]) for n in range(int(shows[0]), int(shows[1]) + 1)] == [
        f"show T{k}" for k in range(1, 22)
    ]
    for low, high, verb, card in ranges:
        action = ACTIONS[int(low) + parse_card(card)]
        assert str(action) == f"{verb} {card}"
        assert ACTIONS[int(low)].kind == ACTIONS[int(high)].kind == action.kind
        assert ACTIONS[int(high) + 1].kind != action.kind

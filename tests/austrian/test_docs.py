"""docs/austrian.md stays true: its example runs as written and its action table gives the real ids."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

from atout.cards import parse_card
from atout.engine.austrian.actions import AUSTRIAN_ACTIONS, N_AUSTRIAN_ACTIONS
from atout.rules import Rules

DOC = Path(__file__).resolve().parent.parent.parent / "docs" / "austrian.md"


def test_the_example_runs_as_written() -> None:
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS, report=True)
    assert result.attempted > 10 and result.failed == 0


def test_the_action_table_gives_the_real_ids_and_names() -> None:
    text = DOC.read_text(encoding="utf-8").split("## Actions", 1)[1].split("##", 1)[0]
    rows = re.findall(r"^\| (\d+)\s+\| [^|]+\| `([^`]+)`", text, re.MULTILINE)
    assert len(rows) == N_AUSTRIAN_ACTIONS - 2 * 78
    for number, name in rows:
        assert str(AUSTRIAN_ACTIONS[int(number)]) == name
    ranges = re.findall(r"^\| (\d+)-(\d+)\s+\| [^|]+\| `(\w+) (\w+)`", text, re.MULTILINE)
    assert len(ranges) == 2
    for low, _, verb, card in ranges:
        assert str(AUSTRIAN_ACTIONS[int(low) + parse_card(card)]) == f"{verb} {card}"


def test_the_option_table_lists_every_austrian_option() -> None:
    text = DOC.read_text(encoding="utf-8").split("## Options", 1)[1]
    documented = set(re.findall(r"^\| `(austrian_\w+)`", text, re.MULTILINE))
    assert documented == {name for name in Rules.__dataclass_fields__ if name.startswith("austrian_")}

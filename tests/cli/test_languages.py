"""The terminal game in the player's language: ``atout --lang`` (or ``ATOUT_LANG``) turns the
narration, the prompts, the breakdown and the computer players' names into that language, while
what the player types stays the same words."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len

from atout import i18n
from atout.cards import NAMES

ANSWERS = "\n".join(["pass", "no", "no_poignee", *NAMES] * 30) + "\n"


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """The language a command chose is the process's: the next test starts from the environment's."""
    yield
    i18n.use(None)


@pytest.mark.parametrize("language", ["fr", "cs", "ja", "zh"])
def test_a_whole_deal_in_the_terminal_speaks_the_language(
    atout: Any, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    monkeypatch.delenv("ATOUT_LANG", raising=False)
    result = atout("--lang", language, "play", "--seed", "3", "--deals", "1", "--bot", "rules", input=ANSWERS)
    assert result.exit_code == 0, result.stdout[-2000:]
    out = result.stdout
    said = i18n.catalogue(language)
    assert said[(None, "You pass.")] in out or said[(None, "You play {card}")].split("{")[0] in out
    assert "You pass." not in out and "You play " not in out
    names = i18n.page_catalogue(language)
    assert any(names[f"bot.name.{n}"] in out for n in range(1, 9))


def test_the_environment_chooses_the_language_and_a_bad_one_is_refused(
    atout: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ATOUT_LANG", "fr")
    result = atout("play", "--seed", "3", "--deals", "1", "--bot", "rules", input=ANSWERS)
    assert result.exit_code == 0
    assert "Vous" in result.stdout and i18n.catalogue("fr")[(None, "You pass.")] in result.stdout
    refused = atout("--lang", "xx", "play", input="quit\n")
    assert refused.exit_code == 2 and "unknown language 'xx'" in refused.output


def test_the_score_sheet_speaks_the_language_and_keeps_its_columns(atout: Any, tmp_path: Path) -> None:
    """``atout --lang ja score``: the sheet's words in Japanese, seats counted from 1, and its
    columns still aligned although each Japanese sign takes two columns of the terminal."""
    deals = [{"game": "french", "players": 4, "contract": "garde", "taker": 1, "points": 50, "oudlers": 2}]
    path = tmp_path / "deals.json"
    path.write_text(json.dumps(deals), encoding="utf-8")
    result = atout("--lang", "ja", "score", str(path))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    said = i18n.catalogue("ja")
    assert lines[0] == said[(None, "Scores")]
    assert said[(None, "Seat {n}")].format(n=4) in lines[1] and "Seat" not in result.stdout
    table = [line for line in lines[1:] if not line.startswith("(")]
    assert len({cell_len(line.rstrip()) for line in table}) == 1, table

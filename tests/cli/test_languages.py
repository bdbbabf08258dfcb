"""The terminal game in the player's language: ``atout --lang`` (or ``ATOUT_LANG``) turns the
narration, the prompts, the breakdown and the computer players' names into that language, while
what the player types stays the same words."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

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

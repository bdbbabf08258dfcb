"""The translations: every word of the page and of the Python side is in every language's
catalogue, translated and not fuzzy, with the same placeholders; the templates match the sources."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from atout import i18n

ROOT = Path(__file__).resolve().parents[1]
SOURCES = {"atout": ROOT / "src" / "atout", "page": ROOT / "src" / "atout" / "web" / "static"}
PLACEHOLDER = re.compile(r"\{(\w+)\}")
TRANSLATED = [language for language in i18n.LANGUAGES if language != i18n.DEFAULT]


def extracted(domain: str) -> set[tuple[str | None, str]]:
    """The messages the sources hold now, as ``make i18n`` extracts them."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    found: set[tuple[str | None, str]] = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        SOURCES[domain], method_map, options_map
    ):
        found.add((context, message if isinstance(message, str) else message[0]))
    return found


def template(domain: str) -> set[tuple[str | None, str]]:
    with (i18n.LOCALE_DIR / f"{domain}.pot").open("rb") as handle:
        return {(m.context, str(m.id)) for m in read_po(handle) if m.id}


@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_templates_hold_every_message_of_the_sources(domain: str) -> None:
    """A word added to strings.js or marked with _() in Python is in the template (run `make i18n`)."""
    sources, pot = extracted(domain), template(domain)
    assert sources - pot == set(), "messages missing from the template: run `make i18n`"
    assert pot - sources == set(), "messages the sources no longer hold: run `make i18n`"
    if domain == "page":
        assert len(pot) > 200


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_every_message_is_translated(domain: str, language: str) -> None:
    """No message id of the template is missing, empty or fuzzy in any language, and each
    translation keeps the placeholders its English text fills."""
    path = i18n.LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po"
    assert path.is_file(), f"{path} is missing: run `make i18n`"
    with path.open("rb") as handle:
        catalog = read_po(handle)
    entries = {(m.context, str(m.id)): m for m in catalog if m.id}
    problems = []
    for key in sorted(template(domain), key=str):
        message = entries.get(key)
        if message is None:
            problems.append(f"missing: {key}")
        elif message.fuzzy:
            problems.append(f"fuzzy: {key}")
        elif not message.string:
            problems.append(f"untranslated: {key}")
        elif sorted(PLACEHOLDER.findall(key[1])) != sorted(PLACEHOLDER.findall(str(message.string))):
            problems.append(f"placeholders differ: {key} → {message.string!r}")
    assert problems == [], f"{language}/{domain}: {len(problems)} problems:\n" + "\n".join(problems[:40])


def test_a_translated_word_is_read_back() -> None:
    """The page's catalogue and gettext read the .po files as they are."""
    words = i18n.page_catalogue("fr")
    assert words["action.garde_sans"].lower() == "garde sans"
    assert i18n.page_catalogue("ja")["suit.H"] != "hearts"
    assert i18n.page_catalogue("en") == {}


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("fr-FR,fr;q=0.9,en;q=0.8", "fr"),
        ("de-DE,cs;q=0.7,en;q=0.5", "cs"),
        ("ja", "ja"),
        ("zh-Hans-CN", "zh"),
        ("en;q=0.2, fr;q=0.8", "fr"),
        ("de, es", "en"),
        ("", "en"),
        ("fr;q=nonsense", "en"),
    ],
)
def test_the_browser_language_is_negotiated(header: str, language: str) -> None:
    assert i18n.negotiate(header) == language


def test_the_environment_language_and_an_unknown_one(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("ATOUT_LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "cs_CZ.UTF-8")
    assert i18n.environment_language() == "cs"
    monkeypatch.setenv("ATOUT_LANG", "ja")
    assert i18n.current() == "ja"
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        i18n.use("xx")
    assert i18n.language_names()["fr"] == "Français"

"""The rule book served by a real ``atout serve``: every page in every language with the same
anchors, the note on a page not translated, each rule the engine can give sent to an anchor
that exists, an unknown page answered by the 404 page, and the book found in a built wheel."""

from __future__ import annotations

import ast
import html
import re
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from atout import i18n
from atout.server import rulebook

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "src" / "atout" / "engine"
IDS = re.compile(r'\sid="([^"]+)"')
HREFS = re.compile(r'<a href="(/rules[^"]*)"')


@pytest.fixture(scope="module")
def db_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The rule book needs no database but the server's own: SQLite only."""
    return f"sqlite:///{tmp_path_factory.mktemp('book') / 'atout.sqlite3'}"


@pytest.fixture(scope="module")
def book(server_factory: Callable[..., Any]) -> Iterator[httpx.Client]:
    """A client of one real server for the whole module."""
    server = server_factory()
    with httpx.Client(base_url=server.base, timeout=20.0) as client:
        yield client


def _ids(page: str) -> set[str]:
    return set(IDS.findall(page))


def _article(page: str) -> str:
    return page.split('<article class="rules"', 1)[1].split("</article>", 1)[0]


def engine_rules() -> set[str]:
    """Every rule reference the engine's sources can give a refusal: each string (and each
    constant part of an f-string) of src/atout/engine that cites "rule book §"."""
    found: set[str] = set()
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and "rule book §" in node.value:
                found.update(re.findall(r"rule book §[^\n]*", node.value))
    return found


def test_every_page_is_served_in_every_language_with_the_same_anchors(book: httpx.Client) -> None:
    english = {}
    for page in rulebook.page_names():
        path = "/rules" if page == rulebook.CONTENTS else f"/rules/{page}"
        english[page] = book.get(path, params={"lang": "en"}).text
    assert set(english) >= {"README", "french-tarot", "variants", "options", "austrian-tarock"}
    for page, text in english.items():
        path = "/rules" if page == rulebook.CONTENTS else f"/rules/{page}"
        anchors = _ids(_article(text))
        assert len(anchors) >= 2 and any(a.startswith("s") for a in anchors), page
        for language in i18n.LANGUAGES:
            response = book.get(path, params={"lang": language})
            assert response.status_code == 200, (page, language)
            assert response.headers["content-type"].startswith("text/html")
            assert f'<html lang="{language}"' in response.text
            served = _ids(_article(response.text))
            assert anchors <= served, f"{page} in {language} lacks {sorted(anchors - served)[:5]}"
            for option in i18n.LANGUAGES:  # the language menu's fallback names every language
                assert f'href="?lang={option}"' in response.text
            if page != rulebook.CONTENTS:  # and a link back to the contents
                assert f'href="/rules?lang={language}"' in response.text


def test_every_link_between_pages_reaches_an_anchor_that_exists(book: httpx.Client) -> None:
    pages: dict[str, str] = {}
    checked = 0
    for page in rulebook.page_names():
        for language in ("en", "fr"):
            path = "/rules" if page == rulebook.CONTENTS else f"/rules/{page}"
            text = book.get(path, params={"lang": language}).text
            for href in HREFS.findall(html.unescape(text)):
                target, _, anchor = href.partition("#")
                if target not in pages:
                    response = book.get(target)
                    assert response.status_code == 200, f"{page} links to {href}"
                    pages[target] = response.text
                if anchor:
                    checked += 1
                    assert anchor in _ids(pages[target]), f"{page} ({language}) links to a missing {href}"
    assert checked > 100


@pytest.mark.parametrize("language", [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT])
def test_a_page_not_translated_shows_the_original_with_a_note_in_the_readers_language(
    book: httpx.Client, language: str
) -> None:
    untranslated = [p for p in rulebook.page_names() if not (rulebook.BOOK / language / f"{p}.md").is_file()]
    assert untranslated, f"every page is translated into {language}: nothing left to check"
    page = untranslated[-1]
    response = book.get(f"/rules/{page}", params={"lang": language})
    note = i18n.gettext("This page is not translated yet: here it is in English, the original.", language)
    assert note != "This page is not translated yet: here it is in English, the original."
    assert f'<p class="rules-note untranslated">{html.escape(note)}</p>' in response.text
    assert '<article class="rules" lang="en">' in response.text
    assert response.headers["content-language"] == language
    english = book.get(f"/rules/{page}", params={"lang": "en"}).text
    assert "rules-note" not in english
    assert _article(english) == _article(response.text).replace(f"?lang={language}", "?lang=en")


def test_the_french_main_page_is_translated_with_the_original_beside_it(book: httpx.Client) -> None:
    response = book.get("/rules/french-tarot", params={"lang": "fr"})
    assert '<article class="rules" lang="fr">' in response.text
    assert "rules-note translated" in response.text
    assert 'href="/rules/french-tarot?lang=en" hreflang="en"' in response.text  # the original
    for word in ("preneur", "garde sans", "poignée", "petit au bout", "Excuse", "chien", "écart"):
        assert word in _article(response.text), word
    assert "untranslated" not in response.text


def test_the_language_follows_the_browser_when_the_address_names_none(book: httpx.Client) -> None:
    french = book.get("/rules/options", headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"})
    assert '<html lang="fr"' in french.text and french.headers["vary"] == "Accept-Language"
    assert i18n.gettext("Back to the contents", "fr") in french.text
    odd = book.get("/rules/options", params={"lang": "xx"}, headers={"Accept-Language": "ja"})
    assert odd.status_code == 200 and '<html lang="ja"' in odd.text  # an unknown ?lang= is left aside


def test_every_rule_the_engine_gives_leads_to_its_anchor(book: httpx.Client) -> None:
    rules = engine_rules()
    assert {"rule book §3.8 step 3: must follow suit", "rule book §7 V6 partial slam"} <= rules
    assert len(rules) >= 25
    pages: dict[str, str] = {}
    for rule in sorted(rules):
        reference = rulebook.section_part(rule)
        assert reference is not None, rule
        number, part = reference
        params = {"lang": "fr"} | ({"part": part} if part else {})
        response = book.get(f"/rules/section/{number}", params=params)
        assert response.status_code == 307, f"{rule}: {response.status_code}"
        target = urlsplit(response.headers["location"])
        assert target.fragment == rulebook.anchor_of(number, part), rule
        address = f"{target.path}?{target.query}"
        if address not in pages:
            pages[address] = book.get(address).text
        assert target.fragment in _ids(pages[address]), f"{rule}: no #{target.fragment} at {address}"
        heading = re.search(rf'<h\d id="{rulebook.anchor_of(number)}">(.*?)</h\d>', pages[address])
        assert heading is not None and heading.group(1).startswith(f"§{number} "), rule


@pytest.mark.parametrize(
    "path",
    [
        "/rules/no-such-page",
        "/rules/README",
        "/rules/section/99.9",
        "/rules/french-tarot/more",
        "/rules/a%2fb",
        "/rules/sect%00ion",
    ],
)
def test_an_unknown_page_gets_the_404_page(book: httpx.Client, path: str) -> None:
    response = book.get(path, params={"lang": "cs"})
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert html.escape(i18n.gettext("There is no such page in the rule book.", "cs")) in response.text
    assert 'href="/rules?lang=cs"' in response.text
    assert "Traceback" not in response.text


def test_the_rule_book_is_in_the_wheel_and_found_there(tmp_path: Path) -> None:
    """Built as a wheel, the package holds the book and the server reads it from there."""
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = tmp_path.glob("atout-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for page in rulebook.page_names():
        assert f"atout/rulebook/{page}.md" in names
    assert "atout/rulebook/fr/french-tarot.md" in names
    unpacked = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(unpacked)
    probe = (
        "from atout.server import rulebook; "
        "print(rulebook.BOOK); "
        "print(rulebook.rendered('french-tarot', 'fr')[0].title)"
    )
    ran = subprocess.run(
        [sys.executable, "-c", probe],
        env={"PYTHONPATH": str(unpacked), "PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    where, title = ran.stdout.splitlines()
    assert Path(where).resolve().is_relative_to(unpacked.resolve())
    assert title.startswith("Le Tarot")

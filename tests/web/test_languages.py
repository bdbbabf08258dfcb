"""The page in the player's language: a whole deal played in French and in Japanese, the
language taken from the browser, switched from the menu and remembered.

Needs Playwright for Python and ``/usr/bin/chromium`` like ``test_browser.py``, whose player and
server it uses. Screenshots go to ``test-artifacts/screenshots/<lang>-*.png``.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from atout import i18n

ROOT = Path(__file__).resolve().parents[2]


def _browser_tests() -> Any:
    spec = importlib.util.spec_from_file_location("atout_browser_tests", ROOT / "tests/web/test_browser.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


web = _browser_tests()
server = web.server
sqlite_url = web.sqlite_url
shots = web.shots


def words(language: str, key: str, **params: object) -> str:
    """What the page says for ``key`` in ``language``, its placeholders filled."""
    text = i18n.page_catalogue(language)[key]
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    return text


@pytest.mark.parametrize(("locale", "language"), [("fr-FR", "fr"), ("ja-JP", "ja")])
def test_a_whole_deal_in_the_browser_language(
    browser: Any, server: Any, shots: Path, locale: str, language: str
) -> None:
    """A browser set to French (Japanese) gets the lobby, the table and the end of the deal in
    French (Japanese), with the language menu showing it."""
    player = web.Player(browser, locale=locale)
    page = player.page
    try:
        page.goto(f"{server.base}/")
        page.wait_for_selector("#f-submit")
        assert page.evaluate("document.documentElement.lang") == language
        assert page.locator("#lang").input_value() == language
        assert page.locator("#f-submit").inner_text().strip() == words(language, "lobby.submit")
        player.create(server.base, "fft", 4, ["bot:rules"] * 3)
        web.play_to_end([player], shots, prefix=f"{language}-")
        dialog = page.locator("dialog#dialog[open][data-kind=end]")
        text = dialog.inner_text()
        assert words(language, "end.title", n=1) in text
        assert words(language, "end.totals") in text
        assert "Deal 1 is over" not in text and "Running totals" not in text
        totals = player.state()["totals"]
        assert totals is not None and sum(totals) == 0
        page.screenshot(path=str(shots / f"{language}-end.png"))
        web.no_errors(player)
    finally:
        player.close()


def test_the_language_menu_switches_and_is_remembered(browser: Any, server: Any, shots: Path) -> None:
    """An English browser picks Czech from the menu: the lobby speaks Czech at once, and still
    does on the next visit; English comes back the same way."""
    player = web.Player(browser, locale="en-US")
    page = player.page
    try:
        page.goto(f"{server.base}/")
        page.wait_for_selector("#f-submit")
        assert page.locator("#f-submit").inner_text().strip() == "Create the table"
        with page.expect_navigation():
            page.select_option("#lang", "cs")
        page.wait_for_selector("#f-submit")
        assert page.locator("#f-submit").inner_text().strip() == words("cs", "lobby.submit")
        page.goto(f"{server.base}/")
        page.wait_for_selector("#f-submit")
        assert page.evaluate("document.documentElement.lang") == "cs"
        page.screenshot(path=str(shots / "cs-lobby.png"))
        with page.expect_navigation():
            page.select_option("#lang", "en")
        page.wait_for_selector("#f-submit")
        assert page.locator("#f-submit").inner_text().strip() == "Create the table"
        web.no_errors(player)
    finally:
        player.close()


def test_an_unknown_language_is_refused_in_words(server: Any) -> None:
    """The catalogue route knows atout's languages and refuses others with a message."""
    import httpx

    known = httpx.get(f"{server.base}/i18n/fr.json", timeout=10)
    assert known.status_code == 200 and known.json()["action.garde_sans"]
    unknown = httpx.get(f"{server.base}/i18n/xx.json", timeout=10)
    assert unknown.status_code == 404 and "no such language" in unknown.json()["error"]

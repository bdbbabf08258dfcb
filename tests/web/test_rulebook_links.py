"""The rule book in chromium against a real ``atout serve``: a card the rules refuse shows a link
under the refusal that opens the right section of the rule book in a new tab, in the page's
language (French here); a rule page fits a phone's width; the language chosen in the app's menu
is the rule book's too. Screenshots: ``test-artifacts/screenshots/rules-*.png``."""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from atout.server import rulebook

ROOT = Path(__file__).resolve().parents[2]
REFUSAL_TIMEOUT = 45.0  # seconds to reach a trick where a held card may not be played (a few, usually)


def _browser_helpers() -> Any:
    """tests/web/test_browser.py: the person at the page (``Player``) and the real server."""
    spec = importlib.util.spec_from_file_location("atout_browser_helpers", ROOT / "tests/web/test_browser.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


helpers = _browser_helpers()

TURN_JS = """async () => {
  const s = (await import('/static/table.js')).state;
  return Boolean(s.view) && (s.myTurn && !s.pending || s.view.phase === 'end');
}"""

REFUSABLE_JS = """async () => {
  const s = (await import('/static/table.js')).state;
  const v = s.view;
  if (!v || v.phase !== 'play' || !s.myTurn || s.pending || !(v.trick ?? []).length) return null;
  return (v.hand ?? []).find((c) => !v.legal_actions.includes(`play ${c}`)) ?? null;
}"""


@pytest.fixture(scope="module")
def book_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    server = helpers.start_server(f"sqlite:///{tmp_path_factory.mktemp('rules') / 'atout.sqlite3'}")
    yield server
    server.stop()


@pytest.fixture
def shots() -> Path:
    helpers.SHOTS.mkdir(parents=True, exist_ok=True)
    path: Path = helpers.SHOTS
    return path


def _no_overflow(page: Any) -> None:
    wide = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"the page is {wide[0]} px wide in a {wide[1]} px window"


def test_a_refused_card_links_to_its_section_in_a_new_tab(
    browser: Any, book_server: Any, shots: Path
) -> None:
    """§3.8: a card the rules refuse, clicked in a 2-player deal against a bot, says why with
    the rule book's reference under it; the reference opens §3.8 at its step, in French."""
    player = helpers.Player(browser, locale="fr-FR")
    try:
        player.create(book_server.base, "fft", 2, ["bot:random"])
        end = time.monotonic() + REFUSAL_TIMEOUT
        card = None
        while card is None:
            assert time.monotonic() < end, f"no refusable card in {REFUSAL_TIMEOUT} s: {player.state()}"
            player.page.wait_for_function(TURN_JS, timeout=15000)
            assert not player.over(), "the deal ended before a card could be refused"
            card = player.page.evaluate(REFUSABLE_JS)
            if card is None:
                player.step()
        player.page.click(f'#hand .slot[data-card="{card}"]', force=True)
        link = player.page.locator("#status a.rule")
        link.wait_for(timeout=10000)
        rule = player.page.evaluate("async () => (await import('/static/table.js')).state.error.rule")
        reference = rulebook.section_part(rule)
        assert reference is not None, rule
        number, part = reference
        anchor = rulebook.anchor_of(number, part)
        text = link.inner_text()
        assert text.startswith(f"règles du jeu, §{number}"), text
        assert card not in player.page.locator("#status").inner_text()
        assert link.get_attribute("target") == "_blank"
        player.page.screenshot(path=str(shots / "rules-refusal-link-fr.png"))

        with player.context.expect_page(timeout=10000) as opened:
            link.click()
        tab = opened.value
        tab.wait_for_load_state()
        tab.wait_for_selector("body[data-ready=true]", timeout=10000)
        assert tab.url.split("#")[1] == anchor, tab.url
        page_name = rulebook.sections()[number]
        assert f"/rules/{page_name}?lang=fr" in tab.url
        target = tab.locator(":target")
        assert target.get_attribute("id") == anchor
        section = tab.locator(f"#{rulebook.anchor_of(number)}")
        assert section.inner_text().startswith(f"§{number} ")
        assert section.is_visible() and target.is_visible()
        assert tab.evaluate("() => document.documentElement.lang") == "fr"
        tab.screenshot(path=str(shots / "rules-section-fr-1280.png"))
        tab.click("header a.book")  # the header leads to the contents, in the same language
        tab.wait_for_url("**/rules?lang=fr")
        tab.wait_for_selector("body[data-ready=true]")
        assert tab.locator(".rules-note.translated").is_visible()  # with the original beside it
        assert tab.locator("article.rules h1").inner_text() == "Les règles du jeu d'atout"
        _no_overflow(tab)
        tab.screenshot(path=str(shots / "rules-contents-fr-1280.png"))
        helpers.no_errors(player)
    finally:
        player.close()


def test_a_rule_page_fits_a_phone_and_follows_the_chosen_language(
    browser: Any, book_server: Any, shots: Path
) -> None:
    """The lobby links to the rule book; at 390x844 the translated main page and the widest
    tables scroll down, never sideways; a language chosen in the app's menu (remembered) is the
    one the rule book opens in."""
    phone = helpers.Player(browser, width=390, height=844, locale="fr-FR")
    try:
        page = phone.page
        page.goto(f"{book_server.base}/")  # the lobby leads to the rule book
        page.locator("#rules-link").wait_for()
        page.screenshot(path=str(shots / "rules-lobby-link-fr-390.png"), full_page=True)
        page.locator("#rules-link").click()
        page.wait_for_url("**/rules")
        page.wait_for_selector("body[data-ready=true]")
        assert page.locator("article.rules h1").inner_text() == "Les règles du jeu d'atout"
        page.goto(f"{book_server.base}/rules/french-tarot")  # the browser's language: French
        page.wait_for_selector("body[data-ready=true]")
        assert page.locator("article.rules").get_attribute("lang") == "fr"
        assert page.locator("article.rules h1").inner_text() == "Le Tarot à quatre joueurs"
        assert page.locator("#lang").input_value() == "fr"  # the app's language menu
        _no_overflow(page)
        page.screenshot(path=str(shots / "rules-french-tarot-fr-390.png"))
        page.goto(f"{book_server.base}/rules/variants?lang=fr#s6-1-f12")
        page.wait_for_selector("body[data-ready=true]")
        assert page.locator(".rules-note.untranslated").is_visible()
        _no_overflow(page)
        page.screenshot(path=str(shots / "rules-variants-fr-390.png"))

        page.select_option("#lang", "ja")  # chosen in the menu: remembered, and shown again in it
        page.wait_for_url("**lang=ja**")
        page.wait_for_selector("body[data-ready=true]")
        page.goto(f"{book_server.base}/rules")  # no ?lang=: the remembered choice wins over French
        page.wait_for_url("**/rules?lang=ja")
        page.wait_for_selector("body[data-ready=true]")
        assert page.locator("header a.book").inner_text() == "ルールブック"
        _no_overflow(page)
        page.screenshot(path=str(shots / "rules-contents-ja-390.png"))
        page.goto(f"{book_server.base}/rules/no-such-page?lang=cs")
        page.wait_for_selector("body[data-ready=true]")
        assert page.locator(".rules-missing a").get_attribute("href") == "/rules?lang=cs"
        helpers.no_errors(phone, allowed=("404",))
    finally:
        phone.close()

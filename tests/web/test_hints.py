"""Hints in the browser: a French player on a phone and an English one at a desktop share a table
for two deals; each asks the expert once (the key h, then the button), sees the advice in words
with the hinted card or bid highlighted, and plays it; the other reads "… used a hint" in the log
and on the seat, and the end of the deal counts the hints.

Needs Playwright for Python and ``/usr/bin/chromium`` like ``test_browser.py``, whose player and
server it uses. Screenshots go to ``test-artifacts/screenshots/hint-*.png``.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

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
END = "dialog#dialog[open][data-kind=end]"
HINT_JS = "async () => (await import('/static/table.js')).state.hint"


def words(language: str, key: str, **params: object) -> str:
    """What the page says for ``key`` in ``language`` (English: strings.js itself)."""
    if language == "en":
        text = ROOT.joinpath("src/atout/web/static/strings.js").read_text(encoding="utf-8")
        text = text.split(f'"{key}": "', 1)[1].split('",', 1)[0]
    else:
        text = i18n.page_catalogue(language)[key]
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def _turn(player: Any, phase: str) -> Any:
    """Stop the deal's play once it is this player's turn in that phase."""

    def now() -> bool:
        s = player.state()
        return bool(s["myTurn"] and not s["pending"] and s["phase"] == phase)

    return now


def _hint(player: Any, press: str | None) -> dict[str, Any]:
    """Ask for a hint (a key, else the button) and wait for the advice; the hint the page holds."""
    page = player.page
    if press:
        page.keyboard.press(press)
    else:
        page.locator("#controls button.ask-hint").click()
    page.wait_for_selector("#controls .advice-text", timeout=30000)
    hint: dict[str, Any] = page.evaluate(HINT_JS)
    return hint


def _log_text(player: Any) -> str:
    """The log's lines (the log opened if it was hidden)."""
    if player.page.locator("#log[hidden]").count():
        player.page.click("#btn-log")
    text: str = player.page.locator("#log").inner_text()
    return text


def test_a_hint_in_each_of_two_deals_highlighted_played_and_told(
    browser: Any, server: Any, shots: Path
) -> None:
    """Deal 1: the French phone player presses h at a card, reads the advice in French, finds the
    card highlighted and plays it; the desktop player sees "Tester used a hint" in the log and on
    the seat. Deal 2: the desktop player clicks Hint at a bid, plays the highlighted bid; the
    French page says so in French. Each deal's end counts the hints."""
    host = web.Player(browser, 390, 844, locale="fr-FR")
    guest = web.Player(browser, locale="en-US")
    try:
        host.page.goto(f"{server.base}/")
        host.page.wait_for_selector("#f-hints")
        assert host.page.locator("#f-hints").is_checked()
        assert words("fr", "advice.allow") in host.page.locator("form#create").inner_text()
        url = host.create(server.base, "fft", 4, ["open", "bot:rules", "bot:rules"])
        guest.page.goto(url)
        guest.page.wait_for_selector("#sit-name", timeout=15000)
        guest.page.fill("#sit-name", "Guest")
        guest.page.locator("dialog#dialog button.primary").first.click()
        guest.wait_for_view()

        # deal 1: the phone asks at a card, by the key h
        web.play_to_end([host, guest], stop=_turn(host, "play"))
        hint = _hint(host, "h")
        card = hint["action"].split()[1]
        advice = host.page.locator("#controls .advice-text").inner_text()
        assert advice.startswith(words("fr", "advice.play", card="")[:-3]), advice
        assert hint["reason"]["method"] in ("search", "rules") and card not in advice  # words, no code
        hinted = host.page.locator("#hand .slot.hinted")
        assert hinted.count() == 1 and hinted.get_attribute("data-card") == card
        assert "legal" in (hinted.get_attribute("class") or "")
        host.page.screenshot(path=str(shots / "hint-card-fr-phone.png"))
        seq = host.state()["seq"]
        hinted.click(position={"x": 6, "y": 30})
        host.settle(seq)
        assert card not in host.state()["hand"]
        used = words("en", "advice.used", name="Tester")
        guest.page.wait_for_function(
            f"() => document.querySelector('#seats').innerText.includes({words('en', 'advice.chip', n=1)!r})"
        )
        assert used in _log_text(guest)
        guest.page.screenshot(path=str(shots / "hint-told-desktop.png"))
        web.play_to_end([host, guest])
        assert words("fr", "advice.end", list="Tester (vous) 1") in host.page.locator(END).inner_text()
        assert words("en", "advice.end", list="Tester 1") in guest.page.locator(END).inner_text()
        host.page.screenshot(path=str(shots / "hint-end-fr-phone.png"))

        # deal 2: the desktop asks at a bid, by the button
        guest.page.locator(f"{END} button[data-next]").click()
        for player in (host, guest):
            player.page.wait_for_function("async () => (await import('/static/table.js')).state.dealNo === 2")
        web.play_to_end([host, guest], stop=_turn(guest, "bidding"))
        hint = _hint(guest, None)
        bid = guest.page.locator("#controls button.action.hinted")
        assert bid.count() == 1 and bid.get_attribute("data-action") == hint["action"]
        # a simulated bid, unless passing is all that is left (the bots' bids come from a shuffled deal)
        assert hint["reason"]["method"] == "simulation" or hint["action"] == "pass", hint
        guest.page.screenshot(path=str(shots / "hint-bid-desktop.png"))
        seq = guest.state()["seq"]
        bid.click()
        guest.settle(seq)
        assert guest.state()["seq"] != seq
        french = words("fr", "advice.used", name="Guest")
        host.page.wait_for_function(f"() => document.querySelector('#log').innerText.includes({french!r})")
        assert french in _log_text(host)
        host.page.screenshot(path=str(shots / "hint-log-fr-phone.png"))
        web.play_to_end([host, guest])
        assert words("en", "advice.end", list="Guest (you) 1") in guest.page.locator(END).inner_text()
        web.no_errors(host)
        web.no_errors(guest)
    finally:
        host.close()
        guest.close()

"""Words of a person, not a program, in headless chromium against a real ``atout serve``: a card
the rules refuse is explained in words ("You must follow hearts", rule book §3.8 step 3), and the
lobby's form says what is wrong under the field that is wrong ("Names have at most 40
characters"), never a field path, a card code or a seat counted from 0.

Needs Playwright for Python and ``/usr/bin/chromium``: skipped without them, except under
``CI=true`` where they must be there. Screenshots go to ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

import importlib.util
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "screenshots"
CARD_CODE = re.compile(r"\b(T\d+|EX|\d+[SHDC]|[KQCJ][SHDC])\b")
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def _helpers() -> Any:
    """tests/server/conftest.py: the real server subprocess."""
    spec = importlib.util.spec_from_file_location("atout_server_helpers", ROOT / "tests/server/conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


helpers = _helpers()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Any]:
    process = helpers.ServerProcess(f"sqlite:///{tmp_path / 'atout.sqlite3'}")
    process.start()
    yield process
    process.stop()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    yield tab
    context.close()
    assert errors == [], errors


STATE_JS = """async () => {
  const s = (await import('/static/table.js')).state;
  const v = s.view;
  return {myTurn: s.myTurn, pending: Boolean(s.pending), phase: v?.phase ?? null, seq: s.seq,
          hand: v?.hand ?? [], trick: (v?.trick ?? []).map((p) => p.card), legal: v?.legal_actions ?? [],
          error: s.error ? {reason: s.error.reason ?? null, params: s.error.params ?? {}} : null};
}"""


def _create(page: Any, base: str, players: int, name: str = "Tester") -> None:
    page.goto(f"{base}/")
    page.wait_for_selector("#f-submit")
    page.select_option("#f-preset", "fft")
    page.select_option("#f-players", str(players))
    page.fill("#f-name", name)
    for seat in range(1, players):
        page.select_option(f"#f-seat-{seat}", "bot:random")
    page.click("#f-submit")


def test_a_refused_card_is_explained_in_words(browser: Any, server: Any, page: Any) -> None:
    """Rule book §3.8 step 3: a card of another suit, clicked while holding the suit led, is
    refused by the server and the page says "You must follow <suit>" in words."""
    _create(page, server.base, 2)
    page.wait_for_url("**/t/**")
    page.wait_for_function("async () => Boolean((await import('/static/table.js')).state.view)")
    end = time.monotonic() + 60
    while time.monotonic() < end:
        now = page.evaluate(STATE_JS)
        if not now["myTurn"] or now["pending"] or now["phase"] != "play":
            time.sleep(0.05)
            continue
        led: str = now["trick"][0] if now["trick"] else "EX"
        plain_led = led[0] != "T" and led != "EX"
        holds_led = plain_led and any(c[-1] == led[-1] and c[0] != "T" and c != "EX" for c in now["hand"])
        off_suit = [c for c in now["hand"] if f"play {c}" not in now["legal"]]
        if holds_led and off_suit:
            page.click(f'#hand .slot[data-card="{off_suit[0]}"]', force=True)
            page.wait_for_function(
                "async () => Boolean((await import('/static/table.js')).state.error)", timeout=5000
            )
            got = page.evaluate(STATE_JS)["error"]
            assert got == {"reason": "follow_suit", "params": {"suit": led[-1]}}
            message = page.locator("#status .message").inner_text()
            assert message == f"You must follow {SUITS[led[-1]]}"
            status = page.locator("#status").inner_text()
            assert "rule book §3.8" in status
            assert not CARD_CODE.search(status) and not re.search(r"\bseat \d", status, re.I)
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "refusal-follow-suit.png"))
            return
        page.locator("#hand .slot.legal, #own-piles .top.legal").first.click(position={"x": 6, "y": 30})
        page.wait_for_function(
            f"async () => {{ const s = (await import('/static/table.js')).state; return s.seq !== {now['seq']} || s.error; }}",
            timeout=5000,
        )
    raise AssertionError("no position to refuse a card of another suit came up")


def test_the_lobby_says_what_is_wrong_under_the_field(browser: Any, server: Any, page: Any) -> None:
    """A 41-character name (the server keeps names to 40) is refused with "Names have at most 40
    characters" under the name field; an emptied number option with "Enter a whole number"
    under that option; the rule options are named in words, not by their identifiers."""
    page.goto(f"{server.base}/")
    page.wait_for_selector("#f-submit")
    page.select_option("#f-players", "2")
    page.select_option("#f-seat-1", "bot:random")
    page.evaluate("document.getElementById('f-name').removeAttribute('maxlength')")  # the server's check
    page.fill("#f-name", "A" * 41)
    page.click("#f-submit")
    under_name = page.locator(".field:has(#f-name) .field-error")
    under_name.wait_for()
    assert under_name.inner_text() == "Names have at most 40 characters"
    form = page.locator("#create").inner_text()
    assert "seats.0.name" not in form and "String should" not in form
    assert page.url.endswith("/")  # no table was made
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "lobby-name-too-long.png"), full_page=True)

    page.fill("#f-name", "Ann")
    page.click("details.options summary")
    options = page.locator(".option-list").inner_text()
    assert "Petit sec" in options and "Direction of play" in options
    assert "petit_sec_rule" not in options and "dealer_right" not in options
    page.fill("#opt-misere_bonus", "")
    page.click("#f-submit")
    under_option = page.locator(".option:has(#opt-misere_bonus) .field-error")
    under_option.wait_for()
    assert under_option.inner_text() == "Enter a whole number"
    assert under_name.inner_text() == ""
    assert "None" not in page.locator("#create").inner_text()
    page.screenshot(path=str(SHOTS / "lobby-option-error.png"), full_page=True)

"""Play whole deals in headless chromium against a running ``atout serve``, as a person would.

Creates a table in the lobby (the other seats rules bots), goes to it, and answers every turn
through the page: a bid or the first button offered, the écart by clicking the first legal cards,
a card by the keyboard (an arrow, then Enter). Prints how the deal went and every console error.

    python tests/web/play_live.py http://127.0.0.1:8000 fft 4 [SCREENSHOT_DIR]

Needs Playwright for Python and /usr/bin/chromium.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

WANTED = ("garde", "threesome", "no_chelem", "no_poignee", "36_or_more", "accept_first_half")


def answer(page: Any) -> None:
    """One move of the seat whose turn it is."""
    buttons = page.locator("#controls button.action[data-action]")
    if buttons.count():
        actions = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
        chosen = next((a for a in actions if a in WANTED), actions[0])
        page.locator(f'#controls button[data-action="{chosen}"]').click()
        return
    hint = page.locator("#controls .hint")
    if hint.count() and "aside" in hint.first.inner_text():
        count = int(hint.first.inner_text().split()[1])
        for _ in range(count):
            page.locator("#hand .slot.legal:not(.picked)").first.click(position={"x": 6, "y": 30})
        page.locator("#controls button.primary").click()
        return
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")


def play(base: str, preset: str, players: int, shots: Path | None) -> int:
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/")
        page.wait_for_selector("#f-submit")
        page.select_option("#f-preset", preset)
        page.select_option("#f-players", str(players))
        page.fill("#f-name", "Tester")
        for seat in range(1, players):
            page.select_option(f"#f-seat-{seat}", "bot:rules")
        page.click("#f-submit")
        page.wait_for_url("**/t/**")
        page.wait_for_selector("#hand .slot", timeout=15000)
        moves, start = 0, time.time()
        while time.time() - start < 240 and not page.locator("dialog#dialog[open][data-kind=end]").count():
            if "Your turn" not in page.inner_text("#status") or page.locator("body.pending").count():
                time.sleep(0.2)
                continue
            if shots is not None and moves % 6 == 0:
                page.screenshot(path=str(shots / f"live-{preset}{players}-{moves:02d}.png"))
            answer(page)
            moves += 1
            time.sleep(0.3)
        over = page.locator("dialog#dialog[open][data-kind=end]").count() == 1
        if shots is not None:
            page.screenshot(path=str(shots / f"live-{preset}{players}-end.png"))
        print(f"{preset} {players}: {moves} moves, deal over: {over}, {time.time() - start:.0f} s")
        print(f"console errors: {errors}")
        browser.close()
    return 0 if over and not errors else 1


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) not in (3, 4):
        print(__doc__)
        raise SystemExit(2)
    raise SystemExit(play(args[0], args[1], int(args[2]), Path(args[3]) if len(args) == 4 else None))

"""The replay page in headless chromium against a real ``atout serve``: a deal played to its end,
the replay opened from the end-of-deal dialog, stepped forward and back by its buttons and by the
keyboard, every hand and the trick shown checked against the deal's record replayed by the engine,
the analysis's marks, French, a phone's screen, and a deal still in play refused in words.

Screenshots go to ``test-artifacts/screenshots/replay-*.png``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from atout.records import replay

from .test_browser import Player, no_errors, play_to_end, start_server

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "screenshots"

SHOWN_JS = """() => {
  const seats = [...document.querySelectorAll('#hands .hand-row[data-seat]')];
  return {
    step: Number(document.body.dataset.step),
    hands: seats.map((row) => [...row.querySelectorAll('svg.card[data-card]')].map((c) => c.dataset.card)),
    trick: [...document.querySelectorAll('#center .trick-card')].map((s) => [Number(s.dataset.seat), s.querySelector('svg.card').dataset.card]),
    count: document.getElementById('step-count').textContent,
  };
}"""


def _expected(record: dict[str, Any], step: int) -> tuple[list[list[str]], list[list[Any]]]:
    """Every hand after ``step`` actions of the record, by the engine, and the trick on the table
    (the last trick won while the next is not begun)."""
    deal = replay(record, upto=step)
    hands = [sorted(deal.view(s).to_json()["hand"]) for s in range(deal.n)]
    view = deal.view(0).to_json()
    plays = view["trick"] or (view["tricks"][-1]["plays"] if view["tricks"] else [])
    return hands, [[p["seat"], p["card"]] for p in plays]


def _check_step(player: Player, record: dict[str, Any], step: int) -> None:
    player.page.wait_for_function(f"document.body.dataset.step === '{step}'", timeout=5000)
    shown = player.page.evaluate(SHOWN_JS)
    hands, trick = _expected(record, step)
    assert [sorted(hand) for hand in shown["hands"]] == hands, step
    assert sorted(map(tuple, shown["trick"])) == sorted(map(tuple, trick)), step
    assert shown["count"].startswith(f"Step {step} of {len(record['actions'])}")


def test_a_finished_deal_replayed_from_the_end_dialog(browser: Any, tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    server = start_server(f"sqlite:///{tmp_path / 'atout.sqlite3'}")
    player = Player(browser)
    phone = french = None
    try:
        player.create(server.base, "fft", 4, ["bot:rules"] * 3)
        play_to_end([player])
        link = player.page.locator("dialog#dialog[open][data-kind=end] a[data-replay]")
        assert link.inner_text() == "Replay and analysis"
        player.page.screenshot(path=str(SHOTS / "replay-end-dialog.png"))
        link.click()
        player.page.wait_for_url("**/deals/1")
        player.page.wait_for_selector("body[data-ready=true]")
        table_id = player.page.url.split("/t/")[1].split("/")[0]
        record = server.http.get(f"/api/tables/{table_id}/deals/1").json()["record"]
        last = len(record["actions"])

        _check_step(player, record, 0)
        for _ in range(3):
            player.page.click("button[data-step-button=forward]")
        _check_step(player, record, 3)
        player.page.click("button[data-step-button=back]")
        _check_step(player, record, 2)
        player.page.click("button[data-step-button=trick_forward]")
        first_trick = next(i for i in range(1, last + 1) if replay(record, upto=i).view(0).tricks)
        _check_step(player, record, first_trick)
        player.page.keyboard.press("ArrowDown")
        player.page.keyboard.press("ArrowRight")
        player.page.keyboard.press("ArrowRight")
        second = next(
            i for i in range(first_trick + 1, last + 1) if len(replay(record, upto=i).view(0).tricks) == 2
        )
        _check_step(player, record, second + 2)
        player.page.keyboard.press("ArrowLeft")
        _check_step(player, record, second + 1)
        player.page.screenshot(path=str(SHOTS / "replay-desktop.png"))
        player.page.keyboard.press("End")
        _check_step(player, record, last)
        result = player.page.locator("#result")
        assert result.is_visible()
        scores = [int(x.replace("\u2212", "-")) for x in result.locator("tbody td").all_inner_texts()]
        assert scores == record["result"]["scores"]
        player.page.keyboard.press("Home")
        _check_step(player, record, 0)
        assert player.page.locator("#deals a[aria-current=page]").inner_text() == "Deal 1"

        _check_analysis(player, record)
        no_errors(player, allowed=("422",))

        phone = Player(browser, width=390, height=844)
        phone.page.goto(f"{server.base}/t/{table_id}/deals/1#step={second + 1}")
        phone.page.wait_for_selector("body[data-ready=true]")
        _check_step(phone, record, second + 1)
        width = phone.page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a phone"
        phone.page.screenshot(path=str(SHOTS / "replay-phone.png"), full_page=True)

        french = Player(browser, locale="fr-FR")
        french.page.goto(f"{server.base}/t/{table_id}/deals/1#step={second + 1}")
        french.page.wait_for_selector("body[data-ready=true]")
        assert (
            french.page.locator("button[data-step-button=forward]").get_attribute("aria-label") == "Avancer"
        )
        assert french.page.locator("#step-count").inner_text().startswith(f"Étape {second + 1} sur {last}")
        french.page.wait_for_selector("#analysis p")
        french.page.screenshot(path=str(SHOTS / "replay-fr.png"), full_page=True)

        player.page.goto(f"{server.base}/t/{table_id}")
        player.page.wait_for_selector("dialog#dialog[open][data-kind=end] button[data-next]").click()
        player.page.wait_for_function(
            "async () => (await import('/static/table.js')).state.view?.phase === 'bidding'"
        )
        french.page.goto(f"{server.base}/t/{table_id}/deals/2")
        french.page.wait_for_selector("body[data-ready=true]")
        assert french.page.locator("#problem").inner_text() == (
            "Cette donne est en cours : on pourra la revoir une fois terminée."
        )
        assert french.page.locator("#hands svg.card[data-card]").count() == 0
    finally:
        for p in (player, phone, french):
            if p is not None:
                p.close()
        server.stop()


def _check_analysis(player: Player, record: dict[str, Any]) -> None:
    """Every card the analysis marks is marked in the move list, and on the table at its step; the
    page says it is computed with all hands visible."""
    panel = player.page.locator("#analysis")
    player.page.wait_for_selector("#analysis ol.moves", timeout=90000)
    assert "Computed with all hands visible" in panel.inner_text()
    analysis = player.page.evaluate(
        "async () => (await (await fetch(location.pathname.replace(/^\\/t\\//, '/api/tables/') + '/analysis')).json()).analysis"
    )
    costly = [c for c in analysis["cards"] if c["lost"] > 0]
    marked = player.page.locator("#analysis ol.moves li.costly")
    assert marked.count() == len(costly)
    if costly:
        first = costly[0]
        assert record["actions"][first["index"]] == f"play {first['card']}"
        marked.first.locator("button").click()
        player.page.wait_for_function(f"document.body.dataset.step === '{first['index'] + 1}'")
        badge = player.page.locator(f"#center .trick-card.costly svg[data-card='{first['card']}']")
        assert badge.count() == 1
        player.page.screenshot(path=str(SHOTS / "replay-analysis.png"))
    print(json.dumps({"marked": len(costly), "best": analysis["best"], "actual": analysis["actual"]}))

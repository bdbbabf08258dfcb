"""Every seat named, every deal explained, clear states, in headless chromium against a real
``atout serve``: the bots' names in the seats and the log, the end-of-deal dialog of each game
("Made by 10", the count term by term, the session sheet), the dialog closing when a friend deals
the next deal (and its own "Next deal" then doing nothing wrong), a reload at the end showing the
result again, and an address with no table a 404 page that opens no connection.

Screenshots of the end dialog of each game at 1280x800 and 390x844 go to
``test-artifacts/screenshots/result-*.png``.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


pages = _load("atout_browser_helpers", ROOT / "tests/web/test_browser.py")
Player, play_to_end, no_errors, start_server = (
    pages.Player,
    pages.play_to_end,
    pages.no_errors,
    pages.start_server,
)
SHOTS: Path = pages.SHOTS
END = "dialog#dialog[open][data-kind=end]"
VERDICT = re.compile(r"Made by \d+|Lost by \d+|Just made|wins by \d+|wins the game|loses the game")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Any]:
    process = start_server(f"sqlite:///{tmp_path / 'atout.sqlite3'}")
    yield process
    process.stop()


def sit(player: Any, server: Any, created: dict[str, Any], seat: int) -> None:
    """Open the table at ``seat`` with its token, as the lobby leaves it in this browser."""
    table_id = created["table_id"]
    entry = {"table_id": table_id, "seat": seat, "token": created["token"], "name": "Tester", "created": 1}
    player.page.goto(f"{server.base}/")
    player.page.evaluate(
        "([id, entry]) => localStorage.setItem('atout.tables', JSON.stringify({[id]: entry}))",
        [table_id, entry],
    )
    player.page.goto(f"{server.base}/t/{table_id}")
    player.wait_for_view()


def bots(players: int, level: str = "rules") -> list[dict[str, Any]]:
    return [{"kind": "human", "name": "Tester"}] + [{"kind": "bot", "bot": level}] * (players - 1)


def end_text(player: Any) -> str:
    return str(player.page.locator(END).inner_text())


GAMES = [("fft", 4), ("fft", 3), ("fft", 5), ("fft", 2), ("tarock", 3)]


@pytest.mark.parametrize(("preset", "players"), GAMES, ids=[f"{p}{n}" for p, n in GAMES])
def test_the_end_dialog_explains_the_deal_term_by_term(
    browser: Any, server: Any, preset: str, players: int
) -> None:
    """Made or lost by how much, the count as the rule book writes it, each seat's share and the
    session sheet; the bots named distinctly with their level, in the seats and the log."""
    player = Player(browser)
    try:
        created = server.create(preset=preset, players=players, seats=bots(players), sit=0)
        sit(player, server, created, 0)
        # the seats are drawn from the table info the state brings with the view
        player.page.wait_for_function(
            "() => document.querySelector('.seat.me .seat-name')?.textContent.includes('Tester')",
            timeout=10000,
        )
        assert not player.errors, player.errors
        names = [
            player.page.locator(f'.seat[data-seat="{s}"] .seat-name').inner_text() for s in range(players)
        ]
        assert len(set(names)) == players and "Tester (you)" in names, names
        assert not any("Rules" in n or "bot" in n.lower() for n in names[1:]), names
        badges = player.page.locator(".seat .chip.bot")
        assert badges.count() == players - 1 and badges.first.inner_text() == "Rules"
        for _ in range(3):  # a deal everyone passes is dealt again
            play_to_end([player])
            if player.page.locator(f"{END} p.formula").count():
                break
            player.page.locator(f"{END} button[data-next]").click()
            player.page.wait_for_function(
                "async () => (await import('/static/table.js')).state.view?.phase !== 'end'"
            )
        text = end_text(player)
        assert VERDICT.search(text), text
        formula = player.page.locator(f"{END} p.formula").inner_text()
        assert "=" in formula and re.search(r"per defender|to the winner|to each winner", formula), formula
        if preset == "fft":
            assert "25 contract" in formula and "margin" in formula, formula
        else:
            assert re.search(r"\d+ \(\w+\) \+ \d+ × \d+ margin", formula), formula
        assert "Running totals" in text and "Total" in text
        assert any(n.replace(" (you)", "") in text for n in names[1:])
        log = player.page.locator("#log li")
        assert any(names[1] in log.nth(i).inner_text() for i in range(log.count()))
        SHOTS.mkdir(parents=True, exist_ok=True)
        player.page.screenshot(path=str(SHOTS / f"result-{preset}{players}-1280x800.png"))
        player.page.set_viewport_size({"width": 390, "height": 844})
        player.page.wait_for_timeout(300)
        player.page.screenshot(path=str(SHOTS / f"result-{preset}{players}-390x844.png"))
        no_errors(player)
    finally:
        player.close()


def test_a_friend_deals_the_next_deal_and_the_other_result_closes(browser: Any, server: Any) -> None:
    """Two browsers at one table: when one deals the next deal, the other's result closes by
    itself; its own "Next deal", clicked late, just closes and shows no error."""
    created = server.create(
        preset="fft",
        players=4,
        seats=[{"kind": "human", "name": "Ann"}, {"kind": "open"}, *bots(3)[1:]],
        sit=0,
    )
    claim = server.post(f"/api/tables/{created['table_id']}/seats/1/claim", {"name": "Bob"}).json()
    host, friend = Player(browser), Player(browser)
    try:
        sit(host, server, created, 0)
        sit(friend, server, {**created, "token": claim["token"]}, 1)
        play_to_end([host, friend])
        host.page.wait_for_selector(f"{END} button[data-next]")
        host.page.evaluate(
            "() => { window.lateNext = document.querySelector('dialog#dialog button[data-next]'); }"
        )
        friend.page.locator(f"{END} button[data-next]").click()
        host.page.wait_for_function(
            "async () => (await import('/static/table.js')).state.view?.phase !== 'end'", timeout=15000
        )
        host.page.wait_for_function("() => !document.getElementById('dialog').open", timeout=5000)
        host.page.evaluate("() => window.lateNext.click()")  # the deal moved on: nothing to do
        host.page.wait_for_timeout(500)
        assert host.state()["error"] is None and host.state()["phase"] != "end"
        assert not host.page.locator("dialog#dialog[open]").count()
        no_errors(host, ("409",))
        no_errors(friend)
    finally:
        host.close()
        friend.close()


def test_a_reload_at_the_end_of_a_deal_shows_its_result_again(browser: Any, server: Any) -> None:
    player = Player(browser)
    try:
        created = server.create(preset="fft", players=4, seats=bots(4), sit=0)
        sit(player, server, created, 0)
        play_to_end([player])
        before = end_text(player)
        player.page.reload()
        player.page.wait_for_selector(END, timeout=15000)
        after = end_text(player)
        assert VERDICT.search(after) and after == before
        no_errors(player)
    finally:
        player.close()


def test_an_address_with_no_table_is_a_clear_404_page(browser: Any, server: Any) -> None:
    player = Player(browser)
    sockets: list[str] = []
    player.page.on("websocket", lambda ws: sockets.append(ws.url))
    try:
        response = player.page.goto(f"{server.base}/t/unknown")
        assert response is not None and response.status == 404
        player.page.wait_for_selector("body[data-ready=true]")
        assert player.page.locator("h2").inner_text() == "There is no table at this address"
        assert "unknown" in player.page.locator("#missing-text").inner_text()
        link = player.page.locator("#missing-lobby")
        assert link.inner_text() == "Go to the lobby" and link.get_attribute("href") == "/"
        player.page.wait_for_timeout(1000)
        assert sockets == []
        SHOTS.mkdir(parents=True, exist_ok=True)
        player.page.screenshot(path=str(SHOTS / "no-table-1280x800.png"))
        link.click()
        player.page.wait_for_selector("#f-submit")
        no_errors(player, ("404",))
    finally:
        player.close()

"""A spectator's page in headless chromium against a real ``atout serve``: a visitor without a seat
at a full table watches a deal three bots and a person play, in French: the "Watching" banner,
each seat's cards as backs with their count, no action, no card face anywhere but the trick and
what the public view shows face up (the chien, the écart's trumps, a poignée); at the end every
hand as dealt, also on a phone. The person's page says "1 watching". A table with an open seat
offers it, and "Just watch" closes the offer.

Screenshots go to ``test-artifacts/screenshots/spectator-*.png``.
"""

from __future__ import annotations

import importlib.util
import random
import time
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
Player, start_server, no_errors = pages.Player, pages.start_server, pages.no_errors
SHOTS: Path = pages.SHOTS

FACES_JS = """async () => {
  const s = (await import('/static/table.js')).state;
  const v = s.view;
  const faces = [...document.querySelectorAll('svg.card[data-card]')];
  const allowed = new Set([...(v.trick ?? []).map((p) => p.card), ...(s.held?.plays ?? []).map((p) => p.card),
    ...(v.chien ?? []), ...(v.ecart ?? []), ...(v.poignees ?? []).flatMap((p) => p.cards)]);
  return {
    outside: faces.filter((f) => !f.closest('#center, #info .shown')).map((f) => f.dataset.card),
    unseen: faces.map((f) => f.dataset.card).filter((c) => !allowed.has(c)),
    hand: document.querySelectorAll('#hand svg.card').length,
    backs: [...document.querySelectorAll('#seats .backs .count')].map((n) => Number(n.textContent)),
    buttons: document.querySelectorAll('#controls button').length,
    banner: document.querySelector('.watching-banner')?.textContent ?? null,
    phase: v?.phase ?? null, tricks: v?.tricks?.length ?? 0, hands: s.over?.hands ?? null,
  };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One server for the module's tables (each test makes its own)."""
    process = start_server(f"sqlite:///{tmp_path_factory.mktemp('db') / 'atout.sqlite3'}")
    yield process
    process.stop()


def _faces(watcher: Any) -> dict[str, Any]:
    got: dict[str, Any] = watcher.page.evaluate(FACES_JS)
    return got


def _open_as(player: Any, server: Any, table_id: str, token: str) -> None:
    """The table's page in a browser that holds the seat's token (as the lobby leaves it)."""
    entry = {"table_id": table_id, "seat": 0, "token": token, "name": "Ann", "created": 1}
    player.page.goto(f"{server.base}/")
    player.page.evaluate(
        "([id, entry]) => localStorage.setItem('atout.tables', JSON.stringify({[id]: entry}))",
        [table_id, entry],
    )
    player.page.goto(f"{server.base}/t/{table_id}")
    player.wait_for_view()


def test_a_spectator_sees_no_hand_until_the_end(browser: Any, server: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "rules"}] * 3
    created = server.create(preset="fft", players=4, seats=seats, sit=0)
    table_id = created["table_id"]
    player = Player(browser)
    _open_as(player, server, table_id, created["token"])
    watcher = Player(browser, locale="fr-FR")
    watcher.page.goto(f"{server.base}/t/{table_id}")
    watcher.wait_for_view()
    player.page.wait_for_function(
        "document.getElementById('deal-no').textContent.includes('1 watching')", timeout=8000
    )
    assert _faces(watcher)["banner"] and "Ann" in watcher.page.locator("#seats").inner_text()
    assert not watcher.page.locator("dialog#dialog[open]").count(), "a full table offers no seat"
    person = server.connect(table_id, created["token"], 0)  # Ann plays by her websocket
    rng = random.Random(5)
    checks, shot = 0, False
    end = time.monotonic() + 60
    while time.monotonic() < end:
        message = person.recv(20)
        if message["type"] == "deal_over":
            break
        view = message.get("view")
        if message["type"] not in ("update", "state") or not view or view["current_player"] != 0:
            continue
        watcher.page.wait_for_function(
            f"async () => (await import('/static/table.js')).state.serverSeq !== null"
            f" && (await import('/static/table.js')).state.view?.tricks?.length === {len(view['tricks'])}"
            f" && (await import('/static/table.js')).state.view?.trick?.length === {len(view['trick'])}",
            timeout=8000,
        )
        left = 72 - 4 * len(view["tricks"]) - len(view["trick"])  # the cards still in hands
        watcher.page.wait_for_function(  # the seats drawn from that view
            "n => [...document.querySelectorAll('#seats .backs .count')]"
            ".reduce((sum, c) => sum + Number(c.textContent), 0) === n",
            arg=left,
            timeout=8000,
        )
        seen = _faces(watcher)
        assert seen["outside"] == [] and seen["unseen"] == [], seen
        assert seen["hand"] == 0 and seen["buttons"] == 0, seen
        assert len(seen["backs"]) == 4 and sum(seen["backs"]) == 72 - 4 * seen["tricks"] - len(
            view["trick"]
        ), seen
        checks += 1
        if seen["tricks"] >= 2 and not shot:
            watcher.screenshot(SHOTS, "spectator-play-fr")
            shot = True
        words = view["legal_actions"]
        chosen = rng.choice([w for w in words if w != "pass"] or words)
        person.send({"type": "action", "seq": message["seq"], "action": chosen})
    assert checks >= 10 and shot
    watcher.page.wait_for_function(
        "async () => Boolean((await import('/static/table.js')).state.over?.hands)", timeout=10000
    )
    watcher.page.keyboard.press("Escape")  # the result's dialog closed: every hand as dealt
    seen = _faces(watcher)
    assert seen["hands"] is not None and [len(hand) for hand in seen["hands"]] == [18] * 4
    assert "spectateurs : 1" in watcher.page.locator("#deal-no").inner_text()
    assert watcher.page.locator("#info .shown-row").count() >= 4
    shown = watcher.page.locator("#info .shown svg.card[data-card]").count()
    assert shown >= 72 and seen["backs"] == [], seen
    watcher.screenshot(SHOTS, "spectator-end-fr")
    watcher.page.set_viewport_size({"width": 390, "height": 844})
    watcher.page.wait_for_timeout(300)  # the page lays itself out again after a resize
    watcher.screenshot(SHOTS, "spectator-end-phone-fr")
    no_errors(watcher)
    no_errors(player)
    person.close()
    for page in (player, watcher):
        page.close()


def test_an_open_seat_is_offered_with_just_watch(browser: Any, server: Any) -> None:
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "open"},
        {"kind": "bot", "bot": "rules"},
        {"kind": "bot", "bot": "rules"},
    ]
    created = server.create(preset="fft", players=4, seats=seats, sit=0)
    visitor = Player(browser, 390, 844)
    visitor.page.goto(f"{server.base}/t/{created['table_id']}")
    dialog = visitor.page.locator("dialog#dialog[open]")
    dialog.wait_for(timeout=8000)
    assert "Sit" in dialog.inner_text() or "seat" in dialog.inner_text().lower()
    visitor.screenshot(SHOTS, "spectator-offer-phone")
    visitor.page.get_by_role("button", name="Just watch").click()
    visitor.page.wait_for_function("!document.querySelector('dialog#dialog[open]')", timeout=5000)
    no_errors(visitor)
    visitor.close()

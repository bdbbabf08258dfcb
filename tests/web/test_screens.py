"""Every screen of every game at phone and desktop sizes, measured: nothing beyond the screen's
edges, no seat over another, no name cut, the trick's cards apart, the hints clear of the hand;
and the page you can follow: the leader marked, the others' cards one by one, the chelem offered
without a question of its own, the connection's loss said, the écart kept over a reload.

Each screen is a recorded view (``table.html?fixture=NAME``, written by ``tests/web/fixtures.py``)
or a stand-in websocket; its screenshot goes to ``test-artifacts/screenshots/<game>-<screen>-<size>.png``.
Needs Playwright for Python and ``/usr/bin/chromium`` (skipped without them, failed under
``CI=true``).
"""

from __future__ import annotations

import itertools
import json
import random
import threading
import time
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from atout import i18n
from atout.games import new_deal
from atout.presets import rules_for

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "atout" / "web"
FIXTURES = WEB / "static" / "fixtures"
SHOTS = ROOT / "test-artifacts" / "screenshots"

SIZES = {"360x740": (360, 740), "390x844": (390, 844), "1280x800": (1280, 800)}
SCREENS = {
    "fft2": {"lead": "two-lead", "play": "two-play", "end": "two-end"},
    "fft3": {
        "bidding": "fft3-bidding",
        "chien": "fft3-chien",
        "ecart": "fft3-ecart",
        "play": "fft3-trick2",
        "end": "fft3-end",
    },
    "fft4": {
        "bidding": "fft4-bidding",
        "chien": "fft4-chien-defender",
        "ecart": "fft4-ecart",
        "chelem": "fft4-chelem",
        "first-trick": "fft4-lead",
        "play": "fft4-trick3",
        "end": "fft4-end",
    },
    "fft5": {
        "bidding": "fft5-bidding",
        "call": "fft5-call",
        "chien": "fft5-chien",
        "ecart": "fft5-ecart",
        "play": "fft5-trick4",
        "end": "fft5-end",
    },
    "tarock": {
        "bidding": "tarock-bidding",
        "talon": "tarock-talon",
        "ecart": "tarock-discard",
        "play": "tarock-trick2",
        "end": "tarock-end",
    },
}
CASES = [(game, screen, size) for game, screens in SCREENS.items() for screen in screens for size in SIZES]

# What a person sees of the page: every box, in viewport pixels.
MEASURE_JS = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return {x: r.left, y: r.top, r: r.right, b: r.bottom}; };
  const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const all = (sel) => [...document.querySelectorAll(sel)].filter(shown);
  const named = (sel) => all(sel).map((e) => ({what: sel + ' ' + (e.dataset.card || e.dataset.seat || e.textContent.trim().slice(0, 24)), ...box(e)}));
  return {
    width: document.documentElement.clientWidth,
    height: window.innerHeight,
    scrollWidth: document.documentElement.scrollWidth,
    edges: [
      ...named('#seats .seat'), ...named('#hand .slot svg'), ...named('#center .trick-card svg'),
      ...named('#center .group'), ...named('#log'), ...named('#controls .hint'), ...named('#controls button'),
      ...named('#status'), ...named('#own-piles .pile'), ...named('#opp-piles .pile'), ...named('#info .shown-row'),
      ...named('#bar > *'), ...named('dialog[open]'),
    ],
    seats: all('#seats .seat').map((e) => {
      const n = e.querySelector('.seat-name');
      return {what: n.textContent, ...box(e), scroll: n.scrollWidth, client: n.clientWidth};
    }),
    trick: named('#center .trick-card svg'),
    hints: named('#controls .hint'),
    hand: named('#hand .slot svg'),
    piles: named('#own-piles .pile'),
    shown: named('#info .shown-row'),
    groups: named('#center .group'),
    log: named('#log'),
    dialog: named('dialog[open]'),
    cells: named('dialog[open] th, dialog[open] td, dialog[open] dd, dialog[open] dt, dialog[open] button'),
  };
}"""


def overlap(a: dict[str, Any], b: dict[str, Any]) -> float:
    """The area two boxes share."""
    w = min(a["r"], b["r"]) - max(a["x"], b["x"])
    h = min(a["b"], b["b"]) - max(a["y"], b["y"])
    return w * h if w > 0.5 and h > 0.5 else 0.0


def area(a: dict[str, Any]) -> float:
    return float((a["r"] - a["x"]) * (a["b"] - a["y"]))


def check_layout(m: dict[str, Any], where: str, dialog: bool = False) -> None:
    """The geometry a person would find wrong, named."""
    width = m["width"]
    assert m["scrollWidth"] <= width, f"{where}: the page scrolls sideways ({m['scrollWidth']} > {width})"
    for e in m["edges"]:
        assert e["x"] >= -0.5 and e["r"] <= width + 0.5, f"{where}: {e['what']} beyond the screen's edge: {e}"
    for e in m["hand"]:
        assert e["b"] <= m["height"] + 0.5, f"{where}: {e['what']} below the screen: {e}"
    seats = m["seats"]
    for i, a in enumerate(seats):
        assert a["scroll"] <= a["client"], f"{where}: the name {a['what']!r} is cut"
        for b in seats[i + 1 :]:
            assert not overlap(a, b), f"{where}: the seats {a['what']!r} and {b['what']!r} overlap"
    trick = m["trick"]
    for i, a in enumerate(trick):
        for b in trick[i + 1 :]:
            assert overlap(a, b) <= 0.1 * area(a), f"{where}: the trick's {a['what']} covers {b['what']}"
        for s in seats:
            assert not overlap(a, s), f"{where}: the trick's {a['what']} covers the seat {s['what']!r}"
    for group in m["groups"] + m["shown"]:
        for s in seats:
            assert not overlap(group, s), f"{where}: {group['what']} covers the seat {s['what']!r}"
    for hint in m["hints"]:
        for card in m["hand"] + m["piles"]:
            assert not overlap(hint, card), f"{where}: the hint {hint['what']!r} covers {card['what']}"
    for d in m["dialog"]:
        for cell in m["cells"]:
            assert cell["x"] >= d["x"] - 0.5 and cell["r"] <= d["r"] + 0.5, (
                f"{where}: {cell['what']} cut by the dialog"
            )
    if not dialog:
        for log in m["log"]:
            for s in seats:
                assert not overlap(log, s), f"{where}: the log covers the seat {s['what']!r}"


# ---------------------------------------------------------------------- the pages
class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The pages served as the server serves them: ``/static/...`` from the package."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(WEB)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def new_page(browser: Any, size: tuple[int, int]) -> tuple[Any, list[str]]:
    """A page at that size; a phone size is a touch screen."""
    phone = size[0] < 600
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, has_touch=phone, is_mobile=phone
    )
    page = context.new_page()
    errors: list[str] = []

    def console(message: Any) -> None:
        if message.type == "error":
            errors.append(message.text)

    page.on("console", console)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


def speak(page: Any, language: str) -> None:
    """Serve the page's words in ``language`` as ``atout serve`` does (``/i18n/<lang>.json``)."""
    words = i18n.page_catalogue(language)
    page.route("**/i18n/*.json", lambda route: route.fulfill(json=words))


def open_fixture(
    browser: Any, server: str, name: str, size: tuple[int, int], language: str = "en"
) -> tuple[Any, list[str]]:
    page, errors = new_page(browser, size)
    speak(page, language)
    page.goto(f"{server}/static/table.html?fixture={name}&lang={language}")
    page.wait_for_selector("body[data-ready=true]", timeout=15000)
    page.wait_for_timeout(100)
    return page, errors


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def fixture_view(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(("game", "screen", "size"), CASES, ids=[f"{g}-{s}-{z}" for g, s, z in CASES])
def test_every_screen_fits(browser: Any, server: str, game: str, screen: str, size: str) -> None:
    """Nothing beyond the screen's edges, nothing over a seat, no name cut, the trick's cards
    apart, the hints clear of the hand and the piles; the end of a deal's dialog inside the screen."""
    page, errors = open_fixture(browser, server, SCREENS[game][screen], SIZES[size])
    try:
        shot(page, f"{game}-{screen}-{size}")
        check_layout(page.evaluate(MEASURE_JS), f"{game} {screen} {size}", dialog=screen == "end")
        if screen == "end":
            page.keyboard.press("Escape")
            shot(page, f"{game}-{screen}-table-{size}")
            check_layout(page.evaluate(MEASURE_JS), f"{game} {screen} (table) {size}")
        assert errors == []
    finally:
        page.context.close()


# French has the longest words, Japanese the widest signs (Czech and Chinese play whole deals in
# tests/cli/test_languages.py and their lobby in tests/web/test_languages.py)
LANGUAGE_CASES = [
    (language, game, screen)
    for language in ("fr", "ja")
    for game, screens in SCREENS.items()
    for screen in screens
]


@pytest.mark.parametrize(
    ("language", "game", "screen"), LANGUAGE_CASES, ids=[f"{lang}-{g}-{s}" for lang, g, s in LANGUAGE_CASES]
)
def test_every_screen_fits_in_every_language(
    browser: Any, server: str, language: str, game: str, screen: str
) -> None:
    """The same measures on the narrowest phone in French and Japanese, whose words are longer or
    wider than English: the page is in that language and nothing is cut or covered."""
    page, errors = open_fixture(browser, server, SCREENS[game][screen], SIZES["360x740"], language)
    try:
        assert page.evaluate("document.documentElement.lang") == language
        status = page.locator("#status").inner_text()
        assert status and status == status.strip()
        shot(page, f"{language}-{game}-{screen}-360x740")
        check_layout(page.evaluate(MEASURE_JS), f"{language} {game} {screen} 360x740", dialog=screen == "end")
        assert errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_log_is_numbered_whole_and_covers_no_seat(browser: Any, server: str, size: str) -> None:
    """A deal's log runs past 100 entries: each number is shown whole, and the open log sits
    beside the felt (below it on a phone), over no seat."""
    view = fixture_view("fft5-end")["messages"][0]["view"]
    assert len(view["events"]) >= 100
    page, errors = open_fixture(browser, server, "fft5-end", SIZES[size])
    try:
        page.keyboard.press("Escape")
        page.click("#btn-log")
        page.wait_for_selector("#log:not([hidden]) li")
        numbers = page.eval_on_selector_all(
            "#log li .n",
            "els => els.map((e) => ({text: e.textContent, whole: e.scrollWidth <= e.clientWidth,"
            " left: e.getBoundingClientRect().left, logLeft: e.closest('#log').getBoundingClientRect().left}))",
        )
        assert [n["text"] for n in numbers] == [str(i + 1) for i in range(len(view["events"]))]
        for n in numbers:
            assert n["whole"] and n["left"] >= n["logLeft"], n
        shot(page, f"fft5-log-{size}")
        check_layout(page.evaluate(MEASURE_JS), f"log {size}")
        assert errors == []
    finally:
        page.context.close()


def games_listing() -> dict[str, Any]:
    from atout.server.lobby import games_listing as listing

    return listing()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_lobby_fits(browser: Any, server: str, size: str) -> None:
    """The lobby's form, with its rule options open, is as wide as the screen and no wider."""
    page, errors = new_page(browser, SIZES[size])
    try:
        page.route("**/api/games", lambda route: route.fulfill(json=games_listing()))
        page.route("**/api/tables/**", lambda route: route.fulfill(status=404, json={"error": "no table"}))
        page.goto(f"{server}/static/index.html")
        page.wait_for_selector("body[data-ready] #f-submit")
        page.select_option("#f-players", "5")
        shot(page, f"lobby-{size}")
        page.click("details.options summary")
        shot(page, f"lobby-options-{size}")
        width = page.evaluate("document.documentElement.clientWidth")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        boxes = page.eval_on_selector_all(
            "main input, main select, main button, main label, main summary",
            "els => els.filter((e) => e.getBoundingClientRect().width > 0).map((e) => ({what: e.id || e.textContent.slice(0, 20),"
            " x: e.getBoundingClientRect().left, r: e.getBoundingClientRect().right}))",
        )
        assert boxes
        for b in boxes:
            assert b["x"] >= -0.5 and b["r"] <= width + 0.5, b
        assert errors == []
    finally:
        page.context.close()


# ---------------------------------------------------------------------- the page you can follow
def test_the_leader_of_the_trick_is_marked(browser: Any, server: str) -> None:
    """The first card of the trick carries the "led" mark, and only it."""
    view = fixture_view("fft5-trick4")["messages"][0]["view"]
    page, _ = open_fixture(browser, server, "fft5-trick4", SIZES["1280x800"])
    try:
        led = page.eval_on_selector_all(
            "#center .trick-card.led", "els => els.map((e) => Number(e.dataset.seat))"
        )
        assert led == [view["trick"][0]["seat"]]
        assert page.locator("#center .led-badge").count() == 1
        assert page.inner_text("#center .led-badge") == "led"
    finally:
        page.context.close()


def test_each_card_lies_toward_its_player(browser: Any, server: str) -> None:
    """The card of the seat across the table lies above the middle, one's own below it, a seat on
    the left to the left."""
    page, _ = open_fixture(browser, server, "fft5-trick4", SIZES["390x844"])
    try:
        where = page.evaluate(
            """() => {
              const mid = (e) => { const r = e.getBoundingClientRect(); return [(r.left + r.right) / 2, (r.top + r.bottom) / 2]; };
              const out = {};
              for (const c of document.querySelectorAll('#center .trick-card')) {
                const seat = document.querySelector(`#seats .seat[data-seat="${c.dataset.seat}"]`);
                out[c.dataset.seat] = {card: mid(c), seat: mid(seat)};
              }
              const r = document.querySelector('#center').getBoundingClientRect();
              out.centre = [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
              return out;
            }"""
        )
        centre = where.pop("centre")
        for seat, w in where.items():
            toward = [w["seat"][0] - centre[0], w["seat"][1] - centre[1]]
            card = [w["card"][0] - centre[0], w["card"][1] - centre[1]]
            assert toward[0] * card[0] + toward[1] * card[1] > 0, (seat, w)
    finally:
        page.context.close()


def test_a_touch_screen_is_told_to_tap(browser: Any, server: str) -> None:
    """On a touch screen the hint speaks of taps; with a mouse and keys, of arrows and Enter."""
    page, _ = open_fixture(browser, server, "fft4-follow", SIZES["390x844"])
    try:
        assert "Tap a card" in page.inner_text("#controls")
    finally:
        page.context.close()
    page, _ = open_fixture(browser, server, "fft4-follow", SIZES["1280x800"])
    try:
        assert "Enter" in page.inner_text("#controls")
    finally:
        page.context.close()


def test_the_ecart_offers_the_chelem_and_declines_it_unless_pressed(browser: Any, server: str) -> None:
    """rule book §3.6: the taker decides the chelem right after the écart. The page asks no
    question of its own: laying the écart aside answers "no chelem" unless the chelem button
    beside it was pressed."""
    view = fixture_view("fft4-ecart")["messages"][0]["view"]
    legal = [a.split()[1] for a in view["legal_actions"]][: len(view["chien"])]
    for press, answer in ((False, "no_chelem"), (True, "chelem")):
        page, _ = open_fixture(browser, server, "fft4-ecart", SIZES["1280x800"])
        try:
            for card in legal:
                page.click(f'#hand .slot[data-card="{card}"]')
            toggle = page.locator("#controls button.toggle")
            assert toggle.inner_text() == "Announce a chelem"
            if press:
                toggle.click()
                assert toggle.get_attribute("aria-pressed") == "true"
            page.click("#controls button.primary")
            status = page.inner_text("#status")
            assert "discard" in status and status.endswith(answer)
        finally:
            page.context.close()


def test_the_ecart_chosen_survives_a_reload(browser: Any, server: str) -> None:
    """The cards picked for the écart are picked again after a reload of the page."""
    view = fixture_view("fft4-ecart")["messages"][0]["view"]
    legal = [a.split()[1] for a in view["legal_actions"]][:2]
    page, _ = open_fixture(browser, server, "fft4-ecart", SIZES["390x844"])
    try:
        for card in legal:
            page.locator(f'#hand .slot[data-card="{card}"]').tap(position={"x": 6, "y": 30})
        picked = page.eval_on_selector_all("#hand .slot.picked", "els => els.map((e) => e.dataset.card)")
        assert sorted(picked) == sorted(legal)
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        assert sorted(
            page.eval_on_selector_all("#hand .slot.picked", "els => els.map((e) => e.dataset.card)")
        ) == sorted(legal)
        assert "2 of" in page.inner_text("#controls")
    finally:
        page.context.close()


def stand_in(page: Any, handler: Any, seat: int) -> None:
    """A stand-in table ``abc`` at which this page holds ``seat``."""
    page.add_init_script(
        "localStorage.setItem('atout.tables',"
        f" JSON.stringify({{abc: {{table_id: 'abc', seat: {seat}, token: 'tok'}}}}))"
    )
    page.route_web_socket("**/ws/tables/abc", handler)


def test_a_card_played_at_the_chelem_question_declines_it_and_plays(browser: Any, server: str) -> None:
    """rule book §3.6: the taker plays on to announce no chelem: the page sends "no_chelem", then
    the card when the taker leads; when another seat leads, the card stays in the hand."""
    state = fixture_view("fft4-chelem")["messages"][0]
    view = state["view"]
    seat = state["seat"]
    card = view["hand"][0]
    for leads in (True, False):
        received: list[dict[str, Any]] = []
        page, _ = new_page(browser, SIZES["1280x800"])

        def serve(ws: Any, leads: bool = leads, received: list[dict[str, Any]] = received) -> None:
            def on_message(message: str) -> None:
                data = json.loads(message)
                received.append(data)
                if data["type"] == "hello":
                    ws.send(json.dumps({**state, "seq": 5}))
                elif data["type"] == "action" and data["action"] == "no_chelem":
                    after = {
                        **view,
                        "phase": "play",
                        "current_player": seat if leads else (seat + 1) % 4,
                        "legal_actions": [f"play {c}" for c in view["hand"]] if leads else [],
                    }
                    ws.send(
                        json.dumps({"type": "update", "seq": 6, "deal_no": 1, "events": [], "view": after})
                    )

            ws.on_message(on_message)

        try:
            stand_in(page, serve, seat)
            page.goto(f"{server}/static/table.html?table=abc")
            page.wait_for_selector('#controls [data-action="no_chelem"]')
            assert "play a card to announce none" in page.inner_text("#controls").lower()
            page.locator(f'#hand .slot[data-card="{card}"]').click(position={"x": 6, "y": 30})
            page.wait_for_timeout(600)
            actions = [m["action"] for m in received if m["type"] == "action"]
            assert actions == (["no_chelem", f"play {card}"] if leads else ["no_chelem"])
        finally:
            page.context.close()


def deal_views(seat: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A real 4-player deal from one seat: its view when it has led a trick, then its view after
    each move of the others (the trick finished, maybe the next one begun) until its turn again."""
    rng = random.Random(3)
    deal = new_deal(rules_for("fft", players=4), rng=rng)
    while not (
        str(deal.phase) == "play"
        and deal.current_player == (seat + 1) % 4
        and len(deal.view(seat).to_json()["trick"]) == 1
    ):
        deal.apply(rng.choice(deal.legal_actions()))
    first = deal.view(seat).to_json()
    views = []
    while True:
        deal.apply(rng.choice(deal.legal_actions()))
        views.append(deal.view(seat).to_json())
        if deal.current_player == seat and str(deal.phase) == "play":
            return first, views


def test_the_others_cards_come_one_by_one_and_the_trick_stays_a_moment(browser: Any, server: str) -> None:
    """Cards the others play in a burst are shown one by one, about 0.8 s apart, and the finished
    trick stays about 1.2 s before it is gathered: a person can follow them."""
    seat = 0
    first, views = deal_views(seat)
    page, errors = new_page(browser, SIZES["1280x800"])
    table = {**fixture_view("fft4-follow")["messages"][0]["table"], "table_id": "abc"}

    def serve(ws: Any) -> None:
        def on_message(message: str) -> None:
            data = json.loads(message)
            if data["type"] == "hello":
                ws.send(json.dumps({"type": "state", "seq": 1, "seat": seat, "table": table, "view": first}))
                for i, view in enumerate(views):
                    ws.send(json.dumps({"type": "update", "seq": 2 + i, "events": [], "view": view}))

        ws.on_message(on_message)

    try:
        page.add_init_script(
            """window.__seen = [];
            const watch = () => {
              const centre = document.getElementById('center');
              if (!centre) return requestAnimationFrame(watch);
              new MutationObserver(() => window.__seen.push([performance.now(),
                [...centre.querySelectorAll('.trick-card')].length, centre.querySelector('.trick.done') !== null]))
                .observe(centre, {childList: true, subtree: true});
            };
            watch();"""
        )
        stand_in(page, serve, seat)
        page.goto(f"{server}/static/table.html?table=abc")
        end = time.monotonic() + 20
        while time.monotonic() < end and not page.evaluate(
            "async () => (await import('/static/table.js')).state.myTurn === true"
            " && !document.querySelector('#center .trick.done')"
        ):
            page.wait_for_timeout(100)
        seen = page.evaluate("window.__seen")
        # the moments the number of cards on the table grew
        grew = [t for (_, m, _), (t, n, _) in itertools.pairwise(seen) if n > m]
        gaps = [b - a for a, b in itertools.pairwise(grew)]
        assert len(grew) >= len(views) - 1, (seen, errors)
        assert gaps and min(gaps) >= 600, gaps
        start = next(t for t, _, done in seen if done)
        gathered = next(t for t, _, done in seen if t > start and not done)
        assert gathered - start >= 1000
    finally:
        page.context.close()


def test_while_the_connection_is_lost_it_is_not_your_turn(browser: Any, server: str) -> None:
    """The server gone: the status says the connection is lost, never "Your turn", and no card of
    the hand may be played."""
    state = fixture_view("fft4-follow")["messages"][0]
    connections: list[Any] = []

    def serve(ws: Any) -> None:
        connections.append(ws)
        if len(connections) > 1:
            ws.close(code=1011)
            return

        def on_message(message: str) -> None:
            if json.loads(message)["type"] == "hello":
                ws.send(json.dumps({**state, "seq": 3}))

        ws.on_message(on_message)

    page, _ = new_page(browser, SIZES["390x844"])
    try:
        stand_in(page, serve, state["seat"])
        page.goto(f"{server}/static/table.html?table=abc")
        page.wait_for_selector("#hand .slot.legal")
        assert "Your turn" in page.inner_text("#status")
        connections[0].close(code=1011)
        page.wait_for_selector("#conn[data-state=offline]")
        end = time.monotonic() + 3
        while time.monotonic() < end:
            assert "Your turn" not in page.inner_text("#status")
            assert page.locator("#hand .slot.legal").count() == 0
            page.wait_for_timeout(100)
        assert "offline" in page.inner_text("#status") or "connecting" in page.inner_text("#status")
        shot(page, "fft4-offline-390x844")
    finally:
        page.context.close()


def test_after_a_reconnection_the_old_view_is_not_your_turn_until_the_server_says_so(
    browser: Any, server: str
) -> None:
    """The socket back but the server's fresh state not yet come: the old view is not played from
    ("connecting…", no card to play); the state comes and it is the player's turn again."""
    state = fixture_view("fft4-follow")["messages"][0]
    connections: list[Any] = []
    hellos: list[Any] = []

    def serve(ws: Any) -> None:
        connections.append(ws)

        def on_message(message: str) -> None:
            if json.loads(message)["type"] != "hello":
                return
            hellos.append(ws)
            if len(hellos) == 1:
                ws.send(json.dumps({**state, "seq": 3}))

        ws.on_message(on_message)

    page, _ = new_page(browser, SIZES["390x844"])
    try:
        stand_in(page, serve, state["seat"])
        page.goto(f"{server}/static/table.html?table=abc")
        page.wait_for_selector("#hand .slot.legal")
        connections[0].close(code=1011)
        page.wait_for_function("document.querySelector('#conn')?.dataset.state === 'online'", timeout=15000)
        end = time.monotonic() + 1.5
        while time.monotonic() < end:
            assert "Your turn" not in page.inner_text("#status")
            assert page.locator("#hand .slot.legal").count() == 0
            page.wait_for_timeout(100)
        assert len(hellos) == 2
        hellos[1].send(json.dumps({**state, "seq": 3}))
        page.wait_for_selector("#hand .slot.legal")
        assert "Your turn" in page.inner_text("#status")
    finally:
        page.context.close()


def test_the_pace_is_chosen_per_table_and_kept(browser: Any, server: str) -> None:
    """The bar's pace button goes slow, normal, fast and is kept for that table."""
    page, _ = new_page(browser, SIZES["1280x800"])

    def serve(ws: Any) -> None:
        pass

    try:
        stand_in(page, serve, 0)
        page.goto(f"{server}/static/table.html?table=abc")
        assert page.inner_text("#btn-pace") == "Pace: normal"
        page.click("#btn-pace")
        assert page.inner_text("#btn-pace") == "Pace: fast"
        page.reload()
        assert page.inner_text("#btn-pace") == "Pace: fast"
    finally:
        page.context.close()

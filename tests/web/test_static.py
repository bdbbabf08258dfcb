"""The browser page's files: every module parses, every recorded view renders in headless
chromium without a console error, and the page keeps to what the view allows.

The chromium tests need Playwright for Python and ``/usr/bin/chromium`` (never a downloaded
browser), the parse checks ``node``; without them they are skipped, except under ``CI=true`` where
they fail. The fixtures are real wire views written by ``tests/web/fixtures.py``.
"""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from atout.engine.wire import view_from_json

from .conftest import missing

WEB = Path(__file__).resolve().parents[2] / "src" / "atout" / "web"
STATIC = WEB / "static"
FIXTURES = STATIC / "fixtures"
NAMES = [entry["name"] for entry in json.loads((FIXTURES / "index.json").read_text(encoding="utf-8"))]


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return data


def state_view(name: str) -> dict[str, Any]:
    view: dict[str, Any] = fixture(name)["messages"][0]["view"]
    return view


# ---------------------------------------------------------------------- files
@pytest.mark.parametrize("module", sorted(p.name for p in STATIC.glob("*.js")))
def test_every_module_parses(module: str) -> None:
    """A syntax error in any module would blank the page: node checks each as an ES module."""
    if shutil.which("node") is None:
        missing("node is not installed")
    source = (STATIC / module).read_text(encoding="utf-8")
    result = subprocess.run(
        ["node", "--input-type=module", "--check"], input=source, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr


def test_every_fixture_holds_a_real_wire_view() -> None:
    """The debug views are the wire format itself: each reads back through the engine's reader."""
    assert len(NAMES) >= 20
    games = set()
    for name in NAMES:
        view = view_from_json(state_view(name))
        games.add(view.game)
    assert games == {"french", "two_player", "austrian"}


def test_the_fixtures_cover_every_stage_the_page_draws() -> None:
    """Bidding, the call, the écart, chelem, poignée, play, the talon, the game choice and the end."""
    phases = {(state_view(n)["game"], state_view(n)["phase"]) for n in NAMES}
    for wanted in [
        ("french", "bidding"),
        ("french", "call"),
        ("french", "discard"),
        ("french", "chelem"),
        ("french", "poignee"),
        ("french", "play"),
        ("french", "end"),
        ("two_player", "play"),
        ("two_player", "end"),
        ("austrian", "talon"),
        ("austrian", "game"),
        ("austrian", "discard"),
        ("austrian", "end"),
    ]:
        assert wanted in phases


def test_the_page_files_ship_with_the_package() -> None:
    """pyproject's package data names every kind of file the pages load."""
    pyproject = (WEB.parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    kinds = {p.suffix for p in STATIC.iterdir() if p.is_file()}
    for suffix in kinds:
        assert f'"web/static/*{suffix}"' in pyproject, suffix


# ---------------------------------------------------------------------- in chromium
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


class Page:
    """One table page on a fixture, with the console errors it logged."""

    def __init__(self, browser: Any, url: str, width: int = 1280, height: int = 800) -> None:
        self.errors: list[str] = []
        self.page = browser.new_page(viewport={"width": width, "height": height})
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url)
        self.page.wait_for_selector("body[data-ready]", timeout=15000)

    def count(self, selector: str) -> int:
        return int(self.page.locator(selector).count())

    def text(self, selector: str) -> str:
        return str(self.page.locator(selector).inner_text())


def open_fixture(browser: Any, server: str, name: str, **size: int) -> Page:
    return Page(browser, f"{server}/static/table.html?fixture={name}", **size)


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_every_fixture_renders_without_a_console_error(
    browser: Any, server: str, size: tuple[int, int]
) -> None:
    """Each recorded view draws its whole hand, every seat, and logs no error."""
    for name in NAMES:
        view = state_view(name)
        page = open_fixture(browser, server, name, width=size[0], height=size[1])
        try:
            assert page.errors == [], name
            assert page.page.get_attribute("body", "data-ready") == "true", name
            assert page.count("#hand .slot") == len(view["hand"]), name
            assert page.count("#seats .seat") == view["rules"]["players"], name
            if view["phase"] == "end":
                assert page.count("dialog#dialog[open]") == 1, name
        finally:
            page.page.close()


def test_only_legal_cards_are_raised(browser: Any, server: str) -> None:
    """§3.8: the cards view.legal_actions names are raised; every other card is dimmed."""
    view = state_view("fft4-follow")
    legal = {a.split()[1] for a in view["legal_actions"]}
    page = open_fixture(browser, server, "fft4-follow")
    raised = set(page.page.eval_on_selector_all("#hand .slot.legal", "els => els.map(e => e.dataset.card)"))
    dimmed = set(page.page.eval_on_selector_all("#hand .slot.illegal", "els => els.map(e => e.dataset.card)"))
    assert raised == legal
    assert dimmed == set(view["hand"]) - legal
    page.page.close()


def test_a_click_on_an_illegal_card_shows_the_rule(browser: Any, server: str) -> None:
    """The engine's reason for refusing a card reaches the player in words, from its code
    (here: trumps were led, §3.8 step 4), the rule book's reference below; no card code."""
    data = fixture("fft4-follow")
    words, refusal = next(iter(data["refusals"].items()))
    assert refusal["reason"] == "follow_trumps"
    page = open_fixture(browser, server, "fft4-follow")
    page.page.click(f'#hand .slot[data-card="{words.split()[1]}"]', force=True)
    assert "error" in (page.page.get_attribute("#status", "class") or "")
    assert page.text("#status .message") == "Trumps were led: you must play a trump"
    assert page.text("#status .rule") == refusal["rule"].split(": ", 1)[0]
    assert words.split()[1] not in page.text("#status")
    page.page.close()


def test_the_keyboard_picks_and_plays_a_legal_card(browser: Any, server: str) -> None:
    """Arrows move over the legal cards only; Enter plays the chosen one."""
    view = state_view("fft4-follow")
    page = open_fixture(browser, server, "fft4-follow")
    page.page.keyboard.press("ArrowRight")
    selected = page.page.get_attribute("#hand .slot.selected", "data-card")
    assert f"play {selected}" in view["legal_actions"]
    page.page.keyboard.press("Enter")
    assert f"play {selected}" in page.text("#status")
    page.page.close()


def test_bid_buttons_show_the_multiplier_and_take_number_keys(browser: Any, server: str) -> None:
    """§3.4: each contract offered shows its multiplier from the table facts; keys 1-9 bid."""
    view = state_view("fft4-bidding-late")
    facts = fixture("fft4-bidding-late")["messages"][0]["table"]["facts"]
    page = open_fixture(browser, server, "fft4-bidding-late")
    actions = page.page.eval_on_selector_all(
        "#controls button[data-action]", "els => els.map(e => e.dataset.action)"
    )
    assert actions == view["legal_actions"]
    for contract in facts["contracts"]:
        if contract["name"] in actions:
            label = page.text(f'#controls button[data-action="{contract["name"]}"]')
            assert f"×{contract['multiplier']}" in label
    page.page.keyboard.press("2")
    assert actions[1] in page.text("#status")
    page.page.close()


def test_the_ecart_picks_only_legal_discards(browser: Any, server: str) -> None:
    """§3.5: a king may not be laid aside: clicking one picks nothing; legal cards are picked up to the count."""
    view = state_view("fft4-ecart")
    legal = [a.split()[1] for a in view["legal_actions"]]
    kings = [c for c in view["hand"] if c.startswith("K")]
    assert kings and len(legal) >= len(view["chien"])
    page = open_fixture(browser, server, "fft4-ecart")
    page.page.click(f'#hand .slot[data-card="{kings[0]}"]', force=True)
    assert page.count("#hand .slot.picked") == 0
    for card in legal[: len(view["chien"]) + 1]:  # one more than allowed: the last is refused
        page.page.click(f'#hand .slot[data-card="{card}"]')
    assert page.count("#hand .slot.picked") == len(view["chien"])
    assert page.page.is_enabled("#controls button.primary")
    page.page.close()


def test_the_two_player_piles_show_their_tops_and_sizes(browser: Any, server: str) -> None:
    """§4.4: each pile's face-up top is drawn and its size written; face-down cards stay backs."""
    view = state_view("two-play")
    page = open_fixture(browser, server, "two-play")
    tops = page.page.eval_on_selector_all(
        "#opp-piles .pile .top svg", "els => els.map(e => e.dataset.card || null)"
    )
    assert tops == [c for c, n in zip(view["opponent_tops"], view["opponent_pile_sizes"], strict=True) if n]
    sizes = page.page.eval_on_selector_all(
        "#own-piles .pile-size", "els => els.map(e => Number(e.textContent))"
    )
    assert sizes == view["own_pile_sizes"]
    page.page.close()


def test_the_austrian_talon_shows_the_first_half_and_hides_the_second(browser: Any, server: str) -> None:
    """§5.3: the first half lies face up, the second stays face down until taken."""
    view = state_view("tarock-talon")
    page = open_fixture(browser, server, "tarock-talon")
    faces = page.page.eval_on_selector_all(
        "#center .group-cards svg", "els => els.map(e => e.dataset.card || 'back')"
    )
    assert sorted(faces[:3]) == sorted(view["first_half"])
    assert faces[3:] == ["back", "back", "back"]
    page.page.close()


def test_the_hand_is_sorted_trumps_first_then_suits_alternating_colours(browser: Any, server: str) -> None:
    """The hand reads Excuse, trumps high to low, then suits with black and red alternating."""
    page = open_fixture(browser, server, "fft4-bidding")
    cards = page.page.eval_on_selector_all("#hand .slot", "els => els.map(e => e.dataset.card)")
    trumps = [c for c in cards if c.startswith("T") or c == "EX"]
    assert cards[: len(trumps)] == trumps
    suits = [c[-1] for c in cards[len(trumps) :]]
    runs = [s for i, s in enumerate(suits) if i == 0 or suits[i - 1] != s]
    assert len(runs) == len(set(runs)), "each suit in one run"
    colours = ["red" if s in "HD" else "black" for s in runs]
    for i, (a, b) in enumerate(itertools.pairwise(colours)):
        if a == b:  # two suits of one colour meet only when the other colour has run out
            assert all(c == a for c in colours[i:]), runs
    page.page.close()


# ---------------------------------------------------------------------- against a stand-in server
GAMES = {
    "presets": [
        {
            "name": "fft",
            "title": "French Tarot (FFT)",
            "description": "the FFT rules",
            "game": "french",
            "players": [2, 3, 4, 5],
            "options": {},
        },
        {
            "name": "tarock",
            "title": "Austrian Tarock",
            "description": "three players",
            "game": "austrian",
            "players": [3],
            "options": {"game": "austrian", "players": 3},
        },
    ],
    "options": [
        {
            "name": "game",
            "type": "choice",
            "values": ["french", "austrian"],
            "default": "french",
            "doc": "the game",
        },
        {
            "name": "bid_pousse",
            "type": "bool",
            "values": [False, True],
            "default": False,
            "doc": "adds pousse",
        },
        {
            "name": "first_leader",
            "type": "choice",
            "values": ["dealer_right", "taker"],
            "default": "dealer_right",
            "doc": "who leads",
        },
        {"name": "poignee_thresholds", "type": "object", "values": None, "default": {}, "doc": "by count"},
        {
            "name": "austrian_jack_value",
            "type": "choice",
            "values": [2, 3],
            "default": 2,
            "doc": "a jack's value",
        },
    ],
    "bots": [
        {"bot": "random", "label": "Random", "time": "instant"},
        {"bot": "expert:fast", "label": "Expert, fast", "time": "30 ms"},
    ],
}


def test_the_lobby_creates_a_table_with_the_chosen_seats_and_keeps_its_token(
    browser: Any, server: str
) -> None:
    """The form sends the preset, the players, only the options changed, one entry per seat; the
    answer's token is kept in localStorage and the invite link shown when a seat is left open."""
    sent: list[Any] = []
    page = browser.new_page()
    page.route("**/api/games", lambda route: route.fulfill(json=GAMES))

    def create(route: Any) -> None:
        sent.append(json.loads(route.request.post_data))
        route.fulfill(json={"table_id": "xyz", "url": "/t/xyz", "seat": 0, "token": "secret"})

    page.route("**/api/tables", create)
    page.route("**/api/tables/xyz", lambda route: route.fulfill(status=404, json={"error": "no table"}))
    page.goto(f"{server}/static/index.html")
    page.wait_for_selector("body[data-ready] #f-submit")
    page.select_option("#f-preset", "tarock")
    assert page.eval_on_selector_all("#f-players option", "els => els.map(e => e.value)") == ["3"]
    assert page.locator("#opt-austrian_jack_value").count() == 1
    assert page.locator("#opt-bid_pousse").count() == 0
    page.select_option("#f-preset", "fft")
    assert page.locator("#opt-austrian_jack_value").count() == 0
    page.select_option("#f-players", "4")
    page.fill("#f-name", "Ann")
    page.select_option("#f-seat-1", "open")
    page.select_option("#f-seat-2", "bot:random")
    page.click("details.options summary")
    page.check("#opt-bid_pousse")
    page.uncheck("#f-hints")  # the host turns hints off
    page.click("#f-submit")
    page.wait_for_selector(".created input")
    assert sent == [
        {
            "preset": "fft",
            "players": 4,
            "options": {"bid_pousse": True},
            "seats": [
                {"kind": "human", "name": "Ann"},
                {"kind": "open"},
                {"kind": "bot", "bot": "random"},
                {"kind": "bot", "bot": "expert:fast"},
            ],
            "sit": 0,
            "hints": False,
        }
    ]
    assert page.input_value(".created input").endswith("/t/xyz")
    stored = json.loads(page.evaluate("localStorage.getItem('atout.tables')"))
    assert stored["xyz"]["token"] == "secret" and stored["xyz"]["seat"] == 0
    assert "xyz" in page.inner_text("#mine")
    page.close()


def test_the_table_says_hello_with_its_token_and_acts_on_the_current_seq(browser: Any, server: str) -> None:
    """The contract's websocket: hello carries the stored token; an action carries the seq it was
    chosen on; an update redraws the hand; an illegal answer shows the engine's rule."""
    state = fixture("fft4-follow")["messages"][0]
    view = state["view"]
    received: list[dict[str, Any]] = []
    page = browser.new_page()
    page.add_init_script(
        "localStorage.setItem('atout.tables', JSON.stringify({abc: {table_id: 'abc', seat: 3, token: 'tok'}}))"
    )

    def serve(ws: Any) -> None:
        def on_message(message: str) -> None:
            data = json.loads(message)
            received.append(data)
            if data["type"] == "hello":
                ws.send(json.dumps({**state, "seq": 41}))
            elif data["type"] == "action" and data["action"] == "play T19":
                ws.send(
                    json.dumps(
                        {
                            "type": "error",
                            "seq": 41,
                            "code": "illegal",
                            "reason": "overtrump",
                            "params": {"card": "T16"},
                            "message": "no",
                            "rule": "rule book §3.8: must play a higher trump",
                        }
                    )
                )
            elif data["type"] == "action":
                card = data["action"].split()[1]
                after = {
                    **view,
                    "hand": [c for c in view["hand"] if c != card],
                    "legal_actions": [],
                    "current_player": 0,
                    "trick": [*view["trick"], {"seat": 3, "card": card}],
                }
                ws.send(json.dumps({"type": "update", "seq": 42, "deal_no": 3, "events": [], "view": after}))

        ws.on_message(on_message)

    page.route_web_socket("**/ws/tables/abc", serve)
    page.goto(f"{server}/static/table.html?table=abc")
    page.wait_for_selector("#hand .slot.legal")
    assert received[0] == {"type": "hello", "token": "tok", "last_seq": None}
    page.locator('#hand .slot[data-card="T19"]').click(position={"x": 6, "y": 30})
    page.wait_for_selector("#status.error")
    # the refusal in the page's words from its code and params (§3.8), the rule's reference below
    assert page.inner_text("#status .message") == "You must play a trump higher than Trump 16"
    assert page.inner_text("#status .rule") == "rule book §3.8"
    page.locator('#hand .slot[data-card="T14"]').click(position={"x": 6, "y": 30})
    page.wait_for_function(f"document.querySelectorAll('#hand .slot').length === {len(view['hand']) - 1}")
    assert {"type": "action", "seq": 41, "action": "play T14"} in received
    assert page.locator("#hand .slot.legal").count() == 0
    assert page.locator('#center .trick-card[data-seat="3"]').count() == 1
    assert "Waiting for" in page.inner_text("#status")
    page.close()


def test_a_card_played_at_the_poignee_question_declines_it_and_plays(browser: Any, server: str) -> None:
    """rule book §3.7: a poignée is weighed in secret. Answering "none" by playing a card sends
    the refusal and then the card, each on the seq it was chosen on: declining takes no step of
    its own that the others could time."""
    state = fixture("fft4-poignee")["messages"][0]
    view = state["view"]
    assert view["phase"] == "poignee" and "no_poignee" in view["legal_actions"]
    received: list[dict[str, Any]] = []
    page = browser.new_page()
    page.add_init_script(
        "localStorage.setItem('atout.tables', JSON.stringify({abc: {table_id: 'abc', seat: 2, token: 'tok'}}))"
    )
    diamonds = [c for c in view["hand"] if c.endswith("D")]

    def serve(ws: Any) -> None:
        def on_message(message: str) -> None:
            data = json.loads(message)
            received.append(data)
            if data["type"] == "hello":
                ws.send(json.dumps({**state, "seq": 7}))
            elif data["type"] == "action" and data["action"] == "no_poignee":
                after = {**view, "phase": "play", "legal_actions": [f"play {c}" for c in diamonds]}
                ws.send(json.dumps({"type": "update", "seq": 8, "deal_no": 1, "events": [], "view": after}))

        ws.on_message(on_message)

    page.route_web_socket("**/ws/tables/abc", serve)
    page.goto(f"{server}/static/table.html?table=abc")
    page.wait_for_selector('#controls [data-action="no_poignee"]')
    assert "play a card to show none" in page.inner_text("#controls").lower()
    page.locator(f'#hand .slot[data-card="{diamonds[0]}"]').click(position={"x": 6, "y": 30})
    end = time.monotonic() + 5
    while len([m for m in received if m["type"] == "action"]) < 2 and time.monotonic() < end:
        page.wait_for_timeout(50)
    actions = [m for m in received if m["type"] == "action"]
    assert actions == [
        {"type": "action", "seq": 7, "action": "no_poignee"},
        {"type": "action", "seq": 8, "action": f"play {diamonds[0]}"},
    ]
    page.close()


def test_every_card_of_both_packs_is_drawn_with_its_own_name(browser: Any, server: str) -> None:
    """§1.1 and §1.2: the gallery draws the 78 French cards, the 54 Austrian ones and a back; each
    face is labelled by its own name (the Excuse is Sküs in the Austrian pack)."""
    page = Page(browser, f"{server}/static/gallery.html")
    assert page.errors == []
    labels = page.page.eval_on_selector_all(
        "#gallery svg.card", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert len(labels) == 78 + 54 + 1
    french, austrian = labels[:79], labels[79:]
    assert len(set(french)) == 79  # 78 faces and the back
    assert len(set(austrian)) == 54
    assert "Excuse" in french and "Sküs" in austrian
    page.page.close()


def test_on_a_touch_screen_the_first_tap_raises_and_the_second_plays(browser: Any, server: str) -> None:
    """A stray tap on a phone plays nothing: the first tap chooses the card, the second plays it."""
    view = state_view("fft4-follow")
    card = view["legal_actions"][0].split()[1]
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(f"{server}/static/table.html?fixture=fft4-follow")
    page.wait_for_selector("body[data-ready]")
    slot = page.locator(f'#hand .slot[data-card="{card}"]')
    slot.tap(position={"x": 6, "y": 30})
    assert page.get_attribute("#hand .slot.selected", "data-card") == card
    assert "again" in page.inner_text("#status")
    slot.tap(position={"x": 6, "y": 30})
    assert f"play {card}" in page.inner_text("#status")
    context.close()


def test_the_ecart_by_keyboard_picks_with_space_and_lays_aside_with_enter(browser: Any, server: str) -> None:
    """Arrows and Space choose the écart among the legal discards; Enter lays the cards aside."""
    view = state_view("fft4-ecart")
    legal = {a.split()[1] for a in view["legal_actions"]}
    page = open_fixture(browser, server, "fft4-ecart")
    for _ in view["chien"]:
        page.page.keyboard.press("ArrowRight")
        page.page.keyboard.press(" ")
    picked = page.page.eval_on_selector_all("#hand .slot.picked", "els => els.map(e => e.dataset.card)")
    assert len(picked) == len(view["chien"]) and set(picked) <= legal
    page.page.keyboard.press("Enter")
    assert "discard" in page.text("#status")
    page.page.close()

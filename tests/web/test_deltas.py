"""The page holds the seat's view from the server's deltas (docs/protocol.md, docs/web.md): the
view ``delta.js`` builds from a ``state`` and every ``update`` after it equals, after every
update, the engine's own wire view, over whole deals of every game; an update that does not fit
asks for a state; and at a real table against bots the page's view is, after every update, the
one the server's log rebuilds for that seat.

Needs Playwright for Python and ``/usr/bin/chromium`` (never a downloaded browser): skipped
without them, except under ``CI=true`` where they must be there.
"""

from __future__ import annotations

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

from atout.engine.wire import view_delta
from atout.games import View, new_deal
from atout.presets import rules_for
from atout.rules import Rules

from .test_browser import Player, helpers, play_to_end

WEB = Path(__file__).resolve().parents[2] / "src" / "atout" / "web"
Message = dict[str, Any]

GAMES: dict[str, Rules] = {
    "fft4": rules_for("fft", players=4),
    "fft5-king": rules_for("fft", players=5),
    "fft5-dead": rules_for("fft", players=5).replace(five_player_mode="dead_player"),
    "fft3": rules_for("fft", players=3),
    "fft2": rules_for("fft", players=2),
    "tarock": rules_for("tarock"),
}
SEEDS = (1, 2, 3)


def wire(view: View) -> Any:
    """A view's wire form as it travels (JSON text and back)."""
    return json.loads(json.dumps(view.to_json()))


def seat_stream(rules: Rules, seed: int, seat: int) -> tuple[list[Message], list[Any]]:
    """A whole deal of random legal actions (bids preferred to passes on two seeds of three, so
    that most deals are played; the third may be passed out): the messages the server makes for
    ``seat`` (a ``state``, then an update as a delta for each action that changed its view), and
    the wire view after each of them."""
    rng = random.Random(seed)
    deal = new_deal(rules, dealer=rng.randrange(rules.players), rng=rng)
    held = deal.view(seat)
    messages: list[Message] = [{"type": "state", "seq": 1, "deal_no": 1, "seat": seat, "view": wire(held)}]
    views = [wire(held)]
    while not deal.is_over():
        legal = list(deal.legal_actions())
        bids = [a for a in legal if deal.action_name(a) != "pass"]
        deal.apply(rng.choice(bids if bids and seed % 3 else legal))
        view = deal.view(seat)
        if view == held:
            continue
        delta = view_delta(held, view)
        held = view
        messages.append({"type": "update", "seq": len(messages) + 1, "deal_no": 1, **delta})
        views.append(wire(view))
    return messages, views


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def static_server() -> Iterator[str]:
    """The page's files served as the server serves them: ``/static/...``."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(WEB)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def delta_page(browser: Any, static_server: str) -> Iterator[Any]:
    """A page of the static server's origin, on which ``/static/delta.js`` is imported."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{static_server}/static/")  # the folder's listing: any page of that origin
    yield page
    assert errors == []
    page.close()


APPLY_STREAM_JS = """async (messages) => {
  const { applyUpdate } = await import('/static/delta.js');
  let view = messages[0].view;
  const views = [JSON.stringify(view)], touched = [];
  for (const [i, msg] of messages.slice(1).entries()) {
    const before = JSON.stringify(view);
    const next = applyUpdate(view, msg);
    if (JSON.stringify(view) !== before) touched.push(i + 1);
    views.push(JSON.stringify(next));
    view = next;
  }
  return { views, touched };
}"""


@pytest.mark.parametrize("game", list(GAMES))
def test_the_view_built_from_deltas_equals_the_engines_after_every_update(delta_page: Any, game: str) -> None:
    """Whole deals of each game, every seat: ``applyUpdate`` over the stream of deltas gives,
    after every update, exactly the engine's wire view; the view it was given stays as it was."""
    rules = GAMES[game]
    updates = 0
    for seed in SEEDS:
        for seat in range(rules.players):
            messages, expected = seat_stream(rules, seed, seat)
            got = delta_page.evaluate(APPLY_STREAM_JS, messages)
            assert got["touched"] == [], f"seed {seed} seat {seat}: the input view was changed"
            views = [json.loads(text) for text in got["views"]]
            assert len(views) == len(expected)
            for n, (view, want) in enumerate(zip(views, expected, strict=True)):
                assert view == want, f"seed {seed} seat {seat}, after update {n}: {messages[n]}"
            updates += len(messages) - 1
    assert expected[-1]["phase"] == "end"
    assert updates > 20 * len(SEEDS) * rules.players  # every seat was told most of the deal


MALFORMED_JS = """async () => {
  const { applyUpdate } = await import('/static/delta.js');
  const view = { phase: 'play', trick: [], hand: ['KS'], events: [] };
  const cases = [
    [null, { set: {} }],
    [view, null],
    [view, { set: [] }],
    [view, { add: { phase: ['x'] } }],
    [view, { add: { missing: ['x'] } }],
    [view, { add: { trick: 'KS' } }],
    [view, { events: { kind: 'bid' } }],
    [{ phase: 'play' }, { set: { phase: 'end' } }],
    [view, JSON.parse('{"set": {"__proto__": {"phase": "end"}}}')],
  ];
  return { refused: cases.map(([v, u]) => applyUpdate(v, u)), view,
           fine: applyUpdate(view, { set: { phase: 'end' }, add: { hand: ['EX'] }, events: [{ kind: 'x' }] }) };
}"""


def test_an_update_that_does_not_fit_is_refused_without_an_exception(delta_page: Any) -> None:
    """No view, a member of the wrong shape, a list grown that is not a list in the view: null
    (the page then asks for a state), never an exception; the view given is left as it was."""
    got = delta_page.evaluate(MALFORMED_JS)
    assert got["refused"] == [None] * 9
    assert got["view"] == {"phase": "play", "trick": [], "hand": ["KS"], "events": []}
    assert got["fine"] == {"phase": "end", "trick": [], "hand": ["KS", "EX"], "events": [{"kind": "x"}]}


# ---------------------------------------------------------------------- the table page's websocket
TEMPLATE: Message = json.loads(
    (WEB / "static" / "fixtures" / "fft4-follow.json").read_text(encoding="utf-8")
)["messages"][0]
SERVER_VIEW_JS = "async () => { const s = (await import('/static/table.js')).state; return JSON.stringify({view: s.serverView, seq: s.serverSeq}); }"


def test_the_table_page_applies_updates_on_receipt_and_asks_a_state_after_a_gap(
    browser: Any, static_server: str
) -> None:
    """Against a stand-in websocket: the page holds the server's view after each delta; a gap in
    seq, then an update that does not fit, each bring one resync (none for the updates that
    follow it before the state), and the page goes on from the state it gets."""
    rules = GAMES["fft4"]
    seat = TEMPLATE["seat"]
    messages, expected = seat_stream(rules, 1, seat)
    table = {**TEMPLATE["table"], "table_id": "abc", "bot_pause": 0}  # drawn at once
    state = {**messages[0], "table": table, "totals": [0, 0, 0, 0], "over": None}
    received: list[Message] = []
    sockets: list[Any] = []
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(
        f"localStorage.setItem('atout.tables', JSON.stringify({{abc: {{table_id: 'abc', seat: {seat}, token: 'tok'}}}}))"
    )

    def serve(ws: Any) -> None:
        sockets.append(ws)

        def on_message(text: str) -> None:
            data = json.loads(text)
            received.append(data)
            if data["type"] == "hello":
                ws.send(json.dumps(state))

        ws.on_message(on_message)

    def server_view() -> Message:
        held: Message = json.loads(page.evaluate(SERVER_VIEW_JS))
        return held

    def resyncs() -> int:
        return sum(1 for m in received if m["type"] == "resync")

    page.route_web_socket("**/ws/tables/abc", serve)
    try:
        page.goto(f"{static_server}/static/table.html?table=abc")
        page.wait_for_function("async () => (await import('/static/table.js')).state.serverSeq === 1")
        for n in range(1, 11):
            sockets[0].send(json.dumps(messages[n]))
        page.wait_for_function("async () => (await import('/static/table.js')).state.serverSeq === 11")
        assert server_view() == {"view": expected[10], "seq": 11}
        assert resyncs() == 0
        # the update numbered 13 without 12: a gap, one resync; 14 after it waits for the state too
        sockets[0].send(json.dumps(messages[12]))
        sockets[0].send(json.dumps(messages[13]))
        # a table message after the two: once it is read, both were
        sockets[0].send(json.dumps({"type": "table", "seq": 11, "table": {**table, "preset": "after"}}))
        page.wait_for_function(
            "async () => (await import('/static/table.js')).state.table.preset === 'after'"
        )
        assert resyncs() == 1 and received[-1] == {"type": "resync"}
        assert server_view() == {"view": None, "seq": 11}
        sockets[0].send(json.dumps({**state, "seq": 14, "view": expected[13]}))
        page.wait_for_function("async () => (await import('/static/table.js')).state.resyncing === false")
        sockets[0].send(json.dumps(messages[14]))
        page.wait_for_function("async () => (await import('/static/table.js')).state.serverSeq === 15")
        assert server_view() == {"view": expected[14], "seq": 15}
        # an update that does not fit the view held: another resync
        sockets[0].send(json.dumps({"type": "update", "seq": 16, "deal_no": 1, "add": {"phase": ["x"]}}))
        page.wait_for_function("async () => (await import('/static/table.js')).state.resyncing === true")
        assert resyncs() == 2
        # an update that carries the whole view is taken as it is
        whole = {"type": "update", "seq": 16, "deal_no": 1, "events": [], "view": expected[15]}
        sockets[0].send(json.dumps(whole))
        page.wait_for_function("async () => (await import('/static/table.js')).state.serverSeq === 16")
        assert server_view() == {"view": expected[15], "seq": 16}
        # the page draws, in turn, the very view it holds
        page.wait_for_function(
            "async () => { const s = (await import('/static/table.js')).state; return s.view === s.serverView; }"
        )
        assert errors == []
    finally:
        page.close()


# ---------------------------------------------------------------------- a real server
RECORD_VIEWS_JS = """window.__views = [];
window.addEventListener('atout:view', (e) => window.__views.push(JSON.stringify(e.detail)));"""

LIVE = [
    ("fft", 4, "bot:rules"),
    ("fft", 5, "bot:random"),
    ("fft", 2, "bot:random"),
    ("tarock", 3, "bot:random"),
]


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    process = helpers.ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('db') / 'atout.sqlite3'}")
    process.start()
    yield process
    process.stop()


@pytest.mark.parametrize(("preset", "players", "bot"), LIVE, ids=[f"{p}{n}" for p, n, _ in LIVE])
def test_at_a_real_table_the_page_holds_the_servers_view_after_every_update(
    browser: Any, live_server: Any, preset: str, players: int, bot: str
) -> None:
    """A whole deal against bots, played by clicking: every view the page held (the state, then
    after each update) is the seat's view the server's log rebuilds at that seq, the seqs follow
    one another without a resync, and a second client of the same seat gets the same view."""
    player = Player(browser)
    player.context.add_init_script(RECORD_VIEWS_JS)
    frames: list[Any] = []  # what the server sent, as it travelled
    player.page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    try:
        started = time.monotonic()
        player.create(live_server.base, preset, players, [bot] * (players - 1))
        play_to_end([player], timeout=30.0)
        table_id = player.page.url.rstrip("/").rsplit("/", 1)[-1]
        seat = player.state()["seat"]
        held = [json.loads(text) for text in player.page.evaluate("window.__views")]
        rebuilt: dict[int, Any] = {}
        for _seat, seq, deal in helpers.seat_states(live_server.log(table_id), [seat]):
            rebuilt[seq] = wire(deal.view(seat))
        seqs = [h["seq"] for h in held]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), seqs
        assert seqs[-1] == max(rebuilt) and len(seqs) > 20
        for h in held:
            assert h["view"] == rebuilt[h["seq"]], f"seq {h['seq']}"
        updates = [m for m in map(json.loads, frames) if m["type"] == "update"]
        assert len(updates) == len(held) - 1 and all("view" not in u for u in updates)  # deltas
        token = json.loads(player.page.evaluate("localStorage.getItem('atout.tables')"))[table_id]["token"]
        other = live_server.connect(table_id, token, seat)
        try:
            state = other.recv_until("state")
        finally:
            other.close()
        assert state["seq"] == seqs[-1] and state["view"] == held[-1]["view"]
        assert held[-1]["view"]["phase"] == "end"
        assert time.monotonic() - started < 30
        assert player.errors == []
    finally:
        player.close()

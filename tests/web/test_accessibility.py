"""The pages checked for accessibility with axe-core, in Debian's chromium, against a real ``atout serve``.

axe-core (vendored in ``tests/web/vendor/``, a test dependency only) is injected into each page as
a person sees it: the lobby, the 404 page, the invite link's offer of a seat, the table during a
deal (bidding, play, a hint, the last trick, the end-of-deal dialog, a visitor watching), the
replay of a finished deal with its analysis, the rule book, the score keeper, and recorded screens
of the other games; at a desktop's 1280x800 and a phone's 390x844, in English and in French. No
violation of impact "serious" or "critical" may remain; a failure prints each one with its rule,
the elements it names and axe's help. Two tricks are also played with the keyboard alone: Tab
reaches a card, Enter plays it.

Needs Playwright for Python and ``/usr/bin/chromium`` like ``test_browser.py``, whose player and
server it uses. Screenshots go to ``test-artifacts/screenshots/a11y-*.png``.
"""

from __future__ import annotations

import importlib.util
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
LANGUAGES = ("en", "fr")
BLOCKING = ("serious", "critical")
"""The impacts that fail the test; "moderate" and "minor" ones are best practices, not barriers."""


def _browser_tests() -> Any:
    spec = importlib.util.spec_from_file_location("atout_browser_tests", ROOT / "tests/web/test_browser.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


web = _browser_tests()
shots = web.shots

AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, url: v.helpUrl,
    nodes: v.nodes.map((n) => ({target: n.target.join(" "), summary: n.failureSummary ?? ""})),
  }));
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One real server for the whole file, on a fresh SQLite file."""
    process = web.start_server(f"sqlite:///{tmp_path_factory.mktemp('a11y') / 'atout.sqlite3'}")
    yield process
    process.stop()


@pytest.fixture(scope="module")
def bots_table(server: Any) -> str:
    """A table of four bots, which plays its first deal by itself at once: the deal's analysis
    (a 5 s budget in a process of its own) is under way while the other pages are checked."""
    created = server.create(preset="fft", players=4, seats=[{"kind": "bot", "bot": "random"}] * 4, sit=None)
    table_id: str = created["table_id"]
    return table_id


class Audit:
    """The serious and critical violations found on every page visited, each with where it was seen."""

    def __init__(self, shots: Path) -> None:
        self.shots = shots
        self.found: dict[str, list[str]] = {}  # a violation and its elements -> the screens showing it
        self.pages = 0

    def check(self, page: Any, screen: str, language: str, size: str) -> None:
        """axe on the page as it is now; its blocking violations noted, a screenshot kept."""
        if not page.evaluate("typeof window.axe === 'object'"):
            page.add_script_tag(path=str(AXE))
        assert page.evaluate("document.documentElement.lang") == language, "the page's lang attribute"
        self.pages += 1
        page.screenshot(path=str(self.shots / f"a11y-{screen}-{language}-{size}.png"))
        for violation in page.evaluate(AXE_RUN):
            if violation["impact"] not in BLOCKING:
                continue
            nodes = "\n".join(
                f"    {n['target']}: {' '.join(n['summary'].split())}" for n in violation["nodes"]
            )
            said = (
                f"{violation['id']} [{violation['impact']}] {violation['help']} ({violation['url']})\n{nodes}"
            )
            self.found.setdefault(said, []).append(f"{screen} ({language}, {size})")

    def assert_clean(self) -> None:
        assert self.pages, "no page was checked"
        report = [f"on {', '.join(where)}:\n  {said}" for said, where in self.found.items()]
        assert not report, "accessibility violations:\n" + "\n".join(report)


def visit(page: Any, url: str, language: str, size: str, ready: str, timeout: float = 15) -> None:
    """Open ``url`` in ``language`` at ``size`` and wait until the page says it is drawn."""
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    address, hash_, fragment = url.partition("#")
    page.goto(f"{address}{'&' if '?' in address else '?'}lang={language}{hash_}{fragment}")
    page.wait_for_function(ready, timeout=timeout * 1000)


def every_way(audit: Audit, page: Any, url: str, screen: str, ready: str) -> None:
    """One screen in each language at each size."""
    for language in LANGUAGES:
        for size in SIZES:
            visit(page, url, language, size, ready)
            audit.check(page, screen, language, size)


STRAIGHT = (("en", "desktop"), ("fr", "phone"))
CROSSED = (("en", "phone"), ("fr", "desktop"))


def two_ways(
    audit: Audit, page: Any, url: str, screen: str, ready: str, ways: tuple[tuple[str, str], ...] = STRAIGHT
) -> None:
    """A screen checked in both languages and at both sizes, not every pair of them: English on a
    desktop and French on a phone, or the other way round (``CROSSED``)."""
    for language, size in ways:
        visit(page, url, language, size, ready)
        audit.check(page, screen, language, size)


TABLE_READY = """async () => {
  const s = (await import('/static/table.js')).state;
  return Boolean(s.view) && s.conn === 'online' && s.synced !== false && %s;
}"""
MY_TURN = TABLE_READY % "s.myTurn && !s.pending"
WATCHING = TABLE_READY % "s.seat === null"
MY_BID = TABLE_READY % "s.myTurn && !s.pending && s.view.phase === 'bidding'"
END_OPEN = TABLE_READY % "Boolean(document.querySelector('dialog#dialog[open][data-kind=end]'))"
PAGE_READY = "document.body.dataset.ready === 'true'"
IN_DIALOG_OR_OUT = (
    "document.activeElement === document.body || Boolean(document.activeElement.closest('dialog[open]'))"
)
ANALYSIS_TIMEOUT = 60.0
"""Seconds the replay waits for the deal's analysis: its budget is 5 s of search (docs/analysis.md)."""
REPLAY_READY = PAGE_READY + " && !document.querySelector('#analysis[hidden], #analysis .computing')"


@pytest.mark.usefixtures("bots_table")  # first, so that its deal is analysed when the replay is checked
def test_lobby_and_missing_pages(browser: Any, server: Any, shots: Path) -> None:
    """The lobby (its options opened too), the page of an address without a table, and the
    invite link's page, which offers the open seat."""
    audit = Audit(shots)
    player = web.Player(browser)
    page = player.page
    try:
        every_way(audit, page, f"{server.base}/", "lobby", PAGE_READY)
        for language, size in CROSSED:
            visit(page, f"{server.base}/", language, size, PAGE_READY)
            page.click("details.options summary")
            audit.check(page, "lobby-options", language, size)
        two_ways(audit, page, f"{server.base}/t/no-such-table", "missing", PAGE_READY, CROSSED)
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "open"}, *[{"kind": "bot", "bot": "random"}] * 2]
        invited = server.create(preset="fft", players=4, seats=seats)
        offered = "Boolean(document.querySelector('dialog#dialog[open] #sit-name'))"
        two_ways(audit, page, f"{server.base}/t/{invited['table_id']}", "take-a-seat", offered)
        audit.assert_clean()
        web.no_errors(player, allowed=("404",))
    finally:
        player.close()


def test_table_during_a_deal(browser: Any, server: Any, shots: Path) -> None:
    """The table while bidding, while playing and with the end-of-deal dialog open, each reloaded
    in both languages at both sizes, the last trick's dialog and a hint; a visitor watching the
    full table during the deal and once it is over."""
    audit = Audit(shots)
    player, watcher = web.Player(browser), web.Player(browser)
    page = player.page
    try:
        url = player.create(server.base, "fft", 4, ["bot:random"] * 3)
        page.wait_for_function(MY_BID, timeout=15000)
        every_way(audit, page, url, "bidding", MY_BID)

        def playing() -> bool:
            s = player.state()
            return bool(s["phase"] == "play" and s["tricks"] >= 1 and s["myTurn"] and not s["pending"])

        web.play_to_end([player], stop=playing)
        every_way(audit, page, url, "play", MY_TURN)
        page.keyboard.press("l")  # the last trick, in French on a phone (the last visit's)
        page.wait_for_selector("dialog#dialog[open]")
        audit.check(page, "last-trick", "fr", "phone")
        page.keyboard.press("Escape")
        page.keyboard.press("h")  # a hint: the expert's advice, the card it points at raised
        page.wait_for_selector("#controls .advice-text")
        audit.check(page, "hint", "fr", "phone")
        visit(watcher.page, url, "fr", "phone", WATCHING)
        audit.check(watcher.page, "watching", "fr", "phone")
        web.play_to_end([player])
        every_way(audit, page, url, "end", END_OPEN)
        # the dialog opens on its title, which names it; Tab goes on to its buttons, never to the page
        # behind it (past the last button the focus leaves for the browser's own bar: the body)
        assert page.evaluate("document.activeElement.id") == "dialog-title"
        assert (
            page.evaluate("document.getElementById('dialog').getAttribute('aria-labelledby')")
            == "dialog-title"
        )
        page.keyboard.press("Tab")
        assert page.evaluate(
            "document.activeElement.matches('dialog#dialog[open] button, dialog#dialog[open] a')"
        )
        for _ in range(4):
            page.keyboard.press("Tab")
            assert page.evaluate(IN_DIALOG_OR_OUT), "the focus went behind the dialog"
        visit(watcher.page, url, "en", "desktop", WATCHING)
        audit.check(watcher.page, "watching-end", "en", "desktop")
        web.no_errors(player)
        web.no_errors(watcher)
        audit.assert_clean()
    finally:
        player.close()
        watcher.close()


FOCUSED_CARD = """() => {
  const slot = document.activeElement?.closest('#hand .slot');
  return slot ? {card: slot.dataset.card, legal: slot.classList.contains('legal'),
                 chosen: slot.getAttribute('aria-selected') === 'true'} : null;
}"""
WATCH_STATUS = """() => {
  const status = document.getElementById('status');
  window.statusSaid = [];
  new MutationObserver(() => window.statusSaid.push(status.textContent)).observe(status, {childList: true, subtree: true, characterData: true});
}"""
PLAYED = """async (card) => {
  const v = (await import('/static/table.js')).state.serverView;
  return Boolean(v) && !v.hand.includes(card)
    && [...(v.trick ?? []), ...(v.tricks ?? []).flatMap((t) => t.plays)].some((p) => p.card === card && p.seat === v.seat);
}"""


def test_a_trick_played_with_the_keyboard_alone(browser: Any, server: Any, shots: Path) -> None:
    """At the player's turn in play, Tab reaches a playable card of the hand, Enter plays it; the
    focus stays in the hand, so the next turn's Enter plays again: no mouse. The status says each
    change once."""
    player = web.Player(browser)
    page = player.page
    try:
        url = player.create(server.base, "fft", 4, ["bot:random"] * 3)

        def my_turn_to_play() -> bool:
            s = player.state()
            return bool(s["phase"] == "play" and s["myTurn"] and not s["pending"])

        web.play_to_end([player], stop=my_turn_to_play)  # the bidding and an écart, by clicks
        page.goto(url)  # a fresh page: nothing focused
        page.wait_for_function(MY_TURN, timeout=15000)
        page.evaluate(WATCH_STATUS)
        for _ in range(2):  # two tricks: the second card without a Tab
            focused = page.evaluate(FOCUSED_CARD)
            for _ in range(30):
                if focused is not None:
                    break
                page.keyboard.press("Tab")
                focused = page.evaluate(FOCUSED_CARD)
            assert focused is not None, "Tab never reached a card of the hand"
            assert focused["legal"] and focused["chosen"], focused
            page.screenshot(path=str(shots / "a11y-keyboard-en-desktop.png"))
            page.keyboard.press("Enter")
            page.wait_for_function(PLAYED, arg=focused["card"], timeout=10000)
            page.wait_for_function(MY_TURN, timeout=15000)
            assert page.evaluate(FOCUSED_CARD) is not None, "the focus left the hand after a card was played"
        # the status, a live region, was written only when what it says changed: a screen reader
        # reads each change once
        said = page.evaluate("window.statusSaid")
        # (a seat that wins both tricks leads again at once: its status may not change at all)
        assert all(a != b for a, b in itertools.pairwise(said)), said
        web.no_errors(player)
    finally:
        player.close()


def test_rule_book_and_score_keeper(browser: Any, server: Any, shots: Path) -> None:
    """The rule book (its contents, and its longest page at two sizes), the score keeper's new
    sheet and a sheet with two deals, opened with its edit link."""
    audit = Audit(shots)
    player = web.Player(browser)
    page = player.page
    try:
        two_ways(audit, page, f"{server.base}/rules", "rules", PAGE_READY, CROSSED)
        two_ways(audit, page, f"{server.base}/rules/french-tarot", "rules-french-tarot", PAGE_READY)
        started = "Boolean(document.getElementById('k-start'))"
        two_ways(audit, page, f"{server.base}/score", "score-new", started, CROSSED)
        sheet = server.post(
            "/api/sheets", {"names": ["Ann", "Bruno", "Chloé", "Dai"], "preset": "fft"}
        ).json()
        for version, deal in enumerate(
            ({"taker": 0, "contract": "garde", "oudlers": 2, "points": 49},
             {"taker": 2, "contract": "petite", "oudlers": 2, "points": 51, "petit_au_bout": "attack"}),
            start=1,
        ):  # fmt: skip
            added = server.post(
                f"/api/sheets/{sheet['sheet_id']}/deals", {"version": version, "deal": deal}, sheet["token"]
            )
            assert added.status_code == 200, added.text
        entered = "document.querySelectorAll('#deals > li').length === 2 && Boolean(document.getElementById('entry'))"
        two_ways(
            audit,
            page,
            f"{server.base}/score/{sheet['sheet_id']}#edit={sheet['token']}",
            "score-sheet",
            entered,
        )
        audit.assert_clean()
        web.no_errors(player)
    finally:
        player.close()


SCREENS = ("fft5-call", "fft4-ecart", "two-play", "tarock-talon")
"""Recorded screens of every game (tests/web/fixtures.py) that a live deal against bots may not show."""
TRICK_NAMES = """() => [...document.querySelectorAll('#center .trick-card')].map((slot) => ({
  said: slot.querySelector('svg').getAttribute('aria-label'),
  seat: document.querySelector(`#seats .seat[data-seat="${slot.dataset.seat}"] .seat-name`).textContent,
}))"""


def test_the_screens_of_every_game(browser: Any, server: Any, shots: Path) -> None:
    """The call of a king, the écart, a poignée, the 2-player piles and the Austrian talon, on a
    phone in French, from the recorded views the server serves; each card of a trick is named
    with who played it."""
    audit = Audit(shots)
    player = web.Player(browser)
    page = player.page
    try:
        for name in SCREENS:
            visit(page, f"{server.base}/static/table.html?fixture={name}", "fr", "phone", PAGE_READY)
            audit.check(page, name, "fr", "phone")
        visit(page, f"{server.base}/static/table.html?fixture=fft4-follow", "en", "desktop", PAGE_READY)
        trick = page.evaluate(TRICK_NAMES)
        assert trick and all(card["seat"] in card["said"] for card in trick), trick
        audit.assert_clean()
        web.no_errors(player)
    finally:
        player.close()


def test_replay_of_a_finished_deal_with_its_analysis(
    browser: Any, server: Any, bots_table: str, shots: Path
) -> None:
    """A finished deal's replay, stepped to its middle, with the analysis in it once computed (or
    what it says when the deal could not be analysed)."""
    watcher = server.connect(bots_table, None, None)
    try:
        first = watcher.recv_until("state")
        if not first.get("over") and (first.get("view") or {}).get("phase") != "end":
            watcher.recv_until("deal_over", 60)
    finally:
        watcher.close()
    audit = Audit(shots)
    player = web.Player(browser)
    page = player.page
    url = f"{server.base}/t/{bots_table}/deals/1#step=30"
    try:
        visit(page, url, "fr", "phone", PAGE_READY)
        audit.check(page, "replay", "fr", "phone")
        visit(page, url, "en", "desktop", REPLAY_READY, timeout=ANALYSIS_TIMEOUT)
        assert page.locator("#analysis .moves, #analysis p").count(), "the analysis says nothing"
        audit.check(page, "replay", "en", "desktop")
        audit.assert_clean()
    finally:
        player.close()

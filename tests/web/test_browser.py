"""Whole deals played through the page in headless chromium against a real ``atout serve``.

Each test starts its own server (a subprocess on a free port, a fresh SQLite file or PostgreSQL
database, bots without pause) and plays as a person would: the lobby's form, the buttons, the
écart and the cards, all by clicking. What the page holds is read from its own ``state`` (the
exported object of ``table.js``), never from the server, so that a reload or a server killed
mid-deal is checked from the player's side: the same hand, the same tricks.

Needs Playwright for Python and ``/usr/bin/chromium`` (never a downloaded browser): skipped
without them, except under ``CI=true`` where they must be there. Screenshots of the main screens
go to ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "screenshots"
DEAL_TIMEOUT = 60.0  # seconds for one deal, bots included; a deal takes a few seconds


def _helpers() -> Any:
    """tests/server/conftest.py: the real server subprocess and the PostgreSQL databases."""
    spec = importlib.util.spec_from_file_location("atout_server_helpers", ROOT / "tests/server/conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


helpers = _helpers()


# ------------------------------------------------------------------ fixtures
@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'atout.sqlite3'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'atout.sqlite3'}"
        return
    base = helpers.postgres_url()  # fails under CI when unset
    if not base:
        pytest.skip("ATOUT_TEST_POSTGRES_URL is not set")
    url, name = helpers.fresh_postgres_database(base)
    yield url
    helpers.drop_postgres_database(base, name)


def start_server(url: str) -> Any:
    server = helpers.ServerProcess(url)
    server.start()
    return server


@pytest.fixture
def server(sqlite_url: str) -> Iterator[Any]:
    process = start_server(sqlite_url)
    yield process
    process.stop()


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


# ------------------------------------------------------------------ a person at the page
STATE_JS = """async () => {
  const s = (await import('/static/table.js')).state;
  const v = s.view;
  return {myTurn: s.myTurn, pending: Boolean(s.pending) || (s.discardQueue?.length ?? 0) > 0,
          phase: v?.phase ?? null, tricks: v?.tricks?.length ?? 0, trick: (v?.trick ?? []).map((p) => p.card),
          hand: v?.hand ?? [], taker: v?.taker ?? null, contract: v?.contract ?? null, seq: s.seq ?? null, seat: s.seat, totals: s.totals ?? null,
          error: s.error?.message ?? null};
}"""

WANTED = ("garde", "threesome", "no_chelem", "no_poignee", "36_or_more", "accept_first_half", "pass_talon")


class Player:
    """One browser page at one seat, with the console errors it logged."""

    def __init__(self, browser: Any, width: int = 1280, height: int = 800, locale: str | None = None) -> None:
        options: dict[str, Any] = {"viewport": {"width": width, "height": height}}
        if locale is not None:  # the browser's language (navigator.languages)
            options["locale"] = locale
        self.context = browser.new_context(**options)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.moves = 0
        self.discarded = False
        self.seen: set[str] = set()

    def state(self) -> dict[str, Any]:
        got: dict[str, Any] = self.page.evaluate(STATE_JS)
        return got

    def over(self) -> bool:
        return bool(self.page.locator("dialog#dialog[open][data-kind=end]").count())

    def create(
        self, base: str, preset: str, players: int, seats: list[str], shots: Path | None = None
    ) -> str:
        """Fill the lobby's form and create the table; its URL."""
        self.page.goto(f"{base}/")
        self.page.wait_for_selector("#f-submit")
        self.page.select_option("#f-preset", preset)
        self.page.select_option("#f-players", str(players))
        self.page.fill("#f-name", "Tester")
        for seat, kind in enumerate(seats, start=1):
            self.page.select_option(f"#f-seat-{seat}", kind)
        if shots is not None:
            self.page.screenshot(path=str(shots / "lobby.png"))
        self.page.click("#f-submit")
        if "open" in seats:  # the lobby shows the invite link first
            link = self.page.locator("#created a.action.primary")
            link.wait_for()
            url = str(self.page.locator("#created input").input_value())
            link.click()
        self.page.wait_for_url("**/t/**")
        self.wait_for_view()
        return url if "open" in seats else str(self.page.url)

    def wait_for_view(self) -> None:
        self.page.wait_for_function(
            "async () => Boolean((await import('/static/table.js')).state.view)", timeout=15000
        )

    def screenshot(self, shots: Path | None, name: str) -> None:
        if shots is not None and name not in self.seen:
            self.seen.add(name)
            self.page.screenshot(path=str(shots / f"{name}.png"))

    def step(self, shots: Path | None = None, prefix: str = "") -> bool:
        """One move if it is this seat's turn; whether one was made."""
        now = self.state()
        if not now["myTurn"] or now["pending"] or self.over():
            return False
        page = self.page
        buttons = page.locator("#controls button.action[data-action]")
        if buttons.count():
            if now["phase"] == "bidding":
                self.screenshot(shots, f"{prefix}bidding")
            actions = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
            chosen = next((a for a in actions if a in WANTED), actions[0])
            page.locator(f'#controls button[data-action="{chosen}"]').click()
        elif now["phase"] == "discard":
            confirm = page.locator("#controls button.primary")
            for _ in range(12):
                if confirm.is_enabled():
                    break
                page.locator("#hand .slot.legal:not(.picked)").first.click(position={"x": 6, "y": 30})
            self.screenshot(shots, f"{prefix}ecart")
            confirm.click()
            self.discarded = True
        else:
            if now["phase"] == "play" and now["tricks"] >= 2:
                self.screenshot(shots, f"{prefix}play")
            page.locator("#hand .slot.legal, #own-piles .top.legal").first.click(position={"x": 6, "y": 30})
        self.moves += 1
        self.settle(now["seq"])
        return True

    def settle(self, seq: int | None, timeout: float = 5.0) -> None:
        """Until the server has answered the move (the seq moved on, or an error came back)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            now = self.state()
            if (now["seq"] != seq or now["error"]) and not now["pending"]:
                return
            time.sleep(0.03)

    def close(self) -> None:
        self.context.close()


def play_to_end(
    players: list[Player],
    shots: Path | None = None,
    stop: Callable[[], bool] | None = None,
    prefix: str = "",
    timeout: float = DEAL_TIMEOUT,
) -> None:
    """Every page plays its turns until each shows the end of the deal (or ``stop`` says so)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if stop is not None and stop():
            return
        if all(p.over() for p in players):
            return
        if not any(p.step(shots, prefix) for p in players):
            time.sleep(0.05)
    raise AssertionError(f"the deal did not end in {timeout} s: {[p.state() for p in players]}")


def check_deal_over(player: Player, seats: int) -> None:
    """The end-of-deal dialog: the breakdown, this deal's scores and the totals, which add up to 0."""
    text = player.page.locator("dialog#dialog[open][data-kind=end]").inner_text()
    assert "Deal 1 is over" in text
    assert "This deal" in text and "Running totals" in text
    assert "Tester" in text
    totals = player.state()["totals"]
    assert totals is not None and len(totals) == seats and sum(totals) == 0, totals
    rows = player.page.locator("dialog#dialog[open] table.scores tr.total td")
    assert [int(rows.nth(i).inner_text().replace("+", "")) for i in range(rows.count())][-seats:] == totals


def no_errors(player: Player, allowed: tuple[str, ...] = ()) -> None:
    errors = [e for e in player.errors if not any(a in e for a in allowed)]
    assert errors == [], errors


# ------------------------------------------------------------------ the tests
def test_a_new_user_creates_a_table_and_plays_a_deal_by_clicking(
    browser: Any, any_db_url: str, shots: Path
) -> None:
    """The lobby's form, bids, the écart and the cards by clicking, up to the end-of-deal
    breakdown and totals (on SQLite, and on PostgreSQL when one is given)."""
    server = start_server(any_db_url)
    player = Player(browser)
    try:
        sqlite = any_db_url.startswith("sqlite")
        player.create(server.base, "fft", 4, ["bot:rules"] * 3, shots if sqlite else None)
        play_to_end([player], shots if sqlite else None)
        assert player.moves >= 18  # every card of the hand, and the bids
        end = player.state()
        if end["taker"] == 0 and end["contract"] in ("petite", "pousse", "garde"):
            assert player.discarded  # the taker's écart, laid aside by clicking (rule book §3.5)
        check_deal_over(player, 4)
        if sqlite:
            player.screenshot(shots, "end")
        no_errors(player)
    finally:
        player.close()
        server.stop()


def test_b_a_second_browser_joins_by_the_invite_link_and_both_play(browser: Any, server: Any) -> None:
    """The invite link (the table's URL) offers the open seat; the guest takes it and both play."""
    host, guest = Player(browser), Player(browser)
    try:
        url = host.create(server.base, "fft", 4, ["open", "bot:rules", "bot:rules"])
        assert "/t/" in url
        guest.page.goto(url)
        guest.page.wait_for_selector("#sit-name", timeout=15000)
        guest.page.fill("#sit-name", "Guest")
        guest.page.locator("dialog#dialog button.primary").first.click()
        guest.page.wait_for_function(
            "async () => (await import('/static/table.js')).state.seat === 1", timeout=15000
        )
        guest.wait_for_view()
        play_to_end([host, guest])
        assert host.moves >= 18 and guest.moves >= 18
        check_deal_over(host, 4)
        assert "Guest" in guest.page.locator("dialog#dialog[open]").inner_text()
        assert host.state()["totals"] == guest.state()["totals"]
        no_errors(host)
        no_errors(guest)
    finally:
        host.close()
        guest.close()


def mid_deal(player: Player) -> Callable[[], bool]:
    """Stop once it is this seat's turn after a few tricks."""

    def now() -> bool:
        s = player.state()
        return bool(s["phase"] == "play" and s["tricks"] >= 3 and s["myTurn"] and not s["pending"])

    return now


def test_c_a_reload_mid_deal_resumes_the_same_state(browser: Any, server: Any) -> None:
    """Reloading the page gives back the same hand, trick count and trick, and play goes on."""
    player = Player(browser)
    try:
        player.create(server.base, "fft", 4, ["bot:rules"] * 3)
        play_to_end([player], stop=mid_deal(player))
        before = player.state()
        assert before["phase"] == "play" and before["tricks"] >= 3
        player.page.reload()
        player.wait_for_view()
        player.page.wait_for_function(
            "async () => { const s = (await import('/static/table.js')).state;"
            f" return s.myTurn === true && s.seat === {before['seat']} && s.view.hand.length > 0; }}",
            timeout=15000,
        )
        after = player.state()
        for key in ("hand", "tricks", "trick", "seat", "seq", "phase"):
            assert after[key] == before[key], key
        play_to_end([player])
        check_deal_over(player, 4)
        no_errors(player)
    finally:
        player.close()


def test_d_the_server_killed_mid_deal_comes_back_and_the_deal_goes_on(
    browser: Any, server: Any, sqlite_url: str
) -> None:
    """SIGKILL mid-deal, a new server on the same database and port: the page reconnects by
    itself to the same hand and tricks, and the deal is played to its end."""
    player = Player(browser)
    try:
        player.create(server.base, "fft", 4, ["bot:rules"] * 3)
        play_to_end([player], stop=mid_deal(player))
        before = player.state()
        server.kill()
        player.page.wait_for_selector("#conn[data-state=offline]", timeout=15000)
        server.start()  # same port, same database file
        player.page.wait_for_selector("#conn[data-state=online]", timeout=30000)
        player.page.wait_for_function(
            "async () => (await import('/static/table.js')).state.myTurn === true", timeout=15000
        )
        after = player.state()
        for key in ("hand", "tricks", "trick", "seat", "seq", "phase"):
            assert after[key] == before[key], key
        play_to_end([player])
        check_deal_over(player, 4)
        table_id = player.page.url.rstrip("/").rsplit("/", 1)[-1]
        deal = server.log(table_id).deals[0]  # the database holds the whole deal, both servers' parts
        plays = [seat for _seq, seat, words in deal.actions if words.startswith("play ")]
        assert len(plays) == 72 and plays.count(0) == 18
        assert deal.scores == player.state()["totals"]
        # the chromium's own words for the refused connections while the server was down
        no_errors(player, allowed=("WebSocket connection", "ERR_CONNECTION_REFUSED"))
    finally:
        player.close()


@pytest.mark.parametrize(
    ("preset", "players", "size"),
    [("fft", 2, (1280, 800)), ("fft", 5, (1280, 800)), ("tarock", 3, (390, 844))],
    ids=["fft2", "fft5", "tarock3-phone"],
)
def test_f_one_deal_of_each_other_game(
    browser: Any, server: Any, shots: Path, preset: str, players: int, size: tuple[int, int]
) -> None:
    """2 players, 5 players (the call of a king), Austrian tarock (talon, game), the last at
    a phone's size (390x844)."""
    player = Player(browser, *size)
    try:
        player.create(server.base, preset, players, ["bot:random"] * (players - 1))
        prefix = f"{preset}{players}-"
        if size[0] < 500:
            player.screenshot(shots, "phone-table")
            prefix = "phone-"
        play_to_end([player], shots, prefix=prefix)
        text = player.page.locator("dialog#dialog[open][data-kind=end]").inner_text()
        assert "Deal 1 is over" in text and "Running totals" in text
        totals = player.state()["totals"]
        assert totals is not None and len(totals) == players
        if preset == "tarock":  # rule book §6.2 A7: winners only, positive (austrian_scoring=positive_only)
            assert min(totals) >= 0 and max(totals) > 0, totals
        else:  # rule book §3.14: the French score sheet is zero-sum
            assert sum(totals) == 0, totals
        player.screenshot(shots, f"{prefix}end")
        no_errors(player)
    finally:
        player.close()

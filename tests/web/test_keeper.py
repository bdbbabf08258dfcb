"""The score keeper in chromium, on a phone's screen (390x844): a session of deals entered by taps,
a change from a second phone (the first told to reload), an impossible deal refused in words
under its field, an undo and an edit, the totals checked
against :mod:`atout.scoring`, the graph, and the share link read-only; then in French, at five
with a called king. Screenshots go to ``test-artifacts/screenshots/keeper-*.png``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from atout.scoring import parse_summary, score

from .test_browser import SHOTS, helpers

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def keeper_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One server for the module, on SQLite (the REST tests cover PostgreSQL)."""
    process = helpers.ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('keeper') / 'atout.sqlite3'}")
    process.start()
    yield process
    process.stop()


class Phone:
    """One browser page at the score keeper, with the errors it logged."""

    def __init__(self, browser: Any, locale: str = "en-US", viewport: dict[str, int] = PHONE) -> None:
        self.context = browser.new_context(viewport=viewport, locale=locale, has_touch=True)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", lambda dialog: dialog.accept())  # "Delete deal 3?"

    def tap(self, field: str, value: Any) -> None:
        self.page.tap(f"[data-field='{field}'] button[data-value='{json.dumps(value)}']")

    def start(self, base: str, names: list[str]) -> str:
        self.page.goto(f"{base}/score")
        self.page.wait_for_selector("#k-start")
        self.tap("players", len(names))
        for i, name in enumerate(names):
            self.page.fill(f"#k-name-{i}", name)
        self.page.tap("#k-start")
        self.page.wait_for_selector("#entry")
        return str(self.page.url).rsplit("/", 1)[-1]

    def save(self, deals: int) -> None:
        """Send the deal; wait for the sheet to hold ``deals`` deals."""
        self.page.tap("#k-save")
        self.page.wait_for_function(f"document.querySelectorAll('#deals > li').length === {deals}")

    def totals(self) -> list[int]:
        shown = self.page.eval_on_selector_all("[data-total]", "nodes => nodes.map((n) => n.textContent)")
        return [int(text.replace("\u2212", "-")) for text in shown]

    def shot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"keeper-{name}.png"), full_page=True)


def scored(game: str, players: int, deals: list[dict[str, Any]]) -> list[int]:
    """The totals atout.scoring gives the deals."""
    rows = [score(parse_summary({"game": game, "players": players, **deal})) for deal in deals]
    return [sum(column) for column in zip(*rows, strict=True)]


def test_a_session_entered_by_taps_on_a_phone(browser: Any, keeper_server: Any) -> None:
    phone = Phone(browser)
    page = phone.page
    sheet_id = phone.start(keeper_server.base, ["Ann", "Bruno", "Chloé", "Dai"])

    # deal 1: Ann's garde, 2 bouts, 49 points counted up with the steps
    phone.tap("taker", 0)
    phone.tap("contract", "garde")
    phone.tap("oudlers", 2)
    assert page.text_content("#needed") == "41 needed"
    for step in [5] * 9 + [1] * 4:
        page.tap(f"[data-step='{step}']")
    assert page.input_value("#k-points") == "49"
    phone.save(1)
    # deal 2: Bruno's petite with 1 bout, lost; the defence's petit au bout and Chloé's poignée
    phone.tap("taker", 1)
    phone.tap("contract", "petite")
    phone.tap("oudlers", 1)
    page.fill("#k-points", "45")
    phone.tap("petit_au_bout", "defense")
    page.tap("#bonuses > summary")
    phone.tap("poignee-2", "simple")
    phone.save(2)
    # meanwhile a second phone, given the edit link, adds deal 3: Dai's petite, just made
    token = page.evaluate(f"localStorage.getItem('atout.sheet.{sheet_id}')")
    from_other_phone = {"taker": 3, "contract": "petite", "oudlers": 2, "points": 41}
    answer = keeper_server.post(
        f"/api/sheets/{sheet_id}/deals", {"version": 3, "deal": from_other_phone}, token
    )
    assert answer.status_code == 200, answer.text
    # deal 4: this phone's first try is refused (the sheet changed); it reloads, keeping its entry
    phone.tap("taker", 2)
    phone.tap("contract", "garde")
    phone.tap("oudlers", 3)
    page.fill("#k-points", "10")
    page.tap("#k-save")
    page.wait_for_selector("#reload")
    assert page.text_content("#entry-error") == (
        "The sheet changed on another phone: reload it, then add this deal again. Reload"
    )
    phone.shot("phone-changed")
    page.tap("#reload")
    page.wait_for_function("document.querySelectorAll('#deals > li').length === 3")
    assert page.input_value("#k-points") == "10"
    # 10 points with 3 bouts cannot happen: said in words under the points
    page.tap("#k-save")
    refusal = page.locator("[data-section='points'] .field-error")
    refusal.wait_for()
    assert refusal.text_content() == (
        "Points: 10 is impossible with 3 bout(s); the attack's pile then holds 13.5 to 91."
    )
    phone.shot("phone-refused")
    page.fill("#k-points", "40")
    phone.save(4)
    deals: list[dict[str, Any]] = [
        {"taker": 0, "contract": "garde", "oudlers": 2, "points": 49},
        {"taker": 1, "contract": "petite", "oudlers": 1, "points": 45, "petit_au_bout": "defense",
         "poignees": [{"side": "defense", "level": "simple", "seat": 2}]},
        from_other_phone,
        {"taker": 2, "contract": "garde", "oudlers": 3, "points": 40},
    ]  # fmt: skip
    assert phone.totals() == scored("french", 4, deals)

    # undo the last deal, then make deal 1 a garde sans
    page.tap("#undo")
    page.wait_for_function("document.querySelectorAll('#deals > li').length === 3")
    page.tap("[data-edit='1']")
    assert page.text_content("#entry h2") == "Editing deal 1"
    phone.tap("contract", "garde_sans")
    page.tap("#k-save")
    page.wait_for_selector("#entry:not(.editing)")
    deals = [{**deals[0], "contract": "garde_sans"}, deals[1], from_other_phone]
    assert phone.totals() == scored("french", 4, deals) == [432, -340, -96, 4]
    sheet = keeper_server.http.get(f"/api/sheets/{sheet_id}").json()
    assert sheet["totals"] == phone.totals() and sheet["version"] == 7
    # the count of deal 1, term by term, as the rule book writes it
    page.tap("[data-deal='1'] details > summary")
    assert page.text_content("[data-deal='1'] .formula") == (
        "(25 contract + 8 margin) \u00d7 4 (Garde sans) = 132 per defender"
    )
    # the graph: one line per player, through each deal's running totals
    lines = page.eval_on_selector_all(
        "#graph polyline", "nodes => nodes.map((n) => n.getAttribute('points').split(' ').length)"
    )
    assert lines == [4, 4, 4, 4]
    assert (
        page.get_attribute("#graph", "aria-label")
        == "Each player's running total over 3 deal(s), one line per player"
    )
    phone.shot("phone-sheet")
    page.set_viewport_size({"width": 1280, "height": 800})
    phone.shot("desktop-sheet")

    # the share link opens the sheet read-only on another phone
    link = page.input_value("#share-link")
    assert link.endswith(f"/score/{sheet_id}") and "edit" not in link
    other = Phone(browser)
    other.page.goto(link)
    other.page.wait_for_selector("#read-only")
    assert other.totals() == phone.totals()
    assert other.page.locator("#entry, [data-edit], #undo, #copy-edit-link").count() == 0
    other.shot("phone-read-only")
    # the phone that keeps the sheet finds it again on the start page
    page.goto(f"{keeper_server.base}/score")
    assert page.locator("#my-sheets a").first.text_content() == "Ann, Bruno, Chloé, Dai"
    assert other.page.evaluate("localStorage.getItem('atout.sheets')") is None  # a reader keeps no sheet
    assert phone.errors == [] and other.errors == []
    other.context.close()
    phone.context.close()


def test_five_players_with_a_called_king_in_french(browser: Any, keeper_server: Any) -> None:
    phone = Phone(browser, locale="fr-FR")
    page = phone.page
    page.goto(f"{keeper_server.base}/score")
    page.wait_for_selector("#k-start")
    assert page.text_content("#k-start") == "Commencer la feuille"
    phone.shot("fr-start")
    phone.start(keeper_server.base, ["Anne", "Bruno", "Chloé", "Dai", "Éric"])
    assert page.text_content("[data-section='partner'] legend") == "Partenaire (a le roi appelé)"
    # a garde with Bruno called, 47 points with 2 bouts (rule book §9.1, FR5-01); the partner
    # is asked for before anything is sent
    phone.tap("taker", 0)
    phone.tap("contract", "garde")
    page.tap("#k-save")
    asked = page.locator("[data-section='partner'] .field-error")
    asked.wait_for()
    assert asked.text_content() == "Choisissez : Partenaire (a le roi appelé)."
    phone.tap("partner", 1)
    phone.tap("oudlers", 2)
    page.fill("#k-points", "47")
    phone.save(1)
    assert phone.totals() == [124, 62, -62, -62, -62]
    assert page.text_content("[data-deal='1'] .verdict") == "Passé de 6"
    # a chelem won by the attack with 50 points cannot happen: said in French
    phone.tap("taker", 3)
    phone.tap("contract", "petite")
    phone.tap("partner", None)
    phone.tap("oudlers", 1)
    page.fill("#k-points", "50")
    page.tap("#bonuses > summary")
    phone.tap("chelem_won_by", "attack")
    page.tap("#k-save")
    refusal = page.locator("[data-section='points'] .field-error")
    refusal.wait_for()
    assert refusal.text_content() == "Points : ces points ne vont pas avec ce chelem."
    phone.shot("fr-refused")
    phone.tap("chelem_won_by", None)
    phone.save(2)
    deals: list[dict[str, Any]] = [
        {"taker": 0, "partner": 1, "contract": "garde", "oudlers": 2, "points": 47},
        {"taker": 3, "partner": None, "contract": "petite", "oudlers": 1, "points": 50},
    ]
    assert phone.totals() == scored("french", 5, deals)
    phone.shot("fr-sheet")
    page.set_viewport_size({"width": 1280, "height": 800})
    phone.shot("fr-desktop")
    assert phone.errors == []
    phone.context.close()


@pytest.mark.parametrize(
    ("names", "preset", "fields", "taps", "points", "totals"),
    [
        # FR2-01: Ann's pile holds 2 bouts and 50 points, Bruno's the rest; Ann took the petit au bout
        (["Ann", "Bruno"], "fft", ["oudlers", "points", "petit_au_bout"],
         [("oudlers", 2), ("petit_au_bout", 0)], "50", [44, -44]),
        # AT-01: Ann's threesome with the first talon half, game 1, 44 card points
        (["Ann", "Bruno", "Chloé"], "tarock", ["declarer", "bid", "talon_half", "game_type", "points"],
         [("declarer", 0), ("bid", "threesome"), ("talon_half", 1), ("game_type", "36_or_more")], "44", [68, 0, 0]),
    ],
    ids=["two-players", "austrian"],
)  # fmt: skip
def test_each_game_asks_for_its_own_facts(
    browser: Any,
    keeper_server: Any,
    names: list[str],
    preset: str,
    fields: list[str],
    taps: list[tuple[str, Any]],
    points: str,
    totals: list[int],
) -> None:
    created = keeper_server.post("/api/sheets", {"names": names, "preset": preset}).json()
    phone = Phone(browser)
    phone.page.goto(f"{keeper_server.base}/score/{created['sheet_id']}#edit={created['token']}")
    phone.page.wait_for_selector("#entry")
    assert "#edit" not in phone.page.url  # the token is kept by the phone, not left in the address
    shown = phone.page.eval_on_selector_all(
        "#entry [data-section]", "nodes => nodes.map((n) => n.dataset.section)"
    )
    assert shown == fields
    for field, value in taps:
        phone.tap(field, value)
    phone.page.fill("#k-points", points)
    phone.save(1)
    assert phone.totals() == totals
    phone.shot(f"phone-{'two' if preset == 'fft' else 'austrian'}")
    assert phone.errors == []
    phone.context.close()

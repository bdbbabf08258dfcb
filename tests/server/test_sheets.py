"""The score keeper's REST API (``/api/sheets``) on a real server, on SQLite and PostgreSQL: a
sheet created, deals added, edited and undone and scored by :mod:`atout.scoring`, impossible deals
refused naming their field, two editors at once, the read-only link, and the exports that
``atout score`` reads back to the same totals."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import ServerProcess

from atout.scoring import parse_summary, score
from atout.scoring.breakdown import breakdown_json

Message = dict[str, Any]


def create(server: ServerProcess, names: list[str], preset: str = "fft", **options: Any) -> Message:
    response = server.post("/api/sheets", {"names": names, "preset": preset, "options": options})
    assert response.status_code == 200, response.text
    created: Message = response.json()
    return created


def send(server: ServerProcess, method: str, path: str, body: Message, token: str | None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return server.http.request(method, path, json=body, headers=headers)


def add(server: ServerProcess, created: Message, version: int, deal: Message) -> Message:
    response = send(
        server,
        "POST",
        f"/api/sheets/{created['sheet_id']}/deals",
        {"version": version, "deal": deal},
        created["token"],
    )
    assert response.status_code == 200, response.text
    sheet: Message = response.json()
    return sheet


def expected(sheet: Message, deals: list[Message]) -> tuple[list[list[int]], list[int]]:
    """Each deal's scores and the totals, from atout.scoring on the summaries alone."""
    base = {"game": sheet["game"], "players": sheet["players"], "options": sheet["options"]}
    rows = [score(parse_summary({**base, **deal})) for deal in deals]
    return rows, [sum(column) for column in zip(*rows, strict=True)]


GARDE_49 = {"taker": 0, "contract": "garde", "oudlers": 2, "points": 49}
GARDE_48_LOST = {"taker": 1, "contract": "garde", "oudlers": 1, "points": 48}
PETITE_51 = {"taker": 2, "contract": "petite", "oudlers": 2, "points": 51, "petit_au_bout": "attack"}


def test_a_session_is_added_edited_undone_and_scored_by_the_rule_book(server: ServerProcess) -> None:
    created = create(server, ["Ann", "Bruno", "Chloé", "Dai"])
    sheet_id, sheet = created["sheet_id"], created["sheet"]
    assert created["url"] == f"/score/{sheet_id}" and sheet["version"] == 1 and sheet["deals"] == []
    assert sheet["names"] == ["Ann", "Bruno", "Chloé", "Dai"] and sheet["facts"]["needed"] == [56, 51, 41, 36]

    sheet = add(server, created, 1, GARDE_49)
    assert sheet["deals"][0]["scores"] == [198, -66, -66, -66]  # rule book §9.1, FR4-02
    terms = sheet["deals"][0]["breakdown"]["terms"]
    assert [(t["term"], t["value"]) for t in terms] == [("contract", 66)]
    sheet = add(server, created, 2, GARDE_48_LOST)
    sheet = add(server, created, 3, PETITE_51)
    assert sheet["version"] == 4
    rows, totals = expected(sheet, [GARDE_49, GARDE_48_LOST, PETITE_51])
    assert [d["scores"] for d in sheet["deals"]] == rows and sheet["totals"] == totals

    # deal 2 was a garde sans in fact: edited in place, the totals follow
    edited = {**GARDE_48_LOST, "contract": "garde_sans"}
    response = send(
        server, "PUT", f"/api/sheets/{sheet_id}/deals/2", {"version": 4, "deal": edited}, created["token"]
    )
    assert response.status_code == 200, response.text
    sheet = response.json()
    rows, totals = expected(sheet, [GARDE_49, edited, PETITE_51])
    assert sheet["deals"][1]["scores"] == rows[1] == [112, -336, 112, 112] and sheet["totals"] == totals
    assert sheet["deals"][1]["breakdown"] == breakdown_json(
        parse_summary({"game": "french", "players": 4, **edited})
    )

    # undo: the last deal goes
    response = send(server, "DELETE", f"/api/sheets/{sheet_id}/deals/3", {"version": 5}, created["token"])
    assert response.status_code == 200, response.text
    sheet = response.json()
    assert len(sheet["deals"]) == 2 and sheet["totals"] == expected(sheet, [GARDE_49, edited])[1]
    assert server.http.get(f"/api/sheets/{sheet_id}").json() == sheet  # as stored


@pytest.mark.parametrize(
    ("names", "preset", "options", "deal", "scores"),
    [
        # FR5-05: partner seat 1, petit au bout and a poignée for the attack
        (
            ["A", "B", "C", "D", "E"],
            "fft",
            {},
            {"taker": 0, "partner": 1, "contract": "garde", "oudlers": 2, "points": 50.5,
             "petit_au_bout": "attack", "poignees": [{"side": "attack", "level": "simple", "seat": 1}]},
            [220, 110, -110, -110, -110],
        ),
        # five with a dead player: seat 4 deals and scores 0
        (
            ["A", "B", "C", "D", "E"],
            "fft",
            {"five_player_mode": "dead_player"},
            {"taker": 0, "dead": 4, "contract": "garde", "oudlers": 2, "points": 49},
            [198, -66, -66, -66, 0],
        ),
        # FR2-01, the 2-player game
        (["A", "B"], "fft", {}, {"points": [50, 41], "oudlers": [2, 1], "petit_au_bout": 0}, [44, -44]),
        # AT-01, Austrian Tarock
        (
            ["A", "B", "C"],
            "tarock",
            {},
            {"declarer": 0, "bid": "threesome", "talon_half": 1, "game_type": "36_or_more", "points": 44},
            [68, 0, 0],
        ),
        # FR4-22: a misère under misere_bonus=10
        (
            ["A", "B", "C", "D"],
            "fft",
            {"misere_bonus": 10},
            {"taker": 0, "contract": "petite", "oudlers": 2, "points": 44, "misere": [{"seat": 2, "kind": "no_trumps"}]},
            [74, -38, 2, -38],
        ),
    ],
    ids=["five-called-king", "five-dead-player", "two-players", "austrian", "misere"],
)  # fmt: skip
def test_each_game_is_scored_by_its_own_rules(
    server: ServerProcess,
    names: list[str],
    preset: str,
    options: Message,
    deal: Message,
    scores: list[int],
) -> None:
    created = create(server, names, preset, **options)
    sheet = add(server, created, 1, deal)
    assert sheet["deals"][0]["scores"] == scores == sheet["totals"]
    assert sheet["game"] == ("austrian" if preset == "tarock" else "french")


@pytest.mark.parametrize(
    ("names", "options", "deal", "field", "code", "params"),
    [
        (["A", "B"], {}, {"points": [50, 45], "oudlers": [2, 1]}, "deal.points", "points_total", {"total": 95}),
        (["A", "B", "C", "D"], {}, {**GARDE_49, "oudlers": 4}, "deal.oudlers", "bouts_range", {}),
        (["A", "B", "C", "D"], {}, {**GARDE_49, "points": 92}, "deal.points", "points_range", {"max": 91}),
        (
            ["A", "B", "C", "D"],
            {},
            {**GARDE_49, "oudlers": 3, "points": 10},
            "deal.points",
            "points_bouts",
            {"points": 10, "bouts": 3, "low": 13.5, "high": 91},
        ),
        (["A", "B", "C", "D"], {}, {**GARDE_49, "oudlers": 0, "points": 30, "petit_au_bout": "attack"},
         "deal.petit_au_bout", "petit_no_bout", {}),
        (["A", "B", "C", "D"], {}, {**GARDE_49, "contract": "pousse"}, "deal.contract", "contract_not_played", {}),
        (["A", "B", "C", "D"], {}, {**GARDE_49, "taker": 4}, "deal.taker", "field", {"field": "taker"}),
        (["A", "B", "C", "D"], {}, {**GARDE_49, "taker": None}, "deal.taker", "missing_part", {"field": "taker"}),
        (["A", "B", "C"], {}, {**GARDE_49, "contract": None}, "deal.contract", "missing_part", {"field": "contract"}),
        (["A", "B", "C", "D"], {}, {**GARDE_49, "points": "49"}, "deal.points", "points_range", {"max": 91}),
        (["A", "B", "C", "D"], {}, {**GARDE_49, "players": 5}, "deal.players", "field", {"field": "players"}),
        (["A", "B", "C", "D", "E"], {}, {**GARDE_49, "partner": 1, "dead": 2}, "deal.dead", "field", {"field": "dead"}),
        (
            ["A", "B", "C", "D"],
            {},
            {**GARDE_49, "poignees": [{"side": "attack", "level": "simple"}, {"side": "attack", "level": "double"}]},
            "deal.poignees[1]",
            "poignee_too_many",
            {},
        ),
    ],
    ids=["two-piles-95", "bouts-4", "points-92", "points-with-3-bouts", "petit-no-bout", "pousse", "seat", "no-taker", "no-contract",
         "points-text", "players-in-deal", "dead-with-partner", "poignees"],
)  # fmt: skip
def test_an_impossible_deal_is_refused_naming_its_field(
    server: ServerProcess,
    names: list[str],
    options: Message,
    deal: Message,
    field: str,
    code: str,
    params: Message,
) -> None:
    created = create(server, names, **options)
    path = f"/api/sheets/{created['sheet_id']}/deals"
    response = send(server, "POST", path, {"version": 1, "deal": deal}, created["token"])
    assert response.status_code == 400, response.text
    refusal = response.json()
    assert (refusal["field"], refusal["code"], refusal["params"]) == (field, code, params)
    assert refusal["error"].startswith(field) and "\n" not in refusal["error"]
    assert server.http.get(f"/api/sheets/{created['sheet_id']}").json()["version"] == 1  # nothing kept


def test_two_editors_at_once_the_later_is_told_to_reload(server: ServerProcess) -> None:
    created = create(server, ["Ann", "Bruno", "Chloé"])
    path = f"/api/sheets/{created['sheet_id']}/deals"
    three = {"taker": 0, "contract": "garde", "oudlers": 2, "points": 41.5}
    # two phones send a deal on version 1 at the same moment: one is kept, the other refused
    with ThreadPoolExecutor(2) as pool:
        answers = list(
            pool.map(
                lambda taker: send(
                    server, "POST", path, {"version": 1, "deal": {**three, "taker": taker}}, created["token"]
                ),
                (0, 1),
            )
        )
    assert sorted(a.status_code for a in answers) == [200, 409], [a.text for a in answers]
    refused = next(a for a in answers if a.status_code == 409).json()
    assert refused["code"] == "sheet_changed" and "reload" in refused["error"]
    sheet = server.http.get(f"/api/sheets/{created['sheet_id']}").json()
    assert (
        sheet["version"] == 2 and len(sheet["deals"]) == 1 and sorted(sheet["totals"]) == [-52, -52, 104]
    )  # FR3-02
    # the refused phone reloads and sends its deal again
    taker = 1 - sheet["deals"][0]["summary"]["taker"]
    again = send(server, "POST", path, {"version": 2, "deal": {**three, "taker": taker}}, created["token"])
    assert again.status_code == 200 and sorted(again.json()["totals"]) == [-104, 52, 52]


def test_without_its_token_a_sheet_is_read_only(server: ServerProcess) -> None:
    created = create(server, ["Ann", "Bruno", "Chloé", "Dai"])
    sheet_id = created["sheet_id"]
    add(server, created, 1, GARDE_49)
    for token in (None, "not-the-token"):
        for method, path, body in (
            ("POST", f"/api/sheets/{sheet_id}/deals", {"version": 2, "deal": GARDE_49}),
            ("PUT", f"/api/sheets/{sheet_id}/deals/1", {"version": 2, "deal": GARDE_48_LOST}),
            ("DELETE", f"/api/sheets/{sheet_id}/deals/1", {"version": 2}),
        ):
            response = send(server, method, path, body, token)
            assert response.status_code == 403, response.text
            assert response.json()["code"] == "read_only"
    public = server.http.get(f"/api/sheets/{sheet_id}")
    assert public.status_code == 200 and public.json()["version"] == 2
    assert created["token"] not in public.text and "hash" not in public.text


def test_the_exports_give_atout_score_the_same_totals(server: ServerProcess, tmp_path: Path) -> None:
    created = create(server, ["=Ann", "Bruno", "Chloé", "Dai", "Éric"], "fft", bid_pousse=True)
    deals: list[Message] = [
        {"taker": 0, "partner": 1, "contract": "garde", "oudlers": 2, "points": 47},
        {"taker": 2, "partner": None, "contract": "pousse", "oudlers": 1, "points": 45.5},
        {"taker": 3, "partner": 4, "contract": "garde_contre", "oudlers": 3, "points": 85.5,
         "petit_au_bout": "attack", "chelem": {"announced": True, "won_by": "attack"}},
    ]  # fmt: skip
    sheet = created["sheet"]
    for deal in deals:
        sheet = add(server, created, sheet["version"], deal)
    exported = server.http.get(f"/api/sheets/{created['sheet_id']}/export.json")
    assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
    path = tmp_path / "session.json"
    path.write_bytes(exported.content)
    run = subprocess.run(
        [sys.executable, "-m", "atout", "score", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    scored = json.loads(run.stdout)
    assert scored["totals"] == sheet["totals"] == expected(sheet, deals)[1]
    assert [d["scores"] for d in scored["deals"]] == [d["scores"] for d in sheet["deals"]]

    table = server.http.get(f"/api/sheets/{created['sheet_id']}/export.csv")
    assert table.headers["content-type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(table.text)))
    assert rows[0] == [
        "deal",
        "taker",
        "contract",
        "bouts",
        "points",
        "'=Ann",
        "Bruno",
        "Chloé",
        "Dai",
        "Éric",
    ]
    assert rows[2][:5] == ["2", "Chloé", "pousse", "1", "45.5"]
    assert [int(x) for x in rows[-1][5:]] == sheet["totals"] and rows[-1][0] == "total"


def test_bad_bodies_and_addresses_get_one_clear_line(server: ServerProcess) -> None:
    created = create(server, ["Ann", "Bruno", "Chloé", "Dai"])
    sheet_id, token = created["sheet_id"], created["token"]
    cases: list[tuple[httpx.Response, int, str | None, str]] = [
        (server.http.post("/api/sheets", content=b'{"names": [', headers={"Content-Type": "application/json"}),
         400, None, "not JSON"),
        (server.post("/api/sheets", {"names": ["Solo"]}), 400, "names", "at least 2"),
        (server.post("/api/sheets", {"names": ["A", " "]}), 400, "names.1", "a player needs a name"),
        (server.post("/api/sheets", {"names": ["A", "B"], "preset": "nope"}), 400, "preset", "nope"),
        (server.post("/api/sheets", {"names": ["A", "B"], "preset": "tarock"}), 400, "names", "players"),
        (server.post("/api/sheets", {"names": ["A", "B", "C"], "options": {"bid_pousse": 3}}), 400,
         "options.bid_pousse", "bid_pousse"),
        (server.http.get("/api/sheets/NoSuchSheet"), 404, None, "no score sheet 'NoSuchSheet'"),
        (server.http.get("/api/sheets/bad.id!"), 404, None, "no score sheet"),
        (send(server, "PUT", f"/api/sheets/{sheet_id}/deals/7", {"version": 1, "deal": GARDE_49}, token), 404,
         "deal", "no deal 7 on this sheet (it has none yet)"),
        (send(server, "POST", f"/api/sheets/{sheet_id}/deals", {"deal": GARDE_49}, token), 400, "version", "version"),
        (send(server, "POST", f"/api/sheets/{sheet_id}/deals", {"version": "1", "deal": GARDE_49}, token), 400,
         "version", "version"),
        (send(server, "POST", f"/api/sheets/{sheet_id}/deals", {"version": 1, "deal": []}, token), 400, "deal",
         "deal"),
    ]  # fmt: skip
    for response, status, field, words in cases:
        assert response.status_code == status, response.text
        body = response.json()
        assert body["field"] == field and words in body["error"] and "\n" not in body["error"], body

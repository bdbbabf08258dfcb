"""Replays and analyses of finished deals through a real server (``atout.server.study``): the
session's deals listed from the log, a finished deal's record and steps equal to what was played,
a deal in play refused everywhere (its hands never leave), bad addresses answered 404, and the
solver's analysis computed once, kept in the database and served again after a restart.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from atout.cards import NAMES
from atout.records import replay

from .conftest import ServerProcess

ANALYSIS_TIMEOUT = 90.0
"""Seconds an analysis may take, its process started and the solver loaded included."""


def _play_one(server: ServerProcess, players: int = 4, seed: int = 1) -> tuple[str, str, Any, dict[str, Any]]:
    """A table of one person and rules bots, its first deal played to the end over a websocket:
    the table id, the person's token, their client and the ``deal_over``."""
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "rules"}] * (players - 1)
    created = server.create(players=players, seats=seats)
    client = server.connect(created["table_id"], created["token"], 0)
    over = client.play_deal(random.Random(seed))
    return created["table_id"], created["token"], client, over


def _boards(replayed: dict[str, Any]) -> list[dict[str, Any]]:
    """Each step's board, as the page builds it: the start, then each step's changes laid over."""
    boards = [replayed["start"]]
    for step in replayed["steps"]:
        changes = dict(step["set"])
        hands = list(boards[-1]["hands"])
        for seat, hand in changes.pop("hands", {}).items():
            hands[int(seat)] = hand
        boards.append({**boards[-1], **changes, "hands": hands})
    return boards


def _card_names(payload: str) -> set[str]:
    words = set(payload.replace('"', " ").replace(",", " ").replace("[", " ").replace("]", " ").split())
    return words & set(NAMES)


def test_the_session_s_deal_and_its_steps_are_what_was_played(server: ServerProcess) -> None:
    table_id, _token, client, over = _play_one(server)
    listed = server.http.get(f"/api/tables/{table_id}/deals").json()
    assert [d["deal_no"] for d in listed["deals"]] == [1]
    assert listed["deals"][0]["scores"] == over["scores"]
    assert listed["deals"][0]["outcome"] == over["outcome"]
    assert listed["deals"][0]["summary"] == over["summary"]
    assert listed["seats"][0]["name"] == "Ann"
    assert listed["seats"] == [
        {k: seat[k] for k in ("seat", "kind", "name", "persona", "bot")}
        for seat in server.info(table_id)["seats"]
    ]

    got = server.http.get(f"/api/tables/{table_id}/deals/1")
    assert got.status_code == 200, got.text
    replayed = got.json()
    record = replayed["record"]
    logged = server.log(table_id).deals[0]
    assert record["actions"] == [words for _seq, _seat, words in logged.actions]
    assert record["result"]["scores"] == over["scores"] == replayed["scores"]
    assert replay(record).scores() == over["scores"]
    first_view = next(m["view"] for m in client.received if m["type"] == "state" and m.get("view"))
    assert sorted(record["hands"][0].split()) == sorted(first_view["hand"])
    played = [
        e["card"]
        for m in client.received
        if m["type"] == "update"
        for e in m["events"]
        if e["kind"] == "play"
    ]
    assert [w.split()[1] for w in record["actions"] if w.startswith("play ")] == played

    boards = _boards(replayed)
    assert len(boards) == len(record["actions"]) + 1
    for i, board in enumerate(boards):
        deal = replay(record, upto=i)
        assert board["hands"] == [deal.view(s).to_json()["hand"] for s in range(deal.n)], i
        assert board["trick"] == deal.view(0).to_json()["trick"], i
        assert board["done"] == len(deal.view(0).tricks), i
        assert board["current_player"] == deal.current_player, i
    assert all(hand == [] for hand in boards[-1]["hands"])
    assert [s["action"] for s in replayed["steps"]] == record["actions"]
    assert replayed["tricks"][-1]["plays"] and len(replayed["tricks"]) == boards[-1]["done"]
    client.close()


def test_a_deal_in_play_is_refused_and_its_hands_never_leave(server: ServerProcess) -> None:
    table_id, token, client, _over = _play_one(server, seed=2)
    assert server.post(f"/api/tables/{table_id}/next", token=token).status_code == 200
    state = client.recv_until("state")
    assert state["deal_no"] == 2 and state["view"]["phase"] == "bidding"
    for path in (f"/api/tables/{table_id}/deals/2", f"/api/tables/{table_id}/deals/2/analysis"):
        refused = server.http.get(path)
        assert refused.status_code == 409, refused.text
        assert refused.json() == {
            "error": "deal 2 is still being played: it can be studied once it is over",
            "field": "deal_no",
        }
    listed = server.http.get(f"/api/tables/{table_id}/deals")
    assert [d["deal_no"] for d in listed.json()["deals"]] == [1]
    live = server.log(table_id).deals[1]
    hidden = {c for hand in live.dealt["hands"] for c in str(hand).split()} - set(state["view"]["hand"])
    for path in (
        f"/api/tables/{table_id}/deals",
        f"/api/tables/{table_id}/deals/2",
        f"/t/{table_id}/deals/2",
    ):
        assert not (_card_names(server.http.get(path).text) & hidden), path
    client.close()


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/api/tables/nothing-here/deals", "no table 'nothing-here'"),
        ("/api/tables/nothing-here/deals/1", "no table 'nothing-here'"),
        ("/api/tables/nothing-here/deals/1/analysis", "no table 'nothing-here'"),
        ("/api/tables/a.b/deals", "no table 'a.b'"),
        ("/api/tables/{id}/deals/0", "no deal '0': deals are numbered from 1"),
        ("/api/tables/{id}/deals/abc", "no deal 'abc': deals are numbered from 1"),
        ("/api/tables/{id}/deals/-1", "no deal '-1': deals are numbered from 1"),
        ("/api/tables/{id}/deals/99", "no deal 99 at this table"),
        ("/api/tables/{id}/deals/99/analysis", "no deal 99 at this table"),
    ],
)
def test_bad_addresses_get_a_clear_404(server: ServerProcess, path: str, message: str) -> None:
    created = server.create(players=3, seats=[{"kind": "human"}, {"kind": "open"}, {"kind": "open"}])
    answer = server.http.get(path.replace("{id}", created["table_id"]))
    assert answer.status_code == 404
    assert answer.json()["error"] == message


def test_the_replay_pages_are_served_and_a_missing_table_says_so(server: ServerProcess) -> None:
    created = server.create(players=3, seats=[{"kind": "human"}, {"kind": "open"}, {"kind": "open"}])
    for path in (f"/t/{created['table_id']}/deals", f"/t/{created['table_id']}/deals/1"):
        page = server.http.get(path)
        assert page.status_code == 200 and 'src="/static/replay.js"' in page.text
    missing = server.http.get("/t/nothing-here/deals/1")
    assert missing.status_code == 404 and "There is no table at this address" in missing.text


def _analysis_when_ready(server: ServerProcess, table_id: str, deal_no: int) -> tuple[httpx.Response, float]:
    """Ask for the analysis until it is no longer being computed: the answer and the seconds waited."""
    began = time.monotonic()
    while True:
        answer = server.http.get(f"/api/tables/{table_id}/deals/{deal_no}/analysis")
        if answer.status_code != 202:
            return answer, time.monotonic() - began
        assert answer.json() == {"status": "computing"}
        assert time.monotonic() - began < ANALYSIS_TIMEOUT, "the analysis took too long"
        time.sleep(0.25)


def _analyses_kept(db_url: str, table_id: str) -> list[tuple[int, str]]:
    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text("SELECT deal_no, analysis_json FROM deal_analyses WHERE table_id = :t"), {"t": table_id}
            )
            return [(int(r[0]), str(r[1])) for r in rows]
    finally:
        engine.dispose()


def test_the_analysis_is_computed_once_kept_and_served_after_a_restart(tmp_path: Path) -> None:
    """The analysis is computed once, kept, and served at once by a restarted server; a game it
    cannot do (two players) is refused in words. On SQLite only (the routes read and write the same
    way on PostgreSQL, checked above): an analysis takes seconds, and two servers are started."""
    db_url = f"sqlite:///{tmp_path / 'atout.sqlite3'}"
    first = ServerProcess(db_url, args=("--analysis", "eager"))  # started as the deal ends
    first.start()
    try:
        table_id, _token, client, _over = _play_one(first, seed=3)
        client.close()
        answer, waited = _analysis_when_ready(first, table_id, 1)
        assert answer.status_code == 200, answer.text
        analysis = answer.json()["analysis"]
        assert analysis["format"] == "atout-analysis" and analysis["open_hands"] is True
        record = first.http.get(f"/api/tables/{table_id}/deals/1").json()["record"]
        for card in analysis["cards"]:
            assert record["actions"][card["index"]] == f"play {card['card']}"
            assert card["lost"] >= 0 and (card["lost"] == 0 or card["best_cards"])
        again = first.http.get(f"/api/tables/{table_id}/deals/1/analysis")
        assert again.status_code == 200 and again.json()["analysis"] == analysis
        kept = _analyses_kept(db_url, table_id)
        assert [(n, json.loads(text_)) for n, text_ in kept] == [(1, analysis)]
        listed = first.http.get(f"/api/tables/{table_id}/deals").json()["deals"]
        assert listed[0]["analysed"] is True
        print(f"analysis ready {waited:.2f} s after the deal's end")

        two, _token, client, _over = _play_one(first, players=2, seed=4)  # a game it cannot analyse
        client.close()
        refused, _waited = _analysis_when_ready(first, two, 1)
        assert refused.status_code == 422, refused.text
        body = refused.json()
        assert body["status"] == "refused" and body["error"] and "\n" not in body["error"]
        assert first.http.get(f"/api/tables/{two}/deals/1/analysis").json() == body
        assert _analyses_kept(db_url, two) == []
    finally:
        first.stop()
    second = ServerProcess(db_url)
    second.start()
    try:
        after = second.http.get(f"/api/tables/{table_id}/deals/1/analysis")
        assert after.status_code == 200  # no 202: not computed again
        assert after.json()["analysis"] == analysis
        assert _analyses_kept(db_url, table_id) == kept
    finally:
        second.stop()

"""Every seat named, every deal explained, clear states, through a real server: bots get distinct
persona names that a reload or a restart keeps; a deal's end carries its score term by term
(rule book §3.13, §3.14, §5.7), also to a client that comes back between deals; an address with
no table is a 404 page."""

from __future__ import annotations

import random
from typing import Any

from atout.personas import BOT_NAMES


def _bots(players: int, level: str = "rules") -> list[dict[str, Any]]:
    return [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": level}] * (players - 1)


def _check_over(over: dict[str, Any]) -> None:
    b = over["breakdown"]
    assert sum(t["value"] for t in b["terms"]) == b["unit"]
    assert b["scores"] == over["scores"]
    assert isinstance(b["made"], bool) and b["margin"] >= 0


def test_bots_of_one_level_get_distinct_names_kept_by_reload_and_restart(fresh_server: Any) -> None:
    created = fresh_server.create(preset="fft", players=5, seats=_bots(5), sit=0)
    table_id = created["table_id"]
    seats = fresh_server.info(table_id)["seats"]
    bots = [s for s in seats if s["kind"] == "bot"]
    names = [s["name"] for s in bots]
    assert len(set(names)) == 4 and set(names) <= set(BOT_NAMES), names
    assert len({s["persona"] for s in bots}) == 4 and all(1 <= s["persona"] <= 8 for s in bots)
    assert seats[0]["name"] == "Ann" and seats[0]["persona"] is None
    client = fresh_server.connect(table_id, created["token"], 0)
    state = client.recv_until("state")
    assert [s["name"] for s in state["table"]["seats"]] == [s["name"] for s in seats]
    client.close()
    fresh_server.kill()
    fresh_server.start()
    again = fresh_server.info(table_id)["seats"]
    assert [(s["name"], s["persona"]) for s in again] == [(s["name"], s["persona"]) for s in seats]


def test_a_bot_named_at_creation_keeps_its_name(server: Any) -> None:
    seats = _bots(4)
    seats[2] = {"kind": "bot", "bot": "random", "name": "Zoé"}
    created = server.create(preset="fft", players=4, seats=seats, sit=0)
    info = server.info(created["table_id"])["seats"]
    assert info[2]["name"] == "Zoé" and info[2]["persona"] is None
    assert len({info[1]["name"], info[3]["name"], "Zoé"}) == 3


def test_an_address_with_no_table_is_a_404_page(server: Any) -> None:
    response = server.http.get("/t/no-such-table")
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert "There is no table at this address" in response.text and 'href="/"' in response.text
    assert "table.js" not in response.text  # the page opens no connection
    created = server.create(preset="fft", players=3, seats=_bots(3), sit=0)
    table = server.http.get(f"/t/{created['table_id']}")
    assert table.status_code == 200 and "table.js" in table.text


def test_a_deal_end_carries_its_terms_and_a_reload_or_restart_gets_them_again(fresh_server: Any) -> None:
    for game in (
        {"preset": "fft", "players": 4},
        {"preset": "tarock", "players": 3},
        {"preset": "fft", "players": 2},
    ):
        created = fresh_server.create(**game, seats=_bots(game["players"]), sit=0)
        table_id, token = created["table_id"], created["token"]
        client = fresh_server.connect(table_id, token, 0)
        over = client.play_deal(random.Random(5))
        client.close()
        if over["breakdown"] is None:  # everyone passed: nothing to explain
            assert over["summary"] is None and set(over["scores"]) == {0}
            continue
        _check_over(over)
        reload = fresh_server.connect(table_id, token, 0)
        state = reload.recv_until("state")
        reload.close()
        told = {k: v for k, v in over.items() if k not in ("type", "seq")}
        assert state["view"]["phase"] == "end" and state["over"] == told
    fresh_server.kill()
    fresh_server.start()
    back = fresh_server.connect(table_id, token, 0)
    state = back.recv_until("state")
    assert state["over"] == told
    assert fresh_server.post(f"/api/tables/{table_id}/next", token=token).status_code == 200
    dealt = back.recv_until("state")
    assert dealt["over"] is None and dealt["view"]["phase"] != "end"
    back.close()

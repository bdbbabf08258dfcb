"""Seats belong to their holders: nobody holds two seats, a person's seat is given away only by that
person or, once they have left, by the table's host; and a table that has had nothing to do
leaves the server's memory and comes back from its log exactly as it was."""

from __future__ import annotations

import time
from typing import Any


def _table_of_three(server: Any) -> tuple[str, list[str], list[Any]]:
    """Ann (the host), Bob and Cid at a 3-player table; their tokens and greeted clients."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "open"}, {"kind": "open"}]
    created = server.create(preset="fft", players=3, seats=seats, sit=0)
    table_id, tokens = created["table_id"], [created["token"]]
    for s, name in ((1, "Bob"), (2, "Cid")):
        answer = server.post(f"/api/tables/{table_id}/seats/{s}/claim", {"name": name})
        assert answer.status_code == 200, answer.text
        tokens.append(answer.json()["token"])
    clients = [server.connect(table_id, token, s) for s, token in enumerate(tokens)]
    return table_id, tokens, clients


def _everyone_passes(clients: list[Any]) -> None:
    """Each seat passes in turn until the deal is cancelled (rule book §3.4)."""
    latest: dict[int, Any] = {}
    for client in clients:
        while True:
            message = client.recv_until("state")
            if message["view"] is not None:
                latest[client.seat] = message
                break
    while latest[0]["view"]["phase"] != "end":
        mover = latest[0]["view"]["current_player"]
        client = clients[mover]
        client.send({"type": "action", "seq": latest[mover]["seq"], "action": "pass"})
        for other in clients:
            latest[other.seat] = other.recv_until("update")
    for client in clients:
        client.recv_until("deal_over")


def _connected(server: Any, table_id: str, seat: int) -> bool:
    connected: bool = server.info(table_id)["seats"][seat]["connected"]
    return connected


def test_a_token_that_holds_a_seat_cannot_take_another(server: Any) -> None:
    """Claiming an open seat with the token of a seat held at the same table is refused (409):
    one person, one seat, one hand."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "open"}, {"kind": "open"}]
    created = server.create(preset="fft", players=3, seats=seats, sit=0)
    table_id = created["table_id"]
    twice = server.post(
        f"/api/tables/{table_id}/seats/1/claim", {"name": "Ann again"}, token=created["token"]
    )
    assert twice.status_code == 409 and twice.json()["field"] == "seat", twice.text
    assert "hold seat 0" in twice.json()["error"]
    assert server.info(table_id)["seats"][1]["kind"] == "open"
    bob = server.post(f"/api/tables/{table_id}/seats/1/claim", {"name": "Bob"})
    assert bob.status_code == 200
    again = server.post(f"/api/tables/{table_id}/seats/2/claim", {"name": "Bob"}, token=bob.json()["token"])
    assert again.status_code == 409


def test_a_persons_seat_is_given_away_by_that_person_or_by_the_host_once_they_left(server: Any) -> None:
    """Between deals: another player cannot take over a person's seat (403); the host cannot while
    its holder is at the table (409), and can once they have left; a person can always give away
    their own seat, and anyone seated can change a bot's seat."""
    table_id, tokens, clients = _table_of_three(server)
    _everyone_passes(clients)
    ann, bob, cid = tokens
    to_bot = {"kind": "bot", "bot": "rules"}
    refused = server.post(f"/api/tables/{table_id}/seats/0", to_bot, token=bob)
    assert refused.status_code == 403 and refused.json()["field"] == "seat", refused.text
    refused = server.post(f"/api/tables/{table_id}/seats/2", {"kind": "open"}, token=bob)
    assert refused.status_code == 403
    refused = server.post(f"/api/tables/{table_id}/seats/1", to_bot, token=ann)
    assert refused.status_code == 409 and "still at the table" in refused.json()["error"]
    clients[1].close()
    end = time.monotonic() + 10
    while _connected(server, table_id, 1):
        assert time.monotonic() < end
        time.sleep(0.05)
    given = server.post(f"/api/tables/{table_id}/seats/1", to_bot, token=ann)
    assert given.status_code == 200, given.text
    assert given.json()["seats"][1]["kind"] == "bot"
    own = server.post(f"/api/tables/{table_id}/seats/2", {"kind": "open"}, token=cid)
    assert own.status_code == 200 and own.json()["seats"][2]["kind"] == "open"
    assert clients[2].recv_until("error")["code"] == "not_seated"
    bot_seat = server.post(f"/api/tables/{table_id}/seats/1", {"kind": "open"}, token=ann)
    assert bot_seat.status_code == 200
    for client in clients:
        client.close()


def test_an_idle_table_leaves_memory_and_comes_back_from_its_log(server_factory: Any) -> None:
    """With ``--idle-unload``, a table nobody is connected to and that has nothing to do leaves
    the server's memory; asked for again, it is rebuilt from its log: the same view, the same
    sequence number for a returning client, the same totals, and the next deal is dealt."""
    server = server_factory("--idle-unload", "0.3")
    created = server.create(
        preset="fft",
        players=4,
        seats=[{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "rules"}] * 3,
        sit=0,
    )
    table_id, token = created["table_id"], created["token"]
    client = server.connect(table_id, token, 0)
    import random

    over = client.play_deal(random.Random(5))
    client.send({"type": "resync"})
    before = client.recv_until("state")
    client.close()
    end = time.monotonic() + 10
    while server.http.get("/healthz").json()["live_tables"] != 0:
        assert time.monotonic() < end, "the idle table stayed in memory"
        time.sleep(0.1)
    back = server.connect(table_id, token, 0, last_seq=before["seq"])
    state = back.recv_until("state")
    assert state["seq"] == before["seq"] and state["view"] == before["view"]
    assert state["totals"] == over["totals"]
    assert server.http.get("/healthz").json()["live_tables"] == 1
    assert server.post(f"/api/tables/{table_id}/next", token=token).status_code == 200
    dealt = back.recv_until("state")
    assert dealt["deal_no"] == 2 and dealt["seq"] == before["seq"] + 1
    back.close()

"""The browser game's server, end to end: a real ``atout serve`` process, a real database and
real websockets (docs/server.md). Every message each seat receives is scanned for cards it may
not know (``atout.games.fairness``), against the server's own deal rebuilt from its log."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from atout.games import deal_from_dealt, next_dealer
from atout.rules import Rules

GAMES = [
    pytest.param({"preset": "fft", "players": 2}, id="french-2"),
    pytest.param({"preset": "fft", "players": 3}, id="french-3"),
    pytest.param({"preset": "fft", "players": 4}, id="french-4"),
    pytest.param({"preset": "fft", "players": 5}, id="french-5-called-king"),
    pytest.param(
        {"preset": "fft", "players": 5, "options": {"five_player_mode": "dead_player"}}, id="french-5-dead"
    ),
    pytest.param({"preset": "tarock"}, id="austrian"),
    pytest.param({"preset": "japanese", "players": 4}, id="japanese-4"),
    pytest.param({"preset": "chinese", "players": 3}, id="chinese-3"),
    pytest.param({"preset": "czech", "players": 5}, id="czech-5"),
    pytest.param(
        {"preset": "french-sheet", "players": 4, "options": {"bid_pousse": True}}, id="french-sheet-4-pousse"
    ),
    pytest.param({"preset": "tarock-seed"}, id="austrian-seed"),
]


def seats(
    players: int, human: int = 0, bot: str = "random", open_seats: tuple[int, ...] = ()
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for s in range(players):
        if s == human:
            out.append({"kind": "human", "name": "Ann"})
        elif s in open_seats:
            out.append({"kind": "open"})
        else:
            out.append({"kind": "bot", "bot": bot if s % 2 else "rules"})
    return out


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_deal_against_bots_in_every_game_leaks_nothing(server: Any, game: dict[str, Any]) -> None:
    """Every game of the engine under every preset kind, played through the websocket to the end
    against bots; the scores are the engine's for the logged deal, and no message names a card
    its seat may not know (rule book: a seat sees its hand and what is public)."""
    players = 3 if game["preset"].startswith("tarock") else game["players"]
    created = server.create(**game, seats=seats(players), sit=0)
    client = server.connect(created["table_id"], created["token"], 0)
    over = client.play_deal(random.Random(players))
    client.close()
    record = server.log(created["table_id"])
    deal = deal_from_dealt(Rules.from_options(record.rules), record.deals[0].dealer, record.deals[0].dealt)
    for _seq, _seat, words in record.deals[0].actions:
        deal.apply(deal.parse(words))
    assert deal.is_over() and over["scores"] == deal.scores() == record.deals[0].scores
    assert over["totals"] == deal.scores() and over["outcome"] == deal.outcome
    info = server.info(created["table_id"])
    assert info["state"] == "between_deals" and info["game"] == deal.rules.game
    facts = info["facts"]
    assert bool(facts["contracts"]) == (deal.rules.game == "french" and players > 2)
    if facts["contracts"]:
        assert {c["name"]: c["multiplier"] for c in facts["contracts"]}["garde"] == deal.rules.multiplier(
            "garde"
        )
        assert facts["poignee_levels"] == list(deal.rules.poignee_levels())
    assert server.leaks(created["table_id"], [client]) == []


def test_two_people_at_one_table(server: Any) -> None:
    """A second person claims the open seat by the invite link; both play to the end, each seeing
    only its own cards; the first deal is dealt when the last seat is filled."""
    created = server.create(preset="fft", players=4, seats=seats(4, open_seats=(2,)), sit=0)
    table_id = created["table_id"]
    assert server.info(table_id)["state"] == "waiting"
    watcher = server.connect(table_id, None, None)
    assert watcher.recv()["type"] == "table"
    claimed = server.post(f"/api/tables/{table_id}/seats/2/claim", {"name": "Bob"})
    assert claimed.status_code == 200
    assert server.post(f"/api/tables/{table_id}/seats/2/claim", {"name": "Eve"}).status_code == 409
    ann = server.connect(table_id, created["token"], 0)
    bob = server.connect(table_id, claimed.json()["token"], 2)
    rng = random.Random(2)
    import threading

    results: dict[int, Any] = {}
    threads = [
        threading.Thread(target=lambda c=c: results.update({c.seat: c.play_deal(rng)})) for c in (ann, bob)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[0]["scores"] == results[2]["scores"]
    info = server.info(table_id)
    assert [s["name"] for s in info["seats"]][0:3:2] == ["Ann", "Bob"] and info["state"] == "between_deals"
    watched = watcher.drain(0.1)
    views = [m["view"] for m in watcher.received if m.get("view")]
    assert views and all(v["seat"] is None and v["hand"] == [] for v in views), "a watcher sees no hand"
    assert all(m["type"] != "update" or not m["view"]["legal_actions"] for m in watched)
    assert server.leaks(table_id, [ann, bob]) == []
    to_bot = {"kind": "bot", "bot": "rules"}
    taken = server.post(f"/api/tables/{table_id}/seats/2", to_bot, token=created["token"])
    assert taken.status_code == 409 and taken.json()["field"] == "seat", "Bob is still at the table"
    taken = server.post(f"/api/tables/{table_id}/seats/0", to_bot, token=claimed.json()["token"])
    assert taken.status_code == 403, "only Ann gives Ann's seat away"
    bot = server.post(f"/api/tables/{table_id}/seats/2", to_bot, token=claimed.json()["token"])
    assert bot.status_code == 200, bot.text
    assert bob.recv_until("error")["code"] == "not_seated"
    assert server.post(f"/api/tables/{table_id}/next", token=claimed.json()["token"]).status_code == 403
    assert server.post(f"/api/tables/{table_id}/next", token=created["token"]).status_code == 200
    state = bob.recv_until("state")
    view = state["view"]
    assert state["seat"] is None and view["seat"] is None and view["hand"] == [], "now watching, no hand"
    for c in (ann, bob, watcher):
        c.close()


def _at_my_turn(client: Any) -> dict[str, Any]:
    while True:
        message = client.recv()
        assert message["type"] != "deal_over", "the deal ended first"
        view = message.get("view")
        if view and view["current_player"] == client.seat and view["legal_actions"]:
            return message


def test_bad_stale_out_of_turn_and_foreign_messages_get_errors_and_change_nothing(server: Any) -> None:
    """Each refused message gets an ``error`` naming why, and the table stays as it was: the same
    seq, the same view on resync, nothing more in the log."""
    created = server.create(preset="fft", players=3, seats=seats(3, open_seats=(1,)), sit=0)
    table_id = created["table_id"]
    other = server.post(f"/api/tables/{table_id}/seats/1/claim", {"name": "Bob"}).json()["token"]
    foreign = server.create(preset="fft", players=3)["token"]
    ann = server.connect(table_id, created["token"], 0)
    bob = server.connect(table_id, other, 1)
    state = ann.recv_until("state")
    bob.recv_until("state")
    current = state["view"]["current_player"]
    mover, waiter = (ann, bob) if current == 0 else (bob, ann)
    if current == 2:  # the rules bot bids first: wait for a person's turn
        mover = ann if _at_my_turn_any(ann, bob) == 0 else bob
        waiter = bob if mover is ann else ann
    before = server.log(table_id).deals[0].actions
    seq, view = _resync(mover)
    waiter_seq, _ = _resync(waiter)
    legal = view["legal_actions"]
    checks = [
        (mover, "not json", "bad_message"),
        (mover, {"type": "shout"}, "bad_message"),
        (mover, {"type": "action", "seq": "x", "action": legal[0]}, "bad_message"),
        (mover, {"type": "action", "seq": seq - 1, "action": legal[0]}, "stale"),
        (waiter, {"type": "action", "seq": waiter_seq, "action": legal[0]}, "not_your_turn"),
        (mover, {"type": "action", "seq": seq, "action": "play ZZ"}, "illegal"),
        (mover, {"type": "action", "seq": seq, "action": "chelem"}, "illegal"),
    ]
    for client, message, code in checks:
        error = client.error_for(message)
        assert error["code"] == code, (message, error)
        assert error["message"] and error["seq"] == (seq if client is mover else waiter_seq)
    intruder = server.connect(table_id, foreign, None)
    assert intruder.recv()["code"] == "not_seated", "another table's token holds no seat here"
    assert intruder.error_for({"type": "action", "seq": seq, "action": legal[0]})["code"] == "not_seated"
    assert server.log(table_id).deals[0].actions == before
    assert _resync(mover) == (seq, view) and _resync(waiter)[0] == waiter_seq
    wrong = server.post(f"/api/tables/{table_id}/seats/1/claim", {"token": foreign})
    assert wrong.status_code == 403 and wrong.json()["field"] == "token"
    assert server.post(f"/api/tables/{table_id}/next", token=foreign).status_code == 403
    assert server.post(f"/api/tables/{table_id}/next", token=created["token"]).status_code == 409
    for c in (ann, bob, intruder):
        c.close()


def _at_my_turn_any(ann: Any, bob: Any) -> int:
    while True:
        message = ann.recv()
        view = message.get("view")
        if view and view["current_player"] in (0, 1):
            return int(view["current_player"])


def _resync(client: Any) -> tuple[int, dict[str, Any]]:
    """The seat's sequence number and view, from a full state."""
    client.send({"type": "resync"})
    state = client.recv_until("state")
    return state["seq"], state["view"]


def test_reconnect_with_last_seq_gets_the_gap(server: Any) -> None:
    """A client that comes back with the last seq it saw gets exactly the updates it missed, in
    order; one whose seq is unknown gets a full state."""
    created = server.create(preset="fft", players=4, seats=seats(4, bot="rules"), sit=0)
    table_id, token = created["table_id"], created["token"]
    client = server.connect(table_id, token, 0)
    rng = random.Random(3)
    message = _at_my_turn(client)
    while True:  # act until a bot is to play next
        words = message["view"]["legal_actions"]
        client.send(
            {"type": "action", "seq": message["seq"], "action": rng.choice([w for w in words if w != "pass"])}
        )
        mine = client.recv_until("update")
        if mine["view"]["current_player"] != 0:
            break
        message = mine
    client.close()
    end = time.monotonic() + 20
    while (now := server.seat_seq(table_id, 0)) == mine["seq"]:  # the bots play on meanwhile
        assert time.monotonic() < end, "the bots did not play while the client was away"
        time.sleep(0.1)
    time.sleep(0.3)
    now = server.seat_seq(table_id, 0)
    back = server.connect(table_id, token, 0, last_seq=mine["seq"], view=mine["view"])
    got = [m for m in back.drain(0.5) if m["type"] in ("update", "state", "deal_over")]
    updates = [m for m in got if m["type"] == "update"]
    assert [m["type"] for m in got if m["type"] == "state"] == []
    assert [m["seq"] for m in updates][: now - mine["seq"]] == list(range(mine["seq"] + 1, now + 1))
    back.close()
    again = server.connect(table_id, token, 0, last_seq=10_000)
    assert again.recv_until("state")["seq"] >= now
    again.close()


def test_a_person_who_leaves_mid_deal_is_replaced_by_a_bot_and_reclaims_the_seat(server: Any) -> None:
    """After the leave timeout a rules bot plays for the person; the seat says so; the person's
    token takes it back."""
    created = server.create(preset="fft", players=3, seats=seats(3, bot="rules"), sit=0)
    table_id, token = created["table_id"], created["token"]
    client = server.connect(table_id, token, 0)
    client.recv_until("state")
    client.close()
    end = time.monotonic() + 15
    while not server.info(table_id)["seats"][0]["replaced_by_bot"]:
        assert time.monotonic() < end, "no bot took over"
        time.sleep(0.2)
    while server.info(table_id)["state"] == "playing":  # the bot plays the seat to the end
        assert time.monotonic() < end + 30
        time.sleep(0.2)
    back = server.post(f"/api/tables/{table_id}/seats/0/claim", {"token": token})
    assert back.status_code == 200
    assert server.info(table_id)["seats"][0]["replaced_by_bot"] is False


def test_next_deal_rotates_the_dealer_keeps_totals_and_seats_change_between_deals(server: Any) -> None:
    """A rematch deals again with the next dealer (atout.games.next_dealer) and the running
    totals add up; seats change between deals only; an open seat must be filled first."""
    created = server.create(preset="fft", players=3, seats=seats(3), sit=0)
    table_id, token = created["table_id"], created["token"]
    client = server.connect(table_id, token, 0)
    first = client.play_deal(random.Random(5))
    between = server.connect(table_id, token, 0, last_seq=first["seq"])
    assert between.recv_until("state")["view"]["phase"] == "end", (
        "between deals a comeback gets the end again"
    )
    between.close()
    assert server.post(f"/api/tables/{table_id}/seats/1", {"kind": "open"}, token=token).status_code == 200
    refused = server.post(f"/api/tables/{table_id}/next", token=token)
    assert refused.status_code == 409 and refused.json()["field"] == "seats"
    assert (
        server.post(
            f"/api/tables/{table_id}/seats/1", {"kind": "bot", "bot": "nobot"}, token=token
        ).status_code
        == 400
    )
    assert (
        server.post(
            f"/api/tables/{table_id}/seats/1", {"kind": "bot", "bot": "rules"}, token=token
        ).status_code
        == 200
    )
    assert server.post(f"/api/tables/{table_id}/next", token=token).status_code == 200
    busy = server.post(f"/api/tables/{table_id}/seats/2", {"kind": "open"}, token=token)
    assert busy.status_code == 409
    second = client.play_deal(random.Random(6))
    client.close()
    assert second["totals"] == [a + b for a, b in zip(first["scores"], second["scores"], strict=True)]
    record = server.log(table_id)
    rules = Rules.from_options(record.rules)
    deal = deal_from_dealt(rules, record.deals[0].dealer, record.deals[0].dealt)
    for _seq, _seat, words in record.deals[0].actions:
        deal.apply(deal.parse(words))
    assert record.deals[1].dealer == next_dealer(deal)
    info = server.info(table_id)
    assert info["deal_no"] == 2 and info["totals"] == second["totals"] and len(info["history"]) == 2
    assert server.leaks(table_id, [client]) == []


def test_bad_requests_name_the_field(server: Any) -> None:
    """A bad preset, option, player count or seat list is refused with 400 naming the field; an
    unknown table with 404."""
    cases = [
        ({"preset": "nope"}, "preset"),
        ({"options": {"bid_pousse": "maybe"}}, "options.bid_pousse"),
        ({"players": 9}, "players"),
        ({"players": 3, "seats": [{"kind": "human"}]}, "seats"),
        ({"seats": [{"kind": "robot"}]}, "seats.0.kind"),
        ({"players": 3, "seats": seats(3), "sit": 1}, "sit"),
        (
            {"players": 3, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "x"}, {"kind": "open"}]},
            "seats.1.bot",
        ),
    ]
    for body, field in cases:
        response = server.post("/api/tables", body)
        assert response.status_code == 400 and response.json()["field"] == field, (body, response.text)
    assert server.http.get("/api/tables/nosuchtable").status_code == 404
    games = server.http.get("/api/games").json()
    assert {p["name"] for p in games["presets"]} >= {"fft", "tarock"}
    assert [b["bot"] for b in games["bots"]] == ["random", "rules", "expert:fast", "expert:strong"]
    assert {o["name"]: o for o in games["options"]}["five_player_mode"]["values"] == [
        "called_king",
        "dead_player",
    ]


def test_a_server_killed_mid_deal_resumes_the_deal_from_its_log(fresh_server: Any) -> None:
    """SIGKILL mid-deal, then a new server on the same database: the seat's view and seq are
    what they were (every committed action replayed), and the deal plays on to its end."""
    created = fresh_server.create(preset="fft", players=4, seats=seats(4, bot="rules"), sit=0)
    table_id, token = created["table_id"], created["token"]
    client = fresh_server.connect(table_id, token, 0)
    rng = random.Random(9)
    for _ in range(3):  # a few of our own decisions, the bots playing in between
        message = _at_my_turn(client)
        words = message["view"]["legal_actions"]
        client.send(
            {
                "type": "action",
                "seq": message["seq"],
                "action": rng.choice([w for w in words if w != "pass"] or words),
            }
        )
    last = _at_my_turn(client)
    workers = fresh_server.children()
    fresh_server.kill()
    client.close()
    end = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in workers):  # the bot workers end with it
        assert time.monotonic() < end, "bot workers outlived the killed server"
        time.sleep(0.2)
    fresh_server.start()
    back = fresh_server.connect(table_id, token, 0, last_seq=last["seq"])
    assert back.recv()["type"] == "table" and back.drain(0.3) == [], "nothing was missed"
    back.send({"type": "resync"})
    state = back.recv_until("state")
    assert state["seq"] == last["seq"] and state["view"] == last["view"]
    back.play_deal(rng)
    back.close()
    assert fresh_server.info(table_id)["state"] == "between_deals"


def test_the_command_line_stays_light() -> None:
    """``atout --help`` imports no web server: the server is imported by ``atout serve`` only."""
    code = "import sys, atout.cli.main; print(sorted(m for m in ('fastapi', 'sqlalchemy', 'uvicorn') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_bad_database_url_is_one_line() -> None:
    """``atout serve --db`` with a URL that is not one ends with one clear line, no traceback."""
    out = subprocess.run(
        [sys.executable, "-m", "atout", "serve", "--db", "nonsense://"], capture_output=True, text=True
    )
    assert out.returncode == 2 and out.stderr.startswith("error: ") and "Traceback" not in out.stderr

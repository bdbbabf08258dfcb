"""Hints through a real server and real websockets: the hint is the strongest bot's decision from
the asking seat's view alone, comes to that seat only, is counted and told to everyone as "this seat
used a hint" (nothing more), may be turned off by the host, and that choice survives a restart."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.server.conftest import ServerProcess

from atout.bots import make_bot
from atout.bots.hint import hint_for, hint_seed
from atout.engine.wire import view_from_json
from atout.games import new_deal
from atout.records import deal_to_record
from atout.rules import Rules

Message = dict[str, Any]
RULES = Rules(players=4)
BOTS = [{"kind": "bot", "bot": "rules"}] * 3


def _strong_deal(rng: random.Random) -> Any:
    """A 4-player deal, dealer seat 3 (seat 0 bids first), where seat 0 holds 8 trumps or more:
    the expert bids, so the deal is played."""
    while True:
        deal = new_deal(RULES, dealer=3, rng=rng)
        hands = deal.dealt()["hands"]
        assert isinstance(hands, list)
        hand = str(hands[0]).split()
        if sum(card.startswith("T") or card == "EX" for card in hand) >= 8:
            return deal


def _twin(record: Message) -> Message:
    """The same deal with a card of seat 1 and a card of seat 2 swapped: seat 0 cannot tell them
    apart before the play."""
    hands = [hand.split() for hand in record["hands"]]
    hands[1][0], hands[2][0] = hands[2][0], hands[1][0]
    return {**record, "hands": [" ".join(sorted(hand)) for hand in hands]}


@pytest.fixture(scope="module")
def deals_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Prepared deals, each taken by the next table of its player count: the played deal (4
    players), and a twin pair (3 players, dealer seat 2: seat 0 bids first), so that each test
    takes its own whatever the order the tests run in."""
    rng = random.Random(28)
    played = deal_to_record(_strong_deal(rng))
    twin = deal_to_record(new_deal(Rules(players=3), dealer=2, rng=rng))
    path = tmp_path_factory.mktemp("hints") / "deals.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in (played, twin, _twin(twin))) + "\n")
    return path


@pytest.fixture(scope="module")
def hint_server(tmp_path_factory: pytest.TempPathFactory, deals_file: Path) -> Iterator[ServerProcess]:
    """A server dealing the prepared deals first, on a SQLite file of its own (a hint reads no
    database: the host's choice is tested on both backends below)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('hint-db') / 'atout.sqlite3'}"
    process = ServerProcess(url, args=("--deals", str(deals_file)))
    process.start()
    yield process
    process.stop()


def _my_turn(client: Any, timeout: float = 30.0) -> Message:
    """Messages up to the seat's turn (its last ``state`` or ``update``), or the ``deal_over``."""
    end = time.monotonic() + timeout
    last: Message | None = next(
        (m for m in reversed(client.received) if m["type"] in ("state", "update")), None
    )
    while True:
        view = client.view
        if last is not None and view and view["current_player"] == client.seat and view["legal_actions"]:
            return last
        message: Message = client.recv(max(0.1, end - time.monotonic()))
        if message["type"] == "deal_over":
            return message
        if message["type"] in ("state", "update"):
            last = message


def _ask(client: Any) -> tuple[Message, Message]:
    """Ask for a hint: the notice and the hint the seat receives."""
    client.send({"type": "hint"})
    notice = client.recv_until("hint_used", 30.0)
    return notice, client.recv_until("hint", 60.0)


def test_the_hint_is_the_strong_bots_decision_from_the_seats_view(hint_server: Any) -> None:
    """At a bid, an écart or a card: the hint the server sends is ``hint_for`` the view the seat
    holds (the same action and reason), whose action is the strong bot's own decision there
    (seeded from the view); a second request while one is worked out, and a request
    out of turn, are refused; a watcher is told "seat 0 used a hint" and nothing of its content;
    the deal's end counts the hints; no message names a card the seat could not know."""
    created = hint_server.create(preset="fft", players=4, seats=[{"kind": "human", "name": "Ann"}, *BOTS])
    table_id = created["table_id"]
    ann = hint_server.connect(table_id, created["token"], 0)
    watcher = hint_server.connect(table_id, None, None)
    asked: list[str] = []
    while True:
        turn = _my_turn(ann)
        if turn["type"] == "deal_over":
            break
        view = ann.view
        assert view is not None
        words = [w for w in view["legal_actions"] if w != "pass"] or view["legal_actions"]
        action = words[0]
        if view["phase"] not in asked and len(view["legal_actions"]) > 1:
            asked.append(view["phase"])
            expected = hint_for(view)
            seat_view = view_from_json(view)  # the strong bot itself, seeded alike, on the same view
            bot = make_bot("expert:strong", rng=hint_seed(view))
            decided = bot.choose(seat_view, seat_view.legal_actions)
            assert expected.action == view["legal_actions"][seat_view.legal_actions.index(decided)]
            start = len(ann.received)
            ann.send({"type": "hint"})
            if len(asked) == 1:  # at the bid, a simulation of a few hundred ms: a second ask waits
                ann.send({"type": "hint"})
            ann.recv_until("hint", 60.0)
            got = {m["type"]: m for m in ann.received[start:]}
            notice, hint = got["hint_used"], got["hint"]
            if len(asked) == 1:
                assert got["error"]["code"] == "hint_busy", got
            assert notice["seat"] == 0 and notice["hints"] == len(asked), notice
            assert (hint["action"], hint["reason"]) == (expected.action, expected.reason), view["phase"]
            assert hint["action"] in view["legal_actions"] and hint["seq"] == turn["seq"]
            told = watcher.recv_until("hint_used", 10.0)
            assert {k: told[k] for k in ("seat", "hints", "deal_no")} == {
                "seat": 0,
                "hints": len(asked),
                "deal_no": 1,
            }
            assert set(told) == {"type", "seq", "seat", "hints", "deal_no"}, told
            action = hint["action"]
        ann.send({"type": "action", "seq": turn["seq"], "action": action})
        assert ann.recv_until("update")["seq"] > turn["seq"]
    assert {"bidding", "play"} <= set(asked), asked
    assert turn["hints"] == [len(asked), 0, 0, 0], turn
    assert not [m for m in watcher.drain() if m["type"] == "hint"]
    assert hint_server.leaks(table_id, [ann]) == []
    for client in (ann, watcher):
        client.close()


def test_twin_deals_give_the_same_hint(hint_server: Any) -> None:
    """Two deals that differ only in cards seat 0 cannot see (a card of seat 1 and one of seat 2
    swapped) give seat 0 the very same hint message: the hint depends on its view alone."""
    hints = []
    for _ in range(2):
        seats = [{"kind": "human", "name": "Ann"}, *BOTS[:2]]
        created = hint_server.create(preset="fft", players=3, seats=seats)
        ann = hint_server.connect(created["table_id"], created["token"], 0)
        assert _my_turn(ann)["type"] == "state"
        hints.append(_ask(ann)[1])
        ann.close()
    assert hints[0] == hints[1], hints
    assert hints[0]["reason"]["method"] == "simulation" and hints[0]["reason"]["worlds"] > 0


def test_hints_turned_off_are_refused_and_the_choice_survives_a_restart(server_factory: Any) -> None:
    """``"hints": false`` at creation: the table info says so, a hint is refused (``hints_off``);
    a table created without the field allows them, but not out of turn or to a watcher; after a
    restart on the same database both tables say and do the same."""
    first = server_factory()
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "open", "name": "Bob"},
        {"kind": "bot", "bot": "rules"},
    ]
    off = first.create(preset="fft", players=3, seats=seats, hints=False)
    on = first.create(preset="fft", players=3, seats=seats)
    bad = first.post("/api/tables", {"preset": "fft", "hints": "no"})
    assert bad.status_code == 400 and bad.json()["field"] == "hints", bad.text
    bob = first.post(f"/api/tables/{on['table_id']}/seats/1/claim", {"name": "Bob"}).json()
    first.post(f"/api/tables/{off['table_id']}/seats/1/claim", {"name": "Bob"})

    def check(server: Any) -> None:
        assert server.info(off["table_id"])["settings"] == {"hints": False}
        assert server.info(on["table_id"])["settings"] == {"hints": True}
        ann = server.connect(off["table_id"], off["token"], 0)
        ann.recv_until("state")
        assert ann.error_for({"type": "hint"})["code"] == "hints_off"
        watcher = server.connect(on["table_id"], None, None)
        watcher.recv_until("state")
        assert watcher.error_for({"type": "hint"})["code"] == "not_seated"
        seated = [server.connect(on["table_id"], t, s) for s, t in ((0, on["token"]), (1, bob["token"]))]
        for client in seated:
            client.recv_until("state")
        waiting = next(c for c in seated if c.view["current_player"] != c.seat)
        refused = waiting.error_for({"type": "hint"})
        assert refused["code"] == "not_your_turn" and refused["message"] == "it is another player's turn"
        for client in (ann, watcher, *seated):
            client.close()

    check(first)
    first.stop()
    check(server_factory())

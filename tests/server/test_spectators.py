"""Spectators through a real server: a websocket that says hello without a seat's token watches
the deal's public view (``deal.public_view()``): a ``state``, then ``update`` deltas, every hand
shown only in ``deal_over`` once the deal was played; the players are told how many watch.

The twin test plays spectators' twin pairs (:func:`atout.games.twins.make_pair` with
``spectator=True``: deals that differ in any hand, the unturned chien or talon) at two tables side
by side: the watchers of the two tables receive the very same text, byte for byte, message after
message (the table's id aside; ``table`` messages, whose seat connections come a moment apart,
are compared by their sequence number only).
"""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from atout.cards import NAMES as CARD_NAMES
from atout.engine.view import PUBLIC_SEAT
from atout.engine.wire import apply_view_delta
from atout.games import deal_from_dealt
from atout.games.fairness import HOUSE_OPTIONS, SWEPT_GAMES, knowable, scan_card_names
from atout.games.twins import TwinPair, lockstep, make_pair
from atout.presets import rules_for
from atout.records import deal_to_record
from atout.rules import Rules

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]
ATTACKERS = Path(__file__).with_name("attackers.py")
WATCHERS_DELAY = 1.0
"""The server's coalescing of watcher counts (``atout.server.tables.WATCHERS_DELAY``)."""


class Watcher:
    """A websocket without a seat: every message as received (text) and read, and the view it
    holds (each ``state``'s, then each ``update`` applied)."""

    def __init__(self, server: Any, table_id: str) -> None:
        self.stack = contextlib.ExitStack()
        url = f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}"
        self.ws = self.stack.enter_context(connect(url, open_timeout=10))
        self.texts: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.views: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.ws.send(json.dumps({"type": "hello", "token": None, "last_seq": None}))

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "state":
            self.view = message["view"]
        elif message["type"] == "update":
            assert self.view is not None and "view" not in message
            assert message["seq"] == self.messages[-1]["seq"] + 1 or self.messages[-1]["type"] == "table"
            self.view = apply_view_delta(self.view, message)
        if message["type"] in ("state", "update") and self.view is not None:
            self.views.append(self.view)
        self.texts.append(text)
        self.messages.append(message)
        return message

    def recv_until(self, kind: str, timeout: float = 30.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.1, end - time.monotonic()))
            if message["type"] == kind:
                return message

    def settle(self) -> None:
        """Ping, and read up to the pong: everything sent before has come."""
        self.ws.send(json.dumps({"type": "ping"}))
        self.recv_until("pong", 10.0)

    def close(self) -> None:
        self.stack.close()


def _public_views(record: Any, deal_no: int) -> tuple[list[dict[str, Any]], list[int], Any]:
    """The distinct public views of a deal replayed from the server's log, the cards a spectator
    may know at each, and the deal at its end."""
    dealt = next(d for d in record.deals if d.deal_no == deal_no)
    rules = Rules.from_options(record.rules)
    deal = deal_from_dealt(rules, dealt.dealer, dealt.dealt)
    views, allowed = [deal.public_view().to_json()], [knowable(deal, PUBLIC_SEAT)]
    for _seq, _seat, words in dealt.actions:
        deal.apply(deal.parse(words))
        view = deal.public_view().to_json()
        if view != views[-1]:
            views.append(view)
            allowed.append(knowable(deal, PUBLIC_SEAT))
    return views, allowed, deal


def test_a_watcher_sees_the_public_view_and_every_hand_at_the_end(server: Any) -> None:
    """A person plays a deal against three bots while a watcher watches: the watcher holds, state
    then update by update, exactly the public views of the deal as the log replays it (no hand,
    no legal action, ``seat`` null), names no card a spectator may not know, and gets every hand
    as dealt in ``deal_over``; the person is told "1 watching", then 0 once the watcher left."""
    created = server.create(preset="fft", players=4, sit=0)
    table_id = created["table_id"]
    person = server.connect(table_id, created["token"], 0)
    person.recv_until("state")
    watcher = Watcher(server, table_id)
    state = watcher.recv_until("state")
    assert state["seat"] is None and state["view"]["seat"] is None
    result: dict[str, Any] = {}
    playing = threading.Thread(target=lambda: result.update(over=person.play_deal(random.Random(3))))
    playing.start()
    over = watcher.recv_until("deal_over", 60)
    playing.join(60)
    assert result["over"]["scores"] == over["scores"]
    views, allowed, deal = _public_views(server.log(table_id), state["deal_no"])
    start = views.index(watcher.views[0])
    assert watcher.views == views[start:], "the watcher's views are the deal's public views, in order"
    assert all(v["hand"] == [] and v["legal_actions"] == [] and v["seat"] is None for v in watcher.views)
    held = 0
    for text, message in zip(watcher.texts, watcher.messages, strict=True):
        if message["type"] in ("state", "update"):
            held += 1
        if message["type"] == "deal_over":
            break
        mask = allowed[start + max(0, held - 1)]
        view = watcher.views[max(0, held - 1)]
        named = 1 << CARD_NAMES.index(view["called_card"]) if view.get("called_card") else 0  # §4.3
        assert scan_card_names(text.replace(table_id, "<table>"), mask | named) == [], message["type"]
    dealt = deal.dealt()["hands"]
    assert over["hands"] == [hand.split() for hand in dealt] and over["outcome"] == "played"
    end = time.monotonic() + WATCHERS_DELAY + 5
    while not any(m["type"] == "table" and m["table"]["watchers"] == 1 for m in person.received):
        assert time.monotonic() < end, "the person is told one watches"
        with contextlib.suppress(TimeoutError):
            person.recv(0.2)
    watcher.close()
    end = time.monotonic() + WATCHERS_DELAY + 5
    while person.recv_until("table", 10)["table"]["watchers"] != 0:
        assert time.monotonic() < end, "the person is told nobody watches any more"
    assert server.info(table_id)["watchers"] == 0
    person.close()


def test_a_cancelled_deal_shows_no_hand(server: Any) -> None:
    """Everyone passes: the deal is thrown in unseen (rule book §3.4), ``deal_over`` holds no hand."""
    table = Table(server, Rules(players=4))
    while True:
        view = table.watcher.view
        assert view is not None
        if view["phase"] == "end":
            break
        table.play(view["current_player"], "pass")
        table.watcher.settle()
    told = [
        m for m in table.watcher.messages if m["type"] == "deal_over"
    ]  # read by the settle, or still to come
    over = told[0] if told else table.watcher.recv_until("deal_over", 10)
    assert over["outcome"] != "played" and over["hands"] is None
    table.close()


def test_hundreds_of_watchers_cost_the_players_one_message_a_second(server: Any) -> None:
    """500 watchers come, then go at once: the seated person is told the count in a few ``table``
    messages (coalesced over a second), never one per watcher, and finally that nobody watches."""
    created = server.create(
        preset="fft",
        players=4,
        seats=[{"kind": "human", "name": "Ann"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}],
        sit=0,
    )
    table_id = created["table_id"]
    person = server.connect(table_id, created["token"], 0)
    person.recv_until("table")
    started = time.monotonic()
    watchers = subprocess.Popen(
        [sys.executable, str(ATTACKERS), "watchers", str(server.port), table_id, "500"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert watchers.stdout is not None
        assert watchers.stdout.readline().strip() == "ready"
        end = time.monotonic() + WATCHERS_DELAY + 10
        while person.recv_until("table", 15)["table"]["watchers"] != 500:
            assert time.monotonic() < end, "the person is told 500 watch"
        watchers.kill()
        watchers.wait()
        end = time.monotonic() + WATCHERS_DELAY + 10
        while person.recv_until("table", 15)["table"]["watchers"] != 0:
            assert time.monotonic() < end, "the person is told nobody watches any more"
    finally:
        if watchers.poll() is None:
            watchers.kill()
            watchers.wait()
    seconds = time.monotonic() - started
    told = [m for m in person.received if m["type"] == "table"][1:]
    assert 2 <= len(told) <= seconds / WATCHERS_DELAY + 4, (len(told), seconds)
    person.close()


# ---------------------------------------------------------------- twins, through the server
def _rules(game: str) -> Rules:
    options = dict(SWEPT_GAMES[game])
    options.update(HOUSE_OPTIONS[game])
    preset = "tarock" if options.get("game") == "austrian" else "fft"
    extra = {k: v for k, v in options.items() if k != "players"}
    return rules_for(preset, extra, players=options["players"])


TWIN_KINDS = {
    "french 4": ("random_swap", "random_swap", "poignee_threshold", "misere"),
    "austrian": ("random_swap",) * 3,
}


def _pairs(game: str) -> list[TwinPair]:
    rng = random.Random(zlib.crc32(f"spectators {game}".encode()))
    pairs = []
    for kind in TWIN_KINDS[game]:
        pair = make_pair(_rules(game), kind, rng, spectator=True)
        assert pair is not None, (game, kind)
        pairs.append(pair)
    return pairs


class Table:
    """One table of a pair: every seat a person's websocket, and a watcher."""

    def __init__(self, server: Any, rules: Rules) -> None:
        n = rules.players
        seats = [{"kind": "human", "name": NAMES[0]}] + [
            {"kind": "open", "name": NAMES[s]} for s in range(1, n)
        ]
        options = {"game": rules.game, **rules.changed()}
        created = server.create(preset="fft", players=n, options=options, seats=seats, sit=0)
        self.table_id = created["table_id"]
        tokens = [created["token"]]
        for s in range(1, n):
            answer = server.post(f"/api/tables/{self.table_id}/seats/{s}/claim", {"name": NAMES[s]})
            assert answer.status_code == 200, answer.text
            tokens.append(answer.json()["token"])
        self.seqs: dict[int, int] = {}
        self.clients = []
        for s, token in enumerate(tokens):
            client = server.connect(self.table_id, token, s)
            self.seqs[s] = client.recv_until("state")["seq"]
            self.clients.append(client)
        self.watcher = Watcher(server, self.table_id)
        self.watcher.recv_until("state")

    def play(self, seat: int, words: str) -> None:
        """One action: sent on the seat's number, its update awaited, the others caught up."""
        client = self.clients[seat]
        client.send({"type": "action", "seq": self.seqs[seat], "action": words})
        while True:
            message = client.recv(10.0)
            assert message["type"] != "error", (words, message)
            if message["type"] == "update":
                self.seqs[seat] = message["seq"]
                break
        for other in self.clients:
            if other.seat != seat:
                other.send({"type": "ping"})
                while (message := other.recv(10.0))["type"] != "pong":
                    if message["type"] == "update":
                        self.seqs[other.seat] = message["seq"]

    def stream(self) -> tuple[list[str], list[str]]:
        """The watcher's messages but ``table`` ones, as text with the table's id blanked; and the
        problems of its ``table`` messages (each must carry the number of the message before)."""
        kept, problems, seq = [], [], None
        for text, message in zip(self.watcher.texts, self.watcher.messages, strict=True):
            if message["type"] == "table":
                if seq is not None and message["seq"] != seq:
                    problems.append(f"a table message at seq {message['seq']} after seq {seq}")
                continue
            seq = message["seq"]
            kept.append(text.replace(self.table_id, "<table>"))
        return kept, problems

    def close(self) -> None:
        for client in [*self.clients, self.watcher]:
            client.close()


@pytest.mark.parametrize("game", list(TWIN_KINDS))
def test_twin_deals_give_watchers_the_same_bytes(server_factory: Any, tmp_path: Path, game: str) -> None:
    """Spectators' twin pairs (cards swapped between any hands and the unturned chien or talon, a
    poignée or a misère declined in one deal and not asked in the other) at two tables: the two
    watchers receive the very same text, message by message, while the pair lasts."""
    pairs = _pairs(game)
    records = []
    for pair in pairs:
        first, second = pair.deals()
        records += [deal_to_record(first), deal_to_record(second)]
    path = tmp_path / "twins.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    server = server_factory("--deals", str(path))
    compared = 0
    for number, pair in enumerate(pairs):
        tables = (Table(server, pair.rules), Table(server, pair.rules))
        rounds = 0
        for step in lockstep(pair, random.Random(number)):
            for table, actions in zip(tables, (step.first, step.second), strict=True):
                for seat, words in actions:
                    table.play(seat, words)
                table.watcher.settle()
            rounds += 1
        (a, problems_a), (b, problems_b) = (t.stream() for t in tables)
        where = f"{pair.kind} pair {number}, {rounds} rounds"
        assert problems_a == problems_b == [], where
        assert a == b, (
            f"{where}: {next(((i, x, y) for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a) - len(b))}"
        )
        assert rounds > 0 and len(a) > rounds // 2, where
        compared += len(a)
        for table in tables:
            table.close()
    assert compared > 10 * len(pairs)

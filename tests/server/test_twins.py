"""Hidden decisions stay hidden through the real server: twin deals that differ only in cards
hidden from a seat give that seat the same stream of websocket messages, field by field, over
the whole deal (until a differing card could be seen).

Each pair (:mod:`atout.games.twins`: a poignée asked or not, more trumps than shown, a misère
asked or not, the called king in one hand or another, random swaps; every game, 2 players and
Austrian Tarock included) is dealt to two tables of a real server (``atout serve --deals``),
every seat a websocket client; the same rounds are played at both tables (each table's own
secret steps first, then the same public action), and after each round the seat and a watcher
ping the server so that everything sent before has arrived. Their messages at the two tables
must be equal, sequence numbers included. ``table`` messages (seat connections, told together a
moment later) are compared apart: they must carry the sequence number the seat had then.
"""

from __future__ import annotations

import json
import random
import zlib
from pathlib import Path
from typing import Any

import pytest

from atout.games.fairness import HOUSE_OPTIONS, SWEPT_GAMES
from atout.games.twins import TwinPair, kinds_for, lockstep, make_pair
from atout.presets import rules_for
from atout.records import deal_to_record
from atout.rules import Rules

PAIRS_PER_KIND = 2
PAIRS_PER_GAME = 6
"""At least, over its kinds: a game with random swaps alone (2 players, Austrian) gets 6 of them."""
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def _rules(game: str, house: bool) -> Rules:
    """The game's default rules, or with its house options (a misère, a poignée at any count)."""
    options = dict(SWEPT_GAMES[game])
    if house:
        options.update(HOUSE_OPTIONS[game])
    preset = "tarock" if options.get("game") == "austrian" else "fft"
    extra = {k: v for k, v in options.items() if k != "players"}
    return rules_for(preset, extra, players=options["players"])


def _pairs(game: str) -> list[TwinPair]:
    """Pairs of every kind the game has, under its default rules where such deals come (the
    house options otherwise: a misère; more than 13 trumps of 24 cards is too rare to wait for)."""
    rng = random.Random(zlib.crc32(game.encode()))
    pairs = []
    kinds = kinds_for(_rules(game, house=True))
    for kind in kinds:
        for _ in range(max(PAIRS_PER_KIND, PAIRS_PER_GAME // len(kinds))):
            pair = None
            if kind in kinds_for(_rules(game, house=False)):
                pair = make_pair(_rules(game, house=False), kind, rng, tries=500)
            pair = pair or make_pair(_rules(game, house=True), kind, rng)
            assert pair is not None, (game, kind)
            pairs.append(pair)
    return pairs


class Table:
    """One table of a pair: its clients by seat, a watcher, and what the watched seat received."""

    def __init__(self, server: Any, rules: Rules, seat: int) -> None:
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
        assert server.info(self.table_id)["rules"] == rules.to_dict()
        self.seat = seat
        self.seqs: dict[int, int] = {}
        self.clients = []
        for s, token in enumerate(tokens):  # one after the other: each state shows the same seats connected
            client = server.connect(self.table_id, token, s)
            self.seqs[s] = client.recv_until("state")["seq"]
            self.clients.append(client)
        self.watcher = server.connect(self.table_id, None, None)
        self.watcher.recv_until("state")

    def play(self, seat: int, words: str) -> None:
        """One action by ``seat``: sent on its seq, its own update awaited; then every other seat
        but the watched one catches up (the watched seat pings only at the end of a round, the
        same number of times at both tables)."""
        client = self.clients[seat]
        client.send({"type": "action", "seq": self.seqs[seat], "action": words})
        while True:
            message = client.recv(10.0)
            assert message["type"] != "error", (words, message)
            if message["type"] == "update":
                self.seqs[seat] = message["seq"]
                break
        for other in self.clients:
            if other.seat not in (seat, self.seat):
                self._catch_up(other)

    def _catch_up(self, client: Any) -> None:
        """Ping, and read every message up to the pong: the client's seq is then current."""
        client.send({"type": "ping"})
        while True:
            message = client.recv(10.0)
            if message["type"] == "pong":
                break
            if message["type"] == "update" and client.seat is not None:
                self.seqs[client.seat] = message["seq"]

    def settle(self) -> None:
        """Everything sent to the watched seat and the watcher so far has arrived."""
        self._catch_up(self.clients[self.seat])
        self._catch_up(self.watcher)

    def close(self) -> None:
        for client in [*self.clients, self.watcher]:
            client.close()


def _stream(client: Any, table_id: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The client's messages but ``table`` ones, with the table's id blanked; and the problems of
    its ``table`` messages (each must carry the sequence number of the message before it)."""
    kept: list[dict[str, Any]] = []
    problems = []
    seq = None
    for message in client.received:
        text = json.dumps(message).replace(table_id, "<table>")
        plain = json.loads(text)
        if plain["type"] == "table":
            if seq is not None and plain["seq"] != seq:
                problems.append(f"a table message at seq {plain['seq']} after seq {seq}")
            continue
        seq = plain["seq"]
        kept.append(plain)
    return kept, problems


def _first_difference(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> str | None:
    from atout.games.twins import first_difference

    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        found = first_difference(x, y)
        if found is not None:
            path, one, two = found
            return f"message {index} ({x.get('type')}): {path}: {str(one)[:80]} vs {str(two)[:80]}"
    if len(a) != len(b):
        return f"{len(a)} messages against {len(b)}"
    return None


@pytest.mark.parametrize("game", list(SWEPT_GAMES))
def test_twin_deals_give_the_seat_the_same_stream_through_the_server(
    server_factory: Any, tmp_path: Path, game: str
) -> None:
    """rule book §3.7 (poignée), §7 V5 (misère), §4.3 (the called king), §4.4 and §5 (the other
    games): over whole deals, the seat that cannot see the differing cards, and a watcher,
    receive the very same messages at both tables of each pair."""
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
        tables = (Table(server, pair.rules, pair.seat), Table(server, pair.rules, pair.seat))
        rounds = 0
        for step in lockstep(pair, random.Random(number)):
            for table, actions in zip(tables, (step.first, step.second), strict=True):
                for seat, words in actions:
                    table.play(seat, words)
                table.settle()
            rounds += 1
        where = f"{pair.kind} pair {number}, seat {pair.seat}, {rounds} rounds"
        for watched in (lambda t: t.clients[t.seat], lambda t: t.watcher):
            (a, problems_a), (b, problems_b) = (_stream(watched(t), t.table_id) for t in tables)
            assert problems_a == problems_b == [], where
            assert _first_difference(a, b) is None, f"{where}: {_first_difference(a, b)}"
            compared += len(a)
        if pair.kind in ("poignee_threshold", "misere"):  # the secret step was inside the window
            refusal = "no_poignee" if pair.kind == "poignee_threshold" else "no_misere"
            assert (pair.actor, refusal) in _all_first(pair, number), where
        for table in tables:
            table.close()
    assert compared > 50 * len(pairs)


def _all_first(pair: TwinPair, number: int) -> list[tuple[int, str]]:
    """Every action of deal A in the rounds played (the same rng: the same rounds)."""
    return [action for step in lockstep(pair, random.Random(number)) for action in step.first]

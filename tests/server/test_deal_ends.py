"""Every way a deal can end ends it at the table and offers the next deal, in every game, through a
real server: played out, cancelled as it is dealt (a petit sec, rule book §3.3), all pass (§3.4;
the dead player's deal, §4.3 mode B; Austrian Tarock, §5.2). The deals are forced with prepared
deals (``atout serve --deals FILE``) or by the players' bids.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from atout.games import new_deal
from atout.presets import rules_for
from atout.records import new_deal_from_record
from atout.rules import Rules

GAMES: dict[str, dict[str, Any]] = {
    "french 3": {"preset": "fft", "players": 3},
    "french 4": {"preset": "fft", "players": 4},
    "french 5": {"preset": "fft", "players": 5},
    "french 5 dead player": {"preset": "fft", "players": 5, "options": {"five_player_mode": "dead_player"}},
    "french 2": {"preset": "fft", "players": 2},
    "austrian": {"preset": "tarock", "players": 3},
}
PETIT_SEC = ("french 3", "french 4", "french 5", "french 5 dead player")
ALL_PASS = ("french 3", "french 4", "french 5", "french 5 dead player", "austrian")


def _rules(game: str) -> Rules:
    spec = GAMES[game]
    return rules_for(spec["preset"], spec.get("options", {}), players=spec["players"])


def petit_sec_record(game: str, seed: int) -> dict[str, Any]:
    """A deal record in which one hand's only trump is the Petit, without the Excuse (§3.3)."""
    rules = _rules(game)
    deal = new_deal(rules, dealer=seed % rules.players, rng=seed)
    dealt = deal.dealt()
    hands = [set(str(h).split()) for h in dealt["hands"]]  # type: ignore[attr-defined]
    chien = set(str(dealt["chien"]).split())
    p = next(s for s, h in enumerate(hands) if h)
    others = [h for s, h in enumerate(hands) if s != p and h]

    def plain(cards: set[str]) -> str:
        return sorted(c for c in cards if not c.startswith("T") and c != "EX")[0]

    if "T1" not in hands[p]:
        holder = next(h for h in [*others, chien] if "T1" in h)
        give = plain(hands[p])
        holder ^= {"T1", give}
        hands[p] ^= {"T1", give}
    for card in sorted(c for c in hands[p] if (c.startswith("T") and c != "T1") or c == "EX"):
        taker = next(h for h in others if any(not c.startswith("T") and c != "EX" for c in h))
        give = plain(taker)
        taker ^= {card, give}
        hands[p] ^= {card, give}
    options = {k: v for k, v in rules.to_dict().items() if k not in ("game", "players")}
    record = {
        "format": "atout-deal",
        "version": 1,
        "game": "french",
        "players": rules.players,
        "options": {k: v for k, v in options.items() if v != Rules().to_dict().get(k)},
        "dealer": deal.dealer,
        "hands": [" ".join(sorted(h)) for h in hands],
        "chien": " ".join(sorted(chien)),
        "actions": [],
    }
    check = new_deal_from_record(record)
    assert check.is_over() and check.outcome.startswith("petit sec"), check.outcome
    return record


@pytest.fixture(scope="module")
def prepared_server(server_factory: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A server whose first deal of each French game of 3 to 5 players is a petit sec."""
    path = Path(tmp_path_factory.mktemp("deals")) / "petit-sec.jsonl"
    path.write_text("\n".join(json.dumps(petit_sec_record(g, i)) for i, g in enumerate(PETIT_SEC)) + "\n")
    return server_factory("--deals", str(path))


def _people(server: Any, game: str) -> tuple[str, list[Any], list[str]]:
    """A table of people only (the first deal is dealt when the last seat is taken): its id,
    each seat's client and token."""
    spec = GAMES[game]
    n = spec["players"]
    body = {**spec, "seats": [{"kind": "human", "name": "Ann"}] + [{"kind": "open"}] * (n - 1), "sit": 0}
    created = server.create(**body)
    table_id, tokens = created["table_id"], [created["token"]]
    clients = [server.connect(table_id, created["token"], 0)]
    for s in range(1, n):
        clients[-1].recv()  # its hello was answered: it hears of what comes next
        answer = server.post(f"/api/tables/{table_id}/seats/{s}/claim", {"name": f"P{s + 1}"})
        assert answer.status_code == 200, answer.text
        tokens.append(answer.json()["token"])
        clients.append(server.connect(table_id, tokens[-1], s))
    return table_id, clients, tokens


def _dealt(client: Any, deal_no: int = 1) -> dict[str, Any]:
    """The ``state`` that brings this deal (a client that said hello earlier got an empty one)."""
    while True:
        state: dict[str, Any] = client.recv_until("state")
        if state["deal_no"] == deal_no and state["view"] is not None:
            return state


def _next_deal_is_offered(server: Any, table_id: str, clients: list[Any], token: str) -> None:
    """The table is between deals and the next deal is dealt on request, to everyone."""
    info = server.info(table_id)
    assert info["state"] == "between_deals" and info["deal_no"] == 1, info
    answer = server.post(f"/api/tables/{table_id}/next", token=token)
    assert answer.status_code == 200, answer.text
    for client in clients:
        assert _dealt(client, 2)["view"]["seat"] == client.seat
    assert server.info(table_id)["deal_no"] == 2


@pytest.mark.parametrize("game", PETIT_SEC)
def test_a_deal_cancelled_as_it_is_dealt_ends_at_once_and_the_next_is_dealt(
    prepared_server: Any, game: str
) -> None:
    """rule book §3.3: a petit sec cancels the deal as it is dealt; every seat is told the end
    (``deal_over``, scores all zero) and the next deal can be dealt."""
    table_id, clients, tokens = _people(prepared_server, game)
    for client in clients:
        state = _dealt(client)
        assert state["view"]["phase"] == "end", state["view"]["phase"]
        if client is clients[-1]:
            continue  # it said hello after the end: its state shows the end
        over = client.recv_until("deal_over")
        assert over["outcome"].startswith("petit sec") and set(over["scores"]) == {0}
        assert over["seq"] == state["seq"], "the end changes no view after the state"
    _next_deal_is_offered(prepared_server, table_id, clients, tokens[1])
    for client in clients:
        client.close()


@pytest.mark.parametrize("game", ALL_PASS)
def test_a_deal_everyone_passes_ends_and_the_next_is_dealt(server: Any, game: str) -> None:
    """rule book §3.4, §4.3 mode B, §5.2: when every player passes the deal is cancelled; it
    ends at the table and the next deal is dealt."""
    table_id, clients, tokens = _people(server, game)
    by_seat = {c.seat: c for c in clients}
    latest = {c.seat: _dealt(c) for c in clients}
    while True:
        movers = [
            s for s, m in latest.items() if m["view"]["current_player"] == s and m["view"]["legal_actions"]
        ]
        if not movers:
            break
        s = movers[0]
        assert "pass" in latest[s]["view"]["legal_actions"], latest[s]["view"]["phase"]
        by_seat[s].send({"type": "action", "seq": latest[s]["seq"], "action": "pass"})
        for client in clients:
            message = client.recv()
            while message["type"] not in ("update", "deal_over"):
                message = client.recv()
            if message["type"] == "update":
                latest[client.seat] = message
    for client in clients:
        over = client.recv_until("deal_over") if latest[client.seat]["view"]["phase"] == "end" else None
        assert over is None or over["outcome"].startswith("all passed")
    _next_deal_is_offered(server, table_id, clients, tokens[0])
    for client in clients:
        client.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_deal_played_out_ends_and_the_next_is_dealt(server: Any, game: str) -> None:
    """rule book §3.13 and the games' counting: a deal played to its last trick ends at the table
    with its scores, and the next deal is dealt."""
    table_id, clients, tokens = _people(server, game)
    import threading

    results: dict[int, Any] = {}
    rng = random.Random(len(game))
    threads = [
        threading.Thread(target=lambda c=c: results.update({c.seat: c.play_deal(rng)})) for c in clients
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == len(clients)
    assert len({json.dumps(r["scores"]) for r in results.values()}) == 1
    assert results[0]["outcome"] == "played" and results[0]["summary"] is not None
    _next_deal_is_offered(server, table_id, clients, tokens[0])
    for client in clients:
        client.close()

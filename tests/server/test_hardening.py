"""What the server refuses from outside, against a real ``atout serve`` (docs/server.md): REST
bodies too long, not JSON, nested too deep or of the wrong types, unknown routes and methods,
all in the one shape ``{"error", "field"}``; websocket messages nested too deep; table sockets
opened by the pages of other sites."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from atout.server.origins import canonical_origin, origin_allowed

from .conftest import ServerProcess

PROXY = "https://tarot.example"
OPEN_TABLE = [{"kind": "human", "name": "Ann"}, {"kind": "open"}, {"kind": "open"}]
"""A table waiting for two friends: nothing happens at it until they come."""


def _refused(response: httpx.Response, status: int, field: str | None = None) -> str:
    """The refusal's message, after checking its status and its one shape."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) - {"code", "params"} == {"error", "field"} and body["field"] == field, body
    assert isinstance(body["error"], str) and body["error"] and "\n" not in body["error"]
    message: str = body["error"]
    return message


def _raw_post(
    server: Any, path: str, content: Any, content_type: str | None = "application/json"
) -> httpx.Response:
    headers = {"Content-Type": content_type} if content_type else {}
    response: httpx.Response = server.http.post(path, content=content, headers=headers)
    return response


@pytest.fixture(scope="module")
def proxied(db_url: str) -> Iterator[ServerProcess]:
    """A server behind a reverse proxy, told the proxy's public origin."""
    process = ServerProcess(db_url, args=("--allow-origin", PROXY))
    process.start()
    yield process
    process.stop()


# ------------------------------------------------------------------ the websocket
def test_a_message_nested_too_deep_is_a_bad_message_and_the_connection_stays(db_url: str) -> None:
    """A message nested 2,000 deep fits in 4,096 characters but would exhaust the parser's
    recursion: it is refused by a scan before it is parsed, as ``bad_message``, the connection
    goes on (a ping is answered), and the server's log holds no traceback. A REST body nested
    as deep is refused alike."""
    own = ServerProcess(db_url)
    own.start()
    try:
        created = own.create(preset="fft", players=3, seats=OPEN_TABLE)
        client = own.connect(created["table_id"], created["token"], 0)
        client.drain()
        deep = '{"type": "ping", "x": ' + "[" * 2000 + "]" * 2000 + "}"
        assert len(deep) < 4096
        error = client.error_for(deep)
        assert error["code"] == "bad_message" and error["message"] == "nested deeper than 16 levels"
        error = client.error_for('{"type": "action", "seq": 1, "action": "pass", "seq": 2}')
        assert error["code"] == "bad_message" and error["message"] == "duplicate key 'seq' in an object"
        client.send({"type": "ping"})
        assert client.recv_until("pong")["seq"] == error["seq"]
        client.close()
        body = ("[" * 20_000 + "]" * 20_000).encode()
        assert _refused(_raw_post(own, "/api/tables", body), 400) == "nested deeper than 16 levels"
    finally:
        own.stop()
    assert own.process is not None and own.process.stderr is not None
    assert "Traceback" not in own.process.stderr.read().decode()


# ------------------------------------------------------------------ REST bodies
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"players": "4"}, "players"),
        ({"players": 4.0}, "players"),
        ({"players": True}, "players"),
        ({"preset": 1}, "preset"),
        ({"sit": "0"}, "sit"),
        ({"options": []}, "options"),
        ({"seats": {"kind": "human"}}, "seats"),
        (
            {"players": 3, "seats": [{"kind": "human", "name": 5}, {"kind": "open"}, {"kind": "open"}]},
            "seats.0.name",
        ),
        (
            {"players": 3, "seats": [{"kind": "human"}, {"kind": "bot", "bot": 1}, {"kind": "open"}]},
            "seats.1.bot",
        ),
        ({"colour": "red"}, "colour"),
    ],
)
def test_rest_bodies_are_strict_about_types(server: Any, body: dict[str, Any], field: str) -> None:
    """A string is no number, a number no bool, a float no whole number, and a field no body
    names is no field: each is refused with 400 naming the field, never taken for another
    value (``"players": "4"`` is not 4 players)."""
    message = _refused(server.post("/api/tables", body), 400, field)
    assert message.startswith(f"{field}: ")


def test_claim_and_seat_change_bodies_are_strict_too(server: Any) -> None:
    """The other bodies refuse a value of the wrong type alike, before the table is asked."""
    created = server.create(preset="fft", players=3, seats=OPEN_TABLE)
    table_id = created["table_id"]
    _refused(server.post(f"/api/tables/{table_id}/seats/1/claim", {"name": 7}), 400, "name")
    _refused(server.post(f"/api/tables/{table_id}/seats/1/claim", {"token": 7}), 400, "token")
    change = f"/api/tables/{table_id}/seats/1"
    _refused(server.post(change, {"kind": "bot", "bot": ["rules"]}, token=created["token"]), 400, "bot")
    _refused(server.post(f"/api/tables/{table_id}/seats/one/claim", {"name": "Bob"}), 400, "seat")
    assert server.post(f"/api/tables/{table_id}/seats/1/claim", {"name": "Bob"}).status_code == 200


@pytest.mark.parametrize(
    ("content", "content_type", "status", "message"),
    [
        (b'{"players":', "application/json", 400, "not JSON: Expecting value at line 1 column 12"),
        (b'{"players": 4, "players": 3}', "application/json", 400, "duplicate key 'players' in an object"),
        (b'{"players": NaN}', "application/json", 400, "NaN is not a JSON value"),
        (("[" * 5000 + "]" * 5000).encode(), "application/json", 400, "nested deeper than 16 levels"),
        (b'{"options": ' * 17 + b"1" + b"}" * 17, "application/json", 400, "nested deeper than 16 levels"),
        (b"\xff\xfe{}", "application/json", 400, "not JSON: the body is not UTF-8 text"),
        (b"[1]", "application/json", 400, "the body must be a JSON object"),
        (b"", None, 400, "a JSON body is required"),
        (
            b'{"players": 4}',
            "text/plain",
            415,
            "the body must be JSON, sent with Content-Type: application/json",
        ),
        (b'{"players": 4}', None, 415, "the body must be JSON, sent with Content-Type: application/json"),
        (
            b"players=4",
            "application/x-www-form-urlencoded",
            415,
            "the body must be JSON, sent with Content-Type: application/json",
        ),
    ],
)
def test_a_body_that_is_no_json_object_is_refused_in_the_one_shape(
    server: Any, content: bytes, content_type: str | None, status: int, message: str
) -> None:
    """Malformed JSON, a duplicate key, NaN, nesting deeper than a table's settings need (which
    would exhaust the parser's recursion), bytes that are no text, and a body sent as anything
    but JSON are refused before any route reads the body, as ``{"error", "field": null}``."""
    assert _refused(_raw_post(server, "/api/tables", content, content_type), status) == message


def test_a_body_too_long_is_refused_before_it_is_read_whole(server: Any) -> None:
    """A body over 64 KiB is refused with 413, whether its length is declared or it comes in
    chunks, so that no request can make the server hold more (a table's settings take a few
    hundred bytes); a body just under the limit is read."""
    big = json.dumps({"seats": [{"kind": "human", "name": "x" * 40}] * 2000}).encode()
    assert len(big) > 64 * 1024
    expected = "the body is longer than 65536 bytes"
    assert _refused(_raw_post(server, "/api/tables", big), 413) == expected

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(big), 8192):
            yield big[start : start + 8192]

    assert _refused(_raw_post(server, "/api/tables", chunks()), 413) == expected
    padded = b'{"preset": "fft"' + b" " * (64 * 1024 - 20) + b"}"
    assert len(padded) <= 64 * 1024
    assert _raw_post(server, "/api/tables", padded).status_code == 200


def test_unknown_routes_and_methods_answer_the_one_shape(server: Any) -> None:
    """An unknown route (404) and a method a route does not take (405, with ``Allow``) answer
    ``{"error", "field": null}`` like every other refusal, never a framework's ``detail``."""
    assert _refused(server.http.get("/api/nothing"), 404) == "no such page or route: GET /api/nothing"
    assert _refused(server.http.get("/no/such/page"), 404) == "no such page or route: GET /no/such/page"
    response = server.http.delete("/api/games")
    assert _refused(response, 405) == "method not allowed: DELETE /api/games (allowed: GET)"
    assert response.headers["allow"] == "GET"
    assert _refused(server.http.get("/api/tables"), 405).startswith("method not allowed: GET /api/tables")
    assert _refused(server.http.get("/api/tables/nosuchtable"), 404, "table_id")


# ------------------------------------------------------------------ origins
def _socket_status(port: int, table_id: str, origin: str | None) -> int:
    """101 when the websocket opens (and answers a hello), else the handshake's HTTP status."""
    url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}"
    try:
        with connect(url, origin=origin, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": None}))
            assert json.loads(ws.recv(timeout=10))["type"] in ("table", "state")
            return 101
    except InvalidStatus as refused:
        return refused.response.status_code


def test_a_page_of_another_site_cannot_open_a_table_socket(server: Any) -> None:
    """A browser lets any page open a websocket to any server, sending the page's origin: a page
    of another site (or another port of this host) is refused with 403 before the handshake
    completes, so that it cannot act at a table with a visitor's seat. The server's own pages
    (same scheme, host and port as the ``Host`` asked) and clients that are no browser (no
    origin: bots, scripts) get in."""
    table_id = server.create(preset="fft", players=3)["table_id"]
    port = server.port
    assert _socket_status(port, table_id, "http://evil.example") == 403
    assert _socket_status(port, table_id, f"http://127.0.0.1:{port + 1}") == 403
    assert _socket_status(port, table_id, "http://localhost") == 403
    assert _socket_status(port, table_id, "null") == 403
    assert _socket_status(port, table_id, PROXY) == 403  # not told of it
    assert _socket_status(port, table_id, f"http://127.0.0.1:{port}") == 101
    assert _socket_status(port, table_id, None) == 101


def test_an_allowed_origin_gets_in_behind_a_proxy(proxied: ServerProcess) -> None:
    """Behind a reverse proxy the page's origin is the proxy's public address, not the ``Host``
    the server is asked by: ``--allow-origin`` lets that origin in, and only it."""
    table_id = proxied.create(preset="fft", players=3)["table_id"]
    assert _socket_status(proxied.port, table_id, PROXY) == 101
    assert _socket_status(proxied.port, table_id, PROXY + ":443") == 101
    assert _socket_status(proxied.port, table_id, "http://tarot.example") == 403
    assert _socket_status(proxied.port, table_id, "https://evil.example") == 403
    assert _socket_status(proxied.port, table_id, f"http://127.0.0.1:{proxied.port}") == 101


def test_an_allow_origin_that_is_no_origin_is_one_line() -> None:
    """``--allow-origin`` takes ``scheme://host[:port]`` of a web page; anything else (a bare
    host, a path, another scheme) would never match and is refused at start in one line."""
    for bad in ("tarot.example", "https://tarot.example/play", "ftp://tarot.example"):
        out = subprocess.run(
            [sys.executable, "-m", "atout", "serve", "--allow-origin", bad], capture_output=True, text=True
        )
        assert out.returncode == 2 and out.stderr.startswith("error: --allow-origin: "), out.stderr
        assert "Traceback" not in out.stderr


@pytest.mark.parametrize(
    ("origin", "host", "allowed", "expected"),
    [
        (None, "tarot.example", frozenset(), True),
        (None, None, frozenset(), True),
        ("http://127.0.0.1:8000", "127.0.0.1:8000", frozenset(), True),
        ("https://tarot.example", "tarot.example", frozenset(), True),
        ("http://tarot.example", "tarot.example", frozenset(), True),
        ("https://tarot.example", "tarot.example:443", frozenset(), True),
        ("http://tarot.example:80", "TAROT.example", frozenset(), True),
        ("https://tarot.example:8443", "tarot.example:8443", frozenset(), True),
        ("http://[::1]:8000", "[::1]:8000", frozenset(), True),
        ("http://tarot.example", "tarot.example:443", frozenset(), False),
        ("http://tarot.example:443", "tarot.example", frozenset(), False),
        ("http://127.0.0.1:8001", "127.0.0.1:8000", frozenset(), False),
        ("http://localhost:8000", "127.0.0.1:8000", frozenset(), False),
        ("https://tarot.example.evil.example", "tarot.example", frozenset(), False),
        ("http://tarot.example", None, frozenset(), False),
        ("null", "tarot.example", frozenset(), False),
        ("file://", "tarot.example", frozenset(), False),
        ("http://user@tarot.example", "tarot.example", frozenset(), False),
        ("http://tarot.example/", "tarot.example", frozenset(), False),
        ("http://tarot.example:99999", "tarot.example:99999", frozenset(), False),
        ("", "tarot.example", frozenset(), False),
        (PROXY, "127.0.0.1:8000", frozenset({PROXY}), True),
        ("https://Tarot.Example:443", "127.0.0.1:8000", frozenset({PROXY}), True),
        ("http://tarot.example", "127.0.0.1:8000", frozenset({PROXY}), False),
        ("https://tarot.example:8443", "127.0.0.1:8000", frozenset({PROXY}), False),
    ],
)
def test_the_origin_rule(
    origin: str | None, host: str | None, allowed: frozenset[str], expected: bool
) -> None:
    """Same origin means the same scheme's default port when the ``Host`` names none; an origin
    that is no ``http``/``https`` page, or names a user or a path, is never the server's own."""
    assert origin_allowed(origin, host, allowed) is expected


def test_allowed_origins_are_written_one_way() -> None:
    """``--allow-origin`` values are kept in one spelling, so that an exact match is the rule."""
    assert canonical_origin("HTTPS://Tarot.Example:443/") == PROXY
    assert canonical_origin("http://tarot.example:8080") == "http://tarot.example:8080"
    with pytest.raises(ValueError, match="is not an origin"):
        canonical_origin("tarot.example")

"""Any worker serves any table: a request for a table that another worker owns is relayed to that
worker's internal address (:class:`TableRelay`, an ASGI middleware).

A table's websocket (``/ws/tables/{id}``) is piped both ways to the owner's; its REST routes
(``/api/tables/{id}/...``) are forwarded. The relaying worker checks the page's ``Origin`` itself
(the owner sees the relay, which sends none) and presents the cluster's secret
(``X-Atout-Relay``, kept in the database: :mod:`atout.server.ownership`), which the owner requires
on its internal address: anyone without it is refused there (403). A relayed request is never
relayed again: a worker that no longer owns the table answers it 503, or closes its websocket
with 1012. When nobody owns the table the worker that received the request takes it
(:meth:`atout.server.manager.TableManager.get`). When the owner dies, the relayed websockets are
closed with 1012 ("try again") and the page reconnects; a request whose owner cannot be reached
is tried again, the table taken over if its owner is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import re
from typing import TYPE_CHECKING, Any

import httpx
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from atout.server.origins import origin_allowed

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

    from atout.server.manager import TableManager

log = logging.getLogger(__name__)

RELAY_HEADER = "x-atout-relay"
"""The header a relaying worker sends the cluster's secret in."""
CLOSE_TRY_AGAIN = 1012
"""Close code: the owner went away; reconnect (the page does)."""
PASSED_CLOSE_CODES = frozenset({1000, 1012, 4008, 4029, 4403, 4404})
"""The owner's close codes a relayed websocket is closed with as they are; any other end of the
owner's side (it went away, it died) is told as :data:`CLOSE_TRY_AGAIN`."""
RELAY_TRIES = 3
"""How many owners a request is tried with when the owner cannot be reached."""
_TABLE_PATH = re.compile(r"^/(?:api/tables|ws/tables)/([A-Za-z0-9_-]{1,32})(?:/.*)?$")
_HOP_BY_HOP = frozenset(
    {
        b"host",
        b"connection",
        b"keep-alive",
        b"transfer-encoding",
        b"upgrade",
        b"content-length",
        b"te",
        b"trailer",
    }
)


def table_of(path: str) -> str | None:
    """The table a request path is about, if it is a table's websocket or REST route.

    >>> table_of("/ws/tables/Ab3_xY-9zQ"), table_of("/api/tables/Ab3/seats/1/claim")
    ('Ab3_xY-9zQ', 'Ab3')
    >>> table_of("/api/tables"), table_of("/t/Ab3"), table_of("/api/tables/a.b")
    (None, None, None)
    """
    match = _TABLE_PATH.match(path)
    return None if match is None else match.group(1)


def is_relayed(scope: Scope, secret: str | None) -> bool:
    """Whether the request carries the cluster's secret (a relay from another worker)."""
    given = Headers(scope=scope).get(RELAY_HEADER)
    return bool(secret and given and hmac.compare_digest(given.encode(), secret.encode()))


def on_internal_address(scope: Scope, internal_address: str | None) -> bool:
    """Whether the request came in on this worker's internal address."""
    server = scope.get("server")
    if internal_address is None or not server:
        return False
    return str(server[1]) == internal_address.rpartition(":")[2]


class TableRelay:
    """The ASGI middleware that relays the requests for tables owned by other workers, and
    refuses anyone without the secret on the internal address."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._client: httpx.AsyncClient | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "lifespan":
            await self.app(scope, receive, self._closing_at_shutdown(send))
            return
        manager: TableManager | None = (
            getattr(scope["app"].state, "manager", None) if "app" in scope else None
        )
        if kind not in ("http", "websocket") or manager is None or not manager.ownership.shared:
            await self.app(scope, receive, send)
            return
        secret = manager.ownership.secret
        relayed = is_relayed(scope, secret)
        if not relayed and on_internal_address(scope, manager.config.internal_address):
            await _refuse(scope, receive, send)
            return
        table_id = table_of(scope["path"])
        if relayed or table_id is None:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        if kind == "websocket" and not origin_allowed(
            headers.get("origin"), headers.get("host"), manager.config.allowed_origins
        ):
            await self.app(scope, receive, send)  # the route refuses it
            return
        body = await _read_body(receive) if kind == "http" else b""
        if body is None:
            return  # the client went away
        for attempt in range(RELAY_TRIES):
            address = await _owner_elsewhere(manager, table_id)
            if address is None or manager.ownership.secret is None:
                break
            if kind == "http":
                reached = await self._forward(scope, send, body, address, manager.ownership.secret)
            else:
                reached = await _pipe(scope, receive, send, address, manager.ownership.secret)
            if reached:
                return
            log.warning("the owner of table %s at %s cannot be reached; trying again", table_id, address)
            await asyncio.sleep(0.2 * (attempt + 1))
        await self.app(scope, _replay(body, receive) if kind == "http" else receive, send)

    # ------------------------------------------------------------------ REST
    def _http(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=httpx.Timeout(30.0, connect=3.0), trust_env=False)
        return self._client

    async def _forward(self, scope: Scope, send: Send, body: bytes, address: str, secret: str) -> bool:
        """Forward a REST request to the owner and its answer back; ``False`` if the owner could
        not be reached (nothing was sent to it)."""
        headers = [(k, v) for k, v in scope["headers"] if k.lower() not in _HOP_BY_HOP]
        headers.append((RELAY_HEADER.encode(), secret.encode()))
        path = (scope.get("raw_path") or scope["path"].encode()).decode("latin-1")
        query = scope.get("query_string", b"").decode("latin-1")
        url = f"http://{address}{path}" + (f"?{query}" if query else "")
        try:
            response = await self._http().request(scope["method"], url, content=body, headers=headers)
        except (httpx.ConnectError, httpx.ConnectTimeout):
            return False
        except httpx.HTTPError as exc:
            log.warning("relaying %s %s to %s failed: %s", scope["method"], path, address, exc)
            await _json(send, 503, {"error": "the table's server did not answer: try again", "field": None})
            return True
        answer = [
            (k.encode("latin-1"), v.encode("latin-1"))
            for k, v in response.headers.multi_items()
            if k.lower().encode() not in _HOP_BY_HOP and k.lower() != "content-encoding"
        ]
        answer.append((b"content-length", str(len(response.content)).encode()))
        await send({"type": "http.response.start", "status": response.status_code, "headers": answer})
        await send({"type": "http.response.body", "body": response.content})
        return True

    def _closing_at_shutdown(self, send: Send) -> Send:
        async def sending(message: Message) -> None:
            if message["type"] == "lifespan.shutdown.complete" and self._client is not None:
                client, self._client = self._client, None
                await client.aclose()
            await send(message)

        return sending


# ---------------------------------------------------------------------- websockets
async def _pipe(scope: Scope, receive: Receive, send: Send, address: str, secret: str) -> bool:
    """Pipe a table's websocket to the owner's, both ways, until either side ends; ``False`` if
    the owner could not be reached (the client is not answered yet)."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidHandshake

    path = (scope.get("raw_path") or scope["path"].encode()).decode("latin-1")
    try:
        upstream = await connect(
            f"ws://{address}{path}",
            additional_headers={RELAY_HEADER: secret},
            proxy=None,
            compression=None,
            open_timeout=5,
            # a dead owner's connections are closed by its kernel at once; the pings only find an
            # owner cut off by the network, and cost CPU on every relayed connection (1,000s)
            ping_interval=20,
            ping_timeout=20,
            close_timeout=2,
            max_size=8 << 20,
        )
    except (OSError, TimeoutError, InvalidHandshake):
        return False
    websocket = WebSocket(scope, receive, send)
    try:
        await websocket.accept()
    except Exception:
        await upstream.close()
        return True
    to_owner = asyncio.create_task(_client_to_owner(websocket, upstream))
    to_client = asyncio.create_task(_owner_to_client(websocket, upstream))
    try:
        done, _ = await asyncio.wait({to_owner, to_client}, return_when=asyncio.FIRST_COMPLETED)
        if to_client in done:  # the owner ended: the client hears why, or "try again"
            code = to_client.result() if not to_client.exception() else CLOSE_TRY_AGAIN
            with contextlib.suppress(Exception):
                await asyncio.wait_for(websocket.close(code=code), 5.0)
    finally:
        for task in (to_owner, to_client):
            task.cancel()
        for task in (to_owner, to_client):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await asyncio.wait_for(upstream.close(), 3.0)
    return True


async def _client_to_owner(websocket: WebSocket, upstream: ClientConnection) -> None:
    """The client's messages, as they are, to the owner, until the client leaves."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        if message.get("text") is not None:
            await upstream.send(message["text"])
        elif message.get("bytes") is not None:
            await upstream.send(message["bytes"])


async def _owner_to_client(websocket: WebSocket, upstream: ClientConnection) -> int:
    """The owner's messages to the client, until the owner ends; the code to close the client with."""
    from websockets.exceptions import ConnectionClosed

    with contextlib.suppress(ConnectionClosed):
        async for message in upstream:
            if isinstance(message, str):
                await websocket.send_text(message)
            else:
                await websocket.send_bytes(message)
    code = upstream.close_code
    return code if code in PASSED_CLOSE_CODES else CLOSE_TRY_AGAIN


# ---------------------------------------------------------------------- helpers
async def _owner_elsewhere(manager: TableManager, table_id: str) -> str | None:
    """The owner's address when another worker owns the table; ``None`` when this worker serves
    it (it owns it, or took it) or the route must answer (no such table, no database)."""
    from atout.server.manager import Elsewhere
    from atout.server.tables import TableError

    try:
        await manager.get(table_id)
    except Elsewhere as there:
        return there.address
    except TableError:
        return None
    return None


async def _read_body(receive: Receive) -> bytes | None:
    """A request's whole body; ``None`` if the client went away."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the body already read to the app, then waits for the client."""
    delivered = False

    async def replay() -> Message:
        nonlocal delivered
        if delivered:
            return await receive()
        delivered = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


async def _json(send: Send, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body, separators=(",", ":")).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


async def _refuse(scope: Scope, receive: Receive, send: Send) -> None:
    """The internal address without the secret: 403, or a websocket handshake refused."""
    if scope["type"] == "websocket":
        if (await receive())["type"] == "websocket.connect":
            await send({"type": "websocket.close", "code": 4403})
        return
    await _json(send, 403, {"error": "this address is for the server's own workers", "field": None})


__all__ = ["RELAY_HEADER", "TableRelay", "is_relayed", "on_internal_address", "table_of"]

"""The websocket protocol of a table (``/ws/tables/{id}``, docs/server.md).

Every client message is checked before anything happens: a text frame of JSON, an object with a
known ``type`` and well-typed fields, else an ``error`` (``bad_message``) and nothing changes.
The first message must be ``hello``. A sender task writes the connection's bounded outbox in
order, so that a slow browser never holds a table's lock; a client that does not read, or that
sends far more than a page does, is closed (:mod:`atout.server.connection`). A table this worker
cannot serve now (its database unreachable, the table changing hands) is answered ``server_error``
and closed with 1012, "try again": the page reconnects (:mod:`atout.server.relay`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from atout import jsonio
from atout.server.connection import Connection
from atout.server.manager import CLOSE_TRY_AGAIN, TableManager
from atout.server.metrics import Metrics
from atout.server.origins import origin_allowed
from atout.server.streams import encode
from atout.server.tables import MessageError, Table, TableError

log = logging.getLogger(__name__)
router = APIRouter()

CLOSE_NO_TABLE = 4404
"""Close code: there is no table of that id."""
MAX_MESSAGE = 4096
"""The longest client message read (a client speaks in words)."""
MAX_DEPTH = 16
"""The deepest nesting of a client message read (its fields are words and numbers)."""


def parse_message(text: str | None) -> dict[str, Any]:
    """A client message as an object with a ``type``, or :class:`MessageError` (``bad_message``).

    >>> parse_message('{"type": "ping"}')
    {'type': 'ping'}
    >>> try:
    ...     parse_message('{"type": "action", "seq": "3", "action": "garde"}')
    ... except MessageError as error:
    ...     print(error.code, error.message)
    bad_message seq must be an integer
    >>> try:
    ...     parse_message('{"type": "ping", "x": ' + "[" * 2000 + "]" * 2000 + "}")
    ... except MessageError as error:
    ...     print(error.code, error.message)
    bad_message nested deeper than 16 levels
    """
    if text is None:
        raise MessageError("bad_message", "send text frames of JSON")
    if len(text) > MAX_MESSAGE:
        raise MessageError("bad_message", f"message longer than {MAX_MESSAGE} characters")
    try:
        message = jsonio.loads(text, max_depth=MAX_DEPTH)
    except jsonio.JsonError as exc:
        raise MessageError("bad_message", str(exc)) from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise MessageError("bad_message", 'a message is an object with a "type"')
    kind = message["type"]
    if kind == "hello":
        token, last_seq = message.get("token"), message.get("last_seq")
        if token is not None and not isinstance(token, str):
            raise MessageError("bad_message", "token must be a string or null")
        if last_seq is not None and (not isinstance(last_seq, int) or isinstance(last_seq, bool)):
            raise MessageError("bad_message", "last_seq must be an integer or null")
    elif kind == "action":
        seq, action = message.get("seq"), message.get("action")
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise MessageError("bad_message", "seq must be an integer")
        if not isinstance(action, str) or not action.strip():
            raise MessageError("bad_message", "action must be the action's words, e.g. 'play KS'")
    elif kind not in ("resync", "ping", "hint"):
        raise MessageError(
            "bad_message", f"unknown message type {kind!r}; types: hello, action, resync, ping, hint"
        )
    return message


CLOSE_TIMEOUT = 5.0
"""Seconds the closing handshake may take before the connection is dropped."""


async def _send_loop(websocket: WebSocket, conn: Connection, metrics: Metrics | None) -> None:
    """Write the outbox in order (counted in the metrics); close the websocket with the
    connection's code when told to."""
    while True:
        text = await conn.next_text()
        if text is None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(websocket.close(code=conn.close_code or 1000), CLOSE_TIMEOUT)
            return
        await websocket.send_text(text)
        if metrics is not None:
            metrics.sent(len(text) if text.isascii() else len(text.encode()))


async def _receive_loop(websocket: WebSocket, table: Table, conn: Connection) -> bool:
    """Read and answer the client's messages until it leaves or is closed; whether it said
    hello. A request handed to the table runs to its end in the table's own task: a connection
    closed in the middle of one never cuts it."""
    greeted = False
    while True:
        received = await websocket.receive()
        if received["type"] == "websocket.disconnect" or not conn.allow_message():
            return greeted
        try:
            message = parse_message(received.get("text"))
            kind = message["type"]
            if kind == "hello":
                if greeted:
                    raise MessageError("bad_message", "hello was already said")
                greeted = True
                await table.hello(conn, message.get("token"), message.get("last_seq"))
            elif not greeted:
                raise MessageError("bad_message", 'say {"type": "hello", "token": ...} first')
            elif kind == "ping":
                table.pong(conn)
            elif kind == "resync":
                await table.resync(conn)
            elif kind == "hint":
                await table.hint(conn)
            else:
                await table.act(conn, message["seq"], message["action"])
        except MessageError as error:
            conn.send_text(encode(table.error_message(conn, error)))


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """One client at one table: ``hello`` first, then actions, resyncs and pings."""
    manager: TableManager = websocket.app.state.manager
    origin, host = websocket.headers.get("origin"), websocket.headers.get("host")
    if not origin_allowed(origin, host, manager.config.allowed_origins):
        await websocket.close(code=4403)  # before accept: the handshake is answered 403
        return
    await websocket.accept()
    async with contextlib.AsyncExitStack() as stack:
        try:
            table = await stack.enter_async_context(manager.use(table_id))
        except TableError as exc:
            missing = exc.status == 404
            code = "no_table" if missing else "server_error"
            refusal = {"type": "error", "seq": None, "code": code, "message": exc.message, "rule": None}
            with contextlib.suppress(Exception):
                await websocket.send_text(encode(refusal))
                await websocket.close(code=CLOSE_NO_TABLE if missing else CLOSE_TRY_AGAIN)
            return
        conn = Connection(manager.config.limits)
        sender = asyncio.create_task(_send_loop(websocket, conn, manager.metrics))
        receiver = asyncio.create_task(_receive_loop(websocket, table, conn))
        try:
            done, _ = await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
            if receiver in done and conn.closed:  # shut out by the server: the sender says why
                await asyncio.wait({sender}, timeout=CLOSE_TIMEOUT + 1.0)
        finally:
            for task in (receiver, sender):
                task.cancel()
            for task in (receiver, sender):
                with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, Exception):
                    await task
            await table.leave(conn)

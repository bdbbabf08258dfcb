"""The websocket protocol of a table (``/ws/tables/{id}``, docs/server.md).

Every client message is checked before anything happens: a text frame of JSON, an object with a
known ``type`` and well-typed fields, else an ``error`` (``bad_message``) and nothing changes.
The first message must be ``hello``. A sender task writes the connection's outbox in order,
so that a slow browser never holds a table's lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from atout import jsonio
from atout.server.origins import origin_allowed
from atout.server.tables import Connection, MessageError, Table, TableError, TableManager

log = logging.getLogger(__name__)
router = APIRouter()

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
    elif kind not in ("resync", "ping"):
        raise MessageError(
            "bad_message", f"unknown message type {kind!r}; types: hello, action, resync, ping"
        )
    return message


async def _sender(websocket: WebSocket, conn: Connection) -> None:
    while True:
        text = await conn.outbox.get()
        if text is None:
            await websocket.close()
            return
        await websocket.send_text(text)


def _error(table: Table, error: MessageError) -> dict[str, Any]:
    return table.error_message(error)


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """One client at one table: ``hello`` first, then actions, resyncs and pings."""
    manager: TableManager = websocket.app.state.manager
    origin, host = websocket.headers.get("origin"), websocket.headers.get("host")
    if not origin_allowed(origin, host, manager.config.allowed_origins):
        await websocket.close(code=4403)  # before accept: the handshake is answered 403
        return
    await websocket.accept()
    try:
        table = await manager.get(table_id)
    except TableError as exc:
        await websocket.send_text(
            json.dumps(
                {"type": "error", "seq": None, "code": "bad_message", "message": exc.message, "rule": None}
            )
        )
        await websocket.close(code=4404)
        return
    conn = Connection()
    sender = asyncio.create_task(_sender(websocket, conn))
    greeted = False
    try:
        while True:
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            try:
                message = parse_message(received.get("text"))
                kind = message["type"]
                if kind == "hello":
                    if greeted:
                        raise MessageError("bad_message", "hello was already said")
                    await table.hello(conn, message.get("token"), message.get("last_seq"))
                    greeted = True
                elif not greeted:
                    raise MessageError("bad_message", 'say {"type": "hello", "token": ...} first')
                elif kind == "ping":
                    conn.send({"type": "pong", "seq": table.seq})
                elif kind == "resync":
                    await table.resync(conn)
                else:
                    await table.act(conn, message["seq"], message["action"])
            except MessageError as error:
                conn.send(_error(table, error))
    except WebSocketDisconnect:
        pass
    finally:
        if greeted:
            await table.leave(conn)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender

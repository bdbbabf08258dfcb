"""Clients that misbehave, each run as a process of its own (``python attackers.py MODE ...``):

* ``flood PORT TABLE COUNT``: a raw websocket that sends COUNT small messages as fast as the
  server takes them, then one every 10 ms, and never reads a byte; prints ``closed after N``
  once the server has shut it out (or ``sent N`` if it did not within 30 s);
* ``watchers PORT TABLE COUNT``: COUNT websockets that say hello as watchers and read their first
  message, then print ``ready`` and wait to be killed (their sockets all close at once).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
import sys
import time


def _handshake(port: int, table: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET /ws/tables/{table} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    sock.sendall(request.encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(1)
        if not chunk:
            raise ConnectionError("no handshake")
        answer += chunk
    if b" 101 " not in answer.split(b"\r\n", 1)[0]:
        raise ConnectionError(answer.decode(errors="replace"))
    return sock


def _frame(text: str) -> bytes:
    payload = text.encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    assert len(payload) < 126
    return struct.pack("!BB", 0x81, 0x80 | len(payload)) + mask + masked


def flood(port: int, table: str, count: int) -> None:
    """Send ``count`` messages and never read."""
    sock = _handshake(port, table)
    sock.settimeout(30)
    frame = _frame(json.dumps({"type": "ping"}))
    sent = 0
    started = time.monotonic()
    try:
        while sent < count:
            sock.sendall(frame)
            sent += 1
        while time.monotonic() < started + 30:  # then on, slowly, until the server shuts it out
            time.sleep(0.01)
            sock.sendall(frame)
            sent += 1
    except OSError:
        print(f"closed after {sent} in {time.monotonic() - started:.2f} s", flush=True)
        return
    finally:
        sock.close()
    print(f"sent {sent}", flush=True)


async def _watchers(port: int, table: str, count: int) -> None:
    from websockets.asyncio.client import connect

    async def one() -> object:
        ws = await connect(f"ws://127.0.0.1:{port}/ws/tables/{table}", open_timeout=60, max_queue=4)
        await ws.send(json.dumps({"type": "hello", "token": None, "last_seq": None}))
        await ws.recv()
        return ws

    sockets = []
    for start in range(0, count, 50):
        sockets += await asyncio.gather(*(one() for _ in range(start, min(count, start + 50))))
    print("ready", flush=True)
    await asyncio.sleep(3600)


def main() -> None:
    mode, port, table, count = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    if mode == "flood":
        flood(port, table, count)
    elif mode == "watchers":
        asyncio.run(_watchers(port, table, count))
    else:
        raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    main()

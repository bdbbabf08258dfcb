"""How long a new user waits for the computer players: a real ``atout serve`` just started, a table
of one person against three expert bots created as soon as the server answers, a bot to move first.

Run from a clone with ``.venv/bin/python bench/first_move.py [--bot expert:fast] [--delay S]
[--cold] [--json]``. It starts ``atout serve`` on a free port with a fresh SQLite file in a
temporary folder and a prepared first deal whose first player is a bot (seat 2 of 4: the
person holds seat 1), creates the table ``--delay`` seconds after the server answers (default 0,
the worst case), and prints, from the server's start and from the table's creation: when the
server answered, when the page was told the computer players are warm (the table's
``bots_warming`` flag, where the server sends it), the first bot move and the person's first
turn. ``--cold`` first deletes numba's on-disk cache of the installed package (the ``.nbi`` and
``.nbc`` files in its ``__pycache__`` folders, or in ``NUMBA_CACHE_DIR``), so that the bots
compile their kernels as on a clone whose set-up did not warm them (``atout warm-up``).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

import atout
from atout.games import new_deal
from atout.records import deal_to_record
from atout.rules import Rules

PERSON = 0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def numba_cache_files() -> list[Path]:
    """numba's cache files of the installed package (or of ``NUMBA_CACHE_DIR`` when set)."""
    root = Path(os.environ.get("NUMBA_CACHE_DIR") or Path(atout.__file__).parent)
    return [p for p in root.rglob("*") if p.suffix in (".nbi", ".nbc")]


def _first_deal(folder: Path) -> Path:
    """A deal record (docs/records.md) whose first player is a bot, not the person."""
    dealer = next(d for d in range(4) if new_deal(Rules(), dealer=d, rng=1).current_player != PERSON)
    path = folder / "deal.json"
    path.write_text(
        json.dumps(deal_to_record(new_deal(Rules(), dealer=dealer, rng=1), 1)) + "\n", encoding="utf-8"
    )
    return path


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=120) as answer:
        data: dict[str, Any] = json.load(answer)
        return data


def _answering(base: str, server: subprocess.Popen[bytes], limit: float = 120.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server stopped (exit {server.returncode})")
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=1) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"the server did not answer within {limit:.0f} s")


def measure(bot: str, delay: float, limit: float) -> dict[str, Any]:
    """Start a server, create the table, watch it until the person's first turn: the figures, in
    seconds from the server's start (``*_s``) and from the table's creation (``*_after_table_s``)."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    figures: dict[str, Any] = {"bot": bot, "delay_s": delay}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        command = [
            sys.executable,
            "-m",
            "atout",
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{folder / 'bench.sqlite3'}",
            "--deals",
            str(_first_deal(folder)),
        ]
        start = time.perf_counter()
        server = subprocess.Popen(command, stderr=subprocess.DEVNULL)
        try:
            _answering(base, server)
            figures["server_answers_s"] = round(time.perf_counter() - start, 2)
            time.sleep(delay)
            seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": bot}] * 3
            created_at = time.perf_counter()
            created = _post(f"{base}/api/tables", {"players": 4, "seats": seats, "sit": PERSON})
            figures["table_created_s"] = round(created_at - start, 2)
            _watch(port, created, start, created_at, figures, limit)
        finally:
            server.terminate()
            server.wait(30)
    return figures


def _watch(
    port: int, created: dict[str, Any], start: float, created_at: float, figures: dict[str, Any], limit: float
) -> None:
    """Follow the person's websocket until their first turn, noting the times."""

    def note(name: str) -> None:
        if name not in figures:
            now = time.perf_counter()
            figures[f"{name}_s"] = round(now - start, 2)
            figures[f"{name}_after_table_s"] = round(now - created_at, 2)

    deadline = time.monotonic() + limit
    with connect(f"ws://127.0.0.1:{port}/ws/tables/{created['table_id']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": created["token"], "last_seq": None}))
        while time.monotonic() < deadline:
            message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            table = message.get("table")
            if table is not None and "bots_warming" in table:
                figures.setdefault("warming_told", bool(table["bots_warming"]))
                if not table["bots_warming"]:
                    note("bots_warm")
            if message["type"] == "update":
                note("first_bot_move")
            view = message.get("view")
            if view and view["current_player"] == PERSON and view["legal_actions"]:
                note("person_turn")
            if "person_turn_s" in figures and ("bots_warm_s" in figures or "warming_told" not in figures):
                return
    figures["timed_out"] = True


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--bot", default="expert:fast", help="the three bots (default expert:fast)")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds between the answer and the table")
    parser.add_argument("--cold", action="store_true", help="delete numba's cache first")
    parser.add_argument("--limit", type=float, default=300.0, help="seconds to wait at most")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    deleted = 0
    if args.cold:
        for path in numba_cache_files():
            path.unlink()
            deleted += 1
    figures = measure(args.bot, args.delay, args.limit)
    figures["cache_files_deleted"] = deleted
    figures["cache_files_after"] = len(numba_cache_files())
    if args.json:
        print(json.dumps(figures))
        return
    for name, value in figures.items():
        print(f"{name:32} {value}")


if __name__ == "__main__":
    main()

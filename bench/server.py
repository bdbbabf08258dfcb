"""Speed of the web server: a real ``atout serve`` on a fresh SQLite file (or ``--db``), tables of
one person against three bots (``rules`` by default, no pause) played through websockets, several at once.

Run with ``.venv/bin/python bench/server.py [--tables 4] [--deals 2] [--db URL]``. It reports the
time from a person's action to their own update (every action is committed before it is told),
the time between successive bot moves (a decision in the process pool, committed, told), and the
deals played per second over all tables.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _play(
    base: str, port: int, deals: int, seed: int, bot: str, mine: list[float], bots: list[float]
) -> None:
    """One table: create it, play ``deals`` deals as seat 0, note the times."""
    rng = random.Random(seed)
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": bot}] * 3
    created = httpx.post(
        f"{base}/api/tables", json={"players": 4, "seats": seats, "sit": 0}, timeout=30
    ).json()
    token = created["token"]
    with connect(f"ws://127.0.0.1:{port}/ws/tables/{created['table_id']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token, "last_seq": None}))
        for deal_no in range(deals):
            if deal_no:
                httpx.post(
                    f"{base}/api/tables/{created['table_id']}/next",
                    headers={"Authorization": f"Bearer {token}"},
                    timeout=30,
                )
            sent_at: float | None = None
            last = time.perf_counter()
            while True:
                message = json.loads(ws.recv(timeout=60))
                now = time.perf_counter()
                if message["type"] == "deal_over":
                    break
                if message["type"] == "update":
                    if sent_at is not None:
                        mine.append(now - sent_at)
                        sent_at = None
                    else:
                        bots.append(now - last)
                    last = now
                view = message.get("view")
                if message["type"] in ("update", "state") and view and view["current_player"] == 0:
                    words = view["legal_actions"]
                    chosen = rng.choice([w for w in words if w != "pass"] or words)
                    sent_at = time.perf_counter()
                    ws.send(json.dumps({"type": "action", "seq": message["seq"], "action": chosen}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=4, help="tables played at once")
    parser.add_argument("--deals", type=int, default=2, help="deals per table")
    parser.add_argument(
        "--bot", default="rules", help="the three bots: random, rules, expert:fast, expert:strong"
    )
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        command = [
            sys.executable,
            "-m",
            "atout",
            "serve",
            "--port",
            str(port),
            "--db",
            db,
            "--bot-pause",
            "0",
        ]
        server = subprocess.Popen(command)
        try:
            for _ in range(300):
                try:
                    if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            mine: list[float] = []
            bots: list[float] = []
            started = time.perf_counter()
            threads = [
                threading.Thread(target=_play, args=(base, port, args.deals, seed, args.bot, mine, bots))
                for seed in range(args.tables)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed = time.perf_counter() - started
        finally:
            server.terminate()
            server.wait(10)
    result: dict[str, Any] = {
        "tables": args.tables,
        "bot": args.bot,
        "deals": args.tables * args.deals,
        "seconds": round(elapsed, 2),
        "deals_per_second": round(args.tables * args.deals / elapsed, 2),
        "own_update_ms": _stats(mine),
        "bot_move_ms": _stats(bots),
    }
    print(json.dumps(result, indent=1))


def _stats(times: list[float]) -> dict[str, float]:
    if not times:
        return {}
    ordered = sorted(times)
    return {
        "n": len(ordered),
        "median": round(statistics.median(ordered) * 1000, 1),
        "p95": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 1),
        "max": round(ordered[-1] * 1000, 1),
    }


if __name__ == "__main__":
    main()

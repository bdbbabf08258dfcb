"""How soon a finished deal's analysis is there, and what a replay costs: a real ``atout serve`` on a
fresh SQLite file (or ``--db``), deals of one person against three ``rules`` bots played one after
the other through a websocket. For each deal: the seconds from its ``deal_over`` to its analysis
answered 200 (asked every 0.1 s, as soon as the deal is over: the server starts it at the end),
and the time and size of ``GET /api/tables/{id}/deals/{n}`` (the replay: record and every step).

Run with ``.venv/bin/python bench/study.py [--deals 5] [--db URL]``. The first deal of a server
also pays for starting the analysis process and loading the solver.
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
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from atout.engine.wire import apply_view_delta


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _play(ws: ClientConnection, rng: random.Random) -> None:
    """Seat 0's decisions (never passing when another is legal) until the deal is over; its view
    kept from each ``state`` and each ``update``'s changes."""
    view: dict[str, Any] | None = None
    while True:
        message = json.loads(ws.recv(timeout=120))
        if message["type"] == "deal_over":
            return
        if message["type"] == "state":
            view = message.get("view")
        elif message["type"] == "update" and view is not None:
            view = apply_view_delta(view, message)
        else:
            continue
        if view is not None and view["current_player"] == 0 and view["legal_actions"]:
            words = view["legal_actions"]
            chosen = rng.choice([w for w in words if w != "pass"] or words)
            ws.send(json.dumps({"type": "action", "seq": message["seq"], "action": chosen}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=5, help="deals, one table each, one after the other")
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    ready: list[float] = []
    replay_ms: list[float] = []
    replay_kb: list[float] = []
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
                    if httpx.get(f"{base}/healthz", timeout=1).json().get("bots_warming") is False:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)
            http = httpx.Client(base_url=base, timeout=60)
            for seed in range(args.deals):
                seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "rules"}] * 3
                created = http.post("/api/tables", json={"players": 4, "seats": seats, "sit": 0}).json()
                table = created["table_id"]
                with connect(f"ws://127.0.0.1:{port}/ws/tables/{table}") as ws:
                    ws.send(json.dumps({"type": "hello", "token": created["token"], "last_seq": None}))
                    _play(ws, random.Random(seed))
                ended = time.perf_counter()
                while (answer := http.get(f"/api/tables/{table}/deals/1/analysis")).status_code == 202:
                    time.sleep(0.1)
                ready.append(time.perf_counter() - ended)
                began = time.perf_counter()
                replayed = http.get(f"/api/tables/{table}/deals/1")
                replay_ms.append((time.perf_counter() - began) * 1000)
                replay_kb.append(len(replayed.content) / 1024)
                body = answer.json()
                print(
                    f"deal {seed + 1}: analysis {answer.status_code} {ready[-1]:.2f} s after the end"
                    f" (from trick {body.get('analysis', {}).get('from_trick')}),"
                    f" replay {replay_ms[-1]:.0f} ms, {replay_kb[-1]:.1f} KB",
                    flush=True,
                )
        finally:
            server.terminate()
            server.wait(10)
    later = ready[1:] or ready
    print(
        json.dumps(
            {
                "deals": args.deals,
                "first_analysis_ready_s": round(ready[0], 2),
                "analysis_ready_s": {
                    "median": round(statistics.median(later), 2),
                    "max": round(max(later), 2),
                },
                "replay_ms_median": round(statistics.median(replay_ms), 1),
                "replay_kb_median": round(statistics.median(replay_kb), 1),
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()

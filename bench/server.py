"""Speed and memory of the web server: a real ``atout serve`` on a fresh SQLite file (or ``--db``),
tables of one person against three bots (``rules`` by default, no pause) played through
websockets, several at once.

Run with ``.venv/bin/python bench/server.py [--tables 4] [--deals 2] [--db URL] [--pace S]
[--src DIR]``. It reports the time from a person's action to their own update (every action is
committed before it is told), the time between successive bot moves (a decision in the process
pool, committed, told), the deals played per second over all tables, and the server's memory:
its resident size before any table and once every table has played its deals and is still live
(its person connected), the difference per live table, and the garbage collector's full
collections while the tables played and their longest pause (noted by a ``sitecustomize`` probe
put on the server's path, so that any version of the server is measured alike). ``--pace S`` makes the person wait
``S`` seconds before each move (a person's pace); ``--src DIR`` runs the server from another
tree's sources (``DIR`` is put first on ``PYTHONPATH``), to compare two versions in one run.
"""

from __future__ import annotations

import argparse
import json
import os
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
from websockets.sync.client import ClientConnection, connect


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Table:
    """One table played by one person: the times it measured."""

    def __init__(self, base: str, port: int, bot: str, seed: int, pace: float) -> None:
        self.base, self.port, self.bot, self.pace = base, port, bot, pace
        self.rng = random.Random(seed)
        self.mine: list[float] = []
        self.bots: list[float] = []
        self.error: str | None = None

    def play(self, deals: int, played: threading.Barrier, measured: threading.Event) -> None:
        """Create the table, play ``deals`` deals as seat 0, wait with the socket open until the
        memory is measured."""
        try:
            seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": self.bot}] * 3
            created = httpx.post(
                f"{self.base}/api/tables", json={"players": 4, "seats": seats, "sit": 0}, timeout=60
            ).json()
            with connect(f"ws://127.0.0.1:{self.port}/ws/tables/{created['table_id']}") as ws:
                ws.send(json.dumps({"type": "hello", "token": created["token"], "last_seq": None}))
                for deal_no in range(deals):
                    if deal_no:
                        httpx.post(
                            f"{self.base}/api/tables/{created['table_id']}/next",
                            headers={"Authorization": f"Bearer {created['token']}"},
                            timeout=60,
                        )
                    self._deal(ws)
                played.wait()
                measured.wait()
        except Exception as exc:  # reported, and the barrier released for the others
            self.error = repr(exc)
            played.abort()

    def _deal(self, ws: ClientConnection) -> None:
        sent_at: float | None = None
        last = time.perf_counter()
        while True:
            message = json.loads(ws.recv(timeout=120))
            now = time.perf_counter()
            if message["type"] == "deal_over":
                return
            if message["type"] == "update":
                if sent_at is not None:
                    self.mine.append(now - sent_at)
                    sent_at = None
                else:
                    self.bots.append(now - last)
                last = now
            view = message.get("view")
            if message["type"] in ("update", "state") and view and view["current_player"] == 0:
                words = view["legal_actions"]
                if not words:
                    continue
                chosen = self.rng.choice([w for w in words if w != "pass"] or words)
                if self.pace:
                    time.sleep(self.pace)
                sent_at = time.perf_counter()
                ws.send(json.dumps({"type": "action", "seq": message["seq"], "action": chosen}))


_GC_PROBE = """
import gc, os, time
_log = os.environ.get("ATOUT_BENCH_GC_LOG")
if _log:
    _state = {"start": None, "pauses": []}
    def _probe(phase, info):
        if info.get("generation") != 2:
            return
        if phase == "start":
            _state["start"] = time.perf_counter()
        elif _state["start"] is not None:
            pause = (time.perf_counter() - _state["start"]) * 1000
            _state["pauses"].append(f"{time.time():.3f}:{pause:.2f}")
            _state["start"] = None
            with open(_log + "." + str(os.getpid()), "w") as out:
                out.write(" ".join(_state["pauses"]))
    gc.callbacks.append(_probe)
"""
"""A ``sitecustomize`` put first on the server's path: it notes every full collection's pause in
a file per process, whatever the server's own code (so that two versions are measured alike)."""


def _gc_pauses(log: Path, pid: int, since: float) -> dict[str, float]:
    """The server's full collections after ``since`` (a wall-clock time): the start's are its own."""
    path = Path(f"{log}.{pid}")
    noted = [item.split(":") for item in path.read_text().split()] if path.exists() else []
    pauses = [float(pause) for at, pause in noted if float(at) >= since]
    if not pauses:
        return {"full_collections": 0}
    return {
        "full_collections": len(pauses),
        "longest_ms": round(max(pauses), 1),
        "median_ms": round(statistics.median(pauses), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=4, help="tables played at once")
    parser.add_argument("--deals", type=int, default=2, help="deals per table")
    parser.add_argument(
        "--bot", default="rules", help="the three bots: random, rules, expert:fast, expert:strong"
    )
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--pace", type=float, default=0.0, help="seconds the person waits before a move")
    parser.add_argument("--src", default=None, help="run the server from this source tree")
    args = parser.parse_args()
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe"
        probe.mkdir()
        (probe / "sitecustomize.py").write_text(_GC_PROBE)
        paths = [str(probe), str(Path(args.src).resolve()) if args.src else "", env.get("PYTHONPATH", "")]
        env["PYTHONPATH"] = os.pathsep.join(filter(None, paths))
        gc_log = Path(tmp) / "gc"
        env["ATOUT_BENCH_GC_LOG"] = str(gc_log)
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
        server = subprocess.Popen(command, env=env)
        try:
            for _ in range(300):
                try:
                    if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            time.sleep(1.0)
            ready = time.time()
            before = _rss_mb(server.pid)
            tables = [Table(base, port, args.bot, seed, args.pace) for seed in range(args.tables)]
            played = threading.Barrier(args.tables + 1)
            measured = threading.Event()
            threads = [threading.Thread(target=t.play, args=(args.deals, played, measured)) for t in tables]
            started = time.perf_counter()
            for thread in threads:
                thread.start()
            played.wait()
            elapsed = time.perf_counter() - started
            time.sleep(1.0)
            live = _rss_mb(server.pid)
            pauses = _gc_pauses(gc_log, server.pid, ready)
            measured.set()
            for thread in threads:
                thread.join()
        finally:
            server.terminate()
            server.wait(10)
    errors = [t.error for t in tables if t.error]
    mine = [x for t in tables for x in t.mine]
    bots = [x for t in tables for x in t.bots]
    result: dict[str, Any] = {
        "tables": args.tables,
        "bot": args.bot,
        "deals": args.tables * args.deals,
        "pace_s": args.pace,
        "seconds": round(elapsed, 2),
        "deals_per_second": round(args.tables * args.deals / elapsed, 2),
        "own_update_ms": _stats(mine),
        "bot_move_ms": _stats(bots),
        "server_mb_before": round(before, 1),
        "server_mb_live": round(live, 1),
        "mb_per_live_table": round((live - before) / args.tables, 2),
        "gc_full_collections": pauses,
        "errors": errors,
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

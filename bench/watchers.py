"""What spectators cost a table: a real ``atout serve`` (fresh SQLite, bots without pause), one
table of a person and three ``rules`` bots, watched by N websockets that read everything.

Run with ``.venv/bin/python bench/watchers.py [--watchers 0,100,500] [--deals 2] [--src DIR]``.
For each N it connects the watchers, then the person plays ``--deals`` deals at once (the first
legal action but a pass each turn, the next deal asked as soon as one ends) and it reports: the seconds
the deals took, the server's CPU seconds over them (``/proc``) and per deal, the CPU microseconds per message
sent to a watcher (all of the server's CPU, divided),
the messages and kilobytes each watcher received, and the ``table`` messages the person got
while the watchers came (the count told at most once a second). ``--src DIR`` runs the server
from another tree's sources, to compare two versions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _cpu_seconds(pid: int) -> float:
    """User and system CPU of the server's process (its bot worker runs apart)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _watch(port: int, table: str, ready: asyncio.Event, deals: int, out: list[tuple[int, int]]) -> None:
    async with connect(f"ws://127.0.0.1:{port}/ws/tables/{table}", open_timeout=60, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": None, "last_seq": None}))
        count = size = over = 0
        await ws.recv()
        ready.set()
        while over < deals:
            text = await ws.recv()
            assert isinstance(text, str)
            count, size = count + 1, size + len(text.encode())
            over += '"type":"deal_over"' in text
        out.append((count, size))


async def _person(base: str, port: int, table: str, token: str, deals: int) -> tuple[int, int]:
    """Plays every deal (first legal action); the actions it made and the table messages it got."""
    actions = tables = done = 0
    async with connect(f"ws://127.0.0.1:{port}/ws/tables/{table}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "last_seq": None}))
        view: dict[str, Any] | None = None
        async with httpx.AsyncClient(base_url=base) as http:
            while done < deals:
                message = json.loads(await ws.recv())
                kind = message["type"]
                tables += kind == "table"
                if kind == "state":
                    view = message["view"]
                elif kind == "update" and view is not None:
                    view = {**view, **message["set"]}
                    for name, items in message["add"].items():
                        view[name] = view[name] + items
                elif kind == "deal_over":
                    done += 1
                    if done < deals:
                        await http.post(
                            f"/api/tables/{table}/next", json={}, headers={"Authorization": f"Bearer {token}"}
                        )
                    continue
                if (
                    kind in ("state", "update")
                    and view
                    and view["current_player"] == 0
                    and view["legal_actions"]
                ):
                    legal = view["legal_actions"]
                    chosen = next((a for a in legal if a != "pass"), legal[0])  # deals played, not thrown in
                    await ws.send(json.dumps({"type": "action", "seq": message["seq"], "action": chosen}))
                    actions += 1
    return actions, tables


async def _run(base: str, port: int, pid: int, watchers: int, deals: int) -> dict[str, float]:
    async with httpx.AsyncClient(base_url=base) as http:
        seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "rules"}] * 3
        created = (
            await http.post("/api/tables", json={"preset": "fft", "players": 4, "seats": seats, "sit": 0})
        ).json()
    table, token = created["table_id"], created["token"]
    seen: list[tuple[int, int]] = []
    readies = [asyncio.Event() for _ in range(watchers)]
    tasks = []
    for start in range(0, watchers, 50):  # in bursts, as the load test's attackers do
        tasks += [
            asyncio.create_task(_watch(port, table, readies[i], deals, seen))
            for i in range(start, min(watchers, start + 50))
        ]
        await asyncio.gather(*(r.wait() for r in readies[start : start + 50]))
    cpu, started = _cpu_seconds(pid), time.perf_counter()
    actions, told = await _person(base, port, table, token, deals)
    await asyncio.gather(*tasks)
    seconds, cpu = time.perf_counter() - started, _cpu_seconds(pid) - cpu
    log = httpx.get(f"{base}/api/tables/{table}").json()
    played = len(log["deals"])
    return {
        "seconds": seconds,
        "cpu": cpu,
        "deals": played,
        "person_actions": actions,
        "table_messages": told,
        "messages": sum(c for c, _ in seen) / max(1, len(seen)),
        "kb": sum(s for _, s in seen) / max(1, len(seen)) / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", default="0,100,500", help="watcher counts to measure, comma separated")
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--src", help="run the server from this tree's sources")
    args = parser.parse_args()
    env = dict(os.environ)
    if args.src:
        env["PYTHONPATH"] = str(Path(args.src).resolve()) + os.pathsep + env.get("PYTHONPATH", "")
    print(
        "watchers  deals  seconds  server CPU s  CPU ms/deal  msgs/watcher  KB/watcher  "
        "CPU us/message  person's table msgs"
    )
    for count in (int(n) for n in args.watchers.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            port = _free_port()
            base = f"http://127.0.0.1:{port}"
            command = [
                sys.executable,
                "-m",
                "atout",
                "serve",
                "--port",
                str(port),
                "--db",
                f"sqlite:///{tmp}/a.sqlite3",
            ]
            command += ["--bot-pause", "0", "--bot-workers", "1", "--no-warm-up"]
            server = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)
            try:
                for _ in range(600):
                    try:
                        if httpx.get(f"{base}/healthz", timeout=1).json().get("ok"):
                            break
                    except httpx.HTTPError:
                        pass
                    time.sleep(0.1)
                got = asyncio.run(_run(base, port, server.pid, count, args.deals))
            finally:
                server.terminate()
                server.wait(10)
        per_message = (
            f"{1e6 * got['cpu'] / (got['messages'] * count):.1f}" if count and got["messages"] else "-"
        )
        print(
            f"{count:8d}  {got['deals']:5.0f}  {got['seconds']:7.2f}  {got['cpu']:12.2f}  "
            f"{1000 * got['cpu'] / max(1, got['deals']):11.0f}  {got['messages']:12.0f}  {got['kb']:10.1f}  "
            f"{per_message:>14}  {got['table_messages']:19.0f}"
        )


if __name__ == "__main__":
    main()

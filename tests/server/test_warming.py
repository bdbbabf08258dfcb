"""The bot workers load their compiled kernels as the server starts, and the tables say so: the
table info's ``bots_warming`` is true until every worker is warm, then a new table info clears
it, the same for the seated person and a watcher (the flag is the pool's, nothing of a seat)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from atout.rules import Rules
from atout.server.botpool import BotPool
from atout.server.config import ServerConfig
from atout.server.connection import Connection
from atout.server.db import open_database
from atout.server.manager import TableManager
from atout.server.store import Store
from atout.server.tables import SeatRequest


async def _until_warm(conn: Connection, limit: float) -> list[dict[str, Any]]:
    """The messages of a connection up to the first table info that says the bots are warm."""
    got: list[dict[str, Any]] = []
    while True:
        text = await asyncio.wait_for(conn.next_text(), limit)
        assert text is not None, "the connection closed"
        got.append(json.loads(text))
        table = got[-1].get("table")
        if table is not None and table["bots_warming"] is False:
            return got


def test_tables_say_the_bots_are_warming_until_every_worker_is_warm(tmp_path: Path) -> None:
    async def run() -> tuple[list[dict[str, Any]], list[dict[str, Any]], bool]:
        engine = open_database(f"sqlite:///{tmp_path / 'db.sqlite3'}")
        pool = BotPool(1)
        pool.start()  # a new process imports the bots, then loads the kernels: seconds at least
        manager = TableManager(Store(engine), pool, ServerConfig("", bot_pause=0))
        try:
            assert pool.warming
            seats = [SeatRequest("human"), *[SeatRequest("bot", bot="expert:fast")] * 3]
            table, token = await manager.create("fft", Rules(players=4), seats, 0)
            person, watcher = Connection(), Connection()
            await table.hello(person, token, None)
            await table.hello(watcher, None, None)
            seen = await _until_warm(person, 300)
            watched = await _until_warm(watcher, 30)
            return seen, watched, pool.warming
        finally:
            await manager.close()
            pool.close()
            engine.dispose()

    seen, watched, warming_after = asyncio.run(run())
    assert warming_after is False
    for messages in (seen, watched):
        flags = [m["table"]["bots_warming"] for m in messages if m.get("table") is not None]
        assert messages[0]["type"] == "state" and flags[0] is True, "the first state says warming"
        assert flags[-1] is False and messages[-1]["type"] == "table", "a table info clears it"
        assert flags == [True] * (len(flags) - 1) + [False]
    # the flag is the table's: the person and the watcher are told the same infos
    infos = [[m["table"] for m in ms if m["type"] == "table"] for ms in (seen, watched)]
    assert infos[0][-1] == infos[1][-1]

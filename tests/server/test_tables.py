"""The table manager and the bot pool in-process: a bot decides from a view's wire JSON alone,
and the random and rules bots wait the configured pause so that people can follow."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from atout.engine.wire import apply_view_delta
from atout.games import new_deal
from atout.presets import rules_for
from atout.rules import Rules
from atout.server.botpool import BotPool, check_bot, decide
from atout.server.config import ServerConfig, default_db_path, sqlite_url
from atout.server.connection import Connection
from atout.server.db import open_database
from atout.server.manager import TableManager
from atout.server.store import Store
from atout.server.tables import MessageError, SeatRequest

RULES = [Rules(players=2), Rules(players=3), Rules(players=4), Rules(players=5), rules_for("tarock")]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.game}-{r.players}")
def test_a_bot_decides_from_the_wire_view_alone(rules: Rules) -> None:
    """The worker gets the view's JSON text and the bot's name, nothing of the deal, and answers
    a legal action's words, in every game."""
    deal = new_deal(rules, rng=3)
    for _ in range(12):
        if deal.is_over():  # every seat passed (a cancelled deal)
            break
        seat = deal.current_player
        text = json.dumps(deal.view(seat).to_json())
        for spec in ("random", "rules"):
            words = decide(spec, text)
            assert deal.parse(words) in deal.legal_actions()
        deal.apply(deal.parse(words))


def test_only_the_offered_bots_sit_at_a_table() -> None:
    """A table offers random, rules and the expert's two levels, nothing else (the cheat never)."""
    assert check_bot("expert:fast") == "expert:fast"
    with pytest.raises(ValueError, match="unknown bot 'cheat'"):
        check_bot("cheat")


def test_quick_bots_wait_the_pause(tmp_path: Path) -> None:
    """With ``bot_pause`` set, consecutive moves of the rules bots come at least that far apart
    (docs/server.md: people can follow); the moves are committed before they are told."""
    pause = 0.25

    async def run() -> list[float]:
        engine = open_database(f"sqlite:///{tmp_path / 'db.sqlite3'}")
        store = Store(engine)
        pool = BotPool(1)
        await asyncio.to_thread(decide, "rules", json.dumps(new_deal(Rules(), rng=1).view(1).to_json()))
        pool.start()
        await pool.ready()  # the pause is measured between moves, not behind the worker's warm-up
        manager = TableManager(store, pool, ServerConfig("", bot_pause=pause))
        seats = [SeatRequest("human"), *[SeatRequest("bot", bot="rules")] * 3]
        table, token = await manager.create("fft", Rules(players=4), seats, 0)
        conn = Connection()
        await table.hello(conn, token, None)
        times: list[float] = []
        view: dict[str, Any] | None = None
        end = time.monotonic() + 20
        while len(times) < 4 and time.monotonic() < end:
            message = json.loads(await asyncio.wait_for(conn.next_text(), 20) or "{}")
            if message.get("type") == "update":
                arrived = time.monotonic()
                record = store.load(table.id)
                assert record is not None
                actions = record.deals[-1].actions
                assert len(actions) >= table.version - record.deals[-1].seq, "told before committed"
                if actions[-1][1] != 0:
                    times.append(arrived)
            if message.get("type") == "state":
                view = message["view"]
            elif message.get("type") == "update":
                view = apply_view_delta(view, message)
            if message.get("type") in ("state", "update") and view and view["current_player"] == 0:
                await table.act(conn, message["seq"], view["legal_actions"][-1])
        await manager.close()
        pool.close()
        engine.dispose()
        return times

    times = asyncio.run(run())
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert len(times) >= 2 and min(gaps) >= pause * 0.9, gaps


def test_the_default_database_is_in_the_user_data_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Without --db the tables live in $XDG_DATA_HOME/atout/atout.sqlite3, created on first start
    with its directory and schema."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = default_db_path()
    assert path == tmp_path / "data" / "atout" / "atout.sqlite3"
    open_database(sqlite_url(path)).dispose()
    assert path.is_file()


def test_a_bad_database_url_is_a_value_error_of_one_line() -> None:
    """A URL SQLAlchemy cannot read, or a database that cannot be reached, is one clear line."""
    for url in ("nonsense", "postgresql+psycopg://nobody@127.0.0.1:1/none"):
        with pytest.raises(ValueError) as error:
            open_database(url)
        assert "\n" not in str(error.value)


def test_under_ci_the_postgresql_tests_fail_without_a_server() -> None:
    """CI starts PostgreSQL: there, a missing ATOUT_TEST_POSTGRES_URL fails the server tests
    instead of skipping them."""
    env = {k: v for k, v in os.environ.items() if k != "ATOUT_TEST_POSTGRES_URL"} | {"CI": "true"}
    test = "tests/server/test_server.py::test_bad_requests_name_the_field[postgresql]"
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", test],
        capture_output=True,
        text=True,
        env=env,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert out.returncode == 1 and "set ATOUT_TEST_POSTGRES_URL" in out.stdout, out.stdout[-500:]


def test_a_busy_table_does_not_hold_up_another(tmp_path: Path) -> None:
    """Each table is its own actor: while one table is busy (a request of its own that does not
    end), another table's person acts and is told at once."""

    async def run() -> tuple[int, int]:
        engine = open_database(f"sqlite:///{tmp_path / 'db.sqlite3'}")
        manager = TableManager(Store(engine), BotPool(1), ServerConfig("", bot_pause=0))
        tables = []
        for _ in range(2):
            table, token = await manager.create(
                "fft", Rules(players=2), [SeatRequest("human"), SeatRequest("open")], 0
            )
            other = await table.claim(1, "Bob")
            tables.append((table, {0: token, 1: other}))
        (busy, _), (free, tokens) = tables
        stuck = asyncio.Event()
        busy._post(stuck.wait)
        await asyncio.sleep(0)
        assert busy.busy
        assert free.deal is not None
        seat = free.deal.current_player
        conn = Connection()
        await asyncio.wait_for(free.hello(conn, tokens[seat], None), 2)
        before = free.version
        words = free.deal.action_name(free.deal.legal_actions()[0])
        await asyncio.wait_for(free.act(conn, free.streams[seat].seq, words), 2)
        after = free.version
        stuck.set()
        await manager.close()
        engine.dispose()
        return before, after

    before, after = asyncio.run(run())
    assert after == before + 1


def test_a_table_whose_log_another_worker_wrote_leaves_memory_and_tells_nothing(tmp_path: Path) -> None:
    """Two workers that both believe they own a table (the moment before one notices it lost its
    lock): the first to commit wins; the other's write is refused by the log, it tells no seat
    anything, closes its websockets with 1012 (pages reconnect to the owner), and the table
    leaves its memory, to be rebuilt from the log when asked for again."""

    async def run() -> None:
        engine = open_database(f"sqlite:///{tmp_path / 'db.sqlite3'}")
        config = ServerConfig("", bot_pause=0)
        first = TableManager(Store(engine), BotPool(1), config)
        second = TableManager(Store(engine), BotPool(1), config)
        table, token = await first.create(
            "fft", Rules(players=2), [SeatRequest("human"), SeatRequest("open")], 0
        )
        other = await table.claim(1, "Bob")
        tokens = {0: token, 1: other}
        copy = await second.get(table.id)
        assert table.deal is not None and copy.deal is not None
        seat = table.deal.current_player
        legal = table.deal.legal_actions()
        words, others = table.deal.action_name(legal[0]), table.deal.action_name(legal[1])
        conns = [Connection(), Connection()]
        await table.hello(conns[0], tokens[seat], None)
        await copy.hello(conns[1], tokens[seat], None)
        for conn in conns:
            assert json.loads(await conn.next_text() or "{}")["type"] == "state"
        await table.act(conns[0], table.streams[seat].seq, words)
        assert json.loads(await conns[0].next_text() or "{}")["type"] == "update"
        with pytest.raises(MessageError) as refused:
            await copy.act(conns[1], copy.streams[seat].seq, others)
        assert refused.value.code == "server_error"
        await asyncio.sleep(0.05)
        assert conns[1].close_code == 1012 and await conns[1].next_text() is None, "told nothing"
        assert table.id not in second.tables and copy.closed
        again = await second.get(table.id)
        assert again is not copy and again.version == table.version
        for manager in (first, second):
            await manager.close()
        engine.dispose()

    asyncio.run(run())

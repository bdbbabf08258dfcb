"""The bot pool with real worker processes: a bot per key, kept in one worker with its state
(the expert's écart), apart from other tables' bots, dropped by ``forget`` or when its worker is
full, and a killed worker replaced."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from collections.abc import Iterator

import pytest

from atout.bots import make_bot
from atout.bots.base import Bot
from atout.bots.expert.bot import ExpertBot
from atout.engine.actions import ACTIONS, ActionKind
from atout.engine.wire import view_from_json
from atout.games import Deal, is_card_play, new_deal
from atout.rules import Rules
from atout.server.botpool import BotPool, bot_seed

SECRET = 7


@pytest.fixture
def pool() -> Iterator[BotPool]:
    pool = BotPool(1, seed=SECRET)
    yield pool
    pool.close()


def a_view(seed: int = 1) -> str:
    deal = new_deal(Rules(), rng=seed)
    return json.dumps(deal.view(deal.current_player).to_json())


class Table:
    """A 4-player deal of expert bots asked through the pool, each beside its twin: the same bot
    in this process (the same spec and seed), fed the same wire views."""

    def __init__(self, name: str, number: int) -> None:
        self.deal: Deal = new_deal(Rules(players=4), rng=number)
        self.keys = [f"{name}/{number}/{seat}" for seat in range(4)]
        self.twins: list[Bot] = [make_bot("expert:fast", rng=bot_seed(SECRET, key)) for key in self.keys]
        self.discards: list[int] = []
        self.cards = 0
        self.planned = 0
        self.steps = 0

    def done(self) -> bool:
        return self.deal.is_over() or self.cards >= 4

    async def step(self, pool: BotPool) -> None:
        """One decision: the pool's bot and its twin choose the same action."""
        seat = self.deal.current_player
        legal = self.deal.legal_actions()
        text = json.dumps(self.deal.view(seat).to_json())
        twin = self.twins[seat]
        assert isinstance(twin, ExpertBot)
        simulated = twin.last_simulation
        expected = twin.choose(view_from_json(json.loads(text)), legal)
        action = self.deal.parse(await pool.decide("expert:fast", text, self.keys[seat]))
        assert action == expected, (self.keys[seat], self.steps)
        self.steps += 1
        kind = ACTIONS[legal[0]].kind
        if kind is ActionKind.DISCARD:
            if self.discards and twin.last_simulation is simulated:
                self.planned += 1  # discarded from the plan made at the first card
            self.discards.append(action)
        self.cards += is_card_play(self.deal)
        self.deal.apply(action)


async def play_together(pool: BotPool, tables: list[Table]) -> None:
    """The tables' decisions interleaved, one each in turn."""
    while not all(t.done() for t in tables):
        for table in tables:
            if not table.done():
                await table.step(pool)


def test_a_key_keeps_its_bot_and_two_tables_do_not_share(pool: BotPool) -> None:
    """Two tables' expert bots in one worker, their decisions interleaved: each key's bot decides
    as its twin in this process does (the same seed, ``bot_seed`` of the pool's secret and the
    key, the same views), through the bids, the whole écart planned at its first card, and the
    first trick; a bot shared between keys, or made anew, would draw other random numbers."""

    async def run() -> list[Table]:
        for number in range(1, 8):
            tables = [Table("a", number), Table("b", number)]
            await play_together(pool, tables)
            if all(len(t.discards) >= 3 for t in tables):
                return tables
        raise AssertionError("no deal with two écarts")

    tables = asyncio.run(run())
    for table in tables:
        assert table.planned == len(table.discards) - 1 and table.cards == 4
    assert pool.worker_of(tables[0].keys[0]) == pool.worker_of(tables[1].keys[0]) == 0


def test_forget_drops_a_tables_bots(pool: BotPool) -> None:
    """``forget("a/")`` drops table a's bots from the worker, not table ab's or b's; a key
    forgotten gets a new bot."""

    async def run() -> tuple[list[str], list[str]]:
        for key in ("a/0/1", "a/0/2", "ab/0/1", "b/0/3"):
            await pool.decide("rules", a_view(), key)
        pool.forget("a/")
        assert pool.worker_of("a/0/1") is None
        [(_, after)] = await pool.held()
        await pool.decide("rules", a_view(), "a/0/1")
        [(_, again)] = await pool.held()
        return after, again

    after, again = asyncio.run(run())
    assert after == ["ab/0/1", "b/0/3"]
    assert again == ["a/0/1", "ab/0/1", "b/0/3"]


def test_a_worker_keeps_its_least_recently_used_bots_up_to_the_bound() -> None:
    """With room for three bots, a fourth key drops the bot least recently used."""
    pool = BotPool(1, bots_per_worker=3, seed=SECRET)

    async def run() -> list[str]:
        for key in ("k0", "k1", "k2", "k0", "k3"):
            await pool.decide("random", a_view(), key)
        [(_, held)] = await pool.held()
        return held

    try:
        assert asyncio.run(run()) == ["k0", "k2", "k3"]
    finally:
        pool.close()


def test_tables_spread_over_the_workers() -> None:
    """A new table's deal goes to the worker with the fewest tables; the seats of a deal share
    their worker; a table forgotten frees its worker for the next."""
    pool = BotPool(2, seed=SECRET)

    async def run() -> None:
        for key in ("a/0/1", "b/0/1", "a/0/2", "b/0/3"):
            await pool.decide("rules", a_view(), key)
        assert [pool.worker_of(k) for k in ("a/0/1", "a/0/2", "b/0/1", "b/0/3")] == [0, 0, 1, 1]
        pool.forget("a/")
        await pool.decide("rules", a_view(), "c/0/0")
        assert pool.worker_of("c/0/0") == 0

    try:
        asyncio.run(run())
    finally:
        pool.close()


def test_a_killed_worker_is_replaced_and_the_decision_answered() -> None:
    """Killing the worker of a key: its next decision is answered by a new worker (and a new
    bot), and the other worker's bots stay."""
    pool = BotPool(2, seed=SECRET)
    view = a_view()

    async def run() -> None:
        await pool.decide("rules", view, "a/0/1")
        await pool.decide("rules", view, "b/0/1")
        before = await pool.held()
        assert [keys for _, keys in before] == [["a/0/1"], ["b/0/1"]]
        os.kill(before[0][0], signal.SIGKILL)
        words = await pool.decide("rules", view, "a/0/1")
        assert words in json.loads(view)["legal_actions"]
        after = await pool.held()
        assert after[0][0] != before[0][0] and after[0][1] == ["a/0/1"]
        assert after[1] == before[1]

    try:
        asyncio.run(run())
    finally:
        pool.close()

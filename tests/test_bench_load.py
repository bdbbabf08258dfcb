"""``bench/load.py``, the server's load benchmark: a short run against a real ``atout serve``, its
arguments, how it applies updates, and how it matches each update to the action that caused it."""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from atout.engine.wire import view_delta
from atout.games import new_deal
from atout.rules import Rules

BENCH = Path(__file__).resolve().parents[1] / "bench" / "load.py"


def _load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_load", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_load"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


load = _load_bench()


def test_a_short_run_against_a_real_server_counts_actions_without_errors() -> None:
    command = [sys.executable, str(BENCH), "--serve", "sqlite", "--tables", "2", "--pace", "once"]
    command += ["--seconds", "2", "--warm-up", "1", "--idle-unload", "1", "--json"]
    for _ in range(2):  # a suite running beside it may slow a table's setup past the bench's limit
        done = subprocess.run(command, capture_output=True, text=True, timeout=90)
        assert done.returncode == 0, done.stderr
        (run,) = json.loads(done.stdout)["runs"]
        if not run["errors"]:
            break
    assert run["tables"] == 2 and run["errors"] == {} and run["failed_tables"] == 0, run
    assert run["actions"] > 20 and run["actions_per_s"] > 10
    assert run["latency_samples"] == run["actions"] and run["unmatched_updates"] == 0
    latency = run["latency_ms"]
    assert 0 < latency["p50"] <= latency["p99"] <= latency["max"] < 10_000
    # each action reaches its actor at least, and most reach all four seats
    assert 1 <= run["messages_per_action"] < 8 and run["bytes_per_action"] > 50
    assert run["server_cpu_ms_per_action"] > 0 and 0 < run["server_cpu_pct_core"] < 400
    assert run["tables_between_deals"] == 2 and run["live_tables_after_unload"] == 0
    assert all(value > 0 for value in run["server_rss_mb"].values())
    assert 0 <= run["client_cpu_max_pct_core"] < 100


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--tables", "0"], "--tables"),
        (["--tables", "10,x"], "--tables"),
        (["--pace", "slow"], "--pace"),
        (["--seconds", "-1"], "--seconds"),
        (["--serve", "mysql"], "--serve"),
        (["--serve", "sqlite:/tmp/x"], "--serve sqlite"),
        (["--url", "ftp://host"], "--url"),
        (["--pids", "1"], "--pids goes with --url"),
        (["--url", "http://127.0.0.1:8000", "--src", "src"], "--src"),
        (["--src", "/nonexistent"], "--src"),
    ],
)
def test_bad_arguments_get_one_line(
    arguments: list[str], said: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ATOUT_TEST_POSTGRES_URL", raising=False)
    with pytest.raises(SystemExit) as stopped:
        load.parse_options(arguments)
    assert stopped.value.code == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and said in lines[0], lines


def test_postgresql_needs_a_server_named() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--serve", "postgresql"],
        capture_output=True,
        text=True,
        timeout=30,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "ATOUT_TEST_POSTGRES_URL" in done.stderr


def _deal_updates(rules: Rules, rng: random.Random) -> list[tuple[int, dict[int, dict[str, Any]]]]:
    """A random deal: each action's actor and, for each seat whose view it changed, the update
    that seat is sent (the delta form)."""
    deal = new_deal(rules, rng=rng)
    views = [deal.view(seat) for seat in range(4)]
    steps = []
    while not deal.is_over():
        actor = deal.current_player
        deal.apply(rng.choice(deal.legal_actions()))
        told = {}
        for seat in range(4):
            view = deal.view(seat)
            if view != views[seat]:
                told[seat] = {"type": "update", **view_delta(views[seat], view)}
                views[seat] = view
        steps.append((actor, told))
    return steps


def test_an_update_applied_gives_the_servers_view_in_either_form() -> None:
    rng = random.Random(3)
    for _ in range(10):
        deal = new_deal(Rules(players=4), rng=random.Random(rng.random()))
        held = {seat: deal.view(seat).to_json() for seat in range(4)}
        views = [deal.view(seat) for seat in range(4)]
        while not deal.is_over():
            deal.apply(rng.choice(deal.legal_actions()))
            for seat in range(4):
                view = deal.view(seat)
                if view != views[seat]:
                    delta = {"type": "update", **view_delta(views[seat], view)}
                    assert load.apply_update(held[seat], delta) == view.to_json()
                    whole = {"type": "update", "events": delta["events"], "view": view.to_json()}
                    assert load.apply_update(held[seat], whole) == view.to_json()
                    held[seat], views[seat] = view.to_json(), view


SECRET_STEPS = Rules(players=4, poignee_thresholds={4: (3, 5, 7)}, misere_bonus=10)
"""Poignées and misères weighed in secret at nearly every deal (FFT's are rare)."""


@pytest.mark.parametrize("rules", [Rules(players=4), SECRET_STEPS], ids=["fft", "secret-steps"])
def test_each_update_is_matched_to_the_action_that_caused_it(rules: Rules) -> None:
    """Deals played with random delays on the way, each seat's updates in the order of the actions
    and each actor acting on its up-to-date view, as a server and a network do: the bench's matching
    finds, for every action, exactly the updates it caused, across the écart's secret steps and
    the poignée's."""
    rng = random.Random(7)
    quiet_to_others = secret_steps = 0
    for _ in range(60):
        steps = _deal_updates(rules, random.Random(rng.random()))
        log = load.DealLog()
        arrivals: list[tuple[float, int, int, bool]] = []  # (time, seat, action, public)
        seat_clock = [0.0] * 4  # each seat's updates come in order
        truth: list[list[float]] = []
        sent = 0.0
        for k, (actor, told) in enumerate(steps):
            # the actor acts once every update it was sent so far has come
            sent = max(sent, seat_clock[actor]) + rng.uniform(0, 0.002)
            log.actions.append(load.Action(actor, sent))
            truth.append([])
            secret_steps += set(told) == {actor}
            for seat, update in told.items():
                at = seat_clock[seat] = max(seat_clock[seat], sent + rng.expovariate(1000))
                public = load.brings_public_event(update)
                quiet_to_others += seat != actor and not public
                arrivals.append((at, seat, k, public))
                truth[k].append(at)
        waiting: list[int | None] = [None] * 4
        events = [(a.sent, 0, a.seat, k, False) for k, a in enumerate(log.actions)]
        events += [(at, 1, seat, k, public) for at, seat, k, public in arrivals]
        for at, kind, seat, k, public in sorted(events):
            if kind == 0:
                waiting[seat] = k
                continue
            own = waiting[seat]
            log.updates[seat].append((at, public, own))
            if own is not None:
                log.actions[own].public = public
                waiting[seat] = None
        assert log.match() == 0
        assert [sorted(a.told) for a in log.actions] == [sorted(times) for times in truth]
    assert secret_steps > 0
    if rules is not SECRET_STEPS:
        assert quiet_to_others > 0  # the écart's last card tells the others, with no public event

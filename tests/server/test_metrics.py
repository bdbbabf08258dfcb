"""``/metrics`` and ``/healthz`` of a real server (docs/deploy.md): a deal played with bots over
real websockets shows in the metrics exactly, in the Prometheus text format as Prometheus parses
it; ``/healthz`` says whether the database answers, and says so again when it stops answering."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine, text

from atout.server.streams import encode

from .conftest import (
    ServerProcess,
    drop_postgres_database,
    fresh_postgres_database,
    postgres_url,
)


def scrape(server: ServerProcess) -> dict[str, float]:
    """Every sample of ``/metrics``, by name and labels (``name{le="0.01"}``)."""
    response = server.http.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    samples: dict[str, float] = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()))
            samples[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return samples


def as_sent(message: dict[str, Any]) -> dict[str, Any]:
    """A received message as the server sent it: without the view the client put on an update."""
    if message["type"] == "update":
        return {key: value for key, value in message.items() if key != "view"}
    return message


def until(server: ServerProcess, name: str, value: float, limit: float = 10.0) -> dict[str, float]:
    """Scrape until the sample ``name`` has ``value`` (a gauge that follows a close or an unload)."""
    end = time.monotonic() + limit
    while True:
        samples = scrape(server)
        if samples[name] == value or time.monotonic() > end:
            return samples
        time.sleep(0.05)


def test_metrics_show_a_deal_played_with_bots(server_factory: Callable[..., ServerProcess]) -> None:
    """A fresh server, one table of a person and three bots played to its end over a websocket:
    the gauges count that table and that connection, the websocket counters every message and
    byte the client received, and when the client leaves and the table leaves memory, zero."""
    server = server_factory("--idle-unload", "0.3")
    before = scrape(server)
    assert before["atout_tables_open"] == 0 and before["atout_connections"] == 0
    assert before["atout_websocket_messages_sent_total"] == 0
    assert before["process_resident_memory_bytes"] > 0

    seats: list[dict[str, Any]] = [{"kind": "human", "name": "Ann"}]
    seats += [
        {"kind": "bot", "bot": "rules"},
        {"kind": "bot", "bot": "random"},
        {"kind": "bot", "bot": "rules"},
    ]
    created = server.create(preset="fft", players=4, seats=seats, sit=0)
    client = server.connect(created["table_id"], created["token"], 0)
    over = client.play_deal(random.Random(4))
    assert over["type"] == "deal_over"
    client.drain(0.5)  # the table info told after the deal's end

    during = scrape(server)
    assert during["atout_tables_open"] == 1 and during["atout_connections"] == 1
    assert during["atout_websocket_messages_sent_total"] == len(client.received)
    sent = sum(len(encode(as_sent(message)).encode()) for message in client.received)
    assert during["atout_websocket_bytes_sent_total"] == sent
    assert during["atout_database_write_failures_total"] == 0

    openmetrics = server.http.get(
        "/metrics", headers={"Accept": "application/openmetrics-text; version=1.0.0"}
    )
    assert openmetrics.headers["content-type"].startswith("application/openmetrics-text")
    assert openmetrics.text.endswith("# EOF\n") and "atout_tables_open 1" in openmetrics.text

    client.close()
    after = until(server, "atout_connections", 0)
    assert after["atout_connections"] == 0
    assert until(server, "atout_tables_open", 0)["atout_tables_open"] == 0


def test_metrics_count_every_action_committed_and_told(server_factory: Callable[..., ServerProcess]) -> None:
    """Every action of a deal of bots is committed once, told once (its latency observed) and,
    being a bot's, counted as a bot move; the commits' entries hold them all."""
    server = server_factory()
    created = server.create(preset="fft", players=3, seats=[{"kind": "bot", "bot": "rules"}] * 3, sit=None)
    watcher = server.connect(created["table_id"], None, None)
    watcher.recv_until("deal_over", 60)
    watcher.close()
    actions = len(server.log(created["table_id"]).deals[0].actions)
    assert actions > 0
    samples = until(server, "atout_actions_committed_total", actions, limit=3.0)
    assert samples["atout_actions_committed_total"] == actions
    assert samples["atout_bot_moves_total"] == actions
    assert samples["atout_action_told_seconds_count"] == actions
    assert samples['atout_action_told_seconds_bucket{le="+Inf"}'] == actions
    assert 0 < samples["atout_action_told_seconds_sum"] < actions  # each under a second
    assert samples["atout_commit_seconds_count"] >= 1
    assert samples["atout_commit_entries_sum"] >= actions + 2  # the deal dealt and ended, too
    assert samples["atout_commit_seconds_count"] == samples["atout_commit_entries_count"]


def test_healthz_says_the_database_answers(server: ServerProcess) -> None:
    response = server.http.get("/healthz")
    health = response.json()
    assert response.status_code == 200 and health["ok"] is True
    assert health["database"]["reachable"] is True and 0 <= health["database"]["ms"] < 2000
    assert {"bots_warming", "live_tables", "connections", "gc"} <= set(health)


def test_healthz_says_when_the_database_stops_answering() -> None:
    """A PostgreSQL database that refuses connections: ``/healthz`` answers 503 with the
    database's own one-line reason, then 200 again once it accepts them."""
    base = postgres_url()
    if not base:
        pytest.skip("ATOUT_TEST_POSTGRES_URL is not set")
    url, name = fresh_postgres_database(base)
    server = ServerProcess(url)
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        server.start()
        assert server.http.get("/healthz").status_code == 200
        with admin.connect() as connection:
            connection.execute(text(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false'))
            connection.execute(
                text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :name"),
                {"name": name},
            )
        response = server.http.get("/healthz")
        health = response.json()
        assert response.status_code == 503 and health["ok"] is False
        assert health["database"]["reachable"] is False
        assert name in health["database"]["error"] and "\n" not in health["database"]["error"]
        with admin.connect() as connection:
            connection.execute(text(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true'))
        response = server.http.get("/healthz")
        assert response.status_code == 200 and response.json()["database"]["reachable"] is True
    finally:
        server.stop()
        admin.dispose()
        drop_postgres_database(base, name)

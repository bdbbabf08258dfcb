"""rule book §8 ``slam_values``: the chelem bonuses a table may change (rule book §3.13)."""

from __future__ import annotations

from typing import Any

from atout.scoring import parse_summary, score

SLAM: dict[str, Any] = {
    "game": "french",
    "players": 4,
    "taker": 0,
    "contract": "garde",
    "oudlers": 3,
    "points": 91,
    "chelem": {"announced": True, "won_by": "attack"},
}


def test_announced_slam_value_can_be_changed_3_13() -> None:
    base = score(parse_summary(SLAM))
    changed = score(parse_summary({**SLAM, "options": {"slam_values": {"announced_made": 600}}}))
    assert changed[0] - base[0] == 3 * 200 and changed[1] - base[1] == -200


def test_unannounced_slam_value_can_be_changed_3_13() -> None:
    quiet = {**SLAM, "chelem": {"announced": False, "won_by": "attack"}}
    base = score(parse_summary(quiet))
    changed = score(parse_summary({**quiet, "options": {"slam_unannounced_made": 300}}))
    assert changed[0] - base[0] == 3 * 100

"""Austrian Tarock scoring (rule book §5.7), worked by hand."""

from __future__ import annotations

from typing import Any

import pytest

from atout.scoring import AustrianSummary, austrian_value, parse_summary, score


def austrian(**fields: Any) -> list[int]:
    data: dict[str, Any] = {
        "game": "austrian",
        "players": 3,
        "declarer": 0,
        "bid": "threesome",
        "talon_half": 1,
        "game_type": "36_or_more",
        "points": 40,
    }
    data.update(fields)
    return score(parse_summary(data))


def test_threesome_first_half_game_1_made_worked_count_at_c1() -> None:
    # AT-C1: 40 points: 50 + 2 x 5 = 60
    assert austrian() == [60, 0, 0]
    assert austrian(options={"austrian_scoring": "zero_sum"}) == [120, -60, -60]


def test_declarer_at_any_seat_5_7() -> None:
    assert austrian(declarer=2) == [0, 0, 60]
    # 30 points: lost; defenders hold 40: 50 + 2 x 5 = 60 each
    assert austrian(declarer=1, points=30) == [60, 0, 60]


def test_second_half_doubles_the_margin_5_7() -> None:
    assert austrian(talon_half=2, points=45) == [90, 0, 0]


def test_free_choice_talon_keeps_k_2_for_second_half_5_3() -> None:
    assert austrian(talon_half=2, points=45, options={"austrian_talon_mode": "free_choice"}) == [70, 0, 0]


def test_game_2_lost_defenders_score_35_minus_their_points_5_7() -> None:
    # game 2 (35 or less) with 50: lost; defenders hold 20: 50 + 2 x (35 - 20) = 80 each
    assert austrian(game_type="35_or_less", points=50) == [0, 80, 80]
    assert austrian(game_type="35_or_less", points=50, options={"austrian_scoring": "zero_sum"}) == [
        -160,
        80,
        80,
    ]


def test_game_1_lost_defenders_score_with_combined_points_5_7() -> None:
    # 20 points: defenders 50: 50 + 2 x 15 = 80
    assert austrian(points=20) == [0, 80, 80]


def test_solo_base_100_and_multiplier_option_5_7() -> None:
    assert austrian(bid="solo", talon_half=None, points=50) == [130, 0, 0]
    options = {"austrian_solo_multiplier": 4}
    assert austrian(bid="solo", talon_half=None, points=50, options=options) == [160, 0, 0]


def test_jack_3_negative_margin_counts_zero_a1() -> None:
    # 74-point pack: game 2 lost with 36, defenders hold 38, 35 - 38 < 0 counts 0
    options = {"austrian_jack_value": 3}
    assert austrian(game_type="35_or_less", points=36, options=options) == [0, 50, 50]
    # game 1 lost with 35: defenders hold 39: 50 + 2 x 4
    assert austrian(points=35, options=options) == [0, 58, 58]


def test_jack_3_accepts_points_up_to_74_a1() -> None:
    assert austrian(points=74, options={"austrian_jack_value": 3}) == [50 + 2 * 39, 0, 0]


@pytest.mark.parametrize("points", [0, 35, 36, 70])
def test_austrian_value_is_at_least_the_base_5_7(points: int) -> None:
    summary = parse_summary(
        {
            "game": "austrian",
            "declarer": 1,
            "bid": "threesome",
            "talon_half": 1,
            "game_type": "36_or_more",
            "points": points,
        }
    )
    assert isinstance(summary, AustrianSummary)
    assert austrian_value(summary) >= 50

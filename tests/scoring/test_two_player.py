"""Two-player French Tarot scoring (rule book §4.4), worked by hand."""

from __future__ import annotations

from typing import Any

import pytest

from atout.scoring import SummaryError, parse_summary, score


def two(**fields: Any) -> list[int]:
    data: dict[str, Any] = {"game": "french", "players": 2, "points": [50, 41], "oudlers": [2, 1]}
    data.update(fields)
    return score(parse_summary(data))


def test_winner_scores_25_plus_margin_over_own_target_4_4() -> None:
    # seat 0: 2 bouts, 50, needs 41: 25 + 9
    assert two() == [34, -34]


def test_petit_au_bout_by_winner_adds_10_unmultiplied_4_4() -> None:
    assert two(petit_au_bout=0) == [44, -44]


def test_petit_au_bout_by_loser_takes_10_off_4_4() -> None:
    # seat 1: 1 bout, 51, needs 51: juste fait, 25; seat 0 took the Petit au bout: -10
    assert two(points=[40, 51], oudlers=[2, 1], petit_au_bout=0) == [-15, 15]


def test_half_point_goes_to_the_winner_4_4() -> None:
    # an unpaid Excuse debt: 50.5 v 40.5; seat 0 (2 bouts) reaches 41, counts 51: 25 + 10
    assert two(points=[50.5, 40.5]) == [35, -35]


def test_half_point_that_decides_nothing_is_refused_4_4() -> None:
    # 40.5 (2 bouts, needs 41) v 50.5 (1 bout, needs 51): each is half a point short
    with pytest.raises(SummaryError) as err:
        two(points=[40.5, 50.5])
    assert err.value.field == "points"


def test_rounding_option_applies_to_two_player_margin_v8() -> None:
    assert two(options={"round_margin_to": 10}) == [35, -35]


def test_chelem_ignored_by_default_and_refused_without_option_4_4() -> None:
    with pytest.raises(SummaryError) as err:
        two(points=[91, 0], oudlers=[3, 0], chelem={"announced_by": 0, "won_by": 0})
    assert err.value.field == "chelem.announced_by"


@pytest.mark.parametrize(
    ("chelem", "expected"),
    [
        # 3 bouts, 91 points: 25 + 55 = 80
        ({"announced_by": 0, "won_by": 0}, 80 + 400),
        ({"announced_by": None, "won_by": 0}, 80 + 200),
        # the opponent announced and failed (-200 for him) while seat 0 took every trick (+200)
        ({"announced_by": 1, "won_by": 0}, 80 + 200 + 200),
    ],
)
def test_two_player_chelem_option_uses_3_13_values_4_4(chelem: dict[str, Any], expected: int) -> None:
    scores = two(points=[91, 0], oudlers=[3, 0], chelem=chelem, options={"two_player_chelem": True})
    assert scores == [expected, -expected]


def test_two_player_announced_chelem_failed_costs_the_announcer_4_4() -> None:
    # seat 0 wins by 24 (3 bouts, 60) but failed the chelem he announced: 49 - 200
    chelem = {"announced_by": 0, "won_by": None}
    assert two(points=[60, 31], oudlers=[3, 0], chelem=chelem, options={"two_player_chelem": True}) == [
        -151,
        151,
    ]

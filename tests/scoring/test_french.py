"""French Tarot scoring, 3 to 5 players: cases worked by hand from rule book §3.11–§3.14, §4.3 and §7."""

from __future__ import annotations

from typing import Any

import pytest

from atout.rules import Rules
from atout.scoring import (
    FrenchSummary,
    contract_made,
    counted_points,
    parse_summary,
    per_defender_unit,
    round_margin,
    score,
    score_french,
)


def french(**fields: Any) -> list[int]:
    """Score a summary given as JSON fields over a 4-player default deal."""
    data: dict[str, Any] = {"game": "french", "players": 4, "taker": 0, "contract": "petite", "oudlers": 2}
    data.update(fields)
    return score(parse_summary(data))


# ---------------------------------------------------------------- §3.11 half points


def test_half_point_goes_to_contract_winner_3_11() -> None:
    # 3p petite, 1 bout needs 51: 50.5 counts 50, lost by 1: D = -(25 + 1)
    assert french(players=3, oudlers=1, points=50.5) == [-52, 26, 26]
    # 51.5 counts 52, made by 1
    assert french(players=3, oudlers=1, points=51.5) == [52, -26, -26]


def test_half_point_exactly_at_threshold_counts_made_3_11() -> None:
    s = FrenchSummary(Rules(players=3), taker=0, contract="petite", oudlers=2, half_points=81)
    assert counted_points(s) == 40 and not contract_made(s)
    s = FrenchSummary(Rules(players=3), taker=0, contract="petite", oudlers=2, half_points=83)
    assert counted_points(s) == 42 and contract_made(s)


def test_slam_with_excuse_kept_by_defence_counts_87_3_11() -> None:
    # 86.5 -> 87, 2 bouts need 41: made by 46; petite (25 + 46) + 200 unannounced slam = 271
    scores = french(oudlers=2, points=86.5, chelem={"announced": False, "won_by": "attack"})
    assert scores == [813, -271, -271, -271]


# ---------------------------------------------------------------- §3.12 thresholds


@pytest.mark.parametrize(("oudlers", "points", "unit"), [(0, 56, 25), (1, 51, 25), (2, 41, 25), (3, 36, 25)])
def test_juste_fait_at_each_threshold_3_12(oudlers: int, points: int, unit: int) -> None:
    assert french(oudlers=oudlers, points=points) == [3 * unit, -unit, -unit, -unit]


def test_threshold_55_makes_55_points_with_no_oudler_3_12() -> None:
    assert french(oudlers=0, points=55, options={"threshold_0_oudlers": 55}) == [75, -25, -25, -25]
    assert french(oudlers=0, points=55) == [-78, 26, 26, 26]


# ---------------------------------------------------------------- §3.13 formula


def test_multiplier_of_each_contract_3_4() -> None:
    # made by 4 with 2 bouts and 45 points: (25 + 4) x mult
    for contract, mult in [("petite", 1), ("garde", 2), ("garde_sans", 4), ("garde_contre", 6)]:
        unit = 29 * mult
        assert french(contract=contract, points=45) == [3 * unit, -unit, -unit, -unit]


def test_garde_sans_petit_au_bout_taken_by_defence_is_deducted_3_13() -> None:
    # FFT §11: garde sans made by 3 (1 bout, 54): 28 x 4 = 112, minus 10 x 4 = 40 for the defence's PAB
    assert french(contract="garde_sans", oudlers=1, points=54, petit_au_bout="defense") == [
        216,
        -72,
        -72,
        -72,
    ]


def test_garde_contre_lost_with_petit_au_bout_lost_adds_to_loss_3_13() -> None:
    # lost by 3 (2 bouts, 38): -(28 x 6) = -168, and -60 for the defence's PAB
    assert french(contract="garde_contre", points=38, petit_au_bout="defense") == [-684, 228, 228, 228]


def test_petit_au_bout_to_attack_offsets_a_lost_contract_3_13() -> None:
    # garde lost by 5 (1 bout, 46): -(30 x 2) + 20 = -40
    assert french(contract="garde", oudlers=1, points=46, petit_au_bout="attack") == [-120, 40, 40, 40]


def test_petit_au_bout_not_multiplied_option_f10() -> None:
    # garde contre made by 2 (2 bouts, 43): 27 x 6 = 162, PAB attack +10 only
    options = {"petit_au_bout_multiplied": False}
    assert french(contract="garde_contre", points=43, petit_au_bout="attack", options=options) == [
        516,
        -172,
        -172,
        -172,
    ]


def test_poignee_goes_to_winning_side_whoever_declared_3_7() -> None:
    # garde lost by 11 (1 bout, 40): -(36 x 2) = -72; the attack's triple goes to the defence: -40
    poignees = [{"side": "attack", "level": "triple"}]
    assert french(contract="garde", oudlers=1, points=40, poignees=poignees) == [-336, 112, 112, 112]


def test_poignee_declaring_side_option_gives_bonus_to_declarer_3_7() -> None:
    # petite made by 2 (43): 27; the defence's simple poignée now counts against the attack: 27 - 20 = 7
    options = {"poignee_beneficiary": "declaring_side"}
    defence = [{"side": "defense", "level": "simple", "seat": 2}]
    assert french(points=43, poignees=defence, options=options) == [21, -7, -7, -7]
    # petite lost by 2 (1 bout, 49): -27; the attack's simple poignée still counts for it: -27 + 20 = -7
    attack = [{"side": "attack", "level": "simple"}]
    assert french(oudlers=1, points=49, poignees=attack, options=options) == [-21, 7, 7, 7]


def test_poignee_bonus_option_changes_values_3_7() -> None:
    options = {"poignee_bonus": [10, 20, 30]}
    poignees = [{"side": "attack", "level": "double"}]
    assert french(points=41, poignees=poignees, options=options) == [135, -45, -45, -45]


def test_unannounced_slam_adds_200_3_13() -> None:
    # garde, 3 bouts, 91: (25 + 55) x 2 = 160, + 200
    assert french(contract="garde", oudlers=3, points=91, chelem={"won_by": "attack"}) == [
        1080,
        -360,
        -360,
        -360,
    ]


def test_defence_slam_pays_each_defender_200_3_13() -> None:
    # petite, 0 bouts, 5 points (the écart) needs 56: lost by 51, -76, and -200 for the defence slam
    assert french(oudlers=0, points=5, chelem={"won_by": "defense"}) == [-828, 276, 276, 276]


def test_announced_slam_failed_and_defence_slam_both_apply_10() -> None:
    chelem = {"announced": True, "won_by": "defense"}
    assert french(oudlers=0, points=5, chelem=chelem) == [-1428, 476, 476, 476]


def test_announced_slam_failed_penalty_400_option_f15() -> None:
    # FR4-16 under seed 000: garde made by 29 (2 bouts, 70): 54 x 2 = 108, - 400
    options = {"slam_announced_failed_penalty": 400}
    chelem = {"announced": True, "won_by": None}
    assert french(contract="garde", points=70, chelem=chelem, options=options) == [-876, 292, 292, 292]


def test_slam_values_option_changes_slam_bonuses_f16() -> None:
    options = {"slam_values": {"announced_made": 500, "unannounced_made": 250}}
    chelem = {"announced": True, "won_by": "attack"}
    # petite, 3 bouts, 91: 25 + 55 = 80, + 500
    assert french(oudlers=3, points=91, chelem=chelem, options=options) == [1740, -580, -580, -580]


def test_defense_slam_bonus_zero_option_f17() -> None:
    options = {"defense_slam_bonus": 0}
    assert french(oudlers=0, points=5, chelem={"won_by": "defense"}, options=options) == [-228, 76, 76, 76]


# ---------------------------------------------------------------- §7 V1 pousse


def test_pousse_doubles_petite_and_its_petit_au_bout_v1() -> None:
    # pousse juste fait (2 bouts, 41): 25 x 2 = 50, PAB attack 10 x 2 = 20
    options = {"bid_pousse": True}
    assert french(contract="pousse", points=41, petit_au_bout="attack", options=options) == [
        210,
        -70,
        -70,
        -70,
    ]


def test_pousse_ladder_makes_garde_times_4_v1() -> None:
    # garde made by 4 (45): 29 x 4
    assert french(contract="garde", points=45, options={"bid_pousse": True}) == [348, -116, -116, -116]


# ---------------------------------------------------------------- §7 V8 rounding


def test_round_margin_to_5_counts_7_as_5_and_8_as_10_v8() -> None:
    options = {"round_margin_to": 5}
    assert french(points=48, options=options) == [90, -30, -30, -30]
    assert french(points=49, options=options) == [105, -35, -35, -35]


def test_round_margin_applies_to_a_lost_contract_v8() -> None:
    # lost by 7 (2 bouts, 34) -> 5: -(25 + 5)
    assert french(points=34, options={"round_margin_to": 5}) == [-90, 30, 30, 30]


@pytest.mark.parametrize(
    ("step", "mode", "margin", "rounded"),
    [
        (5, "nearest", 0, 0),
        (5, "nearest", 2, 0),
        (5, "nearest", 3, 5),
        (5, "nearest", 12, 10),
        (5, "nearest", 13, 15),
        (10, "nearest", 4, 0),
        (10, "nearest", 5, 10),
        (10, "nearest", 14, 10),
        (10, "nearest", 15, 20),
        (5, "up", 0, 0),
        (5, "up", 1, 5),
        (5, "up", 5, 5),
        (10, "up", 11, 20),
        (1, "nearest", 7, 7),
    ],
)
def test_round_margin_steps_and_modes_v8(step: int, mode: str, margin: int, rounded: int) -> None:
    assert round_margin(margin, Rules.from_options({"round_margin_to": step, "round_mode": mode})) == rounded


# ---------------------------------------------------------------- §7 V5 misère


def test_misere_is_a_separate_transfer_from_each_other_player_v5() -> None:
    # petite made by 3 (44): D = 28; seat 2's misère takes 10 from each of the 3 others
    misere = [{"seat": 2, "kind": "no_courts"}]
    assert french(points=44, misere=misere, options={"misere_bonus": 10}) == [74, -38, 2, -38]


def test_misere_both_kinds_under_either_counts_twice_v5() -> None:
    misere = [{"seat": 1, "kind": "both"}]
    assert french(points=41, misere=misere, options={"misere_bonus": 10}) == [55, 35, -45, -45]


def test_misere_both_required_counts_once_v5() -> None:
    options = {"misere_bonus": 10, "misere_kinds": "both_required"}
    assert french(points=41, misere=[{"seat": 1, "kind": "both"}], options=options) == [65, 5, -35, -35]


def test_misere_independent_of_contract_result_v5() -> None:
    # petite lost by 2 (1 bout, 49): D = -27; the taker's own misère still pays him 3 x 10
    misere = [{"seat": 0, "kind": "no_trumps"}]
    assert french(oudlers=1, points=49, misere=misere, options={"misere_bonus": 10}) == [-51, 17, 17, 17]


# ---------------------------------------------------------------- §7 V6 partial slam


@pytest.mark.parametrize(
    ("announced", "made", "option", "unit"),
    [
        (True, True, {"max_missing": 1}, 148 + 200),
        (False, True, {"max_missing": 1}, 148 + 100),
        (True, False, {"max_missing": 1}, 148 - 100),
        (False, False, {"max_missing": 1}, 148),
        (False, True, {"max_missing": 1, "requires_announcement": True}, 148),
        (True, True, {"max_missing": 3, "requires_announcement": True}, 148 + 200),
    ],
)
def test_partial_slam_term_added_like_chelem_v6(
    announced: bool, made: bool, option: dict[str, Any], unit: int
) -> None:
    # garde made by 49 (3 bouts, 85): (25 + 49) x 2 = 148
    scores = french(
        contract="garde",
        oudlers=3,
        points=85,
        partial_slam={"announced": announced, "made": made},
        options={"partial_slam": option},
    )
    assert scores == [3 * unit, -unit, -unit, -unit]


# ---------------------------------------------------------------- §3.14 distribution


def test_three_players_taker_scores_2d_4_2() -> None:
    assert french(players=3, taker=1, points=44) == [-28, 56, -28]


def test_four_players_taker_at_any_seat_scores_3d_4_1() -> None:
    assert french(taker=3, contract="garde", points=49) == [-66, -66, -66, 198]


def test_five_players_partner_scores_d_and_taker_2d_4_3() -> None:
    # garde made by 6 (47): 31 x 2 = 62
    assert french(players=5, taker=3, partner=1, contract="garde", points=47) == [-62, 62, -62, 124, -62]


def test_five_players_taker_alone_scores_4d_4_3() -> None:
    # garde made by 4 (1 bout, 55): 29 x 2 = 58
    assert french(players=5, taker=2, oudlers=1, points=55, contract="garde") == [-58, -58, 232, -58, -58]


def test_five_players_partner_equal_to_taker_means_alone_4_3() -> None:
    scores = french(players=5, taker=2, partner=2, oudlers=1, points=55, contract="garde")
    assert scores == [-58, -58, 232, -58, -58]


def test_five_players_alone_defence_wins_4_3() -> None:
    # petite lost by 10 (2 bouts, 31): -35; four defenders receive 35 each
    assert french(players=5, taker=4, points=31) == [35, 35, 35, 35, -140]


def test_equal_split_with_odd_total_truncates_partner_share_v10() -> None:
    # petite made by 2 (43): D = 27, 3D = 81: partner trunc(40.5) = 40, taker 41
    options = {"five_player_split": "equal"}
    assert french(players=5, partner=1, points=43, options=options) == [41, 40, -27, -27, -27]


def test_equal_split_truncates_toward_zero_when_lost_v10() -> None:
    # petite lost by 2 (39): D = -27, 3D = -81: partner trunc(-40.5) = -40, taker -41
    options = {"five_player_split": "equal"}
    assert french(players=5, partner=1, points=39, options=options) == [-41, -40, 27, 27, 27]


def test_equal_split_alone_is_still_4d_v10() -> None:
    options = {"five_player_split": "equal"}
    assert french(players=5, points=43, options=options) == [108, -27, -27, -27, -27]


def test_dead_player_scores_zero_and_others_play_four_4_3() -> None:
    # petite made by 10 (51): D = 35; taker 3D among the four who played
    options = {"five_player_mode": "dead_player"}
    assert french(players=5, taker=4, dead=2, points=51, options=options) == [-35, -35, 0, -35, 105]


def test_dead_player_misere_paid_by_the_three_others_only_4_3() -> None:
    options = {"five_player_mode": "dead_player", "misere_bonus": 10}
    misere = [{"seat": 1, "kind": "no_trumps"}]
    assert french(players=5, taker=4, dead=0, points=41, misere=misere, options=options) == [
        0,
        5,
        -35,
        -35,
        65,
    ]


def test_five_player_poignee_of_the_partner_goes_to_winner_4_3() -> None:
    # garde lost by 1 (2 bouts, 40): -52; the partner's simple poignée goes to the defence: -20
    poignees = [{"side": "attack", "level": "simple", "seat": 1}]
    scores = french(players=5, partner=1, contract="garde", points=40, poignees=poignees)
    assert scores == [-144, -72, 72, 72, 72]


def test_per_defender_unit_reads_formula_literally_3_13() -> None:
    summary = parse_summary(
        {
            "game": "french",
            "players": 4,
            "taker": 0,
            "contract": "garde_sans",
            "oudlers": 2,
            "points": 50,
            "petit_au_bout": "defense",
            "poignees": [{"side": "defense", "level": "double"}],
        }
    )
    assert isinstance(summary, FrenchSummary)
    # made by 9: 34 x 4 = 136, PAB -40, POIG +30
    assert per_defender_unit(summary) == 126
    assert score_french(summary) == [378, -126, -126, -126]


def test_score_french_refuses_two_players_4_4() -> None:
    summary = FrenchSummary(Rules(players=2), taker=0, contract="petite", oudlers=2, half_points=100)
    with pytest.raises(ValueError, match="score_two_player"):
        score_french(summary)

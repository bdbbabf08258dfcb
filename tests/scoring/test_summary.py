"""Reading and writing deal summaries (rule book §9): every impossible summary is refused by field."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from atout.scoring import (
    AustrianSummary,
    FrenchSummary,
    PoigneeDeclared,
    SummaryError,
    TwoPlayerSummary,
    parse_summary,
    summary_to_json,
)

FOUR: dict[str, Any] = {
    "game": "french",
    "players": 4,
    "taker": 0,
    "contract": "garde",
    "oudlers": 2,
    "points": 49,
}
FIVE: dict[str, Any] = {**FOUR, "players": 5, "partner": 1}
TWO: dict[str, Any] = {"game": "french", "players": 2, "points": [50, 41], "oudlers": [2, 1]}
AUSTRIAN: dict[str, Any] = {
    "game": "austrian",
    "players": 3,
    "declarer": 0,
    "bid": "threesome",
    "talon_half": 1,
    "game_type": "36_or_more",
    "points": 40,
}
SIMPLE = {"side": "attack", "level": "simple"}

REFUSALS: list[tuple[str, dict[str, Any], dict[str, Any], str]] = [
    # (name, base, changes, field); a change to None deletes the key
    ("points_above_91", FOUR, {"points": 91.5}, "points"),
    ("points_negative", FOUR, {"points": -1}, "points"),
    ("points_not_half_multiple", FOUR, {"points": 50.25}, "points"),
    ("points_a_string", FOUR, {"points": "50"}, "points"),
    ("points_missing", FOUR, {"points": None}, "points"),
    ("points_impossible_with_three_oudlers", FOUR, {"oudlers": 3, "points": 10}, "points"),
    ("points_impossible_with_no_oudler", FOUR, {"oudlers": 0, "points": 80}, "points"),
    ("four_oudlers", FOUR, {"oudlers": 4}, "oudlers"),
    ("oudlers_negative", FOUR, {"oudlers": -1}, "oudlers"),
    ("oudlers_fractional", FOUR, {"oudlers": 1.5}, "oudlers"),
    ("taker_out_of_range", FOUR, {"taker": 4}, "taker"),
    ("taker_negative", FOUR, {"taker": -1}, "taker"),
    ("taker_a_boolean", FOUR, {"taker": True}, "taker"),
    ("unknown_game", FOUR, {"game": "skat"}, "game"),
    ("missing_game", FOUR, {"game": None}, "game"),
    ("six_players", FOUR, {"players": 6}, "players"),
    ("missing_players", FOUR, {"players": None}, "players"),
    ("unknown_contract", FOUR, {"contract": "garde_plus"}, "contract"),
    ("unknown_option", FOUR, {"options": {"pousse": True}}, "options.pousse"),
    ("unknown_option_value", FOUR, {"options": {"threshold_0_oudlers": 57}}, "options.threshold_0_oudlers"),
    ("option_of_wrong_type", FOUR, {"options": {"bid_pousse": "maybe"}}, "options.bid_pousse"),
    ("players_as_an_option", FOUR, {"options": {"players": 3}}, "options.players"),
    ("options_not_an_object", FOUR, {"options": [1]}, "options"),
    (
        "dead_player_mode_with_four",
        FOUR,
        {"options": {"five_player_mode": "dead_player"}},
        "options.five_player_mode",
    ),
    ("unknown_key", FOUR, {"poignee": []}, "poignee"),
    ("unknown_level", FOUR, {"poignees": [{"side": "attack", "level": "quadruple"}]}, "poignees[0].level"),
    ("unknown_poignee_side", FOUR, {"poignees": [{"side": "both", "level": "simple"}]}, "poignees[0].side"),
    ("unknown_poignee_key", FOUR, {"poignees": [{**SIMPLE, "trumps": 10}]}, "poignees[0].trumps"),
    (
        "two_poignees_one_seat",
        FIVE,
        {"poignees": [{**SIMPLE, "seat": 1}, {**SIMPLE, "seat": 1}]},
        "poignees[1].seat",
    ),
    ("two_attack_poignees_in_four", FOUR, {"poignees": [SIMPLE, SIMPLE]}, "poignees[1]"),
    ("poignee_seat_not_in_its_side", FOUR, {"poignees": [{**SIMPLE, "seat": 2}]}, "poignees[0].seat"),
    ("poignee_seat_out_of_range", FOUR, {"poignees": [{**SIMPLE, "seat": 7}]}, "poignees[0].seat"),
    ("poignees_not_a_list", FOUR, {"poignees": {"side": "attack"}}, "poignees"),
    ("partner_in_four", FOUR, {"partner": 1}, "partner"),
    ("partner_in_three", {**FOUR, "players": 3}, {"partner": 1}, "partner"),
    ("partner_out_of_range", FIVE, {"partner": 5}, "partner"),
    (
        "petit_au_bout_attack_no_oudler",
        FOUR,
        {"oudlers": 0, "points": 30, "petit_au_bout": "attack"},
        "petit_au_bout",
    ),
    ("petit_au_bout_defense_three", FOUR, {"oudlers": 3, "petit_au_bout": "defense"}, "petit_au_bout"),
    ("petit_au_bout_unknown_side", FOUR, {"petit_au_bout": 0}, "petit_au_bout"),
    (
        "petit_au_bout_defense_in_attack_slam",
        FOUR,
        {"points": 86.5, "petit_au_bout": "defense", "chelem": {"won_by": "attack"}},
        "petit_au_bout",
    ),
    ("pousse_without_bid_pousse", FOUR, {"contract": "pousse"}, "contract"),
    ("petite_under_no_petite", FOUR, {"contract": "petite", "options": {"no_petite": True}}, "contract"),
    ("misere_without_bonus", FOUR, {"misere": [{"seat": 1, "kind": "no_trumps"}]}, "misere[0]"),
    (
        "misere_unknown_kind",
        FOUR,
        {"misere": [{"seat": 1, "kind": "no_kings"}], "options": {"misere_bonus": 10}},
        "misere[0].kind",
    ),
    (
        "misere_single_kind_under_both_required",
        FOUR,
        {
            "misere": [{"seat": 1, "kind": "no_trumps"}],
            "options": {"misere_bonus": 10, "misere_kinds": "both_required"},
        },
        "misere[0].kind",
    ),
    (
        "misere_twice_for_one_seat",
        FOUR,
        {
            "misere": [{"seat": 1, "kind": "both"}, {"seat": 1, "kind": "no_trumps"}],
            "options": {"misere_bonus": 10},
        },
        "misere[1]",
    ),
    (
        "misere_seat_out_of_range",
        FOUR,
        {"misere": [{"seat": 4, "kind": "no_trumps"}], "options": {"misere_bonus": 10}},
        "misere[0].seat",
    ),
    ("chelem_unknown_winner", FOUR, {"chelem": {"announced": False, "won_by": "taker"}}, "chelem.won_by"),
    ("chelem_announced_not_boolean", FOUR, {"chelem": {"announced": "yes"}}, "chelem.announced"),
    ("chelem_not_an_object", FOUR, {"chelem": True}, "chelem"),
    (
        "partial_slam_without_option",
        FOUR,
        {"partial_slam": {"announced": False, "made": True}},
        "partial_slam",
    ),
    (
        "partial_slam_made_with_full_slam",
        FOUR,
        {
            "oudlers": 3,
            "points": 91,
            "chelem": {"won_by": "attack"},
            "partial_slam": {"announced": False, "made": True},
            "options": {"partial_slam": {"max_missing": 1}},
        },
        "partial_slam.made",
    ),
    ("dead_without_dead_player_mode", FIVE, {"partner": None, "dead": 2}, "dead"),
    (
        "dead_player_mode_without_dead",
        FIVE,
        {"partner": None, "options": {"five_player_mode": "dead_player"}},
        "dead",
    ),
    (
        "dead_player_is_the_taker",
        FIVE,
        {"partner": None, "dead": 0, "options": {"five_player_mode": "dead_player"}},
        "dead",
    ),
    (
        "partner_in_dead_player_mode",
        FIVE,
        {"dead": 3, "options": {"five_player_mode": "dead_player"}},
        "partner",
    ),
    (
        "two_players_threshold_55",
        TWO,
        {"options": {"threshold_0_oudlers": 55}},
        "options.threshold_0_oudlers",
    ),
    ("two_players_points_not_91", TWO, {"points": [50, 40]}, "points"),
    ("two_players_points_not_a_pair", TWO, {"points": 50}, "points"),
    ("two_players_points_out_of_range", TWO, {"points": [92, -1]}, "points[0]"),
    ("two_players_oudlers_not_3", TWO, {"oudlers": [2, 2]}, "oudlers"),
    ("two_players_four_oudlers", TWO, {"oudlers": [4, -1]}, "oudlers[0]"),
    ("two_players_poignee", TWO, {"poignees": [SIMPLE]}, "poignees"),
    ("two_players_taker", TWO, {"taker": 0}, "taker"),
    ("two_players_petit_au_bout_seat", TWO, {"petit_au_bout": 2}, "petit_au_bout"),
    ("two_players_petit_au_bout_no_oudler", TWO, {"oudlers": [3, 0], "petit_au_bout": 1}, "petit_au_bout"),
    (
        "two_players_chelem_without_option",
        TWO,
        {"chelem": {"announced_by": None, "won_by": 0}},
        "chelem.won_by",
    ),
    ("austrian_points_above_70", AUSTRIAN, {"points": 71}, "points"),
    (
        "austrian_points_above_74_with_jack_3",
        AUSTRIAN,
        {"points": 75, "options": {"austrian_jack_value": 3}},
        "points",
    ),
    ("austrian_points_negative", AUSTRIAN, {"points": -1}, "points"),
    ("austrian_points_fractional", AUSTRIAN, {"points": 40.5}, "points"),
    ("austrian_talon_half_for_solo", AUSTRIAN, {"bid": "solo", "talon_half": 1}, "talon_half"),
    ("austrian_threesome_without_half", AUSTRIAN, {"talon_half": None}, "talon_half"),
    ("austrian_talon_half_3", AUSTRIAN, {"talon_half": 3}, "talon_half"),
    ("austrian_unknown_bid", AUSTRIAN, {"bid": "dreier"}, "bid"),
    ("austrian_unknown_game_type", AUSTRIAN, {"game_type": "game1"}, "game_type"),
    (
        "austrian_game_2_not_allowed",
        AUSTRIAN,
        {"game_type": "35_or_less", "options": {"austrian_allow_game2": False}},
        "game_type",
    ),
    ("austrian_four_players", AUSTRIAN, {"players": 4}, "players"),
    ("austrian_declarer_out_of_range", AUSTRIAN, {"declarer": 3}, "declarer"),
    (
        "austrian_unknown_option_value",
        AUSTRIAN,
        {"options": {"austrian_jack_value": 4}},
        "options.austrian_jack_value",
    ),
    ("austrian_french_key", AUSTRIAN, {"contract": "garde"}, "contract"),
    ("austrian_misspelt_key", AUSTRIAN, {"talon": 1}, "talon"),
]


def _changed(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    data = copy.deepcopy(base)
    for key, value in changes.items():
        if value is None and key in ("points", "game", "players", "talon_half", "partner"):
            data.pop(key, None)
            if key == "talon_half":
                data["talon_half"] = None
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(("base", "changes", "field"), [pytest.param(*r[1:], id=r[0]) for r in REFUSALS])
def test_impossible_summary_is_refused_naming_the_field_9(
    base: dict[str, Any], changes: dict[str, Any], field: str
) -> None:
    with pytest.raises(SummaryError) as err:
        parse_summary(_changed(base, changes))
    assert err.value.field == field
    assert str(err.value).startswith(f"{field}: ")
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize(("base", "changes", "field"), [pytest.param(*r[1:], id=r[0]) for r in REFUSALS])
def test_impossible_summary_exits_2_with_field_in_message_9(
    base: dict[str, Any], changes: dict[str, Any], field: str, run_score: Any
) -> None:
    result = run_score(_changed(base, changes), "--json")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(f"error: {field}: ")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_summary_error_message_names_the_field_9() -> None:
    with pytest.raises(SummaryError, match=r"^poignees\[0\]\.level: unknown value 'quad'"):
        parse_summary({**FOUR, "poignees": [{"side": "attack", "level": "quad"}]})


def test_unknown_key_suggests_the_close_name_9() -> None:
    with pytest.raises(SummaryError, match="did you mean 'poignees'"):
        parse_summary({**FOUR, "poignee": []})


def test_unknown_option_message_comes_from_rules_8() -> None:
    with pytest.raises(SummaryError, match="did you mean 'bid_pousse'"):
        parse_summary({**FOUR, "options": {"pousse": True}})


def test_defaults_may_be_left_out_9() -> None:
    summary = parse_summary(FOUR)
    assert isinstance(summary, FrenchSummary)
    assert summary.poignees == () and summary.petit_au_bout is None and summary.chelem_won_by is None
    explicit = {
        **FOUR,
        "petit_au_bout": None,
        "poignees": [],
        "chelem": {"announced": False, "won_by": None},
        "misere": [],
        "partial_slam": None,
        "options": {},
    }
    assert parse_summary(explicit) == summary


def test_partner_equal_to_taker_means_alone_9() -> None:
    alone = parse_summary({**FIVE, "partner": 0})
    assert isinstance(alone, FrenchSummary)
    assert alone.partner is None and alone.alone
    assert (
        alone
        == parse_summary({**FIVE, "partner": None})
        == parse_summary({k: v for k, v in FIVE.items() if k != "partner"})
    )


def test_half_points_are_stored_doubled_3_11() -> None:
    summary = parse_summary({**FOUR, "players": 3, "points": 40.5})
    assert isinstance(summary, FrenchSummary)
    assert summary.half_points == 81 and summary.points == 40.5


def test_poignee_seat_is_optional_and_kept_9() -> None:
    summary = parse_summary({**FIVE, "poignees": [{"side": "defense", "level": "triple", "seat": 3}, SIMPLE]})
    assert isinstance(summary, FrenchSummary)
    assert summary.poignees == (PoigneeDeclared("defense", "triple", 3), PoigneeDeclared("attack", "simple"))


def test_the_three_formats_parse_to_their_types_9() -> None:
    assert isinstance(parse_summary(FOUR), FrenchSummary)
    assert isinstance(parse_summary(TWO), TwoPlayerSummary)
    assert isinstance(parse_summary(AUSTRIAN), AustrianSummary)
    without_players = {k: v for k, v in AUSTRIAN.items() if k != "players"}
    assert parse_summary(without_players) == parse_summary(AUSTRIAN)


@pytest.mark.parametrize(
    "data",
    [
        FOUR,
        {
            **FIVE,
            "petit_au_bout": "attack",
            "poignees": [{**SIMPLE, "seat": 1}],
            "options": {"five_player_split": "equal"},
        },
        {
            **FIVE,
            "partner": None,
            "dead": 4,
            "options": {"five_player_mode": "dead_player", "misere_bonus": 10},
        },
        {**FOUR, "players": 3, "points": 40.5, "options": {"round_margin_to": 5, "round_mode": "up"}},
        {
            **FOUR,
            "chelem": {"announced": True, "won_by": None},
            "misere": [{"seat": 3, "kind": "both"}],
            "partial_slam": {"announced": False, "made": True},
            "options": {
                "misere_bonus": 10,
                "partial_slam": {"max_missing": 3},
                "poignee_thresholds": {"4": [9, 12, 14]},
                "slam_values": {"announced_made": 500, "unannounced_made": 250},
            },
        },
        {
            **TWO,
            "petit_au_bout": 0,
            "chelem": {"announced_by": 1, "won_by": None},
            "options": {"two_player_chelem": True},
        },
        {**TWO, "points": [50.5, 40.5]},
        {**AUSTRIAN, "bid": "solo", "talon_half": None, "options": {"austrian_scoring": "zero_sum"}},
    ],
)
def test_summary_to_json_round_trips_9(data: dict[str, Any]) -> None:
    summary = parse_summary(data)
    written = summary_to_json(summary)
    assert json.loads(json.dumps(written)) == written
    assert parse_summary(written) == summary
    assert summary_to_json(parse_summary(written)) == written


def test_summary_to_json_writes_points_as_json_numbers_9() -> None:
    assert summary_to_json(parse_summary({**FOUR, "players": 3, "points": 40.5}))["points"] == 40.5
    assert summary_to_json(parse_summary(FOUR))["points"] == 49
    assert summary_to_json(parse_summary(TWO))["options"] == {}


def test_a_summary_must_be_an_object_9() -> None:
    with pytest.raises(SummaryError) as err:
        parse_summary([FOUR])
    assert err.value.field == "summary"

"""rule book §8: the option registry, validated on construction."""

from __future__ import annotations

import dataclasses

import pytest

from atout.rules import OPTION_HELP, Rules, RulesError


def test_defaults_are_the_fft_rules_8() -> None:
    rules = Rules()
    assert rules.players == 4
    assert [rules.threshold(b) for b in range(4)] == [56, 51, 41, 36]
    assert [rules.multiplier(c) for c in rules.contracts] == [1, 2, 4, 6]
    assert rules.contracts == ("petite", "garde", "garde_sans", "garde_contre")
    assert rules.poignee_levels() == (10, 13, 15)
    assert rules.poignee_levels(3) == (13, 15, 18) and rules.poignee_levels(5) == (8, 10, 13)
    assert rules.scoring_system == "fft_free_deals"
    assert rules.changed() == {}


def test_every_option_has_a_one_line_explanation() -> None:
    assert {f.name for f in dataclasses.fields(Rules)} == set(OPTION_HELP)


def test_pousse_switches_the_multipliers_7_v1() -> None:
    rules = Rules(bid_pousse=True)
    assert rules.contracts == ("petite", "pousse", "garde", "garde_sans", "garde_contre")
    assert [rules.multiplier(c) for c in rules.contracts] == [1, 2, 4, 8, 16]


def test_no_petite_removes_the_lowest_bid_7_v2() -> None:
    assert Rules(no_petite=True).contracts[0] == "garde"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"pousse": True}, "unknown option 'pousse'"),
        ({"players": 6}, "players must be"),
        ({"bid_pousse": "yes"}, "bid_pousse must be true or false"),
        ({"threshold_0_oudlers": 54}, "threshold_0_oudlers must be 56 or 55"),
        ({"players": 2, "threshold_0_oudlers": 55}, "refused with 2 players"),
        ({"round_margin_to": 3}, "round_margin_to must be 1, 5 or 10"),
        ({"first_bidder": "dealer_opposite"}, "first_bidder must be one of"),
        ({"poignee_thresholds": {"4": [10, 13]}}, "three increasing"),
        ({"scoring_system": "rounded_5"}, "read-only"),
        ({"game": "austrian", "players": 4}, "3 players"),
    ],
)
def test_unknown_options_and_bad_values_are_clear_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.from_options(options)


def test_command_line_assignments() -> None:
    rules = Rules.parse_assignments(
        ["bid_pousse=true", "threshold_0_oudlers=55", "five_player_split=equal"], players=5
    )
    assert rules.bid_pousse and rules.threshold(0) == 55 and rules.five_player_split == "equal"
    assert rules.changed() == {"bid_pousse": True, "threshold_0_oudlers": 55, "five_player_split": "equal"}
    with pytest.raises(RulesError, match="name=value"):
        Rules.parse_assignments(["bid_pousse"])


def test_rules_are_frozen_and_hashable() -> None:
    rules = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.players = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        rules.poignee_thresholds[4] = (1, 2, 3)  # type: ignore[index]
    assert hash(rules) == hash(Rules())
    assert Rules.from_options(rules.to_dict()) == rules


def test_scoring_system_name_follows_its_options_7_v9() -> None:
    assert Rules(round_margin_to=10).scoring_system == "rounded_10"
    assert Rules(players=5, five_player_mode="dead_player").scoring_system == "fft_dead_player_5"


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("half_point_rule", "to_contract_winner"),
        ("poignee_timing", "before_own_first_card"),
        ("austrian_all_pass", "redeal"),
    ],
)
def test_single_reading_options_name_their_one_value_8(option: str, value: str) -> None:
    # kept so that records and tables can name the rule; rule book §8 gives them one value
    assert getattr(Rules.from_options({option: value}), option) == value
    with pytest.raises(RulesError, match=option):
        Rules.from_options({option: "something_else"})

"""The Austrian actions: integer layout, names and parsing (docs/austrian.md)."""

from __future__ import annotations

import pytest

from atout.cards import parse_card
from atout.engine.austrian.actions import (
    ACCEPT_FIRST_HALF,
    AUSTRIAN_ACTIONS,
    GAME_1,
    GAME_2,
    N_AUSTRIAN_ACTIONS,
    PASS,
    SOLO,
    TAKE_SECOND_HALF,
    THREESOME,
    AustrianActionKind,
    action_name,
    parse_austrian_action,
)


def test_integer_layout() -> None:
    assert N_AUSTRIAN_ACTIONS == 163
    assert AUSTRIAN_ACTIONS[parse_card("KS")].kind is AustrianActionKind.PLAY
    assert str(AUSTRIAN_ACTIONS[78 + parse_card("3D")]) == "discard 3D"
    assert [
        int(a) for a in (PASS, THREESOME, SOLO, ACCEPT_FIRST_HALF, TAKE_SECOND_HALF, GAME_1, GAME_2)
    ] == list(range(156, 163))
    assert [str(a) for a in AUSTRIAN_ACTIONS[156:]] == [
        "pass",
        "threesome",
        "solo",
        "accept_first_half",
        "take_second_half",
        "36_or_more",
        "35_or_less",
    ]


def test_action_properties() -> None:
    assert AUSTRIAN_ACTIONS[77].card == 77 and str(AUSTRIAN_ACTIONS[77]) == "play EX"
    assert SOLO.bid == "solo" and SOLO.card is None and SOLO.kind is AustrianActionKind.BID
    assert TAKE_SECOND_HALF.talon_half == 2 and ACCEPT_FIRST_HALF.talon_half == 1
    assert GAME_2.game_type == "35_or_less" and GAME_2.kind is AustrianActionKind.GAME
    assert repr(GAME_1) == "AustrianAction('36_or_more')"
    assert isinstance(GAME_1, int) and GAME_1 == 161


def test_talon_names_under_free_choice_5_3() -> None:
    assert action_name(ACCEPT_FIRST_HALF) == "accept_first_half"
    assert action_name(ACCEPT_FIRST_HALF, free_choice=True) == "take_half_1"
    assert action_name(TAKE_SECOND_HALF, free_choice=True) == "take_half_2"
    assert action_name(PASS, free_choice=True) == "pass"


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("pass", PASS),
        ("P", PASS),
        ("Threesome", THREESOME),
        ("dreier", THREESOME),
        ("solo", SOLO),
        ("accept", ACCEPT_FIRST_HALF),
        ("accept first half", ACCEPT_FIRST_HALF),
        ("take_half_1", ACCEPT_FIRST_HALF),
        ("widow 1", ACCEPT_FIRST_HALF),
        ("reject", TAKE_SECOND_HALF),
        ("take_half_2", TAKE_SECOND_HALF),
        ("take second half", TAKE_SECOND_HALF),
        ("36_or_more", GAME_1),
        ("game 1", GAME_1),
        ("game2", GAME_2),
        ("35 or less", GAME_2),
    ],
)
def test_parse_words(text: str, action: int) -> None:
    assert parse_austrian_action(text) == action


def test_parse_cards_with_verbs() -> None:
    assert parse_austrian_action("KS") == parse_card("KS")
    assert parse_austrian_action("T22") == 77
    assert parse_austrian_action("skus", card_verb="discard") == 78 + 77
    assert parse_austrian_action("discard 1h") == 78 + parse_card("1H")
    assert parse_austrian_action("play JD", card_verb="discard") == parse_card("JD")


@pytest.mark.parametrize("text", ["garde", "5H", "play 5H", "T23", ""])
def test_parse_refuses_other_words(text: str) -> None:
    with pytest.raises(ValueError):
        parse_austrian_action(text)


def test_parse_refuses_unknown_card_verb() -> None:
    with pytest.raises(ValueError, match="card verb"):
        parse_austrian_action("KS", card_verb="call")

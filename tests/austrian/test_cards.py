"""rule book §1.2 and §9.3: the 54-card pack, its order, the card values and the count in threes."""

from __future__ import annotations

import pytest

from atout.cards import AUSTRIAN_DECK_MASK, CLUBS, DIAMONDS, HEARTS, SPADES, TRUMP, card_name, suit_card
from atout.engine.austrian.cards import (
    AUSTRIAN_CARDS,
    SKUS,
    STRENGTH,
    austrian_points,
    card_value,
    parse_austrian_card,
)
from atout.engine.austrian.tricks import winning_card

from .conftest import mask


def test_pack_is_54_cards_without_black_1_to_6_and_red_5_to_10_1_2() -> None:
    assert len(AUSTRIAN_CARDS) == 54
    for suit in (SPADES, CLUBS):
        assert [r for r in range(1, 15) if AUSTRIAN_DECK_MASK >> suit_card(suit, r) & 1] == [
            7,
            8,
            9,
            10,
            11,
            12,
            13,
            14,
        ]
    for suit in (HEARTS, DIAMONDS):
        assert [r for r in range(1, 15) if AUSTRIAN_DECK_MASK >> suit_card(suit, r) & 1] == [
            1,
            2,
            3,
            4,
            11,
            12,
            13,
            14,
        ]
    assert sum(1 for c in AUSTRIAN_CARDS if c >= 56) == 22  # 21 trumps and Sküs


def order(suit_cards: str) -> list[str]:
    """Cards strongest first."""
    return [
        card_name(c)
        for c in sorted(
            (parse_austrian_card(w) for w in suit_cards.split()), key=STRENGTH.__getitem__, reverse=True
        )
    ]


def test_black_suits_rank_king_to_seven_1_2() -> None:
    assert order("7S 8S 9S 10S JS CS QS KS") == ["KS", "QS", "CS", "JS", "10S", "9S", "8S", "7S"]
    assert card_name(winning_card(mask("9C 10C 7C"), CLUBS)) == "10C"


def test_red_suits_rank_king_to_four_1_2() -> None:
    assert order("4H 3H 2H 1H JH CH QH KH") == ["KH", "QH", "CH", "JH", "1H", "2H", "3H", "4H"]
    assert order("4D 3D 2D 1D JD CD QD KD") == ["KD", "QD", "CD", "JD", "1D", "2D", "3D", "4D"]


def test_red_trick_winner_is_not_the_highest_bit_1_2() -> None:
    assert card_name(winning_card(mask("2H 4H 3H"), HEARTS)) == "2H"
    assert card_name(winning_card(mask("4D 1D 3D"), DIAMONDS)) == "1D"
    assert card_name(winning_card(mask("1H JH 4H"), HEARTS)) == "JH"
    # a card of another suit never wins
    assert card_name(winning_card(mask("4H KS KD"), HEARTS)) == "4H"


def test_skus_is_the_top_trump_1_2() -> None:
    assert card_name(winning_card(mask("T21 EX T20"), TRUMP)) == "EX"
    assert card_name(winning_card(mask("KS EX QS"), SPADES)) == "EX"
    assert card_name(winning_card(mask("KS T1 QS"), SPADES)) == "T1"


@pytest.mark.parametrize(
    ("card", "value"),
    [
        ("EX", 5),
        ("T21", 5),
        ("T1", 5),
        ("KH", 5),
        ("QS", 4),
        ("CD", 3),
        ("JC", 2),
        ("T20", 1),
        ("1H", 1),
        ("7S", 1),
    ],
)
def test_card_values_trull_5_king_5_queen_4_cavalier_3_jack_2_blank_1_1_2(card: str, value: int) -> None:
    assert card_value(parse_austrian_card(card)) == value


def test_jack_value_3_option_counts_jacks_3_6_2_a1() -> None:
    assert card_value(parse_austrian_card("JC"), 3) == 3


def test_deck_totals_70_or_74_with_jack_3_1_2() -> None:
    assert austrian_points(AUSTRIAN_DECK_MASK) == 70
    assert austrian_points(AUSTRIAN_DECK_MASK, 3) == 74


def test_seed_trick_examples_at_t1_t2_9_3() -> None:
    # K, J, 8 = 6 with J = 2, 7 as printed with J = 3; trumps 18, 10, 5 = 1
    assert austrian_points(mask("KS JS 8S")) == 6
    assert austrian_points(mask("KS JS 8S"), 3) == 7
    assert austrian_points(mask("T18 T10 T5")) == 1


@pytest.mark.parametrize(
    ("cards", "points"),
    [("KS QS CS", 10), ("KS QS 8S", 8), ("KS 9S 8S", 5), ("10S 9S 8S", 1)],  # 3, 2, 1, 0 counters
)
def test_counting_table_by_number_of_counters_1_2(cards: str, points: int) -> None:
    assert austrian_points(mask(cards)) == points


AT_C1_DECLARER = [
    ("EX T21 T5", 9),
    ("KS 7S 8S", 5),
    ("KH QH 1H", 8),
    ("T20 T19 T1", 5),
    ("QS JS 9S", 5),
    ("T18 T3 T4", 1),
    ("CD 2D 3D", 3),
    ("CC JC 10C", 4),  # the discard
]


def test_at_c1_worked_count_declarer_40_defenders_30_9_3() -> None:
    pile = 0
    for cards, points in AT_C1_DECLARER:
        assert austrian_points(mask(cards)) == points
        pile |= mask(cards)
    assert pile.bit_count() == 24
    assert austrian_points(pile) == 40
    assert austrian_points(AUSTRIAN_DECK_MASK & ~pile) == 30
    # with J = 3: the declarer's cards count 42 of 74
    assert austrian_points(pile, 3) == 42
    assert austrian_points(pile, 3) + austrian_points(AUSTRIAN_DECK_MASK & ~pile, 3) == 74


def test_piles_are_counted_in_threes_1_2() -> None:
    with pytest.raises(ValueError, match="in threes"):
        austrian_points(mask("KS QS"))


def test_skus_reads_as_t22_or_skus_and_french_only_cards_are_refused_1_2() -> None:
    assert parse_austrian_card("T22") == parse_austrian_card("sküs") == parse_austrian_card("EX") == SKUS
    with pytest.raises(ValueError, match="not in the Austrian pack"):
        parse_austrian_card("5H")
    with pytest.raises(ValueError, match="not in the Austrian pack"):
        parse_austrian_card("1S")

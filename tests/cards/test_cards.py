"""rule book §1.1: the 78-card pack, card points, notation and CardSet."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from atout.cards import (
    ALL_CARDS,
    BOUTS_MASK,
    EXCUSE,
    FULL_DECK,
    HALF_POINTS,
    KINGS_MASK,
    N_CARDS,
    NAMES,
    PETIT,
    TRUMP,
    TRUMP_21,
    CardSet,
    card_name,
    half_points,
    parse_card,
    rank_of,
    suit_card,
    suit_of,
    trump,
)

masks = st.integers(min_value=0, max_value=ALL_CARDS)


def test_pack_has_78_cards_and_91_points_1_1() -> None:
    assert len(FULL_DECK) == N_CARDS == 78
    assert FULL_DECK.points() == 91
    assert sum(HALF_POINTS) == 182


def test_card_values_by_kind_1_1() -> None:
    assert [HALF_POINTS[c] for c in (trump(21), PETIT, EXCUSE, suit_card(0, 14))] == [9, 9, 9, 9]
    assert HALF_POINTS[suit_card(1, 13)] == 7  # queen 3.5
    assert HALF_POINTS[suit_card(2, 12)] == 5  # cavalier 2.5
    assert HALF_POINTS[suit_card(3, 11)] == 3  # valet 1.5
    assert HALF_POINTS[suit_card(3, 10)] == 1 and HALF_POINTS[trump(20)] == 1


def test_bouts_are_21_petit_and_excuse_1_1() -> None:
    assert CardSet(BOUTS_MASK) == CardSet.parse("T21 T1 EX")
    assert len(CardSet(KINGS_MASK)) == 4


def test_worked_count_of_a_taker_pile_1_1() -> None:
    # rule book §1.1: K♠ K♥ 21 Excuse D♦ C♣ V♥ and 15 low cards make 33 points, 2 bouts.
    pile = CardSet.parse("KS KH T21 EX QD CC JH 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H 2H 3H 4H 5H")
    assert len(pile) == 22
    assert pile.points() == 33
    assert pile.bouts() == 2


@given(masks)
def test_a_split_pack_always_totals_91_points_1_1(mask: int) -> None:
    assert half_points(mask) + half_points(ALL_CARDS & ~mask) == 182
    assert half_points(mask) == sum(HALF_POINTS[c] for c in CardSet(mask))


def test_every_card_name_parses_back() -> None:
    for card in range(N_CARDS):
        assert parse_card(card_name(card)) == card
    assert len(set(NAMES)) == N_CARDS


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("rs", "KS"),
        ("DH", "QH"),
        ("vc", "JC"),
        ("K♦", "KD"),
        ("21", "T21"),
        ("excuse", "EX"),
        ("*", "EX"),
        ("AS", "1S"),
    ],
)
def test_notation_accepts_french_letters_and_symbols(text: str, name: str) -> None:
    assert card_name(parse_card(text)) == name


@pytest.mark.parametrize("text", ["", "T22", "11S", "KX", "ZZ", "T0"])
def test_bad_card_names_are_refused_clearly(text: str) -> None:
    with pytest.raises(ValueError, match=r"card|trump"):
        parse_card(text)


def test_ranks_and_suits() -> None:
    assert suit_of(trump(5)) == TRUMP and rank_of(trump(5)) == 5
    assert rank_of(EXCUSE) == 0 and rank_of(suit_card(1, 14)) == 14
    assert trump(21) == TRUMP_21


@given(masks, masks)
def test_cardset_behaves_like_a_set(a: int, b: int) -> None:
    x, y = CardSet(a), CardSet(b)
    assert set(x | y) == set(x) | set(y)
    assert set(x & y) == set(x) & set(y)
    assert set(x - y) == set(x) - set(y)
    assert set(x ^ y) == set(x) ^ set(y)
    assert len(x) == len(set(x))
    assert all(c in x for c in x)
    assert CardSet.parse(str(x)) == x
    assert (x & y) <= x


def test_hand_display_order() -> None:
    hand = CardSet.parse("1S KS T3 EX T21 QH")
    assert [card_name(c) for c in hand.sorted_for_display()] == ["T21", "T3", "EX", "KS", "1S", "QH"]

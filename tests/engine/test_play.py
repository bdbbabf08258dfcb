"""rule book §3.8: the legal-move algorithm, trick winners and who leads."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from atout.cards import CardSet, card_name
from atout.engine import FrenchDeal, IllegalActionError, Phase

from .conftest import MakeDeal

Act = Callable[..., FrenchDeal]

SPADES = "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S"
HEARTS = "1H 2H 3H 4H 5H 6H 7H 8H 9H 10H JH CH QH KH"
DIAMONDS = "1D 2D 3D 4D 5D 6D 7D 8D 9D 10D JD CD QD KD"
CLUBS = "1C 2C 3C 4C 5C 6C 7C 8C 9C 10C JC CC QC KC"

# Seat 0 (the taker, leading) has spades and high trumps; the three others are void in spades.
VOID_HANDS = {
    0: f"{SPADES} T21 T20 T19 T18 T17 T16 T1 KS",
    1: f"{HEARTS} T10 T2 T3 T4",
    2: f"{DIAMONDS} T15 T5 T6 T7",
    3: f"{CLUBS} T8 T9 T11 T12",
}
VOID_CHIEN = "T13 T14 EX JS CS QS"
# Seat 1 has neither spades nor trumps.
NO_TRUMP_HANDS = {
    0: f"{SPADES} T21 T20 T19 T18 T17 T16 T1 KS",
    1: f"{HEARTS} 1D 2D 3D 4D",
    2: "5D 6D 7D 8D 9D 10D JD CD QD KD T15 T5 T6 T7 T2 T3 T4 T10",
    3: f"{CLUBS} T8 T9 T11 T12",
}
# Seat 0 leads the Excuse.
EXCUSE_LEAD_HANDS = {
    0: f"EX {SPADES} T21 T20 T19 T18 T17 T16 T1",
    1: f"{HEARTS} T10 T2 T3 T4",
    2: "KS 2D 3D 4D 5D 6D 7D 8D 9D 10D JD CD QD 1D T15 T5 T6 T7",
    3: f"{CLUBS} T8 T9 T11 T12",
}


def legal_names(deal: FrenchDeal) -> set[str]:
    return {card_name(c) for c in CardSet(deal.legal_play_mask())}


def started(make_deal: MakeDeal, act: Act, hands: dict[int, str], chien: str) -> FrenchDeal:
    deal = make_deal(hands=hands, chien=chien)
    act(deal, "garde_sans", "pass", "pass", "pass", "no_chelem")
    assert deal.phase is Phase.PLAY and deal.current_player == 0
    return deal


def test_any_card_may_be_led_3_8_step_2(make_deal: MakeDeal, act: Act) -> None:
    deal = started(make_deal, act, VOID_HANDS, VOID_CHIEN)
    assert deal.legal_play_mask() == deal.hands[0]


def test_void_in_the_suit_led_must_trump_3_8_step_3(make_deal: MakeDeal, act: Act) -> None:
    deal = started(make_deal, act, VOID_HANDS, VOID_CHIEN)
    act(deal, "1S")
    assert legal_names(deal) == {"T2", "T3", "T4", "T10"}
    with pytest.raises(IllegalActionError, match="must trump"):
        act(deal, "1H")
    assert deal.current_player == 1 and deal.trick_cards == [0]


def test_must_overtrump_even_a_partners_trump_3_8_step_3(make_deal: MakeDeal, act: Act) -> None:
    deal = started(make_deal, act, VOID_HANDS, VOID_CHIEN)
    act(deal, "1S", "T10")
    # seat 2 defends with seat 1, whose T10 holds the trick; still he must go over it
    assert legal_names(deal) == {"T15"}
    with pytest.raises(IllegalActionError, match="higher than the highest trump"):
        act(deal, "T5")


def test_undertrump_when_unable_to_overtrump_3_8_step_3(make_deal: MakeDeal, act: Act) -> None:
    deal = started(make_deal, act, VOID_HANDS, VOID_CHIEN)
    act(deal, "1S", "T10", "T15")
    assert legal_names(deal) == {"T8", "T9", "T11", "T12"}


def test_highest_trump_wins_and_its_player_leads_next_3_8(make_deal: MakeDeal, act: Act) -> None:
    deal = started(make_deal, act, VOID_HANDS, VOID_CHIEN)
    act(deal, "1S", "T10", "T15", "T8")
    assert deal.trick_winners == [2]
    assert deal.current_player == 2 and deal.trick_cards == []
    assert deal.won[2].bit_count() == 4


def test_on_a_trump_lead_must_go_higher_when_able_3_8_step_4(make_deal: MakeDeal, act: Act) -> None:
    deal = started(make_deal, act, VOID_HANDS, VOID_CHIEN)
    act(deal, "1S", "T10", "T15", "T8")
    act(deal, "T5")  # seat 2 leads a trump
    assert legal_names(deal) == {"T9", "T11", "T12"}  # every trump left beats the T5
    act(deal, "T9")
    assert legal_names(deal) == {"T21", "T20", "T19", "T18", "T17", "T16"}  # not the Petit
    act(deal, "T16")
    assert legal_names(deal) == {"T2", "T3", "T4"}  # cannot beat T16: any trump


def test_with_no_trump_any_card_may_follow_a_trump_lead_3_8_step_4(make_deal: MakeDeal, act: Act) -> None:
    deal = started(make_deal, act, NO_TRUMP_HANDS, VOID_CHIEN)
    act(deal, "T21")
    assert deal.legal_play_mask() == deal.hands[1]


def test_void_without_trumps_may_play_any_card_3_8_step_3(make_deal: MakeDeal, act: Act) -> None:
    deal = started(make_deal, act, NO_TRUMP_HANDS, VOID_CHIEN)
    act(deal, "1S")
    assert deal.legal_play_mask() == deal.hands[1]
    act(deal, "KH")  # a discard never wins
    act(deal, "T2", "T8")
    assert deal.trick_winners == [3]


def test_must_follow_suit_3_8_step_3(make_deal: MakeDeal, act: Act) -> None:
    hands = {
        0: f"{SPADES} T21 T20 T19 T18 T17 T16 T1 KS",
        1: "JS CS QS EX 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H T2 T3 T4 T10",
        2: f"{DIAMONDS} T15 T5 T6 T7",
        3: f"{CLUBS} T8 T9 T11 T12",
    }
    deal = started(make_deal, act, hands, "T13 T14 JH CH QH KH")
    act(deal, "2S")
    # follow with a spade, or play the Excuse, which is always legal (step 1)
    assert legal_names(deal) == {"JS", "CS", "QS", "EX"}
    with pytest.raises(IllegalActionError, match="must follow suit"):
        act(deal, "T2")
    act(deal, "QS", "T5", "T8")
    assert deal.trick_winners == [3]


def test_highest_card_of_the_suit_led_wins_without_trumps_3_8(make_deal: MakeDeal, act: Act) -> None:
    hands = {
        0: f"{SPADES} T21 T20 T19 T18 T17 T16 T1 KS",
        1: "JS CS QS EX 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H T2 T3 T4 T10",
        2: "KD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD CD QD 1D T15 T5 T6 T7",
        3: f"{CLUBS} T8 T9 T11 T12",
    }
    deal = started(make_deal, act, hands, "T13 T14 JH CH QH KH")
    act(deal, "KS", "QS")
    # seat 2 is void in spades and must trump
    act(deal, "T5", "T8")
    assert deal.trick_winners == [3]


def test_excuse_led_lets_the_next_card_fix_the_suit_3_8_step_2(make_deal: MakeDeal, act: Act) -> None:
    deal = started(make_deal, act, EXCUSE_LEAD_HANDS, "T13 T14 KD JS CS QS")
    act(deal, "EX")
    assert deal.legal_play_mask() == deal.hands[1]  # any card after an Excuse lead
    act(deal, "3H")
    assert deal.led_suit == 1
    # seat 2 has no heart: he must trump
    assert legal_names(deal) == {"T15", "T5", "T6", "T7"}
    act(deal, "T5", "T8")
    assert deal.trick_winners == [3]


def test_the_excuse_never_wins_an_ordinary_trick_3_8(make_deal: MakeDeal, act: Act) -> None:
    deal = started(make_deal, act, EXCUSE_LEAD_HANDS, "T13 T14 KD JS CS QS")
    act(deal, "EX", "1H", "T6", "T9")
    assert deal.trick_winners == [3]


def test_illegal_actions_leave_the_state_unchanged(make_deal: MakeDeal, act: Act) -> None:
    deal = started(make_deal, act, VOID_HANDS, VOID_CHIEN)
    act(deal, "1S")
    before = deal.clone()
    for word in ("1H", "KD", "garde", "discard 2S", "T21"):
        with pytest.raises(IllegalActionError) as info:
            act(deal, word)
        assert info.value.rule
    assert deal.hands == before.hands and deal.history == before.history
    assert deal.trick_cards == before.trick_cards and deal.events == before.events
    with pytest.raises(IllegalActionError, match="not an action"):
        deal.apply(9999)

"""rule book §3.9: the Excuse: kept against a low card, deferred debts, the last trick, variants."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from atout.cards import EXCUSE, EXCUSE_MASK, CardSet, card_name, parse_card
from atout.engine import FrenchDeal, IllegalActionError, Phase
from atout.engine.events import visible_to
from atout.engine.french import excuse_exchange_card

from .conftest import MakeDeal

Act = Callable[..., FrenchDeal]

SPADES = "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S"
HANDS = {
    0: f"{SPADES} T21 T20 T19 T18 T17 T16 T1 KS",
    1: "1H 2H 3H 4H 5H 6H 7H 8H 9H 10H JH CH QH EX T10 T2 T3 T4",
    2: "1D 2D 3D 4D 5D 6D 7D 8D 9D 10D JD CD QD KD T15 T5 T6 T7",
    3: "1C 2C 3C 4C 5C 6C 7C 8C 9C 10C JC CC QC KC T8 T9 T11 T12",
}
CHIEN = "T13 T14 KH JS CS QS"


def started(make_deal: MakeDeal, act: Act, **options: object) -> FrenchDeal:
    deal = make_deal(hands=HANDS, chien=CHIEN, **options)
    return act(deal, "garde_sans", "pass", "pass", "pass", "no_chelem")


def kinds(deal: FrenchDeal) -> list[str]:
    return [e.kind for e in deal.events]


def test_excuse_returns_to_its_side_against_a_low_card_3_9(make_deal: MakeDeal, act: Act) -> None:
    deal = started(make_deal, act)
    act(deal, "1S", "T10", "T15", "T8")  # the defence (seat 2) wins trick 1
    act(deal, "T5", "T9", "T21", "EX")  # the attack wins trick 2; seat 1 plays the Excuse
    assert deal.trick_winners == [2, 0]
    assert deal.won[1] == EXCUSE_MASK  # the Excuse returns to its player
    paid = [e for e in deal.events if e.kind == "excuse_paid"]
    assert len(paid) == 1 and (paid[0].card, paid[0].to) == (
        parse_card("T8"),
        0,
    )  # the defence's lowest trump
    assert deal.won[0] == CardSet.parse("T5 T9 T21 T8").mask
    assert deal.won[2] == CardSet.parse("1S T10 T15").mask


def test_debt_is_deferred_until_the_side_wins_a_trick_3_9(make_deal: MakeDeal, act: Act) -> None:
    deal = started(make_deal, act)
    act(deal, "T21", "EX", "T5", "T8")
    assert "excuse_kept" in kinds(deal) and "excuse_paid" not in kinds(deal)
    assert deal.won[0].bit_count() == 3
    act(deal, "1S", "T10", "T15", "T9")  # now the defence wins a trick and pays at once
    paid = [e for e in deal.events if e.kind == "excuse_paid"]
    assert paid and (paid[0].card, paid[0].to) == (parse_card("T9"), 0)
    assert deal.won[0].bit_count() == 4


def play_out_keeping_excuse(deal: FrenchDeal) -> FrenchDeal:
    """Everyone plays his lowest legal action: the Excuse (the highest action) comes last."""
    while not deal.is_over():
        deal.apply(deal.legal_actions()[0])
    return deal


def test_excuse_in_the_last_trick_changes_camp_3_9(make_deal: MakeDeal, act: Act) -> None:
    deal = play_out_keeping_excuse(started(make_deal, act))
    last_seats, last_cards, winner = deal.tricks[-1]
    assert EXCUSE in last_cards
    owner = last_seats[last_cards.index(EXCUSE)]
    assert not deal.is_attack(owner) and deal.is_attack(winner)
    assert deal.won[winner] & EXCUSE_MASK  # it goes to the winner of the last trick
    assert "excuse_kept" not in kinds(deal) and "excuse_paid" not in kinds(deal)


def test_excuse_must_be_played_before_the_last_trick_variant_3_9(make_deal: MakeDeal, act: Act) -> None:
    deal = started(make_deal, act, excuse_last_trick="must_play_before_last")
    while deal.hands[1].bit_count() > 2 or deal.current_player != 1:
        legal = deal.legal_actions()
        deal.apply(next((a for a in legal if a.card != EXCUSE), legal[0]))
    assert deal.hands[1] & EXCUSE_MASK
    assert deal.legal_play_mask() == EXCUSE_MASK
    other = next(c for c in CardSet(deal.hands[1]) if c != EXCUSE)
    with pytest.raises(IllegalActionError, match="before the last trick"):
        deal.apply(other)
    act(deal, "EX")


def test_the_exchange_card_is_the_lowest_trump_then_the_lowest_pip_3_9() -> None:
    assert card_name(excuse_exchange_card(CardSet.parse("KS 3H T12 T5 T21").mask)) == "T5"
    assert card_name(excuse_exchange_card(CardSet.parse("KS 3H 2D 10C").mask)) == "2D"
    assert card_name(excuse_exchange_card(CardSet.parse("2H 2S").mask)) == "2S"
    assert excuse_exchange_card(CardSet.parse("KS QH T21 T1").mask) == -1  # no half-point card yet


def test_any_won_card_exchange_variant_3_9() -> None:
    honours = CardSet.parse("KS QH JC T21").mask
    assert excuse_exchange_card(honours, "low") == -1
    assert card_name(excuse_exchange_card(honours, "any_won_card")) == "JC"
    assert card_name(excuse_exchange_card(CardSet.parse("KS 3H T12").mask, "any_won_card")) == "3H"


FIVE_HANDS = {
    0: "T21 T20 T19 T18 T17 1S 2S 3S 4S 5S 6S 7S 8S 9S 10H",
    1: "1H 2H 3H 4H 5H 6H 7H 8H 9H 10S T2 T3 T4 T5 T6",
    2: "EX KH 1D 2D 3D 4D 5D 6D 7D 8D 9D 10D T7 T8 T9",
    3: "1C 2C 3C 4C 5C 6C 7C 8C 9C 10C T10 T11 T12 T13 JS",
    4: "JH CH QH JD CD QD KD JC CC QC KC T14 T15 T16 CS",
}


def test_five_player_excuse_reveals_no_side_and_settles_later_3_9(make_deal: MakeDeal, act: Act) -> None:
    deal = make_deal(players=5, hands=FIVE_HANDS, chien="QS KS T1")
    act(deal, "garde_sans", "pass", "pass", "pass", "pass", "call KH", "no_chelem")
    assert deal.partner == 2
    act(deal, "T21", "T2", "EX", "T10", "T14")
    kept = [e for e in deal.events if e.kind == "excuse_kept"]
    assert len(kept) == 1 and visible_to(kept[0]) is None  # the same event as between sides
    assert "excuse_settled" not in kinds(deal) and deal.view(1).partner is None
    act(deal, "10H", "1H", "KH")  # the partner shows himself
    assert deal.view(1).partner == 2
    act(deal, "T11", "JH")  # once the trick is over the debt between partners lapses
    settled = [e for e in deal.events if e.kind == "excuse_settled"]
    assert len(settled) == 1 and "excuse_paid" not in kinds(deal)
    assert deal.won[2] & EXCUSE_MASK


def test_excuse_led_to_the_last_trick_without_a_slam_changes_camp_3_9(make_deal: MakeDeal, act: Act) -> None:
    deal = started(make_deal, act)
    # play until seat 1 must lead the last trick with only the Excuse left
    while not deal.is_over():
        legal = deal.legal_actions()
        choice = next((a for a in legal if a.card != EXCUSE), legal[0])
        deal.apply(choice)
    _, cards, winner = deal.tricks[-1]
    assert EXCUSE in cards and deal.won[winner] & EXCUSE_MASK
    assert deal.summary is not None and deal.phase is Phase.END

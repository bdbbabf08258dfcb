"""rule book §4.3: the five-player called king."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from atout.cards import CardSet, card_name, parse_card
from atout.engine import FrenchDeal, IllegalActionError, Phase

from .conftest import MakeDeal

Act = Callable[..., FrenchDeal]


def callable_names(deal: FrenchDeal) -> set[str]:
    return {card_name(a.card) for a in deal.legal_actions() if a.card is not None}


def taken_by_seat0(
    make_deal: MakeDeal, act: Act, hand: str, contract: str = "garde", **options: object
) -> FrenchDeal:
    deal = make_deal(players=5, hands={0: hand}, **options)
    return act(deal, contract, "pass", "pass", "pass", "pass")


def test_the_taker_calls_a_king_before_the_chien_4_3(make_deal: MakeDeal, act: Act) -> None:
    deal = taken_by_seat0(make_deal, act, "T21 T20 T19 KS")
    assert deal.phase is Phase.CALL
    assert callable_names(deal) == {"KS", "KH", "KD", "KC"}
    assert not any(e.kind == "chien" for e in deal.events)


def test_queens_with_all_four_kings_4_3(make_deal: MakeDeal, act: Act) -> None:
    deal = taken_by_seat0(make_deal, act, "T21 T20 KS KH KD KC")
    assert callable_names(deal) == {"KS", "KH", "KD", "KC", "QS", "QH", "QD", "QC"}


def test_cavaliers_then_valets_after_all_kings_and_queens_4_3(make_deal: MakeDeal, act: Act) -> None:
    deal = taken_by_seat0(make_deal, act, "KS KH KD KC QS QH QD QC")
    assert {"CS", "CH", "CD", "CC"} <= callable_names(deal)
    assert not {"JS"} & callable_names(deal)
    deal = taken_by_seat0(make_deal, act, "KS KH KD KC QS QH QD QC CS CH CD CC")
    assert {"JS", "JH", "JD", "JC"} <= callable_names(deal)


def test_queen_only_fallback_variant_4_3(make_deal: MakeDeal, act: Act) -> None:
    deal = taken_by_seat0(make_deal, act, "KS KH KD KC QS QH QD QC", called_card_fallback="queen_only")
    assert callable_names(deal) == {"KS", "KH", "KD", "KC", "QS", "QH", "QD", "QC"}


def test_calling_a_card_that_cannot_be_called_is_refused_4_3(make_deal: MakeDeal, act: Act) -> None:
    deal = taken_by_seat0(make_deal, act, "T21 T20 T19")
    with pytest.raises(IllegalActionError, match=r"§4.3"):
        act(deal, "call QS")
    assert deal.phase is Phase.CALL and deal.called_card == -1


def test_the_holder_of_the_called_card_is_the_secret_partner_4_3(make_deal: MakeDeal, act: Act) -> None:
    deal = make_deal(players=5, hands={0: "T21 T20 T19 T18 T17", 3: "KH 2H 3H"})
    act(deal, "garde", "pass", "pass", "pass", "pass", "call KH")
    assert deal.partner == 3
    others = [deal.view(s) for s in (1, 2, 4, 0)]
    assert all(v.partner is None for v in others)
    assert deal.view(3).partner == 3  # the partner knows, from his own hand


def test_called_card_in_the_chien_means_the_taker_plays_alone_4_3(make_deal: MakeDeal, act: Act) -> None:
    deal = make_deal(players=5, hands={0: "T21 T20 T19 T18 T17"}, chien="KH 2S 3S")
    act(deal, "garde", "pass", "pass", "pass", "pass", "call KH")
    assert deal.partner == -1
    assert deal.phase is Phase.DISCARD and deal.hands[0] >> parse_card("KH") & 1


def test_self_call_means_the_taker_plays_alone_4_3(make_deal: MakeDeal, act: Act) -> None:
    deal = taken_by_seat0(make_deal, act, "T21 T20 KS", contract="garde_sans")
    act(deal, "call KS")
    assert deal.partner == -1 and deal.phase is Phase.CHELEM


def test_a_self_call_is_revealed_when_the_taker_plays_the_card_4_3(make_deal: MakeDeal, act: Act) -> None:
    deal = make_deal(players=5, hands={0: "KS T21 T20"})
    act(deal, "garde_sans", "pass", "pass", "pass", "pass", "call KS", "no_chelem")
    assert deal.partner == -1 and deal.view(0).partner is None
    act(deal, "KS")
    assert [e.seat for e in deal.events if e.kind == "alone"] == [0]
    assert not any(e.kind == "partner" for e in deal.events)


def test_the_partner_is_revealed_when_the_called_card_is_played_4_3(make_deal: MakeDeal, act: Act) -> None:
    partner_hand = "KH 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS 1C 2C 3C"
    deal = make_deal(players=5, hands={0: "T21 T20 1D", 1: partner_hand})
    act(deal, "garde_sans", "pass", "pass", "pass", "pass", "call KH", "no_chelem")
    assert deal.current_player == 0
    act(deal, "1D")
    assert deal.view(2).partner is None
    act(deal, "KH")
    assert any(e.kind == "partner" and e.seat == 1 for e in deal.events)
    assert deal.view(2).partner == 1


def test_five_player_first_lead_may_not_be_in_the_called_suit_3_8(make_deal: MakeDeal, act: Act) -> None:
    deal = make_deal(players=5, hands={0: "KH", 4: "T21 T20 T19 T18 T17"}, dealer=4)
    # dealer 4: seat 0 speaks and leads first; seat 1 takes and calls the KH
    act(deal, "pass", "garde_sans", "pass", "pass", "pass", "call KH", "no_chelem")
    assert deal.current_player == 0
    legal = CardSet(deal.legal_play_mask())
    hearts = CardSet(deal.hands[0]).of_suit(1)
    assert parse_card("KH") in legal
    assert not (hearts - CardSet.parse("KH")) & legal
    small_heart = next(c for c in hearts if c != parse_card("KH"))
    with pytest.raises(IllegalActionError, match="called suit"):
        deal.apply(small_heart)


def test_first_lead_restriction_applies_only_to_the_first_card_3_8(make_deal: MakeDeal, act: Act) -> None:
    deal = make_deal(players=5, hands={0: "EX 1C", 1: "2H 3H 4H", 4: "T21 T20 T19 T18 T17"}, dealer=4)
    act(deal, "pass", "pass", "pass", "pass", "garde_sans", "call KH", "no_chelem")
    act(deal, "EX")
    # after an Excuse lead the next player may play any card, the called suit included
    assert deal.current_player == 1
    assert deal.legal_play_mask() == deal.hands[1]

"""rule book §3.5: the chien shown, the écart and its restrictions, and §3.10 who counts the chien."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from atout.cards import TRUMPS_MASK, CardSet, card_name, parse_card
from atout.engine import FrenchDeal, IllegalActionError, Phase
from atout.engine.events import ChienShown, visible_to

from .conftest import MakeDeal

Act = Callable[..., FrenchDeal]

# Seat 0 holds only trumps, kings and bouts apart from two small spades: after the chien
# (six low clubs) it has 8 discardable suit cards.
TRUMP_HEAVY = "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 EX KS KH KD KC 1S 2S T1"


def test_chien_is_shown_to_all_and_taken_in_petite_and_garde_3_5(make_deal: MakeDeal, act: Act) -> None:
    deal = make_deal(chien="1C 2C 3C 4C 5C 6C")
    act(deal, "garde", "pass", "pass", "pass")
    assert deal.phase is Phase.DISCARD and deal.discards_left == 6
    assert deal.hands[0].bit_count() == 24
    chien = CardSet.parse("1C 2C 3C 4C 5C 6C").mask
    assert any(e == ChienShown(None, chien) and visible_to(e) is None for e in deal.events)
    assert all(deal.view(s).chien == chien for s in range(4))


def test_ecart_may_hold_no_king_and_no_bout_3_5(make_deal: MakeDeal, act: Act) -> None:
    deal = make_deal(hands={0: TRUMP_HEAVY}, chien="1C 2C 3C 4C 5C 6C")
    act(deal, "petite", "pass", "pass", "pass")
    legal = {card_name(a.card) for a in deal.legal_actions() if a.card is not None}
    assert legal == {"1S", "2S", "1C", "2C", "3C", "4C", "5C", "6C"}
    for card in ("KS", "T21", "T1", "EX"):
        with pytest.raises(IllegalActionError, match=r"§3.5"):
            act(deal, f"discard {card}")
    with pytest.raises(IllegalActionError, match="only when too few"):
        act(deal, "discard T12")
    assert deal.ecart == 0 and deal.discards_left == 6


def test_trumps_are_discarded_only_when_forced_and_shown_3_5(make_deal: MakeDeal, act: Act) -> None:
    hand = "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 EX KS KH 1S"
    deal = make_deal(hands={0: hand}, chien="KD KC T7 T6 T5 1H")
    act(deal, "garde", "pass", "pass", "pass")
    # two non-king suit cards (1S, 1H) for six discards: both plus four trumps 2-20
    legal = {card_name(a.card) for a in deal.legal_actions() if a.card is not None}
    assert legal == {"1S", "1H"} | {f"T{n}" for n in range(5, 21)}
    act(deal, "discard T5")
    shown = [e for e in deal.events if e.kind == "discard_shown"]
    assert [card_name(e.card) for e in shown] == ["T5"] and visible_to(shown[0]) is None
    act(deal, "discard T6", "discard T7", "discard T8", "discard 1S", "discard 1H")
    assert deal.phase is Phase.CHELEM
    assert deal.view(1).ecart == deal.ecart & TRUMPS_MASK  # others see only the face-up trumps
    assert deal.view(0).ecart == deal.ecart


def test_discard_order_never_strands_the_taker_3_5(make_deal: MakeDeal, act: Act) -> None:
    hand = "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 EX KS KH 1S"
    deal = make_deal(hands={0: hand}, chien="KD KC T7 T6 T5 1H")
    act(deal, "garde", "pass", "pass", "pass")
    for card in ("T5", "T6", "T7", "T8"):
        act(deal, f"discard {card}")
    # two discards left and two suit cards: now only those may go
    legal = {card_name(a.card) for a in deal.legal_actions() if a.card is not None}
    assert legal == {"1S", "1H"}


def test_discards_are_private_to_the_taker_3_5(make_deal: MakeDeal, act: Act) -> None:
    deal = make_deal(chien="1C 2C 3C 4C 5C 6C")
    act(deal, "garde", "pass", "pass", "pass", "discard 1C")
    private = [e for e in deal.events if e.kind == "discard"]
    assert visible_to(private[0]) == 0
    assert all(e.kind != "discard" for e in deal.view(1).events)


@pytest.mark.parametrize(("players", "size"), [(3, 6), (5, 3)])
def test_ecart_size_by_player_count_3_5(make_deal: MakeDeal, act: Act, players: int, size: int) -> None:
    deal = make_deal(players=players)
    act(deal, "garde", *["pass"] * (players - 1))
    if players == 5:
        act(deal, "call KS")
    assert deal.discards_left == size
    for _ in range(size):
        act(deal, str(deal.legal_actions()[0]))
    assert deal.phase is Phase.CHELEM and deal.ecart.bit_count() == size


def play_out(deal: FrenchDeal) -> FrenchDeal:
    while not deal.is_over():
        deal.apply(deal.legal_actions()[0])
    return deal


def test_garde_sans_chien_counts_for_the_attack_3_10(make_deal: MakeDeal, act: Act) -> None:
    deal = make_deal(chien="T21 KS KH KD KC T1")
    play_out(act(deal, "garde_sans", "pass", "pass", "pass"))
    chien = CardSet.parse("T21 KS KH KD KC T1").mask
    assert deal.attack_pile() & chien == chien
    assert deal.summary is not None and deal.summary.oudlers >= 2
    assert deal.view(1).chien == chien  # revealed at the count


def test_garde_contre_chien_counts_for_the_defence_3_10(make_deal: MakeDeal, act: Act) -> None:
    deal = make_deal(chien="T21 KS KH KD KC T1")
    play_out(act(deal, "garde_contre", "pass", "pass", "pass"))
    chien = CardSet.parse("T21 KS KH KD KC T1").mask
    assert deal.attack_pile() & chien == 0
    assert deal.view(2).chien == chien
    before_end = act(make_deal(chien="T21 KS KH KD KC T1"), "garde_contre", "pass", "pass", "pass")
    assert before_end.view(1).chien is None and before_end.view(0).chien is None


def test_ecart_counts_for_the_taker_3_5(make_deal: MakeDeal, act: Act) -> None:
    deal = make_deal(chien="QS QH QD QC 1C 2C")
    act(deal, "petite", "pass", "pass", "pass")
    for name in ("QS", "QH", "QD", "QC", "1C", "2C"):
        act(deal, f"discard {name}")
    play_out(act(deal, "no_chelem") if deal.phase is Phase.CHELEM else deal)
    assert deal.attack_pile() & deal.ecart == deal.ecart
    assert parse_card("QS") in CardSet(deal.attack_pile())

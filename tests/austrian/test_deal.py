"""rule book §5.2 (deal), and building deals: new, from dealt cards, dealt() and from_dealt()."""

from __future__ import annotations

import random
from typing import Any

import pytest

from atout.cards import AUSTRIAN_DECK_MASK, BIT, CardSet
from atout.engine.austrian.cards import AUSTRIAN_CARDS, deal_pack, shuffled_pack
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.phase import Phase
from atout.rules import Rules, RulesError

from .conftest import build, rules


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_deal_8_then_8_from_the_dealers_right_talon_last_6_5_2(dealer: int) -> None:
    pack = shuffled_pack(random.Random(dealer))
    hands, (first, second) = deal_pack(pack, dealer)
    for packet in range(6):
        seat = (dealer + 1 + packet % 3) % 3
        assert all(hands[seat] & BIT[c] for c in pack[8 * packet : 8 * packet + 8])
    assert first == sum(BIT[c] for c in pack[48:51])
    assert second == sum(BIT[c] for c in pack[51:54])


def test_deal_goes_to_the_left_under_clockwise_play() -> None:
    pack = list(AUSTRIAN_CARDS)
    hands, _ = deal_pack(pack, dealer=0, step=-1)
    assert hands[2] & BIT[pack[0]] and hands[1] & BIT[pack[8]] and hands[0] & BIT[pack[16]]


def test_deal_pack_refuses_a_wrong_pack() -> None:
    with pytest.raises(ValueError, match="54 Austrian cards"):
        deal_pack(list(range(54)), 0)


def test_new_deals_16_each_and_a_talon_of_two_halves_of_3_5_2() -> None:
    deal = AustrianDeal.new(rules(), dealer=1, rng=5)
    assert [h.bit_count() for h in deal.hands] == [16, 16, 16]
    assert [h.bit_count() for h in deal.talon] == [3, 3]
    union = deal.talon[0] | deal.talon[1]
    for h in deal.hands:
        union |= h
    assert union == AUSTRIAN_DECK_MASK
    assert deal.phase is Phase.BIDDING and deal.current_player == 2 and deal.n == 3


def test_seeded_deals_are_reproducible() -> None:
    a, b, c = (AustrianDeal.new(rules(), dealer=0, rng=s) for s in (4, 4, 5))
    assert a.dealt() == b.dealt() != c.dealt()


def test_new_defaults_to_the_austrian_game() -> None:
    assert AustrianDeal.new(rng=1).rules == Rules(game="austrian", players=3)


def test_french_rules_are_refused() -> None:
    with pytest.raises(RulesError, match="not Austrian"):
        AustrianDeal.new(Rules(players=3), rng=1)


@pytest.mark.parametrize("dealer", [-1, 3])
def test_dealer_must_be_a_seat(dealer: int) -> None:
    with pytest.raises(ValueError, match="dealer"):
        AustrianDeal.new(rules(), dealer=dealer, rng=1)
    deal = build()
    with pytest.raises(ValueError, match="dealer"):
        AustrianDeal(deal.rules, dealer, list(deal.hands), list(deal.talon))


def test_dealt_names_the_cards_and_from_dealt_rebuilds_the_deal() -> None:
    deal = AustrianDeal.new(rules(), dealer=2, rng=9)
    data = deal.dealt()
    assert set(data) == {"hands", "talon"}
    hands, talon = data["hands"], data["talon"]
    assert isinstance(hands, list) and isinstance(talon, list)
    assert [len(h.split()) for h in hands] == [16, 16, 16] and [len(t.split()) for t in talon] == [3, 3]
    assert hands[0] == str(CardSet(deal.hands[0]))
    again = AustrianDeal.from_dealt(deal.rules, 2, data)
    assert again.hands == deal.hands and again.talon == deal.talon and again.dealer == 2


def with_field(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = dict(AustrianDeal.new(rules(), rng=3).dealt())
    data.update(changes)
    return data


def moved(field: str, i: int, text: str) -> dict[str, Any]:
    data = with_field()
    piles = list(data[field])
    piles[i] = text
    data[field] = piles
    return data


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([1, 2], "dealt"),
        (with_field(extra=1), "extra"),
        ({"talon": ["KS QS CS", "JS 10S 9S"]}, "hands"),
        (with_field(hands="KS"), "hands"),
        (with_field(hands=["KS", "QS"]), "hands"),
        (with_field(talon=["KS QS CS"]), "talon"),
        (moved("hands", 1, 7), r"hands\[1\]"),
        (moved("hands", 1, "KS KS"), r"hands\[1\]"),
        (moved("hands", 0, "5H"), r"hands\[0\]"),
        (moved("hands", 2, "zz"), r"hands\[2\]"),
        (moved("talon", 0, "KS QS"), r"talon\[0\]"),
    ],
)
def test_from_dealt_names_the_bad_field(data: object, field: str) -> None:
    with pytest.raises(ValueError, match=f"^{field}"):
        AustrianDeal.from_dealt(rules(), 0, data)


def test_from_dealt_names_a_card_dealt_twice() -> None:
    data = with_field()
    first = data["hands"][0].split()
    talon = list(data["talon"])
    talon[1] = " ".join([first[0], *talon[1].split()[1:]])
    data["talon"] = talon
    with pytest.raises(ValueError, match=r"^talon\[1\]: .* dealt twice"):
        AustrianDeal.from_dealt(rules(), 0, data)


def test_constructor_refuses_cards_outside_the_pack_or_wrong_sizes() -> None:
    deal = build()
    hands = list(deal.hands)
    with pytest.raises(ValueError, match=r"hands\[0\]: 5H not in the Austrian pack"):
        AustrianDeal(deal.rules, 0, [hands[0] | BIT[18], hands[1], hands[2]], list(deal.talon))
    with pytest.raises(ValueError, match="3 hands"):
        AustrianDeal(deal.rules, 0, hands[:2], list(deal.talon))
    with pytest.raises(ValueError, match="2 halves"):
        AustrianDeal(deal.rules, 0, hands, [deal.talon[0]])


def test_clone_is_independent() -> None:
    deal = AustrianDeal.new(rules(), rng=2)
    copy = deal.clone()
    copy.play_out(random.Random(1))
    assert copy.is_over() and not deal.is_over()
    assert (
        deal.history == []
        and deal.events == []
        and tuple(deal.hands) == copy.initial_hands == deal.initial_hands
    )
    deal.play_out(random.Random(1))
    assert deal.events == copy.events and deal.scores() == copy.scores()

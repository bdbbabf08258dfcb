"""The expert's inference (:mod:`atout.engine.worlds.inference`): hand-made tricks, and on random
deals played by the rules bot, no seat is ever said not to hold a card it holds."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout.bots.rules import RulesBot
from atout.cards import SPADES, SUIT_MASKS, TRUMPS_MASK, CardSet, parse_card
from atout.engine.actions import BID_ACTIONS, DISCARD_BASE, PASS
from atout.engine.french import FrenchDeal
from atout.engine.worlds.inference import (
    DISCARDABLE_PLAIN,
    excluded_cards,
    trick_exclusions,
    trumps_above,
)
from atout.rules import Rules


def plays(*pairs: tuple[int, str]) -> tuple[tuple[int, int], ...]:
    return tuple((seat, parse_card(name)) for seat, name in pairs)


def test_follow_shows_nothing() -> None:
    assert trick_exclusions(plays((0, "5S"), (1, "KS"), (2, "2S"), (3, "QS")), 4) == [0, 0, 0, 0]


def test_discard_shows_a_void_in_the_suit_and_in_trumps() -> None:
    ex = trick_exclusions(plays((0, "5S"), (1, "3H")), 4)
    assert ex[1] == SUIT_MASKS[SPADES] | TRUMPS_MASK


def test_trumping_under_shows_no_higher_trump() -> None:
    ex = trick_exclusions(plays((0, "5S"), (1, "T10"), (2, "T4")), 4)
    assert ex[1] == SUIT_MASKS[SPADES]
    assert ex[2] == SUIT_MASKS[SPADES] | trumps_above(parse_card("T10"))


def test_trumps_led() -> None:
    ex = trick_exclusions(plays((0, "T12"), (1, "T3"), (2, "4H"), (3, "T15")), 4)
    assert ex == [0, trumps_above(parse_card("T12")), TRUMPS_MASK, 0]


def test_the_excuse_shows_nothing_and_does_not_lead() -> None:
    ex = trick_exclusions(plays((0, "EX"), (1, "5D"), (2, "2C")), 4)
    assert ex[0] == 0 and ex[1] == 0
    assert ex[2] == SUIT_MASKS[2] | TRUMPS_MASK
    assert trick_exclusions(plays((0, "5D"), (1, "EX")), 4) == [0, 0, 0, 0]


def _check_sound(deal: FrenchDeal) -> int:
    """Check every seat's exclusions against the true hands; the number of exclusions seen."""
    seen = 0
    for seat in range(deal.n):
        excluded = excluded_cards(deal.view(seat))
        assert excluded[seat] == 0
        for other in range(deal.n):
            assert not excluded[other] & deal.hands[other], (seat, other)
            seen += excluded[other].bit_count()
    return seen


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32))
def test_exclusions_are_sound(players: int, seed: int) -> None:
    rng = random.Random(seed)
    deal = FrenchDeal.new(Rules(players=players), dealer=rng.randrange(players), rng=rng)
    bot = RulesBot()
    seen = 0
    while not deal.is_over():
        if deal.phase == "play" and rng.random() < 0.25:
            seen += _check_sound(deal)
        deal.apply(bot.choose(deal.view(deal.current_player), deal.legal_actions()))
    assert seen >= 0


def test_a_taker_who_discarded_a_trump_keeps_no_plain_card_but_kings() -> None:
    taker_hand = CardSet.parse("KS KH KD KC T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15").mask
    chien = CardSet.parse("2S 3S T16 T17 T18 T19").mask
    rest = [c for c in range(78) if not (taker_hand | chien) >> c & 1]
    hands = [sum(1 << c for c in rest[i * 18 : (i + 1) * 18]) for i in range(3)]
    deal = FrenchDeal(Rules(players=4), 0, [hands[0], taker_hand, hands[1], hands[2]], chien)
    while deal.phase == "bidding":
        deal.apply(BID_ACTIONS["garde"] if deal.current_player == 1 else PASS)
    for name in ("2S", "3S", "T2", "T3", "T4", "T5"):
        deal.apply(DISCARD_BASE + parse_card(name))
    assert deal.ecart & TRUMPS_MASK
    excluded = excluded_cards(deal.view(2))
    assert excluded[1] & DISCARDABLE_PLAIN == DISCARDABLE_PLAIN
    assert not deal.hands[1] & DISCARDABLE_PLAIN

"""rule book §3.3 petit sec and §3.4 bidding."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout.cards import EXCUSE, EXCUSE_MASK, PETIT_MASK, TRUMPS_MASK, cards_of
from atout.engine import FrenchDeal, IllegalActionError, Phase
from atout.engine.actions import BID_ACTIONS, PASS
from atout.engine.french import cancels_dealt
from atout.rules import Rules

from .conftest import MakeDeal

Act = Callable[..., FrenchDeal]

NO_TRUMP_BUT_PETIT = "T1 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS CS QS KS 1H 2H 3H"


def test_petit_sec_cancels_the_deal_before_bidding_3_3(make_deal: MakeDeal) -> None:
    deal = make_deal(hands={2: NO_TRUMP_BUT_PETIT})
    assert deal.is_over()
    assert deal.outcome.startswith("petit sec: seat 2")
    assert deal.scores() == [0, 0, 0, 0]
    assert deal.events[0].kind == "petit_sec" and deal.events[0].seat == 2
    assert deal.legal_actions() == []


def test_petit_with_the_excuse_is_not_petit_sec_3_3(make_deal: MakeDeal) -> None:
    hand = NO_TRUMP_BUT_PETIT.replace("3H", "EX")
    deal = make_deal(hands={2: hand})
    assert deal.phase is Phase.BIDDING


def test_petit_sec_ignoring_the_excuse_variant_3_3(make_deal: MakeDeal) -> None:
    hand = NO_TRUMP_BUT_PETIT.replace("3H", "EX")
    deal = make_deal(hands={2: hand}, petit_sec_rule="only_trump_ignoring_excuse")
    assert deal.is_over() and deal.outcome.startswith("petit sec")


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.sampled_from([3, 4, 5]),
    rule=st.sampled_from(["fft", "only_trump_ignoring_excuse", "petit_imprenable"]),
    forced=st.booleans(),
)
def test_cancels_dealt_says_whether_the_dealt_deal_ends_at_once_3_3(
    seed: int, players: int, rule: str, forced: bool
) -> None:
    """``cancels_dealt`` (which the expert's sampler reads) agrees with the deal itself: a
    petit sec under the rule (§3.3), none under petit_imprenable (§7 V3)."""
    rules = Rules(players=players, petit_sec_rule=rule)  # type: ignore[arg-type]
    deal = FrenchDeal.new(rules, dealer=0, rng=seed)
    hands, chien = list(deal.initial_hands), deal.initial_chien
    seat = next((s for s in range(players) if hands[s] & PETIT_MASK), None)
    forced = forced and seat is not None
    if forced and seat is not None:  # the Petit's holder gives its other trumps (maybe the Excuse) away
        for card in cards_of(hands[seat] & (TRUMPS_MASK | EXCUSE_MASK) & ~PETIT_MASK):
            if card == EXCUSE and seed % 2:
                continue
            other, swap = next(
                (o, c)
                for o in range(players)
                if o != seat
                for c in cards_of(hands[o])
                if not (TRUMPS_MASK | EXCUSE_MASK) >> c & 1
            )
            hands[seat] ^= (1 << card) | (1 << swap)
            hands[other] ^= (1 << card) | (1 << swap)
    dealt = FrenchDeal(rules, 0, hands, chien)
    assert cancels_dealt(rules, hands) == dealt.is_over()
    if (
        forced
        and seat is not None
        and rule != "petit_imprenable"
        and (rule != "fft" or not hands[seat] & EXCUSE_MASK)
    ):
        assert dealt.is_over()


def test_dealers_right_speaks_first_and_each_player_once_3_4(make_deal: MakeDeal, act: Act) -> None:
    deal = make_deal(dealer=1)
    assert deal.current_player == 2
    act(deal, "petite", "pass", "garde")
    assert deal.current_player == 1  # the dealer speaks last
    act(deal, "pass")
    assert deal.phase is Phase.DISCARD
    assert deal.taker == 0 and deal.contract == "garde"
    assert deal.bids == [(2, "petite"), (3, "pass"), (0, "garde"), (1, "pass")]


def test_a_bid_must_top_the_highest_so_far_3_4(make_deal: MakeDeal, act: Act) -> None:
    deal = make_deal()
    act(deal, "garde")
    assert deal.legal_actions() == [PASS, BID_ACTIONS["garde_sans"], BID_ACTIONS["garde_contre"]]
    history = list(deal.history)
    with pytest.raises(IllegalActionError, match=r"§3.4") as info:
        deal.apply(BID_ACTIONS["petite"])
    assert "higher" in str(info.value)
    assert deal.history == history and deal.current_player == 1


def test_all_pass_cancels_the_deal_3_4(make_deal: MakeDeal, act: Act) -> None:
    deal = act(make_deal(), "pass", "pass", "pass", "pass")
    assert deal.is_over() and deal.outcome.startswith("all passed")
    assert deal.scores() == [0, 0, 0, 0]
    assert deal.summary is None


def test_garde_sans_and_contre_skip_the_chien_3_4(make_deal: MakeDeal, act: Act) -> None:
    deal = act(make_deal(), "garde_sans", "pass", "pass", "pass")
    assert deal.phase is Phase.CHELEM and deal.ecart == 0
    assert all(e.kind != "chien" for e in deal.events)
    deal = act(make_deal(), "pass", "garde_contre", "pass", "pass")
    assert deal.phase is Phase.CHELEM and deal.taker == 1


def test_no_petite_variant_7_v2(make_deal: MakeDeal) -> None:
    deal = make_deal(no_petite=True)
    assert BID_ACTIONS["petite"] not in deal.legal_actions()
    with pytest.raises(IllegalActionError, match="no_petite"):
        deal.apply(BID_ACTIONS["petite"])


def test_pousse_is_bid_between_petite_and_garde_7_v1(make_deal: MakeDeal, act: Act) -> None:
    deal = make_deal(bid_pousse=True)
    act(deal, "petite")
    assert BID_ACTIONS["pousse"] in deal.legal_actions()
    act(deal, "pousse", "pass", "pass")
    assert deal.contract == "pousse" and deal.phase is Phase.DISCARD
    with pytest.raises(IllegalActionError, match="bid_pousse"):
        make_deal().apply(BID_ACTIONS["pousse"])


def test_first_bidder_dealer_left_variant_3_4(make_deal: MakeDeal, act: Act) -> None:
    deal = make_deal(dealer=0, first_bidder="dealer_left")
    assert deal.current_player == 3
    act(deal, "pass", "pass", "pass")
    assert deal.current_player == 0  # the dealer still speaks last
    act(deal, "garde_sans", "no_chelem")
    assert deal.current_player == 1  # play still starts at the dealer's right


@pytest.mark.parametrize("players", [3, 5])
def test_bidding_for_three_and_five_players_4_2_4_3(make_deal: MakeDeal, act: Act, players: int) -> None:
    deal = make_deal(players=players)
    for _ in range(players - 1):
        act(deal, "pass")
    act(deal, "petite")
    assert deal.taker == players - 1
    assert deal.phase is (Phase.CALL if players == 5 else Phase.DISCARD)

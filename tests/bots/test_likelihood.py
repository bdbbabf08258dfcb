"""Worlds weighted by the bids: the likelihood of the rules bot's bids (docs/bots.md)."""

from __future__ import annotations

import math
import random
import statistics

from hypothesis import given
from hypothesis import strategies as st

from atout.bots.expert.likelihood import bid_bounds, bid_weigher, bid_weight, play_judge
from atout.bots.expert.worlds import sample_world
from atout.bots.rules import RulesBot
from atout.bots.rules.french import BID_THRESHOLDS
from atout.bots.rules.strength import french_strength
from atout.cards import SUIT_OF
from atout.engine.actions import ACTIONS, ActionKind
from atout.engine.french import FrenchDeal
from atout.rules import CONTRACTS, Rules

BIDS = st.lists(
    st.tuples(st.integers(0, 3), st.sampled_from(("pass", "petite", "garde", "garde_sans", "garde_contre"))),
    max_size=4,
)


@given(BIDS, st.lists(st.integers(0, (1 << 78) - 1), min_size=4, max_size=4))
def test_a_weight_is_a_probability(bids: list[tuple[int, str]], hands: list[int]) -> None:
    weight = bid_weight(bids, dict(enumerate(hands)), 4, me=0)
    assert 0.0 <= weight <= 1.0


def test_the_bounds_follow_the_rules_bot_thresholds() -> None:
    assert bid_bounds("pass", -1) == (-math.inf, BID_THRESHOLDS["petite"])
    assert bid_bounds("pass", CONTRACTS.index("garde")) == (-math.inf, BID_THRESHOLDS["garde_sans"])
    assert bid_bounds("garde", -1) == (BID_THRESHOLDS["garde"], BID_THRESHOLDS["garde_sans"])
    assert bid_bounds("garde_contre", -1) == (BID_THRESHOLDS["garde_contre"], math.inf)


def test_the_seat_s_own_bid_tells_it_nothing() -> None:
    assert bid_weight([(0, "garde_contre")], {0: 0}, 4, me=0) == 1.0


def _first_card_view(seed: int) -> tuple[FrenchDeal, int] | None:
    """A 4-player deal played by the rules bot to the first card, where seat 0 defends."""
    bot = RulesBot()
    deal = FrenchDeal.new(Rules(), dealer=0, rng=seed)
    while not deal.is_over():
        legal = deal.legal_actions()
        if ACTIONS[legal[0]].kind is ActionKind.PLAY:
            break
        deal.apply(bot.choose(deal.view(deal.current_player), legal))
    if deal.is_over() or deal.taker in (-1, 0) or deal.contract != "garde":
        return None
    return deal, deal.taker


def test_worlds_drawn_by_the_bids_give_the_taker_a_bidding_hand() -> None:
    """RULES.md §3.4 bids read as evidence: after a garde, the taker's sampled hands are stronger
    than the plain sampler's, and the worlds still show the seat exactly its view."""
    found = None
    for seed in range(200):
        found = _first_card_view(seed)
        if found:
            break
    assert found is not None
    deal, taker = found
    view = deal.view(0)
    plain, weighted = [], []
    for i in range(30):
        for weigh, out in ((None, plain), (bid_weigher(view), weighted)):
            world = sample_world(view, random.Random(i), weigh=weigh, draws=40)
            assert world is not None and world.view(0) == view
            out.append(french_strength(world.initial_hands[taker], 4))
    assert statistics.mean(weighted) > statistics.mean(plain) + 5
    # the thresholds are soft (a hand 4 points short still bids now and then): about 51 on average
    assert statistics.mean(weighted) > BID_THRESHOLDS["garde"] - 8


def test_the_rules_bot_s_own_plays_have_full_likelihood() -> None:
    """Inference by plays: a card the rules bot would play in that world weighs 1."""
    judge = play_judge(mismatch=0.25)
    bot = RulesBot()
    for seed in range(3):
        deal = FrenchDeal.new(Rules(players=3 + seed), dealer=0, rng=seed)
        factors = []
        while not deal.is_over():
            legal = deal.legal_actions()
            action = bot.choose(deal.view(deal.current_player), legal)
            if deal.phase == "play":
                factors.append(judge(deal, action))
                other = next((a for a in legal if SUIT_OF[a] != SUIT_OF[action]), None)
                if other is not None:
                    assert judge(deal, other) == 0.25
            deal.apply(action)
        assert factors and set(factors) == {1.0}

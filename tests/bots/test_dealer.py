"""The compiled dealer of hidden cards (docs/bots.md, "Sampled worlds"): every dealing fits the
layout, its weight is the bids' likelihood, and numba and plain Python draw the same dealings."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout.bots.expert import dealer as dealer_module
from atout.bots.expert.likelihood import bid_weigher
from atout.bots.expert.worlds import WorldSampler, dealing_of, layout_of
from atout.bots.rules import RulesBot
from atout.bots.rules.strength import french_strength
from atout.engine.deal import HAND_SIZE
from atout.engine.french import FrenchDeal, Phase
from atout.engine.view import SeatView
from atout.jit import AVAILABLE as NUMBA
from atout.rules import Rules

PLAIN = (1 << 56) - 1


@settings(max_examples=500, deadline=None)
@given(
    cards=st.sets(st.integers(0, 77), max_size=30),
    players=st.sampled_from([3, 4, 5]),
    dense=st.booleans(),
)
def test_a_hand_s_strength_on_two_words_is_the_rules_bot_s(
    cards: set[int], players: int, dense: bool
) -> None:
    """The dealer weighs with the rules bot's strength formula (its compiled copy), on any hand: a
    hand's worth of cards (voids, singletons, long suits and runs of trumps) or all but a few."""
    hand = sum(1 << c for c in cards)
    if dense:
        hand ^= (1 << 78) - 1
    plain, trumps = hand & PLAIN, hand >> 56
    strength = dealer_module._strength(plain, trumps, HAND_SIZE[players])
    assert strength == french_strength(hand, players)


def card_play_views(players: int, seed: int, every: int = 5) -> Iterator[SeatView]:
    """Views of the seat to play, every ``every``-th card of a rules-bot deal."""
    deal = FrenchDeal.new(Rules(players=players), dealer=seed % players, rng=seed)
    bot = RulesBot()
    number = 0
    while deal.phase is not Phase.END:
        view = deal.view(deal.current_player)
        if deal.phase is Phase.PLAY and view.hand and number % every == 0:
            yield view
        number += deal.phase is Phase.PLAY
        deal.apply(bot.choose(view, deal.legal_actions()))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32), weighed=st.booleans())
def test_a_dealing_fills_each_place_with_cards_it_may_hold(players: int, seed: int, weighed: bool) -> None:
    """Every hidden card is dealt once, each place gets its size, each card a place allowed to it;
    the weight reported is the bids' likelihood of that dealing. (A dealing that dead-ends is
    reported as one, as :func:`deal_hidden` reports it.)"""
    rng = random.Random(seed)
    for view in card_play_views(players, seed):
        weigh = bid_weigher(view) if weighed else None
        sampler = WorldSampler(view, weigh)
        dealer = sampler.dealer
        assert dealer is not None
        layout = layout_of(view)
        for _ in range(3):
            dealt, drawn = dealer.deal(rng)
            assert 1 <= drawn <= sampler.draws
            if dealt is None:  # a dead end: the sampler deals the slow, sure way
                continue
            assert sum(dealt) == layout.hidden and all(a & b == 0 for a in dealt for b in dealt if a is not b)
            assert [m.bit_count() for m in dealt] == list(layout.sizes)
            assert all(m & ~allowed == 0 for m, allowed in zip(dealt, layout.allowed, strict=True))
            expected = weigh(dealing_of(view, layout, dealt)[0]) if weigh else 1.0
            assert dealer.weight == expected


def test_the_bids_shift_the_dealings_toward_the_bidders_strength() -> None:
    """Weighed by a garde, the bidder's dealt hand is stronger on average than by plain dealing
    (rejection on the likelihood works)."""
    for seed in range(40):
        deal = FrenchDeal.new(Rules(players=4), dealer=3, rng=seed)
        bot = RulesBot()
        while deal.phase is not Phase.END and not (
            deal.phase is Phase.PLAY and deal.view(deal.current_player).contract == "garde"
        ):
            deal.apply(bot.choose(deal.view(deal.current_player), deal.legal_actions()))
        if deal.phase is Phase.PLAY:
            break
    taker = deal.taker
    assert taker is not None
    view = deal.view((taker + 1) % 4)
    layout = layout_of(view)
    means = []
    for weigh in (None, bid_weigher(view)):
        dealer = WorldSampler(view, weigh).dealer
        assert dealer is not None
        rng = random.Random(1)
        strengths = []
        for _ in range(400):
            dealt, _ = dealer.deal(rng)
            assert dealt is not None
            strengths.append(french_strength(dealing_of(view, layout, dealt)[0][taker], 4))
        means.append(sum(strengths) / len(strengths))
    assert means[1] > means[0] + 1


SCRIPT = """
import json, random, sys
if sys.argv[1] == "plain":
    sys.modules["numba"] = None  # numba cannot be imported: the plain-Python path
sys.path.insert(0, sys.argv[2])
from test_dealer import card_play_views
from atout.bots.expert import dealer
from atout.bots.expert.likelihood import bid_weigher
from atout.bots.expert.worlds import WorldSampler
from atout.jit import AVAILABLE
out = {"numba": AVAILABLE, "dealings": []}
for players in (3, 4, 5):
    for seed in range(4):
        rng = random.Random(seed)
        for view in card_play_views(players, seed, every=7):
            d = WorldSampler(view, bid_weigher(view)).dealer
            out["dealings"].append([(d.deal(rng), d.weight) for _ in range(4)])
print(json.dumps(out))
"""


@pytest.mark.skipif(not NUMBA and os.environ.get("CI") != "true", reason="numba is not installed")
def test_numba_and_plain_python_draw_the_same_dealings() -> None:
    """The compiled dealer and the plain-Python one (numba hidden from the import) give the same
    dealings, drawn counts and weights, in 3, 4 and 5 players."""
    here = os.path.dirname(__file__)
    runs = {}
    for mode in ("compiled", "plain"):
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT, mode, here],
            capture_output=True,
            text=True,
            check=True,
            timeout=600,
        )
        runs[mode] = json.loads(done.stdout)
    assert runs["compiled"]["numba"] and not runs["plain"]["numba"]
    assert len(runs["plain"]["dealings"]) > 30
    assert runs["compiled"]["dealings"] == runs["plain"]["dealings"]

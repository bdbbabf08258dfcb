"""Worlds weighted by the bids and the card plays: their likelihood under the rules bot's policy (docs/bots.md)."""

from __future__ import annotations

import math
import os
import random
import statistics

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from atout.bots.expert.likelihood import bid_bounds, bid_weigher, bid_weight, play_judge
from atout.bots.expert.worlds import (
    Layout,
    WorldSampler,
    deal_hidden,
    layout_of,
    rebuild_weighted,
    sample_world,
)
from atout.bots.rules import RulesBot, kernel
from atout.bots.rules.french import BID_THRESHOLDS
from atout.bots.rules.kernel import PlayJudge
from atout.bots.rules.strength import french_strength
from atout.cards import BIT, SUIT_MASKS, SUIT_OF, cards_of
from atout.engine.actions import ACTIONS, ActionKind
from atout.engine.french import FrenchDeal, Phase
from atout.rules import CONTRACTS, Rules

BIDS = st.lists(
    st.tuples(st.integers(0, 3), st.sampled_from(("pass", "petite", "garde", "garde_sans", "garde_contre"))),
    max_size=4,
)


@given(BIDS, st.lists(st.integers(0, (1 << 78) - 1), min_size=4, max_size=4))
def test_a_weight_is_a_probability(bids: list[tuple[int, str]], hands: list[int]) -> None:
    weight = bid_weight(bids, dict(enumerate(hands)), 4, me=0)
    assert 0.0 <= weight <= 1.0


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4, 5]))
def test_a_view_s_weigher_is_the_bids_likelihood(seed: int, players: int) -> None:
    """``bid_weigher`` (bounds worked out once per view) weighs as ``bid_weight`` does."""
    deal = FrenchDeal.new(Rules(players=players), dealer=seed % players, rng=seed)
    bot = RulesBot()
    rng = random.Random(seed)
    while deal.phase is Phase.BIDDING:
        view = deal.view(deal.current_player)
        weigh = bid_weigher(view)
        for _ in range(3):
            hands = [rng.getrandbits(78) for _ in range(players)]
            assert weigh(hands) == bid_weight(view.bids, dict(enumerate(hands)), players, view.seat)
        deal.apply(bot.choose(view, deal.legal_actions()))


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
    """rule book §3.4 bids read as evidence: after a garde, the taker's sampled hands are stronger
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


def _mid_play_views(players: int, seed: int) -> list[tuple[FrenchDeal, int]]:
    """Deals played by the rules bot, stopped at a few card decisions after the first trick."""
    rng = random.Random(seed)
    deal = FrenchDeal.new(Rules(players=players), dealer=rng.randrange(players), rng=rng.getrandbits(63))
    bot = RulesBot()
    out = []
    while not deal.is_over():
        legal = deal.legal_actions()
        if deal.phase == "play" and deal.tricks and rng.random() < 0.15:
            out.append((deal.clone(), deal.current_player))
        deal.apply(bot.choose(deal.view(deal.current_player), legal))
    return out


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32))
def test_a_world_s_replay_judges_plays_as_the_rules_bot_s_view_does(players: int, seed: int) -> None:
    """Inference by plays: the weight a world's replay gives it (no views) is the product of the
    view-based judge over the other seats' card plays, and it counts the plays it judged."""
    judge = play_judge(mismatch=0.25)
    checked = 0
    for deal, seat in _mid_play_views(players, seed)[:3]:
        view = deal.view(seat)
        layout = layout_of(view)
        rng = random.Random(seed)
        for _ in range(3):
            dealt = deal_hidden(layout, rng)
            found = None if dealt is None else rebuild_weighted(view, layout, dealt, mismatch=0.25)
            if found is None:
                continue
            world, weight, judged, _ = found
            replay = FrenchDeal(world.rules, world.dealer, world.initial_hands, world.chien)
            expected, counted = 1.0, 0
            for action in world.history:
                if replay.phase == "play" and replay.current_player != seat:
                    expected *= judge(replay, action)
                    counted += len(replay.legal_actions()) > 1
                replay.apply(action)
            assert weight == pytest.approx(expected) and judged == counted
            checked += 1
    assume(checked > 0)


def test_the_true_deal_weighs_one_and_selection_never_lowers_the_weight() -> None:
    """The rules bot's own plays are never unlikely (weight 1 in the true deal), and the likeliest
    of several dealings weighs at least as much as the first of them (the plain draw)."""
    compared = 0
    for seed in range(4):
        for deal, seat in _mid_play_views(4, seed):
            view = deal.view(seat)
            layout = layout_of(view)
            truth = [deal.hands[s] & layout.hidden for s in range(deal.n)]
            truth.append(layout.hidden & ~sum(truth))
            found = rebuild_weighted(view, layout, truth, mismatch=0.5)
            assert found is not None and found[1] == 1.0
            plain = WorldSampler(view, None, 0.5).draw(random.Random(seed))
            assert plain is not None
            for repair in (False, True):
                chosen = WorldSampler(view, None, 0.5, select=6, repair=repair).draw(random.Random(seed))
                assert chosen is not None
                assert chosen[0].view(seat) == view
                assert chosen[1] >= plain[1]
                compared += chosen[1] > plain[1]
    assert compared > 0


def test_a_repair_swaps_the_unlikely_card_out_of_the_seat_s_hand() -> None:
    """The repaired dealing moves the card the rules bot would have played to another place that
    may hold it, and one card that the seat may hold back; every place keeps its count."""
    repaired = 0
    for seed in range(6):
        for deal, seat in _mid_play_views(4, seed):
            view = deal.view(seat)
            sampler = WorldSampler(view, None, 0.5)
            layout = sampler.layout
            rng = random.Random(seed)
            dealt = deal_hidden(layout, rng)
            found = None if dealt is None else rebuild_weighted(view, layout, dealt, mismatch=0.5)
            if found is None or found.miss is None:
                continue
            who, card = found.miss
            assert dealt is not None and who != seat
            fixed = sampler._repaired(dealt, found.miss, rng)
            if fixed is None:
                continue
            assert not fixed[who] >> card & 1
            assert [m.bit_count() for m in fixed] == [m.bit_count() for m in dealt]
            assert sum(fixed) == sum(dealt)
            for place, mask in enumerate(fixed):
                assert mask & ~layout.allowed[place] == 0
            repaired += 1
    assert repaired > 0


needs_kernel = pytest.mark.skipif(
    not kernel.AVAILABLE and os.environ.get("CI") != "true",
    reason="numba is not installed (pip install -e '.[solver-fast]'); under CI=true these tests fail instead",
)


def _start_hands(layout: Layout, dealt: list[int]) -> list[int]:
    return [layout.known[s] | dealt[s] | layout.played_by[s] for s in range(len(layout.known))]


@needs_kernel
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32))
def test_the_compiled_judge_judges_plays_as_the_replay_does(players: int, seed: int) -> None:
    """Inference by plays, compiled: the kernel replaying the card history from a world's hands
    at the start of the card play counts the plays judged, the misses (the weight) and the first
    miss exactly as the Python replay does (rule book §3.8 included: in 5 players the first lead
    is not of the called suit)."""
    compared = 0
    for deal, seat in _mid_play_views(players, seed)[:3]:
        view = deal.view(seat)
        layout = layout_of(view)
        plays = [c for t in view.tricks for _, c in t.plays] + [c for _, c in view.trick]
        rng = random.Random(seed)
        for _ in range(4):
            dealt = deal_hidden(layout, rng)
            found = None if dealt is None else rebuild_weighted(view, layout, dealt, mismatch=0.5)
            if found is None or dealt is None:
                continue
            judged, misses, who, card = PlayJudge(found.deal, plays, seat).judge(
                _start_hands(layout, dealt), found.deal.ecart
            )
            assert (judged, 0.5**misses) == (found.judged, found.weight)
            assert ((who, card) if misses else None) == found.miss
            compared += 1
    assume(compared > 0)


@needs_kernel
def test_the_compiled_judge_refuses_a_play_against_the_rules() -> None:
    """A card history that breaks rule book §3.8 in a world (a 5-player first lead in the called
    suit, or a card the seat does not hold there) is no world of the view: -1 misses."""
    refused = 0
    for seed in range(12):
        for deal, seat in _mid_play_views(5, seed)[:1]:
            view = deal.view(seat)
            layout = layout_of(view)
            truth = [deal.hands[s] & layout.hidden for s in range(deal.n)]
            truth.append(layout.hidden & ~sum(truth))
            found = rebuild_weighted(view, layout, truth)
            assert found is not None
            hands = _start_hands(layout, truth)
            leader = deal.tricks[0][0][0]
            suit = SUIT_MASKS[SUIT_OF[deal.called_card]] & ~BIT[deal.called_card]
            banned = hands[leader] & suit
            plays = [c for t in view.tricks for _, c in t.plays]
            judge = PlayJudge(found.deal, plays, seat)
            assert judge.judge(hands, found.deal.ecart)[1] == 0  # the true deal: the rules bot's plays
            if banned and hands[leader] & ~suit:
                first = PlayJudge(found.deal, [cards_of(banned)[0]], seat)
                assert first.judge(hands, found.deal.ecart)[1] == -1
                refused += 1
            other = next(s for s in range(5) if s != leader)
            swapped = list(hands)
            swapped[leader], swapped[other] = hands[other], hands[leader]
            assert judge.judge(swapped, found.deal.ecart)[1] == -1
    assert refused > 0


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32))
def test_compiled_and_replayed_judging_draw_the_same_worlds(players: int, seed: int) -> None:
    """Whether the plays are judged by the compiled judge or in the replay (numba absent), a
    sampler draws the same worlds with the same weights and counts the same effort, likeliest
    of several dealings and repairs included."""
    compared = 0
    for deal, seat in _mid_play_views(players, seed)[:2]:
        view = deal.view(seat)
        runs = []
        for compiled in (True, False):
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(kernel, "AVAILABLE", compiled and kernel.AVAILABLE)
                for select, repair in ((1, False), (6, False), (8, True)):
                    sampler = WorldSampler(view, bid_weigher(view), 0.5, select=select, repair=repair)
                    rng = random.Random(seed)
                    drawn = [sampler.draw(rng) for _ in range(4)]
                    runs.append(
                        (
                            [None if d is None else (tuple(d[0].hands), d[0].chien, d[1]) for d in drawn],
                            sampler.effort,
                        )
                    )
        assert runs[:3] == runs[3:]
        compared += any(d is not None for d in runs[0][0])
    assume(compared > 0)

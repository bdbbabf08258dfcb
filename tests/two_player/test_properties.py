"""Properties over thousands of random 2-player deals: 78 cards and 91 points, zero-sum scores,
only legal moves, replays from the dealt layout, and views that never show a hidden card."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from atout.cards import BIT, EXCUSE_MASK
from atout.engine import ACTIONS, IllegalActionError, TwoPlayerDeal, TwoPlayerView
from atout.engine.events import cards_shown
from atout.engine.invariants import broken_invariants
from atout.rules import Rules
from atout.scoring import check_summary, score

seeds = st.integers(min_value=0, max_value=2**63)
option_values: dict[str, list[Any]] = {
    "two_player_chelem": [False, True],
    "chelem_announcer_leads": [True, False],
    "excuse_last_trick": ["changes_camp", "must_play_before_last"],
    "excuse_exchange_card": ["low", "any_won_card"],
    "round_margin_to": [1, 5, 10],
}


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    chosen = {name: draw(st.sampled_from(values)) for name, values in option_values.items()}
    return Rules.from_options({"players": 2, **chosen})


def random_deal(rules: Rules, seed: int) -> tuple[TwoPlayerDeal, random.Random]:
    rng = random.Random(seed)
    return TwoPlayerDeal.new(rules, dealer=rng.randrange(2), rng=rng), rng


@given(rules_strategy(), seeds)
@settings(max_examples=250, deadline=None)
def test_random_deals_keep_every_invariant(rules: Rules, seed: int) -> None:
    for k in range(8):  # 2,000 deals in all
        deal, rng = random_deal(rules, seed + k)
        deal.play_out(rng)
        assert broken_invariants(deal) == []
        assert deal.summary is not None
        check_summary(deal.summary)
        assert score(deal.summary) == deal.scores() and sum(deal.scores()) == 0


def state(deal: TwoPlayerDeal) -> object:
    return (
        list(deal.history),
        list(deal.hands),
        list(deal.tops),
        [[list(p) for p in seat] for seat in deal.piles],
        list(deal.trick_cards),
        deal.phase,
        deal.current_player,
        len(deal.events),
    )


@given(rules_strategy(), seeds)
@settings(max_examples=100, deadline=None)
def test_only_legal_actions_are_accepted_and_refusals_change_nothing(rules: Rules, seed: int) -> None:
    deal, rng = random_deal(rules, seed)
    while not deal.is_over():
        legal = set(deal.legal_actions())
        assert legal
        for action in rng.sample(ACTIONS, 6):
            if action in legal:
                continue
            before = state(deal)
            try:
                deal.apply(action)
            except IllegalActionError as exc:
                assert exc.rule
            else:
                raise AssertionError(f"{action} was accepted but not listed as legal")
            assert state(deal) == before
        deal.apply(rng.choice(sorted(legal)))


@given(rules_strategy(), seeds)
@settings(max_examples=200, deadline=None)
def test_dealt_layout_and_history_replay_the_deal(rules: Rules, seed: int) -> None:
    deal, rng = random_deal(rules, seed)
    deal.play_out(rng)
    again = TwoPlayerDeal.from_dealt(rules, deal.dealer, deal.dealt())
    for action in deal.history:
        again.apply(action)
    assert again.events == deal.events and again.scores() == deal.scores()
    assert again.summary == deal.summary and again.won == deal.won


def mentioned_cards(view: TwoPlayerView) -> int:
    """Every card a view names anywhere."""
    mask = view.hand | view.played()
    for card in (*view.own_tops, *view.opponent_tops):
        if card is not None:
            mask |= BIT[card]
    for event in view.events:
        mask |= cards_shown(event)
    return mask


def hidden_from(deal: TwoPlayerDeal, seat: int) -> int:
    """Cards ``seat`` may not know: the opponent's hand and every face-down pile card."""
    hidden = deal.hands[1 - seat]
    for s in (0, 1):
        for pile in deal.piles[s]:
            for card in pile:
                if not deal.tops[s] & BIT[card]:
                    hidden |= BIT[card]
    return hidden


@given(rules_strategy(), seeds)
@settings(max_examples=80, deadline=None)
def test_views_never_show_face_down_or_hidden_cards(rules: Rules, seed: int) -> None:
    deal, rng = random_deal(rules, seed)
    while True:
        for seat in (0, 1):
            view = deal.view(seat)
            assert view.hand == deal.hands[seat] and view.available == deal.available(seat)
            leak = mentioned_cards(view) & hidden_from(deal, seat)
            assert leak == 0, f"seat {seat} sees {leak:#x}"
            assert view.legal_actions == (tuple(deal.legal_actions()) if seat == deal.current_player else ())
        if deal.is_over():
            break
        deal.apply(rng.choice(deal.legal_actions()))


@given(seeds)
@settings(max_examples=100, deadline=None)
def test_excuse_must_be_played_before_the_last_trick_variant_3_8(seed: int) -> None:
    deal, rng = random_deal(Rules(players=2, excuse_last_trick="must_play_before_last"), seed)
    while not deal.is_over():
        seat = deal.current_player
        left = deal.hands[seat].bit_count() + sum(len(p) for p in deal.piles[seat])
        won_all = all(w == seat for w in deal.trick_winners)
        if left == 2 and deal.available(seat) & EXCUSE_MASK and not won_all:
            assert deal.legal_play_mask() == EXCUSE_MASK
        deal.apply(rng.choice(deal.legal_actions()))

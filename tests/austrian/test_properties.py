"""Properties over thousands of random Austrian deals under random options: the invariants, only
legal actions accepted and refusals changing nothing, replays from dealt() that reproduce the
deal, play_out matching a driver, and views that never show another seat's hidden cards."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from atout.engine.austrian.actions import AUSTRIAN_ACTIONS
from atout.engine.austrian.cards import AUSTRIAN_TRUMPS_MASK
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.austrian.invariants import broken_invariants
from atout.engine.austrian.view import AustrianView
from atout.engine.errors import IllegalActionError
from atout.engine.events import cards_shown
from atout.rules import Rules
from atout.scoring import check_summary, parse_summary, score, summary_to_json

from .conftest import snapshot

seeds = st.integers(min_value=0, max_value=2**63)
option_values: dict[str, list[Any]] = {
    "austrian_jack_value": [2, 3],
    "austrian_must_overtrump": [True, False],
    "austrian_talon_mode": ["seed_sequential", "free_choice"],
    "austrian_second_half_visible": [False, True],
    "austrian_forbid_trull_discard": [False, True],
    "austrian_allow_game2": [True, False],
    "austrian_solo_multiplier": [2, 4],
    "austrian_solo_talon": ["defenders", "declarer"],
    "austrian_all_pass": ["redeal"],
    "austrian_scoring": ["positive_only", "zero_sum"],
    "play_direction": ["counterclockwise", "clockwise"],
}


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    chosen = {name: draw(st.sampled_from(values)) for name, values in option_values.items()}
    return Rules.from_options({"game": "austrian", "players": 3, **chosen})


def random_deal(rules: Rules, seed: int) -> tuple[AustrianDeal, random.Random]:
    rng = random.Random(seed)
    return AustrianDeal.new(rules, dealer=rng.randrange(3), rng=rng), rng


DEALS_PER_EXAMPLE = 10


@given(rules_strategy(), seeds)
@settings(max_examples=300, deadline=None)
def test_random_deals_keep_every_invariant(rules: Rules, seed: int) -> None:
    for k in range(DEALS_PER_EXAMPLE):  # 3,000 deals in all
        deal, rng = random_deal(rules, seed + k)
        steps = 0
        while not deal.is_over():
            legal = deal.legal_actions()
            assert legal, "a player to act always has a legal action"
            deal.apply(rng.choice(legal))
            steps += 1
            assert steps < 70
        assert broken_invariants(deal) == []
        if deal.summary is not None:
            check_summary(deal.summary)
            assert score(parse_summary(summary_to_json(deal.summary))) == deal.scores()


@given(rules_strategy(), seeds)
@settings(max_examples=150, deadline=None)
def test_only_legal_actions_are_accepted_and_refusals_change_nothing(rules: Rules, seed: int) -> None:
    deal, rng = random_deal(rules, seed)
    while not deal.is_over():
        legal = set(deal.legal_actions())
        for action in rng.sample(AUSTRIAN_ACTIONS, 8):
            if action in legal:
                continue
            before = snapshot(deal)
            try:
                deal.apply(action)
            except IllegalActionError as exc:
                assert exc.rule
            else:
                raise AssertionError(f"{action} was accepted but not listed as legal")
            assert snapshot(deal) == before
        if deal.legal_play_mask():
            assert {a.card for a in legal} == {c for c in range(78) if deal.legal_play_mask() >> c & 1}
        deal.apply(rng.choice(sorted(legal)))


@given(rules_strategy(), seeds)
@settings(max_examples=200, deadline=None)
def test_from_dealt_and_history_replay_the_deal(rules: Rules, seed: int) -> None:
    deal, rng = random_deal(rules, seed)
    deal.play_out(rng)
    again = AustrianDeal.from_dealt(rules, deal.dealer, deal.dealt())
    for action in deal.history:
        again.apply(action)
    assert again.events == deal.events
    assert again.scores() == deal.scores() and again.summary == deal.summary
    assert again.won == deal.won and again.tricks == deal.tricks


@given(rules_strategy(), seeds)
@settings(max_examples=100, deadline=None)
def test_play_out_matches_a_driver_with_the_same_draws(rules: Rules, seed: int) -> None:
    deal, _ = random_deal(rules, seed)
    driven = deal.clone()
    deal.play_out(random.Random(seed))
    draws = random.Random(seed)
    while not driven.is_over():
        actions = driven.legal_actions()
        driven.apply(actions[int(draws.random() * len(actions))])
    assert driven.history == deal.history and driven.events == deal.events


def mentioned_cards(view: AustrianView) -> int:
    """Every card a view names anywhere."""
    mask = view.hand | (view.first_half or 0) | (view.second_half or 0) | view.discard | view.played()
    for event in view.events:
        mask |= cards_shown(event)
    return mask


def hidden_from(deal: AustrianDeal, seat: int) -> int:
    """Cards ``seat`` may not know: others' hands, unseen talon halves, the face-down discard,
    except the halves turned up for all (where those cards went stays hidden)."""
    if deal.summary is not None:
        return 0  # the count is open
    hidden = 0
    for other in range(3):
        if other != seat:
            hidden |= deal.hands[other]
    if seat != deal.declarer:
        hidden |= deal.discard & ~AUSTRIAN_TRUMPS_MASK
    rules = deal.rules
    both_shown = rules.austrian_talon_mode == "free_choice" or rules.austrian_second_half_visible
    for half in (1, 2):
        cards = deal.talon[half - 1]
        if deal.bid == "threesome" and (half == 1 or both_shown):
            hidden &= ~cards  # turned up for all, even once in the declarer's hand
        elif deal.talon_half != half:
            hidden |= cards  # unseen; a half taken into hand is hidden there until played
    return hidden & ~deal.hands[seat]


@given(rules_strategy(), seeds)
@settings(max_examples=150, deadline=None)
def test_views_never_show_another_seats_hidden_cards(rules: Rules, seed: int) -> None:
    deal, rng = random_deal(rules, seed)
    while True:
        for seat in range(3):
            view = deal.view(seat)
            assert view.hand == deal.hands[seat]
            leak = mentioned_cards(view) & hidden_from(deal, seat)
            assert leak == 0, f"seat {seat} sees {leak:#x}"
            assert view.legal_actions == (tuple(deal.legal_actions()) if seat == deal.current_player else ())
            assert (view.scores is not None) == deal.is_over()
        if deal.is_over():
            break
        deal.apply(rng.choice(deal.legal_actions()))

"""Properties over thousands of random deals: 91 points, zero-sum scores, only legal moves,
replays that reproduce the deal, and views that never show another seat's hidden cards."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from atout.cards import ALL_CARDS, TRUMPS_MASK
from atout.engine import ACTIONS, FrenchDeal, IllegalActionError, Phase, SeatView
from atout.engine.events import cards_shown
from atout.engine.invariants import broken_invariants
from atout.records import read_record, replay, write_record
from atout.rules import Rules
from atout.scoring import check_summary, score, summary_to_json
from atout.scoring.summary import parse_summary

players = st.sampled_from([3, 4, 5])
seeds = st.integers(min_value=0, max_value=2**63)

# Options that change play, the deal or the count, drawn at random for the properties.
option_values: dict[str, list[Any]] = {
    "first_bidder": ["dealer_right", "dealer_left"],
    "first_leader": ["dealer_right", "taker"],
    "chelem_announcer_leads": [True, False],
    "excuse_last_trick": ["changes_camp", "must_play_before_last"],
    "excuse_exchange_card": ["low", "any_won_card"],
    "play_direction": ["counterclockwise", "clockwise"],
    "petit_sec_rule": ["fft", "only_trump_ignoring_excuse"],
    "bid_pousse": [False, True],
    "no_petite": [False, True],
    "called_card_fallback": ["fft", "queen_only"],
    "petit_au_bout_multiplied": [True, False],
    "threshold_0_oudlers": [56, 55],
    "poignee_beneficiary": ["winning_side", "declaring_side"],
    "five_player_split": ["2:1", "equal"],
    "round_margin_to": [1, 5, 10],
}


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    n = draw(players)
    chosen = {name: draw(st.sampled_from(values)) for name, values in option_values.items()}
    if n != 5 and draw(st.booleans()):
        chosen["deal_scheme"] = "seed000"
    return Rules.from_options({"players": n, **chosen})


def random_deal(rules: Rules, seed: int) -> tuple[FrenchDeal, random.Random]:
    rng = random.Random(seed)
    return FrenchDeal.new(rules, dealer=rng.randrange(rules.players), rng=rng), rng


DEALS_PER_EXAMPLE = 8


@given(rules_strategy(), seeds)
@settings(max_examples=300, deadline=None)
def test_random_deals_keep_every_invariant(rules: Rules, seed: int) -> None:
    for k in range(DEALS_PER_EXAMPLE):  # 2,400 deals in all
        deal, rng = random_deal(rules, seed + k)
        steps = 0
        while not deal.is_over():
            legal = deal.legal_actions()
            assert legal, "a player to act always has a legal action"
            deal.apply(rng.choice(legal))
            steps += 1
            assert steps < 200
        assert broken_invariants(deal) == []
        assert sum(deal.scores()) == 0
        if deal.summary is not None:
            check_summary(deal.summary)
            assert score(deal.summary) == deal.scores()
            # what the engine tells the score keeper reads back to the same scores
            assert score(parse_summary(summary_to_json(deal.summary))) == deal.scores()


@given(rules_strategy(), seeds)
@settings(max_examples=150, deadline=None)
def test_only_legal_actions_are_accepted_and_refusals_change_nothing(rules: Rules, seed: int) -> None:
    deal, rng = random_deal(rules, seed)
    while not deal.is_over():
        legal = set(deal.legal_actions())
        for action in rng.sample(ACTIONS, 6):
            if action in legal:
                continue
            before = (list(deal.history), list(deal.hands), deal.phase, deal.current_player, len(deal.events))
            try:
                deal.apply(action)
            except IllegalActionError as exc:
                assert exc.rule
            else:
                raise AssertionError(f"{action} was accepted but not listed as legal")
            after = (list(deal.history), list(deal.hands), deal.phase, deal.current_player, len(deal.events))
            assert before == after
        if deal.phase is Phase.PLAY:
            assert {a.card for a in legal} == {c for c in range(78) if deal.legal_play_mask() >> c & 1}
        deal.apply(rng.choice(sorted(legal)))


@given(rules_strategy(), seeds)
@settings(max_examples=250, deadline=None)
def test_a_replayed_record_reproduces_the_deal(rules: Rules, seed: int) -> None:
    deal, rng = random_deal(rules, seed)
    cut = rng.randrange(60)
    while not deal.is_over():
        deal.apply(rng.choice(deal.legal_actions()))
    again = replay(read_record(write_record(deal, seed)))
    assert again.events == deal.events
    assert again.scores() == deal.scores()
    assert again.summary == deal.summary
    assert again.won == deal.won and again.tricks == deal.tricks
    partial = replay(read_record(write_record(deal)), upto=cut)
    assert partial.history == deal.history[:cut]


def mentioned_cards(view: SeatView) -> int:
    """Every card a view names anywhere, except the called card (named, not located)."""
    mask = view.hand | (view.chien or 0) | view.ecart
    for _, _, shown in view.poignees:
        mask |= shown
    for _, card in view.trick:
        mask |= 1 << card
    for trick in view.tricks:
        for _, card in trick.plays:
            mask |= 1 << card
    for event in view.events:
        mask |= cards_shown(event)
    return mask


def hidden_from(deal: FrenchDeal, seat: int) -> int:
    """Cards ``seat`` may not know: others' unplayed, unshown cards, the hidden écart and chien."""
    if deal.is_over():
        return 0
    hidden = 0
    for other in range(deal.n):
        if other != seat:
            hidden |= deal.hands[other]
    for _, _, shown in deal.poignees:
        hidden &= ~shown
    if seat != deal.taker:
        hidden |= deal.ecart & ~TRUMPS_MASK
    if deal.contract in ("petite", "pousse", "garde"):
        hidden &= ~deal.chien  # shown to all before the taker took it
    else:
        hidden |= deal.chien
    # the called card's suit and number are public, and a card's place is not
    return hidden & ALL_CARDS & ~deal.hands[seat]


@given(rules_strategy(), seeds)
@settings(max_examples=150, deadline=None)
def test_views_never_show_another_seats_hidden_cards(rules: Rules, seed: int) -> None:
    deal, rng = random_deal(rules, seed)
    while True:
        for seat in range(deal.n):
            view = deal.view(seat)
            assert view.hand == deal.hands[seat]
            leak = mentioned_cards(view) & hidden_from(deal, seat)
            assert leak == 0, f"seat {seat} sees {leak:#x}"
            assert view.legal_actions == (tuple(deal.legal_actions()) if seat == deal.current_player else ())
            if deal.partner >= 0 and seat != deal.partner and not deal.is_over():
                revealed = any(e.kind == "partner" for e in view.events)
                assert (view.partner is not None) == revealed
        if deal.is_over():
            break
        deal.apply(rng.choice(deal.legal_actions()))

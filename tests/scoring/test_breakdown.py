"""The score breakdown a front end shows (rule book §3.11-§3.14, §5.7): its terms add up to the
per-defender unit and its scores are the scorer's, for every deal."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from atout.games import new_deal
from atout.presets import rules_for
from atout.rules import Rules
from atout.scoring import AustrianSummary, FrenchSummary, score
from atout.scoring.breakdown import austrian_breakdown, french_breakdown


@settings(max_examples=40, deadline=None)
@given(
    players=st.sampled_from([3, 4, 5]),
    seed=st.integers(0, 10**6),
    pousse=st.booleans(),
    multiplied=st.booleans(),
)
def test_breakdown_terms_add_up_to_the_french_score(
    players: int, seed: int, pousse: bool, multiplied: bool
) -> None:
    rules = Rules(players=players, bid_pousse=pousse, petit_au_bout_multiplied=multiplied)
    rng = random.Random(seed)
    deal = new_deal(rules, dealer=seed % players, rng=rng)
    while not deal.is_over():
        deal.apply(rng.choice(deal.legal_actions()))
    summary = deal.summary
    if not isinstance(summary, FrenchSummary):
        return  # everyone passed
    b = french_breakdown(summary)
    assert b.base + b.petit_au_bout + b.poignees + b.chelem + b.partial_slam == b.unit
    assert list(b.scores) == score(summary) == deal.scores()
    assert b.made == (b.margin >= 0) and b.needed == rules.threshold(b.bouts)
    assert abs(b.base) == (25 + b.rounded_margin) * b.multiplier


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_breakdown_of_an_austrian_deal_is_its_score(seed: int) -> None:
    rng = random.Random(seed)
    deal = new_deal(rules_for("tarock"), rng=rng)
    while not deal.is_over():
        deal.apply(rng.choice(deal.legal_actions()))
    summary = deal.summary
    if not isinstance(summary, AustrianSummary):
        return
    b = austrian_breakdown(summary)
    assert list(b.scores) == score(summary) == deal.scores()
    assert b.value in (abs(s) for s in b.scores)

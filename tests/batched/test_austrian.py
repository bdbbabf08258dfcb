"""The batched Austrian Tarock simulator plays the engine's game: deal by deal, the same legal
actions at every step and the same scores, under the presets and every option; its all-compiled
random deals are exactly the stepped ones. Skipped without numba (failed under CI=true)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from tests.batched.conftest import (
    assert_play_out_is_stepping,
    assert_the_engines_scores,
    checked_actions,
    needs_numba,
)

from atout.batched import BatchedDeals, random_deals
from atout.batched.austrian import AustrianBatch, random_austrian_deals
from atout.engine.austrian.actions import N_AUSTRIAN_ACTIONS
from atout.engine.austrian.deal import AustrianDeal
from atout.games import deal_from_dealt
from atout.presets import rules_for
from atout.rules import Rules, RulesError

pytestmark = needs_numba

EVERY_OPTION: dict[str, Any] = {
    "austrian_jack_value": 3,
    "austrian_must_overtrump": False,
    "austrian_talon_mode": "free_choice",
    "austrian_forbid_trull_discard": True,
    "austrian_allow_game2": True,
    "austrian_solo_multiplier": 4,
    "austrian_solo_talon": "declarer",
    "austrian_scoring": "zero_sum",
    "play_direction": "clockwise",
}
RULES = {
    "tarock": rules_for("tarock"),
    "tarock-seed": rules_for("tarock-seed"),
    "every-option": replace(rules_for("tarock"), **EVERY_OPTION),
    "second-half-visible": replace(rules_for("tarock"), austrian_second_half_visible=True),
}
DEALS = {"tarock": 6000, "tarock-seed": 2000, "every-option": 2000, "second-half-visible": 500}


def replay_against_engine(rules: Rules, size: int, seed: int) -> tuple[int, int]:
    """Step ``size`` deals with random legal actions, each checked against the engine rebuilt from
    the batch's dealt cards; returns the numbers of played and cancelled deals."""
    batch = AustrianBatch(rules, size, seed)
    engines = [deal_from_dealt(rules, 0, batch.dealt(i)) for i in range(size)]
    choose = np.random.default_rng(seed)
    steps = 0
    while not batch.done().all():
        batch.step(checked_actions(batch, engines, steps, lambda i, legal, deal: choose.choice(legal)))
        steps += 1
    assert_the_engines_scores(batch, engines)
    cancelled = batch.cancelled()
    return int((~cancelled).sum()), int(cancelled.sum())


@pytest.mark.parametrize("name", sorted(RULES))
def test_stepped_deals_equal_the_engine(name: str) -> None:
    played, cancelled = replay_against_engine(RULES[name], DEALS[name], seed=len(name))
    assert played > 0.9 * DEALS[name]
    assert cancelled > 0  # all pass: about one deal in 27 under uniform bids


@pytest.mark.parametrize("name", sorted(RULES))
def test_random_deals_are_the_stepped_deals(name: str) -> None:
    rules = RULES[name]
    batch = AustrianBatch(rules, 2000, seed=11)
    while not batch.done().all():
        batch.step(batch.random_actions())
    compiled = random_austrian_deals(rules, 2000, seed=11)
    assert compiled.tolist() == batch.scores().tolist()
    assert len({tuple(row) for row in compiled.tolist()}) > 50  # different deals, not one repeated


def test_reset_deals_again() -> None:
    batch = AustrianBatch(rules_for("tarock"), 3, seed=4)
    first = [batch.dealt(i) for i in range(3)]
    batch.reset(5)
    assert [batch.dealt(i) for i in range(3)] != first
    batch.reset(4)
    assert [batch.dealt(i) for i in range(3)] == first
    assert batch.legal_mask().shape == (3, N_AUSTRIAN_ACTIONS) == (3, batch.action_count)


def test_illegal_action_names_the_deal_and_changes_nothing() -> None:
    batch = AustrianBatch(rules_for("tarock"), 2, seed=1)
    before = batch.legal_mask()
    play_a_card = (
        int(AustrianDeal.from_dealt(rules_for("tarock"), 0, batch.dealt(1)).hands[0]).bit_length() - 1
    )
    with pytest.raises(ValueError, match=rf"^deal 1: action {play_a_card} is not legal$"):
        batch.step(np.array([156, play_a_card]))
    assert (batch.legal_mask() == before).all()
    with pytest.raises(ValueError, match=r"^actions: must hold one action per deal"):
        batch.step(np.array([156]))


def test_other_rules_are_refused() -> None:
    with pytest.raises(RulesError, match="game=french"):
        AustrianBatch(Rules(players=3), 1)
    with pytest.raises(ValueError, match=r"^size: "):
        AustrianBatch(rules_for("tarock"), 0)
    with pytest.raises(ValueError, match=r"^count: "):
        random_austrian_deals(rules_for("tarock"), -1)


def test_reset_without_a_seed_deals_the_next_deals() -> None:
    rules = rules_for("tarock")
    batch = AustrianBatch(rules, 50, seed=3)
    played = []
    for _ in range(3):
        while not batch.done().all():
            batch.step(batch.random_actions())
        played += batch.scores().tolist()
        batch.reset()
    assert played == random_austrian_deals(rules, 150, seed=3).tolist()


@pytest.mark.parametrize("name", sorted(RULES))
def test_a_loaded_deal_is_played_as_dealt(name: str) -> None:
    rules = RULES[name]
    batch = AustrianBatch(rules, 2, seed=1)
    for seed in range(20):
        data = AustrianDeal.new(rules, 0, seed).dealt()
        batch.load(1, data)
        assert batch.dealt(1) == data
        deal = AustrianDeal.from_dealt(rules, 0, data)
        while not deal.is_over():
            legal = np.flatnonzero(batch.legal_mask()[1])
            assert legal.tolist() == [int(a) for a in deal.legal_actions()]
            deal.apply(deal.legal_actions()[seed % len(legal)])
            batch.step(
                np.array([-1 if batch.done()[0] else batch.random_actions()[0], legal[seed % len(legal)]])
            )
        assert batch.scores()[1].tolist() == deal.scores()
    with pytest.raises(ValueError, match=r"^talon: "):
        batch.load(0, {"hands": data["hands"]})


def test_batched_deals_play_austrian_tarock() -> None:
    rules = rules_for("tarock")
    deals = BatchedDeals(rules, 64, seed=2)
    assert (deals.players, deals.action_count) == (3, N_AUSTRIAN_ACTIONS)
    while not deals.done().all():
        deals.step(deals.random_actions())
    assert deals.scores().tolist() == random_deals(rules, 64, seed=2).tolist()
    assert deals.scores().shape == (64, 3) and (deals.current_player() == -1).all()


def test_play_out_finishes_the_deals_as_stepping_does() -> None:
    rules = RULES["every-option"]
    stepped, played_out = AustrianBatch(rules, 300, seed=8), AustrianBatch(rules, 300, seed=8)
    assert_play_out_is_stepping(stepped, played_out, 20)  # into the talon, the discard and the first tricks
    assert played_out.scores().tolist() == random_austrian_deals(rules, 300, seed=8).tolist()

"""The batched 2-player simulator plays the engine's game: deal by deal, the same legal actions at
every step and the same scores, under the presets and every option the 2-player game reads; its
all-compiled random deals are exactly the stepped ones. Skipped without numba (failed under CI=true)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from atout.batched.two_player import AVAILABLE, TwoPlayerBatch, random_two_player_deals
from atout.engine.actions import N_ACTIONS
from atout.engine.events import ExcuseKept
from atout.engine.two_player import TwoPlayerDeal
from atout.games import deal_from_dealt
from atout.presets import rules_for
from atout.rules import Rules, RulesError

pytestmark = pytest.mark.skipif(
    not AVAILABLE and os.environ.get("CI") != "true",
    reason="numba is not installed (pip install -e '.[solver-fast]'); under CI=true these tests fail instead",
)

EVERY_OPTION: dict[str, Any] = {
    "two_player_chelem": True,
    "chelem_announcer_leads": False,
    "excuse_last_trick": "must_play_before_last",
    "excuse_exchange_card": "any_won_card",
    "round_margin_to": 5,
    "round_mode": "up",
    "slam_announced_made": 300,
    "slam_announced_failed_penalty": 150,
}
RULES = {
    "fft": rules_for("fft", players=2),
    "japanese": rules_for("japanese", players=2),
    "french-sheet": rules_for("french-sheet", players=2),
    "chelem": rules_for("fft", players=2, two_player_chelem=True, round_margin_to=10),
    "every-option": rules_for("fft", players=2, **EVERY_OPTION),
}
DEALS = {"fft": 3000, "japanese": 1000, "french-sheet": 1000, "chelem": 1000, "every-option": 1000}


def replay_against_engine(rules: Rules, size: int, seed: int) -> list[TwoPlayerDeal]:
    """Step ``size`` deals with random legal actions, each checked against the engine rebuilt from
    the batch's layout; returns the engine's deals, all over."""
    batch = TwoPlayerBatch(rules, size, seed)
    engines = []
    for i in range(size):
        deal = deal_from_dealt(rules, 0, batch.dealt(i))
        assert isinstance(deal, TwoPlayerDeal)
        engines.append(deal)
    choose = np.random.default_rng(seed)
    steps = 0
    while not batch.done().all():
        mask, players = batch.legal_mask(), batch.current_player()
        actions = np.full(size, -1, dtype=np.int64)
        for i, deal in enumerate(engines):
            legal = np.flatnonzero(mask[i])
            assert players[i] == deal.current_player, f"deal {i} step {steps}: seat to act"
            assert legal.tolist() == [int(a) for a in deal.legal_actions()], f"deal {i} step {steps}"
            if len(legal):
                actions[i] = choose.choice(legal)
                deal.apply(deal.legal_actions()[int(np.searchsorted(legal, actions[i]))])
        batch.step(actions)
        steps += 1
    scores = batch.scores()
    assert not batch.cancelled().any()
    for i, deal in enumerate(engines):
        assert deal.is_over()
        assert scores[i].tolist() == deal.scores(), f"deal {i}: {batch.dealt(i)}"
    return engines


@pytest.mark.parametrize("name", sorted(RULES))
def test_stepped_deals_equal_the_engine(name: str) -> None:
    engines = replay_against_engine(RULES[name], DEALS[name], seed=len(name))
    kept = sum(isinstance(e, ExcuseKept) for deal in engines for e in deal.events)
    assert kept > DEALS[name] // 10  # the Excuse's debt was played through, not only easy deals


@pytest.mark.parametrize("name", sorted(RULES))
def test_random_deals_are_the_stepped_deals(name: str) -> None:
    rules = RULES[name]
    batch = TwoPlayerBatch(rules, 1000, seed=11)
    played = []
    for _ in range(2):
        while not batch.done().all():
            batch.step(batch.random_actions())
        played += batch.scores().tolist()
        batch.reset()
    assert played == random_two_player_deals(rules, 2000, seed=11).tolist()
    assert len({tuple(row) for row in played}) > 30  # different deals, not one repeated


def test_reset_with_a_seed_deals_again() -> None:
    batch = TwoPlayerBatch(Rules(players=2), 3, seed=4)
    first = [batch.dealt(i) for i in range(3)]
    batch.reset(5)
    assert [batch.dealt(i) for i in range(3)] != first
    batch.reset(4)
    assert [batch.dealt(i) for i in range(3)] == first
    assert batch.legal_mask().shape == (3, N_ACTIONS) == (3, batch.action_count)


def test_illegal_action_names_the_deal_and_changes_nothing() -> None:
    batch = TwoPlayerBatch(Rules(players=2), 2, seed=1)
    before = batch.legal_mask()
    buried = TwoPlayerDeal.from_dealt(Rules(players=2), 0, batch.dealt(1)).initial_piles[1][0][0]
    with pytest.raises(ValueError, match=rf"^deal 1: action {buried} is not legal$"):
        batch.step(np.flatnonzero(before[0])[:1].repeat(2) * np.array([1, 0]) + np.array([0, buried]))
    assert (batch.legal_mask() == before).all()


def test_other_rules_are_refused() -> None:
    with pytest.raises(RulesError, match="players=2"):
        TwoPlayerBatch(Rules(players=3), 1)
    with pytest.raises(RulesError, match="petit_sec_rule=petit_imprenable"):
        random_two_player_deals(Rules(players=2, petit_sec_rule="petit_imprenable"), 1)
    with pytest.raises(ValueError, match=r"^size: "):
        TwoPlayerBatch(Rules(players=2), 0)

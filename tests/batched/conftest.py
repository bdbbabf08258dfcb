"""What the batched simulator's tests share: the mark that skips them without numba (and fails
them under CI=true), the step that checks every deal of a batch against the engine, the check of
the final scores, and the check that ``play_out`` finishes deals as stepping does."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from atout.jit import AVAILABLE

needs_numba = pytest.mark.skipif(
    not AVAILABLE and os.environ.get("CI") != "true",
    reason="numba is not installed (pip install -e '.[solver-fast]'); under CI=true these tests fail instead",
)

Choose = Callable[[int, Any, Any], int]
"""``choose(i, legal, deal)``: the action of deal ``i`` among its ``legal`` action ids (sorted),
``deal`` being its engine deal."""


def checked_actions(batch: Any, engines: Sequence[Any], step: int, choose: Choose) -> Any:
    """One action per deal of ``batch`` by ``choose`` (-1 where the deal is over), each deal first
    checked against its engine deal (the same seat to act, the same legal actions), and the action
    applied to the engine deal."""
    mask, players = batch.legal_mask(), batch.current_player()
    assert mask.shape == (batch.size, batch.action_count)
    actions = np.full(batch.size, -1, dtype=np.int64)
    for i, deal in enumerate(engines):
        legal = np.flatnonzero(mask[i])
        assert players[i] == deal.current_player, f"deal {i} step {step}: seat to act"
        assert legal.tolist() == [int(a) for a in deal.legal_actions()], f"deal {i} step {step}"
        if len(legal):
            actions[i] = choose(i, legal, deal)
            deal.apply(deal.legal_actions()[int(np.searchsorted(legal, actions[i]))])
    return actions


def assert_the_engines_scores(batch: Any, engines: Sequence[Any]) -> None:
    """Every deal of ``batch`` over with its engine deal, with the same scores and outcome."""
    scores, cancelled = batch.scores(), batch.cancelled()
    for i, deal in enumerate(engines):
        assert deal.is_over(), f"deal {i}: the batch ended it, the engine did not"
        assert scores[i].tolist() == deal.scores(), f"deal {i}: {batch.dealt(i)}"
        assert bool(cancelled[i]) == (deal.summary is None), f"deal {i}"


def assert_play_out_is_stepping(stepped: Any, played_out: Any, moves: int) -> None:
    """Two batches of the same deals stepped ``moves`` times alike (the same random actions
    drawn), then ``stepped`` finished by stepping with random actions and ``played_out`` by
    ``play_out``: the same finished deals and scores."""
    for _ in range(moves):
        actions = stepped.random_actions()
        stepped.step(actions)
        assert (played_out.random_actions() == actions).all()
        played_out.step(actions)
    while not stepped.done().all():
        stepped.step(stepped.random_actions())
    played_out.play_out()
    assert played_out.done().all() and played_out.scores().tolist() == stepped.scores().tolist()

"""Updates as deltas (docs/protocol.md, "Updates"): over whole random deals of every game, each
seat's view rebuilt from its first view and the deltas of every step that changed it equals,
after every step, the view's own wire form; and a delta never names a field that did not change."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout.engine.wire import WireError, apply_view_delta, view_delta, view_to_json
from atout.games import new_deal
from atout.presets import rules_for
from atout.rules import Rules

from .test_wire import GAMES


@pytest.mark.parametrize(("name", "rules"), GAMES, ids=[g[0] for g in GAMES])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_a_view_rebuilt_from_deltas_equals_the_view_after_every_step(
    name: str, rules: Rules, seed: int
) -> None:
    rng = random.Random(seed)
    deal = new_deal(rules, dealer=rng.randrange(rules.players), rng=rng)
    seats = range(rules.players)
    views = [deal.view(s) for s in seats]
    held = [json.loads(json.dumps(view_to_json(v))) for v in views]
    while not deal.is_over():
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
        for s in seats:
            new = deal.view(s)
            if new == views[s]:
                continue
            delta = json.loads(json.dumps(view_delta(views[s], new)))  # as it travels
            full = view_to_json(new)
            for field in (*delta["set"], *delta["add"]):
                assert full[field] != held[s][field], f"{field} did not change"
            assert {"rules", "seat", "protocol", "game"}.isdisjoint(delta["set"])
            held[s] = apply_view_delta(held[s], delta)
            assert held[s] == full
            views[s] = new


def test_a_delta_joins_views_of_one_seat_only() -> None:
    deal = new_deal(rules_for("fft", players=4), rng=3)
    with pytest.raises(ValueError, match="one seat"):
        view_delta(deal.view(0), deal.view(1))


@pytest.mark.parametrize(
    "update",
    [{"add": {"current_player": [1]}}, {"add": {"bids": "pass"}}, {"set": []}, {"events": {}}],
    ids=["add-to-a-non-list", "add-a-non-list", "set-not-an-object", "events-not-a-list"],
)
def test_an_update_that_does_not_fit_the_view_is_a_wire_error(update: dict[str, object]) -> None:
    view = view_to_json(new_deal(rules_for("fft", players=4), rng=3).view(0))
    with pytest.raises(WireError):
        apply_view_delta(view, update)

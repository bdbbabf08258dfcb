"""Actions carry their game: ``apply`` takes only an ``int`` or this game's action class, in
range, and refuses anything else with IllegalActionError, leaving the deal unchanged (rule book
§3, §4.4 and §5 decisions; the engine standard on illegal actions)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout.engine.actions import ACTIONS
from atout.engine.austrian.actions import AUSTRIAN_ACTIONS
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.errors import IllegalActionError
from atout.games import Deal, new_deal
from atout.rules import Rules

GAMES = {
    "french 3": Rules(players=3),
    "french 4": Rules(players=4),
    "french 5": Rules(players=5),
    "french 5 dead player": Rules(players=5, five_player_mode="dead_player"),
    "french 2": Rules(players=2, two_player_chelem=True),
    "austrian": Rules(game="austrian", players=3),
}

NOT_ACTIONS = st.one_of(
    st.floats(allow_nan=False),
    st.none(),
    st.text(max_size=8),
    st.integers(max_value=-1),
    st.integers(min_value=10**6),
    st.booleans(),
    st.sampled_from([235.0, 240.0, 0.0, 1e30]),
)


def _positions(rules: Rules, seed: int) -> list[Deal]:
    """A deal at each decision of one random deal, and the finished deal."""
    rng = random.Random(seed)
    deal = new_deal(rules, rng=rng)
    out = [deal.clone()]
    while not deal.is_over():
        legal = deal.legal_actions()
        deal.apply(legal[int(rng.random() * len(legal))])
        out.append(deal.clone())
    return out


def _state(deal: Deal) -> tuple[object, ...]:
    views = tuple(deal.view(s) for s in range(deal.n))
    return (list(deal.history), deal.events, deal.phase, deal.current_player, views)


def _foreign(deal: Deal) -> list[int]:
    """Actions of the other game, with the same numbers as this game's."""
    if isinstance(deal, AustrianDeal):
        return [ACTIONS[int(a)] for a in AUSTRIAN_ACTIONS]
    return [AUSTRIAN_ACTIONS[int(a)] for a in AUSTRIAN_ACTIONS]


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), junk=NOT_ACTIONS)
def test_non_actions_are_refused_in_every_phase(game: str, seed: int, junk: object) -> None:
    for deal in _positions(GAMES[game], seed)[::7]:
        before = _state(deal)
        with pytest.raises(IllegalActionError) as refused:
            deal.apply(junk)  # type: ignore[arg-type]
        assert repr(junk) in str(refused.value)
        assert _state(deal) == before


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_other_games_actions_are_refused(game: str, seed: int) -> None:
    for deal in _positions(GAMES[game], seed)[::5]:
        before = _state(deal)
        for action in _foreign(deal):
            with pytest.raises(IllegalActionError, match="is an action of") as refused:
                deal.apply(action)
            assert repr(action) in str(refused.value)
        assert _state(deal) == before


@pytest.mark.parametrize("game", GAMES)
def test_plain_ints_of_legal_actions_are_applied(game: str) -> None:
    rng = random.Random(3)
    deal = new_deal(GAMES[game], rng=rng)
    while not deal.is_over():
        legal = deal.legal_actions()
        deal.apply(int(legal[int(rng.random() * len(legal))]))
    assert deal.is_over() and len(deal.scores()) == deal.n

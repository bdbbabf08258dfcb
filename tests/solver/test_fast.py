"""The compiled search (numba, the ``solver-fast`` extra) gives what the pure-Python search gives:
the same values, best cards, node counts and table sizes. Skipped without numba (failed under
CI=true, where ``.ci/run`` installs it), except the checks of how the search is chosen."""

from __future__ import annotations

import os
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout.cards import BIT, EXCUSE, EXCUSE_MASK, cards_of
from atout.rules import Rules
from atout.solver import Position, Solver
from atout.solver import fast as fast_search
from atout.solver.position import random_ending
from atout.solver.search import FIXED_CARDS, fast_module

needs_numba = pytest.mark.skipif(
    not fast_search.AVAILABLE and os.environ.get("CI") != "true",
    reason="numba is not installed (pip install -e '.[solver-fast]'); under CI=true these tests fail instead",
)

VARIANTS: dict[str, dict[str, Any]] = {
    "fft": {},
    "any_won_card": {"excuse_exchange_card": "any_won_card"},
    "must_play_before_last": {"excuse_last_trick": "must_play_before_last"},
    "clockwise": {"play_direction": "clockwise"},
}


def ending(players: int, cards: int, seed: int, trick_cards: int = 0, variant: str = "fft") -> Position:
    rules = Rules(players=players, **VARIANTS[variant])
    return Position.from_deal(random_ending(rules, cards, random.Random(seed), trick_cards % players))


def same(pos: Position, **options: bool) -> None:
    """Both searches on one position: solve, then every card's value on the same solvers."""
    python = Solver(pos, fast=False, **options)
    compiled = Solver(pos, fast=True, **options)
    assert compiled.fast and not python.fast
    a, b = python.solve(), compiled.solve()
    assert (a.value, a.best_card, a.nodes, a.tt_entries) == (b.value, b.best_card, b.nodes, b.tt_entries)
    assert python.move_values() == compiled.move_values()
    assert python.nodes == compiled.nodes
    fresh_python, fresh_compiled = Solver(pos, fast=False, **options), Solver(pos, fast=True, **options)
    assert fresh_python.move_values() == fresh_compiled.move_values()
    assert fresh_python.nodes == fresh_compiled.nodes


@needs_numba
@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize(
    ("players", "cards"), [(3, 2), (3, 5), (3, 7), (4, 3), (4, 5), (4, 6), (5, 3), (5, 5)]
)
def test_the_compiled_search_gives_the_same_results(players: int, cards: int, variant: str) -> None:
    for seed in range(4):
        same(ending(players, cards, seed, seed, variant))


@needs_numba
@pytest.mark.parametrize(
    "options",
    [
        {"transposition": False},
        {"equivalence": False},
        {"ordering": False},
        {"transposition": False, "equivalence": False, "ordering": False},
    ],
)
def test_the_compiled_search_with_speed_ups_switched_off(options: dict[str, bool]) -> None:
    for players, cards in ((3, 4), (4, 4), (5, 3)):
        for seed in range(2):
            same(ending(players, cards, seed, seed), **options)


@needs_numba
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([3, 4, 5]),
    cards=st.integers(1, 5),
    seed=st.integers(0, 10**9),
    trick_cards=st.integers(0, 4),
    variant=st.sampled_from(list(VARIANTS)),
    debt=st.sampled_from([-1, 0, 1]),
    hidden=st.booleans(),
)
def test_random_endings_and_excuse_states(
    players: int, cards: int, seed: int, trick_cards: int, variant: str, debt: int, hidden: bool
) -> None:
    pos = ending(players, min(cards, 4) if players == 5 else cards, seed, trick_cards, variant)
    rng = random.Random(seed)
    if not any(h & EXCUSE_MASK for h in pos.hands) and EXCUSE not in pos.trick:
        pos = replace(pos, debt=debt, pile_min=(rng.choice([0, 1, 3, 9]), rng.choice([0, 1, 3, 9])))
    faces = [c for h in pos.hands for c in cards_of(h) if BIT[c] & FIXED_CARDS and not BIT[c] & EXCUSE_MASK]
    if hidden and faces:
        pos = replace(pos, sides_public=False, reveal_card=rng.choice(faces))
    same(pos)


@needs_numba
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([3, 4, 5]),
    cards=st.integers(1, 6),
    seed=st.integers(0, 10**9),
    trick_cards=st.integers(0, 4),
    bonus=st.sampled_from([10, 20]),
    au_bout=st.sampled_from([0, 20]),
)
def test_the_petits_bonuses(
    players: int, cards: int, seed: int, trick_cards: int, bonus: int, au_bout: int
) -> None:
    """Counted the same way in both searches (Position.petit_bonus, Position.petit_au_bout)."""
    pos = ending(players, min(cards, 4) if players == 5 else cards, seed, trick_cards)
    same(replace(pos, petit_bonus=bonus, petit_au_bout=au_bout))


@needs_numba
def test_the_five_player_first_lead_and_hidden_sides() -> None:
    checked = 0
    for seed in range(80):
        deal = random_ending(Rules(players=5), 4, random.Random(seed))
        if deal.called_card < 0:
            continue
        deal.n_tricks -= deal.trick_no
        deal.trick_no = 0
        deal.trick_winners = []
        pos = Position.from_deal(deal)
        assert pos.lead_forbidden
        same(pos)
        same(replace(pos, lead_forbidden=0, sides_public=False, reveal_card=deal.called_card))
        checked += 1
        if checked == 4:
            break
    assert checked == 4


@needs_numba
def test_a_sides_card_that_is_not_a_face_is_searched_without_renaming() -> None:
    for seed in range(6):
        pos = ending(4, 4, seed, 0, "any_won_card")
        pips = [c for c in cards_of(pos.hands[(pos.player + 1) % 4]) if not BIT[c] & FIXED_CARDS]
        if pips:
            hidden = replace(pos, reveal_card=pips[0], sides_public=False)
            assert not Solver(hidden, fast=False)._canonical
            same(hidden)


@needs_numba
@pytest.mark.parametrize("variant", ["fft", "any_won_card", "must_play_before_last"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_table_keys_tell_the_same_positions_apart(players: int, variant: str) -> None:
    """Both searches' keys (encoded differently) group the same trick starts together: positions one
    trick on from a root, with other Excuse states."""
    for seed in range(6):
        rng = random.Random(seed)
        root = ending(players, 4, seed, 0, variant)
        faces = [c for h in root.hands for c in cards_of(h) if BIT[c] & FIXED_CARDS and c != EXCUSE]
        if faces and seed % 2:
            root = replace(root, reveal_card=rng.choice(faces), sides_public=False)
        python, compiled = Solver(root, fast=False), Solver(root, fast=True)
        assert python._table_key(root) != compiled._table_key(root)  # not the same encoding
        groups: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
        pairs = set()
        for _ in range(60):
            pos = root
            for _ in range(players):
                pos = pos.play(rng.choice(cards_of(pos.legal_mask())))
            held = any(h & EXCUSE_MASK for h in pos.hands)
            for _ in range(4):
                state = replace(
                    pos,
                    won_by=rng.randrange(1 << players),
                    pile_min=(rng.choice([0, 1, 3, 9]), rng.choice([0, 1, 3, 9])),
                    debt=-1 if held else rng.choice([-1, 0, 1]),
                    sides_public=pos.sides_public or rng.random() < 0.5,
                )
                pairs.add((python._table_key(state), compiled._table_key(state)))
        for a, b in pairs:
            groups.setdefault(a, set()).add(b)
        assert all(len(keys) == 1 for keys in groups.values())
        assert len({b for _, b in pairs}) == len(groups)


@needs_numba
def test_larger_endings() -> None:
    for players, cards in ((3, 8), (4, 7), (5, 6)):
        same(ending(players, cards, 11))


@needs_numba
def test_the_table_grows_and_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast_search, "new_table", lambda: fast_search.Table(capacity=4))
    for seed in range(3):
        pos = ending(4, 6, seed)
        same(pos)
        solver = Solver(pos, fast=True)
        first = solver.solve()
        assert len(solver.table) == first.tt_entries and len(solver.table.arrays[0]) >= 2 * first.tt_entries
        again = solver.solve()
        assert again.value == first.value and again.nodes - first.nodes < first.nodes


@needs_numba
def test_too_many_cards_for_a_word_are_searched_in_python() -> None:
    pos = ending(5, 13, 0)  # 65 cards in play
    assert not fast_search.fits(pos)
    assert not Solver(pos, fast=True).fast


def test_the_search_is_chosen_as_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    pos = ending(4, 4, 0)
    assert fast_module(False) is None and not Solver(pos, fast=False).fast
    monkeypatch.setenv("ATOUT_SOLVER_FAST", "0")
    assert fast_module() is None and not Solver(pos).fast
    monkeypatch.delenv("ATOUT_SOLVER_FAST")
    assert Solver(pos).fast == fast_search.AVAILABLE
    small = ending(4, 2, 0)
    assert not Solver(small).fast  # below FAST_FROM tricks, Python is as quick
    monkeypatch.setattr(fast_search, "AVAILABLE", False)
    assert fast_module() is None and not Solver(pos).fast
    with pytest.raises(ImportError, match="solver-fast"):
        Solver(pos, fast=True)
    monkeypatch.setenv("ATOUT_SOLVER_FAST", "1")
    with pytest.raises(ImportError, match="solver-fast"):
        Solver(pos)

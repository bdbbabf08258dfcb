"""The optimised search (canonical table keys, bounds, trick-aware equivalent cards, ordering,
MTD(f) from a playout, equivalent cards copied in ``move_values``) against independent
references: a memoised minimax over ``Position.play`` and the unoptimised search."""

from __future__ import annotations

import functools
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout.cards import BIT, EXCUSE, EXCUSE_MASK, cards_of, half_points
from atout.rules import Rules
from atout.solver import Position, Solver, best_moves, solve
from atout.solver.position import random_ending
from atout.solver.search import FIXED_CARDS

VARIANTS: dict[str, dict[str, Any]] = {
    "fft": {},
    "any_won_card": {"excuse_exchange_card": "any_won_card"},
    "must_play_before_last": {"excuse_last_trick": "must_play_before_last"},
    "both": {"excuse_exchange_card": "any_won_card", "excuse_last_trick": "must_play_before_last"},
    "clockwise": {"play_direction": "clockwise"},
}
PLAIN = {"transposition": False, "equivalence": False, "ordering": False, "fast": False}


@functools.cache
def reference_value(pos: Position) -> int:
    """The attack's final half-points under best play: a minimax over ``Position.play``, memoised on
    the whole position (nothing of the solver's search is used)."""
    if pos.is_over():
        return pos.points
    values = [reference_value(pos.play(card)) for card in cards_of(pos.legal_mask())]
    return max(values) if pos.attack[pos.player] else min(values)


def reference_moves(pos: Position) -> dict[int, int]:
    return {card: reference_value(pos.play(card)) for card in cards_of(pos.legal_mask())}


def ending(players: int, cards: int, seed: int, trick_cards: int = 0, variant: str = "fft") -> Position:
    rules = Rules(players=players, **VARIANTS[variant])
    return Position.from_deal(random_ending(rules, cards, random.Random(seed), trick_cards % players))


def hidden_sides_ending(cards: int, seed: int, trick_cards: int = 0, variant: str = "fft") -> Position:
    """A 5-player ending where the called card is still to be played (the sides are not public)."""
    for k in range(200):
        pos = ending(5, cards, seed * 1000 + k, trick_cards, variant)
        if not pos.sides_public:
            return pos
    raise AssertionError("no 5-player ending with hidden sides")


def check(pos: Position, moves: bool = True) -> None:
    """The solver against the memoised minimax: the value, a best card, every card's value."""
    result = solve(pos, fast=False)
    expected = reference_value(pos)
    assert result.value == expected
    if not pos.is_over():
        assert reference_value(pos.play(result.best_card)) == expected
    if moves:
        assert best_moves(pos, fast=False) == reference_moves(pos)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([3, 4, 5]),
    cards=st.integers(1, 3),
    seed=st.integers(0, 10**9),
    trick_cards=st.integers(0, 4),
    variant=st.sampled_from(list(VARIANTS)),
)
def test_random_endings_match_the_minimax(
    players: int, cards: int, seed: int, trick_cards: int, variant: str
) -> None:
    check(ending(players, cards, seed, trick_cards, variant))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cards=st.integers(1, 3),
    seed=st.integers(0, 10**6),
    trick_cards=st.integers(0, 4),
    variant=st.sampled_from(["fft", "any_won_card", "both"]),
)
def test_five_player_endings_with_hidden_sides_match_the_minimax(
    cards: int, seed: int, trick_cards: int, variant: str
) -> None:
    pos = hidden_sides_ending(cards, seed, trick_cards, variant)
    assert not pos.sides_public and pos.reveal_card >= 0
    check(pos)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([3, 4, 5]),
    cards=st.integers(4, 5),
    seed=st.integers(0, 10**9),
    trick_cards=st.integers(0, 4),
    variant=st.sampled_from(list(VARIANTS)),
)
def test_larger_endings_match_the_unoptimised_search(
    players: int, cards: int, seed: int, trick_cards: int, variant: str
) -> None:
    if players == 5 and cards == 5:
        cards = 4  # the unoptimised 5-player search takes seconds at 5 cards per hand
    pos = ending(players, cards, seed, trick_cards, variant)
    plain = Solver(pos, **PLAIN)
    fast = Solver(pos, fast=False)
    assert fast.solve().value == plain.solve().value
    assert fast.move_values() == plain.move_values()


@pytest.mark.parametrize("variant", ["fft", "any_won_card", "both"])
@pytest.mark.parametrize("seed", range(3))
def test_larger_hidden_sides_endings_match_the_unoptimised_search(seed: int, variant: str) -> None:
    pos = hidden_sides_ending(4, seed, seed, variant)
    assert Solver(pos, fast=False).solve().value == Solver(pos, **PLAIN).solve().value


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_sides_card_that_is_not_a_face_is_searched_without_renaming(players: int) -> None:
    """The canonical keys rename half-point cards; a card that makes the sides public must keep its
    identity, so with such a card (which the engine never calls) the keys are the plain hands."""
    checked = 0
    for seed in range(40):
        pos = ending(players, 3, seed, seed % players, "any_won_card")
        pips = [c for c in cards_of(pos.hands[(pos.player + 1) % players]) if not BIT[c] & FIXED_CARDS]
        if not pips:
            continue
        hidden = replace(pos, reveal_card=pips[0], sides_public=False)
        assert not Solver(hidden, fast=False)._canonical
        check(hidden)
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def excuse_ending(players: int, cards: int, seed: int, variant: str) -> Position | None:
    """An ending with the Excuse held: taken back from a won pile in exchange for a card of a hand."""
    rng = random.Random(seed)
    deal = random_ending(Rules(players=players, **VARIANTS[variant]), cards, rng, rng.randrange(players))
    if not any(h & EXCUSE_MASK for h in deal.hands):
        pile = next((w for w in range(players) if deal.won[w] & EXCUSE_MASK), -1)
        seat = rng.randrange(players)
        if deal._debts or pile < 0 or not deal.hands[seat]:
            return None
        card = rng.choice(cards_of(deal.hands[seat]))
        deal.hands[seat] ^= BIT[card] | EXCUSE_MASK
        deal.won[pile] ^= BIT[card] | EXCUSE_MASK
    if rng.random() < 0.3:
        # as if the Excuse's side had won every trick so far (the slam exception)
        holder = next(s for s in range(players) if deal.hands[s] & EXCUSE_MASK)
        deal.trick_winners = [holder] * len(deal.trick_winners)
    return Position.from_deal(deal)


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_excuse_in_hand_with_every_variant(players: int, variant: str) -> None:
    """Endings where the Excuse is still held (its exchange and the last-trick rules matter)."""
    found = 0
    for seed in range(100):
        pos = excuse_ending(players, 2 + seed % 2, seed, variant)
        if pos is None:
            continue
        check(pos)
        found += 1
        if found == 5:
            break
    assert found == 5


@pytest.mark.parametrize("players", [3, 4, 5])
def test_larger_excuse_endings_match_the_unoptimised_search(players: int) -> None:
    found = 0
    for seed in range(100):
        pos = excuse_ending(players, 4, seed, list(VARIANTS)[seed % len(VARIANTS)])
        if pos is None:
            continue
        assert Solver(pos, fast=False).move_values() == Solver(pos, **PLAIN).move_values()
        found += 1
        if found == 3:
            break
    assert found == 3


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([3, 4, 5]),
    cards=st.integers(1, 3),
    seed=st.integers(0, 10**9),
    variant=st.sampled_from(["fft", "any_won_card", "both"]),
    debt=st.sampled_from([-1, 0, 1]),
    piles=st.tuples(st.sampled_from([0, 1, 3, 5, 7, 9]), st.sampled_from([0, 1, 3, 5, 7, 9])),
    hidden=st.booleans(),
    excuse=st.booleans(),
)
def test_every_excuse_state_matches_the_minimax(
    players: int,
    cards: int,
    seed: int,
    variant: str,
    debt: int,
    piles: tuple[int, int],
    hidden: bool,
    excuse: bool,
) -> None:
    """The Excuse bookkeeping set by hand: an exchange owed by either side, any cheapest won cards,
    sides not public yet (the card revealing them still in a hand), the Excuse held or not."""
    pos = excuse_ending(players, cards, seed, variant) if excuse else None
    if pos is None:
        pos = ending(players, cards, seed, seed % players, variant)
    held = any(h & EXCUSE_MASK for h in pos.hands) or EXCUSE in pos.trick
    pos = replace(pos, pile_min=piles, debt=-1 if held else debt)
    if hidden:
        faces = [c for h in pos.hands for c in cards_of(h) if BIT[c] & FIXED_CARDS and c != EXCUSE]
        if faces:
            pos = replace(pos, sides_public=False, reveal_card=random.Random(seed).choice(faces))
    check(pos)


@pytest.mark.parametrize("rule", ["low", "any_won_card"])
@pytest.mark.parametrize("owed_by", [0, 1])
@pytest.mark.parametrize("players", [4, 5])
def test_an_exchange_owed_while_the_sides_are_hidden(players: int, owed_by: int, rule: str) -> None:
    """An Excuse card owed while the sides are not public is paid when the revealing card is played
    (or at the end, or never), which may take the attack below its points now or above all the points
    still in play."""
    variant = "fft" if rule == "low" else "any_won_card"
    matters = checked = 0
    for seed in range(400):
        pos = ending(players, 2 + seed % 2, seed, seed % players, variant)
        if any(h & EXCUSE_MASK for h in pos.hands) or EXCUSE in pos.trick:
            continue
        faces = [c for h in pos.hands for c in cards_of(h) if BIT[c] & FIXED_CARDS]
        if not faces:
            continue
        rng = random.Random(seed)
        pos = replace(
            pos,
            debt=owed_by,
            pile_min=(rng.choice([1, 3, 9]), rng.choice([1, 3, 9])),
            sides_public=False,
            reveal_card=rng.choice(faces),
        )
        check(pos, moves=False)
        # a full window (no MTD(f)) meets the bounds with other windows
        assert Solver(pos, transposition=False, fast=False).move_values() == reference_moves(pos)
        matters += reference_value(pos) != reference_value(replace(pos, debt=-1))
        checked += 1
        if checked == 25:
            break
    assert checked == 25 and matters >= 5


def future(pos: Position) -> int:
    return reference_value(pos) - pos.points


def excuse_states(pos: Position, rng: random.Random) -> list[Position]:
    """The same hands with other Excuse states (consistent ones: no exchange owed while the Excuse is
    held; sides hidden only while the card that reveals them, the root's, is held)."""
    held = any(h & EXCUSE_MASK for h in pos.hands)
    faces = [c for h in pos.hands for c in cards_of(h) if c == pos.reveal_card]
    out = []
    for _ in range(12):
        state = replace(
            pos,
            won_by=rng.randrange(1 << pos.n),
            pile_min=(rng.choice([0, 1, 3, 9]), rng.choice([0, 1, 3, 9])),
            debt=-1 if held else rng.choice([-1, 0, 1]),
        )
        if faces and rng.random() < 0.5:
            state = replace(state, sides_public=False, reveal_card=rng.choice(faces))
        out.append(state)
        if faces:
            out.append(replace(state, sides_public=not state.sides_public))
    return out


@pytest.mark.parametrize("variant", ["fft", "any_won_card", "must_play_before_last", "both"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_positions_with_one_table_key_have_the_same_future(players: int, variant: str) -> None:
    """The table's key keeps all that the points still to come depend on: positions reached from one
    root with one key (other cards played, renamed alike; other Excuse states) have one future."""
    shared = 0
    for seed in range(12):
        rng = random.Random(seed)
        root = excuse_ending(players, 3, seed, variant) if seed % 2 else None
        root = root or ending(players, 3, seed, 0, variant)
        while root.trick:
            root = root.play(rng.choice(cards_of(root.legal_mask())))
        faces = [c for h in root.hands for c in cards_of(h) if BIT[c] & FIXED_CARDS and c != EXCUSE]
        if faces:
            root = replace(root, reveal_card=rng.choice(faces), sides_public=rng.random() < 0.5)
        key = Solver(root, fast=False)._table_key
        groups: dict[tuple[int, ...], list[Position]] = {}
        for _ in range(40):
            # one trick played at random, then other Excuse states of the same hands
            pos = root
            for _ in range(players):
                pos = pos.play(rng.choice(cards_of(pos.legal_mask())))
            for state in [pos, *excuse_states(pos, rng)]:
                groups.setdefault(key(state), []).append(state)
        for states in groups.values():
            values = {future(state) for state in states}
            assert len(values) == 1, states
            shared += len({(s.hands, s.excuse_state()) for s in states}) > 1
    assert shared >= 10


@pytest.mark.parametrize("players", [3, 4, 5])
def test_an_owed_card_paid_above_all_the_points_in_play(players: int) -> None:
    """The defence owes a card, paid once the sides are public: the attack may take every card still
    in play and that card too (the upper bound of what can still come counts it)."""
    found = 0
    for seed in range(300):
        pos = ending(players, 3, seed, seed % 2)
        faces = [c for h in pos.hands for c in cards_of(h) if BIT[c] & FIXED_CARDS and c != EXCUSE]
        if any(h & EXCUSE_MASK for h in pos.hands) or EXCUSE in pos.trick or not faces:
            continue
        pos = replace(pos, debt=1, pile_min=(1, 1), sides_public=False, reveal_card=faces[seed % len(faces)])
        in_play = sum(half_points(h) for h in pos.hands) + half_points(pos.trick_mask)
        if reference_value(pos) <= pos.points + in_play:
            continue
        check(pos)
        assert Solver(pos, transposition=False, fast=False).move_values() == reference_moves(pos)
        found += 1
        if found == 8:
            break
    assert found == 8


@pytest.mark.parametrize(("players", "cards"), [(3, 6), (4, 5), (5, 4)])
def test_excuse_endings_with_a_table_match_the_unoptimised_search(players: int, cards: int) -> None:
    """Endings long enough for the table to meet the same hands after different tricks, with the
    Excuse held (by a side that may have won every trick so far)."""
    found = 0
    for seed in range(200):
        pos = excuse_ending(players, cards, seed, ["fft", "any_won_card", "both"][seed % 3])
        if pos is None:
            continue
        assert Solver(pos, fast=False).solve().value == Solver(pos, **PLAIN).solve().value
        found += 1
        if found == 6:
            break
    assert found == 6


@pytest.mark.parametrize(("players", "cards"), [(3, 5), (4, 5), (5, 4)])
def test_the_speed_ups_do_not_change_the_values(players: int, cards: int) -> None:
    for seed in range(3):
        pos = ending(players, cards, seed, seed)
        plain = Solver(pos, **PLAIN).move_values()
        for options in (
            {},
            {"transposition": False},
            {"equivalence": False},
            {"ordering": False},
            {"transposition": False, "equivalence": False},
        ):
            assert Solver(pos, fast=False, **options).move_values() == plain


def test_equivalent_cards_get_the_value_of_the_card_searched() -> None:
    """``move_values`` searches one card of each run of equivalent cards and copies its value."""
    copied = 0
    for seed in range(60):
        pos = ending(4, 4, seed, seed % 4)
        solver = Solver(pos, fast=False)
        searched = solver._root_moves()
        legal = cards_of(pos.legal_mask())
        if len(searched) < len(legal):
            assert solver.move_values() == Solver(pos, **PLAIN).move_values()
            copied += 1
    assert copied >= 5


def test_the_table_is_kept_between_calls() -> None:
    pos = ending(4, 5, 1)
    solver = Solver(pos, fast=False)
    first = solver.solve()
    assert first.tt_entries > 0
    again = solver.solve()
    assert again.value == first.value and again.nodes - first.nodes < first.nodes

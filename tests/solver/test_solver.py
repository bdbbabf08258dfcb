"""The open-hand solver against a plain exhaustive minimax over the engine itself."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout.cards import BIT, EXCUSE, EXCUSE_MASK, PETIT, PETIT_MASK, cards_of
from atout.engine import FrenchDeal
from atout.rules import Rules
from atout.solver import Position, Solver, best_moves, solve
from atout.solver.position import random_ending

VARIANTS: dict[str, dict[str, Any]] = {
    "fft": {},
    "any_won_card": {"excuse_exchange_card": "any_won_card"},
    "must_play_before_last": {"excuse_last_trick": "must_play_before_last"},
    "clockwise": {"play_direction": "clockwise"},
}


def engine_value(deal: FrenchDeal) -> int:
    """The attack's final half-points under best play, trying every legal card on engine clones."""
    if deal.is_over():
        assert deal.summary is not None
        return deal.summary.half_points
    actions = deal.legal_actions()
    if deal.phase != "play":  # a first-card declaration: decline it
        child = deal.clone()
        child.apply(actions[0])
        return engine_value(child)
    values = []
    for action in actions:
        child = deal.clone()
        child.apply(action)
        values.append(engine_value(child))
    return max(values) if deal.is_attack(deal.current_player) else min(values)


def engine_move_values(deal: FrenchDeal) -> dict[int, int]:
    out = {}
    for action in deal.legal_actions():
        child = deal.clone()
        child.apply(action)
        assert action.card is not None
        out[action.card] = engine_value(child)
    return out


def ending(players: int, cards: int, seed: int, trick_cards: int = 0, variant: str = "fft") -> FrenchDeal:
    rules = Rules(players=players, **VARIANTS[variant])
    return random_ending(rules, cards, random.Random(seed), trick_cards)


def pretend_slam(deal: FrenchDeal, side_attack: bool) -> FrenchDeal:
    """The same ending as if one side had won every trick so far (what the slam exception reads)."""
    deal = deal.clone()
    seat = next(s for s in range(deal.n) if deal.is_attack(s) == side_attack)
    deal.trick_winners = [seat] * len(deal.trick_winners)
    return deal


def give_excuse(deal: FrenchDeal, seat: int, rng: random.Random) -> FrenchDeal | None:
    """The same ending with the Excuse (taken back from a won pile) swapped for a card of ``seat``."""
    if deal._debts or any(h & EXCUSE_MASK for h in deal.hands):
        return deal if deal.hands[seat] & EXCUSE_MASK else None
    pile = next((w for w in range(deal.n) if deal.won[w] & EXCUSE_MASK), -1)
    if pile < 0 or not deal.hands[seat]:
        return None
    deal = deal.clone()
    card = rng.choice(cards_of(deal.hands[seat]))
    deal.hands[seat] ^= BIT[card] | EXCUSE_MASK
    deal.won[pile] ^= BIT[card] | EXCUSE_MASK
    return deal


CASES = [
    (players, cards, seed, trick_cards, variant)
    for players, cards in ((3, 1), (3, 2), (3, 3), (4, 1), (4, 2), (4, 3), (5, 1), (5, 2), (5, 3))
    for seed in range(3)
    for trick_cards in (0, players - 1)
    for variant in ("fft", "any_won_card", "must_play_before_last", "clockwise")
    if seed < 2 or variant == "fft"
]


SMALL_ENDINGS: dict[str, Any] = {
    "players": st.sampled_from([3, 4, 5]),
    "cards": st.integers(1, 3),
    "seed": st.integers(0, 10**9),
    "trick_cards": st.integers(0, 4),
    "variant": st.sampled_from(list(VARIANTS)),
}
"""Hypothesis strategies of a small ending (:func:`ending`'s arguments)."""


@pytest.mark.parametrize(("players", "cards", "seed", "trick_cards", "variant"), CASES)
def test_the_value_is_the_engine_minimax(
    players: int, cards: int, seed: int, trick_cards: int, variant: str
) -> None:
    deal = ending(players, cards, seed, trick_cards, variant)
    pos = Position.from_deal(deal)
    result = solve(pos)
    assert result.value == engine_value(deal)
    assert pos.points <= result.value + 9 and result.value <= pos.max_points()
    assert best_moves(pos) == engine_move_values(deal)


@pytest.mark.parametrize("variant", ["fft", "must_play_before_last", "any_won_card"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_slam_exception_of_the_excuse(players: int, variant: str) -> None:
    """Endings where a side has won every trick so far and may lead the Excuse to the last trick."""
    found = 0
    for seed in range(40):
        rng = random.Random(seed)
        deal = give_excuse(ending(players, 2 + seed % 2, seed, 0, variant), rng.randrange(players), rng)
        if deal is None:
            continue
        holder = next(s for s in range(players) if deal.hands[s] & EXCUSE_MASK)
        deal = pretend_slam(deal, deal.is_attack(holder))
        pos = Position.from_deal(deal)
        assert pos.won_all == (deal.is_attack(holder), not deal.is_attack(holder))
        assert solve(pos).value == engine_value(deal)
        assert best_moves(pos) == engine_move_values(deal)
        found += 1
        if found == 6:
            break
    assert found == 6


@pytest.mark.parametrize("seed", range(3))
def test_the_five_player_first_lead(seed: int) -> None:
    """The 5-player first-lead rule, on an ending relabelled as the first trick."""
    checked = 0
    for k in range(50):
        deal = ending(5, 2, seed * 100 + k)
        if deal.called_card < 0:
            continue
        deal.n_tricks -= deal.trick_no
        deal.trick_no = 0
        deal.trick_winners = []
        deal.tricks = []
        pos = Position.from_deal(deal)
        assert pos.lead_forbidden
        assert solve(pos).value == engine_value(deal)
        assert best_moves(pos) == engine_move_values(deal)
        checked += 1
        if checked == 2:
            break
    assert checked == 2


def _relevant(pos: Position) -> tuple[object, ...]:
    """What the future depends on: the tricks' winners and the sides (§3.8 step 1), the rest of the
    Excuse state only while the Excuse or its exchange is pending."""
    pending = pos.debt >= 0 or any(h & EXCUSE_MASK for h in pos.hands) or EXCUSE in pos.trick
    extra = (pos.pile_min, pos.debt) if pending else ()
    state = (pos.won_by, pos.sides_public, pos.reveal_card)
    return (pos.hands, pos.trick, pos.leader, pos.points, pos.tricks_left, pos.player, *state, *extra)


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("players", [3, 4, 5])
def test_position_play_follows_the_engine(players: int, variant: str) -> None:
    rng = random.Random(players)
    for _ in range(6):
        deal = random_ending(Rules(players=players, **VARIANTS[variant]), rng.randrange(1, 10), rng)
        pos = Position.from_deal(deal)
        while not deal.is_over():
            if deal.phase != "play":
                deal.apply(deal.legal_actions()[0])
                continue
            assert pos.legal_mask() == deal.legal_play_mask()
            card = rng.choice(deal.legal_actions()).card
            assert card is not None
            deal.apply(card)
            pos = pos.play(card)
            if deal.is_over():
                assert deal.summary is not None
                assert pos.points == deal.summary.half_points and pos.is_over()
            elif deal.phase == "play":
                assert _relevant(pos) == _relevant(Position.from_deal(deal))


@pytest.mark.parametrize(("players", "cards"), [(3, 4), (4, 4), (4, 5), (5, 4)])
def test_the_speed_ups_do_not_change_the_value(players: int, cards: int) -> None:
    for seed in range(2):
        pos = Position.from_deal(ending(players, cards, seed, seed))
        plain = Solver(pos, transposition=False, equivalence=False, ordering=False).solve()
        fast = Solver(pos).solve()
        assert fast.value == plain.value
        for options in ({"transposition": False}, {"equivalence": False}, {"ordering": False}):
            assert solve(pos, **options).value == plain.value
        assert best_moves(pos) == best_moves(pos, transposition=False, equivalence=False)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**SMALL_ENDINGS, slam=st.booleans())
def test_random_endings_match_the_engine(
    players: int, cards: int, seed: int, trick_cards: int, variant: str, slam: bool
) -> None:
    deal = ending(players, cards, seed, trick_cards % players, variant)
    rng = random.Random(seed)
    if rng.random() < 0.5:
        deal = give_excuse(deal, rng.randrange(players), rng) or deal
    if slam:
        deal = pretend_slam(deal, random.Random(seed).random() < 0.5)
    pos = Position.from_deal(deal)
    value = solve(pos).value
    assert value == engine_value(deal)
    assert value == solve(pos, transposition=False, equivalence=False, ordering=False).value
    assert 0 <= value <= 182


def give_petit(deal: FrenchDeal, seat: int, rng: random.Random) -> FrenchDeal:
    """The same ending with the Petit in play: as it is, or taken back from a won pile (or the
    écart) in exchange for a card of ``seat``."""
    if any(h & PETIT_MASK for h in deal.hands) or PETIT in deal.trick_cards or not deal.hands[seat]:
        return deal
    piles = [*deal.won, deal.ecart]
    where = next((i for i, pile in enumerate(piles) if pile & PETIT_MASK), -1)
    if where < 0:
        return deal  # in a chien set aside (garde sans, garde contre)
    deal = deal.clone()
    card = rng.choice(cards_of(deal.hands[seat]))
    deal.hands[seat] ^= BIT[card] | PETIT_MASK
    if where < deal.n:
        deal.won[where] ^= BIT[card] | PETIT_MASK
    else:
        deal.ecart ^= BIT[card] | PETIT_MASK
    return deal


def petit_value(deal: FrenchDeal, bonus: int, au_bout: int) -> int:
    """The attack's final half-points plus the Petit's bonuses, by exhaustive minimax on the engine:
    ``bonus`` when the attack takes the trick holding the Petit, ``au_bout`` to the side taking the
    last trick with it."""

    def value(d: FrenchDeal) -> int:
        if d.is_over():
            assert d.summary is not None
            out = d.summary.half_points
            if d.attack_pile() & PETIT_MASK:
                out += bonus
            _, cards, winner = d.tricks[-1]
            if PETIT in cards:
                out += au_bout if d.is_attack(winner) else -au_bout
            return out
        values = []
        for action in d.legal_actions():
            child = d.clone()
            child.apply(action)
            values.append(value(child))
        if d.phase != "play":
            return values[0]
        return max(values) if d.is_attack(d.current_player) else min(values)

    return value(deal)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**SMALL_ENDINGS, bonus=st.sampled_from([0, 10, 20]), au_bout=st.sampled_from([0, 5, 20]))
def test_the_petits_bonuses_match_the_engine(
    players: int, cards: int, seed: int, trick_cards: int, variant: str, bonus: int, au_bout: int
) -> None:
    """rule book §3.12-§3.13: with ``petit_bonus`` (the attack's threshold falls when it takes the
    Petit) and ``petit_au_bout``, the value is the engine's minimax of card points plus them."""
    rng = random.Random(seed)
    deal = give_petit(
        ending(players, cards, seed, trick_cards % players, variant), rng.randrange(players), rng
    )
    if deal.attack_pile() & PETIT_MASK:
        return  # the Petit stayed in the attack's pile (or chien): the seat had no card to give for it
    pos = replace(Position.from_deal(deal), petit_bonus=bonus, petit_au_bout=au_bout)
    expected = petit_value(deal, bonus, au_bout)
    assert solve(pos).value == expected
    assert solve(pos, transposition=False, equivalence=False, ordering=False).value == expected
    assert pos.min_points() <= expected <= pos.max_points()
    moves = best_moves(pos)
    for card, card_value in moves.items():
        child = deal.clone()
        child.apply(card)
        assert card_value == petit_value(child, bonus, au_bout)


def test_an_over_position_is_its_points() -> None:
    deal = ending(4, 1, 0, 3)
    pos = Position.from_deal(deal).play(deal.legal_actions()[0].card or 0)
    assert pos.is_over() and solve(pos).value == pos.points and best_moves(pos) == {}


def test_a_position_outside_the_play_phase_is_refused() -> None:
    with pytest.raises(ValueError, match="play phase"):
        Position.from_deal(FrenchDeal.new(Rules(players=4), rng=1))

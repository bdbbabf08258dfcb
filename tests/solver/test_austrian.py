"""The Austrian open-hand solver against a plain exhaustive minimax over the engine itself."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout.cards import CardSet
from atout.engine.austrian.actions import BID_BASE, BID_NAMES, GAME_BASE, GAME_TYPES
from atout.engine.austrian.cards import austrian_points, parse_austrian_card
from atout.engine.austrian.deal import N_TRICKS, AustrianDeal
from atout.rules import Rules
from atout.solver.austrian import AustrianPosition, AustrianSolver, random_ending, solve

OFF = (
    {"transposition": False},
    {"equivalence": False},
    {"ordering": False},
    {"transposition": False, "equivalence": False},
)


def engine_points(deal: AustrianDeal) -> int:
    """The declarer's final card points under best play (he maximises them in game 1, minimises
    them in game 2, the defenders the opposite), trying every legal card on engine clones."""
    if deal.is_over():
        assert deal.summary is not None
        return deal.summary.points
    values = []
    for action in deal.legal_actions():
        child = deal.clone()
        child.apply(action)
        values.append(engine_points(child))
    maximize = (deal.current_player == deal.declarer) == (deal.game_type == "36_or_more")
    return max(values) if maximize else min(values)


def points_now(deal: AustrianDeal) -> int:
    """The declarer's points fixed already: his tricks, the discard, the talon in a solo when his."""
    return austrian_points(deal.declarer_pile(), deal.rules.austrian_jack_value)


def ending(
    seed: int,
    cards: int,
    trick_cards: int = 0,
    bid: str = "threesome",
    game: str = "36_or_more",
    **options: object,
) -> AustrianDeal:
    """A deal with ``bid`` and ``game`` (the rest random) played randomly down to ``cards`` cards per
    hand, then ``trick_cards`` cards into the trick."""
    rng = random.Random(seed)
    rules = Rules(game="austrian", players=3, **options)  # type: ignore[arg-type]
    deal = AustrianDeal.new(rules, dealer=rng.randrange(3), rng=rng)
    while not deal.is_over():
        if (
            deal.phase == "play"
            and deal.trick_no == N_TRICKS - cards
            and len(deal.trick_cards) == trick_cards
        ):
            return deal
        if deal.phase == "bidding":
            deal.apply(BID_BASE + (BID_NAMES.index(bid) if not deal.bids else 0))
        elif deal.phase == "game":
            deal.apply(GAME_BASE + GAME_TYPES.index(game))
        else:
            actions = deal.legal_actions()
            deal.apply(actions[rng.randrange(len(actions))])
    raise AssertionError("the deal ended early")


def _mask(text: str) -> int:
    return CardSet.parse(text).mask


def _card(name: str) -> int:
    return parse_austrian_card(name)


def _position(hands: list[str], trick: list[str], leader: int, left: int, **kw: object) -> AustrianPosition:
    return AustrianPosition(
        hands=(_mask(hands[0]), _mask(hands[1]), _mask(hands[2])),
        trick=tuple(_card(c) for c in trick),
        leader=leader,
        declarer=0,
        tricks_left=left,
        order=((0, 1, 2), (1, 2, 0), (2, 0, 1)),
        **kw,  # type: ignore[arg-type]
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    cards=st.integers(2, 3),
    trick_cards=st.integers(0, 2),
    bid=st.sampled_from(["threesome", "solo"]),
    game=st.sampled_from(GAME_TYPES),
    must_overtrump=st.booleans(),
    jack_value=st.sampled_from([2, 3]),
    solo_talon=st.sampled_from(["defenders", "declarer"]),
    clockwise=st.booleans(),
)
def test_the_value_is_the_engine_minimax(
    seed: int,
    cards: int,
    trick_cards: int,
    bid: str,
    game: str,
    must_overtrump: bool,
    jack_value: int,
    solo_talon: str,
    clockwise: bool,
) -> None:
    """rule book §5.4 play (follow, trump, over-trump under the option), §5.5 counting (Σ − 2 per
    trick, J = 2 or 3), §5.3 the talon's share (solo talon to the defenders or the declarer): the
    solver's value plus the points fixed already is the declarer's final count under best play,
    and so is every card's value from ``move_values``."""
    deal = ending(
        seed,
        cards,
        trick_cards,
        bid,
        game,
        austrian_must_overtrump=must_overtrump,
        austrian_jack_value=jack_value,
        austrian_solo_talon=solo_talon,
        play_direction="clockwise" if clockwise else "counterclockwise",
    )
    pos = AustrianPosition.from_deal(deal)
    assert pos.legal_mask() == deal.legal_play_mask()
    result = solve(pos)
    assert points_now(deal) + result.value == engine_points(deal)
    values = AustrianSolver(pos).move_values()
    assert set(values) == {int(a) for a in deal.legal_actions()}
    for card, value in values.items():
        child = deal.clone()
        child.apply(card)
        assert points_now(deal) + value == engine_points(child)
    assert values[result.best_card] == result.value


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("game", GAME_TYPES)
def test_speedups_do_not_change_the_values(seed: int, game: str) -> None:
    """The table, the equivalent-card pruning and the ordering switched off give the same values."""
    deal = ending(seed, 4 + seed % 2, seed % 3, "solo" if seed % 2 else "threesome", game)
    pos = AustrianPosition.from_deal(deal)
    full = AustrianSolver(pos)
    value, moves = full.solve().value, full.move_values()
    assert AustrianSolver(pos).move_values() == moves
    for options in OFF:
        assert solve(pos, **options).value == value
        assert AustrianSolver(pos, **options).move_values() == moves


@pytest.mark.parametrize("seed", range(8))
def test_move_values_agree_with_solving_after_each_move(seed: int) -> None:
    deal = ending(seed, 4, seed % 3, game=GAME_TYPES[seed % 2], austrian_jack_value=2 + seed % 2)
    pos = AustrianPosition.from_deal(deal)
    values = AustrianSolver(pos).move_values()
    for card, value in values.items():
        after, gain = pos.play(card)
        assert gain + solve(after).value == value
    best = (max if pos.maximizes(pos.player) else min)(values.values())
    assert solve(pos).value == best


@pytest.mark.parametrize("seed", range(6))
def test_position_play_follows_the_engine(seed: int) -> None:
    """rule book §5.4: legal cards and trick winners as the engine's, card by card to the end."""
    rng = random.Random(seed)
    deal = random_ending(Rules(game="austrian", players=3, austrian_must_overtrump=seed % 2 == 0), 8, rng)
    pos = AustrianPosition.from_deal(deal)
    while not deal.is_over():
        assert pos.legal_mask() == deal.legal_play_mask() and pos.player == deal.current_player
        before = austrian_points(deal.won[deal.declarer], deal.rules.austrian_jack_value)
        card = int(rng.choice(deal.legal_actions()))
        deal.apply(card)
        pos, gain = pos.play(card)
        assert gain == austrian_points(deal.won[deal.declarer], deal.rules.austrian_jack_value) - before
    assert pos.is_over()


def test_the_duty_to_overtrump_binds_the_declarer() -> None:
    """rule book §5.4 over-trump: spades led, a defender trumps with the 10; the declarer, void in
    spades, must beat it with his 12 under ``austrian_must_overtrump`` and so takes the trick
    (5 points) and the last one (1). In game 2 he would rather duck with the 3 when allowed."""
    hands = ["T12 T3", "7C", "8C"]
    trick = ["KS", "T10"]
    for overtrump, game2 in ((True, 6), (False, 1)):
        pos = _position(hands, trick, 1, 2, maximizing=False, must_overtrump=overtrump)
        assert solve(pos).value == game2
        values = AustrianSolver(pos).move_values()
        assert sorted(values) == sorted(_card(c) for c in (["T12"] if overtrump else ["T3", "T12"]))
        game1 = _position(hands, trick, 1, 2, maximizing=True, must_overtrump=overtrump)
        assert solve(game1).value == 6


def test_red_pips_rank_1_2_3_4() -> None:
    """rule book §1.2: in hearts and diamonds the 1 is the highest pip and the 4 the lowest."""
    pos = _position(["", "1H", "4H"], ["2H"], 0, 1, maximizing=True)
    assert solve(pos).value == 0  # the 1 of hearts takes the trick for a defender
    pos = _position(["", "4H", "3H"], ["2H"], 0, 1, maximizing=True)
    assert solve(pos).value == 1  # the 2 beats the 3 and the 4: 3 blanks count 1


def test_equivalent_cards_are_searched_once() -> None:
    """Touching cards of one value in one hand are pruned, but get their value in ``move_values``;
    a card of another hand between them keeps them apart."""
    pos = _position(["7S 8S 10S", "9C JC KC", "QD CD 4D"], [], 0, 3, maximizing=True)
    solver = AustrianSolver(pos)
    assert len(solver._root_moves()) == 1
    values = solver.move_values()
    assert set(values) == {_card(c) for c in ("7S", "8S", "10S")}
    assert values[_card("7S")] == values[_card("8S")] == values[_card("10S")]
    apart = _position(["7S 9S", "8S JC", "QD CD"], [], 0, 2, maximizing=True)
    assert len(AustrianSolver(apart)._root_moves()) == 2
    assert len(AustrianSolver(apart, equivalence=False)._root_moves()) == 2

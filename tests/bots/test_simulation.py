"""Bids, calls and écarts chosen by simulation (docs/bots.md, the expert bot)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout.bots.expert import CheatBot, ExpertBot
from atout.bots.expert.search import play_out_open
from atout.bots.expert.simulation import (
    candidate_bids,
    candidate_ecarts,
    choose_by_simulation,
    compare_options,
    dealing,
    play_option,
    rules_ecart,
)
from atout.bots.rules import RulesBot
from atout.cards import SUIT_MASKS
from atout.engine.actions import ACTIONS, DISCARD_BASE, PASS, ActionKind
from atout.engine.french import FrenchDeal
from atout.rules import Rules


def _at_a_bid(seed: int, players: int, bids_before: int) -> FrenchDeal | None:
    """A deal at some seat's bid, after ``bids_before`` rules-bot bids (``None`` if it ended)."""
    deal = FrenchDeal.new(Rules(players=players), dealer=seed % players, rng=seed)
    bot = RulesBot()
    made = 0
    while not deal.is_over():
        legal = deal.legal_actions()
        if ACTIONS[legal[0]].kind is ActionKind.BID:
            if made == bids_before:
                return deal
            made += 1
        elif deal.phase != "excuse_sec":
            return None
        deal.apply(bot.choose(deal.view(deal.current_player), legal))
    return None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.sampled_from([3, 4, 5]), st.integers(0, 3))
def test_a_dealing_at_a_bid_shows_the_seat_its_view(seed: int, players: int, bids_before: int) -> None:
    deal = _at_a_bid(seed, players, bids_before)
    if deal is None:
        return
    view = deal.view(deal.current_player)
    world = dealing(view, random.Random(seed))
    assert world is not None
    assert world.view(view.seat) == view
    assert world.hands[view.seat] == deal.hands[view.seat]


def test_candidates_are_pass_the_rules_bid_and_its_neighbours() -> None:
    legal = [PASS, PASS + 1, PASS + 3, PASS + 4, PASS + 5]
    assert candidate_bids(legal, PASS + 3) == [(PASS,), (PASS + 1,), (PASS + 3,), (PASS + 4,)]
    assert candidate_bids(legal, PASS) == [(PASS,), (PASS + 1,)]


def test_a_single_dealing_keeps_the_rules_bid() -> None:
    deal = _at_a_bid(3, 4, 0)
    assert deal is not None
    view, legal = deal.view(deal.current_player), deal.legal_actions()
    rules = RulesBot().choose(view, legal)
    choice = choose_by_simulation(view, candidate_bids(legal, rules), (rules,), random.Random(1), dealings=1)
    assert choice.option == (rules,) and choice.dealings == 1


def test_simulated_bids_are_legal_and_repeat_under_the_seed() -> None:
    for seed in range(4):
        deal = _at_a_bid(seed, 4, seed % 3)
        if deal is None:
            continue
        view, legal = deal.view(deal.current_player), deal.legal_actions()
        picks = {ExpertBot.at_level("fast,simulations=6", rng=seed).choose(view, legal) for _ in range(2)}
        assert len(picks) == 1 and picks <= set(legal)


def test_the_bid_does_not_read_the_hidden_cards() -> None:
    """Two deals that show the seat the same view get the same simulated bid."""
    deal = _at_a_bid(8, 4, 0)
    assert deal is not None
    seat = deal.current_player
    # the same cards for the seat, the rest rotated among the other hands and the chien
    rest = [h for s, h in enumerate(deal.hands) if s != seat]
    swapped = list(deal.hands)
    others = [s for s in range(4) if s != seat]
    for s, hand in zip(others, rest[1:] + rest[:1], strict=True):
        swapped[s] = hand
    other = FrenchDeal(deal.rules, deal.dealer, swapped, deal.chien)
    view, legal = deal.view(seat), deal.legal_actions()
    assert other.view(seat) == view
    a = ExpertBot.at_level("fast,simulations=6", rng=5).choose(view, legal)
    b = ExpertBot.at_level("fast,simulations=6", rng=5).choose(other.view(seat), other.legal_actions())
    assert a == b


def _at_phase(seed: int, players: int, phase: str) -> FrenchDeal | None:
    """A deal played by the rules bot up to the first decision of ``phase``."""
    deal = FrenchDeal.new(Rules(players=players), dealer=seed % players, rng=seed)
    bot = RulesBot()
    while not deal.is_over() and deal.phase != phase:
        if deal.phase == "play":
            return None
        deal.apply(bot.choose(deal.view(deal.current_player), deal.legal_actions()))
    return None if deal.is_over() else deal


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.sampled_from([(5, "call"), (3, "discard"), (4, "discard"), (5, "discard")]))
def test_a_dealing_at_the_call_or_the_ecart_shows_the_taker_its_view(seed: int, at: tuple[int, str]) -> None:
    players, phase = at
    deal = _at_phase(seed, players, phase)
    if deal is None:
        return
    view = deal.view(deal.current_player)
    world = dealing(view, random.Random(seed))
    assert world is not None and world.view(view.seat) == view


def test_ecart_options_keep_the_size_and_make_voids() -> None:
    for seed in range(40):
        deal = _at_phase(seed, 4, "discard")
        if deal is None:
            continue
        view = deal.view(deal.current_player)
        rules = rules_ecart(deal)
        options = candidate_ecarts(view.hand, rules)
        assert options[0] == rules
        assert all(len(o) == len(rules) and len(set(o)) == len(o) for o in options)
        for option in options[1:]:
            left = view.hand & ~sum(1 << (a - DISCARD_BASE) for a in option)
            suits_emptied = [s for s in range(4) if view.hand & SUIT_MASKS[s] and not left & SUIT_MASKS[s]]
            assert suits_emptied
        return
    raise AssertionError("no écart found")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_whole_deals_with_simulated_bids_call_and_ecart_are_legal(players: int) -> None:
    """Every action the engine accepts (it raises on an illegal one), the écart included."""
    for seed in range(3):
        deal = FrenchDeal.new(Rules(players=players), dealer=seed % players, rng=seed)
        bots = [ExpertBot.at_level("fast,simulations=3", rng=seed * 10 + s) for s in range(players)]
        while not deal.is_over():
            seat = deal.current_player
            deal.apply(bots[seat].choose(deal.view(seat), deal.legal_actions()))
        assert sum(deal.scores()) == 0


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_cheat_bot_bids_calls_and_discards_legally_on_the_true_deal(players: int) -> None:
    for seed in range(3):
        deal = FrenchDeal.new(Rules(players=players), dealer=seed % players, rng=seed)
        bots = [CheatBot() for _ in range(players)]
        for bot in bots:
            bot.observe_deal(deal)
        while not deal.is_over():
            seat = deal.current_player
            deal.apply(bots[seat].choose(deal.view(seat), deal.legal_actions()))
        assert sum(deal.scores()) == 0


def test_the_margin_is_how_clearly_an_option_must_beat_the_rules_bots() -> None:
    """``compare_options``: an option ahead by 1 point on average, with a spread of 3 points per
    world, beats the rules option at margin 0 but not at margin 1 (its standard error over 8
    worlds is about 1.1); an option ahead by 5 beats it at both."""
    worlds = iter(range(100))

    def play(world: int, option: tuple[int, ...]) -> tuple[float, int]:
        noise = 3.0 if world % 2 else -3.0
        return float(world + {0: 0.0, 1: 1.0 + noise, 2: 5.0 + noise}[option[0]]), 1

    def draw() -> int | None:
        return next(worlds)

    near = [(0,), (1,)]
    assert compare_options(draw, play, near, (0,), 8, margin=1.0).option == (0,)
    assert compare_options(draw, play, near, (0,), 8, margin=0.0).option == (1,)
    assert compare_options(draw, play, [*near, (2,)], (0,), 8, margin=1.0).option == (2,)
    assert ExpertBot.at_level("strong,margin=0.5").config.margin == 0.5


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.sampled_from([3, 4, 5]))
def test_the_open_playout_is_the_cheats_card_play_and_the_rules_bot_elsewhere(
    seed: int, players: int
) -> None:
    """``play_out_open``: the deal ends as it does with the cheat (its bids, call and écart the
    rules bot's) in the seat and the rules bot in every other."""
    deal = FrenchDeal.new(Rules(players=players), dealer=seed % players, rng=seed)
    seat = seed % players
    opened, steps = play_out_open(deal.clone(), seat)
    cheat, rules = CheatBot(simulate=False), RulesBot()
    cheat.observe_deal(deal)
    while not deal.is_over():
        bot = cheat if deal.current_player == seat else rules
        deal.apply(bot.choose(deal.view(deal.current_player), deal.legal_actions()))
    assert opened == deal.scores()
    assert steps > 0


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.sampled_from([3, 4, 5]))
def test_seat_play_moves_a_simulated_score_toward_the_open_playouts(seed: int, players: int) -> None:
    """``seat_play``: 0 is the rules bot's playout, 1 the open playout's score, between them the
    straight line."""
    deal = _at_a_bid(seed, players, 0)
    assert deal is not None
    seat = deal.current_player
    for action in deal.legal_actions()[:3]:
        rules_score, _ = play_option(deal, seat, (action,))
        world = deal.clone()
        world.apply(action)
        open_score = play_out_open(world, seat)[0][seat]
        assert play_option(deal, seat, (action,), seat_play=1.0)[0] == open_score
        halfway = play_option(deal, seat, (action,), seat_play=0.25)[0]
        assert halfway == pytest.approx(rules_score + 0.25 * (open_score - rules_score))
    assert ExpertBot.at_level("strong,seat_play=0.5").config.seat_play == 0.5

"""The batched 2-player simulator plays the engine's game: deal by deal, the same legal actions at
every step and the same scores, under the presets and every option the 2-player game reads; its
all-compiled random deals are exactly the stepped ones. Skipped without numba (failed under CI=true)."""

from __future__ import annotations

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
from atout.batched.two_player import TwoPlayerBatch, random_two_player_deals
from atout.cards import EXCUSE, PETIT, CardSet, card_name, parse_card
from atout.engine.actions import N_ACTIONS
from atout.engine.events import ExcuseKept
from atout.engine.two_player import TwoPlayerDeal
from atout.games import deal_from_dealt
from atout.presets import rules_for
from atout.rules import Rules, RulesError

pytestmark = needs_numba

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


def lopsided(seat: int, legal: np.ndarray, choose: np.random.Generator) -> int:
    """Mostly seat 1 announcing a chelem, playing its highest card and keeping the Excuse for the
    last trick, against seat 0 getting rid of the Excuse at once and playing its lowest card."""
    if choose.random() < 0.2:
        return int(choose.choice(legal))
    if seat == 1:
        plain = legal[legal != EXCUSE]
        return int(plain[-1] if len(plain) else legal[-1])
    return EXCUSE if EXCUSE in legal else int(legal[0])


def replay_against_engine(rules: Rules, size: int, seed: int, skewed: bool = False) -> list[TwoPlayerDeal]:
    """Step ``size`` deals with random legal actions (or :func:`lopsided` ones), each checked against
    the engine rebuilt from the batch's layout; returns the engine's deals, all over."""
    batch = TwoPlayerBatch(rules, size, seed)
    engines = []
    for i in range(size):
        deal = deal_from_dealt(rules, 0, batch.dealt(i))
        assert isinstance(deal, TwoPlayerDeal)
        engines.append(deal)
    choose = np.random.default_rng(seed)

    def pick(i: int, legal: Any, deal: TwoPlayerDeal) -> int:
        return int(lopsided(deal.current_player, legal, choose) if skewed else choose.choice(legal))

    steps = 0
    while not batch.done().all():
        batch.step(checked_actions(batch, engines, steps, pick))
        steps += 1
    assert not batch.cancelled().any()
    assert_the_engines_scores(batch, engines)
    return engines


@pytest.mark.parametrize("name", sorted(RULES))
def test_stepped_deals_equal_the_engine(name: str) -> None:
    engines = replay_against_engine(RULES[name], DEALS[name], seed=len(name))
    kept = sum(isinstance(e, ExcuseKept) for deal in engines for e in deal.events)
    assert kept > DEALS[name] // 10  # the Excuse's debt was played through, not only easy deals


@pytest.mark.parametrize("name", ["chelem", "every-option"])
def test_lopsided_deals_equal_the_engine(name: str) -> None:
    engines = replay_against_engine(RULES[name], 400, seed=7, skewed=True)
    summaries = [deal.summary for deal in engines if deal.summary is not None]
    assert sum(s.chelem_announced_by == 1 for s in summaries) > 200  # announced, and mostly failed
    assert sum(isinstance(e, ExcuseKept) for deal in engines for e in deal.events) > 40


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


def strong(legal: list[int]) -> int:
    """The highest card, keeping the Petit and then the Excuse for the last two tricks (and a
    chelem announced)."""
    kept = [a for a in legal if a not in (PETIT, EXCUSE)]
    return kept[-1] if kept else (PETIT if PETIT in legal else legal[-1])


def weak(legal: list[int]) -> int:
    """The Excuse at once, else the lowest card (and no chelem)."""
    return EXCUSE if EXCUSE in legal else legal[0]


def layout(strong_cards: str, weak_cards: str, in_hand: str) -> dict[str, object]:
    """Seat 1 (who leads) holds ``strong_cards``, the dealer ``weak_cards``; ``in_hand`` cards stay
    out of the piles."""
    seats = []
    for text in (weak_cards, strong_cards):
        cards = [card_name(c) for c in CardSet.parse(text)]
        loose = [c for c in cards if c not in in_hand.split()]
        piled, hand = loose[:18], sorted(set(cards) - set(loose[:18]), key=parse_card)
        seats.append(([piled[3 * i : 3 * i + 3] for i in range(6)], hand))
    return {"hands": [hand for _, hand in seats], "piles": [piles for piles, _ in seats]}


def play_scripted(rules: Rules, data: dict[str, object]) -> TwoPlayerDeal:
    """Play a chosen deal with :func:`weak` at seat 0 and :func:`strong` at seat 1, in the engine
    and in a batch that loads it, checking every step and the scores."""
    batch = TwoPlayerBatch(rules, 2, seed=1)
    batch.load(1, data)
    deal = TwoPlayerDeal.from_dealt(rules, 0, data)
    assert batch.dealt(1) == deal.dealt()
    while not deal.is_over():
        legal = [int(a) for a in deal.legal_actions()]
        assert np.flatnonzero(batch.legal_mask()[1]).tolist() == legal
        action = (weak if deal.current_player == 0 else strong)(legal)
        deal.apply(deal.legal_actions()[legal.index(action)])
        batch.step(np.array([int(np.flatnonzero(batch.legal_mask()[0])[0]), action]))
    assert bool(batch.done()[1]) and batch.scores()[1].tolist() == deal.scores()
    return deal


HONOURS = " ".join(f"{rank}{suit}" for rank in "JCQK" for suit in "SHDC")
LOW = " ".join(f"{rank}{suit}" for rank in range(1, 11) for suit in "SHDC")
TRUMPS = " ".join(f"T{n}" for n in range(1, 22))


def test_an_excuse_never_paid_for_is_counted_as_the_engine_counts_it() -> None:
    weak_cards = " ".join(c for c in LOW.split() if c not in ("9S", "10S")) + " EX"
    data = layout(f"{TRUMPS} {HONOURS} 9S 10S", weak_cards, in_hand="EX")
    deal = play_scripted(rules_for("fft", players=2, two_player_chelem=True), data)
    assert [e.kind for e in deal.events].count("excuse_unpaid") == 1
    assert deal.summary is not None and deal.summary.chelem_won_by == deal.summary.chelem_announced_by == 1


def test_a_petit_before_an_excuse_led_last_by_a_chelem_is_au_bout() -> None:
    data = layout(f"{TRUMPS} {HONOURS} EX 10S", LOW.replace("10S", ""), in_hand="T1 EX")
    deal = play_scripted(rules_for("fft", players=2, two_player_chelem=True), data)
    assert deal.tricks[-1][1][0] == EXCUSE and deal.tricks[-1][2] == 1  # led last, and won
    assert deal.summary is not None and deal.summary.petit_au_bout == 1


def test_a_bad_layout_is_refused_by_name() -> None:
    batch = TwoPlayerBatch(Rules(players=2), 1)
    data = batch.dealt(0)
    hands = data["hands"]
    assert isinstance(hands, list)
    with pytest.raises(ValueError, match=r"^hands\[1\]\[0\]: "):
        batch.load(0, {**data, "hands": [hands[0], ["ZZ", *hands[1][1:]]]})
    with pytest.raises(ValueError, match=r"^index: "):
        batch.load(1, data)
    assert batch.dealt(0) == data


def test_batched_deals_play_the_2_player_game() -> None:
    rules = Rules(players=2)
    deals = BatchedDeals(rules, 64, seed=2)
    assert (deals.players, deals.action_count) == (2, N_ACTIONS)
    while not deals.done().all():
        deals.step(deals.random_actions())
    assert deals.scores().tolist() == random_deals(rules, 64, seed=2).tolist()
    assert (deals.scores().sum(axis=1) == 0).all() and not deals.cancelled().any()


def test_play_out_finishes_the_deals_as_stepping_does() -> None:
    rules = RULES["every-option"]
    stepped, played_out = TwoPlayerBatch(rules, 300, seed=8), TwoPlayerBatch(rules, 300, seed=8)
    assert_play_out_is_stepping(stepped, played_out, 31)  # into the middle of a trick
    assert played_out.scores().tolist() == random_two_player_deals(rules, 300, seed=8).tolist()

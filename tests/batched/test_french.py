"""The batched French Tarot simulator plays the engine's game: deal by deal, the same seat to act,
the same legal actions at every step and the same scores and outcome, for 3, 4 and 5 players
(called king), the dead-player table, and the options it plays; chosen deals reach the chelem
and the Excuse's slam exception; its all-compiled random deals are exactly the stepped ones; the
options it does not play are refused by name. Skipped without numba (failed under CI=true)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from tests.batched.conftest import assert_the_engines_scores, checked_actions, needs_numba

from atout.batched import BatchedDeals, random_deals
from atout.batched.french import FrenchBatch
from atout.cards import EXCUSE, CardSet
from atout.engine.actions import BID_ACTIONS, PASS
from atout.games import deal_from_dealt
from atout.presets import rules_for
from atout.rules import PartialSlam, Rules, RulesError

pytestmark = needs_numba

FFT = {
    "fft-3": rules_for("fft", players=3),
    "fft-4": rules_for("fft", players=4),
    "fft-5": rules_for("fft", players=5),
    "dead-player": rules_for("fft", players=5, five_player_mode="dead_player"),
}
OPTIONS = {
    "options-3": rules_for(
        "czech",
        players=3,
        petit_sec_rule="only_trump_ignoring_excuse",
        round_margin_to=5,
        poignee_thresholds={3: (9, 11, 13)},
        play_direction="clockwise",
    ),
    "options-4": rules_for(
        "japanese",
        players=4,
        no_petite=True,
        bid_pousse=True,
        chelem_announcer_leads=False,
        poignee_beneficiary="declaring_side",
        poignee_thresholds={4: (7, 9, 11)},
        poignee_bonus=(10, 25, 50),
        round_margin_to=10,
        round_mode="up",
        excuse_exchange_card="low",
    ),
    "options-5": rules_for(
        "czech",
        players=5,
        five_player_split="equal",
        play_direction="clockwise",
        poignee_thresholds={5: (6, 8, 10)},
        slam_values={"announced_made": 500, "unannounced_made": 250},
        defense_slam_bonus=150,
    ),
    "options-dead-player": rules_for(
        "fft",
        players=5,
        five_player_mode="dead_player",
        play_direction="clockwise",
        poignee_thresholds={4: (7, 9, 11)},
        petit_au_bout_multiplied=False,
    ),
}
DEALS = {"fft-3": 2500, "fft-4": 5000, "fft-5": 3000, "dead-player": 3000} | dict.fromkeys(OPTIONS, 1500)

Policy = Callable[[int, np.ndarray, Any], int]


def uniform(seed: int) -> Policy:
    """Each deal's action drawn uniformly from the batch's legal mask."""
    choose = np.random.default_rng(seed)
    return lambda index, legal, deal: int(choose.choice(legal))


def replay_against_engine(
    batch: FrenchBatch | BatchedDeals, rules: Rules, policy: Policy | None = None
) -> list[Any]:
    """Step the batch with ``policy`` (by default the batch's own random actions), each deal
    checked against the engine rebuilt from the batch's dealt cards at every step; returns the
    finished engine deals."""
    size = batch.size
    engines = [deal_from_dealt(rules, 0, batch.dealt(i)) for i in range(size)]
    steps = 0
    while not batch.done().all():
        drawn = batch.random_actions()
        own = policy or (lambda i, legal, deal, drawn=drawn: int(drawn[i]))  # the batch's own draws
        batch.step(checked_actions(batch, engines, steps, own))
        steps += 1
    assert batch.scores().shape == (size, rules.players)
    assert_the_engines_scores(batch, engines)
    assert (batch.current_player() == -1).all() and not batch.legal_mask().any()
    return engines


@pytest.mark.parametrize("name", [*FFT, *OPTIONS])
def test_stepped_deals_equal_the_engine(name: str) -> None:
    rules = (FFT | OPTIONS)[name]
    size = DEALS[name]
    engines = replay_against_engine(BatchedDeals(rules, size, seed=len(name)), rules, uniform(len(name)))
    summaries = [deal.summary for deal in engines if deal.summary is not None]
    assert len(summaries) > 0.9 * size
    # the decisions the deals went through: every contract, poignées, and in 5 players the call
    assert {s.contract for s in summaries} == set(rules.contracts)
    assert any(s.poignees for s in summaries)
    assert any(s.petit_au_bout for s in summaries)
    if rules.players == 5 and rules.five_player_mode == "called_king":
        assert any(s.partner is None for s in summaries) and any(s.partner is not None for s in summaries)


def strong_taker(taker: int, bid: str) -> Policy:
    """The taker bids ``bid`` (the others pass), announces the chelem, shows his poignée and
    discards his highest card, then plays his highest card, the Excuse last; everyone else plays
    uniformly at random."""
    choose = np.random.default_rng(taker)

    def policy(index: int, legal: np.ndarray, deal: Any) -> int:
        if int(PASS) in legal:
            return int(BID_ACTIONS[bid]) if deal.current_player == taker else int(PASS)
        if deal.current_player != taker:
            return int(choose.choice(legal))
        plays = legal[legal < EXCUSE]
        return int(plays[-1]) if len(plays) else int(legal[-1])

    return policy


def chosen_deals(batch: FrenchBatch, seat: int, cards: str, seed: int) -> None:
    """Every deal of the batch dealt again: ``seat`` holds ``cards``, the rest shuffled."""
    held = CardSet.parse(cards).mask
    shuffle = np.random.default_rng(seed)
    n = batch.players
    size = {3: 24, 4: 18, 5: 15}[n]
    for i in range(batch.size):
        rest = [c for c in range(78) if not held >> c & 1]
        shuffle.shuffle(rest)
        hands = [CardSet(rest[k * size : (k + 1) * size]) for k in range(n - 1)]
        hands.insert(seat, CardSet(held))
        chien = CardSet(rest[(n - 1) * size :])
        batch.load(i, {"hands": [str(h) for h in hands], "chien": str(chien)})


CHELEM_HANDS = {
    # seat 1 bids first and leads: 18 high trumps, then 17 and the Excuse led to the last trick
    "trumps": "T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21",
    "excuse": "T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21 EX",
}


@pytest.mark.parametrize("bid", ["garde", "garde_contre"])
@pytest.mark.parametrize("hand", sorted(CHELEM_HANDS))
def test_chosen_deals_reach_the_chelem(hand: str, bid: str) -> None:
    rules = FFT["fft-4"]
    batch = FrenchBatch(rules, 60, seed=9)
    chosen_deals(batch, 1, CHELEM_HANDS[hand], seed=9)
    engines = replay_against_engine(batch, rules, strong_taker(1, bid))
    summaries = [deal.summary for deal in engines if deal.summary is not None]
    made = [s for s in summaries if s.chelem_won_by == "attack" and s.chelem_announced]
    assert len(made) > batch.size // 2
    assert all(s.poignees for s in summaries)
    if hand == "excuse":
        # the Excuse led to the last trick wins it (rule book §3.9)
        assert any(deal.tricks[-1][1][0] == EXCUSE and deal.tricks[-1][2] == 1 for deal in engines)


def test_random_play_reaches_the_slam_exception() -> None:
    # 17 top trumps and the Excuse: seat 1 wins every trick unless the Excuse goes before the end
    rules = FFT["fft-4"]
    stepped = FrenchBatch(rules, 600, seed=4)
    chosen_deals(stepped, 1, CHELEM_HANDS["excuse"], seed=4)
    played_out = FrenchBatch(rules, 600, seed=4)
    chosen_deals(played_out, 1, CHELEM_HANDS["excuse"], seed=4)
    engines = replay_against_engine(stepped, rules)
    played_out.play_out()
    assert np.array_equal(played_out.scores(), stepped.scores())
    assert np.array_equal(played_out.cancelled(), stepped.cancelled())
    exceptions = [d for d in engines if d.outcome == "played" and d.tricks[-1][1][0] == EXCUSE]
    assert any(d.tricks[-1][2] == 1 and len(set(d.trick_winners)) == 1 for d in exceptions)


@pytest.mark.parametrize("contract", ["petite", "garde", "garde_sans", "garde_contre"])
@pytest.mark.parametrize("name", ["fft-5", "options-5"])
def test_each_contract_equals_the_engine(name: str, contract: str) -> None:
    # the first bidder takes ``contract``; everyone else plays at random
    rules = (FFT | OPTIONS)[name]
    first = 1 if rules.play_direction == "counterclockwise" else rules.players - 1
    choose = np.random.default_rng(len(contract))

    def policy(index: int, legal: np.ndarray, deal: Any) -> int:
        if int(PASS) in legal and len(deal.bids) == 0 and int(BID_ACTIONS[contract]) in legal:
            return int(BID_ACTIONS[contract])
        if int(PASS) in legal:
            return int(PASS)
        return int(choose.choice(legal))

    engines = replay_against_engine(BatchedDeals(rules, 400, seed=3), rules, policy)
    played = [deal for deal in engines if deal.summary is not None]
    assert len(played) > 300
    assert all(deal.summary.taker == deal.bids[0][0] == first for deal in played)
    assert all(deal.summary.contract == contract for deal in played)


def test_random_deals_are_the_stepped_deals() -> None:
    for rules in (*FFT.values(), OPTIONS["options-5"]):
        batch = BatchedDeals(rules, 500, seed=11)
        rounds = []
        for _ in range(2):
            while not batch.done().all():
                batch.step(batch.random_actions())
            assert (batch.random_actions()[batch.done()] == -1).all()
            rounds.append(batch.scores())
            batch.reset()
        compiled = random_deals(rules, 1000, seed=11)
        assert np.array_equal(np.concatenate(rounds), compiled), rules.players
        assert (compiled.sum(axis=1) == 0).all()
        if rules.five_player_mode == "dead_player":
            assert (compiled[:, 0] == 0).all()  # the dealer, seat 0, sits out
        assert np.array_equal(random_deals(rules, 1000, seed=11), compiled)
        assert not np.array_equal(random_deals(rules, 1000, seed=12), compiled)


def test_deals_are_dealt_uniformly() -> None:
    # each card lands in each hand (and the chien) as often as its share of the pack
    rules = FFT["fft-4"]
    batch = BatchedDeals(rules, 4000, seed=5)
    where = np.zeros((78, 5))
    for i in range(batch.size):
        dealt = batch.dealt(i)
        hands = dealt["hands"]
        assert isinstance(hands, list)
        for place, text in enumerate([*hands, dealt["chien"]]):
            for card in CardSet.parse(str(text)):
                where[card, place] += 1
    expected = np.array([18, 18, 18, 18, 6]) / 78 * batch.size
    chi2 = ((where - expected) ** 2 / expected).sum()
    assert chi2 < 78 * 4 + 5 * np.sqrt(2 * 78 * 4)  # 312 degrees of freedom, 5 standard deviations


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("excuse_sec_redeal", True),
        ("misere_bonus", 10),
        ("partial_slam", PartialSlam()),
        ("excuse_exchange_card", "any_won_card"),
        ("excuse_last_trick", "must_play_before_last"),
        ("petit_sec_rule", "petit_imprenable"),
    ],
)
def test_options_not_played_are_refused_by_name(option: str, value: object) -> None:
    change: dict[str, Any] = {option: value}
    with pytest.raises(RulesError, match=option):
        BatchedDeals(replace(FFT["fft-4"], **change), 4)
    with pytest.raises(RulesError, match=option):
        random_deals(replace(FFT["fft-5"], **change), 4)


def test_bad_input_gets_a_clear_message() -> None:
    batch = BatchedDeals(FFT["fft-4"], 3, seed=2)
    before = batch.legal_mask()
    with pytest.raises(ValueError, match=r"deal 1: 'play KS' is not legal there"):
        batch.step(np.array([int(PASS), 13, int(PASS)]))
    assert np.array_equal(batch.legal_mask(), before)  # no deal moved
    with pytest.raises(ValueError, match=r"deal 0: 999 \(not an action id\)"):
        batch.step(np.array([999, int(PASS), int(PASS)]))
    with pytest.raises(ValueError, match="one per deal"):
        batch.step(np.array([int(PASS)]))
    with pytest.raises(ValueError, match="size must be"):
        BatchedDeals(FFT["fft-4"], 0)
    with pytest.raises(ValueError, match="seed must be"):
        BatchedDeals(FFT["fft-4"], 2, seed=-1)
    with pytest.raises(ValueError, match="index must be"):
        batch.dealt(3)
    with pytest.raises(ValueError, match="hands"):
        batch.load(0, {"hands": ["KS"], "chien": ""})
    with pytest.raises(ValueError, match="index must be"):
        batch.load(3, batch.dealt(0))
    batch.load(2, batch.dealt(0))  # a deal dealt again from the cards of another
    assert batch.dealt(2) == batch.dealt(0)

"""rule book §4.3 mode B: five at the table, the dealer dead, the others play a 4-player deal."""

from __future__ import annotations

import random

import pytest

from atout.cards import ALL_CARDS
from atout.engine import Phase
from atout.engine.dead_player import DeadPlayerDeal
from atout.engine.events import visible_to
from atout.games import broken_invariants, new_deal, next_dealer
from atout.records import read_record, replay, write_record
from atout.rules import Rules, RulesError
from atout.scoring import score

RULES = Rules(players=5, five_player_mode="dead_player")


def test_the_dead_dealer_deals_a_four_player_deal_to_the_others_4_3_b() -> None:
    deal = new_deal(RULES, dealer=2, rng=1)
    assert isinstance(deal, DeadPlayerDeal)
    hands = deal.dealt()["hands"]
    assert isinstance(hands, list) and hands[2] == ""
    assert all(len(str(hands[s]).split()) == 18 for s in (0, 1, 3, 4))
    assert len(str(deal.dealt()["chien"]).split()) == 6
    union = deal.inner.chien
    for hand in deal.inner.hands:
        union |= hand
    assert union == ALL_CARDS


def test_the_dead_dealers_right_speaks_first_and_he_never_plays_4_3_b() -> None:
    deal = new_deal(RULES, dealer=2, rng=3)
    assert deal.current_player == 3
    rng = random.Random(3)
    seen = set()
    while not deal.is_over():
        seen.add(deal.current_player)
        deal.apply(rng.choice(deal.legal_actions()))
    assert 2 not in seen and seen <= {0, 1, 3, 4}


def test_dead_player_scores_zero_and_the_taker_three_units_4_3_b() -> None:
    for seed in range(60):
        rng = random.Random(seed)
        deal = new_deal(RULES, dealer=seed % 5, rng=rng)
        deal.play_out(rng)
        assert broken_invariants(deal) == []
        summary = deal.summary
        if summary is None:
            continue
        scores = deal.scores()
        assert scores[deal.dealer] == 0 and sum(scores) == 0
        assert summary.dead == deal.dealer and summary.partner is None
        assert score(summary) == scores
        defenders = [s for s in range(5) if s not in (deal.dealer, summary.taker)]
        assert scores[summary.taker] == -3 * scores[defenders[0]]


def test_four_player_poignee_sizes_apply_4_3_b() -> None:
    deal = new_deal(RULES, dealer=0, rng=5)
    assert deal.inner.rules.poignee_levels() == (10, 13, 15)


def test_the_dead_player_sees_only_what_is_public_4_3_b() -> None:
    rng = random.Random(8)
    deal = new_deal(RULES, dealer=1, rng=rng)
    while not deal.is_over():
        view = deal.view(1)
        assert view.hand == 0 and view.legal_actions == ()
        assert all(visible_to(e) is None for e in view.events)
        if deal.phase is Phase.PLAY and deal.inner.taker >= 0:
            assert view.ecart & ~deal.inner.ecart == 0
        deal.apply(rng.choice(deal.legal_actions()))
    assert deal.view(1).scores == tuple(deal.scores())


def test_the_dead_player_keeps_dealing_while_everyone_passes_4_3_b() -> None:
    deal = new_deal(RULES, dealer=4, rng=2)
    for _ in range(4):
        deal.apply(deal.parse("pass"))
    assert deal.outcome.startswith("all passed") and next_dealer(deal) == 4
    played = new_deal(RULES, dealer=4, rng=2)
    played.apply(played.parse("garde_sans"))
    played.play_out(random.Random(0))
    assert next_dealer(played) == 0


def test_dead_player_records_replay_identically_4_3_b() -> None:
    for seed in range(15):
        rng = random.Random(seed)
        deal = new_deal(RULES, dealer=seed % 5, rng=rng)
        deal.play_out(rng)
        again = replay(read_record(write_record(deal)))
        assert isinstance(again, DeadPlayerDeal)
        assert again.events == deal.events and again.scores() == deal.scores()


def test_dead_player_mode_refuses_what_it_cannot_play_4_3_b() -> None:
    with pytest.raises(RulesError, match="dealer who plays"):
        new_deal(RULES.replace(first_bidder="dealer_left"), rng=1)
    with pytest.raises(RulesError, match="players=5"):
        Rules(players=4, five_player_mode="dead_player")
    with pytest.raises(ValueError, match="holds no cards"):
        DeadPlayerDeal.from_dealt(RULES, 0, {"hands": ["KS"] * 5, "chien": ""})

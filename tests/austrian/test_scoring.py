"""rule book §5.5-§5.7 through the engine: the piles, the summary, the scores, and what each
scoring option of the ``austrian_*`` family changes on the same deal played the same way."""

from __future__ import annotations

import random
from typing import Any

import pytest

from atout.cards import AUSTRIAN_DECK_MASK, JACKS_MASK
from atout.engine.austrian.cards import austrian_points
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.events import DealEnded
from atout.scoring import check_summary, parse_summary, score, summary_to_json
from atout.scoring.austrian import austrian_value, declarer_wins

from .conftest import rules, run

THREESOME_1 = ("threesome", "pass", "pass", "accept")
THREESOME_2 = ("threesome", "pass", "pass", "take_second_half")
SOLO = ("solo", "pass", "pass")


def finished(opening: tuple[str, ...], seed: int, **options: Any) -> AustrianDeal:
    """Deal ``seed`` (dealer 2, so seat 0 bids first), open with ``opening``, finish at random.
    Options that do not change what is legal leave the play itself unchanged."""
    deal = AustrianDeal.new(rules(**options), dealer=2, rng=seed)
    run(deal, *opening)
    deal.play_out(random.Random(seed))
    return deal


def margin(deal: AustrianDeal) -> int:
    """m of §5.7 for a finished deal."""
    summary = deal.summary
    assert summary is not None
    total = 74 if deal.rules.austrian_jack_value == 3 else 70
    points = summary.points if declarer_wins(summary) else total - summary.points
    return max(0, points - 35 if summary.game_type == "36_or_more" else 35 - points)


def test_declarer_pile_is_won_tricks_and_discard_defenders_the_rest_70_points_5_5() -> None:
    for seed in range(10):
        deal = finished(THREESOME_1, seed)
        assert deal.declarer_pile() == deal.won[0] | deal.discard
        assert deal.defenders_pile() == deal.won[1] | deal.won[2] | deal.talon[1]
        assert deal.declarer_pile() | deal.defenders_pile() == AUSTRIAN_DECK_MASK
        assert austrian_points(deal.declarer_pile()) + austrian_points(deal.defenders_pile()) == 70


def test_the_engine_ends_with_a_summary_scored_by_score_austrian_9() -> None:
    deal = finished(THREESOME_2, 4)
    summary = deal.summary
    assert summary is not None
    check_summary(summary)
    assert (summary.declarer, summary.bid, summary.talon_half) == (0, "threesome", 2)
    assert summary.points == austrian_points(deal.declarer_pile())
    assert score(summary) == deal.scores() == score(parse_summary(summary_to_json(summary)))
    assert deal.events[-1].kind == "end" and deal.events[-1] == DealEnded(None, summary)


def test_solo_summary_has_no_talon_half_9() -> None:
    summary = finished(SOLO, 1).summary
    assert summary is not None and summary.bid == "solo" and summary.talon_half is None


def test_positive_only_scores_the_winners_v_and_the_losers_0_5_7() -> None:
    outcomes = set()
    for seed in range(30):
        deal = finished(THREESOME_1, seed)
        assert deal.summary is not None
        value, wins = austrian_value(deal.summary), declarer_wins(deal.summary)
        assert deal.scores() == ([value, 0, 0] if wins else [0, value, value])
        assert value == 50 + 2 * margin(deal)
        outcomes.add(wins)
    assert outcomes == {True, False}


def test_zero_sum_option_pays_2v_against_v_each_6_2_a7() -> None:
    for seed in range(30):
        plain = finished(THREESOME_1, seed)
        zero = finished(THREESOME_1, seed, austrian_scoring="zero_sum")
        assert zero.history == plain.history
        value = max(plain.scores())
        assert zero.scores() == (
            [2 * value, -value, -value] if plain.scores()[0] else [-2 * value, value, value]
        )
        assert sum(zero.scores()) == 0


def test_second_half_doubles_the_stakes_and_free_choice_does_not_5_7() -> None:
    seen_margin = False
    for seed in range(30):
        sequential = finished(THREESOME_2, seed)
        free = finished(THREESOME_2, seed, austrian_talon_mode="free_choice")
        assert free.history == sequential.history
        m = margin(sequential)
        assert max(sequential.scores()) == 50 + 4 * m
        assert max(free.scores()) == 50 + 2 * m
        seen_margin |= m > 0
    assert seen_margin


def test_solo_multiplier_option_4_6_2_a6() -> None:
    seen_margin = False
    for seed in range(30):
        two = finished(SOLO, seed)
        four = finished(SOLO, seed, austrian_solo_multiplier=4)
        m = margin(two)
        assert max(two.scores()) == 100 + 2 * m and max(four.scores()) == 100 + 4 * m
        seen_margin |= m > 0
    assert seen_margin


def test_solo_talon_option_moves_the_talon_to_the_declarer_5_3() -> None:
    for seed in range(10):
        defenders = finished(SOLO, seed)
        declarer = finished(SOLO, seed, austrian_solo_talon="declarer")
        assert declarer.history == defenders.history
        talon_points = austrian_points(defenders.talon[0] | defenders.talon[1])
        assert defenders.summary is not None and declarer.summary is not None
        assert declarer.summary.points == defenders.summary.points + talon_points


def test_jack_value_3_counts_a_74_point_pack_6_2_a1() -> None:
    seen_jacks = False
    for seed in range(10):
        two = finished(THREESOME_1, seed)
        three = finished(THREESOME_1, seed, austrian_jack_value=3)
        assert three.history == two.history
        assert two.summary is not None and three.summary is not None
        jacks = (two.declarer_pile() & JACKS_MASK).bit_count()
        assert three.summary.points == two.summary.points + jacks
        assert austrian_points(three.declarer_pile(), 3) + austrian_points(three.defenders_pile(), 3) == 74
        check_summary(three.summary)
        seen_jacks |= jacks > 0
    assert seen_jacks


@pytest.mark.parametrize("options", [{}, {"austrian_scoring": "zero_sum"}])
def test_at_c1_score_40_points_first_half_game_1_9_3(options: dict[str, Any]) -> None:
    # AT-C1: the declarer counts 40 of 70 with the first half in game 1: V = 50 + 2 x 5 = 60
    summary = parse_summary(
        {
            "game": "austrian",
            "players": 3,
            "declarer": 0,
            "bid": "threesome",
            "talon_half": 1,
            "game_type": "36_or_more",
            "points": 40,
            "options": options,
        }
    )
    assert score(summary) == ([120, -60, -60] if options else [60, 0, 0])

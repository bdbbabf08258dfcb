"""Checks that hold after every finished Austrian deal; used by the tests (and fit for a simulator)."""

from __future__ import annotations

from atout.cards import AUSTRIAN_DECK_MASK
from atout.engine.austrian.cards import austrian_points
from atout.engine.austrian.deal import AustrianDeal
from atout.scoring.austrian import score_austrian
from atout.scoring.summary import austrian_total


def broken_invariants(deal: AustrianDeal) -> list[str]:
    """What is wrong with a finished Austrian deal; an empty list when all is well.

    Checks: the dealt cards are the 54-card pack, every card in hand at the start of play is
    played exactly once, the two piles share out the pack and its 70 points (74 with J = 3),
    the summary agrees with the declarer's pile and scores it, and the scores are zero-sum
    (``zero_sum``) or never negative (``positive_only``). A cancelled deal scores zeros.
    """
    if not deal.is_over():
        return ["the deal is not over"]
    problems: list[str] = []
    scores = deal.scores()
    dealt = deal.talon[0] | deal.talon[1]
    for hand in deal.initial_hands:
        dealt |= hand
    if dealt != AUSTRIAN_DECK_MASK:
        problems.append("the dealt cards are not the 54-card pack")
    summary = deal.summary
    if summary is None:
        if scores != [0, 0, 0]:
            problems.append(f"a cancelled deal scores {scores}")
        return problems
    rules = deal.rules
    in_hand = deal.initial_hands[0] | deal.initial_hands[1] | deal.initial_hands[2]
    if deal.talon_half is not None:
        in_hand |= deal.talon[deal.talon_half - 1]
    in_hand &= ~deal.discard
    played = [card for _, cards, _ in deal.tricks for card in cards]
    if len(played) != len(set(played)) or sum(1 << c for c in played) != in_hand:
        problems.append("not every card in hand was played exactly once")
    declarer, defenders = deal.declarer_pile(), deal.defenders_pile()
    if declarer & defenders or declarer | defenders != AUSTRIAN_DECK_MASK:
        problems.append("the declarer's and defenders' piles do not share out the pack")
    jack = rules.austrian_jack_value
    points = austrian_points(declarer, jack)
    total = points + austrian_points(defenders, jack)
    if total != austrian_total(rules):
        problems.append(f"the piles hold {total} points, not {austrian_total(rules)}")
    if summary.points != points:
        problems.append(f"the summary says {summary.points} points, the declarer's pile holds {points}")
    if scores != score_austrian(summary):
        problems.append("the scores are not the summary's")
    if rules.austrian_scoring == "zero_sum" and sum(scores) != 0:
        problems.append(f"zero-sum scores do not sum to zero: {scores}")
    if rules.austrian_scoring == "positive_only" and min(scores) < 0:
        problems.append(f"a positive-only score is negative: {scores}")
    return problems

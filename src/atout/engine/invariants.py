"""Checks that hold after every finished deal; used by ``atout simulate`` and the tests."""

from __future__ import annotations

from atout.cards import ALL_CARDS, TOTAL_HALF_POINTS, half_points
from atout.engine.french import FrenchDeal


def broken_invariants(deal: FrenchDeal) -> list[str]:
    """What is wrong with a finished deal; an empty list when all is well.

    Checks: every dealt card played exactly once, the piles share out the whole pack
    (91 points), the scores sum to zero, and the summary agrees with the piles.
    """
    if not deal.is_over():
        return ["the deal is not over"]
    problems: list[str] = []
    scores = deal.scores()
    if sum(scores) != 0:
        problems.append(f"scores do not sum to zero: {scores}")
    if deal.summary is None:
        return problems
    played = [card for _, cards, _ in deal.tricks for card in cards]
    dealt = 0
    for hand in deal.initial_hands:
        dealt |= hand
    in_hand_at_play = dealt | (deal.initial_chien if deal.contract in ("petite", "pousse", "garde") else 0)
    in_hand_at_play &= ~deal.ecart
    if len(played) != len(set(played)) or sum(1 << c for c in played) != in_hand_at_play:
        problems.append("not every card in hand was played exactly once")
    set_aside = deal.ecart if deal.contract in ("petite", "pousse", "garde") else deal.chien
    union = 0
    total = 0
    for pile in [*deal.won, set_aside]:
        if union & pile:
            problems.append("a card lies in two piles")
        union |= pile
        total += half_points(pile)
    if union != ALL_CARDS or total != TOTAL_HALF_POINTS:
        problems.append(f"the piles hold {total / 2} points, not 91")
    summary = deal.summary
    if summary.half_points != half_points(deal.attack_pile()):
        problems.append("the summary's points disagree with the attack's pile")
    return problems

"""Checks that hold after every finished deal; used by ``atout simulate`` and the tests."""

from __future__ import annotations

from atout.cards import ALL_CARDS, TOTAL_HALF_POINTS, count_bouts, half_points
from atout.engine.french import FrenchDeal
from atout.engine.two_player import TWO_PLAYER_TRICKS, TwoPlayerDeal


def broken_invariants(deal: FrenchDeal | TwoPlayerDeal) -> list[str]:
    """What is wrong with a finished deal; an empty list when all is well.

    Checks: every dealt card played exactly once, the piles share out the whole pack
    (91 points), the scores sum to zero, and the summary agrees with the piles.
    """
    if not deal.is_over():
        return ["the deal is not over"]
    if isinstance(deal, TwoPlayerDeal):
        return _two_player_problems(deal)
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


def _two_player_problems(deal: TwoPlayerDeal) -> list[str]:
    """The same checks for a 2-player deal (rule book §4.4): 39 tricks of 2 cards use up every
    hand and pile, and each player's own pile is what the summary counts."""
    problems: list[str] = []
    scores = deal.scores()
    if sum(scores) != 0:
        problems.append(f"scores do not sum to zero: {scores}")
    played = [card for _, cards, _ in deal.tricks for card in cards]
    if len(deal.tricks) != TWO_PLAYER_TRICKS or len(played) != len(set(played)) or len(played) != 78:
        problems.append("not every dealt card was played exactly once in 39 tricks")
    if deal.hands != [0, 0] or any(p for seat in deal.piles for p in seat):
        problems.append("cards are left in a hand or a pile")
    won0, won1 = deal.won
    if won0 & won1 or won0 | won1 != ALL_CARDS or half_points(won0) + half_points(won1) != TOTAL_HALF_POINTS:
        problems.append("the two piles do not share out the 78 cards and 91 points")
    summary = deal.summary
    if summary is None:
        return [*problems, "a played deal has no summary"]
    piles = (half_points(won0), half_points(won1))
    moved = summary.half_points[0] - piles[0]
    unpaid = any(e.kind == "excuse_unpaid" for e in deal.events)
    if summary.half_points[0] + summary.half_points[1] != TOTAL_HALF_POINTS or abs(moved) > int(unpaid):
        problems.append("the summary's points disagree with the piles")
    if summary.oudlers != (count_bouts(won0), count_bouts(won1)):
        problems.append("the summary's oudlers disagree with the piles")
    return problems

"""Evaluating each legal card in one complete deal (a sampled world, or the true deal for ``cheat``).

Two evaluators, chosen by how many cards are left:

* **solver** (every hand holds at most ``solver_cards`` cards): the exact open-hand solver
  (:mod:`atout.solver`); a card's value is the final **card points of the seat's side** in
  half-points (the attack's value, or 182 minus it for a defender). Bonuses (petit au bout,
  poignées, chelem) are not in it.
* **playout**: the card is played, then every seat (the seat itself too) plays the rules bot to
  the end (:func:`~atout.bots.rules.playout.play_to_end`: the rules bot's very decisions, card
  plays read from the deal without building views); a card's value is the seat's **engine
  score** for the deal (contract, bonuses, all).

Within one decision every card is valued by the same evaluator, so values compare.
"""

from __future__ import annotations

from collections.abc import Iterable

from atout.bots.rules.playout import play_to_end
from atout.cards import BIT, EXCUSE, HALF_POINTS, SUIT_OF, TOTAL_HALF_POINTS
from atout.engine.french import FrenchDeal
from atout.solver import Position, Solver

NODES_PER_WORK = 20
"""Solver nodes counted as one unit of work (one simulated decision of a playout costs about as
much as 20 solver nodes)."""


def uses_solver(deal: FrenchDeal, solver_cards: int) -> bool:
    """Whether the endings are small enough for the exact solver."""
    return max(h.bit_count() for h in deal.hands) <= solver_cards and deal._imprenable < 0


def solver_values(deal: FrenchDeal, seat: int, cards: Iterable[int]) -> tuple[dict[int, float], int]:
    """Each card's value for ``seat``'s side (final card points, half-points) and the work spent."""
    solver = Solver(Position.from_deal(deal))
    values = solver.move_values()
    attack = deal.is_attack(seat)
    out = {c: float(values[c] if attack else TOTAL_HALF_POINTS - values[c]) for c in cards}
    return out, 1 + solver.nodes // NODES_PER_WORK


def playout_value(deal: FrenchDeal, seat: int, card: int) -> tuple[float, int]:
    """``seat``'s score after playing ``card`` and the rules bot everywhere to the end, and the
    number of decisions simulated."""
    world = deal.clone()
    world.apply(card)
    steps = play_to_end(world)
    return float(world.scores()[seat]), steps


def card_values(
    deal: FrenchDeal, seat: int, cards: Iterable[int], solver_cards: int
) -> tuple[dict[int, float], int, str]:
    """Each card's value in ``deal`` for ``seat`` (see the module docstring), the work spent, and
    the evaluator used (``solver`` or ``playout``)."""
    cards = list(cards)
    if uses_solver(deal, solver_cards):
        values, work = solver_values(deal, seat, cards)
        return values, work, "solver"
    values = {}
    work = 0
    for card in cards:
        values[card], steps = playout_value(deal, seat, card)
        work += steps
    return values, work, "playout"


def distinct_cards(legal: Iterable[int], hand: int, gone: int, keep: int = 0) -> list[int]:
    """The legal cards with equivalent ones left out: two cards of one suit (or both trumps) of the
    same card value, with no card between them other than the seat's own and those in ``gone``
    (played in finished tricks, or in the seat's known écart), play alike; the lowest is kept.
    Cards in ``keep`` (the called card) are never merged."""
    out: list[int] = []
    previous = -1
    for card in sorted(legal):
        if (
            previous >= 0
            and card != EXCUSE
            and SUIT_OF[card] == SUIT_OF[previous]
            and HALF_POINTS[card] == HALF_POINTS[previous]
            and not (BIT[card] | BIT[previous]) & keep
            and _between(previous, card) & ~(hand | gone) == 0
        ):
            previous = card
            continue
        out.append(card)
        previous = card
    return out


def _between(low: int, high: int) -> int:
    return ((1 << high) - 1) & ~((1 << (low + 1)) - 1)


__all__ = ["NODES_PER_WORK", "card_values", "distinct_cards", "playout_value", "solver_values", "uses_solver"]

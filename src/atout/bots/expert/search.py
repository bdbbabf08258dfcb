"""Evaluating each legal card in one complete deal (a sampled world, or the true deal for ``cheat``).

Two evaluators, chosen by how many cards are left:

* **solver** (every hand holds at most ``solver_cards`` cards): the exact open-hand solver
  (:mod:`atout.solver`) with the Petit counted as the score counts it (its capture moves the
  attack's threshold; petit au bout); a card's value is the seat's **engine score** for the
  solved outcome (:func:`ending_position`; the slam aside).
* **playout**: the card is played, then every seat (the seat itself too) plays the rules bot to
  the end (:func:`~atout.bots.rules.playout.play_to_end`: the rules bot's very decisions, card
  plays read from the deal without building views; with numba, the card play by
  the compiled kernel, :mod:`atout.bots.rules.kernel`, which plays the same cards);
  a card's value is the seat's **engine score** for the deal (contract, bonuses, all).

Within one decision every card is valued by the same evaluator, so values compare.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from atout.bots.rules import RulesBot
from atout.bots.rules.kernel import compiles, finish, finish_each
from atout.bots.rules.playout import CardPlayFollower
from atout.cards import BIT, EXCUSE, HALF_POINTS, PETIT_MASK, SUIT_OF, cards_of, count_bouts
from atout.engine.french import FrenchDeal, Phase
from atout.scoring import score
from atout.solver import Position, Solver

_RULES = RulesBot()
_PLAY = Phase.PLAY
_END = Phase.END

NODES_PER_WORK = 20
"""Solver nodes counted as one unit of work (one simulated decision of a playout costs about as
much as 20 solver nodes)."""


def uses_solver(deal: FrenchDeal, solver_cards: int) -> bool:
    """Whether the endings are small enough for the exact solver."""
    return max(h.bit_count() for h in deal.hands) <= solver_cards and deal._imprenable < 0


def ending_position(deal: FrenchDeal) -> tuple[Position, Callable[[int], list[int]]]:
    """The solver's position of ``deal`` counting the Petit as the score does, and how its value
    becomes each seat's engine score.

    While the Petit is in play the attack's count gains, when it takes the Petit, the fall of its
    threshold (``petit_bonus``), and petit au bout counts as the card points it is worth
    (``petit_au_bout``: ten points, or ten over the multiplier, rounded, under
    ``petit_au_bout_multiplied=false``); the 21 and the Excuse count for the side holding them.
    A value is scored as the engine scores the attack's count against the threshold without the
    Petit (contract, poignées and all; no slam)."""
    position = Position.from_deal(deal)
    rules, contract = deal.rules, deal.contract
    if contract is None:
        raise ValueError("the deal has no contract yet")
    attack_cards = deal.attack_pile()
    in_play = position.trick_mask
    for seat, hand in enumerate(position.hands):
        in_play |= hand
        if position.attack[seat]:
            attack_cards |= hand
    seats = position.order[position.leader]
    for i, card in enumerate(position.trick):
        if position.attack[seats[i]]:
            attack_cards |= BIT[card]
    if in_play & PETIT_MASK:
        bouts = count_bouts(attack_cards & ~PETIT_MASK)
        multiplier = rules.multiplier(contract)
        position = replace(
            position,
            petit_bonus=2 * (rules.threshold(bouts) - rules.threshold(bouts + 1)),
            petit_au_bout=20 if rules.petit_au_bout_multiplied else 2 * round(10 / multiplier),
        )
    else:
        bouts = count_bouts(attack_cards)
    template = deal.summary_if(0, bouts)

    def scores(value: int) -> list[int]:
        return score(replace(template, half_points=value))

    return position, scores


def solver_values(deal: FrenchDeal, seat: int, cards: Iterable[int]) -> tuple[dict[int, float], int]:
    """Each card's value for ``seat`` (its engine score when everyone plays perfectly from there,
    every hand open, :func:`ending_position`) and the work spent."""
    position, scores = ending_position(deal)
    solver = Solver(position)
    values = solver.move_values()
    scored: dict[int, float] = {}
    out = {}
    for card in cards:
        value = values[card]
        if value not in scored:
            scored[value] = float(scores(value)[seat])
        out[card] = scored[value]
    return out, 1 + solver.nodes // NODES_PER_WORK


def playout_value(deal: FrenchDeal, seat: int, card: int) -> tuple[float, int]:
    """``seat``'s score after playing ``card`` and the rules bot everywhere to the end, and the
    work spent (decisions simulated)."""
    world = deal.clone()
    world.apply(card)
    outcome = finish(world)
    return float(outcome.scores[seat]), outcome.steps


def card_values(
    deal: FrenchDeal,
    seat: int,
    cards: Iterable[int],
    solver_cards: int,
    shared: dict[str, Any] | None = None,
) -> tuple[dict[int, float], int, str]:
    """Each card's value in ``deal`` for ``seat`` (see the module docstring), the work spent, and
    the evaluator used (``solver`` or ``playout``); ``shared``: a dict kept over the worlds of one
    view (:func:`~atout.bots.rules.kernel.finish_each`)."""
    cards = list(cards)
    if uses_solver(deal, solver_cards):
        values, work = solver_values(deal, seat, cards)
        return values, work, "solver"
    values = {}
    work = 0
    if compiles(deal):  # every card from one position, compiled
        for card, outcome in zip(cards, finish_each(deal, cards, shared), strict=True):
            values[card] = float(outcome.scores[seat])
            work += outcome.steps - 1  # the card itself is not a simulated decision
        return values, work, "playout"
    for card in cards:
        values[card], steps = playout_value(deal, seat, card)
        work += steps
    return values, work, "playout"


def open_card(
    deal: FrenchDeal,
    seat: int,
    legal: Iterable[int],
    rules_card: int,
    solver_cards: int = 0,
    shared: dict[str, Any] | None = None,
) -> tuple[int, int]:
    """The card ``seat`` plays in ``deal`` seeing every hand, as the ``cheat`` bot plays: each
    distinct card of ``legal`` valued by :func:`card_values` on the open deal, the best kept
    (``rules_card`` unless another is worth more; then the lowest card); and the work spent.
    ``shared`` as in :func:`card_values`."""
    cards = distinct_cards(legal, deal.hands[seat], 0)
    values, work, _ = card_values(deal, seat, cards, solver_cards, shared=shared)
    best = max(cards, key=lambda c: (values[c], c == rules_card, -c))
    if values.get(rules_card, float("-inf")) >= values[best]:
        best = rules_card
    return best, work


def play_out_open(deal: FrenchDeal, seat: int) -> tuple[list[int], int]:
    """Play ``deal`` to its end with ``seat`` choosing its cards by :func:`open_card` (playouts
    to the end) and the rules bot making every other decision (the seat's bids, écart and
    declarations too); each seat's score and the work spent (decisions simulated)."""
    steps = 0
    follower: CardPlayFollower | None = None
    shared: dict[str, Any] = {}
    while True:
        phase = deal.phase
        if phase is _END:
            return deal.scores(), steps
        steps += 1
        if phase is not _PLAY:
            deal.apply(_RULES.choose(deal.view(deal.current_player), deal.legal_actions()))
            continue
        if follower is None:
            follower = CardPlayFollower(deal)
            shared = {"follower": follower}  # what the seats have seen, kept up to date
        card = follower.rules_card()
        legal = deal.legal_play_mask()
        if deal.current_player == seat and legal & (legal - 1):
            card, work = open_card(deal, seat, cards_of(legal), card, shared=shared)
            steps += work
        follower.play(card)


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


__all__ = [
    "NODES_PER_WORK",
    "card_values",
    "distinct_cards",
    "ending_position",
    "open_card",
    "play_out_open",
    "playout_value",
    "solver_values",
    "uses_solver",
]

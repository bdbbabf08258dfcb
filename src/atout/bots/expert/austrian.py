"""The expert's Austrian Tarock card play: determinized search (PIMC) over sampled worlds.

Each card decision samples worlds consistent with the seat's view (:mod:`.austrian_worlds`), and
in each world values every distinct legal card by the seat's final **engine score** for the deal:

* **solver** (every hand holds at most ``solver_cards`` cards): the exact open-hand solver
  (:mod:`atout.solver.austrian`) gives the card points the declarer's side takes from the
  remaining tricks under best play after the card; with the points he holds already (tricks,
  discard, and the talon in a solo under ``austrian_solo_talon=declarer``) they make the
  declarer's count, scored by the engine's own :func:`~atout.scoring.austrian.score_austrian`;
* **playout** (before): the card is played, then the rules bot plays every seat (the seat itself
  too) to the end of the deal.

Within one decision every card is valued by the same evaluator, so values compare. The card of
best mean value over the worlds is played; the rules bot's card on ties, with fewer than
``min_samples`` finished worlds, or when no world can be sampled. Bids, the talon half, the
discard and the game: by simulation in :class:`~atout.bots.expert.bot.ExpertBot` over
:func:`play_option` (every option played out by the rules bot on the same worlds), when the level
sets ``simulations``, each option valued by the seat's :func:`standing` (its score against the
others': under positive-only scoring its own score alone makes every bid free).

Work is counted in simulated decisions (a world's dealing and replay included, see
:data:`WORLD_WORK`; solver nodes count 1/20 each, as in the French search), so a decision is
deterministic under the bot's seed: the search stops after
``samples`` worlds or before a world the rest of the level's ``work`` cannot pay for. When the budget
cannot buy ``min_samples`` worlds (early in the deal, with many cards to try) the rules card is
played at once. ``think``, when set, also stops the search on
the clock (then the result depends on the machine's speed).

The playouts' card plays build the rules bot's play table from the deal itself, with no view
(:func:`play_to_end`; the same decisions as the rules bot on the seats' views, tested): about
2.6× faster than views without their event log.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from atout.bots.expert.austrian_worlds import sample_world
from atout.bots.expert.search import NODES_PER_WORK
from atout.bots.rules import RulesBot
from atout.bots.rules.knowledge import AUSTRIAN_PACKS, Table
from atout.bots.rules.play import choose_card
from atout.bots.rules.playout import add_trick_voids, note_play
from atout.cards import BIT
from atout.engine.austrian.cards import AUSTRIAN_SUIT_OF, STRENGTH, austrian_points, card_value
from atout.engine.austrian.deal import N_TRICKS, AustrianDeal
from atout.engine.austrian.view import AustrianView
from atout.engine.worlds.austrian import layout_of
from atout.scoring.austrian import score_austrian
from atout.scoring.summary import AustrianSummary
from atout.solver.austrian import AustrianPosition, AustrianSolver

if TYPE_CHECKING:
    from atout.bots.expert.bot import ExpertConfig

WORLD_WORK = 12
"""A world's dealing, replay and the three views its playouts start from cost about 12 simulated
decisions, plus a tenth of one per event of the view."""
CARDS_IN_PLAY = 3 * N_TRICKS

_RULES = RulesBot()


def playout_value(
    deal: AustrianDeal, seat: int, card: int, bases: Sequence[AustrianView] | None = None
) -> tuple[float, int]:
    """``seat``'s score after playing ``card`` in ``deal`` and the rules bot everywhere to the end,
    and the number of decisions simulated. ``bases``: each seat's view of ``deal`` (taken once per
    world and shared by its playouts)."""
    if bases is None:
        bases = [deal.view(s) for s in range(3)]
    world = deal.clone()
    world.apply(card)
    steps = _play_cards(world, bases)
    return float(world.scores()[seat]), steps


def play_to_end(world: AustrianDeal) -> int:
    """Play ``world`` to its end with the rules bot in every seat (bids, talon, discard, game,
    cards); returns the number of decisions simulated."""
    steps = 0
    choose = _RULES.choose
    while world.phase != "play":
        if world.is_over():
            return steps
        world.apply(choose(world.view(world.current_player), world.legal_actions()))
        steps += 1
    return steps + _play_cards(world, [world.view(s) for s in range(3)])


def standing(scores: Sequence[int], seat: int) -> float:
    """``seat``'s score minus the mean of the other two: what the deal does to its place.

    >>> standing([60, 0, 0], 0), standing([0, 60, 60], 0), standing([0, 60, 60], 1)
    (60.0, -60.0, 30.0)
    """
    return scores[seat] - (sum(scores) - scores[seat]) / (len(scores) - 1)


def play_option(
    deal: AustrianDeal, seat: int, option: Sequence[int], relative: bool = False
) -> tuple[float, int]:
    """``seat``'s score after its ``option`` (actions in a row) and the rules bot everywhere to
    the end of the deal (``relative``: its :func:`standing`), and the decisions simulated. Raises
    :class:`~atout.engine.errors.IllegalActionError` for an illegal option."""
    world = deal.clone()
    for action in option:
        world.apply(action)
    steps = play_to_end(world)
    scores = world.scores()
    return (standing(scores, seat) if relative else float(scores[seat])), steps


def _play_cards(world: AustrianDeal, bases: Sequence[AustrianView]) -> int:
    """The card play to the end by the rules bot, without views: each card decision builds the
    table :func:`~atout.bots.rules.austrian.austrian_table` would read from the seat's view, from
    the deal itself (cards played and voids kept up to date card by card) and from ``bases``
    (each seat's view taken in the play phase, for what it saw of the talon and the discard)."""
    pack = AUSTRIAN_PACKS[world.rules.austrian_jack_value]
    declarer = world.declarer
    inverted = world.game_type == "35_or_less"
    out = [_out_of_play(base) for base in bases]
    goods = [_good_for(me, declarer, inverted) for me in range(3)]
    voids: dict[int, set[int]] = {}
    played = won_by = 0
    for seats, cards, winner in world.tricks:
        won_by |= 1 << winner
        add_trick_voids(voids, tuple(zip(seats, cards, strict=True)), AUSTRIAN_SUIT_OF, -1)
        for card in cards:
            played |= BIT[card]
    plays: tuple[tuple[int, int], ...] = tuple(zip(world.trick_seat_order(), world.trick_cards, strict=False))
    led = add_trick_voids(voids, plays, AUSTRIAN_SUIT_OF, -1)
    for _, card in plays:
        played |= BIT[card]
    deck, hands = pack.deck, world.hands
    steps = 0
    while not world.is_over():
        me = world.current_player
        legal = world.legal_play_mask()
        if legal & (legal - 1) == 0:  # what the rules bot plays with one legal card
            card = legal.bit_length() - 1
        else:
            good = goods[me]
            hand = hands[me]
            in_trick = {s for s, _ in plays}
            table = Table(
                pack,
                me,
                hand,
                legal,
                plays,
                tuple(s for s in range(3) if s != me and s not in in_trick),
                deck & ~played & ~hand & ~out[me],
                voids,
                good,
                me == declarer,
                declarer,
                all(good(s) for s in range(3) if won_by >> s & 1),
                hand.bit_count(),
            )
            card = choose_card(table)
        world.apply(card)
        steps += 1
        played |= BIT[card]
        led = note_play(voids, me, card, led, AUSTRIAN_SUIT_OF, -1)
        if world.trick_cards:
            plays += ((me, card),)
        else:  # the card ended the trick
            won_by |= 1 << world.tricks[-1][2]
            plays = ()
            led = -1
    return steps


def _out_of_play(view: AustrianView) -> int:
    """The cards the seat sees out of play: the discard it sees, the unused half it saw."""
    out = view.discard
    if view.talon_half == 1 and view.second_half is not None:
        out |= view.second_half
    elif view.talon_half == 2 and view.first_half is not None:
        out |= view.first_half
    return out


def _good_for(me: int, declarer: int, inverted: bool) -> Callable[[int], bool]:
    """Whether a trick won by a seat is good for ``me`` (in game 2 the sides' wishes swap)."""

    def good(seat: int) -> bool:
        friend = seat == me or (seat != declarer and me != declarer)
        return friend != inverted

    return good


def rules_discard(deal: AustrianDeal) -> tuple[int, ...]:
    """The whole discard the rules bot makes from here (it reads only the declarer's view)."""
    world = deal.clone()
    declarer = world.current_player
    out = []
    while world.phase == "discard":
        action = _RULES.choose(world.view(declarer), world.legal_actions())
        world.apply(action)
        out.append(action)
    return tuple(out)


def uses_solver(deal: AustrianDeal, solver_cards: int) -> bool:
    """Whether the card play is small enough for the exact solver."""
    return deal.phase == "play" and max(h.bit_count() for h in deal.hands) <= solver_cards


def final_scores(deal: AustrianDeal, points_to_come: int) -> list[int]:
    """Each seat's engine score for ``deal`` (in the card play) if the declarer's side takes
    ``points_to_come`` card points from the remaining tricks: the summary is built as the engine
    builds it at the end of the deal, from the declarer's pile so far plus those points."""
    rules = deal.rules
    summary = AustrianSummary(
        rules=rules,
        declarer=deal.declarer,
        bid=deal.bid,  # type: ignore[arg-type]
        talon_half=deal.talon_half,
        game_type=deal.game_type,  # type: ignore[arg-type]
        points=austrian_points(deal.declarer_pile(), rules.austrian_jack_value) + points_to_come,
    )
    return score_austrian(summary)


def solver_values(deal: AustrianDeal, seat: int, cards: Sequence[int]) -> tuple[dict[int, float], int]:
    """Each card's value for ``seat`` by the exact solver (its final engine score when everyone
    plays perfectly from there, every hand open) and the work spent (1 + nodes / 20)."""
    solver = AustrianSolver(AustrianPosition.from_deal(deal))
    points = solver.move_values()
    values = {card: float(final_scores(deal, points[card])[seat]) for card in cards}
    return values, 1 + solver.nodes // NODES_PER_WORK


def card_values(
    deal: AustrianDeal, seat: int, cards: Sequence[int], solver_cards: int = 0
) -> tuple[dict[int, float], int]:
    """Each card's value in ``deal`` for ``seat`` (the seat's final engine score), and the work
    spent: by the solver once every hand holds at most ``solver_cards`` cards, else by playouts."""
    if uses_solver(deal, solver_cards):
        return solver_values(deal, seat, cards)
    bases = [deal.view(s) for s in range(3)]
    values: dict[int, float] = {}
    work = 0
    for card in cards:
        values[card], steps = playout_value(deal, seat, card, bases)
        work += steps
    return values, work


def distinct_cards(legal: Sequence[int], hand: int, gone: int, jack_value: int = 2) -> dict[int, list[int]]:
    """The legal cards grouped by equivalence, keyed by the weakest of each group: cards of one suit
    (or both trumps) of the same card value with no card between them in rank but the seat's own
    and those in ``gone`` (out of play for good) play alike."""
    by_suit: dict[int, list[int]] = {}
    for card in legal:
        by_suit.setdefault(AUSTRIAN_SUIT_OF[card], []).append(card)
    groups: dict[int, list[int]] = {}
    blockers = ~(hand | gone)
    for suit, cards in by_suit.items():
        cards.sort(key=STRENGTH.__getitem__)
        key = -1
        for i, card in enumerate(cards):
            if i and card_value(card, jack_value) == card_value(cards[i - 1], jack_value):
                low, high = STRENGTH[cards[i - 1]], STRENGTH[card]
                between = any(
                    blockers >> other & 1 and AUSTRIAN_SUIT_OF[other] == suit and low < STRENGTH[other] < high
                    for other in range(78)
                )
                if not between:
                    groups[key].append(card)
                    continue
            key = card
            groups[key] = [card]
    return groups


@dataclass
class AustrianDecision:
    """What the last Austrian card decision did (for tests and benchmarks)."""

    card: int
    rules_card: int
    worlds: int
    work: int
    values: dict[int, float]
    evaluator: str = "playout"
    """``solver`` or ``playout`` (see the module docstring)."""


class AustrianSearcher:
    """The expert's Austrian card play under one :class:`~atout.bots.expert.bot.ExpertConfig`."""

    def __init__(self, config: ExpertConfig, rng: random.Random) -> None:
        self.config = config
        self.rng = rng
        self.last: AustrianDecision | None = None

    def choose(self, view: AustrianView, legal: Sequence[int], rules_card: int | None = None) -> int:
        """One of ``legal`` (the seat's cards to play), decided from ``view`` alone."""
        if rules_card is None:
            rules_card = _RULES.choose(view, legal)
        if len(legal) < 2 or view.phase != "play":
            return rules_card
        config = self.config
        start = time.perf_counter()
        budget = config.austrian_work or config.work
        gone = layout_of(view).out_of_play
        for trick in view.tricks:
            gone |= trick.cards
        groups = distinct_cards(legal, view.hand, gone, view.rules.austrian_jack_value)
        cards = list(groups)
        totals = dict.fromkeys(cards, 0.0)
        worlds = work = 0
        samples = config.samples if len(cards) > 1 else 0
        # a world costs its dealing, replay and views (:data:`WORLD_WORK` and a tenth of a decision
        # per event), then one playout per card tried, one simulated decision per card left to
        # play, or the solver's nodes / 20 (unknown before, the least counted); a world is begun
        # only if the budget pays for it, and when the budget cannot buy ``min_samples`` worlds
        # the rules card is played at once. No hand holds more cards than the seat to move.
        solving = view.hand.bit_count() <= config.solver_cards
        world_work = WORLD_WORK + len(view.events) // 10
        cost = world_work
        if not solving:
            cost += len(cards) * (CARDS_IN_PLAY - view.played().bit_count() - 1)
        if config.min_samples * cost > budget:
            samples = 0
        for _ in range(samples):
            if work + cost > budget or (
                config.think is not None and time.perf_counter() - start >= config.think
            ):
                break
            world = sample_world(view, self.rng)
            if world is None:
                break
            values, spent = card_values(world, view.seat, cards, config.solver_cards)
            for card, value in values.items():
                totals[card] += value
            worlds += 1
            work += spent + world_work
        rules_key = next(k for k, members in groups.items() if rules_card in members)
        best = rules_key
        if worlds >= config.min_samples:
            top = max(cards, key=lambda c: (totals[c], -c))
            if totals[top] > totals[rules_key]:
                best = top
        card = rules_card if best == rules_key else best
        means = {c: totals[c] / worlds for c in cards} if worlds else {}
        evaluator = "solver" if solving else "playout"
        self.last = AustrianDecision(card, rules_card, worlds, work, means, evaluator)
        return next(a for a in legal if a == card)


def choose_austrian_card(
    view: AustrianView,
    legal: Sequence[int],
    config: ExpertConfig,
    rng: random.Random,
    rules_card: int | None = None,
) -> int:
    """The expert's card for ``view`` (see the module docstring)."""
    return AustrianSearcher(config, rng).choose(view, legal, rules_card)


__all__ = [
    "WORLD_WORK",
    "AustrianDecision",
    "AustrianSearcher",
    "card_values",
    "choose_austrian_card",
    "distinct_cards",
    "final_scores",
    "play_option",
    "play_to_end",
    "playout_value",
    "rules_discard",
    "solver_values",
    "standing",
    "uses_solver",
]

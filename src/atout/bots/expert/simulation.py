"""Bids, the call and the écart chosen by simulation (French Tarot, 3-5 players).

At such a decision the seat deals the cards it cannot see at random into the other hands and,
while unseen, the chien; it keeps a dealing with probability its likelihood under the bids made
so far (:mod:`.likelihood`) and only if the rebuilt deal shows the seat exactly its view. Each
option (a bid, a called card, or a whole écart) is then played in every dealing and the deal
finished by the rules bot in every seat (the later bids, the call, the écart, the cards); an
option is worth the seat's mean score. The same dealings serve every option, so comparisons are
paired, and the rules bot's option stands unless another beats it by more than ``margin``
standard errors of the paired difference.

Écart options: the rules bot's écart, and for each plain suit (or pair of suits) without a king
that the écart can empty, that void filled up from the rules bot's écart.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from atout.bots.expert.likelihood import bid_weight
from atout.bots.expert.search import play_out_open
from atout.bots.rules import RulesBot
from atout.bots.rules.kernel import finish
from atout.cards import ALL_CARDS, KINGS_MASK, SUIT_MASKS, cards_of
from atout.engine.actions import BID_BASE, BID_NAMES, CALL_BASE, DISCARD_BASE, KEEP_HAND
from atout.engine.deal import HAND_SIZE
from atout.engine.errors import IllegalActionError
from atout.engine.french import FrenchDeal
from atout.engine.view import SeatView

_RULES = RulesBot()

D = TypeVar("D")
Option = tuple[int, ...]
"""The seat's actions in a row: one bid, one call, or every discard of an écart."""


@dataclass
class SimulatedChoice:
    """What a simulated decision found (for tests and benchmarks)."""

    option: Option
    rules_option: Option
    dealings: int
    work: int
    means: dict[Option, float]


def dealing(view: SeatView, rng: random.Random, draws: int = 40) -> FrenchDeal | None:
    """A deal at the view's moment (bidding, call or écart), consistent with it, drawn by the
    likelihood of the bids made so far (after ``draws`` refusals, the likeliest dealing drawn);
    ``None`` when none is consistent."""
    n, me = view.players, view.seat
    chien = view.chien or 0
    mine = view.hand
    if me == view.taker and view.chien is not None:
        mine = (view.hand | view.ecart) & ~chien  # the dealt hand: before the chien and écart
    hidden = cards_of(ALL_CARDS & ~mine & ~chien)
    size = HAND_SIZE[n]
    best: tuple[float, list[int], int] = (-1.0, [], 0)
    for _ in range(draws):
        rng.shuffle(hidden)
        hands, start = [], 0
        for seat in range(n):
            if seat == me:
                hands.append(mine)
                continue
            hands.append(sum(1 << c for c in hidden[start : start + size]))
            start += size
        dealt_chien = chien if view.chien is not None else sum(1 << c for c in hidden[start:])
        weight = bid_weight(view.bids, dict(enumerate(hands)), n, me)
        if rng.random() >= weight:
            if weight > best[0]:
                best = (weight, hands, dealt_chien)
            continue
        deal = _rebuilt(view, hands, dealt_chien)
        if deal is not None:
            return deal
    return _rebuilt(view, best[1], best[2]) if best[1] else None


def _rebuilt(view: SeatView, hands: list[int], chien: int) -> FrenchDeal | None:
    """The dealing replayed to the view's moment, if it shows the seat exactly ``view``."""
    actions = [BID_BASE + BID_NAMES.index(name) for _, name in view.bids]
    if view.called_card is not None:
        actions.append(CALL_BASE + view.called_card)
    actions += [DISCARD_BASE + e.card for e in view.events if e.kind == "discard"]
    try:
        deal = FrenchDeal(view.rules, view.dealer, hands, chien)
        for action in actions:
            while deal.phase == "excuse_sec":
                deal.apply(KEEP_HAND)
            deal.apply(action)
        while deal.phase == "excuse_sec":
            deal.apply(KEEP_HAND)
    except (ValueError, IllegalActionError):
        return None
    return deal if deal.view(view.seat) == view else None


def play_option(deal: FrenchDeal, seat: int, option: Option, seat_play: float = 0.0) -> tuple[float, int]:
    """``seat``'s score after its ``option`` and the rules bot everywhere to the end of the deal,
    and the number of decisions simulated; with ``seat_play``, that score moved this fraction of
    the way to the seat's score when it plays its cards seeing every hand
    (:func:`~.search.play_out_open`, the ``cheat`` bot's card play). Raises
    :class:`IllegalActionError` for an illegal option."""
    world = deal.clone()
    for action in option:
        world.apply(action)
    opened = world.clone() if seat_play else None
    outcome = finish(world)
    value, steps = float(outcome.scores[seat]), outcome.steps
    if opened is not None:
        scores, open_steps = play_out_open(opened, seat)
        value += seat_play * (scores[seat] - value)
        steps += open_steps
    return value, steps


def candidate_bids(legal: Sequence[int], rules_action: int) -> list[Option]:
    """Pass, the rules bot's bid, and the legal contracts just below and above it."""
    ordered = sorted(legal)
    at = ordered.index(rules_action)
    chosen = {ordered[0], rules_action, *ordered[max(at - 1, 0) : at + 2]}
    return [(a,) for a in sorted(chosen)]


def rules_ecart(deal: FrenchDeal) -> Option:
    """The whole écart the rules bot makes from here (it reads only the taker's view)."""
    world = deal.clone()
    taker = world.current_player
    out = []
    while world.phase == "discard" and world.current_player == taker:
        action = _RULES.choose(world.view(taker), world.legal_actions())
        world.apply(action)
        out.append(action)
    return tuple(out)


def candidate_ecarts(hand: int, rules: Option) -> list[Option]:
    """The rules bot's écart, then each void of one or two kingless plain suits that the écart
    can make, filled up from the rules bot's écart (same size)."""
    size = len(rules)
    voidable = [
        hand & SUIT_MASKS[s]
        for s in range(4)
        if hand & SUIT_MASKS[s] and not hand & SUIT_MASKS[s] & KINGS_MASK
    ]
    groups = [m for m in voidable if m.bit_count() <= size]
    groups += [
        a | b for i, a in enumerate(voidable) for b in voidable[i + 1 :] if (a | b).bit_count() <= size
    ]
    options = [rules]
    for group in groups:
        cards = cards_of(group)
        for action in rules:
            if len(cards) == size:
                break
            if action - DISCARD_BASE not in cards:
                cards.append(action - DISCARD_BASE)
        option = tuple(DISCARD_BASE + c for c in cards)
        if sorted(option) not in [sorted(o) for o in options]:
            options.append(option)
    return options


def choose_by_simulation(
    view: SeatView,
    options: Sequence[Option],
    rules_option: Option,
    rng: random.Random,
    dealings: int,
    margin: float = 1.0,
    first: FrenchDeal | None = None,
    seat_play: float = 0.0,
) -> SimulatedChoice:
    """The option of best mean score over ``dealings`` simulated dealings (see the module doc);
    ``first`` is a dealing already drawn, used first; ``seat_play`` as in :func:`play_option`."""
    pending = first

    def draw() -> FrenchDeal | None:
        nonlocal pending
        deal = pending if pending is not None else dealing(view, rng)
        pending = None
        return deal

    return compare_options(
        draw,
        lambda deal, option: play_option(deal, view.seat, option, seat_play),
        options,
        rules_option,
        dealings,
        margin,
    )


def compare_options(
    draw: Callable[[], D | None],
    play: Callable[[D, Option], tuple[float, int]],
    options: Sequence[Option],
    rules_option: Option,
    dealings: int,
    margin: float = 1.0,
) -> SimulatedChoice:
    """The option of best mean score over ``dealings`` worlds from ``draw`` (any game), each
    option valued by ``play`` (the seat's score and the decisions simulated) on the same worlds.
    The rules option stands unless another beats it by more than ``margin`` standard errors of the
    paired difference; an option ``play`` finds illegal (:class:`IllegalActionError`) is dropped."""
    live = list(dict.fromkeys([rules_option, *options]))
    scores: dict[Option, list[float]] = {o: [] for o in live}
    work = found = 0
    for _ in range(dealings):
        deal = draw()
        if deal is None:
            break
        found += 1
        for option in list(live):
            try:
                score, steps = play(deal, option)
            except IllegalActionError:
                if option == rules_option:
                    raise
                live.remove(option)
                del scores[option]
                continue
            scores[option].append(score)
            work += steps
    means = {o: statistics.fmean(v) for o, v in scores.items() if v}
    best = rules_option
    if found >= 2:
        base = scores[rules_option]
        for option in live:
            diffs = [x - y for x, y in zip(scores[option], base, strict=True)]
            gain = statistics.fmean(diffs)
            spread = statistics.stdev(diffs) / math.sqrt(len(diffs))
            if gain > margin * spread and gain > means[best] - means[rules_option]:
                best = option
    return SimulatedChoice(best, rules_option, found, work, means)


__all__ = [
    "Option",
    "SimulatedChoice",
    "candidate_bids",
    "candidate_ecarts",
    "choose_by_simulation",
    "compare_options",
    "dealing",
    "play_option",
    "rules_ecart",
]

"""Bids chosen by simulation (French Tarot, 3-5 players).

At its turn to bid, the seat deals the cards it cannot see at random into the other hands and
the chien, keeping a dealing with probability its likelihood under the bids made so far
(:mod:`.likelihood`) and only if the rebuilt deal shows the seat exactly its view. Each
candidate bid (pass, the rules bot's bid and the contracts next to it) is then played in every
dealing to the end of the deal by the rules bot in every seat (the later bids, the call, the écart,
the cards), and valued by the seat's score: the same dealings for every candidate, so the
comparisons are paired. The rules bot's bid stands unless another beats it by more than
``margin`` standard errors of the paired difference.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from atout.bots.expert.likelihood import bid_weight
from atout.bots.rules import RulesBot
from atout.cards import ALL_CARDS, cards_of
from atout.engine.actions import BID_BASE, BID_NAMES, KEEP_HAND
from atout.engine.deal import CHIEN_SIZE, HAND_SIZE
from atout.engine.errors import IllegalActionError
from atout.engine.french import FrenchDeal
from atout.engine.view import SeatView

_RULES = RulesBot()


@dataclass
class BidChoice:
    """What a simulated bid decision found (for tests and benchmarks)."""

    action: int
    rules_action: int
    dealings: int
    work: int
    means: dict[int, float]


def bid_dealing(view: SeatView, rng: random.Random, draws: int = 40) -> FrenchDeal | None:
    """A deal at the view's moment of bidding, consistent with it, drawn by the likelihood of the
    bids made so far (``None`` when ``draws`` dealings all fail)."""
    n, me = view.players, view.seat
    hidden = cards_of(ALL_CARDS & ~view.hand)
    size, chien_size = HAND_SIZE[n], CHIEN_SIZE[n]
    for _ in range(draws):
        rng.shuffle(hidden)
        hands, start = [], 0
        for seat in range(n):
            if seat == me:
                hands.append(view.hand)
                continue
            hands.append(sum(1 << c for c in hidden[start : start + size]))
            start += size
        chien = sum(1 << c for c in hidden[start : start + chien_size])
        if rng.random() >= bid_weight(view.bids, dict(enumerate(hands)), n, me):
            continue
        deal = _rebuilt(view, hands, chien)
        if deal is not None:
            return deal
    return None


def _rebuilt(view: SeatView, hands: list[int], chien: int) -> FrenchDeal | None:
    try:
        deal = FrenchDeal(view.rules, view.dealer, hands, chien)
        bids = [BID_BASE + BID_NAMES.index(name) for _, name in view.bids]
        while deal.phase != "bidding" or bids:
            if deal.phase == "bidding":
                deal.apply(bids.pop(0))
            elif deal.phase == "excuse_sec":
                deal.apply(KEEP_HAND)
            else:
                return None
    except (ValueError, IllegalActionError):
        return None
    return deal if deal.view(view.seat) == view else None


def playout_score(deal: FrenchDeal, seat: int, action: int) -> tuple[float, int]:
    """``seat``'s score after ``action`` and the rules bot everywhere to the end of the deal,
    and the number of decisions simulated."""
    world = deal.clone()
    world.apply(action)
    steps = 0
    choose = _RULES.choose
    while not world.is_over():
        world.apply(choose(world.view(world.current_player), world.legal_actions()))
        steps += 1
    return float(world.scores()[seat]), steps


def candidate_bids(legal: Sequence[int], rules_action: int) -> list[int]:
    """Pass, the rules bot's bid, and the legal contracts just below and above it."""
    ordered = sorted(legal)
    at = ordered.index(rules_action)
    chosen = {ordered[0], rules_action, *ordered[max(at - 1, 0) : at + 2]}
    return sorted(chosen)


def choose_bid(
    view: SeatView,
    legal: Sequence[int],
    rules_action: int,
    rng: random.Random,
    dealings: int,
    margin: float = 1.0,
) -> BidChoice:
    """The bid of best mean score over ``dealings`` simulated dealings (see the module doc)."""
    candidates = candidate_bids(legal, rules_action)
    scores: dict[int, list[float]] = {a: [] for a in candidates}
    work = found = 0
    for _ in range(dealings):
        deal = bid_dealing(view, rng)
        if deal is None:
            break
        found += 1
        for action in candidates:
            score, steps = playout_score(deal, view.seat, action)
            scores[action].append(score)
            work += steps
    means = {a: statistics.fmean(v) for a, v in scores.items() if v}
    best = rules_action
    if found >= 2:
        base = scores[rules_action]
        for action in candidates:
            diffs = [x - y for x, y in zip(scores[action], base, strict=True)]
            gain = statistics.fmean(diffs)
            spread = statistics.stdev(diffs) / math.sqrt(len(diffs))
            if gain > margin * spread and gain > means[best] - means[rules_action]:
                best = action
    return BidChoice(best, rules_action, found, work, means)


__all__ = ["BidChoice", "bid_dealing", "candidate_bids", "choose_bid", "playout_score"]

"""How likely the bids a view shows were, under the rules bot's bidding, for one dealing.

The rules bot bids the highest contract whose threshold (:data:`BID_THRESHOLDS`) its hand
strength (:func:`french_strength`) reaches, among those still biddable; it passes when it reaches
none. So a bid of contract ``c`` says the bidder's strength lies between ``c``'s threshold and the
next biddable threshold above it; a pass says it lies below the lowest biddable threshold. The
likelihood softens each bound with a logistic of width ``temperature`` (strength points), so a
bidder who is not the rules bot (a person, another program) still leaves every dealing possible:

    P(bid | strength x) = σ((x − low) / T) · σ((high − x) / T)

and a dealing's weight is the product over the other seats' bids. Weights lie in (0, 1], so
rejection sampling (accept a dealing with probability equal to its weight) draws dealings from the
prior sampler reweighted by the bids exactly.

>>> from atout.cards import CardSet
>>> strong = CardSet.parse("T21 T20 T19 T18 T17 T15 T12 T9 T7 T1 EX KS QS KH KD 3C 4C 5C").mask
>>> fair = CardSet.parse("T21 T16 T13 T11 T9 T7 T1 EX KS QS KH 2H 4H 3D 4D 3C 4C 5C").mask
>>> weak = CardSet.parse("T2 T3 T5 1S 2S 3S 4S 5S 1H 2H 3H 4H 6H 1D 2D 3D 1C 2C").mask
>>> round(bid_weight([(1, "garde")], {1: fair}, 4, me=0), 2)  # strength 58: a garde from 56
0.6
>>> bid_weight([(1, "garde")], {1: strong}, 4, me=0) < 0.05  # strength 87: garde contre
True
>>> bid_weight([(1, "garde")], {1: weak}, 4, me=0) < 0.01
True
>>> bid_weight([(1, "pass")], {1: weak}, 4, me=0) > 0.95
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping

from atout.bots.rules import RulesBot
from atout.bots.rules.french import BID_THRESHOLDS
from atout.bots.rules.strength import french_strength
from atout.cards import HALF_POINTS, SUIT_OF, TRUMP
from atout.engine.french import FrenchDeal
from atout.engine.view import SeatView
from atout.rules import CONTRACTS

TEMPERATURE = 4.0
"""Default width of the soft bounds, in strength points (a petite needs 40, a garde 56)."""

_BOUNDED = tuple(c for c in CONTRACTS if BID_THRESHOLDS[c] < 900)
"""Contracts the rules bot bids (it never bids pousse)."""


def logistic(z: float) -> float:
    """σ(z) = 1 / (1 + e^(−z)), 0 below −40."""
    if z < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


def bid_bounds(name: str, highest: int) -> tuple[float, float]:
    """The strength interval in which the rules bot makes bid ``name`` when the highest contract
    so far has rank ``highest`` (-1: none); ``±inf`` where unbounded."""
    if name == "pass":
        above = [BID_THRESHOLDS[c] for c in _BOUNDED if CONTRACTS.index(c) > highest]
        return -math.inf, min(above, default=math.inf)
    rank = CONTRACTS.index(name)
    low = BID_THRESHOLDS[name] if name in _BOUNDED else BID_THRESHOLDS["petite"]
    above = [BID_THRESHOLDS[c] for c in _BOUNDED if CONTRACTS.index(c) > rank]
    return low, min(above, default=math.inf)


def bid_weight(
    bids: Iterable[tuple[int, str]],
    hands: Mapping[int, int],
    players: int,
    me: int,
    temperature: float = TEMPERATURE,
) -> float:
    """The likelihood of the other seats' ``bids`` (in order) given their dealt ``hands``
    (seat → mask at bidding time); ``players`` is the number of seats holding cards."""
    return BidWeigher(bids, players, me, temperature).weight(hands)


class BidWeigher:
    """The weight of a dealing given the other seats' ``bids``: the product of
    :func:`bid_weight`, its bounds worked out once; called with the dealt hands by seat."""

    def __init__(
        self, bids: Iterable[tuple[int, str]], players: int, me: int, temperature: float = TEMPERATURE
    ) -> None:
        self.players, self.temperature = players, temperature
        self.factors: list[tuple[int, float, float]] = []
        """Seat, low bound and high bound of each other seat's bid, in bidding order."""
        highest = -1
        for seat, name in bids:
            if seat != me:
                self.factors.append((seat, *bid_bounds(name, highest)))
            if name != "pass":
                highest = max(highest, CONTRACTS.index(name))

    def weight(self, hands: Mapping[int, int]) -> float:
        """The likelihood of the bids given ``hands`` (seat → mask; seats left out are not weighed)."""
        weight = 1.0
        temperature = self.temperature
        for seat, low, high in self.factors:
            if seat not in hands:
                continue
            x = french_strength(hands[seat], self.players)
            if low > -math.inf:
                weight *= logistic((x - low) / temperature)
            if high < math.inf:
                weight *= logistic((high - x) / temperature)
        return weight

    def __call__(self, hands: list[int]) -> float:
        return self.weight(dict(enumerate(hands)))


def bid_weigher(view: SeatView, temperature: float = TEMPERATURE) -> BidWeigher:
    """The weigher of dealings by the bids ``view`` shows."""
    return BidWeigher(view.bids, view.players, view.seat, temperature)


MISMATCH = 0.5
"""Default likelihood factor of a card play the rules bot would not have made."""

_RULES = RulesBot()


def same_play(expected: int, card: int) -> bool:
    """Whether playing ``card`` is what the rules bot does when it plays ``expected``: the same
    card, or in a plain suit a card of the same value (the rules bot's choice among those is
    arbitrary)."""
    return expected == card or (
        SUIT_OF[card] != TRUMP
        and SUIT_OF[expected] == SUIT_OF[card]
        and HALF_POINTS[expected] == HALF_POINTS[card]
    )


def play_judge(mismatch: float = MISMATCH) -> Callable[[FrenchDeal, int], float]:
    """The likelihood of a card play in a world: 1 when the rules bot, in the player's seat of
    that world, would play it (:func:`same_play`), else ``mismatch``. From the player's view
    (the reference: a world's replay judges its plays the same way without views,
    :func:`~.worlds.rebuild_weighted`)."""

    def judge(deal: FrenchDeal, card: int) -> float:
        legal = deal.legal_actions()
        if len(legal) < 2:
            return 1.0
        expected = int(_RULES.choose(deal.view(deal.current_player), legal))
        return 1.0 if same_play(expected, card) else mismatch

    return judge


__all__ = [
    "MISMATCH",
    "TEMPERATURE",
    "BidWeigher",
    "bid_bounds",
    "bid_weigher",
    "bid_weight",
    "play_judge",
    "same_play",
]

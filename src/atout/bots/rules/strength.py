"""Hand-strength formulas for bidding: French Tarot and Austrian Tarock.

French (points on a 4-player scale, whatever the player count)::

    the 21: 10, the Excuse: 8, the Petit: 8 with 6+ trumps, 5 with 5, else 0
    each trump: 2, and 1 more for each of 16-20
    long trumps: 3 for each trump over 8 (on the 18-card scale), and 2 for each master trump
                 under the 21 (20, 19, ... held in an unbroken run from the 21) when 8 or more
    each suit: king 6 (8 with its queen), queen 3, cavalier 2, jack 1;
               5+ cards: 5 + 2 per card over 5; with 5+ trumps a void 6, a singleton 3

scaled by 18 / (cards per hand). Austrian::

    each trump 1.5, and 1 more for each of the top seven; Sküs 4, Mond 3, Pagat 1 with 6+ trumps
    king 3, queen 2, cavalier 1; with 6+ trumps a void 2, a singleton 1
"""

from __future__ import annotations

from atout.cards import (
    CAVALIERS_MASK,
    EXCUSE,
    JACKS_MASK,
    KINGS_MASK,
    PETIT,
    QUEENS_MASK,
    SUIT_MASKS,
    TRUMP_21,
    TRUMPS_MASK,
)
from atout.engine.austrian.cards import AUSTRIAN_TRUMPS_MASK, SKUS
from atout.engine.deal import HAND_SIZE

_HIGH_TRUMPS = sum(1 << (55 + n) for n in range(16, 21))
_AUSTRIAN_HIGH = sum(1 << c for c in range(71, 78))


def french_strength(hand: int, players: int) -> float:
    """The hand's bidding points on a 4-player scale (``players``: those who hold cards)."""
    trumps = (hand & TRUMPS_MASK).bit_count()
    points: float = 2 * trumps + (hand & _HIGH_TRUMPS).bit_count()
    size = HAND_SIZE[players]
    over = trumps - 8 * size / 18
    if over > 0:
        # a long trump suit draws the defence's trumps and then makes every card: length counts
        # more than linearly, and masters under the 21 cannot be taken
        points += 3 * over + 2 * _master_run(hand)
    if hand >> TRUMP_21 & 1:
        points += 10
    if hand >> EXCUSE & 1:
        points += 8
    if hand >> PETIT & 1:
        points += 8 if trumps >= 6 else 5 if trumps == 5 else 0
    for suit in range(4):
        cards = hand & SUIT_MASKS[suit]
        length = cards.bit_count()
        king, queen = bool(cards & KINGS_MASK), bool(cards & QUEENS_MASK)
        points += 6 * king + 3 * queen + 2 * (king and queen)
        points += 2 * bool(cards & CAVALIERS_MASK) + bool(cards & JACKS_MASK)
        if length >= 5:
            points += 5 + 2 * (length - 5)
        elif trumps >= 5 and length <= 1:
            points += 6 if length == 0 else 3 * (not king)
    return points * 18 / HAND_SIZE[players]


def _master_run(hand: int) -> int:
    """How many trumps from the 20 down the hand holds without a gap, after the 21."""
    if not hand >> TRUMP_21 & 1:
        return 0
    run = 0
    while hand >> (TRUMP_21 - 1 - run) & 1 and run < 19:
        run += 1
    return run


def austrian_strength(hand: int) -> float:
    """The hand's bidding points in Austrian Tarock (16 cards)."""
    trumps = hand & AUSTRIAN_TRUMPS_MASK
    count = trumps.bit_count()
    points = 1.5 * count + (hand & _AUSTRIAN_HIGH).bit_count()
    points += 4 * (hand >> SKUS & 1) + 3 * (hand >> TRUMP_21 & 1) + (count >= 6 and hand >> PETIT & 1)
    for suit in range(4):
        cards = hand & SUIT_MASKS[suit]
        points += 3 * bool(cards & KINGS_MASK) + 2 * bool(cards & QUEENS_MASK) + bool(cards & CAVALIERS_MASK)
        if count >= 6 and cards.bit_count() <= 1:
            points += 2 if not cards else 1
    return points

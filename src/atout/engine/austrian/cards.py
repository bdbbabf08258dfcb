"""The Austrian Tarock pack (rule book §1.2): its 54 cards, their order, values and the count in threes.

Cards keep their French indices (:mod:`atout.cards`). The Excuse's index 77 is Sküs, trump "22",
the top trump: with it the trumps are the contiguous bits 56-77, so the highest trump of a mask is
still its highest bit. Black suits rank K Q C J 10 9 8 7 (a higher bit is a higher card), red suits
K Q C J 1 2 3 4: their pips run the other way, so :data:`STRENGTH` orders plain cards.

>>> from atout.cards import CardSet
>>> austrian_points(CardSet.parse("KS JS 8S").mask), austrian_points(CardSet.parse("KS JS 8S").mask, 3)
(6, 7)
>>> card_name(parse_austrian_card("Sküs")), card_name(parse_austrian_card("T22"))
('EX', 'EX')
"""

from __future__ import annotations

import random
from typing import Final

from atout.cards import (
    AUSTRIAN_DECK_MASK,
    BIT,
    BOUTS_MASK,
    CAVALIERS_MASK,
    DIAMONDS,
    EXCUSE,
    EXCUSE_MASK,
    HEARTS,
    JACKS_MASK,
    KINGS_MASK,
    QUEENS_MASK,
    TRUMP,
    TRUMPS_MASK,
    card_name,
    cards_of,
    parse_card,
)

SKUS: Final = EXCUSE
"""Sküs, trump "22" (the Excuse's index)."""
AUSTRIAN_TRUMPS_MASK: Final = TRUMPS_MASK | EXCUSE_MASK
"""The 22 trumps, Sküs included."""
TRULL_MASK: Final = BOUTS_MASK
"""Sküs, the 21 (Mond) and the 1 (Pagat)."""
AUSTRIAN_CARDS: Final = tuple(cards_of(AUSTRIAN_DECK_MASK))
HAND_CARDS: Final = 16
HALF_CARDS: Final = 3
PACKET: Final = 8

AUSTRIAN_SUIT_OF: Final = tuple([c // 14 for c in range(56)] + [TRUMP] * 22)
"""Suit of each card index: 0-3 for the plain suits, ``TRUMP`` for the trumps and Sküs."""


def _strength(card: int) -> int:
    if card >= 56:
        return card
    suit, rank = divmod(card, 14)
    rank += 1
    if suit in (HEARTS, DIAMONDS) and rank <= 4:
        return 5 - rank  # the red 1 is the highest pip, the 4 the lowest
    return rank


STRENGTH: Final = tuple(_strength(c) for c in range(78))
"""Order of the cards within one suit (higher wins); trumps by index."""


def card_value(card: int, jack_value: int = 2) -> int:
    """A card's value for the count (rule book §1.2): trull and kings 5, Q 4, C 3, J 2 (or 3), blanks 1."""
    bit = BIT[card]
    if bit & (TRULL_MASK | KINGS_MASK):
        return 5
    if bit & QUEENS_MASK:
        return 4
    if bit & CAVALIERS_MASK:
        return 3
    if bit & JACKS_MASK:
        return jack_value
    return 1


def austrian_points(mask: int, jack_value: int = 2) -> int:
    """Card points of a pile counted in threes: Σ values (blanks 1) − 2 per 3 cards (rule book §1.2).

    Every Tarock pile is a whole number of threes; any other size raises :class:`ValueError`.
    """
    n = mask.bit_count()
    if n % 3:
        raise ValueError(f"a pile is counted in threes, not {n} cards")
    total = (
        n
        + 4 * (mask & (TRULL_MASK | KINGS_MASK)).bit_count()
        + 3 * (mask & QUEENS_MASK).bit_count()
        + 2 * (mask & CAVALIERS_MASK).bit_count()
        + (jack_value - 1) * (mask & JACKS_MASK).bit_count()
    )
    return total - 2 * (n // 3)


_SKUS_WORDS = {"T22", "22", "SKUS", "SKÜS", "SKUES", "SKIS"}


def parse_austrian_card(text: str) -> int:
    """Parse a card name as :func:`atout.cards.parse_card` does, also reading Sküs as ``T22``,
    ``22`` or ``Skus``; a card outside the 54-card pack raises :class:`ValueError`."""
    word = text.strip().upper()
    card = SKUS if word in _SKUS_WORDS else parse_card(word)
    if not AUSTRIAN_DECK_MASK >> card & 1:
        raise ValueError(f"{card_name(card)} is not in the Austrian pack (rule book §1.2)")
    return card


def shuffled_pack(rng: random.Random) -> list[int]:
    """The 54 cards uniformly shuffled, top card first (sorted by random keys)."""
    draw = rng.random
    keys = [draw() for _ in AUSTRIAN_CARDS]
    order = sorted(range(len(AUSTRIAN_CARDS)), key=keys.__getitem__)
    return [AUSTRIAN_CARDS[i] for i in order]


def deal_pack(pack: list[int], dealer: int, step: int = 1) -> tuple[list[int], tuple[int, int]]:
    """Deal an ordered pack (rule book §5.2): 8 cards to each player from the dealer's right, then 8
    more each; the last 6 are the talon, its first three the first half. Returns hands and halves."""
    if sorted(pack) != list(AUSTRIAN_CARDS):
        raise ValueError("a pack must hold each of the 54 Austrian cards once")
    hands = [0, 0, 0]
    for packet in range(6):
        seat = (dealer + step * (packet % 3 + 1)) % 3
        for card in pack[PACKET * packet : PACKET * (packet + 1)]:
            hands[seat] |= BIT[card]
    first = sum(BIT[c] for c in pack[48:51])
    second = sum(BIT[c] for c in pack[51:54])
    return hands, (first, second)

"""Shuffling and dealing (rule book §3.2), so that a seeded deal is always the same.

>>> hands, chien = deal_cards(Rules(), dealer=0, rng=random.Random(7))
>>> [h.bit_count() for h in hands], chien.bit_count()
([18, 18, 18, 18], 6)
"""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Callable

from atout.cards import BIT, EXCUSE, N_CARDS, PETIT
from atout.rules import Rules, RulesError

HAND_SIZE = {3: 24, 4: 18, 5: 15}
CHIEN_SIZE = {3: 6, 4: 6, 5: 3}
PACKET_SIZE = {3: 4, 4: 3, 5: 3}


def seat_step(rules: Rules) -> int:
    """+1 when play goes counterclockwise (to the right), -1 when clockwise."""
    return 1 if rules.play_direction == "counterclockwise" else -1


def shuffled_deck(rng: random.Random) -> list[int]:
    """A uniformly shuffled French pack, top card first (sorted by random keys)."""
    draw = rng.random
    keys = [draw() for _ in range(N_CARDS)]
    return sorted(range(N_CARDS), key=keys.__getitem__)


def deal_cards(rules: Rules, dealer: int, rng: random.Random) -> tuple[list[int], int]:
    """Shuffle and deal: the hands (card masks, by seat) and the chien mask."""
    return _deal(rules, dealer, shuffled_deck(rng), rng)


def deal_from_deck(rules: Rules, dealer: int, deck: list[int], rng: random.Random) -> tuple[list[int], int]:
    """Deal an ordered pack by ``rules.deal_scheme``; ``rng`` places the chien cards.

    FFT scheme: packets of 3 (4 with 3 players) to each player in turn from the
    dealer's right; the chien cards go singly into distinct gaps between packets,
    chosen uniformly (never before the first packet nor after the last).
    Seed 000 scheme: the chien is the first 3 and the last 3 cards, hands get packets of 6.
    """
    if sorted(deck) != list(range(N_CARDS)):
        raise ValueError("a deck must hold each of the 78 cards once")
    return _deal(rules, dealer, deck, rng)


def _deal(rules: Rules, dealer: int, deck: list[int], rng: random.Random) -> tuple[list[int], int]:
    n = rules.players
    if n not in HAND_SIZE:
        raise RulesError(f"the French deal needs 3, 4 or 5 players, not {n}")
    if rules.deal_scheme == "seed000":
        if n == 5:
            raise RulesError("deal_scheme=seed000 deals a 6-card kitty: it needs 3 or 4 players")
        chien = _mask(deck[:3]) | _mask(deck[-3:])
        body = deck[3:-3]
        size = 6
    else:
        size = PACKET_SIZE[n]
        gaps = _distinct(rng, n * HAND_SIZE[n] // size - 1, CHIEN_SIZE[n])
        positions = [(g + 1) * size + i for i, g in enumerate(gaps)]
        chien = _mask([deck[p] for p in positions])
        body = list(deck)
        for p in reversed(positions):
            del body[p]
    hands = [0] * n
    step = seat_step(rules)
    for i, take in enumerate(_packet_getters(n, size)):
        hands[(dealer + step * (i + 1)) % n] = sum(map(BIT.__getitem__, take(body)))
    return hands, chien


def _distinct(rng: random.Random, population: int, k: int) -> list[int]:
    """``k`` distinct numbers below ``population``, uniformly, in increasing order."""
    chosen: set[int] = set()
    draw = rng.random
    while len(chosen) < k:
        chosen.add(int(draw() * population))
    return sorted(chosen)


@functools.cache
def _packet_getters(n: int, size: int) -> list[Callable[[list[int]], tuple[int, ...]]]:
    """For the i-th player from the dealer's right, a getter of his cards from the dealt body."""
    stride = n * size
    total = n * HAND_SIZE[n]
    return [
        operator.itemgetter(
            *[p for start in range(i * size, total, stride) for p in range(start, start + size)]
        )
        for i in range(n)
    ]


def _mask(cards: list[int]) -> int:
    # distinct bits: their sum is their union
    return sum(map(BIT.__getitem__, cards))


def draw_rank(card: int) -> int:
    """Rank of a card in the draw for the first dealer (rule book §3.1): trumps above suits,
    suits by rank with ties broken ♠ > ♥ > ♦ > ♣, so the ♣1 is the lowest card."""
    if card >= PETIT:
        return 100 + card
    suit, rank = divmod(card, 14)
    return rank * 4 + (3 - suit)


def choose_first_dealer(players: int, rng: random.Random) -> tuple[int, list[tuple[int, int]]]:
    """Everyone draws a card; the lowest deals, and whoever draws the Excuse draws again.

    Returns the dealer and the draws as ``(seat, card)`` in order.
    """
    deck = shuffled_deck(rng)
    draws: list[tuple[int, int]] = []
    drawn: dict[int, int] = {}
    for seat in range(players):
        card = deck.pop()
        draws.append((seat, card))
        while card == EXCUSE:
            card = deck.pop()
            draws.append((seat, card))
        drawn[seat] = card
    return min(drawn, key=lambda s: draw_rank(drawn[s])), draws

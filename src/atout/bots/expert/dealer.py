"""Dealings of a layout's hidden cards, weighed by the bids, in one compiled loop.

:class:`Dealer` does what :func:`~.worlds.deal_hidden` and a bid weigher do together, with its
own small random generator (xorshift, seeded from the caller's ``random.Random``) so that the
compiled loop (numba, the ``solver-fast`` extra) and the plain-Python one (the same source, run
by the interpreter without numba) draw the very same dealings: the hidden cards are dealt into
their places group by group, groups with the fewest places first (ties in random order), each
card to a free slot of its places drawn uniformly; with bids to weigh, each dealing is accepted
with probability its likelihood (:class:`~.likelihood.BidWeigher`), and after ``draws``
refusals the heaviest one drawn is kept. The strength of a dealt hand is the rules bot's
(:func:`~atout.bots.rules.strength.french_strength`), computed on two words: the plain suits
(cards 0-55) and the trumps with the Excuse (cards 56-77, shifted down to 0-21).

A dealing that reaches a dead end in 20 attempts is reported as such; the caller then deals by
the slow, sure way.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any, TypeVar

from atout.bots.expert.likelihood import BidWeigher, logistic
from atout.engine.deal import HAND_SIZE
from atout.jit import AVAILABLE as NUMBA
from atout.jit import jit, np

F = TypeVar("F", bound=Callable[..., Any])

PLAIN_BITS = 56
TRIES = 20
"""Attempts at a dealing before it is reported as a dead end."""

# the header of the integer input
I_PLACES, I_SEATS, I_DRAWS, I_GROUPS, I_FACTORS, I_EXTRA_TO, I_HAND = range(7)
HEADER = 7


def _compiled(function: F) -> F:
    """``function`` compiled when numba is there, else itself (the same source either way)."""
    return function if not NUMBA else jit(function)


def _zeros(size: int) -> Any:
    """``size`` zeros: an array when compiled, a list in plain Python."""
    return np.zeros(size, np.int64) if NUMBA else [0] * size


_zeros = _compiled(_zeros)


@_compiled
def _bits(x: int) -> int:
    """Set bits of a non-negative word below 2**62 (shifts and masks only: the same in Python and
    in 64-bit arithmetic)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@_compiled
def _next(state: int) -> int:
    """The xorshift generator's next 32-bit state (never 0 from a state that is not 0)."""
    state ^= (state << 13) & 0xFFFFFFFF
    state ^= state >> 17
    state ^= (state << 5) & 0xFFFFFFFF
    return state


@_compiled
def _strength(plain: int, trumps: int, hand_size: int) -> float:
    """:func:`~atout.bots.rules.strength.french_strength` of the hand ``plain`` | ``trumps`` << 56."""
    count = _bits(trumps & 0x1FFFFF)
    points = 2.0 * count + _bits(trumps & 0xF8000)  # the trumps 16 to 20
    over = count - 8 * hand_size / 18
    if over > 0:
        run = 0
        if trumps >> 20 & 1:
            while trumps >> (19 - run) & 1 and run < 19:
                run += 1
        points += 3 * over + 2 * run
    if trumps >> 20 & 1:
        points += 10
    if trumps >> 21 & 1:
        points += 8
    if trumps & 1:
        points += 8 if count >= 6 else 5 if count == 5 else 0
    for suit in range(4):
        cards = plain >> (14 * suit) & 0x3FFF
        length = _bits(cards)
        king = cards >> 13 & 1
        queen = cards >> 12 & 1
        points += 6 * king + 3 * queen + 2 * (king & queen)
        points += 2 * (cards >> 11 & 1) + (cards >> 10 & 1)
        if length >= 5:
            points += 5 + 2 * (length - 5)
        elif count >= 5 and length <= 1:
            points += 6 if length == 0 else 3 * (1 - king)
    return points * 18 / hand_size


_sigmoid = _compiled(logistic)


@_compiled
def _deal(ints: Any, cards: Any, floats: Any, seed: int, out: Any, weight_out: Any) -> int:
    """Draw dealings into ``out`` (two words per place) and its weight into ``weight_out[0]``;
    returns the dealings drawn, or minus that number when the last one reached a dead end
    ``TRIES`` times."""
    places = ints[I_PLACES]
    seats = ints[I_SEATS]
    draws = ints[I_DRAWS]
    groups = ints[I_GROUPS]
    factors = ints[I_FACTORS]
    extra_to = ints[I_EXTRA_TO]
    hand_size = ints[I_HAND]
    sizes = HEADER
    fixed = sizes + places  # per seat: what it held at bidding beyond the dealt, what it kept of it
    group_at = fixed + 4 * seats  # per group: places (bits), first card, number of cards
    factor_at = group_at + 3 * groups  # per factor: seat, has low bound, has high bound
    temperature = floats[0]
    state = seed
    room = _zeros(places)
    order = _zeros(groups)
    dealt = _zeros(2 * places)
    best_weight = -1.0
    drawn = 0
    for _ in range(draws):
        drawn += 1
        complete = False
        for _attempt in range(TRIES):
            for p in range(places):
                room[p] = ints[sizes + p]
                dealt[2 * p] = 0
                dealt[2 * p + 1] = 0
            for g in range(groups):
                order[g] = g
            start = 0
            while start < groups:  # shuffle the groups with as many places as each other
                span = _bits(ints[group_at + 3 * order[start]])
                end = start + 1
                while end < groups and _bits(ints[group_at + 3 * order[end]]) == span:
                    end += 1
                for i in range(end - 1, start, -1):
                    state = _next(state)
                    j = start + (state * (i - start + 1) >> 32)
                    order[i], order[j] = order[j], order[i]
                start = end
            complete = True
            for k in range(groups):
                g = group_at + 3 * order[k]
                allowed, first, number = ints[g], ints[g + 1], ints[g + 2]
                free = 0
                for p in range(places):
                    if allowed >> p & 1:
                        free += room[p]
                if free < number:
                    complete = False
                    break
                for c in range(first, first + number):
                    state = _next(state)
                    slot = state * free >> 32
                    p = 0
                    while True:
                        if allowed >> p & 1:
                            if slot < room[p]:
                                break
                            slot -= room[p]
                        p += 1
                    room[p] -= 1
                    free -= 1
                    card = cards[c]
                    if card < PLAIN_BITS:
                        dealt[2 * p] |= 1 << card
                    else:
                        dealt[2 * p + 1] |= 1 << (card - PLAIN_BITS)
            if complete:
                break
        if not complete:
            return -drawn
        weight = 1.0
        for f in range(factors):
            at = factor_at + 3 * f
            seat = ints[at]
            plain = ints[fixed + 4 * seat] | dealt[2 * seat]
            trumps = ints[fixed + 4 * seat + 1] | dealt[2 * seat + 1]
            if seat == extra_to:
                plain |= dealt[2 * (places - 1)]
                trumps |= dealt[2 * (places - 1) + 1]
            plain &= ints[fixed + 4 * seat + 2]
            trumps &= ints[fixed + 4 * seat + 3]
            x = _strength(plain, trumps, hand_size)
            if ints[at + 1]:
                weight *= _sigmoid((x - floats[1 + 2 * f]) / temperature)
            if ints[at + 2]:
                weight *= _sigmoid((floats[2 + 2 * f] - x) / temperature)
        state = _next(state) if factors else state
        accepted = factors == 0 or state / 4294967296.0 < weight
        if accepted or weight > best_weight:
            best_weight = weight
            for i in range(2 * places):
                out[i] = dealt[i]
        if accepted:
            break
    weight_out[0] = best_weight
    return drawn


def _words(mask: int) -> tuple[int, int]:
    return mask & ((1 << PLAIN_BITS) - 1), mask >> PLAIN_BITS


class Dealer:
    """Dealings of one layout's hidden cards (weighed by a view's bids, with ``weigher``).

    ``groups`` are the hidden cards by the places they may go (places as indices, seats then the
    extra place), fewest places first, as :func:`~.worlds.deal_hidden` deals them; ``fixed`` what
    each seat held at bidding time besides its hidden cards and ``kept_of`` which of its cards it
    held then (the taker did not hold the chien), and ``extra_to`` the seat whose bidding hand
    also held the extra place's cards (a taker's hidden écart)."""

    def __init__(
        self,
        sizes: tuple[int, ...],
        groups: list[tuple[tuple[int, ...], tuple[int, ...]]],
        fixed: list[int],
        kept_of: list[int],
        extra_to: int | None,
        weigher: BidWeigher | None,
        draws: int,
    ) -> None:
        places, seats = len(sizes), len(fixed)
        factors = [] if weigher is None else [f for f in weigher.factors if f[0] < seats]
        ints = [places, seats, draws if factors else 1, len(groups), len(factors)]
        ints += [-1 if extra_to is None else extra_to, HAND_SIZE[weigher.players if weigher else seats]]
        ints += list(sizes)
        for mask, kept in zip(fixed, kept_of, strict=True):
            ints += (*_words(mask), *_words(kept))
        flat: list[int] = []
        for group_places, members in groups:
            ints += [sum(1 << p for p in group_places), len(flat), len(members)]
            flat += members
        floats = [weigher.temperature if weigher else 1.0]
        for seat, low, high in factors:
            ints += [seat, int(low > -math.inf), int(high < math.inf)]
            floats += [low if low > -math.inf else 0.0, high if high < math.inf else 0.0]
        self.places = places
        if NUMBA:
            self._ints = np.array(ints, np.int64)
            self._cards = np.array(flat or [0], np.int64)
            self._floats = np.array(floats, np.float64)
            self._out = np.zeros(2 * places, np.int64)
            self._weight = np.zeros(1, np.float64)
        else:
            self._ints, self._cards, self._floats = ints, flat or [0], floats
            self._out, self._weight = [0] * (2 * places), [0.0]
        self.weight = 0.0
        """The weight of the last dealing (1 when there are no bids to weigh)."""

    def deal(self, rng: random.Random) -> tuple[list[int] | None, int]:
        """A dealing (hidden cards by place) and the dealings drawn for it; ``None`` for the
        dealing when the last drawn reached a dead end."""
        out = self._out
        drawn = _deal(self._ints, self._cards, self._floats, rng.getrandbits(32) or 1, out, self._weight)
        self.weight = float(self._weight[0])
        if drawn < 0:
            return None, -drawn
        words = [int(w) for w in out]
        return [words[2 * p] | words[2 * p + 1] << PLAIN_BITS for p in range(self.places)], drawn


__all__ = ["TRIES", "Dealer"]

"""Exactly uniform dealings of a layout's hidden cards, by counting.

The hidden cards fall into groups, each the cards that may go to the same places
(:func:`~.places.card_groups`). :class:`UniformDealer` counts the dealings that fill every place
exactly (a group of ``c`` cards split ``k`` among its places in ``c! / prod(k!)`` ways), then
deals group by group, each split drawn in proportion to the dealings it leaves for the groups
after it: every dealing the layout allows is equally likely. The counts are kept per layout, so
that many dealings of one view cost little after the first. A layout whose count would take too
long (more than :data:`WORK` splits to weigh) is left to :func:`~.places.deal_hidden`, close to uniform.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from math import factorial

from atout.cards import BIT
from atout.engine.worlds.places import Places, card_groups

WORK = 20_000
"""Most splits weighed while counting one layout's dealings before giving up on counting."""

Room = tuple[int, ...]
Split = tuple[int, ...]


class TooLongToCount(Exception):
    """Counting the layout's dealings would weigh more than :data:`WORK` splits."""


class UniformDealer:
    """Deals one layout's hidden cards uniformly among the dealings it allows."""

    def __init__(self, layout: Places) -> None:
        groups = card_groups(layout.hidden, layout.allowed)
        self.sizes = layout.sizes
        self.feasible = groups is not None and sum(layout.sizes) == layout.hidden.bit_count()
        self.groups = groups or []
        self._counts: dict[tuple[int, Room], int] = {}
        self._splits: dict[tuple[int, Room], tuple[list[Split], list[int]]] = {}
        self._work = 0
        # the places some group from each index on may fill: the others must be full by then
        self._open: list[int] = [0] * (len(self.groups) + 1)
        for index in range(len(self.groups) - 1, -1, -1):
            self._open[index] = self._open[index + 1] | sum(1 << p for p in self.groups[index][0])
        if self.feasible:
            self.feasible = self.count(0, tuple(self.sizes)) > 0

    def count(self, index: int, room: Room) -> int:
        """How many ways the groups from ``index`` on fill ``room`` exactly."""
        if index == len(self.groups):
            return int(not any(room))
        key = (index, room)
        found = self._counts.get(key)
        if found is not None:
            return found
        open_places = self._open[index]
        if any(left and not open_places >> p & 1 for p, left in enumerate(room)):
            self._counts[key] = 0
            return 0
        places, cards = self.groups[index]
        total = 0
        ways = factorial(len(cards))
        for split in self._group_splits(index, room):
            self._work += 1
            if self._work > WORK:
                raise TooLongToCount
            rest = list(room)
            divisor = 1
            for place, k in zip(places, split, strict=True):
                rest[place] -= k
                divisor *= factorial(k)
            total += ways // divisor * self.count(index + 1, tuple(rest))
        self._counts[key] = total
        return total

    def _group_splits(self, index: int, room: Room) -> Iterator[Split]:
        """The splits of group ``index`` within ``room``: the last group must fill what is left."""
        places, cards = self.groups[index]
        if index < len(self.groups) - 1:
            return _splits(len(cards), [room[p] for p in places])
        forced = tuple(room[p] for p in places)
        return iter([forced] if sum(forced) == len(cards) else [])

    def deal(self, rng: random.Random) -> list[int] | None:
        """The hidden cards dealt into the places (masks), each dealing equally likely; ``None``
        if the layout allows none."""
        if not self.feasible:
            return None
        room = tuple(self.sizes)
        masks = [0] * len(room)
        for index, (places, cards) in enumerate(self.groups):
            splits, cumulative = self._choices(index, room)
            pick = rng.randrange(cumulative[-1])
            chosen = splits[_bisect(cumulative, pick)]
            shuffled = rng.sample(cards, len(cards))
            start = 0
            rest = list(room)
            for place, k in zip(places, chosen, strict=True):
                for card in shuffled[start : start + k]:
                    masks[place] |= BIT[card]
                start += k
                rest[place] -= k
            room = tuple(rest)
        return masks

    def _choices(self, index: int, room: Room) -> tuple[list[Split], list[int]]:
        """A group's splits that leave a dealing for the rest, with their running weights."""
        key = (index, room)
        found = self._splits.get(key)
        if found is not None:
            return found
        places, cards = self.groups[index]
        ways = factorial(len(cards))
        splits: list[Split] = []
        cumulative: list[int] = []
        total = 0
        for split in self._group_splits(index, room):
            rest = list(room)
            divisor = 1
            for place, k in zip(places, split, strict=True):
                rest[place] -= k
                divisor *= factorial(k)
            weight = ways // divisor * self.count(index + 1, tuple(rest))
            if weight:
                total += weight
                splits.append(split)
                cumulative.append(total)
        self._splits[key] = (splits, cumulative)
        return splits, cumulative


def _splits(count: int, caps: list[int]) -> Iterator[Split]:
    """Every way to split ``count`` cards among places with room ``caps``."""
    if len(caps) == 1:
        if count <= caps[0]:
            yield (count,)
        return
    rest_cap = sum(caps[1:])
    for k in range(max(0, count - rest_cap), min(count, caps[0]) + 1):
        for tail in _splits(count - k, caps[1:]):
            yield (k, *tail)


def _bisect(cumulative: list[int], pick: int) -> int:
    """The first index whose running weight exceeds ``pick``."""
    low, high = 0, len(cumulative) - 1
    while low < high:
        middle = (low + high) // 2
        if cumulative[middle] > pick:
            high = middle
        else:
            low = middle + 1
    return low


__all__ = ["WORK", "TooLongToCount", "UniformDealer"]

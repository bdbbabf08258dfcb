"""Exactly uniform dealings of a layout's hidden cards, by counting.

The hidden cards fall into groups, each the cards that may go to the same places
(:func:`~.places.card_groups`). :class:`UniformDealer` counts the dealings that fill every place
exactly (a group of ``c`` cards split ``k`` among its places in ``c! / prod(k!)`` ways), then
deals group by group, each split drawn in proportion to the dealings it leaves for the groups
after it: every dealing the layout allows is equally likely. The counts are kept per layout, so
that many dealings of one view cost little after the first. Where the groups' splits are too many
to weigh (more than :data:`WORK`), :class:`StepwiseDealer` counts the same dealings a place at a
time (a group's cards shared out one place after the other: more positions, fewer ways from each);
:func:`uniform_dealer` picks. A layout too large for both (more than :data:`STEPS` positions) is
left to :func:`~.places.deal_hidden`, close to uniform.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from math import comb, factorial

from atout.cards import BIT
from atout.engine.worlds.places import Places, card_groups

WORK = 20_000
"""Most splits weighed while counting one layout's dealings before giving up on counting."""

STEPS = 30_000
"""Most counting positions of :class:`StepwiseDealer` for one layout before giving up on counting."""

Room = tuple[int, ...]
Split = tuple[int, ...]


class TooLongToCount(Exception):
    """Counting the layout's dealings would take too long (:data:`WORK`, :data:`STEPS`)."""


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


class StepwiseDealer:
    """:class:`UniformDealer`'s dealings, counted a place at a time: each group's cards are shared
    out among its places one after the other (``comb(left, k)`` ways to give ``k`` of the ``left``
    cards to the next place), so that a position is (group, place of it, cards left, room left)."""

    def __init__(self, layout: Places) -> None:
        groups = card_groups(layout.hidden, layout.allowed)
        self.sizes = layout.sizes
        self.feasible = groups is not None and sum(layout.sizes) == layout.hidden.bit_count()
        self.groups = groups or []
        self._counts: dict[tuple[int, int, int, Room], int] = {}
        self._open: list[int] = [0] * (len(self.groups) + 1)
        for index in range(len(self.groups) - 1, -1, -1):
            self._open[index] = self._open[index + 1] | sum(1 << p for p in self.groups[index][0])
        if self.feasible:
            self.feasible = self.count(0, 0, self._cards(0), tuple(self.sizes)) > 0

    def _cards(self, group: int) -> int:
        return len(self.groups[group][1]) if group < len(self.groups) else 0

    def count(self, group: int, step: int, left: int, room: Room) -> int:
        """How many ways the ``left`` cards of ``group`` go to its places from ``step`` on, and the
        later groups fill what is left of ``room``."""
        if group == len(self.groups):
            return int(not any(room))
        key = (group, step, left, room)
        found = self._counts.get(key)
        if found is not None:
            return found
        if len(self._counts) >= STEPS:
            raise TooLongToCount
        total = sum(ways * self.count(*after) for _, ways, after in self._moves(group, step, left, room))
        self._counts[key] = total
        return total

    def _moves(
        self, group: int, step: int, left: int, room: Room
    ) -> Iterator[tuple[int, int, tuple[int, int, int, Room]]]:
        """Each ``k`` cards the place at ``step`` may take, the ways to pick them, and the
        position after."""
        places = self.groups[group][0]
        place = places[step]
        last = step == len(places) - 1
        if last:
            takes: Iterator[int] | list[int] = [left] if left <= room[place] else []
        else:
            later = sum(room[p] for p in places[step + 1 :])
            takes = iter(range(max(0, left - later), min(left, room[place]) + 1))
        for k in takes:
            rest = list(room)
            rest[place] -= k
            after_room = tuple(rest)
            if not last:
                yield k, comb(left, k), (group, step + 1, left - k, after_room)
                continue
            still_open = self._open[group + 1]
            if any(r and not still_open >> p & 1 for p, r in enumerate(after_room)):
                continue  # a place no later group may fill is not full
            yield k, 1, (group + 1, 0, self._cards(group + 1), after_room)

    def deal(self, rng: random.Random) -> list[int] | None:
        """As :meth:`UniformDealer.deal`."""
        if not self.feasible:
            return None
        room = tuple(self.sizes)
        masks = [0] * len(room)
        for group, (places, cards) in enumerate(self.groups):
            left = len(cards)
            shuffled = rng.sample(cards, len(cards))
            start = 0
            for step, place in enumerate(places):
                moves = list(self._moves(group, step, left, room))
                weights = [ways * self.count(*after) for _, ways, after in moves]
                k, _, after = moves[_drawn(weights, rng)]
                for card in shuffled[start : start + k]:
                    masks[place] |= BIT[card]
                start += k
                left -= k
                room = after[3]
        return masks


Dealer = UniformDealer | StepwiseDealer


def uniform_dealer(layout: Places) -> Dealer:
    """The layout's uniform dealer: by the groups' splits, else a place at a time;
    :class:`TooLongToCount` if neither counts in time."""
    try:
        return UniformDealer(layout)
    except TooLongToCount:
        return StepwiseDealer(layout)


def _drawn(weights: list[int], rng: random.Random) -> int:
    """An index drawn in proportion to its weight."""
    pick = rng.randrange(sum(weights))
    for index, weight in enumerate(weights):
        if pick < weight:
            return index
        pick -= weight
    raise AssertionError("unreachable: the pick is below the total")


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


__all__ = ["STEPS", "WORK", "Dealer", "StepwiseDealer", "TooLongToCount", "UniformDealer", "uniform_dealer"]

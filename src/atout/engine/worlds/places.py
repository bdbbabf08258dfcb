"""Dealing a view's hidden cards into the places they may be, for every game.

A layout (:class:`Places`) names the hidden cards, the places they may go (hands, a hidden chien,
a hidden écart, a talon, face-down piles) with how many each holds, and which cards each place
may hold. :func:`deal_hidden` deals them: cards that may go to the same places form a group,
groups with the fewest places are dealt first (ties in random order), each card to a free slot of
its places; on a dead end it retries, then deals one card at a time under Hall's condition, which
never dead-ends.
"""

from __future__ import annotations

import random
from typing import Protocol

from atout.cards import BIT, cards_of


class Places(Protocol):
    """Hidden cards and the places they may go (a French or an Austrian layout)."""

    @property
    def hidden(self) -> int: ...
    @property
    def sizes(self) -> tuple[int, ...]: ...
    @property
    def allowed(self) -> tuple[int, ...]: ...


def deal_hidden(layout: Places, rng: random.Random, tries: int = 20) -> list[int] | None:
    """The hidden cards dealt into the layout's places (masks, seats then the extra place), or
    ``None`` when ``tries`` random attempts all reach a dead end.

    Cards that may go to the same places form a group; groups with the fewest places are dealt
    first (ties in random order), each by drawing as many free slots of its places as it has
    cards, without replacement (so a place is picked in proportion to its room left)."""
    groups = card_groups(layout.hidden, layout.allowed)
    if groups is None or sum(layout.sizes) != layout.hidden.bit_count():
        return None
    sizes = layout.sizes
    sample = rng.sample
    for _ in range(tries):
        order = groups if len(groups) < 2 else _tie_shuffled(groups, rng)
        room = list(sizes)
        masks = [0] * len(room)
        for places, group in order:
            slots = [p for p in places for _ in range(room[p])]
            if len(slots) < len(group):
                break
            for card, place in zip(group, sample(slots, len(group)), strict=False):
                room[place] -= 1
                masks[place] |= BIT[card]
        else:
            return masks
    cards = cards_of(layout.hidden)
    choices = {c: list(places) for places, members in groups for c in members}
    return _deal_checked(layout, cards, choices, rng)


Groups = list[tuple[tuple[int, ...], tuple[int, ...]]]
_GROUPS: dict[tuple[int, tuple[int, ...]], Groups | None] = {}


def card_groups(hidden: int, allowed: tuple[int, ...]) -> Groups | None:
    """``(places, cards)`` of the hidden cards grouped by the places that may hold them, fewest
    places first; ``None`` if a card has no place (memoised: one view asks for many dealings)."""
    key = (hidden, allowed)
    if key in _GROUPS:
        return _GROUPS[key]
    by_places: dict[tuple[int, ...], list[int]] = {}
    for card in cards_of(hidden):
        places = tuple(p for p, mask in enumerate(allowed) if mask >> card & 1)
        by_places.setdefault(places, []).append(card)
    groups: Groups | None = sorted(((p, tuple(c)) for p, c in by_places.items()), key=lambda g: len(g[0]))
    if groups and not groups[0][0]:
        groups = None
    if len(_GROUPS) > 4096:
        _GROUPS.clear()
    _GROUPS[key] = groups
    return groups


def _tie_shuffled(groups: Groups, rng: random.Random) -> Groups:
    """The groups still fewest places first, groups with as many places in random order."""
    keyed = [(len(places), rng.random(), places, cards) for places, cards in groups]
    keyed.sort()
    return [(places, cards) for _, _, places, cards in keyed]


def _deal_checked(
    layout: Places, cards: list[int], choices: dict[int, list[int]], rng: random.Random
) -> list[int] | None:
    """The slow, sure way: each card goes to a random place that keeps the rest dealable, judged
    by Hall's condition (for every set of places, the cards that can only go there fit in them)."""
    places = len(layout.sizes)
    subsets = range(1, 1 << places)
    need = dict.fromkeys(range(1 << places), 0)
    for card in cards:
        need[sum(1 << p for p in choices[card])] += 1
    room = list(layout.sizes)

    def feasible() -> bool:
        for subset in subsets:
            cap = sum(room[p] for p in range(places) if subset >> p & 1)
            if sum(k for m, k in need.items() if k and m & ~subset == 0) > cap:
                return False
        return True

    if not feasible():
        return None
    masks = [0] * places
    rng.shuffle(cards)
    for card in cards:
        key = sum(1 << p for p in choices[card])
        need[key] -= 1
        options = [p for p in choices[card] if room[p]]
        rng.shuffle(options)
        for place in options:
            room[place] -= 1
            if feasible():
                masks[place] |= BIT[card]
                break
            room[place] += 1
        else:
            return None
    return masks


__all__ = ["Groups", "Places", "card_groups", "deal_hidden"]

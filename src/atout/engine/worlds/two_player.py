"""Worlds of the 2-player game (rule book §4.4): whole deals consistent with one seat's view.

A seat sees its own hand, every face-up pile top and every card played, but neither the
opponent's hand nor any face-down pile card (its own included). The piles' history is read from
the play: each player plays one card a trick, and the card beneath a pile card he played is turned
up at the end of the trick (a ``turn_up`` event), so every pile card played is known for one, and
so is each pile's column of revealed cards, top first (:func:`pile_columns`). A player who did
not follow suit, or trump, or over-trump, had no such card in hand then (nor among his face-up
tops, which everyone sees): the hidden cards of his hand are dealt with those exclusions
(:func:`~atout.engine.worlds.inference.trick_exclusions`).

:class:`TwoPlayerLayout` has three places: the two hands (the seat's own empty) and the face-down
pile cards, shuffled into the piles' face-down slots by :func:`rebuild`, which deals the whole
deal, replays the chelem decisions and the cards, and keeps it only if it shows the seat exactly
its view.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from atout.cards import ALL_CARDS, BIT
from atout.engine.actions import ANNOUNCE_CHELEM, NO_CHELEM
from atout.engine.errors import IllegalActionError
from atout.engine.two_player import HAND_CARDS, PILE_CARDS, PILES, TwoPlayerDeal, TwoPlayerView
from atout.engine.view import PUBLIC_SEAT
from atout.engine.worlds.inference import trick_exclusions

FACE_DOWN = 2
"""Place index of the face-down pile cards."""


class InconsistentView(ValueError):
    """The view's piles and play cannot come from any 2-player deal."""


@dataclass(frozen=True)
class TwoPlayerLayout:
    """Where the cards a 2-player seat cannot see may be: places 0 and 1 the hands, then
    :data:`FACE_DOWN`, the face-down pile cards."""

    seat: int
    hidden: int
    sizes: tuple[int, ...]
    allowed: tuple[int, ...]
    columns: tuple[tuple[tuple[int, ...], ...], ...]
    """For each seat, each pile's revealed cards, top first (the first is its top at the deal)."""
    played_from_hand: tuple[int, ...]
    """The cards each seat played from its hand."""


def _piles_seen(view: TwoPlayerView) -> tuple[int, list[tuple[int | None, ...]], list[tuple[int, ...]]]:
    """The seat whose piles are ``own_*`` and both seats' tops and pile sizes."""
    own = view.seat if view.seat != PUBLIC_SEAT else 0
    tops: list[tuple[int | None, ...]] = [(), ()]
    sizes: list[tuple[int, ...]] = [(), ()]
    tops[own], tops[1 - own] = view.own_tops, view.opponent_tops
    sizes[own], sizes[1 - own] = view.own_pile_sizes, view.opponent_pile_sizes
    return own, tops, sizes


def pile_columns(view: TwoPlayerView) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each seat, each pile's revealed cards, top first (see the module docstring);
    :class:`InconsistentView` when the play cannot come from the piles shown."""
    _own, tops, sizes = _piles_seen(view)
    beneath: dict[int, int] = {}
    turned: set[int] = set()
    last_play = [-1, -1]
    for event in view.events:
        if event.kind == "play":
            last_play[event.seat] = event.card
        elif event.kind == "turn_up":
            if last_play[event.seat] < 0:
                raise InconsistentView("a pile card was turned up before its seat played")
            beneath[last_play[event.seat]] = event.card
            turned.add(event.card)
    in_trick = dict(view.trick)
    columns: list[tuple[tuple[int, ...], ...]] = []
    for seat in (0, 1):
        heads = {c for c in beneath if c not in turned and _seat_of(view, c) == seat}
        heads |= {c for c in tops[seat] if c is not None and c not in turned}
        unturned = [p for p in range(PILES) if tops[seat][p] is None and sizes[seat][p] > 0]
        if unturned:
            card = in_trick.get(seat)
            if card is None or len(unturned) > 1:
                raise InconsistentView("a pile without a face-up top, and no card of it in the trick")
            if card not in turned:
                heads.add(card)
        chains = [_column(head, beneath) for head in heads]
        piles: list[tuple[int, ...] | None] = [None] * PILES
        loose = []
        for chain in chains:
            top = chain[-1]
            if top in tops[seat]:
                piles[tops[seat].index(top)] = chain
            else:
                loose.append(chain)
        for chain in sorted(loose, key=len):
            want = PILE_CARDS - len(chain)
            free = [p for p in range(PILES) if piles[p] is None and sizes[seat][p] == want]
            if not free:
                raise InconsistentView("a pile's played cards do not match its size")
            piles[free[0]] = chain
        if any(p is None for p in piles):
            raise InconsistentView("a pile's top at the deal is unknown")
        columns.append(tuple(p or () for p in piles))
    return tuple(columns)


def _column(head: int, beneath: dict[int, int]) -> tuple[int, ...]:
    """A pile's revealed cards from its top at the deal, each turned up under the one before."""
    cards = [head]
    while cards[-1] in beneath:
        cards.append(beneath[cards[-1]])
    return tuple(cards)


def _seat_of(view: TwoPlayerView, card: int) -> int:
    """The seat that played ``card`` (-1 if nobody did)."""
    for trick in view.tricks:
        for seat, played in trick.plays:
            if played == card:
                return seat
    return next((seat for seat, played in view.trick if played == card), -1)


def layout_of(view: TwoPlayerView) -> TwoPlayerLayout:
    """The layout a 2-player view shows (:class:`InconsistentView` if none)."""
    columns = pile_columns(view)
    pile_cards = [sum(BIT[c] for pile in columns[s] for c in pile) for s in (0, 1)]
    played_by = [0, 0]
    plays = [t.plays for t in view.tricks] + [view.trick]
    excluded = [0, 0]
    for trick in plays:
        for seat, card in trick:
            played_by[seat] |= BIT[card]
        for seat, mask in enumerate(trick_exclusions(trick, 2)):
            excluded[seat] |= mask
    from_hand = [played_by[s] & ~pile_cards[s] for s in (0, 1)]
    hand = view.hand if view.seat != PUBLIC_SEAT else 0
    hidden = ALL_CARDS & ~hand & ~played_by[0] & ~played_by[1] & ~pile_cards[0] & ~pile_cards[1]
    sizes = [HAND_CARDS - from_hand[s].bit_count() for s in (0, 1)]
    allowed = [hidden & ~excluded[s] for s in (0, 1)]
    if view.seat != PUBLIC_SEAT:
        sizes[view.seat] = allowed[view.seat] = 0
    face_down = sum(PILE_CARDS - len(pile) for s in (0, 1) for pile in columns[s])
    return TwoPlayerLayout(
        seat=view.seat,
        hidden=hidden,
        sizes=(*sizes, face_down),
        allowed=(*allowed, hidden),
        columns=columns,
        played_from_hand=tuple(from_hand),
    )


def rebuild(
    view: TwoPlayerView, layout: TwoPlayerLayout, dealt: list[int], rng: random.Random
) -> TwoPlayerDeal | None:
    """The deal a dealing of the layout implies (the face-down cards shuffled into the piles),
    replayed to the view's moment; ``None`` if it does not show the seat exactly ``view``."""
    hand = view.hand if view.seat != PUBLIC_SEAT else 0
    hands = [layout.played_from_hand[s] | (hand if s == view.seat else dealt[s]) for s in (0, 1)]
    face_down = [c for c in range(78) if dealt[FACE_DOWN] >> c & 1]
    rng.shuffle(face_down)
    piles = []
    for seat in (0, 1):
        seat_piles = []
        for column in layout.columns[seat]:
            below = PILE_CARDS - len(column)
            seat_piles.append([*face_down[:below], *reversed(column)])
            del face_down[:below]
        piles.append(seat_piles)
    try:
        deal = TwoPlayerDeal(view.rules, view.dealer, hands, piles)
        for event in view.events:
            if event.kind == "chelem":
                deal.apply(ANNOUNCE_CHELEM if event.announced else NO_CHELEM)
            elif event.kind == "play":
                deal.apply(event.card)
    except (ValueError, IllegalActionError):
        return None
    seen = deal.public_view() if view.seat == PUBLIC_SEAT else deal.view(view.seat)
    return deal if seen == view else None


__all__ = ["FACE_DOWN", "InconsistentView", "TwoPlayerLayout", "layout_of", "pile_columns", "rebuild"]

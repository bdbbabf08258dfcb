"""What a French Tarot seat can deduce about the other hands from its view alone (a public view:
what anyone can deduce).

The play rules (rule book §3.8) say a player follows the suit led, else trumps, and over-trumps the
highest trump in the trick when able. So each card played that breaks one of those duties shows
a void, or that the player holds no trump above the trick's highest:

* a card of another plain suit on a plain suit led: void in that suit and in trumps;
* a trump on a plain suit led: void in that suit; if it does not beat the trick's highest trump,
  no trump higher than that one;
* a plain card on trumps led: void in trumps;
* a trump under the highest trump of the trick: no trump higher than that one.

The Excuse, always legal, shows nothing. Declarations add more: a taker who discarded a trump
(shown face up) kept no plain card other than kings (trumps go to the écart only when too few
other cards remain); a poignée shows the lowest trumps of the hand (so no hidden trump below the
highest one shown), and one completed with the Excuse shows every trump; a misère shows a hand
without trumps and/or court cards.

:func:`excluded_cards` gives, for each seat, the cards it cannot hold now.

>>> from atout.cards import CardSet, SPADES, TRUMP
>>> plays = ((0, CardSet.parse("5S").mask.bit_length() - 1), (1, CardSet.parse("T3").mask.bit_length() - 1))
>>> ex = trick_exclusions(plays, 4)
>>> ex[1] & SUIT_MASKS[SPADES] == SUIT_MASKS[SPADES], ex[0]
(True, 0)
"""

from __future__ import annotations

from collections.abc import Sequence

from atout.cards import (
    CAVALIERS_MASK,
    EXCUSE,
    EXCUSE_MASK,
    JACKS_MASK,
    KINGS_MASK,
    PLAIN_SUITS_MASK,
    QUEENS_MASK,
    SUIT_MASKS,
    SUIT_OF,
    TRUMP,
    TRUMPS_MASK,
)
from atout.engine.view import SeatView

COURTS_MASK = KINGS_MASK | QUEENS_MASK | CAVALIERS_MASK | JACKS_MASK
DISCARDABLE_PLAIN = PLAIN_SUITS_MASK & ~KINGS_MASK
"""Plain cards a taker may put in the écart (no kings)."""


def held_for_call(called: int | None) -> int:
    """The cards a 5-player taker held when he called ``called`` (rule book §4.3): a king asks
    nothing, a queen every king, a cavalier every king and queen, a valet every king, queen and
    cavalier (none for no call).

    >>> from atout.cards import parse_card
    >>> held_for_call(parse_card("QC")) == KINGS_MASK, held_for_call(parse_card("KH"))
    (True, 0)
    """
    if called is None:
        return 0
    ladder = 0
    for courts in (KINGS_MASK, QUEENS_MASK, CAVALIERS_MASK, JACKS_MASK):
        if courts >> called & 1:
            return ladder
        ladder |= courts
    return 0


def trumps_above(card: int) -> int:
    """The trumps higher than ``card`` (a trump)."""
    return TRUMPS_MASK & ~((1 << (card + 1)) - 1)


def trumps_below(card: int) -> int:
    """The trumps lower than ``card`` (a trump)."""
    return TRUMPS_MASK & ((1 << card) - 1)


def trick_exclusions(plays: Sequence[tuple[int, int]], players: int) -> list[int]:
    """For each seat, the cards a trick's plays (``(seat, card)`` in order) show it did not hold."""
    excluded = [0] * players
    led = -1
    top = -1  # the highest trump in the trick so far
    for seat, card in plays:
        suit = SUIT_OF[card]
        if card == EXCUSE:
            continue
        if led < 0:
            led = suit
        elif led != TRUMP and suit != led:
            excluded[seat] |= SUIT_MASKS[led]
            if suit != TRUMP:
                excluded[seat] |= TRUMPS_MASK
            elif card < top:
                excluded[seat] |= trumps_above(top)
        elif led == TRUMP and suit != TRUMP:
            excluded[seat] |= TRUMPS_MASK
        elif suit == TRUMP and card < top:
            excluded[seat] |= trumps_above(top)
        if suit == TRUMP and card > top:
            top = card
    return excluded


def play_exclusions(view: SeatView) -> list[int]:
    """Every seat's exclusions from the finished tricks and the current one."""
    excluded = [0] * view.players
    for plays in [t.plays for t in view.tricks] + [view.trick]:
        for seat, mask in enumerate(trick_exclusions(plays, view.players)):
            excluded[seat] |= mask
    return excluded


def declaration_exclusions(view: SeatView) -> list[int]:
    """Every seat's exclusions from the écart shown, poignées and misères."""
    excluded = [0] * view.players
    taker = view.taker
    if taker is not None and taker != view.seat and view.ecart & TRUMPS_MASK:
        excluded[taker] |= DISCARDABLE_PLAIN
    for seat, _level, shown in view.poignees:
        if seat == view.seat:
            continue
        if shown & EXCUSE_MASK:  # the Excuse is shown only by a seat with no other trump to show
            excluded[seat] |= TRUMPS_MASK & ~shown
        # which other trumps a poignée shows is the seat's choice (``show T..``): nothing follows
    for event in view.events:
        if event.kind == "misere" and event.seat is not None and event.seat != view.seat:
            kind = event.misere
            if kind in ("no_trumps", "both"):
                excluded[event.seat] |= TRUMPS_MASK | EXCUSE_MASK
            if kind in ("no_courts", "both"):
                excluded[event.seat] |= COURTS_MASK
    return excluded


def excluded_cards(view: SeatView) -> list[int]:
    """For each seat, the cards it cannot hold now, as far as ``view`` shows (0 for the seat itself)."""
    plays = play_exclusions(view)
    declared = declaration_exclusions(view)
    out = [p | d for p, d in zip(plays, declared, strict=True)]
    if view.seat >= 0:
        out[view.seat] = 0
    return out


__all__ = [
    "COURTS_MASK",
    "DISCARDABLE_PLAIN",
    "declaration_exclusions",
    "excluded_cards",
    "play_exclusions",
    "trick_exclusions",
    "trumps_above",
    "trumps_below",
]

"""Austrian Tarock worlds: whole deals consistent with what one seat's view shows.

What a seat knows (rule book §5, as :class:`~atout.engine.austrian.deal.AustrianDeal` shows it):
its own hand, the cards played, the talon halves it has seen (the first half once a threesome is
declared, the second half only by the declarer who takes it, both under
``austrian_talon_mode=free_choice`` or ``austrian_second_half_visible``; a solo's talon stays
unseen until the count), the declarer's own discard, and the trumps in the discard (face up).

:func:`excluded_cards` reads from the tricks the cards a seat cannot hold, by the duties the
engine enforces (:func:`~atout.engine.austrian.tricks.legal_cards`):

* a plain card of another suit on a plain suit led: void in that suit and in trumps;
* a trump on a plain suit led: void in that suit;
* a plain card on trumps led: void in trumps;
* under ``austrian_must_overtrump`` (the default), a trump under the highest trump already in the
  trick: no trump above that one (trump leads included).

:func:`layout_of` turns a view into an :class:`AustrianLayout`: the hidden cards and the places
they may be: the two other hands, the unseen unused talon (a solo's six cards, or the half no one
took and this seat has not seen) and, for a defender in a threesome, the face-down part of the
declarer's discard (plain cards but kings: trumps go face up, kings may not be discarded). Cards
of a seen half the declarer took stay hidden too, but only in his hand or his discard.

:func:`~atout.engine.worlds.sample_world` deals the hidden cards into those places (the cards with the fewest places
first, retried on a dead end, then one by one under Hall's condition, which never dead-ends),
rebuilds the whole deal from its dealt hands and talon, replays every action the view shows (bids,
talon choice, discard, game, cards) and keeps the world only if the rebuilt deal shows the seat
exactly the view it has. So a world is always consistent with the view, whatever the sampler's
shortcuts. Like the French sampler it is only roughly uniform, and it does not weigh the plays by
how likely the other seats were to make them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from atout.cards import AUSTRIAN_DECK_MASK, BIT, KINGS_MASK, PLAIN_SUITS_MASK, SUIT_MASKS, TRUMP, cards_of
from atout.engine.austrian.actions import BID_BASE, BID_NAMES, DISCARD_BASE, GAME_BASE, GAME_TYPES, TALON_BASE
from atout.engine.austrian.cards import AUSTRIAN_SUIT_OF, AUSTRIAN_TRUMPS_MASK, HALF_CARDS, HAND_CARDS
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.austrian.view import AustrianView
from atout.engine.errors import IllegalActionError
from atout.engine.view import PUBLIC_SEAT

SEATS = 3
TALON = 3
"""Place index of the unseen unused talon."""
DISCARD = 4
"""Place index of the face-down part of the declarer's discard (a defender's view of a threesome)."""
HIDDEN_DISCARDABLE = PLAIN_SUITS_MASK & AUSTRIAN_DECK_MASK & ~KINGS_MASK
"""Cards that may lie face down in the discard: plain cards but kings (rule book §5.3)."""


def trumps_above(card: int) -> int:
    """The trumps (Sküs included) higher than the trump ``card``."""
    return AUSTRIAN_TRUMPS_MASK & ~((1 << (card + 1)) - 1)


def trick_exclusions(plays: Sequence[tuple[int, int]], must_overtrump: bool = True) -> list[int]:
    """For each of the three seats, the cards one trick's plays (``(seat, card)`` in order) show
    it did not hold (see the module docstring)."""
    excluded = [0] * SEATS
    led = -1
    top = -1  # the highest trump in the trick so far
    for seat, card in plays:
        suit = AUSTRIAN_SUIT_OF[card]
        if led < 0:
            led = suit
        elif led != TRUMP and suit != led:
            excluded[seat] |= SUIT_MASKS[led]
            if suit != TRUMP:
                excluded[seat] |= AUSTRIAN_TRUMPS_MASK
            elif must_overtrump and card < top:
                excluded[seat] |= trumps_above(top)
        elif led == TRUMP and suit != TRUMP:
            excluded[seat] |= AUSTRIAN_TRUMPS_MASK
        elif must_overtrump and suit == TRUMP and card < top:
            excluded[seat] |= trumps_above(top)
        if suit == TRUMP and card > top:
            top = card
    return excluded


def excluded_cards(view: AustrianView) -> list[int]:
    """For each seat, the cards it cannot hold now, as the tricks show (0 for the seat itself)."""
    overtrump = view.rules.austrian_must_overtrump
    out = [0] * SEATS
    for plays in [t.plays for t in view.tricks] + [view.trick]:
        for seat, mask in enumerate(trick_exclusions(plays, overtrump)):
            out[seat] |= mask
    if view.seat >= 0:
        out[view.seat] = 0
    return out


@dataclass(frozen=True)
class AustrianLayout:
    """Where the cards an Austrian seat cannot see may be. Places: the seats 0-2, then the unseen
    unused talon (:data:`TALON`), then the face-down part of the declarer's discard (:data:`DISCARD`)."""

    seat: int
    hidden: int
    """The cards whose place is unknown."""
    sizes: tuple[int, ...]
    """How many hidden cards each place holds (0 for the seat itself)."""
    allowed: tuple[int, ...]
    """The hidden cards each place may hold."""
    played_by: tuple[int, ...]
    """The cards each seat has played."""
    out_of_play: int
    """Cards the seat knows are in no hand: its seen unused talon half, the discard it sees."""


def _halves(view: AustrianView) -> tuple[int | None, int | None]:
    return view.first_half, view.second_half


def layout_of(view: AustrianView) -> AustrianLayout:
    """The layout an Austrian view shows, in any phase before the end."""
    me, declarer = view.seat, view.declarer
    played_by = [0] * SEATS
    for trick in view.tricks:
        for s, c in trick.plays:
            played_by[s] |= BIT[c]
    for s, c in view.trick:
        played_by[s] |= BIT[c]
    played = played_by[0] | played_by[1] | played_by[2]
    out_of_play = view.discard
    taken_seen = 0  # cards of a seen half the declarer took (a defender's view)
    unseen_unused = 0  # how many unused halves this seat has not seen
    for number, half in enumerate(_halves(view), start=1):
        taken = view.talon_half == number
        if half is None:
            unseen_unused += not taken
        elif taken:
            if declarer != me:
                taken_seen |= half
        else:
            out_of_play |= half
    hidden = AUSTRIAN_DECK_MASK & ~played & ~view.hand & ~out_of_play
    excluded = excluded_cards(view)
    allowed = [hidden & ~excluded[s] for s in range(SEATS)]
    sizes = [HAND_CARDS - played_by[s].bit_count() for s in range(SEATS)]
    for s in range(SEATS):
        if s != declarer:
            allowed[s] &= ~taken_seen
    if me != PUBLIC_SEAT:
        allowed[me] = sizes[me] = 0
    talon_size = HALF_CARDS * unseen_unused
    talon_allowed = hidden & ~taken_seen if talon_size else 0
    discard_size = 0
    if view.bid == "threesome" and declarer is not None and declarer != me:
        if view.phase == "discard":
            # the declarer's face-down discards so far show nowhere: none made yet, in this world
            sizes[declarer] += HALF_CARDS - view.discard.bit_count()
        elif view.phase != "talon":
            discard_size = HALF_CARDS - view.discard.bit_count()
    discard_allowed = hidden & HIDDEN_DISCARDABLE if discard_size else 0
    return AustrianLayout(
        seat=me,
        hidden=hidden,
        sizes=(*sizes, talon_size, discard_size),
        allowed=(*allowed, talon_allowed, discard_allowed),
        played_by=tuple(played_by),
        out_of_play=out_of_play,
    )


def rebuild(view: AustrianView, layout: AustrianLayout, dealt: list[int]) -> AustrianDeal | None:
    """The deal a dealing of the layout implies, replayed to the view's moment; ``None`` if the
    replay does not show the seat exactly ``view`` (or breaks a rule)."""
    me, declarer = view.seat, view.declarer
    hands_now = [view.hand if s == me else dealt[s] for s in range(SEATS)]
    discard = view.discard | dealt[DISCARD]
    unused = cards_of(dealt[TALON])  # the unseen unused halves, three cards each in card order
    halves = [0, 0]
    taken_hidden = False
    for i, half in enumerate(_halves(view)):
        if half is not None:
            halves[i] = half
        elif view.talon_half == i + 1:
            taken_hidden = True
        else:
            halves[i] = sum(BIT[c] for c in unused[:HALF_CARDS])
            unused = unused[HALF_CARDS:]
    initial = [hands_now[s] | layout.played_by[s] for s in range(SEATS)]
    if view.talon_half is not None and declarer is not None:
        holding = initial[declarer] | discard
        if taken_hidden:
            # which three of the declarer's cards came from the unseen half he took shows
            # nowhere in this seat's view: any three will do
            halves[view.talon_half - 1] = sum(BIT[c] for c in cards_of(holding)[:HALF_CARDS])
        initial[declarer] = holding & ~halves[view.talon_half - 1]
    try:
        deal = AustrianDeal(view.rules, view.dealer, initial, halves)
        _replay(deal, view, dealt[DISCARD])
    except (ValueError, IllegalActionError, IndexError):
        return None
    if (deal.public_view() if me == PUBLIC_SEAT else deal.view(me)) != view:
        return None
    return deal


def _replay(deal: AustrianDeal, view: AustrianView, hidden_discards: int) -> None:
    """Apply every action ``view`` shows (and the face-down discards) to a freshly dealt deal."""
    bids = [BID_BASE + BID_NAMES.index(name) for _, name in view.bids]
    if view.seat == view.declarer:
        discards = [e.card for e in view.events if e.kind == "discard"]
    else:
        shown = [e.card for e in view.events if e.kind == "discard_shown"]
        # the discard shown at the end, or its face-down cards dealt: the cards not shown face up
        unseen = (hidden_discards | view.discard) & ~sum(BIT[c] for c in shown)
        discards = cards_of(unseen) + shown
    plays = [c for t in view.tricks for _, c in t.plays] + [c for _, c in view.trick]
    bid_i = discard_i = play_i = 0
    while True:  # until the view's last action: its moment may be any phase
        phase = deal.phase
        if phase == "play":
            if play_i == len(plays):
                return
            action = plays[play_i]
            play_i += 1
        elif phase == "bidding":
            if bid_i == len(bids):
                return
            action = bids[bid_i]
            bid_i += 1
        elif phase == "talon":
            if view.talon_half is None:
                return
            action = TALON_BASE + view.talon_half - 1
        elif phase == "discard":
            if discard_i == len(discards):
                return
            action = DISCARD_BASE + discards[discard_i]
            discard_i += 1
        elif phase == "game":
            if view.game_type not in GAME_TYPES:
                return
            action = GAME_BASE + GAME_TYPES.index(view.game_type)
        elif phase == "end":
            return
        else:
            raise ValueError(f"the replay reached the {phase} phase")
        deal.apply(action)


__all__ = [
    "DISCARD",
    "HIDDEN_DISCARDABLE",
    "TALON",
    "AustrianLayout",
    "excluded_cards",
    "layout_of",
    "rebuild",
    "trick_exclusions",
    "trumps_above",
]

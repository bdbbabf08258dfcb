"""The rules bot's decisions in French Tarot for 3, 4 and 5 players (the dead-player table too)
and for 2 players: bids, the call, the écart, declarations, and the view read for card play."""

from __future__ import annotations

from collections.abc import Sequence

from atout.bots.rules.knowledge import FRENCH_PACK, Table, voids_of
from atout.bots.rules.strength import french_strength
from atout.cards import (
    ALL_CARDS,
    BIT,
    HALF_POINTS,
    KINGS_MASK,
    SUIT_MASKS,
    SUIT_OF,
    TRUMP,
    TRUMP_21,
    TRUMPS_MASK,
)
from atout.engine.actions import ACTIONS, ActionKind
from atout.engine.deal import HAND_SIZE
from atout.engine.two_player import TwoPlayerView
from atout.engine.view import SeatView

BID_THRESHOLDS = {"petite": 40.0, "pousse": 999.0, "garde": 56.0, "garde_sans": 71.0, "garde_contre": 81.0}
"""The least strength (:func:`french_strength`) for each contract; pousse is never bid."""


def active_seats(view: SeatView) -> tuple[int, ...]:
    """The seats that hold cards: all but the dead dealer at a dead-player table."""
    if view.rules.five_player_mode == "dead_player" and view.players == 5:
        return tuple(s for s in range(5) if s != view.dealer)
    return tuple(range(view.players))


def choose_bid(view: SeatView, legal: Sequence[int]) -> int:
    """The highest contract the hand is worth, if still biddable; else pass."""
    strength = french_strength(view.hand, len(active_seats(view)))
    best = legal[0]
    for action in legal[1:]:
        name = ACTIONS[action].bid
        if name is not None and strength >= BID_THRESHOLDS[name]:
            best = action
    return best


def choose_call(view: SeatView, legal: Sequence[int]) -> int:
    """A king (or the card the ladder allows) not held, in the suit the hand supports best."""

    def support(action: int) -> tuple[bool, int]:
        card = action % 78
        suit = view.hand & SUIT_MASKS[SUIT_OF[card]]
        points = sum(HALF_POINTS[c] for c in range(78) if suit >> c & 1)
        return (not view.hand >> card & 1, 2 * suit.bit_count() + points)

    return max(legal, key=support)


def choose_discard(view: SeatView, legal: Sequence[int]) -> int:
    """One card of the écart: empty a short suit (a void), put unguarded honours safe, keep trumps."""
    hand = view.hand
    left = hand.bit_count() - HAND_SIZE[len(active_seats(view))]

    def score(action: int) -> tuple[int, int, int]:
        card = action % 78
        if SUIT_OF[card] == TRUMP:
            return (-1, 0, -card)  # trumps only when forced, the lowest first
        suit = hand & SUIT_MASKS[SUIT_OF[card]]
        guarded = bool(suit & KINGS_MASK)
        voidable = not guarded and suit.bit_count() <= left
        return (2 if voidable else 1, -suit.bit_count() if voidable else HALF_POINTS[card], HALF_POINTS[card])

    return max(legal, key=score)


def choose_declaration(view: SeatView, legal: Sequence[int]) -> int:
    """Chelem (only a hand of all masters), poignée (when it pays), misère (always), Excuse sec."""
    kind = ACTIONS[legal[0]].kind
    hand = view.hand
    if kind is ActionKind.CHELEM:
        plain = hand & ~TRUMPS_MASK & ((1 << 77) - 1)
        sure = not plain & ~KINGS_MASK and hand >> TRUMP_21 & 1 and (hand & TRUMPS_MASK).bit_count() >= 14
        return legal[1] if sure else legal[0]
    if kind is ActionKind.POIGNEE:
        attack = view.seat in (view.taker, view.partner)
        pays = view.rules.poignee_beneficiary == "declaring_side" or attack
        if not pays:
            # a defender shows his trumps only when so many of them leave the taker short
            pays = (hand & TRUMPS_MASK).bit_count() >= view.rules.poignee_levels(len(active_seats(view)))[
                0
            ] + 2
        return legal[-1] if pays else legal[0]
    if kind is ActionKind.MISERE:
        return legal[-1]
    if kind is ActionKind.EXCUSE_SEC:
        weak = french_strength(hand, len(active_seats(view))) < BID_THRESHOLDS["petite"]
        return legal[-1] if weak else legal[0]  # legal[-1] is keep_hand unless the hand qualifies
    return legal[0]


def french_table(view: SeatView, legal: Sequence[int]) -> Table:
    """The card-play knowledge of a 3-5 player seat."""
    seats = active_seats(view)
    me, taker = view.seat, view.taker
    voids = voids_of(FRENCH_PACK, view.tricks, view.trick)
    partner = _partner(view, seats, voids)
    if taker is None:
        attack: set[int] = set()
    elif partner is None:
        attack = {taker}
    else:
        attack = {taker, partner} - {-1}
    known = partner is not None or len(seats) < 5
    mine = me in attack

    def good(seat: int) -> bool:
        if seat == me:
            return True
        if not known:
            return False  # a 5-player partner not yet found: trust nobody
        return (seat in attack) == mine

    played = view.played()
    in_trick = {s for s, _ in view.trick}
    later = tuple(s for s in seats if s != me and s not in in_trick)
    called = view.called_card
    lead_low_in = -1
    if me == taker and not known and called is not None:
        lead_low_in = SUIT_OF[called]
    return Table(
        pack=FRENCH_PACK,
        me=me,
        hand=view.hand,
        legal=_mask(legal),
        plays=view.trick,
        later=later,
        unseen=ALL_CARDS & ~played & ~view.hand & ~view.ecart,
        voids=voids,
        good=good,
        attacker=mine,
        taker=taker,
        side_won_all=all(good(t.winner) for t in view.tricks),
        tricks_left=view.hand.bit_count(),
        lead_low_in=lead_low_in,
    )


def _partner(view: SeatView, seats: tuple[int, ...], voids: dict[int, set[int]]) -> int | None:
    """The taker's partner if known (-1: the taker plays alone), else ``None``.

    Known from the view, from the ``alone`` event or a called card in the seen chien, or
    deduced: only one seat left that may hold the called card."""
    if len(seats) < 5 or view.taker is None:
        return None
    if view.partner is not None:
        return view.partner
    called = view.called_card
    if called is None:
        return None
    if any(e.kind == "alone" for e in view.events) or (view.chien or 0) >> called & 1:
        return -1
    if view.seat == view.taker and view.hand >> called & 1:
        return -1
    suit = SUIT_OF[called]
    candidates = [s for s in seats if s not in (view.taker, view.seat) and suit not in voids.get(s, ())]
    if view.seat != view.taker and len(candidates) == 1:
        return candidates[0]
    return None


def two_player_table(view: TwoPlayerView, legal: Sequence[int]) -> Table:
    """The card-play knowledge of a 2-player seat: the opponent is the only foe."""
    me = view.seat
    voids = voids_of(FRENCH_PACK, view.tricks, view.trick)
    available = view.available
    later = () if view.trick else (1 - me,)
    left = view.hand.bit_count() + sum(view.own_pile_sizes)
    return Table(
        pack=FRENCH_PACK,
        me=me,
        hand=available,
        legal=_mask(legal),
        plays=view.trick,
        later=later,
        unseen=ALL_CARDS & ~view.played() & ~available,
        voids=voids,
        good=lambda seat: seat == me,
        attacker=True,
        taker=None,
        side_won_all=all(t.winner == me for t in view.tricks),
        tricks_left=left,
    )


def _mask(legal: Sequence[int]) -> int:
    mask = 0
    for action in legal:
        mask |= BIT[action % 78]
    return mask

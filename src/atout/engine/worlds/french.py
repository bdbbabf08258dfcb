"""French Tarot worlds (3 to 5 players): whole deals consistent with what one seat's view shows.

:func:`layout_of` reads a view into a :class:`Layout`: the cards whose place the seat does not
know (``hidden``), the places they may be (the other seats' hands, and a hidden chien in a
garde sans or contre, or the hidden part of the taker's écart when the seat is not the taker),
how many hidden cards each place holds, and which cards each place cannot hold
(:mod:`.inference`: voids and trump shortage shown by play, poignées, misères, the écart rules,
the called card). :func:`rebuild` makes the :class:`FrenchDeal` a dealing of the layout implies
(its dealt hands and chien) and replays every action the view shows (bids, call, écart, chelem,
declarations, cards); the world is kept only if the rebuilt deal shows the seat exactly the view
it has, so a world is always consistent with the view. A public view (a spectator's, the dead
player's) has no hand and every seat's hand hidden.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from atout.cards import ALL_CARDS, BIT, KINGS_MASK, TRUMPS_MASK, cards_of
from atout.engine.actions import (
    ANNOUNCE_CHELEM,
    ANNOUNCE_PARTIAL_SLAM,
    BID_BASE,
    BID_NAMES,
    CALL_BASE,
    DISCARD_BASE,
    KEEP_HAND,
    MISERE_BASE,
    MISERE_NAMES,
    NO_CHELEM,
    POIGNEE_BASE,
    POIGNEE_NAMES,
    SHOW_DEFAULT,
)
from atout.engine.deal import CHIEN_SIZE, HAND_SIZE
from atout.engine.errors import IllegalActionError
from atout.engine.french import FrenchDeal, cancels_dealt
from atout.engine.view import PUBLIC_SEAT, SeatView
from atout.engine.worlds.inference import DISCARDABLE_PLAIN, excluded_cards, held_for_call

CHIEN_TAKEN = ("petite", "pousse", "garde")
"""Contracts in which the taker takes the chien (shown to all) and discards."""


CardPlayer = Callable[[FrenchDeal, int], None]
"""Plays one card of the replay in a deal (by default ``deal.apply``): a hook that may judge the play."""


@dataclass(frozen=True)
class Layout:
    """Where the cards a seat cannot see may be.

    Places are the seats ``0..n-1`` and, last, an extra place: the chien while unseen (before it
    is shown, or in a garde sans or contre), or the hidden part of the écart (another seat took
    the chien), or nothing (size 0).
    """

    seat: int
    hidden: int
    """The cards whose place is unknown."""
    known: tuple[int, ...]
    """Cards known to be in each seat's hand now (the seat's own hand, shown poignée cards, the
    called card once the partner is known)."""
    sizes: tuple[int, ...]
    """How many hidden cards each place holds (seats, then the extra place)."""
    allowed: tuple[int, ...]
    """The hidden cards each place may hold (seats, then the extra place)."""
    extra: str | None
    """``chien``, ``ecart`` or ``None``."""
    played_by: tuple[int, ...]
    """The cards each seat has played."""


def layout_of(view: SeatView) -> Layout:
    """The layout a French view shows, in any phase (a public view: every hand hidden)."""
    n, me = view.players, view.seat
    played_by = [0] * n
    for trick in view.tricks:
        for s, c in trick.plays:
            played_by[s] |= BIT[c]
    for s, c in view.trick:
        played_by[s] |= BIT[c]
    played = view.played()
    taker, contract = view.taker, view.contract
    known = [0] * n
    if me != PUBLIC_SEAT:
        known[me] = view.hand
    for s, _level, shown in view.poignees:
        if s != me:
            known[s] |= shown & ~played & ~(view.ecart if s == taker else 0)
    if view.called_card is not None and view.partner is not None and view.partner != me:
        known[view.partner] |= BIT[view.called_card] & ~played
    # a queen (a cavalier, a valet) is called only by a taker who held every king (and queen...)
    held = held_for_call(view.called_card) & ~played & ~view.hand if taker is not None else 0
    if taker is not None and taker != me:
        known[taker] |= held & KINGS_MASK  # never discarded: still in his hand
    ecart_known = view.ecart
    hidden = ALL_CARDS & ~played & ~ecart_known
    for k in known:
        hidden &= ~k
    excluded = excluded_cards(view)
    allowed = [hidden & ~excluded[s] for s in range(n)]
    if me != PUBLIC_SEAT:
        allowed[me] = 0
    chien_size = CHIEN_SIZE[n]
    extra: str | None = None
    extra_size = 0
    extra_allowed = 0
    if taker is not None and taker != me:
        for s in range(n):
            if s != taker:
                allowed[s] &= ~held  # in the taker's hand, or in his écart
    if contract in CHIEN_TAKEN and taker is not None and view.chien is not None:
        if taker != me:
            for s in range(n):
                if s != taker:
                    allowed[s] &= ~view.chien
            extra, extra_size = "ecart", chien_size - ecart_known.bit_count()
            extra_allowed = hidden & DISCARDABLE_PLAIN
    elif view.chien is None:  # unseen: in a garde sans or contre, or before it is shown
        extra, extra_size, extra_allowed = "chien", chien_size, hidden & ~held
    else:  # shown at the end of a garde sans or contre: in no hand
        hidden &= ~view.chien
        allowed = [a & ~view.chien for a in allowed]
    in_hand = HAND_SIZE[n]
    sizes = [in_hand - played_by[s].bit_count() - known[s].bit_count() for s in range(n)]
    if me != PUBLIC_SEAT:
        sizes[me] = 0
    return Layout(
        seat=me,
        hidden=hidden,
        known=tuple(known),
        sizes=(*sizes, extra_size),
        allowed=(*allowed, extra_allowed),
        extra=extra,
        played_by=tuple(played_by),
    )


def dealing_of(view: SeatView, layout: Layout, dealt: list[int]) -> tuple[list[int], int, int]:
    """The dealt hands, the dealt chien and the écart that a layout's dealing implies."""
    n, me = view.players, view.seat
    taker, contract = view.taker, view.contract
    extra = dealt[n]
    chien = view.chien if view.chien is not None else extra
    ecart = 0
    if contract in CHIEN_TAKEN and taker is not None:
        ecart = view.ecart | (extra if taker != me else 0)
    initial = [layout.known[s] | dealt[s] | layout.played_by[s] for s in range(n)]
    if taker is not None and contract in CHIEN_TAKEN:
        initial[taker] = (initial[taker] | ecart) & ~chien
    return initial, chien, ecart


def rebuild(
    view: SeatView, layout: Layout, dealt: list[int], play: CardPlayer | None = None
) -> FrenchDeal | None:
    """The deal a layout's dealing implies, replayed to the view's moment (each card played by
    ``play`` when given); ``None`` if the replay does not show the seat exactly ``view`` (or breaks
    a rule)."""
    deal = replayed(view, layout, dealt, play)
    if deal is None or seen_by(deal, view.seat) != view:
        return None
    return deal


def replayed(
    view: SeatView, layout: Layout, dealt: list[int], play: CardPlayer | None = None
) -> FrenchDeal | None:
    """:func:`rebuild` without comparing the views: ``None`` only if the replay breaks a rule."""
    initial, chien, ecart = dealing_of(view, layout, dealt)
    try:
        deal = FrenchDeal(view.rules, view.dealer, initial, chien)
        replay(deal, view, ecart, dealt[view.players] if view.taker != view.seat else 0, play)
    except (ValueError, IllegalActionError, IndexError):
        return None
    return deal


def seen_by(deal: FrenchDeal, seat: int) -> SeatView:
    """What ``seat`` sees of ``deal`` (the public view for :data:`PUBLIC_SEAT`)."""
    return deal.public_view() if seat == PUBLIC_SEAT else deal.view(seat)


def replays_alike(view: SeatView) -> bool:
    """Whether, under this view's rules, a layout's dealing replays to the view exactly when the
    dealt deal is not cancelled (a petit sec): then :func:`rebuild_like` may stand for
    :func:`rebuild`. Not with a petit imprenable (it changes how the Petit plays) nor when the
    Excuse must be played before the last trick (a duty the layout does not read)."""
    rules = view.rules
    return (
        rules.petit_sec_rule != "petit_imprenable"
        and rules.excuse_last_trick != "must_play_before_last"
        and not (rules.players == 5 and rules.five_player_mode == "dead_player")
    )


def rebuild_like(template: FrenchDeal, view: SeatView, layout: Layout, dealt: list[int]) -> FrenchDeal | None:
    """:func:`rebuild` without the replay: ``template``, a world rebuilt for this view, with the
    cards of another dealing put in place (hands, chien, écart, the 5-player partner, the taker's
    hidden discards in the event log); ``None`` if that dealing is a cancelled deal. For views
    that :func:`replays_alike`, the world equals the one :func:`rebuild` makes, but for
    ``history``, which keeps the template's declaration steps (a record, never read in play)."""
    initial, chien, ecart = dealing_of(view, layout, dealt)
    if cancels_dealt(view.rules, initial):
        return None  # a petit sec: the deal would have been cancelled
    return filled_in(template, view, layout, dealt, (initial, chien, ecart))


def filled_in(
    template: FrenchDeal,
    view: SeatView,
    layout: Layout,
    dealt: list[int],
    dealing: tuple[list[int], int, int],
) -> FrenchDeal:
    """:func:`rebuild_like` for a dealing known not to be cancelled, of which ``dealing`` is
    :func:`dealing_of`."""
    n, me = view.players, view.seat
    initial, chien, ecart = dealing
    world = template.clone()
    world.initial_hands = tuple(initial)
    world.initial_chien = world.chien = chien
    world.hands = [layout.known[s] | dealt[s] for s in range(n)]
    world.ecart = ecart
    world._legal = -1
    called, taker = world.called_card, world.taker
    if called >= 0:
        holder = next((s for s in range(n) if initial[s] >> called & 1), -1)
        world.partner = holder if holder != taker else -1
    hidden = dealt[n] if taker != me and view.contract in CHIEN_TAKEN else 0
    if hidden:  # the taker's hidden discards, in the order the replay makes them
        discards = iter(cards_of(hidden))
        log, history = world._log, world.history
        first = next(i for i, action in enumerate(history) if DISCARD_BASE <= action < DISCARD_BASE + 78)
        for i, event in enumerate(log):
            if event.kind == "discard" and not BIT[event.card] & TRUMPS_MASK:
                card = next(discards)
                log[i] = event._replace(card=card)
                history[first] = DISCARD_BASE + card
                first += 1
    return world


def replay(
    deal: FrenchDeal,
    view: SeatView,
    ecart: int,
    hidden_discards: int,
    play: CardPlayer | None = None,
) -> None:
    """Apply every action ``view`` shows (and the hidden discards) to a freshly dealt deal, each
    card by ``play`` (``deal.apply`` by default)."""
    bids = [BID_BASE + BID_NAMES.index(name) for _, name in view.bids]
    if view.seat == view.taker:
        discards = [e.card for e in view.events if e.kind == "discard"]
    else:
        shown = [e.card for e in view.events if e.kind == "discard_shown"]
        # the écart shown at the end, or the hidden discards dealt: the cards not shown face up
        unseen = cards_of((hidden_discards | ecart) & ~sum(BIT[c] for c in shown))
        # at the écart, the hidden discards show nowhere: the shown ones first
        discards = shown + unseen if view.phase == "discard" else unseen + shown
    if ecart and sum(BIT[c] for c in discards) != ecart:
        raise ValueError("the écart does not match")
    poignee = {s: POIGNEE_NAMES.index(level) for s, level, _ in view.poignees}
    displays = {s: cards for s, _, cards in view.poignees}
    misere = {e.seat: MISERE_NAMES.index(e.misere) for e in view.events if e.kind == "misere"}
    partial = any(e.kind == "partial_slam" for e in view.events)
    plays = [c for t in view.tricks for _, c in t.plays] + [c for _, c in view.trick]
    bid_i = discard_i = play_i = 0
    before_play = view.phase not in ("play", "end")
    decided_chelem = any(e.kind in ("chelem", "partial_slam") for e in view.events)
    while True:  # until the view's moment: it may be in any phase
        phase = deal.phase
        at_moment = before_play and phase == view.phase and deal.current_player == view.current_player
        if at_moment and seen_by(deal, view.seat) == view:
            return
        if phase == "play":
            if play_i == len(plays):
                return
            action = plays[play_i]
            play_i += 1
            if play is None:
                deal.apply(action)
            else:
                play(deal, action)
            continue
        elif phase == "end":
            return
        elif phase == "bidding":
            if bid_i == len(bids):
                return
            action = bids[bid_i]
            bid_i += 1
        elif phase == "call":
            if view.called_card is None:
                return
            action = CALL_BASE + view.called_card
        elif phase == "discard":
            if discard_i == len(discards):
                return
            action = DISCARD_BASE + discards[discard_i]
            discard_i += 1
        elif phase == "chelem":
            if not decided_chelem:
                return
            if partial:
                action = ANNOUNCE_PARTIAL_SLAM
            else:
                action = ANNOUNCE_CHELEM if view.chelem_announced else NO_CHELEM
        elif phase == "poignee":
            action = POIGNEE_BASE + poignee.get(deal.current_player, 0)
            legal = deal.legal_actions()
            if legal[0] == SHOW_DEFAULT:  # the trumps the seat chose to show (§3.7)
                display = displays[deal.current_player]
                action = next(a for a in legal[1:] if a.card is not None and display >> a.card & 1)
        elif phase == "misere":
            action = MISERE_BASE + misere.get(deal.current_player, 0)
        elif phase == "excuse_sec":
            action = KEEP_HAND
        else:
            raise ValueError(f"the replay reached the {phase} phase")
        deal.apply(action)


__all__ = [
    "CHIEN_TAKEN",
    "CardPlayer",
    "Layout",
    "dealing_of",
    "filled_in",
    "layout_of",
    "rebuild",
    "rebuild_like",
    "replay",
    "replays_alike",
    "seen_by",
]

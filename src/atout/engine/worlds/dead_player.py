"""Worlds of a 5-player deal with a dead player: the four active seats' 4-player deal.

A table seat's view reads as a view of the inner 4-player deal (:func:`inner_view`: seats
renumbered, the dead dealer's view a public one); the French layout deals its hidden cards, the
inner deal is replayed, and the world is the 5-player deal dealt alike with the same actions. It
is kept only if it shows the table seat exactly its view.
"""

from __future__ import annotations

import dataclasses

from atout.engine.dead_player import DeadPlayerDeal, active_seats, inner_rules
from atout.engine.errors import IllegalActionError
from atout.engine.events import SEAT_FIELDS, Event
from atout.engine.view import PUBLIC_SEAT, SeatView, TrickView
from atout.engine.worlds.french import Layout, layout_of, replayed


def inner_view(view: SeatView) -> SeatView:
    """A table seat's view as the view of the inner 4-player deal (in inner seats; what the replay
    reads: bids, declarations, écart, tricks and events)."""
    seats = active_seats(view.rules, view.dealer)
    inner_of = {outer: i for i, outer in enumerate(seats)}

    def seat(outer: int) -> int:
        return inner_of.get(outer, outer)

    def event(e: Event) -> Event:
        changes = {
            name: seat(value)
            for name, value in zip(e._fields, e, strict=True)
            if name in SEAT_FIELDS and isinstance(value, int)
        }
        return e._replace(**changes)  # type: ignore[arg-type]

    return dataclasses.replace(
        view,
        seat=inner_of.get(view.seat, PUBLIC_SEAT),
        players=len(seats),
        dealer=len(seats) - 1,
        rules=inner_rules(view.rules),
        current_player=seat(view.current_player),
        bids=tuple((seat(s), b) for s, b in view.bids),
        taker=None if view.taker is None else seat(view.taker),
        poignees=tuple((seat(s), level, shown) for s, level, shown in view.poignees),
        trick=tuple((seat(s), c) for s, c in view.trick),
        tricks=tuple(TrickView(tuple((seat(s), c) for s, c in t.plays), seat(t.winner)) for t in view.tricks),
        events=tuple(event(e) for e in view.events if e.kind != "end"),
        scores=None,
    )


def layout_of_dead(view: SeatView) -> tuple[SeatView, Layout]:
    """The inner view of a table seat's view and its layout (places in inner seats)."""
    inner = inner_view(view)
    return inner, layout_of(inner)


def rebuild_dead(view: SeatView, inner: SeatView, layout: Layout, dealt: list[int]) -> DeadPlayerDeal | None:
    """The 5-player deal a dealing of the inner layout implies, replayed to the view's moment;
    ``None`` if it does not show the table seat exactly ``view``."""
    played = replayed(inner, layout, dealt)
    if played is None:
        return None
    seats = active_seats(view.rules, view.dealer)
    hands = [0] * view.players
    for i, outer in enumerate(seats):
        hands[outer] = played.initial_hands[i]
    try:
        world = DeadPlayerDeal(view.rules, view.dealer, hands, played.initial_chien)
        for action in played.history:
            world.apply(action)
    except (ValueError, IllegalActionError):
        return None
    if (world.public_view() if view.seat == PUBLIC_SEAT else world.view(view.seat)) != view:
        return None
    return world


__all__ = ["inner_view", "layout_of_dead", "rebuild_dead"]

"""What one seat may know of a deal: the only thing bots and front ends receive."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Literal, TypeVar

from atout.cards import CardSet
from atout.engine.actions import Action
from atout.engine.events import Event
from atout.engine.phase import Phase
from atout.rules import Rules

PUBLIC_SEAT: Final = -1
"""The ``seat`` of a public view (``deal.public_view()``): what a spectator may know, the view of
no seat. Its ``hand`` is empty, it has no legal actions, its events and phase are those anyone
but the acting seat and the taker sees; on the wire its seat is ``null`` (docs/protocol.md)."""


@dataclass(frozen=True)
class TrickView:
    """A finished trick: ``(seat, card)`` in playing order, and its winner."""

    plays: tuple[tuple[int, int], ...]
    winner: int
    cards: int = field(init=False, repr=False, compare=False)
    """Mask of the trick's cards."""

    def __post_init__(self) -> None:
        mask = 0
        for _, card in self.plays:
            mask |= 1 << card
        object.__setattr__(self, "cards", mask)


@dataclass(frozen=True)
class SeatView:
    """One seat's knowledge of a deal.

    Card sets are masks (see :mod:`atout.cards`); :meth:`hand_set` and friends wrap them.
    ``chien`` is ``None`` while unseen; ``ecart`` holds only the face-up trumps for
    anyone but the taker; ``partner`` is ``None`` until this seat may know it.
    """

    game: ClassVar[Literal["french"]] = "french"
    """Which view this is, for the wire and for code that serves every game."""

    seat: int
    players: int
    dealer: int
    rules: Rules
    phase: Phase
    current_player: int
    hand: int
    legal_actions: tuple[Action, ...]
    bids: tuple[tuple[int, str], ...]
    taker: int | None
    contract: str | None
    called_card: int | None
    partner: int | None
    chien: int | None
    ecart: int
    chelem_announced: bool
    poignees: tuple[tuple[int, str, int], ...]
    trick: tuple[tuple[int, int], ...]
    tricks: tuple[TrickView, ...]
    events: tuple[Event, ...]
    scores: tuple[int, ...] | None

    def hand_set(self) -> CardSet:
        return CardSet(self.hand)

    def to_json(self) -> dict[str, Any]:
        """The wire form of this view (:mod:`atout.engine.wire`, docs/protocol.md)."""
        from atout.engine.wire import view_to_json

        return view_to_json(self)

    def played(self) -> int:
        """Mask of every card played so far, the current trick included."""
        mask = 0
        for trick in self.tricks:
            mask |= trick.cards
        for _, card in self.trick:
            mask |= 1 << card
        return mask


# ---------------------------------------------------------------------- fresh values
# A view is a value: it shares no object with the deal nor with another view, so that nothing
# written into one (even through ``object.__setattr__``) reaches the deal or a later view.
T = TypeVar("T")
_new = object.__new__


def fresh_tricks(tricks: Iterable[TrickView]) -> tuple[TrickView, ...]:
    """Copies of finished tricks (their plays are tuples of ints, shared safely)."""
    out = []
    for trick in tricks:
        copy = _new(TrickView)
        copy.__dict__.update(trick.__dict__)
        out.append(copy)
    return tuple(out)


def fresh_rules(rules: Rules) -> Rules:
    """A copy of ``rules`` equal to it, sharing no object that could be written to."""
    copy = _new(Rules)
    state = rules.__dict__.copy()
    thresholds = state["poignee_thresholds"]
    state["poignee_thresholds"] = type(thresholds)(thresholds)
    if state["partial_slam"] is not None:
        state["partial_slam"] = detached(state["partial_slam"])
    copy.__dict__.update(state)
    return copy


def detached(value: T) -> T:
    """A copy of ``value`` sharing no writable object with it: dataclass instances, rules,
    tuples (named ones too), lists and dicts are copied all the way down."""
    if value is None or isinstance(value, (int, str, float)):
        return value
    if isinstance(value, Rules):
        return fresh_rules(value)  # type: ignore[return-value]
    if isinstance(value, tuple):
        items = [detached(v) for v in value]
        if hasattr(value, "_fields"):
            return type(value)(*items)
        return type(value)(items)
    if isinstance(value, list):
        return type(value)(detached(v) for v in value)
    if isinstance(value, dict):
        return type(value)({k: detached(v) for k, v in value.items()})
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and hasattr(value, "__dict__"):
        copy = _new(type(value))
        copy.__dict__.update({k: detached(v) for k, v in value.__dict__.items()})
        return copy
    return value

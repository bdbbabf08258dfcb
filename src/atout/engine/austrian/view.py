"""What one seat may know of an Austrian Tarock deal: the only thing bots and front ends receive."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from atout.cards import CardSet
from atout.engine.austrian.actions import AustrianAction
from atout.engine.events import Event
from atout.engine.phase import Phase
from atout.engine.view import TrickView
from atout.rules import Rules


@dataclass(frozen=True)
class AustrianView:
    """One seat's knowledge of an Austrian deal. Card sets are masks (see :mod:`atout.cards`).

    ``first_half`` and ``second_half`` are ``None`` while this seat has not seen them;
    ``discard`` holds only the face-up trumps for anyone but the declarer. Once a played deal
    is over the count is open: both halves and the whole discard are shown.
    """

    game: ClassVar[Literal["austrian"]] = "austrian"
    """Which view this is, for the wire and for code that serves every game."""

    seat: int
    dealer: int
    rules: Rules
    phase: Phase
    current_player: int
    hand: int
    legal_actions: tuple[AustrianAction, ...]
    bids: tuple[tuple[int, str], ...]
    declarer: int | None
    bid: str | None
    talon_half: int | None
    game_type: str | None
    first_half: int | None
    second_half: int | None
    discard: int
    trick: tuple[tuple[int, int], ...]
    tricks: tuple[TrickView, ...]
    events: tuple[Event, ...]
    scores: tuple[int, ...] | None

    @property
    def players(self) -> int:
        return 3

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
            for _, card in trick.plays:
                mask |= 1 << card
        for _, card in self.trick:
            mask |= 1 << card
        return mask

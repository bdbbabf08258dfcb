"""What one seat may know of a deal: the only thing bots and front ends receive."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from atout.cards import CardSet
from atout.engine.actions import Action
from atout.engine.events import Event
from atout.engine.phase import Phase
from atout.rules import Rules


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

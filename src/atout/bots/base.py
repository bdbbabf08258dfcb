"""The bot protocol: ``choose(view, legal) -> action``.

A bot sees only what its seat may know: the game's view of that seat (:class:`SeatView` for
French Tarot with 3-5 players, :class:`TwoPlayerView` for 2 players, :class:`AustrianView` for
Austrian Tarock) and the current player's legal actions. It never receives the deal itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from atout.engine.wire import View

__all__ = ["Bot", "View"]


class Bot(Protocol):
    """A computer player. It decides from its own seat's view only."""

    name: str

    def choose(self, view: View, legal: Sequence[int]) -> int:
        """One of ``legal``, the current player's legal actions (French or Austrian action ids)."""
        ...

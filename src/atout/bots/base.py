"""The bot protocol: ``choose(view, legal) -> action``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from atout.engine.actions import Action
from atout.engine.view import SeatView


class Bot(Protocol):
    """A computer player. It decides from its own seat's view only."""

    name: str

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """One of ``legal``, the current player's legal actions."""
        ...

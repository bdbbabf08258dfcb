"""A player that picks uniformly among the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence

from atout.engine.actions import Action
from atout.engine.view import SeatView


class RandomBot:
    """Uniformly random legal play; seeded for reproducible games."""

    name = "random"

    def __init__(self, rng: random.Random | int | None = None) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    def choose(self, view: SeatView | None, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        return legal[int(self.rng.random() * len(legal))]

"""A player that picks uniformly among the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

A = TypeVar("A", bound=int)


class RandomBot:
    """Uniformly random legal play, in every game; seeded for reproducible games."""

    name = "random"

    def __init__(self, rng: random.Random | int | None = None) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    def choose(self, view: object, legal: Sequence[A]) -> A:
        """One of ``legal``, uniformly; the view is not needed to play at random."""
        if not legal:
            raise ValueError("no legal action to choose from")
        return legal[int(self.rng.random() * len(legal))]

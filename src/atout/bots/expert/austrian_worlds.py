"""The expert's Austrian worlds: the engine's (:mod:`atout.engine.worlds.austrian`), drawn by
:class:`~atout.engine.worlds.Resampler` with its quicker, close-to-uniform dealing."""

from __future__ import annotations

import random

from atout.engine.austrian.deal import AustrianDeal
from atout.engine.austrian.view import AustrianView
from atout.engine.worlds import NoWorldError, Resampler


def sample_world(view: AustrianView, rng: random.Random, tries: int = 20) -> AustrianDeal | None:
    """One deal consistent with ``view``, or ``None`` if ``tries`` dealings found none."""
    try:
        world = Resampler(view, tries=tries, exact=False).draw(rng)
    except NoWorldError:
        return None
    assert isinstance(world, AustrianDeal)
    return world


__all__ = ["sample_world"]

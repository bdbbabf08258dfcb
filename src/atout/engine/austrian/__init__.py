"""Austrian three-player Tarock (rule book §1.2, §5): its own game beside French Tarot.

``cards`` (the 54-card pack, ranks and the count in threes), ``actions``, ``tricks`` (follow,
trump, overtrump; who wins), ``deal`` (the state machine :class:`AustrianDeal`), ``view`` and
``invariants``.
"""

from atout.engine.austrian.actions import AustrianAction
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.austrian.view import AustrianView

__all__ = ["AustrianAction", "AustrianDeal", "AustrianView"]

"""What a French Tarot seat can deduce from its view: the engine's (:mod:`atout.engine.worlds.inference`)."""

from atout.engine.worlds.inference import (
    COURTS_MASK,
    DISCARDABLE_PLAIN,
    declaration_exclusions,
    excluded_cards,
    held_for_call,
    play_exclusions,
    trick_exclusions,
    trumps_above,
    trumps_below,
)

__all__ = [
    "COURTS_MASK",
    "DISCARDABLE_PLAIN",
    "declaration_exclusions",
    "excluded_cards",
    "held_for_call",
    "play_exclusions",
    "trick_exclusions",
    "trumps_above",
    "trumps_below",
]

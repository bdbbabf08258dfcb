"""The stage of a deal, one enum for every game (rule book §3-§5).

French Tarot uses EXCUSE_SEC, BIDDING, CALL, DISCARD, CHELEM, MISERE, POIGNEE, PLAY and END
(the 2-player game only CHELEM, PLAY and END); Austrian Tarock uses BIDDING, TALON, DISCARD,
GAME, PLAY and END.

>>> Phase("talon"), Phase.PLAY == "play"
(<Phase.TALON: 'talon'>, True)
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """The stage of a deal, which decides what the current player may do."""

    EXCUSE_SEC = "excuse_sec"
    BIDDING = "bidding"
    CALL = "call"
    TALON = "talon"
    DISCARD = "discard"
    GAME = "game"
    CHELEM = "chelem"
    MISERE = "misere"
    POIGNEE = "poignee"
    PLAY = "play"
    END = "end"


__all__ = ["Phase"]

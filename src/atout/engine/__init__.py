"""The deal engine: one deal as a state machine, driven by integer actions."""

from atout.engine.actions import ACTIONS, N_ACTIONS, Action, ActionKind, parse_action
from atout.engine.errors import IllegalActionError
from atout.engine.events import Event
from atout.engine.french import FrenchDeal
from atout.engine.phase import Phase
from atout.engine.two_player import TwoPlayerDeal, TwoPlayerView
from atout.engine.view import SeatView, TrickView

__all__ = [
    "ACTIONS",
    "N_ACTIONS",
    "Action",
    "ActionKind",
    "Event",
    "FrenchDeal",
    "IllegalActionError",
    "Phase",
    "SeatView",
    "TrickView",
    "TwoPlayerDeal",
    "TwoPlayerView",
    "parse_action",
]

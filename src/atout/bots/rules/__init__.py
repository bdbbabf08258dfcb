"""The reference ``rules`` bot: hand-written rules for every game and decision of the engine.

It decides from its seat's view alone, in well under a millisecond: bids from a hand-strength
formula (:mod:`.strength`), the call, écart and declarations (:mod:`.french`, :mod:`.austrian`),
and card play (:mod:`.play`) over what the view shows (:mod:`.knowledge`).
"""

from __future__ import annotations

from collections.abc import Sequence

from atout.bots.base import View
from atout.bots.rules import austrian, french
from atout.bots.rules.play import choose_card
from atout.engine.actions import ACTIONS, ActionKind


class RulesBot:
    """The reference bot; deterministic (the same view and legal actions give the same action)."""

    name = "rules"

    def choose(self, view: View, legal: Sequence[int]) -> int:
        """One of ``legal``, decided from ``view`` alone."""
        action = self._decide(view, legal)
        return next(a for a in legal if a == action)

    def _decide(self, view: View, legal: Sequence[int]) -> int:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        if view.game == "austrian":
            if view.phase == "play":
                return choose_card(austrian.austrian_table(view, legal))
            return austrian.choose(view, legal)
        if view.game == "two_player":
            if view.phase == "play":
                return choose_card(french.two_player_table(view, legal))
            return legal[0]  # the 2-player chelem: never announced
        kind = ACTIONS[legal[0]].kind
        if kind is ActionKind.PLAY:
            return choose_card(french.french_table(view, legal))
        if kind is ActionKind.BID:
            return french.choose_bid(view, legal)
        if kind is ActionKind.CALL:
            return french.choose_call(view, legal)
        if kind is ActionKind.DISCARD:
            return french.choose_discard(view, legal)
        return french.choose_declaration(view, legal)

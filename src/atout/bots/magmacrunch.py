"""An independent bot: the computer players of the ``magmacrunch-tarot`` package, seated at atout's table.

``magmacrunch-tarot`` (PyPI, not part of atout) is a terminal French Tarot for four against three
computers; its ``tarot.rules`` module holds their decisions as plain functions of the hand and
the trick: ``ai_bid`` (a hand-strength formula, the suggested bid seven times in ten, else one
step up or a pass), ``ai_discards``, ``ai_card``, and ``poignee`` (every poignée a computer holds is
declared). This module only translates: a seat's view into that package's cards, bids and trick,
and its answer back into an atout action. It reads nothing but the seat's view.

It is an optional peer, not MIT but under the PolyForm Noncommercial License 1.0.0 (its package
metadata says so; README, "Licence"). Install it beside atout with the extra that pins it (its own
dependencies, that project's terminal arcade, serve only its screens)::

    pip install -e '.[magmacrunch]'

It plays the 4-player French game only (its decisions know no called king, no 3- or 5-player
chien and no Austrian game); :meth:`MagmacrunchBot.supports` says so and the arena checks it
before a run. Decisions that game does not have take atout's "no" (no chelem, no misère, keep a
hand with the Excuse sec), and a poussée, where the rules allow it, counts as a prise for it.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from typing import Any

from atout.cards import EXCUSE, SUIT_OF, TRUMP, cards_of, rank_of
from atout.engine.actions import ACTIONS, BID_ACTIONS, ActionKind
from atout.rules import Rules

PACKAGE = "magmacrunch-tarot"
INSTALL = "pip install 'atout[magmacrunch]', or pip install -e '.[magmacrunch]' in a clone of atout"

_SUITS = ("spades", "hearts", "diamonds", "clubs")
"""The package's suit names, in atout's suit order."""
_RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "V", "C", "D", "R")
_BIDS = {"PRISE": "petite", "GARDE": "garde", "GARDE_SANS": "garde_sans", "GARDE_CONTRE": "garde_contre"}
"""The package's contracts by atout's names (``PASSE`` is a pass)."""
_THEIR_BID = {"petite": "PRISE", "pousse": "PRISE", **{ours: theirs for theirs, ours in _BIDS.items()}}


class IndependentBotMissing(ValueError):
    """The package holding an independent bot is not installed; the message says how to install it."""


def load_rules() -> Any:
    """The package's ``tarot.rules`` module, or :class:`IndependentBotMissing`."""
    try:
        module = importlib.import_module("tarot.rules")
    except ImportError:
        module = None
    if module is None or not all(hasattr(module, f) for f in ("ai_bid", "ai_discards", "ai_card", "Trick")):
        raise IndependentBotMissing(
            f"the magmacrunch bot needs the {PACKAGE} package (noncommercial licence): {INSTALL}"
        )
    return module


def installed() -> bool:
    """Whether the package is installed (and has the functions the bot calls)."""
    try:
        load_rules()
    except IndependentBotMissing:
        return False
    return True


class MagmacrunchBot:
    """``magmacrunch-tarot``'s computer player (see the module doc); seeded for its bidding's chance."""

    name = "magmacrunch"

    def __init__(self, rng: random.Random | int | None = None) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self._rules = load_rules()
        deck = self._rules.new_deck()
        self._order = {c.id: k for k, c in enumerate(deck)}
        self._cards: list[Any] = [self._card_of(i, deck) for i in range(78)]
        self._index_of = {c.id: i for i, c in enumerate(self._cards)}

    @staticmethod
    def supports(rules: Rules) -> str | None:
        """``None`` if the bot plays this game, else why not."""
        if rules.game != "french" or rules.players != 4:
            return "the magmacrunch bot plays only the 4-player French game"
        return None

    def _card_of(self, card: int, deck: list[Any]) -> Any:
        if card == EXCUSE:
            wanted = "excuse"
        elif SUIT_OF[card] == TRUMP:
            wanted = f"trump-{card - 55}"
        else:
            wanted = f"{_SUITS[SUIT_OF[card]]}-{_RANKS[rank_of(card) - 1]}"
        return next(c for c in deck if c.id == wanted)

    def _hand(self, mask: int) -> list[Any]:
        """The cards of ``mask`` in the package's deck order (suits, trumps, the Excuse)."""
        return sorted((self._cards[c] for c in cards_of(mask)), key=lambda c: self._order[c.id])

    def choose(self, view: Any, legal: Sequence[int]) -> int:
        """The package's decision for this seat's view, as one of ``legal``."""
        why = self.supports(view.rules)
        if why is not None:
            raise ValueError(why)
        kind = ACTIONS[legal[0]].kind
        if kind is ActionKind.BID:
            return self._bid(view, legal)
        if kind is ActionKind.DISCARD:
            return self._discard(view, legal)
        if kind is ActionKind.POIGNEE:
            return self._poignee(view, legal)
        if kind is ActionKind.PLAY:
            return self._play(view, legal)
        return legal[0]  # chelem, misère, Excuse sec: the package's game has no such decision

    def _bid(self, view: Any, legal: Sequence[int]) -> int:
        best = "PASSE"
        order = self._rules.BID_ORDER
        for _, bid in view.bids:
            theirs = _THEIR_BID.get(bid)
            if theirs is not None and order.index(theirs) > order.index(best):
                best = theirs
        choice = self._rules.ai_bid(self._hand(view.hand), best, False, self.rng.random)
        action = BID_ACTIONS.get(_BIDS.get(choice, "pass"), BID_ACTIONS["pass"])
        return action if action in legal else BID_ACTIONS["pass"]

    def _discard(self, view: Any, legal: Sequence[int]) -> int:
        """The package chooses six cards from the taker's 24; they go down one by one."""
        chosen = self._rules.ai_discards(self._hand(view.hand | view.ecart))
        for card in chosen:
            index = self._index_of[card.id]
            action = next((a for a in legal if ACTIONS[a].card == index), None)
            if action is not None:
                return action
        raise ValueError(f"the magmacrunch bot's écart {[c.id for c in chosen]} is not legal here")

    def _poignee(self, view: Any, legal: Sequence[int]) -> int:
        """Every poignée it holds is declared, the largest one."""
        found = self._rules.poignee(self._hand(view.hand))
        if found is None:
            return legal[0]
        level = {10: 1, 13: 2, 15: 3}[found["trumps"]]
        allowed = [a for a in legal if ACTIONS[a].poignee_level <= level]
        return max(allowed, key=lambda a: ACTIONS[a].poignee_level)

    def _play(self, view: Any, legal: Sequence[int]) -> int:
        rules = self._rules
        trick = rules.Trick()
        for seat, card in view.trick:
            theirs = self._cards[card]
            trick.cards.append((theirs, seat))
            if theirs.type == rules.SUITED and not trick.led_trump and not trick.led_suit:
                trick.led_suit = theirs.suit
            if theirs.type == rules.TRUMP:
                trick.led_trump = True
                trick.highest_trump = max(trick.highest_trump, theirs.number)
        choice = rules.ai_card(self._hand(view.hand), trick)
        index = self._index_of[choice]
        action = next((a for a in legal if ACTIONS[a].card == index), None)
        if action is None:
            raise ValueError(f"the magmacrunch bot chose {choice}, not a legal card here")
        return action


__all__ = ["INSTALL", "PACKAGE", "IndependentBotMissing", "MagmacrunchBot", "load_rules"]

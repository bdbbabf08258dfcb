"""Every game atout plays, behind one protocol: French Tarot for 2 to 5 players (and five with
a dead player) and Austrian three-player Tarock.

:class:`Game` is what every deal offers, whatever its game (docs/protocol.md): front ends, bots,
the arena and records speak to a deal through it and never ask which class they hold. A seat's
view is a :data:`View`; ``view.game`` says which (``french``, ``two_player``, ``austrian``).

>>> from atout.presets import rules_for
>>> type(new_deal(rules_for("tarock"), rng=1)).__name__, type(new_deal(Rules(players=2), rng=1)).__name__
('AustrianDeal', 'TwoPlayerDeal')
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Protocol

from atout.engine.actions import ACTIONS, ActionKind
from atout.engine.austrian.actions import AUSTRIAN_ACTIONS, AustrianActionKind
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.austrian.invariants import broken_invariants as broken_austrian
from atout.engine.dead_player import DeadPlayerDeal
from atout.engine.deal import seat_step
from atout.engine.events import Event
from atout.engine.french import FrenchDeal
from atout.engine.invariants import broken_invariants as broken_french
from atout.engine.phase import Phase
from atout.engine.two_player import TwoPlayerDeal
from atout.engine.wire import View
from atout.rules import Rules
from atout.scoring.summary import Summary

Deal = FrenchDeal | TwoPlayerDeal | AustrianDeal | DeadPlayerDeal
"""A deal of any game: each class is a :class:`Game`."""
DealClass = type[FrenchDeal] | type[TwoPlayerDeal] | type[AustrianDeal] | type[DeadPlayerDeal]


class Game(Protocol):
    """One deal of any game, as every front end, bot and record sees it.

    Actions are ``int`` subclasses of the deal's own game (French :class:`~atout.engine.actions.Action`,
    Austrian :class:`~atout.engine.austrian.actions.AustrianAction`); :meth:`apply` refuses anything
    else, an action of the other game included, with an :class:`~atout.engine.errors.IllegalActionError`
    and the state unchanged.

    >>> game: Game = new_deal(Rules(players=4), rng=1)
    >>> game.phase, game.current_player, [str(a) for a in game.legal_actions()][:3]
    (<Phase.BIDDING: 'bidding'>, 1, ['pass', 'petite', 'garde'])
    >>> game.apply(game.parse("garde")); game.view(1).bids
    ((1, 'garde'),)
    """

    @property
    def rules(self) -> Rules:
        """The rules this deal is played by."""

    @property
    def dealer(self) -> int:
        """The dealer's seat."""

    @property
    def n(self) -> int:
        """The number of seats at the table (a dead player included)."""

    @property
    def phase(self) -> Phase:
        """The stage of the deal."""

    @property
    def current_player(self) -> int:
        """The seat to act; -1 once the deal is over."""

    @property
    def history(self) -> list[int]:
        """Every action applied so far, in order."""

    @property
    def events(self) -> list[Event]:
        """Everything that happened, in order (:mod:`atout.engine.events`)."""

    @property
    def outcome(self) -> str:
        """How the deal ended (``played`` or why it was cancelled); empty before."""

    @property
    def summary(self) -> Summary | None:
        """The deal summary once played; ``None`` before or when cancelled."""

    def legal_actions(self) -> Sequence[int]:
        """The current player's legal actions, in increasing order."""

    def apply(self, action: int) -> None:
        """Apply a legal action, or raise ``IllegalActionError`` and change nothing."""

    def parse(self, text: str) -> int:
        """An action of this game from its words (``garde``, ``play KS``, ``KS``)."""

    def action_name(self, action: int) -> str:
        """An action's words under this deal's rules."""

    def is_over(self) -> bool:
        """Whether the deal has ended (played or cancelled)."""

    def scores(self) -> list[int]:
        """Each seat's score; raises ``ValueError`` before the end."""

    def view(self, seat: int) -> View:
        """What ``seat`` may know, and nothing more."""

    def public_view(self) -> View:
        """What anyone may know, a spectator (``seat`` is :data:`~atout.engine.view.PUBLIC_SEAT`)."""

    def clone(self) -> Game:
        """An independent copy."""

    def dealt(self) -> dict[str, object]:
        """The dealt cards by name (records)."""

    def play_out(self, rng: random.Random) -> None:
        """Finish the deal with uniformly random legal actions."""


def deal_class(rules: Rules) -> DealClass:
    """The engine that plays these rules."""
    if rules.game == "austrian":
        return AustrianDeal
    if rules.players == 2:
        return TwoPlayerDeal
    if rules.five_player_mode == "dead_player":
        return DeadPlayerDeal
    return FrenchDeal


def new_deal(rules: Rules, dealer: int = 0, rng: random.Random | int | None = None) -> Deal:
    """Shuffle and deal a new deal of the game the rules describe."""
    return deal_class(rules).new(rules, dealer=dealer, rng=rng)


def deal_from_dealt(rules: Rules, dealer: int, data: Mapping[str, object]) -> Deal:
    """A deal rebuilt from its dealt cards (as :meth:`dealt` writes them)."""
    return deal_class(rules).from_dealt(rules, dealer, data)


def is_card_play(deal: Game, legal: Sequence[int] | None = None) -> bool:
    """Whether the decision now due is a card play, in any game: not a bid, call, discard,
    declaration, talon half or game type (``False`` once the deal is over). A decision's legal
    actions are all of one kind; pass them as ``legal`` when already at hand.

    >>> deal = new_deal(Rules(players=4), rng=1)
    >>> is_card_play(deal), str(deal.legal_actions()[0])
    (False, 'pass')
    >>> is_card_play(new_deal(Rules(players=2), rng=1))
    True
    """
    if deal.is_over():
        return False
    first = (legal if legal is not None else deal.legal_actions())[0]
    if deal.rules.game == "austrian":
        return AUSTRIAN_ACTIONS[first].kind is AustrianActionKind.PLAY
    return ACTIONS[first].kind is ActionKind.PLAY


def broken_invariants(deal: Deal) -> list[str]:
    """What is wrong with a finished deal of any game; empty when all is well."""
    if isinstance(deal, AustrianDeal):
        return broken_austrian(deal)
    if isinstance(deal, DeadPlayerDeal):
        problems = broken_french(deal.inner)
        scores = deal.scores()
        if scores[deal.dealer] != 0 or sum(scores) != 0:
            problems.append(f"the dead player must score 0 and the row sum to 0: {scores}")
        return problems
    return broken_french(deal)


def playing_seats(deal: Game) -> list[int]:
    """The seats that hold cards: every seat but a dead dealer (rule book §4.3 mode B)."""
    if isinstance(deal, DeadPlayerDeal):
        return sorted(deal.seats)
    return list(range(deal.n))


def table_bids(deal: Game) -> list[tuple[int, str]]:
    """Every bid so far as ``(table seat, bid)``; empty in the 2-player game, which has none."""
    if isinstance(deal, DeadPlayerDeal):
        return [(deal.outer(s), b) for s, b in deal.inner.bids]
    if isinstance(deal, FrenchDeal | AustrianDeal):
        return list(deal.bids)
    return []


def french_engine(deal: object) -> FrenchDeal | None:
    """``deal`` as a French engine of 3 to 5 players, for code that reads its whole state (the
    arena's open-hand cheat); ``None`` for any other game or object."""
    return deal if isinstance(deal, FrenchDeal) else None


def austrian_engine(deal: object) -> AustrianDeal | None:
    """``deal`` as an Austrian engine, for code that reads its whole state; ``None`` otherwise."""
    return deal if isinstance(deal, AustrianDeal) else None


def next_dealer(deal: Game) -> int:
    """Who deals next (rule book §3.1, §3.3): the deal passes to the right, also after a
    cancelled deal; a dead player keeps dealing as long as everyone passes (§4.3 mode B)."""
    if isinstance(deal, DeadPlayerDeal) and deal.is_over() and deal.outcome.startswith("all passed"):
        return deal.dealer
    return (deal.dealer + seat_step(deal.rules)) % deal.n


def _conforms(deal: Deal) -> Game:
    """Every deal class is a :class:`Game` (checked by the type checker here)."""
    return deal


__all__ = [
    "Deal",
    "Game",
    "View",
    "austrian_engine",
    "broken_invariants",
    "deal_class",
    "deal_from_dealt",
    "french_engine",
    "is_card_play",
    "new_deal",
    "next_dealer",
    "playing_seats",
    "table_bids",
]

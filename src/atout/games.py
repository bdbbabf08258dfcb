"""Every game atout plays, chosen from the rules: French Tarot for 2 to 5 players and
Austrian three-player Tarock. Front ends and records go through here.

>>> from atout.presets import rules_for
>>> type(new_deal(rules_for("tarock"), rng=1)).__name__, type(new_deal(Rules(players=2), rng=1)).__name__
('AustrianDeal', 'TwoPlayerDeal')
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from atout.engine.actions import ACTIONS, ActionKind
from atout.engine.austrian.actions import AUSTRIAN_ACTIONS, AustrianActionKind
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.austrian.invariants import broken_invariants as broken_austrian
from atout.engine.dead_player import DeadPlayerDeal
from atout.engine.deal import seat_step
from atout.engine.french import FrenchDeal
from atout.engine.invariants import broken_invariants as broken_french
from atout.engine.two_player import TwoPlayerDeal
from atout.rules import Rules

Deal = FrenchDeal | TwoPlayerDeal | AustrianDeal | DeadPlayerDeal
DealClass = type[FrenchDeal] | type[TwoPlayerDeal] | type[AustrianDeal] | type[DeadPlayerDeal]


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


def is_card_play(deal: Deal, legal: Sequence[int] | None = None) -> bool:
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
    if isinstance(deal, AustrianDeal):
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


def next_dealer(deal: Deal) -> int:
    """Who deals next (RULES.md §3.1, §3.3): the deal passes to the right, also after a
    cancelled deal; a dead player keeps dealing as long as everyone passes (§4.3 mode B)."""
    if isinstance(deal, DeadPlayerDeal) and deal.is_over() and deal.outcome.startswith("all passed"):
        return deal.dealer
    return (deal.dealer + seat_step(deal.rules)) % deal.n

"""Card decisions of deals played by the rules bot in every seat: the positions that
``bench/inference.py`` and ``bench/decisions.py`` measure the expert's worlds and cards in."""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator

from atout.bots.rules import RulesBot
from atout.engine.actions import ACTIONS, Action, ActionKind
from atout.engine.french import FrenchDeal
from atout.engine.view import SeatView
from atout.rules import Rules


def rules_bot_card_decisions(
    players: int, deals: int, rng: random.Random
) -> Iterator[tuple[FrenchDeal, SeatView, list[Action], int]]:
    """Each card decision of ``deals`` seeded rules-bot deals, in order: the true deal, the view
    of the seat to play, its legal cards and the decision's number in the deal (from 1). The deal goes on with the rules bot's card once the
    caller asks for the next decision (so the caller may read, never change, the deal); each
    deal's seed is drawn from ``rng`` as it begins."""
    bot = RulesBot()
    for index in range(deals):
        deal = FrenchDeal.new(Rules(players=players), dealer=index % players, rng=rng.getrandbits(63))
        number = 0
        while not deal.is_over():
            legal = deal.legal_actions()
            view = deal.view(deal.current_player)
            if ACTIONS[legal[0]].kind is ActionKind.PLAY:
                number += 1
                yield deal, view, legal, number
            deal.apply(bot.choose(view, legal))


def positive(text: str) -> int:
    """A command-line count of at least 1 (``argparse`` type)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is below 1")
    return value

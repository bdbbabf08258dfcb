"""A test bot for the bot protocol (``python gc_probe_bot.py REPORT``): atout's ``serve`` loop
with the rules bot, which before each decision scans its own process's garbage collector and
appends to REPORT how many deals and how many views it finds there."""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence
from pathlib import Path

from atout.bots.base import View
from atout.bots.rules import RulesBot
from atout.bots.serve import serve
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.austrian.view import AustrianView
from atout.engine.dead_player import DeadPlayerDeal
from atout.engine.french import FrenchDeal
from atout.engine.two_player import TwoPlayerDeal, TwoPlayerView
from atout.engine.view import SeatView

DEALS = (FrenchDeal, TwoPlayerDeal, AustrianDeal, DeadPlayerDeal)
VIEWS = (SeatView, TwoPlayerView, AustrianView)


class Probe:
    """The rules bot, telling what the garbage collector holds."""

    name = "probe"

    def __init__(self, report: Path) -> None:
        self.report = report
        self.rules = RulesBot()

    def choose(self, view: View, legal: Sequence[int]) -> int:
        objects = gc.get_objects()
        deals = sum(type(o) in DEALS for o in objects)  # type(): a dead weak proxy refuses isinstance
        views = sum(type(o) in VIEWS for o in objects)
        with self.report.open("a", encoding="utf-8") as out:
            out.write(f"{deals} {views}\n")
        return self.rules.choose(view, legal)


if __name__ == "__main__":
    report = Path(sys.argv[1])
    sys.exit(serve(lambda seed: Probe(report), None, sys.stdin, sys.stdout, sys.stderr))

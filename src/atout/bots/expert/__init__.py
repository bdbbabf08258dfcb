"""The ``expert`` bot (determinized search for French card play) and the arena's ``cheat`` bot.

:mod:`.inference` reads voids and "no higher trump" from the view, :mod:`.worlds` samples whole
deals consistent with the view, :mod:`.search` values each card in a deal (exact solver or
rules-bot playouts), :mod:`.bot` puts them together (docs/bots.md).
"""

from atout.bots.expert.bot import LEVELS, CheatBot, Decision, ExpertBot, ExpertConfig

__all__ = ["LEVELS", "CheatBot", "Decision", "ExpertBot", "ExpertConfig"]

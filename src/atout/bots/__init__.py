"""Computer players. A bot sees only its seat's view and the legal actions (docs/bots.md)."""

from atout.bots.base import Bot, View
from atout.bots.random_bot import RandomBot
from atout.bots.registry import bot_names, make_bot
from atout.bots.rules import RulesBot

__all__ = ["Bot", "RandomBot", "RulesBot", "View", "bot_names", "make_bot"]

"""Computer players. A bot sees only its seat's view and the legal actions."""

from atout.bots.base import Bot
from atout.bots.random_bot import RandomBot

__all__ = ["Bot", "RandomBot"]

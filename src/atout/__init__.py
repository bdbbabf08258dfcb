"""atout: the Tarot family of card games, exactly by the rules."""

__version__ = "0.1.0"

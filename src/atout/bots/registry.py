"""Bots by name and level: ``make_bot("rules")``, ``make_bot("random", rng=7)``.

>>> make_bot("rules").name, make_bot("random", rng=1).name, make_bot("expert", level="strong").name
('rules', 'random', 'expert')
>>> make_bot("expert:strong,bid_inference=false").config.bid_inference
False
"""

from __future__ import annotations

import random
from collections.abc import Callable

from atout.bots.base import Bot
from atout.bots.random_bot import RandomBot
from atout.bots.rules import RulesBot
from atout.rules import Rules

BotFactory = Callable[[str | None, random.Random], Bot]


def _expert(level: str | None, rng: random.Random) -> Bot:
    from atout.bots.expert import ExpertBot

    return ExpertBot.at_level(level, rng)


def _cheat(level: str | None, rng: random.Random) -> Bot:
    from atout.bots.expert import CheatBot

    return CheatBot.at_level(level)


def _magmacrunch(level: str | None, rng: random.Random) -> Bot:
    from atout.bots.magmacrunch import MagmacrunchBot

    return MagmacrunchBot(rng)


BOTS: dict[str, BotFactory] = {
    "random": lambda level, rng: RandomBot(rng),
    "rules": lambda level, rng: RulesBot(),
    "expert": _expert,
    "cheat": _cheat,
    "magmacrunch": _magmacrunch,
}
"""The bots by name (docs/bots.md). ``cheat`` sees every card: for the arena's upper bound only.
``magmacrunch`` is an independent bot from another package (:mod:`atout.bots.magmacrunch`).
The expert and the others are imported only when first made: a process serving the rules bot
(``atout bot-serve rules``) starts without numba."""

LEVELLED = ("expert", "cheat")
"""The bots that take a ``level`` (the cheat's: settings only, ``cheat:solver_cards=0``)."""

THINKING = ("expert",)
"""The bots that take a time budget."""


def with_think(spec: str, think: float | None) -> str:
    """``spec`` (``name`` or ``name:level``) with a time budget per decision, in seconds, for
    the bots that take one (``expert``); other bots are returned unchanged.

    >>> with_think("expert", 0.2), with_think("expert:strong", 0.2), with_think("rules", 0.2)
    ('expert:fast,think=0.2', 'expert:strong,think=0.2', 'rules')
    """
    name, _, level = spec.strip().lower().partition(":")
    if think is None or name not in THINKING:
        return spec
    return f"{name}:{level or 'fast'},think={think}"


def unsupported(bot: Bot, rules: Rules) -> str | None:
    """Why ``bot`` cannot play the game of ``rules``, or ``None`` (the bots that play only some
    games say so through a ``supports(rules)`` method; the others play every game)."""
    supports = getattr(bot, "supports", None)
    return None if supports is None else supports(rules)


def bot_names() -> tuple[str, ...]:
    """The names :func:`make_bot` knows."""
    return tuple(BOTS)


def make_bot(name: str, level: str | None = None, rng: random.Random | int | None = None) -> Bot:
    """A new bot of that name (and level, for bots that have levels), seeded by ``rng``.
    ``name:level`` gives the level in the name (``expert:strong``).

    An unknown name raises :class:`ValueError` naming the choices.
    """
    name, _, named_level = name.strip().lower().partition(":")
    if named_level:
        if level is not None and level != named_level:
            raise ValueError(f"two levels given for the {name} bot: {named_level!r} and {level!r}")
        level = named_level
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}")
    if level is not None and name not in LEVELLED:
        raise ValueError(f"the {name} bot has no levels")
    return factory(level, rng if isinstance(rng, random.Random) else random.Random(rng))

"""The computer players' names: each bot at a table gets a persona, a number from 1 to
:data:`PERSONAS`, distinct at its table and fixed by the table's id (so a reload or a restart
names it the same). The page names a persona from its own strings (``bot.name.<n>``, in the
player's language); the server uses the English names below, the terminal game those of its language.

>>> personas("table-1", 5) == personas("table-1", 5)
True
>>> len(set(personas("table-1", 5))), min(personas("x", 8)), max(personas("x", 8))
(5, 1, 8)
"""

from __future__ import annotations

import hashlib
import random

from atout import i18n

BOT_NAMES = ("Alice", "Bruno", "Chloé", "Dimitri", "Emma", "Félix", "Greta", "Hugo")
"""The English name of each persona, persona 1 first."""

PERSONAS = len(BOT_NAMES)


def personas(key: str, seats: int) -> list[int]:
    """Distinct persona numbers (1 to :data:`PERSONAS`) for the seats of the table ``key``."""
    if not 0 <= seats <= PERSONAS:
        raise ValueError(f"{PERSONAS} personas name at most {PERSONAS} seats, not {seats}")
    seed = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")
    numbers = list(range(1, PERSONAS + 1))
    random.Random(seed).shuffle(numbers)
    return numbers[:seats]


def persona_name(persona: int, language: str = "en") -> str:
    """A persona's name in ``language``: the page's own (``bot.name.<n>`` of its catalogue), so that
    the terminal and the page of one language name the computer players alike.

    >>> persona_name(2), persona_name(2, "fr") == i18n.page_catalogue("fr").get("bot.name.2", "Bruno")
    ('Bruno', True)
    """
    return i18n.page_catalogue(language).get(f"bot.name.{persona}", BOT_NAMES[persona - 1])


__all__ = ["BOT_NAMES", "PERSONAS", "persona_name", "personas"]

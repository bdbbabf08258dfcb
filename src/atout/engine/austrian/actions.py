"""Actions of an Austrian Tarock deal (rule book §5), as small integers with readable names.

Like the French :class:`~atout.engine.actions.Action`, each decision is one ``int`` subclass, so
actions index tensors and masks directly and still print as words. Card actions keep the
78-card indices (only the 54 Austrian cards are ever legal)::

    0-77      play a card         "play KS"
    78-155    discard a card      "discard 3S"
    156-158   bid                 "pass", "threesome", "solo"
    159-160   talon choice        "accept_first_half", "take_second_half"
                                  (named "take_half_1", "take_half_2" under austrian_talon_mode=free_choice)
    161-162   game declaration    "36_or_more" (game 1), "35_or_less" (game 2)

>>> AUSTRIAN_ACTIONS[160], AUSTRIAN_ACTIONS[27].card, parse_austrian_action("game 2") == GAME_2
(AustrianAction('take_second_half'), 27, True)
>>> action_name(TAKE_SECOND_HALF, free_choice=True)
'take_half_2'
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from atout.cards import N_CARDS, card_name
from atout.engine.austrian.cards import parse_austrian_card


class AustrianActionKind(IntEnum):
    """What sort of decision an action is."""

    PLAY = 0
    DISCARD = 1
    BID = 2
    TALON = 3
    GAME = 4


PLAY_BASE: Final = 0
DISCARD_BASE: Final = N_CARDS
BID_BASE: Final = 2 * N_CARDS
BID_NAMES: Final = ("pass", "threesome", "solo")
TALON_BASE: Final = BID_BASE + len(BID_NAMES)
TALON_NAMES: Final = ("accept_first_half", "take_second_half")
FREE_CHOICE_TALON_NAMES: Final = ("take_half_1", "take_half_2")
GAME_BASE: Final = TALON_BASE + 2
GAME_TYPES: Final = ("36_or_more", "35_or_less")
N_AUSTRIAN_ACTIONS: Final = GAME_BASE + len(GAME_TYPES)


class AustrianAction(int):
    """One decision. Compare and index it as an ``int``; print it as words."""

    __slots__ = ()

    @property
    def kind(self) -> AustrianActionKind:
        if self < DISCARD_BASE:
            return AustrianActionKind.PLAY
        if self < BID_BASE:
            return AustrianActionKind.DISCARD
        if self < TALON_BASE:
            return AustrianActionKind.BID
        if self < GAME_BASE:
            return AustrianActionKind.TALON
        return AustrianActionKind.GAME

    @property
    def card(self) -> int | None:
        """The card of a play or discard; ``None`` otherwise."""
        return int(self) % N_CARDS if self < BID_BASE else None

    @property
    def bid(self) -> str | None:
        """``pass``, ``threesome`` or ``solo`` for a bid."""
        return BID_NAMES[self - BID_BASE] if BID_BASE <= self < TALON_BASE else None

    @property
    def talon_half(self) -> int | None:
        """1 or 2 for a talon choice."""
        return int(self) - TALON_BASE + 1 if TALON_BASE <= self < GAME_BASE else None

    @property
    def game_type(self) -> str | None:
        """``36_or_more`` or ``35_or_less`` for a game declaration."""
        return GAME_TYPES[self - GAME_BASE] if self >= GAME_BASE else None

    def __str__(self) -> str:
        return NAMES[self]

    def __repr__(self) -> str:
        return f"AustrianAction({NAMES[self]!r})"


def _name(a: int) -> str:
    if a < DISCARD_BASE:
        return f"play {card_name(a)}"
    if a < BID_BASE:
        return f"discard {card_name(a - DISCARD_BASE)}"
    if a < TALON_BASE:
        return BID_NAMES[a - BID_BASE]
    if a < GAME_BASE:
        return TALON_NAMES[a - TALON_BASE]
    return GAME_TYPES[a - GAME_BASE]


NAMES: Final = tuple(_name(a) for a in range(N_AUSTRIAN_ACTIONS))
AUSTRIAN_ACTIONS: Final = tuple(AustrianAction(a) for a in range(N_AUSTRIAN_ACTIONS))
PLAY_ACTIONS: Final = AUSTRIAN_ACTIONS[PLAY_BASE:DISCARD_BASE]
DISCARD_ACTIONS: Final = AUSTRIAN_ACTIONS[DISCARD_BASE:BID_BASE]
BID_ACTIONS: Final = {name: AUSTRIAN_ACTIONS[BID_BASE + i] for i, name in enumerate(BID_NAMES)}
PASS: Final = BID_ACTIONS["pass"]
THREESOME: Final = BID_ACTIONS["threesome"]
SOLO: Final = BID_ACTIONS["solo"]
ACCEPT_FIRST_HALF: Final = AUSTRIAN_ACTIONS[TALON_BASE]
TAKE_SECOND_HALF: Final = AUSTRIAN_ACTIONS[TALON_BASE + 1]
TALON_ACTIONS: Final = (ACCEPT_FIRST_HALF, TAKE_SECOND_HALF)
GAME_1: Final = AUSTRIAN_ACTIONS[GAME_BASE]
GAME_2: Final = AUSTRIAN_ACTIONS[GAME_BASE + 1]
GAME_ACTIONS: Final = {"36_or_more": GAME_1, "35_or_less": GAME_2}


def action_name(action: int, free_choice: bool = False) -> str:
    """An action's words; talon choices read ``take_half_1`` / ``take_half_2`` under free choice."""
    if free_choice and TALON_BASE <= action < GAME_BASE:
        return FREE_CHOICE_TALON_NAMES[action - TALON_BASE]
    return NAMES[action]


_WORDS: dict[str, AustrianAction] = {}
for _i, _name_ in enumerate(NAMES):
    _WORDS[_name_] = AUSTRIAN_ACTIONS[_i]
    _WORDS[_name_.replace("_", " ")] = AUSTRIAN_ACTIONS[_i]
for _words, _action in (
    (("p", "passe", "weiter"), PASS),
    (("three", "threes", "dreier", "three cards"), THREESOME),
    (
        ("accept", "first half", "half 1", "widow 1", "take half 1", "take first half", "talon 1"),
        ACCEPT_FIRST_HALF,
    ),
    (("reject", "second half", "half 2", "widow 2", "take half 2", "talon 2"), TAKE_SECOND_HALF),
    (("game 1", "game1", "36 or more"), GAME_1),
    (("game 2", "game2", "35 or less"), GAME_2),
):
    for _word in _words:
        _WORDS[_word] = _action
_VERBS = {"play": PLAY_BASE, "discard": DISCARD_BASE}


def parse_austrian_action(text: str, card_verb: str = "play") -> AustrianAction:
    """Parse an action's words (case-insensitive; ``_`` and space alike).

    A bare card name means ``card_verb`` (``play`` or ``discard``); Sküs may be written
    ``T22`` or ``Skus``. Raises :class:`ValueError` naming the text.
    """
    words = " ".join(text.strip().lower().replace("_", " ").split())
    if words in _WORDS:
        return _WORDS[words]
    verb, _, rest = words.partition(" ")
    if verb in _VERBS and rest:
        return AUSTRIAN_ACTIONS[_VERBS[verb] + parse_austrian_card(rest)]
    if card_verb not in _VERBS:
        raise ValueError(f"unknown card verb {card_verb!r}")
    try:
        return AUSTRIAN_ACTIONS[_VERBS[card_verb] + parse_austrian_card(words)]
    except ValueError:
        raise ValueError(
            f"not an Austrian action: {text!r} (a card such as KS or T22, pass / threesome / solo, "
            "accept_first_half / take_second_half, or 36_or_more / 35_or_less)"
        ) from None

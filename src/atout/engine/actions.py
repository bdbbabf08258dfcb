"""Actions of a French Tarot deal, as small integers with readable names.

Every decision is one :class:`Action`, an ``int`` subclass, so actions index
tensors and action masks directly (OpenSpiel, PettingZoo) and still print as
words::

    0-77      play a card          "play KS"
    78-155    discard a card       "discard 3S"
    156-233   call a card (5p)     "call KH"
    234-239   pass or bid          "pass", "petite", "pousse", "garde", "garde_sans", "garde_contre"
    240-241   chelem decision      "no_chelem", "chelem"
    242-245   poignée decision     "no_poignee", "poignee simple", "poignee double", "poignee triple"
    246-247   Excuse sec (option)  "keep_hand", "excuse_sec"
    248-251   misère (option)      "no_misere", "misere no_trumps", "misere no_courts", "misere both"
    252       partial slam         "partial_slam" (announced instead of a chelem, with the option)
    253       poignée display      "show_default": the lowest trumps (face-up écart trumps first)
    254-274   poignée display      "show T1" .. "show T21": a trump chosen for the display

>>> ACTIONS[245], ACTIONS[27].card, parse_action("garde sans") == BID_ACTIONS["garde_sans"]
(Action('poignee triple'), 27, True)
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from atout.cards import N_CARDS, PETIT, card_name, parse_card
from atout.rules import CONTRACTS


class ActionKind(IntEnum):
    """What sort of decision an action is."""

    PLAY = 0
    DISCARD = 1
    CALL = 2
    BID = 3
    CHELEM = 4
    POIGNEE = 5
    EXCUSE_SEC = 6
    MISERE = 7
    SHOW = 8


PLAY_BASE: Final = 0
DISCARD_BASE: Final = N_CARDS
CALL_BASE: Final = 2 * N_CARDS
BID_BASE: Final = 3 * N_CARDS
BID_NAMES: Final = ("pass", *CONTRACTS)
CHELEM_BASE: Final = BID_BASE + len(BID_NAMES)
POIGNEE_BASE: Final = CHELEM_BASE + 2
POIGNEE_NAMES: Final = ("none", "simple", "double", "triple")
EXCUSE_SEC_BASE: Final = POIGNEE_BASE + len(POIGNEE_NAMES)
MISERE_BASE: Final = EXCUSE_SEC_BASE + 2
MISERE_NAMES: Final = ("none", "no_trumps", "no_courts", "both")
PARTIAL_SLAM_ID: Final = MISERE_BASE + len(MISERE_NAMES)
SHOW_DEFAULT_ID: Final = PARTIAL_SLAM_ID + 1
SHOW_BASE: Final = SHOW_DEFAULT_ID + 1 - PETIT
"""``SHOW_BASE + card`` shows that trump (T1..T21) in a poignée."""
N_ACTIONS: Final = SHOW_DEFAULT_ID + 1 + 21


class Action(int):
    """One decision. Compare and index it as an ``int``; print it as words."""

    __slots__ = ()

    @property
    def kind(self) -> ActionKind:
        return KINDS[self]

    @property
    def card(self) -> int | None:
        """The card of a play, discard, call or poignée display; ``None`` otherwise."""
        if self > SHOW_DEFAULT_ID:
            return int(self) - SHOW_BASE
        return int(self) % N_CARDS if self < BID_BASE else None

    @property
    def bid(self) -> str | None:
        """``pass`` or a contract name, for a bid."""
        return BID_NAMES[self - BID_BASE] if BID_BASE <= self < CHELEM_BASE else None

    @property
    def poignee_level(self) -> int:
        """0 for no poignée, 1-3 for simple, double, triple."""
        return int(self) - POIGNEE_BASE if POIGNEE_BASE <= self < EXCUSE_SEC_BASE else 0

    @property
    def misere(self) -> str | None:
        """The misère kind declared, ``None`` for no misère or another action."""
        return MISERE_NAMES[self - MISERE_BASE] if MISERE_BASE < self < PARTIAL_SLAM_ID else None

    def __str__(self) -> str:
        return NAMES[self]

    def __repr__(self) -> str:
        return f"Action({NAMES[self]!r})"


def _kind(a: int) -> ActionKind:
    if a >= SHOW_DEFAULT_ID:
        return ActionKind.SHOW
    bounds = (DISCARD_BASE, CALL_BASE, BID_BASE, CHELEM_BASE, POIGNEE_BASE, EXCUSE_SEC_BASE, MISERE_BASE)
    kinds: tuple[ActionKind, ...] = (ActionKind.PLAY, ActionKind.DISCARD, ActionKind.CALL, ActionKind.BID)
    kinds += (ActionKind.CHELEM, ActionKind.POIGNEE, ActionKind.EXCUSE_SEC)
    for bound, kind in zip(bounds, kinds, strict=True):
        if a < bound:
            return kind
    return ActionKind.CHELEM if a == PARTIAL_SLAM_ID else ActionKind.MISERE


def _name(a: int) -> str:
    if a == SHOW_DEFAULT_ID:
        return "show_default"
    if a > SHOW_DEFAULT_ID:
        return f"show {card_name(a - SHOW_BASE)}"
    if a == PARTIAL_SLAM_ID:
        return "partial_slam"
    if a >= MISERE_BASE:
        kind = MISERE_NAMES[a - MISERE_BASE]
        return "no_misere" if kind == "none" else f"misere {kind}"
    if a >= EXCUSE_SEC_BASE:
        return ("keep_hand", "excuse_sec")[a - EXCUSE_SEC_BASE]
    if a < DISCARD_BASE:
        return f"play {card_name(a)}"
    if a < CALL_BASE:
        return f"discard {card_name(a - DISCARD_BASE)}"
    if a < BID_BASE:
        return f"call {card_name(a - CALL_BASE)}"
    if a < CHELEM_BASE:
        return BID_NAMES[a - BID_BASE]
    if a < POIGNEE_BASE:
        return ("no_chelem", "chelem")[a - CHELEM_BASE]
    level = POIGNEE_NAMES[a - POIGNEE_BASE]
    return "no_poignee" if level == "none" else f"poignee {level}"


NAMES: Final = tuple(_name(a) for a in range(N_ACTIONS))
KINDS: Final = tuple(_kind(a) for a in range(N_ACTIONS))
ACTIONS: Final = tuple(Action(a) for a in range(N_ACTIONS))
PLAY_ACTIONS: Final = ACTIONS[PLAY_BASE:DISCARD_BASE]
DISCARD_ACTIONS: Final = ACTIONS[DISCARD_BASE:CALL_BASE]
CALL_ACTIONS: Final = ACTIONS[CALL_BASE:BID_BASE]
BID_ACTIONS: Final = {name: ACTIONS[BID_BASE + i] for i, name in enumerate(BID_NAMES)}
PASS: Final = BID_ACTIONS["pass"]
NO_CHELEM: Final = ACTIONS[CHELEM_BASE]
ANNOUNCE_CHELEM: Final = ACTIONS[CHELEM_BASE + 1]
POIGNEE_ACTIONS: Final = ACTIONS[POIGNEE_BASE:EXCUSE_SEC_BASE]
NO_POIGNEE: Final = POIGNEE_ACTIONS[0]
KEEP_HAND: Final = ACTIONS[EXCUSE_SEC_BASE]
SHOW_EXCUSE_SEC: Final = ACTIONS[EXCUSE_SEC_BASE + 1]
MISERE_ACTIONS: Final = ACTIONS[MISERE_BASE:PARTIAL_SLAM_ID]
NO_MISERE: Final = MISERE_ACTIONS[0]
ANNOUNCE_PARTIAL_SLAM: Final = ACTIONS[PARTIAL_SLAM_ID]
SHOW_DEFAULT: Final = ACTIONS[SHOW_DEFAULT_ID]
SHOW_ACTIONS: Final = ACTIONS[SHOW_DEFAULT_ID + 1 :]
"""Showing T1..T21 in a poignée, in trump order."""

_WORDS = {name.replace("_", " "): ACTIONS[i] for i, name in enumerate(NAMES)}
_WORDS.update({name: ACTIONS[i] for i, name in enumerate(NAMES)})
_WORDS.update(
    {
        "prise": BID_ACTIONS["petite"],
        "passe": PASS,
        "p": PASS,
        "garde sans le chien": BID_ACTIONS["garde_sans"],
        "garde contre le chien": BID_ACTIONS["garde_contre"],
        "gs": BID_ACTIONS["garde_sans"],
        "gc": BID_ACTIONS["garde_contre"],
        "slam": ANNOUNCE_CHELEM,
        "no slam": NO_CHELEM,
        "no": NO_CHELEM,
        "none": NO_POIGNEE,
        "simple": POIGNEE_ACTIONS[1],
        "double": POIGNEE_ACTIONS[2],
        "triple": POIGNEE_ACTIONS[3],
    }
)
_VERBS = {"play": PLAY_BASE, "discard": DISCARD_BASE, "call": CALL_BASE}


def parse_action(text: str, card_verb: str = "play") -> Action:
    """Parse an action's words (case-insensitive; ``_`` and space alike).

    A bare card name means ``card_verb`` (``play``, ``discard`` or ``call``).
    Raises :class:`ValueError` naming the text.
    """
    words = " ".join(text.strip().lower().replace("_", " ").split())
    if words in _WORDS:
        return _WORDS[words]
    verb, _, rest = words.partition(" ")
    if verb == "show" and rest:
        card = parse_card(rest)
        if not PETIT <= card < PETIT + 21:
            raise ValueError(f"not an action: {text!r} (a poignée shows trumps T1..T21)")
        return ACTIONS[SHOW_BASE + card]
    if verb in _VERBS and rest:
        return ACTIONS[_VERBS[verb] + parse_card(rest)]
    if card_verb not in _VERBS:
        raise ValueError(f"unknown card verb {card_verb!r}")
    try:
        return ACTIONS[_VERBS[card_verb] + parse_card(words)]
    except ValueError:
        raise ValueError(
            f"not an action: {text!r} (a card such as KS or T21, a bid such as pass or garde, "
            "chelem / no_chelem, or poignee simple / no_poignee)"
        ) from None

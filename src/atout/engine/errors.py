"""Errors raised by the engine."""

from __future__ import annotations

from collections.abc import Mapping

from atout.cards import SUIT_LETTERS, TRUMP, card_name

REFUSAL_CODES: frozenset[str] = frozenset(
    {
        "not_an_action",  # not an action of any game
        "other_game",  # {game}: an action of the other game
        "deal_over",
        "deal_cancelled",  # Austrian: everybody passed
        "wrong_phase",  # {phase}: this is not the moment for that kind of action
        "not_in_game",  # 2 players: no bidding, chien, écart or poignée
        "bid_too_low",  # {bid}
        "bid_not_played",  # {bid}: petite under no_petite, pousse without bid_pousse
        "call_card",  # {card}: a king, or the next rank once all of it is held
        "poignee_show",  # {card}: only one's own trumps, each once
        "not_enough_trumps",  # {level}
        "partial_slam_off",
        "misere_not_held",  # {kind}
        "excuse_sec_not_held",
        "chelem_first",  # 2 players: the chelem question comes first
        "chelem_before_first_card",  # 2 players: announced before the first card only
        "not_held",  # {card}
        "not_available",  # {card}, 2 players: neither in the hand nor a face-up pile top
        "discard_king_or_bout",  # {card}
        "discard_king",  # {card}, Austrian
        "discard_trull",  # {card}, Austrian
        "discard_trump",  # {card}
        "excuse_before_last",
        "first_lead_called_suit",  # {suit}
        "follow_suit",  # {suit}
        "follow_trumps",
        "must_trump",  # {suit}
        "overtrump",  # {card}: the highest trump in the trick
    }
)
"""Every ``code`` an :class:`IllegalActionError` carries: stable words a page or a terminal turns
into a sentence (:mod:`atout.engine.refusals`); the comments list each code's ``params``."""


class IllegalActionError(ValueError):
    """An action the rules forbid; the state is left unchanged.

    ``rule`` names the rule, e.g. ``"rule book §3.8 follow suit"``; ``reason`` says it in English
    for logs. ``code`` (one of :data:`REFUSAL_CODES`) and ``params`` (wire words: a card ``"T21"``,
    a suit ``"H"``, a phase ``"play"``, a bid ``"garde"``) say it for people, in any language.
    The params only ever name the acting seat's own cards or public facts.
    """

    def __init__(self, rule: str, message: str, code: str, params: Mapping[str, str] | None = None) -> None:
        super().__init__(f"{message} ({rule})")
        if code not in REFUSAL_CODES:
            raise ValueError(f"unknown refusal code {code!r}")
        self.rule = rule
        self.reason = message
        self.code = code
        self.params: dict[str, str] = dict(params or {})


def suit_word(suit: int) -> str:
    """A suit as the wire writes it: ``S``, ``H``, ``D``, ``C``, or ``T`` for trumps."""
    return "T" if suit == TRUMP else SUIT_LETTERS[suit]


def card_param(card: int) -> dict[str, str]:
    """``{"card": "T21"}``: a card as a refusal's params name it."""
    return {"card": card_name(card)}


def not_an_action(action: object, game: str, other_class: type, other_game: str) -> IllegalActionError:
    """The refusal of something that is not an action of ``game``, named exactly as given."""
    if type(action) is other_class:
        return IllegalActionError(
            "actions",
            f"{action!r} is an action of {other_game}, not of {game}",
            "other_game",
            {"game": "austrian" if other_game == "Austrian Tarock" else "french"},
        )
    return IllegalActionError("actions", f"{action!r} is not an action of {game}", "not_an_action")

"""An engine's refusal in words for a person: the sentence for each refusal code.

:class:`~atout.engine.errors.IllegalActionError` carries a ``code`` and ``params`` of wire words
(``{"suit": "H"}``, ``{"card": "T21"}``); :func:`refusal_text` turns them into English, with
cards and suits named as people say them, never a card code or a seat number. The browser page
has the same sentences under its ``refusal.<code>`` keys (``web/static/strings.js``).

>>> refusal_text("follow_suit", {"suit": "H"})
'You must follow hearts.'
>>> refusal_text("overtrump", {"card": "T13"})
'You must play a trump higher than the 13 of trumps.'
>>> refusal_text("not_held", {"card": "EX"}, game="austrian")
'You do not hold the Sküs.'
"""

from __future__ import annotations

from collections.abc import Mapping

from atout.engine.errors import REFUSAL_CODES

SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "T": "trumps"}
_RANKS = {"K": "king", "Q": "queen", "C": "cavalier", "J": "jack"}
_PHASES = {
    "bidding": "the bidding",
    "call": "the call of a king",
    "discard": "the écart",
    "chelem": "the chelem announcement",
    "poignee": "the poignée",
    "misere": "the misère",
    "excuse_sec": "the Excuse sec",
    "play": "the play of the cards",
    "talon": "the choice of a talon half",
    "game": "the choice of the game",
    "end": "the end of the deal",
}
_BIDS = {"garde_sans": "garde sans", "garde_contre": "garde contre"}
_LEVELS = {"simple": "simple", "double": "double", "triple": "triple"}
_MISERES = {"no_trumps": "no trumps", "no_courts": "no court cards", "both": "neither"}
_GAMES = {"french": "French Tarot", "austrian": "Austrian Tarock"}

TEXTS: dict[str, str] = {
    "not_an_action": "That is not a move of this game.",
    "other_game": "That is a move of {game}, not of this game.",
    "deal_over": "The deal is over.",
    "deal_cancelled": "The deal was cancelled: everyone passed.",
    "wrong_phase": "That is not a move for now: this is {phase}.",
    "not_in_game": "The game for two has no bidding, chien, écart or poignée.",
    "bid_too_low": "You may not bid {bid}: a bid must be higher than the highest bid so far.",
    "bid_not_played": "{bid} is not played at this table.",
    "call_card": (
        "You may not call {card}: call a king (a queen only when you hold all four kings, "
        "then a cavalier, then a jack)."
    ),
    "poignee_show": "A poignée shows your own trumps, each once: not {card}.",
    "not_enough_trumps": "You do not hold enough trumps for a {level} poignée.",
    "partial_slam_off": "A partial slam is not played at this table.",
    "misere_not_held": "Your hand does not qualify for that misère ({kind}).",
    "excuse_sec_not_held": "Only a hand whose one trump is the Excuse may cancel the deal.",
    "chelem_first": "First say whether you announce a chelem.",
    "chelem_before_first_card": "A chelem is announced before the first card, at tables that play it.",
    "not_held": "You do not hold {card}.",
    "not_available": "Play a card of your hand or a face-up card on top of your piles.",
    "discard_king_or_bout": "A king or a bout may not be laid aside.",
    "discard_king": "A king may not be laid aside.",
    "discard_trull": "The Sküs, the Mond and the Pagat may not be laid aside.",
    "discard_trump": "A trump may be laid aside only when too few other cards remain.",
    "excuse_before_last": "The Excuse must be played before the last trick.",
    "first_lead_called_suit": "The first card of the deal may not be of the called suit, {suit}, unless it is the called card.",
    "follow_suit": "You must follow {suit}.",
    "follow_trumps": "Trumps were led: you must play a trump.",
    "must_trump": "You have no {suit}: you must play a trump.",
    "overtrump": "You must play a trump higher than {card}.",
}
"""The English sentence of each refusal code; ``{name}`` is filled from its params."""


def card_words(card: str, game: str = "french") -> str:
    """A card named as people say it: ``the 21 of trumps``, ``the king of spades``, ``the Excuse``."""
    if card == "EX":
        return "the Sküs" if game == "austrian" else "the Excuse"
    if card.startswith("T") and card[1:].isdigit():
        return f"the {card[1:]} of trumps"
    rank, suit = card[:-1], card[-1:]
    if suit not in SUIT_WORDS or not rank:
        return card
    return f"the {_RANKS.get(rank, rank)} of {SUIT_WORDS[suit]}"


def _word(name: str, value: str, game: str) -> str:
    if name == "card":
        return card_words(value, game)
    if name == "suit":
        return SUIT_WORDS.get(value, value)
    if name == "phase":
        return _PHASES.get(value, value)
    if name == "bid":
        return _BIDS.get(value, value)
    if name == "level":
        return _LEVELS.get(value, value)
    if name == "kind":
        return _MISERES.get(value, value)
    if name == "game":
        return _GAMES.get(value, value)
    return value


def refusal_text(code: str, params: Mapping[str, str] | None = None, game: str = "french") -> str:
    """The refusal ``code`` with its ``params`` as an English sentence (``game`` names the pack:
    the Excuse is the Sküs in Austrian Tarock)."""
    if code not in REFUSAL_CODES:
        return "That move is not allowed."
    words = {name: _word(name, str(value), game) for name, value in (params or {}).items()}
    text = TEXTS[code]
    for name, value in words.items():
        text = text.replace("{" + name + "}", value)
    return text[:1].upper() + text[1:]


__all__ = ["SUIT_WORDS", "TEXTS", "card_words", "refusal_text"]

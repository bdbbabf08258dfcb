"""An engine's refusal in words for a person: the sentence for each refusal code.

:class:`~atout.engine.errors.IllegalActionError` carries a ``code`` and ``params`` of wire words
(``{"suit": "H"}``, ``{"card": "T21"}``); :func:`refusal_text` turns them into English, with
cards and suits named as people say them, never a card code or a seat number. The sentences are
marked for translation (:mod:`atout.i18n`); the browser page has the same ones under its
``refusal.<code>`` keys (``web/static/strings.js``).

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
from atout.i18n import _


def suit_words() -> dict[str, str]:
    """Each suit's word (wire letter → words), in the current language."""
    return {"S": _("spades"), "H": _("hearts"), "D": _("diamonds"), "C": _("clubs"), "T": _("trumps")}


def _ranks() -> dict[str, str]:
    return {"K": _("king"), "Q": _("queen"), "C": _("cavalier"), "J": _("jack")}


def _phases() -> dict[str, str]:
    return {
        "bidding": _("the bidding"),
        "call": _("the call of a king"),
        "discard": _("the écart"),
        "chelem": _("the chelem announcement"),
        "poignee": _("the poignée"),
        "misere": _("the misère"),
        "excuse_sec": _("the Excuse sec"),
        "play": _("the play of the cards"),
        "talon": _("the choice of a talon half"),
        "game": _("the choice of the game"),
        "end": _("the end of the deal"),
    }


def _others() -> dict[str, dict[str, str]]:
    """Wire words in words of the current language, by kind: ``bid``, ``level`` (a poignée's),
    ``kind`` (a misère's)."""
    return {
        "bid": {
            "pass": _("pass"),
            "petite": _("petite"),
            "pousse": _("pousse"),
            "garde": _("garde"),
            "garde_sans": _("garde sans"),
            "garde_contre": _("garde contre"),
            "threesome": _("threesome"),
            "solo": _("solo"),
        },
        "level": {"simple": _("simple"), "double": _("double"), "triple": _("triple")},
        "kind": {"no_trumps": _("no trumps"), "no_courts": _("no court cards"), "both": _("neither")},
        "game": {"french": _("French Tarot"), "austrian": _("Austrian Tarock")},
    }


def texts() -> dict[str, str]:
    """The sentence of each refusal code in the current language; ``{name}`` is filled from its params."""
    return {
        "not_an_action": _("That is not a move of this game."),
        "other_game": _("That is a move of {game}, not of this game."),
        "deal_over": _("The deal is over."),
        "deal_cancelled": _("The deal was cancelled: everyone passed."),
        "wrong_phase": _("That is not a move for now: this is {phase}."),
        "not_in_game": _("The game for two has no bidding, chien, écart or poignée."),
        "bid_too_low": _("You may not bid {bid}: a bid must be higher than the highest bid so far."),
        "bid_not_played": _("{bid} is not played at this table."),
        "call_card": _(
            "You may not call {card}: call a king (a queen only when you hold all four kings, "
            "then a cavalier, then a jack)."
        ),
        "poignee_show": _("A poignée shows your own trumps, each once: not {card}."),
        "not_enough_trumps": _("You do not hold enough trumps for a {level} poignée."),
        "partial_slam_off": _("A partial slam is not played at this table."),
        "misere_not_held": _("Your hand does not qualify for that misère ({kind})."),
        "excuse_sec_not_held": _("Only a hand whose one trump is the Excuse may cancel the deal."),
        "chelem_first": _("First say whether you announce a chelem."),
        "chelem_before_first_card": _("A chelem is announced before the first card, at tables that play it."),
        "not_held": _("You do not hold {card}."),
        "not_available": _("Play a card of your hand or a face-up card on top of your piles."),
        "discard_king_or_bout": _("A king or a bout may not be laid aside."),
        "discard_king": _("A king may not be laid aside."),
        "discard_trull": _("The Sküs, the Mond and the Pagat may not be laid aside."),
        "discard_trump": _("A trump may be laid aside only when too few other cards remain."),
        "excuse_before_last": _("The Excuse must be played before the last trick."),
        "first_lead_called_suit": _(
            "The first card of the deal may not be of the called suit, {suit}, unless it is the called card."
        ),
        "follow_suit": _("You must follow {suit}."),
        "follow_trumps": _("Trumps were led: you must play a trump."),
        "must_trump": _("You have no {suit}: you must play a trump."),
        "overtrump": _("You must play a trump higher than {card}."),
    }


def card_words(card: str, game: str = "french") -> str:
    """A card named as people say it: ``the 21 of trumps``, ``the king of spades``, ``the Excuse``."""
    if card == "EX":
        return _("the Sküs") if game == "austrian" else _("the Excuse")
    if card.startswith("T") and card[1:].isdigit():
        return _("the {n} of trumps").replace("{n}", card[1:])
    rank, suit = card[:-1], card[-1:]
    suits = suit_words()
    if suit not in suits or not rank:
        return card
    return (
        _("the {rank} of {suit}").replace("{rank}", _ranks().get(rank, rank)).replace("{suit}", suits[suit])
    )


def wire_word(kind: str, value: str) -> str:
    """A wire word in words: ``wire_word("bid", "garde_sans")`` is "garde sans" (in the current language)."""
    return _others().get(kind, {}).get(value, value.replace("_", " "))


def _word(name: str, value: str, game: str) -> str:
    if name == "card":
        return card_words(value, game)
    if name == "suit":
        return suit_words().get(value, value)
    if name == "phase":
        return _phases().get(value, value)
    return _others().get(name, {}).get(value, value)


def refusal_text(code: str, params: Mapping[str, str] | None = None, game: str = "french") -> str:
    """The refusal ``code`` with its ``params`` as a sentence in the current language (``game``
    names the pack: the Excuse is the Sküs in Austrian Tarock)."""
    if code not in REFUSAL_CODES:
        return _("That move is not allowed.")
    words = {name: _word(name, str(value), game) for name, value in (params or {}).items()}
    text = texts()[code]
    for name, value in words.items():
        text = text.replace("{" + name + "}", value)
    return text[:1].upper() + text[1:]


__all__ = ["card_words", "refusal_text", "suit_words", "texts"]

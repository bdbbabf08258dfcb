"""Austrian Tarock trick rules (rule book §5.4): what may be played, and who wins.

A trick is its led suit (``-1`` before the lead; ``TRUMP`` for a trump lead, Sküs included) and
the mask of its cards. There is no Excuse: Sküs (index 77) is the top trump.

>>> from atout.cards import CardSet, HEARTS, TRUMP, card_name
>>> hand = CardSet.parse("KS T5 T12 EX").mask
>>> str(CardSet(legal_cards(hand, TRUMP, CardSet.parse("T9").mask)))
'T12 EX'
>>> card_name(winning_card(CardSet.parse("1H 4H JH").mask, HEARTS))
'JH'
>>> card_name(winning_card(CardSet.parse("1H 4H 2H").mask, HEARTS))
'1H'
"""

from __future__ import annotations

from atout.cards import SUIT_MASKS, TRUMP
from atout.engine.austrian.cards import AUSTRIAN_TRUMPS_MASK, STRENGTH


def legal_cards(hand: int, led_suit: int, trick: int, must_overtrump: bool = True) -> int:
    """The cards of ``hand`` that may be played (rule book §5.4).

    Any card may lead. Follow the suit led; failing that, trump; failing that, any card.
    With ``must_overtrump``, a trump played to a trick that already holds a trump must beat
    it when the hand can (trump leads included), else any trump.
    """
    if led_suit < 0:
        return hand
    if led_suit != TRUMP:
        follow = hand & SUIT_MASKS[led_suit]
        if follow:
            return follow
    trumps = hand & AUSTRIAN_TRUMPS_MASK
    if not trumps:
        return hand
    if must_overtrump:
        top = (trick & AUSTRIAN_TRUMPS_MASK).bit_length()
        higher = trumps >> top << top
        if higher:
            return higher
    return trumps


def winning_card(trick: int, led_suit: int) -> int:
    """The highest trump (Sküs above all), else the strongest card of the suit led;
    in hearts and diamonds the 1 beats the 2, 3 and 4 (rule book §1.2)."""
    trumps = trick & AUSTRIAN_TRUMPS_MASK
    if trumps:
        return trumps.bit_length() - 1
    best, mask = -1, trick & SUIT_MASKS[led_suit]
    while mask:
        low = mask & -mask
        card = low.bit_length() - 1
        if best < 0 or STRENGTH[card] > STRENGTH[best]:
            best = card
        mask ^= low
    return best

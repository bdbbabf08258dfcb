"""Trick rules shared by every French game: what may be played, and who wins (rule book §3.8).

A trick is described by its led suit (``-1`` while only the Excuse, or nothing, has been
played) and the mask of the cards already in it. Higher bits are higher cards.

>>> from atout.cards import CardSet, SPADES, TRUMP
>>> hand = CardSet.parse("2S KH T5 T12 EX").mask
>>> str(CardSet(legal_cards(hand, SPADES, CardSet.parse("QS").mask)))
'2S EX'
>>> str(CardSet(legal_cards(hand, TRUMP, CardSet.parse("T9").mask)))
'T12 EX'
>>> from atout.cards import card_name
>>> card_name(winning_card(CardSet.parse("QS KS T2 EX").mask, SPADES))
'T2'
"""

from __future__ import annotations

from atout.cards import EXCUSE_MASK, SUIT_MASKS, TRUMP, TRUMPS_MASK


def legal_cards(hand: int, led_suit: int, trick: int) -> int:
    """The cards of ``hand`` that may be played to a trick (rule book §3.8 steps 1-4).

    The Excuse is always legal. With no suit led, any card. Otherwise follow the suit led;
    failing that, trump; and whenever a trump is played, beat the highest trump in the
    trick when able (even over a partner), else play any trump; with no trump, any card.
    """
    if led_suit < 0:
        return hand
    if led_suit != TRUMP:
        follow = hand & SUIT_MASKS[led_suit]
        if follow:
            return follow | (hand & EXCUSE_MASK)
    trumps = hand & TRUMPS_MASK
    if not trumps:
        return hand
    top = (trick & TRUMPS_MASK).bit_length()
    higher = trumps >> top << top
    return (higher or trumps) | (hand & EXCUSE_MASK)


def winning_card(trick: int, led_suit: int) -> int:
    """The card that wins a trick: its highest trump, else the highest card of the suit led.
    The Excuse never wins here (its slam exception is the game's to apply)."""
    trumps = trick & TRUMPS_MASK
    return (trumps or trick & SUIT_MASKS[led_suit]).bit_length() - 1

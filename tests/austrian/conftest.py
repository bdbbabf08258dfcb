"""Scenario builders for the Austrian Tarock tests: deals with chosen cards, driven by action words."""

from __future__ import annotations

from typing import Any

from atout.cards import AUSTRIAN_DECK_MASK, CardSet, cards_of
from atout.engine.austrian.cards import parse_austrian_card
from atout.engine.austrian.deal import AustrianDeal
from atout.rules import Rules

# The card play scenario: seat 0 holds all the spades, seat 1 is void in spades, seat 2 too.
PLAY_HANDS = {
    0: "KS QS CS JS 10S 9S 8S 7S T21 T20 T19 T18 1H 2H 3H 4H",
    1: "T2 T3 T4 T10 KH QH CH JH 1D 2D 3D 4D JD CD QD KD",
    2: "KC QC CC JC 10C 9C 8C 7C T5 T6 T7 T8 T9 T11 T12 EX",
}
PLAY_TALON = ("T1 T13 T14", "T15 T16 T17")


def rules(**options: Any) -> Rules:
    return Rules.from_options({"game": "austrian", "players": 3, **options})


def mask(text: str) -> int:
    return sum(1 << parse_austrian_card(w) for w in text.split())


def build(
    hands: dict[int, str] | None = None,
    talon: tuple[str, str] = ("", ""),
    dealer: int = 2,
    **options: Any,
) -> AustrianDeal:
    """A deal where the named seats and talon halves hold at least the named cards; the other
    cards fill the seats missing the most cards (trumps from Sküs down, then the suits), then
    the first half, then the second. ``dealer`` 2 makes seat 0 forehand: it bids and leads first."""
    given = [mask((hands or {}).get(seat, "")) for seat in range(3)]
    halves = [mask(talon[0]), mask(talon[1])]
    used = 0
    for m in [*given, *halves]:
        assert not used & m, "a card is named twice"
        used |= m
    need = [16 - m.bit_count() for m in given]
    fill = sorted(cards_of(AUSTRIAN_DECK_MASK & ~used), reverse=True)
    for card in fill:
        seat = max(range(3), key=lambda s: (need[s], -s))
        if need[seat]:
            given[seat] |= 1 << card
            need[seat] -= 1
        elif halves[0].bit_count() < 3:
            halves[0] |= 1 << card
        else:
            halves[1] |= 1 << card
    return AustrianDeal(rules(**options), dealer, given, halves)


def run(deal: AustrianDeal, *words: str) -> AustrianDeal:
    """Apply actions given as words (a bare card means play, or discard in the discard phase)."""
    for word in words:
        deal.apply(deal.parse(word))
    return deal


def names(cards: int) -> set[str]:
    return set(str(CardSet(cards)).split())


def snapshot(deal: AustrianDeal) -> tuple[object, ...]:
    """Everything an action could change."""
    return (
        list(deal.history),
        list(deal.hands),
        deal.phase,
        deal.current_player,
        deal.events,
        deal.discard,
        list(deal.bids),
        deal.talon_half,
        deal.game_type,
        list(deal.trick_cards),
        list(deal.won),
    )

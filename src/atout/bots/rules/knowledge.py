"""What a seat knows during card play, read from its view alone: the pack's card rules, the
cards still unseen, who is void in what, and which seats are known friends.

Everything here is built from one view per decision; nothing is remembered between decisions
(the playout driver, :mod:`atout.bots.rules.playout`, builds the same tables from the deal itself).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from atout.cards import (
    ALL_CARDS,
    AUSTRIAN_DECK_MASK,
    EXCUSE,
    HALF_POINTS,
    SUIT_MASKS,
    SUIT_OF,
    TRUMP,
    TRUMPS_MASK,
    cards_of,
)
from atout.engine.austrian.cards import AUSTRIAN_SUIT_OF, AUSTRIAN_TRUMPS_MASK, STRENGTH, card_value
from atout.engine.austrian.tricks import winning_card as austrian_winner
from atout.engine.tricks import winning_card as french_winner
from atout.engine.view import TrickView

Plays = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Pack:
    """A game's card rules as the play rules need them."""

    deck: int
    trumps: int
    excuse: int
    """The Excuse's index, or -1 (Austrian Tarock has none: index 77 is Sküs, a trump)."""
    suit_of: tuple[int, ...]
    strength: tuple[int, ...]
    """Order within a suit (higher wins)."""
    value: tuple[int, ...]
    """Card points in the game's unit (French half-points, Austrian values)."""
    winner: Callable[[int, int], int]
    """The winning card of a trick mask (no Excuse in it) and led suit."""
    stronger: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """For each card, the mask of the cards of higher :attr:`strength` (any suit)."""
    suit_cards: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """For each suit number, the mask of the cards :attr:`suit_of` puts in it."""
    masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """:meth:`suit_mask` for each suit number."""

    def __post_init__(self) -> None:
        strength, suit_of = self.strength, self.suit_of
        stronger = tuple(
            sum(1 << c for c in range(len(strength)) if strength[c] > strength[card])
            for card in range(len(strength))
        )
        suit_cards = tuple(
            sum(1 << c for c in range(len(suit_of)) if suit_of[c] == suit) for suit in range(max(suit_of) + 1)
        )
        object.__setattr__(self, "stronger", stronger)
        object.__setattr__(self, "suit_cards", suit_cards)
        masks = tuple(self.trumps if suit == TRUMP else SUIT_MASKS[suit] for suit in range(len(SUIT_MASKS)))
        object.__setattr__(self, "masks", masks)

    def suit_mask(self, suit: int) -> int:
        return self.masks[suit]


FRENCH_PACK = Pack(ALL_CARDS, TRUMPS_MASK, EXCUSE, SUIT_OF, tuple(range(78)), HALF_POINTS, french_winner)


def austrian_pack(jack_value: int) -> Pack:
    """The Austrian pack for a jack value of 2 or 3."""
    values = tuple(card_value(c, jack_value) for c in range(78))
    return Pack(
        AUSTRIAN_DECK_MASK, AUSTRIAN_TRUMPS_MASK, -1, AUSTRIAN_SUIT_OF, STRENGTH, values, austrian_winner
    )


AUSTRIAN_PACKS = {2: austrian_pack(2), 3: austrian_pack(3)}


def led_suit(pack: Pack, plays: Plays) -> int:
    """The suit of the first non-Excuse card of a trick, or -1."""
    for _, card in plays:
        if card != pack.excuse:
            return pack.suit_of[card]
    return -1


def voids_of(pack: Pack, tricks: tuple[TrickView, ...], current: Plays) -> dict[int, set[int]]:
    """The suits (``TRUMP`` included) each seat has shown it lacks, by the follow and trump rules."""
    voids: dict[int, set[int]] = {}
    for plays in [t.plays for t in tricks] + [current]:
        for seat, suit in _trick_voids(pack, plays):
            voids.setdefault(seat, set()).add(suit)
    return voids


_VOIDS_CACHE: dict[tuple[int, Plays], tuple[tuple[int, int], ...]] = {}


def _trick_voids(pack: Pack, plays: Plays) -> tuple[tuple[int, int], ...]:
    """``(seat, suit)`` for each void one trick shows (memoised: tricks recur in every view)."""
    key = (id(pack), plays)
    found = _VOIDS_CACHE.get(key)
    if found is not None:
        return found
    out: list[tuple[int, int]] = []
    led = led_suit(pack, plays)
    if led >= 0:
        for seat, card in plays:
            if card == pack.excuse:
                continue
            suit = pack.suit_of[card]
            if suit != led:
                out.append((seat, led))
                if suit != TRUMP:
                    out.append((seat, TRUMP))
    if len(_VOIDS_CACHE) > 200_000:
        _VOIDS_CACHE.clear()
    found = _VOIDS_CACHE[key] = tuple(out)
    return found


@dataclass
class Table:
    """One seat's knowledge at its turn to play a card."""

    pack: Pack
    me: int
    hand: int
    """The cards this seat may still play (in 2 players, hand and face-up pile tops)."""
    legal: int
    plays: Plays
    later: tuple[int, ...]
    """Seats still to play in this trick after this one."""
    unseen: int
    """Cards that may be in another seat's hand."""
    voids: dict[int, set[int]]
    good: Callable[[int], bool]
    """Whether a trick won by that seat is good for this seat's side (unknown seats are not)."""
    attacker: bool
    """Whether this seat plays for the contract (taker, known partner, or a 2-player seat)."""
    taker: int | None
    side_won_all: bool
    tricks_left: int
    lead_low_in: int = -1
    """A suit to lead from the bottom (the called suit, for a taker still looking for his partner)."""

    def may_hold(self, seat: int, suit: int) -> int:
        """Unseen cards of a suit that ``seat`` may hold (0 if it showed a void)."""
        if suit in self.voids.get(seat, ()):
            return 0
        return self.unseen & self.pack.masks[suit]

    def can_beat(self, seat: int, best: int, led: int) -> bool:
        """Whether ``seat`` might beat ``best`` in a trick led in ``led``."""
        pack = self.pack
        higher_trumps = self.may_hold(seat, TRUMP) & ~((1 << (best + 1)) - 1) if best >= 56 else 0
        if led == TRUMP:
            return bool(higher_trumps)
        follow = self.may_hold(seat, led)
        # with two or fewer unseen cards of the suit, count the seat as likely void
        likely_void = follow.bit_count() < 2
        if pack.suit_of[best] == TRUMP:
            return likely_void and bool(higher_trumps)
        if follow & pack.stronger[best]:
            return True  # a higher card of the suit
        return likely_void and bool(self.may_hold(seat, TRUMP))

    def secure(self, best: int, led: int, winner: int) -> bool:
        """Whether a trick won now by ``best`` stays with a good seat whatever the later seats hold."""
        return not any(not self.good(p) and self.can_beat(p, best, led) for p in self.later)

    def secure_cards(self, cards: int, led: int) -> int:
        """The cards ``c`` of ``cards`` for which :meth:`secure` ``(c, led, ...)`` holds: played
        now (and winning the trick), no later foe could take the trick back."""
        for seat in self.later:
            if not self.good(seat):
                cards &= ~self._beatable(seat, cards, led)
                if not cards:
                    break
        return cards

    def _beatable(self, seat: int, cards: int, led: int) -> int:
        """The cards ``c`` of ``cards`` for which :meth:`can_beat` ``(seat, c, led)`` holds."""
        pack = self.pack
        trumps = self.may_hold(seat, TRUMP)
        # cards from index 56 up below the seat's highest possible trump: a higher trump may come
        under = cards & ~((1 << 56) - 1) & ((1 << (trumps.bit_length() - 1)) - 1) if trumps else 0
        if led == TRUMP:
            return under
        follow = self.may_hold(seat, led)
        likely_void = follow.bit_count() < 2
        suit_trumps = pack.suit_cards[TRUMP]
        beaten = under & suit_trumps if likely_void else 0
        others = cards & ~suit_trumps
        if likely_void and trumps:
            return beaten | others
        stronger = pack.stronger
        for card in cards_of(others):
            if follow & stronger[card]:
                beaten |= 1 << card
        return beaten

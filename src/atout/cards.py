"""The 78-card French Tarot pack, card points, notation and :class:`CardSet`.

Every card is a small integer index, and a set of cards is one Python ``int``
used as a bitset (bit ``i`` set means card ``i`` is in the set)::

    bits  0-13   spades    1 2 ... 10 J C Q K   (index = suit * 14 + rank - 1)
    bits 14-27   hearts
    bits 28-41   diamonds
    bits 42-55   clubs
    bits 56-76   trumps 1 ... 21               (index = 55 + number)
    bit  77      the Excuse

Within each suit and within the trumps a higher bit is a higher card, so the
highest card of a mask is ``mask.bit_length() - 1``.

Notation (see ``docs/notation.md``): a suit card is its rank then its suit
letter (``KS``, ``10H``, ``CC`` for the cavalier of clubs, ``1D``), a trump is
``T`` and its number (``T21``, ``T1``), the Excuse is ``EX``.

>>> card_name(parse_card("kh")), card_name(parse_card("T21")), card_name(parse_card("Excuse"))
('KH', 'T21', 'EX')
>>> hand = CardSet.parse("KS QS T21 EX")
>>> len(hand), hand.points()
(4, 17.0)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

SPADES: Final = 0
HEARTS: Final = 1
DIAMONDS: Final = 2
CLUBS: Final = 3
TRUMP: Final = 4
"""The trump "suit" number, used for the led suit of a trick."""
EXCUSE_SUIT: Final = 5

SUIT_LETTERS: Final = "SHDC"
SUIT_SYMBOLS: Final = "♠♥♦♣"

JACK: Final = 11
CAVALIER: Final = 12
QUEEN: Final = 13
KING: Final = 14
RANK_LETTERS: Final = {JACK: "J", CAVALIER: "C", QUEEN: "Q", KING: "K"}

N_CARDS: Final = 78
EXCUSE: Final = 77
"""Index of the Excuse."""
PETIT: Final = 56
"""Index of trump 1, le Petit."""
TRUMP_21: Final = 76


def suit_card(suit: int, rank: int) -> int:
    """Index of the suit card of ``rank`` (1-14, 14 = king) in ``suit`` (0-3)."""
    if not (0 <= suit <= 3 and 1 <= rank <= 14):
        raise ValueError(f"no suit card with suit {suit} and rank {rank}")
    return suit * 14 + rank - 1


def trump(number: int) -> int:
    """Index of trump ``number`` (1-21)."""
    if not 1 <= number <= 21:
        raise ValueError(f"no trump numbered {number}")
    return 55 + number


def suit_of(card: int) -> int:
    """Suit of a card: 0-3 for the plain suits, ``TRUMP`` or ``EXCUSE_SUIT``."""
    return SUIT_OF[card]


def rank_of(card: int) -> int:
    """Rank of a card: 1-14 in a plain suit, 1-21 for a trump, 0 for the Excuse."""
    if card == EXCUSE:
        return 0
    if card >= PETIT:
        return card - 55
    return card % 14 + 1


# ---------------------------------------------------------------- masks
ALL_CARDS: Final = (1 << N_CARDS) - 1
SUIT_MASKS: Final = (
    *(((1 << 14) - 1) << (14 * s) for s in range(4)),
    ((1 << 21) - 1) << PETIT,
    1 << EXCUSE,
)
"""Mask of each suit number (0-3, ``TRUMP``, ``EXCUSE_SUIT``)."""
PLAIN_SUITS_MASK: Final = (1 << 56) - 1
TRUMPS_MASK: Final = SUIT_MASKS[TRUMP]
EXCUSE_MASK: Final = 1 << EXCUSE
PETIT_MASK: Final = 1 << PETIT
BOUTS_MASK: Final = (1 << PETIT) | (1 << TRUMP_21) | EXCUSE_MASK
KINGS_MASK: Final = sum(1 << suit_card(s, KING) for s in range(4))
QUEENS_MASK: Final = sum(1 << suit_card(s, QUEEN) for s in range(4))
CAVALIERS_MASK: Final = sum(1 << suit_card(s, CAVALIER) for s in range(4))
JACKS_MASK: Final = sum(1 << suit_card(s, JACK) for s in range(4))
LOW_CARDS_MASK: Final = ALL_CARDS & ~(BOUTS_MASK | KINGS_MASK | QUEENS_MASK | CAVALIERS_MASK | JACKS_MASK)
"""The cards worth half a point: pips 1-10 and trumps 2-20."""
MIDDLE_TRUMPS_MASK: Final = TRUMPS_MASK & ~BOUTS_MASK
"""Trumps 2-20: the only trumps that may ever be discarded."""
AUSTRIAN_DECK_MASK: Final = ALL_CARDS & ~sum(
    (1 << suit_card(s, r))
    for s, ranks in (
        (SPADES, range(1, 7)),
        (CLUBS, range(1, 7)),
        (HEARTS, range(5, 11)),
        (DIAMONDS, range(5, 11)),
    )
    for r in ranks
)
"""The 54 cards of the Austrian Tarock pack (rule book §1.2)."""

SUIT_OF: Final = tuple([c // 14 for c in range(56)] + [TRUMP] * 21 + [EXCUSE_SUIT])
BIT: Final = tuple(1 << c for c in range(N_CARDS))

_HALF_POINTS = [1] * N_CARDS
for _c in range(N_CARDS):
    _bit = 1 << _c
    if _bit & (BOUTS_MASK | KINGS_MASK):
        _HALF_POINTS[_c] = 9
    elif _bit & QUEENS_MASK:
        _HALF_POINTS[_c] = 7
    elif _bit & CAVALIERS_MASK:
        _HALF_POINTS[_c] = 5
    elif _bit & JACKS_MASK:
        _HALF_POINTS[_c] = 3
HALF_POINTS: Final = tuple(_HALF_POINTS)
"""Card points of each card in half-points (a king is 9, a low card 1)."""
TOTAL_HALF_POINTS: Final = 182

_NINES = BOUTS_MASK | KINGS_MASK


def half_points(mask: int) -> int:
    """Card points of a card mask in half-points (rule book §1.1)."""
    return (
        mask.bit_count()
        + 8 * (mask & _NINES).bit_count()
        + 6 * (mask & QUEENS_MASK).bit_count()
        + 4 * (mask & CAVALIERS_MASK).bit_count()
        + 2 * (mask & JACKS_MASK).bit_count()
    )


def count_bouts(mask: int) -> int:
    """Number of bouts (21, Petit, Excuse) in a card mask."""
    return (mask & BOUTS_MASK).bit_count()


def nth_card(mask: int, k: int) -> int:
    """The ``k``-th card of a mask, lowest first (``k`` from 0).

    >>> card_name(nth_card(CardSet.parse("3S KS T2").mask, 1))
    'KS'
    """
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


def cards_of(mask: int) -> list[int]:
    """The card indices of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: Iterable[int]) -> int:
    """The mask of some card indices."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


# ---------------------------------------------------------------- notation
def card_name(card: int) -> str:
    """Short ASCII name of a card: ``KS``, ``10H``, ``T21``, ``EX``."""
    return NAMES[card]


def _name(card: int) -> str:
    if card == EXCUSE:
        return "EX"
    if card >= PETIT:
        return f"T{card - 55}"
    rank = card % 14 + 1
    return f"{RANK_LETTERS.get(rank, str(rank))}{SUIT_LETTERS[card // 14]}"


NAMES: Final = tuple(_name(c) for c in range(N_CARDS))

_RANK_WORDS = {"J": JACK, "V": JACK, "C": CAVALIER, "Q": QUEEN, "D": QUEEN, "K": KING, "R": KING, "A": 1}
_SUIT_WORDS = {"S": SPADES, "H": HEARTS, "D": DIAMONDS, "C": CLUBS}
for _i, _sym in enumerate(SUIT_SYMBOLS):
    _SUIT_WORDS[_sym] = _i
_EXCUSE_WORDS = {"EX", "EXC", "EXCUSE", "E", "*", "FOOL", "0"}


def parse_card(text: str) -> int:
    """Parse one card name (case-insensitive).

    Accepts ``KS``/``RS`` (king), ``QS``/``DS`` (queen), ``CS`` (cavalier),
    ``JS``/``VS`` (valet), ``1S``..``10S`` (``AS`` for 1), suit symbols
    ``♠♥♦♣``, trumps ``T1``..``T21`` (or a bare number ``1``..``21``), and the
    Excuse as ``EX``, ``Excuse`` or ``*``.

    Raises :class:`ValueError` naming the bad text.
    """
    word = text.strip().upper()
    if not word:
        raise ValueError("empty card name")
    if word in _EXCUSE_WORDS:
        return EXCUSE
    if word.isdigit() or (word[0] == "T" and word[1:].isdigit()):
        number = int(word.lstrip("T"))
        if 1 <= number <= 21:
            return trump(number)
        raise ValueError(f"no trump numbered {number} in {text!r} (trumps are T1..T21)")
    suit = _SUIT_WORDS.get(word[-1])
    rank_text = word[:-1]
    if suit is not None and rank_text:
        if rank_text.isdigit() and 1 <= int(rank_text) <= 10:
            return suit_card(suit, int(rank_text))
        if rank_text in _RANK_WORDS:
            return suit_card(suit, _RANK_WORDS[rank_text])
    raise ValueError(f"not a card: {text!r} (write KS, QH, CD, JC, 10S, 1H, T21, T1 or EX)")


class CardSet:
    """A set of cards kept as a bitset in one ``int``.

    Reads like a set: iteration (lowest card first), ``in``, ``len``, ``|``,
    ``&``, ``-``, ``^`` and comparisons.

    >>> s = CardSet.parse("T1 T21 EX")
    >>> PETIT in s, s.bouts(), str(s)
    (True, 3, 'T1 T21 EX')
    """

    __slots__ = ("mask",)

    def __init__(self, cards: int | Iterable[int] = 0) -> None:
        if isinstance(cards, int):
            if cards < 0 or cards > ALL_CARDS:
                raise ValueError("a card mask must lie in 0 .. 2**78 - 1")
            self.mask = cards
        else:
            self.mask = mask_of(cards)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Parse card names separated by spaces or commas."""
        words = text.replace(",", " ").split()
        return cls(parse_card(w) for w in words)

    def __iter__(self) -> Iterator[int]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < N_CARDS and bool(self.mask >> card & 1)

    def __bool__(self) -> bool:
        return self.mask != 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask ^ other.mask)

    def __le__(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def __str__(self) -> str:
        return " ".join(NAMES[c] for c in self)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"

    def points(self) -> float:
        """Card points (rule book §1.1), halves included."""
        return half_points(self.mask) / 2

    def half_points(self) -> int:
        """Card points in half-points."""
        return half_points(self.mask)

    def bouts(self) -> int:
        """Number of bouts in the set."""
        return count_bouts(self.mask)

    def of_suit(self, suit: int) -> CardSet:
        """The cards of one suit number (0-3, ``TRUMP`` or ``EXCUSE_SUIT``)."""
        return CardSet(self.mask & SUIT_MASKS[suit])

    def sorted_for_display(self) -> list[int]:
        """Cards grouped for a hand display: trumps high to low, Excuse, then suits high to low."""
        trumps = sorted((c for c in self if c >= PETIT and c != EXCUSE), reverse=True)
        excuse = [EXCUSE] if EXCUSE in self else []
        suits = [c for s in range(4) for c in sorted(cards_of(self.mask & SUIT_MASKS[s]), reverse=True)]
        return trumps + excuse + suits


FULL_DECK: Final = CardSet(ALL_CARDS)

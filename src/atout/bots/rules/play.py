"""Card play by rules, for every game: lead, follow, give points, duck, save the Petit and the Excuse.

The policy reads a :class:`~atout.bots.rules.knowledge.Table` and returns a card of ``table.legal``:

* the Excuse goes before the last trick, or when every other legal card would give points away;
* a trick won for good by one's side gets the richest card one can spare (the Petit first: it comes home);
* a trick one cannot hold gets the poorest card; one that can be won for good is won, by the Petit when
  it can, else by the cheapest safe trump or the richest safe suit card;
* leads: a safe Petit, then master suit cards, then trumps drawn by a long-trumped attacker or by a
  defence hunting the Petit, then a suit the taker must trump, then the longest suit from the bottom.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from atout.bots.rules.knowledge import Pack, Plays, Table, led_suit
from atout.cards import PETIT, TRUMP, TRUMP_21, cards_of

_GIVE_AWAY = 5
"""Half-points (French) from which a card is worth saving by the Excuse: a cavalier and up."""


def choose_card(t: Table) -> int:
    """The card to play."""
    legal = t.legal
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    pack = t.pack
    excuse = pack.excuse
    if excuse >= 0 and legal >> excuse & 1 and t.tricks_left <= 2 and not t.side_won_all:
        return excuse  # never let the Excuse fall in the last trick
    led = led_suit(pack, t.plays)
    if led < 0:
        return _lead(t)
    return _follow(t, led)


_CARDS: dict[int, tuple[int, ...]] = {}


def _cards(mask: int) -> tuple[int, ...]:
    """The cards of a mask, lowest first (memoised: the same hands come back decision after decision)."""
    found = _CARDS.get(mask)
    if found is None:
        if len(_CARDS) > 50_000:
            _CARDS.clear()
        found = _CARDS[mask] = tuple(cards_of(mask))
    return found


def _without(mask: int, card: int) -> int:
    return mask & ~(1 << card) if card >= 0 else mask


def _follow(t: Table, led: int) -> int:
    pack = t.pack
    options = _without(t.legal, pack.excuse)
    seat, best = _winning(pack, t.plays, led)
    if t.good(seat) and t.secure(best, led, seat):
        return _give(t, options)
    winners = _beating(pack, options, best, led)
    if t.good(t.me):
        safe = t.secure_cards(winners, led)
        if safe >> PETIT & 1:
            return PETIT
        trumps = pack.suit_cards[TRUMP]
        safe_suits = safe & ~trumps
        if safe_suits:
            return max(_cards(safe_suits), key=_ranks(pack).rich.__getitem__)
        safe_trumps = safe & trumps & ~(1 << PETIT)
        if safe_trumps:
            return (safe_trumps & -safe_trumps).bit_length() - 1
        if winners >> TRUMP_21 & 1 and pack.excuse >= 0:
            return TRUMP_21  # the 21 is never lost: it may as well win now
    return _duck(t, options)


def _winning(pack: Pack, plays: Plays, led: int) -> tuple[int, int]:
    """``(seat, card)`` winning the trick so far (the Excuse never wins), its suit led known."""
    mask = 0
    for _, card in plays:
        if card != pack.excuse:
            mask |= 1 << card
    best = pack.winner(mask, led)
    seat = next(s for s, c in plays if c == best)
    return seat, best


def _beating(pack: Pack, cards: int, best: int, led: int) -> int:
    """The cards of ``cards`` that beat ``best`` in a trick led in ``led``: any trump over a suit
    card, a higher trump over a trump, a stronger card of the suit led over a suit card."""
    trumps = cards & pack.suit_cards[TRUMP]
    if pack.suit_of[best] == TRUMP:
        return trumps & ~((1 << (best + 1)) - 1)
    return trumps | cards & pack.suit_cards[led] & pack.stronger[best]


def _give(t: Table, options: int) -> int:
    """The richest card to add to a trick one's side holds for good."""
    pack = t.pack
    if options >> PETIT & 1:
        return PETIT
    plain = options & ~pack.trumps
    if plain:
        return max(_cards(plain), key=_ranks(pack).rich.__getitem__)
    trumps = _without(options, TRUMP_21 if pack.excuse >= 0 else -1) or options
    return min(_cards(trumps), key=lambda c: (pack.value[c] if c != PETIT else 0, c))


def _duck(t: Table, options: int) -> int:
    """The poorest card, keeping the Petit and high trumps when one can; the Excuse saves a rich card."""
    pack = t.pack
    spare = _without(options, PETIT) or options
    card = min(_cards(spare), key=_ranks(pack).duck.__getitem__)
    excuse = pack.excuse
    if excuse >= 0 and t.legal >> excuse & 1 and pack.value[card] >= _GIVE_AWAY:
        return excuse
    return card


def _lead(t: Table) -> int:
    pack = t.pack
    legal = _without(t.legal, pack.excuse) or t.legal
    unseen_trumps = t.unseen & pack.trumps
    if legal >> PETIT & 1 and not unseen_trumps:
        return PETIT  # nobody can take it any more
    if not t.good(t.me):
        return _lowest(t, legal)
    if t.lead_low_in >= 0:
        mine = [c for c in _cards(legal & pack.suit_mask(t.lead_low_in)) if not _master(t, c)]
        if mine:
            return min(mine, key=lambda c: pack.strength[c])  # let the called king win it
    plain = legal & ~pack.trumps
    for s in t.later:
        if not t.good(s):
            for suit in t.voids.get(s, ()):
                plain &= ~pack.suit_cards[suit]  # a foe to play later lacks that suit
    unseen, masks, suit_of, stronger = t.unseen, pack.masks, pack.suit_of, pack.stronger
    masters = [c for c in _cards(plain) if not unseen & masks[suit_of[c]] & stronger[c]]
    if masters:
        return max(masters, key=pack.value.__getitem__)
    trumps = legal & pack.trumps & ~(1 << PETIT)
    if trumps:
        top = trumps.bit_length() - 1
        hunting = not t.attacker and t.unseen >> PETIT & 1
        if t.attacker and trumps.bit_count() > unseen_trumps.bit_count():
            return top  # draw the trumps
        if hunting and not unseen_trumps >> top:
            return top  # a master trump forces the taker's trumps out, and with them the Petit
    taker = t.taker
    if taker is not None and not t.attacker:
        voids = t.voids.get(taker, set())
        if TRUMP not in voids:
            cut = 0  # the plain cards of the suits the taker must trump
            for suit in voids:
                cut |= legal & ~pack.trumps & pack.suit_cards[suit]
            if cut:
                return min(_cards(cut), key=_ranks(pack).cheap.__getitem__)
    return _long_suit_low(t, legal)


def _master(t: Table, card: int) -> bool:
    """No unseen card of its suit is higher."""
    pack = t.pack
    return not t.unseen & pack.masks[pack.suit_of[card]] & pack.stronger[card]


def _long_suit_low(t: Table, legal: int) -> int:
    """The lowest card of the longest plain suit; the lowest trump if no plain card is left."""
    pack = t.pack
    plain = legal & ~pack.trumps
    if not plain:
        spare = _without(legal, PETIT) or legal
        return (spare & -spare).bit_length() - 1
    longest = 0
    first = 0  # the lowest card of the longest suit: of equally long suits, the one met first
    for suit in pack.suit_cards:
        cards = plain & suit
        if cards:
            count = cards.bit_count()
            low = cards & -cards
            if count > longest.bit_count() or (count == longest.bit_count() and low < first):
                longest, first = cards, low
    return min(_cards(longest), key=_ranks(pack).cheap.__getitem__)


@dataclass(frozen=True)
class _Ranks:
    """A pack's cards ranked for the orders the policy picks by (a higher rank comes later in the
    order; equal keys rank the lower card index first, as ``min`` and ``max`` break ties)."""

    duck: tuple[int, ...]
    """By cost to give away: value (a trump counts 2 more), then trump index or suit strength."""
    cheap: tuple[int, ...]
    """By value, then strength."""
    rich: tuple[int, ...]
    """By value, then strength, as :attr:`cheap` but with ties ranked for ``max``."""


def _rank(key: Callable[[int], tuple[int, int]], size: int, tie: int = 1) -> tuple[int, ...]:
    """Each card's place in the order of ``key``, equal keys by card index (``tie=-1``: reversed)."""
    order = sorted(range(size), key=lambda c: (key(c), tie * c))
    rank = [0] * size
    for position, card in enumerate(order):
        rank[card] = position
    return tuple(rank)


_RANKS: dict[int, tuple[Pack, _Ranks]] = {}


def _ranks(pack: Pack) -> _Ranks:
    found = _RANKS.get(id(pack))
    if found is not None and found[0] is pack:
        return found[1]

    def duck(c: int) -> tuple[int, int]:
        trump = pack.suit_of[c] == TRUMP
        return (pack.value[c] + (2 if trump else 0), c if trump else pack.strength[c])

    def cheap(c: int) -> tuple[int, int]:
        return (pack.value[c], pack.strength[c])

    size = len(pack.value)
    ranks = _Ranks(duck=_rank(duck, size), cheap=_rank(cheap, size), rich=_rank(cheap, size, tie=-1))
    _RANKS[id(pack)] = (pack, ranks)
    return ranks


def _lowest(t: Table, legal: int) -> int:
    """A lead that wins nothing: the weakest plain card, else the lowest trump."""
    pack = t.pack
    plain = legal & ~pack.trumps
    if plain:
        return min(_cards(plain), key=lambda c: (pack.strength[c], pack.value[c]))
    spare = _without(legal, PETIT) or legal
    return (spare & -spare).bit_length() - 1

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

from atout.bots.rules.knowledge import Table, led_suit, trick_winner
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


def _without(mask: int, card: int) -> int:
    return mask & ~(1 << card) if card >= 0 else mask


def _follow(t: Table, led: int) -> int:
    pack = t.pack
    options = _without(t.legal, pack.excuse)
    current = trick_winner(pack, t.plays)
    assert current is not None
    seat, best = current
    if t.good(seat) and t.secure(best, led, seat):
        return _give(t, options)
    winners = [c for c in cards_of(options) if _beats(t, c, best, led)]
    if t.good(t.me):
        safe = [c for c in winners if t.secure(c, led, t.me)]
        if PETIT in safe:
            return PETIT
        safe_trumps = [c for c in safe if pack.suit_of[c] == TRUMP and c != PETIT]
        safe_suits = [c for c in safe if pack.suit_of[c] != TRUMP]
        if safe_suits:
            return max(safe_suits, key=lambda c: (pack.value[c], pack.strength[c]))
        if safe_trumps:
            return min(safe_trumps)
        if TRUMP_21 in winners and pack.excuse >= 0:
            return TRUMP_21  # the 21 is never lost: it may as well win now
    return _duck(t, options)


def _beats(t: Table, card: int, best: int, led: int) -> bool:
    pack = t.pack
    if pack.suit_of[card] == TRUMP:
        return pack.suit_of[best] != TRUMP or card > best
    return (
        pack.suit_of[card] == led
        and pack.suit_of[best] != TRUMP
        and pack.strength[card] > pack.strength[best]
    )


def _give(t: Table, options: int) -> int:
    """The richest card to add to a trick one's side holds for good."""
    pack = t.pack
    if options >> PETIT & 1:
        return PETIT
    plain = options & ~pack.trumps
    if plain:
        return max(cards_of(plain), key=lambda c: (pack.value[c], pack.strength[c]))
    trumps = _without(options, TRUMP_21 if pack.excuse >= 0 else -1) or options
    return min(cards_of(trumps), key=lambda c: (pack.value[c] if c != PETIT else 0, c))


def _duck(t: Table, options: int) -> int:
    """The poorest card, keeping the Petit and high trumps when one can; the Excuse saves a rich card."""
    pack = t.pack
    spare = _without(options, PETIT) or options

    def cost(c: int) -> tuple[int, int]:
        trump = pack.suit_of[c] == TRUMP
        return (pack.value[c] + (2 if trump else 0), c if trump else pack.strength[c])

    card = min(cards_of(spare), key=cost)
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
    foes = [s for s in t.later if not t.good(s)]
    if t.lead_low_in >= 0:
        mine = [c for c in cards_of(legal & pack.suit_mask(t.lead_low_in)) if not _master(t, c)]
        if mine:
            return min(mine, key=lambda c: pack.strength[c])  # let the called king win it
    masters = [
        c
        for c in cards_of(legal & ~pack.trumps)
        if _master(t, c) and not any(pack.suit_of[c] in t.voids.get(s, ()) for s in foes)
    ]
    if masters:
        return max(masters, key=lambda c: pack.value[c])
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
        cut = [c for c in cards_of(legal & ~pack.trumps) if pack.suit_of[c] in voids and TRUMP not in voids]
        if cut:
            return min(cut, key=lambda c: (pack.value[c], pack.strength[c]))
    return _long_suit_low(t, legal)


def _master(t: Table, card: int) -> bool:
    """No unseen card of its suit is higher."""
    pack = t.pack
    suit = pack.suit_mask(pack.suit_of[card])
    return not any(pack.strength[c] > pack.strength[card] for c in cards_of(t.unseen & suit))


def _long_suit_low(t: Table, legal: int) -> int:
    """The lowest card of the longest plain suit; the lowest trump if no plain card is left."""
    pack = t.pack
    plain = legal & ~pack.trumps
    if not plain:
        spare = _without(legal, PETIT) or legal
        return min(cards_of(spare))
    by_suit: dict[int, list[int]] = {}
    for c in cards_of(plain):
        by_suit.setdefault(pack.suit_of[c], []).append(c)
    suit_cards = max(by_suit.values(), key=len)
    return min(suit_cards, key=lambda c: (pack.value[c], pack.strength[c]))


def _lowest(t: Table, legal: int) -> int:
    """A lead that wins nothing: the weakest plain card, else the lowest trump."""
    pack = t.pack
    plain = legal & ~pack.trumps
    if plain:
        return min(cards_of(plain), key=lambda c: (pack.strength[c], pack.value[c]))
    return min(cards_of(_without(legal, PETIT) or legal))

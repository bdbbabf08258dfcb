"""The rules bot's decisions in Austrian Tarock: bid, talon half, discard, game type, and the
view read for card play (in game 2 both sides want the declarer to take the tricks others avoid)."""

from __future__ import annotations

from collections.abc import Sequence

from atout.bots.rules.knowledge import AUSTRIAN_PACKS, Table, voids_of
from atout.bots.rules.strength import austrian_strength
from atout.cards import BIT, KINGS_MASK, SUIT_MASKS, TRUMP
from atout.engine.austrian.actions import (
    ACCEPT_FIRST_HALF,
    GAME_1,
    GAME_2,
    PASS,
    SOLO,
    TAKE_SECOND_HALF,
    THREESOME,
    AustrianAction,
    AustrianActionKind,
)
from atout.engine.austrian.cards import AUSTRIAN_SUIT_OF, AUSTRIAN_TRUMPS_MASK, card_value
from atout.engine.austrian.view import AustrianView

THREESOME_AT = 24.0
"""Without game 2: the least strength for a threesome (the talon half helps a middling hand).

Measured over 30,000 hands of the first bidder, each played out as a pass, a threesome and a solo
by the rules bot in every seat (``bench/austrian_contracts.py`` measures the bids in play): a
threesome is made by 37% of the hands of 23 points, 47% of 24, 56% of 25 and 78% of 28; valued
by the bidder's score minus the mean of the others' (what a deal does to his place in a session),
it beats passing from 24 points (-1.5 against -7.0; at 23, -13.7 against -8.8)."""
SOLO_AT = 34.0
"""Without game 2: the least strength for a solo over another player's threesome (a solo is made
by half the hands of 34-35 points, 67% of 36 and 88% of 39)."""
SOLO_FIRST_AT = 40.0
"""Without game 2: the least strength for a solo when a threesome may still be bid; below it the
threesome, with the talon half, is worth more to the declarer (measured as above)."""
HALF_PAR = 8.0
"""What an unseen talon half is worth on average (:func:`half_worth`)."""
GAME_2_BELOW = 29.5
"""Below this strength the declarer plays game 2 (35 or less): few trumps, few masters, few voids.

Measured over 8,000 solo hands against random defenders, game 2 is won far more often below
about 29 points and game 1 above 30; a finer linear formula did no better than this one cut."""


def half_worth(cards: int, jack_value: int = 2) -> float:
    """A talon half's worth to the declarer: card values, and 2 more for each trump."""
    total = 0.0
    for c in range(78):
        if cards >> c & 1:
            total += card_value(c, jack_value) + 2 * bool(BIT[c] & AUSTRIAN_TRUMPS_MASK)
    return total


def choose(view: AustrianView, legal: Sequence[int]) -> int:
    """A decision other than a card to play."""
    kind = AustrianAction(legal[0]).kind
    if kind is AustrianActionKind.BID:
        return _bid(view, legal)
    if kind is AustrianActionKind.TALON:
        jack = view.rules.austrian_jack_value
        first = half_worth(view.first_half or 0, jack)
        second = HALF_PAR if view.second_half is None else half_worth(view.second_half, jack)
        return ACCEPT_FIRST_HALF if first >= second else TAKE_SECOND_HALF
    if kind is AustrianActionKind.DISCARD:
        return _discard(view, legal)
    if kind is AustrianActionKind.GAME:
        return GAME_2 if austrian_strength(view.hand) < GAME_2_BELOW else GAME_1
    return legal[0]


def _bid(view: AustrianView, legal: Sequence[int]) -> int:
    """With game 2 allowed, solo with every hand; without it, a bid only when it is likely made.

    With game 2, a solo pays 100 + 2 x margin against a threesome's 50, and it is the top bid:
    nobody outbids it. A strong hand plays game 1 (36 or more); a weak one game 2 (35 or less),
    which it makes by ducking: few trumps and few masters take few tricks, and the unused talon
    counts for the defenders. Only a middling hand (about 27-31 points) is unsure either way, and
    even there the solo's base is worth more than passing or a threesome (measured).

    Without game 2 (the real game's 36 of 70) a weak hand passes, a good one takes a threesome
    (:data:`THREESOME_AT`), where the talon half helps, and only a very strong one a solo
    (:data:`SOLO_FIRST_AT`; :data:`SOLO_AT` over another's threesome).
    """
    strength = austrian_strength(view.hand)
    if view.rules.austrian_allow_game2:
        return SOLO if SOLO in legal else PASS
    if strength >= SOLO_FIRST_AT and SOLO in legal:
        return SOLO
    if strength >= THREESOME_AT and THREESOME in legal:
        return THREESOME
    if strength >= SOLO_AT and SOLO in legal:
        return SOLO
    return PASS


def _discard(view: AustrianView, legal: Sequence[int]) -> int:
    hand = view.hand
    left = 3 - view.discard.bit_count()
    jack = view.rules.austrian_jack_value

    def score(action: int) -> tuple[int, int, int]:
        card = action % 78
        if AUSTRIAN_SUIT_OF[card] == TRUMP:
            return (-1, 0, -card)
        suit = hand & SUIT_MASKS[AUSTRIAN_SUIT_OF[card]]
        voidable = not suit & KINGS_MASK and suit.bit_count() <= left
        value = card_value(card, jack)
        return (2 if voidable else 1, -suit.bit_count() if voidable else value, value)

    return max(legal, key=score)


def austrian_table(view: AustrianView, legal: Sequence[int]) -> Table:
    """The card-play knowledge of an Austrian seat."""
    pack = AUSTRIAN_PACKS[view.rules.austrian_jack_value]
    me, declarer = view.seat, view.declarer
    inverted = view.game_type == "35_or_less"

    def good(seat: int) -> bool:
        friend = seat == me or (seat != declarer and me != declarer)
        return friend != inverted

    out = view.discard
    if view.talon_half == 1 and view.second_half is not None:
        out |= view.second_half
    elif view.talon_half == 2 and view.first_half is not None:
        out |= view.first_half
    played = view.played()
    in_trick = {s for s, _ in view.trick}
    legal_mask = 0
    for action in legal:
        legal_mask |= BIT[action % 78]
    return Table(
        pack=pack,
        me=me,
        hand=view.hand,
        legal=legal_mask,
        plays=view.trick,
        later=tuple(s for s in range(3) if s != me and s not in in_trick),
        unseen=pack.deck & ~played & ~view.hand & ~out,
        voids=voids_of(pack, view.tricks, view.trick),
        good=good,
        attacker=me == declarer,
        taker=declarer,
        side_won_all=all(good(t.winner) for t in view.tricks),
        tricks_left=view.hand.bit_count(),
    )

"""Playing a French deal to its end with the rules bot in every seat, fast.

:func:`play_to_end` makes exactly the decisions of the plain loop :func:`play_to_end_slow`
(``RulesBot().choose(deal.view(p), deal.legal_actions())`` for the current player ``p``, until
the deal is over), without building a :class:`~atout.engine.view.SeatView` for the card plays.
The card-play :class:`~atout.bots.rules.knowledge.Table` that :func:`~atout.bots.rules.french.french_table`
reads from a view is built here from the deal itself, as the current player's view shows it:

* the cards played and the voids shown are kept up to date card by card, not read again from
  every finished trick at every decision;
* the écart counts as seen in full for the taker only, its face-up trumps for everyone;
* in 5 players the partner is known to a seat only as the view would show it: to everyone once
  the called card is played, to the partner himself, or by the same deductions (the called card
  in the seen chien or in the taker's hand, the ``alone`` event, one seat left that may hold it).

Every other decision (bids, call, écart, chelem, the poignée and misère declarations that come
before a seat's first card) goes through the ordinary view and :class:`~atout.bots.rules.RulesBot`.
Rules the fast path does not read (a dead-player table's, which :class:`FrenchDeal` never plays
itself) send the whole deal through the plain loop.

What a view shows of the partner is read from the deal (``sides_public``, ``reveal_card``, the
``events``); ``tests/bots/test_playout.py`` checks,
over many deals, rules and starting points, that both drivers play the very same actions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from atout.bots.rules import RulesBot
from atout.bots.rules.knowledge import FRENCH_PACK, Table
from atout.bots.rules.play import choose_card
from atout.cards import ALL_CARDS, BIT, EXCUSE, SUIT_OF, TRUMP, TRUMPS_MASK
from atout.engine.french import FrenchDeal, Phase

_RULES = RulesBot()
_PLAY = Phase.PLAY
_END = Phase.END


def play_to_end_slow(deal: FrenchDeal) -> int:
    """The reference loop: every decision from the current player's view, to the end of the deal.
    Returns the number of actions applied."""
    choose = _RULES.choose
    steps = 0
    while not deal.is_over():
        deal.apply(choose(deal.view(deal.current_player), deal.legal_actions()))
        steps += 1
    return steps


def play_to_end(deal: FrenchDeal) -> int:
    """Play ``deal`` to its end with the rules bot in every seat, exactly as
    :func:`play_to_end_slow` does, card plays without views. Returns the number of actions
    applied."""
    rules = deal.rules
    if rules.five_player_mode == "dead_player" and deal.n == 5:
        return play_to_end_slow(deal)
    steps = 0
    choose = _RULES.choose
    while deal.phase is not _PLAY:
        if deal.phase is _END:
            return steps
        deal.apply(choose(deal.view(deal.current_player), deal.legal_actions()))
        steps += 1
    return steps + _play_cards(deal)


def _play_cards(deal: FrenchDeal) -> int:
    """From the card play on: card plays by the rules bot's table, built from the deal; the other
    decisions (poignée, misère) by the plain loop."""
    choose = _RULES.choose
    follow = CardPlayFollower(deal)
    steps = 0
    while True:
        phase = deal.phase
        if phase is not _PLAY:
            if phase is _END:
                return steps
            deal.apply(choose(deal.view(deal.current_player), deal.legal_actions()))
        else:
            follow.play(follow.rules_card())
        steps += 1


class CardPlayFollower:
    """Follows a French deal's card play as every seat sees it (cards played, voids shown, the
    tricks' winners, the current trick), so that the rules bot's card for the seat to play can be
    read without a view (:meth:`rules_card`). Cards go through :meth:`play` (which applies them to
    the deal); other actions (poignée, misère declarations) may be applied to the deal directly."""

    __slots__ = (
        "alone",
        "base",
        "called",
        "called_in_chien",
        "called_suit",
        "deal",
        "five",
        "in_trick",
        "led",
        "played",
        "plays",
        "seats",
        "taker",
        "voids",
        "won_by",
    )

    def __init__(self, deal: FrenchDeal) -> None:
        n = deal.n
        self.deal = deal
        self.five = n == 5
        self.seats = tuple(range(n))
        self.taker = taker = deal.taker
        self.called = called = deal.called_card
        self.called_suit = called_suit = SUIT_OF[called] if called >= 0 else -1
        chien_public = deal.contract in ("petite", "pousse", "garde")
        self.called_in_chien = called >= 0 and chien_public and bool(deal.chien >> called & 1)
        voids: dict[int, set[int]] = {}
        played = 0
        won_by = 0  # mask of the seats that won a finished trick
        for trick_seats, cards, winner in deal.tricks:
            won_by |= 1 << winner
            add_trick_voids(voids, tuple(zip(trick_seats, cards, strict=False)))
            for card in cards:
                played |= BIT[card]
        plays = tuple(zip(deal.trick_seat_order(), deal.trick_cards, strict=False))
        self.led = add_trick_voids(voids, plays)
        in_trick = 0
        for seat, card in plays:
            played |= BIT[card]
            in_trick |= 1 << seat
        self.voids, self.played, self.won_by, self.plays, self.in_trick = (
            voids,
            played,
            won_by,
            plays,
            in_trick,
        )
        self.alone = any(e.kind == "alone" for e in deal.events)
        self.base = n << 16 | taker << 19 | (called_suit + 1) << 22  # of the keys of _SEATS

    def rules_card(self) -> int:
        """The card the rules bot plays for the seat to play (the deal in its card-play phase)."""
        deal = self.deal
        me = deal.current_player
        legal = deal.legal_play_mask()
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        hand = deal.hands[me]
        taker, called, voids = self.taker, self.called, self.voids
        # the partner as french_table reads it from the view (5 players only; None is -2)
        partner = -2
        if self.five:
            known_partner = deal.partner
            if known_partner >= 0 and (deal.sides_public or me == known_partner):
                partner = known_partner
            elif called < 0:
                pass
            elif self.alone or self.called_in_chien or (me == taker and hand >> called & 1):
                partner = -1
            elif me != taker:
                called_suit = self.called_suit
                candidates = [
                    s for s in self.seats if s != taker and s != me and called_suit not in voids.get(s, ())
                ]
                if len(candidates) == 1:
                    partner = candidates[0]
        key = self.base | me | (partner + 2) << 3 | self.won_by << 6 | self.in_trick << 11
        seen = _SEATS.get(key)
        if seen is None:
            seen = _seat_knowledge(key)
        good, mine, side_won_all, later, lead_low_in = seen
        ecart = deal.ecart if me == taker else deal.ecart & TRUMPS_MASK
        # Table's fields in order (positional: quicker than by keyword, in this hot loop)
        table = Table(
            FRENCH_PACK,  # pack
            me,  # me
            hand,  # hand
            legal,  # legal
            self.plays,  # plays
            later,  # later
            ALL_CARDS & ~self.played & ~hand & ~ecart,  # unseen
            voids,  # voids
            good,  # good
            mine,  # attacker
            taker,  # taker
            side_won_all,  # side_won_all
            hand.bit_count(),  # tricks_left
            lead_low_in,  # lead_low_in
        )
        return choose_card(table)

    def play(self, card: int) -> None:
        """Play ``card`` for the seat to play (applied to the deal) and note what it shows."""
        deal = self.deal
        me = deal.current_player
        if card == deal.reveal_card and me == self.taker:
            self.alone = True  # the engine logs the "alone" event for this card
        deal.apply(card)
        self.played |= BIT[card]
        self.led = note_play(self.voids, me, card, self.led)
        if deal.trick_cards:
            self.plays += ((me, card),)
            self.in_trick |= 1 << me
        else:  # the card ended the trick
            self.won_by |= 1 << deal.trick_winners[-1]
            self.plays = ()
            self.in_trick = 0
            self.led = -1


_Knowledge = tuple[Callable[[int], bool], bool, bool, tuple[int, ...], int]
_SEATS: dict[int, _Knowledge] = {}


def _seat_knowledge(key: int) -> _Knowledge:
    """What the seat to play knows of the sides, as :func:`~atout.bots.rules.french.french_table`
    derives it: ``good``, ``attacker``, ``side_won_all``, ``later`` and ``lead_low_in``, from a key
    packing the seat (bits 0-2), the partner as known to it plus 2 (bits 3-5; 0: unknown, 1: the
    taker plays alone), the masks of the seats that won a trick (bits 6-10) and that played to the
    current one (bits 11-15), the player count (bits 16-18), the taker (bits 19-21) and the called
    suit plus 1 (bits 22-24; 0: no call)."""
    me, partner, won_by, in_trick = key & 7, (key >> 3 & 7) - 2, key >> 6 & 31, key >> 11 & 31
    n, taker, called_suit = key >> 16 & 7, key >> 19 & 7, (key >> 22 & 7) - 1
    seats = range(n)
    attack = 1 << taker
    if partner >= 0:
        attack |= 1 << partner
    known = partner != -2 or n < 5
    mine = bool(attack >> me & 1)
    good = tuple(s == me or (known and bool(attack >> s & 1) == mine) for s in seats)
    side_won_all = all(good[s] for s in seats if won_by >> s & 1)
    later = tuple(s for s in seats if s != me and not in_trick >> s & 1)
    lead_low_in = called_suit if me == taker and not known else -1
    if len(_SEATS) > 100_000:
        _SEATS.clear()
    found = _SEATS[key] = (good.__getitem__, mine, side_won_all, later, lead_low_in)
    return found


def add_trick_voids(
    voids: dict[int, set[int]],
    plays: tuple[tuple[int, int], ...],
    suit_of: Sequence[int] = SUIT_OF,
    excuse: int = EXCUSE,
) -> int:
    """Add the voids one trick shows (as :func:`~atout.bots.rules.knowledge.voids_of` reads them);
    returns the suit led (-1 while only the Excuse, or nothing, has been played)."""
    led = -1
    for seat, card in plays:
        led = note_play(voids, seat, card, led, suit_of, excuse)
    return led


def note_play(
    voids: dict[int, set[int]],
    seat: int,
    card: int,
    led: int,
    suit_of: Sequence[int] = SUIT_OF,
    excuse: int = EXCUSE,
) -> int:
    """Add the void ``seat`` shows by playing ``card`` to a trick led in ``led`` (-1: none yet; a
    plain card off suit shows trumps lacking too); returns the suit led after the card."""
    if card == excuse:
        return led
    suit = suit_of[card]
    if led < 0:
        return suit
    if suit != led:
        shown = voids.setdefault(seat, set())
        shown.add(led)
        if suit != TRUMP:
            shown.add(TRUMP)
    return led


__all__ = ["CardPlayFollower", "add_trick_voids", "note_play", "play_to_end", "play_to_end_slow"]

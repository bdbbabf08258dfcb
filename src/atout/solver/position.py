"""A compact open-hand position of French Tarot card play, and its exact trick rules.

A :class:`Position` is the "cheat" view of a deal in the play phase: every hand is known
(the caller chooses the hidden hands, e.g. by sampling). It holds only what the rest of
the card play and the attack's final card points depend on:

* each seat's hand as a card mask, the cards of the current trick and who led it;
* the taker and the partner, and the card points the attack holds already (``points``, in
  half-points, counted as :meth:`FrenchDeal.attack_pile`: tricks won, écart, and the
  chien in a garde sans);
* the Excuse's state (rule book §3.9): the seats that have won a trick so far (the slam
  exception, and the ``must_play_before_last`` rule, judged on the side as the player knows it,
  :func:`~atout.engine.french.known_side`), the cheapest card each side could hand over for its
  Excuse, an Excuse exchange still owed, and whether the sides are public yet in 5 players (an
  exchange waits until then, and until then each seat knows its side as the engine says);
* the 5-player first-lead restriction (§3.8 step 2), while the first trick is still to lead.

>>> import random
>>> from atout.rules import Rules
>>> deal = random_ending(Rules(players=4), cards=2, rng=random.Random(3))
>>> pos = Position.from_deal(deal)
>>> [h.bit_count() for h in pos.hands], pos.tricks_left, pos.player == deal.current_player
([2, 2, 2, 2], 2, True)
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from atout.cards import (
    BIT,
    EXCUSE,
    EXCUSE_MASK,
    HALF_POINTS,
    PETIT_MASK,
    SUIT_MASKS,
    SUIT_OF,
    CardSet,
    half_points,
)
from atout.engine.french import FrenchDeal, known_side
from atout.engine.tricks import legal_cards, winning_card
from atout.rules import Rules

_JACKS = sum(BIT[s * 14 + 10] for s in range(4))
_CAVALIERS = _JACKS << 1
_QUEENS = _JACKS << 2
_ONES = sum(BIT[c] for c in range(77) if HALF_POINTS[c] == 1)

ExcuseState = tuple[int, int, int, int, int]
"""``(seats that won a trick, attack pile min, defence pile min, debt, sides public)``."""

Finisher = Callable[[tuple[int, ...], int, int, int, int, int, ExcuseState], tuple[int, int, ExcuseState]]


def min_value(mask: int) -> int:
    """The smallest card value (half-points) in a mask without the Excuse, 0 for an empty mask."""
    if not mask:
        return 0
    if mask & _ONES:
        return 1
    if mask & _JACKS:
        return 3
    if mask & _CAVALIERS:
        return 5
    if mask & _QUEENS:
        return 7
    return 9


@dataclass(frozen=True, slots=True)
class Position:
    """An open-hand card-play position (see the module docstring). Seats are those of the deal."""

    hands: tuple[int, ...]
    """Each seat's cards, as a mask."""
    trick: tuple[int, ...]
    """The cards of the current trick, in the order played."""
    leader: int
    """The seat that led (or is to lead) the current trick."""
    taker: int
    """The taker's seat."""
    partner: int
    """The partner's seat (5 players), -1 if none."""
    points: int
    """Card points the attack holds now, in half-points (before any Excuse exchange still owed)."""
    tricks_left: int
    """Tricks still to finish, the current one included."""
    order: tuple[tuple[int, ...], ...]
    """For each leader, the seats of a trick in playing order."""
    won_by: int = 0
    """The seats that have won a trick so far, as a mask (§3.8 step 1, §3.9 slam exception)."""
    pile_min: tuple[int, int] = (0, 0)
    """The cheapest card value each side (attack, defence) has won, the Excuse aside; 0 if none."""
    debt: int = -1
    """An Excuse exchange card still owed: -1 none, 0 by the attack, 1 by the defence."""
    sides_public: bool = True
    """Whether the sides are known (5 players: the called card has been seen); until then an Excuse
    exchange waits, and each seat knows its side as :func:`~atout.engine.french.known_side` says."""
    reveal_card: int = -1
    """The card whose play makes the sides public (the called card, still hidden), -1 if none."""
    lead_forbidden: int = 0
    """Cards that may not lead the first trick unless nothing else is held (5 players, §3.8 step 2)."""
    exchange_rule: str = "low"
    """``low`` (a half-point card is handed over for the Excuse) or ``any_won_card`` (the cheapest won card)."""
    excuse_early: bool = False
    """``must_play_before_last``: the Excuse must be played before the last trick, unless the player's
    side, as he knows it, has won every trick so far (§3.8 step 1)."""
    petit_bonus: int = 0
    """Half-points counted to the attack, beyond the Petit's own, when it wins the trick holding the
    Petit (its threshold falls, rule book §3.12); 0: card points only."""
    petit_au_bout: int = 0
    """Half-points counted to the attack when it wins the last trick holding the Petit, and from it
    when the defence does (rule book §3.13); 0: card points only."""

    # ------------------------------------------------------------ building
    @classmethod
    def from_deal(cls, deal: FrenchDeal) -> Position:
        """The position of a :class:`FrenchDeal` in the play phase, every hand as the deal holds it."""
        if deal.phase != "play":
            raise ValueError(f"a position is taken in the play phase, not {deal.phase}")
        if deal.petit_imprenable_seat >= 0:
            raise ValueError("the petit imprenable variant (rule book §7 V3) is not solved")
        n = deal.n
        attack = tuple(deal.is_attack(s) for s in range(n))
        piles = [0, 0]
        for s in range(n):
            piles[0 if attack[s] else 1] |= deal.won[s]
        debt = -1
        for owner, winner in deal.excuse_debts:
            if attack[owner] != attack[winner]:
                debt = 0 if attack[owner] else 1
        won_by = 0
        for winner in deal.trick_winners:
            won_by |= 1 << winner
        orders = []
        for leader in range(n):
            seats = [leader]
            while len(seats) < n:
                seats.append(deal.next_seat(seats[-1]))
            orders.append(tuple(seats))
        forbidden = 0
        if deal.called_card >= 0 and deal.trick_no == 0:
            called = deal.called_card
            forbidden = SUIT_MASKS[SUIT_OF[called]] & ~BIT[called]
        return cls(
            hands=tuple(deal.hands),
            trick=tuple(deal.trick_cards),
            leader=deal.trick_leader,
            taker=deal.taker,
            partner=deal.partner,
            points=half_points(deal.attack_pile()),
            tricks_left=deal.n_tricks - deal.trick_no,
            order=tuple(orders),
            won_by=won_by,
            pile_min=(min_value(piles[0] & ~EXCUSE_MASK), min_value(piles[1] & ~EXCUSE_MASK)),
            debt=debt,
            sides_public=deal.sides_public,
            reveal_card=deal.reveal_card,
            lead_forbidden=forbidden,
            exchange_rule=deal.rules.excuse_exchange_card,
            excuse_early=deal.rules.excuse_last_trick == "must_play_before_last",
        )

    # ------------------------------------------------------------ queries
    @property
    def n(self) -> int:
        """Number of players."""
        return len(self.hands)

    @property
    def attack(self) -> tuple[bool, ...]:
        """For each seat, whether it plays for the attack (taker and partner)."""
        return tuple(s == self.taker or s == self.partner for s in range(len(self.hands)))

    @property
    def won_all(self) -> tuple[bool, bool]:
        """Whether the attack, the defence, has won every trick so far (§3.9 slam exception)."""
        attack = side_masks(self.n, self.taker, self.partner, True)[self.taker]
        return not self.won_by & ~attack, not self.won_by & attack

    def sides(self, public: bool) -> tuple[int, ...]:
        """For each seat, the seats it counts as its side (a mask), the sides public or not
        (:func:`~atout.engine.french.known_side`)."""
        return side_masks(self.n, self.taker, self.partner, public)

    @property
    def player(self) -> int:
        """The seat to play."""
        return self.order[self.leader][len(self.trick)]

    @property
    def led_suit(self) -> int:
        """The suit of the current trick (-1 while nothing but the Excuse has been played)."""
        for card in self.trick:
            if card != EXCUSE:
                return SUIT_OF[card]
        return -1

    @property
    def trick_mask(self) -> int:
        mask = 0
        for card in self.trick:
            mask |= BIT[card]
        return mask

    def excuse_state(self) -> ExcuseState:
        """The Excuse bookkeeping as the solver carries it."""
        return (
            self.won_by,
            self.pile_min[0],
            self.pile_min[1],
            self.debt,
            int(self.sides_public),
        )

    def legal_mask(self) -> int:
        """The cards the player to move may play (rule book §3.8, as the engine decides them)."""
        return legal_mask(self, self.player, self.hands[self.player], self.led_suit, self.trick_mask)

    def is_over(self) -> bool:
        return self.tricks_left == 0

    def max_points(self) -> int:
        """An upper bound of the attack's final value: all it holds plus every card still in play
        (an Excuse exchange can move at most one more card) and the Petit's bonuses."""
        remaining = self.trick_mask
        for hand in self.hands:
            remaining |= hand
        bonus = self.petit_bonus + self.petit_au_bout if remaining & PETIT_MASK else 0
        return self.points + half_points(remaining) + 9 + bonus

    def min_points(self) -> int:
        """A lower bound of the attack's final value: what it holds, less an Excuse exchange card
        and a petit au bout lost."""
        remaining = self.trick_mask
        for hand in self.hands:
            remaining |= hand
        return self.points - 9 - (self.petit_au_bout if remaining & PETIT_MASK else 0)

    def play(self, card: int) -> Position:
        """The position after the player to move plays ``card`` (which must be legal)."""
        if not self.legal_mask() >> card & 1:
            raise ValueError(f"{CardSet(BIT[card])} is not a legal card here")
        seat = self.player
        hands = list(self.hands)
        hands[seat] ^= BIT[card]
        trick = (*self.trick, card)
        if len(trick) < self.n:
            if card == self.reveal_card:
                return replace(self, hands=tuple(hands), trick=trick, sides_public=True, reveal_card=-1)
            return replace(self, hands=tuple(hands), trick=trick)
        mask = self.trick_mask | BIT[card]
        led = self.led_suit if self.led_suit >= 0 else SUIT_OF[card]
        points = sum(HALF_POINTS[c] for c in trick)
        finish = finisher(
            self.order,
            self.taker,
            self.partner,
            self.reveal_card,
            self.exchange_rule,
            self.petit_bonus,
            self.petit_au_bout,
        )
        gain, winner, xs = finish(
            trick, self.leader, mask, led, points, self.tricks_left, self.excuse_state()
        )
        return replace(
            self,
            hands=tuple(hands),
            trick=(),
            leader=winner,
            points=self.points + gain,
            tricks_left=self.tricks_left - 1,
            won_by=xs[0],
            pile_min=(xs[1], xs[2]),
            debt=xs[3],
            sides_public=bool(xs[4]),
            reveal_card=-1 if xs[4] else self.reveal_card,
            lead_forbidden=0,
        )

    def __str__(self) -> str:
        seats = " | ".join(
            f"{s}{'*' if self.attack[s] else ''}: {CardSet(h)}" for s, h in enumerate(self.hands)
        )
        trick = " ".join(str(CardSet(BIT[c])) for c in self.trick)
        return f"[{seats}] trick: {trick or '-'} (lead {self.leader}), attack {self.points / 2:g} pts"


def legal_mask(pos: Position, seat: int, hand: int, led: int, trick_mask: int) -> int:
    """The legal cards of ``seat`` holding ``hand`` in ``pos``'s current trick (``trick_mask``, led in
    ``led``), as ``FrenchDeal`` decides them."""
    if pos.lead_forbidden and not trick_mask:
        return hand & ~pos.lead_forbidden or hand
    if pos.excuse_early and hand & EXCUSE_MASK and hand.bit_count() == 2:
        public = pos.sides_public or (pos.reveal_card >= 0 and bool(trick_mask >> pos.reveal_card & 1))
        return legal_play(hand, led, trick_mask, bool(pos.won_by & ~pos.sides(public)[seat]))
    return legal_cards(hand, led, trick_mask)


@functools.cache
def side_masks(n: int, taker: int, partner: int, public: bool) -> tuple[int, ...]:
    """For each of ``n`` seats, the seats it counts as its side, as a mask (the engine's
    :func:`~atout.engine.french.known_side`)."""
    return tuple(known_side(seat, taker, partner, n, public) for seat in range(n))


def legal_play(hand: int, led: int, trick_mask: int, excuse_early: bool) -> int:
    """§3.8 legality; ``excuse_early``: the ``must_play_before_last`` rule binds this player (its side,
    as he knows it, has lost a trick), so with the Excuse and one other card the Excuse must go now."""
    if excuse_early and hand & EXCUSE_MASK and hand.bit_count() == 2:
        return EXCUSE_MASK
    return legal_cards(hand, led, trick_mask)


@functools.cache
def finisher(
    order: tuple[tuple[int, ...], ...],
    taker: int,
    partner: int,
    reveal: int,
    rule: str,
    petit_bonus: int = 0,
    petit_au_bout: int = 0,
) -> Finisher:
    """The end of a trick (rule book §3.8-§3.9, as ``FrenchDeal._finish_trick`` does it), as a function of
    ``(cards, leader, mask, led suit, points of the cards, tricks left, Excuse state)`` returning
    ``(attack's gain in half-points, winner, new Excuse state)``; the gain counts the Petit's
    bonuses (:class:`Position`) when the trick holds it."""
    sides = side_masks(len(order), taker, partner, True)
    side = tuple(0 if sides[taker] >> s & 1 else 1 for s in range(len(order)))
    low_rule = rule == "low"

    def finish(
        cards: tuple[int, ...], leader: int, mask: int, led: int, points: int, left: int, xs: ExcuseState
    ) -> tuple[int, int, ExcuseState]:
        seats = order[leader]
        body = mask & ~EXCUSE_MASK
        winner = seats[cards.index(winning_card(body, led))]
        wside = side[winner]
        won_by, min_a, min_d, debt, public = xs
        if mask & EXCUSE_MASK:
            owner = seats[cards.index(EXCUSE)]
            oside = side[owner]
            if left == 1:
                if cards[0] == EXCUSE and not won_by & ~sides[owner]:
                    winner, wside = owner, oside
                gain = 0 if wside else points
            else:
                gain = (0 if oside else 9) + (0 if wside else points - 9)
                if oside != wside:
                    debt = oside
        else:
            gain = 0 if wside else points
        if mask & PETIT_MASK:
            if not wside:
                gain += petit_bonus
            if left == 1:
                gain += -petit_au_bout if wside else petit_au_bout
        won_by |= 1 << winner
        value = min_value(body)
        if wside:
            if value and (not min_d or value < min_d):
                min_d = value
        elif value and (not min_a or value < min_a):
            min_a = value
        if not public and reveal >= 0 and mask >> reveal & 1:
            public = 1
        if debt >= 0 and (public or left == 1):
            pile = min_d if debt else min_a
            pay = (1 if pile == 1 else 0) if low_rule else pile
            if pay:
                gain += -pay if debt == 0 else pay
                debt = -1
            elif left == 1:
                debt = -1
        return gain, winner, (won_by, min_a, min_d, debt, public)

    return finish


def random_ending(rules: Rules, cards: int, rng: random.Random, trick_cards: int = 0) -> FrenchDeal:
    """A deal played with uniformly random actions until each hand holds ``cards`` cards at the start
    of a trick, then ``trick_cards`` more cards into that trick (cancelled deals are dealt again)."""
    while True:
        deal = FrenchDeal.new(rules, dealer=rng.randrange(rules.players), rng=rng)
        target = deal.n_tricks - cards
        while not deal.is_over():
            if deal.phase == "play" and deal.trick_no == target and len(deal.trick_cards) == trick_cards:
                return deal
            actions = deal.legal_actions()
            deal.apply(actions[rng.randrange(len(actions))])

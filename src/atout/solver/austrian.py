"""The exact open-hand solver of Austrian Tarock card play (rule book §5.4-§5.5).

An :class:`AustrianPosition` is a deal in the card-play phase with every hand open. Its value is
the card points the declarer's side takes from the remaining tricks, the trick in progress
included, in the count's unit (each trick adds its three cards' values − 2, rule book §1.2), when
the declarer maximises them in game 1 (``36_or_more``) and minimises them in game 2
(``35_or_less``), and the two defenders, one team, do the opposite. The points already won, the
discard and the talon are not in it: they are fixed by now.

The search is a min/max alpha-beta over single cards (fail-soft), driven at the root by MTD(f)
from a quick playout's value, with

* bitboards: hands are masks over the 78-card indices of :mod:`atout.cards` (only the 54
  Austrian cards occur; Sküs is index 77, the top trump). Within a suit a higher index is a
  stronger card, except the red pips, whose 1 is the highest (:data:`STRENGTH`); the winner is
  found by strength, and equivalent cards by index order, which gives the same adjacency for
  cards of equal value (the red pips are four contiguous indices);
* a transposition table at the start of each trick, keyed on a canonical form of the hands (each
  suit's cards still held, in order, as their card value and owner: layouts that differ only by
  cards already played share an entry) and the player to lead; entries hold a lower and an upper
  bound of the points still to come and the best lead, tried first;
* bounds: the points still to come lie between 0 and the points of the cards still held;
* equivalent-card pruning: of two cards of one hand, of one suit (or both trumps), of the same
  card value, with no card still in play (in a hand or in the current trick) between them, only
  the lower is searched;
* move ordering: leads cheapest first and trumps last; following, win cheaply or feed points
  when the trick goes to the side it suits, discard cheaply otherwise (in game 2 both sides
  rather lose tricks);
* the last trick played out directly (every card is forced).

>>> import random
>>> from atout.rules import Rules
>>> pos = AustrianPosition.from_deal(random_ending(Rules(game="austrian", players=3), 3, random.Random(2)))
>>> result = AustrianSolver(pos).solve()
>>> 0 <= result.value <= pos.max_points()
True
>>> values = AustrianSolver(pos).move_values()
>>> (max if pos.maximizes(pos.player) else min)(values.values()) == result.value
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from atout.cards import (
    BIT,
    CAVALIERS_MASK,
    JACKS_MASK,
    KINGS_MASK,
    QUEENS_MASK,
    SUIT_MASKS,
    TRUMP,
    CardSet,
    cards_of,
)
from atout.engine.austrian.cards import (
    AUSTRIAN_SUIT_OF,
    AUSTRIAN_TRUMPS_MASK,
    STRENGTH,
    TRULL_MASK,
    austrian_points,
    card_value,
)
from atout.engine.austrian.deal import N_TRICKS, AustrianDeal
from atout.engine.austrian.tricks import legal_cards, winning_card
from atout.rules import Rules
from atout.solver.root import INF, RootSearch

SUITS: Final = (*SUIT_MASKS[:4], AUSTRIAN_TRUMPS_MASK)
"""Mask of each Austrian suit number: the four plain suits, then the 22 trumps (Sküs included)."""
RANK: Final = tuple(STRENGTH[c] + (100 if AUSTRIAN_SUIT_OF[c] == TRUMP else 0) for c in range(78))
"""A card's rank in a trick: trumps above every plain card, plain cards by :data:`STRENGTH`."""


def values_of(jack_value: int) -> tuple[int, ...]:
    """Each card index's value for the count (rule book §1.2)."""
    return tuple(card_value(c, jack_value) for c in range(78))


@dataclass(frozen=True, slots=True)
class AustrianPosition:
    """An open-hand Austrian card-play position (see the module docstring). Seats are those of the deal."""

    hands: tuple[int, int, int]
    """Each seat's cards, as a mask."""
    trick: tuple[int, ...]
    """The cards of the current trick, in the order played."""
    leader: int
    """The seat that led (or is to lead) the current trick."""
    declarer: int
    """The declarer's seat; the other two defend together."""
    maximizing: bool
    """Whether the declarer maximises his card points (game 1, ``36_or_more``), else minimises them."""
    tricks_left: int
    """Tricks still to finish, the current one included."""
    order: tuple[tuple[int, int, int], ...]
    """For each leader, the seats of a trick in playing order."""
    must_overtrump: bool = True
    """``austrian_must_overtrump`` (rule book §5.4)."""
    jack_value: int = 2
    """``austrian_jack_value`` (rule book §1.2)."""

    @classmethod
    def from_deal(cls, deal: AustrianDeal) -> AustrianPosition:
        """The position of an :class:`AustrianDeal` in the play phase, every hand as the deal holds it."""
        if deal.phase != "play":
            raise ValueError(f"a position is taken in the play phase, not {deal.phase}")
        order = []
        for leader in range(3):
            second = deal.next_seat(leader)
            order.append((leader, second, deal.next_seat(second)))
        return cls(
            hands=(deal.hands[0], deal.hands[1], deal.hands[2]),
            trick=tuple(deal.trick_cards),
            leader=deal.trick_leader,
            declarer=deal.declarer,
            maximizing=deal.game_type == "36_or_more",
            tricks_left=N_TRICKS - deal.trick_no,
            order=(order[0], order[1], order[2]),
            must_overtrump=deal.rules.austrian_must_overtrump,
            jack_value=deal.rules.austrian_jack_value,
        )

    @property
    def player(self) -> int:
        """The seat to play."""
        return self.order[self.leader][len(self.trick)]

    @property
    def led_suit(self) -> int:
        """The suit of the current trick (-1 before the lead; ``TRUMP`` for a trump lead)."""
        return AUSTRIAN_SUIT_OF[self.trick[0]] if self.trick else -1

    @property
    def trick_mask(self) -> int:
        mask = 0
        for card in self.trick:
            mask |= BIT[card]
        return mask

    def is_over(self) -> bool:
        return self.tricks_left == 0

    def maximizes(self, seat: int) -> bool:
        """Whether ``seat`` wants the declarer's points up."""
        return (seat == self.declarer) == self.maximizing

    def legal_mask(self) -> int:
        """The cards the player to move may play (rule book §5.4, the engine's :func:`legal_cards`)."""
        return legal_cards(self.hands[self.player], self.led_suit, self.trick_mask, self.must_overtrump)

    def max_points(self) -> int:
        """The points of every card still in play: the most the declarer can still take."""
        rest = self.trick_mask
        for hand in self.hands:
            rest |= hand
        return austrian_points(rest, self.jack_value)  # the hands and the trick: 3 cards per trick left

    def play(self, card: int) -> tuple[AustrianPosition, int]:
        """The position after the player to move plays ``card`` (which must be legal), and the
        points the declarer's side took by it (those of a trick it ends and he wins, else 0)."""
        if not self.legal_mask() >> card & 1:
            raise ValueError(f"{CardSet(BIT[card])} is not a legal card here")
        seat = self.player
        hands = list(self.hands)
        hands[seat] ^= BIT[card]
        trick = (*self.trick, card)
        new_hands = (hands[0], hands[1], hands[2])
        if len(trick) < 3:
            return replace(self, hands=new_hands, trick=trick), 0
        best = winning_card(BIT[trick[0]] | BIT[trick[1]] | BIT[trick[2]], AUSTRIAN_SUIT_OF[trick[0]])
        winner = self.order[self.leader][trick.index(best)]
        gain = 0
        if winner == self.declarer:
            gain = sum(card_value(c, self.jack_value) for c in trick) - 2
        return replace(self, hands=new_hands, trick=(), leader=winner, tricks_left=self.tricks_left - 1), gain

    def __str__(self) -> str:
        seats = " | ".join(
            f"{s}{'*' if s == self.declarer else ''}: {CardSet(h)}" for s, h in enumerate(self.hands)
        )
        trick = " ".join(str(CardSet(BIT[c])) for c in self.trick)
        game = "game 1" if self.maximizing else "game 2"
        return f"[{seats}] trick: {trick or '-'} (lead {self.leader}), {game}, {self.tricks_left} tricks"


@dataclass(frozen=True, slots=True)
class AustrianResult:
    """The outcome of :meth:`AustrianSolver.solve`."""

    value: int
    """The card points the declarer's side takes from the remaining tricks, under best play."""
    best_card: int
    """A best card for the player to move (-1 when the position is over)."""
    nodes: int
    """Search nodes visited (one per card tried, the forced last trick counted once)."""
    seconds: float
    tt_entries: int


class AustrianSolver(RootSearch):
    """An exact solver for one position; the transposition table is kept between calls.

    ``transposition``, ``equivalence`` and ``ordering`` switch the speed-ups off for comparison;
    the values do not depend on them. Without the table the search is one full-window alpha-beta
    (no MTD(f), no playout guess).
    """

    def __init__(
        self,
        position: AustrianPosition,
        *,
        transposition: bool = True,
        equivalence: bool = True,
        ordering: bool = True,
    ) -> None:
        self.position = position
        self.transposition = transposition
        self.equivalence = equivalence
        self.ordering = ordering
        self.table: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self._nodes = [0]
        self._child: Callable[[int, int, int], int]
        self._root_moves: Callable[[], list[int]]
        self._playout: Callable[[int], int]
        self._build()

    @property
    def nodes(self) -> int:
        return self._nodes[0]

    def solve(self) -> AustrianResult:
        """The value of the position and a best card."""
        start = time.perf_counter()
        if self.position.is_over():
            return AustrianResult(0, -1, 0, 0.0, 0)
        best, best_card = self._best()
        return AustrianResult(best, best_card, self.nodes, time.perf_counter() - start, len(self.table))

    def _maximizing(self) -> bool:
        return self.position.maximizes(self.position.player)

    def move_values(self) -> dict[int, int]:
        """The exact value (declarer's points from the remaining tricks, the current one included)
        after each legal card of the player to move."""
        pos = self.position
        if pos.is_over():
            return {}
        values = self._root_values()
        rest = pos.trick_mask
        for hand in pos.hands:
            rest |= hand
        out = {}
        for card in cards_of(pos.legal_mask()):
            below = card
            while below not in values:
                # an equivalent card: the next lower index of the suit still in play, in the same hand
                below = (rest & SUITS[AUSTRIAN_SUIT_OF[card]] & (BIT[below] - 1)).bit_length() - 1
            out[card] = values[below]
        return out

    # ------------------------------------------------------------------ the search
    def _build(self) -> None:
        # one closure keeps the hot loop on local variables
        pos = self.position
        hands = list(pos.hands)
        order = pos.order
        nxt = (order[0][1], order[1][1], order[2][1])
        declarer = pos.declarer
        maxi = tuple(pos.maximizes(s) for s in range(3))
        win_good = pos.maximizing  # in game 1 every side wants to take tricks, in game 2 to lose them
        overtrump = pos.must_overtrump
        jack_value = pos.jack_value
        val = values_of(jack_value)
        rank = RANK
        table = self.table
        use_tt, use_eq, use_order = self.transposition, self.equivalence, self.ordering
        suit_of, suits, bits = AUSTRIAN_SUIT_OF, SUITS, BIT
        trumps = AUSTRIAN_TRUMPS_MASK
        counter = self._nodes
        fives = TRULL_MASK | KINGS_MASK
        queens, cavaliers, jacks = QUEENS_MASK, CAVALIERS_MASK, JACKS_MASK
        extra_jack = jack_value - 1
        root_left = pos.tricks_left

        # canonical keys: a suit's cards still held, in index order, as (card value, owner); the
        # red pips (value 1, the lowest indices of their suit) come first whatever their order,
        # so the code still gives each suit's layout in strength order
        owner = [0] * 78
        for seat, held in enumerate(hands):
            for c in cards_of(held):
                owner[c] = seat
        fragments: dict[int, int] = {}
        fragment_of = fragments.get
        s0, s1, s2, s3, s4 = suits

        def fragment(mask: int) -> int:
            code = 1
            for c in cards_of(mask):
                code = code * 32 + val[c] * 4 + owner[c]
            fragments[mask] = code
            return code

        def table_key(p: int, rest: int) -> tuple[int, ...]:
            m0, m1, m2, m3, m4 = rest & s0, rest & s1, rest & s2, rest & s3, rest & s4
            return (
                fragment_of(m0) or fragment(m0),
                fragment_of(m1) or fragment(m1),
                fragment_of(m2) or fragment(m2),
                fragment_of(m3) or fragment(m3),
                fragment_of(m4) or fragment(m4),
                p,
            )

        def moves_of(p: int, played: int, tmask: int, led: int, win: int, wseat: int) -> list[int]:
            hand = hands[p]
            if led < 0:
                legal = hand
            else:
                # rule book §5.4, as atout.engine.austrian.tricks.legal_cards
                legal = hand & suits[led] if led != 4 else 0
                if not legal:
                    legal = hand & trumps
                    if legal:
                        if overtrump:
                            top = (tmask & trumps).bit_length()
                            legal = legal >> top << top or legal
                    else:
                        legal = hand
            if not legal & (legal - 1):
                return [legal.bit_length() - 1]
            if use_eq:
                rest = tmask
                for h in hands:
                    rest |= h
                cards = []
                m = legal
                while m:
                    low = m & -m
                    c = low.bit_length() - 1
                    m ^= low
                    below = rest & suits[suit_of[c]] & (low - 1)
                    if below:
                        b = below.bit_length() - 1
                        if legal >> b & 1 and val[b] == val[c]:
                            continue
                    cards.append(c)
                if len(cards) < 2:
                    return cards
            else:
                cards = cards_of(legal)
            if not use_order:
                return cards
            scored = []
            if not played:
                # leading: the cheapest cards first, trumps last
                for c in cards:
                    scored.append((suit_of[c] == 4) << 11 | val[c] << 7 | c)
                scored.sort()
                return [s & 127 for s in scored]
            # whether the trick's current winner suits p: the declarer's points go the way p wants
            good = (wseat == declarer) == maxi[p]
            last = played == 2
            for c in cards:
                if rank[c] > rank[win] and (suit_of[c] == led or suit_of[c] == 4):
                    if win_good:
                        # take the trick: with points when last, else take it over (cheaply)
                        score = (60 + val[c]) if last else (5 if good else 30) - val[c]
                    else:
                        score = -40 - val[c]
                elif good:
                    score = 20 + val[c]
                else:
                    score = -val[c]
                scored.append((score + 64) << 7 | c)
            scored.sort(reverse=True)
            return [s & 127 for s in scored]

        def search(
            p: int,
            played: int,
            tmask: int,
            led: int,
            tval: int,
            win: int,
            wseat: int,
            left: int,
            alpha: int,
            beta: int,
        ) -> int:
            counter[0] += 1
            if left == 1:
                # the last trick: every card is forced
                while played < 3:
                    c = hands[p].bit_length() - 1
                    tval += val[c]
                    if not played:
                        led, win, wseat = suit_of[c], c, p
                    elif rank[c] > rank[win] and (suit_of[c] == led or suit_of[c] == 4):
                        win, wseat = c, p
                    played += 1
                    p = nxt[p]
                return tval - 2 if wseat == declarer else 0
            key: tuple[int, ...] | None = None
            tt_card = -1
            rest = 0
            if not played:
                # the points still in play bound what can still come (austrian_points, inlined)
                for h in hands:
                    rest |= h
                most = (
                    left
                    + 4 * (rest & fives).bit_count()
                    + 3 * (rest & queens).bit_count()
                    + 2 * (rest & cavaliers).bit_count()
                    + extra_jack * (rest & jacks).bit_count()
                )
                if most <= alpha:
                    return most
                if beta <= 0:
                    return 0
                if use_tt:
                    key = table_key(p, rest)
                    entry = table.get(key)
                    if entry is not None:
                        lo, hi, tt_card = entry
                        if lo >= beta or lo == hi:
                            return lo
                        if hi <= alpha:
                            return hi
                        if lo > alpha:
                            alpha = lo
                        if hi < beta:
                            beta = hi
                        # stored as (suit, rank among the suit's cards still held)
                        m = rest & suits[tt_card >> 5]
                        for _ in range(tt_card & 31):
                            m &= m - 1
                        tt_card = (m & -m).bit_length() - 1
            alpha0, beta0 = alpha, beta
            moves = moves_of(p, played, tmask, led, win, wseat)
            if tt_card >= 0 and moves[0] != tt_card and tt_card in moves:
                moves.remove(tt_card)
                moves.insert(0, tt_card)
            hand = hands[p]
            maximize = maxi[p]
            best = -INF if maximize else INF
            best_card = -1
            q = nxt[p]
            for c in moves:
                bit = bits[c]
                hands[p] = hand ^ bit
                if not played:
                    nled, nwin, nwseat = suit_of[c], c, p
                elif rank[c] > rank[win] and (suit_of[c] == led or suit_of[c] == 4):
                    nled, nwin, nwseat = led, c, p
                else:
                    nled, nwin, nwseat = led, win, wseat
                if played == 2:
                    gain = tval + val[c] - 2 if nwseat == declarer else 0
                    v = gain + search(nwseat, 0, 0, -1, 0, -1, -1, left - 1, alpha - gain, beta - gain)
                else:
                    v = search(
                        q, played + 1, tmask | bit, nled, tval + val[c], nwin, nwseat, left, alpha, beta
                    )
                hands[p] = hand
                if maximize:
                    if v > best:
                        best, best_card = v, c
                        if v > alpha:
                            alpha = v
                elif v < best:
                    best, best_card = v, c
                    if v < beta:
                        beta = v
                if alpha >= beta:
                    break
            if key is not None:
                lo, hi = (-INF, best) if best <= alpha0 else (best, INF) if best >= beta0 else (best, best)
                entry = table.get(key)
                if entry is not None:
                    lo, hi = max(lo, entry[0]), min(hi, entry[1])
                s = suit_of[best_card]
                table[key] = (lo, hi, s << 5 | (rest & suits[s] & (bits[best_card] - 1)).bit_count())
            return best

        root_trick = pos.trick
        root_p = pos.player

        def root_state() -> tuple[int, int, int, int, int, int]:
            """The current trick at the root: cards played, mask, led suit, values, winner and its seat."""
            tmask = tval = 0
            led = win = wseat = -1
            seat = pos.leader
            for i, c in enumerate(root_trick):
                tmask |= bits[c]
                tval += val[c]
                if not i:
                    led, win, wseat = suit_of[c], c, seat
                elif rank[c] > rank[win] and (suit_of[c] == led or suit_of[c] == 4):
                    win, wseat = c, seat
                seat = nxt[seat]
            return len(root_trick), tmask, led, tval, win, wseat

        def child(card: int, alpha: int, beta: int) -> int:
            """The points still to come after the player to move at the root plays ``card``."""
            played, tmask, led, tval, win, wseat = root_state()
            hand = hands[root_p]
            hands[root_p] = hand ^ bits[card]
            try:
                if not played:
                    led, win, wseat = suit_of[card], card, root_p
                elif rank[card] > rank[win] and (suit_of[card] == led or suit_of[card] == 4):
                    win, wseat = card, root_p
                tval += val[card]
                if played == 2:
                    gain = tval - 2 if wseat == declarer else 0
                    if root_left == 1:
                        return gain
                    return gain + search(wseat, 0, 0, -1, 0, -1, -1, root_left - 1, alpha - gain, beta - gain)
                return search(
                    nxt[root_p], played + 1, tmask | bits[card], led, tval, win, wseat, root_left, alpha, beta
                )
            finally:
                hands[root_p] = hand

        def playout(card: int) -> int:
            """The points still to come when everyone plays the first card of the ordering (after
            ``card`` at the root, if not -1): MTD(f)'s first guess."""
            saved = list(hands)
            played, tmask, led, tval, win, wseat = root_state()
            p, left, gain = root_p, root_left, 0
            forced = card
            while left:
                c = forced if forced >= 0 else moves_of(p, played, tmask, led, win, wseat)[0]
                forced = -1
                hands[p] ^= bits[c]
                tmask |= bits[c]
                tval += val[c]
                if not played:
                    led, win, wseat = suit_of[c], c, p
                elif rank[c] > rank[win] and (suit_of[c] == led or suit_of[c] == 4):
                    win, wseat = c, p
                played += 1
                p = nxt[p]
                if played == 3:
                    if wseat == declarer:
                        gain += tval - 2
                    left -= 1
                    p, played, tmask, led, tval, win = wseat, 0, 0, -1, 0, -1
            hands[:] = saved
            return gain

        def root_moves() -> list[int]:
            played, tmask, led, _, win, wseat = root_state()
            return moves_of(root_p, played, tmask, led, win, wseat)

        self._child = child
        self._root_moves = root_moves
        self._playout = playout


def solve(position: AustrianPosition, **options: bool) -> AustrianResult:
    """Solve ``position`` exactly (see :class:`AustrianSolver` for the options)."""
    return AustrianSolver(position, **options).solve()


def random_ending(rules: Rules, cards: int, rng: random.Random, trick_cards: int = 0) -> AustrianDeal:
    """A deal played with uniformly random actions until each hand holds ``cards`` cards at the start
    of a trick, then ``trick_cards`` more cards into that trick (cancelled deals are dealt again)."""
    while True:
        deal = AustrianDeal.new(rules, dealer=rng.randrange(3), rng=rng)
        target = N_TRICKS - cards
        while not deal.is_over():
            if deal.phase == "play" and deal.trick_no == target and len(deal.trick_cards) == trick_cards:
                return deal
            actions = deal.legal_actions()
            deal.apply(actions[rng.randrange(len(actions))])


__all__ = [
    "RANK",
    "SUITS",
    "AustrianPosition",
    "AustrianResult",
    "AustrianSolver",
    "random_ending",
    "solve",
    "values_of",
]

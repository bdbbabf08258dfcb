"""The exact open-hand solver: alpha-beta over the cards of a :class:`Position`.

The value of a position is the attack's final card points in half-points (bonuses such as
petit au bout or chelem are not counted, unless the position's ``petit_bonus`` and
``petit_au_bout`` count the Petit's) when the attack (taker and partner) maximises it and the
defence minimises it, everyone seeing every card.

The search is a min/max alpha-beta over single cards (fail-soft), driven by MTD(f) from the
value of a quick playout, with

* a transposition table at the start of each trick, keyed on a canonical form of the hands
  (the half-point cards of a suit, or the trumps 2-20, renumbered among those still held, so
  that layouts which differ only by cards already played share an entry), the player to lead
  and the part of the Excuse state that can still matter; entries hold a lower and an upper
  bound of the points still to come and the best lead;
* bounds: no more than the points still held (nor less than nothing) can still come, apart
  from an Excuse card already owed;
* equivalent-card pruning: of two cards of one player, in one suit (or both trumps), of the
  same card value, with no card of another player between them (nor a card of the current
  trick, unless neither can take the trick), only the lower is searched;
* move ordering: the table's best lead first, then leads cheapest first and trumps last;
  following, win-cheaply / feed-the-partner / discard rules of thumb;
* the last trick played out directly (every card is forced).

>>> import random
>>> from atout.rules import Rules
>>> from atout.solver.position import random_ending
>>> pos = Position.from_deal(random_ending(Rules(players=4), cards=3, rng=random.Random(3)))
>>> result = solve(pos)
>>> pos.points <= result.value <= pos.max_points()
True
>>> moves = best_moves(pos)
>>> (max if pos.attack[pos.player] else min)(moves.values()) == result.value
True
"""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from atout.cards import (
    BIT,
    EXCUSE,
    EXCUSE_MASK,
    HALF_POINTS,
    PETIT_MASK,
    SUIT_MASKS,
    SUIT_OF,
    TRUMPS_MASK,
    cards_of,
    half_points,
)
from atout.engine.tricks import legal_cards, winning_card
from atout.solver.position import ExcuseState, Position, finisher
from atout.solver.root import INF, RootSearch

FAST_FROM = 3
"""Tricks left from which ``Solver(fast=None)`` uses the compiled search (below, Python is as quick)."""

FIXED_CARDS = sum(15 << (14 * s + 10) for s in range(4)) | BIT[56] | BIT[76] | EXCUSE_MASK
"""Cards a canonical key keeps as they are: faces, the Petit, the 21 and the Excuse. The others
(pips 1-10, trumps 2-20) are worth half a point each and are renumbered among those still held."""
FIXED_RANK = tuple((c % 14 - 10) if c < 56 else 4 if c == 56 else 5 if c == 76 else 6 for c in range(78))
"""For a fixed card: jack 0, cavalier 1, queen 2, king 3, Petit 4, 21 5, Excuse 6."""


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The outcome of :func:`solve`."""

    value: int
    """The attack's final card points in half-points, under best play by both sides."""
    best_card: int
    """A best card for the player to move (-1 when the position is over)."""
    nodes: int
    """Search nodes visited (one per card tried, the forced last tricks counted once)."""
    seconds: float
    tt_entries: int

    @property
    def points(self) -> float:
        """The value in card points (halves included)."""
        return self.value / 2


class Solver(RootSearch):
    """An exact solver for one position; the transposition table is kept between calls.

    ``transposition``, ``equivalence`` and ``ordering`` switch the three speed-ups off for
    comparison; the values do not depend on them. Without the table the search is one
    full-window alpha-beta (no MTD(f), no playout guess).

    ``fast`` chooses the compiled search (:func:`fast_module`): ``None`` uses it when numba is
    installed, from ``FAST_FROM`` tricks left; ``True`` always (``ImportError`` without numba);
    ``False`` never. It gives the same values, best cards and node counts; positions with more
    than 63 cards in play are searched in Python either way.
    """

    def __init__(
        self,
        position: Position,
        *,
        transposition: bool = True,
        equivalence: bool = True,
        ordering: bool = True,
        fast: bool | None = None,
    ) -> None:
        self.position = position
        self.transposition = transposition
        self.equivalence = equivalence
        self.ordering = ordering
        self.table: Any = {}
        self._nodes = [0]
        self._child: Callable[[int, int, int], int]
        self._root_moves: Callable[[], list[int]]
        self._playout: Callable[[int], int]
        self._table_key: Callable[[Position], tuple[int, ...]]
        """The table's key of a position at the start of a trick (same seats and cards as the root's,
        some played): positions with one key have the same points still to come."""
        self._kernel: Any = None
        self._build()
        module = fast_module(fast)
        if module is not None and module.fits(position) and (fast or position.tricks_left >= FAST_FROM):
            self.table = module.new_table()
            self._kernel = module.Kernel(
                position, self.table, transposition, equivalence, ordering, self._canonical
            )
            self._child = self._kernel.child
            self._playout = self._kernel.playout
            self._table_key = self._kernel.table_key

    @property
    def nodes(self) -> int:
        return int(self._kernel.nodes) if self._kernel is not None else self._nodes[0]

    @property
    def fast(self) -> bool:
        """Whether the search runs compiled (numba), see :func:`fast_module`."""
        return self._kernel is not None

    def solve(self) -> SolveResult:
        """The value of the position and a best card."""
        start = time.perf_counter()
        pos = self.position
        if pos.is_over():
            return SolveResult(pos.points, -1, 0, 0.0, 0)
        best, best_card = self._best()
        return SolveResult(
            pos.points + best, best_card, self.nodes, time.perf_counter() - start, len(self.table)
        )

    def _maximizing(self) -> bool:
        return bool(self.position.attack[self.position.player])

    def move_values(self) -> dict[int, int]:
        """The exact value (attack's final half-points) after each legal card of the player to move."""
        pos = self.position
        if pos.is_over():
            return {}
        values = {card: pos.points + value for card, value in self._root_values().items()}
        out = {}
        for card in cards_of(pos.legal_mask()):
            if card not in values:
                # an equivalent card: the next lower card of the suit still in play, held by the player
                rest = pos.trick_mask
                for hand in pos.hands:
                    rest |= hand
                below = card
                while below not in values:
                    below = (rest & SUIT_MASKS[SUIT_OF[card]] & (BIT[below] - 1)).bit_length() - 1
                values[card] = values[below]
            out[card] = values[card]
        return out

    # ------------------------------------------------------------------ the search
    def _build(self) -> None:
        # one closure keeps the hot loop on local variables
        pos = self.position
        n = pos.n
        hands = list(pos.hands)
        order = pos.order
        side = tuple(0 if a else 1 for a in pos.attack)
        finish = finisher(
            pos.order,
            pos.taker,
            pos.partner,
            pos.reveal_card,
            pos.exchange_rule,
            pos.petit_bonus,
            pos.petit_au_bout,
        )
        # the sides as each seat knows them, public or not (rule book §3.8 step 1, §4.3)
        public_sides, hidden_sides = pos.sides(True), pos.sides(False)
        reveal_bit = BIT[pos.reveal_card] if pos.reveal_card >= 0 else 0
        petit_up, petit_down = pos.petit_bonus + pos.petit_au_bout, pos.petit_au_bout
        low_rule = pos.exchange_rule == "low"
        pay_max = 1 if low_rule else 9
        early = pos.excuse_early
        forbidden = pos.lead_forbidden
        root_left = pos.tricks_left
        table: dict[tuple[int, ...], tuple[int, int, int]] = self.table
        use_tt, use_eq, use_order = self.transposition, self.equivalence, self.ordering
        hp, suit_of, suits, bits = HALF_POINTS, SUIT_OF, SUIT_MASKS, BIT
        trumps, exc, exc_mask = TRUMPS_MASK, EXCUSE, EXCUSE_MASK
        counter = self._nodes

        # canonical keys: a suit's cards still held, as the owners of its renumbered cards in order
        # (the card making the sides public must keep its identity: it is always a face, else no renaming)
        canonical = use_tt and (pos.reveal_card < 0 or bool(BIT[pos.reveal_card] & FIXED_CARDS))
        self._canonical = canonical
        owner = [-1] * 78
        for seat, held in enumerate(hands):
            for c in cards_of(held):
                owner[c] = seat
        fragments: dict[int, int] = {}
        fragment_of = fragments.get
        s0, s1, s2, s3 = suits[:4]
        s4 = trumps | exc_mask

        def fragment(mask: int) -> int:
            code = 1
            for c in cards_of(mask):
                if bits[c] & FIXED_CARDS:
                    code = code * 64 + 8 * (1 + FIXED_RANK[c]) + owner[c]
                else:
                    code = code * 64 + owner[c] + 1
            fragments[mask] = code
            return code

        def table_key(p: int, rest: int, xs: ExcuseState) -> tuple[int, ...]:
            """The table's key at the start of a trick: the hands (``rest``, all cards held), the
            player to lead, and what of the Excuse state can still matter."""
            holder = -1
            if rest & exc_mask:
                for s in range(n):
                    if hands[s] & exc_mask:
                        holder = s
                        break
            if holder >= 0:
                # the Excuse held: whether its side has won every trick, what it would hand over,
                # and (must_play_before_last, the sides hidden) whether its side as its holder
                # knows it has won every trick
                pile = xs[1 + side[holder]]
                aux = 1 + 4 * (not xs[0] & ~public_sides[holder])
                if early and not xs[4]:
                    aux += 256 + 512 * (not xs[0] & ~hidden_sides[holder])
            elif xs[3] >= 0:
                # an exchange card owed: what the side would hand over
                pile = xs[1 + xs[3]]
                aux = 2 + xs[3]
            else:
                pile = aux = 0
            if aux:
                # a half-point card is handed over in the end (whenever it is) or never; the
                # cheapest won card depends on when the sides become public
                aux += 16 * (pile == 1) if low_rule else 8 * xs[4] + 16 * pile
            if not canonical:
                return (rest, p, aux)
            m0, m1, m2, m3, m4 = rest & s0, rest & s1, rest & s2, rest & s3, rest & s4
            return (
                fragment_of(m0) or fragment(m0),
                fragment_of(m1) or fragment(m1),
                fragment_of(m2) or fragment(m2),
                fragment_of(m3) or fragment(m3),
                fragment_of(m4) or fragment(m4),
                p,
                aux,
            )

        def moves_of(
            p: int, tc: tuple[int, ...], leader: int, tmask: int, led: int, left: int, xs: ExcuseState
        ) -> list[int]:
            hand = hands[p]
            if forbidden and not tc and left == root_left:
                legal = hand & ~forbidden or hand
            elif (
                early
                and hand & exc_mask
                and hand.bit_count() == 2
                and xs[0] & ~(public_sides if xs[4] or tmask & reveal_bit else hidden_sides)[p]
            ):
                # rule book §3.8 step 1: the Excuse now, unless the side as the player knows it
                # has won every trick so far
                return [exc]
            elif led < 0:
                legal = hand
            else:
                legal = legal_cards(hand, led, tmask)  # rule book §3.8
            if not legal & (legal - 1):
                return [legal.bit_length() - 1]
            body = tmask & ~exc_mask
            top_trump = win = 0
            if body:
                top_trump = body & trumps
                win = winning_card(body, led)
            cards = []
            if use_eq:
                rest = 0
                for h in hands:
                    rest |= h
                # a card of the trick between two of the player's cards breaks their equivalence
                # only if they can take the trick
                with_trick = rest | tmask
                if not body:
                    cannot = 0
                elif top_trump:
                    cannot = ~trumps | (bits[win] - 1)
                else:
                    cannot = ~(trumps | (suits[led] & ~(bits[win] - 1)))
                m = legal
                while m:
                    low = m & -m
                    c = low.bit_length() - 1
                    m ^= low
                    if c != exc:
                        below = (rest if cannot & low else with_trick) & suits[suit_of[c]] & (low - 1)
                        if below:
                            b = below.bit_length() - 1
                            if legal >> b & 1 and hp[b] == hp[c]:
                                continue
                    cards.append(c)
                if len(cards) < 2:
                    return cards
            else:
                cards = cards_of(legal)
            if not use_order:
                return cards
            scored = []
            if not body:
                # leading: the cheapest cards first, trumps last
                for c in cards:
                    scored.append((suit_of[c] == 4) << 11 | hp[c] << 7 | c)
                scored.sort()
                return [s & 127 for s in scored]
            ours = side[order[leader][tc.index(win)]] == side[p]
            last = len(tc) == n - 1
            for c in cards:
                trump_card = suit_of[c] == 4
                if c == exc:
                    score = -5 if ours else 40
                elif (
                    (trump_card and c > win) if top_trump else (trump_card or (suit_of[c] == led and c > win))
                ):
                    # c takes the lead of the trick: win with points when last, else take it over
                    score = (60 + hp[c]) if last else (5 if ours else 30)
                elif ours:
                    score = 20 + hp[c]
                else:
                    score = -hp[c]
                scored.append((score + 16) << 7 | c)
            scored.sort(reverse=True)
            return [s & 127 for s in scored]

        def search(
            p: int,
            tc: tuple[int, ...],
            leader: int,
            tmask: int,
            led: int,
            tpts: int,
            left: int,
            xs: ExcuseState,
            alpha: int,
            beta: int,
        ) -> int:
            counter[0] += 1
            if left == 1:
                # the last trick: every card is forced
                seats = order[leader]
                for i in range(len(tc), n):
                    c = hands[seats[i]].bit_length() - 1
                    tc += (c,)
                    tmask |= bits[c]
                    tpts += hp[c]
                    if led < 0 and c != exc:
                        led = suit_of[c]
                return finish(tc, leader, tmask, led, tpts, 1, xs)[0]
            key: tuple[int, ...] | None = None
            tt_card = -1
            if not tc:
                # the points still in play bound what can still come
                rest = 0
                for h in hands:
                    rest |= h
                debt = xs[3]
                most = half_points(rest) + (pay_max if debt == 1 else 0)
                least = -pay_max if debt == 0 else 0
                if rest & PETIT_MASK:
                    most += petit_up
                    least -= petit_down
                if most <= alpha:
                    return most
                if least >= beta:
                    return least
                if use_tt:
                    key = table_key(p, rest, xs)
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
                        if tt_card >= 0:
                            # stored as (suit, rank among the suit's cards still held)
                            m = rest & suits[tt_card >> 5]
                            for _ in range(tt_card & 31):
                                m &= m - 1
                            tt_card = (m & -m).bit_length() - 1
            alpha0, beta0 = alpha, beta
            moves = moves_of(p, tc, leader, tmask, led, left, xs)
            if tt_card >= 0 and moves[0] != tt_card and tt_card in moves:
                moves.remove(tt_card)
                moves.insert(0, tt_card)
            hand = hands[p]
            maximize = not side[p]
            best = -INF if maximize else INF
            best_card = -1
            nxt = len(tc) + 1
            for c in moves:
                bit = bits[c]
                hands[p] = hand ^ bit
                if nxt == n:
                    gain, winner, nxs = finish(
                        (*tc, c), leader, tmask | bit, led if led >= 0 or c == exc else suit_of[c],
                        tpts + hp[c], left, xs,
                    )  # fmt: skip
                    v = gain + search(winner, (), winner, 0, -1, 0, left - 1, nxs, alpha - gain, beta - gain)
                else:
                    v = search(
                        order[leader][nxt], (*tc, c), leader, tmask | bit,
                        led if led >= 0 or c == exc else suit_of[c], tpts + hp[c], left, xs, alpha, beta,
                    )  # fmt: skip
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

        def start(card: int) -> tuple[int, tuple[int, ...], int, int, int, ExcuseState, int]:
            """Play ``card`` at the root (into ``hands``): the next player, trick, mask, led suit,
            points of the trick, Excuse state and the points already won (a trick may end)."""
            tc = (*pos.trick, card)
            tmask = pos.trick_mask | bits[card]
            led = pos.led_suit if pos.led_suit >= 0 or card == exc else suit_of[card]
            tpts = sum(hp[c] for c in tc)
            hands[pos.player] ^= bits[card]
            if len(tc) == n:
                gain, winner, xs = finish(tc, pos.leader, tmask, led, tpts, root_left, pos.excuse_state())
                return winner, (), 0, -1, 0, xs, gain
            return order[pos.leader][len(tc)], tc, tmask, led, tpts, pos.excuse_state(), 0

        def child(card: int, alpha: int, beta: int) -> int:
            """The points still to come after the player to move at the root plays ``card``."""
            p, tc, tmask, led, tpts, xs, gain = start(card)
            try:
                if not tc:
                    if root_left == 1:
                        return gain
                    return gain + search(p, (), p, 0, -1, 0, root_left - 1, xs, alpha - gain, beta - gain)
                return search(p, tc, pos.leader, tmask, led, tpts, root_left, xs, alpha, beta)
            finally:
                hands[pos.player] ^= bits[card]

        def playout(card: int) -> int:
            """The points still to come when everyone plays the first card of the ordering (after
            ``card`` at the root, if not -1): MTD(f)'s first guess."""
            saved = list(hands)
            if card < 0:
                p, tc, leader, tmask, led, xs = (
                    pos.player,
                    pos.trick,
                    pos.leader,
                    pos.trick_mask,
                    pos.led_suit,
                    pos.excuse_state(),
                )
                tpts, gain, left = sum(hp[c] for c in tc), 0, root_left
            else:
                p, tc, tmask, led, tpts, xs, gain = start(card)
                leader, left = (p, root_left - 1) if not tc else (pos.leader, root_left)
            while left:
                c = moves_of(p, tc, leader, tmask, led, left, xs)[0]
                hands[p] ^= bits[c]
                tc = (*tc, c)
                tmask |= bits[c]
                tpts += hp[c]
                if led < 0 and c != exc:
                    led = suit_of[c]
                if len(tc) == n:
                    g, p, xs = finish(tc, leader, tmask, led, tpts, left, xs)
                    gain += g
                    left -= 1
                    leader, tc, tmask, led, tpts = p, (), 0, -1, 0
                else:
                    p = order[leader][len(tc)]
            hands[:] = saved
            return gain

        def root_moves() -> list[int]:
            return moves_of(
                pos.player, pos.trick, pos.leader, pos.trick_mask, pos.led_suit, root_left, pos.excuse_state()
            )

        def position_key(position: Position) -> tuple[int, ...]:
            rest = 0
            for hand in position.hands:
                rest |= hand
            return table_key(position.player, rest, position.excuse_state())

        self._child = child
        self._root_moves = root_moves
        self._playout = playout
        self._table_key = position_key


def fast_module(fast: bool | None = None) -> Any:
    """The compiled search (:mod:`atout.solver.fast`) if it is to be used, else ``None``.

    ``fast=None`` (the default): used when numba is installed, unless the environment variable
    ``ATOUT_SOLVER_FAST`` is ``0`` (``1`` makes it required); ``True``: required (``ImportError``
    without numba); ``False``: pure Python.
    """
    if fast is None:
        setting = os.environ.get("ATOUT_SOLVER_FAST", "")
        if setting == "0":
            return None
        fast = True if setting == "1" else None
    if fast is False:
        return None
    module = importlib.import_module("atout.solver.fast")
    if not module.AVAILABLE:
        if fast:
            raise ImportError("the compiled solver needs numba: pip install 'atout[solver-fast]'")
        return None
    return module


def solve(position: Position, **options: bool) -> SolveResult:
    """Solve ``position`` exactly (see :class:`Solver` for the options)."""
    return Solver(position, **options).solve()


def best_moves(position: Position, **options: bool) -> dict[int, int]:
    """The value (attack's final half-points) of each legal card of the player to move."""
    return Solver(position, **options).move_values()

"""The exact open-hand solver: alpha-beta over the cards of a :class:`Position`.

The value of a position is the attack's final card points in half-points (bonuses such as
petit au bout or chelem are not counted) when the attack (taker and partner) maximises it
and the defence minimises it, everyone seeing every card.

The search is a min/max alpha-beta over single cards (fail-soft), with

* a transposition table at the start of each trick, keyed on the hands, the leader and the
  part of the Excuse state that can still matter, holding a lower and an upper bound of the
  points still to come and the best lead;
* equivalent-card pruning: of two cards of one player, in one suit (or both trumps), of the
  same card value, with no card of another player nor of the current trick between them,
  only the lower is searched (they are interchangeable for the result);
* move ordering: the table's best lead first, then win-cheaply / feed-the-partner / discard
  rules of thumb;
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

import time
from dataclasses import dataclass

from atout.cards import (
    BIT,
    EXCUSE,
    EXCUSE_MASK,
    HALF_POINTS,
    SUIT_MASKS,
    SUIT_OF,
    TRUMPS_MASK,
    cards_of,
    half_points,
)
from atout.solver.position import ExcuseState, Position, finisher

INF = 1 << 20


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


class Solver:
    """An exact solver for one position; the transposition table is kept between calls.

    ``transposition``, ``equivalence`` and ``ordering`` switch the three speed-ups off for
    comparison; the values do not depend on them.
    """

    def __init__(
        self,
        position: Position,
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
        self._build()

    @property
    def nodes(self) -> int:
        return self._nodes[0]

    def solve(self) -> SolveResult:
        """The value of the position and a best card."""
        start = time.perf_counter()
        pos = self.position
        if pos.is_over():
            return SolveResult(pos.points, -1, 0, 0.0, 0)
        if not self.transposition:
            best, best_card = self._root(-INF, INF)
        else:
            # MTD(f): null-window searches around a guess, the table keeping what each one proved
            maximize = pos.attack[pos.player]
            lower, upper = -INF, INF
            best = (pos.max_points() - 9 - pos.points) // 2
            best_card = -1
            while lower < upper:
                bound = best + 1 if best == lower else best
                best, card = self._root(bound - 1, bound)
                if best < bound:
                    upper = best
                    if not maximize:
                        best_card = card
                else:
                    lower = best
                    if maximize:
                        best_card = card
        return SolveResult(
            pos.points + best, best_card, self.nodes, time.perf_counter() - start, len(self.table)
        )

    def _root(self, alpha: int, beta: int) -> tuple[int, int]:
        """Alpha-beta at the root: the points still to come (fail-soft) and the card that gave them."""
        maximize = self.position.attack[self.position.player]
        best, best_card = (-INF if maximize else INF), -1
        for card in self._root_moves():
            value = self._child(card, alpha, beta)
            if (value > best) if maximize else (value < best):
                best, best_card = value, card
                if maximize:
                    alpha = max(alpha, value)
                else:
                    beta = min(beta, value)
                if alpha >= beta:
                    break
        return best, best_card

    def move_values(self) -> dict[int, int]:
        """The exact value (attack's final half-points) after each legal card of the player to move."""
        pos = self.position
        if pos.is_over():
            return {}
        return {card: pos.points + self._child(card, -INF, INF) for card in cards_of(pos.legal_mask())}

    # ------------------------------------------------------------------ the search
    def _build(self) -> None:
        # one closure keeps the hot loop on local variables
        pos = self.position
        n = pos.n
        hands = list(pos.hands)
        order = pos.order
        side = tuple(0 if a else 1 for a in pos.attack)
        finish = finisher(pos.order, pos.attack, pos.reveal_card, pos.exchange_rule)
        low_rule = pos.exchange_rule == "low"
        pay_max = 1 if low_rule else 9
        early = pos.excuse_early
        forbidden = pos.lead_forbidden
        root_left = pos.tricks_left
        table = self.table
        use_tt, use_eq, use_order = self.transposition, self.equivalence, self.ordering
        hp, suit_of, suits, bits = HALF_POINTS, SUIT_OF, SUIT_MASKS, BIT
        trumps, exc, exc_mask = TRUMPS_MASK, EXCUSE, EXCUSE_MASK
        counter = self._nodes

        def moves_of(
            p: int, tc: tuple[int, ...], leader: int, tmask: int, led: int, left: int, xs: ExcuseState
        ) -> list[int]:
            hand = hands[p]
            if forbidden and not tc and left == root_left:
                legal = hand & ~forbidden or hand
            elif early and hand & exc_mask and hand.bit_count() == 2 and not xs[side[p]]:
                return [exc]
            elif led < 0:
                legal = hand
            else:
                # RULES.md §3.8, as atout.engine.tricks.legal_cards
                legal = 0
                if led != 4:
                    legal = hand & suits[led]
                if legal:
                    legal |= hand & exc_mask
                else:
                    own = hand & trumps
                    if own:
                        top = (tmask & trumps).bit_length()
                        legal = (own >> top << top or own) | (hand & exc_mask)
                    else:
                        legal = hand
            cards = []
            if use_eq:
                rem = tmask
                for h in hands:
                    rem |= h
            m = legal
            while m:
                low = m & -m
                c = low.bit_length() - 1
                m ^= low
                if use_eq and c != exc:
                    below = rem & suits[suit_of[c]] & (low - 1)
                    if below:
                        b = below.bit_length() - 1
                        if legal >> b & 1 and hp[b] == hp[c]:
                            continue
                cards.append(c)
            if not use_order or len(cards) < 2:
                return cards
            body = tmask & ~exc_mask
            if not body:
                # leading: the top card of a suit first (it may win), then the rest high to low
                lead = []
                for c in cards:
                    lead.append((hp[c], c))
                lead.sort()
                return [c for _, c in lead]
            top_trump = body & trumps
            win = (top_trump or body & suits[led]).bit_length() - 1
            ours = side[order[leader][tc.index(win)]] == side[p]
            last = len(tc) == n - 1
            scored = []
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
                scored.append((score, c))
            scored.sort(reverse=True)
            return [c for _, c in scored]

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
            key = None
            tt_card = -1
            if not tc:
                # the points still in play bound what can still come
                rest = 0
                for h in hands:
                    rest |= h
                most = half_points(rest) + pay_max
                if most <= alpha:
                    return most
                if -pay_max >= beta:
                    return -pay_max
            if use_tt and not tc:
                holder = -1
                for s in range(n):
                    if hands[s] & exc_mask:
                        holder = side[s]
                        break
                if holder >= 0:
                    pile = xs[2 + holder]
                    aux = 1 + 4 * xs[holder]
                elif xs[4] >= 0:
                    pile = xs[2 + xs[4]]
                    aux = 2 + xs[4]
                else:
                    pile = aux = 0
                if aux:
                    aux += 16 * (pile == 1) if low_rule else 8 * xs[5] + 16 * pile
                key = (*hands, p, aux)
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
                table[key] = (lo, hi, best_card)
            return best

        def child(card: int, alpha: int, beta: int) -> int:
            """The points still to come after the player to move at the root plays ``card``."""
            p = pos.player
            tc = (*pos.trick, card)
            tmask = pos.trick_mask | bits[card]
            led = pos.led_suit if pos.led_suit >= 0 or card == exc else suit_of[card]
            tpts = sum(hp[c] for c in tc)
            hands[p] ^= bits[card]
            try:
                if len(tc) == n:
                    gain, winner, xs = finish(tc, pos.leader, tmask, led, tpts, root_left, pos.excuse_state())
                    if root_left == 1:
                        return gain
                    return gain + search(
                        winner, (), winner, 0, -1, 0, root_left - 1, xs, alpha - gain, beta - gain
                    )
                return search(
                    order[pos.leader][len(tc)], tc, pos.leader, tmask, led, tpts, root_left,
                    pos.excuse_state(), alpha, beta,
                )  # fmt: skip
            finally:
                hands[p] ^= bits[card]

        def root_moves() -> list[int]:
            return moves_of(
                pos.player, pos.trick, pos.leader, pos.trick_mask, pos.led_suit, root_left, pos.excuse_state()
            )

        self._child = child
        self._root_moves = root_moves


def solve(position: Position, **options: bool) -> SolveResult:
    """Solve ``position`` exactly (see :class:`Solver` for the options)."""
    return Solver(position, **options).solve()


def best_moves(position: Position, **options: bool) -> dict[int, int]:
    """The value (attack's final half-points) of each legal card of the player to move."""
    return Solver(position, **options).move_values()

"""The played line of a finished deal, solved card by card from its last trick back.

A :class:`Line` holds the open-hand position before each card played (French Tarot for 3 to 5
players, the dead-player table's four in play, Austrian Tarock) and gives, trick by trick from the
last, every legal card's exact value at each of them: the final count the attack (the declarer in
Austrian Tarock) ends with when both sides play their best from there on.

Going back along the line makes each step cheap: the value after the card actually played is the
value of the next position, already known, so only the other cards are searched, and their
search starts from that value (MTD(f)'s first guess). One transposition table serves the whole
line: the solver keys a table entry on the cards still held and who holds them, so the entries of
a later position are exact for an earlier one (the compiled search numbers the cards once, as
they are in play at the first trick it can hold, :data:`atout.solver.fast.MAX_CARDS`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from atout.cards import BIT, HALF_POINTS, SUIT_MASKS, SUIT_OF, cards_of
from atout.engine.actions import ActionKind
from atout.engine.austrian.actions import AustrianActionKind
from atout.engine.austrian.cards import AUSTRIAN_SUIT_OF, austrian_points
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.dead_player import DeadPlayerDeal
from atout.engine.french import FrenchDeal
from atout.games import Deal
from atout.scoring import FrenchSummary
from atout.solver import Position, Solver
from atout.solver import fast as fast_search
from atout.solver.austrian import SUITS as AUSTRIAN_SUITS
from atout.solver.austrian import AustrianPosition, AustrianSolver
from atout.solver.root import INF
from atout.solver.search import FAST_FROM, FIXED_CARDS, fast_module

AnyPosition = Position | AustrianPosition
AnySolver = Solver | AustrianSolver


@dataclass(frozen=True, slots=True)
class Played:
    """One card of the line, and the position it was played from."""

    index: int
    """Its index in the record's actions."""
    trick: int
    """Its trick, from 1."""
    seat: int
    """The table seat that played it (from 0)."""
    card: int
    attack: bool
    """Whether that seat plays for the attack (the taker and his partner; the declarer)."""
    position: AnyPosition
    base: int
    """The count the attack holds already, in the solver's unit (French: half-points)."""


@dataclass(frozen=True, slots=True)
class CardValues:
    """Every legal card's exact value at one position of the line, in the solver's unit."""

    values: dict[int, int]
    nodes: int


class Line:
    """The card play of a finished deal as open-hand positions (see the module docstring)."""

    def __init__(self, deal: Deal, actions: list[str]) -> None:
        """Walk the record's ``actions`` on ``deal`` (as dealt) and keep each card's position."""
        self.austrian = isinstance(deal, AustrianDeal)
        self.unit = 1 if self.austrian else 2
        """Solver units in a point: the French solver counts half-points."""
        self.played: list[Played] = []
        self.discards: list[tuple[int, int]] = []
        """The taker's écart in French Tarot: ``(index of the action, card)``."""
        for index, text in enumerate(actions):
            action = deal.parse(text)
            if _is_card(deal, action):
                self.played.append(_played(deal, index, int(action.card or 0)))
            elif not self.austrian and action.kind is ActionKind.DISCARD:
                self.discards.append((index, int(action.card or 0)))
            deal.apply(action)
        self.final = _final_count(deal)
        """The count the attack ends with, in the solver's unit."""
        self.tricks = self.played[-1].trick if self.played else 0
        self.nodes = 0
        self._kernel: Any = None
        self._austrian_table: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self._after = self.final
        self._done = len(self.played)
        """The first position analysed so far (the line is analysed from its end)."""
        self.start_values: dict[int, int] = {}
        """The value before each trick analysed, in the solver's unit."""

    # ------------------------------------------------------------------ going back
    def first_of(self, trick: int) -> int:
        """The index in :attr:`played` of the first card of ``trick``."""
        return next(i for i, p in enumerate(self.played) if p.trick == trick)

    def analyse_trick(self, trick: int) -> list[CardValues]:
        """Every legal card's value at each card of ``trick``; the tricks after it must be done."""
        if not self._done or self.played[self._done - 1].trick != trick:
            raise ValueError(f"trick {trick} is analysed after the tricks that follow it")
        first = self.first_of(trick)
        out: list[CardValues] = []
        for i in range(self._done - 1, first - 1, -1):
            out.append(self._values(self.played[i], self._after))
            maximize = self.played[i].attack == self.maximizing_side()
            self._after = (max if maximize else min)(out[-1].values.values())
        self._done = first
        self.start_values[trick] = self._after
        out.reverse()
        return out

    def maximizing_side(self) -> bool:
        """Whether the attack is the side that wants the count up (not in an Austrian game 2)."""
        if not self.played:
            return True
        pos = self.played[0].position
        return pos.maximizing if isinstance(pos, AustrianPosition) else True

    def _values(self, played: Played, after: int) -> CardValues:
        """The values at one position, the played card's being ``after``."""
        solver = self.solver(played.position)
        before = solver.nodes
        moves = solver._root_moves()
        rep = _representative(played.position, played.card, moves)
        known = after - played.base
        relative = {}
        for card in moves:
            relative[card] = known if card == rep else _mtd(solver._child, card, known)
        values = {}
        for card in cards_of(played.position.legal_mask()):
            values[card] = played.base + relative[_representative(played.position, card, moves)]
        nodes = solver.nodes - before
        self.nodes += nodes
        return CardValues(values, nodes)

    # ------------------------------------------------------------------ solvers
    def solver(self, pos: AnyPosition) -> AnySolver:
        """A solver of ``pos`` on the line's transposition table."""
        if isinstance(pos, AustrianPosition):
            return _SharedAustrianSolver(pos, self._austrian_table)
        solver = Solver(pos, fast=False)
        if pos.tricks_left >= FAST_FROM and fast_module() is not None:
            kernel = self._kernel_for(pos)
            if kernel is not None:
                _rebase(kernel, pos)
                solver.table = kernel.shared_table
                solver._kernel = kernel
                solver._child = kernel.child
                solver._playout = kernel.playout
                solver._table_key = kernel.table_key
        return solver

    def _kernel_for(self, pos: Position) -> Any:
        """The compiled search numbered for the first trick it can hold (built once), if ``pos``
        is within it."""
        if self._kernel is None:
            for played in self.played:
                root = played.position
                if isinstance(root, Position) and not root.trick and fast_search.fits(root):
                    canonical = root.reveal_card < 0 or bool(BIT[root.reveal_card] & FIXED_CARDS)
                    table = fast_search.new_table()
                    self._kernel = fast_search.Kernel(root, table, True, True, True, canonical)
                    self._kernel.shared_table = table
                    break
            else:
                return None
        kernel = self._kernel
        in_play = pos.trick_mask
        for hand in pos.hands:
            in_play |= hand
        return kernel if all(c in kernel.index for c in cards_of(in_play)) else None


class _SharedAustrianSolver(AustrianSolver):
    """An Austrian solver on a table shared along the line."""

    def __init__(
        self, position: AustrianPosition, table: dict[tuple[int, ...], tuple[int, int, int]]
    ) -> None:
        self._shared = table
        super().__init__(position)

    def _build(self) -> None:
        self.table = self._shared
        super()._build()


def _rebase(kernel: Any, pos: Position) -> None:
    """Point the compiled search at ``pos``, keeping its card numbering and table."""
    cfg = kernel.cfg
    kernel.pos = pos
    kernel.hands[:] = [kernel.compact(h) for h in pos.hands]
    cfg[fast_search.ROOT_LEFT] = pos.tricks_left
    cfg[fast_search.FORBIDDEN] = kernel.compact(pos.lead_forbidden)
    cfg[fast_search.REVEAL] = kernel.index.get(pos.reveal_card, -1)
    trick = pos.trick
    kernel.root = (
        len(trick),
        kernel.index[trick[0]] if trick else -1,
        kernel.compact(pos.trick_mask),
        pos.led_suit,
        sum(HALF_POINTS[c] for c in trick),
        fast_search.pack(pos.excuse_state()),
    )


def _mtd(child: Callable[[int, int, int], int], card: int, guess: int) -> int:
    """The exact points still to come after ``card`` at the root: MTD(f) from ``guess``."""
    lower, upper = -INF, INF
    value = guess
    while lower < upper:
        bound = value + 1 if value == lower else value
        value = child(card, bound - 1, bound)
        if value < bound:
            upper = value
        else:
            lower = value
    return value


def _representative(pos: AnyPosition, card: int, moves: list[int]) -> int:
    """The card the solver searches for ``card``: itself, or the next lower card of its suit still
    in play that is equivalent to it (held by the same player)."""
    rest = pos.trick_mask
    for hand in pos.hands:
        rest |= hand
    if isinstance(pos, AustrianPosition):
        suit = AUSTRIAN_SUITS[AUSTRIAN_SUIT_OF[card]]
    else:
        suit = SUIT_MASKS[SUIT_OF[card]]
    below = card
    while below not in moves:
        below = (rest & suit & (BIT[below] - 1)).bit_length() - 1
        if below < 0:
            raise ValueError(f"card {card} has no searched equivalent")
    return below


def _is_card(deal: Deal, action: Any) -> bool:
    """Whether ``action`` is a card played in a trick."""
    if isinstance(deal, AustrianDeal):
        return bool(action.kind is AustrianActionKind.PLAY)
    return bool(action.kind is ActionKind.PLAY)


def _played(deal: Deal, index: int, card: int) -> Played:
    """The card about to be played on ``deal`` and its position."""
    if isinstance(deal, AustrianDeal):
        apos = AustrianPosition.from_deal(deal)
        return Played(
            index, deal.trick_no + 1, apos.player, card, apos.player == apos.declarer, apos,
            austrian_points(deal.declarer_pile(), deal.rules.austrian_jack_value),
        )  # fmt: skip
    inner = deal.inner if isinstance(deal, DeadPlayerDeal) else deal
    assert isinstance(inner, FrenchDeal)
    pos = Position.from_deal(inner)
    seat = deal.outer(pos.player) if isinstance(deal, DeadPlayerDeal) else pos.player
    return Played(index, inner.trick_no + 1, seat, card, pos.attack[pos.player], pos, pos.points)


def _final_count(deal: Deal) -> int:
    """The attack's count at the end of the deal, in the solver's unit."""
    if isinstance(deal, AustrianDeal):
        return austrian_points(deal.declarer_pile(), deal.rules.austrian_jack_value)
    summary = deal.summary
    if not isinstance(summary, FrenchSummary):
        raise ValueError("the deal has no count of the attack's card points")
    return summary.half_points

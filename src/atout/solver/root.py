"""The root of an exact search, shared by the French and the Austrian solvers: MTD(f) over
null-window alpha-beta searches from a playout's guess, and the exact value of each root card.

A solver built on :class:`RootSearch` provides, once built, ``_child(card, alpha, beta)`` (the
fail-soft value of the points still to come after ``card`` at the root), ``_playout(card)`` (a
quick guess of that value; ``-1``: of the root itself), ``_root_moves()`` (the root's distinct
cards, best first) and ``transposition`` (without a table, one full-window search: MTD(f) needs the
table to keep what each pass proved); :meth:`_maximizing` tells whether the player to move wants
the points.
"""

from __future__ import annotations

from collections.abc import Callable

INF = 1 << 20


class RootSearch:
    """MTD(f) at the root of an alpha-beta search (see the module doc)."""

    transposition: bool
    _child: Callable[[int, int, int], int]
    _playout: Callable[[int], int]
    _root_moves: Callable[[], list[int]]

    def _maximizing(self) -> bool:
        raise NotImplementedError

    def _best(self) -> tuple[int, int]:
        """The points still to come under best play and a best card (MTD(f) with the table)."""
        if not self.transposition:
            return self._root(-INF, INF)
        maximize = self._maximizing()
        lower, upper = -INF, INF
        best = self._playout(-1)
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
        return best, best_card

    def _root(self, alpha: int, beta: int) -> tuple[int, int]:
        """Alpha-beta at the root: the points still to come (fail-soft) and the card that gave them."""
        maximize = self._maximizing()
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

    def _child_value(self, card: int) -> int:
        """The exact points still to come after ``card`` at the root (MTD(f) from a playout)."""
        if not self.transposition:
            return self._child(card, -INF, INF)
        lower, upper = -INF, INF
        value = self._playout(card)
        while lower < upper:
            bound = value + 1 if value == lower else value
            value = self._child(card, bound - 1, bound)
            if value < bound:
                upper = value
            else:
                lower = value
        return value

    def _root_values(self) -> dict[int, int]:
        """The exact points still to come after each of the root's distinct cards."""
        return {card: self._child_value(card) for card in self._root_moves()}


__all__ = ["INF", "RootSearch"]

"""A score sheet: one row per deal, one column per seat, with running totals (RULES.md §3.14).

>>> sheet = ScoreSheet(4)
>>> _ = sheet.add([105, -35, -35, -35], label="deal 1")
>>> _ = sheet.add([-168, 56, 56, 56])
>>> sheet.totals, sheet.is_zero_sum()
((-63, 21, 21, 21), True)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SheetRow:
    """One deal's score changes, seat 0 first, with an optional label."""

    scores: tuple[int, ...]
    label: str | None = None


class ScoreSheet:
    """The rows of a session and their running totals."""

    def __init__(self, players: int) -> None:
        if players < 1:
            raise ValueError(f"a score sheet needs at least one player, not {players}")
        self._players = players
        self._rows: list[SheetRow] = []

    @property
    def players(self) -> int:
        return self._players

    def add(self, scores: Sequence[int], label: str | None = None) -> SheetRow:
        """Append one deal's scores; refuses a row with the wrong number of seats."""
        if len(scores) != self._players:
            raise ValueError(f"a row of this sheet has {self._players} scores, not {len(scores)}")
        row = SheetRow(tuple(int(s) for s in scores), label)
        self._rows.append(row)
        return row

    @property
    def rows(self) -> tuple[SheetRow, ...]:
        return tuple(self._rows)

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total over all rows."""
        return (
            tuple(sum(column) for column in zip(*(r.scores for r in self._rows), strict=True))
            or (0,) * self._players
        )

    def running_totals(self) -> list[tuple[int, ...]]:
        """The totals after each row, in order."""
        out: list[tuple[int, ...]] = []
        current = (0,) * self._players
        for row in self._rows:
            current = tuple(a + b for a, b in zip(current, row.scores, strict=True))
            out.append(current)
        return out

    def is_zero_sum(self) -> bool:
        """True when every row sums to zero (then so do the totals)."""
        return all(sum(r.scores) == 0 for r in self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> Iterator[SheetRow]:
        return iter(self._rows)

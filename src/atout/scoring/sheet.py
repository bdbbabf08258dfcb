"""A score sheet: one row per deal, one column per seat, with running totals (rule book §3.14).

Adding a row costs the same however long the session; a sheet made with ``keep_rows=False``
keeps only the totals, so a session of any length fits in the same memory.

>>> sheet = ScoreSheet(4)
>>> _ = sheet.add([105, -35, -35, -35], label="deal 1")
>>> sheet.add([-168, 56, 56, 56]).totals
(-63, 21, 21, 21)
>>> sheet.totals, sheet.is_zero_sum(), len(sheet)
((-63, 21, 21, 21), True, 2)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from operator import add


@dataclass(frozen=True)
class SheetRow:
    """One deal's score changes, seat 0 first, an optional label, and the totals after it."""

    scores: tuple[int, ...]
    label: str | None = None
    totals: tuple[int, ...] = ()


class ScoreSheet:
    """The rows of a session and their running totals."""

    def __init__(self, players: int, keep_rows: bool = True) -> None:
        if players < 1:
            raise ValueError(f"a score sheet needs at least one player, not {players}")
        self._players = players
        self._rows: list[SheetRow] | None = [] if keep_rows else None
        self._totals = (0,) * players
        self._count = 0
        self._zero_sum = True

    @property
    def players(self) -> int:
        return self._players

    def add(self, scores: Sequence[int], label: str | None = None) -> SheetRow:
        """Append one deal's scores; refuses a row with the wrong number of seats."""
        if len(scores) != self._players:
            raise ValueError(f"a row of this sheet has {self._players} scores, not {len(scores)}")
        row_scores = tuple(map(int, scores))
        self._totals = tuple(map(add, self._totals, row_scores))
        self._zero_sum = self._zero_sum and sum(row_scores) == 0
        self._count += 1
        row = SheetRow(row_scores, label, self._totals)
        if self._rows is not None:
            self._rows.append(row)
        return row

    @property
    def rows(self) -> tuple[SheetRow, ...]:
        """Every row, in order (none when the sheet keeps only its totals)."""
        return () if self._rows is None else tuple(self._rows)

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total over all rows."""
        return self._totals

    def running_totals(self) -> list[tuple[int, ...]]:
        """The totals after each row, in order."""
        return [row.totals for row in self]

    def is_zero_sum(self) -> bool:
        """True when every row sums to zero (then so do the totals)."""
        return self._zero_sum

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[SheetRow]:
        return iter(self._rows or ())

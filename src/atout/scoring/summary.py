"""Deal summaries (RULES.md §9): what a score keeper is told once a deal is over.

The engine builds a :class:`FrenchSummary` at the end of each deal; a score keeper
reads one from JSON with :func:`parse_summary`. Scoring functions take summaries only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from atout.rules import Rules

Side = Literal["attack", "defense"]
PoigneeLevel = Literal["simple", "double", "triple"]
MisereKind = Literal["no_trumps", "no_courts", "both"]
POIGNEE_LEVELS: tuple[PoigneeLevel, ...] = ("simple", "double", "triple")


@dataclass(frozen=True)
class PoigneeDeclared:
    """One poignée shown during the deal."""

    side: Side
    level: PoigneeLevel
    seat: int | None = None


@dataclass(frozen=True)
class MisereDeclared:
    """One misère declared (only with the ``misere_bonus`` option)."""

    seat: int
    kind: MisereKind


@dataclass(frozen=True)
class PartialSlamResult:
    """Outcome of the partial-slam option for this deal."""

    announced: bool
    made: bool


@dataclass(frozen=True)
class FrenchSummary:
    """A finished French Tarot deal for 3, 4 or 5 players.

    ``half_points`` are the attack's card points times two (so 40.5 points is 81).
    ``partner`` is the called card's holder in 5 players, ``None`` when the taker
    plays alone; ``dead`` is the seat out of play under ``five_player_mode=dead_player``.
    """

    rules: Rules
    taker: int
    contract: str
    oudlers: int
    half_points: int
    partner: int | None = None
    dead: int | None = None
    petit_au_bout: Side | None = None
    poignees: tuple[PoigneeDeclared, ...] = ()
    chelem_announced: bool = False
    chelem_won_by: Side | None = None
    misere: tuple[MisereDeclared, ...] = ()
    partial_slam: PartialSlamResult | None = None

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def points(self) -> float:
        return self.half_points / 2

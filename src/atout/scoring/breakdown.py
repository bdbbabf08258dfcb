"""How a deal's score is made up, term by term, for a front end to show (rule book §3.11-§3.14, §5.7).

The terms are those the scoring functions add; the scores are theirs, so a breakdown never
disagrees with :func:`atout.scoring.score`.

>>> from atout.scoring.summary import parse_summary
>>> b = french_breakdown(parse_summary({"game": "french", "players": 4, "taker": 0,
...                                     "contract": "garde", "oudlers": 2, "points": 49}))
>>> b.needed, b.margin, b.base, b.unit, b.scores
(41, 8, 66, 66, (198, -66, -66, -66))
"""

from __future__ import annotations

from dataclasses import dataclass

from atout.scoring.austrian import austrian_value, declarer_wins, score_austrian
from atout.scoring.french import (
    _chelem,
    _partial_slam,
    _petit_au_bout,
    _poignees,
    contract_made,
    counted_points,
    misere_transfers,
    per_defender_unit,
    round_margin,
    score_french,
)
from atout.scoring.summary import AustrianSummary, FrenchSummary


@dataclass(frozen=True)
class FrenchBreakdown:
    """A French deal's score (3 to 5 players): what each defender pays the attack (``unit``, negative
    when the attack loses) as the sum of its terms, then each seat's score.

    ``points`` are the attack's card points, ``counted`` the same after the half-point rule;
    ``margin`` is ``counted - needed`` and ``rounded_margin`` its size after rounding."""

    points: float
    counted: int
    bouts: int
    needed: int
    made: bool
    margin: int
    rounded_margin: int
    multiplier: int
    base: int
    petit_au_bout: int
    poignees: int
    chelem: int
    partial_slam: int
    unit: int
    misere: tuple[int, ...]
    scores: tuple[int, ...]


def french_breakdown(summary: FrenchSummary) -> FrenchBreakdown:
    """The terms of :func:`per_defender_unit` and the scores of :func:`score_french`."""
    rules = summary.rules
    needed = rules.threshold(summary.oudlers)
    counted = counted_points(summary)
    made = contract_made(summary)
    mult = rules.multiplier(summary.contract)
    rounded = round_margin(abs(counted - needed), rules)
    won = 1 if made else -1
    return FrenchBreakdown(
        points=summary.points,
        counted=counted,
        bouts=summary.oudlers,
        needed=needed,
        made=made,
        margin=counted - needed,
        rounded_margin=rounded,
        multiplier=mult,
        base=won * (25 + rounded) * mult,
        petit_au_bout=_petit_au_bout(summary, mult),
        poignees=_poignees(summary, won),
        chelem=_chelem(summary),
        partial_slam=_partial_slam(summary),
        unit=per_defender_unit(summary),
        misere=tuple(misere_transfers(summary)),
        scores=tuple(score_french(summary)),
    )


@dataclass(frozen=True)
class AustrianBreakdown:
    """An Austrian deal's score: the declarer's card points against the game's target, the value
    each winner scores, and each seat's score."""

    points: int
    wins: bool
    value: int
    scores: tuple[int, ...]


def austrian_breakdown(summary: AustrianSummary) -> AustrianBreakdown:
    """What :func:`score_austrian` counts, with its value."""
    return AustrianBreakdown(
        points=summary.points,
        wins=declarer_wins(summary),
        value=austrian_value(summary),
        scores=tuple(score_austrian(summary)),
    )

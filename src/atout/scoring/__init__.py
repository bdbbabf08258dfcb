"""Scoring: pure functions from a finished deal's summary to each seat's score change.

>>> score(parse_summary({"game": "french", "players": 3, "taker": 0, "contract": "garde",
...                      "oudlers": 2, "points": 40.5}))
[-104, 52, 52]
"""

from __future__ import annotations

from atout.scoring.austrian import austrian_value, declarer_wins, score_austrian
from atout.scoring.french import (
    contract_made,
    counted_points,
    distribute,
    misere_transfers,
    per_defender_unit,
    round_margin,
    score_french,
    score_two_player,
)
from atout.scoring.sheet import ScoreSheet, SheetRow
from atout.scoring.summary import (
    AustrianSummary,
    FrenchSummary,
    MisereDeclared,
    PartialSlamResult,
    PoigneeDeclared,
    Summary,
    SummaryError,
    TwoPlayerSummary,
    check_summary,
    parse_summary,
    summary_to_json,
)


def score(summary: Summary) -> list[int]:
    """Each seat's score change for any summary, seat 0 first."""
    if isinstance(summary, FrenchSummary):
        return score_french(summary)
    if isinstance(summary, TwoPlayerSummary):
        return score_two_player(summary)
    return score_austrian(summary)


__all__ = [
    "AustrianSummary",
    "FrenchSummary",
    "MisereDeclared",
    "PartialSlamResult",
    "PoigneeDeclared",
    "ScoreSheet",
    "SheetRow",
    "Summary",
    "SummaryError",
    "TwoPlayerSummary",
    "austrian_value",
    "check_summary",
    "contract_made",
    "counted_points",
    "declarer_wins",
    "distribute",
    "misere_transfers",
    "parse_summary",
    "per_defender_unit",
    "round_margin",
    "score",
    "score_austrian",
    "score_french",
    "score_two_player",
    "summary_to_json",
]

"""Austrian Tarock scoring as implemented in rule book §5.7 (seed 001 with the labels un-swapped).

>>> from atout.scoring.summary import parse_summary
>>> score_austrian(parse_summary({"game": "austrian", "players": 3, "declarer": 0, "bid": "threesome",
...                               "talon_half": 1, "game_type": "36_or_more", "points": 44}))
[68, 0, 0]
"""

from __future__ import annotations

from atout.scoring.summary import AustrianSummary, austrian_total


def declarer_wins(summary: AustrianSummary) -> bool:
    """Game 1 is won with 36 or more card points, game 2 with 35 or less."""
    if summary.game_type == "36_or_more":
        return summary.points >= 36
    return summary.points <= 35


def austrian_terms(summary: AustrianSummary) -> tuple[int, int, int]:
    """The base, k and m of §5.7: V = base + k × m.

    >>> from atout.scoring.summary import parse_summary
    >>> austrian_terms(parse_summary({"game": "austrian", "players": 3, "declarer": 0, "bid": "threesome",
    ...                               "talon_half": 2, "game_type": "35_or_less", "points": 30}))
    (50, 4, 5)
    """
    rules = summary.rules
    base = 100 if summary.bid == "solo" else 50
    if summary.bid == "solo":
        k = rules.austrian_solo_multiplier
    elif summary.talon_half == 2 and rules.austrian_talon_mode == "seed_sequential":
        k = 4
    else:
        k = 2
    margin = (
        winners_points(summary) - 35 if summary.game_type == "36_or_more" else 35 - winners_points(summary)
    )
    return base, k, max(0, margin)


def winners_points(summary: AustrianSummary) -> int:
    """P of §5.7: the declarer's card points if he wins, else the two defenders' together."""
    return summary.points if declarer_wins(summary) else austrian_total(summary.rules) - summary.points


def austrian_value(summary: AustrianSummary) -> int:
    """V = base + k × m (§5.7): what each winner scores under ``positive_only``."""
    base, k, margin = austrian_terms(summary)
    return base + k * margin


def score_austrian(summary: AustrianSummary) -> list[int]:
    """Each seat's score change, seat 0 first (``positive_only`` or ``zero_sum``)."""
    value = austrian_value(summary)
    wins = declarer_wins(summary)
    scores = [0, 0, 0]
    if summary.rules.austrian_scoring == "zero_sum":
        for seat in range(3):
            scores[seat] = -value if wins else value
        scores[summary.declarer] = 2 * value if wins else -2 * value
    elif wins:
        scores[summary.declarer] = value
    else:
        scores = [0 if seat == summary.declarer else value for seat in range(3)]
    return scores

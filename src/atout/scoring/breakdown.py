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
from typing import Any

from atout.scoring.austrian import austrian_terms, declarer_wins, score_austrian, winners_points
from atout.scoring.french import (
    _chelem,
    _count_with_half_point,
    _partial_slam,
    _petit_au_bout,
    _poignees,
    _two_player_chelem,
    contract_made,
    counted_points,
    distribute,
    misere_transfers,
    per_defender_unit,
    round_margin,
    score_french,
    score_two_player,
)
from atout.scoring.summary import (
    AustrianSummary,
    FrenchSummary,
    Summary,
    TwoPlayerSummary,
    austrian_total,
    two_player_winner,
)


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
    each winner scores (``base + multiplier × margin``), and each seat's score."""

    points: int
    wins: bool
    winners_points: int
    base: int
    multiplier: int
    margin: int
    value: int
    scores: tuple[int, ...]


def austrian_breakdown(summary: AustrianSummary) -> AustrianBreakdown:
    """What :func:`score_austrian` counts, with its value."""
    base, multiplier, margin = austrian_terms(summary)
    return AustrianBreakdown(
        points=summary.points,
        wins=declarer_wins(summary),
        winners_points=winners_points(summary),
        base=base,
        multiplier=multiplier,
        margin=margin,
        value=base + multiplier * margin,
        scores=tuple(score_austrian(summary)),
    )


Term = dict[str, Any]
"""One term of a deal's score on the wire: ``term`` names it, ``value`` is what it adds."""


def breakdown_json(summary: Summary) -> dict[str, Any]:
    """A deal's score explained, for the wire (docs/protocol.md, "The breakdown of a deal"):
    the verdict (made or lost, by how much), the ``terms`` that add up to ``unit`` (what each
    defender pays, or what the winner scores), each seat's ``shares`` of it, and the ``scores``.

    The terms are those the scorers add, so ``sum(term.value) == unit`` and the shares plus the
    misère payments are the scores, for every deal.

    >>> from atout.scoring.summary import parse_summary
    >>> b = breakdown_json(parse_summary({"game": "french", "players": 4, "taker": 0,
    ...     "contract": "garde_sans", "oudlers": 2, "points": 50, "petit_au_bout": "defense"}))
    >>> [(t["term"], t["value"]) for t in b["terms"]], b["unit"], b["scores"]
    ([('contract', 136), ('petit_au_bout', -40)], 96, [288, -96, -96, -96])
    """
    if isinstance(summary, FrenchSummary):
        return _french_json(summary)
    if isinstance(summary, TwoPlayerSummary):
        return _two_player_json(summary)
    return _austrian_json(summary)


def _french_json(s: FrenchSummary) -> dict[str, Any]:
    b = french_breakdown(s)
    won = 1 if b.made else -1
    terms: list[Term] = [
        {
            "term": "contract",
            "contract": s.contract,
            "sign": won,
            "base": 25,
            "margin": b.rounded_margin,
            "multiplier": b.multiplier,
            "value": b.base,
        }
    ]
    if s.petit_au_bout is not None:
        factor = b.multiplier if s.rules.petit_au_bout_multiplied else 1
        terms.append(
            {
                "term": "petit_au_bout",
                "side": s.petit_au_bout,
                "points": 10,
                "multiplier": factor,
                "value": b.petit_au_bout,
            }
        )
    bonus = s.rules.poignee_bonus
    for p in s.poignees:
        value = bonus[("simple", "double", "triple").index(p.level)]
        if s.rules.poignee_beneficiary == "declaring_side":
            signed = value if p.side == "attack" else -value
        else:
            signed = won * value
        terms.append({"term": "poignee", "level": p.level, "side": p.side, "seat": p.seat, "value": signed})
    terms.extend(_chelem_terms(s))
    if b.partial_slam:
        terms.append({"term": "partial_slam", "value": b.partial_slam})
    shares = distribute(s, b.unit)
    return {
        "game": "french",
        "taker": s.taker,
        "partner": None if s.alone else s.partner,
        "dead": s.dead,
        "contract": s.contract,
        "multiplier": b.multiplier,
        "points": b.points,
        "counted": b.counted,
        "bouts": b.bouts,
        "needed": b.needed,
        "made": b.made,
        "margin": abs(b.margin),
        "rounded_margin": b.rounded_margin,
        "terms": terms,
        "unit": b.unit,
        "per": "defender",
        "shares": [_share(seat, _french_role(s, seat), value, b.unit) for seat, value in enumerate(shares)],
        "misere": list(b.misere) if any(b.misere) else [],
        "scores": list(b.scores),
    }


def _chelem_terms(s: FrenchSummary) -> list[Term]:
    """The chelem of §3.13 as the rule book says it: made (announced or not), announced and not
    made, and the defence's bonus when it takes every trick; these add up to ``_chelem``."""
    rules = s.rules
    announced, won_by = s.chelem_announced, s.chelem_won_by
    if won_by == "attack":
        value = rules.slam_announced_made if announced else rules.slam_unannounced_made
        return [{"term": "chelem", "announced": announced, "made": True, "value": value}]
    terms: list[Term] = []
    if announced:
        value = -rules.slam_announced_failed_penalty
        terms.append({"term": "chelem", "announced": True, "made": False, "value": value})
    if won_by == "defense":
        terms.append({"term": "defense_chelem", "value": -rules.defense_slam_bonus})
    return terms


def _french_role(s: FrenchSummary, seat: int) -> str:
    if seat == s.taker:
        return "taker"
    if seat not in s.seats_in_play:
        return "out"
    if not s.alone and seat == s.partner:
        return "partner"
    return "defender"


def _share(seat: int, role: str, value: int, unit: int) -> dict[str, Any]:
    """A seat's share of the unit: ``times`` the unit when it is a whole multiple of it."""
    times = value // unit if unit and value % unit == 0 else None
    return {"seat": seat, "role": role, "times": times, "value": value}


def _two_player_json(s: TwoPlayerSummary) -> dict[str, Any]:
    rules = s.rules
    winner = two_player_winner(s)
    if winner is None:
        raise ValueError("neither player reaches his target")
    loser = 1 - winner
    needed = [rules.threshold(b) for b in s.oudlers]
    counted = _count_with_half_point(s.half_points[winner], needed[winner])
    margin = counted - needed[winner]
    rounded = round_margin(margin, rules)
    terms: list[Term] = [
        {"term": "contract", "sign": 1, "base": 25, "margin": rounded, "multiplier": 1, "value": 25 + rounded}
    ]
    if s.petit_au_bout is not None:
        value = 10 if s.petit_au_bout == winner else -10
        terms.append(
            {"term": "petit_au_bout", "seat": s.petit_au_bout, "points": 10, "multiplier": 1, "value": value}
        )
    if rules.two_player_chelem and (s.chelem_announced_by is not None or s.chelem_won_by is not None):
        value = _two_player_chelem(s, winner) - _two_player_chelem(s, loser)
        terms.append(
            {
                "term": "chelem",
                "announced_by": s.chelem_announced_by,
                "won_by": s.chelem_won_by,
                "value": value,
            }
        )
    scores = score_two_player(s)
    unit = scores[winner]
    return {
        "game": "two_player",
        "winner": winner,
        "points": list(s.points),
        "bouts": list(s.oudlers),
        "needed": needed,
        "counted": counted,
        "made": True,
        "margin": margin,
        "rounded_margin": rounded,
        "terms": terms,
        "unit": unit,
        "per": "winner",
        "shares": [
            _share(seat, "winner" if seat == winner else "loser", scores[seat], unit) for seat in (0, 1)
        ],
        "misere": [],
        "scores": scores,
    }


def _austrian_json(s: AustrianSummary) -> dict[str, Any]:
    b = austrian_breakdown(s)
    rules = s.rules
    roles = ["declarer" if seat == s.declarer else "defender" for seat in range(3)]
    return {
        "game": "austrian",
        "declarer": s.declarer,
        "bid": s.bid,
        "talon_half": s.talon_half,
        "game_type": s.game_type,
        "points": s.points,
        "total": austrian_total(rules),
        "needed": 36 if s.game_type == "36_or_more" else 35,
        "made": b.wins,
        "winners_points": b.winners_points,
        "margin": b.margin,
        "terms": [
            {"term": "bid", "bid": s.bid, "value": b.base},
            {
                "term": "austrian_margin",
                "margin": b.margin,
                "multiplier": b.multiplier,
                "value": b.multiplier * b.margin,
            },
        ],
        "unit": b.value,
        "per": "winner" if rules.austrian_scoring == "positive_only" else "defender",
        "shares": [_share(seat, roles[seat], b.scores[seat], b.value) for seat in range(3)],
        "misere": [],
        "scores": list(b.scores),
    }

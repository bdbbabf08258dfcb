"""French Tarot scoring (rule book §3.11–§3.14, §4.3, §4.4, §7 V1 V5 V6 V8).

Every function is pure: a finished deal's summary in, each seat's score change out.

>>> from atout.scoring.summary import parse_summary
>>> score_french(parse_summary({"game": "french", "players": 4, "taker": 0,
...                             "contract": "petite", "oudlers": 2, "points": 51}))
[105, -35, -35, -35]
"""

from __future__ import annotations

from atout.rules import Rules
from atout.scoring.summary import FrenchSummary, TwoPlayerSummary, two_player_winner


def counted_points(summary: FrenchSummary) -> int:
    """The attack's points after the half-point rule (§3.11): a half goes to the contract's winner.

    >>> from atout.rules import Rules
    >>> s = FrenchSummary(Rules(players=3), taker=0, contract="garde", oudlers=2, half_points=81)
    >>> counted_points(s), counted_points(FrenchSummary(Rules(players=3), 0, "garde", 2, 83))
    (40, 42)
    """
    return _count_with_half_point(summary.half_points, summary.rules.threshold(summary.oudlers))


def contract_made(summary: FrenchSummary) -> bool:
    """True when the attack reaches its threshold (§3.12; "juste fait" counts as made)."""
    return counted_points(summary) >= summary.rules.threshold(summary.oudlers)


def round_margin(margin: int, rules: Rules) -> int:
    """The margin rounded by option V8 (``round_margin_to``, ``round_mode``).

    >>> r = Rules(round_margin_to=5)
    >>> round_margin(7, r), round_margin(8, r), round_margin(2, r)
    (5, 10, 0)
    >>> round_margin(1, Rules(round_margin_to=10, round_mode="up"))
    10
    """
    step = rules.round_margin_to
    if rules.round_mode == "up":
        return -(-margin // step) * step
    return (2 * margin + step) // (2 * step) * step


def per_defender_unit(summary: FrenchSummary) -> int:
    """D of §3.13: what each defender pays (or receives, if negative) to the attack."""
    rules = summary.rules
    mult = rules.multiplier(summary.contract)
    threshold = rules.threshold(summary.oudlers)
    points = counted_points(summary)
    won = 1 if points >= threshold else -1
    base = (25 + round_margin(abs(points - threshold), rules)) * mult
    return (
        won * base
        + _petit_au_bout(summary, mult)
        + _poignees(summary, won)
        + _chelem(summary)
        + _partial_slam(summary)
    )


def _petit_au_bout(summary: FrenchSummary, mult: int) -> int:
    if summary.petit_au_bout is None:
        return 0
    value = 10 * mult if summary.rules.petit_au_bout_multiplied else 10
    return value if summary.petit_au_bout == "attack" else -value


def _poignees(summary: FrenchSummary, won: int) -> int:
    bonus = summary.rules.poignee_bonus
    values = [(bonus[("simple", "double", "triple").index(p.level)], p.side) for p in summary.poignees]
    if summary.rules.poignee_beneficiary == "declaring_side":
        return sum(v if side == "attack" else -v for v, side in values)
    return won * sum(v for v, _ in values)


def _chelem(summary: FrenchSummary) -> int:
    rules = summary.rules
    if summary.chelem_won_by == "attack":
        return rules.slam_announced_made if summary.chelem_announced else rules.slam_unannounced_made
    term = -rules.slam_announced_failed_penalty if summary.chelem_announced else 0
    if summary.chelem_won_by == "defense":
        term -= rules.defense_slam_bonus
    return term


def _partial_slam(summary: FrenchSummary) -> int:
    option, result = summary.rules.partial_slam, summary.partial_slam
    if option is None or result is None:
        return 0
    if result.made:
        if result.announced:
            return option.announced_made
        return 0 if option.requires_announcement else option.unannounced_made
    return -option.announced_failed if result.announced else 0


def distribute(summary: FrenchSummary, unit: int) -> list[int]:
    """Each seat's share of a per-defender unit D (§3.14 and §4.3 mode B); the row sums to 0."""
    scores = [0] * summary.players
    defense = summary.defense
    for seat in defense:
        scores[seat] = -unit
    attack_total = unit * len(defense)
    if summary.alone or summary.partner is None:
        scores[summary.taker] = attack_total
    elif summary.rules.five_player_split == "equal":
        partner_share = _trunc_div(attack_total, 2)
        scores[summary.partner] = partner_share
        scores[summary.taker] = attack_total - partner_share
    else:
        scores[summary.partner] = unit
        scores[summary.taker] = attack_total - unit
    return scores


def misere_transfers(summary: FrenchSummary) -> list[int]:
    """The misère payments of V5: each declaration takes the bonus from every other player in the deal.

    Under ``misere_kinds=either`` a ``both`` declaration is the two kinds declared together and
    counts twice; under ``both_required`` it is the only kind and counts once.
    """
    scores = [0] * summary.players
    bonus, seats = summary.rules.misere_bonus, summary.seats_in_play
    for m in summary.misere:
        units = 2 if m.kind == "both" and summary.rules.misere_kinds == "either" else 1
        for seat in seats:
            if seat != m.seat:
                scores[seat] -= bonus * units
                scores[m.seat] += bonus * units
    return scores


def score_french(summary: FrenchSummary) -> list[int]:
    """Each seat's score change for a 3-, 4- or 5-player deal, seat 0 first."""
    if summary.players not in (3, 4, 5):
        raise ValueError(f"score_french scores 3 to 5 players, not {summary.players}; use score_two_player")
    scores = distribute(summary, per_defender_unit(summary))
    if not summary.misere:
        return scores
    return [a + b for a, b in zip(scores, misere_transfers(summary), strict=True)]


def score_two_player(summary: TwoPlayerSummary) -> list[int]:
    """Each seat's score change for a 2-player deal (§4.4): the winner +X, the loser −X.

    >>> from atout.rules import Rules
    >>> score_two_player(TwoPlayerSummary(Rules(players=2), (100, 82), (2, 1), petit_au_bout=0))
    [44, -44]
    """
    rules = summary.rules
    winner = two_player_winner(summary)
    if winner is None:
        raise ValueError("neither player reaches his target")
    loser = 1 - winner
    threshold = rules.threshold(summary.oudlers[winner])
    points = _count_with_half_point(summary.half_points[winner], threshold)
    value = 25 + round_margin(points - threshold, rules)
    if summary.petit_au_bout is not None:
        value += 10 if summary.petit_au_bout == winner else -10
    if rules.two_player_chelem:
        value += _two_player_chelem(summary, winner) - _two_player_chelem(summary, loser)
    scores = [0, 0]
    scores[winner], scores[loser] = value, -value
    return scores


def _two_player_chelem(summary: TwoPlayerSummary, seat: int) -> int:
    """What ``seat`` earns from the chelem, with the announcer in the taker's place of §3.13."""
    rules, announcer, won_by = summary.rules, summary.chelem_announced_by, summary.chelem_won_by
    if won_by == seat:
        if announcer == seat:
            return rules.slam_announced_made
        if announcer is None:
            return rules.slam_unannounced_made
        return rules.defense_slam_bonus
    return -rules.slam_announced_failed_penalty if announcer == seat else 0


def _count_with_half_point(half_points: int, threshold: int) -> int:
    whole, half = divmod(half_points, 2)
    return whole + 1 if half and whole >= threshold else whole


def _trunc_div(a: int, b: int) -> int:
    """Integer division truncated toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q

"""The end of a deal in words: how its score is made up, term by term, for any game."""

from __future__ import annotations

from atout.cli.render import bouts_phrase, seat_name
from atout.scoring import AustrianSummary, FrenchSummary, Summary, TwoPlayerSummary, score
from atout.scoring.breakdown import austrian_breakdown, french_breakdown
from atout.scoring.summary import austrian_total, two_player_winner


def breakdown_lines(summary: Summary, you: int | None = None) -> list[str]:
    """Lines telling how the deal was scored (the scores themselves come after them)."""
    if isinstance(summary, FrenchSummary):
        return _french(summary, you)
    if isinstance(summary, AustrianSummary):
        return _austrian(summary, you)
    return _two_player(summary, you)


_SIDE = {"attack": "attack", "defense": "defence"}


def _signed(value: int) -> str:
    return f"{value:+d}"


def _french(summary: FrenchSummary, you: int | None) -> list[str]:
    b = french_breakdown(summary)
    taker = seat_name(summary.taker, you)
    contract = summary.contract.replace("_", " ")
    partner = ""
    if summary.partner is not None and not summary.alone:
        partner = f", with {seat_name(summary.partner, you)} as partner"
    elif summary.players == 5:
        partner = ", alone"
    counted = f" (counted {b.counted})" if b.counted != b.points else ""
    verdict = f"made by {b.margin}" if b.made else f"lost by {-b.margin}"
    rounded = f", rounded to {b.rounded_margin}" if b.rounded_margin != abs(b.margin) else ""
    lines = [
        f"Contract: {contract} (×{b.multiplier}) by {taker}{partner}.",
        f"Points made: {b.points:g}{counted} with {bouts_phrase(b.bouts)}; "
        f"needed {b.needed}: {verdict}{rounded}.",
        f"Base: (25 + {b.rounded_margin}) × {b.multiplier} = {_signed(b.base)} per defender, for the attack",
    ]
    if summary.petit_au_bout is None:
        lines.append("Petit au bout: none")
    else:
        lines.append(f"Petit au bout: by the {_SIDE[summary.petit_au_bout]} {_signed(b.petit_au_bout)}")
    if summary.poignees:
        shown = ", ".join(
            f"{seat_name(p.seat, you) if p.seat is not None else 'the ' + _SIDE[p.side]} {p.level}"
            for p in summary.poignees
        )
        lines.append(f"Poignée: {shown} {_signed(b.poignees)}")
    else:
        lines.append("Poignée: none")
    lines.append(f"Chelem: {_chelem_words(summary)}" + (f" {_signed(b.chelem)}" if b.chelem else ""))
    if b.partial_slam:
        lines.append(f"Partial slam: {_signed(b.partial_slam)}")
    if b.unit >= 0:
        lines.append(f"Each defender pays the attack {b.unit}.")
    else:
        lines.append(f"The attack pays each defender {-b.unit}.")
    if any(b.misere):
        lines.append(
            "Misère: " + ", ".join(f"{seat_name(s, you)} {_signed(v)}" for s, v in enumerate(b.misere))
        )
    return lines


def _chelem_words(summary: FrenchSummary) -> str:
    announced = "announced" if summary.chelem_announced else "not announced"
    if summary.chelem_won_by is None:
        return f"{announced}, not made" if summary.chelem_announced else "none"
    return f"{announced}, made by the {_SIDE[summary.chelem_won_by]}"


def _austrian(summary: AustrianSummary, you: int | None) -> list[str]:
    b = austrian_breakdown(summary)
    declarer = seat_name(summary.declarer, you)
    half = f", talon half {summary.talon_half}" if summary.talon_half else ""
    target = "36 or more" if summary.game_type == "36_or_more" else "35 or less"
    game = "game 1" if summary.game_type == "36_or_more" else "game 2"
    verdict = "won" if b.wins else "lost"
    return [
        f"Contract: {summary.bid}{half}, {game}, by {declarer}.",
        f"Points made: {b.points} of {austrian_total(summary.rules)}; needed {target}: {verdict}.",
        f"Worth {b.value} to {'the declarer' if b.wins else 'each defender'}.",
    ]


def _two_player(summary: TwoPlayerSummary, you: int | None) -> list[str]:
    rules = summary.rules
    lines = []
    for seat in (0, 1):
        points, bouts = summary.points[seat], summary.oudlers[seat]
        needed = rules.threshold(bouts)
        lines.append(
            f"{seat_name(seat, you)}: {points:g} points with {bouts_phrase(bouts)}; needed {needed} "
            f"(margin {points - needed:+g})."
        )
    pab = summary.petit_au_bout
    lines.append("Petit au bout: " + ("none" if pab is None else seat_name(pab, you)))
    announcer, won = summary.chelem_announced_by, summary.chelem_won_by
    chelem = "none" if announcer is None and won is None else ""
    if announcer is not None:
        chelem = f"announced by {seat_name(announcer, you)}"
    if won is not None:
        chelem += ("; " if chelem else "") + f"made by {seat_name(won, you)}"
    lines.append(f"Chelem: {chelem}")
    winner = two_player_winner(summary)
    if winner is not None:
        verb = "score" if winner == you else "scores"
        lines.append(f"{seat_name(winner, you)} {verb} {score(summary)[winner]}.")
    return lines

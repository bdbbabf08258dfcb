"""The end of a deal in words: how its score is made up, term by term, for any game."""

from __future__ import annotations

from atout.cli.render import austrian_game_label, bid_label, bouts_phrase, poignee_label, seat_name
from atout.i18n import _
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


def _side(side: str) -> str:
    """``the attack`` or ``the defence``."""
    return _("the attack") if side == "attack" else _("the defence")


def _signed(value: int) -> str:
    return f"{value:+d}"


def _french(summary: FrenchSummary, you: int | None) -> list[str]:
    b = french_breakdown(summary)
    taker = seat_name(summary.taker, you)
    contract = bid_label(summary.contract)
    if summary.partner is not None and not summary.alone:
        head = _("Contract: {contract} (×{multiplier}) by {name}, with {partner} as partner.")
    elif summary.players == 5:
        head = _("Contract: {contract} (×{multiplier}) by {name}, alone.")
    else:
        head = _("Contract: {contract} (×{multiplier}) by {name}.")
    lines = [
        head.format(
            contract=contract,
            multiplier=b.multiplier,
            name=taker,
            partner=seat_name(summary.partner, you),
        )
    ]
    points = f"{b.points:g}"
    if b.counted != b.points:
        points = _("{points} (counted {counted})").format(points=points, counted=b.counted)
    verdict = (_("made by {n}") if b.made else _("lost by {n}")).format(n=abs(b.margin))
    if b.rounded_margin != abs(b.margin):
        verdict += ", " + _("rounded to {n}").format(n=b.rounded_margin)
    lines.append(
        _("Points made: {points} with {bouts}; needed {needed}: {verdict}.").format(
            points=points, bouts=bouts_phrase(b.bouts), needed=b.needed, verdict=verdict
        )
    )
    lines.append(
        _("Base: (25 + {margin}) × {multiplier} = {base} per defender, for the attack").format(
            margin=b.rounded_margin, multiplier=b.multiplier, base=_signed(b.base)
        )
    )
    if summary.petit_au_bout is None:
        lines.append(_("Petit au bout: none"))
    else:
        lines.append(
            _("Petit au bout: by {side} {points}").format(
                side=_side(summary.petit_au_bout), points=_signed(b.petit_au_bout)
            )
        )
    if summary.poignees:
        shown = ", ".join(
            f"{seat_name(p.seat, you) if p.seat is not None else _side(p.side)} {poignee_label(p.level)}"
            for p in summary.poignees
        )
        lines.append(_("Poignée: {shown} {points}").format(shown=shown, points=_signed(b.poignees)))
    else:
        lines.append(_("Poignée: none"))
    chelem = _("Chelem: {what}").format(what=_chelem_words(summary))
    lines.append(chelem + (f" {_signed(b.chelem)}" if b.chelem else ""))
    if b.partial_slam:
        lines.append(_("Partial slam: {points}").format(points=_signed(b.partial_slam)))
    if b.unit >= 0:
        lines.append(_("Each defender pays the attack {n}.").format(n=b.unit))
    else:
        lines.append(_("The attack pays each defender {n}.").format(n=-b.unit))
    if any(b.misere):
        lines.append(
            _("Misère: {scores}").format(
                scores=", ".join(f"{seat_name(s, you)} {_signed(v)}" for s, v in enumerate(b.misere))
            )
        )
    return lines


def _chelem_words(summary: FrenchSummary) -> str:
    if summary.chelem_won_by is None:
        return _("announced, not made") if summary.chelem_announced else _("none")
    text = _("announced, made by {side}") if summary.chelem_announced else _("not announced, made by {side}")
    return text.format(side=_side(summary.chelem_won_by))


def _austrian(summary: AustrianSummary, you: int | None) -> list[str]:
    b = austrian_breakdown(summary)
    contract = bid_label(summary.bid)
    if summary.talon_half:
        contract += ", " + _("talon half {half}").format(half=summary.talon_half)
    contract += ", " + austrian_game_label(summary.game_type)
    needed = _("36 or more") if summary.game_type == "36_or_more" else _("35 or less")
    verdict = _("won") if b.wins else _("lost")
    worth = _("Worth {n} to the declarer.") if b.wins else _("Worth {n} to each defender.")
    return [
        _("Contract: {contract}, by {name}.").format(
            contract=contract, name=seat_name(summary.declarer, you)
        ),
        _("Points made: {points} of {total}; needed {needed}: {verdict}.").format(
            points=b.points, total=austrian_total(summary.rules), needed=needed, verdict=verdict
        ),
        worth.format(n=b.value),
    ]


def _two_player(summary: TwoPlayerSummary, you: int | None) -> list[str]:
    rules = summary.rules
    lines = []
    for seat in (0, 1):
        points, bouts = summary.points[seat], summary.oudlers[seat]
        needed = rules.threshold(bouts)
        lines.append(
            _("{name}: {points} points with {bouts}; needed {needed} (margin {margin}).").format(
                name=seat_name(seat, you),
                points=f"{points:g}",
                bouts=bouts_phrase(bouts),
                needed=needed,
                margin=f"{points - needed:+g}",
            )
        )
    pab = summary.petit_au_bout
    lines.append(
        _("Petit au bout: none")
        if pab is None
        else _("Petit au bout: {name}").format(name=seat_name(pab, you))
    )
    announcer, won = summary.chelem_announced_by, summary.chelem_won_by
    parts = []
    if announcer is not None:
        parts.append(_("announced by {name}").format(name=seat_name(announcer, you)))
    if won is not None:
        parts.append(_("made by {name}").format(name=seat_name(won, you)))
    lines.append(_("Chelem: {what}").format(what="; ".join(parts) if parts else _("none")))
    winner = two_player_winner(summary)
    if winner is not None:
        text = _("You score {n}.") if winner == you else _("{name} scores {n}.")
        lines.append(text.format(name=seat_name(winner, you), n=score(summary)[winner]))
    return lines

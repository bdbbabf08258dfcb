"""``atout analyse``: a finished deal solved with every hand visible, card by card."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from atout.cards import parse_card
from atout.cli.common import fail
from atout.cli.render import bid_label, bouts_phrase, card_markup, seat_name
from atout.i18n import _
from atout.records import RecordError, load_record

if TYPE_CHECKING:  # the solver (numba) is loaded when a deal is analysed, not to start the command
    from atout.analysis import DealAnalysis


def analyse_command(
    file: Annotated[
        str, typer.Argument(metavar="RECORD", help="A finished deal's record (JSON), as written by atout.")
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the analysis as JSON (docs/analysis.md).")
    ] = False,
    seconds: Annotated[
        float,
        typer.Option("--seconds", min=0.1, help="Time to spend: tricks are solved from the last one back."),
    ] = 5.0,
    from_trick: Annotated[
        int | None,
        typer.Option("--from-trick", min=1, help="Solve from this trick on, however long it takes."),
    ] = None,
) -> None:
    """Analyse a finished deal with every hand visible: the points each card cost its side."""
    try:
        record = load_record(file)  # its errors name the file already
    except RecordError as exc:
        fail(str(exc))
    from atout.analysis import AnalysisError, analyse_record

    try:
        analysis = analyse_record(record, seconds=seconds, from_trick=from_trick)
    except AnalysisError as exc:
        fail(f"{file}: {exc}")
    if as_json:
        typer.echo(json.dumps(analysis.to_json(), ensure_ascii=False, indent=1))
        return
    print_analysis(analysis, Console(highlight=False, soft_wrap=True))


def print_analysis(analysis: DealAnalysis, console: Console) -> None:
    """The analysis in words: what was solved, each card that cost points, and the hindsight."""
    console.print(
        _("[bold]Analysis of the deal[/], computed with all hands visible (every seat seeing every card).")
    )
    if analysis.taker is not None:
        title = _("Taker: {name}.") if analysis.game == "french" else _("Declarer: {name}.")
        console.print(title.format(name=seat_name(analysis.taker)))
    last = max((c.trick for c in analysis.cards), default=analysis.from_trick)
    if analysis.from_trick > 1:
        text = (
            _(
                "Tricks {first} to {last} solved exactly; the earlier tricks were not analysed (too long to solve)."
            )
            if analysis.time_limited
            else _("Tricks {first} to {last} solved exactly, as asked; the earlier tricks were not analysed.")
        )
        console.print(text.format(first=analysis.from_trick, last=last))
    else:
        console.print(_("Every trick solved exactly."))
    austrian = analysis.game == "austrian"
    text = (
        _("With best play from trick {trick} the declarer would take {best} points; he took {actual}.")
        if austrian
        else _("With best play from trick {trick} the attack would take {best} points; it took {actual}.")
    )
    console.print(
        text.format(trick=analysis.from_trick, best=_points(analysis.best), actual=_points(analysis.actual))
    )
    mistakes = analysis.mistakes
    if not mistakes:
        console.print(_("No card cost its side any point."))
    else:
        console.print(_("[bold]Cards that cost points[/]:"))
    for card in mistakes:
        if not card.attack:
            text = _("Trick {trick}: {name} (defence) played {card}: {lost} points lost; best: {best}.")
        elif austrian:
            text = _("Trick {trick}: {name} (declarer) played {card}: {lost} points lost; best: {best}.")
        else:
            text = _("Trick {trick}: {name} (attack) played {card}: {lost} points lost; best: {best}.")
        console.print(
            "  "
            + text.format(
                trick=card.trick,
                name=seat_name(card.seat),
                card=card_markup(card.card),
                lost=_points(card.lost),
                best=_(" or ").join(card_markup(c) for c in card.best_cards),
            )
        )
    lines = [line for fact in analysis.hindsight if (line := hindsight_line(fact))]
    if lines:
        console.print(_("[bold]In hindsight[/]:"))
        for line in lines:
            console.print("  " + line)
    console.print(
        _("Solved in {seconds} s ({nodes} positions searched).").format(
            seconds=f"{analysis.seconds:.1f}", nodes=f"{analysis.nodes:,}"
        )
    )


def hindsight_line(fact: dict[str, Any]) -> str | None:
    """One sentence for a hindsight fact, ``None`` for a kind this version does not word."""
    params = fact["params"]
    if fact["kind"] == "contract":
        if "needed" not in params:
            text = (
                _("With best play from trick {trick} the declarer would take {points} points: the game won.")
                if params["made"]
                else _(
                    "With best play from trick {trick} the declarer would take {points} points: the game lost."
                )
            )
            return text.format(trick=params["from_trick"], points=_points(params["points"]))
        text = (
            _(
                "With best play from trick {trick} the attack would take {points} points with {bouts}, needing {needed}: the contract made by {margin}."
            )
            if params["made"]
            else _(
                "With best play from trick {trick} the attack would take {points} points with {bouts}, needing {needed}: the contract lost by {margin}."
            )
        )
        return text.format(
            trick=params["from_trick"],
            points=_points(params["points"]),
            bouts=bouts_phrase(params["oudlers"]),
            needed=params["needed"],
            margin=_points(abs(params["margin"])),
        )
    if fact["kind"] == "bid":
        return _(
            "With the same cards played, {contract} instead of {actual} would have scored {score} for the taker (as played: {actual_score})."
        ).format(
            contract=bid_label(params["contract"]),
            actual=bid_label(params["actual_contract"]),
            score=f"{params['score']:+d}",
            actual_score=f"{params['actual_score']:+d}",
        )
    if fact["kind"] == "ecart":
        return _(
            "Discarding {card} instead of {kept} would have given the attack {gain} more points with best play from trick {trick}, the cards played before it unchanged ({tried} of {alternatives} one-card changes tried)."
        ).format(
            card=card_markup(parse_card(params["discard"])),
            kept=card_markup(parse_card(params["instead_of"])),
            gain=_points(params["gain"]),
            trick=params["from_trick"],
            tried=params["tried"],
            alternatives=params["alternatives"],
        )
    return None


def _points(value: float) -> str:
    """Points as a person writes them: ``41``, ``40.5``."""
    return f"{value:g}"

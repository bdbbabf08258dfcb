"""``atout score``: the score keeper for a real table.

It reads one deal summary (RULES.md §9) or a list of them, a session, and prints
each seat's score per deal with running totals, or JSON with ``--json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from atout.presets import preset as preset_named
from atout.rules import RulesError
from atout.scoring import (
    FrenchSummary,
    ScoreSheet,
    Summary,
    SummaryError,
    TwoPlayerSummary,
    contract_made,
    declarer_wins,
    parse_summary,
    score,
)
from atout.scoring.summary import two_player_winner

EXIT_BAD_INPUT = 2


class InputError(Exception):
    """Input the score keeper cannot use; the message is one line for the user."""


def score_command(
    file: Annotated[
        str, typer.Argument(metavar="FILE", help="A deal summary or a list of them, in JSON; - reads stdin.")
    ],
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the scores as JSON instead of a table.")
    ] = False,
    preset: Annotated[
        str | None,
        typer.Option(
            "--rules", "-r", help="A rules preset (see `atout rules`) under each summary's options."
        ),
    ] = None,
) -> None:
    """Score one deal summary, or a session of them, as a score keeper at a real table."""
    try:
        data = _load(file)
        if preset is not None:
            data = _with_preset(data, preset)
        single = isinstance(data, dict)
        summaries = _parse_all(data)
    except InputError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_BAD_INPUT) from None
    sheet = ScoreSheet(summaries[0].players)
    for summary in summaries:
        sheet.add(score(summary), label=describe(summary))
    if json_output:
        typer.echo(json.dumps(_as_json(sheet, single)))
    else:
        Console().print(_table(sheet))


def _load(file: str) -> object:
    name = "stdin" if file == "-" else file
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InputError(f"cannot read {name}: {reason}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{name} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except (ValueError, RecursionError) as exc:
        raise InputError(f"{name} is not usable JSON: {exc}") from None


def _with_preset(data: object, name: str) -> object:
    """The summaries with a preset's options under their own (a summary's options win)."""
    try:
        chosen = preset_named(name)
    except RulesError as exc:
        raise InputError(str(exc)) from None
    base = {k: v for k, v in chosen.options.items() if k not in ("game", "players")}
    game = chosen.options.get("game", "french")

    def apply(item: object) -> object:
        if not isinstance(item, dict):
            return item
        if item.get("game", game) != game:
            raise InputError(f"game: the {chosen.name} preset is for {game}, not {item.get('game')!r}")
        options = item.get("options", {})
        return {**item, "options": {**base, **options} if isinstance(options, dict) else options}

    return [apply(item) for item in data] if isinstance(data, list) else apply(data)


def _parse_all(data: object) -> list[Summary]:
    """The summaries of one object or of a list; errors in a list name the deal (1 first)."""
    if isinstance(data, dict):
        try:
            return [parse_summary(data)]
        except SummaryError as exc:
            raise InputError(str(exc)) from None
    if not isinstance(data, list):
        raise InputError("the input must be a deal summary (a JSON object) or a list of them")
    if not data:
        raise InputError("the list holds no deal summary")
    summaries: list[Summary] = []
    for i, item in enumerate(data, start=1):
        try:
            summary = parse_summary(item)
        except SummaryError as exc:
            raise InputError(f"deal {i}: {exc}") from None
        if summaries and summary.players != summaries[0].players:
            raise InputError(
                f"deal {i}: players: {summary.players} players, but deal 1 has {summaries[0].players}"
            )
        summaries.append(summary)
    return summaries


def describe(summary: Summary) -> str:
    """A short line saying what a deal was and how it ended, e.g. ``garde by 0: 49/41 made``."""
    if isinstance(summary, FrenchSummary):
        threshold = summary.rules.threshold(summary.oudlers)
        result = "made" if contract_made(summary) else "lost"
        contract = summary.contract.replace("_", " ")
        return f"{contract} by {summary.taker}: {summary.points:g}/{threshold} {result}"
    if isinstance(summary, TwoPlayerSummary):
        return f"{summary.points[0]:g} v {summary.points[1]:g}: {two_player_winner(summary)} wins"
    bid = summary.bid if summary.talon_half is None else f"{summary.bid} {summary.talon_half}"
    game = "36+" if summary.game_type == "36_or_more" else "35-"
    result = "won" if declarer_wins(summary) else "lost"
    return f"{bid} by {summary.declarer}, game {game}: {summary.points} {result}"


def _as_json(sheet: ScoreSheet, single: bool) -> dict[str, Any]:
    if single:
        return {"scores": list(sheet.rows[0].scores)}
    return {"deals": [{"scores": list(row.scores)} for row in sheet.rows], "totals": list(sheet.totals)}


def _table(sheet: ScoreSheet) -> Table:
    table = Table(title="Scores", caption="each cell: the deal's score (running total)")
    table.add_column("#", justify="right")
    table.add_column("Deal")
    for seat in range(sheet.players):
        table.add_column(f"Seat {seat}", justify="right")
    for number, (row, running) in enumerate(zip(sheet.rows, sheet.running_totals(), strict=True), start=1):
        cells = [
            f"{s:+d} [dim]({t})[/dim]" if s else f"0 [dim]({t})[/dim]"
            for s, t in zip(row.scores, running, strict=True)
        ]
        table.add_row(str(number), row.label or "", *cells)
    table.add_section()
    table.add_row("", "[bold]Total[/bold]", *(f"[bold]{t}[/bold]" for t in sheet.totals))
    return table

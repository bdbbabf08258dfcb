"""``atout score``: the score keeper for a real table.

It reads one deal summary (rule book §9) or a list of them, a session, and prints each seat's
score per deal with running totals, or JSON with ``--json``. A saved deal record (docs/records.md)
is scored by the summary it holds.

The input is read deal by deal and each row goes to a temporary file, so a session of any
length is checked whole before anything is printed, in the same memory.
"""

from __future__ import annotations

import sys
import tempfile
import unicodedata
from collections.abc import Iterator
from contextlib import AbstractContextManager, ExitStack, nullcontext
from dataclasses import dataclass
from typing import IO, Annotated, Any, TextIO

import typer

from atout.cli.render import bid_label
from atout.i18n import N_, _
from atout.jsonio import JsonError, iter_document
from atout.presets import Preset
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
RECORD_FORMAT = "atout-deal"
_CAPTION = N_("each cell: the deal's score (running total)")


class InputError(Exception):
    """Input the score keeper cannot use; the message is one line for the user."""


def score_command(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE", help="A deal summary, a deal record, or a list of them, in JSON; - reads stdin."
        ),
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
    with ExitStack() as stack:
        rows = stack.enter_context(tempfile.TemporaryFile("w+", encoding="utf-8"))
        try:
            chosen = _preset(preset)
            source = stack.enter_context(_open(file))
            tally = _score_all(source, "stdin" if file == "-" else file, chosen, rows)
        except InputError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(EXIT_BAD_INPUT) from None
        rows.seek(0)
        out = sys.stdout
        if json_output:
            _write_json(rows, tally, out)
        else:
            _write_table(rows, tally, out)
        out.flush()


def _preset(name: str | None) -> Preset | None:
    if name is None:
        return None
    try:
        return preset_named(name)
    except RulesError as exc:
        raise InputError(str(exc)) from None


def _open(file: str) -> AbstractContextManager[TextIO]:
    if file == "-":
        return nullcontext(sys.stdin)
    try:
        return open(file, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read {file}: {exc.strerror or exc}") from None


# ---------------------------------------------------------------- reading and scoring


@dataclass
class _Tally:
    """What the printing needs once every deal is scored: no row is kept in memory."""

    single: bool
    sheet: ScoreSheet
    label_width: int = 4
    widest_score: int = 0
    widest_total: int = 0


def _score_all(source: TextIO, name: str, chosen: Preset | None, rows: IO[str]) -> _Tally:
    """Read, check and score every deal, writing ``label<TAB>scores`` lines to ``rows``."""
    tally: _Tally | None = None
    count, is_list = 0, False
    try:
        is_list, items = iter_document(source)
        for count, item in enumerate(items, start=1):
            where = f"deal {count}: " if is_list else ""
            try:
                summary = _summary_of(item, chosen)
            except (SummaryError, InputError) as exc:
                raise InputError(f"{where}{exc}") from None
            if tally is None:
                tally = _Tally(not is_list, ScoreSheet(summary.players, keep_rows=False))
            elif summary.players != tally.sheet.players:
                raise InputError(
                    f"deal {count}: players: {summary.players} players, but deal 1 has {tally.sheet.players}"
                )
            _add_row(tally, summary, rows)
    except JsonError as exc:
        if exc.line is not None:
            where = f"line {exc.line}, column {exc.column}"
            raise InputError(f"{name} is not valid JSON: {exc.reason} ({where})") from None
        deal = f"deal {count + 1}: " if is_list else ""
        raise InputError(f"{name}: {deal}{exc.reason}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"cannot read {name}: {exc}") from None
    except OSError as exc:
        raise InputError(f"cannot read {name}: {exc.strerror or exc}") from None
    if tally is None:
        if count == 0 and is_list:
            raise InputError("the list holds no deal summary")
        raise InputError("the input must be a deal summary (a JSON object) or a list of them")
    return tally


def _summary_of(item: object, chosen: Preset | None) -> Summary:
    """The summary an item gives: itself, or the one a deal record holds."""
    if isinstance(item, dict) and "format" in item:
        return _record_summary(item, chosen)
    if chosen is not None:
        item = _with_preset(item, chosen)
    return parse_summary(item)


def _record_summary(record: dict[str, Any], chosen: Preset | None) -> Summary:
    """A saved deal record (docs/records.md) is scored by the summary in its result."""
    if record["format"] != RECORD_FORMAT:
        raise InputError(f"format: a deal record has format {RECORD_FORMAT!r}, not {record['format']!r}")
    version = record.get("version")
    if version != 1 or isinstance(version, bool):
        raise InputError(f"version: this atout reads deal records of version 1, not {version!r}")
    if chosen is not None:
        raise InputError("--rules: a deal record carries its own rules; leave out --rules")
    result = record.get("result")
    if result is None:
        raise InputError("result: the record is of an unfinished deal; there is no score yet")
    if not isinstance(result, dict):
        raise InputError("result: expected an object with the outcome, the scores and the summary")
    summary = result.get("summary")
    if summary is None:
        raise InputError(f"result.summary: none, the deal was not played out ({result.get('outcome')!r})")
    try:
        parsed = parse_summary(summary)
    except SummaryError as exc:
        raise InputError(f"result.summary.{exc}") from None
    recorded = result.get("scores")
    if recorded is not None and recorded != score(parsed):
        shown = recorded if isinstance(recorded, list) and len(str(recorded)) < 80 else "other scores"
        raise InputError(f"result.scores: recorded {shown}, but the summary scores {score(parsed)}")
    return parsed


def _with_preset(item: object, chosen: Preset) -> object:
    """The summary with a preset's options under its own (a summary's options win)."""
    if not isinstance(item, dict):
        return item
    options = {k: v for k, v in chosen.options.items() if k not in ("game", "players")}
    game = item.get("game")
    preset_game = chosen.options.get("game", "french" if options else None)
    if preset_game is not None and game in ("french", "austrian") and game != preset_game:
        raise InputError(
            f"game: the {chosen.name} preset is for {preset_game}, not for this {game} summary "
            "(leave out --rules to score it by its own options)"
        )
    own = item.get("options", {})
    return {**item, "options": {**options, **own} if isinstance(own, dict) else own}


def _add_row(tally: _Tally, summary: Summary, rows: IO[str]) -> None:
    label = describe(summary)
    row = tally.sheet.add(score(summary), label=label)
    rows.write(f"{label}\t{' '.join(map(str, row.scores))}\n")
    if _columns(label) > tally.label_width:
        tally.label_width = _columns(label)
    tally.widest_score = max(tally.widest_score, *map(abs, row.scores))
    tally.widest_total = max(tally.widest_total, *map(abs, row.totals))


def describe(summary: Summary) -> str:
    """A short line saying what a deal was and how it ended, e.g. ``garde by seat 1: 49/41 made``
    (seats counted from 1, in the current language)."""
    if isinstance(summary, FrenchSummary):
        text = (
            _("{contract} by seat {seat}: {points}/{needed} made")
            if contract_made(summary)
            else _("{contract} by seat {seat}: {points}/{needed} lost")
        )
        return text.format(
            contract=bid_label(summary.contract),
            seat=summary.taker + 1,
            points=f"{summary.points:g}",
            needed=summary.rules.threshold(summary.oudlers),
        )
    if isinstance(summary, TwoPlayerSummary):
        winner = two_player_winner(summary)
        text = (
            _("{first} v {second}: no winner")
            if winner is None
            else _("{first} v {second}: seat {seat} wins")
        )
        return text.format(
            first=f"{summary.points[0]:g}",
            second=f"{summary.points[1]:g}",
            seat=None if winner is None else winner + 1,
        )
    bid = (
        bid_label(summary.bid)
        if summary.talon_half is None
        else f"{bid_label(summary.bid)} {summary.talon_half}"
    )
    game = "36+" if summary.game_type == "36_or_more" else "35-"
    text = (
        _("{bid} by seat {seat}, game {game}: {points} won")
        if declarer_wins(summary)
        else _("{bid} by seat {seat}, game {game}: {points} lost")
    )
    return text.format(bid=bid, seat=summary.declarer + 1, game=game, points=summary.points)


# ---------------------------------------------------------------- printing


def _rows(rows: IO[str]) -> Iterator[tuple[str, list[int]]]:
    for line in rows:
        label, _, scores = line.rstrip("\n").rpartition("\t")
        yield label, [int(s) for s in scores.split()]


def _write_json(rows: IO[str], tally: _Tally, out: TextIO) -> None:
    """The same text as ``json.dumps`` of ``{"deals": [...], "totals": [...]}``, written as it goes."""
    if tally.single:
        for _, scores in _rows(rows):
            out.write(f'{{"scores": [{", ".join(map(str, scores))}]}}\n')
        return
    out.write('{"deals": [')
    first = True
    for _, scores in _rows(rows):
        out.write(f'{"" if first else ", "}{{"scores": [{", ".join(map(str, scores))}]}}')
        first = False
    out.write(f'], "totals": [{", ".join(map(str, tally.sheet.totals))}]}}\n')


def _columns(text: str) -> int:
    """The columns ``text`` takes in a terminal: two for a wide (Japanese, Chinese) sign. Nothing is
    cached, so that a long session's labels cost no memory once printed."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded to ``width`` columns of a terminal (a Japanese or Chinese sign takes two)."""
    room = " " * max(0, width - _columns(text))
    return room + text if right else text + room


def _cell(points: int, total: int) -> str:
    return f"{points:+d} ({total})" if points else f"0 ({total})"


def _write_table(rows: IO[str], tally: _Tally, out: TextIO) -> None:
    """The score sheet as a plain text table, one line per deal, then the totals."""
    players = tally.sheet.players
    number_width = max(1, len(str(len(tally.sheet))))
    widest = len(_cell(-tally.widest_score, -tally.widest_total))
    seats = [_("Seat {n}").format(n=seat + 1) for seat in range(players)]
    widths = [max(widest, _columns(seat)) for seat in seats]

    def line(number: str, label: str, cells: list[str]) -> str:
        body = "  ".join(_pad(c, w, right=True) for c, w in zip(cells, widths, strict=True))
        return f"{number.rjust(number_width)}  {_pad(label, tally.label_width)}  {body}\n"

    rule = line("-" * number_width, "-" * tally.label_width, ["-" * w for w in widths])
    out.write(_("Scores") + "\n")
    out.write(line("#", _("Deal"), seats))
    out.write(rule)
    running = [0] * players
    batch: list[str] = []
    for number, (label, scores) in enumerate(_rows(rows), start=1):
        running = [t + s for t, s in zip(running, scores, strict=True)]
        batch.append(line(str(number), label, [_cell(s, t) for s, t in zip(scores, running, strict=True)]))
        if len(batch) >= 1000:
            out.write("".join(batch))
            batch.clear()
    out.write("".join(batch))
    out.write(rule)
    out.write(line("", _("Total"), [str(t) for t in tally.sheet.totals]))
    out.write(f"({_(_CAPTION)})\n")

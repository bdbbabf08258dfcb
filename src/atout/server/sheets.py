"""Score sheets of real tables (docs/score-keeper.md): a table playing with real cards keeps its
score here, deal by deal, counted by :mod:`atout.scoring` exactly as ``atout score`` counts it.

A sheet is one JSON document in ``score_sheets``: its players' names, its rules and each deal's
summary (rule book §9). Whoever holds the link reads it; the token given at creation (only its
hash is kept) adds, edits and deletes deals. Every change names the ``version`` it was made on:
a change made on an older one is refused (409), so that two phones never overwrite each other.
A deal that cannot happen is refused naming its field, with a ``code`` and ``params`` that the
page puts into words (:func:`summary_problem`).
"""

from __future__ import annotations

import asyncio
import csv
import hmac
import io
import json
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from atout.presets import preset, rules_for
from atout.rules import Rules, RulesError
from atout.scoring import ScoreSheet, Summary, SummaryError, parse_summary, score, summary_to_json
from atout.scoring.breakdown import breakdown_json
from atout.scoring.summary import AustrianSummary, FrenchSummary, TwoPlayerSummary, austrian_total
from atout.server.db import ScoreSheetRow, now
from atout.server.lobby import FieldError, _rules_problem
from atout.server.tables import TableError, new_token, token_hash

router = APIRouter(prefix="/api/sheets")

SHEET_FORMAT = "atout-score-sheet"
MAX_DEALS = 500
"""The most deals one sheet holds (an evening is a few dozen); a longer session starts a new one."""
_SHEET_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
_RESERVED = ("game", "players", "options")
"""Keys of a summary that the sheet gives, not the deal."""


class CreateSheetBody(BaseModel):
    """``POST /api/sheets``: the players in their order round the table, the rules by preset
    and the options changed on top."""

    model_config = ConfigDict(extra="forbid", strict=True)
    names: list[Annotated[str, Field(max_length=40)]] = Field(min_length=2, max_length=5)
    preset: str = "fft"
    options: dict[str, Any] = Field(default_factory=dict)


class DealBody(BaseModel):
    """A deal added or edited: its summary without ``game``, ``players`` and ``options``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    version: int
    deal: dict[str, Any]


class VersionBody(BaseModel):
    """A deal deleted: the version the sheet was read at."""

    model_config = ConfigDict(extra="forbid", strict=True)
    version: int


@dataclass
class Sheet:
    """A sheet as stored: its rules, players, deals (summaries in the JSON of §9) and version."""

    id: str
    version: int
    preset: str
    rules: Rules
    names: list[str]
    deals: list[dict[str, Any]]
    created_at: str
    updated_at: str

    def document(self) -> str:
        """The JSON kept in ``score_sheets.sheet_json``."""
        return json.dumps(
            {
                "format": SHEET_FORMAT,
                "version": 1,
                "preset": self.preset,
                "rules": self.rules.to_dict(),
                "names": self.names,
                "deals": self.deals,
            },
            ensure_ascii=False,
        )

    def summaries(self) -> list[Summary]:
        return [parse_summary(deal) for deal in self.deals]

    def view(self) -> dict[str, Any]:
        """What anyone with the link reads: the rules' facts the page needs, every deal with its
        breakdown (the terms of :func:`atout.scoring.breakdown.breakdown_json`), its scores and
        the running totals."""
        sheet = ScoreSheet(len(self.names))
        deals = []
        for number, (deal, summary) in enumerate(zip(self.deals, self.summaries(), strict=True), start=1):
            row = sheet.add(score(summary))
            deals.append(
                {
                    "n": number,
                    "summary": deal,
                    "breakdown": breakdown_json(summary),
                    "scores": list(row.scores),
                    "totals": list(row.totals),
                }
            )
        return {
            "id": self.id,
            "url": f"/score/{self.id}",
            "version": self.version,
            "preset": self.preset,
            "game": self.rules.game,
            "players": self.rules.players,
            "names": self.names,
            "options": self.rules.changed(),
            "facts": rule_facts(self.rules),
            "deals": deals,
            "totals": list(sheet.totals),
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }


def rule_facts(rules: Rules) -> dict[str, Any]:
    """What a deal of these rules may hold, for the page's form (the rules decide, not the page)."""
    return {
        "contracts": list(rules.contracts),
        "needed": [rules.threshold(bouts) for bouts in range(4)],
        "five_player_mode": rules.five_player_mode if rules.players == 5 else None,
        "misere": rules.misere_bonus > 0,
        "misere_kinds": ["both"]
        if rules.misere_kinds == "both_required"
        else ["no_trumps", "no_courts", "both"],
        "partial_slam": rules.partial_slam is not None,
        "two_player_chelem": rules.two_player_chelem,
        "austrian_game2": rules.austrian_allow_game2,
        "austrian_total": austrian_total(rules) if rules.game == "austrian" else None,
    }


# ---------------------------------------------------------------- refusals in words


_POINTS_PROBLEMS = (
    (
        re.compile(
            r"^(?P<points>[\d.]+) is impossible with (?P<bouts>\d) oudler.*holds (?P<low>[\d.]+) to (?P<high>[\d.]+)"
        ),
        "points_bouts",
    ),
    (
        re.compile(
            r"each side won a trick: the attack's pile then holds (?P<low>[\d.]+) to (?P<high>[\d.]+)"
        ),
        "points_tricks",
    ),
    (re.compile(r"cannot follow from chelem"), "points_chelem"),
    (re.compile(r"hold 91 points together, not (?P<total>[\d.]+)"), "points_total"),
    (re.compile(r"neither player reaches"), "points_no_winner"),
    (re.compile(r"multiple of 0\.5"), "points_half"),
    (re.compile(r"(?:from 0 to |0\.\.)(?P<max>\d+)"), "points_range"),
)
_PROBLEMS: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    "points": _POINTS_PROBLEMS,
    "oudlers": (
        (re.compile(r"hold the 3 oudlers together, not (?P<total>\d+)"), "bouts_total"),
        (re.compile(r"from 0 to 3"), "bouts_range"),
    ),
    "petit_au_bout": (
        (re.compile(r"with 0 oudlers|has 0 oudlers"), "petit_no_bout"),
        (re.compile(r"has 3 oudlers"), "petit_all_bouts"),
        (re.compile(r"won every trick"), "petit_chelem"),
    ),
    "dead": ((re.compile(r"is the taker"), "dead_is_taker"),),
    "contract": ((re.compile(r"needs the bid_pousse|under the no_petite"), "contract_not_played"),),
    "game_type": ((re.compile(r"austrian_allow_game2"), "game2_not_played"),),
    "poignees": (
        (re.compile(r"poignées for the"), "poignee_too_many"),
        (re.compile(r"is not in the"), "poignee_side"),
        (re.compile(r"already declared a poignée"), "poignee_twice"),
    ),
    "misere": ((re.compile(r"already declared this misère"), "misere_twice"),),
}


def _base_field(field: str) -> str:
    """``poignees[1].seat`` → ``poignees``; ``points[0]`` → ``points``."""
    return re.split(r"[.\[]", field, maxsplit=1)[0]


def summary_problem(exc: SummaryError) -> tuple[str, dict[str, Any]]:
    """A refused deal's problem as a code and params the page words: ``points_total`` with
    ``{"total": 95}`` for two piles that do not hold 91 points, ``missing_part`` for a field not
    given, else ``field`` naming the field.

    >>> summary_problem(SummaryError("oudlers", "must be a whole number from 0 to 3, not 4"))
    ('bouts_range', {})
    >>> summary_problem(SummaryError("taker", "must be a whole number, not null"))
    ('missing_part', {'field': 'taker'})
    >>> summary_problem(SummaryError("partner", "seat 7 is out of range: seats are 0 to 4"))
    ('field', {'field': 'partner'})
    """
    base = _base_field(exc.field)
    if exc.message.startswith("missing") or exc.message.endswith("null"):
        return "missing_part", {"field": base}
    for pattern, code in _PROBLEMS.get(base, ()):
        found = pattern.search(exc.message)
        if found:
            return code, {k: _number(v) for k, v in found.groupdict().items() if v is not None}
    return "field", {"field": base}


def _number(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() else value


# ---------------------------------------------------------------- storage


def _load(engine: Engine, sheet_id: str) -> tuple[Sheet, str]:
    """The sheet and its edit hash; 404 when there is none of that id."""
    if not _SHEET_ID.match(sheet_id):
        raise TableError(404, f"no score sheet {sheet_id[:40]!r}: a sheet's id is letters, digits, - and _")
    with Session(engine) as session:
        row = session.get(ScoreSheetRow, sheet_id)
        if row is None:
            raise TableError(404, f"no score sheet {sheet_id!r}: the link may be mistyped")
        doc = json.loads(row.sheet_json)
        sheet = Sheet(
            id=row.id,
            version=row.version,
            preset=doc["preset"],
            rules=Rules.from_options(doc["rules"]),
            names=list(doc["names"]),
            deals=list(doc["deals"]),
            created_at=row.created_at.isoformat(),
            updated_at=row.updated_at.isoformat(),
        )
        return sheet, row.edit_hash


def _insert(engine: Engine, sheet: Sheet, edit_hash: str) -> None:
    with Session(engine) as session, session.begin():
        stamp = now()
        session.add(
            ScoreSheetRow(
                id=sheet.id,
                created_at=stamp,
                updated_at=stamp,
                edit_hash=edit_hash,
                version=sheet.version,
                sheet_json=sheet.document(),
            )
        )


def _save(engine: Engine, sheet: Sheet, read_version: int) -> bool:
    """Write the sheet over the version it was read at; False when another change came first."""
    with Session(engine) as session, session.begin():
        done = session.execute(
            update(ScoreSheetRow)
            .where(ScoreSheetRow.id == sheet.id, ScoreSheetRow.version == read_version)
            .values(version=read_version + 1, sheet_json=sheet.document(), updated_at=now())
        )
        return bool(getattr(done, "rowcount", 0) == 1)


def _engine(request: Request) -> Engine:
    engine: Engine = request.app.state.manager.store.engine
    return engine


def _bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


# ---------------------------------------------------------------- changes


def _checked_deal(sheet: Sheet, deal: Mapping[str, Any]) -> dict[str, Any]:
    """The deal as the summary §9 reads it, with the sheet's game, players and rules; refused
    naming its field when it cannot happen."""
    for key in _RESERVED:
        if key in deal:
            raise FieldError(
                f"deal.{key}: the sheet gives the {key}; leave it out of the deal",
                f"deal.{key}",
                "field",
                {"field": key},
            )
    rules = sheet.rules
    full = {"game": rules.game, "players": rules.players, **deal, "options": rules.changed()}
    try:
        summary = parse_summary(full)
    except SummaryError as exc:
        code, params = summary_problem(exc)
        raise FieldError(f"deal.{exc}", f"deal.{exc.field}", code, params) from None
    return summary_to_json(summary)


async def _change(
    request: Request, sheet_id: str, authorization: str | None, version: int, change: Callable[[Sheet], None]
) -> dict[str, Any]:
    """Load the sheet, check the token and the version, apply ``change(sheet)`` and save it over
    that version (refused with 409 if another change came first)."""
    engine = _engine(request)
    sheet, edit_hash = await asyncio.to_thread(_load, engine, sheet_id)
    token = _bearer(authorization)
    if token is None or not hmac.compare_digest(edit_hash, token_hash(token)):
        raise _refused(
            403,
            "this sheet is read-only without its edit token (Authorization: Bearer <token>)",
            "token",
            "read_only",
        )
    if version != sheet.version:
        raise _changed(version, sheet.version)
    change(sheet)
    if not await asyncio.to_thread(_save, engine, sheet, version):
        raise _changed(version, version + 1)
    fresh, _hash = await asyncio.to_thread(_load, engine, sheet_id)
    return fresh.view()


def _refused(
    status: int, message: str, field: str, code: str, params: Mapping[str, Any] | None = None
) -> FieldError:
    """A refusal with its status, field, and the code and params the page words."""
    error = FieldError(message, field, code, params)
    error.status = status
    return error


def _changed(read: int, now_at: int) -> FieldError:
    message = f"the sheet changed since you read it (version {read}, now {now_at}): reload it"
    return _refused(409, message, "version", "sheet_changed", {"version": now_at})


def _deal_index(sheet: Sheet, number: int) -> int:
    if not 1 <= number <= len(sheet.deals):
        held = f"it has {len(sheet.deals)}" if sheet.deals else "it has none yet"
        raise TableError(404, f"no deal {number} on this sheet ({held})", "deal")
    return number - 1


# ---------------------------------------------------------------- routes


@router.post("")
async def create_sheet(body: CreateSheetBody, request: Request) -> dict[str, Any]:
    """A new sheet; the answer holds its id, its address and the token that edits it."""
    names = [name.strip() for name in body.names]
    for i, name in enumerate(names):
        if not name:
            raise FieldError(f"names.{i}: a player needs a name", f"names.{i}", "missing")
    try:
        preset(body.preset)
    except RulesError as exc:
        raise FieldError(str(exc), "preset", "unknown_preset") from None
    try:
        rules = rules_for(body.preset, body.options, players=len(names))
    except RulesError as exc:
        message = str(exc)
        if "players" in message or "austrian" in message.lower():
            raise FieldError(f"names: {message}", "names", "players", {"players": len(names)}) from None
        named = [f"options.{name}" for name in body.options if name in message]
        raise FieldError(message, (named or ["options"])[0], *_rules_problem(message)) from None
    stamp = now().isoformat()
    sheet = Sheet(secrets.token_urlsafe(9), 1, body.preset, rules, names, [], stamp, stamp)
    token = new_token()
    await asyncio.to_thread(_insert, _engine(request), sheet, token_hash(token))
    return {"sheet_id": sheet.id, "url": sheet.view()["url"], "token": token, "sheet": sheet.view()}


@router.get("/{sheet_id}")
async def read_sheet(sheet_id: str, request: Request) -> dict[str, Any]:
    """The sheet, for anyone with its link."""
    sheet, _hash = await asyncio.to_thread(_load, _engine(request), sheet_id)
    return sheet.view()


@router.post("/{sheet_id}/deals")
async def add_deal(
    sheet_id: str, body: DealBody, request: Request, authorization: str | None = Header(None)
) -> dict[str, Any]:
    """Add a deal at the end of the sheet."""

    def add(sheet: Sheet) -> None:
        if len(sheet.deals) >= MAX_DEALS:
            raise TableError(409, f"a sheet holds at most {MAX_DEALS} deals: start a new one", "deal")
        sheet.deals.append(_checked_deal(sheet, body.deal))

    return await _change(request, sheet_id, authorization, body.version, add)


@router.put("/{sheet_id}/deals/{number}")
async def edit_deal(
    sheet_id: str, number: int, body: DealBody, request: Request, authorization: str | None = Header(None)
) -> dict[str, Any]:
    """Replace deal ``number`` (from 1)."""

    def edit(sheet: Sheet) -> None:
        sheet.deals[_deal_index(sheet, number)] = _checked_deal(sheet, body.deal)

    return await _change(request, sheet_id, authorization, body.version, edit)


@router.delete("/{sheet_id}/deals/{number}")
async def delete_deal(
    sheet_id: str, number: int, body: VersionBody, request: Request, authorization: str | None = Header(None)
) -> dict[str, Any]:
    """Delete deal ``number`` (from 1); the last one is an undo."""

    def delete(sheet: Sheet) -> None:
        del sheet.deals[_deal_index(sheet, number)]

    return await _change(request, sheet_id, authorization, body.version, delete)


@router.get("/{sheet_id}/export.json")
async def export_json(sheet_id: str, request: Request) -> Response:
    """The deals as the list of summaries ``atout score`` reads."""
    sheet, _hash = await asyncio.to_thread(_load, _engine(request), sheet_id)
    text = json.dumps(sheet.deals, ensure_ascii=False, indent=1) + "\n"
    return Response(text, media_type="application/json", headers=_attachment(f"score-{sheet.id}.json"))


@router.get("/{sheet_id}/export.csv")
async def export_csv(sheet_id: str, request: Request) -> Response:
    """The sheet as CSV: a row per deal (who took, the contract, the points, each player's
    score), then the totals."""
    sheet, _hash = await asyncio.to_thread(_load, _engine(request), sheet_id)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    names = [_cell(name) for name in sheet.names]
    writer.writerow(["deal", "taker", "contract", "bouts", "points", *names])
    for number, summary in enumerate(sheet.summaries(), start=1):
        writer.writerow([number, *_deal_cells(summary, names), *score(summary)])
    view = sheet.view()
    writer.writerow(["total", "", "", "", "", *view["totals"]])
    return Response(
        out.getvalue(), media_type="text/csv; charset=utf-8", headers=_attachment(f"score-{sheet.id}.csv")
    )


def _deal_cells(summary: Summary, names: list[str]) -> list[str]:
    """Who took, the contract, the bouts and the points of a deal, as the CSV writes them."""
    if isinstance(summary, FrenchSummary):
        return [names[summary.taker], summary.contract, str(summary.oudlers), f"{summary.points:g}"]
    if isinstance(summary, TwoPlayerSummary):
        bouts = " / ".join(map(str, summary.oudlers))
        return ["", "two_player", bouts, " / ".join(f"{p:g}" for p in summary.points)]
    assert isinstance(summary, AustrianSummary)
    bid = summary.bid if summary.talon_half is None else f"{summary.bid} {summary.talon_half}"
    return [names[summary.declarer], f"{bid}, {summary.game_type}", "", str(summary.points)]


def _cell(text: str) -> str:
    """A name as a spreadsheet reads it as text, never as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _attachment(filename: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{filename}"'}

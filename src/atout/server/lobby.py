"""The REST side (docs/server.md): the games offered, creating a table, its public info,
claiming or reclaiming a seat, changing a seat between deals and dealing the next deal.

Bodies are strict pydantic models (a string is no number, a number no bool, no field unknown);
a bad body, preset or option gets ``{"error", "field", "code", "params"}`` with 400 (``code`` and
``params`` say the field's problem for the page to put into words, :func:`field_problem`),
a missing or wrong token 403, an unknown table 404, a request the table's state refuses 409.
"""

from __future__ import annotations

import dataclasses
import re
import types
from collections.abc import Mapping
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, ConfigDict, Field

from atout.presets import PRESETS, preset, rules_for
from atout.rules import OPTION_HELP, Rules, RulesError
from atout.server.botpool import BOT_LEVELS
from atout.server.manager import TableManager
from atout.server.tables import SeatRequest, TableError

router = APIRouter(prefix="/api")


class FieldError(TableError):
    """A 400 naming the field at fault, with a ``code`` and ``params`` the page puts into words
    under that field (``whole_number``, ``one_of`` with its ``values``, ``unknown_option``...)."""

    def __init__(self, message: str, field: str, code: str, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(400, message, field)
        self.code, self.params = code, dict(params or {})


_PYDANTIC_CODES = {
    "string_too_long": "too_long",
    "string_too_short": "too_short",
    "string_type": "text",
    "int_type": "whole_number",
    "int_parsing": "whole_number",
    "int_from_float": "whole_number",
    "bool_type": "true_or_false",
    "bool_parsing": "true_or_false",
    "literal_error": "one_of",
    "missing": "missing",
    "extra_forbidden": "unknown_field",
    "dict_type": "object",
    "list_type": "list",
    "model_type": "object",
    "model_attributes_type": "object",
}


def field_problem(error: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """A pydantic error as a code and params of plain values: ``string_too_long`` with
    ``max_length`` 40 is ``("too_long", {"max": 40})``."""
    code = _PYDANTIC_CODES.get(str(error.get("type")), "invalid")
    ctx = error.get("ctx") or {}
    params: dict[str, Any] = {}
    if code == "too_long":
        params["max"] = ctx.get("max_length")
    elif code == "too_short":
        params["min"] = ctx.get("min_length")
    elif code == "one_of":
        params["values"] = str(ctx.get("expected", ""))
    return code, params


def _rules_problem(message: str) -> tuple[str, dict[str, Any]]:
    """A :class:`RulesError`'s message as a code and params, as :func:`field_problem` gives them."""
    if "unknown option" in message:
        return "unknown_option", {}
    if "must be a whole number" in message:
        return "whole_number", {}
    if "must be true or false" in message:
        return "true_or_false", {}
    if "must not be negative" in message:
        return "not_negative", {}
    allowed = re.search(r"must be (?:one of )?(.+?)(?: for [^,]+)?, not ", message)
    if allowed:
        return "one_of", {"values": allowed.group(1)}
    return "invalid", {}


class SeatBody(BaseModel):
    """A seat asked for at creation."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["human", "bot", "open"]
    name: str = Field(default="", max_length=40)
    bot: str | None = None


class CreateBody(BaseModel):
    """``POST /api/tables``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    preset: str = "fft"
    players: int | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatBody] | None = None
    sit: int | None = 0
    hints: bool = True
    """Whether a seated person may ask for a hint (the host's choice, ``tables.settings_json``)."""


class ClaimBody(BaseModel):
    """``POST .../claim``: a name to take an open seat, or one's token to take it back."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(default="", max_length=40)
    token: str | None = None


class SeatChangeBody(BaseModel):
    """``POST .../seats/{seat}``: between deals, a seat becomes a bot or open."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["bot", "open"]
    bot: str | None = None


def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


def _bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _players_allowed(name: str) -> list[int]:
    options = preset(name).options
    if options.get("game") == "austrian":
        return [3]
    return [2, 3, 4, 5]


def _option_type(hint: Any) -> tuple[str, list[Any] | None]:
    origin = get_origin(hint)
    if origin is Literal:
        return "choice", list(get_args(hint))
    if origin in (Union, types.UnionType):
        inner = [a for a in get_args(hint) if a is not type(None)]
        kind, values = _option_type(inner[0])
        return f"{kind} or null", values
    if hint is bool:
        return "bool", [False, True]
    if hint is int:
        return "int", None
    return "object", None


def games_listing() -> dict[str, Any]:
    """The presets, every option and the bots offered (``GET /api/games``)."""
    hints = get_type_hints(Rules)
    defaults = Rules().to_dict()
    options = []
    for f in dataclasses.fields(Rules):
        kind, values = _option_type(hints[f.name])
        options.append(
            {
                "name": f.name,
                "type": kind,
                "values": values,
                "default": defaults[f.name],
                "doc": OPTION_HELP[f.name],
            }
        )
    presets = [
        {
            "name": p.name,
            "title": p.title,
            "description": p.source,
            "game": p.options.get("game", "french"),
            "players": _players_allowed(p.name),
            "options": dict(p.options),
        }
        for p in PRESETS
    ]
    five = {"five_player_mode": ["called_king", "dead_player"]}
    return {"presets": presets, "options": options, "bots": list(BOT_LEVELS), "variants": five}


@router.get("/games")
async def games() -> dict[str, Any]:
    """The presets, every rule option and the bots to play against."""
    return games_listing()


@router.post("/tables")
async def create_table(body: CreateBody, request: Request) -> dict[str, Any]:
    """A new table; the creator sits at ``sit`` and gets that seat's token."""
    more = {} if body.players is None else {"players": body.players}
    try:
        preset(body.preset)
    except RulesError as exc:
        raise FieldError(str(exc), "preset", "unknown_preset") from None
    try:
        rules = rules_for(body.preset, body.options, **more)
    except RulesError as exc:
        message = str(exc)
        named = [f"options.{name}" for name in body.options if name in message]
        field = "players" if "players" in message and body.players is not None else (named or ["options"])[0]
        raise FieldError(message, field, *_rules_problem(message)) from None
    if body.seats is None:
        seats = [SeatRequest("human")] + [SeatRequest("bot", bot="rules")] * (rules.players - 1)
    else:
        seats = [SeatRequest(s.kind, s.name.strip(), s.bot) for s in body.seats]
    settings: dict[str, object] = {"hints": body.hints}
    table, token = await _manager(request).create(body.preset, rules, seats, body.sit, settings)
    return {
        "table_id": table.id,
        "url": f"/t/{table.id}",
        "seat": body.sit if token else None,
        "token": token,
    }


@router.get("/tables/{table_id}")
async def table_info(table_id: str, request: Request) -> dict[str, Any]:
    """The public table info."""
    async with _manager(request).use(table_id) as table:
        return table.info()


@router.post("/tables/{table_id}/seats/{seat}/claim")
async def claim_seat(
    table_id: str, seat: int, body: ClaimBody, request: Request, authorization: str | None = Header(None)
) -> dict[str, Any]:
    """Take an open seat by a name, or take one's own seat back by its token. A token sent as
    ``Authorization`` that already holds a seat here is refused: nobody holds two seats."""
    async with _manager(request).use(table_id) as table:
        if body.token is not None:
            return {"seat": seat, "token": await table.reclaim(seat, body.token)}
        return {"seat": seat, "token": await table.claim(seat, body.name.strip(), _bearer(authorization))}


@router.post("/tables/{table_id}/seats/{seat}")
async def change_seat(
    table_id: str, seat: int, body: SeatChangeBody, request: Request, authorization: str | None = Header(None)
) -> dict[str, Any]:
    """Between deals: a seat becomes a bot, or open for a person to claim. A person's seat only
    by that person, or by the host once its holder has left."""
    async with _manager(request).use(table_id) as table:
        await table.set_seat(_bearer(authorization), seat, body.kind, body.bot)
        return table.info()


@router.post("/tables/{table_id}/next")
async def next_deal(
    table_id: str, request: Request, authorization: str | None = Header(None)
) -> dict[str, Any]:
    """Deal the next deal (a rematch), the dealer passing on."""
    async with _manager(request).use(table_id) as table:
        await table.next_deal(_bearer(authorization))
        return table.info()

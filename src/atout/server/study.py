"""Studying finished deals: a table's session listed, a finished deal replayed step by step with
every hand shown, and the exact solver's analysis of it (docs/server.md, "Replays and analyses").

Everything here is read from the table's log in the database (``deals`` and ``actions``), so a
deal of any session, loaded or not, is there. A deal not finished is refused (409): the hands of
a deal in play never leave the server this way. The analysis (:mod:`atout.analysis`) is
CPU-bound: it runs in a process of its own (:class:`Analyses`, niced, one deal at a time), starts
as soon as a deal ends (:meth:`Analyses.deal_over`, which the tables call) and is kept in
``deal_analyses``, so that each deal is analysed once, even across restarts.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import multiprocessing
import os
import re
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from sqlalchemy import insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from atout.engine.wire import event_to_json
from atout.games import Deal, deal_from_dealt
from atout.personas import persona_name, personas
from atout.records import deal_to_record
from atout.rules import Rules
from atout.scoring.breakdown import breakdown_json
from atout.scoring.summary import summary_to_json
from atout.server.db import ActionRow, DealAnalysisRow, DealRow, SeatRow, TableRow, now
from atout.server.tables import TableError, bot_name

if TYPE_CHECKING:
    from atout.server.tables import Table

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api")
pages = APIRouter()

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"

_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
_SKIPPED = frozenset({"protocol", "seat", "hand", "legal_actions", "events", "tricks", "rules", "scores"})
"""View fields that are not a board's: per seat, or sent once for the whole deal."""
_TWO_PLAYER_OWN = {"own_tops": "tops", "own_pile_sizes": "pile_sizes"}
"""The 2-player view's own piles, kept per seat on the board; the opponent's are the same cards."""
KEPT_ERRORS = 256
EAGER_WAITING = 8
"""Analyses started as deals end that may wait at once; beyond, a deal is analysed when asked."""
"""How many refused analyses a server remembers (so that it does not ask again)."""


# ---------------------------------------------------------------------- reading the log
@dataclass
class FinishedDeal:
    """A deal read back from the log: the rules, its dealer, dealt cards and actions, and its end
    (``scores`` is ``None`` while it is played)."""

    table_id: str
    deal_no: int
    rules: Rules
    dealer: int
    dealt: dict[str, Any]
    actions: list[str]
    scores: list[int] | None
    outcome: str | None


def _check_table_id(table_id: str) -> None:
    if not _TABLE_ID.match(table_id):
        raise TableError(404, f"no table {table_id[:40]!r}", "table_id")


def _deal_number(text: str) -> int:
    """A deal number from a path: a whole number from 1, else a clear 404."""
    if not text.isascii() or not text.isdigit() or len(text) > 9 or int(text) < 1:
        raise TableError(404, f"no deal {text[:20]!r}: deals are numbered from 1", "deal_no")
    return int(text)


def _table_row(engine: Engine, table_id: str) -> TableRow:
    from sqlalchemy.orm import Session

    with Session(engine) as session:
        row = session.get(TableRow, table_id)
        if row is None:
            raise TableError(404, f"no table {table_id!r}", "table_id")
        session.expunge(row)
        return row


def session_deals(engine: Engine, table_id: str) -> dict[str, Any]:
    """The table's seats and its finished deals, each with its summary (taker, contract...) from
    its replay (synchronous: run it in a thread)."""
    from sqlalchemy.orm import Session

    table = _table_row(engine, table_id)
    rules = Rules.from_options(json.loads(table.rules_json))
    with Session(engine) as session:
        seats = list(
            session.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat))
        )
        rows = list(
            session.scalars(
                select(DealRow)
                .where(DealRow.table_id == table_id, DealRow.scores_json.is_not(None))
                .order_by(DealRow.deal_no)
            )
        )
        finished = {row.deal_no for row in rows}
        actions: dict[int, list[str]] = {n: [] for n in finished}
        for deal_no, words in session.execute(
            select(ActionRow.deal_no, ActionRow.action)
            .where(ActionRow.table_id == table_id)
            .order_by(ActionRow.seq)
        ):
            if deal_no in finished:
                actions[deal_no].append(words)
        analysed = set(
            session.scalars(select(DealAnalysisRow.deal_no).where(DealAnalysisRow.table_id == table_id))
        )
    deals = []
    for row in rows:
        deal = _replay(rules, row.dealer, json.loads(row.dealt_json), actions[row.deal_no])
        deals.append(
            {
                "deal_no": row.deal_no,
                "dealer": row.dealer,
                "scores": json.loads(row.scores_json or "[]"),
                "outcome": row.outcome,
                "summary": None if deal.summary is None else summary_to_json(deal.summary),
                "analysed": row.deal_no in analysed,
            }
        )
    return {
        "table_id": table_id,
        "game": rules.game,
        "players": rules.players,
        "preset": table.preset,
        "seats": _seats(table_id, seats),
        "deals": deals,
    }


def _actions(engine: Engine, table_id: str, deal_no: int) -> list[str]:
    with engine.connect() as connection:
        return list(
            connection.scalars(
                select(ActionRow.action)
                .where(ActionRow.table_id == table_id, ActionRow.deal_no == deal_no)
                .order_by(ActionRow.seq)
            )
        )


def _seats(table_id: str, seats: list[SeatRow]) -> list[dict[str, Any]]:
    """The seats as the table info names them (a bot named after its level by its persona)."""
    numbers = personas(table_id, len(seats))
    named = []
    for s, seat in enumerate(seats):
        persona = None
        if seat.kind == "bot" and seat.name in ("", bot_name(seat.bot or "")):
            persona = numbers[s]
        named.append(
            {
                "seat": seat.seat,
                "kind": seat.kind,
                "name": seat.name if persona is None else persona_name(persona),
                "persona": persona,
                "bot": seat.bot,
            }
        )
    return named


def finished_deal(engine: Engine, table_id: str, deal_no: int) -> FinishedDeal:
    """A finished deal of the table from its log; 404 if there is none, 409 while it is played
    (synchronous: run it in a thread)."""
    table = _table_row(engine, table_id)
    with engine.connect() as connection:
        row = connection.execute(
            select(DealRow.dealer, DealRow.dealt_json, DealRow.scores_json, DealRow.outcome).where(
                DealRow.table_id == table_id, DealRow.deal_no == deal_no
            )
        ).first()
    if row is None:
        raise TableError(404, f"no deal {deal_no} at this table", "deal_no")
    if row.scores_json is None:
        raise TableError(
            409, f"deal {deal_no} is still being played: it can be studied once it is over", "deal_no"
        )
    return FinishedDeal(
        table_id,
        deal_no,
        Rules.from_options(json.loads(table.rules_json)),
        row.dealer,
        json.loads(row.dealt_json),
        _actions(engine, table_id, deal_no),
        json.loads(row.scores_json),
        row.outcome,
    )


def _replay(rules: Rules, dealer: int, dealt: Mapping[str, Any], actions: list[str]) -> Deal:
    deal = deal_from_dealt(rules, dealer, dict(dealt))
    for words in actions:
        deal.apply(deal.parse(words))
    return deal


# ---------------------------------------------------------------------- the steps of a replay
def board(deal: Deal) -> dict[str, Any]:
    """What a replay draws at one point of a deal, every hand shown: each public field of the
    seats' views, from the seat that knows it (the taker's écart, the partner), each seat's hand,
    the trick on the table and how many tricks are done; the phase and the seat to act."""
    views = [deal.view(s).to_json() for s in range(deal.n)]
    shown: dict[str, Any] = {}
    for key in views[0]:
        if key in _SKIPPED or key.startswith("opponent_"):
            continue
        if key in _TWO_PLAYER_OWN:
            shown[_TWO_PLAYER_OWN[key]] = [v[key] for v in views]
            continue
        known = [v[key] for v in views if v[key] not in (None, [], {})]
        shown[key] = max(known, key=_size) if known else views[0][key]
    shown["phase"] = deal.phase.value
    shown["current_player"] = deal.current_player
    shown["hands"] = [v["hand"] for v in views]
    shown["done"] = len(views[0]["tricks"])
    return shown


def _size(value: Any) -> int:
    return len(value) if isinstance(value, list | dict) else 1


def replay_steps(found: FinishedDeal) -> dict[str, Any]:
    """The deal's record and its steps: ``start`` is the board as dealt; each step is one action
    of the record (its ``index``), the seat that took it, the events it caused (every event: the
    deal is over, nothing is hidden any more) and the board's fields it changed (``set``; its
    ``hands`` only the seats whose hand changed, by seat number as a string)."""
    deal = deal_from_dealt(found.rules, found.dealer, dict(found.dealt))
    before = board(deal)
    start = before
    steps = []
    for index, words in enumerate(found.actions):
        seat = deal.current_player
        seen = len(deal.events)
        deal.apply(deal.parse(words))
        after = board(deal)
        changed = {k: v for k, v in after.items() if k != "hands" and before.get(k) != v}
        hands = {str(s): h for s, h in enumerate(after["hands"]) if h != before["hands"][s]}
        if hands:
            changed["hands"] = hands
        steps.append(
            {
                "index": index,
                "seat": seat,
                "action": words,
                "events": [event_to_json(e) for e in deal.events[seen:]],
                "set": changed,
            }
        )
        before = after
    tricks = deal.view(0).to_json()["tricks"]
    summary = deal.summary
    return {
        "table_id": found.table_id,
        "deal_no": found.deal_no,
        "record": deal_to_record(deal),
        "game": deal.rules.game,
        "players": deal.n,
        "rules": deal.rules.to_dict(),
        "dealer": deal.dealer,
        "start": start,
        "steps": steps,
        "tricks": tricks,
        "scores": deal.scores(),
        "outcome": deal.outcome,
        "summary": None if summary is None else summary_to_json(summary),
        "breakdown": None if summary is None else breakdown_json(summary),
    }


def deal_replay(engine: Engine, table_id: str, deal_no: int) -> dict[str, Any]:
    """``GET /api/tables/{id}/deals/{n}`` (synchronous: run it in a thread)."""
    found = finished_deal(engine, table_id, deal_no)
    replay = replay_steps(found)
    from sqlalchemy.orm import Session

    with Session(engine) as session:
        seats = list(
            session.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat))
        )
    replay["seats"] = _seats(table_id, seats)
    return replay


# ---------------------------------------------------------------------- the analyses
def _start_analysis_process(server: int) -> None:
    """The analysis process yields the cores to the tables and their bots, and ends when the
    server (its parent, ``server`` its process id, taken by the server: it may die while this
    process starts) is gone; killed without a shutdown, it would otherwise wait for ever."""
    with contextlib.suppress(OSError):  # a system that refuses: it runs at the server's priority
        os.nice(10)
    threading.Thread(target=_end_with_parent, args=(server,), daemon=True).start()


def _end_with_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def analyse_in_process(record_text: str) -> tuple[str, str]:
    """Run in the analysis process: ``("ready", analysis JSON text)`` or ``("refused", why)``."""
    try:
        from atout.analysis import AnalysisError, analyse_record
    except ImportError:
        return "refused", "the analysis of deals is not installed on this server"
    try:
        analysis = analyse_record(json.loads(record_text))
    except AnalysisError as exc:
        return "refused", str(exc).splitlines()[0] if str(exc) else "this deal cannot be analysed"
    except Exception as exc:  # a failure is kept as a refusal: it would fail again
        log.exception("the analysis failed")
        return "refused", f"the analysis failed on this deal ({type(exc).__name__})"
    return "ready", json.dumps(analysis.to_json(), separators=(",", ":"))


class Analyses:
    """The analyses of finished deals: each computed once in a process of its own, then kept in
    ``deal_analyses``. ``timings`` holds, for the deals this server analysed, how many seconds
    after the deal's end (or the first request) the analysis was ready."""

    def __init__(self, engine: Engine, workers: int = 1, eager: bool = True) -> None:
        self.engine, self.workers, self.eager = engine, workers, eager
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        self._running: dict[tuple[str, int], asyncio.Task[None]] = {}
        self.refused: dict[tuple[str, int], str] = {}
        self.timings: dict[tuple[str, int], float] = {}
        self.closed = False

    def _pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._executor is None:
            self._executor = concurrent.futures.ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_analysis_process,
                initargs=(os.getpid(),),
            )
        return self._executor

    def deal_over(self, table: Table, deal_no: int) -> None:
        """A table's deal just ended: start its analysis now, so that it is ready when looked at,
        unless ``EAGER_WAITING`` analyses already wait (a busy server: the others when asked)."""
        if not self.eager or len(self._running) >= EAGER_WAITING:
            return
        if self.closed or table.deal is None or not table.deal.is_over():
            return
        record = deal_to_record(table.deal)
        self.start(table.id, deal_no, record)

    def start(self, table_id: str, deal_no: int, record: dict[str, Any]) -> None:
        """Analyse this finished deal unless it is being analysed or was refused."""
        key = (table_id, deal_no)
        if self.closed or key in self._running or key in self.refused:
            return
        task = asyncio.get_running_loop().create_task(
            self._compute(key, record), name=f"analyse {table_id}/{deal_no}"
        )
        self._running[key] = task
        task.add_done_callback(lambda _t: self._running.pop(key, None))

    async def _compute(self, key: tuple[str, int], record: dict[str, Any]) -> None:
        began = time.perf_counter()
        loop = asyncio.get_running_loop()
        try:
            if await asyncio.to_thread(self.stored, *key) is not None:
                return
            status, text = await loop.run_in_executor(self._pool(), analyse_in_process, json.dumps(record))
        except concurrent.futures.process.BrokenProcessPool:
            log.warning("the analysis process of deal %s/%s died; it is started again when asked", *key)
            self._executor = None
            return
        except Exception:
            log.exception("analysing deal %s/%s failed", *key)
            return
        if status != "ready":
            if len(self.refused) >= KEPT_ERRORS:
                self.refused.pop(next(iter(self.refused)))
            self.refused[key] = text
            return
        await asyncio.to_thread(self._keep, key, text)
        self.timings[key] = time.perf_counter() - began
        log.info("deal %s/%s analysed in %.2f s", key[0], key[1], self.timings[key])

    def _keep(self, key: tuple[str, int], text: str) -> None:
        table_id, deal_no = key
        try:
            with self.engine.begin() as connection:
                connection.execute(
                    insert(DealAnalysisRow),
                    {"table_id": table_id, "deal_no": deal_no, "analysis_json": text, "created_at": now()},
                )
        except IntegrityError:  # another worker kept it first: the same analysis
            pass

    def stored(self, table_id: str, deal_no: int) -> str | None:
        """The kept analysis's JSON text, if any (synchronous)."""
        with self.engine.connect() as connection:
            text: str | None = connection.scalar(
                select(DealAnalysisRow.analysis_json).where(
                    DealAnalysisRow.table_id == table_id, DealAnalysisRow.deal_no == deal_no
                )
            )
        return text

    def close(self) -> None:
        """Stop: the analyses under way are dropped (asked again, they start again)."""
        self.closed = True
        for task in list(self._running.values()):
            task.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


def start(app: FastAPI) -> None:
    """Make the app's :class:`Analyses` and have every table start one as a deal ends (in the
    lifespan, once the table manager exists)."""
    manager = app.state.manager
    analyses = Analyses(manager.store.engine, eager=manager.config.analysis == "eager")
    app.state.analyses = analyses
    manager.on_deal_over = analyses.deal_over


def stop(app: FastAPI) -> None:
    """Stop the analyses (in the lifespan, before the database closes)."""
    analyses: Analyses | None = getattr(app.state, "analyses", None)
    if analyses is not None:
        analyses.close()


# ---------------------------------------------------------------------- the routes
def _engine(request: Request) -> Engine:
    engine: Engine = request.app.state.manager.store.engine
    return engine


@router.get("/tables/{table_id}/deals")
async def list_deals(table_id: str, request: Request) -> dict[str, Any]:
    """The session's finished deals: dealer, scores, outcome and summary (taker, contract...)."""
    _check_table_id(table_id)
    return await asyncio.to_thread(session_deals, _engine(request), table_id)


@router.get("/tables/{table_id}/deals/{deal_no}")
async def get_deal(table_id: str, deal_no: str, request: Request) -> dict[str, Any]:
    """A finished deal's record and its steps, every hand shown; 409 while it is played."""
    _check_table_id(table_id)
    return await asyncio.to_thread(deal_replay, _engine(request), table_id, _deal_number(deal_no))


@router.get("/tables/{table_id}/deals/{deal_no}/analysis", response_model=None)
async def get_analysis(table_id: str, deal_no: str, request: Request) -> JSONResponse:
    """The solver's analysis of a finished deal: 200 once computed, 202 while it is computed (ask
    again), 422 when the deal cannot be analysed (the message says why)."""
    _check_table_id(table_id)
    number = _deal_number(deal_no)
    analyses: Analyses = request.app.state.analyses
    text = await asyncio.to_thread(analyses.stored, table_id, number)
    if text is not None:
        return JSONResponse({"status": "ready", "analysis": json.loads(text)})
    found = await asyncio.to_thread(finished_deal, _engine(request), table_id, number)
    why = analyses.refused.get((table_id, number))
    if why is not None:
        return JSONResponse({"status": "refused", "error": why, "field": None}, status_code=422)
    deal = _replay(found.rules, found.dealer, found.dealt, found.actions)
    analyses.start(table_id, number, deal_to_record(deal))
    return JSONResponse({"status": "computing"}, status_code=202, headers={"Retry-After": "1"})


def _page(name: str, status_code: int = 200) -> FileResponse | HTMLResponse:
    path = STATIC / name
    if path.is_file():
        return FileResponse(path, status_code=status_code, media_type="text/html")
    return HTMLResponse(
        "<!doctype html><title>atout</title><p>the page's files are not installed</p>", status_code
    )


async def _replay_page(table_id: str, request: Request) -> FileResponse | HTMLResponse:
    if not _TABLE_ID.match(table_id):
        return _page("missing.html", 404)
    try:
        await asyncio.to_thread(_table_row, _engine(request), table_id)
    except TableError:
        return _page("missing.html", 404)
    return _page("replay.html")


@pages.get("/t/{table_id}/deals", response_model=None, include_in_schema=False)
async def deals_page(table_id: str, request: Request) -> FileResponse | HTMLResponse:
    """The session's deals to pick from (the replay page, without a deal)."""
    return await _replay_page(table_id, request)


@pages.get("/t/{table_id}/deals/{deal_no}", response_model=None, include_in_schema=False)
async def replay_page(table_id: str, deal_no: str, request: Request) -> FileResponse | HTMLResponse:
    """A finished deal's replay; the page itself asks for the deal (and says if it is refused)."""
    return await _replay_page(table_id, request)


__all__ = ["Analyses", "FinishedDeal", "board", "finished_deal", "pages", "replay_steps", "router"]

"""The application: FastAPI routes for the pages, the REST lobby and the table websockets, with
the database opened (and migrated), the bot pool started and the tables stopped by its lifespan.

Every refused request is answered ``{"error": "<one line>", "field": ...}``: a body too long,
not JSON or nested too deep (:class:`BodyGuard`, before any route reads it), a body of the wrong
type (the lobby's strict models), an unknown route or method, and the tables' own refusals.

>>> from atout.server.config import ServerConfig
>>> paths = create_app(ServerConfig("sqlite://")).openapi()["paths"]
>>> sorted(paths)[:3]
['/api/games', '/api/sheets', '/api/sheets/{sheet_id}']
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from atout import i18n, jsonio
from atout.server import lobby, rulebook, sheets, study, ws
from atout.server.botpool import BotPool
from atout.server.config import ServerConfig
from atout.server.db import open_database
from atout.server.gcstats import GcStats, freeze_startup
from atout.server.manager import TableManager
from atout.server.metrics import Metrics, database_health
from atout.server.relay import TableRelay
from atout.server.store import Store
from atout.server.tables import TableError

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
"""The browser page's files (``src/atout/web/static``)."""

_PLACEHOLDER = (
    "<!doctype html><meta charset=utf-8><title>atout</title>"
    "<p>atout server: the page's files are not installed; the API is at <a href=/docs>/docs</a>.</p>"
)


def _page(name: str, status_code: int = 200) -> FileResponse | HTMLResponse:
    path = STATIC / name
    if path.is_file():
        return FileResponse(path, status_code=status_code, media_type="text/html")
    return HTMLResponse(_PLACEHOLDER, status_code=status_code)


MAX_BODY = 64 * 1024
"""The longest REST request body read, in bytes (a table's settings take a few hundred)."""

MAX_BODY_DEPTH = 16
"""The deepest nesting of a REST request body read (a table's settings nest 3 deep)."""


def refusal(
    status: int,
    message: str,
    field: str | None = None,
    headers: Mapping[str, str] | None = None,
    code: str | None = None,
    params: Mapping[str, Any] | None = None,
) -> JSONResponse:
    """The one shape of every refused request; a field's problem adds its ``code`` and ``params``,
    which the page puts into words under that field."""
    body: dict[str, Any] = {"error": message, "field": field}
    if code is not None:
        body["code"], body["params"] = code, dict(params or {})
    return JSONResponse(body, status_code=status, headers=headers)


def _is_json(content_type: str | None) -> bool:
    kind = (content_type or "").partition(";")[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


class BodyGuard:
    """Reads the body of an ``/api`` request before any route does: at most ``max_bytes``
    (else 413), sent as ``application/json`` (else 415), and JSON nested at most ``max_depth``
    deep (else 400, found by a scan before it is parsed). A body that passes is handed on whole;
    an empty body is handed on as it is."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY, max_depth: int = MAX_BODY_DEPTH) -> None:
        self.app, self.max_bytes, self.max_depth = app, max_bytes, max_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope.get("path", "")
        if scope["type"] != "http" or not (path == "/api" or path.startswith("/api/")):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await self._too_long()(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk: bytes = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._too_long()(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        refused = self._check(body, headers.get("content-type"))
        if refused is not None:
            await refused(scope, receive, send)
            return
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if delivered:
                return await receive()
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    def _too_long(self) -> JSONResponse:
        return refusal(413, f"the body is longer than {self.max_bytes} bytes")

    def _check(self, body: bytes, content_type: str | None) -> JSONResponse | None:
        if not body:
            return None
        if not _is_json(content_type):
            return refusal(415, "the body must be JSON, sent with Content-Type: application/json")
        try:
            jsonio.loads(body.decode("utf-8"), max_depth=self.max_depth)
        except UnicodeDecodeError:
            return refusal(400, "not JSON: the body is not UTF-8 text")
        except jsonio.JsonError as exc:
            return refusal(400, str(exc))
        return None


def create_app(config: ServerConfig) -> FastAPI:
    """The web app for ``config``; the database is opened when it starts."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = open_database(config.db_url)
        pool = BotPool(config.bot_workers, warm=config.warm_bots)
        pool.start()
        metrics = app.state.metrics
        store = Store(engine, on_commit=metrics.commit)
        app.state.manager = TableManager(store, pool, config, metrics=metrics)
        app.state.manager.start()
        study.start(app)
        app.state.metrics.watch(app.state.manager)
        app.state.gc = GcStats()
        freeze_startup()  # what the start made lives as long as the server: out of the collector
        app.state.gc.start()
        try:
            yield
        finally:
            app.state.gc.stop()
            study.stop(app)
            await app.state.manager.close()
            pool.close()
            app.state.manager.store.close()
            engine.dispose()

    app = FastAPI(
        title="atout",
        summary="French Tarot and its family in the browser: tables, seats, bots, the wire format",
        lifespan=lifespan,
    )

    app.state.metrics = Metrics()
    app.add_middleware(TableRelay)  # inside BodyGuard: a relayed body was checked here first
    app.add_middleware(BodyGuard)

    @app.exception_handler(TableError)
    async def table_error(_request: Request, exc: TableError) -> JSONResponse:
        code, params = getattr(exc, "code", None), getattr(exc, "params", None)
        return refusal(exc.status, exc.message, exc.field, code=code, params=params)

    @app.exception_handler(RequestValidationError)
    async def invalid_body(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first: dict[str, Any] = dict(errors[0]) if errors else {"loc": (), "msg": "invalid request"}
        if first.get("type") == "json_invalid":
            return refusal(400, f"not JSON: {first.get('ctx', {}).get('error', 'unreadable')}")
        if tuple(first.get("loc", ())) == ("body",):
            missing = first.get("type") == "missing"
            return refusal(400, "a JSON body is required" if missing else "the body must be a JSON object")
        loc = [str(part) for part in first.get("loc", ()) if part not in ("body", "path", "query", "header")]
        field = ".".join(loc) or None
        message = str(first.get("msg", "invalid request"))
        if not field:
            return refusal(400, message)
        code, params = lobby.field_problem(first)
        return refusal(400, f"{field}: {message}", field, code=code, params=params)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        raw: bytes = request.scope.get("raw_path") or request.url.path.encode()
        where = f"{request.method} {raw.decode('latin-1')[:200]}"
        if exc.status_code == 404:
            message = f"no such page or route: {where}"
        elif exc.status_code == 405:
            allowed = (exc.headers or {}).get("Allow", "")
            message = f"method not allowed: {where} (allowed: {allowed or 'none'})"
        else:
            message = " ".join(str(exc.detail).split())
        return refusal(exc.status_code, message, headers=exc.headers)

    @app.exception_handler(Exception)
    async def server_error(_request: Request, _exc: Exception) -> JSONResponse:
        return refusal(500, "the server failed on this request; the failure is in its log")

    @app.get("/healthz")
    async def healthz(request: Request) -> JSONResponse:
        """The server is up and its database answers (else 503, ``ok`` false): its live tables
        and connections, whether its bot workers are still loading their kernels, and its full
        collections' pauses."""
        manager: TableManager = request.app.state.manager
        database = await database_health(manager.store.engine)
        body = {
            "ok": database["reachable"],
            "database": database,
            "bots_warming": manager.pool.warming,
            "live_tables": len(manager.tables),
            "connections": sum(len(t.connections) for t in manager.tables.values()),
            "gc": request.app.state.gc.report(),
        }
        return JSONResponse(body, status_code=200 if database["reachable"] else 503)

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        """The server's metrics for Prometheus (docs/deploy.md)."""
        content, content_type = request.app.state.metrics.exposition(request.headers.get("accept", ""))
        return Response(content, media_type=content_type)

    @app.get("/i18n/{language}.json", include_in_schema=False)
    async def page_words(language: str) -> JSONResponse:
        """The page's words in one language (strings.js key → text), from its gettext catalogue."""
        if language not in i18n.LANGUAGES:
            return refusal(404, f"no such language: {language[:20]!r}; known: {', '.join(i18n.LANGUAGES)}")
        return JSONResponse(i18n.page_catalogue(language), headers={"Cache-Control": "no-cache"})

    @app.get("/", response_model=None, include_in_schema=False)
    async def lobby_page() -> FileResponse | HTMLResponse:
        return _page("index.html")

    @app.get("/t/{table_id}", response_model=None, include_in_schema=False)
    async def table_page(table_id: str, request: Request) -> FileResponse | HTMLResponse:
        """The table's page; an address that holds no table gets a page saying so, with 404."""
        manager: TableManager = request.app.state.manager
        try:
            async with manager.use(table_id):
                pass
        except TableError as exc:
            if exc.status == 404:
                return _page("missing.html", status_code=404)
        return _page("table.html")

    @app.get("/score", response_model=None, include_in_schema=False)
    @app.get("/score/{sheet_id}", response_model=None, include_in_schema=False)
    async def score_keeper_page(sheet_id: str = "") -> FileResponse | HTMLResponse:
        """The score keeper of real tables: a new sheet, or a sheet by its link."""
        return _page("keeper.html")

    app.include_router(lobby.router)
    app.include_router(rulebook.router)
    app.include_router(sheets.router)
    app.include_router(ws.router)
    app.include_router(study.router)
    app.include_router(study.pages)
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app

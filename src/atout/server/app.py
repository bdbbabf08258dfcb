"""The application: FastAPI routes for the pages, the REST lobby and the table websockets, with
the database opened (and migrated), the bot pool started and the tables stopped by its lifespan.

>>> from atout.server.config import ServerConfig
>>> paths = create_app(ServerConfig("sqlite://")).openapi()["paths"]
>>> sorted(paths)[:3]
['/api/games', '/api/tables', '/api/tables/{table_id}']
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from atout.server import lobby, ws
from atout.server.botpool import BotPool
from atout.server.config import ServerConfig
from atout.server.db import open_database
from atout.server.store import Store
from atout.server.tables import TableError, TableManager

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
"""The browser page's files (``src/atout/web/static``)."""

_PLACEHOLDER = (
    "<!doctype html><meta charset=utf-8><title>atout</title>"
    "<p>atout server: the page's files are not installed; the API is at <a href=/docs>/docs</a>.</p>"
)


def _page(name: str) -> FileResponse | HTMLResponse:
    path = STATIC / name
    if path.is_file():
        return FileResponse(path, media_type="text/html")
    return HTMLResponse(_PLACEHOLDER)


def create_app(config: ServerConfig) -> FastAPI:
    """The web app for ``config``; the database is opened when it starts."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = open_database(config.db_url)
        pool = BotPool(config.bot_workers)
        pool.start()
        app.state.manager = TableManager(Store(engine), pool, config)
        try:
            yield
        finally:
            await app.state.manager.close()
            pool.close()
            engine.dispose()

    app = FastAPI(
        title="atout",
        summary="French Tarot and its family in the browser: tables, seats, bots, the wire format",
        lifespan=lifespan,
    )

    @app.exception_handler(TableError)
    async def table_error(_request: Request, exc: TableError) -> JSONResponse:
        return JSONResponse({"error": exc.message, "field": exc.field}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid_body(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        loc = [str(part) for part in first.get("loc", ()) if part not in ("body", "path", "query", "header")]
        field = ".".join(loc) or None
        message = str(first.get("msg", "invalid request"))
        return JSONResponse(
            {"error": f"{field}: {message}" if field else message, "field": field}, status_code=400
        )

    @app.get("/healthz")
    async def healthz() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/", response_model=None, include_in_schema=False)
    async def lobby_page() -> FileResponse | HTMLResponse:
        return _page("index.html")

    @app.get("/t/{table_id}", response_model=None, include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse | HTMLResponse:
        return _page("table.html")

    app.include_router(lobby.router)
    app.include_router(ws.router)
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app

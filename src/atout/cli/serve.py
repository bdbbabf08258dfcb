"""``atout serve``: the browser game (the server is imported only when this command runs)."""

from __future__ import annotations

from typing import Annotated

import typer

from atout.cli.common import fail


def serve_command(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="Database URL: sqlite:///path or postgresql+psycopg://user@host/name. "
            "Default: atout.sqlite3 in the user's data directory.",
        ),
    ] = None,
    bot_pause: Annotated[
        float, typer.Option("--bot-pause", help="Seconds the random and rules bots wait before playing.")
    ] = 0.7,
    leave_timeout: Annotated[
        float,
        typer.Option("--leave-timeout", help="Seconds before a bot plays for a person who left mid-deal."),
    ] = 60.0,
    bot_workers: Annotated[int, typer.Option("--bot-workers", help="Processes that run the bots.")] = 2,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-origin",
            metavar="URL",
            help="A page (scheme://host[:port]) besides the server's own that may open the table "
            "websockets, e.g. the public address of a reverse proxy. Repeatable.",
        ),
    ] = None,
) -> None:
    """Serve the browser game: tables against bots and friends, kept in a database."""
    if bot_pause < 0 or leave_timeout < 0 or bot_workers < 1 or not 0 < port < 65536:
        fail("--bot-pause and --leave-timeout must be 0 or more, --bot-workers 1 or more, --port 1 to 65535")
    from atout.server.origins import canonical_origin

    try:
        origins = frozenset(canonical_origin(origin) for origin in allow_origin or [])
    except ValueError as exc:
        fail(f"--allow-origin: {exc}")
    import uvicorn

    from atout.server.app import create_app
    from atout.server.config import ServerConfig, default_db_path, sqlite_url
    from atout.server.db import open_database

    url = db or sqlite_url(default_db_path())
    try:
        open_database(url).dispose()  # a bad URL or an unreachable database: one clear line
    except ValueError as exc:
        fail(str(exc))
    config = ServerConfig(
        url,
        bot_pause=bot_pause,
        leave_timeout=leave_timeout,
        bot_workers=bot_workers,
        allowed_origins=origins,
    )
    typer.echo(f"atout: serving on http://{host}:{port}/ (database {url})", err=True)
    uvicorn.run(create_app(config), host=host, port=port, log_level="warning")

"""``atout serve``: the browser game (the server is imported only when this command runs)."""

from __future__ import annotations

import errno
import socket
from pathlib import Path
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
    warm_up: Annotated[
        bool,
        typer.Option(
            "--warm-up/--no-warm-up",
            help="Load the computer players' kernels as the bot processes start (default), or on "
            "their first move: --no-warm-up suits servers of random and rules bots, which use none.",
        ),
    ] = True,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-origin",
            metavar="URL",
            help="A page (scheme://host[:port]) besides the server's own that may open the table "
            "websockets, e.g. the public address of a reverse proxy. Repeatable.",
        ),
    ] = None,
    deals: Annotated[
        Path | None,
        typer.Option(
            "--deals",
            metavar="FILE",
            help="Deal these deals first (deal records, docs/records.md: a JSON list or one per line), "
            "each to the next table of its game: for duplicate play and tests.",
        ),
    ] = None,
    idle_unload: Annotated[
        float,
        typer.Option("--idle-unload", help="Seconds an idle table (nobody connected) stays in memory."),
    ] = 60.0,
) -> None:
    """Serve the browser game: tables against bots and friends, kept in a database."""
    if min(bot_pause, leave_timeout, idle_unload) < 0 or bot_workers < 1 or not 0 < port < 65536:
        fail(
            "--bot-pause, --leave-timeout and --idle-unload must be 0 or more, --bot-workers 1 or more, "
            "--port 1 to 65535"
        )
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
    if deals is not None:
        from atout.server.prepared import PreparedDeals

        try:
            PreparedDeals.read(deals)
        except ValueError as exc:
            fail(str(exc))
    config = ServerConfig(
        url,
        bot_pause=bot_pause,
        leave_timeout=leave_timeout,
        bot_workers=bot_workers,
        warm_bots=warm_up,
        allowed_origins=origins,
        idle_unload=idle_unload,
        deals_file=None if deals is None else str(deals),
    )
    _check_free(host, port)
    for line in _greeting(host, port, url, db is None):
        typer.echo(line, err=True)
    # a client message is at most 4,096 characters: a frame beyond 16 KiB is refused unread
    uvicorn.run(create_app(config), host=host, port=port, log_level="warning", ws_max_size=1 << 14)


def _check_free(host: str, port: int) -> None:
    """Fail with one line when the address cannot be listened on (a busy port above all)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError:
        fail(f"--host {host}: not an address of this machine")
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server itself does
        try:
            sock.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                fail(
                    f"port {port} is busy (another program, or another atout serve, uses it): "
                    f"choose another, e.g. make run PORT={port + 1} or atout serve --port {port + 1}"
                )
            fail(f"cannot listen on {host} port {port}: {exc.strerror or exc}")


def _greeting(host: str, port: int, url: str, default_db: bool) -> list[str]:
    """What ``atout serve`` says at its start: the address to open, where the tables are kept
    and how to stop."""
    from sqlalchemy.engine import make_url

    everywhere = host in ("0.0.0.0", "::", "")
    shown = "127.0.0.1" if everywhere else f"[{host}]" if ":" in host else host
    lines = [f"atout: open http://{shown}:{port}/ in a browser"]
    if everywhere:
        lines[0] += f" (from another device: http://<this machine's address>:{port}/)"
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database:
        where = f"the SQLite file {Path(parsed.database).resolve()}"
        lines.append(f"atout: the tables are kept in {where}{' (the default)' if default_db else ''}")
    else:
        lines.append(
            f"atout: the tables are kept in the database {parsed.render_as_string(hide_password=True)}"
        )
    lines.append("atout: press Ctrl+C to stop (the tables are saved: they resume at the next start)")
    return lines

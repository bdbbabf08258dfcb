"""``atout serve``: the browser game (the server is imported only when this command runs).

On SQLite it is one process. On PostgreSQL every server process is a worker of one server with
the others on the same database, on this machine or others (docs/server.md, "Several workers and
machines"): it listens on the public ``--host``/``--port`` and on an internal address of its own,
which it registers for the other workers to relay to. ``--workers N`` runs N of them here, all
accepting on the one public port (``SO_REUSEPORT``), under a parent that forwards Ctrl+C and
SIGTERM to them and restarts one that died.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import os
import signal
import socket
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from atout.cli.common import fail

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

    from atout.server.config import ServerConfig

RESTART_DELAY = 1.0
"""Seconds before a worker that died is started again (longer when it keeps dying at once)."""
STOP_TIMEOUT = 20.0
"""Seconds the workers have to stop after Ctrl+C or SIGTERM before they are killed."""
WILDCARDS = ("0.0.0.0", "::", "")


UVICORN: dict[str, Any] = {
    "log_level": "warning",
    # a client message is at most 4,096 characters: a frame beyond 16 KiB is refused unread
    "ws_max_size": 1 << 14,
    # no permessage-deflate: an update is a few hundred bytes; measured with bench/load.py at 300
    # tables, compression cost 200 KB of memory per table and a tenth of the CPU for nothing
    "ws_per_message_deflate": False,
}
"""How uvicorn serves (uvloop and httptools, installed with atout, are its choice by default)."""


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
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            help="Worker processes serving the one --port (PostgreSQL only): each owns some tables "
            "and relays the others' requests. Default: this process alone.",
        ),
    ] = None,
    advertise: Annotated[
        str | None,
        typer.Option(
            "--advertise",
            metavar="HOST",
            help="The address other machines reach this one by (PostgreSQL only). "
            "Default: --host, or 127.0.0.1 when --host listens everywhere.",
        ),
    ] = None,
    analysis: Annotated[
        str,
        typer.Option(
            "--analysis",
            metavar="WHEN",
            help="When the solver analyses a finished deal: eager (as it ends, so that it is ready "
            "when looked at; a few waiting at a time) or on-demand (when someone opens it).",
        ),
    ] = "eager",
) -> None:
    """Serve the browser game: tables against bots and friends, kept in a database."""
    if min(bot_pause, leave_timeout, idle_unload) < 0 or bot_workers < 1 or not 0 < port < 65536:
        fail(
            "--bot-pause, --leave-timeout and --idle-unload must be 0 or more, --bot-workers 1 or more, "
            "--port 1 to 65535"
        )
    if analysis not in ("eager", "on-demand"):
        fail(f"--analysis {analysis!r}: choose eager or on-demand")
    if workers is not None and not 1 <= workers <= 64:
        fail("--workers must be 1 to 64")
    if advertise is not None and (not advertise.strip() or any(c in advertise for c in " /@?#")):
        fail(f"--advertise {advertise!r}: give a host name or an address, e.g. --advertise 10.0.0.5")
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
    postgres = _is_postgres(url)
    if workers is not None and workers > 1 and not postgres:
        fail(
            f"--workers {workers} needs a PostgreSQL database (--db postgresql+psycopg://...): "
            "a SQLite file is served by one process"
        )
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
        analysis="eager" if analysis == "eager" else "on-demand",
    )
    _check_free(host, port)
    lines = _greeting(host, port, url, db is None)
    if postgres:
        shown = advertise or ("127.0.0.1" if host in WILDCARDS else host)
        count = "1 worker process" if workers is None else f"{workers} worker processes"
        lines.insert(
            2, f"atout: {count} here, reached by the others as {shown}; more join with the same --db"
        )
    for line in lines:
        typer.echo(line, err=True)
    if not postgres:
        uvicorn.run(create_app(config), host=host, port=port, **UVICORN)
        return
    worker = WorkerSettings(config, host, port, advertise, shared_port=workers is not None)
    if workers is None:
        run_worker(worker)
    else:
        supervise(workers, worker)


def _is_postgres(url: str) -> bool:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).get_backend_name() == "postgresql"
    except Exception:  # not a URL: open_database says so in one line
        return False


@dataclasses.dataclass(frozen=True)
class WorkerSettings:
    """What a worker process is started with: the server's settings, where to listen, the
    address the others reach it by, and whether its public port is shared with other workers."""

    config: ServerConfig
    host: str
    port: int
    advertise: str | None = None
    shared_port: bool = False


def _listen(host: str, port: int, shared: bool) -> socket.socket:
    """A listening TCP socket; ``shared``: other processes may listen on the same port
    (``SO_REUSEPORT``: the kernel spreads the connections over them)."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if shared:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(address)
    sock.listen(2048)
    return sock


def run_worker(settings: WorkerSettings) -> None:
    """Serve as one worker: the public address, and an internal one (a free port) that the
    other workers relay to, registered in the database by the app as it starts."""
    import uvicorn

    from atout.server.app import create_app

    public = _listen(settings.host, settings.port, settings.shared_port)
    internal = _listen(settings.host, 0, False)
    advertised = settings.advertise or ("127.0.0.1" if settings.host in WILDCARDS else settings.host)
    shown = f"[{advertised}]" if ":" in advertised else advertised
    address = f"{shown}:{internal.getsockname()[1]}"
    config = dataclasses.replace(settings.config, internal_address=address)
    app = create_app(config)
    server = uvicorn.Server(uvicorn.Config(app, timeout_graceful_shutdown=5, **UVICORN))
    server.run(sockets=[public, internal])


def _worker_process(settings: WorkerSettings, parent: int) -> None:
    """A supervised worker: in a process group of its own (Ctrl+C reaches the parent, which
    forwards it), and stopped when the parent dies."""
    os.setpgrp()
    if sys.platform == "linux":
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        return
    run_worker(settings)


def supervise(count: int, settings: WorkerSettings) -> None:
    """Run ``count`` workers until Ctrl+C or SIGTERM, which they are sent in turn; a worker that
    dies is started again after :data:`RESTART_DELAY` (so that a ``kill -9`` costs only its
    connections)."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    stopping: list[int] = []

    def stop(signum: int, _frame: object) -> None:
        stopping.append(signum)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)

    def start(i: int) -> BaseProcess:
        process = context.Process(
            target=_worker_process, args=(settings, os.getpid()), name=f"atout worker {i + 1}"
        )
        process.start()
        return process

    processes: list[BaseProcess | None] = [start(i) for i in range(count)]
    started = [time.monotonic()] * count
    due = [0.0] * count
    while not stopping:
        time.sleep(0.1)
        now = time.monotonic()
        for i, process in enumerate(processes):
            if process is not None and process.exitcode is not None and not stopping:
                quick = now - started[i] < 5.0  # it died as it started: do not spin
                due[i] = now + (10 * RESTART_DELAY if quick else RESTART_DELAY)
                typer.echo(
                    f"atout: worker {i + 1} (process {process.pid}) stopped ({_ended(process.exitcode)}); "
                    f"it starts again in {due[i] - now:.0f} s",
                    err=True,
                )
                processes[i] = None
            if processes[i] is None and now >= due[i] and not stopping:
                processes[i], started[i] = start(i), now
    for process in processes:
        if process is not None and process.pid is not None and process.exitcode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGTERM)
    end = time.monotonic() + STOP_TIMEOUT
    for process in processes:
        if process is not None:
            process.join(max(0.0, end - time.monotonic()))
            if process.exitcode is None:
                process.kill()
                process.join()


def _ended(exitcode: int) -> str:
    """How a process ended, in words."""
    if exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit status {exitcode}"


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

"""``atout serve`` tells a new user what to do: the address to open, where the tables are kept
(the SQLite file, by default in the user's data folder) and how to stop; a busy port is one line
naming ``make run PORT=...``, never a traceback. ``make run`` passes ``PORT`` and ``HOST`` on."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from atout.cli.serve import _greeting

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_a_busy_port_is_one_line_naming_make_run_port() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = subprocess.run(
            [sys.executable, "-m", "atout", "serve", "--port", str(port), "--db", "sqlite://"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    assert f"port {port} is busy" in lines[0] and f"make run PORT={port + 1}" in lines[0]


def test_an_unknown_host_is_one_line() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "atout", "serve", "--host", "no-such-host.invalid", "--db", "sqlite://"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and out.stderr.strip() == (
        "error: --host no-such-host.invalid: not an address of this machine"
    )


def test_the_start_says_where_to_go_where_the_data_is_and_how_to_stop(tmp_path: Path) -> None:
    """With no --db the tables live in the user's data folder (XDG_DATA_HOME here), and the
    start's lines say that file's path."""
    port = _free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    command = [sys.executable, "-m", "atout", "serve", "--port", str(port), "--bot-workers", "1"]
    server = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert server.stderr is not None
        lines = []
        end = time.monotonic() + 60
        while time.monotonic() < end and not any("Ctrl+C" in line for line in lines):
            lines.append(server.stderr.readline())
    finally:
        server.terminate()
        server.wait(30)
    database = tmp_path / "data" / "atout" / "atout.sqlite3"
    assert lines == [
        f"atout: open http://127.0.0.1:{port}/ in a browser\n",
        f"atout: the tables are kept in the SQLite file {database} (the default)\n",
        "atout: press Ctrl+C to stop (the tables are saved: they resume at the next start)\n",
    ]


def test_the_greeting_of_a_public_address_and_of_postgresql() -> None:
    lines = _greeting("0.0.0.0", 8080, "postgresql+psycopg://atout:secret@db.example/atout", False)
    assert lines[0] == (
        "atout: open http://127.0.0.1:8080/ in a browser "
        "(from another device: http://<this machine's address>:8080/)"
    )
    assert "secret" not in lines[1] and "db.example/atout" in lines[1]


def test_make_run_passes_port_and_host_to_serve() -> None:
    out = subprocess.run(
        ["make", "-n", "run", "PORT=8080", "HOST=0.0.0.0"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert ".venv/bin/atout serve --host 0.0.0.0 --port 8080" in out.stdout.splitlines(), out.stdout
    default = subprocess.run(["make", "-n", "run"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert ".venv/bin/atout serve --host 127.0.0.1 --port 8000" in default.stdout.splitlines()


def test_several_workers_on_sqlite_are_refused_in_one_line(tmp_path: Path) -> None:
    """SQLite is served by one process: --workers above 1 needs PostgreSQL, and says so."""
    database = tmp_path / "atout.sqlite3"
    out = subprocess.run(
        [sys.executable, "-m", "atout", "serve", "--workers", "2", "--db", f"sqlite:///{database}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and out.stderr.strip() == (
        "error: --workers 2 needs a PostgreSQL database (--db postgresql+psycopg://...): "
        "a SQLite file is served by one process"
    )
    assert not database.exists(), "nothing was started"
    zero = subprocess.run(
        [sys.executable, "-m", "atout", "serve", "--workers", "0", "--db", "sqlite://"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert zero.returncode == 2 and zero.stderr.strip() == "error: --workers must be 1 to 64"


def test_an_unknown_analysis_choice_is_one_line() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "atout", "serve", "--analysis", "always", "--db", "sqlite://"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and out.stderr.strip() == (
        "error: --analysis 'always': choose eager or on-demand"
    )

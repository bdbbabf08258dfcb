"""``atout arena --ray ADDRESS``: the deals over a real local Ray cluster give the very report of a
run over local processes (``--workers``). Skipped when ray is not installed, except under
``CI=true``, where it must run."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

BIN = Path(sys.executable).parent
TIMINGS = ("seconds", "ray", "workers")
RAY_STARTED = "Ray runtime started"


def _need_ray() -> None:
    try:
        import ray  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("ray is not installed, and CI=true requires it (make test installs it)")
        pytest.skip("ray is not installed (pip install -e '.[ray]')")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _watch(stream: IO[str], lines: list[str], started: threading.Event) -> None:
    """Keep the output of ``ray start`` (the pipe never fills) and tell when the head is up."""
    for line in stream:
        lines.append(line)
        if RAY_STARTED in line:
            started.set()
    started.set()  # the command ended: the caller finds out how


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A local Ray head with 2 CPUs of its own for this module's tests (its own port and folder,
    in a process group of its own that is ended afterwards: other clusters on the machine live on)."""
    port = _free_port()
    temp = tmp_path_factory.mktemp("ray")
    command = [
        str(BIN / "ray"),
        *("start", "--head", f"--port={port}", "--num-cpus=2", f"--temp-dir={temp}", "--block"),
        *("--include-dashboard=false", "--disable-usage-stats"),
    ]
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    head = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True
    )
    lines: list[str] = []
    started = threading.Event()
    assert head.stdout is not None
    threading.Thread(target=_watch, args=(head.stdout, lines, started), daemon=True).start()
    try:
        if not started.wait(timeout=180) or not any(RAY_STARTED in line for line in lines):
            pytest.fail(f"ray start failed ({head.poll()}): {''.join(lines)[-3000:]}")
        yield f"127.0.0.1:{port}"
    finally:
        head.terminate()  # the head drains and stops what it started
        try:
            head.wait(timeout=60)
        finally:
            with contextlib.suppress(ProcessLookupError):  # anything of its group that outlived it
                os.killpg(head.pid, signal.SIGKILL)


def _arena(*args: str) -> dict[str, Any]:
    command = [str(BIN / "atout"), "arena", *args, "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def _figures(report: dict[str, Any]) -> dict[str, Any]:
    """The report without where and how fast it ran."""
    figures = {k: v for k, v in report.items() if k not in TIMINGS}
    for side in ("candidate", "baseline"):
        figures[side] = {k: v for k, v in report[side].items() if k != "ms_per_decision"}
    return figures


# Over the 2-CPU head, 40 deals go in 20 chunks of 2 (the local processes take 2 at a time too) and
# the expert's 16 deals in 16 chunks of 1: both ways gather the results out of order.
MATCHES = {
    "rules-random-3p": ("--candidate", "rules", "--baseline", "random", "--reference", "random", "-p", "3"),
    "rules-random-cardplay": (
        *("--candidate", "rules", "--baseline", "random", "--reference", "random"),
        *("-p", "5", "--track", "cardplay"),
    ),
    "expert-rules": ("--candidate", "expert:fast", "--baseline", "rules", "--reference", "rules", "-p", "4"),
}
DEALS = {"rules-random-3p": 40, "rules-random-cardplay": 40, "expert-rules": 16}


@pytest.mark.parametrize("match", list(MATCHES))
def test_ray_gives_the_report_of_local_processes(
    match: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    _need_ray()
    ray_head: str = request.getfixturevalue("ray_head")
    deals = DEALS[match]
    args = (*MATCHES[match], "--deals", str(deals), "--seed", "7")
    on_ray = _arena(*args, "--ray", ray_head, "--save-dir", str(tmp_path / "ray"))
    local = _arena(*args, "--workers", "2", "--save-dir", str(tmp_path / "local"))
    assert on_ray["ray"] == ray_head and local["ray"] is None and local["workers"] == 2
    assert _figures(on_ray) == _figures(local)
    assert on_ray["deals"] == deals and on_ray["games_played"] == local["games_played"] > 2 * deals
    # the records are written by the driver, the same files with the same games
    files = sorted(p.name for p in (tmp_path / "ray").iterdir())
    assert len(files) == on_ray["games_played"]
    assert files == sorted(p.name for p in (tmp_path / "local").iterdir())
    for name in files:
        ray_text = (tmp_path / "ray" / name).read_text(encoding="utf-8")
        assert ray_text == (tmp_path / "local" / name).read_text(encoding="utf-8")


def test_without_ray_the_command_says_how_to_install_it(atout: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    result = atout("arena", "--deals", "1", "--ray", "auto")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "error: Ray is not installed: --ray needs the ray extra "
        "(pip install 'atout[ray]', or pip install -e '.[ray]' in a clone of atout)"
    )


def test_an_empty_ray_address_is_refused(atout: Any) -> None:
    result = atout("arena", "--deals", "1", "--ray", " ")
    assert result.exit_code == 2
    assert "--ray needs an address" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_core_package_does_not_import_ray() -> None:
    code = "import sys, atout.arena, atout.cli.main; print('ray' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr


def test_an_address_where_nothing_answers_fails_at_once(atout: Any) -> None:
    _need_ray()
    result = atout("arena", "--deals", "1", "--ray", f"127.0.0.1:{_free_port()}")
    assert result.exit_code == 2
    assert "cannot join the Ray cluster at 127.0.0.1:" in result.stderr
    assert "nothing answers there" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1

"""``atout arena --ray ADDRESS``: the deals over a real local Ray cluster give the very report of a
local run. Skipped when ray is not installed, except under ``CI=true``, where it must run."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

BIN = Path(sys.executable).parent
TIMINGS = ("seconds", "ray", "workers")


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


@pytest.fixture(scope="module")
def ray_head() -> Iterator[str]:
    """A local Ray head with 2 CPUs for this module's tests; ``ray stop`` afterwards."""
    port = _free_port()
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    command = [
        str(BIN / "ray"),
        *("start", "--head", f"--port={port}", "--num-cpus=2"),
        *("--include-dashboard=false", "--disable-usage-stats"),
    ]
    try:
        started = subprocess.run(command, capture_output=True, text=True, timeout=180, env=env)
        if started.returncode != 0:
            pytest.fail(f"ray start failed ({started.returncode}): {started.stderr[-3000:]}")
        yield f"127.0.0.1:{port}"
    finally:
        subprocess.run([str(BIN / "ray"), "stop"], capture_output=True, timeout=180, env=env)


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


@pytest.mark.parametrize("track", ["full", "cardplay"])
def test_ray_gives_the_local_report(track: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    _need_ray()
    ray_head: str = request.getfixturevalue("ray_head")
    args = ("--candidate", "rules", "--baseline", "random", "--reference", "random")
    args += ("--deals", "3", "-p", "3", "--seed", "7", "--track", track)
    on_ray = _arena(*args, "--ray", ray_head, "--save-dir", str(tmp_path / "ray"))
    local = _arena(*args, "--save-dir", str(tmp_path / "local"))
    assert on_ray["ray"] == ray_head and local["ray"] is None
    assert _figures(on_ray) == _figures(local)
    assert on_ray["deals"] == 3 and on_ray["track"] == track
    # the records are written by the driver, the same files with the same games
    files = sorted(p.name for p in (tmp_path / "ray").iterdir())
    assert len(files) == 3 * 3 * 2
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

"""The ``atout`` command itself: its help lists the four commands, and ``python -m atout`` runs it."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from typing import Any

import atout as atout_package

COMMANDS = ("play", "score", "simulate", "replay")


def test_help_lists_the_four_commands(atout: Any) -> None:
    result = atout("--help")
    assert result.exit_code == 0
    for command in COMMANDS:
        assert command in result.stdout


def test_each_command_has_its_own_help(atout: Any) -> None:
    for command in COMMANDS:
        result = atout(command, "--help")
        assert result.exit_code == 0, command
        assert "Usage" in result.stdout and command in result.stdout


def test_an_unknown_command_is_refused(atout: Any) -> None:
    result = atout("deal")
    assert result.exit_code == 2
    assert "No such command" in result.stderr


def test_python_dash_m_atout_runs_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "atout", "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    for command in COMMANDS:
        assert command in done.stdout


def test_a_closed_pipe_ends_quietly_without_a_traceback() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "atout", "simulate", "--deals", "300", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader goes away before anything is written
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err
    assert proc.returncode in (0, 1)


def test_version_prints_the_installed_version() -> None:
    """``atout --version`` (and ``python -m atout --version``) prints the package's version, the one
    its metadata gives (pyproject reads it from ``atout.__version__``), and nothing else."""
    done = subprocess.run(
        [sys.executable, "-m", "atout", "--version"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"atout {importlib.metadata.version('atout')}\n"
    assert done.stdout == f"atout {atout_package.__version__}\n"


def test_version_wins_over_a_command(atout: Any) -> None:
    result = atout("--version", "simulate", "--deals", "5")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"atout {atout_package.__version__}"

"""Shared pieces of the command line: rules from options, and clean failures."""

from __future__ import annotations

from typing import NoReturn

import typer

from atout.rules import Rules, RulesError

EXIT_BAD_INPUT = 2


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``error: message`` to stderr and exit, without a traceback."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def rules_from_cli(players: int, options: list[str] | None) -> Rules:
    """Rules from ``--players`` and ``--option name=value`` words, or a clean exit."""
    try:
        return Rules.parse_assignments(options or [], players=players)
    except RulesError as exc:
        fail(str(exc))

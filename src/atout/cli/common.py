"""Shared pieces of the command line: rules from options, and clean failures."""

from __future__ import annotations

from typing import Annotated, NoReturn

import typer

from atout.presets import rules_for
from atout.rules import Rules, RulesError, parse_option_words

EXIT_BAD_INPUT = 2

PlayersOption = Annotated[
    int | None,
    typer.Option(
        "--players", "-p", help="Number of players (French 2 to 5; Austrian 3). Default: 4, or the preset's."
    ),
]
RulesOption = Annotated[
    str,
    typer.Option(
        "--rules", "-r", help="A rules preset (see `atout rules`): fft, japanese, czech, tarock, ..."
    ),
]
GameOption = Annotated[
    str | None, typer.Option("--game", "-g", help="french or austrian (default: the preset's game).")
]
OptionsOption = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="A rules option, name=value (repeatable).")
]


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``error: message`` to stderr and exit, without a traceback."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def rules_from_cli(
    players: int | None, options: list[str] | None, preset: str = "fft", game: str | None = None
) -> Rules:
    """Rules from ``--rules``, ``--game``, ``--players`` and ``--option name=value`` words, or a clean exit."""
    try:
        chosen = parse_option_words(options or [])
        extra: dict[str, object] = {}
        if game is not None:
            extra["game"] = game
        if players is not None:
            extra["players"] = players
        base = rules_for(preset)
        if "players" not in extra and "game" in extra and extra["game"] != base.game:
            extra["players"] = 3 if extra["game"] == "austrian" else 4
        return rules_for(preset, {**chosen, **extra})
    except RulesError as exc:
        fail(str(exc))

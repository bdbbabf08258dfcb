"""``atout bot-serve SPEC``: an atout bot as a child process speaking the line protocol.

Any bot of the registry (``rules``, ``random --seed 7``, ``expert:strong``) reads the wire form of
its views on stdin and answers on stdout (docs/bot-protocol.md). Imports stay light so that the
child starts fast: ``python -m atout bot-serve`` loads this command alone.
"""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

# the bots are imported by the command, not at start-up (``atout --help`` loads this module)


def bot_serve_command(
    spec: Annotated[str, typer.Argument(help="The bot: rules, random, expert, expert:strong, ...")],
    seed: Annotated[
        int | None,
        typer.Option("--seed", "-s", help="Seed of the bot's randomness, unless a hello gives one."),
    ] = None,
) -> None:
    """Serve one bot over stdin/stdout, one JSON object per line (docs/bot-protocol.md)."""
    from atout.bots.registry import make_bot
    from atout.bots.serve import serve

    try:
        bot = make_bot(spec, rng=seed)
    except ValueError as exc:
        typer.echo(f"error: bot-serve: {exc}", err=True)
        raise typer.Exit(2) from None
    if getattr(bot, "sees_everything", False):
        typer.echo(
            f"error: bot-serve: the {bot.name} bot sees every card; it cannot play from a view", err=True
        )
        raise typer.Exit(2)
    # the protocol keeps the real stdout; anything a bot prints goes to stderr
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    sys.stdout = sys.stderr
    try:
        code = serve(lambda s: make_bot(spec, rng=s), seed, sys.stdin, answers, sys.stderr)
    except KeyboardInterrupt:
        code = 130
    except BrokenPipeError:
        code = 1  # the host went away
    raise typer.Exit(code)


def main() -> None:
    """``python -m atout bot-serve ...`` without the rest of the command line."""
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    app.command()(bot_serve_command)
    app(args=sys.argv[2:], prog_name="atout bot-serve")

"""The ``atout`` command: play, keep score, simulate and replay Tarot deals."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from atout import __version__, i18n
from atout.cli.analyse import analyse_command
from atout.cli.arena import arena_command, arena_compare_command
from atout.cli.bot_serve import bot_serve_command
from atout.cli.play import play_command
from atout.cli.replay import replay_command
from atout.cli.rules import rules_command
from atout.cli.score import score_command
from atout.cli.serve import serve_command
from atout.cli.simulate import simulate_command
from atout.cli.warm_up import warm_up_command

app = typer.Typer(
    name="atout",
    help="atout: French Tarot (and its family), exactly by the rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(asked: bool) -> None:
    if asked:
        typer.echo(f"atout {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="LANG",
            help=f"The language of the words for people: {', '.join(i18n.LANGUAGES)} "
            "(default: ATOUT_LANG, else the environment's locale, else en).",
        ),
    ] = None,
) -> None:
    """The options before the command."""
    if lang is not None:
        try:
            i18n.use(lang)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--lang") from None


app.command("play")(play_command)
app.command("score")(score_command)
app.command("simulate")(simulate_command)
app.command("replay")(replay_command)
app.command("analyse")(analyse_command)
app.command("rules")(rules_command)
app.command("arena")(arena_command)
app.command("arena-compare")(arena_compare_command)
app.command("bot-serve")(bot_serve_command)
app.command("serve")(serve_command)
app.command("warm-up")(warm_up_command)


def main() -> None:
    """Console entry point: an interrupt or a closed pipe ends quietly, without a traceback."""
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    except BrokenPipeError:
        # the reader went away (e.g. `atout simulate --json | head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)

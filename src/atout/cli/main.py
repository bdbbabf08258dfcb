"""The ``atout`` command: play, keep score, simulate and replay Tarot deals."""

from __future__ import annotations

import os
import sys

import typer

from atout.cli.arena import arena_command, arena_compare_command
from atout.cli.play import play_command
from atout.cli.replay import replay_command
from atout.cli.rules import rules_command
from atout.cli.score import score_command
from atout.cli.serve import serve_command
from atout.cli.simulate import simulate_command

app = typer.Typer(
    name="atout",
    help="atout: French Tarot (and its family), exactly by the rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("play")(play_command)
app.command("score")(score_command)
app.command("simulate")(simulate_command)
app.command("replay")(replay_command)
app.command("rules")(rules_command)
app.command("arena")(arena_command)
app.command("arena-compare")(arena_compare_command)
app.command("serve")(serve_command)


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

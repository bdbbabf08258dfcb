"""The computer players of the terminal game, each in a child process of its own
(docs/bot-protocol.md): an atout bot by name, or any program that speaks the bot protocol."""

from __future__ import annotations

import random
import shlex
import shutil
from collections.abc import Iterable

from atout.bots.process import ProcessBot, process_bot


def computer_players(
    spec: str, command: str | None, seats: Iterable[int], rng: random.Random
) -> dict[int, ProcessBot]:
    """A bot in a child process for each seat: the external ``command`` (a command line, split as
    a shell would) when given, else the atout bot ``spec``, each seeded from ``rng``.
    ``ValueError`` for a command that is empty or whose program is not found."""
    if command is None:
        bots = {s: process_bot(spec, seed=rng.getrandbits(63)) for s in seats}
    else:
        bots = {s: ProcessBot(external_command(command), name=command) for s in seats}
    for bot in bots.values():
        bot.start()  # they load side by side while the table is set
    return bots


def external_command(command: str) -> list[str]:
    """A command line split as a shell would; ``ValueError`` if it is empty or unreadable, or
    its program is not found."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ValueError(f"cannot read the command {command!r}: {exc}") from None
    if not argv:
        raise ValueError("the command is empty")
    if shutil.which(argv[0]) is None:
        raise ValueError(f"{argv[0]}: no such program")
    return argv

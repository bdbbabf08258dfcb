"""The bot's side of the line protocol (docs/bot-protocol.md): one bot served over a pair of pipes.

The host writes one JSON object per line: ``hello`` before the first decision and again at each
new game (the bot starts afresh, seeded by the hello's ``seed`` when there is one), ``decide``
for each decision (the wire form of the seat's view), ``error`` when it refused an answer, ``bye``
at the end. To each ``decide`` the bot answers ``{"id": n, "action": words}``,
or ``{"id": n, "error": why}`` when it cannot decide. The bot reads its view back with
:func:`atout.engine.wire.view_from_json`: nothing but that text reaches it from the host.

>>> import io
>>> from atout.engine.french import FrenchDeal
>>> view = FrenchDeal.new(rng=1).view(1)
>>> host = io.StringIO(
...     json.dumps({"type": "hello", "protocol": 1, "seat": 1, "game": "french"}) + "\\n"
...     + json.dumps({"type": "decide", "id": 1, "view": view.to_json()}) + "\\n"
...     + json.dumps({"type": "bye"}) + "\\n"
... )
>>> answers = io.StringIO()
>>> from atout.bots.rules import RulesBot
>>> serve(lambda seed: RulesBot(), None, host, answers, io.StringIO())
0
>>> answers.getvalue()
'{"id":1,"action":"pass"}\\n'
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable
from typing import IO, Any, Final

from atout.bots.base import Bot
from atout.bots.registry import unsupported
from atout.engine.wire import WireError, action_to_json, view_from_json

PROTOCOL: Final = 1
"""The version of the line protocol (the wire format of views has its own, also 1)."""

EXIT_PROTOCOL: Final = 2
"""The exit code of a bot that cannot speak the host's protocol version."""

BotMaker = Callable[[int | None], Bot]
"""A fresh bot from a seed; called at the start and at each ``hello``."""


def serve(make: BotMaker, seed: int | None, stdin: IO[str], stdout: IO[str], stderr: IO[str]) -> int:
    """Answer the host's messages on ``stdin`` until ``bye`` or the end of input; the exit code.

    Each ``hello`` makes a new bot, with the hello's seed or else ``seed`` (as at the start).
    Lines that are not JSON objects, and messages of an unknown type, are reported on
    ``stderr`` and skipped (a later protocol may add types)."""
    bot = make(seed)
    while line := stdin.readline():
        if not line.strip():
            continue
        try:
            message: Any = json.loads(line)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            stderr.write(f"bot: skipped a line that is not a JSON object: {line.strip()[:80]!r}\n")
            continue
        kind = message.get("type")
        if kind == "decide":
            answer = decide(bot, message, stderr)
            stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
            stdout.flush()
        elif kind == "hello":
            version = message.get("protocol")
            if version != PROTOCOL:
                stderr.write(f"bot: this bot speaks protocol {PROTOCOL}, the host {version!r}\n")
                return EXIT_PROTOCOL
            new_seed = message.get("seed")
            bot = make(new_seed if isinstance(new_seed, int) and not isinstance(new_seed, bool) else seed)
        elif kind == "error":
            stderr.write(f"bot: the host says: {message.get('message')}\n")
        elif kind == "bye":
            return 0
        else:
            stderr.write(f"bot: skipped a message of unknown type {kind!r}\n")
    return 0


def decide(bot: Bot, message: dict[str, Any], stderr: IO[str]) -> dict[str, Any]:
    """The answer to one ``decide`` message: the bot's action in words, or an ``error`` (a failing
    bot's traceback goes to ``stderr``)."""
    ident = message.get("id")
    try:
        view = view_from_json(message.get("view"))
    except WireError as exc:
        return {"id": ident, "error": f"unreadable view: {exc}"}
    if not view.legal_actions:
        return {"id": ident, "error": f"seat {view.seat} has nothing to decide in this view"}
    why = unsupported(bot, view.rules)
    if why is not None:
        return {"id": ident, "error": why}
    try:
        action = bot.choose(view, view.legal_actions)
    except Exception as exc:  # the bot's own failure: told to the host, the details on stderr
        traceback.print_exc(file=stderr)
        return {"id": ident, "error": f"the {bot.name} bot failed: {type(exc).__name__}: {exc}"}
    return {"id": ident, "action": action_to_json(action, view.rules)}

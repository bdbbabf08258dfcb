"""``atout arena --bot-command``: any program speaking the bot protocol is measured like a bot by
name, on the same duplicate deals, and a command that cannot run is refused in one line."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

FIRST_LEGAL = """\
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "decide":
        answer = {"id": message["id"], "action": message["view"]["legal_actions"][0]}
        print(json.dumps(answer), flush=True)
    elif message["type"] == "bye":
        break
"""


def _report(atout: Any, *args: str) -> dict[str, Any]:
    result = atout("arena", "--deals", "3", "--seed", "5", "--json", *args)
    assert result.exit_code == 0, result.output + result.stderr
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def test_a_program_plays_the_same_deals_as_the_bot_it_serves(atout: Any) -> None:
    """The rules bot as a program (``atout bot-serve rules``) scores exactly what the rules bot
    by name scores on the same deals: the program is the candidate in every seat of both halves."""
    command = shlex.join([sys.executable, "-m", "atout", "bot-serve", "rules"])
    by_program = _report(atout, "--bot-command", command, "--baseline", "random", "--reference", "random")
    by_name = _report(atout, "--candidate", "rules", "--baseline", "random", "--reference", "random")
    assert by_program["candidate_bot"] == command
    for side in ("candidate", "baseline"):
        del by_program[side]["ms_per_decision"], by_name[side]["ms_per_decision"]
        assert by_program[side] == by_name[side]
    assert by_program["mean_d"] == by_name["mean_d"]


@pytest.mark.parametrize("game", [["--players", "3"], ["--rules", "tarock"]])
def test_a_program_in_another_game(atout: Any, tmp_path: Path, game: list[str]) -> None:
    """A program that always answers the first legal action plays whole deals of any game."""
    bot = tmp_path / "first.py"
    bot.write_text(FIRST_LEGAL, encoding="utf-8")
    report = _report(atout, "--bot-command", f"{sys.executable} {bot}", *game)
    assert report["games_played"] == 2 * 3 * 3  # both halves, three deals, each of the three seats
    assert report["candidate"]["mean_score"] != report["baseline"]["mean_score"]


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("no-such-program --x", "--bot-command: no program 'no-such-program' found"),
        ("python3 'unclosed", "--bot-command: No closing quotation"),
        ("   ", "--bot-command needs a program"),
    ],
)
def test_a_command_that_cannot_run_is_refused(atout: Any, command: str, message: str) -> None:
    result = atout("arena", "--deals", "1", "--bot-command", command)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output + result.stderr


def test_a_program_that_answers_nonsense_ends_the_run_in_one_line(atout: Any, tmp_path: Path) -> None:
    bot = tmp_path / "bad.py"
    bot.write_text(FIRST_LEGAL.replace('message["view"]["legal_actions"][0]', '"play ZZ"'), encoding="utf-8")
    result = atout("arena", "--deals", "1", "--bot-command", f"{sys.executable} {bot}")
    assert result.exit_code == 2
    assert "answered 'play ZZ'" in result.stderr and "not an action" in result.stderr
    assert "Traceback" not in result.output + result.stderr


def test_a_bot_in_javascript(atout: Any) -> None:
    """docs/research.md's bot in another language: examples/bots/highest_card.js under Node.js."""
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("Node.js (node) is missing: the JavaScript bot example cannot be run")
        pytest.skip("Node.js is not installed")
    bot = Path(__file__).resolve().parents[2] / "examples" / "bots" / "highest_card.js"
    report = _report(atout, "--bot-command", shlex.join([node, str(bot)]), "--baseline", "random")
    assert report["candidate"]["bids"] == {"pass": 3 * 4}
    assert report["games_played"] == 2 * 3 * 4

"""Bots in child processes (docs/bot-protocol.md), with real processes: a bot in the host's process
reaches the deal through the garbage collector, a process bot holds none; process bots play
every game exactly as the same bots in the host's process; the example bot of the doc plays as
written; a killed, hanging, babbling or cheating bot gets a clear error naming it."""

from __future__ import annotations

import dataclasses
import gc
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from atout.arena import ArenaSetup, run_arena
from atout.bots.base import Bot, View
from atout.bots.process import BotDied, BotError, BotTimeout, ProcessBot, process_bot
from atout.bots.registry import make_bot
from atout.cards import NAMES
from atout.cli.main import app
from atout.engine.french import FrenchDeal
from atout.games import Game, new_deal
from atout.presets import rules_for
from atout.rules import Rules

HERE = Path(__file__).resolve().parent
DOC = HERE.parent.parent / "docs" / "bot-protocol.md"
GAMES = {
    "french-2": Rules(players=2),
    "french-3": Rules(players=3),
    "french-4": Rules(players=4),
    "french-5": Rules(players=5),
    "dead-player-5": Rules(players=5, five_player_mode="dead_player"),
    "austrian": rules_for("tarock"),
}


def play(deal: Game, bots: Sequence[Bot]) -> list[int]:
    """Play the deal to its end; every action applied."""
    history = []
    while not deal.is_over():
        seat = deal.current_player
        action = bots[seat].choose(deal.view(seat), deal.legal_actions())
        deal.apply(action)
        history.append(int(action))
    return history


def script(code: str, name: str, **options: Any) -> ProcessBot:
    """A bot that is a few lines of plain Python (no atout): ``code`` runs once per line read,
    with ``message`` the host's message."""
    program = "import json, sys, time\nfor line in sys.stdin:\n    message = json.loads(line)\n" + "".join(
        f"    {row}\n" for row in code.strip().splitlines()
    )
    return ProcessBot([sys.executable, "-c", program], name=name, **options)


# ---------------------------------------------------------------------- the deal out of reach
class Peeker:
    """A bot in the host's process that looks for the deal through the garbage collector."""

    name = "peeker"

    def __init__(self) -> None:
        self.found: list[FrenchDeal] = []

    def choose(self, view: View, legal: Sequence[int]) -> int:
        self.found = [o for o in gc.get_objects() if type(o) is FrenchDeal]  # not a weak proxy's target
        return legal[0]


def test_a_bot_in_the_hosts_process_finds_the_deal_and_every_hand_through_gc() -> None:
    deal = FrenchDeal.new(Rules(players=4), rng=1)
    peeker = Peeker()
    peeker.choose(deal.view(0), deal.legal_actions())
    assert deal in peeker.found
    assert peeker.found[peeker.found.index(deal)].hands[2] == deal.hands[2]  # another seat's hand


def test_a_process_bot_holds_no_deal_only_views_of_its_seat(tmp_path: Path) -> None:
    report = tmp_path / "report.txt"
    deal = new_deal(Rules(players=4), rng=0)
    with ProcessBot([sys.executable, str(HERE / "gc_probe_bot.py"), str(report)], name="probe") as probe:
        bots: list[Bot] = [make_bot("rules"), probe, make_bot("rules"), make_bot("rules")]
        play(deal, bots)
    counts = [tuple(map(int, line.split())) for line in report.read_text().splitlines()]
    assert len(counts) > 15  # every decision of seat 1, bid and cards
    assert all(deals == 0 and views >= 1 for deals, views in counts)  # the scan sees the view


# ---------------------------------------------------------------------- the same play
@pytest.mark.parametrize("spec", ["rules", "random"])
def test_process_bots_play_every_game_exactly_as_in_process(spec: str) -> None:
    children = [process_bot(spec) for _ in range(5)]
    try:
        for child in children:
            child.start()
        for number, (name, rules) in enumerate(GAMES.items()):
            seeds = [100 * number + seat for seat in range(rules.players)]
            local = play(new_deal(rules, rng=0), [make_bot(spec, rng=s) for s in seeds])
            for child, seed in zip(children, seeds, strict=False):
                child.reset(seed)  # a new game: a hello with the seed
            remote = play(new_deal(rules, rng=0), children)
            assert remote == local, name
            assert len(local) > 40, name  # cards were played
    finally:
        for child in children:
            child.close()


def test_the_expert_in_processes_plays_a_deal_exactly_as_in_process() -> None:
    rules = Rules(players=4)
    children = [process_bot("expert:fast", seed=seat) for seat in range(4)]
    for child in children:
        child.start()
    try:
        local = play(new_deal(rules, rng=1), [make_bot("expert:fast", rng=seat) for seat in range(4)])
        assert play(new_deal(rules, rng=1), children) == local
        assert len(local) > 70
    finally:
        for child in children:
            child.close()


def test_the_arena_isolated_gives_the_same_report() -> None:
    setup = ArenaSetup(Rules(players=3), "rules", "random", "random", deals=1, seed=4)
    plain = run_arena(setup)
    isolated = run_arena(dataclasses.replace(setup, isolate=True))

    def results(report: dict[str, Any]) -> dict[str, Any]:
        for side in ("candidate", "baseline"):
            report[side].pop("ms_per_decision")
        return {k: v for k, v in report.items() if k != "seconds"}

    assert results(isolated) == results(plain)


# ---------------------------------------------------------------------- the example bot of the doc
def example_bot(tmp_path: Path) -> Path:
    """The example bot of docs/bot-protocol.md, written out as the doc says."""
    section = DOC.read_text(encoding="utf-8").split("## An example bot", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert code is not None
    assert "atout" not in re.sub(r"#.*|\"\"\".*?\"\"\"|\"[^\"]*\"", "", code.group(1), flags=re.S)
    path = tmp_path / "mybot.py"
    path.write_text(code.group(1), encoding="utf-8")
    return path


def test_the_example_bot_of_the_doc_plays_a_whole_deal(tmp_path: Path) -> None:
    path = example_bot(tmp_path)
    deal = new_deal(Rules(players=4), rng=0)
    with ProcessBot([sys.executable, str(path)]) as first, ProcessBot([sys.executable, str(path)]) as second:
        history = play(deal, [first, make_bot("rules"), second, make_bot("rules")])
        assert deal.is_over() and len(history) > 70
        first.close()
        assert "mybot: seat 0, french" in first.stderr_lines  # it read its hello


def test_atout_play_takes_an_external_bot_command(tmp_path: Path) -> None:
    command = shlex.join([sys.executable, str(example_bot(tmp_path))])
    answers = "\n".join(["garde", "no", "no_poignee", *NAMES] * 30) + "\n"
    args = ["play", "--seed", "3", "--deals", "1", "--bot-command", command]
    result = CliRunner().invoke(app, args, input=answers)
    assert result.exit_code == 0, result.output[-2000:]
    assert "You bid garde" in result.stdout  # the example bots pass: you take
    assert re.search(r"^Scores: ", result.stdout, re.MULTILINE)


def test_atout_play_ends_with_one_clear_line_when_its_bot_command_babbles() -> None:
    program = 'import sys\nfor line in sys.stdin:\n    if "decide" in line: print("hello", flush=True)'
    command = shlex.join([sys.executable, "-c", program])
    result = CliRunner().invoke(app, ["play", "--seed", "3", "--bot-command", command], input="pass\n" * 5)
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"error: bot {command!r} answered decision 1 with 'hello', which is not JSON")


def test_atout_play_refuses_a_bot_command_without_a_program() -> None:
    result = CliRunner().invoke(app, ["play", "--bot-command", "no-such-program-here --x"], input="quit\n")
    assert result.exit_code == 2
    assert "error: --bot-command: no-such-program-here: no such program" in result.stderr


# ---------------------------------------------------------------------- failures
def test_a_child_killed_mid_deal_gives_a_clear_error_and_a_restart_finishes_the_deal() -> None:
    deal = new_deal(Rules(players=4), rng=0)
    others = make_bot("rules")
    with process_bot("rules") as bot:
        bots: list[Bot] = [others, bot, others, others]
        for _ in range(12):  # the bids and a few cards
            seat = deal.current_player
            deal.apply(bots[seat].choose(deal.view(seat), deal.legal_actions()))
        while deal.current_player != 1:
            deal.apply(others.choose(deal.view(deal.current_player), deal.legal_actions()))
        pid = bot.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(BotDied, match=r"^bot 'rules': its process was killed by SIGKILL"):
            bot.choose(deal.view(1), deal.legal_actions())
        assert bot.pid is None
        play(deal, bots)  # the next decision starts a new child
        assert deal.is_over() and bot.starts == 2


def test_a_restarted_child_has_the_start_allowance_again() -> None:
    """A child slow to start (1.2 s) against a decision limit of 0.5 s: the first decision of
    each child, the restarted one too, has the start allowance on top."""
    program = (
        "import json, sys, time\ntime.sleep(1.2)\nfor line in sys.stdin:\n    message = json.loads(line)\n"
        '    if message["type"] == "decide": print(json.dumps({"id": message["id"], "action": "pass"}), flush=True)'
    )
    deal = new_deal(Rules(players=4), rng=1)
    with ProcessBot([sys.executable, "-c", program], name="slow", timeout=0.5, start_timeout=10) as bot:
        assert str(bot.choose(deal.view(1), deal.legal_actions())) == "pass"
        assert str(bot.choose(deal.view(1), deal.legal_actions())) == "pass"
        pid = bot.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(BotDied):
            bot.choose(deal.view(1), deal.legal_actions())
        assert str(bot.choose(deal.view(1), deal.legal_actions())) == "pass"
        assert bot.starts == 2


def test_a_child_that_dies_while_deciding_names_its_exit_and_last_words() -> None:
    deal = new_deal(Rules(players=4), rng=0)
    bot = script(
        'if message["type"] == "decide":\n    print("about to fail", file=sys.stderr, flush=True)\n    sys.exit(3)',
        name="quitter",
    )
    with bot, pytest.raises(BotDied) as caught:
        bot.choose(deal.view(0), deal.legal_actions())
    assert str(caught.value) == (
        "bot 'quitter': its process ended with exit code 3 during decision 1; its last words on stderr: about to fail"
    )


def test_a_child_killed_while_deciding_is_reported() -> None:
    deal = new_deal(Rules(players=4), rng=0)
    with script("time.sleep(30)", name="sleeper") as bot:
        bot.start()
        pid = bot.pid
        assert pid is not None
        threading.Timer(0.5, os.kill, (pid, signal.SIGKILL)).start()
        with pytest.raises(BotDied, match=r"killed by SIGKILL during decision 1"):
            bot.choose(deal.view(0), deal.legal_actions())


def test_a_bot_that_hangs_hits_the_timeout_and_its_child_is_stopped() -> None:
    deal = new_deal(Rules(players=4), rng=0)
    with script("pass", name="silent", timeout=1.0, start_timeout=0.0) as bot:
        bot.start()
        pid = bot.pid
        start = time.monotonic()
        with pytest.raises(
            BotTimeout, match=r"^bot 'silent': no answer to decision 1 within 1 s; its process was stopped"
        ):
            bot.choose(deal.view(0), deal.legal_actions())
        assert 0.9 < time.monotonic() - start < 10
        assert bot.pid is None and pid is not None
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # gone


ANSWER = 'if message["type"] == "decide":\n    print({answer}, flush=True)'
BAD_ANSWERS = [
    (
        "'hello'",
        r"bot 'babbler' answered decision 1 with 'hello', which is not JSON",
    ),
    (
        "json.dumps([1])",
        r"bot 'babbler' answered decision 1 with '\[1\]', not a JSON object",
    ),
    (
        'json.dumps({"id": 9, "action": "pass"})',
        r"bot 'babbler' answered id 9 to decision 1",
    ),
    (
        'json.dumps({"id": message["id"], "action": "dance"})',
        r"bot 'babbler' answered 'dance' to decision 1: not an action \(",
    ),
    (
        'json.dumps({"id": message["id"], "action": "play KS"})',
        r"bot 'babbler' answered 'play KS' to decision 1, which is not legal now; legal: pass, petite, garde",
    ),
    (
        'json.dumps({"id": message["id"], "error": "out of ideas"})',
        r"bot 'babbler' could not decide 1: out of ideas",
    ),
]


@pytest.mark.parametrize("answer, error", BAD_ANSWERS, ids=[a for a, _ in BAD_ANSWERS])
def test_a_bad_answer_gets_a_clear_error_naming_the_bot_and_what_it_said(answer: str, error: str) -> None:
    deal = new_deal(Rules(players=4), rng=1)
    with script(ANSWER.format(answer=answer), name="babbler") as bot, pytest.raises(BotError, match=error):
        bot.choose(deal.view(1), deal.legal_actions())


def test_the_bot_is_told_why_its_answer_was_refused_and_may_answer_again() -> None:
    code = (
        'if message["type"] == "error": print("refused:", message["message"], file=sys.stderr, flush=True)\n'
        'if message["type"] == "decide":\n'
        '    print(json.dumps({"id": message["id"], "action": "play KS" if message["id"] == 1 else "pass"}), flush=True)'
    )
    deal = new_deal(Rules(players=4), rng=1)
    with script(code, name="learner") as bot:
        with pytest.raises(BotError, match="not legal now"):
            bot.choose(deal.view(1), deal.legal_actions())
        assert str(bot.choose(deal.view(1), deal.legal_actions())) == "pass"  # the same child
        bot.close()
    assert any(line.startswith("refused: bot 'learner' answered 'play KS'") for line in bot.stderr_lines)
    assert bot.starts == 1


def test_a_command_that_cannot_start_is_named() -> None:
    deal = new_deal(Rules(players=4), rng=1)
    with pytest.raises(BotDied, match=r"^bot 'ghost': cannot start /no/such/bot: No such file or directory"):
        ProcessBot(["/no/such/bot"], name="ghost").choose(deal.view(1), deal.legal_actions())


def test_a_garbage_collected_process_bot_kills_its_child() -> None:
    bot = process_bot("rules")
    bot.start()
    pid = bot.pid
    assert pid is not None
    del bot
    gc.collect()
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped: killed and waited for


# ---------------------------------------------------------------------- atout bot-serve
def test_bot_serve_answers_decisions_skips_noise_and_leaves_at_bye() -> None:
    view = new_deal(Rules(players=4), rng=1).view(1).to_json()
    lines = [
        {"type": "hello", "protocol": 1, "seat": 1, "game": "french", "seed": 5},
        "not json",
        {"type": "decide", "id": 1, "view": view},
        {"type": "later", "what": "a message of a later protocol"},
        {"type": "decide", "id": 2, "view": {**view, "hand": ["ZZ"]}},
        {"type": "bye"},
        {"type": "decide", "id": 3, "view": view},
    ]
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    done = subprocess.run(
        [sys.executable, "-P", "-m", "atout", "bot-serve", "rules"],
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers[0] == {"id": 1, "action": "pass"}
    assert answers[1]["id"] == 2 and answers[1]["error"].startswith("unreadable view: hand[0]: ")
    assert len(answers) == 2  # nothing after bye
    assert "skipped a line that is not a JSON object: 'not json'" in done.stderr
    assert "skipped a message of unknown type 'later'" in done.stderr


@pytest.mark.parametrize(
    "args, hello, error",
    [
        (["nope"], {}, "error: bot-serve: unknown bot 'nope'"),
        (["cheat"], {}, "error: bot-serve: the cheat bot sees every card"),
        (["rules"], {"type": "hello", "protocol": 2}, "bot: this bot speaks protocol 1, the host 2"),
    ],
)
def test_bot_serve_refuses_what_it_cannot_serve(args: list[str], hello: dict[str, Any], error: str) -> None:
    done = subprocess.run(
        [sys.executable, "-P", "-m", "atout", "bot-serve", *args],
        input=json.dumps(hello) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert error in done.stderr
    assert done.stdout == ""

"""``atout play``: one deal typed at the terminal against computer players.

The deals are driven with scripted stdin: a long list of candidate answers (a bid, a chelem and a
poignée answer, then every card of the pack in order, repeated). The illegal ones are refused with a
message and the prompt comes again, so the deal always reaches its end."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from atout.cards import NAMES
from atout.records import load_record, replay


def answers(bid: str = "pass", rounds: int = 30) -> str:
    """Candidate answers for every prompt, repeated ``rounds`` times."""
    cycle = [bid, "no", "no_poignee", *NAMES]
    return "\n".join(cycle * rounds) + "\n"


def score_line(stdout: str) -> list[int]:
    match = re.search(r"^Scores: (.*)$", stdout, re.MULTILINE)
    assert match, stdout[-2000:]
    return [int(v) for v in re.findall(r"[+-]\d+", match.group(1))]


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_full_deal_ends_with_the_scores(atout: Any, players: int, seed: int) -> None:
    result = atout("play", "--players", str(players), "--seed", str(seed), input=answers())
    assert result.exit_code == 0, result.output[-2000:]
    scores = score_line(result.stdout)
    assert len(scores) == players and sum(scores) == 0
    assert "You leave the table" not in result.stdout


def test_illegal_answers_are_refused_and_the_prompt_repeats(atout: Any) -> None:
    result = atout("play", "--seed", "1", input=answers())
    out = result.stdout
    assert "Not allowed: " in out
    # said in words (rule book §3.8): no card code, no seat counted from 0
    assert re.search(r"Not allowed: You do not hold the [\w ]+\. \(rule book §3\.8", out)
    refusals = re.findall(r"Not allowed: (.*)", out)
    assert not any(re.search(r"\b(T\d+|EX|\d+[SHDC]|[KQCJ][SHDC])\b|\bseat \d", r) for r in refusals)
    # every refusal is followed by the same prompt again
    assert out.count("Your card") > 18
    assert "You play " in out


def test_a_taker_calls_discards_and_declares_then_plays_to_the_end(atout: Any) -> None:
    # seed 57: random computer players (in their processes) all pass after "garde": you take with five
    result = atout("play", "--players", "5", "--seed", "57", "--bot", "random", input=answers(bid="garde"))
    out = result.stdout
    assert result.exit_code == 0
    assert "You bid garde (×2)." in out  # a bid told with its multiplier
    assert re.search(r"You call K\S+\.$", out, re.MULTILINE)
    assert "Call a card" in out and "Discard a card" in out
    assert len(re.findall(r"You discard \S+\.$", out, re.MULTILINE)) == 3
    assert "Announce a chelem?" in out
    assert len(score_line(out)) == 5


def test_narration_speaks_to_you_in_the_second_person() -> None:
    from atout.cli.render import describe_event
    from atout.engine.events import Call, ChelemDecided, DiscardShown, ExcuseKept

    lines = {
        event.kind: describe_event(event, you=0)
        for event in (Call(0, 13), ChelemDecided(0, True), DiscardShown(0, 60), ExcuseKept(0, 2))
    }
    assert all(line is not None and line.startswith("You ") for line in lines.values())
    assert lines["call"] is not None and lines["call"].startswith("You call ")
    assert lines["chelem"] == "You announce a [bold]chelem[/]!"
    assert lines["discard_shown"] is not None and lines["discard_shown"].startswith("You put the trump ")
    assert lines["excuse_kept"] == "You keep the Excuse and owe a low card to Seat 3."
    assert describe_event(Call(1, 13), you=0) == describe_event(Call(1, 13))
    assert str(describe_event(ExcuseKept(1, 0), you=0)).endswith(
        "keeps the Excuse and owes a low card to You."
    )


def test_quit_leaves_cleanly(atout: Any) -> None:
    result = atout("play", "--seed", "1", input="quit\n")
    assert result.exit_code == 0
    assert "You leave the table." in result.stdout
    assert "Scores" not in result.stdout
    assert result.stdout.rstrip().endswith("Session totals: no deal finished.")
    assert result.stderr == ""


def test_end_of_input_leaves_cleanly(atout: Any) -> None:
    result = atout("play", "--seed", "1", input="")
    assert result.exit_code == 0
    assert "You leave the table." in result.stdout
    assert result.exception is None


def test_an_unknown_word_shows_an_error_and_prompts_again(atout: Any) -> None:
    result = atout("play", "--seed", "1", input="dance\nquit\n")
    out = result.stdout
    assert result.exit_code == 0
    assert "not an action: 'dance'" in out
    assert out.count("Your bid") == 2


def test_help_and_hand_answer_without_acting(atout: Any) -> None:
    result = atout("play", "--seed", "1", input="help\nhand\nquit\n")
    out = result.stdout
    assert "Type a card as rank then suit" in out
    assert out.count("Your hand: ") == 2
    assert out.count("Your bid") == 3


def test_save_writes_a_record_that_replay_reads_back_with_the_same_scores(atout: Any, tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    result = atout("play", "--seed", "4", "--save", str(path), input=answers())
    assert result.exit_code == 0
    assert f"Record written to {path}" in " ".join(result.stdout.split())
    played_scores = score_line(result.stdout)
    record = load_record(path)
    assert record["seed"] == 4
    assert record["result"]["scores"] == played_scores
    assert replay(record).scores() == played_scores
    shown = atout("replay", str(path))
    assert shown.exit_code == 0
    assert score_line(shown.stdout) == played_scores


def test_save_after_quitting_writes_a_record_of_the_unfinished_deal(atout: Any, tmp_path: Path) -> None:
    path = tmp_path / "half.json"
    result = atout("play", "--seed", "1", "--save", str(path), input="pass\nquit\n")
    assert result.exit_code == 0
    record = json.loads(path.read_text(encoding="utf-8"))
    assert "result" not in record
    assert record["actions"][0] == "pass"
    assert not replay(record).is_over()
    told = atout("replay", str(path))
    assert told.exit_code == 0 and told.stdout.rstrip().endswith(
        "Unfinished: the record stops here, seat 1 to act."
    )


def test_the_same_seed_and_answers_play_the_same_deal(atout: Any) -> None:
    first = atout("play", "--seed", "8", input=answers())
    second = atout("play", "--seed", "8", input=answers())
    assert first.stdout == second.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "5"], "--seat must be 1..4"),
        (["--seat", "0"], "--seat must be 1..4"),
        (["--players", "3", "--seat", "4"], "--seat must be 1..3"),
    ],
)
def test_a_bad_seat_exits_2(atout: Any, args: list[str], message: str) -> None:
    result = atout("play", *args, input="quit\n")
    assert result.exit_code == 2
    assert result.stderr == f"error: {message}\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "7"], "error: players must be 2, 3, 4 or 5"),
        (["--players", "6"], "error: players must be 2, 3, 4 or 5 for French Tarot, not 6"),
        (["-o", "nope=1"], "error: unknown option 'nope'"),
    ],
)
def test_bad_rules_exit_2(atout: Any, args: list[str], message: str) -> None:
    result = atout("play", *args, input="quit\n")
    assert result.exit_code == 2
    assert result.stderr.startswith(message)


def test_any_seat_may_play(atout: Any) -> None:
    result = atout("play", "--seat", "3", "--seed", "1", input=answers())
    assert result.exit_code == 0
    scores = score_line(result.stdout)
    assert len(scores) == 4
    assert "You " in result.stdout.split("Scores: ")[1].split(",")[2]


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_play_in_a_real_terminal_prompts_and_quits() -> None:
    import pty

    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "atout", "play", "--seed", "1"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env={**os.environ, "TERM": "xterm", "COLUMNS": "120"},
        close_fds=True,
    )
    os.close(follower)
    seen = b""

    def read_until(marker: bytes, timeout: float = 30.0) -> None:
        nonlocal seen
        deadline = time.monotonic() + timeout
        while marker not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.2)
            if ready:
                try:
                    seen += os.read(leader, 4096)
                except OSError:
                    break
        assert marker in seen, seen[-500:]

    try:
        read_until(b"Your bid")
        os.write(leader, b"quit\n")
        read_until(b"You leave the table.")
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(leader)


def test_the_computer_players_are_chosen_by_name(atout: Any) -> None:
    for bot in ("rules", "expert:strong"):
        result = atout("play", "--seed", "3", "--bot", bot, input="quit\n")
        assert result.exit_code == 0, result.stdout
    for bot, message in (
        ("cheat", "arena only"),
        ("wizard", "unknown bot"),
        ("expert:huge", "unknown expert level"),
    ):
        result = atout("play", "--bot", bot, input="quit\n")
        assert result.exit_code == 2
        assert message in result.stderr + result.stdout
        assert "Traceback" not in result.stderr + result.stdout


@pytest.mark.magmacrunch
def test_the_independent_bot_plays_only_the_four_player_french_game(atout: Any) -> None:
    result = atout("play", "--seed", "3", "--bot", "magmacrunch", input="quit\n")
    assert result.exit_code == 0, result.stdout
    result = atout("play", "--bot", "magmacrunch", "--players", "5", input="quit\n")
    assert result.exit_code == 2
    assert "plays only the 4-player French game" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_without_the_independent_bots_package_play_says_how_to_install_it(
    atout: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "tarot.rules", None)  # an import of it now fails
    result = atout("play", "--bot", "magmacrunch", input="quit\n")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --bot: the magmacrunch bot needs the magmacrunch-tarot package")
    assert "pip install 'atout[magmacrunch]'" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_bot_option_lists_only_the_bots_it_accepts(atout: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from atout.bots import magmacrunch
    from atout.cli.play import _bots_help, playable_bots

    expected = ["random", "rules", "expert"] + (["magmacrunch"] if magmacrunch.installed() else [])
    assert list(playable_bots()) == expected
    shown = " ".join(atout("play", "--help").stdout.replace("│", " ").split())
    assert "The computer players: random, rules, expert (expert:strong for its strong level)" in shown
    assert all(name in shown for name in expected) and "cheat" not in shown
    unknown = atout("play", "--bot", "wizard", input="quit\n")
    assert unknown.exit_code == 2
    assert unknown.stderr == f"error: --bot: unknown bot 'wizard'; bots: {', '.join(expected)}\n"

    monkeypatch.setitem(sys.modules, "tarot.rules", None)  # the independent bot's package is missing
    assert playable_bots() == ("random", "rules", "expert")
    assert "magmacrunch" not in _bots_help()
    unknown = atout("play", "--bot", "wizard", input="quit\n")
    assert unknown.stderr == "error: --bot: unknown bot 'wizard'; bots: random, rules, expert\n"

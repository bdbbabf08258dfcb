"""``atout play`` as players expect it: a session of deals with running totals and a rematch, the
bids' worth, the contract reminded during play, the ``last`` and ``score`` commands, the end of a
deal told term by term, and the defects found at the table (Ctrl-C and ``--save``, the 2-player
game's wording)."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from atout.cards import NAMES, count_bouts, parse_card
from atout.personas import persona_name, personas
from atout.records import load_record, replay
from atout.rules import Rules


def answers(bid: str = "pass", rounds: int = 30) -> str:
    """Candidate answers for every prompt (as in test_play.py): illegal ones are refused and asked again."""
    cycle = [bid, "no", "no_poignee", *NAMES]
    return "\n".join(cycle * rounds) + "\n"


def score_line(stdout: str) -> list[int]:
    match = re.search(r"^Scores: (.*)$", stdout, re.MULTILINE)
    assert match, stdout[-2000:]
    return [int(v) for v in re.findall(r"[+-]\d+", match.group(1))]


ATOUT_PLAY = (sys.executable, "-m", "atout", "play")
ALL_PASS_SEED = 7
"""With ``--bot rules`` (in their processes, seeded from the session's seed), everyone passes in the
first two deals when you pass too."""


def bot_name(seed: int, seat: int, players: int = 4) -> str:
    """The name the terminal game gives the computer player at ``seat`` (atout.personas)."""
    return persona_name(personas(f"terminal/{seed}", players)[seat])


def bots_zero(seed: int) -> str:
    """The three computer players of a 4-player session, each at +0."""
    return ", ".join(f"{bot_name(seed, s)} +0" for s in (1, 2, 3))


def totals(line_start: str, out: str) -> list[int]:
    match = re.search(rf"^{line_start} after \d+ deals?: (.*)$", out, re.MULTILINE)
    assert match, out[-2000:]
    return [int(v) for v in re.findall(r"[+-]\d+", match.group(1))]


# ---------------------------------------------------------------- the session


def test_a_session_asks_for_another_deal_and_the_dealer_rotates(atout: Any) -> None:
    out = atout("play", "--seed", str(ALL_PASS_SEED), "--bot", "rules", input="pass\n\npass\nn\n").stdout
    assert out.count("Another deal? [Y/n]") == 2
    assert (
        f"Deal 1: {bot_name(ALL_PASS_SEED, 3)} deals." in out and "Deal 2: You deal." in out
    )  # to the right (§3.1)
    assert "Totals after 1 deal: You +0" in out
    assert f"Session totals after 2 deals: You +0, {bots_zero(ALL_PASS_SEED)}" in out


def test_the_dealer_rotates_clockwise_under_that_option(atout: Any) -> None:
    result = atout(
        "play", "--seed", "10", "--bot", "rules", "-o", "play_direction=clockwise", input="pass\ny\nquit\n"
    )
    out = result.stdout
    assert f"Deal 1: {bot_name(10, 3)} deals." in out
    if "Another deal?" in out:  # this deal too was passed out
        assert f"Deal 2: {bot_name(10, 2)} deals." in out


def test_end_of_input_at_the_rematch_prompt_ends_with_the_session_totals(atout: Any) -> None:
    result = atout("play", "--seed", str(ALL_PASS_SEED), "--bot", "rules", input="pass\n")
    assert result.exit_code == 0 and result.exception is None
    assert result.stdout.rstrip().endswith(f"Session totals after 1 deal: You +0, {bots_zero(ALL_PASS_SEED)}")


def test_end_of_input_during_a_deal_ends_with_the_session_totals(atout: Any) -> None:
    result = atout("play", "--seed", str(ALL_PASS_SEED), "--bot", "rules", input="pass\n\n")
    out = result.stdout
    assert result.exit_code == 0 and result.exception is None
    assert "Deal 2: You deal." in out and "You leave the table." in out
    assert out.rstrip().endswith(f"Session totals after 1 deal: You +0, {bots_zero(ALL_PASS_SEED)}")


def test_a_wrong_rematch_answer_asks_again(atout: Any) -> None:
    out = atout("play", "--seed", str(ALL_PASS_SEED), "--bot", "rules", input="pass\nmaybe\nno\n").stdout
    assert "Answer y (another deal) or n (stop here)." in out
    assert out.count("Another deal? [Y/n]") == 2 and "Deal 2" not in out


def test_deals_plays_that_many_deals_with_running_totals(atout: Any) -> None:
    result = atout("play", "--seed", "4", "--deals", "2", "--bot", "random", input=answers(rounds=80))
    out = result.stdout
    assert result.exit_code == 0
    assert "Another deal?" not in out
    rows = [[int(v) for v in re.findall(r"[+-]\d+", m)] for m in re.findall(r"^Scores: (.*)$", out, re.M)]
    assert len(rows) == 2
    first = [int(v) for v in re.findall(r"[+-]\d+", re.findall(r"^Totals after 1 deal: (.*)$", out, re.M)[0])]
    assert first == rows[0]
    assert totals("Session totals", out) == [a + b for a, b in zip(*rows, strict=True)]
    assert "Deal 2: You deal." in out


def test_deals_must_be_positive(atout: Any) -> None:
    result = atout("play", "--deals", "0")
    assert result.exit_code == 2 and result.stderr == "error: --deals must be 1 or more\n"


def test_save_in_a_session_writes_one_record_per_deal(atout: Any, tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    atout(
        "play", "--seed", str(ALL_PASS_SEED), "--bot", "rules", "--save", str(path), input="pass\n\npass\nn\n"
    )
    first, second = load_record(path), load_record(tmp_path / "s-2.json")
    assert first["seed"] == ALL_PASS_SEED and "seed" not in second
    assert (first["dealer"], second["dealer"]) == (3, 0)
    assert replay(second).is_over()


# ---------------------------------------------------------------- at the prompts


def test_each_bid_is_shown_with_its_multiplier_and_the_points_needed(atout: Any) -> None:
    out = atout("play", "--seed", "3", input="quit\n").stdout
    hand = re.search(r"^Your hand: (.*)$", out, re.M)
    assert hand
    symbols = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
    cards = [parse_card(w[:-1] + symbols[w[-1]] if w[-1] in symbols else w) for w in hand.group(1).split()]
    bouts = count_bouts(sum(1 << c for c in cards))
    need = Rules().threshold(bouts)
    held = "no bout" if bouts == 0 else f"your {bouts} bout" + ("s" if bouts > 1 else "")
    for contract, mult in (("petite", 1), ("garde", 2), ("garde sans", 4), ("garde contre", 6)):
        assert f"{contract} (×{mult}, {need} points with {held})" in " ".join(out.split())


def test_the_contract_is_reminded_before_each_of_your_cards(atout: Any) -> None:
    out = atout("play", "--seed", "3", "--bot", "rules", input=answers(bid="garde")).stdout
    reminders = re.findall(r"Contract: garde \(×2\) by You; trick (\d+) of 18\.$", out, re.M)
    assert [int(n) for n in reminders] == list(range(1, 19))


def test_last_and_score_commands_answer_at_any_prompt(atout: Any) -> None:
    out = atout("play", "--seed", "3", "--bot", "rules", input="last\nscore\n" + answers(bid="garde")).stdout
    assert "No trick has been played yet." in out
    assert "No deal finished yet: every total is 0." in out
    played = atout(
        "play",
        "--seed",
        "3",
        "--bot",
        "rules",
        input="garde\n6C\n4S\n6S\n7S\n4H\n6H\nno\nKD\nlast\nscore\nquit\n",
    ).stdout
    names = [bot_name(3, s) for s in (1, 2, 3)]
    assert f"Trick 1: You K♦, {names[0]} 4♦, {names[1]} 8♦, {names[2]} 3♦; won by You." in played
    help_text = atout("play", "--seed", "3", input="help\nquit\n").stdout
    assert all(word in help_text for word in ("hand (", "last (", "score (", "help", "quit"))


def test_legal_cards_are_listed_in_the_hand_order_trumps_ascending() -> None:
    from atout.cli.render import hand_order

    cards = [parse_card(n) for n in ("KS", "T21", "1S", "EX", "T3", "QH", "10D", "T12")]
    assert [NAMES[c] for c in hand_order(cards)] == ["T3", "T12", "T21", "EX", "KS", "1S", "QH", "10D"]
    assert hand_order(sum(1 << c for c in cards)) == hand_order(cards)


def test_legal_cards_prompt_follows_the_hand(atout: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "300")
    out = atout("play", "--seed", "3", "--bot", "rules", input="garde\nquit\n").stdout
    hand = re.findall(r"^Your hand: (.*)$", out, re.M)[-1].split()
    legal = re.search(r"^Discard a card \((.*)\):", out, re.M)
    assert legal
    shown = legal.group(1).split()
    assert shown == [c for c in hand if c in shown]
    assert hand[:6] == ["T6", "T15", "T18", "T19", "T20", "T21"]


# ---------------------------------------------------------------- the end of a deal


def test_the_end_of_a_french_deal_shows_the_breakdown(atout: Any) -> None:
    out = atout("play", "--seed", "3", "--bot", "rules", "--deals", "1", input=answers(bid="garde")).stdout
    end = out[out.index("The attack has") :]
    assert "Contract: garde (×2) by You." in end
    assert re.search(r"^Points made: [\d.]+ with 1 bout; needed 51: (made|lost) by \d+\.$", end, re.M)
    assert re.search(r"^Base: \(25 \+ \d+\) × 2 = [+-]\d+ per defender, for the attack$", end, re.M)
    for line in ("Petit au bout: ", "Poignée: ", "Chelem: "):
        assert re.search(rf"^{line}", end, re.M)
    assert re.search(r"^(Each defender pays the attack|The attack pays each defender) \d+\.$", end, re.M)
    assert len(score_line(out)) == 4


def test_the_end_of_an_austrian_deal_shows_the_breakdown(atout: Any) -> None:
    cycle = ["threesome", "solo", "pass", "accept_first_half", "36_or_more", "35_or_less", *NAMES]
    result = atout(
        "play", "-r", "tarock", "--seed", "2", "--bot", "rules", "--deals", "1", input="\n".join(cycle * 30)
    )
    out = result.stdout
    assert result.exit_code == 0
    assert any(score_line(out))  # a played deal, not one passed out
    assert re.search(r"^Points made: \d+ of 70; needed (36 or more|35 or less): (won|lost)\.$", out, re.M)
    assert re.search(r"^Worth \d+ to (the declarer|each defender)\.$", out, re.M)
    assert re.search(r"^Contract: (threesome|solo)", out, re.M)


def test_breakdown_lines_name_petit_au_bout_poignee_and_chelem() -> None:
    from atout.cli.summary import breakdown_lines
    from atout.scoring import parse_summary

    summary = parse_summary(
        {
            "game": "french",
            "players": 4,
            "taker": 0,
            "contract": "garde",
            "oudlers": 2,
            "points": 49,
            "petit_au_bout": "attack",
            "poignees": [{"side": "defense", "level": "simple", "seat": 2}],
            "chelem": {"announced": False, "won_by": None},
        }
    )
    lines = breakdown_lines(summary, you=0)
    assert lines[0] == "Contract: garde (×2) by You."
    assert lines[1] == "Points made: 49 with 2 bouts; needed 41: made by 8."
    assert lines[2] == "Base: (25 + 8) × 2 = +66 per defender, for the attack"
    assert "Petit au bout: by the attack +20" in lines
    assert "Poignée: Seat 3 simple +20" in lines
    assert "Chelem: none" in lines
    assert lines[-1] == "Each defender pays the attack 106."


# ---------------------------------------------------------------- defects


def test_two_player_game_speaks_of_you_and_of_bouts_in_the_plural(atout: Any) -> None:
    from atout.cli.render import summary_line
    from atout.scoring import TwoPlayerSummary

    one = TwoPlayerSummary(Rules(players=2), (100, 82), (2, 1))
    line = summary_line(one, you=0)
    assert line == "Points: You 50 (2 bouts) and Seat 2 41 (1 bout); You win."
    assert summary_line(TwoPlayerSummary(Rules(players=2), (82, 100), (1, 2)), you=0).endswith("Seat 2 wins.")
    assert "0 bout" not in summary_line(TwoPlayerSummary(Rules(players=2), (60, 122), (0, 3)), you=1)
    result = atout("play", "-p", "2", "--seed", "3", "--bot", "random", input=answers(rounds=60))
    out = result.stdout
    assert result.exit_code == 0
    points = re.search(r"^Points: (.*)$", out, re.M)
    assert points and points.group(1).startswith("You ")
    refusals = re.findall(r"Not allowed: (.*)", out)
    assert refusals and not any("seat 0" in r or "his hand" in r for r in refusals)
    assert any("a card of your hand or a face-up card on top of your piles" in r for r in refusals)
    assert "bout(s)" not in out and "(1 bouts)" not in out and "1 bouts" not in out
    assert re.search(r"^You: [\d.]+ points with (no bout|1 bout|\d bouts); needed \d+", out, re.M)


def test_two_player_breakdown_speaks_to_you() -> None:
    from atout.cli.summary import breakdown_lines
    from atout.scoring import TwoPlayerSummary

    lines = breakdown_lines(TwoPlayerSummary(Rules(players=2), (100, 82), (2, 1), petit_au_bout=0), you=0)
    assert lines == [
        "You: 50 points with 2 bouts; needed 41 (margin +9).",
        "Seat 2: 41 points with 1 bout; needed 51 (margin -10).",
        "Petit au bout: You",
        "Chelem: none",
        "You score 44.",
    ]
    assert (
        breakdown_lines(TwoPlayerSummary(Rules(players=2), (82, 100), (1, 2)), you=0)[-1]
        == "Seat 2 scores 34."
    )


def test_french_summary_line_counts_bouts_in_the_plural() -> None:
    from atout.cli.render import summary_line
    from atout.scoring import FrenchSummary

    assert "with 1 bout and" in summary_line(FrenchSummary(Rules(), 0, "garde", 1, 120))
    assert "with 2 bouts and" in summary_line(FrenchSummary(Rules(), 0, "garde", 2, 120))


def test_poignee_is_accepted_with_its_accent() -> None:
    import random

    from atout.cli.play import _read
    from atout.engine import FrenchDeal

    for seed in range(3000):
        rng = random.Random(seed)
        deal = FrenchDeal.new(Rules(players=3), rng=rng)
        while not deal.is_over() and deal.phase != "poignee":
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.phase == "poignee":
            view = deal.view(deal.current_player)
            names = [str(a) for a in view.legal_actions]
            assert "poignee simple" in names
            assert str(_read(deal, view, "poignée simple")) == "poignee simple"
            assert str(_read(deal, view, "Poignée Simple")) == "poignee simple"
            assert str(_read(deal, view, "poignee simple")) == "poignee simple"
            assert str(_read(deal, view, "no")) == "no_poignee"
            if len(names) == 2:
                assert str(_read(deal, view, "poignée")) == "poignee simple"
            return
    raise AssertionError("no poignée decision found")


def _interruptible() -> None:
    """In the child before it runs: SIGINT back to its default, and not blocked."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX signals")
def test_ctrl_c_while_computer_players_think_still_writes_save(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    # experts that think 20 s a card: Ctrl-C comes while seat 1 thinks about its first card
    proc = subprocess.Popen(
        [
            *ATOUT_PLAY,
            "--seed",
            "1",
            "--save",
            str(path),
            "--think",
            "20",
            "--bot",
            "expert:fast,samples=1000000",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "COLUMNS": "200"},
        # Ctrl-C reaches the game as at a terminal, whatever this test runner inherited (a
        # runner started with SIGINT ignored hands that on to its children)
        preexec_fn=_interruptible,
    )
    assert proc.stdin and proc.stdout
    proc.stdin.write(("pass\nno\n" + "\n".join(NAMES) + "\n").encode())
    proc.stdin.flush()
    seen = b""
    deadline = time.monotonic() + 60
    try:
        while b"You play " not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stdout], [], [], 0.2)
            if ready:
                seen += os.read(proc.stdout.fileno(), 65536)
        assert b"You play " in seen, seen[-500:]
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        interrupted = time.monotonic()
        out, err = proc.communicate(timeout=60)
        # the signal ended it, not the end of its input: the bot would think 20 s before that
        assert time.monotonic() - interrupted < 15
    finally:
        if proc.poll() is None:
            proc.kill()
    seen += out
    assert proc.returncode == 130
    assert err.decode() == "interrupted\n"
    assert b"Record of the unfinished deal written to" in seen
    record = json.loads(path.read_text(encoding="utf-8"))
    assert "result" not in record  # docs/records.md: a record without a result is an unfinished deal
    deal = replay(load_record(path))
    assert not deal.is_over()
    assert any(a.startswith("play ") for a in record["actions"])
    assert record["actions"] == [deal.action_name(a) for a in deal.history]

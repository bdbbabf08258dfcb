"""Fuzzing the readers of user input (rule book §9 summaries, docs/records.md records): any
JSON-ish value either reads or is refused with the project's clear error, a ``ValueError`` with a
one-line message; through the command line, exit code 2 and one line on stderr, no traceback."""

from __future__ import annotations

import copy
import io
import json
import random
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from atout.cli.main import app
from atout.cli.replay import print_deal
from atout.games import new_deal
from atout.records import RecordError, deal_to_record, read_record, replay
from atout.rules import Rules
from atout.scoring import SummaryError, parse_summary, score

SUMMARY_KEYS = [
    "game", "players", "taker", "partner", "dead", "contract", "oudlers", "points", "petit_au_bout",
    "poignees", "chelem", "misere", "partial_slam", "options", "declarer", "bid", "talon_half",
    "game_type", "announced", "won_by", "side", "level", "seat", "kind", "made", "bogus",
]  # fmt: skip
OPTION_NAMES = [
    "partial_slam", "misere_bonus", "poignee_bonus", "poignee_thresholds", "five_player_mode",
    "threshold_0_oudlers", "round_margin_to", "bid_pousse", "no_petite", "two_player_chelem",
    "petit_sec_rule", "austrian_jack_value", "players", "game", "max_missing", "nope",
    "requires_announcement", "announced_made", "unannounced_made", "announced_failed",
]  # fmt: skip
RECORD_KEYS = [
    "format", "version", "game", "players", "options", "dealer", "seed", "actions", "result",
    "hands", "chien", "talon", "piles", "face_up", "summary", "scores", "outcome", "bogus",
]  # fmt: skip

numbers = st.one_of(
    st.sampled_from([1e308, -1e308, 0.5, 40.5, 86.5, 87.0, 91.0, -0.0, 2**63, 10**30, -1, 3, 4]),
    st.integers(-5, 100),
    st.integers(-(10**40), 10**40),
    st.floats(allow_nan=False, allow_infinity=False),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    numbers,
    st.text(max_size=8),
    st.sampled_from(["french", "austrian", "attack", "defense", "garde", "simple", "solo", "both", "on"]),
)


def json_values(keys: list[str]) -> st.SearchStrategy[Any]:
    """Nested dicts and lists whose keys are mostly names the readers know."""
    key = st.sampled_from(keys) | st.text(max_size=6)
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(key, inner, max_size=5),
        max_leaves=14,
    )


BASES: list[dict[str, Any]] = [
    {"game": "french", "players": 4, "taker": 0, "contract": "garde", "oudlers": 2, "points": 50},
    {"game": "french", "players": 5, "taker": 1, "partner": 3, "contract": "petite", "oudlers": 1,
     "points": 50.5, "petit_au_bout": "attack", "poignees": [{"side": "attack", "level": "simple", "seat": 1}],
     "chelem": {"announced": False, "won_by": None},
     "options": {"misere_bonus": 10, "partial_slam": {"max_missing": 3, "announced_made": 200}},
     "misere": [{"seat": 2, "kind": "no_trumps"}], "partial_slam": {"announced": False, "made": True}},
    {"game": "french", "players": 5, "taker": 0, "dead": 4, "contract": "garde_contre", "oudlers": 3,
     "points": 91, "chelem": {"announced": True, "won_by": "attack"},
     "options": {"five_player_mode": "dead_player"}},
    {"game": "french", "players": 2, "points": [50, 41], "oudlers": [2, 1], "petit_au_bout": 0,
     "options": {"two_player_chelem": True}, "chelem": {"announced_by": None, "won_by": None}},
    {"game": "austrian", "players": 3, "declarer": 0, "bid": "threesome", "talon_half": 1,
     "game_type": "36_or_more", "points": 40, "options": {}},
]  # fmt: skip


@st.composite
def mutated(draw: st.DrawFn, bases: list[dict[str, Any]], keys: list[str], options: list[str]) -> Any:
    """A valid document with a few of its values, at any depth, replaced, added or removed."""
    if draw(st.integers(0, 9)) == 0:
        return draw(json_values(keys))
    data = copy.deepcopy(draw(st.sampled_from(bases)))
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3, 4]))):
        target: Any = data
        # walk down into a nested object or list now and then
        while isinstance(target, dict | list) and target and draw(st.integers(0, 2)) == 0:
            inner = draw(st.sampled_from(sorted(target) if isinstance(target, dict) else range(len(target))))
            if not isinstance(target[inner], dict | list):
                break
            target = target[inner]
        if isinstance(target, list):
            if target and draw(st.booleans()):
                target[draw(st.integers(0, len(target) - 1))] = draw(json_values(keys))
            else:
                target.append(draw(json_values(keys)))
            continue
        if not isinstance(target, dict):
            continue
        names = options if target is data.get("options") else keys
        if target and draw(st.booleans()):
            names = sorted(target)  # mostly change what is there
        name = draw(st.sampled_from(names))
        if target and draw(st.integers(0, 3)) == 0:
            target.pop(draw(st.sampled_from(sorted(target))))
        else:
            target[name] = draw(numbers | scalars | json_values(keys))
    return data


def _one_clear_line(exc: BaseException) -> None:
    assert isinstance(exc, ValueError), repr(exc)
    message = str(exc)
    assert message and "\n" not in message and "Traceback" not in message, message


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(BASES, SUMMARY_KEYS, OPTION_NAMES))
def test_the_summary_reader_reads_or_refuses_clearly_9(data: Any) -> None:
    try:
        summary = parse_summary(data)
    except SummaryError as exc:
        _one_clear_line(exc)
        assert str(exc).startswith(f"{exc.field}: ")
        return
    scores = score(summary)
    assert all(isinstance(s, int) for s in scores) and len(scores) == summary.players


HOSTILE: list[Any] = [
    None, True, False, -1, 0, 3, 4, 7, 2**63, 10**30, -(10**30), 1e308, -1e308, 1e-300, 0.5, 1.5, -0.0,
    87.0, 91.0, "", "x", "attack", "garde", "2", [], [1], [None, None], {}, {"a": 1}, {"announced": True},
]  # fmt: skip


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a document, with only the first and last item of a list."""
    out = [path] if path else []
    if isinstance(value, dict):
        for key, inner in value.items():
            out += _paths(inner, (*path, key))
    elif isinstance(value, list):
        for index in sorted({0, len(value) - 1}) if value else ():
            out += _paths(value[index], (*path, index))
    return out


def _replaced(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    out = copy.deepcopy(document)
    target = out
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return out


def test_every_place_of_every_summary_takes_any_hostile_value_9() -> None:
    for base in BASES:
        for path in _paths(base):
            for value in HOSTILE:
                data = _replaced(base, path, value)
                try:
                    summary = parse_summary(data)
                except SummaryError as exc:
                    _one_clear_line(exc)
                    continue
                except Exception as exc:  # pragma: no cover - the failure to report
                    raise AssertionError(f"{path} = {value!r}: {exc!r}") from exc
                assert len(score(summary)) == summary.players


def _played_records() -> list[dict[str, Any]]:
    """A finished record of each game and table, and an unfinished one."""
    out = []
    tables = [
        Rules(),
        Rules(players=3, petit_sec_rule="petit_imprenable"),
        Rules(players=5),
        Rules(players=5, five_player_mode="dead_player"),
        Rules(players=2, two_player_chelem=True),
        Rules(game="austrian", players=3),
    ]
    for rules in tables:
        rng = random.Random(7)
        deal = new_deal(rules, rng=rng)
        while not deal.is_over():
            deal.apply(rng.choice(deal.legal_actions()))
        out.append(deal_to_record(deal, seed=7))
    unfinished = new_deal(Rules(), rng=1)
    unfinished.apply(unfinished.legal_actions()[0])
    out.append(deal_to_record(unfinished))
    return out


RECORDS = _played_records()


def _check_record_text(text: str, show: bool = True) -> None:
    try:
        deal = replay(read_record(text))
    except RecordError as exc:
        _one_clear_line(exc)
        return
    if show:
        print_deal(deal, Console(file=io.StringIO(), width=120))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(RECORDS, RECORD_KEYS, OPTION_NAMES))
def test_the_record_reader_replays_or_refuses_clearly(data: Any) -> None:
    _check_record_text(json.dumps(data))


def test_every_unmutated_record_replays_and_prints() -> None:
    for record in RECORDS:
        _check_record_text(json.dumps(record))
        assert replay(read_record(json.dumps(record))).is_over() == ("result" in record)


def _exit_0_or_one_error_line(args: list[str]) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 2), (result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr
    if result.exit_code == 2:
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
        assert result.stdout == ""


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(mutated(BASES, SUMMARY_KEYS, OPTION_NAMES), min_size=1, max_size=3), st.booleans())
def test_atout_score_exits_2_with_one_line_or_scores_9(items: list[Any], session: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "summaries.json"
        path.write_text(json.dumps(items if session else items[0]), encoding="utf-8")
        _exit_0_or_one_error_line(["score", str(path), "--json"])
        _exit_0_or_one_error_line(["score", str(path)])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(RECORDS, RECORD_KEYS, OPTION_NAMES))
def test_atout_replay_and_score_of_a_record_exit_2_with_one_line_or_work(data: Any) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "record.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        _exit_0_or_one_error_line(["replay", str(path)])
        _exit_0_or_one_error_line(["score", str(path)])


def test_every_place_of_every_record_takes_any_hostile_value() -> None:
    for record in RECORDS:
        for path in _paths(record):
            for value in HOSTILE:
                text = json.dumps(_replaced(record, path, value))
                try:
                    _check_record_text(text, show=False)
                except Exception as exc:  # pragma: no cover - the failure to report
                    raise AssertionError(f"{path} = {value!r}: {exc!r}") from exc

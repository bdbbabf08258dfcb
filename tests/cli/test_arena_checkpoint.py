"""``atout arena --checkpoint FILE``: finished deals go to a JSON Lines file at once; a later run with
the same setup reads them instead of playing them, and reports as one uninterrupted run would."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from atout import arena
from atout.arena import ArenaSetup, CheckpointError, DealResult, read_checkpoint, run_arena
from atout.rules import Rules

RUN_ONLY = ("seconds", "workers", "resumed")
"""Report keys that tell how this run went, not what the deals gave."""


@pytest.fixture
def steady_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every decision takes exactly one second, so that the ms per decision figures of two runs agree."""
    ticks = itertools.count()
    monkeypatch.setattr(arena, "time", SimpleNamespace(perf_counter=lambda: float(next(ticks))))


def _setup(deals: int, seed: int = 1, candidate: str = "rules") -> ArenaSetup:
    return ArenaSetup(Rules(players=3), candidate, "random", "random", deals=deals, seed=seed, resamples=200)


def _figures(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in RUN_ONLY}


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _cli(atout: Any, *args: str) -> dict[str, Any]:
    result = atout("arena", "-p", "3", "--seed", "1", *args, "--json")
    assert result.exit_code == 0, result.stderr
    report: dict[str, Any] = json.loads(result.stdout)
    return report


@pytest.mark.usefixtures("steady_clock")
def test_a_resumed_run_reports_as_one_run(tmp_path: Path) -> None:
    file = tmp_path / "run.jsonl"
    whole = run_arena(_setup(6))
    first = run_arena(_setup(3), checkpoint=file)
    resumed = run_arena(_setup(6), checkpoint=file)
    assert (whole["resumed"], first["resumed"], resumed["resumed"]) == (0, 0, 3)
    assert _figures(resumed) == _figures(whole)
    assert resumed["candidate"]["ms_per_decision"]["mean"] == 1000.0
    assert [line["index"] for line in _lines(file)] == list(range(6))


def test_the_checkpoint_keeps_every_deal_result(tmp_path: Path) -> None:
    file = tmp_path / "run.jsonl"
    played: list[DealResult] = []
    run_arena(_setup(3), progress=played.append, checkpoint=file)
    stored = read_checkpoint(file, _setup(3))
    assert stored == {r.index: r for r in played}  # scores, roles, bids and times alike
    assert all(seat.times for r in stored.values() for seat in r.candidate)
    assert "records" not in _lines(file)[0]
    assert read_checkpoint(file, _setup(2)).keys() == {0, 1}
    assert read_checkpoint(tmp_path / "none.jsonl", _setup(3)) == {}


@pytest.mark.usefixtures("steady_clock")
def test_the_cli_resumes_to_the_report_of_one_run(atout: Any, tmp_path: Path) -> None:
    file = str(tmp_path / "run.jsonl")
    whole = _cli(atout, "--deals", "6")
    assert _cli(atout, "--deals", "3", "--checkpoint", file)["resumed"] == 0
    resumed = _cli(atout, "--deals", "6", "--checkpoint", file)
    assert resumed["resumed"] == 3
    assert _figures(resumed) == _figures(whole)


def test_more_deals_extend_the_checkpoint(atout: Any, tmp_path: Path) -> None:
    file = tmp_path / "run.jsonl"
    _cli(atout, "--deals", "2", "--checkpoint", str(file))
    extended = _cli(atout, "--deals", "5", "--checkpoint", str(file))
    assert (extended["deals"], extended["resumed"]) == (5, 2)
    assert len(_lines(file)) == 5
    again = _cli(atout, "--deals", "5", "--checkpoint", str(file))
    fewer = _cli(atout, "--deals", "3", "--checkpoint", str(file))
    assert (again["resumed"], fewer["resumed"], fewer["deals"]) == (5, 3, 3)
    assert len(_lines(file)) == 5  # nothing played, nothing written
    text = atout("arena", "-p", "3", "--seed", "1", "--deals", "5", "--checkpoint", str(file))
    assert text.exit_code == 0 and "5 of the 5 deals resumed from the checkpoint" in text.stdout


def test_workers_write_and_resume_the_checkpoint(tmp_path: Path) -> None:
    file = tmp_path / "run.jsonl"
    run_arena(_setup(2), checkpoint=file)
    report = run_arena(_setup(4), workers=2, checkpoint=file)
    assert report["resumed"] == 2
    assert sorted(line["index"] for line in _lines(file)) == [0, 1, 2, 3]
    assert _figures(report)["mean_d"] == run_arena(_setup(4))["mean_d"]


def test_a_last_line_cut_short_is_dropped_and_written_over(tmp_path: Path) -> None:
    file = tmp_path / "run.jsonl"
    run_arena(_setup(3), checkpoint=file)
    with file.open("a", encoding="utf-8") as out:
        out.write('{"setup": {"options": {"ga')  # a run killed while writing
    assert read_checkpoint(file, _setup(4)).keys() == {0, 1, 2}
    report = run_arena(_setup(4), checkpoint=file)
    assert report["resumed"] == 3
    assert [line["index"] for line in _lines(file)] == [0, 1, 2, 3]


def test_a_last_line_without_its_newline_counts(tmp_path: Path) -> None:
    file = tmp_path / "run.jsonl"
    run_arena(_setup(2), checkpoint=file)
    file.write_text(file.read_text(encoding="utf-8").rstrip("\n"), encoding="utf-8")
    assert run_arena(_setup(3), checkpoint=file)["resumed"] == 2
    assert [line["index"] for line in _lines(file)] == [0, 1, 2]


def _break_line(file: Path, number: int, text: str) -> None:
    lines = file.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[number - 1] = text + "\n"
    file.write_text("".join(lines), encoding="utf-8")


def _good_line(file: Path) -> dict[str, Any]:
    line: dict[str, Any] = json.loads(file.read_text(encoding="utf-8").splitlines()[0])
    return line


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda line: "not json", "Invalid JSON"),
        (lambda line: "[1, 2]", "Input should be an object"),
        (lambda line: json.dumps({k: v for k, v in line.items() if k != "seats"}), "seats: Field required"),
        (lambda line: json.dumps({**line, "index": -1}), "index: Input should be greater than or equal to 0"),
        (lambda line: json.dumps({**line, "index": True}), "index: Input should be a valid integer"),
        (
            lambda line: json.dumps({**line, "candidate": [{"score": 1}] * 3}),
            "candidate.0.role: Field required",
        ),
        (lambda line: json.dumps({**line, "baseline": line["baseline"][:1]}), "not one game per seat"),
        (lambda line: json.dumps({**line, "seed": 12, "index": 1}), "deal 1 has another seed or dealer"),
    ],
    ids=["json", "object", "field", "index", "bool", "seat", "seats", "plan"],
)
def test_a_bad_middle_line_fails_clearly(atout: Any, tmp_path: Path, change: Any, message: str) -> None:
    file = tmp_path / "run.jsonl"
    run_arena(_setup(3), checkpoint=file)
    _break_line(file, 2, change(_good_line(file)))
    with pytest.raises(CheckpointError, match=re.escape(f"{file}, line 2: {message}")):
        run_arena(_setup(3), checkpoint=file)
    result = atout("arena", "-p", "3", "--seed", "1", "--deals", "3", "--checkpoint", str(file), "--json")
    assert result.exit_code == 2
    assert f"error: --checkpoint: {file}, line 2: {message}" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_folder_is_no_checkpoint(atout: Any, tmp_path: Path) -> None:
    with pytest.raises(CheckpointError, match="is a folder"):
        run_arena(_setup(1), checkpoint=tmp_path)
    result = atout("arena", "-p", "3", "--deals", "1", "--checkpoint", str(tmp_path))
    assert result.exit_code == 2
    assert f"error: --checkpoint: {tmp_path} is a folder, not a checkpoint file" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_a_checkpoint_in_a_missing_folder_cannot_be_written(tmp_path: Path) -> None:
    with pytest.raises(CheckpointError, match=r"cannot write .*nowhere"):
        run_arena(_setup(1), checkpoint=tmp_path / "nowhere" / "run.jsonl")


def test_an_unreadable_checkpoint_fails_clearly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    file = tmp_path / "run.jsonl"
    file.write_text("", encoding="utf-8")
    real_read = Path.read_bytes

    def denied(path: Path) -> bytes:  # as for a file without read permission (root reads them all)
        if path == file:
            raise PermissionError(13, "Permission denied")
        return real_read(path)

    monkeypatch.setattr(Path, "read_bytes", denied)
    with pytest.raises(CheckpointError, match=r"cannot read .*Permission denied"):
        run_arena(_setup(1), checkpoint=file)


def test_the_cheat_run_shares_the_checkpoint(atout: Any, tmp_path: Path) -> None:
    file = tmp_path / "run.jsonl"
    first = _cli(atout, "--deals", "2", "--cheat", "--checkpoint", str(file))
    assert (first["resumed"], first["cheat_resumed"]) == (0, 0)
    candidates = [line["setup"]["candidate"] for line in _lines(file)]
    assert candidates == ["rules", "rules", "cheat", "cheat"]
    resumed = _cli(atout, "--deals", "3", "--cheat", "--checkpoint", str(file))
    assert (resumed["resumed"], resumed["cheat_resumed"]) == (2, 2)
    assert len(_lines(file)) == 6
    whole = _cli(atout, "--deals", "3", "--cheat")
    assert (resumed["cheat_mean_d"], resumed["gap_closed"]) == (whole["cheat_mean_d"], whole["gap_closed"])


def test_another_setup_is_not_resumed_and_its_lines_stay(tmp_path: Path) -> None:
    file = tmp_path / "run.jsonl"
    run_arena(_setup(2, seed=1), checkpoint=file)
    before = file.read_text(encoding="utf-8")
    assert run_arena(_setup(2, seed=2), checkpoint=file)["resumed"] == 0
    assert run_arena(_setup(2, seed=1, candidate="random"), checkpoint=file)["resumed"] == 0
    assert file.read_text(encoding="utf-8").startswith(before)
    assert [line["setup"]["seed"] for line in _lines(file)] == [1, 1, 2, 2, 1, 1]
    assert run_arena(_setup(2, seed=1), checkpoint=file)["resumed"] == 2


def test_the_first_line_of_a_deal_wins(tmp_path: Path) -> None:
    file = tmp_path / "run.jsonl"
    run_arena(_setup(1), checkpoint=file)
    line = _good_line(file)
    twin = {**line, "candidate": [{**seat, "score": 12345} for seat in line["candidate"]]}
    with file.open("a", encoding="utf-8") as out:
        out.write(json.dumps(twin) + "\n")
    (stored,) = read_checkpoint(file, _setup(1)).values()
    assert [seat.score for seat in stored.candidate] == [seat["score"] for seat in line["candidate"]]

"""``atout arena-compare``: two candidates run separately against the same baseline on the same
deals (each with ``--checkpoint``), compared deal by deal as if one had played against the other."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from atout.arena import ArenaSetup, CheckpointError, checkpoint_runs, compare_runs, run_arena
from atout.rules import Rules


def _setup(candidate: str, baseline: str = "random", deals: int = 5, seed: int = 3) -> ArenaSetup:
    return ArenaSetup(Rules(players=3), candidate, baseline, "random", deals=deals, seed=seed)


@pytest.fixture
def two_runs(tmp_path: Path) -> tuple[Path, Path]:
    """The rules bot and the cheat bot, each against the random bot, on the same five deals."""
    first, second = tmp_path / "rules.jsonl", tmp_path / "cheat.jsonl"
    run_arena(_setup("rules"), checkpoint=first)
    run_arena(_setup("cheat"), checkpoint=second)
    return first, second


def test_the_comparison_is_the_duplicate_match_between_the_two(two_runs: tuple[Path, Path]) -> None:
    """Per deal, A's d minus B's d is the d of a match of A against B (same deals and seeds)."""
    first, second = two_runs
    compared = compare_runs(checkpoint_runs(first), checkpoint_runs(second))
    direct = run_arena(_setup("rules", baseline="cheat"))
    assert (compared["a"], compared["b"], compared["deals"]) == ("rules", "cheat", 5)
    assert compared["mean_diff"] == pytest.approx(direct["mean_d"], abs=1e-3)
    assert compared["ci95"] == pytest.approx(direct["ci95"], abs=1e-3)
    assert compared["mean_d_a"] == run_arena(_setup("rules"))["mean_d"]
    assert compared["deals_differing"] > 0


def test_only_the_deals_both_runs_finished_count(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    run_arena(_setup("rules", deals=5), checkpoint=first)
    run_arena(_setup("cheat", deals=3), checkpoint=second)
    compared = compare_runs(checkpoint_runs(first), checkpoint_runs(second))
    assert compared["deals"] == 3
    assert compared["mean_d_a"] == run_arena(_setup("rules", deals=3))["mean_d"]


def test_one_file_may_hold_both_runs(tmp_path: Path) -> None:
    file = tmp_path / "both.jsonl"
    run_arena(_setup("rules"), checkpoint=file)
    run_arena(_setup("cheat"), checkpoint=file)
    runs = checkpoint_runs(file)
    forward = compare_runs(runs, runs)
    assert (forward["a"], forward["b"]) == ("rules", "cheat")
    backward = compare_runs(runs, runs, "cheat", "rules")
    assert backward["mean_diff"] == pytest.approx(-forward["mean_diff"], abs=1e-3)


def test_one_candidate_in_two_files(tmp_path: Path) -> None:
    """The same candidate run twice (say, before and after a change of code) compares file to file."""
    first, second = tmp_path / "before.jsonl", tmp_path / "after.jsonl"
    run_arena(_setup("rules"), checkpoint=first)
    run_arena(_setup("rules"), checkpoint=second)
    compared = compare_runs(checkpoint_runs(first), checkpoint_runs(second), "rules", "rules")
    assert (compared["a"], compared["b"], compared["deals"]) == ("rules", "rules", 5)
    assert compared["mean_diff"] == 0 and compared["deals_differing"] == 0
    with pytest.raises(ValueError, match="no two runs to compare"):
        runs = checkpoint_runs(first)
        compare_runs(runs, runs, "rules", "rules")


def test_runs_that_do_not_fit_are_refused(tmp_path: Path) -> None:
    first, second, third = (tmp_path / f"{name}.jsonl" for name in "abc")
    run_arena(_setup("rules"), checkpoint=first)
    run_arena(_setup("cheat", seed=4), checkpoint=second)
    with pytest.raises(ValueError, match=r"no two runs to compare.*candidates found: cheat, rules"):
        compare_runs(checkpoint_runs(first), checkpoint_runs(second))
    run_arena(_setup("cheat"), checkpoint=third)
    run_arena(_setup("random"), checkpoint=third)
    with pytest.raises(ValueError, match="several pairs of runs fit"):
        compare_runs(checkpoint_runs(first), checkpoint_runs(third))
    assert compare_runs(checkpoint_runs(first), checkpoint_runs(third), label_b="random")["b"] == "random"


def test_the_command(atout: Any, two_runs: tuple[Path, Path], tmp_path: Path) -> None:
    first, second = two_runs
    result = atout("arena-compare", str(first), str(second), "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert (report["a"], report["b"], report["deals"]) == ("rules", "cheat", 5)
    text = atout("arena-compare", str(first), str(second))
    assert text.exit_code == 0 and "A − B" in text.stdout and "5 common deals" in text.stdout
    for args, message in (
        ((str(tmp_path / "none.jsonl"),), "none.jsonl: no such file"),
        ((str(first), str(second), "--a", "expert"), "no two runs to compare"),
        ((str(tmp_path),), "is a folder"),
    ):
        failed = atout("arena-compare", *args)
        assert failed.exit_code == 2
        assert message in failed.stderr and "Traceback" not in failed.stderr + failed.stdout


def test_a_compressed_checkpoint_is_compared_as_it_is(
    atout: Any, two_runs: tuple[Path, Path], tmp_path: Path
) -> None:
    """Runs kept in the repository are gzip files (``*.jsonl.gz``): compared without unpacking,
    refused as a checkpoint to play into, and a broken one named in one clear line."""
    first, second = two_runs
    packed = tmp_path / "rules.jsonl.gz"
    packed.write_bytes(gzip.compress(first.read_bytes()))
    assert checkpoint_runs(packed) == checkpoint_runs(first)
    assert compare_runs(checkpoint_runs(packed), checkpoint_runs(second)) == compare_runs(
        checkpoint_runs(first), checkpoint_runs(second)
    )
    with pytest.raises(CheckpointError, match=r"is compressed: .*gunzip -k"):
        run_arena(_setup("rules"), checkpoint=packed)
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(first.read_bytes())
    result = atout("arena-compare", str(broken), str(second))
    assert result.exit_code == 2
    assert "is not a readable gzip file" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    played = atout("arena", "-p", "3", "--deals", "1", "--checkpoint", str(packed))
    assert played.exit_code == 2 and "is compressed" in played.stderr

"""Where a candidate's gap to the cheat bot lies, from an arena checkpoint that holds both runs.

Run with ``.venv/bin/python bench/gap.py FILE.jsonl [--a SPEC] [--b SPEC] [--json]`` on a file
written by ``atout arena ... --cheat --checkpoint FILE.jsonl`` (``--a`` the candidate, default the
file's first run that is not ``cheat``; ``--b`` default ``cheat``). Every tested seat of every deal
both runs finished is put in one class by who took there: neither, only B, only A, both with the
same contract, both with different ones. For each class: how many seat-deals, the mean of B's
score minus A's there, and its share of the whole gap (per seat-deal, so the shares add up to the
mean of B − A over all seat-deals, the arena's cheat d minus candidate d).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from atout.arena import CheckpointError, DealResult, checkpoint_runs, run_label


def _run(runs: list[tuple[dict[str, Any], dict[int, DealResult]]], label: str | None, other: str) -> str:
    labels = [run_label(key) for key, _ in runs]
    if label is None:
        label = next((x for x in labels if x != other), None)
    if label is None or label not in labels:
        raise SystemExit(f"no run {label!r} in the file; runs: {', '.join(labels)}")
    return label


def classify(a: dict[int, DealResult], b: dict[int, DealResult]) -> dict[str, list[float]]:
    """Each class's list of B − A scores, one per tested seat of the deals both runs hold."""
    classes: dict[str, list[float]] = defaultdict(list)
    for index in sorted(a.keys() & b.keys()):
        for seat_a, seat_b in zip(a[index].candidate, b[index].candidate, strict=True):
            took_a, took_b = seat_a.role == "taker", seat_b.role == "taker"
            if took_a and took_b:
                same = seat_a.bids[-1] == seat_b.bids[-1]
                name = "both took, same contract" if same else "both took, other contracts"
            else:
                name = {
                    (False, False): "neither took",
                    (False, True): "only B took",
                    (True, False): "only A took",
                }[(took_a, took_b)]
            classes[name].append(float(seat_b.score - seat_a.score))
    return classes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--a", help="the candidate (default: the first run that is not --b)")
    parser.add_argument("--b", default="cheat", help="the upper bound (default: cheat)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        runs = checkpoint_runs(args.file)
    except CheckpointError as exc:
        raise SystemExit(str(exc)) from None
    label_b = _run(runs, args.b, "")
    label_a = _run(runs, args.a, label_b)
    by_label = {run_label(key): deals for key, deals in runs}
    classes = classify(by_label[label_a], by_label[label_b])
    total = sum(len(v) for v in classes.values())
    rows = [
        {
            "class": name,
            "seat_deals": len(values),
            "mean_b_minus_a": round(sum(values) / len(values), 1),
            "share_of_gap": round(sum(values) / total, 2),
        }
        for name, values in sorted(classes.items())
    ]
    report = {"a": label_a, "b": label_b, "seat_deals": total, "classes": rows}
    if args.json:
        print(json.dumps(report, indent=2))
        return
    table = Table(title=f"B = {label_b} minus A = {label_a}, {total} seat-deals")
    for column in ("who took", "seat-deals", "mean B − A there", "per seat-deal overall"):
        table.add_column(column, justify="left" if column == "who took" else "right")
    for row in rows:
        table.add_row(
            str(row["class"]),
            str(row["seat_deals"]),
            f"{row['mean_b_minus_a']:+.1f}",
            f"{row['share_of_gap']:+.2f}",
        )
    Console().print(table)


if __name__ == "__main__":
    main()

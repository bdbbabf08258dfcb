"""Duplicate matches between bots: the same deals played by a candidate and by a baseline.

For each deal and each seat ``s`` that holds cards, the deal is played twice from the same dealt
cards and dealer: once with the candidate in seat ``s``, once with the baseline there, the other
seats played by the reference bot (seeded alike in both halves). The deal's figure is
``d = mean over s of (candidate's score − baseline's score)``; the report gives the mean of ``d``
with a 95% bootstrap interval over whole deals, and each side's taking, bidding and thinking time.

>>> report = run_arena(ArenaSetup(Rules(players=3), "rules", "random", "random", deals=2, seed=1))
>>> report["deals"], len(report["ci95"]), sorted(report["candidate"])[:3]
(2, 2, ['bids', 'decisions', 'mean_points_as_defender'])
"""

from __future__ import annotations

import multiprocessing
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from atout.bots.base import Bot
from atout.bots.registry import make_bot
from atout.engine.dead_player import DeadPlayerDeal
from atout.games import Deal, new_deal
from atout.records import write_record
from atout.rules import Rules
from atout.scoring import AustrianSummary, FrenchSummary, contract_made, declarer_wins

RESAMPLES = 2000
SIDES = ("candidate", "baseline")


@dataclass(frozen=True)
class ArenaSetup:
    """What an arena run plays: the rules, three bots by name, how many deals and the seed."""

    rules: Rules
    candidate: str
    baseline: str
    reference: str
    deals: int
    seed: int = 0
    save_dir: Path | None = None
    resamples: int = RESAMPLES
    candidate_level: str | None = None
    """The candidate's level (bots with levels: ``expert``)."""

    def options(self) -> dict[str, Any]:
        """The rules as plain options (rules objects do not cross process boundaries)."""
        return {"game": self.rules.game, "players": self.rules.players, **self.rules.changed()}


@dataclass
class Seat:
    """One tested seat's game: its score, role, bids and decision times."""

    score: int
    role: str | None
    """``taker``, ``partner``, ``defender``, or ``None`` (cancelled deal, 2 players)."""
    made: bool | None
    bids: list[str]
    times: list[float]


@dataclass
class DealResult:
    """Both halves of one duplicate deal, seat by seat."""

    index: int
    seed: int
    dealer: int
    seats: list[int]
    candidate: list[Seat] = field(default_factory=list)
    baseline: list[Seat] = field(default_factory=list)

    @property
    def d(self) -> float:
        """Mean over seats of the candidate's score minus the baseline's."""
        diffs = [c.score - b.score for c, b in zip(self.candidate, self.baseline, strict=True)]
        return sum(diffs) / len(diffs)


def deal_plan(setup: ArenaSetup) -> list[tuple[int, int, int]]:
    """``(index, seed, dealer)`` of each deal: seeds drawn from the run's seed, the dealer rotating."""
    rng = random.Random(setup.seed)
    return [(i, rng.getrandbits(63), i % setup.rules.players) for i in range(setup.deals)]


def playing_seats(deal: Deal) -> list[int]:
    """The seats that hold cards (all but a dead dealer)."""
    if isinstance(deal, DeadPlayerDeal):
        return sorted(deal.seats)
    return list(range(deal.n))


def play(deal: Deal, bots: Sequence[Bot | None], timed: int) -> list[float]:
    """Play a deal to its end, each seat's bot seeing only its view; the ``timed`` seat's decision times.

    A bot that declares ``sees_everything = True`` (``cheat``, the upper bound) is first shown the
    deal itself through its ``observe_deal(deal)``: the arena is the only caller of that hook."""
    for bot in bots:
        if bot is not None and getattr(bot, "sees_everything", False):
            bot.observe_deal(deal)  # type: ignore[attr-defined]
    times: list[float] = []
    clock = time.perf_counter
    while not deal.is_over():
        seat = deal.current_player
        bot = bots[seat]
        assert bot is not None
        view = deal.view(seat)
        legal = deal.legal_actions()
        start = clock()
        action = bot.choose(view, legal)
        if seat == timed:
            times.append(clock() - start)
        deal.apply(action)
    return times


def play_duplicate(
    options: dict[str, Any],
    names: tuple[str, str, str],
    plan: tuple[int, int, int],
    save_dir: Path | None = None,
    candidate_level: str | None = None,
) -> DealResult:
    """Both halves of one deal: candidate then baseline in each seat, the reference elsewhere."""
    rules = Rules.from_options(options)
    index, seed, dealer = plan
    seats = playing_seats(new_deal(rules, dealer=dealer, rng=seed))
    result = DealResult(index, seed, dealer, seats)
    for s in seats:
        for side, name in zip(SIDES, names[:2], strict=True):
            deal = new_deal(rules, dealer=dealer, rng=seed)
            bots: list[Bot | None] = [None] * rules.players
            for seat in seats:
                bot_seed = hash((seed, s, seat)) & (2**63 - 1)
                level = candidate_level if seat == s and side == "candidate" else None
                bots[seat] = make_bot(name if seat == s else names[2], level=level, rng=bot_seed)
            times = play(deal, bots, s)
            getattr(result, side).append(_seat_result(deal, s, times))
            if save_dir is not None:
                path = save_dir / f"deal-{index:05d}-seat-{s}-{side}.json"
                path.write_text(write_record(deal, seed), encoding="utf-8")
    return result


def _seat_result(deal: Deal, seat: int, times: list[float]) -> Seat:
    summary = deal.summary
    role: str | None = None
    made: bool | None = None
    if isinstance(summary, FrenchSummary):
        role = "taker" if seat == summary.taker else "partner" if seat == summary.partner else "defender"
        made = contract_made(summary)
    elif isinstance(summary, AustrianSummary):
        role = "taker" if seat == summary.declarer else "defender"
        made = declarer_wins(summary)
    all_bids = deal.inner.bids if isinstance(deal, DeadPlayerDeal) else getattr(deal, "bids", [])
    bids = [b for s, b in all_bids if _outer(deal, s) == seat]
    return Seat(deal.scores()[seat], role, made, bids, times)


def _outer(deal: Deal, seat: int) -> int:
    return deal.seats[seat] if isinstance(deal, DeadPlayerDeal) else seat


def _task(
    args: tuple[dict[str, Any], tuple[str, str, str], tuple[int, int, int], Path | None, str | None],
) -> DealResult:
    return play_duplicate(*args)


def play_all(setup: ArenaSetup, workers: int = 1) -> Iterator[DealResult]:
    """Every deal's result, as they finish (over ``workers`` processes when more than one)."""
    names = (setup.candidate, setup.baseline, setup.reference)
    if setup.save_dir is not None:
        setup.save_dir.mkdir(parents=True, exist_ok=True)
    tasks = [
        (setup.options(), names, plan, setup.save_dir, setup.candidate_level) for plan in deal_plan(setup)
    ]
    if workers <= 1:
        yield from map(_task, tasks)
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap_unordered(_task, tasks, chunksize=max(1, len(tasks) // (workers * 8)))


def bootstrap_ci(
    values: Sequence[float], resamples: int = RESAMPLES, seed: int = 0, level: float = 0.95
) -> tuple[float, float]:
    """The percentile bootstrap interval of the mean of ``values`` (seeded, reproducible).

    >>> bootstrap_ci([2.0, 2.0, 2.0])
    (2.0, 2.0)
    """
    n = len(values)
    if n == 0:
        raise ValueError("no values to bootstrap")
    rng = random.Random(seed)
    pick = rng.randrange
    means = sorted(sum(values[pick(n)] for _ in range(n)) / n for _ in range(resamples))
    tail = (1 - level) / 2
    low = means[int(tail * resamples)]
    high = means[min(resamples - 1, int((1 - tail) * resamples))]
    return low, high


def run_arena(
    setup: ArenaSetup, workers: int = 1, progress: Callable[[DealResult], None] | None = None
) -> dict[str, Any]:
    """Play the whole match and gather the report's figures."""
    start = time.perf_counter()
    results: list[DealResult] = []
    for result in play_all(setup, workers):
        results.append(result)
        if progress is not None:
            progress(result)
    results.sort(key=lambda r: r.index)
    elapsed = time.perf_counter() - start
    ds = [r.d for r in results]
    low, high = bootstrap_ci(ds, setup.resamples, setup.seed)
    return {
        "game": setup.rules.game,
        "players": setup.rules.players,
        "options": setup.rules.changed(),
        "candidate_bot": setup.candidate,
        "candidate_level": setup.candidate_level,
        "baseline_bot": setup.baseline,
        "reference_bot": setup.reference,
        "deals": len(results),
        "seed": setup.seed,
        "games_played": 2 * sum(len(r.seats) for r in results),
        "mean_d": round(statistics.fmean(ds), 3),
        "ci95": [round(low, 3), round(high, 3)],
        "resamples": setup.resamples,
        "candidate": side_figures([s for r in results for s in r.candidate]),
        "baseline": side_figures([s for r in results for s in r.baseline]),
        "workers": workers,
        "seconds": round(elapsed, 2),
    }


def add_gap_closed(report: dict[str, Any], cheat_report: dict[str, Any]) -> dict[str, Any]:
    """The report with the ``cheat`` run's mean d beside it and "gap closed" = (A − R)/(cheat − R):
    both runs share the deals, baseline and reference, so that is mean d over the cheat's mean d.

    >>> add_gap_closed({"mean_d": 5.0}, {"mean_d": 20.0, "ci95": [15.0, 25.0]})["gap_closed"]
    0.25
    """
    cheat_d = cheat_report["mean_d"]
    gap = round(report["mean_d"] / cheat_d, 4) if cheat_d else None
    return {**report, "cheat_mean_d": cheat_d, "cheat_ci95": cheat_report["ci95"], "gap_closed": gap}


def side_figures(seats: list[Seat]) -> dict[str, Any]:
    """One side's figures over all its tested seats."""

    def mean(values: list[int]) -> float | None:
        return round(statistics.fmean(values), 2) if values else None

    taken = [s for s in seats if s.role == "taker"]
    times = sorted(t for s in seats for t in s.times)
    bids: Counter[str] = Counter(b for s in seats for b in s.bids)
    return {
        "mean_score": mean([s.score for s in seats]),
        "taker_share": round(len(taken) / len(seats), 4) if seats else None,
        "taker_success_rate": round(sum(bool(s.made) for s in taken) / len(taken), 4) if taken else None,
        "mean_points_as_taker": mean([s.score for s in taken]),
        "mean_points_as_partner": mean([s.score for s in seats if s.role == "partner"]),
        "mean_points_as_defender": mean([s.score for s in seats if s.role == "defender"]),
        "bids": dict(sorted(bids.items())),
        "decisions": len(times),
        "ms_per_decision": {
            "mean": round(1000 * statistics.fmean(times), 4) if times else None,
            "p99": round(1000 * times[min(len(times) - 1, int(0.99 * len(times)))], 4) if times else None,
        },
    }

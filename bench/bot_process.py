"""What a bot in a child process costs per decision, against the same bot in this process.

Run with ``.venv/bin/python bench/bot_process.py [--players P] [--deals N] [--expert-deals M]
[--seed S] [--json]``. For the rules bot (``N`` deals, default 20) and the expert at level fast
(``M`` deals, default 3), the same seeded deals are played twice with the bot in every seat: in
this process (``make_bot``), then each seat's bot in a child process of its own
(:func:`atout.bots.process.process_bot`, reset with the same seed at each deal), which must play
the very same actions (the script checks it). One deal is played first each way and not counted
(imports, numba's compiled kernels, a child's start); a child's start is timed apart.

Each deal is played in this process, then in the child processes, in turn, so that both run
under the same load (the machine may be shared). Per decision: ``in-process`` and ``process`` are
the elapsed time of ``choose`` (the host's wall clock: what a game waits for), ``overhead`` their
difference; ``in-process CPU`` is this process's CPU time over the deals played here (the views
included), ``process CPU`` this process's and the children's (``/proc``, in clock ticks) over the
deals played by the children; ``encode`` (``view.to_json()`` and ``json.dumps``) and ``decode``
(``json.loads`` and ``view_from_json``) the wire's share, timed apart over the same views;
``view bytes`` a view's mean length on the wire; ``start`` the mean time of a child's first
decision, which starts it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from atout.bots.base import Bot, View
from atout.bots.process import ProcessBot, process_bot
from atout.bots.registry import make_bot
from atout.engine.wire import view_from_json
from atout.games import new_deal
from atout.rules import Rules

_TICKS = os.sysconf("SC_CLK_TCK")


def play(
    rules: Rules, seed: int, bots: Sequence[Bot], views: list[View] | None = None
) -> tuple[list[int], list[tuple[int, float]]]:
    """One seeded deal played to its end: the actions, and each decision's seat and elapsed seconds."""
    deal = new_deal(rules, dealer=seed % rules.players, rng=seed)
    actions: list[int] = []
    times: list[tuple[int, float]] = []
    clock = time.perf_counter
    while not deal.is_over():
        seat = deal.current_player
        view = deal.view(seat)
        if views is not None:
            views.append(view)
        start = clock()
        action = bots[seat].choose(view, deal.legal_actions())
        times.append((seat, clock() - start))
        deal.apply(action)
        actions.append(int(action))
    return actions, times


def seeds(seed: int, deal: int, players: int) -> list[int]:
    return [1000 * seed + 10 * deal + seat for seat in range(players)]


def child_cpu(bots: Sequence[ProcessBot]) -> float:
    """The CPU seconds the children have used so far (Linux ``/proc``)."""
    total = 0
    for bot in bots:
        pid = bot.pid
        if pid is not None:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / _TICKS


def measure(spec: str, rules: Rules, deals: int, seed: int) -> dict[str, Any]:
    """One bot's row: each deal in this process, then in child processes, in turn (the same load)."""
    warm = seed + 10_000
    play(rules, warm, [make_bot(spec, rng=s) for s in seeds(warm, 0, rules.players)])
    children = [process_bot(spec) for _ in range(rules.players)]
    local_times: list[float] = []
    remote_times: list[float] = []
    local_cpu = remote_cpu = 0.0
    views: list[View] = []
    try:
        for child in children:
            child.start()
        for child, s in zip(children, seeds(warm, 0, rules.players), strict=True):
            child.reset(s)
        _, warm_times = play(rules, warm, children)
        firsts: dict[int, float] = {}
        for seat, t in warm_times:
            firsts.setdefault(seat, t)  # the first decision of each child starts it
        for d in range(deals):
            cpu = time.process_time()
            bots = [make_bot(spec, rng=s) for s in seeds(seed, d, rules.players)]
            local, times = play(rules, seed + d, bots, views)
            local_cpu += time.process_time() - cpu
            local_times += [t for _, t in times]
            for child, s in zip(children, seeds(seed, d, rules.players), strict=True):
                child.reset(s)
            cpu, cpu_children = time.process_time(), child_cpu(children)
            remote, times = play(rules, seed + d, children)
            remote_cpu += time.process_time() - cpu + child_cpu(children) - cpu_children
            remote_times += [t for _, t in times]
            if remote != local:
                raise SystemExit(f"{spec}: deal {d} played otherwise in child processes")
    finally:
        for child in children:
            child.close()

    texts = []
    start = time.perf_counter()
    for view in views:
        texts.append(json.dumps(view.to_json(), separators=(",", ":")))
    encode = time.perf_counter() - start
    start = time.perf_counter()
    for text in texts:
        view_from_json(json.loads(text))
    decode = time.perf_counter() - start
    n = len(remote_times)

    def ms(seconds: float) -> float:
        return round(1000 * seconds, 3)

    local_ms = statistics.fmean(local_times)
    remote_ms = statistics.fmean(remote_times)
    return {
        "bot": spec,
        "deals": deals,
        "decisions": n,
        "in_process_ms": ms(local_ms),
        "process_ms": ms(remote_ms),
        "overhead_ms": ms(remote_ms - local_ms),
        "in_process_cpu_ms": ms(local_cpu / n),
        "process_cpu_ms": ms(remote_cpu / n),
        "encode_ms": ms(encode / n),
        "decode_ms": ms(decode / n),
        "view_bytes": round(statistics.fmean(len(t) for t in texts)),
        "start_s": round(statistics.fmean(firsts.values()), 3),
    }


COLUMNS = (
    ("bot", "bot"),
    ("decisions", "decisions"),
    ("in-process ms", "in_process_ms"),
    ("process ms", "process_ms"),
    ("overhead ms", "overhead_ms"),
    ("in-process CPU ms", "in_process_cpu_ms"),
    ("process CPU ms", "process_cpu_ms"),
    ("encode ms", "encode_ms"),
    ("decode ms", "decode_ms"),
    ("view bytes", "view_bytes"),
    ("start s", "start_s"),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=20, help="deals of the rules bot")
    parser.add_argument("--expert-deals", type=int, default=3, help="deals of the expert (fast)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rules = Rules(players=args.players)
    rows = [measure("rules", rules, args.deals, args.seed)]
    if args.expert_deals > 0:
        rows.append(measure("expert:fast", rules, args.expert_deals, args.seed))
    if args.json:
        print(json.dumps({"players": args.players, "seed": args.seed, "rows": rows}, indent=1))
        return
    print(
        f"Python {platform.python_version()} on {platform.platform()}, load {os.getloadavg()[0]:.1f}; "
        f"{args.players} players, seed {args.seed}; times per decision"
    )
    widths = [max(len(title), *(len(str(r[key])) for r in rows)) for title, key in COLUMNS]
    print("  ".join(title.rjust(w) for (title, _), w in zip(COLUMNS, widths, strict=True)))
    for row in rows:
        print("  ".join(str(row[key]).rjust(w) for (_, key), w in zip(COLUMNS, widths, strict=True)))
    print("the same actions in child processes as in this process: checked on every deal")


if __name__ == "__main__":
    main()

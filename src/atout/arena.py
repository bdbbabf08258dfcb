"""Duplicate matches between bots: the same deals played by a candidate and by a baseline.

For each deal and each seat ``s`` that holds cards, the deal is played twice from the same dealt
cards and dealer: once with the candidate in seat ``s``, once with the baseline there, the other
seats played by the reference bot (seeded alike in both halves). The deal's figure is
``d = mean over s of (candidate's score − baseline's score)``; the report gives the mean of ``d``
with a 95% bootstrap interval over whole deals, and each side's taking, bidding and thinking time.

Two tracks: ``full`` (the tested seat makes every decision) and ``cardplay``, where the reference
bot makes every decision that is not a card play (bids, call, écart, declarations; the Austrian
talon, discard and game type), the same in both halves, so that only card play differs. The deals
run in this process, over local processes, or over a Ray cluster (``ray_address``).

With a checkpoint file (JSON Lines), every finished deal is appended to it at once, keyed by the
run's setup; a later run with the same setup plays only the deals the file lacks, and its report is
that of one uninterrupted run (a run with more deals extends the file: the deals' seeds are drawn in
order from the run's seed).

With ``isolate``, every bot but the cheat plays in a child process of its own that receives only
the wire form of its views (:mod:`atout.bots.process`): the same deals, the same results, each
decision paying for the trip (``bench/bot_process.py``). The children are kept from game to game,
one per bot, seat and role, each reset with the game's seed.

>>> report = run_arena(ArenaSetup(Rules(players=3), "rules", "random", "random", deals=2, seed=1))
>>> report["deals"], len(report["ci95"]), sorted(report["candidate"])[:3]
(2, 2, ['bids', 'decisions', 'mean_points_as_defender'])
"""

from __future__ import annotations

import atexit
import dataclasses
import functools
import gzip
import importlib
import json
import logging
import multiprocessing
import random
import shlex
import socket
import statistics
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from atout.bots.base import Bot
from atout.bots.process import BotPool, ProcessBot
from atout.bots.registry import make_bot, unsupported
from atout.games import Game, is_card_play, new_deal, playing_seats, table_bids
from atout.records import write_record
from atout.rules import Rules
from atout.scoring import AustrianSummary, FrenchSummary, contract_made, declarer_wins

RESAMPLES = 2000
SIDES = ("candidate", "baseline")
TRACKS = ("full", "cardplay")
"""``full``: the tested seat makes every decision; ``cardplay``: its card plays only."""
RAY_MISSING: Final = (
    "Ray is not installed: --ray needs the ray extra "
    "(pip install 'atout[ray]', or pip install -e '.[ray]' in a clone of atout)"
)
_AUCTION: Final = 1000
"""Seeds the reference bots of the cardplay track's auction (a seat number never reaches it)."""
_DECLARE: Final = 1001
"""Seeds the reference bots that make the cardplay track's declarations during card play."""


class ClusterError(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached; the message says which."""


class CheckpointError(ValueError):
    """A checkpoint file that cannot be read or written; the message names the file (and the line)."""


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
    track: str = "full"
    """``full`` or ``cardplay`` (see :data:`TRACKS`)."""
    isolate: bool = False
    """Every bot but the cheat in a child process of its own (the results do not change)."""

    def __post_init__(self) -> None:
        if self.track not in TRACKS:
            raise ValueError(f"unknown track {self.track!r}; tracks: {', '.join(TRACKS)}")
        for name in (self.candidate, self.baseline, self.reference):
            if bot_program(name) is not None:
                continue  # a program says what it plays when asked: the first decision tells
            why = unsupported(make_bot(name), self.rules)
            if why is not None:
                raise ValueError(why)

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
    records: list[tuple[str, str]] = field(default_factory=list)
    """``(file name, record text)`` of each game, when asked for (written by the caller)."""

    @property
    def d(self) -> float:
        """Mean over seats of the candidate's score minus the baseline's."""
        diffs = [c.score - b.score for c, b in zip(self.candidate, self.baseline, strict=True)]
        return sum(diffs) / len(diffs)


def deal_plan(setup: ArenaSetup) -> list[tuple[int, int, int]]:
    """``(index, seed, dealer)`` of each deal: seeds drawn from the run's seed, the dealer rotating."""
    rng = random.Random(setup.seed)
    return [(i, rng.getrandbits(63), i % setup.rules.players) for i in range(setup.deals)]


def play(
    deal: Game,
    bots: Sequence[Bot | None],
    timed: int | None,
    declarers: Sequence[Bot | None] | None = None,
    until: Callable[[Game], bool] | None = None,
) -> list[float]:
    """Play a deal to its end, each seat's bot seeing only its view; the ``timed`` seat's decision times.

    With ``declarers``, every decision that is not a card play goes to the seat's declarer instead
    (and is not timed). With ``until``, play stops as soon as ``until(deal)`` holds.

    A bot that declares ``sees_everything = True`` (``cheat``, the upper bound) is first shown the
    deal itself through its ``observe_deal(deal)``: the arena is the only caller of that hook."""
    for bot in (*bots, *(declarers or ())):
        if bot is not None and getattr(bot, "sees_everything", False):
            bot.observe_deal(deal)  # type: ignore[attr-defined]
    times: list[float] = []
    clock = time.perf_counter
    while not deal.is_over() and not (until is not None and until(deal)):
        seat = deal.current_player
        legal = deal.legal_actions()
        bot = bots[seat]
        if declarers is not None and not is_card_play(deal, legal):
            bot = declarers[seat]
            timing = False
        else:
            timing = seat == timed
        assert bot is not None
        view = deal.view(seat)
        start = clock()
        action = bot.choose(view, legal)
        if timing:
            times.append(clock() - start)
        deal.apply(action)
    return times


def _bot_seed(*parts: int) -> int:
    return hash(parts) & (2**63 - 1)


_POOL: BotPool | None = None
"""This process's bots in child processes (``isolate``), kept from deal to deal."""

COMMAND: Final = "command:"
"""A bot name that starts so is a program speaking the bot protocol (docs/bot-protocol.md):
``command:python3 mybot.py`` runs ``python3 mybot.py`` in a child process."""

_PROGRAMS: dict[tuple[tuple[str, int], str], ProcessBot] = {}
"""This process's program bots (``command:``), one child per seat and program, kept from deal to deal."""


def bot_program(name: str) -> list[str] | None:
    """The program and its arguments of a ``command:`` bot name (split as a shell would); ``None``
    for a bot by name. A command that cannot be split raises :class:`ValueError`.

    >>> bot_program("command:python3 'my bot.py' --fast"), bot_program("rules")
    (['python3', 'my bot.py', '--fast'], None)
    """
    if not name.startswith(COMMAND):
        return None
    words = shlex.split(name[len(COMMAND) :])
    if not words:
        raise ValueError("a bot command needs at least a program")
    return words


def _pool() -> BotPool:
    global _POOL
    if _POOL is None:
        _POOL = BotPool()
        atexit.register(_close_pool)
    return _POOL


def _close_pool() -> None:
    global _POOL
    for program in _PROGRAMS.values():
        program.close()
    _PROGRAMS.clear()
    if _POOL is not None:
        _POOL.close()
        _POOL = None


@functools.cache
def _sees_everything(name: str) -> bool:
    return bot_program(name) is None and bool(getattr(make_bot(name), "sees_everything", False))


def _make(name: str, seed: int, key: tuple[str, int], isolate: bool, level: str | None = None) -> Bot:
    """A new bot, or with ``isolate`` the child process kept under ``key`` reset with ``seed``
    (the cheat, which is shown the deal, stays in this process); a ``command:`` bot is always a
    child process, kept under ``key``."""
    program = bot_program(name)
    if program is not None:
        bot = _PROGRAMS.get((key, name))
        if bot is None:
            if not _PROGRAMS:
                atexit.register(_close_pool)
            bot = _PROGRAMS[(key, name)] = ProcessBot(program, name=name[len(COMMAND) :])
        bot.reset(seed)
        return bot
    if not isolate or _sees_everything(name):
        return make_bot(name, level=level, rng=seed)
    return _pool().get(key, f"{name}:{level}" if level else name, seed)


def play_duplicate(
    options: dict[str, Any],
    names: tuple[str, str, str],
    plan: tuple[int, int, int],
    save: bool = False,
    candidate_level: str | None = None,
    track: str = "full",
    isolate: bool = False,
) -> DealResult:
    """Both halves of one deal: candidate then baseline in each seat, the reference elsewhere.

    In the ``cardplay`` track the reference bot first plays every seat up to the first card (seeded
    from the deal's seed alone), each half starts from a clone of that position, and the decisions
    that are not card plays (declarations before one's first card) stay the reference bot's.
    With ``isolate`` every bot but the cheat plays in a child process (:func:`_make`)."""
    rules = Rules.from_options(options)
    index, seed, dealer = plan
    start = new_deal(rules, dealer=dealer, rng=seed)
    seats = playing_seats(start)
    cardplay = track == "cardplay"
    if cardplay:
        auction: list[Bot | None] = [None] * rules.players
        for seat in seats:
            auction[seat] = _make(names[2], _bot_seed(seed, _AUCTION, seat), ("auction", seat), isolate)
        play(start, auction, None, until=is_card_play)
    result = DealResult(index, seed, dealer, seats)
    for s in seats:
        for side, name in zip(SIDES, names[:2], strict=True):
            deal = start.clone()
            bots: list[Bot | None] = [None] * rules.players
            declarers: list[Bot | None] | None = [None] * rules.players if cardplay else None
            for seat in seats:
                level = candidate_level if seat == s and side == "candidate" else None
                bots[seat] = _make(
                    name if seat == s else names[2], _bot_seed(seed, s, seat), ("seat", seat), isolate, level
                )
                if declarers is not None:
                    declarers[seat] = _make(
                        names[2], _bot_seed(seed, _DECLARE, seat), ("declarer", seat), isolate
                    )
            times = play(deal, bots, s, declarers)
            getattr(result, side).append(_seat_result(deal, s, times))
            if save:
                result.records.append((f"deal-{index:05d}-seat-{s}-{side}.json", write_record(deal, seed)))
    return result


def _seat_result(deal: Game, seat: int, times: list[float]) -> Seat:
    summary = deal.summary
    role: str | None = None
    made: bool | None = None
    if isinstance(summary, FrenchSummary):
        role = "taker" if seat == summary.taker else "partner" if seat == summary.partner else "defender"
        made = contract_made(summary)
    elif isinstance(summary, AustrianSummary):
        role = "taker" if seat == summary.declarer else "defender"
        made = declarer_wins(summary)
    bids = [b for s, b in table_bids(deal) if s == seat]
    return Seat(deal.scores()[seat], role, made, bids, times)


Task = tuple[dict[str, Any], tuple[str, str, str], tuple[int, int, int], bool, str | None, str, bool]


def _task(args: Task) -> DealResult:
    return play_duplicate(*args)


def _chunk(tasks: list[Task]) -> list[DealResult]:
    return [play_duplicate(*args) for args in tasks]


def play_all(
    setup: ArenaSetup,
    workers: int = 1,
    ray_address: str | None = None,
    skip: Collection[int] = frozenset(),
) -> Iterator[DealResult]:
    """Every deal's result but those whose index is in ``skip``, as they finish: here, over
    ``workers`` processes when more than one, or over the Ray cluster at ``ray_address``. Records
    (``save_dir``) are written here, by the caller."""
    names = (setup.candidate, setup.baseline, setup.reference)
    save_dir = setup.save_dir
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)
    tasks: list[Task] = [
        (
            setup.options(),
            names,
            plan,
            save_dir is not None,
            setup.candidate_level,
            setup.track,
            setup.isolate,
        )
        for plan in deal_plan(setup)
        if plan[0] not in skip
    ]
    if not tasks:
        return
    if ray_address is not None:
        results = _play_on_ray(tasks, ray_address)
    elif workers <= 1:
        results = map(_task, tasks)
    else:
        results = _play_on_pool(tasks, workers)
    try:
        for result in results:
            if save_dir is not None:
                for name, text in result.records:
                    (save_dir / name).write_text(text, encoding="utf-8")
                result.records = []
            yield result
    finally:
        _close_pool()  # the bots' child processes of this process (isolate, one worker)


POOL_CHUNK = 4
"""Most deals handed to a worker process at once: each deal reaches the progress bar and the
checkpoint soon after it finishes, and a stopped run loses little work."""


def _play_on_pool(tasks: list[Task], workers: int) -> Iterator[DealResult]:
    chunk = max(1, min(POOL_CHUNK, len(tasks) // (workers * 8)))
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap_unordered(_task, tasks, chunksize=chunk)


def import_ray() -> Any:
    """The ``ray`` module (an optional extra), imported only when asked for; :class:`ClusterError`
    saying how to install it when it is missing."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ClusterError(RAY_MISSING) from None


def _probe(address: str, timeout: float = 5.0) -> None:
    """A quick check that something answers at a ``host:port`` or ``ray://host:port`` address (Ray
    itself retries for minutes); other addresses (``auto``, ``local``) are left to Ray."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit() or "/" in host:
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ClusterError(
            f"cannot join the Ray cluster at {address}: nothing answers there ({reason})"
        ) from None


def _play_on_ray(tasks: list[Task], address: str) -> Iterator[DealResult]:
    """The deals as Ray remote tasks, in chunks (about 8 per CPU of the cluster), gathered as they
    finish. Every node needs ``atout`` installed. A connection opened here is closed here."""
    ray = import_ray()
    owned = not ray.is_initialized()
    if owned:
        _probe(address)
        try:
            ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
        except Exception as exc:  # ray raises several kinds (ConnectionError, ValueError, ...)
            lines = str(exc).strip().splitlines()
            reason = lines[0] if lines else type(exc).__name__
            raise ClusterError(f"cannot join the Ray cluster at {address}: {reason}") from None
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = max(1, len(tasks) // (cpus * 8))
        remote = ray.remote(_chunk)
        pending = [remote.remote(tasks[i : i + size]) for i in range(0, len(tasks), size)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield from ray.get(ref)
    finally:
        if owned:
            ray.shutdown()


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
    setup: ArenaSetup,
    workers: int = 1,
    progress: Callable[[DealResult], None] | None = None,
    ray_address: str | None = None,
    checkpoint: Path | None = None,
    on_resume: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play the whole match and gather the report's figures (the same wherever the deals ran).

    With a ``checkpoint`` file, the deals it holds for this setup are read rather than played
    (``on_resume`` is told how many; ``progress`` sees only the deals played), and every deal played
    is appended to it as it finishes. :class:`CheckpointError` when the file cannot be used."""
    start = time.perf_counter()
    results: list[DealResult] = []
    resumed = 0
    if checkpoint is None:
        for result in play_all(setup, workers, ray_address):
            results.append(result)
            if progress is not None:
                progress(result)
    else:
        if is_compressed(checkpoint):
            raise CheckpointError(
                f"{checkpoint} is compressed: arena-compare reads it as it is; to play more deals "
                "into it, decompress it first (gunzip -k)"
            )
        scan = _scan_checkpoint(checkpoint, setup)
        results.extend(scan.results.values())
        resumed = len(results)
        if on_resume is not None:
            on_resume(resumed)
        key = checkpoint_setup(setup)
        with _open_for_append(checkpoint, scan) as out:
            for result in play_all(setup, workers, ray_address, skip=scan.results.keys()):
                _append(checkpoint, out, key, result)
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
        "candidate_bot": setup.candidate.removeprefix(COMMAND),
        "candidate_level": setup.candidate_level,
        "baseline_bot": setup.baseline,
        "reference_bot": setup.reference,
        "track": setup.track,
        "deals": len(results),
        "resumed": resumed,
        "seed": setup.seed,
        "games_played": 2 * sum(len(r.seats) for r in results),
        "mean_d": round(statistics.fmean(ds), 3),
        "ci95": [round(low, 3), round(high, 3)],
        "resamples": setup.resamples,
        "candidate": side_figures([s for r in results for s in r.candidate]),
        "baseline": side_figures([s for r in results for s in r.baseline]),
        "workers": workers,
        "ray": ray_address,
        "seconds": round(elapsed, 2),
    }


def checkpoint_setup(setup: ArenaSetup) -> dict[str, Any]:
    """What decides a run's deal results, as plain JSON values: the key of its checkpoint lines.
    Not the number of deals: the first n deals of every run with this key are the same."""
    key = {
        "options": setup.options(),
        "candidate": setup.candidate,
        "baseline": setup.baseline,
        "reference": setup.reference,
        "candidate_level": setup.candidate_level,
        "track": setup.track,
        "seed": setup.seed,
    }
    plain: dict[str, Any] = json.loads(json.dumps(key))
    return plain


def read_checkpoint(path: Path, setup: ArenaSetup) -> dict[int, DealResult]:
    """The finished deals of ``setup`` (index below ``setup.deals``) in the checkpoint at ``path``,
    by index, the first line of a deal winning; none when there is no such file.

    Every line is checked, whatever its setup: :class:`CheckpointError` names the file and the
    line. A last line cut short (no final newline, not JSON: a run killed while writing) is left out."""
    return _scan_checkpoint(path, setup).results


@dataclass
class _Scan:
    results: dict[int, DealResult]
    size: int = 0
    """Where the next line goes: the file's length less an unfinished last line."""
    cut: bool = False
    """Whether the file ends with an unfinished line (cut off before the next line)."""
    newline: bool = False
    """Whether the file's last line lacks its newline (written before the next line)."""


def _scan_checkpoint(path: Path, setup: ArenaSetup) -> _Scan:
    key = checkpoint_setup(setup)
    plan = deal_plan(setup)
    results: dict[int, DealResult] = {}
    lines, size, cut, newline = _checkpoint_lines(path)
    for number, line_key, result in lines:
        if line_key != key or result.index >= setup.deals or result.index in results:
            continue
        if plan[result.index][1:] != (result.seed, result.dealer):
            raise CheckpointError(
                f"{path}, line {number}: deal {result.index} has another seed or dealer than this run's"
            )
        results[result.index] = result
    return _Scan(results, size, cut, newline)


_Lines = list[tuple[int, dict[str, Any], DealResult]]


def _checkpoint_lines(path: Path) -> tuple[_Lines, int, bool, bool]:
    """Every line of a checkpoint as ``(line number, setup, deal)`` (none when there is no file),
    then where the next line goes, whether an unfinished last line is to be cut off, and whether
    the last line lacks its newline. A file named ``*.gz`` is read through gzip (such a file is
    read, never written). :class:`CheckpointError` names the file and the bad line."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return [], 0, False, False
    except IsADirectoryError:
        raise CheckpointError(f"{path} is a folder, not a checkpoint file") from None
    except OSError as exc:
        raise CheckpointError(f"cannot read {path}: {exc.strerror or type(exc).__name__}") from None
    if is_compressed(path):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise CheckpointError(f"{path} is not a readable gzip file ({exc})") from None
    lines = data.split(b"\n")
    last = lines.pop()  # b"" when the file ends with a newline
    cut = newline = False
    if last.strip():
        try:
            json.loads(last)
        except ValueError:
            cut = True  # a line cut short by a killed run: dropped, then written over
        else:
            lines.append(last)
            newline = True
    parsed: _Lines = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            parsed.append((number, *_parse_line(line)))
        except (ValueError, TypeError, KeyError) as exc:
            raise CheckpointError(f"{path}, line {number}: {exc}") from None
    return parsed, len(data) - len(last) if cut else len(data), cut, newline


def is_compressed(path: Path) -> bool:
    """Whether ``path`` names a gzip-compressed checkpoint (``*.gz``): one to compare, not to extend."""
    return path.suffix == ".gz"


def checkpoint_runs(path: Path) -> list[tuple[dict[str, Any], dict[int, DealResult]]]:
    """The runs a checkpoint holds, in the order they first appear: each setup with its deals by
    index (the first line of a deal winning). :class:`CheckpointError` for a bad or missing file."""
    if not path.exists():
        raise CheckpointError(f"{path}: no such file")
    runs: list[tuple[dict[str, Any], dict[int, DealResult]]] = []
    for _, key, result in _checkpoint_lines(path)[0]:
        deals = next((d for k, d in runs if k == key), None)
        if deals is None:
            deals = {}
            runs.append((key, deals))
        deals.setdefault(result.index, result)
    return runs


def run_label(key: dict[str, Any]) -> str:
    """A run's candidate as one spec: ``expert:strong``, ``expert:fast,simulations=0``, ``rules``.

    >>> run_label({"candidate": "expert", "candidate_level": "strong"}), run_label({"candidate": "rules"})
    ('expert:strong', 'rules')
    """
    level = key.get("candidate_level")
    return f"{key['candidate']}:{level}" if level else str(key["candidate"])


def compare_runs(
    runs_a: list[tuple[dict[str, Any], dict[int, DealResult]]],
    runs_b: list[tuple[dict[str, Any], dict[int, DealResult]]],
    label_a: str | None = None,
    label_b: str | None = None,
    resamples: int = RESAMPLES,
) -> dict[str, Any]:
    """Two candidates, each run against the same baseline and reference on the same deals (same
    rules, track and seed), compared deal by deal: per deal, A's d minus B's d, which is what a
    run of A against B as baseline would give (the bots' seeds do not depend on their side). The
    pair of runs is the one whose candidates are ``label_a`` and ``label_b`` (:func:`run_label`),
    or the only pair that fits; ``ValueError`` says why none or several do."""

    def shared(key: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in key.items() if k not in ("candidate", "candidate_level")}

    one_file = runs_a is runs_b and label_a is None and label_b is None
    pairs = [
        (key_a, deals_a, key_b, deals_b)
        for i, (key_a, deals_a) in enumerate(runs_a)
        for j, (key_b, deals_b) in enumerate(runs_b)
        if (key_a != key_b or runs_a is not runs_b)  # two files may hold one candidate (two versions)
        and not (one_file and j < i)  # one file, no names: each pair once, in file order
        and shared(key_a) == shared(key_b)
        and label_a in (None, run_label(key_a))
        and label_b in (None, run_label(key_b))
    ]
    if not pairs:
        found = ", ".join(sorted({run_label(k) for k, _ in [*runs_a, *runs_b]})) or "none"
        raise ValueError(
            "no two runs to compare: they need the same rules, baseline, reference, track and seed "
            f"(candidates found: {found})"
        )
    if len(pairs) > 1:
        choices = "; ".join(f"{run_label(a)} vs {run_label(b)}" for a, _, b, _ in pairs)
        raise ValueError(f"several pairs of runs fit ({choices}): name the two candidates")
    key_a, deals_a, key_b, deals_b = pairs[0]
    common = sorted(set(deals_a) & set(deals_b))
    if not common:
        raise ValueError(f"{run_label(key_a)} and {run_label(key_b)} share no finished deal")
    d_a = [deals_a[i].d for i in common]
    d_b = [deals_b[i].d for i in common]
    diffs = [a - b for a, b in zip(d_a, d_b, strict=True)]
    low, high = bootstrap_ci(diffs, resamples, key_a["seed"])
    return {
        "a": run_label(key_a),
        "b": run_label(key_b),
        "setup": shared(key_a),
        "deals": len(common),
        "mean_d_a": round(statistics.fmean(d_a), 3),
        "mean_d_b": round(statistics.fmean(d_b), 3),
        "mean_diff": round(statistics.fmean(diffs), 3),
        "ci95": [round(low, 3), round(high, 3)],
        "deals_differing": sum(1 for x in diffs if x),
        "resamples": resamples,
    }


class _SeatLine(BaseModel):
    """One tested seat's game as a checkpoint line holds it."""

    model_config = ConfigDict(strict=True)
    score: int
    role: str | None
    made: bool | None
    bids: list[str]
    times: list[float]


class _DealLine(BaseModel):
    """A checkpoint line: the run's setup and one finished deal."""

    model_config = ConfigDict(strict=True)
    setup: dict[str, Any]
    index: int = Field(ge=0)
    seed: int = Field(ge=0)
    dealer: int = Field(ge=0)
    seats: list[int]
    candidate: list[_SeatLine]
    baseline: list[_SeatLine]


def _parse_line(line: bytes) -> tuple[dict[str, Any], DealResult]:
    """A checkpoint line's setup and deal; ``ValueError`` saying what is wrong."""
    try:
        obj = _DealLine.model_validate_json(line)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ValueError(f"{where}: {first['msg']}" if where else first["msg"]) from None
    if not len(obj.candidate) == len(obj.baseline) == len(obj.seats):
        raise ValueError("not one game per seat and side")
    candidate, baseline = ([Seat(**s.model_dump()) for s in side] for side in (obj.candidate, obj.baseline))
    return obj.setup, DealResult(obj.index, obj.seed, obj.dealer, obj.seats, candidate, baseline)


def _open_for_append(path: Path, scan: _Scan) -> IO[bytes]:
    """The checkpoint opened to append lines: an unfinished last line cut off, a missing newline added."""
    try:
        out = path.open("ab")
        try:
            if scan.cut:
                out.truncate(scan.size)
            if scan.newline:
                out.write(b"\n")
                out.flush()
        except BaseException:
            out.close()
            raise
    except OSError as exc:
        raise CheckpointError(f"cannot write {path}: {exc.strerror or type(exc).__name__}") from None
    return out


def _append(path: Path, out: IO[bytes], key: dict[str, Any], result: DealResult) -> None:
    """One finished deal as a line of the checkpoint, flushed at once (records left out)."""
    fields = {f.name: getattr(result, f.name) for f in dataclasses.fields(result) if f.name != "records"}
    line = {"setup": key, **fields}
    line["candidate"] = [dataclasses.asdict(s) for s in result.candidate]
    line["baseline"] = [dataclasses.asdict(s) for s in result.baseline]
    try:
        out.write(json.dumps(line, separators=(",", ":")).encode() + b"\n")
        out.flush()
    except OSError as exc:
        raise CheckpointError(f"cannot write {path}: {exc.strerror or type(exc).__name__}") from None


def add_gap_closed(report: dict[str, Any], cheat_report: dict[str, Any]) -> dict[str, Any]:
    """The report with the ``cheat`` run's mean d beside it and "gap closed" = (A − R)/(cheat − R):
    both runs share the deals, baseline and reference, so that is mean d over the cheat's mean d.
    ``cheat_resumed``: how many of the cheat's deals came from a checkpoint.

    >>> add_gap_closed({"mean_d": 5.0}, {"mean_d": 20.0, "ci95": [15.0, 25.0]})["gap_closed"]
    0.25
    """
    cheat_d = cheat_report["mean_d"]
    gap = round(report["mean_d"] / cheat_d, 4) if cheat_d else None
    return {
        **report,
        "cheat_mean_d": cheat_d,
        "cheat_ci95": cheat_report["ci95"],
        "cheat_resumed": cheat_report.get("resumed", 0),
        "gap_closed": gap,
    }


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

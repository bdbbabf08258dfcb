"""``atout arena``: duplicate deals between a candidate bot and a baseline bot."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from atout.cli.common import GameOption, OptionsOption, PlayersOption, RulesOption, fail, rules_from_cli

# atout.arena and the bots (and numba through them) are imported by the commands, not at start-up


def arena_command(
    candidate: Annotated[str, typer.Option("--candidate", help="The bot under test.")] = "rules",
    bot_command: Annotated[
        str | None,
        typer.Option(
            "--bot-command",
            metavar="COMMAND",
            help="The bot under test is this program, in any language, speaking the bot protocol "
            '(docs/bot-protocol.md): --bot-command "python3 mybot.py".',
        ),
    ] = None,
    level: Annotated[
        str | None, typer.Option("--level", "-l", help="The candidate's level (expert: fast or strong).")
    ] = None,
    baseline: Annotated[str, typer.Option("--baseline", help="The bot it is measured against.")] = "random",
    reference: Annotated[str, typer.Option("--reference", help="The bot in the other seats.")] = "random",
    deals: Annotated[int, typer.Option("--deals", "-n", help="How many duplicate deals.")] = 200,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the whole run.")] = 0,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Processes to play on.")] = 1,
    players: PlayersOption = None,
    game: GameOption = None,
    preset: RulesOption = "fft",
    option: OptionsOption = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    save_dir: Annotated[
        Path | None, typer.Option("--save-dir", help="Folder for a record of every game played.")
    ] = None,
    cheat: Annotated[
        bool, typer.Option("--cheat", help="Also play the cheat bot on the same deals: gap closed.")
    ] = False,
    track: Annotated[
        str,
        typer.Option(
            "--track",
            help="full: the tested seat makes every decision; cardplay: the reference bot bids, calls, "
            "discards and declares (the same in both halves), the tested seat plays the cards.",
        ),
    ] = "full",
    think: Annotated[
        float | None,
        typer.Option("--think", metavar="SECONDS", help="Time budget per decision of every expert bot."),
    ] = None,
    ray_address: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="ADDRESS",
            help="Play the deals over the Ray cluster at ADDRESS (auto, host:6379, ray://host:10001) "
            "instead of --workers; needs the ray extra.",
        ),
    ] = None,
    checkpoint: Annotated[
        Path | None,
        typer.Option(
            "--checkpoint",
            metavar="FILE",
            help="JSON Lines file of finished deals: a run killed or stopped resumes from it, and a "
            "later run with more --deals extends it.",
        ),
    ] = None,
    isolate: Annotated[
        bool,
        typer.Option(
            "--isolate",
            help="Every bot in a child process of its own that sees only the wire form of its views "
            "(docs/bot-protocol.md): the same results, slower.",
        ),
    ] = False,
) -> None:
    """Play duplicate deals: the candidate, then the baseline, in each seat against the reference."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from atout.arena import (
        COMMAND,
        TRACKS,
        ArenaSetup,
        CheckpointError,
        ClusterError,
        add_gap_closed,
        import_ray,
        run_arena,
    )
    from atout.bots.process import BotError
    from atout.bots.registry import make_bot, unsupported, with_think
    from atout.games import new_deal

    if deals < 1:
        fail("--deals must be at least 1")
    if workers < 1:
        fail("--workers must be at least 1")
    if think is not None:
        if not think > 0:
            fail("--think must be a positive number of seconds")
        if level is not None:
            candidate, level = f"{candidate}:{level}", None
        candidate, baseline, reference = (with_think(b, think) for b in (candidate, baseline, reference))
    track = track.strip().lower()
    if track not in TRACKS:
        fail(f"--track must be one of {', '.join(TRACKS)}, not {track!r}")
    if ray_address is not None:
        if not ray_address.strip():
            fail("--ray needs an address: auto, host:6379 or ray://host:10001")
        try:
            import_ray()
        except ClusterError as exc:
            fail(str(exc))
    program: list[str] | None = None
    if bot_command is not None:
        try:
            program = shlex.split(bot_command)
        except ValueError as exc:
            fail(f"--bot-command: {exc}")
        if not program:
            fail('--bot-command needs a program: --bot-command "python3 mybot.py"')
        if shutil.which(program[0]) is None:
            fail(f"--bot-command: no program {program[0]!r} found")
        if level is not None:
            fail("--level is for a bot by name, not --bot-command")
    for flag, name, lv in (
        ("--candidate", candidate, level),
        ("--baseline", baseline, None),
        ("--reference", reference, None),
    ):
        try:
            make_bot(name, level=lv)
        except ValueError as exc:
            fail(f"{flag}: {exc}")
    rules = rules_from_cli(players, option, preset, game)
    try:
        new_deal(rules, rng=0)
    except ValueError as exc:
        fail(str(exc))
    for flag, name in (("--candidate", candidate), ("--baseline", baseline), ("--reference", reference)):
        why = unsupported(make_bot(name), rules)
        if why is not None:
            fail(f"{flag}: {why}")
    if bot_command is not None:
        candidate = COMMAND + bot_command
    if save_dir is not None and save_dir.exists() and not save_dir.is_dir():
        fail(f"--save-dir: {save_dir} is not a folder")
    if checkpoint is not None and checkpoint.is_dir():
        fail(f"--checkpoint: {checkpoint} is a folder, not a checkpoint file")
    setup = ArenaSetup(
        rules,
        candidate,
        baseline,
        reference,
        deals,
        seed,
        save_dir,
        candidate_level=level,
        track=track,
        isolate=isolate,
    )
    runs = [setup]
    if cheat:
        runs.append(
            ArenaSetup(rules, "cheat", baseline, reference, deals, seed, track=track, isolate=isolate)
        )
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=json_output,
        transient=True,
    ) as bar:
        task = bar.add_task("arena", total=deals * len(runs))
        left, resumed = deals * len(runs), 0

        def on_resume(count: int) -> None:
            """The bar counts the deals to play: those read from the checkpoint leave it."""
            nonlocal left, resumed
            left, resumed = left - count, resumed + count
            if count:
                bar.update(task, total=left, description=f"arena ({resumed} deals resumed)")

        try:
            reports = [
                run_arena(
                    run,
                    workers,
                    progress=lambda _: bar.advance(task),
                    ray_address=ray_address,
                    checkpoint=checkpoint,
                    on_resume=on_resume,
                )
                for run in runs
            ]
        except ClusterError as exc:
            fail(f"--ray: {exc}")
        except CheckpointError as exc:
            fail(f"--checkpoint: {exc}")
        except BotError as exc:
            fail(str(exc))
    report = reports[0] if not cheat else add_gap_closed(reports[0], reports[1])
    if json_output:
        typer.echo(json.dumps(report, indent=1))
    else:
        print_report(report)


def arena_compare_command(
    first: Annotated[Path, typer.Argument(help="Checkpoint file of candidate A's run (--checkpoint).")],
    second: Annotated[
        Path | None, typer.Argument(help="Checkpoint file of candidate B's run (default: the same file).")
    ] = None,
    label_a: Annotated[
        str | None, typer.Option("--a", help="Candidate A as the run names it (expert:strong, rules...).")
    ] = None,
    label_b: Annotated[str | None, typer.Option("--b", help="Candidate B, likewise.")] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print the comparison as JSON.")] = False,
) -> None:
    """Compare two candidates run separately (each with --checkpoint) against the same baseline on
    the same deals: deal by deal, as if A had played against B."""
    from atout.arena import CheckpointError, checkpoint_runs, compare_runs

    try:
        runs_a = checkpoint_runs(first)
        runs_b = runs_a if second is None or second == first else checkpoint_runs(second)
        report = compare_runs(runs_a, runs_b, label_a, label_b)
    except CheckpointError as exc:
        fail(str(exc))
    except ValueError as exc:
        fail(str(exc))
    if json_output:
        typer.echo(json.dumps(report, indent=1))
        return
    low, high = report["ci95"]
    verdict = "A ahead" if low > 0 else "B ahead" if high < 0 else "not separated"
    setup = report["setup"]
    Console().print(
        f"A = [bold]{report['a']}[/], B = [bold]{report['b']}[/] (baseline {setup['baseline']}, "
        f"others {setup['reference']}, track {setup['track']}, seed {setup['seed']}), "
        f"{report['deals']} common deals, {report['deals_differing']} with a difference\n"
        f"mean d: A {report['mean_d_a']:+.2f}, B {report['mean_d_b']:+.2f}; "
        f"A − B = [bold]{report['mean_diff']:+.2f}[/] per deal, 95% CI [{low:+.2f}, {high:+.2f}]: {verdict}",
        soft_wrap=True,
    )


def print_report(report: dict[str, Any]) -> None:
    """The report as a headline and a table, candidate beside baseline."""
    console = Console()
    game = "Austrian Tarock" if report["game"] == "austrian" else "French Tarot"
    low, high = report["ci95"]
    verdict = "ahead" if low > 0 else "behind" if high < 0 else "not separated"
    where = f" on Ray ({report['ray']})" if report.get("ray") else ""
    console.print(
        f"[bold]{report['candidate_bot']}{_level(report)}[/] vs [bold]{report['baseline_bot']}[/] "
        f"(others: {report['reference_bot']}), {report['deals']} duplicate deals of {game} for "
        f"{report['players']} players, seed {report['seed']}: {report['games_played']} games in "
        f"{report['seconds']:.1f} s{where}"
    )
    if report.get("resumed"):
        console.print(
            f"{report['resumed']} of the {report['deals']} deals resumed from the checkpoint "
            "(the time above is this run's alone)"
        )
    console.print(TRACK_LINES[report.get("track", "full")])
    console.print(
        f"mean d = [bold]{report['mean_d']:+.2f}[/] per deal, 95% CI [{low:+.2f}, {high:+.2f}]: {verdict}"
    )
    if "gap_closed" in report:
        c_low, c_high = report["cheat_ci95"]
        console.print(
            f"cheat: mean d = {report['cheat_mean_d']:+.2f}, 95% CI [{c_low:+.2f}, {c_high:+.2f}]; "
            f"gap closed = (A − R)/(cheat − R) = [bold]{_cell(report['gap_closed'])}[/]"
        )
    table = Table()
    table.add_column("")
    table.add_column(f"candidate ({report['candidate_bot']})", justify="right")
    table.add_column(f"baseline ({report['baseline_bot']})", justify="right")
    c, b = report["candidate"], report["baseline"]
    rows = (
        ("mean score", "mean_score"),
        ("taker share", "taker_share"),
        ("taker success", "taker_success_rate"),
        ("points as taker", "mean_points_as_taker"),
        ("points as partner", "mean_points_as_partner"),
        ("points as defender", "mean_points_as_defender"),
    )
    for label, key in rows:
        table.add_row(label, _cell(c[key]), _cell(b[key]))
    table.add_row("bids", _bids(c["bids"]), _bids(b["bids"]))
    for key in ("mean", "p99"):
        table.add_row(
            f"ms per decision ({key})", _cell(c["ms_per_decision"][key]), _cell(b["ms_per_decision"][key])
        )
    console.print(table)


TRACK_LINES = {
    "full": "track: full (the tested seat makes every decision)",
    "cardplay": "track: cardplay (bids, call, écart and declarations by the reference bot, the same "
    "in both halves; only card play differs)",
}


def _level(report: dict[str, Any]) -> str:
    level = report.get("candidate_level")
    return f" ({level})" if level else ""


def _cell(value: object) -> str:
    return "-" if value is None else str(value)


def _bids(bids: dict[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in bids.items()) or "-"

"""``atout rules``: the presets and options a table can choose."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from atout.cli.common import fail
from atout.presets import PRESETS, preset, rules_for
from atout.rules import OPTION_HELP, Rules, RulesError


def rules_command(
    name: Annotated[str | None, typer.Argument(metavar="[PRESET]", help="A preset to show in full.")] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """List the rules presets and every option, or show every value of one preset."""
    console = Console(highlight=False)
    if name is None:
        if json_output:
            typer.echo(json.dumps(_listing(), indent=1, ensure_ascii=False))
            return
        _print_listing(console)
        return
    try:
        chosen = preset(name)
        rules = rules_for(name)
    except RulesError as exc:
        fail(str(exc))
    values = rules.to_dict()
    if json_output:
        typer.echo(json.dumps({"preset": chosen.name, "options": values}, indent=1, ensure_ascii=False))
        return
    console.print(f"[bold]{chosen.name}[/]: {chosen.title}")
    console.print(f"Source: {chosen.source}")
    default = Rules(game=rules.game, players=rules.players).to_dict()
    table = Table()
    table.add_column("option")
    table.add_column("value")
    table.add_column("meaning")
    for option, value in values.items():
        mark = "[bold yellow]" if value != default[option] else ""
        shown = json.dumps(value, ensure_ascii=False)
        table.add_row(option, f"{mark}{shown}[/]" if mark else shown, OPTION_HELP[option])
    console.print(table)
    console.print(
        "[bold yellow]Highlighted[/]: set by the preset. Change any option with --option name=value."
    )


def _listing() -> dict[str, object]:
    defaults = Rules().to_dict()
    return {
        "presets": [
            {"name": p.name, "aliases": list(p.aliases), "title": p.title, "options": dict(p.options)}
            for p in PRESETS
        ],
        "options": [{"name": k, "default": defaults[k], "meaning": OPTION_HELP[k]} for k in defaults],
    }


def _print_listing(console: Console) -> None:
    table = Table(title="Presets (--rules NAME)")
    table.add_column("preset")
    table.add_column("also")
    table.add_column("what it is")
    for p in PRESETS:
        table.add_row(p.name, ", ".join(p.aliases), p.title)
    console.print(table)
    table = Table(title="Options (--option name=value)")
    table.add_column("option")
    table.add_column("default")
    table.add_column("meaning")
    for option, value in Rules().to_dict().items():
        table.add_row(option, json.dumps(value, ensure_ascii=False), OPTION_HELP[option])
    console.print(table)

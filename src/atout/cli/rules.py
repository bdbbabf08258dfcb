"""``atout rules``: the presets and options a table can choose.

On a wide terminal they are tables; piped, or on a terminal too narrow for a table that keeps
every option name whole, one entry per line (``name=value  meaning``, grep-friendly when piped)."""

from __future__ import annotations

import json
from collections.abc import Set as AbstractSet
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
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
    console.print(f"[bold]{chosen.name}[/]: {chosen.title}", soft_wrap=not console.is_terminal)
    console.print(f"Source: {escape(chosen.source)}", soft_wrap=not console.is_terminal)
    default = Rules(game=rules.game, players=rules.players).to_dict()
    changed = {option for option, value in values.items() if value != default[option]}
    if not _tables_fit(console):
        _print_lines(console, values, changed)
        console.print("*: set by the preset. Change any option with --option name=value.", soft_wrap=True)
        return
    table = Table()
    table.add_column("option", no_wrap=True)
    table.add_column("value")
    table.add_column("meaning")
    for option, value in values.items():
        mark = "[bold yellow]" if option in changed else ""
        shown = json.dumps(value, ensure_ascii=False)
        table.add_row(option, f"{mark}{shown}[/]" if mark else shown, OPTION_HELP[option])
    console.print(table)
    console.print(
        "[bold yellow]Highlighted[/]: set by the preset. Change any option with --option name=value."
    )


TABLE_WIDTH = 100
"""The narrowest terminal that gets tables: the longest option name whole, and room for the rest."""


def _tables_fit(console: Console) -> bool:
    """Tables on a terminal wide enough for them; one entry per line otherwise, or when piped."""
    return console.is_terminal and console.width >= TABLE_WIDTH


def _print_lines(console: Console, values: dict[str, object], marked: AbstractSet[str] = frozenset()) -> None:
    """One option per line, its name never cut. Piped, the meaning follows on the same line; on a
    narrow terminal it is wrapped, indented, on the lines below."""
    for option, value in values.items():
        head = f"{'* ' if option in marked else ''}{option}={json.dumps(value, ensure_ascii=False)}"
        if console.is_terminal:
            console.print(escape(head), soft_wrap=True)
            console.print(Padding(escape(OPTION_HELP[option]), (0, 0, 0, 4)))
        else:
            console.print(escape(f"{head}  {OPTION_HELP[option]}"), soft_wrap=True)


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
    if not _tables_fit(console):
        console.print("Presets (--rules NAME):", soft_wrap=True)
        for p in PRESETS:
            also = f" (also {', '.join(p.aliases)})" if p.aliases else ""
            console.print(escape(f"{p.name}{also}: {p.title}"), soft_wrap=not console.is_terminal)
        console.print("\nOptions (--option name=value), with their defaults:", soft_wrap=True)
        _print_lines(console, Rules().to_dict())
        return
    table = Table(title="Presets (--rules NAME)")
    table.add_column("preset", no_wrap=True)
    table.add_column("also")
    table.add_column("what it is")
    for p in PRESETS:
        table.add_row(p.name, ", ".join(p.aliases), p.title)
    console.print(table)
    table = Table(title="Options (--option name=value)")
    table.add_column("option", no_wrap=True)
    table.add_column("default")
    table.add_column("meaning")
    for option, value in Rules().to_dict().items():
        table.add_row(option, json.dumps(value, ensure_ascii=False), OPTION_HELP[option])
    console.print(table)

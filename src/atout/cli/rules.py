"""``atout rules``: the presets and options a table can choose.

A preset is shown with the options of its own game only (an Austrian preset has no poignée, a
French one no talon); the listing of every option groups them by the game that reads them.
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
from atout.rules import OPTION_HELP, SHARED_OPTIONS, Rules, RulesError, options_of_game


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
    everything = rules.to_dict()
    values = {option: everything[option] for option in options_of_game(rules.game)}
    if json_output:
        typer.echo(json.dumps({"preset": chosen.name, "options": values}, indent=1, ensure_ascii=False))
        return
    console.print(f"[bold]{chosen.name}[/]: {chosen.title}", soft_wrap=not console.is_terminal)
    console.print(f"Source: {escape(chosen.source)}", soft_wrap=not console.is_terminal)
    default = Rules(game=rules.game, players=rules.players).to_dict()
    named = set(chosen.options) - {"game", "players"}  # a preset may name a default to be plain
    changed = {option for option, value in values.items() if value != default[option] or option in named}
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


GAMES = {"french": "French Tarot", "austrian": "Austrian Tarock"}
"""Each game by the name a person reads."""


def option_groups() -> list[tuple[str, list[str]]]:
    """The options under a heading each: those every game reads, then each game's own."""
    groups = [("every game", list(SHARED_OPTIONS))]
    for game, title in GAMES.items():
        groups.append((title, [o for o in options_of_game(game) if o not in SHARED_OPTIONS]))
    return groups


def _listing() -> dict[str, object]:
    defaults = Rules().to_dict()
    games = {option: [g for g in GAMES if option in options_of_game(g)] for option in defaults}
    return {
        "presets": [
            {
                "name": p.name,
                "aliases": list(p.aliases),
                "title": p.title,
                "game": p.options.get("game", "french"),
                "options": dict(p.options),
            }
            for p in PRESETS
        ],
        "options": [
            {"name": k, "default": defaults[k], "meaning": OPTION_HELP[k], "games": games[k]}
            for k in defaults
        ],
    }


def _print_listing(console: Console) -> None:
    defaults = Rules().to_dict()
    if not _tables_fit(console):
        console.print("Presets (--rules NAME):", soft_wrap=True)
        for p in PRESETS:
            also = f" (also {', '.join(p.aliases)})" if p.aliases else ""
            console.print(escape(f"{p.name}{also}: {p.title}"), soft_wrap=not console.is_terminal)
        for heading, names in option_groups():
            console.print(
                f"\nOptions of {heading} (--option name=value), with their defaults:", soft_wrap=True
            )
            _print_lines(console, {name: defaults[name] for name in names})
        return
    table = Table(title="Presets (--rules NAME)")
    table.add_column("preset", no_wrap=True)
    table.add_column("also")
    table.add_column("what it is")
    for p in PRESETS:
        table.add_row(p.name, ", ".join(p.aliases), p.title)
    console.print(table)
    for heading, names in option_groups():
        table = Table(title=f"Options of {heading} (--option name=value)")
        table.add_column("option", no_wrap=True)
        table.add_column("default")
        table.add_column("meaning")
        for option in names:
            table.add_row(option, json.dumps(defaults[option], ensure_ascii=False), OPTION_HELP[option])
        console.print(table)

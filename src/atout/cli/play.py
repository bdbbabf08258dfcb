"""``atout play``: one deal in the terminal, you against computer players."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from atout.bots.base import Bot
from atout.bots.registry import make_bot, unsupported, with_think
from atout.cli.common import (
    GameOption,
    OptionsOption,
    PlayersOption,
    RulesOption,
    fail,
    rules_from_cli,
)
from atout.cli.render import card_markup, cards_markup, describe_event, seat_name
from atout.engine.austrian.view import AustrianView
from atout.engine.errors import IllegalActionError
from atout.engine.two_player import TwoPlayerView
from atout.engine.view import SeatView
from atout.games import Deal, new_deal
from atout.records import write_record

_PROMPTS = {
    "excuse_sec": "Before the bidding: show an Excuse sec and cancel the deal?",
    "bidding": "Your bid",
    "call": "Call a card",
    "talon": "Take a talon half",
    "discard": "Discard a card",
    "chelem": "Announce a chelem? (chelem / no)",
    "game": "Declare your game",
    "misere": "Declare a misère?",
    "poignee": "Show a poignée?",
    "play": "Your card",
}
AnyView = SeatView | TwoPlayerView | AustrianView
HELP = (
    "Type a card as rank then suit: KS (king of spades), QH, CD (cavalier), JC (valet), 10S, 1H; "
    "trumps T1..T21; the Excuse EX (Sküs in Austrian Tarock). French bids: pass, petite, garde, "
    "garde_sans, garde_contre; Austrian bids: pass, threesome, solo. At any prompt the words in "
    "brackets are the legal answers. Commands: hand, help, quit."
)


def play_command(
    players: PlayersOption = None,
    game: GameOption = None,
    preset: RulesOption = "fft",
    seat: Annotated[
        int, typer.Option("--seat", help="Your seat, 0 to players-1; the dealer sits just before you.")
    ] = 0,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Seed for a reproducible deal.")] = None,
    option: OptionsOption = None,
    save: Annotated[Path | None, typer.Option("--save", help="Write the deal's record to this file.")] = None,
    bot: Annotated[
        str,
        typer.Option("--bot", "-b", help="The computer players: random, rules, expert, expert:strong."),
    ] = "expert",
    think: Annotated[
        float | None,
        typer.Option("--think", metavar="SECONDS", help="Time budget per decision of expert players."),
    ] = None,
) -> None:
    """Play one deal against computer players, typing card names."""
    if think is not None and not think > 0:
        fail("--think must be a positive number of seconds")
    bot = with_think(bot, think)
    if bot.strip().lower().partition(":")[0] == "cheat":
        fail("--bot: the cheat bot sees every card; it is for the arena only")
    try:
        make_bot(bot)
    except ValueError as exc:
        fail(f"--bot: {exc}")
    rules = rules_from_cli(players, option, preset, game)
    why = unsupported(make_bot(bot), rules)
    if why is not None:
        fail(f"--bot: {why}")
    players = rules.players
    if not 0 <= seat < players:
        fail(f"--seat must be 0..{players - 1}")
    rng = random.Random(seed)
    try:
        deal = new_deal(rules, dealer=(seat - 1) % players, rng=rng)
    except ValueError as exc:
        fail(str(exc))
    console = Console(highlight=False)
    game = "Austrian Tarock" if rules.game == "austrian" else "French Tarot"
    console.print(f"[bold]{game} for {players}[/]: you are seat {seat}; type [bold]help[/] for help.")
    bots = {s: make_bot(bot, rng=rng) for s in range(players) if s != seat}
    finished = play_deal(deal, seat, bots, console)
    if save is not None:
        try:
            save.write_text(write_record(deal, seed), encoding="utf-8")
        except OSError as exc:
            fail(f"{save}: {exc.strerror}")
        console.print(f"Record written to {save}", soft_wrap=True)
    if not finished:
        raise typer.Exit(0)


def play_deal(deal: Deal, you: int, bots: dict[int, Bot], console: Console) -> bool:
    """Run the deal to its end; False if the player quit."""
    told = 0
    while not deal.is_over():
        told = _narrate(deal, you, told, console)
        player = deal.current_player
        if player != you:
            deal.apply(bots[player].choose(deal.view(player), deal.legal_actions()))
            continue
        action = _ask(deal, deal.view(you), console)
        if action is None:
            console.print("You leave the table.")
            return False
        deal.apply(action)
    _narrate(deal, you, told, console)
    console.print(
        "[bold]Scores[/]: " + ", ".join(f"{seat_name(s, you)} {v:+d}" for s, v in enumerate(deal.scores()))
    )
    return True


def _narrate(deal: Deal, you: int, told: int, console: Console) -> int:
    events = deal.view(you).events
    for event in events[told:]:
        line = describe_event(event, you)
        if line:
            console.print(line)
    return len(events)


def _ask(deal: Deal, view: AnyView, console: Console) -> int | None:
    phase = view.phase
    _show_table(view, console)
    while True:
        try:
            text = console.input(f"{_PROMPTS[phase]} [dim]({_legal_hint(view)})[/]: ").strip()
        except (EOFError, KeyboardInterrupt):
            return None
        if text.lower() in ("quit", "exit", "q"):
            return None
        if text.lower() in ("help", "?", "h"):
            console.print(HELP)
            continue
        if text.lower() == "hand":
            _show_table(view, console)
            continue
        if not text:
            continue
        try:
            action = deal.parse(text)
        except ValueError as exc:
            console.print(f"[red]{exc}[/]")
            continue
        if action not in view.legal_actions:
            try:
                deal.clone().apply(action)
            except IllegalActionError as exc:
                console.print(f"[red]Not allowed: {exc}[/]")
            continue
        return action


def _show_table(view: AnyView, console: Console) -> None:
    console.print(f"Your hand: {cards_markup(view.hand)}")
    if isinstance(view, TwoPlayerView):
        console.print(f"Your piles: {_tops(view.own_tops)}   Opponent's piles: {_tops(view.opponent_tops)}")
    if view.trick:
        console.print(
            "On the table: " + ", ".join(f"{seat_name(s, view.seat)} {card_markup(c)}" for s, c in view.trick)
        )


def _tops(tops: tuple[int | None, ...]) -> str:
    return " ".join(card_markup(c) if c is not None else "-" for c in tops)


def _legal_hint(view: AnyView) -> str:
    legal = view.legal_actions
    cards = [a.card for a in legal]
    if legal and all(c is not None for c in cards):
        return " ".join(card_markup(c) for c in cards if c is not None)
    return " / ".join(str(a).replace("_", " ") for a in legal)

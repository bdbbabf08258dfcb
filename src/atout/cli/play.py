"""``atout play``: a session of deals in the terminal, you against computer players."""

from __future__ import annotations

import importlib.util
import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

from atout import i18n
from atout.cli.common import (
    GameOption,
    OptionsOption,
    PlayersOption,
    RulesOption,
    fail,
    rules_from_cli,
)
from atout.cli.render import (
    bid_worth,
    card_markup,
    cards_markup,
    describe_event,
    hand_order,
    name_seats,
    seat_name,
    status_line,
    trick_line,
)
from atout.cli.summary import breakdown_lines
from atout.engine.errors import IllegalActionError
from atout.engine.refusals import refusal_text
from atout.games import Game, View, new_deal, next_dealer
from atout.i18n import N_, _
from atout.personas import persona_name, personas
from atout.records import write_record
from atout.scoring import ScoreSheet

if TYPE_CHECKING:
    from atout.bots.base import Bot

_PROMPTS = {
    "excuse_sec": N_("Before the bidding: show an Excuse sec and cancel the deal?"),
    "bidding": N_("Your bid"),
    "call": N_("Call a card"),
    "talon": N_("Take a talon half"),
    "discard": N_("Discard a card"),
    "chelem": N_("Announce a chelem?"),
    "game": N_("Declare your game"),
    "misere": N_("Declare a misère?"),
    "poignee": N_("Show a poignée?"),
    "play": N_("Your card"),
}
HELP = N_(
    "Type a card as rank then suit: KS (king of spades), QH, CD (cavalier), JC (valet), 10S, 1H; "
    "trumps T1..T21; the Excuse EX (Sküs in Austrian Tarock). French bids: pass, petite, garde, "
    "garde_sans, garde_contre; Austrian bids: pass, threesome, solo. At any prompt the words in "
    "brackets are the legal answers; no (or yes) answers a question that has one such answer. "
    "Commands at any prompt: hand (your hand and the table), last (the previous trick), "
    "score (the session's totals so far), help, quit."
)
_ACCENTS = {"poignée": "poignee", "misère": "misere"}
"""Words typed with their accents, read as the engine spells them."""


NOT_PLAYABLE = ("cheat",)
"""Bots one may not play against: the cheat sees every card (the arena's upper bound only)."""


def playable_bots() -> tuple[str, ...]:
    """The bots a person may play against: every bot but the cheat; an independent bot only
    where its package is installed."""
    from atout.bots import magmacrunch
    from atout.bots.registry import bot_names  # the bots load numba: not at start-up

    return tuple(
        n for n in bot_names() if n not in NOT_PLAYABLE and (n != "magmacrunch" or magmacrunch.installed())
    )


def _bots_help() -> str:
    """The bots of :func:`playable_bots`, for ``--help``, named without loading the bots (a test
    keeps the two lists equal)."""
    names = ["random", "rules", "expert (expert:strong for its strong level)"]
    if importlib.util.find_spec("tarot") is not None and importlib.util.find_spec("tarot.rules") is not None:
        names.append("magmacrunch")
    return ", ".join(names)


def play_command(
    players: PlayersOption = None,
    game: GameOption = None,
    preset: RulesOption = "fft",
    seat: Annotated[
        int,
        typer.Option(
            "--seat", help="Your seat, 1 to the number of players; the dealer sits just before you."
        ),
    ] = 1,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Seed for a reproducible session.")] = None,
    option: OptionsOption = None,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            help="Write each deal's record to this file (deal 2 to NAME-2.json, and so on), "
            "also an unfinished deal's when you leave or press Ctrl-C.",
        ),
    ] = None,
    bot: Annotated[
        str,
        typer.Option("--bot", "-b", help=f"The computer players: {_bots_help()}."),
    ] = "expert",
    think: Annotated[
        float | None,
        typer.Option("--think", metavar="SECONDS", help="Time budget per decision of expert players."),
    ] = None,
    deals: Annotated[
        int | None,
        typer.Option("--deals", "-n", help="Play this many deals, then stop (default: ask after each)."),
    ] = None,
    bot_command: Annotated[
        str | None,
        typer.Option(
            "--bot-command",
            metavar="COMMAND",
            help="The computer players: a program that speaks the bot protocol (docs/bot-protocol.md), "
            'e.g. "python3 mybot.py"; instead of --bot.',
        ),
    ] = None,
) -> None:
    """Play deals against computer players, typing card names: after each deal, the running
    totals and another deal if you want one."""
    from atout.bots.process import BotError
    from atout.bots.registry import bot_names, make_bot, unsupported, with_think  # loads numba
    from atout.cli.players import computer_players

    if think is not None and not think > 0:
        fail("--think must be a positive number of seconds")
    if deals is not None and deals < 1:
        fail("--deals must be 1 or more")
    bot = with_think(bot, think)
    name = bot.strip().lower().partition(":")[0]
    if name == "cheat":
        fail("--bot: the cheat bot sees every card; it is for the arena only")
    if name not in bot_names():
        fail(f"--bot: unknown bot {name!r}; bots: {', '.join(playable_bots())}")
    try:
        make_bot(bot)
    except ValueError as exc:
        fail(f"--bot: {exc}")
    rules = rules_from_cli(players, option, preset, game)
    why = unsupported(make_bot(bot), rules)
    if why is not None:
        fail(f"--bot: {why}")
    players = rules.players
    if not 1 <= seat <= players:
        fail(f"--seat must be 1..{players}")
    seat -= 1  # seats are counted from 1 for people, from 0 by the engine
    rng = random.Random(seed)
    try:
        deal = new_deal(rules, dealer=(seat - 1) % players, rng=rng)
    except ValueError as exc:
        fail(str(exc))
    console = Console(highlight=False)
    title = _("Austrian Tarock") if rules.game == "austrian" else _("French Tarot")
    console.print(
        _("[bold]{title} for {players}[/]: you are seat {seat}; type [bold]help[/] for help.").format(
            title=title, players=players, seat=seat + 1
        )
    )
    try:  # each computer player in a child process of its own (docs/bot-protocol.md)
        bots = computer_players(bot, bot_command, (s for s in range(players) if s != seat), rng)
    except ValueError as exc:
        fail(f"--bot-command: {exc}")
    table = Table(you=seat, bots=dict(bots), sheet=ScoreSheet(players))
    number = 1
    # each computer player a name of its own, distinct at the table (the same for the same seed)
    names = personas(f"terminal/{seed}", players)
    name_seats({s: persona_name(names[s], i18n.current()) for s in table.bots})
    try:
        while True:
            finished = _play_and_save(table, deal, number, console, save, seed if number == 1 else None)
            if not finished:
                break
            if deals is not None and number >= deals:
                break
            if deals is None and not _another_deal(console):
                break
            deal = new_deal(rules, dealer=next_dealer(deal), rng=rng)
            number += 1
        console.print(_totals_line(table, final=True))
    except KeyboardInterrupt:
        if save is not None and not table.saved:
            deal_seed = seed if number == 1 else None
            _save(deal, _record_path(save, number), deal_seed, console, unfinished=not deal.is_over())
        console.print(_totals_line(table, final=True))
        typer.echo("interrupted", err=True)
        raise typer.Exit(130) from None
    except BotError as exc:
        fail(str(exc))
    finally:
        for player in bots.values():
            player.close()
        name_seats({})


@dataclass
class Table:
    """The session at the table: who you are, the computer players and the score sheet so far."""

    you: int
    bots: dict[int, Bot]
    sheet: ScoreSheet
    saved: bool = False
    """Whether the deal under way has had its record written (so Ctrl-C need not write it again)."""


def _play_and_save(
    table: Table, deal: Game, number: int, console: Console, save: Path | None, seed: int | None
) -> bool:
    """Play one deal of the session, add its scores to the sheet and write its record."""
    table.saved = False
    deals = (
        _("[bold]Deal {number}[/]: You deal.")
        if deal.dealer == table.you
        else _("[bold]Deal {number}[/]: {name} deals.")
    )
    console.print("\n" + deals.format(number=number, name=seat_name(deal.dealer, table.you)))
    finished = play_deal(deal, table.you, table.bots, console, table)
    if finished:
        table.sheet.add(deal.scores(), label=f"deal {number}")
        console.print(_totals_line(table))
    if save is not None:
        _save(deal, _record_path(save, number), seed, console, unfinished=not finished)
        table.saved = True
    return finished


def _record_path(save: Path, number: int) -> Path:
    """Deal 1's record goes to ``save``, deal 2's to ``NAME-2.json`` beside it, and so on."""
    return save if number == 1 else save.with_name(f"{save.stem}-{number}{save.suffix}")


def _save(deal: Game, path: Path, seed: int | None, console: Console, unfinished: bool) -> None:
    """Write a deal's record; an unfinished deal's record has no result and replays to where it stopped."""
    try:
        path.write_text(write_record(deal, seed), encoding="utf-8")
    except OSError as exc:
        fail(f"{path}: {exc.strerror}")
    what = (
        _("Record of the unfinished deal written to {path}") if unfinished else _("Record written to {path}")
    )
    console.print(what.format(path=escape(str(path))), soft_wrap=True)


def _totals_line(table: Table, final: bool = False) -> str:
    played = len(table.sheet)
    if not played:
        return (
            _("[bold]Session totals[/]: no deal finished.")
            if final
            else _("No deal finished yet: every total is 0.")
        )
    totals = ", ".join(f"{seat_name(s, table.you)} {v:+d}" for s, v in enumerate(table.sheet.totals))
    if final:
        text = (
            _("[bold]Session totals[/] after 1 deal: {totals}")
            if played == 1
            else _("[bold]Session totals[/] after {n} deals: {totals}")
        )
    else:
        text = (
            _("[bold]Totals[/] after 1 deal: {totals}")
            if played == 1
            else _("[bold]Totals[/] after {n} deals: {totals}")
        )
    return text.format(n=played, totals=totals)


def _another_deal(console: Console) -> bool:
    """Ask for a rematch: Enter or yes for another deal; no, quit or the end of input to stop."""
    while True:
        try:
            text = console.input(escape(_("Another deal? [Y/n] "))).strip().lower()
        except (EOFError, KeyboardInterrupt):
            console.print()
            return False
        if text in ("", "y", "yes"):
            return True
        if text in ("n", "no", "q", "quit", "exit"):
            return False
        console.print(_("Answer y (another deal) or n (stop here)."))


def play_deal(
    deal: Game, you: int, bots: dict[int, Bot], console: Console, table: Table | None = None
) -> bool:
    """Run the deal to its end; False if the player quit."""
    table = table or Table(you=you, bots=bots, sheet=ScoreSheet(deal.n))
    told = 0
    while not deal.is_over():
        told = _narrate(deal, you, told, console)
        player = deal.current_player
        if player != you:
            deal.apply(bots[player].choose(deal.view(player), deal.legal_actions()))
            continue
        action = _ask(deal, deal.view(you), console, table)
        if action is None:
            console.print(_("You leave the table."))
            return False
        deal.apply(action)
    _narrate(deal, you, told, console)
    if deal.summary is not None:  # a cancelled deal was told by its events
        for line in breakdown_lines(deal.summary, you):
            console.print(line)
    console.print(
        _("[bold]Scores[/]: ") + ", ".join(f"{seat_name(s, you)} {v:+d}" for s, v in enumerate(deal.scores()))
    )
    return True


def _narrate(deal: Game, you: int, told: int, console: Console) -> int:
    events = deal.view(you).events
    for event in events[told:]:
        line = describe_event(event, you, deal.rules)
        if line:
            console.print(line)
    return len(events)


def _ask(deal: Game, view: View, console: Console, table: Table) -> int | None:
    phase = view.phase
    _show_table(deal, view, console)
    while True:
        try:
            prompt = _("Show a trump") if _choosing_display(view) else _(_PROMPTS[phase])
            text = console.input(f"{prompt} [dim]({_legal_hint(view)})[/]: ").strip()
        except (EOFError, KeyboardInterrupt):
            return None
        word = text.lower()
        if word in ("quit", "exit", "q"):
            return None
        if word in ("help", "?", "h"):
            console.print(_(HELP))
            continue
        if word == "hand":
            _show_table(deal, view, console)
            continue
        if word == "last":
            console.print(_last_trick(view))
            continue
        if word == "score":
            console.print(_totals_line(table))
            continue
        if not text:
            continue
        try:
            action = _read(deal, view, text)
        except ValueError as exc:
            console.print(f"[red]{escape(str(exc))}[/]")
            continue
        if action not in view.legal_actions:
            try:
                deal.clone().apply(action)
            except IllegalActionError as exc:
                console.print(f"[red]{escape(refused_line(exc, deal.rules.game))}[/]")
            continue
        return action


def refused_line(error: IllegalActionError, game: str) -> str:
    """An engine's refusal said to the player in words, the rule book's reference after it:
    "Not allowed: You must follow hearts. (rule book §3.8 step 3)"."""
    reference = error.rule.partition(": ")[0]
    return _("Not allowed: {reason} ({rule})").format(
        reason=refusal_text(error.code, error.params, game), rule=reference
    )


def _read(deal: Game, view: View, text: str) -> int:
    """The action typed: accents as the engine spells them, and a bare no or yes when the
    question has one answer of that kind."""
    words = text.lower()
    for accented, plain in _ACCENTS.items():
        words = words.replace(accented, plain)
    names = [deal.action_name(a) for a in view.legal_actions]
    refusals = [a for a, n in zip(view.legal_actions, names, strict=True) if n.startswith(("no_", "keep_"))]
    if words in ("no", "n") and len(refusals) == 1:
        return refusals[0]
    others = [a for a in view.legal_actions if a not in refusals]
    if words in ("yes", "y") and len(others) == 1 and refusals:
        return others[0]
    if words in ("poignee", "misere") and len(others) == 1:
        return others[0]
    return deal.parse(words)


def _last_trick(view: View) -> str:
    if not view.tricks:
        return _("No trick has been played yet.")
    return trick_line(view.tricks[-1], len(view.tricks), view.seat)


def _show_table(deal: Game, view: View, console: Console) -> None:
    if view.phase == "play":
        console.print(status_line(view, len(view.tricks) + _cards_left(view)))
    console.print(_("Your hand: {cards}").format(cards=cards_markup(view.hand)))
    if view.game == "two_player":
        console.print(
            _("Your piles: {own}   Opponent's piles: {theirs}").format(
                own=_tops(view.own_tops), theirs=_tops(view.opponent_tops)
            )
        )
    if view.game == "french" and view.phase == "bidding":
        bids = [str(a) for a in view.legal_actions if str(a) != "pass"]
        console.print(_("Bids: ") + ", ".join(bid_worth(view.rules, b, view.hand) for b in bids))
    if view.game == "french" and view.phase == "poignee" and _choosing_display(view):
        console.print(
            _(
                "Choose the trumps your poignée shows, one at a time (the others stay hidden), "
                "or show_default for the lowest."
            )
        )
    if view.trick:
        console.print(
            _("On the table: ")
            + ", ".join(f"{seat_name(s, view.seat)} {card_markup(c)}" for s, c in view.trick)
        )


def _choosing_display(view: View) -> bool:
    """Whether the player is choosing the trumps of a poignée (rule book §3.7)."""
    return any(str(a) == "show_default" for a in view.legal_actions)


def _cards_left(view: View) -> int:
    """The player's cards still to play, the current trick's included (2 players: piles too)."""
    left = view.hand.bit_count()
    if view.game == "two_player":
        left += sum(view.own_pile_sizes)
    return left


def _tops(tops: tuple[int | None, ...]) -> str:
    return " ".join(card_markup(c) if c is not None else "-" for c in tops)


def _legal_hint(view: View) -> str:
    legal = view.legal_actions
    cards = [a.card for a in legal]
    if legal and all(c is not None for c in cards):
        return " ".join(card_markup(c) for c in hand_order(c for c in cards if c is not None))
    words = " / ".join(str(a).replace("_", " ") for a in legal)
    return words.replace("poignee", "poignée").replace("misere", "misère")

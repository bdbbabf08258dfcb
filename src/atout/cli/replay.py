"""``atout replay``: a recorded deal, told trick by trick."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from atout.cards import CardSet, parse_card
from atout.cli.common import fail
from atout.cli.render import card_markup, cards_markup, describe_event, seat_name
from atout.games import Deal
from atout.records import RecordError, load_record, replay


def replay_command(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A deal record (JSON), as written by atout.")],
) -> None:
    """Replay a recorded deal and print it trick by trick."""
    try:
        record = load_record(file)  # its errors name the file already
    except RecordError as exc:
        fail(str(exc))
    try:
        deal = replay(record)
    except RecordError as exc:
        fail(f"{file}: {exc}")
    print_deal(deal, Console())


def print_deal(deal: Deal, console: Console) -> None:
    """The whole story of a deal of any game: the cards dealt, the auction and declarations,
    the tricks, and the scores."""
    game = "Austrian Tarock" if deal.rules.game == "austrian" else "French Tarot"
    console.print(
        f"[bold]{game}, {deal.n} players[/], dealer: seat {deal.dealer + 1}"
        + (f"; options {deal.rules.changed()}" if deal.rules.changed() else "")
    )
    for key, value in deal.dealt().items():
        for text in _dealt_lines(key, value):
            console.print(f"  {text}")
    for event in deal.events:
        if event.kind not in _TOLD_LATER:
            line = describe_event(event)
            if line:
                console.print(line)
    if deal.tricks:
        table = Table(title="Tricks")
        table.add_column("#", justify="right")
        for seat in range(deal.n):
            table.add_column(seat_name(seat))
        table.add_column("winner")
        for number, (seats, cards, winner) in enumerate(deal.tricks, start=1):
            by_seat = dict(zip(seats, cards, strict=True))
            cells = []
            for seat in range(deal.n):
                if seat not in by_seat:
                    cells.append("[dim]-[/dim]")  # a seat out of the deal (the dead player)
                    continue
                mark = card_markup(by_seat[seat])
                cells.append(f"[u]{mark}[/u]" if seat == seats[0] else mark)
            table.add_row(str(number), *cells, seat_name(winner))
        console.print(table)
        console.print("(the card underlined led the trick)")
    for event in deal.events:
        if event.kind in ("excuse_kept", "excuse_paid", "excuse_unpaid", "end"):
            line = describe_event(event)
            if line:
                console.print(line)
    if deal.is_over():
        if deal.summary is None:
            console.print(f"Cancelled: {deal.outcome}")
        console.print("Scores: " + ", ".join(f"{seat_name(s)} {v:+d}" for s, v in enumerate(deal.scores())))
    else:
        console.print(f"Unfinished: the record stops here, {seat_name(deal.current_player).lower()} to act.")


# told with the trick table, or after it
_TOLD_LATER = {
    "play",
    "trick",
    "turn_up",
    "partner",
    "alone",
    "excuse_kept",
    "excuse_paid",
    "excuse_unpaid",
    "end",
}


_DEALT_TITLES = {
    "hands": "Seat {}",
    "talon": "Talon half {}",
    "piles": "Piles of seat {}",
    "face_up": "Face up, seat {}",
}


def _dealt_lines(key: str, value: object) -> list[str]:
    """Lines for one field of :meth:`dealt`: a card string, or lists of them by seat."""
    if isinstance(value, list):
        title = _DEALT_TITLES.get(key, key + " {}")
        if key == "hands":
            return [f"{title.format(i + 1)}: {_hand(v)}" for i, v in enumerate(value)]
        return [f"{title.format(i + 1)}: {_cards(v)}" for i, v in enumerate(value)]
    return [f"{key.replace('_', ' ').capitalize()}: {_hand(value)}"]


def _hand(value: object) -> str:
    """A hand, sorted as a player holds it."""
    names = value.split() if isinstance(value, str) else value if isinstance(value, list) else []
    return cards_markup(CardSet(parse_card(str(n)) for n in names).mask)


def _cards(value: object) -> str:
    """Card names as written (a pile keeps its order, bottom first), in colour."""
    if isinstance(value, str):
        return " ".join(card_markup(parse_card(word)) for word in value.split())
    if isinstance(value, list) and all(isinstance(v, str) and " " not in v for v in value):
        return " ".join(card_markup(parse_card(v)) for v in value)
    if isinstance(value, list):
        return " | ".join(_cards(v) for v in value)
    return str(value)

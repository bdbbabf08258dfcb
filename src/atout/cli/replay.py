"""``atout replay``: a recorded deal, told trick by trick."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from atout.cards import CardSet
from atout.cli.common import fail
from atout.cli.render import card_markup, cards_markup, describe_event, seat_name, summary_line
from atout.engine.french import FrenchDeal
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


def print_deal(deal: FrenchDeal, console: Console) -> None:
    """The whole story of a deal: hands, auction, chien, tricks and scores."""
    console.print(
        f"[bold]French Tarot, {deal.n} players[/], dealer: seat {deal.dealer}"
        + (f"; options {deal.rules.changed()}" if deal.rules.changed() else "")
    )
    for seat, hand in enumerate(deal.initial_hands):
        console.print(f"  Seat {seat}: {cards_markup(hand)}")
    console.print(f"  Chien: {cards_markup(deal.initial_chien)}")
    for event in deal.events:
        if event.kind in ("bid", "all_passed", "petit_sec", "call", "chelem", "poignee", "discard_shown"):
            line = describe_event(event)
            if line:
                console.print(line)
    if deal.ecart:
        console.print(f"Écart: {cards_markup(deal.ecart)}")
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
                mark = card_markup(by_seat[seat])
                cells.append(f"[u]{mark}[/u]" if seat == seats[0] else mark)
            table.add_row(str(number), *cells, seat_name(winner))
        console.print(table)
        console.print("(the card underlined led the trick)")
    for event in deal.events:
        if event.kind in ("excuse_kept", "excuse_paid"):
            line = describe_event(event)
            if line:
                console.print(line)
    if deal.summary is not None:
        console.print(summary_line(deal.summary))
        console.print(f"Attack's cards: {len(CardSet(deal.attack_pile()))}")
    elif deal.is_over():
        console.print(f"Cancelled: {deal.outcome}")
    if deal.is_over():
        console.print("Scores: " + ", ".join(f"{seat_name(s)} {v:+d}" for s, v in enumerate(deal.scores())))

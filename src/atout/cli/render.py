"""Cards, hands and events in words and colours for the terminal."""

from __future__ import annotations

from atout.cards import PETIT, SUIT_OF, CardSet, card_name, cards_of
from atout.engine.events import Event
from atout.scoring import contract_made
from atout.scoring.summary import FrenchSummary

_SUIT_STYLE = ("bold", "bold red", "bold red", "bold", "bold yellow", "bold magenta")
_SUIT_SYMBOL = ("♠", "♥", "♦", "♣")


def card_markup(card: int) -> str:
    """A card in rich markup: its typed name, coloured by suit (``KS`` shows as K♠)."""
    name = card_name(card)
    style = _SUIT_STYLE[SUIT_OF[card]]
    if card < PETIT:
        return f"[{style}]{name[:-1]}{_SUIT_SYMBOL[SUIT_OF[card]]}[/]"
    return f"[{style}]{name}[/]"


def cards_markup(mask: int, sort_for_hand: bool = True) -> str:
    """Several cards, grouped as a player holds them (trumps, Excuse, then suits)."""
    cards = CardSet(mask).sorted_for_display() if sort_for_hand else cards_of(mask)
    return " ".join(card_markup(c) for c in cards)


def seat_name(seat: int | None, you: int | None = None) -> str:
    if seat is None:
        return "-"
    return "You" if seat == you else f"Seat {seat}"


def describe_event(event: Event, you: int | None = None) -> str | None:
    """One line of narration for an event, or ``None`` for those not worth a line."""
    who = seat_name(event.seat, you)
    kind, data = event.kind, event.data
    if kind == "petit_sec":
        assert isinstance(data, int)
        return f"{who} {_verb(who, 'has', 'have')} the Petit alone (petit sec): {cards_markup(data)}. The deal is cancelled."
    if kind == "bid":
        verb = ("pass", "bid") if who == "You" else ("passes", "bids")
        return (
            f"{who} {verb[0]}."
            if data == "pass"
            else f"{who} {verb[1]} [bold]{str(data).replace('_', ' ')}[/]."
        )
    if kind == "all_passed":
        return "Everyone passed: the deal is cancelled."
    if kind == "call":
        assert isinstance(data, int)
        return f"{who} {_verb(who, 'calls', 'call')} {card_markup(data)}."
    if kind == "chien":
        assert isinstance(data, int)
        return f"The chien: {cards_markup(data)}"
    if kind == "discard":
        assert isinstance(data, int)
        return f"{who} discard{'' if who == 'You' else 's'} {card_markup(data)}."
    if kind == "discard_shown":
        assert isinstance(data, int)
        return f"{who} {_verb(who, 'puts', 'put')} the trump {card_markup(data)} in the écart, face up."
    if kind == "chelem":
        return f"{who} {_verb(who, 'announces', 'announce')} a [bold]chelem[/]!" if data else None
    if kind == "poignee":
        assert isinstance(data, tuple)
        level, shown = data
        return f"{who} {_verb(who, 'shows', 'show')} a {level} poignée: {cards_markup(shown)}"
    if kind == "play":
        assert isinstance(data, int)
        return f"{who} play{'' if who == 'You' else 's'} {card_markup(data)}"
    if kind == "excuse_sec":
        return f"{who} {'have' if who == 'You' else 'has'} the Excuse as only trump and cancel{'' if who == 'You' else 's'} the deal."
    if kind == "petit_imprenable":
        return (
            f"{who} {'have' if who == 'You' else 'has'} a petit imprenable: the Petit plays like the Excuse."
        )
    if kind == "misere":
        return f"{who} declare{'' if who == 'You' else 's'} a misère ({str(data).replace('_', ' ')})."
    if kind == "partial_slam":
        return f"{who} announce{'' if who == 'You' else 's'} a partial slam."
    if kind == "alone":
        return f"{who} called {'yourself' if who == 'You' else 'himself'}: the taker plays alone."
    if kind == "partner":
        return f"{who} {'are' if who == 'You' else 'is'} the called partner."
    if kind == "trick":
        assert isinstance(data, int)
        return f"Trick {data + 1} goes to {who}."
    if kind == "excuse_kept":
        assert isinstance(data, int)
        return f"{who} {_verb(who, 'keeps', 'keep')} the Excuse and {_verb(who, 'owes', 'owe')} a low card to {seat_name(data, you)}."
    if kind == "excuse_paid":
        assert isinstance(data, tuple)
        card, to = data
        return f"For the Excuse, {card_markup(card)} goes to {seat_name(to, you)}."
    if kind == "end" and isinstance(data, FrenchSummary):
        return summary_line(data)
    return None


def _verb(who: str, third_person: str, second_person: str) -> str:
    """The verb agreeing with ``who``: "You call", "Seat 2 calls"."""
    return second_person if who == "You" else third_person


def summary_line(summary: FrenchSummary) -> str:
    made = contract_made(summary)
    need = summary.rules.threshold(summary.oudlers)
    verdict = "[green]made[/]" if made else "[red]lost[/]"
    return (
        f"The attack has {summary.points:g} points with {summary.oudlers} bout(s) and needed {need}: "
        f"{summary.contract.replace('_', ' ')} {verdict}."
    )

"""Cards, hands and events in words and colours for the terminal."""

from __future__ import annotations

from atout.cards import PETIT, SUIT_OF, CardSet, card_name, cards_of
from atout.engine.events import Event
from atout.scoring import AustrianSummary, Summary, TwoPlayerSummary, contract_made, declarer_wins
from atout.scoring.summary import two_player_winner

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
    if kind == "talon_shown":
        assert isinstance(data, tuple)
        half, cards = data
        return f"Talon half {half}: {cards_markup(cards)}"
    if kind == "talon_taken":
        return f"{who} take{'' if who == 'You' else 's'} talon half {data}."
    if kind == "game":
        return f"{who} declare{'' if who == 'You' else 's'} game {'1: 36 or more' if data == '36_or_more' else '2: 35 or less'}."
    if kind == "turn_up":
        assert isinstance(data, int)
        return f"{who} turn{'' if who == 'You' else 's'} up {card_markup(data)}."
    if kind == "excuse_unpaid":
        return f"{who} could not pay the low card owed for the Excuse."
    if kind == "end" and data is not None:
        return summary_line(data)  # type: ignore[arg-type]
    return None


def _verb(who: str, third_person: str, second_person: str) -> str:
    """The verb agreeing with ``who``: "You call", "Seat 2 calls"."""
    return second_person if who == "You" else third_person


def summary_line(summary: Summary) -> str:
    """One sentence on how a deal of any game ended."""
    if isinstance(summary, AustrianSummary):
        wins = declarer_wins(summary)
        half = f", talon half {summary.talon_half}" if summary.talon_half else ""
        game = "36 or more" if summary.game_type == "36_or_more" else "35 or less"
        verdict = "[green]wins[/]" if wins else "[red]loses[/]"
        return f"The declarer ({summary.bid}{half}, game {game}) has {summary.points} points and {verdict}."
    if isinstance(summary, TwoPlayerSummary):
        points = " and ".join(
            f"seat {s} {h / 2:g} ({b} bouts)"
            for s, (h, b) in enumerate(zip(summary.half_points, summary.oudlers, strict=True))
        )
        winner = two_player_winner(summary)
        return f"Points: {points}; " + (f"seat {winner} wins." if winner is not None else "no winner.")
    made = contract_made(summary)
    need = summary.rules.threshold(summary.oudlers)
    verdict = "[green]made[/]" if made else "[red]lost[/]"
    return (
        f"The attack has {summary.points:g} points with {summary.oudlers} bout(s) and needed {need}: "
        f"{summary.contract.replace('_', ' ')} {verdict}."
    )

"""Cards, hands and events in words and colours for the terminal."""

from __future__ import annotations

from atout.cards import PETIT, SUIT_OF, CardSet, card_name, cards_of
from atout.engine.events import (
    AllPassed,
    Bid,
    Call,
    CardPlayed,
    ChelemDecided,
    ChienShown,
    DealEnded,
    Discard,
    DiscardShown,
    Event,
    ExcuseKept,
    ExcusePaid,
    ExcuseSecShown,
    ExcuseUnpaid,
    GameDeclared,
    MisereAnnounced,
    PartialSlamAnnounced,
    PartnerRevealed,
    PetitImprenable,
    PetitSecShown,
    PoigneeShown,
    TakerAlone,
    TalonSeen,
    TalonShown,
    TalonTaken,
    TrickWon,
    TurnedUp,
)
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
    you_ = who == "You"
    s = "" if you_ else "s"
    match event:
        case PetitSecShown(cards=cards):
            return f"{who} {_verb(who, 'has', 'have')} the Petit alone (petit sec): {cards_markup(cards)}. The deal is cancelled."
        case Bid(bid=bid):
            verb = ("pass", "bid") if you_ else ("passes", "bids")
            return (
                f"{who} {verb[0]}." if bid == "pass" else f"{who} {verb[1]} [bold]{bid.replace('_', ' ')}[/]."
            )
        case AllPassed():
            return "Everyone passed: the deal is cancelled."
        case Call(card=card):
            return f"{who} {_verb(who, 'calls', 'call')} {card_markup(card)}."
        case ChienShown(cards=cards):
            return f"The chien: {cards_markup(cards)}"
        case Discard(card=card):
            return f"{who} discard{s} {card_markup(card)}."
        case DiscardShown(card=card):
            return f"{who} {_verb(who, 'puts', 'put')} the trump {card_markup(card)} in the écart, face up."
        case ChelemDecided(announced=announced):
            return f"{who} {_verb(who, 'announces', 'announce')} a [bold]chelem[/]!" if announced else None
        case PoigneeShown(level=level, cards=cards):
            return f"{who} {_verb(who, 'shows', 'show')} a {level} poignée: {cards_markup(cards)}"
        case CardPlayed(card=card):
            return f"{who} play{s} {card_markup(card)}"
        case ExcuseSecShown():
            return f"{who} {_verb(who, 'has', 'have')} the Excuse as only trump and cancel{s} the deal."
        case PetitImprenable():
            return f"{who} {_verb(who, 'has', 'have')} a petit imprenable: the Petit plays like the Excuse."
        case MisereAnnounced(misere=misere):
            return f"{who} declare{s} a misère ({misere.replace('_', ' ')})."
        case PartialSlamAnnounced():
            return f"{who} announce{s} a partial slam."
        case TakerAlone():
            return f"{who} called {'yourself' if you_ else 'himself'}: the taker plays alone."
        case PartnerRevealed():
            return f"{who} {_verb(who, 'is', 'are')} the called partner."
        case TrickWon(number=number):
            return f"Trick {number + 1} goes to {who}."
        case ExcuseKept(winner=winner):
            return f"{who} {_verb(who, 'keeps', 'keep')} the Excuse and {_verb(who, 'owes', 'owe')} a low card to {seat_name(winner, you)}."
        case ExcusePaid(card=card, to=to):
            return f"For the Excuse, {card_markup(card)} goes to {seat_name(to, you)}."
        case TalonShown(half=half, cards=cards) | TalonSeen(half=half, cards=cards):
            return f"Talon half {half}: {cards_markup(cards)}"
        case TalonTaken(half=half):
            return f"{who} take{s} talon half {half}."
        case GameDeclared(game=game):
            return f"{who} declare{s} game {'1: 36 or more' if game == '36_or_more' else '2: 35 or less'}."
        case TurnedUp(card=card):
            return f"{who} turn{s} up {card_markup(card)}."
        case ExcuseUnpaid():
            return f"{who} could not pay the low card owed for the Excuse."
        case DealEnded(summary=summary) if summary is not None:
            return summary_line(summary)
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

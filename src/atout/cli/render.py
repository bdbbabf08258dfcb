"""Cards, hands and events in words and colours for the terminal."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from atout.cards import PETIT, SUIT_OF, TRUMP, CardSet, card_name, cards_of, count_bouts
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
from atout.engine.view import TrickView
from atout.rules import Rules
from atout.scoring import AustrianSummary, Summary, TwoPlayerSummary, contract_made, declarer_wins
from atout.scoring.summary import two_player_winner

if TYPE_CHECKING:
    from atout.games import View

_SUIT_STYLE = ("bold", "bold red", "bold red", "bold", "bold yellow", "bold magenta")
_SUIT_SYMBOL = ("♠", "♥", "♦", "♣")


def card_markup(card: int) -> str:
    """A card in rich markup: its typed name, coloured by suit (``KS`` shows as K♠)."""
    name = card_name(card)
    style = _SUIT_STYLE[SUIT_OF[card]]
    if card < PETIT:
        return f"[{style}]{name[:-1]}{_SUIT_SYMBOL[SUIT_OF[card]]}[/]"
    return f"[{style}]{name}[/]"


def hand_order(cards: int | Iterable[int]) -> list[int]:
    """Cards (a mask or several) in the order a hand prints: trumps low to high, the Excuse,
    then spades, hearts, diamonds and clubs, each high to low. Legal cards are listed the same way."""
    mask = cards if isinstance(cards, int) else sum(1 << c for c in set(cards))
    shown = CardSet(mask).sorted_for_display()
    trumps = sorted(c for c in shown if SUIT_OF[c] == TRUMP)
    return trumps + [c for c in shown if SUIT_OF[c] != TRUMP]


def cards_markup(mask: int, sort_for_hand: bool = True) -> str:
    """Several cards, grouped as a player holds them (:func:`hand_order`), or in card order."""
    cards = hand_order(mask) if sort_for_hand else cards_of(mask)
    return " ".join(card_markup(c) for c in cards)


def bouts_phrase(bouts: int) -> str:
    """``no bout``, ``1 bout``, ``2 bouts``."""
    return "no bout" if bouts == 0 else f"{bouts} bout{'' if bouts == 1 else 's'}"


def seat_name(seat: int | None, you: int | None = None) -> str:
    if seat is None:
        return "-"
    return "You" if seat == you else f"Seat {seat}"


def describe_event(event: Event, you: int | None = None, rules: Rules | None = None) -> str | None:
    """One line of narration for an event, or ``None`` for those not worth a line. Given the
    rules, a French bid is told with its multiplier."""
    who = seat_name(event.seat, you)
    you_ = who == "You"
    s = "" if you_ else "s"
    if isinstance(event, Bid) and rules is not None and rules.game == "french" and event.bid != "pass":
        told = describe_event(event, you)
        return f"{str(told)[:-1]} (×{rules.multiplier(event.bid)})."
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
            return summary_line(summary, you)
    return None


def _verb(who: str, third_person: str, second_person: str) -> str:
    """The verb agreeing with ``who``: "You call", "Seat 2 calls"."""
    return second_person if who == "You" else third_person


def summary_line(summary: Summary, you: int | None = None) -> str:
    """One sentence on how a deal of any game ended."""
    if isinstance(summary, AustrianSummary):
        wins = declarer_wins(summary)
        half = f", talon half {summary.talon_half}" if summary.talon_half else ""
        game = "36 or more" if summary.game_type == "36_or_more" else "35 or less"
        verdict = "[green]wins[/]" if wins else "[red]loses[/]"
        if summary.declarer == you:
            verdict = "[green]win[/]" if wins else "[red]lose[/]"
            return f"You ({summary.bid}{half}, game {game}) have {summary.points} points and {verdict}."
        return f"The declarer ({summary.bid}{half}, game {game}) has {summary.points} points and {verdict}."
    if isinstance(summary, TwoPlayerSummary):
        points = " and ".join(
            f"{seat_name(s, you)} {h / 2:g} ({bouts_phrase(b)})"
            for s, (h, b) in enumerate(zip(summary.half_points, summary.oudlers, strict=True))
        )
        winner = two_player_winner(summary)
        if winner is None:
            return f"Points: {points}; no winner."
        who = seat_name(winner, you)
        return f"Points: {points}; {who} {_verb(who, 'wins', 'win')}."
    made = contract_made(summary)
    need = summary.rules.threshold(summary.oudlers)
    verdict = "[green]made[/]" if made else "[red]lost[/]"
    return (
        f"The attack has {summary.points:g} points with {bouts_phrase(summary.oudlers)} and needed {need}: "
        f"{summary.contract.replace('_', ' ')} {verdict}."
    )


def bid_worth(rules: Rules, bid: str, hand: int) -> str:
    """A French bid with what it is worth: ``garde (×2, 41 points with your 2 bouts)``."""
    if bid == "pass":
        return "pass"
    bouts = count_bouts(hand)
    held = f"your {bouts_phrase(bouts)}" if bouts else "no bout"
    return f"{bid.replace('_', ' ')} (×{rules.multiplier(bid)}, {rules.threshold(bouts)} points with {held})"


def trick_line(trick: TrickView, number: int, you: int | None = None) -> str:
    """A finished trick: ``Trick 3: Seat 1 K♠, You 3♠, ... won by Seat 1.``"""
    plays = ", ".join(f"{seat_name(s, you)} {card_markup(c)}" for s, c in trick.plays)
    return f"Trick {number}: {plays}; won by {seat_name(trick.winner, you)}."


def status_line(view: View, tricks_in_deal: int) -> str:
    """The contract and the trick under way, reminded before each card the player chooses."""
    you = view.seat
    trick = f"trick {len(view.tricks) + 1} of {tricks_in_deal}"
    if view.game == "french" and view.contract is not None and view.taker is not None:
        contract = view.contract.replace("_", " ")
        line = f"{contract} (×{view.rules.multiplier(view.contract)}) by {seat_name(view.taker, you)}"
        if view.partner is not None and view.partner != view.taker:
            line += f", partner {seat_name(view.partner, you)}"
        if view.called_card is not None:
            line += f", called {card_markup(view.called_card)}"
        return f"[dim]Contract: {line}; {trick}.[/]"
    if view.game == "austrian" and view.bid is not None and view.declarer is not None:
        half = f", talon half {view.talon_half}" if view.talon_half else ""
        game = {"36_or_more": ", game 1 (36 or more)", "35_or_less": ", game 2 (35 or less)"}.get(
            view.game_type or "", ""
        )
        return f"[dim]Contract: {view.bid}{half}{game} by {seat_name(view.declarer, you)}; {trick}.[/]"
    return f"[dim]{trick[0].upper()}{trick[1:]}.[/]"

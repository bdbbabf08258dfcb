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
from atout.engine.refusals import wire_word
from atout.engine.view import TrickView
from atout.i18n import _
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
    if bouts == 0:
        return _("no bout")
    return (_("{n} bout") if bouts == 1 else _("{n} bouts")).format(n=bouts)


_NAMES: dict[int, str] = {}
"""The names of the computer players' seats in the terminal game (:func:`name_seats`)."""


def name_seats(names: dict[int, str]) -> None:
    """Name these seats from now on (the terminal game's computer players); ``{}`` forgets them."""
    _NAMES.clear()
    _NAMES.update(names)


def seat_name(seat: int | None, you: int | None = None) -> str:
    """``You`` for the player's own seat, else ``Seat 1`` to ``Seat 5`` (seats are counted from 1)."""
    if seat is None:
        return "-"
    if seat != you and seat in _NAMES:
        return _NAMES[seat]
    return _("You") if seat == you else _("Seat {n}").format(n=seat + 1)


def _say(who: str, you_: bool, yours: str, theirs: str, **params: object) -> str:
    """A sentence whose verb agrees with its subject: ``yours`` when the player is the subject."""
    return (yours if you_ else theirs).format(name=who, **params)


def describe_event(event: Event, you: int | None = None, rules: Rules | None = None) -> str | None:
    """One line of narration for an event, or ``None`` for those not worth a line. Given the
    rules, a French bid is told with its multiplier."""
    who = seat_name(event.seat, you)
    me = event.seat is not None and event.seat == you
    if isinstance(event, Bid) and rules is not None and rules.game == "french" and event.bid != "pass":
        told = describe_event(event, you)
        return f"{str(told)[:-1]} (×{rules.multiplier(event.bid)})."
    match event:
        case PetitSecShown(cards=cards):
            return _say(
                who,
                me,
                _("You have the Petit alone (petit sec): {cards}. The deal is cancelled."),
                _("{name} has the Petit alone (petit sec): {cards}. The deal is cancelled."),
                cards=cards_markup(cards),
            )
        case Bid(bid="pass"):
            return _say(who, me, _("You pass."), _("{name} passes."))
        case Bid(bid=bid):
            return _say(
                who, me, _("You bid {bid}."), _("{name} bids {bid}."), bid=f"[bold]{bid_label(bid)}[/]"
            )
        case AllPassed():
            return _("Everyone passed: the deal is cancelled.")
        case Call(card=card):
            return _say(who, me, _("You call {card}."), _("{name} calls {card}."), card=card_markup(card))
        case ChienShown(cards=cards):
            return _("The chien: {cards}").format(cards=cards_markup(cards))
        case Discard(card=card):
            return _say(
                who, me, _("You discard {card}."), _("{name} discards {card}."), card=card_markup(card)
            )
        case DiscardShown(card=card):
            return _say(
                who,
                me,
                _("You put the trump {card} in the écart, face up."),
                _("{name} puts the trump {card} in the écart, face up."),
                card=card_markup(card),
            )
        case ChelemDecided(announced=announced):
            if not announced:
                return None
            return _say(
                who, me, _("You announce a [bold]chelem[/]!"), _("{name} announces a [bold]chelem[/]!")
            )
        case PoigneeShown(level=level, cards=cards):
            return _say(
                who,
                me,
                _("You show a {level} poignée: {cards}"),
                _("{name} shows a {level} poignée: {cards}"),
                level=poignee_label(level),
                cards=cards_markup(cards),
            )
        case CardPlayed(card=card):
            return _say(who, me, _("You play {card}"), _("{name} plays {card}"), card=card_markup(card))
        case ExcuseSecShown():
            return _say(
                who,
                me,
                _("You have the Excuse as only trump and cancel the deal."),
                _("{name} has the Excuse as only trump and cancels the deal."),
            )
        case PetitImprenable():
            return _say(
                who,
                me,
                _("You have a petit imprenable: the Petit plays like the Excuse."),
                _("{name} has a petit imprenable: the Petit plays like the Excuse."),
            )
        case MisereAnnounced(misere=misere):
            return _say(
                who,
                me,
                _("You declare a misère ({kind})."),
                _("{name} declares a misère ({kind})."),
                kind=misere_label(misere),
            )
        case PartialSlamAnnounced():
            return _say(who, me, _("You announce a partial slam."), _("{name} announces a partial slam."))
        case TakerAlone():
            return _say(
                who,
                me,
                _("You called yourself: the taker plays alone."),
                _("{name} called himself: the taker plays alone."),
            )
        case PartnerRevealed():
            return _say(who, me, _("You are the called partner."), _("{name} is the called partner."))
        case TrickWon(number=number):
            return _("Trick {number} goes to {name}.").format(number=number + 1, name=who)
        case ExcuseKept(winner=winner):
            return _say(
                who,
                me,
                _("You keep the Excuse and owe a low card to {winner}."),
                _("{name} keeps the Excuse and owes a low card to {winner}."),
                winner=seat_name(winner, you),
            )
        case ExcusePaid(card=card, to=to):
            return _("For the Excuse, {card} goes to {name}.").format(
                card=card_markup(card), name=seat_name(to, you)
            )
        case TalonShown(half=half, cards=cards) | TalonSeen(half=half, cards=cards):
            return _("Talon half {half}: {cards}").format(half=half, cards=cards_markup(cards))
        case TalonTaken(half=half):
            return _say(
                who, me, _("You take talon half {half}."), _("{name} takes talon half {half}."), half=half
            )
        case GameDeclared(game=game):
            return _say(
                who,
                me,
                _("You declare {game}."),
                _("{name} declares {game}."),
                game=austrian_game_label(game),
            )
        case TurnedUp(card=card):
            return _say(
                who, me, _("You turn up {card}."), _("{name} turns up {card}."), card=card_markup(card)
            )
        case ExcuseUnpaid():
            return _("{name} could not pay the low card owed for the Excuse.").format(name=who)
        case DealEnded(summary=summary) if summary is not None:
            return summary_line(summary, you)
    return None


def bid_label(bid: str) -> str:
    """A bid as players say it: ``garde sans``, ``threesome``."""
    return wire_word("bid", bid)


def poignee_label(level: str) -> str:
    """A poignée's level: ``simple``, ``double``, ``triple``."""
    return wire_word("level", level)


def misere_label(misere: str) -> str:
    """A misère's kind in words."""
    return wire_word("kind", misere)


def austrian_game_label(game: str | None) -> str:
    """An Austrian game: ``game 1: 36 or more`` or ``game 2: 35 or less``."""
    return _("game 1: 36 or more") if game == "36_or_more" else _("game 2: 35 or less")


def summary_line(summary: Summary, you: int | None = None) -> str:
    """One sentence on how a deal of any game ended."""
    if isinstance(summary, AustrianSummary):
        wins = declarer_wins(summary)
        contract = bid_label(summary.bid)
        if summary.talon_half:
            contract += ", " + _("talon half {half}").format(half=summary.talon_half)
        contract += ", " + austrian_game_label(summary.game_type)
        params = {"contract": contract, "points": summary.points}
        if summary.declarer == you:
            text = (
                _("You ({contract}) have {points} points and [green]win[/].")
                if wins
                else _("You ({contract}) have {points} points and [red]lose[/].")
            )
        else:
            text = (
                _("The declarer ({contract}) has {points} points and [green]wins[/].")
                if wins
                else _("The declarer ({contract}) has {points} points and [red]loses[/].")
            )
        return text.format(**params)
    if isinstance(summary, TwoPlayerSummary):
        points = _(" and ").join(
            _("{name} {points} ({bouts})").format(
                name=seat_name(s, you), points=f"{h / 2:g}", bouts=bouts_phrase(b)
            )
            for s, (h, b) in enumerate(zip(summary.half_points, summary.oudlers, strict=True))
        )
        winner = two_player_winner(summary)
        if winner is None:
            return _("Points: {points}; no winner.").format(points=points)
        if winner == you:
            return _("Points: {points}; You win.").format(points=points)
        return _("Points: {points}; {name} wins.").format(points=points, name=seat_name(winner, you))
    made = contract_made(summary)
    text = (
        _("The attack has {points} points with {bouts} and needed {needed}: {contract} [green]made[/].")
        if made
        else _("The attack has {points} points with {bouts} and needed {needed}: {contract} [red]lost[/].")
    )
    return text.format(
        points=f"{summary.points:g}",
        bouts=bouts_phrase(summary.oudlers),
        needed=summary.rules.threshold(summary.oudlers),
        contract=bid_label(summary.contract),
    )


def bid_worth(rules: Rules, bid: str, hand: int) -> str:
    """A French bid with what it is worth: ``garde (×2, 41 points with your 2 bouts)``."""
    if bid == "pass":
        return bid_label(bid)
    bouts = count_bouts(hand)
    text = (
        _("{bid} (×{multiplier}, {needed} points with your {bouts})")
        if bouts
        else _("{bid} (×{multiplier}, {needed} points with no bout)")
    )
    return text.format(
        bid=bid_label(bid),
        multiplier=rules.multiplier(bid),
        needed=rules.threshold(bouts),
        bouts=bouts_phrase(bouts),
    )


def trick_line(trick: TrickView, number: int, you: int | None = None) -> str:
    """A finished trick: ``Trick 3: Seat 2 K♠, You 3♠, ... won by Seat 2.``"""
    plays = ", ".join(f"{seat_name(s, you)} {card_markup(c)}" for s, c in trick.plays)
    return _("Trick {number}: {plays}; won by {name}.").format(
        number=number, plays=plays, name=seat_name(trick.winner, you)
    )


def status_line(view: View, tricks_in_deal: int) -> str:
    """The contract and the trick under way, reminded before each card the player chooses."""
    you = view.seat
    trick = _("trick {number} of {count}").format(number=len(view.tricks) + 1, count=tricks_in_deal)
    if view.game == "french" and view.contract is not None and view.taker is not None:
        line = _("{contract} (×{multiplier}) by {name}").format(
            contract=bid_label(view.contract),
            multiplier=view.rules.multiplier(view.contract),
            name=seat_name(view.taker, you),
        )
        if view.partner is not None and view.partner != view.taker:
            line += ", " + _("partner {name}").format(name=seat_name(view.partner, you))
        if view.called_card is not None:
            line += ", " + _("called {card}").format(card=card_markup(view.called_card))
        return "[dim]" + _("Contract: {contract}; {trick}.").format(contract=line, trick=trick) + "[/]"
    if view.game == "austrian" and view.bid is not None and view.declarer is not None:
        line = bid_label(view.bid)
        if view.talon_half:
            line += ", " + _("talon half {half}").format(half=view.talon_half)
        if view.game_type:
            line += ", " + austrian_game_label(view.game_type)
        line = _("{contract} by {name}").format(contract=line, name=seat_name(view.declarer, you))
        return "[dim]" + _("Contract: {contract}; {trick}.").format(contract=line, trick=trick) + "[/]"
    return f"[dim]{trick[0].upper()}{trick[1:]}.[/]"

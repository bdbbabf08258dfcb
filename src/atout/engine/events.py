"""What happens during a deal: one small immutable class per kind of event.

Every event names the seat it concerns (``seat``; ``None`` for the table) and carries its
kind as a string (``kind``), so front ends can narrate it and the wire format can name it.
Events are tuples: a view that holds them shares nothing that can be written back.

Who may see an event: everyone, except the kinds in :data:`PRIVATE_KINDS`, seen by
``seat`` alone (:func:`visible_to`). A seat's view holds only the events it may see.

>>> CardPlayed(2, 27), CardPlayed(2, 27).kind, visible_to(Discard(1, 5))
(CardPlayed(seat=2, card=27, kind='play'), 'play', 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal, NamedTuple

if TYPE_CHECKING:
    from atout.scoring.summary import AustrianSummary, FrenchSummary, TwoPlayerSummary


class PetitSecShown(NamedTuple):
    """``seat`` shows a hand whose only trump is the Petit: the deal is cancelled (§3.3)."""

    seat: int
    cards: int
    kind: Literal["petit_sec"] = "petit_sec"


class ExcuseSecShown(NamedTuple):
    """``seat`` shows the Excuse as his only trump and cancels the deal (§7 V4)."""

    seat: int
    kind: Literal["excuse_sec"] = "excuse_sec"


class PetitImprenable(NamedTuple):
    """``seat``'s Petit plays like the Excuse (§7 V3)."""

    seat: int
    kind: Literal["petit_imprenable"] = "petit_imprenable"


class MisereAnnounced(NamedTuple):
    """``seat`` declares a misère: ``no_trumps``, ``no_courts`` or ``both`` (§7 V5)."""

    seat: int
    misere: str
    kind: Literal["misere"] = "misere"


class PartialSlamAnnounced(NamedTuple):
    """The taker announces a partial slam (§7 V6)."""

    seat: int
    kind: Literal["partial_slam"] = "partial_slam"


class Bid(NamedTuple):
    """``seat`` bids: ``pass`` or a contract name (§3.4, §5.2)."""

    seat: int
    bid: str
    kind: Literal["bid"] = "bid"


class AllPassed(NamedTuple):
    """Everyone passed: the deal is cancelled."""

    seat: None = None
    kind: Literal["all_passed"] = "all_passed"


class Call(NamedTuple):
    """The taker calls a card (5 players, §4.3)."""

    seat: int
    card: int
    kind: Literal["call"] = "call"


class ChienShown(NamedTuple):
    """The chien is turned face up for all (§3.5)."""

    seat: None
    cards: int
    kind: Literal["chien"] = "chien"


class Discard(NamedTuple):
    """The taker (declarer) puts ``card`` in his écart; seen by him alone (§3.5, §5.3)."""

    seat: int
    card: int
    kind: Literal["discard"] = "discard"


class DiscardShown(NamedTuple):
    """A trump put in the écart, shown to all (§3.5, §5.3)."""

    seat: int
    card: int
    kind: Literal["discard_shown"] = "discard_shown"


class ChelemDecided(NamedTuple):
    """``seat`` announces a chelem (``announced``) or not (§3.6)."""

    seat: int
    announced: bool
    kind: Literal["chelem"] = "chelem"


class PoigneeShown(NamedTuple):
    """``seat`` shows a poignée: its level (``simple``, ``double``, ``triple``) and cards (§3.7)."""

    seat: int
    level: str
    cards: int
    kind: Literal["poignee"] = "poignee"


class CardPlayed(NamedTuple):
    """``seat`` plays ``card`` to the trick."""

    seat: int
    card: int
    kind: Literal["play"] = "play"


class PartnerRevealed(NamedTuple):
    """The called card is played by ``seat``, the taker's partner (§4.3)."""

    seat: int
    card: int
    kind: Literal["partner"] = "partner"


class TakerAlone(NamedTuple):
    """The taker plays the card he called: he plays alone (§4.3)."""

    seat: int
    card: int
    kind: Literal["alone"] = "alone"


class TrickWon(NamedTuple):
    """``seat`` wins trick ``number`` (0 for the first)."""

    seat: int
    number: int
    kind: Literal["trick"] = "trick"


class ExcuseKept(NamedTuple):
    """``seat`` keeps his Excuse (or petit imprenable); ``winner`` is owed a low card (§3.9)."""

    seat: int
    winner: int
    kind: Literal["excuse_kept"] = "excuse_kept"


class ExcusePaid(NamedTuple):
    """``seat``'s side hands ``card`` to ``to`` for the Excuse kept (§3.9)."""

    seat: int
    card: int
    to: int
    kind: Literal["excuse_paid"] = "excuse_paid"


class ExcuseSettled(NamedTuple):
    """The Excuse's debt lapses: ``seat`` and ``winner`` are partners (§3.9)."""

    seat: int
    winner: int
    kind: Literal["excuse_settled"] = "excuse_settled"


class ExcuseUnpaid(NamedTuple):
    """2 players: ``seat`` still owes ``creditor`` a card at the end; §3.11 settles it."""

    seat: int
    creditor: int
    kind: Literal["excuse_unpaid"] = "excuse_unpaid"


class TurnedUp(NamedTuple):
    """2 players: ``card`` of ``seat``'s pile is turned face up (§4.4)."""

    seat: int
    card: int
    kind: Literal["turn_up"] = "turn_up"


class TalonShown(NamedTuple):
    """Austrian: talon half ``half`` (1 or 2) is turned up for all (§5.3)."""

    seat: int
    half: int
    cards: int
    kind: Literal["talon_shown"] = "talon_shown"


class TalonSeen(NamedTuple):
    """Austrian: the declarer alone sees the half he takes (§5.3)."""

    seat: int
    half: int
    cards: int
    kind: Literal["talon_seen"] = "talon_seen"


class TalonTaken(NamedTuple):
    """Austrian: the declarer takes talon half ``half`` (§5.3)."""

    seat: int
    half: int
    kind: Literal["talon_taken"] = "talon_taken"


class GameDeclared(NamedTuple):
    """Austrian: the declarer's game, ``36_or_more`` or ``35_or_less`` (§5.3)."""

    seat: int
    game: str
    kind: Literal["game"] = "game"


class DealEnded(NamedTuple):
    """The deal is over: its summary, or ``None`` for a cancelled deal."""

    seat: None
    summary: FrenchSummary | TwoPlayerSummary | AustrianSummary | None
    kind: Literal["end"] = "end"


Event = (
    PetitSecShown
    | ExcuseSecShown
    | PetitImprenable
    | MisereAnnounced
    | PartialSlamAnnounced
    | Bid
    | AllPassed
    | Call
    | ChienShown
    | Discard
    | DiscardShown
    | ChelemDecided
    | PoigneeShown
    | CardPlayed
    | PartnerRevealed
    | TakerAlone
    | TrickWon
    | ExcuseKept
    | ExcusePaid
    | ExcuseSettled
    | ExcuseUnpaid
    | TurnedUp
    | TalonShown
    | TalonSeen
    | TalonTaken
    | GameDeclared
    | DealEnded
)
"""Any event of any game."""

EVENT_CLASSES: Final[dict[str, type[Event]]] = {
    cls._field_defaults["kind"]: cls
    for cls in (
        PetitSecShown,
        ExcuseSecShown,
        PetitImprenable,
        MisereAnnounced,
        PartialSlamAnnounced,
        Bid,
        AllPassed,
        Call,
        ChienShown,
        Discard,
        DiscardShown,
        ChelemDecided,
        PoigneeShown,
        CardPlayed,
        PartnerRevealed,
        TakerAlone,
        TrickWon,
        ExcuseKept,
        ExcusePaid,
        ExcuseSettled,
        ExcuseUnpaid,
        TurnedUp,
        TalonShown,
        TalonSeen,
        TalonTaken,
        GameDeclared,
        DealEnded,
    )
}
"""Every event class by its kind."""

PRIVATE_KINDS: Final = frozenset({"discard", "talon_seen"})
"""Kinds seen by their ``seat`` alone; every other kind is public."""

SEAT_FIELDS: Final = frozenset({"seat", "winner", "to", "creditor"})
"""Fields that hold a seat number."""


def visible_to(event: Event) -> int | None:
    """The one seat that may see ``event``, or ``None`` when every seat may."""
    return event.seat if event.kind in PRIVATE_KINDS else None


def cards_shown(event: Event) -> int:
    """Mask of every card whose place ``event`` shows: its ``card`` and its ``cards`` (a call
    names a card but does not say where it lies, so it shows none).

    >>> cards_shown(PoigneeShown(1, "simple", 0b110)), cards_shown(CardPlayed(0, 3)), cards_shown(Call(0, 3))
    (6, 8, 0)
    """
    if event.kind == "call":
        return 0
    mask = 0
    for name, value in zip(event._fields, event, strict=True):
        if name == "card" and isinstance(value, int):
            mask |= 1 << value
        elif name == "cards" and isinstance(value, int):
            mask |= value
    return mask


def may_see(event: Event, seat: int) -> bool:
    """Whether ``seat`` may see ``event``."""
    return event.kind not in PRIVATE_KINDS or event.seat == seat


__all__ = [
    "EVENT_CLASSES",
    "PRIVATE_KINDS",
    "SEAT_FIELDS",
    "AllPassed",
    "Bid",
    "Call",
    "CardPlayed",
    "ChelemDecided",
    "ChienShown",
    "DealEnded",
    "Discard",
    "DiscardShown",
    "Event",
    "ExcuseKept",
    "ExcusePaid",
    "ExcuseSecShown",
    "ExcuseSettled",
    "ExcuseUnpaid",
    "GameDeclared",
    "MisereAnnounced",
    "PartialSlamAnnounced",
    "PartnerRevealed",
    "PetitImprenable",
    "PetitSecShown",
    "PoigneeShown",
    "TakerAlone",
    "TalonSeen",
    "TalonShown",
    "TalonTaken",
    "TrickWon",
    "TurnedUp",
    "cards_shown",
    "may_see",
    "visible_to",
]

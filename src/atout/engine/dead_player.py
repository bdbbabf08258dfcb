"""Five at the table with a dead player, "le mort" (rule book §4.3 mode B,
``five_player_mode=dead_player``).

The dealer sits out: he deals to the other four, who play an ordinary 4-player deal
(4-player poignées, 3D for the taker), and he scores 0. This module runs that deal on a
4-player :class:`FrenchDeal` and speaks to the outside in the five table seats.

>>> from atout.rules import Rules
>>> deal = DeadPlayerDeal.new(Rules(players=5, five_player_mode="dead_player"), dealer=2, rng=7)
>>> deal.current_player, deal.dealt()["hands"][2]
(3, '')
>>> deal.play_out(random.Random(7)); deal.scores()[2]
0
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping

from atout.cards import CardSet
from atout.engine.actions import Action
from atout.engine.deal import seat_step
from atout.engine.events import PRIVATE_KINDS, SEAT_FIELDS, Event
from atout.engine.french import FrenchDeal
from atout.engine.phase import Phase
from atout.engine.view import PUBLIC_SEAT, SeatView, TrickView, detached, fresh_rules, fresh_tricks
from atout.rules import Rules, RulesError
from atout.scoring.french import score_french
from atout.scoring.summary import FrenchSummary, MisereDeclared, PoigneeDeclared

TABLE = 5
IN_PLAY = 4


def check_dead_player_rules(rules: Rules) -> None:
    """Refuse rules this mode cannot play."""
    if rules.game != "french" or rules.players != TABLE or rules.five_player_mode != "dead_player":
        raise RulesError(
            "the dead-player deal needs French Tarot, players=5 and five_player_mode=dead_player"
        )
    if rules.first_bidder == "dealer_left":
        raise RulesError("first_bidder=dealer_left needs a dealer who plays; the dead player does not")


def active_seats(rules: Rules, dealer: int) -> tuple[int, ...]:
    """The four players in playing order from the dead dealer's right. Inner seat i of the
    4-player deal is the i-th of them; its dealer is inner seat 3, so the dead dealer's
    right speaks and leads first."""
    step = seat_step(rules)
    return tuple((dealer + step * (i + 1)) % TABLE for i in range(IN_PLAY))


def inner_rules(rules: Rules) -> Rules:
    """The rules of the 4-player deal the four active players play."""
    return rules.replace(players=IN_PLAY, five_player_mode="called_king", play_direction="counterclockwise")


class DeadPlayerDeal:
    """A 5-player deal in which the dealer is dead: seats 0-4 outside, a 4-player deal inside."""

    def __init__(self, rules: Rules, dealer: int, hands: list[int], chien: int) -> None:
        """Start from the cards dealt to the five seats (the dealer's hand empty) and the chien."""
        check_dead_player_rules(rules)
        if not 0 <= dealer < TABLE:
            raise ValueError(f"dealer must be a seat 0..{TABLE - 1}, not {dealer}")
        if len(hands) != TABLE:
            raise ValueError(f"{TABLE} hands are needed, the dealer's empty, not {len(hands)}")
        if hands[dealer]:
            raise ValueError(f"hands[{dealer}]: the dead player (the dealer) holds no cards")
        seats = active_seats(rules, dealer)
        inner = FrenchDeal(inner_rules(rules), IN_PLAY - 1, [hands[s] for s in seats], chien)
        self._wrap(rules, dealer, inner)

    def _wrap(self, rules: Rules, dealer: int, inner: FrenchDeal) -> None:
        self.rules = rules
        self.n = TABLE
        self.dealer = dealer
        self.seats = active_seats(rules, dealer)
        self._inner_of = {outer: i for i, outer in enumerate(self.seats)}
        self.inner = inner
        self._events_seen = 0  # the inner log translated so far, for views:
        self._all_events: tuple[Event, ...] = ()  # every event (the taker's view)
        self._public_events: tuple[Event, ...] = ()  # the public ones
        self._trick_views: tuple[TrickView, ...] = ()  # the finished tricks in table seats

    @classmethod
    def new(cls, rules: Rules, dealer: int = 0, rng: random.Random | int | None = None) -> DeadPlayerDeal:
        """Shuffle and deal: the dealer deals a 4-player deal to the others."""
        check_dead_player_rules(rules)
        if not 0 <= dealer < TABLE:
            raise ValueError(f"dealer must be a seat 0..{TABLE - 1}, not {dealer}")
        deal = cls.__new__(cls)
        deal._wrap(rules, dealer, FrenchDeal.new(inner_rules(rules), dealer=IN_PLAY - 1, rng=rng))
        return deal

    # ------------------------------------------------------------------ seats
    def outer(self, seat: int) -> int:
        """The table seat of an inner seat (negative stays negative)."""
        return self.seats[seat] if seat >= 0 else seat

    # ------------------------------------------------------------------ the Deal protocol
    @property
    def phase(self) -> Phase:
        return self.inner.phase

    @property
    def current_player(self) -> int:
        return self.outer(self.inner.current_player)

    @property
    def history(self) -> list[int]:
        return self.inner.history

    @property
    def outcome(self) -> str:
        return self.inner.outcome

    @property
    def tricks(self) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
        return [
            (tuple(self.seats[s] for s in seats), cards, self.seats[w])
            for seats, cards, w in self.inner.tricks
        ]

    def is_over(self) -> bool:
        return self.inner.is_over()

    def legal_actions(self) -> list[Action]:
        return self.inner.legal_actions()

    def apply(self, action: int) -> None:
        self.inner.apply(action)

    def parse(self, text: str) -> Action:
        return self.inner.parse(text)

    def play_out(self, rng: random.Random) -> None:
        self.inner.play_out(rng)

    def clone(self) -> DeadPlayerDeal:
        other = DeadPlayerDeal.__new__(DeadPlayerDeal)
        other._wrap(self.rules, self.dealer, self.inner.clone())
        return other

    @staticmethod
    def action_name(action: int) -> str:
        return FrenchDeal.action_name(action)

    @property
    def summary(self) -> FrenchSummary | None:
        """The deal summary in table seats, with ``dead`` the dealer."""
        inner = self.inner.summary
        if inner is None:
            return None
        return dataclasses.replace(
            inner,
            rules=self.rules,
            taker=self.seats[inner.taker],
            partner=None,
            dead=self.dealer,
            poignees=tuple(
                PoigneeDeclared(p.side, p.level, None if p.seat is None else self.seats[p.seat])
                for p in inner.poignees
            ),
            misere=tuple(MisereDeclared(self.seats[m.seat], m.kind) for m in inner.misere),
        )

    def scores(self) -> list[int]:
        """Each table seat's score: the four players as in a 4-player deal, the dead player 0."""
        summary = self.summary
        if summary is None:
            self.inner.scores()  # raises if the deal is not over
            return [0] * TABLE
        return score_french(summary)

    @property
    def events(self) -> list[Event]:
        return [self._event(e) for e in self.inner.events]

    def _event(self, event: Event) -> Event:
        """An inner event in table seats (the summary in table seats too)."""
        if event.kind == "end":
            return event._replace(summary=self.summary)
        out = self.outer
        changes = {
            name: out(value)
            for name, value in zip(event._fields, event, strict=True)
            if name in SEAT_FIELDS and isinstance(value, int)
        }
        return event._replace(**changes)  # type: ignore[arg-type]

    def view(self, seat: int) -> SeatView:
        """What a table seat may know; the dead player sees what is public."""
        if not 0 <= seat < TABLE:
            raise ValueError(f"seat must be 0..{TABLE - 1}, not {seat}")
        inner_seat = self._inner_of.get(seat)
        self._catch_up_events()
        if inner_seat is None:
            return self._outer_view(self.inner.public_view(), seat, self._public_events)  # the dead player
        view = self.inner.view(inner_seat)
        events = self._all_events if inner_seat == self.inner.taker else self._public_events
        return self._outer_view(view, seat, events)

    def public_view(self) -> SeatView:
        """What anyone may know, a spectator: what the dead player sees (``seat`` is
        :data:`~atout.engine.view.PUBLIC_SEAT`), in table seats."""
        self._catch_up_events()
        return self._outer_view(self.inner.public_view(), PUBLIC_SEAT, self._public_events)

    def _catch_up_events(self) -> None:
        log = self.inner.events
        if self._events_seen < len(log):
            new = tuple(self._event(e) for e in log[self._events_seen :])
            self._all_events += new
            self._public_events += tuple(e for e in new if e.kind not in PRIVATE_KINDS)
            self._events_seen = len(log)

    def _outer_view(self, view: SeatView, seat: int, events: tuple[Event, ...]) -> SeatView:
        out = self.outer
        done = len(self._trick_views)
        if done < len(view.tricks):
            self._trick_views += tuple(
                TrickView(tuple((out(s), c) for s, c in t.plays), out(t.winner)) for t in view.tricks[done:]
            )
        return dataclasses.replace(
            view,
            seat=seat,
            players=TABLE,
            dealer=self.dealer,
            rules=fresh_rules(self.rules),
            current_player=out(view.current_player),
            bids=tuple((out(s), b) for s, b in view.bids),
            taker=None if view.taker is None else out(view.taker),
            partner=None,
            poignees=tuple((out(s), level, shown) for s, level, shown in view.poignees),
            trick=tuple((out(s), c) for s, c in view.trick),
            tricks=fresh_tricks(self._trick_views),
            events=(*events[:-1], detached(events[-1])) if events and events[-1].kind == "end" else events,
            scores=tuple(self.scores()) if view.scores is not None else None,
        )

    # ------------------------------------------------------------------ records
    def dealt(self) -> dict[str, object]:
        """The dealt cards in table seats (the dead dealer's hand empty) and the chien."""
        hands = [""] * TABLE
        for i, hand in enumerate(self.inner.initial_hands):
            hands[self.seats[i]] = str(CardSet(hand))
        return {"hands": hands, "chien": str(CardSet(self.inner.initial_chien))}

    @classmethod
    def from_dealt(cls, rules: Rules, dealer: int, data: Mapping[str, object]) -> DeadPlayerDeal:
        """Rebuild from :meth:`dealt`; :class:`ValueError` names the bad field."""
        check_dead_player_rules(rules)
        if not 0 <= dealer < TABLE:
            raise ValueError(f"dealer: expected a seat number 0..{TABLE - 1}, found {dealer!r}")
        hands = data.get("hands")
        if not isinstance(hands, list) or len(hands) != TABLE:
            raise ValueError(f"hands: expected {TABLE} hands, the dead dealer's empty")
        if hands[dealer] not in ("", None):
            raise ValueError(f"hands[{dealer}]: the dead player (the dealer) holds no cards")
        seats = active_seats(rules, dealer)
        try:
            inner = FrenchDeal.from_dealt(
                inner_rules(rules),
                IN_PLAY - 1,
                {"hands": [hands[s] for s in seats], "chien": data.get("chien")},
            )
        except ValueError as exc:
            # name the table seat, not the inner one
            message = str(exc)
            for i, seat in enumerate(seats):
                message = message.replace(f"hands[{i}]", f"hands[{seat}]")
            raise ValueError(message) from None
        deal = cls.__new__(cls)
        deal._wrap(rules, dealer, inner)
        return deal

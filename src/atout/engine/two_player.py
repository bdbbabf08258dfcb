"""One deal of 2-player French Tarot, as a state machine (rule book §4.4).

Each player has 21 cards in hand and 6 piles of 3 cards in front of him, the top card
of each pile face up. There is no bidding, chien, écart, petit-sec check or poignée: the
non-dealer leads the first of 39 tricks of 2 cards (after the chelem announcements,
with ``two_player_chelem``). A player may play any card of his hand or the face-up top
of any of his piles, under the trick rules of §3.8 judged over those cards; the card
beneath a played pile card is turned face up at the end of the trick. The Excuse
follows §3.9 with each player his own side. Each player counts his own pile.

>>> import random
>>> deal = TwoPlayerDeal.new(Rules(players=2), dealer=0, rng=random.Random(1))
>>> deal.phase, deal.current_player
(<Phase.PLAY: 'play'>, 1)
>>> deal.play_out(random.Random(2))
>>> sum(deal.scores()), len(deal.tricks)
(0, 39)

Events (:mod:`atout.engine.events`, all public): ``chelem``, ``play``, ``turn_up`` (the card
beneath a played pile card, turned face up), ``trick``, ``excuse_kept``, ``excuse_paid``,
``excuse_unpaid`` (a debt still unpaid at the end, whose half point §3.11 settles: see
:meth:`TwoPlayerDeal.summary`) and ``end``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from atout.cards import (
    BIT,
    EXCUSE,
    EXCUSE_MASK,
    N_CARDS,
    PETIT,
    SUIT_MASKS,
    SUIT_OF,
    TRUMP,
    card_name,
    cards_of,
    count_bouts,
    half_points,
    nth_card,
    parse_card,
)
from atout.engine.actions import (
    ACTIONS,
    ANNOUNCE_CHELEM,
    DISCARD_BASE,
    N_ACTIONS,
    NO_CHELEM,
    PLAY_ACTIONS,
    Action,
    ActionKind,
    parse_action,
)
from atout.engine.austrian.actions import AustrianAction
from atout.engine.deal import shuffled_deck
from atout.engine.errors import IllegalActionError, card_param, not_an_action, suit_word
from atout.engine.events import (
    CardPlayed,
    ChelemDecided,
    DealEnded,
    Event,
    ExcuseKept,
    ExcusePaid,
    ExcuseUnpaid,
    TrickWon,
    TurnedUp,
)
from atout.engine.french import excuse_exchange_card
from atout.engine.phase import Phase
from atout.engine.tricks import legal_cards, winning_card
from atout.engine.view import PUBLIC_SEAT, TrickView, detached, fresh_rules
from atout.rules import Rules, RulesError
from atout.scoring.french import score_two_player
from atout.scoring.summary import TwoPlayerSummary, two_player_winner

HAND_CARDS = 21
PILES = 6
PILE_CARDS = 3
TWO_PLAYER_TRICKS = 39

Piles = tuple[tuple[tuple[int, ...], ...], ...]
"""Each seat's 6 piles, each pile's cards bottom → top."""

_CHELEM, _PLAY, _END = Phase.CHELEM, Phase.PLAY, Phase.END
_UNSUPPORTED = (
    ("petit_sec_rule", "petit_imprenable"),
    ("excuse_sec_redeal", True),
)


def check_two_player_rules(rules: Rules) -> None:
    """Refuse rules this engine does not play with 2 players."""
    if rules.game != "french" or rules.players != 2:
        raise RulesError(f"the 2-player engine plays French Tarot with players=2, not {rules.players}")
    for name, value in _UNSUPPORTED:
        if getattr(rules, name) == value:
            raise RulesError(f"{name}={value} is not played with 2 players")
    if rules.misere_bonus or rules.partial_slam is not None:
        raise RulesError("misère and partial-slam declarations are not played with 2 players")


def deal_layout(deck: Sequence[int], dealer: int) -> tuple[list[int], Piles]:
    """Deal an ordered pack (top card first) as rule book §4.4 says: the hands and the piles.

    Three layers of piles, dealt singly: 3 pile bases to the opponent, 3 to the dealer,
    3 more to the opponent, 3 more to the dealer; the second layer the same (face down),
    the third the same (face up). Then packets of 3, the opponent first, until each holds 21.
    """
    if sorted(deck) != list(range(N_CARDS)):
        raise ValueError("a deck must hold each of the 78 cards once")
    opponent = 1 - dealer
    piles: list[list[list[int]]] = [[[] for _ in range(PILES)] for _ in range(2)]
    cards = iter(deck)
    for _layer in range(PILE_CARDS):
        for first in (0, 3):
            for seat in (opponent, dealer):
                for i in range(first, first + 3):
                    piles[seat][i].append(next(cards))
    hands = [0, 0]
    for _round in range(HAND_CARDS // 3):
        for seat in (opponent, dealer):
            for _ in range(3):
                hands[seat] |= BIT[next(cards)]
    return hands, tuple(tuple(tuple(p) for p in seat_piles) for seat_piles in piles)


@dataclass(frozen=True)
class TwoPlayerView:
    """One seat's knowledge of a 2-player deal: never a face-down card nor the opponent's hand.

    ``own_tops`` and ``opponent_tops`` hold the face-up card of each pile (``None`` once a
    pile is used up); ``own_pile_sizes`` and ``opponent_pile_sizes`` count each pile's cards.
    """

    game: ClassVar[Literal["two_player"]] = "two_player"
    """Which view this is, for the wire and for code that serves every game."""

    seat: int
    dealer: int
    rules: Rules
    phase: Phase
    current_player: int
    hand: int
    own_tops: tuple[int | None, ...]
    opponent_tops: tuple[int | None, ...]
    own_pile_sizes: tuple[int, ...]
    opponent_pile_sizes: tuple[int, ...]
    legal_actions: tuple[Action, ...]
    chelem_announced_by: int | None
    trick: tuple[tuple[int, int], ...]
    tricks: tuple[TrickView, ...]
    events: tuple[Event, ...]
    scores: tuple[int, ...] | None

    @property
    def available(self) -> int:
        """Mask of the cards this seat may choose from: hand and face-up pile tops."""
        mask = self.hand
        for card in self.own_tops:
            if card is not None:
                mask |= BIT[card]
        return mask

    @property
    def players(self) -> int:
        return 2

    def played(self) -> int:
        """Mask of every card played so far, the current trick included."""
        mask = 0
        for trick in self.tricks:
            for _, card in trick.plays:
                mask |= BIT[card]
        for _, card in self.trick:
            mask |= BIT[card]
        return mask

    def to_json(self) -> dict[str, Any]:
        """The wire form of this view (:mod:`atout.engine.wire`, docs/protocol.md)."""
        from atout.engine.wire import view_to_json

        return view_to_json(self)


class TwoPlayerDeal:
    """The full state of one 2-player deal. Seats are 0 and 1; the non-dealer leads first."""

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        hands: Sequence[int],
        piles: Sequence[Sequence[Sequence[int]]],
        face_up: Sequence[int] | None = None,
    ) -> None:
        """Start a deal from dealt cards: hand masks by seat, each seat's 6 piles of 3
        card indices bottom → top, and (optionally) each seat's mask of face-up cards,
        which at the deal must be exactly the pile tops."""
        check_two_player_rules(rules)
        if dealer not in (0, 1):
            raise ValueError(f"dealer must be seat 0 or 1, not {dealer}")
        pile_cards = _check_layout(hands, piles)
        tops = [sum(BIT[p[-1]] for p in piles[seat]) for seat in (0, 1)]
        if face_up is not None and list(face_up) != tops:
            raise ValueError("face_up: exactly the top card of each pile is face up at the deal")
        self.rules = rules
        self.n = 2
        self.dealer = dealer
        self.initial_hands = (hands[0], hands[1])
        self.initial_piles: Piles = tuple(tuple(tuple(p) for p in piles[s]) for s in (0, 1))
        self._pile_of = pile_cards
        self.hands = list(self.initial_hands)
        self.piles = [[list(p) for p in self.initial_piles[s]] for s in (0, 1)]
        self.tops = tops
        self._turn_up: list[tuple[int, int]] = []
        self.history: list[int] = []
        self._log: list[Event] = []
        self.chelem_announced_by: int | None = None
        self.trick_cards: list[int] = []
        self.trick_leader = 1 - dealer
        self.led_suit = -1
        self.trick_mask = 0
        self.trick_no = 0
        self.tricks: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        self.trick_winners: list[int] = []
        self.won = [0, 0]
        self._debts: list[tuple[int, int]] = []
        self._excuse_won_last = False
        self.outcome = ""
        self._summary: TwoPlayerSummary | None = None
        self._scores: list[int] | None = None
        self.current_player = 1 - dealer
        self.phase = _CHELEM if rules.two_player_chelem else _PLAY

    @classmethod
    def new(
        cls, rules: Rules | None = None, dealer: int = 0, rng: random.Random | int | None = None
    ) -> TwoPlayerDeal:
        """Shuffle and deal a new deal (``rng`` may be a seed)."""
        rules = rules or Rules(players=2)
        check_two_player_rules(rules)
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        if dealer not in (0, 1):
            raise ValueError(f"dealer must be seat 0 or 1, not {dealer}")
        hands, piles = deal_layout(shuffled_deck(rng), dealer)
        return cls(rules, dealer, hands, piles)

    def dealt(self) -> dict[str, object]:
        """The dealt layout as JSON-able card names: ``hands``, ``piles`` (bottom → top), ``face_up``."""
        return {
            "hands": [[card_name(c) for c in cards_of(h)] for h in self.initial_hands],
            "piles": [[[card_name(c) for c in p] for p in seat] for seat in self.initial_piles],
            "face_up": [[card_name(p[-1]) for p in seat] for seat in self.initial_piles],
        }

    @classmethod
    def from_dealt(cls, rules: Rules, dealer: int, data: Mapping[str, object]) -> TwoPlayerDeal:
        """Rebuild a deal from :meth:`dealt`; raises :class:`ValueError` naming the bad field."""
        if not isinstance(data, Mapping):
            raise ValueError("dealt: expected an object with hands, piles and face_up")
        hands_data = _list_of(data.get("hands"), "hands", 2)
        hands = [
            _mask_of_names(_list_of(h, f"hands[{s}]", HAND_CARDS), f"hands[{s}]")
            for s, h in enumerate(hands_data)
        ]
        piles = []
        for s, seat_piles in enumerate(_list_of(data.get("piles"), "piles", 2)):
            piles.append(
                [
                    [
                        _card(name, f"piles[{s}][{i}][{k}]")
                        for k, name in enumerate(_list_of(p, f"piles[{s}][{i}]", PILE_CARDS))
                    ]
                    for i, p in enumerate(_list_of(seat_piles, f"piles[{s}]", PILES))
                ]
            )
        face_up = None
        if data.get("face_up") is not None:
            face_up = [
                _mask_of_names(_list_of(f, f"face_up[{s}]", PILES), f"face_up[{s}]")
                for s, f in enumerate(_list_of(data["face_up"], "face_up", 2))
            ]
        return cls(rules, dealer, hands, piles, face_up)

    def clone(self) -> TwoPlayerDeal:
        """An independent copy (lists copied; cards and rules are immutable)."""
        other = object.__new__(TwoPlayerDeal)
        other.__dict__.update(self.__dict__)
        for name in (
            "hands",
            "tops",
            "_turn_up",
            "history",
            "_log",
            "trick_cards",
            "tricks",
            "trick_winners",
            "won",
            "_debts",
        ):
            setattr(other, name, getattr(self, name).copy())
        other.piles = [[list(p) for p in seat] for seat in self.piles]
        return other

    # ------------------------------------------------------------------ queries
    def is_over(self) -> bool:
        return self.phase is _END

    def available(self, seat: int) -> int:
        """Mask of the cards ``seat`` may choose from: his hand and his face-up pile tops (§4.4)."""
        return self.hands[seat] | self.tops[seat]

    def legal_play_mask(self) -> int:
        """Mask of the cards the current player may play (rule book §3.8 over §4.4's available cards)."""
        if self.phase is not _PLAY:
            return 0
        seat = self.current_player
        available = self.available(seat)
        if (
            self.rules.excuse_last_trick == "must_play_before_last"
            and available & EXCUSE_MASK
            and self._remaining(seat) == 2
            and not all(w == seat for w in self.trick_winners)
        ):
            return EXCUSE_MASK
        return legal_cards(available, self.led_suit, self.trick_mask)

    def legal_actions(self) -> list[Action]:
        """Every legal action of the current player, in increasing order."""
        if self.phase is _PLAY:
            return [PLAY_ACTIONS[c] for c in cards_of(self.legal_play_mask())]
        if self.phase is _CHELEM:
            return [NO_CHELEM, ANNOUNCE_CHELEM]
        return []

    def is_legal(self, action: int) -> bool:
        return action in self.legal_actions()

    def _remaining(self, seat: int) -> int:
        return self.hands[seat].bit_count() + sum(len(p) for p in self.piles[seat])

    def trick_seat_order(self) -> tuple[int, ...]:
        """The seats of the current trick, leader first."""
        return (self.trick_leader, 1 - self.trick_leader)

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: int) -> None:
        """Apply the current player's action, or raise :class:`IllegalActionError` and change nothing."""
        given = type(action)
        if (given is not Action and given is not int) or not 0 <= action < N_ACTIONS:
            raise not_an_action(action, "French Tarot", AustrianAction, "Austrian Tarock")
        if self.phase is _PLAY:
            if 0 <= action < DISCARD_BASE and self.legal_play_mask() >> action & 1:
                self.history.append(action)
                self._play(action)
                return
        elif self.phase is _CHELEM and action in (NO_CHELEM, ANNOUNCE_CHELEM):
            self.history.append(action)
            self._decide_chelem(action == ANNOUNCE_CHELEM)
            return
        raise self._explain_illegal(action)

    def play_out(self, rng: random.Random) -> None:
        """Finish the deal with uniformly random legal actions: one ``rng.random()`` draw per
        decision picks the k-th legal action (increasing order), ``k = int(draw * count)``."""
        draw = rng.random
        while self.phase is not _END:
            if self.phase is _PLAY:
                legal = self.legal_play_mask()
                card = nth_card(legal, int(draw() * legal.bit_count()))
                self.history.append(card)
                self._play(card)
            else:
                actions = self.legal_actions()
                self.apply(actions[int(draw() * len(actions))])

    def parse(self, text: str) -> Action:
        """Read an action from words; a bare card name means playing it."""
        return parse_action(text, "play")

    @staticmethod
    def action_name(action: int) -> str:
        """The words of an action, e.g. ``play KS`` or ``chelem``."""
        if not 0 <= action < len(ACTIONS):
            raise ValueError(f"{action!r} is not an action")
        return str(ACTIONS[action])

    def _decide_chelem(self, announced: bool) -> None:
        # rule book §3.6 with no taker: the non-dealer decides first, the dealer only if he declined.
        seat = self.current_player
        self._log.append(ChelemDecided(seat, announced))
        if announced:
            self.chelem_announced_by = seat
            if self.rules.chelem_announcer_leads:
                self.trick_leader = seat
        elif seat != self.dealer:
            self.current_player = self.dealer
            return
        self.current_player = self.trick_leader
        self.phase = _PLAY

    def _play(self, card: int) -> None:
        seat = self.current_player
        bit = BIT[card]
        if self.hands[seat] & bit:
            self.hands[seat] ^= bit
        else:
            self.tops[seat] ^= bit
            pile = self._pile_of[card]
            self.piles[seat][pile].pop()
            self._turn_up.append((seat, pile))
        self._log.append(CardPlayed(seat, card))
        self.trick_cards.append(card)
        self.trick_mask |= bit
        if self.led_suit < 0 and card != EXCUSE:
            self.led_suit = SUIT_OF[card]
        if len(self.trick_cards) < 2:
            self.current_player = 1 - seat
        else:
            self._finish_trick()

    def _finish_trick(self) -> None:
        cards, leader, trick_mask = self.trick_cards, self.trick_leader, self.trick_mask
        seats = (leader, 1 - leader)
        winner = seats[cards.index(winning_card(trick_mask, self.led_suit))]
        if trick_mask & EXCUSE_MASK:
            last = self.trick_no == TWO_PLAYER_TRICKS - 1
            owner = seats[cards.index(EXCUSE)]
            if last and cards[0] == EXCUSE and all(w == owner for w in self.trick_winners):
                winner = owner  # §3.9 slam exception: the Excuse led to the last trick wins it
                self._excuse_won_last = True
            elif owner != winner and not last:
                # §3.9: the Excuse returns to its player, who owes the winner a half-point card
                trick_mask ^= EXCUSE_MASK
                self.won[owner] |= EXCUSE_MASK
                self._debts.append((owner, winner))
                self._log.append(ExcuseKept(owner, winner))
            # in the last trick (no slam) the Excuse changes camp: it stays in the trick
        self.won[winner] |= trick_mask
        self.tricks.append((seats, tuple(cards), winner))
        self.trick_winners.append(winner)
        self._log.append(TrickWon(winner, self.trick_no))
        for seat, pile in self._turn_up:  # §4.4: the card beneath is turned up at the end of the trick
            if self.piles[seat][pile]:
                top = self.piles[seat][pile][-1]
                self.tops[seat] |= BIT[top]
                self._log.append(TurnedUp(seat, top))
        self._turn_up = []
        self.trick_no += 1
        self.trick_cards = []
        self.trick_mask = 0
        self.led_suit = -1
        self.trick_leader = winner
        if self._debts:
            self._pay_debts()
        if self.trick_no == TWO_PLAYER_TRICKS:
            self._finish_deal()
        else:
            self.current_player = winner

    def _pay_debts(self) -> None:
        pending = []
        for owner, winner in self._debts:
            card = excuse_exchange_card(self.won[owner] & ~EXCUSE_MASK, self.rules.excuse_exchange_card)
            if card < 0:
                pending.append((owner, winner))
                continue
            self.won[owner] ^= BIT[card]
            self.won[winner] |= BIT[card]
            self._log.append(ExcusePaid(owner, card, winner))
        self._debts = pending

    def _finish_deal(self) -> None:
        halves = [half_points(self.won[0]), half_points(self.won[1])]
        for owner, creditor in self._debts:
            self._log.append(ExcuseUnpaid(owner, creditor))
        oudlers = (count_bouts(self.won[0]), count_bouts(self.won[1]))
        pab: int | None = None
        if PETIT in self.tricks[-1][1]:
            pab = self.trick_winners[-1]
        elif self._excuse_won_last and PETIT in self.tricks[-2][1]:
            pab = self.trick_winners[-2]  # §3.9: the Petit in the penultimate trick counts au bout
        won_by = None
        if self.rules.two_player_chelem and len(set(self.trick_winners)) == 1:
            won_by = self.trick_winners[0]
        summary = TwoPlayerSummary(
            self.rules, (halves[0], halves[1]), oudlers, pab, self.chelem_announced_by, won_by
        )
        if two_player_winner(summary) is None:
            # Each is half a point short: the unpaid debt's half point goes to its creditor
            # (our reading of §3.11, as FFT's "the Excuse counts 4 points").
            owner, creditor = self._debts[0]
            halves[owner] -= 1
            halves[creditor] += 1
            summary = TwoPlayerSummary(
                self.rules, (halves[0], halves[1]), oudlers, pab, self.chelem_announced_by, won_by
            )
        self._summary = summary
        self._scores = score_two_player(summary)
        self.outcome = "played"
        self.phase = _END
        self.current_player = -1
        self._log.append(DealEnded(None, summary))

    # ------------------------------------------------------------------ results
    def scores(self) -> list[int]:
        """Each seat's score for the deal."""
        if self._scores is None:
            raise ValueError("the deal is not over")
        return list(self._scores)

    @property
    def summary(self) -> TwoPlayerSummary | None:
        """The deal summary (rule book §9) once played, ``None`` before. Its points are the
        piles' card points; when an unpaid Excuse debt leaves both players half a point short,
        that half point is counted to the creditor (an ``excuse_unpaid`` event says so)."""
        return self._summary

    @property
    def events(self) -> list[Event]:
        """Everything that happened, in order (kinds in the module docstring)."""
        return list(self._log)

    # ------------------------------------------------------------------ views
    def view(self, seat: int) -> TwoPlayerView:
        """What ``seat`` may know: his hand, both players' face-up pile tops, and the play."""
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, not {seat}")
        return self._view(seat)

    def public_view(self) -> TwoPlayerView:
        """What anyone may know, a spectator: the face-up pile tops and the play, no hand
        (``seat`` is :data:`~atout.engine.view.PUBLIC_SEAT`); ``own_*`` are seat 0's piles,
        ``opponent_*`` seat 1's."""
        return self._view(PUBLIC_SEAT)

    def _view(self, seat: int) -> TwoPlayerView:
        # every event of the 2-player game is public (no bidding, chien nor poignée)
        seated = seat >= 0
        mine = seat if seated else 0
        events = tuple(self._log)
        if events and events[-1].kind == "end":
            events = (*events[:-1], detached(events[-1]))  # the summary, an object
        return TwoPlayerView(
            seat=seat,
            dealer=self.dealer,
            rules=fresh_rules(self.rules),
            phase=self.phase,
            current_player=self.current_player,
            hand=self.hands[seat] if seated else 0,
            own_tops=self._tops_of(mine),
            opponent_tops=self._tops_of(1 - mine),
            own_pile_sizes=tuple(len(p) for p in self.piles[mine]),
            opponent_pile_sizes=tuple(len(p) for p in self.piles[1 - mine]),
            legal_actions=tuple(self.legal_actions()) if seated and seat == self.current_player else (),
            chelem_announced_by=self.chelem_announced_by,
            trick=tuple(zip(self.trick_seat_order(), self.trick_cards, strict=False)),
            tricks=tuple(TrickView(tuple(zip(s, c, strict=True)), w) for s, c, w in self.tricks),
            events=events,
            scores=tuple(self._scores) if self._scores is not None else None,
        )

    def _tops_of(self, seat: int) -> tuple[int | None, ...]:
        return tuple(p[-1] if p and self.tops[seat] & BIT[p[-1]] else None for p in self.piles[seat])

    # ------------------------------------------------------------------ illegal actions
    def _explain_illegal(self, action: int) -> IllegalActionError:
        if not isinstance(action, int) or not 0 <= action < len(ACTIONS):
            return IllegalActionError("actions", f"{action!r} is not an action", "not_an_action")
        act = ACTIONS[action]
        who = f"seat {self.current_player}"
        if self.phase is _END:
            return IllegalActionError("rule book §4.4", f"{act}: the deal is over", "deal_over")
        if act.kind not in (ActionKind.PLAY, ActionKind.CHELEM):
            return IllegalActionError(
                "rule book §4.4 no bidding, chien, écart or poignée",
                f"{act}: not part of the 2-player game",
                "not_in_game",
            )
        if self.phase is _CHELEM:
            return IllegalActionError(
                "rule book §4.4 and §3.6 chelem announcement",
                f"{act} by {who}: first announce a chelem or not",
                "chelem_first",
            )
        if act.kind is ActionKind.CHELEM:
            return IllegalActionError(
                "rule book §3.6 chelem announcement",
                f"{act} by {who}: a chelem is announced before the first card, with two_player_chelem",
                "chelem_before_first_card",
            )
        card = action
        seat = self.current_player
        if not self.available(seat) >> card & 1:
            # the same words wherever the card lies: under his own pile or elsewhere, unseen
            return IllegalActionError(
                "rule book §4.4 available cards",
                f"{act} by {who}: only a card of his hand or a face-up pile top may be played",
                "not_available",
                card_param(card),
            )
        rule, code, params = self._play_rule(card)
        return IllegalActionError(rule, f"{act} by {who} is not allowed", code, params)

    def _play_rule(self, card: int) -> tuple[str, str, dict[str, str]]:
        """The rule an available card breaks: its name, code and params (§3.8)."""
        available = self.available(self.current_player)
        if self.legal_play_mask() == EXCUSE_MASK and card != EXCUSE:
            return (
                "rule book §3.8 step 1: the Excuse must be played before the last trick",
                "excuse_before_last",
                {},
            )
        if 0 <= self.led_suit != TRUMP and available & SUIT_MASKS[self.led_suit]:
            return (
                "rule book §3.8 step 3: must follow suit",
                "follow_suit",
                {"suit": suit_word(self.led_suit)},
            )
        if SUIT_OF[card] == TRUMP:
            top = max(c for c in self.trick_cards if SUIT_OF[c] == TRUMP)
            return (
                "rule book §3.8: must play a trump higher than the highest trump in the trick",
                "overtrump",
                card_param(top),
            )
        if self.led_suit == TRUMP:
            return "rule book §3.8 step 4: must follow in trumps", "follow_trumps", {}
        return (
            "rule book §3.8: must trump when void in the suit led",
            "must_trump",
            {"suit": suit_word(self.led_suit)},
        )


# ---------------------------------------------------------------------- dealt layouts


def _check_layout(hands: Sequence[int], piles: Sequence[Sequence[Sequence[int]]]) -> tuple[int, ...]:
    """Check the dealt cards; return, for each card, its pile's index (-1 for a hand card)."""
    if len(hands) != 2 or len(piles) != 2:
        raise ValueError("2 hands and 2 sets of piles are needed")
    pile_of = [-1] * N_CARDS
    union = 0
    for seat in (0, 1):
        if hands[seat].bit_count() != HAND_CARDS:
            raise ValueError(f"hands[{seat}]: {hands[seat].bit_count()} cards, not {HAND_CARDS}")
        if union & hands[seat]:
            raise ValueError(f"hands[{seat}]: a card dealt twice")
        union |= hands[seat]
        if len(piles[seat]) != PILES:
            raise ValueError(f"piles[{seat}]: {len(piles[seat])} piles, not {PILES}")
        for i, pile in enumerate(piles[seat]):
            if len(pile) != PILE_CARDS:
                raise ValueError(f"piles[{seat}][{i}]: {len(pile)} cards, not {PILE_CARDS}")
            for card in pile:
                if not 0 <= card < N_CARDS:
                    raise ValueError(f"piles[{seat}][{i}]: {card!r} is not a card")
                if union >> card & 1:
                    raise ValueError(f"piles[{seat}][{i}]: {card_name(card)} dealt twice")
                union |= BIT[card]
                pile_of[card] = i
    return tuple(pile_of)


def _list_of(value: object, field: str, size: int) -> list[object]:
    if not isinstance(value, list) or len(value) != size:
        raise ValueError(f"{field}: expected a list of {size} entries")
    return value


def _card(name: object, field: str) -> int:
    if not isinstance(name, str):
        raise ValueError(f"{field}: expected a card name, found {name!r}")
    try:
        return parse_card(name)
    except ValueError as exc:
        raise ValueError(f"{field}: {exc}") from None


def _mask_of_names(names: list[object], field: str) -> int:
    mask = 0
    for k, name in enumerate(names):
        card = _card(name, f"{field}[{k}]")
        if mask >> card & 1:
            raise ValueError(f"{field}: {card_name(card)} named twice")
        mask |= BIT[card]
    return mask


__all__ = ["TWO_PLAYER_TRICKS", "TwoPlayerDeal", "TwoPlayerView", "check_two_player_rules", "deal_layout"]

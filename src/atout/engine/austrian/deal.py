"""One deal of Austrian three-player Tarock, as a state machine (rule book §5, seed 001).

deal (16 cards each in packets of 8, a talon of two halves) → bidding (pass, threesome, solo;
all pass cancels the deal) → talon choice and discard (threesome) → game declaration → 16 tricks
→ count in threes and score with :func:`~atout.scoring.austrian.score_austrian`.

>>> import random
>>> deal = AustrianDeal.new(Rules(game="austrian", players=3), dealer=0, rng=random.Random(1))
>>> deal.phase, deal.current_player, [str(a) for a in deal.legal_actions()]
(<Phase.BIDDING: 'bidding'>, 1, ['pass', 'threesome', 'solo'])
>>> deal.play_out(random.Random(2))
>>> deal.is_over(), len(deal.history) > 0
(True, True)

Seats are 0-2 and "right" is ``seat + 1`` (counterclockwise; ``play_direction=clockwise`` turns
it round). Events (:mod:`atout.engine.events`): ``bid``, ``all_passed``, ``talon_shown`` (a
half turned up for all), ``talon_seen`` (the unseen second half, seen by the declarer alone),
``talon_taken``, ``discard`` (the declarer alone), ``discard_shown``, ``game``, ``play``,
``trick`` and ``end``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from atout.cards import AUSTRIAN_DECK_MASK, BIT, KINGS_MASK, SUIT_MASKS, TRUMP, CardSet, card_name, nth_card
from atout.engine.actions import Action
from atout.engine.austrian.actions import (
    AUSTRIAN_ACTIONS,
    BID_BASE,
    BID_NAMES,
    DISCARD_ACTIONS,
    DISCARD_BASE,
    GAME_ACTIONS,
    GAME_BASE,
    GAME_TYPES,
    N_AUSTRIAN_ACTIONS,
    PASS,
    PLAY_ACTIONS,
    TALON_ACTIONS,
    TALON_BASE,
    AustrianAction,
    action_name,
    parse_austrian_action,
)
from atout.engine.austrian.cards import (
    AUSTRIAN_SUIT_OF,
    AUSTRIAN_TRUMPS_MASK,
    HALF_CARDS,
    HAND_CARDS,
    TRULL_MASK,
    austrian_points,
    deal_pack,
    parse_austrian_card,
    shuffled_pack,
)
from atout.engine.austrian.tricks import legal_cards, winning_card
from atout.engine.austrian.view import AustrianView
from atout.engine.deal import seat_step
from atout.engine.errors import IllegalActionError, card_param, not_an_action, suit_word
from atout.engine.events import (
    AllPassed,
    Bid,
    CardPlayed,
    DealEnded,
    Discard,
    DiscardShown,
    Event,
    GameDeclared,
    TalonSeen,
    TalonShown,
    TalonTaken,
    TrickWon,
    may_see,
)
from atout.engine.phase import Phase
from atout.engine.view import PUBLIC_SEAT, TrickView, detached, fresh_rules
from atout.rules import Rules, RulesError
from atout.scoring.austrian import score_austrian
from atout.scoring.summary import AustrianSummary

N_TRICKS = 16


_BIDDING, _TALON, _DISCARD, _GAME = Phase.BIDDING, Phase.TALON, Phase.DISCARD, Phase.GAME
_PLAY, _END = Phase.PLAY, Phase.END
_WANTED = {_BIDDING: "bid", _TALON: "choose a talon half", _DISCARD: "discard", _GAME: "declare a game"}
_WANTED[_PLAY] = "play"
_CARD_VERB = {_DISCARD: "discard"}


def check_austrian_rules(rules: Rules) -> None:
    """Refuse rules that are not the Austrian game."""
    if rules.game != "austrian":
        raise RulesError(f"game={rules.game} is not Austrian Tarock (set game=austrian, players=3)")


class AustrianDeal:
    """The full state of one Austrian Tarock deal."""

    __slots__ = (
        "_highest",
        "_log",
        "_public_halves",
        "_scores",
        "_summary",
        "bid",
        "bids",
        "current_player",
        "dealer",
        "declarer",
        "discard",
        "game_type",
        "hands",
        "history",
        "initial_hands",
        "led_suit",
        "n",
        "outcome",
        "phase",
        "rules",
        "step",
        "talon",
        "talon_half",
        "trick_cards",
        "trick_leader",
        "trick_mask",
        "trick_no",
        "tricks",
        "won",
    )

    # ------------------------------------------------------------------ creation
    def __init__(self, rules: Rules, dealer: int, hands: list[int], talon: list[int]) -> None:
        """Start a deal from dealt cards: three hands and the two talon halves (masks), first half first."""
        check_austrian_rules(rules)
        if not (isinstance(dealer, int) and 0 <= dealer < 3):
            raise ValueError(f"dealer: must be a seat 0..2, not {dealer!r}")
        _check_dealt(hands, talon)
        self.rules = rules
        self.n = 3
        self.step = seat_step(rules)
        self.dealer = dealer
        self.initial_hands = tuple(hands)
        self.talon = (talon[0], talon[1])
        self.hands = list(hands)
        self.history: list[int] = []
        self._log: list[Event] = []
        self.bids: list[tuple[int, str]] = []
        self._highest = (0, -1)
        self.declarer = -1
        self.bid: str | None = None
        self.talon_half: int | None = None
        self._public_halves = [False, False]
        self.game_type: str | None = None
        self.discard = 0
        self.trick_cards: list[int] = []
        self.trick_leader = -1
        self.led_suit = -1
        self.trick_mask = 0
        self.trick_no = 0
        self.tricks: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        self.won = [0, 0, 0]
        self.outcome = ""
        self._summary: AustrianSummary | None = None
        self._scores: list[int] | None = None
        self.phase = _BIDDING
        self.current_player = self.next_seat(dealer)

    @classmethod
    def new(
        cls, rules: Rules | None = None, dealer: int = 0, rng: random.Random | int | None = None
    ) -> AustrianDeal:
        """Shuffle and deal a new deal (``rng`` may be a seed)."""
        rules = rules or Rules(game="austrian", players=3)
        check_austrian_rules(rules)
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        if not 0 <= dealer < 3:
            raise ValueError(f"dealer: must be a seat 0..2, not {dealer}")
        hands, halves = deal_pack(shuffled_pack(rng), dealer, seat_step(rules))
        return cls(rules, dealer, hands, list(halves))

    @classmethod
    def from_dealt(cls, rules: Rules, dealer: int, data: object) -> AustrianDeal:
        """Rebuild a deal from :meth:`dealt`'s card names; bad data raises :class:`ValueError` naming the field."""
        if not isinstance(data, Mapping):
            raise ValueError("dealt: must be an object with hands and talon")
        for key in data:
            if key not in ("hands", "talon"):
                raise ValueError(f"{key}: unknown field (a deal has hands and talon)")
        hands = _read_piles(data, "hands", 3)
        talon = _read_piles(data, "talon", 2)
        return cls(rules, dealer, hands, talon)

    def dealt(self) -> dict[str, object]:
        """The dealt cards as card names: ``{"hands": [3 strings], "talon": [first half, second half]}``."""
        return {
            "hands": [str(CardSet(h)) for h in self.initial_hands],
            "talon": [str(CardSet(h)) for h in self.talon],
        }

    def clone(self) -> AustrianDeal:
        """An independent copy (lists copied; cards, events and rules are immutable)."""
        other = object.__new__(AustrianDeal)
        for name in AustrianDeal.__slots__:
            value = getattr(self, name)
            setattr(other, name, value.copy() if isinstance(value, list) else value)
        return other

    # ------------------------------------------------------------------ queries
    def is_over(self) -> bool:
        return self.phase is _END

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in playing order."""
        return (seat + self.step) % 3

    @property
    def forehand(self) -> int:
        """The dealer's right neighbour: first to bid and to lead."""
        return self.next_seat(self.dealer)

    def legal_actions(self) -> list[AustrianAction]:
        """Every legal action of the current player, in increasing order."""
        phase = self.phase
        if phase is _PLAY:
            return _actions_of(self.legal_play_mask(), PLAY_ACTIONS)
        if phase is _BIDDING:
            return [PASS] + [AUSTRIAN_ACTIONS[BID_BASE + i] for i in range(self._highest[0] + 1, 3)]
        if phase is _TALON:
            return list(TALON_ACTIONS)
        if phase is _DISCARD:
            return _actions_of(self.discard_mask(), DISCARD_ACTIONS)
        if phase is _GAME:
            return list(GAME_ACTIONS.values())
        return []

    def is_legal(self, action: int) -> bool:
        return action in self.legal_actions()

    def legal_play_mask(self) -> int:
        """Mask of the cards the current player may play (rule book §5.4); 0 outside card play."""
        if self.phase is not _PLAY:
            return 0
        return legal_cards(
            self.hands[self.current_player],
            self.led_suit,
            self.trick_mask,
            self.rules.austrian_must_overtrump,
        )

    def discard_mask(self) -> int:
        """Mask of the cards the declarer may discard (rule book §5.3): no kings, no trull under the option."""
        if self.phase is not _DISCARD:
            return 0
        banned = KINGS_MASK | (TRULL_MASK if self.rules.austrian_forbid_trull_discard else 0)
        return self.hands[self.declarer] & ~banned

    def trick_seat_order(self) -> tuple[int, ...]:
        """The seats of the current trick, leader first."""
        lead = self.trick_leader
        return (lead, self.next_seat(lead), self.next_seat(self.next_seat(lead))) if lead >= 0 else ()

    def unused_talon(self) -> int:
        """The talon cards no one takes into hand: they count for the defenders, or for the
        declarer in a solo under ``austrian_solo_talon=declarer``."""
        if self.talon_half is not None:
            return self.talon[2 - self.talon_half]
        if self.bid == "solo":
            return self.talon[0] | self.talon[1]
        return 0

    def declarer_pile(self) -> int:
        """The declarer's cards for the count (rule book §5.5): won tricks and the discard,
        with the talon in a solo under ``austrian_solo_talon=declarer``."""
        if self.declarer < 0:
            return 0
        pile = self.won[self.declarer] | self.discard
        if self.bid == "solo" and self.rules.austrian_solo_talon == "declarer":
            pile |= self.unused_talon()
        return pile

    def defenders_pile(self) -> int:
        """The defenders' cards for the count: their tricks and the talon cards not the declarer's."""
        if self.declarer < 0:
            return 0
        defenders = [s for s in range(3) if s != self.declarer]
        pile = self.won[defenders[0]] | self.won[defenders[1]]
        if not (self.bid == "solo" and self.rules.austrian_solo_talon == "declarer"):
            pile |= self.unused_talon()
        return pile

    def parse(self, text: str) -> AustrianAction:
        """Read an action from words; a bare card means ``discard`` in the discard phase, else ``play``."""
        return parse_austrian_action(text, _CARD_VERB.get(self.phase, "play"))

    def action_name(self, action: int) -> str:
        """An action's words under this deal's options."""
        if not 0 <= action < N_AUSTRIAN_ACTIONS:
            raise ValueError(f"{action!r} is not an Austrian action")
        return action_name(action, self.rules.austrian_talon_mode == "free_choice")

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: int) -> None:
        """Apply the current player's action, or raise :class:`IllegalActionError` and change nothing."""
        given = type(action)
        if (given is not AustrianAction and given is not int) or not 0 <= action < N_AUSTRIAN_ACTIONS:
            raise not_an_action(action, "Austrian Tarock", Action, "French Tarot")
        phase = self.phase
        if phase is _PLAY:
            if action < DISCARD_BASE and self.legal_play_mask() >> action & 1:
                self.history.append(int(action))
                self._play(action)
                return
        elif phase is _BIDDING:
            index = action - BID_BASE
            if index == 0 or self._highest[0] < index < len(BID_NAMES):
                self.history.append(int(action))
                self._bid(index)
                return
        elif phase is _TALON:
            if TALON_BASE <= action < GAME_BASE:
                self.history.append(int(action))
                self._take_half(action - TALON_BASE + 1)
                return
        elif phase is _DISCARD:
            card = action - DISCARD_BASE
            if 0 <= card < DISCARD_BASE and self.discard_mask() >> card & 1:
                self.history.append(int(action))
                self._discard(card)
                return
        elif phase is _GAME and action >= GAME_BASE:
            self.history.append(int(action))
            self._declare(GAME_TYPES[action - GAME_BASE])
            return
        raise self._explain_illegal(action)

    def play_out(self, rng: random.Random) -> None:
        """Finish the deal with uniformly random legal actions.

        Each decision draws one number: the k-th legal action (in increasing order) for
        ``k = int(rng.random() * number of legal actions)``, exactly what a driver of
        :meth:`legal_actions` and :meth:`apply` with the same draws would choose.
        """
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

    def _bid(self, index: int) -> None:
        seat = self.current_player
        name = BID_NAMES[index]
        self.bids.append((seat, name))
        self._log.append(Bid(seat, name))
        if index:
            self._highest = (index, seat)
        if len(self.bids) < 3:
            self.current_player = self.next_seat(seat)
            return
        best, declarer = self._highest
        if not best:
            # rule book §5.2: all pass, redeal by the next dealer (austrian_all_pass=redeal)
            self._log.append(AllPassed())
            self._end("all passed; the deal is cancelled and the next dealer deals")
            return
        self.declarer, self.bid, self.current_player = declarer, BID_NAMES[best], declarer
        if self.bid == "solo":
            self._before_game()
            return
        # rule book §5.3: the first half is turned up for all; both halves under the options
        rules = self.rules
        both = rules.austrian_talon_mode == "free_choice" or rules.austrian_second_half_visible
        for half in (1, 2) if both else (1,):
            self._public_halves[half - 1] = True
            self._log.append(TalonShown(declarer, half, self.talon[half - 1]))
        self.phase = _TALON

    def _take_half(self, half: int) -> None:
        declarer, cards = self.declarer, self.talon[half - 1]
        self.talon_half = half
        self._log.append(TalonTaken(declarer, half))
        if not self._public_halves[half - 1]:
            self._log.append(TalonSeen(declarer, half, cards))
        self.hands[declarer] |= cards
        self.phase = _DISCARD

    def _discard(self, card: int) -> None:
        declarer = self.declarer
        self.hands[declarer] ^= BIT[card]
        self.discard |= BIT[card]
        self._log.append(Discard(declarer, card))
        if BIT[card] & AUSTRIAN_TRUMPS_MASK:
            self._log.append(DiscardShown(declarer, card))
        if self.discard.bit_count() == HALF_CARDS:
            self._before_game()

    def _before_game(self) -> None:
        if self.rules.austrian_allow_game2:
            self.phase = _GAME
        else:
            self._declare("36_or_more")  # no declaration: every game is game 1

    def _declare(self, game_type: str) -> None:
        self.game_type = game_type
        self._log.append(GameDeclared(self.declarer, game_type))
        self.trick_leader = self.current_player = self.forehand
        self.phase = _PLAY

    def _play(self, card: int) -> None:
        seat = self.current_player
        bit = BIT[card]
        self.hands[seat] ^= bit
        self._log.append(CardPlayed(seat, card))
        self.trick_cards.append(card)
        self.trick_mask |= bit
        if self.led_suit < 0:
            self.led_suit = AUSTRIAN_SUIT_OF[card]
        if len(self.trick_cards) < 3:
            self.current_player = self.next_seat(seat)
            return
        seats = self.trick_seat_order()
        cards = self.trick_cards
        winner = seats[cards.index(winning_card(self.trick_mask, self.led_suit))]
        self.won[winner] |= self.trick_mask
        self.tricks.append((seats, tuple(cards), winner))
        self._log.append(TrickWon(winner, self.trick_no))
        self.trick_no += 1
        self.trick_cards = []
        self.trick_mask = 0
        self.led_suit = -1
        self.trick_leader = self.current_player = winner
        if self.trick_no == N_TRICKS:
            self._finish_deal()

    def _finish_deal(self) -> None:
        assert self.bid in ("threesome", "solo") and self.game_type in GAME_TYPES
        summary = AustrianSummary(
            rules=self.rules,
            declarer=self.declarer,
            bid=self.bid,  # type: ignore[arg-type]
            talon_half=self.talon_half,
            game_type=self.game_type,  # type: ignore[arg-type]
            points=austrian_points(self.declarer_pile(), self.rules.austrian_jack_value),
        )
        self._summary = summary
        self._scores = score_austrian(summary)
        self._end("played", summary)

    def _end(self, outcome: str, summary: AustrianSummary | None = None) -> None:
        self.outcome = outcome
        self.phase = _END
        self.current_player = -1
        if self._scores is None:
            self._scores = [0, 0, 0]
        self._log.append(DealEnded(None, summary))

    # ------------------------------------------------------------------ results
    def scores(self) -> list[int]:
        """Each seat's score for the deal (zeros for a cancelled deal)."""
        if self._scores is None:
            raise ValueError("the deal is not over")
        return list(self._scores)

    @property
    def summary(self) -> AustrianSummary | None:
        """The deal summary (rule book §9) once played; ``None`` before or if cancelled."""
        return self._summary

    @property
    def events(self) -> list[Event]:
        """Everything that happened, in order (kinds in the module docstring)."""
        return list(self._log)

    # ------------------------------------------------------------------ views
    def view(self, seat: int) -> AustrianView:
        """What ``seat`` may know: its own cards and everything public, nothing else."""
        if not (isinstance(seat, int) and 0 <= seat < 3):
            raise ValueError(f"seat must be 0..2, not {seat!r}")
        return self._view(seat)

    def public_view(self) -> AustrianView:
        """What anyone may know, a spectator: the view of no seat (``seat`` is
        :data:`~atout.engine.view.PUBLIC_SEAT`), no hand, no legal actions, the talon halves
        turned up, the discard's face-up trumps; the declarer's own events and half stay his."""
        return self._view(PUBLIC_SEAT)

    def _view(self, seat: int) -> AustrianView:
        counted = self._summary is not None
        declarer = seat >= 0 and seat == self.declarer
        halves = [
            cards if public or counted or (declarer and self.talon_half == i + 1) else None
            for i, (cards, public) in enumerate(zip(self.talon, self._public_halves, strict=True))
        ]
        own_discard = declarer or counted
        events = tuple(e for e in self._log if may_see(e, seat))
        if events and events[-1].kind == "end":
            events = (*events[:-1], detached(events[-1]))  # the summary, an object
        return AustrianView(
            seat=seat,
            dealer=self.dealer,
            rules=fresh_rules(self.rules),
            phase=self.phase,
            current_player=self.current_player,
            hand=self.hands[seat] if seat >= 0 else 0,
            legal_actions=tuple(self.legal_actions()) if seat >= 0 and seat == self.current_player else (),
            bids=tuple(self.bids),
            declarer=self.declarer if self.declarer >= 0 else None,
            bid=self.bid,
            talon_half=self.talon_half,
            game_type=self.game_type,
            first_half=halves[0],
            second_half=halves[1],
            discard=self.discard if own_discard else self.discard & AUSTRIAN_TRUMPS_MASK,
            trick=tuple(zip(self.trick_seat_order(), self.trick_cards, strict=False)),
            tricks=tuple(TrickView(tuple(zip(s, c, strict=True)), w) for s, c, w in self.tricks),
            events=events,
            scores=tuple(self._scores) if self._scores is not None else None,
        )

    # ------------------------------------------------------------------ illegal actions
    def _explain_illegal(self, action: object) -> IllegalActionError:
        if not (isinstance(action, int) and 0 <= action < N_AUSTRIAN_ACTIONS):
            return IllegalActionError("actions", f"{action!r} is not an Austrian action", "not_an_action")
        phase, name, who = self.phase, self.action_name(action), f"seat {self.current_player}"
        if phase is _END:
            if self._summary is None:
                return IllegalActionError(
                    "rule book §5.2 all pass", f"{name}: the deal was cancelled", "deal_cancelled"
                )
            return IllegalActionError("rule book §5.4 16 tricks", f"{name}: the deal is over", "deal_over")
        kind = {0: "play", 1: "discard", 2: "bid", 3: "choose a talon half", 4: "declare a game"}[
            AUSTRIAN_ACTIONS[action].kind
        ]
        wanted = _WANTED[phase]
        if kind != wanted:
            return IllegalActionError(
                f"rule book §5 order of play ({phase.value})",
                f"{name} by {who}: it is the {phase.value} phase, {who} must {wanted}",
                "wrong_phase",
                {"phase": phase.value},
            )
        if phase is _BIDDING:
            return IllegalActionError(
                "rule book §5.2 bidding",
                f"{name} by {who}: a bid must top the last one (threesome < solo), one chance each",
                "bid_too_low",
                {"bid": name},
            )
        card = action % DISCARD_BASE
        hand = self.hands[self.current_player]
        if not hand >> card & 1:
            rule = "rule book §5.3 discard" if phase is _DISCARD else "rule book §5.4 play"
            return IllegalActionError(
                rule, f"{name}: {who} does not hold {card_name(card)}", "not_held", card_param(card)
            )
        if phase is _DISCARD:
            if BIT[card] & KINGS_MASK:
                return IllegalActionError(
                    "rule book §5.3 discard",
                    f"{name}: kings may not be discarded",
                    "discard_king",
                    card_param(card),
                )
            return IllegalActionError(
                "rule book §5.3 discard (austrian_forbid_trull_discard)",
                f"{name}: the trull (Sküs, 21, Pagat) may not be discarded",
                "discard_trull",
                card_param(card),
            )
        led = self.led_suit
        if led != TRUMP and hand & SUIT_MASKS[led]:
            return IllegalActionError(
                "rule book §5.4 follow suit",
                f"{name} by {who}: must follow suit",
                "follow_suit",
                {"suit": suit_word(led)},
            )
        if not BIT[card] & AUSTRIAN_TRUMPS_MASK:
            if led == TRUMP:
                return IllegalActionError(
                    "rule book §5.4 follow suit", f"{name} by {who}: must follow in trumps", "follow_trumps"
                )
            return IllegalActionError(
                "rule book §5.4 must trump",
                f"{name} by {who}: void in the suit led, must trump",
                "must_trump",
                {"suit": suit_word(led)},
            )
        top = (self.trick_mask & AUSTRIAN_TRUMPS_MASK).bit_length() - 1
        return IllegalActionError(
            "rule book §5.4 must overtrump (austrian_must_overtrump)",
            f"{name} by {who}: must beat the trump already in the trick",
            "overtrump",
            card_param(top),
        )


def _actions_of(mask: int, table: tuple[AustrianAction, ...]) -> list[AustrianAction]:
    """The actions of ``table`` for each card of ``mask``, lowest card first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(table[low.bit_length() - 1])
        mask ^= low
    return out


def _check_dealt(hands: list[int], talon: list[int]) -> None:
    """Refuse dealt cards that are not the 54-card pack in 3 × 16 + 2 × 3, naming the field."""
    if len(hands) != 3:
        raise ValueError(f"hands: 3 hands are needed, not {len(hands)}")
    if len(talon) != 2:
        raise ValueError(f"talon: 2 halves are needed, not {len(talon)}")
    seen = 0
    piles = [(f"hands[{i}]", h, HAND_CARDS) for i, h in enumerate(hands)]
    piles += [(f"talon[{i}]", h, HALF_CARDS) for i, h in enumerate(talon)]
    for field, mask, size in piles:
        if not isinstance(mask, int) or mask < 0:
            raise ValueError(f"{field}: must be a card mask")
        if mask & ~AUSTRIAN_DECK_MASK:
            outside = CardSet(mask & ~AUSTRIAN_DECK_MASK)
            raise ValueError(f"{field}: {outside} not in the Austrian pack (rule book §1.2)")
        if mask.bit_count() != size:
            raise ValueError(f"{field}: holds {mask.bit_count()} cards, not {size}")
        if mask & seen:
            raise ValueError(f"{field}: {CardSet(mask & seen)} dealt twice")
        seen |= mask


def _read_piles(data: Mapping[object, object], field: str, count: int) -> list[int]:
    if field not in data:
        raise ValueError(f"{field}: missing")
    value = data[field]
    if not isinstance(value, list | tuple) or len(value) != count:
        raise ValueError(f"{field}: must be a list of {count} strings of card names")
    piles = []
    for i, text in enumerate(value):
        if not isinstance(text, str):
            raise ValueError(f"{field}[{i}]: must be a string of card names, not {type(text).__name__}")
        mask = 0
        for word in text.replace(",", " ").split():
            try:
                card = parse_austrian_card(word)
            except ValueError as exc:
                raise ValueError(f"{field}[{i}]: {exc}") from None
            if mask & BIT[card]:
                raise ValueError(f"{field}[{i}]: {card_name(card)} named twice")
            mask |= BIT[card]
        piles.append(mask)
    return piles


__all__ = ["AustrianDeal", "check_austrian_rules"]

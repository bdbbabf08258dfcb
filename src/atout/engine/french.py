"""One deal of French Tarot for 3, 4 or 5 players, as a state machine (rule book §3-§4).

deal → petit-sec check → bidding → call (5 players) → chien and écart → chelem
announcement → poignée declarations and tricks → counting and scoring.

>>> import random
>>> deal = FrenchDeal.new(Rules(players=4), dealer=0, rng=random.Random(1))
>>> deal.phase, deal.current_player
(<Phase.BIDDING: 'bidding'>, 1)
>>> while not deal.is_over():
...     deal.apply(deal.legal_actions()[0])
>>> sum(deal.scores())
0

Cards and card sets are ints (see :mod:`atout.cards`); the public face of a deal is
:meth:`FrenchDeal.legal_actions`, :meth:`FrenchDeal.apply`, :meth:`FrenchDeal.view`
and :attr:`FrenchDeal.events`.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from dataclasses import replace

from atout.cards import (
    BIT,
    CAVALIERS_MASK,
    EXCUSE,
    EXCUSE_MASK,
    HALF_POINTS,
    JACKS_MASK,
    KINGS_MASK,
    LOW_CARDS_MASK,
    MIDDLE_TRUMPS_MASK,
    PETIT,
    PETIT_MASK,
    PLAIN_SUITS_MASK,
    QUEENS_MASK,
    SUIT_MASKS,
    SUIT_OF,
    TRUMP,
    TRUMPS_MASK,
    CardSet,
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
    ANNOUNCE_PARTIAL_SLAM,
    BID_BASE,
    BID_NAMES,
    CALL_ACTIONS,
    CALL_BASE,
    CHELEM_BASE,
    DISCARD_ACTIONS,
    DISCARD_BASE,
    KEEP_HAND,
    MISERE_ACTIONS,
    MISERE_BASE,
    MISERE_NAMES,
    N_ACTIONS,
    NO_CHELEM,
    NO_MISERE,
    NO_POIGNEE,
    PASS,
    PLAY_ACTIONS,
    POIGNEE_ACTIONS,
    POIGNEE_BASE,
    POIGNEE_NAMES,
    SHOW_ACTIONS,
    SHOW_BASE,
    SHOW_DEFAULT,
    SHOW_DEFAULT_ID,
    SHOW_EXCUSE_SEC,
    Action,
    parse_action,
)
from atout.engine.austrian.actions import AustrianAction
from atout.engine.deal import CHIEN_SIZE, HAND_SIZE, deal_cards, seat_step
from atout.engine.errors import IllegalActionError, card_param, not_an_action, suit_word
from atout.engine.events import (
    PRIVATE_KINDS,
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
    ExcuseSettled,
    MisereAnnounced,
    PartialSlamAnnounced,
    PartnerRevealed,
    PetitImprenable,
    PetitSecShown,
    PoigneeShown,
    TakerAlone,
    TrickWon,
)
from atout.engine.phase import Phase
from atout.engine.tricks import legal_cards, winning_card
from atout.engine.view import PUBLIC_SEAT, SeatView, TrickView, detached, fresh_rules, fresh_tricks
from atout.rules import Rules, RulesError
from atout.scoring.french import score_french
from atout.scoring.summary import (
    FrenchSummary,
    MisereDeclared,
    PartialSlamResult,
    PoigneeDeclared,
    Side,
)

_DISCARDABLE_SUITS = PLAIN_SUITS_MASK & ~KINGS_MASK
_COURTS = KINGS_MASK | QUEENS_MASK | CAVALIERS_MASK | JACKS_MASK
_CHIEN_TURNED = ("petite", "pousse", "garde")


_EXCUSE_SEC, _BIDDING, _CALL, _DISCARD = Phase.EXCUSE_SEC, Phase.BIDDING, Phase.CALL, Phase.DISCARD
_CHELEM, _MISERE, _POIGNEE, _PLAY, _END = Phase.CHELEM, Phase.MISERE, Phase.POIGNEE, Phase.PLAY, Phase.END
_CARD_VERB = {Phase.PLAY: "play", Phase.DISCARD: "discard", Phase.CALL: "call"}
_REFUSALS = {
    Phase.CHELEM: NO_CHELEM,
    Phase.POIGNEE: NO_POIGNEE,
    Phase.MISERE: NO_MISERE,
    Phase.EXCUSE_SEC: KEEP_HAND,
}


def check_engine_rules(rules: Rules) -> None:
    """Refuse rules this engine does not play (the score keeper still scores them)."""
    if rules.game != "french":
        raise RulesError(f"game={rules.game} is not French Tarot")
    if rules.players not in HAND_SIZE:
        raise RulesError(f"the French deal engine plays 3, 4 or 5 players, not {rules.players}")
    if rules.five_player_mode == "dead_player":
        raise RulesError("five_player_mode=dead_player is played by DeadPlayerDeal (atout.games picks it)")
    if rules.deal_scheme == "seed000" and rules.players == 5:
        raise RulesError("deal_scheme=seed000 deals a 6-card kitty: it needs 3 or 4 players")


def is_petit_sec(hand: int, rule: str) -> bool:
    """Whether ``hand`` is a petit sec under the ``petit_sec_rule`` ``rule`` (rule book §3.3): the
    Petit its only trump, and no Excuse unless the rule ignores it."""
    return hand & TRUMPS_MASK == PETIT_MASK and (
        rule == "only_trump_ignoring_excuse" or not hand & EXCUSE_MASK
    )


def known_side(seat: int, taker: int, partner: int, n: int, sides_public: bool) -> int:
    """The seats ``seat`` counts as its side, as a mask (rule book §3.8 step 1, §4.3 mode A step 4).

    Once the sides are public (3 and 4 players always; 5 players once the called card is played,
    or shown in the chien, and at the end) they are the true sides: taker and partner, or the
    others. Before that the partner counts the taker and himself, anyone else (the taker
    included) himself alone, so that no choice hangs on a hidden card.

    >>> bin(known_side(1, taker=0, partner=1, n=5, sides_public=False))
    '0b11'
    >>> bin(known_side(0, taker=0, partner=1, n=5, sides_public=False))
    '0b1'
    >>> bin(known_side(2, taker=0, partner=1, n=5, sides_public=True))
    '0b11100'
    """
    attack = 1 << taker
    if partner >= 0:
        attack |= 1 << partner
    if sides_public:
        return attack if attack >> seat & 1 else ((1 << n) - 1) & ~attack
    return attack if seat == partner else 1 << seat


def cancels_dealt(rules: Rules, hands: Sequence[int]) -> bool:
    """Whether a deal of these hands is cancelled as soon as it is dealt (a petit sec, unless the
    rules make it a petit imprenable): :class:`FrenchDeal` from them ends at once."""
    rule = rules.petit_sec_rule
    return rule != "petit_imprenable" and any(is_petit_sec(hand, rule) for hand in hands)


class FrenchDeal:
    """The full state of one deal. Seats are 0..n-1; "right" is ``seat + 1`` (counterclockwise)."""

    __slots__ = (
        "_bid_order",
        "_contract_ids",
        "_debts",
        "_excuse_early",
        "_excuse_sec_pending",
        "_excuse_won_last",
        "_first_card_pending",
        "_first_decisions",
        "_highest_bid",
        "_imprenable",
        "_legal",
        "_log",
        "_next",
        "_orders",
        "_poignee_sizes",
        "_public_events",
        "_public_upto",
        "_reveal_card",
        "_scores",
        "_show_level",
        "_show_picked",
        "_sides_public",
        "_suitless",
        "_summary",
        "_trick_views",
        "bids",
        "called_card",
        "chelem_announced",
        "chien",
        "contract",
        "current_player",
        "dealer",
        "discards_left",
        "ecart",
        "hands",
        "history",
        "initial_chien",
        "initial_hands",
        "led_suit",
        "misere",
        "n",
        "n_tricks",
        "outcome",
        "partial_slam_announced",
        "partner",
        "phase",
        "poignees",
        "rules",
        "step",
        "taker",
        "trick_cards",
        "trick_leader",
        "trick_mask",
        "trick_no",
        "trick_winners",
        "tricks",
        "won",
    )

    # ------------------------------------------------------------------ creation
    def __init__(
        self, rules: Rules, dealer: int, hands: list[int], chien: int, *, _checked: bool = False
    ) -> None:
        """Start a deal from dealt cards (masks by seat, and the chien)."""
        n = rules.players
        if not _checked:
            check_engine_rules(rules)
            if not 0 <= dealer < n:
                raise ValueError(f"dealer must be a seat 0..{n - 1}, not {dealer}")
            _check_dealt(n, hands, chien)
        self.rules = rules
        self.n = n
        self.n_tricks = HAND_SIZE[n]
        self.step = seat_step(rules)
        self.dealer = dealer
        self.initial_hands = tuple(hands)
        self.initial_chien = chien
        self.hands = list(hands)
        self.chien = chien
        self.history: list[int] = []
        self._log: list[Event] = []
        self._public_events: tuple[Event, ...] = ()
        self._public_upto = 0
        self._trick_views: tuple[TrickView, ...] = ()
        self.bids: list[tuple[int, str]] = []
        self._contract_ids, self._poignee_sizes, self._orders, bid_orders = _table_of(rules)
        self._highest_bid = 0
        self._excuse_early = rules.excuse_last_trick == "must_play_before_last"
        self._next = [order[1] for order in self._orders]
        self._bid_order = bid_orders[dealer]
        self.taker = -1
        self.contract: str | None = None
        self.called_card = -1
        self.partner = -1
        self._sides_public = n < 5
        self._reveal_card = -1
        self.ecart = 0
        self.discards_left = 0
        self.chelem_announced = False
        self.partial_slam_announced = False
        self.poignees: list[tuple[int, int, int]] = []
        self._show_level = 0
        self._show_picked = 0
        self.misere: list[tuple[int, str]] = []
        self._first_card_pending = [True] * n
        self._first_decisions: list[Phase] = []
        self._imprenable = -1
        self._suitless = EXCUSE_MASK
        self._excuse_sec_pending: list[int] = []
        self._legal = -1
        self.trick_cards: list[int] = []
        self.trick_leader = -1
        self.led_suit = -1
        self.trick_mask = 0
        self.trick_no = 0
        self.tricks: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        self.trick_winners: list[int] = []
        self.won = [0] * n
        self._debts: list[tuple[int, int]] = []
        self._excuse_won_last = False
        self.outcome = ""
        self._summary: FrenchSummary | None = None
        self._scores: list[int] | None = None
        self.phase = _BIDDING
        self.current_player = self._bid_order[0]
        self._check_petit_sec()
        if rules.excuse_sec_redeal and self.phase is _BIDDING:
            self._offer_excuse_sec()

    @classmethod
    def new(
        cls, rules: Rules | None = None, dealer: int = 0, rng: random.Random | int | None = None
    ) -> FrenchDeal:
        """Shuffle and deal a new deal (``rng`` may be a seed)."""
        rules = rules or Rules()
        check_engine_rules(rules)
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        if not 0 <= dealer < rules.players:
            raise ValueError(f"dealer must be a seat 0..{rules.players - 1}, not {dealer}")
        hands, chien = deal_cards(rules, dealer, rng)
        return cls(rules, dealer, hands, chien, _checked=True)

    def dealt(self) -> dict[str, object]:
        """The dealt cards as card names: ``hands`` (by seat) and ``chien``."""
        return {
            "hands": [str(CardSet(h)) for h in self.initial_hands],
            "chien": str(CardSet(self.initial_chien)),
        }

    @classmethod
    def from_dealt(cls, rules: Rules, dealer: int, data: Mapping[str, object]) -> FrenchDeal:
        """Rebuild a deal from :meth:`dealt`; :class:`ValueError` names the bad field."""
        check_engine_rules(rules)
        n = rules.players
        if not 0 <= dealer < n:
            raise ValueError(f"dealer: expected a seat number 0..{n - 1}, found {dealer!r}")
        hands = data.get("hands")
        if not isinstance(hands, list) or len(hands) != n:
            raise ValueError(f"hands: expected {n} hands of card names")
        fields = [*(f"hands[{i}]" for i in range(n)), "chien"]
        masks: list[int] = []
        where: dict[int, str] = {}
        for field, text in zip(fields, [*hands, data.get("chien")], strict=True):
            cards = _card_list(text, field)
            for card in cards:
                if card in where:
                    raise ValueError(f"{field}: {card_name(card)} is dealt twice (also in {where[card]})")
                where[card] = field
            size = CHIEN_SIZE[n] if field == "chien" else HAND_SIZE[n]
            if len(cards) != size:
                raise ValueError(f"{field}: {len(cards)} cards, a {n}-player deal gives {size}")
            masks.append(sum(BIT[c] for c in cards))
        return cls(rules, dealer, masks[:-1], masks[-1])

    @staticmethod
    def action_name(action: int) -> str:
        """The words of an action, e.g. ``play KS`` or ``garde_sans``."""
        if not 0 <= action < len(ACTIONS):
            raise ValueError(f"{action!r} is not an action")
        return str(ACTIONS[action])

    def clone(self) -> FrenchDeal:
        """An independent copy (lists copied; cards and rules are immutable)."""
        other = object.__new__(FrenchDeal)
        for name in _SCALAR_SLOTS:
            setattr(other, name, getattr(self, name))
        for name in _LIST_SLOTS:
            setattr(other, name, getattr(self, name).copy())
        return other

    # ------------------------------------------------------------------ queries
    def is_over(self) -> bool:
        return self.phase is _END

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in playing order."""
        return (seat + self.step) % self.n

    def is_attack(self, seat: int) -> bool:
        """True for the taker and his partner (the engine knows the partner from the call)."""
        return seat == self.taker or seat == self.partner

    def legal_actions(self) -> list[Action]:
        """Every legal action of the current player, in increasing order."""
        phase = self.phase
        if phase is _PLAY:
            return _actions_of(self.legal_play_mask(), PLAY_ACTIONS)
        if phase is _BIDDING:
            return [PASS] + [ACTIONS[BID_BASE + i] for i in self._biddable()]
        if phase is _DISCARD:
            return _actions_of(self._discard_mask(), DISCARD_ACTIONS)
        if phase is _POIGNEE:
            if self._show_level:
                choices = self._poignee_pool(self.current_player) & ~self._show_picked & TRUMPS_MASK
                return [SHOW_DEFAULT, *_actions_of(choices, SHOW_ACTIONS, PETIT)]
            return [POIGNEE_ACTIONS[0]] + [
                POIGNEE_ACTIONS[lv] for lv in self._poignee_levels(self.current_player)
            ]
        if phase is _CHELEM:
            if self.rules.partial_slam is not None:
                return [NO_CHELEM, ANNOUNCE_CHELEM, ANNOUNCE_PARTIAL_SLAM]
            return [NO_CHELEM, ANNOUNCE_CHELEM]
        if phase is _MISERE:
            return [NO_MISERE] + [
                MISERE_ACTIONS[MISERE_NAMES.index(k)] for k in self._misere_kinds(self.current_player)
            ]
        if phase is _EXCUSE_SEC:
            return (
                [KEEP_HAND, SHOW_EXCUSE_SEC] if self._holds_excuse_sec(self.current_player) else [KEEP_HAND]
            )
        if phase is _CALL:
            return _actions_of(self._callable_mask(), CALL_ACTIONS)
        return []

    def is_legal(self, action: int) -> bool:
        return action in self.legal_actions()

    def legal_play_mask(self) -> int:
        """Mask of the cards the current player may play (rule book §3.8); 0 outside card play."""
        if self._legal >= 0:
            return self._legal
        if self.phase is not _PLAY:
            return 0
        self._legal = legal = self._compute_legal_play_mask()
        return legal

    def _compute_legal_play_mask(self) -> int:
        seat = self.current_player
        hand = self.hands[seat]
        if self.called_card >= 0 and self.trick_no == 0 and not self.trick_cards:
            return self._first_lead_mask(hand)
        if seat == self._imprenable and hand & PETIT_MASK:
            # a petit imprenable plays like the Excuse: always legal, never a trump (§7 V3)
            legal = legal_cards(hand ^ PETIT_MASK, self.led_suit, self.trick_mask) | PETIT_MASK
        else:
            legal = legal_cards(hand, self.led_suit, self.trick_mask)
        if (
            self._excuse_early
            and hand & EXCUSE_MASK
            and hand.bit_count() == 2
            and not self._known_side_won_all(seat)
        ):
            return EXCUSE_MASK
        return legal

    def _first_lead_mask(self, hand: int) -> int:
        # rule book §3.8 step 2: in 5 players the first card of the deal may not be of the
        # called suit, unless it is the called card itself.
        called_suit = SUIT_MASKS[SUIT_OF[self.called_card]] & ~BIT[self.called_card]
        allowed = hand & ~called_suit
        return allowed or hand

    def trick_seat_order(self) -> tuple[int, ...]:
        """The seats of the current trick, leader first (all n of them)."""
        return self._orders[self.trick_leader] if self.trick_leader >= 0 else ()

    def _side_won_all(self, seat: int) -> bool:
        """Whether ``seat``'s true side won every trick so far (§3.9 slam exception)."""
        side = known_side(seat, self.taker, self.partner, self.n, True)
        return all(side >> w & 1 for w in self.trick_winners)

    def _known_side_won_all(self, seat: int) -> bool:
        """Whether ``seat``'s side won every trick so far, as ``seat`` knows its side
        (:func:`known_side`; §3.8 step 1, §4.3)."""
        side = known_side(seat, self.taker, self.partner, self.n, self._sides_public)
        return all(side >> w & 1 for w in self.trick_winners)

    def _biddable(self) -> list[int]:
        # rule book §3.4: each bid must be higher than the highest so far.
        highest = self._highest_bid
        return [i for i in self._contract_ids if i > highest]

    def _callable_mask(self) -> int:
        # rule book §4.3 step 3: any king; any queen with all four kings; any cavalier with all
        # kings and queens; any valet with all kings, queens and cavaliers (FFT fallback).
        hand = self.hands[self.taker]
        ladder: tuple[int, ...] = (KINGS_MASK, QUEENS_MASK, CAVALIERS_MASK, JACKS_MASK)
        if self.rules.called_card_fallback == "queen_only":
            ladder = ladder[:2]
        callable_cards = 0
        for mask in ladder:
            callable_cards |= mask
            if hand & mask != mask:
                break
        return callable_cards

    def _discard_mask(self) -> int:
        # rule book §3.5: never a king or a bout; trumps 2-20 only when too few other cards remain.
        hand = self.hands[self.taker]
        suits = hand & _DISCARDABLE_SUITS
        if suits.bit_count() >= self.discards_left:
            return suits
        return suits | (hand & MIDDLE_TRUMPS_MASK)

    def _poignee_pool(self, seat: int) -> int:
        pool = self.hands[seat] & TRUMPS_MASK
        if seat == self.taker:
            pool |= self.ecart & TRUMPS_MASK  # trumps shown in the écart count as held (§3.7)
        return pool

    def _poignee_levels(self, seat: int) -> list[int]:
        trumps = self._poignee_pool(seat).bit_count()
        if trumps + 1 < self._poignee_sizes[0]:
            return []
        excuse = bool(self.hands[seat] & EXCUSE_MASK)
        sizes = self._poignee_sizes
        return [i + 1 for i, size in enumerate(sizes) if trumps >= size or (excuse and trumps == size - 1)]

    def poignee_cards(self, seat: int, level: int) -> int:
        """The cards shown for a poignée: the required number of trumps, trumps already
        face up in the écart first, then the lowest; the Excuse only when it completes the display."""
        size = self.rules.poignee_levels(self.n)[level - 1]
        pool = self._poignee_pool(seat)
        if pool.bit_count() < size:
            return pool | EXCUSE_MASK
        shown_first = self.ecart & TRUMPS_MASK if seat == self.taker else 0
        chosen = cards_of(shown_first)[:size]
        chosen += cards_of(pool & ~shown_first)[: size - len(chosen)]
        return sum(BIT[c] for c in chosen)

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: int) -> None:
        """Apply the current player's action, or raise :class:`IllegalActionError` and change nothing."""
        given = type(action)
        if (given is not Action and given is not int) or not 0 <= action < N_ACTIONS:
            raise not_an_action(action, "French Tarot", AustrianAction, "Austrian Tarock")
        phase = self.phase
        if phase is _PLAY:
            legal = self._legal if self._legal >= 0 else self.legal_play_mask()
            if 0 <= action < DISCARD_BASE and legal >> action & 1:
                self.history.append(action)
                self._legal = -1
                self._play(action)
                return
        elif phase is _BIDDING:
            if action == PASS or (BID_BASE < action < CHELEM_BASE and action - BID_BASE in self._biddable()):
                self.history.append(action)
                self._bid(action - BID_BASE)
                return
        elif phase is _DISCARD:
            card = action - DISCARD_BASE
            if 0 <= card < DISCARD_BASE and self._discard_mask() >> card & 1:
                self.history.append(action)
                self._discard(card)
                return
        elif phase is _POIGNEE and self._show_level:
            card = action - SHOW_BASE
            if action == SHOW_DEFAULT_ID or (
                action > SHOW_DEFAULT_ID
                and (self._poignee_pool(self.current_player) & ~self._show_picked & TRUMPS_MASK) >> card & 1
            ):
                self.history.append(action)
                self._show(-1 if action == SHOW_DEFAULT_ID else card)
                return
        elif phase is _POIGNEE:
            level = action - POIGNEE_BASE
            if level == 0 or (0 < level <= 3 and level in self._poignee_levels(self.current_player)):
                self.history.append(action)
                self._declare_poignee(level)
                return
        elif phase is _CHELEM:
            if action in (NO_CHELEM, ANNOUNCE_CHELEM) or (
                action == ANNOUNCE_PARTIAL_SLAM and self.rules.partial_slam is not None
            ):
                self.history.append(action)
                self._announce_chelem(action == ANNOUNCE_CHELEM, action == ANNOUNCE_PARTIAL_SLAM)
                return
        elif phase is _MISERE:
            kind = MISERE_NAMES[action - MISERE_BASE] if MISERE_BASE <= action < MISERE_BASE + 4 else ""
            if kind == "none" or kind in self._misere_kinds(self.current_player):
                self.history.append(action)
                self._declare_misere(kind)
                return
        elif phase is _EXCUSE_SEC:
            if action == KEEP_HAND or (
                action == SHOW_EXCUSE_SEC and self._holds_excuse_sec(self.current_player)
            ):
                self.history.append(action)
                self._decide_excuse_sec(action == SHOW_EXCUSE_SEC)
                return
        elif phase is _CALL:
            card = action - CALL_BASE
            if 0 <= card < DISCARD_BASE and self._callable_mask() >> card & 1:
                self.history.append(action)
                self._call(card)
                return
        raise self._explain_illegal(action)

    def play_out(self, rng: random.Random) -> None:
        """Finish the deal with uniformly random legal actions, as fast as the engine goes.

        Each decision draws one number: the k-th legal action (in increasing order) for
        ``k = int(rng.random() * number of legal actions)``, exactly what a driver of
        :meth:`legal_actions` and :meth:`apply` with the same draws would choose. Card play
        skips building action lists; every transition is the one :meth:`apply` makes.
        """
        draw = rng.random
        history = self.history
        self._legal = -1
        while True:
            phase = self.phase
            if phase is _PLAY:
                legal = self._compute_legal_play_mask()
                card = nth_card(legal, int(draw() * legal.bit_count()))
                history.append(card)
                self._play(card)
            elif phase is _END:
                return
            elif phase is _DISCARD:
                legal = self._discard_mask()
                card = nth_card(legal, int(draw() * legal.bit_count()))
                history.append(DISCARD_BASE + card)
                self._discard(card)
            else:
                actions = self.legal_actions()
                self.apply(actions[int(draw() * len(actions))])

    def parse(self, text: str) -> Action:
        """Read an action from words; a bare card means the current phase's card verb, and
        ``no`` the refusal of the decision at hand."""
        if text.strip().lower() in ("no", "n") and self.phase in _REFUSALS:
            return _REFUSALS[self.phase]
        return parse_action(text, _CARD_VERB.get(self.phase, "play"))

    def _check_petit_sec(self) -> None:
        # rule book §3.3: a hand whose only trump is the Petit (and, under FFT, no Excuse) cancels the deal.
        # Under petit_imprenable (§7 V3) the same hand instead makes the Petit play like the Excuse.
        rule = self.rules.petit_sec_rule
        for i in range(self.n):
            seat = self._bid_order[i]
            hand = self.hands[seat]
            if is_petit_sec(hand, rule):
                if rule == "petit_imprenable":
                    self._imprenable = seat
                    self._suitless = EXCUSE_MASK | PETIT_MASK
                    continue
                self._log.append(PetitSecShown(seat, hand))
                self._end(f"petit sec: seat {seat} shows the Petit alone; the deal is cancelled")
                return

    def _offer_excuse_sec(self) -> None:
        # §7 V4: a player whose only trump is the Excuse may show it and cancel the deal. Every
        # seat is asked, in bidding order, so that the question tells nobody who holds one.
        self._excuse_sec_pending = list(self._bid_order)
        self.phase = _EXCUSE_SEC
        self.current_player = self._bid_order[0]

    def _holds_excuse_sec(self, seat: int) -> bool:
        return self.hands[seat] & (TRUMPS_MASK | EXCUSE_MASK) == EXCUSE_MASK

    def _decide_excuse_sec(self, show: bool) -> None:
        seat = self._excuse_sec_pending.pop(0)
        if show:
            self._log.append(ExcuseSecShown(seat))
            self._end(f"excuse sec: seat {seat} shows the Excuse alone; the deal is cancelled")
        elif self._excuse_sec_pending:
            self.current_player = self._excuse_sec_pending[0]
        else:
            self.phase = _BIDDING
            self.current_player = self._bid_order[0]

    def _bid(self, index: int) -> None:
        seat = self.current_player
        name = BID_NAMES[index]
        self.bids.append((seat, name))
        if index:
            self._highest_bid = index
        self._log.append(Bid(seat, name))
        if len(self.bids) < self.n:
            self.current_player = self._bid_order[len(self.bids)]
            return
        best = max(range(self.n), key=lambda i: BID_NAMES.index(self.bids[i][1]))
        if self.bids[best][1] == "pass":
            self._log.append(AllPassed())
            self._end("all passed; the deal is cancelled")
            return
        self.taker, self.contract = self.bids[best]
        self.current_player = self.taker
        if self.n == 5:
            self.phase = _CALL
        else:
            self._after_call()

    def _call(self, card: int) -> None:
        self.called_card = card
        self._log.append(Call(self.taker, card))
        holder = next((s for s in range(self.n) if self.hands[s] >> card & 1), -1)
        self.partner = holder if holder != self.taker else -1
        self._reveal_card = card
        self._after_call()

    def _after_call(self) -> None:
        if self.contract in ("petite", "pousse", "garde"):
            self._log.append(ChienShown(None, self.chien))
            if self.called_card >= 0 and self.chien >> self.called_card & 1:
                self._sides_public = True
                self._reveal_card = -1
            self.hands[self.taker] |= self.chien
            if (
                self.taker == self._imprenable
                and self.hands[self.taker] & (TRUMPS_MASK | EXCUSE_MASK) != PETIT_MASK
            ):
                # §7 V3: the chien gave the holder another trump; the Petit is an ordinary trump again
                self._imprenable = -1
                self._suitless = EXCUSE_MASK
            self.discards_left = CHIEN_SIZE[self.n]
            self.phase = _DISCARD
        else:
            self.phase = _CHELEM

    def _discard(self, card: int) -> None:
        bit = BIT[card]
        self.hands[self.taker] ^= bit
        self.ecart |= bit
        self._log.append(Discard(self.taker, card))
        if bit & TRUMPS_MASK:
            self._log.append(DiscardShown(self.taker, card))
        self.discards_left -= 1
        if not self.discards_left:
            self.phase = _CHELEM

    def _announce_chelem(self, announced: bool, partial: bool = False) -> None:
        self.chelem_announced = announced
        self.partial_slam_announced = partial
        self._log.append(ChelemDecided(self.taker, announced))
        if partial:
            self._log.append(PartialSlamAnnounced(self.taker))
        rules = self.rules
        if self._imprenable >= 0 and rules.petit_imprenable_timing == "before_first_trick":
            self._log.append(PetitImprenable(self._imprenable))
        if (announced and rules.chelem_announcer_leads) or rules.first_leader == "taker":
            leader = self.taker
        else:
            leader = (self.dealer + self.step) % self.n
        self.trick_leader = leader
        self._begin_turn(leader)

    def _begin_turn(self, seat: int) -> None:
        self.current_player = seat
        if self._first_card_pending[seat]:
            # declarations come just before one's first card: misère (§7 V5), then poignée (§3.7)
            self._first_card_pending[seat] = False
            if self.rules.misere_bonus and self._misere_kinds(seat):
                self._first_decisions.append(_MISERE)
            if self._poignee_levels(seat):
                self._first_decisions.append(_POIGNEE)
        self._next_decision()

    def _next_decision(self) -> None:
        self.phase = self._first_decisions.pop(0) if self._first_decisions else _PLAY

    def _misere_kinds(self, seat: int) -> list[str]:
        """The misère kinds ``seat`` may declare now (§7 V5), judged on the hand as it is."""
        hand = self.hands[seat]
        no_trumps = not hand & (TRUMPS_MASK | EXCUSE_MASK)
        no_courts = not hand & _COURTS
        if self.rules.misere_kinds == "both_required":
            return ["both"] if no_trumps and no_courts else []
        kinds = [k for k, ok in (("no_trumps", no_trumps), ("no_courts", no_courts)) if ok]
        return [*kinds, "both"] if len(kinds) == 2 else kinds

    def _declare_misere(self, kind: str) -> None:
        seat = self.current_player
        if kind != "none":
            self.misere.append((seat, kind))
            self._log.append(MisereAnnounced(seat, kind))
        self._next_decision()

    def _declare_poignee(self, level: int) -> None:
        seat = self.current_player
        if level:
            size = self.rules.poignee_levels(self.n)[level - 1]
            if self._poignee_pool(seat).bit_count() > size:
                # §3.7: extra trumps stay hidden; the player chooses which to show
                self._show_level = level
                self._show_picked = 0
                return
            self._poignee_shown(seat, level, self.poignee_cards(seat, level))
        self._next_decision()

    def _show(self, card: int) -> None:
        """One trump chosen for the display (``-1``: the rest as :meth:`poignee_cards` picks)."""
        seat, level = self.current_player, self._show_level
        size = self.rules.poignee_levels(self.n)[level - 1]
        if card >= 0:
            self._show_picked |= BIT[card]
        else:
            face_up = self.ecart & TRUMPS_MASK if seat == self.taker else 0
            for extra in [*cards_of(face_up), *cards_of(self._poignee_pool(seat) & TRUMPS_MASK)]:
                if self._show_picked.bit_count() == size:
                    break
                self._show_picked |= BIT[extra]
        if self._show_picked.bit_count() == size:
            shown, self._show_level, self._show_picked = self._show_picked, 0, 0
            self._poignee_shown(seat, level, shown)
            self._next_decision()

    def _poignee_shown(self, seat: int, level: int, shown: int) -> None:
        self.poignees.append((seat, level, shown))
        self._log.append(PoigneeShown(seat, POIGNEE_NAMES[level], shown))

    def _play(self, card: int) -> None:
        # The hot path: keep it to the state that legality and the trick winner need.
        seat = self.current_player
        bit = BIT[card]
        self.hands[seat] ^= bit
        self._log.append(_PLAY_EVENTS[seat][card])
        cards = self.trick_cards
        cards.append(card)
        self.trick_mask |= bit
        if self.led_suit < 0 and not bit & self._suitless:
            self.led_suit = SUIT_OF[card]
        if card == PETIT and seat == self._imprenable and self.rules.petit_imprenable_timing == "when_played":
            self._log.append(PetitImprenable(seat))
        if card == self._reveal_card:
            # the called card shows the partner, or that the taker called himself
            self._sides_public = True
            self._reveal_card = -1
            self._log.append(TakerAlone(seat, card) if seat == self.taker else PartnerRevealed(seat, card))
        if len(cards) < self.n:
            nxt = self._next[seat]
            if self._first_card_pending[nxt]:
                self._begin_turn(nxt)
            else:
                self.current_player = nxt
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        cards = self.trick_cards
        seats = self._orders[self.trick_leader]
        trick_mask = self.trick_mask
        winner = seats[cards.index(winning_card(trick_mask & ~self._suitless, self.led_suit))]
        if trick_mask & PETIT_MASK and self._imprenable >= 0:
            # §7 V3: the petit imprenable never wins and always returns to its side against a
            # low card, even from the last trick
            owner = self._imprenable
            if owner != winner:
                trick_mask ^= PETIT_MASK
                self.won[owner] |= PETIT_MASK
                self._debts.append((owner, winner))
                self._log.append(ExcuseKept(owner, winner))
        if trick_mask & EXCUSE_MASK:
            last = self.trick_no == self.n_tricks - 1
            owner = seats[cards.index(EXCUSE)]
            if last and cards[0] == EXCUSE and self._side_won_all(owner):
                # rule book §3.9 slam exception: the Excuse led to the last trick wins it.
                winner = owner
                self._excuse_won_last = True
            elif owner != winner and not last:
                # §3.9: the Excuse returns to its player; a low card is owed to the trick winner.
                trick_mask ^= EXCUSE_MASK
                self.won[owner] |= EXCUSE_MASK
                self._debts.append((owner, winner))
                self._log.append(ExcuseKept(owner, winner))
            # in the last trick (no slam) the Excuse changes camp: it stays in the trick
        self.won[winner] |= trick_mask
        self.tricks.append((seats, tuple(cards), winner))
        self.trick_winners.append(winner)
        self._log.append(_TRICK_EVENTS[winner][self.trick_no])
        self.trick_no += 1
        self.trick_cards = []
        self.trick_mask = 0
        self.led_suit = -1
        self.trick_leader = winner
        if self._debts and self._sides_public:
            self._settle_debts()
        if self.trick_no == self.n_tricks:
            self._finish_deal()
        else:
            self.current_player = winner

    def _settle_debts(self, final: bool = False) -> None:
        pending = []
        for owner, winner in self._debts:
            if self.is_attack(owner) == self.is_attack(winner):
                self._log.append(ExcuseSettled(owner, winner))
                continue
            side = [s for s in range(self.n) if self.is_attack(s) == self.is_attack(owner)]
            card = self._exchange_card(side)
            if card < 0:
                pending.append((owner, winner))
                continue
            holder = next(s for s in side if self.won[s] >> card & 1)
            self.won[holder] ^= BIT[card]
            self.won[winner] |= BIT[card]
            self._log.append(ExcusePaid(owner, card, winner))
        self._debts = [] if final else pending

    def _exchange_card(self, side: list[int]) -> int:
        cards = 0
        for s in side:
            cards |= self.won[s]
        return excuse_exchange_card(cards & ~EXCUSE_MASK, self.rules.excuse_exchange_card)

    def _finish_deal(self) -> None:
        self._sides_public = True
        if self._debts:
            self._settle_debts(final=True)
        taker, partner, winners = self.taker, self.partner, self.trick_winners
        attack_pile = self.attack_pile()
        # petit au bout (rule book §3.13): the Petit in the last trick, or in the penultimate
        # one when the Excuse won the last trick of a slam (§3.9)
        pab_seat = -1
        if self._imprenable >= 0:
            pass  # a petit imprenable cannot be captured, so never gives the bonus (§7 V3)
        elif PETIT in self.tricks[-1][1]:
            pab_seat = winners[-1]
        elif self._excuse_won_last and PETIT in self.tricks[-2][1]:
            pab_seat = winners[-2]
        attack_tricks = winners.count(taker) + (winners.count(partner) if partner >= 0 else 0)
        summary = self.summary_after_play(attack_pile, pab_seat, attack_tricks)
        self._summary = summary
        self._scores = score_french(summary)
        self._end("played", summary)

    def summary_after_play(
        self, attack_pile: int, petit_au_bout_seat: int, attack_tricks: int
    ) -> FrenchSummary:
        """The summary of this deal played to its end with the attack holding ``attack_pile``
        (its tricks, the écart, a garde sans chien), the Petit taken in the last trick by
        ``petit_au_bout_seat`` (-1: none) and ``attack_tricks`` tricks won by the attack: how the
        deal's end is summed up, also for a playout that counted the card play itself."""
        partial: PartialSlamResult | None = None
        if self.rules.partial_slam is not None:
            missing = self.n_tricks - attack_tricks
            made = 0 < missing <= self.rules.partial_slam.max_missing
            if made or self.partial_slam_announced:
                partial = PartialSlamResult(self.partial_slam_announced, made)
        won_by: Side | None = None
        if attack_tricks == self.n_tricks:
            won_by = "attack"
        elif attack_tricks == 0:
            won_by = "defense"
        return replace(
            self.summary_if(half_points(attack_pile), count_bouts(attack_pile)),
            petit_au_bout=None
            if petit_au_bout_seat < 0
            else ("attack" if self.is_attack(petit_au_bout_seat) else "defense"),
            chelem_won_by=won_by,
            partial_slam=partial,
        )

    def summary_if(self, half_points: int, oudlers: int) -> FrenchSummary:
        """The summary of this deal (contract, taker, partner, declarations) if the attack ended
        with ``half_points`` card points (in halves) and ``oudlers``, with no petit au bout and
        no slam: how a card-play search scores an outcome it has counted. The deal must have a
        contract."""
        if self.contract is None or self.taker < 0:
            raise ValueError("the deal has no contract yet")
        return FrenchSummary(
            rules=self.rules,
            taker=self.taker,
            contract=self.contract,
            oudlers=oudlers,
            half_points=half_points,
            partner=self.partner if self.partner >= 0 else None,
            poignees=tuple(
                PoigneeDeclared("attack" if self.is_attack(s) else "defense", POIGNEE_NAMES[lv], s)  # type: ignore[arg-type]
                for s, lv, _ in self.poignees
            ),
            chelem_announced=self.chelem_announced,
            misere=tuple(MisereDeclared(s, k) for s, k in self.misere),  # type: ignore[arg-type]
        )

    def _end(self, outcome: str, summary: FrenchSummary | None = None) -> None:
        self.outcome = outcome
        self.phase = _END
        self.current_player = -1
        if self._scores is None:
            self._scores = [0] * self.n
        self._log.append(DealEnded(None, summary))

    # ------------------------------------------------------------------ results
    def scores(self) -> list[int]:
        """Each seat's score for the deal (zeros for a cancelled deal)."""
        if self._scores is None:
            raise ValueError("the deal is not over")
        return list(self._scores)

    @property
    def summary(self) -> FrenchSummary | None:
        """The deal summary (rule book §9) once played; ``None`` before or if cancelled."""
        return self._summary

    def attack_pile(self) -> int:
        """Cards of the attack at the end, before any transfer still pending."""
        pile = self.won[self.taker] | (self.won[self.partner] if self.partner >= 0 else 0) | self.ecart
        return pile | (self.chien if self.contract == "garde_sans" else 0)

    @property
    def only_cards_left(self) -> bool:
        """Whether the deal is in its card play with every seat's declarations (poignée, misère,
        made before one's first card) behind it: from here on only cards are played."""
        return self.phase is _PLAY and not any(self._first_card_pending)

    @property
    def excuse_debts(self) -> tuple[tuple[int, int], ...]:
        """The Excuse's exchanges not yet settled: ``(owner, trick winner)`` (rule book §3.9)."""
        return tuple(self._debts)

    @property
    def sides_public(self) -> bool:
        """Whether every seat knows the sides (rule book §4.3 mode A step 4): always with 3 and 4
        players; with 5 once the called card is played or shown in the chien, and at the end."""
        return self._sides_public

    @property
    def reveal_card(self) -> int:
        """The card whose play makes the sides public (the called card, still hidden), or -1."""
        return self._reveal_card

    @property
    def petit_imprenable_seat(self) -> int:
        """The seat holding a petit imprenable (rule book §7 V3), or -1."""
        return self._imprenable

    @property
    def events(self) -> list[Event]:
        """Everything that happened, in order (see :class:`Event`)."""
        return list(self._log)

    # ------------------------------------------------------------------ views
    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know: its own cards and everything public, nothing else.

        The view is a value: fresh objects that share nothing with the deal or another view."""
        if not 0 <= seat < self.n:
            raise ValueError(f"seat must be 0..{self.n - 1}, not {seat}")
        return self._view(seat)

    def public_view(self) -> SeatView:
        """What anyone may know, a spectator: the view of no seat (``seat`` is
        :data:`~atout.engine.view.PUBLIC_SEAT`), no hand, no legal actions, the phase and events
        any seat but the one deciding and the taker sees, the partner once the sides are public."""
        return self._view(PUBLIC_SEAT)

    def _view(self, seat: int) -> SeatView:
        log = self._log
        seated = seat >= 0
        if seated and seat == self.taker:
            events = tuple(log)  # private events are the taker's own discards
        else:
            if self._public_upto < len(log):
                self._public_events += tuple(
                    e for e in log[self._public_upto :] if e.kind not in PRIVATE_KINDS
                )
                self._public_upto = len(log)
            events = self._public_events
        phase = self.phase
        if phase is _END and events and events[-1].kind == "end":
            events = (*events[:-1], detached(events[-1]))  # the summary, an object
        tricks = self.tricks
        done = len(self._trick_views)
        if done != len(tricks):
            self._trick_views += tuple(
                TrickView(tuple(zip(s, c, strict=True)), w) for s, c, w in tricks[done:]
            )
        acting = seated and seat == self.current_player
        if not acting and (phase is _POIGNEE or phase is _MISERE):
            phase = _PLAY  # a declaration is weighed in secret (§3.7, §7 V5): others see the play
        # §3.5, §4.3: the chien is turned after the call, in petite and garde only; a cancelled
        # deal never turns it, a played deal's count opens it
        chien_public = (
            self.contract in _CHIEN_TURNED and (self.n < 5 or self.called_card >= 0)
        ) or self.outcome == "played"
        if (seated and seat == self.taker) or self.phase is _END:
            ecart = self.ecart
        else:
            ecart = self.ecart & TRUMPS_MASK
        partner: int | None = None
        if self.partner >= 0 and (
            self._sides_public or (seated and seat == self.partner) or self.phase is _END
        ):
            partner = self.partner
        return SeatView(
            seat=seat,
            players=self.n,
            dealer=self.dealer,
            rules=fresh_rules(self.rules),
            phase=phase,
            current_player=self.current_player,
            hand=self.hands[seat] if seated else 0,
            legal_actions=tuple(self.legal_actions()) if acting else (),
            bids=tuple(self.bids),
            taker=self.taker if self.taker >= 0 else None,
            contract=self.contract,
            called_card=self.called_card if self.called_card >= 0 else None,
            partner=partner,
            chien=self.chien if chien_public else None,
            ecart=ecart,
            chelem_announced=self.chelem_announced,
            poignees=tuple((s, POIGNEE_NAMES[lv], shown) for s, lv, shown in self.poignees),
            trick=tuple(zip(self.trick_seat_order(), self.trick_cards, strict=False)),
            tricks=fresh_tricks(self._trick_views),
            events=events,
            scores=tuple(self._scores) if self.phase is _END and self._scores else None,
        )

    # ------------------------------------------------------------------ illegal actions
    def _explain_illegal(self, action: int) -> IllegalActionError:
        phase = self.phase
        try:
            name = str(ACTIONS[action])
        except (IndexError, TypeError):
            return IllegalActionError("actions", f"{action!r} is not an action", "not_an_action")
        who = f"seat {self.current_player}"
        if phase is _END:
            return IllegalActionError("rule book §3.13", f"{name}: the deal is over", "deal_over")
        kind = ACTIONS[action].kind.name.lower()
        wanted = {
            _BIDDING: "bid",
            _CALL: "call",
            _DISCARD: "discard",
            _CHELEM: "chelem",
            _POIGNEE: "poignee",
            _PLAY: "play",
            _MISERE: "misere",
            _EXCUSE_SEC: "excuse_sec",
        }[phase]
        if phase is _POIGNEE and self._show_level:
            wanted = "show"
        if kind != wanted:
            return IllegalActionError(
                f"rule book §3 order of play ({phase.value})",
                f"{name} by {who}: it is the {phase.value} phase, {who} must {wanted}",
                "wrong_phase",
                {"phase": phase.value},
            )
        card = ACTIONS[action].card
        if phase is _BIDDING:
            unplayed = (name == "petite" and self.rules.no_petite) or (
                name == "pousse" and not self.rules.bid_pousse
            )
            return IllegalActionError(
                "rule book §3.4 bidding",
                f"{name} by {who}: a bid must be higher than the highest bid so far"
                + (" (petite is not played: no_petite)" if name == "petite" and self.rules.no_petite else "")
                + (" (pousse needs bid_pousse)" if name == "pousse" and not self.rules.bid_pousse else ""),
                "bid_not_played" if unplayed else "bid_too_low",
                {"bid": name},
            )
        if phase is _CALL:
            assert card is not None
            return IllegalActionError(
                "rule book §4.3 the call",
                f"{name}: call a king (a queen only with all four kings, then a cavalier, then a valet)",
                "call_card",
                card_param(card),
            )
        if phase is _POIGNEE and self._show_level:
            assert card is not None
            return IllegalActionError(
                "rule book §3.7 poignée",
                f"{name} by {who}: a poignée shows trumps of one's own hand (or face up in one's écart), "
                "each once",
                "poignee_show",
                card_param(card),
            )
        if phase is _POIGNEE:
            return IllegalActionError(
                "rule book §3.7 poignée",
                f"{name} by {who}: not enough trumps for that poignée",
                "not_enough_trumps",
                {"level": POIGNEE_NAMES[action - POIGNEE_BASE]},
            )
        if phase is _CHELEM:
            return IllegalActionError(
                "rule book §7 V6 partial slam",
                f"{name}: a partial slam is announced only with the partial_slam option",
                "partial_slam_off",
            )
        if phase is _MISERE:
            return IllegalActionError(
                "rule book §7 V5 misère",
                f"{name} by {who}: the hand does not qualify for that misère",
                "misere_not_held",
                {"kind": MISERE_NAMES[action - MISERE_BASE]},
            )
        if phase is _EXCUSE_SEC:
            return IllegalActionError(
                "rule book §7 V4 Excuse sec",
                f"{name} by {who}: only a hand whose one trump is the Excuse may cancel the deal",
                "excuse_sec_not_held",
            )
        assert card is not None, phase
        hand = self.hands[self.current_player]
        if not hand >> card & 1:
            rule = "rule book §3.5 écart" if phase is _DISCARD else "rule book §3.8 play from one's hand"
            return IllegalActionError(
                rule, f"{name}: {who} does not hold {card_name(card)}", "not_held", card_param(card)
            )
        if phase is _DISCARD:
            if BIT[card] & KINGS_MASK or card in (PETIT, EXCUSE, PETIT + 20):
                return IllegalActionError(
                    "rule book §3.5 écart",
                    f"{name}: a king or a bout may never be discarded",
                    "discard_king_or_bout",
                    card_param(card),
                )
            return IllegalActionError(
                "rule book §3.5 écart",
                f"{name}: a trump may be discarded only when too few other cards remain",
                "discard_trump",
                card_param(card),
            )
        rule, code, params = self._play_rule(card)
        return IllegalActionError(rule, f"{name} by {who} is not allowed", code, params)

    def _play_rule(self, card: int) -> tuple[str, str, dict[str, str]]:
        """The rule a card the player holds breaks: its name, code and params (§3.8)."""
        hand = self.hands[self.current_player]
        if self.legal_play_mask() == EXCUSE_MASK and card != EXCUSE:
            return (
                "rule book §3.8 step 1: the Excuse must be played before the last trick",
                "excuse_before_last",
                {},
            )
        if self.led_suit < 0:
            return (
                "rule book §3.8 step 2: the first lead may not be in the called suit (5 players)",
                "first_lead_called_suit",
                {"suit": suit_word(SUIT_OF[self.called_card])},
            )
        if self.led_suit != TRUMP and hand & SUIT_MASKS[self.led_suit]:
            return (
                "rule book §3.8 step 3: must follow suit",
                "follow_suit",
                {"suit": suit_word(self.led_suit)},
            )
        if SUIT_OF[card] == TRUMP:
            top = (self.trick_mask & TRUMPS_MASK).bit_length() - 1
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


_LIST_SLOTS = (
    "_debts",
    "_excuse_sec_pending",
    "_first_card_pending",
    "_first_decisions",
    "_log",
    "bids",
    "hands",
    "history",
    "misere",
    "poignees",
    "trick_cards",
    "trick_winners",
    "tricks",
    "won",
)
_SCALAR_SLOTS = tuple(name for name in FrenchDeal.__slots__ if name not in _LIST_SLOTS)


@functools.cache
def _table_of(
    rules: Rules,
) -> tuple[list[int], tuple[int, int, int], list[tuple[int, ...]], list[list[int]]]:
    """What a deal derives from its rules, worked out once per rules: the bids allowed,
    the poignée sizes, the seats of a trick for each leader and the bidding order for each dealer."""
    n, step = rules.players, seat_step(rules)
    orders = [tuple((lead + step * i) % n for i in range(n)) for lead in range(n)]
    first = -step if rules.first_bidder == "dealer_left" else step
    bid_orders = [[(dealer + first * (i + 1)) % n for i in range(n)] for dealer in range(n)]
    return [BID_NAMES.index(c) for c in rules.contracts], rules.poignee_levels(n), orders, bid_orders


# Events logged on every card and trick, made once (an event is an immutable tuple).
_PLAY_EVENTS = [[CardPlayed(seat, card) for card in range(78)] for seat in range(5)]
_TRICK_EVENTS = [[TrickWon(seat, number) for number in range(24)] for seat in range(5)]


def _actions_of(mask: int, table: tuple[Action, ...], first_card: int = 0) -> list[Action]:
    """The actions of ``table`` (whose first is for ``first_card``) for each card of ``mask``,
    lowest card first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(table[low.bit_length() - 1 - first_card])
        mask ^= low
    return out


def excuse_exchange_card(won: int, rule: str = "low") -> int:
    """The card a side hands over for its Excuse (rule book §3.9), or -1 if it has none yet.

    ``low``: the lowest trump 2-20, else the lowest half-point suit card (suits ♠ ♥ ♦ ♣).
    ``any_won_card``: the lowest-valued won card, whatever its value.
    """
    if rule == "any_won_card":
        if not won:
            return -1
        return min(cards_of(won), key=lambda c: (HALF_POINTS[c], _exchange_order(c)))
    trumps = won & MIDDLE_TRUMPS_MASK
    if trumps:
        return (trumps & -trumps).bit_length() - 1
    low = won & LOW_CARDS_MASK & PLAIN_SUITS_MASK
    if not low:
        return -1
    return min(cards_of(low), key=_exchange_order)


def _exchange_order(card: int) -> tuple[int, int]:
    """Order for the Excuse exchange card: lowest rank first, suits ♠ ♥ ♦ ♣."""
    return (card % 14, card // 14) if card < PETIT else (card - PETIT, 4)


def _card_list(value: object, field: str) -> list[int]:
    """The cards named in a record field, in the order written."""
    if not isinstance(value, str):
        raise ValueError(f"{field}: expected card names separated by spaces")
    try:
        return [parse_card(word) for word in value.replace(",", " ").split()]
    except ValueError as exc:
        raise ValueError(f"{field}: {exc}") from None


def _check_dealt(n: int, hands: list[int], chien: int) -> None:
    if len(hands) != n:
        raise ValueError(f"{n} hands are needed, not {len(hands)}")
    union = chien
    for seat, hand in enumerate(hands):
        if hand.bit_count() != HAND_SIZE[n]:
            raise ValueError(f"seat {seat} holds {hand.bit_count()} cards, not {HAND_SIZE[n]}")
        if union & hand:
            raise ValueError(f"seat {seat} holds a card dealt twice")
        union |= hand
    if chien.bit_count() != CHIEN_SIZE[n] or union.bit_count() != 78:
        raise ValueError(f"the chien must hold {CHIEN_SIZE[n]} cards and the deal all 78 cards")


__all__ = [
    "FrenchDeal",
    "Phase",
    "cancels_dealt",
    "check_engine_rules",
    "excuse_exchange_card",
    "is_petit_sec",
    "known_side",
]

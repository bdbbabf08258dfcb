"""The cards the exact solver (its position, its pure-Python search and its compiled search) and
the rules bot's compiled card play (:mod:`atout.bots.rules.kernel`) hold legal are the engine's,
in every play state of whole deals played at random (seeded), under every value of
``excuse_last_trick`` (rule book §3.8 step 1: the Excuse due before the last trick, unless the
player's side has won every trick so far, as the player knows his side: in 5 players, before the
called card shows the sides, §4.3 mode A step 4, the partner counts the taker and himself, anyone
else himself alone; §3.9: the slam exception this exemption keeps open).

A third of the deals are dealt at random; the others are dealt so that one side takes every trick
whatever is played (it holds the strongest cards), and the Excuse, with the called card in 5
players, is played only when nothing else is legal: the exemption, and the sides as a seat knows
them differing from the true sides, are met that way. Each path reads its legal cards as it plays:
the position from the deal and carried by ``Position.play``, the Python search's cards at its
root, the compiled search's move generator at its root and stepped through the tricks by its own
``_finish``, the rules bot's kernel by replaying the card play and then each card of the hand.

numba comes with the ``solver-fast`` extra; without it the compiled paths are left out of the
comparison, except under CI=true (where ``.ci/run`` installs it): there the tests fail.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from typing import Any, get_args

import pytest

from atout.bots.rules import kernel as playout_kernel
from atout.cards import BIT, EXCUSE, EXCUSE_MASK, PETIT, TRUMPS_MASK, cards_of
from atout.engine.actions import CALL_BASE
from atout.engine.dead_player import DeadPlayerDeal, active_seats
from atout.engine.deal import HAND_SIZE
from atout.engine.french import FrenchDeal, Phase, known_side
from atout.jit import np
from atout.rules import ExcuseLastTrick, Rules
from atout.solver import Position, Solver
from atout.solver import fast as fast_search

EXCUSE_RULES: tuple[ExcuseLastTrick, ...] = get_args(ExcuseLastTrick)

COMPILED = fast_search.AVAILABLE and playout_kernel.AVAILABLE


STRENGTH = (
    EXCUSE,
    *range(76, 55, -1),
    *(14 * suit + rank for rank in range(13, -1, -1) for suit in range(4)),
)
"""The pack from its strongest card down: the Excuse, the trumps 21 to 1, the kings, queens, ..."""
KINGS = tuple(14 * suit + 13 for suit in range(4))


@dataclass
class Plan:
    """How a deal is played at random: for a deal dealt for a sweep, who takes and which card he
    calls (5 players); -1 for a random auction and call."""

    taker: int
    called: int
    keep: int
    """Cards played only when nothing else is legal: the Excuse, the called card, or none."""


def sweep_deal(rules: Rules, rng: random.Random, attack_sweeps: bool) -> tuple[FrenchDeal, Plan]:
    """A deal whose one side holds the strongest cards (the Excuse, the highest trumps, then the
    highest plain cards) as far as its hands hold them, so that it takes every trick whatever the
    seats play; in 5 players the partner (or the taker playing alone) holds the called king."""
    dead = rules.five_player_mode == "dead_player"
    n = 4 if dead else rules.players
    size = HAND_SIZE[n]
    taker = rng.randrange(n)
    partner = called = -1
    if n == 5:
        called = rng.choice(KINGS)
        partner = rng.choice([s for s in range(n) if s != taker] + [-1])
    attack = {taker, partner}
    strong_seats = [s for s in range(n) if (s in attack) == attack_sweeps]
    weak_seats = [s for s in range(n) if s not in strong_seats]
    hands: list[list[int]] = [[] for _ in range(n)]
    if called >= 0:
        hands[partner if partner >= 0 else taker].append(called)
    pool = [c for c in STRENGTH if c != called]
    count = size * len(strong_seats) - sum(len(hands[s]) for s in strong_seats)
    strong, weak = pool[:count], pool[count:]
    rng.shuffle(strong)
    rng.shuffle(weak)
    for seats, cards in ((strong_seats, strong), (weak_seats, weak)):
        for seat in seats:
            take = size - len(hands[seat])
            hands[seat] += cards[:take]
            del cards[:take]
    masks = [sum(BIT[c] for c in hand) for hand in hands]
    chien = sum(BIT[c] for c in weak)
    plan = Plan(taker, called, EXCUSE_MASK | (BIT[called] if called >= 0 else 0))
    if dead:
        dealer = rng.randrange(5)
        outer = [0] * 5
        for inner, seat in enumerate(active_seats(rules, dealer)):
            outer[seat] = masks[inner]
        return DeadPlayerDeal(rules, dealer, outer, chien).inner, plan
    return FrenchDeal(rules, rng.randrange(n), masks, chien), plan


def choose(deal: FrenchDeal, rng: random.Random, plan: Plan) -> int:
    """A random legal action, as ``plan`` says: the planned taker bids (the others pass) and calls
    the planned card, and the cards to keep are played only when nothing else is legal."""
    actions = deal.legal_actions()
    if deal.phase is Phase.BIDDING and plan.taker >= 0:
        if deal.current_player != plan.taker:
            return int(actions[0])
        return int(actions[rng.randrange(1, len(actions))])
    if deal.phase is Phase.CALL and plan.called >= 0:
        return int(CALL_BASE + plan.called)
    if deal.phase is Phase.PLAY:
        legal = deal.legal_play_mask()
        cards = cards_of(legal & ~plan.keep or legal)
        return cards[rng.randrange(len(cards))]
    return int(actions[rng.randrange(len(actions))])


@dataclass
class Compiled:
    """The compiled solver's search state, stepped card by card as its search steps it."""

    kernel: Any
    p: int
    tcount: int
    first: int
    leader: int
    tmask: int
    led: int
    tpts: int
    left: int
    xs: int

    @classmethod
    def of(cls, pos: Position) -> Compiled:
        k = fast_search.Kernel(pos, fast_search.new_table(), False, False, False, False)
        tcount, first, tmask, led, tpts, xs = k.root
        return cls(k, pos.player, tcount, first, pos.leader, tmask, led, tpts, pos.tricks_left, xs)

    def legal(self) -> int:
        """The cards the compiled search tries here (all the legal ones, without pruning or order)."""
        k = self.kernel
        out = np.zeros(32, dtype=np.int64)
        count = fast_search._moves_jit(
            k.cfg, k.tab, k.smask, k.side, k.hands, out,
            self.p, self.tcount, self.tmask, self.led, self.left, self.xs,
        )  # fmt: skip
        return sum(BIT[k.cards[i]] for i in out[:count])

    def play(self, card: int) -> None:
        k = self.kernel
        i = k.index[card]
        k.hands[self.p] ^= 1 << i
        if self.tcount == 0:
            self.first = i
        self.tcount += 1
        self.tmask |= 1 << i
        self.tpts += int(k.tab[fast_search.HP, i])
        if self.led < 0 and k.tab[fast_search.SUIT, i] != 5:
            self.led = int(k.tab[fast_search.SUIT, i])
        if self.tcount < k.pos.n:
            self.p = k.pos.order[self.leader][self.tcount]
            return
        _, winner, xs = fast_search._finish_jit(
            k.cfg, k.tab, k.smask, k.side, self.tmask, self.led, self.tpts, self.first, self.left, self.xs
        )
        self.p = self.leader = int(winner)
        self.xs = int(xs)
        self.tcount, self.first, self.tmask, self.led, self.tpts = 0, -1, 0, -1, 0
        self.left -= 1


def played_so_far(deal: FrenchDeal) -> tuple[list[int], list[int]]:
    """The cards played in the card play, in order, and the hands as they were before the first."""
    plays = [(s, c) for seats, trick, _ in deal.tricks for s, c in zip(seats, trick, strict=True)]
    plays += list(zip(deal.trick_seat_order(), deal.trick_cards, strict=False))
    start = list(deal.hands)
    for seat, card in plays:
        start[seat] |= BIT[card]
    return [c for _, c in plays], start


def kernel_legal(deal: FrenchDeal) -> int:
    """The cards of the seat to play that the rules bot's compiled card play accepts there, replaying
    the card play so far (a card it refuses ends the replay with -1 misses)."""
    seat = deal.current_player
    plays, start = played_so_far(deal)
    legal = 0
    for card in cards_of(deal.hands[seat]):
        judge = playout_kernel.PlayJudge(deal, [*plays, card], seat)
        if judge.judge(start, deal.ecart)[1] != -1:
            legal |= BIT[card]
    return legal


@dataclass
class Tally:
    """What a run of deals met: play states, and those each path was compared in."""

    states: int = 0
    solver: int = 0
    compiled: int = 0
    playout: int = 0
    due: int = 0
    """States where the Excuse is the only legal card under ``must_play_before_last``."""
    due_hidden: int = 0
    """Of those, the states where the player's true side has won every trick (the sides hidden)."""
    kept: int = 0
    """States where a seat with the Excuse and one other card may keep it (its side won every trick)."""
    imprenable: int = 0
    """States with a petit imprenable, which the solver and the compiled card play refuse."""


def check_deal(deal: FrenchDeal, rng: random.Random, plan: Plan, tally: Tally) -> None:
    """Play ``deal`` to its end; in every play state, each path's legal cards are the engine's."""
    evolved: Position | None = None
    cursor: Compiled | None = None
    while not deal.is_over():
        if deal.phase is not Phase.PLAY:
            deal.apply(choose(deal, rng, plan))
            continue
        engine = deal.legal_play_mask()
        where = f"{deal.rules.excuse_last_trick}, trick {deal.trick_no}, seat {deal.current_player}"
        tally.states += 1
        hand = deal.hands[deal.current_player]
        if hand & EXCUSE_MASK and hand.bit_count() == 2:
            if engine == EXCUSE_MASK and deal.rules.excuse_last_trick == "must_play_before_last":
                tally.due += 1
                side = known_side(deal.current_player, deal.taker, deal.partner, deal.n, True)
                tally.due_hidden += all(side >> w & 1 for w in deal.trick_winners)
            elif engine != EXCUSE_MASK:
                tally.kept += 1
        if deal.petit_imprenable_seat >= 0:
            # §7 V3: not the solver's (nor the compiled card play's) to play
            with pytest.raises(ValueError, match="petit imprenable"):
                Position.from_deal(deal)
            assert not playout_kernel.compiles(deal)
            tally.imprenable += 1
        else:
            pos = Position.from_deal(deal)
            assert pos.legal_mask() == engine, where
            if evolved is None:
                evolved = pos
            assert evolved.legal_mask() == engine, where
            python = Solver(pos, equivalence=False, ordering=False, fast=False)
            assert sum(BIT[c] for c in python._root_moves()) == engine, where
            tally.solver += 1
            if COMPILED and fast_search.fits(pos):
                assert Compiled.of(pos).legal() == engine, where
                if cursor is None:
                    cursor = Compiled.of(pos)
                assert cursor.legal() == engine, where
                tally.compiled += 1
        if COMPILED and playout_kernel.compiles(deal):
            assert kernel_legal(deal) == engine, where
            tally.playout += 1
        card = choose(deal, rng, plan)
        deal.apply(card)
        if evolved is not None:
            evolved = evolved.play(card)
        if cursor is not None:
            cursor.play(card)


def petit_sec_deal(rules: Rules, rng: random.Random) -> FrenchDeal:
    """A deal in which one seat holds the Petit as its only trump, and no Excuse (§3.3)."""
    n = rules.players
    size = HAND_SIZE[n]
    plain = [c for c in range(78) if not BIT[c] & (TRUMPS_MASK | EXCUSE_MASK)]
    rng.shuffle(plain)
    holder_cards = [PETIT, *plain[: size - 1]]
    rest = [c for c in range(78) if c not in holder_cards]
    rng.shuffle(rest)
    holder = rng.randrange(n)
    hands = []
    for seat in range(n):
        cards = holder_cards if seat == holder else rest[:size]
        if seat != holder:
            rest = rest[size:]
        hands.append(sum(BIT[c] for c in cards))
    return FrenchDeal(rules, rng.randrange(n), hands, sum(BIT[c] for c in rest))


def new_deal(rules: Rules, seed: int) -> FrenchDeal:
    """A deal of ``rules`` that is not cancelled at once; a dead-player table's 4-player deal."""
    while True:
        if rules.five_player_mode == "dead_player":
            deal = DeadPlayerDeal.new(rules, dealer=seed % 5, rng=seed).inner
        else:
            deal = FrenchDeal.new(rules, dealer=seed % rules.players, rng=seed)
        if not deal.is_over():
            return deal
        seed += 1_000_003


def play_deals(rules: Rules, deals: int, seed: int) -> Tally:
    """``deals`` whole deals, a third of them dealt at random (under ``petit_imprenable`` with a
    petit sec every other time; the Excuse kept as long as it may be every other time), a third for
    the attack to sweep and a third for the defence to sweep, each checked in every play state."""
    assert COMPILED or os.environ.get("CI") != "true", "numba is required under CI=true"
    tally = Tally()
    for k in range(deals):
        rng = random.Random(seed * 10_000 + k)
        plan = Plan(-1, -1, EXCUSE_MASK if k % 2 else 0)
        if k % 3:
            deal, plan = sweep_deal(rules, rng, k % 3 == 1)
        elif rules.petit_sec_rule == "petit_imprenable" and k % 2:
            deal = petit_sec_deal(rules, rng)
        else:
            deal = new_deal(rules, rng.randrange(2**32))
        check_deal(deal, rng, plan, tally)
    assert tally.states and tally.solver
    if COMPILED:
        assert tally.compiled and tally.playout
    return tally


@pytest.mark.parametrize("excuse_last_trick", EXCUSE_RULES)
def test_five_players_every_play_state_agrees_with_the_engine_3_8_step_1_4_3(
    excuse_last_trick: ExcuseLastTrick,
) -> None:
    """Rule book §3.8 step 1 and §4.3: 5 players, the sides hidden until the called card is played
    (or public from the start when it is in a chien that was shown), every path's legal cards are
    the engine's at every card of whole deals."""
    tally = play_deals(Rules(players=5, excuse_last_trick=excuse_last_trick), 150, 5)
    if excuse_last_trick == "must_play_before_last":
        assert tally.due >= 10 and tally.kept >= 10 and tally.due_hidden >= 10, tally


@pytest.mark.parametrize("excuse_last_trick", EXCUSE_RULES)
@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_players_agree_with_the_engine_3_8_step_1_3_9(
    players: int, excuse_last_trick: ExcuseLastTrick
) -> None:
    """Rule book §3.8 step 1 and §3.9, the sides public from the start."""
    tally = play_deals(Rules(players=players, excuse_last_trick=excuse_last_trick), 30, players)
    if excuse_last_trick == "must_play_before_last":
        assert tally.due and tally.kept, tally


@pytest.mark.parametrize("excuse_last_trick", EXCUSE_RULES)
def test_the_dead_player_table_agrees_with_the_engine_4_3_mode_b(excuse_last_trick: ExcuseLastTrick) -> None:
    """Rule book §4.3 mode B: five at the table, four play; the inner 4-player deal's legal cards."""
    rules = Rules(players=5, five_player_mode="dead_player", excuse_last_trick=excuse_last_trick)
    tally = play_deals(rules, 30, 7)
    if excuse_last_trick == "must_play_before_last":
        assert tally.due and tally.kept, tally


@pytest.mark.parametrize("excuse_last_trick", EXCUSE_RULES)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_petit_imprenable_deals_agree_with_the_engine_7_v3(
    players: int, excuse_last_trick: ExcuseLastTrick
) -> None:
    """Rule book §7 V3 with §3.8 step 1: under ``petit_sec_rule=petit_imprenable`` the paths play
    the deals without a petit imprenable (or whose imprenable the chien ended) as the engine does,
    and refuse those with one."""
    rules = Rules(players=players, petit_sec_rule="petit_imprenable", excuse_last_trick=excuse_last_trick)
    tally = play_deals(rules, 12, 11 + players)
    assert tally.imprenable and tally.solver < tally.states, tally

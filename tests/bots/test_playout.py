"""The fast rules-bot playout driver plays exactly as the plain loop (a view per decision), and
the compiled card play (atout.bots.rules.kernel) exactly as the driver: the same scores, the same
number of actions, from any point of a deal, under every rule variant.

numba comes with the ``solver-fast`` extra; without it the kernel's tests skip, except under
CI=true (where ``.ci/run`` installs it): there they fail."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from atout.bots import RandomBot, make_bot
from atout.bots.expert.search import card_values, playout_value
from atout.bots.rules import RulesBot, kernel
from atout.bots.rules.playout import play_to_end, play_to_end_slow
from atout.cards import EXCUSE, PETIT, TRUMPS_MASK, card_name, cards_of
from atout.engine.actions import ACTIONS, ActionKind
from atout.engine.dead_player import DeadPlayerDeal
from atout.engine.deal import CHIEN_SIZE, HAND_SIZE
from atout.engine.french import FrenchDeal, Phase, check_engine_rules, excuse_exchange_card
from atout.presets import rules_for
from atout.rules import Rules, RulesError

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("fft", {}),
    ("japanese", {}),
    ("chinese", {}),
    ("czech", {}),
    ("french-sheet", {}),
    ("fft", {"misere_bonus": 10, "poignee_beneficiary": "declaring_side", "petit_au_bout_multiplied": False}),
    ("fft", {"petit_sec_rule": "petit_imprenable", "petit_imprenable_timing": "when_played"}),
    ("fft", {"play_direction": "clockwise", "chelem_announcer_leads": False, "bid_pousse": True}),
    ("fft", {"partial_slam": {"max_missing": 3}, "first_leader": "taker"}),
    (
        "fft",
        {
            "poignee_thresholds": {3: [6, 8, 10], 4: [5, 7, 9], 5: [4, 6, 8]},
            "excuse_exchange_card": "any_won_card",
            "called_card_fallback": "queen_only",
        },
    ),
    (
        "fft",
        {"excuse_sec_redeal": True, "no_petite": True, "misere_bonus": 10, "misere_kinds": "both_required"},
    ),
    ("czech", {"excuse_last_trick": "must_play_before_last", "misere_bonus": 5}),
]


def _rules(variant: int, players: int) -> Rules | None:
    name, options = VARIANTS[variant]
    try:
        rules = rules_for(name, {**options, "players": players})
        check_engine_rules(rules)
    except RulesError:
        return None  # the seed000 deal needs 3 or 4 players
    return rules


def _advance(deal: FrenchDeal, steps: int, noise: float, rng: random.Random) -> None:
    """Play ``steps`` actions (fewer if the deal ends): the rules bot's, or at random with
    probability ``noise`` (random bids, calls, écarts and cards reach rarer positions)."""
    rules_bot, random_bot = RulesBot(), RandomBot(rng)
    for _ in range(steps):
        if deal.is_over():
            return
        bot = random_bot if rng.random() < noise else rules_bot
        deal.apply(bot.choose(deal.view(deal.current_player), deal.legal_actions()))


def _assert_same_playout(deal: FrenchDeal) -> None:
    slow, fast = deal.clone(), deal.clone()
    slow_steps = play_to_end_slow(slow)
    fast_steps = play_to_end(fast)
    assert fast.history == slow.history
    assert fast_steps == slow_steps
    assert fast.events == slow.events
    assert fast.is_over()
    assert fast.scores() == slow.scores()
    if kernel.AVAILABLE:  # and the compiled card play ends it alike
        outcome = kernel.finish(deal.clone())
        assert (outcome.scores, outcome.steps, outcome.summary) == (slow.scores(), slow_steps, slow.summary)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([3, 4, 5]),
    variant=st.integers(0, len(VARIANTS) - 1),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 110),
    noise=st.sampled_from([0.0, 0.3, 1.0]),
)
def test_fast_playout_plays_as_the_plain_loop(
    players: int, variant: int, seed: int, steps: int, noise: float
) -> None:
    """From any point (bids, declarations, mid-trick; random moves reach rare ones: the Excuse led
    to the last trick of a slam, an exchange owed with no low card yet, petit au bout), under
    every variant; the compiled card play too, where numba is installed."""
    rules = _rules(variant, players)
    assume(rules is not None)
    assert rules is not None
    deal = FrenchDeal.new(rules, dealer=seed % players, rng=seed)
    _advance(deal, steps, noise, random.Random(seed))
    _assert_same_playout(deal)


@settings(max_examples=150, deadline=None)
@given(
    players=st.sampled_from([3, 4, 5]),
    variant=st.integers(0, len(VARIANTS) - 1),
    seed=st.integers(0, 2**32 - 1),
    tricks=st.integers(0, 17),
)
def test_from_the_first_card_and_from_a_finished_trick(
    players: int, variant: int, seed: int, tricks: int
) -> None:
    """Bids, call and écart by the rules bot, then the playout from the first card (before its
    poignée and misère declarations) and from the start of a later trick."""
    rules = _rules(variant, players)
    assume(rules is not None)
    assert rules is not None
    deal = FrenchDeal.new(rules, dealer=seed % players, rng=seed)
    bot = RulesBot()
    while not deal.is_over() and deal.phase not in (Phase.PLAY, Phase.POIGNEE, Phase.MISERE):
        deal.apply(bot.choose(deal.view(deal.current_player), deal.legal_actions()))
    _assert_same_playout(deal)
    while not deal.is_over() and deal.trick_no < min(tricks, deal.n_tricks - 1):
        deal.apply(bot.choose(deal.view(deal.current_player), deal.legal_actions()))
    _assert_same_playout(deal)


@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    called=st.sampled_from(["held", "chien", "other"]),
    bid=st.integers(1, 4),
    cards=st.integers(0, 60),
)
@example(seed=1, called="held", bid=2, cards=0)  # the taker plays his called king: "alone"
@example(seed=2, called="chien", bid=1, cards=0)  # a petite: the called king in the seen chien
@example(seed=2, called="chien", bid=4, cards=0)  # a garde contre: nobody sees where it is
def test_five_players_partner_knowledge(seed: int, called: str, bid: int, cards: int) -> None:
    """Five players: the taker calls a card he holds (he plays alone), a card in the chien, or
    another seat's; the sides are known to a seat only as its view tells it."""
    rules = Rules(players=5, bid_pousse=seed % 2 == 1)
    deal = FrenchDeal.new(rules, dealer=seed % 5, rng=seed)
    while deal.phase is Phase.BIDDING:
        legal = deal.legal_actions()
        deal.apply(legal[min(bid, len(legal) - 1)] if len(deal.bids) == 0 else legal[0])
    assume(deal.phase is Phase.CALL)
    legal = deal.legal_actions()
    place = {"held": deal.hands[deal.taker], "chien": deal.chien}.get(
        called, ~(deal.hands[deal.taker] | deal.chien)
    )
    chosen = [a for a in legal if place >> (a % 78) & 1]
    assume(chosen)
    deal.apply(chosen[seed % len(chosen)])
    _advance(deal, cards + 6, 0.0, random.Random(seed))
    _assert_same_playout(deal)


def _petit_sec_deal(rules: Rules, rng: random.Random) -> FrenchDeal:
    """A deal in which one seat holds the Petit as its only trump (and no Excuse)."""
    n = rules.players
    size = HAND_SIZE[n]
    holder = rng.randrange(n)
    plain = [c for c in range(78) if not TRUMPS_MASK >> c & 1 and c != EXCUSE]
    rng.shuffle(plain)
    hands = [0] * n
    hands[holder] = 1 << PETIT
    for card in plain[: size - 1]:
        hands[holder] |= 1 << card
    rest = plain[size - 1 :] + [c for c in range(78) if TRUMPS_MASK >> c & 1 and c != PETIT] + [EXCUSE]
    rng.shuffle(rest)
    others = [s for s in range(n) if s != holder]
    for i, seat in enumerate(others):
        for card in rest[i * size : (i + 1) * size]:
            hands[seat] |= 1 << card
    chien = 0
    for card in rest[len(others) * size :]:
        chien |= 1 << card
    assert chien.bit_count() == CHIEN_SIZE[n]
    return FrenchDeal(rules, rng.randrange(n), hands, chien)


@settings(max_examples=120, deadline=None)
@given(
    players=st.sampled_from([3, 4, 5]),
    timing=st.sampled_from(["before_first_trick", "when_played"]),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 90),
    noise=st.sampled_from([0.0, 0.5]),
)
def test_petit_imprenable(players: int, timing: str, seed: int, steps: int, noise: float) -> None:
    """A petit imprenable (rule book §7 V3) plays like the Excuse for the engine; the rules bot's
    table does not know it, and the fast driver must not either. While there is one (the taker
    may have taken it with the chien) the deal is not the compiled card play's: ``finish`` plays
    it in Python."""
    rules = Rules(players=players, petit_sec_rule="petit_imprenable", petit_imprenable_timing=timing)
    rng = random.Random(seed)
    deal = _petit_sec_deal(rules, rng)
    assert deal._imprenable >= 0
    _advance(deal, steps, noise, rng)
    if deal.petit_imprenable_seat >= 0:
        assert not kernel.compiles(deal)
    _assert_same_playout(deal)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 80))
def test_dead_player_inner_deal(seed: int, steps: int) -> None:
    """A five-player table with a dead player plays a 4-player deal inside."""
    outer = DeadPlayerDeal.new(Rules(players=5, five_player_mode="dead_player"), dealer=seed % 5, rng=seed)
    inner = outer.inner
    _advance(inner, steps, 0.2, random.Random(seed))
    _assert_same_playout(inner)


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32 - 1), tricks=st.integers(0, 12))
def test_expert_playout_values_are_the_plain_loop_scores(players: int, seed: int, tricks: int) -> None:
    deal = FrenchDeal.new(Rules(players=players), dealer=seed % players, rng=seed)
    bot = RulesBot()
    while not deal.is_over() and (deal.phase is not Phase.PLAY or deal.trick_no < tricks):
        deal.apply(bot.choose(deal.view(deal.current_player), deal.legal_actions()))
    assume(not deal.is_over())
    seat = deal.current_player
    cards = [int(a) for a in deal.legal_actions()]
    for card in cards:
        world = deal.clone()
        world.apply(card)
        steps = play_to_end_slow(world)
        assert playout_value(deal, seat, card) == (float(world.scores()[seat]), steps)
    values, _, evaluator = card_values(deal, seat, cards, solver_cards=0)
    assert evaluator == "playout"
    assert values == {c: playout_value(deal, seat, c)[0] for c in cards}


def test_a_deal_already_over_is_left_alone() -> None:
    deal = FrenchDeal.new(Rules(players=4), rng=3)
    play_to_end_slow(deal)
    history = list(deal.history)
    assert play_to_end(deal) == 0
    assert deal.history == history


needs_kernel = pytest.mark.skipif(
    not kernel.AVAILABLE and os.environ.get("CI") != "true",
    reason="numba is not installed (pip install -e '.[solver-fast]'); under CI=true these tests fail instead",
)


@needs_kernel
def test_the_kernel_is_there() -> None:
    """rule book §3.8-§3.9 card play, compiled: numba imports, and the kernel plays 3 to 5 players
    once every seat's declarations are made (the dead-player table's deals stay in Python)."""
    assert kernel.AVAILABLE
    bot = RulesBot()
    for players in (3, 4, 5):
        deal = FrenchDeal.new(Rules(players=players), dealer=0, rng=3)
        assert not kernel.compiles(deal)
        while not deal.only_cards_left:
            deal.apply(bot.choose(deal.view(deal.current_player), deal.legal_actions()))
        assert kernel.compiles(deal)


@needs_kernel
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([3, 4, 5]),
    variant=st.integers(0, len(VARIANTS) - 1),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 100),
    noise=st.sampled_from([0.0, 0.5]),
)
def test_each_first_card_from_one_position(
    players: int, variant: int, seed: int, steps: int, noise: float
) -> None:
    """``finish_each``: every legal card played from the same position, then the rules bot."""
    rules = _rules(variant, players)
    assume(rules is not None)
    assert rules is not None
    deal = FrenchDeal.new(rules, dealer=seed % players, rng=seed)
    rng = random.Random(seed)
    _advance(deal, steps, noise, rng)
    bot = RulesBot()
    while not deal.is_over() and not deal.only_cards_left:
        deal.apply(bot.choose(deal.view(deal.current_player), deal.legal_actions()))
    assume(kernel.compiles(deal))
    before = deal.clone()
    cards = [int(a) for a in deal.legal_actions()]
    outcomes = kernel.finish_each(deal, cards)
    assert deal.history == before.history and deal.hands == before.hands  # unchanged
    for card, outcome in zip(cards, outcomes, strict=True):
        python = deal.clone()
        python.apply(card)
        steps_after = play_to_end(python)
        assert (outcome.scores, outcome.steps) == (python.scores(), steps_after + 1)


@needs_kernel
def test_the_expert_decides_alike_with_and_without_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same bids, écarts and cards, the same values and the same work, compiled or not."""
    rules_bot = RulesBot()
    positions = []
    for players, seed in ((3, 11), (4, 12), (5, 13)):
        deal = FrenchDeal.new(Rules(players=players), dealer=seed % players, rng=seed)
        while not deal.is_over():
            view, legal = deal.view(deal.current_player), deal.legal_actions()
            kind = ACTIONS[legal[0]].kind
            if len(legal) > 1 and (kind is ActionKind.PLAY or deal.phase is Phase.BIDDING):
                positions.append((view, legal))
            deal.apply(rules_bot.choose(view, legal))
    runs = []
    for compiled in (True, False):
        monkeypatch.setattr(kernel, "AVAILABLE", compiled)
        bot = make_bot("expert", level="fast,simulations=8", rng=7)
        decisions = []
        for view, legal in positions:
            action = bot.choose(view, legal)
            last = bot.last
            decisions.append((action, None if last is None else (last.values, last.work)))
        runs.append(decisions)
    assert runs[0] == runs[1]


@needs_kernel
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([3, 4, 5]),
    variant=st.integers(0, len(VARIANTS) - 1),
    seed=st.integers(0, 2**32 - 1),
    cards=st.integers(0, 70),
    noise=st.sampled_from([0.0, 0.5, 1.0]),
)
def test_the_kernel_s_legal_cards_are_the_engine_s_3_8(
    players: int, variant: int, seed: int, cards: int, noise: float
) -> None:
    """rule book §3.8, compiled: replaying the card play so far and then any card of the hand, the
    kernel refuses that card (-1 misses) exactly when the engine's ``legal_play_mask`` does
    (follow, trump, over-trump, the Excuse, the 5-player first lead, the Excuse due before the
    last trick); random cards reach the rarer duties."""
    rules = _rules(variant, players)
    assume(rules is not None)
    assert rules is not None
    deal = FrenchDeal.new(rules, dealer=seed % players, rng=seed)
    rng = random.Random(seed)
    bot = RulesBot()
    while not deal.is_over() and not deal.only_cards_left:
        deal.apply(bot.choose(deal.view(deal.current_player), deal.legal_actions()))
    _advance(deal, cards, noise, rng)
    assume(not deal.is_over() and kernel.compiles(deal))
    seat = deal.current_player
    plays = [(s, c) for seats, trick, _ in deal.tricks for s, c in zip(seats, trick, strict=True)]
    plays += list(zip(deal.trick_seat_order(), deal.trick_cards, strict=False))
    start = list(deal.hands)
    for s, c in plays:
        start[s] |= 1 << c
    legal = deal.legal_play_mask()
    for card in cards_of(deal.hands[seat]):
        judge = kernel.PlayJudge(deal, [c for _, c in plays] + [card], seat)
        refused = judge.judge(start, deal.ecart)[1] == -1
        assert refused == (not legal >> card & 1), card_name(card)


@needs_kernel
@settings(max_examples=500, deadline=None)
@given(cards=st.sets(st.integers(0, 77)), dense=st.booleans(), any_card=st.booleans())
def test_the_kernel_s_excuse_exchange_card_is_the_engine_s_3_9(
    cards: set[int], dense: bool, any_card: bool
) -> None:
    """rule book §3.9, compiled: the card a side hands over for its Excuse, from any won pile (a few
    cards, or all but a few; the Excuse itself left out, as the engine leaves it out), under both
    ``excuse_exchange_card`` rules."""
    won = sum(1 << c for c in cards)
    if dense:
        won ^= (1 << 78) - 1
    won &= ~(1 << EXCUSE)
    rule = "any_won_card" if any_card else "low"
    compiled = kernel._exchange_card_jit(won & kernel.PLAIN, won >> 56, any_card)
    assert compiled == excuse_exchange_card(won, rule)

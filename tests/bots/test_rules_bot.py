"""The rules bot: always legal, in every game, phase and option; blind to hidden cards; fast."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout.bots import RandomBot, RulesBot, make_bot
from atout.bots.rules.austrian import SOLO_AT, SOLO_FIRST_AT, THREESOME_AT
from atout.bots.rules.strength import austrian_strength, french_strength
from atout.cards import BIT, TRUMPS_MASK, CardSet
from atout.engine.actions import ActionKind
from atout.engine.austrian.cards import AUSTRIAN_CARDS
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.errors import IllegalActionError
from atout.engine.french import FrenchDeal
from atout.games import Deal, new_deal
from atout.rules import Rules

GAMES = {
    "french 2": Rules(players=2),
    "french 3": Rules(players=3),
    "french 4": Rules(players=4),
    "french 5": Rules(players=5),
    "french 5 dead player": Rules(players=5, five_player_mode="dead_player"),
    "french 4 options": Rules(players=4, misere_bonus=10, excuse_sec_redeal=True, bid_pousse=True),
    "french 5 clockwise": Rules(players=5, play_direction="clockwise", misere_bonus=10),
    "french 3 no petite": Rules(players=3, no_petite=True, excuse_last_trick="must_play_before_last"),
    "austrian": Rules(game="austrian", players=3),
    "austrian free choice": Rules(game="austrian", players=3, austrian_talon_mode="free_choice"),
    "austrian no game 2": Rules(game="austrian", players=3, austrian_allow_game2=False),
}


def play(deal: Deal, bots: list[RulesBot | RandomBot]) -> list[int]:
    """Drive a deal to its end; every action must be one of the legal ones. The kinds decided."""
    kinds = []
    while not deal.is_over():
        seat = deal.current_player
        legal = deal.legal_actions()
        action = bots[seat].choose(deal.view(seat), legal)
        assert action in legal
        kinds.append(int(getattr(legal[0], "kind", -1)))
        deal.apply(action)
    return kinds


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32), mixed=st.booleans())
def test_always_legal(game: str, seed: int, mixed: bool) -> None:
    rules = GAMES[game]
    deal = new_deal(rules, dealer=seed % rules.players, rng=seed)
    rng = random.Random(seed)
    bots: list[RulesBot | RandomBot] = [
        RandomBot(rng) if mixed and seat % 2 else RulesBot() for seat in range(rules.players)
    ]
    play(deal, bots)


def test_every_french_decision_kind_is_met() -> None:
    rules = Rules(players=5, misere_bonus=10, excuse_sec_redeal=True)
    kinds: set[int] = set()
    for seed in range(150):
        deal = new_deal(rules, dealer=seed % 5, rng=seed)
        kinds.update(play(deal, [RulesBot() if s else RandomBot(seed) for s in range(5)]))
    wanted = {ActionKind.BID, ActionKind.CALL, ActionKind.DISCARD, ActionKind.CHELEM, ActionKind.PLAY}
    assert wanted | {ActionKind.MISERE} <= kinds


def test_poignee_declared_by_a_strong_taker() -> None:
    trumps = CardSet.parse("T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21").mask
    strong = trumps | CardSet.parse("KS KH KD").mask
    rest = [c for c in range(78) if not strong >> c & 1]
    random.Random(1).shuffle(rest)
    hands = [sum(BIT[c] for c in rest[i * 18 : (i + 1) * 18]) for i in range(3)]
    chien = sum(BIT[c] for c in rest[54:])
    deal = FrenchDeal(Rules(players=4), 0, [hands[0], strong, hands[1], hands[2]], chien)
    bot = RulesBot()
    declared = []
    while not deal.is_over():
        seat = deal.current_player
        action = bot.choose(deal.view(seat), deal.legal_actions())
        if action.kind is ActionKind.POIGNEE and seat == 1:
            declared.append(action.poignee_level)
        deal.apply(action)
    assert deal.taker == 1
    assert declared and declared[0] == 3


def permuted(deal: FrenchDeal, seat: int, rng: random.Random) -> FrenchDeal | None:
    """The same deal with every card ``seat`` cannot see dealt anew among the other seats and
    the unseen chien (each keeping the cards it has played), the same actions replayed; ``None``
    when the actions no longer replay."""
    played_by: dict[int, int] = {s: 0 for s in range(deal.n)}
    for seats, cards, _ in deal.tricks:
        for s, c in zip(seats, cards, strict=True):
            played_by[s] |= BIT[c]
    for s, c in zip(deal.trick_seat_order(), deal.trick_cards, strict=False):
        played_by[s] |= BIT[c]
    others = [s for s in range(deal.n) if s != seat]
    pool = deal.initial_chien
    for s in others:
        pool |= deal.initial_hands[s] & ~played_by[s]
    cards = [c for c in range(78) if pool >> c & 1]
    rng.shuffle(cards)
    hands = list(deal.initial_hands)
    for s in others:
        keep = deal.initial_hands[s] & played_by[s]
        need = hands[s].bit_count() - keep.bit_count()
        hands[s] = keep | sum(BIT[c] for c in cards[:need])
        cards = cards[need:]
    other = FrenchDeal(deal.rules, deal.dealer, hands, sum(BIT[c] for c in cards))
    try:
        for action in deal.history:
            other.apply(action)
    except IllegalActionError:
        return None
    return other


def test_decisions_ignore_hidden_cards() -> None:
    """With the chien unseen (garde sans or contre), reshuffling what a seat cannot see among the
    other seats leaves its every decision unchanged."""
    rules = Rules(players=4)
    rng = random.Random(5)
    bot = RulesBot()
    compared = 0
    for seed in range(80):
        deal = FrenchDeal.new(rules, dealer=seed % 4, rng=seed)
        driver = RandomBot(seed)
        while not deal.is_over():
            seat = deal.current_player
            legal = deal.legal_actions()
            if deal.contract in ("garde_sans", "garde_contre") and legal[0].kind is ActionKind.PLAY:
                twin = permuted(deal, seat, rng)
                if twin is not None and twin.current_player == seat and not twin.is_over():
                    assert bot.choose(twin.view(seat), twin.legal_actions()) == bot.choose(
                        deal.view(seat), legal
                    )
                    compared += 1
            deal.apply(driver.choose(None, legal))
    assert compared > 200


@pytest.mark.parametrize("game", ["french 2", "french 3", "french 4", "french 5", "austrian"])
def test_under_a_millisecond_per_decision(game: str) -> None:
    rules = GAMES[game]
    bot = make_bot("rules")
    times = []
    for seed in range(6):
        deal = new_deal(rules, dealer=seed % rules.players, rng=seed)
        while not deal.is_over():
            seat = deal.current_player
            view, legal = deal.view(seat), deal.legal_actions()
            start = time.perf_counter()
            deal.apply(bot.choose(view, legal))
            times.append(time.perf_counter() - start)
    assert sum(times) / len(times) < 0.001


def test_registry() -> None:
    assert make_bot("rules").name == "rules"
    assert make_bot("random", rng=3).name == "random"
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        make_bot("nobody")
    with pytest.raises(ValueError, match="no levels"):
        make_bot("rules", level="strong")


def test_bids_follow_hand_strength() -> None:
    bot = RulesBot()
    rules = Rules(players=4)
    weak = CardSet.parse("2S 3S 4S 5S 6S 7S 2H 3H 4H 5H 6H 2D 3D 4D 5D T2 T3 T4").mask
    strong = CardSet.parse("KS QS KH KD T21 EX T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9").mask
    rest = [c for c in range(78) if not (weak | strong) >> c & 1]
    for hand, other in ((weak, strong), (strong, weak)):
        hands = [hand, other, sum(BIT[c] for c in rest[:18]), sum(BIT[c] for c in rest[18:36])]
        deal = FrenchDeal(rules, 3, hands, sum(BIT[c] for c in rest[36:]))
        action = bot.choose(deal.view(0), deal.legal_actions())
        assert (action.bid == "pass") == (hand == weak), str(action)
    assert TRUMPS_MASK & strong


def austrian_decisions(
    hand_text: str, game2: bool = True, after: str | None = None
) -> tuple[str, str | None]:
    """The rules bot's bid with that hand (forehand, or second after ``after``), and its game
    after a solo."""
    hand = CardSet.parse(hand_text).mask
    rest = [c for c in AUSTRIAN_CARDS if not hand >> c & 1]
    others = [sum(BIT[c] for c in rest[:16]), sum(BIT[c] for c in rest[16:32])]
    hands = [hand, *others] if after is None else [*others, hand]
    talon = [sum(BIT[c] for c in rest[32:35]), sum(BIT[c] for c in rest[35:38])]
    dealer = 2 if after is None else 0
    deal = AustrianDeal(Rules(game="austrian", players=3, austrian_allow_game2=game2), dealer, hands, talon)
    if after is not None:
        deal.apply(deal.parse(after))
    seat = deal.current_player
    bot = RulesBot()
    bid = bot.choose(deal.view(seat), deal.legal_actions())
    if deal.action_name(bid) != "solo":
        return deal.action_name(bid), None
    deal.apply(bid)
    while deal.phase == "bidding":
        deal.apply(deal.parse("pass"))
    if deal.phase != "game":  # no declaration without game 2: every game is game 1
        return "solo", None
    game = bot.choose(deal.view(seat), deal.legal_actions())
    return "solo", deal.action_name(game)


AUSTRIAN_WEAK = "7S 8S 9S 10S 4H 3H 2H 4D 3D 7C 8C 9C T2 T3 T4 T5"
AUSTRIAN_STRONG = "EX T21 T20 T19 T18 T17 T16 T15 T14 T1 KS KH KD KC QS 7C"


def test_austrian_solo_with_the_game_the_hand_makes() -> None:
    """A solo pays 100 and more: a weak hand plays game 2 (35 or less), a strong one game 1;
    without game 2 the weak hand passes."""
    assert austrian_decisions(AUSTRIAN_WEAK) == ("solo", "35_or_less")
    assert austrian_decisions(AUSTRIAN_STRONG) == ("solo", "36_or_more")
    assert austrian_decisions(AUSTRIAN_WEAK, game2=False) == ("pass", None)


AUSTRIAN_GOOD = "EX T21 T17 T12 T9 T6 T3 KS QS 7S KH 4H 3H 8C 9C 10C"
AUSTRIAN_MIDDLING = "T21 T17 T12 T9 T6 T3 KS QS 7S 8S 4H 3H 2H 8C 9C 10C"


def test_austrian_bids_without_game_2_only_what_the_hand_likely_makes_5_2() -> None:
    """rule book §5.2 and §6.2 A5 (36 of 70, the tarock preset): a threesome from a good hand, a
    pass below, a solo only from a very strong one, or over another's threesome."""
    good, middling, strong = (
        austrian_strength(CardSet.parse(h).mask) for h in (AUSTRIAN_GOOD, AUSTRIAN_MIDDLING, AUSTRIAN_STRONG)
    )
    assert THREESOME_AT <= good < SOLO_AT and middling < THREESOME_AT and strong >= SOLO_FIRST_AT
    assert austrian_decisions(AUSTRIAN_GOOD, game2=False) == ("threesome", None)
    assert austrian_decisions(AUSTRIAN_MIDDLING, game2=False) == ("pass", None)
    assert austrian_decisions(AUSTRIAN_STRONG, game2=False) == ("solo", None)
    assert austrian_decisions(AUSTRIAN_GOOD, game2=False, after="threesome") == ("pass", None)
    assert austrian_decisions(AUSTRIAN_STRONG, game2=False, after="threesome") == ("solo", None)


def test_long_trumps_bid_garde_contre() -> None:
    """15 trumps from the 21 down to the 7 and three kings: no defence can stop it, a garde contre
    (it bid only a garde before trump length and the master trumps counted)."""
    hand = CardSet.parse("T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21 KS KH KD").mask
    rest = [c for c in range(78) if not hand >> c & 1]
    hands = [hand] + [sum(BIT[c] for c in rest[6 + i * 18 : 24 + i * 18]) for i in range(3)]
    deal = FrenchDeal(Rules(players=4), 3, hands, sum(BIT[c] for c in rest[:6]))
    assert deal.current_player == 0
    assert RulesBot().choose(deal.view(0), deal.legal_actions()).bid == "garde_contre"
    # fewer trumps and no run under the 21: still the garde it was
    middling = CardSet.parse("T1 T3 T5 T7 T9 T11 T13 T15 T17 T21 KS KH 2S 3S 4D 5D 6C 7C").mask
    assert 56 <= french_strength(middling, 4) < 71

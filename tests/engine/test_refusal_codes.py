"""Every refusal the engines make carries a code and params a person's words are made from
(atout.engine.refusals), over random states of every game: the code matches the rule named
(a follow-suit refusal, rule book §3.8 step 3 and §5.4, has code follow_suit and the led suit),
and the params name only the mover's own card or public facts (the led suit, the called suit,
a trump already in the trick), never another seat's hidden card."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout.cards import BIT, SUIT_OF, TRUMP, TRUMPS_MASK, card_name
from atout.engine.actions import ACTIONS
from atout.engine.austrian.actions import AUSTRIAN_ACTIONS
from atout.engine.austrian.cards import AUSTRIAN_TRUMPS_MASK
from atout.engine.errors import REFUSAL_CODES, IllegalActionError, suit_word
from atout.engine.french import FrenchDeal
from atout.engine.refusals import card_words, refusal_text, texts
from atout.games import Deal, new_deal
from atout.presets import rules_for
from atout.rules import Rules

# the words each code's rule names: the code says the same rule as the English reference
RULE_OF = {
    "not_an_action": "actions",
    "other_game": "actions",
    "deal_over": "rule book",
    "deal_cancelled": "all pass",
    "wrong_phase": "order of play",
    "not_in_game": "§4.4",
    "bid_too_low": "bidding",
    "bid_not_played": "bidding",
    "call_card": "the call",
    "poignee_show": "poignée",
    "not_enough_trumps": "poignée",
    "partial_slam_off": "partial slam",
    "misere_not_held": "misère",
    "excuse_sec_not_held": "Excuse sec",
    "chelem_first": "chelem",
    "chelem_before_first_card": "chelem",
    "not_held": "rule book",
    "not_available": "available cards",
    "discard_king_or_bout": "écart",
    "discard_king": "discard",
    "discard_trull": "austrian_forbid_trull_discard",
    "discard_trump": "écart",
    "excuse_before_last": "step 1",
    "first_lead_called_suit": "step 2",
    "follow_suit": "follow suit",
    "follow_trumps": "follow",
    "must_trump": "must trump",
    "overtrump": "higher|overtrump",
}

GAMES: list[tuple[str, dict[str, Any], int | None]] = [
    ("fft", {}, 3),
    ("fft", {}, 4),
    ("fft", {"no_petite": True, "bid_pousse": True}, 4),
    ("fft", {"excuse_last_trick": "must_play_before_last", "excuse_sec_redeal": True}, 4),
    ("fft", {"misere_kinds": "either", "misere_bonus": 10, "partial_slam": None}, 4),
    ("fft", {"petit_sec_rule": "petit_imprenable"}, 3),
    ("fft", {}, 5),
    ("fft", {"called_card_fallback": "queen_only"}, 5),
    ("fft", {"five_player_mode": "dead_player"}, 5),
    ("fft", {}, 2),
    ("fft", {"two_player_chelem": True, "excuse_last_trick": "must_play_before_last"}, 2),
    ("tarock", {}, None),
    ("tarock", {"austrian_forbid_trull_discard": True, "austrian_talon_mode": "free_choice"}, None),
    ("tarock", {"austrian_must_overtrump": False}, None),
]


def _rules(index: int) -> Rules:
    name, options, players = GAMES[index]
    more = {} if players is None else {"players": players}
    return rules_for(name, options, **more)


def _table(deal: Deal) -> tuple[Any, ...]:
    return AUSTRIAN_ACTIONS if deal.rules.game == "austrian" else ACTIONS


def _public_words(core: Any) -> set[str]:
    """What a refusal's params may name besides the mover's own card: the cards of the trick,
    the suit led and the called suit (all public)."""
    words = {card_name(c) for c in getattr(core, "trick_cards", [])}
    if getattr(core, "led_suit", -1) >= 0:
        words.add(suit_word(core.led_suit))
    if getattr(core, "called_card", -1) >= 0:
        words.add(suit_word(SUIT_OF[core.called_card]))
    return words


def _check(deal: Deal, action: int, error: IllegalActionError) -> None:
    assert error.code in REFUSAL_CODES, error
    assert re.search(RULE_OF[error.code], error.rule), (error.code, error.rule)
    core: Any = getattr(deal, "inner", deal)  # the dead player's table delegates to a 4-player deal
    own = _table(deal)[action].card
    trumps = AUSTRIAN_TRUMPS_MASK if deal.rules.game == "austrian" else TRUMPS_MASK
    led = getattr(core, "led_suit", -1)
    seat = core.current_player
    held = core.available(seat) if hasattr(core, "available") else core.hands[seat]
    params = error.params
    for name, value in params.items():
        if name == "card":
            assert value == card_name(own) or value in _public_words(core), (error.code, params)
        elif name == "suit":
            assert value in _public_words(core), (error.code, params)
        elif name == "phase":
            assert value == core.phase.value
    if error.code == "follow_suit":
        assert params == {"suit": suit_word(led)} and led != TRUMP
        assert any(held >> c & 1 and SUIT_OF[c] == led for c in range(78))
    if error.code == "must_trump":
        assert params == {"suit": suit_word(led)} and held & trumps
    if error.code == "follow_trumps":
        assert led == TRUMP and held & trumps and own is not None and not BIT[own] & trumps
    if error.code == "overtrump":
        top = params["card"]
        assert top in {card_name(c) for c in core.trick_cards if BIT[c] & trumps}
        assert own is not None and BIT[own] & trumps
    if error.code == "first_lead_called_suit":
        assert params == {"suit": suit_word(SUIT_OF[core.called_card])}
    if error.code in ("not_held", "not_available", "discard_king_or_bout", "discard_trump", "call_card"):
        assert params == {"card": card_name(own)}
    text = refusal_text(error.code, params, deal.rules.game)
    assert "{" not in text and "seat" not in text.lower()
    assert not re.search(r"\b(T\d+|EX|\d+[SHDC]|[KQCJ][SHDC])\b", text), text


@given(st.integers(0, len(GAMES) - 1), st.integers(0, 2**32))
@settings(max_examples=40, deadline=None)  # whole deals, ~50 refusals at each step
def test_every_refusal_has_a_code_that_matches_its_rule(index: int, seed: int) -> None:
    rules = _rules(index)
    rng = random.Random(seed)
    deal = new_deal(rules, rng=rng)
    table = _table(deal)
    while not deal.is_over():
        legal = set(deal.legal_actions())
        tried = rng.sample(range(len(table)), 12)
        tried += [a for a in range(78) if rng.random() < 0.5]  # cards: the most varied refusals
        for action in tried:
            if action in legal:
                continue
            with pytest.raises(IllegalActionError) as info:
                deal.apply(table[action])
            _check(deal, action, info.value)
        deal.apply(rng.choice(sorted(legal)))
    with pytest.raises(IllegalActionError) as over:
        deal.apply(table[0])
    assert over.value.code in ("deal_over", "deal_cancelled")


def _codes_seen(rules: Rules, seeds: range) -> dict[str, IllegalActionError]:
    seen: dict[str, IllegalActionError] = {}
    for seed in seeds:
        rng = random.Random(seed)
        deal = new_deal(rules, rng=rng)
        table = _table(deal)
        while not deal.is_over():
            legal = set(deal.legal_actions())
            for action in range(len(table)):
                if action not in legal:
                    try:
                        deal.apply(table[action])
                    except IllegalActionError as error:
                        seen.setdefault(error.code, error)
            # a petite or a garde when offered, so that most deals reach the écart
            low = [a for a in legal if deal.action_name(a) in ("petite", "garde")]
            deal.apply(low[0] if low and rng.random() < 0.5 else rng.choice(sorted(legal)))
    return seen


def test_card_play_refusals_say_which_rule_in_every_game() -> None:
    """§3.8 steps 3-4 and §5.4: each game refuses cards with follow_suit, must_trump,
    follow_trumps and overtrump, each in its own words."""
    for rules in (Rules(players=4), Rules(players=2), rules_for("tarock")):
        seen = _codes_seen(rules, range(6))
        for code in ("follow_suit", "must_trump", "follow_trumps", "overtrump"):
            assert code in seen, (rules.game, rules.players, code)
        assert seen["follow_suit"].rule.endswith("follow suit")
        assert refusal_text("follow_suit", seen["follow_suit"].params).startswith("You must follow ")


def test_the_first_lead_in_the_called_suit_names_the_suit() -> None:
    """§3.8 step 2 (5 players): the first card of the deal refused names the called suit."""
    seen = _codes_seen(Rules(players=5), range(3))
    assert seen["first_lead_called_suit"].params["suit"] in "SHDC"


def test_the_ecart_refusals_name_the_card() -> None:
    """§3.5: a king or a bout may never be laid aside; a trump only when too few other cards remain."""
    seen: dict[str, IllegalActionError] = {}
    for seed in range(200):
        rng = random.Random(seed)
        deal = FrenchDeal.new(Rules(players=4), rng=rng)
        while str(deal.phase) == "bidding":
            names = {deal.action_name(a): a for a in deal.legal_actions()}
            deal.apply(names.get("garde", names["pass"]))
        if str(deal.phase) != "discard":
            continue
        hand = deal.hands[deal.current_player]
        for card in range(78):
            if hand >> card & 1 and ACTIONS[78 + card] not in deal.legal_actions():
                with pytest.raises(IllegalActionError) as info:
                    deal.apply(ACTIONS[78 + card])
                assert info.value.params == {"card": card_name(card)}
                seen.setdefault(info.value.code, info.value)
        if {"discard_king_or_bout", "discard_trump"} <= set(seen):
            break
    assert seen["discard_king_or_bout"].params["card"][0] in "KTE"
    assert refusal_text("discard_king_or_bout", {}) == "A king or a bout may not be laid aside."
    assert "discard_trump" in seen


def test_every_code_has_english_words() -> None:
    assert set(texts()) == REFUSAL_CODES
    assert refusal_text("follow_suit", {"suit": "H"}) == "You must follow hearts."
    assert refusal_text("not_held", {"card": "T21"}) == "You do not hold the 21 of trumps."
    assert refusal_text("not_held", {"card": "CD"}) == "You do not hold the cavalier of diamonds."
    assert card_words("10H") == "the 10 of hearts"
    assert card_words("EX", "austrian") == "the Sküs"
    assert refusal_text("unknown", {}) == "That move is not allowed."

"""The rule named when a card is refused. rule book §3.8 step 4 and §5.4: refusing a plain-suit card when trumps are led and the player
holds trumps names the rule "must follow in trumps", not the rule for a void in a plain suit.

Positions are found by playing random legal cards until trumps are led to a player who holds
both trumps and a plain-suit card; every game's engine is checked."""

from __future__ import annotations

import random

import pytest

from atout.cards import EXCUSE, SUIT_OF, TRUMP
from atout.engine.errors import IllegalActionError
from atout.games import Deal, is_card_play, new_deal
from atout.presets import rules_for
from atout.rules import Rules


def _trumps_led_position(rules: Rules, hand_of: str) -> tuple[Deal, int]:
    """A deal where trumps are led and the player to act may not play the returned plain card."""
    for seed in range(500):
        rng = random.Random(seed)
        deal = new_deal(rules, rng=rng)
        while not deal.is_over():
            legal = deal.legal_actions()
            if is_card_play(deal, legal) and deal.led_suit == TRUMP:
                seat = deal.current_player
                held = deal.available(seat) if hand_of == "available" else deal.hands[seat]
                plain = [c for c in range(78) if held >> c & 1 and c != EXCUSE and SUIT_OF[c] != TRUMP]
                cards = {a.card for a in legal}
                if plain and all(c not in cards for c in plain):
                    return deal, plain[0]
            deal.apply(rng.choice(legal))
    raise AssertionError("no position with trumps led found")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_must_follow_in_trumps_french(players: int) -> None:
    deal, card = _trumps_led_position(Rules(players=players), "hand")
    with pytest.raises(IllegalActionError) as err:
        deal.apply(card)
    assert err.value.rule == "rule book §3.8 step 4: must follow in trumps"


def test_must_follow_in_trumps_two_players() -> None:
    deal, card = _trumps_led_position(Rules(players=2), "available")
    with pytest.raises(IllegalActionError) as err:
        deal.apply(card)
    assert err.value.rule == "rule book §3.8 step 4: must follow in trumps"


def test_must_follow_in_trumps_austrian() -> None:
    deal, card = _trumps_led_position(rules_for("tarock"), "hand")
    with pytest.raises(IllegalActionError) as err:
        deal.apply(card)
    assert err.value.rule == "rule book §5.4 follow suit"
    assert "must follow in trumps" in str(err.value)


def test_a_void_in_a_plain_suit_still_names_must_trump() -> None:
    """The other refusal keeps its rule: void in the plain suit led, holding trumps."""
    for seed in range(500):
        rng = random.Random(seed)
        deal = new_deal(Rules(players=4), rng=rng)
        while not deal.is_over():
            legal = deal.legal_actions()
            if is_card_play(deal, legal) and 0 <= deal.led_suit != TRUMP:
                hand = deal.hands[deal.current_player]
                cards = {a.card for a in legal}
                plain = [c for c in range(78) if hand >> c & 1 and c != EXCUSE and SUIT_OF[c] != TRUMP]
                refused = [c for c in plain if c not in cards]
                if refused and all(SUIT_OF[c] != deal.led_suit for c in plain):
                    with pytest.raises(IllegalActionError) as err:
                        deal.apply(refused[0])
                    assert err.value.rule == "rule book §3.8: must trump when void in the suit led"
                    return
            deal.apply(rng.choice(legal))
    raise AssertionError("no position found")


def test_holding_the_excuse_early_names_the_real_rule() -> None:
    """Under excuse_last_trick=must_play_before_last, holding the Excuse with many cards left
    is no reason for a refusal: the rule named is the one that forbids the card."""
    rules = Rules(players=4, excuse_last_trick="must_play_before_last")
    for seed in range(500):
        rng = random.Random(seed)
        deal = new_deal(rules, rng=rng)
        while not deal.is_over():
            legal = deal.legal_actions()
            hand = deal.hands[deal.current_player] if is_card_play(deal, legal) else 0
            if hand >> EXCUSE & 1 and hand.bit_count() > 2:
                cards = {a.card for a in legal}
                refused = [c for c in range(78) if hand >> c & 1 and c not in cards]
                if refused:
                    with pytest.raises(IllegalActionError) as err:
                        deal.apply(refused[0])
                    assert "step 1" not in err.value.rule
                    return
            deal.apply(rng.choice(legal))
    raise AssertionError("no position found")

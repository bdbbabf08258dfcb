"""rule book §3.1-§3.2 and §2: shuffle and deal."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout.cards import ALL_CARDS
from atout.engine import FrenchDeal
from atout.engine.deal import CHIEN_SIZE, HAND_SIZE, PACKET_SIZE, deal_from_deck
from atout.games import new_deal, next_dealer
from atout.presets import rules_for
from atout.rules import Rules, RulesError


@pytest.mark.parametrize(("players", "hand", "chien"), [(3, 24, 6), (4, 18, 6), (5, 15, 3)])
def test_hand_and_chien_sizes_by_player_count_2(players: int, hand: int, chien: int) -> None:
    deal = FrenchDeal.new(Rules(players=players), rng=1)
    assert [h.bit_count() for h in deal.hands] == [hand] * players
    assert deal.chien.bit_count() == chien
    union = deal.chien
    for h in deal.hands:
        union |= h
    assert union == ALL_CARDS


@pytest.mark.parametrize("players", [3, 4, 5])
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 4))
@settings(max_examples=60)
def test_fft_deal_packets_and_chien_placement_3_2(players: int, seed: int, dealer: int) -> None:
    dealer %= players
    rng = random.Random(seed)
    deck = list(range(78))
    rng.shuffle(deck)
    hands, chien = deal_from_deck(Rules(players=players), dealer, deck, random.Random(seed + 1))
    chien_positions = [i for i, card in enumerate(deck) if chien >> card & 1]
    # neither the first nor the last card of the pack goes to the chien
    assert 0 not in chien_positions and 77 not in chien_positions
    size = PACKET_SIZE[players]
    body = [card for card in deck if not chien >> card & 1]
    # packets of 3 (4 with 3 players) go to each player in turn from the dealer's right
    for i in range(0, len(body), size):
        seat = (dealer + 1 + i // size) % players
        assert all(hands[seat] >> card & 1 for card in body[i : i + size])
    # chien cards sit singly between packets: the cards before each are a whole number of packets
    for k, pos in enumerate(chien_positions):
        assert (pos - k) % size == 0
    assert len(chien_positions) == CHIEN_SIZE[players]
    assert sum(h.bit_count() for h in hands) == players * HAND_SIZE[players]


def test_seeded_deals_are_reproducible() -> None:
    a = FrenchDeal.new(Rules(), dealer=2, rng=42)
    b = FrenchDeal.new(Rules(), dealer=2, rng=42)
    c = FrenchDeal.new(Rules(), dealer=2, rng=43)
    assert a.hands == b.hands and a.chien == b.chien
    assert a.hands != c.hands


def test_seed000_deal_scheme_3_2_variant() -> None:
    deck = list(range(78))
    hands, chien = deal_from_deck(Rules(deal_scheme="seed000"), 3, deck, random.Random(0))
    # kitty = the first 3 and the last 3 cards; hands in packets of 6 from the dealer's right
    assert chien == sum(1 << c for c in (0, 1, 2, 75, 76, 77))
    assert hands[0] == sum(1 << c for c in [*range(3, 9), *range(27, 33), *range(51, 57)])
    with pytest.raises(RulesError, match="3 or 4 players"):
        deal_from_deck(Rules(players=5, deal_scheme="seed000"), 0, deck, random.Random(0))


def test_a_deck_must_hold_every_card_once() -> None:
    with pytest.raises(ValueError, match="each of the 78 cards"):
        deal_from_deck(Rules(), 0, [0] * 78, random.Random(0))


def test_clockwise_play_deals_from_the_dealers_left_7_v7() -> None:
    deck = list(range(78))
    rules = Rules(play_direction="clockwise")
    hands, chien = deal_from_deck(rules, 0, deck, random.Random(0))
    first_packet = next(c for c in deck if not chien >> c & 1)
    assert hands[3] >> first_packet & 1  # the seat after the dealer, clockwise


def test_dealt_cards_are_checked() -> None:
    deal = FrenchDeal.new(Rules(), rng=3)
    hands = list(deal.hands)
    with pytest.raises(ValueError, match="holds"):
        FrenchDeal(Rules(), 0, [hands[0] | hands[1], 0, hands[2], hands[3]], deal.chien)
    with pytest.raises(ValueError, match="dealer"):
        FrenchDeal(Rules(), 7, hands, deal.chien)


def test_lowest_card_deals_and_the_excuse_draws_again_3_1() -> None:
    from atout.cards import EXCUSE, parse_card
    from atout.engine.deal import choose_first_dealer, draw_rank

    assert min(range(78), key=draw_rank) == parse_card("1C")  # ♣1 is the lowest card
    assert draw_rank(parse_card("1S")) > draw_rank(parse_card("1H")) > draw_rank(parse_card("1D"))
    assert draw_rank(parse_card("T1")) > draw_rank(parse_card("KS"))
    for seed in range(200):
        dealer, draws = choose_first_dealer(4, random.Random(seed))
        final = {seat: card for seat, card in draws}
        assert EXCUSE not in final.values()
        assert dealer == min(final, key=lambda s: draw_rank(final[s]))
        assert {seat for seat, _ in draws} == {0, 1, 2, 3}


@pytest.mark.parametrize(
    "rules",
    [Rules(players=2), Rules(players=3), Rules(), Rules(players=5), rules_for("tarock")],
    ids=["french 2", "french 3", "french 4", "french 5", "tarock"],
)
def test_the_deal_passes_to_the_right_in_every_game_3_1(rules: Rules) -> None:
    """The one next-dealer rule (``atout.games.next_dealer``): to the right, to the left when play
    goes clockwise, in every game."""
    n = rules.players if rules.game != "austrian" else 3
    for dealer in range(n):
        assert next_dealer(new_deal(rules, dealer=dealer, rng=dealer)) == (dealer + 1) % n
        mirrored = rules.replace(play_direction="clockwise")
        assert next_dealer(new_deal(mirrored, dealer=dealer, rng=dealer)) == (dealer - 1) % n

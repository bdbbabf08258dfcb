"""rule book §4.4 and §3.8 with 2 players: the layout, the lead, available cards, legality, turning up."""

from __future__ import annotations

import doctest
import random
from pathlib import Path

import pytest

from atout.cards import BIT, CardSet, parse_card
from atout.engine import ACTIONS, IllegalActionError, Phase
from atout.engine.actions import BID_ACTIONS, DISCARD_BASE, NO_CHELEM, POIGNEE_ACTIONS
from atout.engine.events import TurnedUp
from atout.engine.two_player import TwoPlayerDeal, deal_layout
from atout.rules import Rules, RulesError

from .conftest import build, finish, run


def test_layout_is_dealt_exactly_as_specified_4_4() -> None:
    hands, piles = deal_layout(list(range(78)), dealer=0)
    # layer 1: 3 bases to the opponent (seat 1), 3 to the dealer, 3 to the opponent, 3 to the dealer
    assert [p[0] for p in piles[1]] == [0, 1, 2, 6, 7, 8]
    assert [p[0] for p in piles[0]] == [3, 4, 5, 9, 10, 11]
    # layers 2 and 3 the same way; the third layer is the face-up top
    assert [list(p) for p in piles[1][:3]] == [[0, 12, 24], [1, 13, 25], [2, 14, 26]]
    assert [p[-1] for p in piles[0]] == [27, 28, 29, 33, 34, 35]
    # then packets of 3, the opponent first, until each holds 21
    assert hands[1] == sum(BIT[c] for start in range(36, 78, 6) for c in range(start, start + 3))
    assert hands[0] == sum(BIT[c] for start in range(39, 78, 6) for c in range(start, start + 3))
    assert [h.bit_count() for h in hands] == [21, 21]


def test_dealer_one_mirrors_the_layout_4_4() -> None:
    hands0, piles0 = deal_layout(list(range(78)), dealer=0)
    hands1, piles1 = deal_layout(list(range(78)), dealer=1)
    assert (hands1, piles1) == ([hands0[1], hands0[0]], (piles0[1], piles0[0]))


def test_new_deal_gives_21_cards_and_6_piles_of_3_with_tops_face_up_4_4() -> None:
    deal = TwoPlayerDeal.new(Rules(players=2), dealer=1, rng=5)
    union = 0
    for seat in (0, 1):
        assert deal.hands[seat].bit_count() == 21
        assert [len(p) for p in deal.piles[seat]] == [3] * 6
        assert deal.tops[seat] == sum(BIT[p[-1]] for p in deal.piles[seat])
        union |= deal.hands[seat] | sum(BIT[c] for p in deal.piles[seat] for c in p)
    assert union == (1 << 78) - 1


def test_new_deal_is_the_same_for_the_same_seed_4_4() -> None:
    a = TwoPlayerDeal.new(Rules(players=2), 0, 42)
    b = TwoPlayerDeal.new(Rules(players=2), 0, random.Random(42))
    assert a.dealt() == b.dealt()


def test_no_bidding_chien_or_ecart_and_the_non_dealer_leads_4_4() -> None:
    for dealer in (0, 1):
        deal = TwoPlayerDeal.new(Rules(players=2), dealer=dealer, rng=3)
        assert deal.phase is Phase.PLAY and deal.current_player == 1 - dealer
        assert all(a.card is not None and a < DISCARD_BASE for a in deal.legal_actions())
        for action in (BID_ACTIONS["garde"], BID_ACTIONS["pass"], ACTIONS[DISCARD_BASE + 3], NO_CHELEM):
            with pytest.raises(IllegalActionError):
                deal.apply(action)


def test_no_poignee_is_declared_4_4() -> None:
    deal = build(hands={1: "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 T7 T6"})
    assert deal.current_player == 1 and deal.phase is Phase.PLAY
    with pytest.raises(IllegalActionError) as err:
        deal.apply(POIGNEE_ACTIONS[3])
    assert "§4.4" in err.value.rule


def test_no_petit_sec_check_4_4() -> None:
    # seat 1's only trump is the Petit and it lacks the Excuse: the deal is played all the same
    spades = " ".join(f"{r}S" for r in [*range(1, 11), "J", "C", "Q", "K"])
    diamonds = [f"{r}D" for r in range(1, 11)]
    piles = ["7H 8H 9H", "10H JH CH", "QH KH 1D", *(" ".join(diamonds[i : i + 3]) for i in (1, 4, 7))]
    deal = build(hands={1: f"T1 {spades} 1H 2H 3H 4H 5H 6H"}, piles={1: piles})
    assert deal.phase is Phase.PLAY and deal.current_player == 1
    finish(deal)
    assert deal.outcome == "played"


def test_a_player_may_play_a_face_up_pile_top_as_if_in_hand_4_4() -> None:
    deal = build(hands={1: "1S"}, piles={1: ["2H 3H KC"]})
    assert deal.available(1) & BIT[parse_card("KC")]
    run(deal, "KC")
    assert deal.trick_cards == [parse_card("KC")]
    assert deal.piles[1][0] == [parse_card("2H"), parse_card("3H")]


def test_face_down_pile_cards_cannot_be_played_4_4() -> None:
    deal = build(piles={1: ["2H 3H KC"]})
    with pytest.raises(IllegalActionError) as err:
        run(deal, "3H")
    assert err.value.rule == "rule book §4.4 available cards"
    with pytest.raises(IllegalActionError) as other:
        run(deal, "KH")  # the opponent's card
    # the same refusal wherever the unseen card lies: it must not tell what is under his piles
    assert other.value.reason == err.value.reason.replace("3H", "KH")


def test_must_follow_suit_with_a_pile_top_3_8_4_4() -> None:
    # seat 0 has no heart in hand, but one face up on a pile: it must play it
    deal = build(hands={1: "1H 2H 3H 4H 5H 6H 7H 8H 9H 10H JH CH QH", 0: "T2"}, piles={0: ["1S 2S KH"]})
    run(deal, "5H")
    assert [a.card for a in deal.legal_actions()] == [parse_card("KH")]
    with pytest.raises(IllegalActionError) as err:
        run(deal, "T2")
    assert err.value.rule == "rule book §3.8 step 3: must follow suit"


def test_face_down_cards_do_not_oblige_to_follow_4_4() -> None:
    # seat 0's only hearts lie face down: it is void, so it must trump
    hearts_down = ["1H 2H 3S", "3H 4H 4S", "6H 7H 5S", "8H 9H 6S", "10H JH 7S", "CH QH 8S"]
    deal = build(hands={1: "5H KH", 0: "T2"}, piles={0: hearts_down}, dealer=0)
    run(deal, "5H")
    legal = deal.legal_play_mask()
    assert legal == deal.available(0) & CardSet.parse(" ".join(f"T{i}" for i in range(1, 22)) + " EX").mask
    assert legal & BIT[parse_card("T2")]


def test_must_overtrump_over_hand_and_pile_tops_3_8_4_4() -> None:
    deal = build(hands={1: "T10", 0: "T3"}, piles={0: ["1S 2S T15"]}, dealer=0)
    run(deal, "T10")
    legal = CardSet(deal.legal_play_mask())
    assert parse_card("T15") in legal and parse_card("T3") not in legal


def test_card_beneath_is_turned_up_at_the_end_of_the_trick_4_4() -> None:
    deal = build(hands={0: "1S"}, piles={1: ["2H 3H KS"]}, dealer=0)
    run(deal, "KS")
    beneath = parse_card("3H")
    # during the trick the card beneath is neither playable nor shown to anyone
    assert not deal.tops[1] & BIT[beneath]
    assert deal.view(0).opponent_tops[0] is None and deal.view(1).own_tops[0] is None
    assert not [e for e in deal.events if e.kind == "turn_up"]
    run(deal, "1S")
    assert deal.tops[1] & BIT[beneath]
    assert deal.events[-1] == TurnedUp(1, beneath)
    assert deal.view(0).opponent_tops[0] == beneath


def test_a_used_up_pile_turns_nothing_up_4_4() -> None:
    deal = build(hands={0: "1S 1H 1D"}, piles={1: ["KS KH KD"]})
    run(deal, "KD", "1D", "KH")  # seat 1 wins and leads again from the pile
    run(deal, "1H", "KS", "1S")
    assert deal.piles[1][0] == [] and deal.view(1).own_tops[0] is None
    assert deal.view(0).opponent_pile_sizes[0] == 0


def test_the_winner_of_a_trick_leads_the_next_3_8() -> None:
    deal = build(hands={1: "2S", 0: "KS"}, dealer=0)
    run(deal, "2S", "KS")
    assert deal.trick_winners == [0] and deal.current_player == 0


def test_39_tricks_of_2_cards_4_4() -> None:
    deal = TwoPlayerDeal.new(Rules(players=2), 0, 11)
    deal.play_out(random.Random(11))
    assert len(deal.tricks) == 39 and all(len(cards) == 2 for _, cards, _ in deal.tricks)
    assert deal.hands == [0, 0] and deal.tops == [0, 0]


def test_threshold_0_oudlers_55_is_refused_with_2_players_4_4() -> None:
    with pytest.raises(RulesError):
        Rules(players=2, threshold_0_oudlers=55)


def test_the_engine_needs_two_players_4_4() -> None:
    with pytest.raises(RulesError):
        TwoPlayerDeal.new(Rules(players=3))


def test_illegal_action_names_the_rule_and_changes_nothing_4_4() -> None:
    deal = build(hands={1: "5H KH", 0: "2H T2"})
    run(deal, "5H")
    before = (deal.history.copy(), deal.hands.copy(), deal.tops.copy(), deal.trick_cards.copy(), deal.events)
    for word in ("T2", "KH", "garde", "chelem", "discard 2H"):
        with pytest.raises(IllegalActionError) as err:
            run(deal, word)
        assert err.value.rule.startswith(("rule book", "actions"))
    assert before == (deal.history, deal.hands, deal.tops, deal.trick_cards, deal.events)


def test_the_deal_refuses_actions_once_over_4_4() -> None:
    deal = TwoPlayerDeal.new(Rules(players=2), 0, 2)
    deal.play_out(random.Random(2))
    with pytest.raises(IllegalActionError) as err:
        deal.apply(ACTIONS[0])
    assert "over" in err.value.reason
    assert deal.legal_actions() == []


def test_parse_and_action_name_read_and_write_card_words() -> None:
    deal = TwoPlayerDeal.new(Rules(players=2), 0, 2)
    assert deal.parse("ks") == ACTIONS[parse_card("KS")]
    assert TwoPlayerDeal.action_name(parse_card("T21")) == "play T21"
    assert deal.action_name(NO_CHELEM) == "no_chelem"
    with pytest.raises(ValueError):
        deal.action_name(10_000)


def test_clone_is_independent() -> None:
    deal = TwoPlayerDeal.new(Rules(players=2), 0, 9)
    copy = deal.clone()
    copy.play_out(random.Random(1))
    assert deal.history == [] and len(deal.events) == 0 and all(len(p) == 3 for p in deal.piles[0])
    deal.play_out(random.Random(1))
    assert deal.events == copy.events and deal.scores() == copy.scores()


def test_play_out_draws_like_a_legal_actions_driver() -> None:
    for seed in range(20):
        rules = Rules(players=2, two_player_chelem=seed % 2 == 0)
        fast = TwoPlayerDeal.new(rules, seed % 2, seed)
        slow = fast.clone()
        fast.play_out(random.Random(seed))
        rng = random.Random(seed)
        while not slow.is_over():
            legal = slow.legal_actions()
            slow.apply(legal[int(rng.random() * len(legal))])
        assert slow.history == fast.history and slow.events == fast.events


def test_from_dealt_rebuilds_the_layout() -> None:
    deal = TwoPlayerDeal.new(Rules(players=2), 1, 8)
    again = TwoPlayerDeal.from_dealt(Rules(players=2), 1, deal.dealt())
    assert again.dealt() == deal.dealt() and again.piles == deal.piles and again.hands == deal.hands


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.pop("hands"), "hands"),
        (lambda d: d["hands"][0].pop(), "hands[0]"),
        (lambda d: d["hands"][1].__setitem__(3, "ZZ"), "hands[1][3]"),
        (lambda d: d["hands"][1].__setitem__(3, d["hands"][1][4]), "hands[1]"),
        (lambda d: d["piles"][1].pop(), "piles[1]"),
        (lambda d: d["piles"][0][2].append("KS"), "piles[0][2]"),
        (lambda d: d["piles"][0][2].__setitem__(0, 7), "piles[0][2][0]"),
        (lambda d: d["piles"][0][2].__setitem__(0, d["hands"][0][0]), "piles[0][2]"),
        (lambda d: d["face_up"][0].__setitem__(0, d["piles"][0][0][0]), "face_up"),
        (lambda d: d["face_up"].pop(), "face_up"),
    ],
)
def test_from_dealt_names_the_bad_field(change: object, field: str) -> None:
    data = TwoPlayerDeal.new(Rules(players=2), 0, 4).dealt()
    change(data)  # type: ignore[operator]
    with pytest.raises(ValueError) as err:
        TwoPlayerDeal.from_dealt(Rules(players=2), 0, data)
    assert str(err.value).startswith(field)


def test_the_examples_of_docs_two_player_run_as_written() -> None:
    path = Path(__file__).resolve().parents[2] / "docs" / "two-player.md"
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10 and result.failed == 0

"""rule book §5.4: forehand leads, follow suit, trump when void, beat a trump in the trick, Sküs,
the red suits' order, and 16 tricks."""

from __future__ import annotations

import random

import pytest

from atout.cards import card_name
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.errors import IllegalActionError
from atout.engine.phase import Phase

from .conftest import PLAY_HANDS, PLAY_TALON, build, names, run, snapshot

RED_HANDS = {
    0: "2H 3D KS QS CS JS 10S 9S 8S 7S T21 T20 T19 T18 T17 T16",
    1: "1H 4D KC QC CC JC 10C 9C 8C 7C T2 T3 T4 T5 T6 T7",
    2: "4H 1D KH QH CH JH 3H 2D JD CD QD KD T8 T9 T10 T11",
}
RED_TALON = ("T1 T12 T13", "T14 T15 EX")
NO_TRUMP_HANDS = {
    0: "KS QS CS JS 10S 9S 8S 7S T21 T20 T19 T18 T17 T16 T15 T14",
    1: "KH QH CH JH 1H 2H 3H 4H KD QD CD JD 1D 2D 3D 4D",
    2: "KC QC CC JC 10C 9C 8C 7C T1 T2 T3 T4 T5 T6 T7 T8",
}
NO_TRUMP_TALON = ("T9 T10 T11", "T12 T13 EX")


def playing(
    hands: dict[int, str], talon: tuple[str, str], bidder: int = 0, **options: object
) -> AustrianDeal:
    """A solo by ``bidder`` with game 1; seat 0 (forehand) is then to lead."""
    bids = ["solo" if seat == bidder else "pass" for seat in range(3)]
    deal = run(build(hands, talon, **options), *bids, "36_or_more")
    assert deal.phase is Phase.PLAY and deal.current_player == 0
    return deal


def legal(deal: AustrianDeal) -> set[str]:
    return names(deal.legal_play_mask())


@pytest.mark.parametrize("bidder", [0, 1, 2])
def test_forehand_leads_the_first_trick_whoever_declares_5_4(bidder: int) -> None:
    deal = playing(PLAY_HANDS, PLAY_TALON, bidder)
    assert deal.trick_leader == 0 and legal(deal) == names(deal.hands[0])


def test_play_goes_counterclockwise_5_4() -> None:
    deal = run(playing(PLAY_HANDS, PLAY_TALON), "8S")
    assert deal.current_player == 1
    run(deal, "T2")
    assert deal.current_player == 2


def test_must_follow_suit_5_4() -> None:
    deal = run(playing(PLAY_HANDS, PLAY_TALON), "1H")
    assert legal(deal) == {"KH", "QH", "CH", "JH"}
    before = snapshot(deal)
    with pytest.raises(IllegalActionError, match="must follow suit") as exc:
        run(deal, "T10")
    assert exc.value.rule == "rule book §5.4 follow suit"
    assert snapshot(deal) == before


def test_void_in_the_suit_led_must_trump_5_4() -> None:
    deal = run(playing(PLAY_HANDS, PLAY_TALON), "8S")
    assert legal(deal) == {"T2", "T3", "T4", "T10"}
    with pytest.raises(IllegalActionError, match="must trump") as exc:
        run(deal, "KH")
    assert exc.value.rule == "rule book §5.4 must trump"


def test_a_trump_played_to_a_trumped_trick_must_beat_it_5_4() -> None:
    deal = run(playing(PLAY_HANDS, PLAY_TALON), "8S", "T10")
    assert legal(deal) == {"T11", "T12", "EX"}
    before = snapshot(deal)
    with pytest.raises(IllegalActionError, match="must beat") as exc:
        run(deal, "T5")
    assert exc.value.rule == "rule book §5.4 must overtrump (austrian_must_overtrump)"
    assert snapshot(deal) == before


def test_a_trump_lead_must_be_beaten_if_able_and_any_trump_otherwise_5_4() -> None:
    deal = run(playing(PLAY_HANDS, PLAY_TALON), "T18")
    assert legal(deal) == {"T2", "T3", "T4", "T10"}  # none beats the 18
    run(deal, "T2")
    assert legal(deal) == {"EX"}  # only Sküs beats the 18


def test_no_duty_to_overtrump_under_the_option_6_2_a2() -> None:
    deal = run(playing(PLAY_HANDS, PLAY_TALON, austrian_must_overtrump=False), "8S", "T10")
    assert legal(deal) == {"T5", "T6", "T7", "T8", "T9", "T11", "T12", "EX"}
    run(deal, "T5")
    assert deal.tricks[-1][2] == 1  # the 10 holds the trick


def test_skus_is_the_top_trump_and_wins_the_trick_5_4() -> None:
    deal = run(playing(PLAY_HANDS, PLAY_TALON), "T21", "T2", "EX")
    assert deal.tricks[-1] == ((0, 1, 2), (76, 57, 77), 2)
    assert deal.current_player == 2 and deal.trick_leader == 2


def test_void_without_trumps_plays_any_card_and_cannot_win_5_4() -> None:
    deal = run(playing(NO_TRUMP_HANDS, NO_TRUMP_TALON), "7S")
    assert legal(deal) == names(deal.hands[1])
    run(deal, "KH")
    assert legal(deal) == {f"T{i}" for i in range(1, 9)}
    run(deal, "T1")
    assert deal.tricks[-1][2] == 2


def test_spade_trick_won_by_the_highest_spade_5_4() -> None:
    deal = run(playing(NO_TRUMP_HANDS, NO_TRUMP_TALON), "7S", "KH", "T2", "T8", "T21")
    # seat 2 won with T2 and led T8; seat 0 beat it with T21; seat 1 has no trump
    assert deal.current_player == 1 and legal(deal) == names(deal.hands[1])


def test_red_suit_trick_is_won_by_the_1_over_the_4_1_2_5_4() -> None:
    deal = run(playing(RED_HANDS, RED_TALON), "2H")
    assert legal(deal) == {"1H"}
    run(deal, "1H")
    assert "4H" in legal(deal) and "T8" not in legal(deal)
    run(deal, "4H")
    assert deal.tricks[-1][2] == 1  # the 1 of hearts, not the 4 (the higher bit)
    assert deal.current_player == 1
    run(deal, "4D", "1D", "3D")
    assert deal.tricks[-1][2] == 2
    assert [card_name(c) for c in deal.tricks[-1][1]] == ["4D", "1D", "3D"]


def test_the_trick_winner_leads_the_next_trick_and_the_deal_has_16_tricks_5_4() -> None:
    deal = playing(PLAY_HANDS, PLAY_TALON)
    deal.play_out(random.Random(7))
    assert len(deal.tricks) == 16 and deal.hands == [0, 0, 0]
    for (_, _, winner), (seats, _, _) in zip(deal.tricks, deal.tricks[1:], strict=False):
        assert seats[0] == winner
    assert deal.is_over() and deal.outcome == "played" and deal.current_player == -1
    with pytest.raises(IllegalActionError, match="over") as exc:
        deal.apply(0)
    assert exc.value.rule == "rule book §5.4 16 tricks"


def test_a_card_not_held_is_refused_5_4() -> None:
    deal = playing(PLAY_HANDS, PLAY_TALON)
    with pytest.raises(IllegalActionError, match="does not hold KH"):
        run(deal, "KH")
    with pytest.raises(IllegalActionError, match="play phase"):
        run(deal, "discard 8S")


@pytest.mark.parametrize("action", [-1, 163, 10**6, "KS", None])
def test_non_actions_are_refused(action: object) -> None:
    deal = playing(PLAY_HANDS, PLAY_TALON)
    before = snapshot(deal)
    with pytest.raises(IllegalActionError, match="not an action of Austrian Tarock") as exc:
        deal.apply(action)  # type: ignore[arg-type]
    assert exc.value.rule == "actions" and snapshot(deal) == before


def test_clockwise_play_goes_to_the_left() -> None:
    deal = run(build(PLAY_HANDS, PLAY_TALON, dealer=1, play_direction="clockwise"), "solo", "pass", "pass")
    run(deal, "36_or_more")
    assert deal.current_player == 0
    run(deal, "8S")
    assert deal.current_player == 2

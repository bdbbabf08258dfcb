"""rule book §7: the house variants the engine plays, each against the deal without it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from atout.cards import PETIT, PETIT_MASK, CardSet, card_name
from atout.engine import FrenchDeal, IllegalActionError, Phase
from atout.engine.events import PetitImprenable, visible_to
from atout.scoring import score

from .conftest import MakeDeal

Act = Callable[..., FrenchDeal]

PETIT_SEC = "T1 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS CS QS KS 1H 2H 3H"
EXCUSE_SEC = "EX 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS CS QS KS 1H 2H 3H"


def kinds(deal: FrenchDeal) -> list[str]:
    return [e.kind for e in deal.events]


# ---------------------------------------------------------------- V4 Excuse-only redeal
def test_excuse_sec_may_cancel_the_deal_before_bidding_7_v4(make_deal: MakeDeal, act: Act) -> None:
    plain = make_deal(hands={2: EXCUSE_SEC})
    assert plain.phase is Phase.BIDDING  # without the option there is nothing to decide
    deal = make_deal(hands={2: EXCUSE_SEC}, excuse_sec_redeal=True)
    # every seat is asked in bidding order; only the holder may show it
    for seat in (0, 1):
        assert deal.phase is Phase.EXCUSE_SEC and deal.current_player == seat
        assert [str(a) for a in deal.legal_actions()] == ["keep_hand"]
        act(deal, "no")
    assert deal.phase is Phase.EXCUSE_SEC and deal.current_player == 2
    assert [str(a) for a in deal.legal_actions()] == ["keep_hand", "excuse_sec"]
    act(deal, "excuse_sec")
    assert deal.is_over() and deal.outcome.startswith("excuse sec: seat 2")
    assert deal.scores() == [0, 0, 0, 0] and kinds(deal)[0] == "excuse_sec"


def test_keeping_an_excuse_sec_goes_on_to_the_bidding_7_v4(make_deal: MakeDeal, act: Act) -> None:
    deal = make_deal(hands={2: EXCUSE_SEC}, excuse_sec_redeal=True)
    act(deal, "no", "no", "no", "no")
    assert deal.phase is Phase.BIDDING and deal.current_player == 0
    assert deal.history == [int(deal.parse("keep_hand"))] * 4


def test_only_an_excuse_sec_may_cancel_the_deal_7_v4(make_deal: MakeDeal) -> None:
    deal = make_deal(hands={2: EXCUSE_SEC}, excuse_sec_redeal=True)
    with pytest.raises(IllegalActionError, match="only a hand whose one trump is the Excuse"):
        deal.apply(deal.parse("excuse_sec"))
    assert deal.history == [] and deal.current_player == 0


# ---------------------------------------------------------------- V3 petit imprenable
def imprenable(make_deal: MakeDeal, act: Act, timing: str = "before_first_trick") -> FrenchDeal:
    deal = make_deal(hands={1: PETIT_SEC}, petit_sec_rule="petit_imprenable", petit_imprenable_timing=timing)
    return act(deal, "garde_sans", "pass", "pass", "pass", "no_chelem")


def test_petit_imprenable_replaces_the_cancellation_7_v3(make_deal: MakeDeal) -> None:
    assert make_deal(hands={1: PETIT_SEC}).is_over()  # FFT: the deal is cancelled
    deal = make_deal(hands={1: PETIT_SEC}, petit_sec_rule="petit_imprenable")
    assert deal.phase is Phase.BIDDING


def test_petit_imprenable_is_declared_before_the_first_trick_7_v3(make_deal: MakeDeal, act: Act) -> None:
    deal = imprenable(make_deal, act)
    events = [e for e in deal.events if e.kind == "petit_imprenable"]
    assert events == [PetitImprenable(1)] and visible_to(events[0]) is None


def test_petit_imprenable_declared_when_played_variant_7_v3(make_deal: MakeDeal, act: Act) -> None:
    deal = imprenable(make_deal, act, timing="when_played")
    assert "petit_imprenable" not in kinds(deal)
    act(deal, str(deal.legal_actions()[0]))
    assert deal.current_player == 1
    act(deal, "T1")
    assert kinds(deal).count("petit_imprenable") == 1


def test_petit_imprenable_plays_like_the_excuse_7_v3(make_deal: MakeDeal, act: Act) -> None:
    deal = imprenable(make_deal, act)
    lead = next(a for a in deal.legal_actions() if card_name(a.card or 0)[-1] == "H")
    act(deal, str(lead))
    # seat 1 holds hearts, yet the Petit may go on a heart lead; it does not fix or follow a suit
    assert PETIT in CardSet(deal.legal_play_mask())
    act(deal, "T1")
    assert deal.led_suit == 1
    while deal.trick_no == 0:
        deal.apply(deal.legal_actions()[0])
    assert deal.trick_winners[0] != 1  # the Petit never wins a trick
    assert deal.won[1] & PETIT_MASK  # it goes back to its holder's side


def test_petit_imprenable_never_gives_a_petit_au_bout_7_v3(make_deal: MakeDeal, act: Act) -> None:
    deal = imprenable(make_deal, act)
    while not deal.is_over():
        legal = deal.legal_actions()
        deal.apply(
            legal[0] if deal.current_player != 1 else min(legal, key=lambda a: -1 if a.card == PETIT else 0)
        )
    last_cards = deal.tricks[-1][1]
    assert deal.summary is not None and deal.summary.petit_au_bout is None
    # wherever it was played, it came back to its holder, even from the last trick
    assert deal.won[1] & PETIT_MASK
    assert PETIT not in last_cards or deal.trick_winners[-1] != 1


def test_petit_imprenable_lapses_when_the_chien_gives_a_trump_7_v3(make_deal: MakeDeal, act: Act) -> None:
    hand = "T1 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS CS QS 1H 2H 3H 4H"
    deal = make_deal(hands={0: hand}, chien="T2 KD 5H 6H 7H 8H", petit_sec_rule="petit_imprenable")
    act(deal, "petite", "pass", "pass", "pass")
    act(deal, "1S", "2S", "3S", "4S", "5S", "6S", "no_chelem")
    act(deal, "T2")  # the taker leads: an ordinary trump now; the Petit must follow trumps too
    assert "petit_imprenable" not in kinds(deal)


# ---------------------------------------------------------------- V5 misère
NO_TRUMP_HAND = "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H 2H 3H 4H 5H 6H 7H 8H"


def test_misere_is_declared_just_before_the_first_card_7_v5(make_deal: MakeDeal, act: Act) -> None:
    plain = act(make_deal(hands={1: NO_TRUMP_HAND}), "garde_sans", "pass", "pass", "pass", "no_chelem")
    assert Phase.MISERE not in {plain.phase}
    deal = make_deal(hands={1: NO_TRUMP_HAND}, misere_bonus=10)
    act(deal, "garde_sans", "pass", "pass", "pass", "no_chelem")
    act(deal, str(deal.legal_actions()[0]))
    assert deal.phase is Phase.MISERE and deal.current_player == 1
    offered = [str(a) for a in deal.legal_actions()]
    assert offered == ["no_misere", "misere no_trumps", "misere no_courts", "misere both"]
    act(deal, "misere both")
    assert deal.phase is Phase.PLAY and deal.misere == [(1, "both")]
    while not deal.is_over():
        deal.apply(deal.legal_actions()[0])
    assert deal.summary is not None and [(m.seat, m.kind) for m in deal.summary.misere] == [(1, "both")]
    assert score(deal.summary) == deal.scores()


def test_misere_both_required_variant_7_v5(make_deal: MakeDeal, act: Act) -> None:
    courts_no_trumps = "KS 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H 2H 3H 4H 5H 6H 7H 8H"
    deal = make_deal(hands={1: courts_no_trumps}, misere_bonus=10, misere_kinds="both_required")
    act(deal, "garde_sans", "pass", "pass", "pass", "no_chelem")
    act(deal, str(deal.legal_actions()[0]))
    assert deal.phase is Phase.PLAY  # no trumps but a king: no misère under both_required
    deal = make_deal(hands={1: NO_TRUMP_HAND}, misere_bonus=10, misere_kinds="both_required")
    act(deal, "garde_sans", "pass", "pass", "pass", "no_chelem")
    act(deal, str(deal.legal_actions()[0]))
    assert [str(a) for a in deal.legal_actions()] == ["no_misere", "misere both"]
    with pytest.raises(IllegalActionError, match="V5"):
        act(deal, "misere no_trumps")


def test_misere_moves_ten_points_from_each_other_player_7_v5(make_deal: MakeDeal, act: Act) -> None:
    def played(bonus: int) -> list[int]:
        deal = (
            make_deal(hands={1: NO_TRUMP_HAND}, misere_bonus=bonus)
            if bonus
            else make_deal(hands={1: NO_TRUMP_HAND})
        )
        act(deal, "garde_sans", "pass", "pass", "pass", "no_chelem")
        while not deal.is_over():
            legal = deal.legal_actions()
            deal.apply(legal[1] if deal.phase is Phase.MISERE else legal[0])
        return deal.scores()

    without, with_misere = played(0), played(10)
    assert [b - a for a, b in zip(without, with_misere, strict=True)] == [-10, 30, -10, -10]


# ---------------------------------------------------------------- V6 partial slam
def test_partial_slam_is_announced_only_with_the_option_7_v6(make_deal: MakeDeal, act: Act) -> None:
    deal = act(make_deal(), "garde_sans", "pass", "pass", "pass")
    assert "partial_slam" not in [str(a) for a in deal.legal_actions()]
    with pytest.raises(IllegalActionError, match="V6"):
        act(deal, "partial_slam")
    deal = act(make_deal(partial_slam={"max_missing": 3}), "garde_sans", "pass", "pass", "pass")
    act(deal, "partial_slam")
    assert deal.partial_slam_announced and not deal.chelem_announced
    while not deal.is_over():
        deal.apply(deal.legal_actions()[0])
    summary = deal.summary
    assert summary is not None and summary.partial_slam is not None and summary.partial_slam.announced
    missing = deal.trick_winners.count(1) + deal.trick_winners.count(2) + deal.trick_winners.count(3)
    assert summary.partial_slam.made == (0 < missing <= 3)


def test_a_partial_slam_made_unannounced_is_recorded_7_v6(make_deal: MakeDeal, act: Act) -> None:
    strong = " ".join(f"T{n}" for n in range(5, 22)) + " 2C"
    deal = make_deal(hands={0: strong}, partial_slam={"max_missing": 1})
    act(deal, "garde_sans", "pass", "pass", "pass", "no_chelem")
    while not deal.is_over():
        legal = deal.legal_actions()
        deal.apply(legal[-1] if deal.current_player == 0 and deal.phase is Phase.PLAY else legal[0])
    summary = deal.summary
    assert summary is not None and deal.trick_winners.count(0) == 17
    assert summary.partial_slam is not None
    assert summary.partial_slam.made and not summary.partial_slam.announced
    plain = make_deal(hands={0: strong})
    act(plain, "garde_sans", "pass", "pass", "pass", "no_chelem")
    while not plain.is_over():
        legal = plain.legal_actions()
        plain.apply(legal[-1] if plain.current_player == 0 and plain.phase is Phase.PLAY else legal[0])
    assert plain.summary is not None and plain.summary.partial_slam is None
    assert deal.scores()[0] - plain.scores()[0] == 3 * 100  # the unannounced partial slam bonus


# ---------------------------------------------------------------- V7 clockwise play
def test_clockwise_play_turns_bidding_and_play_the_other_way_7_v7(make_deal: MakeDeal, act: Act) -> None:
    counter = make_deal(dealer=0)
    clockwise = make_deal(dealer=0, play_direction="clockwise")
    assert counter.current_player == 1 and clockwise.current_player == 3
    act(clockwise, "pass", "pass", "garde_sans", "pass", "no_chelem")
    assert clockwise.taker == 1 and clockwise.current_player == 3  # the dealer's right, clockwise
    while clockwise.trick_no == 0:
        clockwise.apply(clockwise.legal_actions()[0])
    plays = [e.seat for e in clockwise.events if e.kind == "play"]
    assert plays == [3, 2, 1, 0]

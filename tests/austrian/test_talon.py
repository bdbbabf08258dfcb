"""rule book §5.3: the talon halves in a threesome, the discard, and the unused talon of a solo."""

from __future__ import annotations

import random

import pytest

from atout.cards import card_name
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.errors import IllegalActionError
from atout.engine.events import TalonShown, visible_to
from atout.engine.phase import Phase

from .conftest import build, mask, names, run, snapshot

HANDS = {0: "KS KH T1 T21 EX 7S 8S 9S 4H 3H"}
TALON = ("QS T10 1D", "KD T11 2D")


def threesome(**options: object) -> AustrianDeal:
    return run(build(HANDS, TALON, **options), "threesome", "pass", "pass")


def test_threesome_turns_up_the_first_half_for_all_5_3() -> None:
    deal = threesome()
    assert deal.phase is Phase.TALON and deal.current_player == 0
    assert [str(a) for a in deal.legal_actions()] == ["accept_first_half", "take_second_half"]
    for seat in range(3):
        view = deal.view(seat)
        assert view.first_half == mask(TALON[0]) and view.second_half is None
        assert TalonShown(0, 1, mask(TALON[0])) == view.events[-1]


def test_accepting_the_first_half_adds_it_to_the_hand_5_3() -> None:
    deal = run(threesome(), "accept")
    assert deal.talon_half == 1 and deal.phase is Phase.DISCARD
    assert deal.hands[0].bit_count() == 19 and deal.hands[0] & mask(TALON[0]) == mask(TALON[0])
    assert deal.unused_talon() == mask(TALON[1])
    assert all(deal.view(seat).second_half is None for seat in range(3))


def test_taking_the_second_half_shows_it_to_the_declarer_only_5_3() -> None:
    deal = run(threesome(), "take_second_half")
    assert deal.talon_half == 2 and deal.hands[0] & mask(TALON[1]) == mask(TALON[1])
    assert deal.hands[0] & mask(TALON[0]) == 0 and deal.unused_talon() == mask(TALON[0])
    assert deal.view(0).second_half == mask(TALON[1])
    assert deal.view(1).second_half is None and deal.view(2).second_half is None
    private = deal.events[-1]
    assert private.kind == "talon_seen" and visible_to(private) == 0
    assert private not in deal.view(1).events


def test_discard_3_no_kings_5_3() -> None:
    deal = run(threesome(), "accept")
    assert names(deal.discard_mask()) == names(deal.hands[0]) - {"KS", "KH"}
    before = snapshot(deal)
    with pytest.raises(IllegalActionError, match="kings may not be discarded") as exc:
        run(deal, "KS")
    assert exc.value.rule == "rule book §5.3 discard"
    assert snapshot(deal) == before
    with pytest.raises(IllegalActionError, match="does not hold"):
        run(deal, "KD")
    run(deal, "7S", "8S")
    assert deal.phase is Phase.DISCARD
    run(deal, "9S")
    assert deal.discard == mask("7S 8S 9S") and deal.hands[0].bit_count() == 16
    assert deal.phase is Phase.GAME and deal.current_player == 0


def test_the_trull_may_be_discarded_by_default_5_3() -> None:
    deal = run(threesome(), "accept", "T1", "T21", "EX")
    assert deal.discard == mask("T1 T21 EX")


def test_forbid_trull_discard_bans_skus_21_and_pagat_6_2_a4() -> None:
    deal = run(threesome(austrian_forbid_trull_discard=True), "accept")
    assert names(deal.discard_mask()) == names(deal.hands[0]) - {"KS", "KH", "T1", "T21", "EX"}
    for card in ("T1", "T21", "EX"):
        with pytest.raises(IllegalActionError, match="trull") as exc:
            run(deal, card)
        assert "austrian_forbid_trull_discard" in exc.value.rule


def test_cards_just_taken_may_be_discarded_5_3() -> None:
    deal = run(threesome(), "accept", "QS", "T10", "1D")
    assert deal.discard == mask(TALON[0])


def test_trumps_discarded_go_face_up_other_discards_face_down_5_3() -> None:
    deal = run(threesome(), "accept", "T10", "7S", "T1")
    assert deal.view(0).discard == mask("T10 7S T1")
    for seat in (1, 2):
        view = deal.view(seat)
        assert view.discard == mask("T10 T1")
        assert [e.kind for e in view.events if e.kind.startswith("discard")] == ["discard_shown"] * 2
    assert [card_name(e.card) for e in deal.events if e.kind == "discard"] == ["T10", "7S", "T1"]


def test_second_half_visible_shows_both_halves_before_the_choice_6_2_a3() -> None:
    deal = threesome(austrian_second_half_visible=True)
    for seat in range(3):
        view = deal.view(seat)
        assert (view.first_half, view.second_half) == (mask(TALON[0]), mask(TALON[1]))
    run(deal, "take_second_half")
    assert deal.events[-1].kind == "talon_taken"  # nothing left to show privately


def test_free_choice_shows_both_halves_and_names_the_halves_6_2_a3() -> None:
    deal = threesome(austrian_talon_mode="free_choice")
    assert all(deal.view(seat).second_half == mask(TALON[1]) for seat in range(3))
    assert [deal.action_name(a) for a in deal.legal_actions()] == ["take_half_1", "take_half_2"]
    run(deal, "take_half_2")
    assert deal.talon_half == 2 and deal.unused_talon() == mask(TALON[0])


def test_solo_leaves_the_talon_unused_and_unseen_5_3() -> None:
    deal = run(build(HANDS, TALON), "solo", "pass", "pass")
    assert deal.phase is Phase.GAME and deal.hands[0].bit_count() == 16
    assert deal.talon_half is None and deal.unused_talon() == mask(" ".join(TALON))
    assert all(deal.view(s).first_half is None and deal.view(s).second_half is None for s in range(3))
    assert not any(e.kind.startswith("talon") for e in deal.events)


@pytest.mark.parametrize("owner", ["defenders", "declarer"])
def test_solo_talon_counts_for_the_defenders_or_the_declarer_by_option_5_3(owner: str) -> None:
    deal = run(build(HANDS, TALON, austrian_solo_talon=owner), "solo", "pass", "pass")
    deal.play_out(random.Random(3))
    talon = mask(" ".join(TALON))
    pile = deal.declarer_pile() if owner == "declarer" else deal.defenders_pile()
    assert pile & talon == talon
    assert (deal.declarer_pile() | deal.defenders_pile()).bit_count() == 54


def test_unused_half_counts_for_the_defenders_and_the_discard_for_the_declarer_5_5() -> None:
    deal = run(threesome(), "accept", "7S", "8S", "9S")
    deal.play_out(random.Random(1))
    assert deal.defenders_pile() & mask(TALON[1]) == mask(TALON[1])
    assert deal.declarer_pile() & mask("7S 8S 9S") == mask("7S 8S 9S")


def test_talon_choice_is_refused_outside_its_phase_5() -> None:
    deal = run(threesome(), "accept")
    with pytest.raises(IllegalActionError, match="discard phase"):
        run(deal, "take_second_half")

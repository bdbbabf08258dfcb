"""What each seat may know (rule book §5.3): its hand, the public talon halves and face-up trumps,
the cards played, and the scores at the end."""

from __future__ import annotations

import dataclasses
import random

import pytest

from atout.engine.austrian.deal import AustrianDeal

from .conftest import build, mask, run

TALON = ("QS T10 1D", "KD T11 2D")


def test_a_view_shows_its_own_hand_and_the_public_bidding() -> None:
    deal = run(build(talon=TALON), "pass", "threesome")
    view = deal.view(1)
    assert view.hand == deal.hands[1] and view.seat == 1 and view.players == 3
    assert view.bids == ((0, "pass"), (1, "threesome"))
    assert view.current_player == 2 and view.legal_actions == ()
    assert deal.view(2).legal_actions == tuple(deal.legal_actions())
    assert view.declarer is None and view.first_half is None and view.scores is None


def test_views_are_frozen() -> None:
    view = build().view(0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = 0  # type: ignore[misc]


def test_view_of_an_unknown_seat_is_refused() -> None:
    with pytest.raises(ValueError, match="seat"):
        build().view(3)


def test_cards_played_are_public() -> None:
    deal = run(build(talon=TALON), "solo", "pass", "pass", "36_or_more")
    lead = deal.legal_actions()[0]
    deal.apply(lead)
    for seat in range(3):
        assert deal.view(seat).trick == ((0, int(lead)),)
        assert deal.view(seat).played() == 1 << lead


def test_the_count_is_open_at_the_end_of_a_played_deal() -> None:
    deal = run(build(talon=TALON), "threesome", "pass", "pass", "accept")
    deal.play_out(random.Random(5))
    for seat in (1, 2):
        view = deal.view(seat)
        assert (view.first_half, view.second_half) == (mask(TALON[0]), mask(TALON[1]))
        assert view.discard == deal.discard and view.scores == tuple(deal.scores())
        assert len(view.tricks) == 16 and view.game_type is not None and view.talon_half == 1


def test_a_cancelled_deal_keeps_the_talon_hidden() -> None:
    deal = run(build(talon=TALON), "pass", "pass", "pass")
    view = deal.view(0)
    assert view.first_half is None and view.second_half is None and view.scores == (0, 0, 0)


def test_solo_talon_is_shown_to_no_one_during_play() -> None:
    deal: AustrianDeal = run(build(talon=TALON), "solo", "pass", "pass")
    assert all(deal.view(seat).first_half is None for seat in range(3))
    assert all(deal.view(seat).second_half is None for seat in range(3))

"""rule book §5.2: bidding from the dealer's right, one chance each, threesome < solo; all pass."""

from __future__ import annotations

import pytest

from atout.engine.errors import IllegalActionError
from atout.engine.phase import Phase

from .conftest import build, run, snapshot


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_bidding_starts_at_the_dealers_right_and_goes_counterclockwise_5_2(dealer: int) -> None:
    deal = build(dealer=dealer)
    order = []
    for _ in range(3):
        order.append(deal.current_player)
        run(deal, "pass")
    assert order == [(dealer + 1) % 3, (dealer + 2) % 3, dealer]


def test_clockwise_play_bids_to_the_left() -> None:
    deal = build(dealer=0, play_direction="clockwise")
    assert deal.current_player == 2
    run(deal, "pass")
    assert deal.current_player == 1


def test_threesome_then_solo_may_top_it_5_2() -> None:
    deal = build()
    assert [str(a) for a in deal.legal_actions()] == ["pass", "threesome", "solo"]
    run(deal, "threesome")
    assert [str(a) for a in deal.legal_actions()] == ["pass", "solo"]
    run(deal, "solo")
    assert [str(a) for a in deal.legal_actions()] == ["pass"]
    run(deal, "pass")
    assert deal.declarer == 1 and deal.bid == "solo"
    assert deal.bids == [(0, "threesome"), (1, "solo"), (2, "pass")]


def test_a_bid_must_top_the_last_5_2() -> None:
    deal = run(build(), "solo")
    before = snapshot(deal)
    with pytest.raises(IllegalActionError, match="must top") as exc:
        run(deal, "threesome")
    assert exc.value.rule == "rule book §5.2 bidding"
    assert snapshot(deal) == before
    run(deal, "pass", "pass")
    assert deal.declarer == 0 and deal.bid == "solo"


def test_one_chance_each_the_first_bidder_is_not_asked_again_5_2() -> None:
    deal = run(build(), "threesome", "solo", "pass")
    assert deal.phase is not Phase.BIDDING
    assert deal.declarer == 1 and deal.current_player == 1


def test_a_late_threesome_wins_the_bidding_5_2() -> None:
    deal = run(build(), "pass", "pass", "threesome")
    assert deal.declarer == 2 and deal.bid == "threesome" and deal.phase is Phase.TALON


def test_all_pass_cancels_the_deal_redeal_5_2() -> None:
    deal = run(build(), "pass", "pass", "pass")
    assert deal.is_over() and deal.summary is None
    assert deal.scores() == [0, 0, 0]
    assert "cancelled" in deal.outcome
    assert [e.kind for e in deal.events[-2:]] == ["all_passed", "end"]
    assert deal.legal_actions() == []
    with pytest.raises(IllegalActionError) as exc:
        run(deal, "pass")
    assert exc.value.rule == "rule book §5.2 all pass"


def test_bids_are_refused_outside_the_bidding_5() -> None:
    deal = run(build(), "threesome", "pass", "pass")
    with pytest.raises(IllegalActionError, match="talon phase") as exc:
        run(deal, "solo")
    assert exc.value.rule.startswith("rule book §5 order of play")


def test_scores_are_not_known_before_the_end() -> None:
    with pytest.raises(ValueError, match="not over"):
        build().scores()

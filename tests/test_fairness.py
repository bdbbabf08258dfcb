"""Every seat's view of every game is fair: it holds only what the rule book lets that seat know.

Random deals of each game and player count, under every preset that applies and one rule set
per game with the house options that add secret decisions or hidden sides (rule book §7-§8);
after every action every seat's view is scanned (:mod:`atout.games.fairness`), and on a sample of
states the acting seat's choices are checked against twin deals and its refusals for card names;
after a share of the deals, twin pairs of each kind the rules allow are played in lockstep and a
seat's streams of distinct views compared (:mod:`atout.games.twins`, tests/games/test_twins.py).
"""

from __future__ import annotations

import dataclasses
import random
import zlib
from typing import Any

import pytest

from atout.engine import FrenchDeal
from atout.games.fairness import SWEPT_GAMES, knowable, rule_sets, scan_view_object, sweep, twin_differences
from atout.rules import Rules

DEALS = 200
TWIN_RATE = 0.02
RULE_SETS: dict[str, Rules] = {
    f"{game}, {name}": rules for game in SWEPT_GAMES for name, rules in rule_sets(game).items()
}


def test_every_game_is_swept_under_its_presets_and_house_options() -> None:
    assert len(RULE_SETS) >= 25
    for game in SWEPT_GAMES:
        default = "tarock" if game == "austrian" else "fft"
        assert f"{game}, house options" in RULE_SETS and f"{game}, {default}" in RULE_SETS


@pytest.mark.parametrize("name", RULE_SETS)
def test_no_view_shows_more_than_its_seat_may_know(name: str) -> None:
    result = sweep(RULE_SETS[name], DEALS, seed=zlib.crc32(name.encode()), twin_rate=TWIN_RATE)
    assert result.leaks[:5] == [] and not result.leaks
    assert result.deals == DEALS and result.views > DEALS * 40 and result.twins > DEALS // 2
    assert result.wire_views >= result.twins  # every seat's JSON text scanned in those states
    assert result.twin_streams >= 4 and result.stream_rounds > result.twin_streams
    assert result.stream_views > result.twin_streams
    if name.endswith("house options") and not name.startswith(("french 2", "austrian")):
        # the secret decisions were met, and scanned, many times (a misère hand is rare: its
        # own test is in tests/engine/test_leaks.py)
        assert result.phases["poignee"] > DEALS and result.phases["excuse_sec"] >= 3 * DEALS


# ---------------------------------------------------------------- the scanner is not blind
def test_scanner_sees_a_chien_shown_during_the_call() -> None:
    deal = FrenchDeal.new(Rules(players=5), dealer=4, rng=1)
    for word in ("garde", "pass", "pass", "pass", "pass"):
        deal.apply(deal.parse(word))
    leaky = dataclasses.replace(deal.view(2), chien=deal.initial_chien)
    assert any(leak.startswith("chien shows") for leak in scan_view_object(deal, 2, leaky))


def test_scanner_sees_a_secret_phase_or_another_hand() -> None:
    deal = FrenchDeal.new(Rules(players=4), dealer=3, rng=2)
    view = deal.view(1)
    leaks = scan_view_object(deal, 1, dataclasses.replace(view, phase="poignee", hand=deal.hands[0]))
    assert any("decided in secret" in leak for leak in leaks)
    assert any("not its own hand" in leak for leak in leaks)


def test_twin_deals_find_choices_that_hang_on_hidden_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule that let a seat's choices hang on another's cards is caught by its twins."""
    deal = FrenchDeal.new(Rules(players=4), dealer=3, rng=3)
    assert deal.current_player == 0 and knowable(deal, 0) & deal.hands[1] == 0
    original = FrenchDeal.legal_actions

    def peeking(self: FrenchDeal) -> list[Any]:
        actions = original(self)
        return actions[:1] if self.hands[1] & 1 else actions  # hangs on seat 1 holding the 1S

    monkeypatch.setattr(FrenchDeal, "legal_actions", peeking)
    assert twin_differences(deal, 0, random.Random(0), tries=20)


def test_a_twin_cancelled_by_a_petit_sec_is_no_twin() -> None:
    """rule book §3.3: a petit sec is shown at the deal, so every seat knows there is none when the
    bidding starts; a redeal of the hidden cards that makes one is not a deal the seat may be in
    (the scanner once called the cancelled twin's empty choices a leak)."""
    deal = FrenchDeal.new(Rules(players=5), dealer=0, rng=1)
    assert not deal.is_over()
    assert twin_differences(deal, deal.current_player, random.Random(0), tries=200) == []

"""The independent bot (``magmacrunch-tarot``'s computers) seated at atout's table.

The package (the ``magmacrunch`` extra) is installed by ``make test`` and CI; the tests that need it
are marked ``magmacrunch``: skipped where it is not installed, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import random
import sys
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout.arena import ArenaSetup, run_arena
from atout.bots.magmacrunch import IndependentBotMissing, MagmacrunchBot, installed, load_rules
from atout.bots.registry import make_bot, unsupported
from atout.cards import cards_of
from atout.engine.actions import ACTIONS, ActionKind
from atout.games import new_deal
from atout.rules import Rules


@cache
def _package() -> Any:
    """The package's ``tarot.rules`` module (loaded when a test needs it, not at collection)."""
    return load_rules()


def _their_game(deal: Any, bot: MagmacrunchBot) -> Any:
    """The package's own game, dealt the same hands and dog as ``deal``."""
    pkg = _package()
    game = pkg.Game(rand=random.Random(0).random)
    game.hands = [bot._hand(h) for h in deal.hands]
    game.dog = bot._hand(deal.chien)
    game.dealer = deal.dealer
    game.current_bidder = (deal.dealer + 1) % 4
    game.phase = pkg.BIDDING
    return game


@pytest.mark.magmacrunch
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 3))
def test_the_adapter_plays_the_packages_own_game_move_for_move(seed: int, dealer: int) -> None:
    """Four adapters in atout's engine and the package's own state machine, dealt the same cards,
    make the same bids, écart, poignées and cards, and the same seat is to play at every step
    (the package's hands are kept in its deck order, as the adapter sees them)."""
    pkg = _package()
    deal = new_deal(Rules(), dealer=dealer, rng=seed)
    bots = [MagmacrunchBot(random.Random(seed + s)) for s in range(4)]
    rands = [random.Random(seed + s) for s in range(4)]
    game = _their_game(deal, bots[0])
    while not deal.is_over():
        seat = deal.current_player
        legal = deal.legal_actions()
        action = ACTIONS[bots[seat].choose(deal.view(seat), legal)]
        kind = action.kind
        if kind is ActionKind.BID:
            assert game.phase == pkg.BIDDING and game.current_bidder == seat
            theirs = pkg.ai_bid(game.hands[seat], game.highest_bid, game.taker == seat, rands[seat].random)
            assert {"PASSE": "pass", "PRISE": "petite"}.get(theirs, theirs.lower()) == action.bid
            game.bid(seat, theirs)
        elif kind is ActionKind.DISCARD:
            assert game.phase == pkg.DOG_EXCHANGE and game.taker == seat
            ours = {ACTIONS[a].card for a in _rest_of_ecart(deal, bots[seat], action)}
            chosen = pkg.ai_discards(bots[0]._hand(_mask(bots[0], game.hands[seat])))
            assert ours == {bots[0]._index_of[c.id] for c in chosen}
            assert game.discard([c.id for c in chosen])
            game.hands = [bots[0]._hand(_mask(bots[0], h)) for h in game.hands]
            continue
        elif kind is ActionKind.POIGNEE:
            found = pkg.poignee(game.hands[seat])
            assert action.poignee_level == (0 if found is None else {10: 1, 13: 2, 15: 3}[found["trumps"]])
            if seat == 0 and game.poignee_offer is not None:
                game.declare_poignee(True)
        elif kind is ActionKind.PLAY:
            assert game.phase == pkg.TRICK_PLAY and game.current == seat
            if game.poignee_offer is not None:
                game.declare_poignee(True)
            theirs = pkg.ai_card(game.hands[seat], game.trick)
            assert bots[0]._index_of[theirs] == action.card
            game.play(seat, theirs)
        deal.apply(action)
    if deal.contract is None:
        assert game.taker == -1  # both games: everybody passed (or a petit sec)
    else:
        assert game.taker == deal.taker
        assert game.trick_number > 18  # the package's game played its last trick too
        assert sum(deal.scores()) == 0


def _rest_of_ecart(deal: Any, bot: MagmacrunchBot, first: int) -> list[int]:
    """Apply the taker's écart card by card (the first already chosen); the actions applied."""
    actions = [first]
    deal.apply(first)
    while deal.legal_actions() and ACTIONS[deal.legal_actions()[0]].kind is ActionKind.DISCARD:
        seat = deal.current_player
        action = bot.choose(deal.view(seat), deal.legal_actions())
        deal.apply(action)
        actions.append(action)
    return actions


def _mask(bot: MagmacrunchBot, cards: list[Any]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << bot._index_of[card.id]
    return mask


@pytest.mark.magmacrunch
def test_it_plays_only_the_four_player_french_game() -> None:
    bot = make_bot("magmacrunch", rng=1)
    assert unsupported(bot, Rules()) is None
    for rules in (Rules(players=3), Rules(players=5), Rules(game="austrian", players=3)):
        assert "only the 4-player French game" in str(unsupported(bot, rules))
    with pytest.raises(ValueError, match="only the 4-player French game"):
        ArenaSetup(Rules(players=3), "rules", "magmacrunch", "rules", deals=1)
    three = new_deal(Rules(players=3), rng=1)
    with pytest.raises(ValueError, match="only the 4-player French game"):
        bot.choose(three.view(three.current_player), three.legal_actions())


@pytest.mark.magmacrunch
def test_it_decides_from_the_seats_view_alone() -> None:
    """Two deals that look the same from seat 1 (other hidden cards) get the same decisions."""
    deal = new_deal(Rules(), dealer=0, rng=5)
    seat = deal.current_player
    other = deal.clone()
    others = [s for s in range(4) if s != seat]
    hidden = sorted(c for s in others for c in cards_of(deal.hands[s])) + cards_of(deal.chien)
    random.Random(3).shuffle(hidden)
    for k, s in enumerate(others):
        other.hands[s] = sum(1 << c for c in hidden[18 * k : 18 * (k + 1)])
    other.chien = sum(1 << c for c in hidden[54:])
    first = MagmacrunchBot(7).choose(deal.view(seat), deal.legal_actions())
    second = MagmacrunchBot(7).choose(other.view(seat), other.legal_actions())
    assert first == second


@pytest.mark.magmacrunch
def test_the_arena_measures_rules_against_it() -> None:
    """A short duplicate match, every seat's games finished; zero-sum deal by deal."""
    report = run_arena(ArenaSetup(Rules(), "rules", "magmacrunch", "magmacrunch", deals=12, seed=2))
    assert report["deals"] == 12
    assert report["baseline_bot"] == "magmacrunch"
    assert report["candidate"]["decisions"] > 0 and report["baseline"]["decisions"] > 0


def test_without_the_package_the_message_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tarot.rules", None)  # an import of it now fails
    message = (
        r"needs the magmacrunch-tarot package \(noncommercial licence\): pip install 'atout\[magmacrunch\]'"
    )
    with pytest.raises(IndependentBotMissing, match=message):
        make_bot("magmacrunch")
    assert not installed()

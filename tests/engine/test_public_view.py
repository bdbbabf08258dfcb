"""The public view (``deal.public_view()``): what a spectator may know, in every game and preset.

It holds no hand and no legal action, the phase as any seat not deciding sees it, the events
as anyone but the taker sees them, the partner once the sides are public and, in the 2-player
game, the face-up cards only; it travels on the wire with ``"seat": null``. The fairness
scanner judges every state of random deals, and twin deals that differ only in cards no
spectator sees give the same public stream (``tests/games/test_twins.py``); here, that a
public view which shows more is caught.
"""

from __future__ import annotations

import dataclasses
import json
import random
from importlib.resources import files
from typing import Any

import jsonschema
import pytest

from atout.cards import TRUMPS_MASK
from atout.engine.dead_player import DeadPlayerDeal
from atout.engine.french import FrenchDeal
from atout.engine.phase import Phase
from atout.engine.two_player import TwoPlayerDeal
from atout.engine.view import PUBLIC_SEAT
from atout.engine.wire import WireError, apply_view_delta, view_delta, view_from_json
from atout.games import new_deal
from atout.games.fairness import SWEPT_GAMES, rule_sets, scan_view, scan_wire_view
from atout.games.twins import make_pair, stream_differences
from atout.presets import rules_for
from atout.rules import Rules

from .conftest import build_deal, run

SCHEMA = json.loads(files("atout").joinpath("schema/view.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
RULE_SETS = {f"{game}, {name}": rules for game in SWEPT_GAMES for name, rules in rule_sets(game).items()}
POIGNEE = "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12"


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_the_public_view_shows_what_anyone_may_know(name: str) -> None:
    """Over whole random deals: no leak by the scanner (view and wire text), no hand, no legal
    action, ``seat`` null on the wire, the schema's shape, read back equal, and each public view
    rebuilt from the one before by its delta."""
    rules = RULE_SETS[name]
    for seed in range(2):
        rng = random.Random(seed)
        deal = new_deal(rules, dealer=seed % rules.players, rng=rng)
        before = deal.public_view()
        held = before.to_json()
        while True:
            view = deal.public_view()
            assert view.seat == PUBLIC_SEAT and view.hand == 0 and view.legal_actions == ()
            assert scan_view(deal, PUBLIC_SEAT) == []
            if len(deal.history) % 4 == 0:
                assert scan_wire_view(deal, PUBLIC_SEAT) == []
            data = view.to_json()
            assert data["seat"] is None and data["hand"] == []
            if deal.is_over() or len(deal.history) % 16 == 0:  # the schema: a few states a deal
                VALIDATOR.validate(data)
            assert view_from_json(json.loads(json.dumps(data))) == view
            held = apply_view_delta(held, view_delta(before, view))
            assert held == data
            before = view
            if deal.is_over():
                break
            deal.apply(rng.choice(deal.legal_actions()))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_public_view_is_a_bystanders_view_without_hand(players: int) -> None:
    """French Tarot: the public view is the view of a seat that neither decides, nor took, nor
    was called, less its hand: the same phase, events, chien, écart and partner."""
    for seed in range(4):
        rng = random.Random(seed)
        deal = new_deal(Rules(players=players), dealer=seed % players, rng=rng)
        assert isinstance(deal, FrenchDeal)
        while not deal.is_over():
            insiders = {deal.current_player, deal.taker, deal.partner}
            bystanders = [s for s in range(players) if s not in insiders]
            if bystanders:
                seen = dataclasses.replace(deal.view(bystanders[0]), seat=PUBLIC_SEAT, hand=0)
                assert deal.public_view() == seen
            deal.apply(rng.choice(deal.legal_actions()))


def test_a_poignee_weighed_in_secret_shows_play_to_the_public() -> None:
    """rule book §3.7: while a seat weighs a poignée the public sees the play and that seat to play."""
    deal = run(build_deal(4, hands={0: POIGNEE}), "pass", "garde_sans", "pass", "pass", "no_chelem")
    assert deal.phase is Phase.POIGNEE
    public = deal.public_view()
    assert (public.phase, public.current_player, public.legal_actions) == (Phase.PLAY, 0, ())


def test_the_taker_s_ecart_stays_hidden_but_its_trumps() -> None:
    """rule book §3.5: only the trumps laid in the écart are shown, the rest at the count."""
    deal = run(build_deal(4), "pass", "garde", "pass", "pass")
    while deal.phase is Phase.DISCARD:
        deal.apply(deal.legal_actions()[0])
    public = deal.public_view()
    assert deal.ecart and public.ecart == deal.ecart & TRUMPS_MASK
    assert "discard" not in [e.kind for e in public.events]
    assert "discard" in [e.kind for e in deal.view(deal.taker).events]
    assert scan_view(deal, PUBLIC_SEAT) == []


def test_the_dead_player_sees_the_public_view() -> None:
    """rule book §4.3 mode B: the dead dealer holds nothing and sees what is public."""
    rules = Rules(players=5, five_player_mode="dead_player")
    rng = random.Random(5)
    deal = new_deal(rules, dealer=2, rng=rng)
    assert isinstance(deal, DeadPlayerDeal)
    while not deal.is_over():
        assert dataclasses.replace(deal.view(2), seat=PUBLIC_SEAT) == deal.public_view()
        deal.apply(rng.choice(deal.legal_actions()))


def test_the_two_player_public_view_shows_the_face_up_cards_only() -> None:
    """rule book §4.4: the face-up pile tops of both players (seat 0's as ``own``), no hand."""
    deal = new_deal(Rules(players=2), rng=3)
    assert isinstance(deal, TwoPlayerDeal)
    public, first, second = deal.public_view(), deal.view(0), deal.view(1)
    assert public.hand == 0 and public.own_tops == first.own_tops == second.opponent_tops
    assert public.opponent_tops == second.own_tops


def test_a_seat_below_zero_is_refused_on_the_wire() -> None:
    data = new_deal(Rules(players=4), rng=1).public_view().to_json()
    with pytest.raises(WireError, match="seat"):
        view_from_json({**data, "seat": -1})
    assert view_from_json({**data, "seat": None}).seat == PUBLIC_SEAT


# ---------------------------------------------------------------- the check has teeth
def _leaky(original: Any, **changes: Any) -> Any:
    def view(self: FrenchDeal, seat: int) -> Any:
        out = original(self, seat)
        if seat != PUBLIC_SEAT:
            return out
        shown = {k: v(self) if callable(v) else v for k, v in changes.items()}
        return dataclasses.replace(out, **shown)

    return view


@pytest.mark.parametrize(
    "changes",
    [
        {"hand": lambda deal: deal.hands[0]},
        {"ecart": lambda deal: deal.ecart},
        {"phase": lambda deal: deal.phase},
    ],
    ids=["a hand", "the whole ecart", "the secret phase"],
)
def test_a_public_view_that_shows_more_is_caught(
    changes: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A public view showing a hand, the écart's plain cards or a poignée being weighed makes
    the spectator's twin streams differ (or the scanner cry) in some pair."""
    monkeypatch.setattr(FrenchDeal, "_view", _leaky(FrenchDeal._view, **changes))
    rules = RULE_SETS["french 4, house options"]
    rng = random.Random(7)
    caught = 0
    for kind in ("random_swap", "poignee_threshold", "misere"):
        for _ in range(6):
            pair = make_pair(rules, kind, rng, spectator=True)
            assert pair is not None and pair.seat == PUBLIC_SEAT
            caught += bool(stream_differences(pair, rng)[2])
    deal = run(build_deal(4), "pass", "garde", "pass", "pass")  # and the scanner, over a garde
    while not deal.is_over():
        caught += bool(scan_view(deal, PUBLIC_SEAT))
        deal.apply(rng.choice(deal.legal_actions()))
    assert caught


def test_rules_for_every_preset_are_swept() -> None:
    assert len(RULE_SETS) >= 12 and "austrian, tarock" in RULE_SETS
    assert rules_for("tarock").game == "austrian"

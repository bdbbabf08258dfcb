"""Leaks once found in the seat views, each shut: a view holds only what its seat may know.

Each test names the rule the leak broke; :mod:`atout.games.fairness` is the judge where it fits.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from atout.cards import BIT, EXCUSE, TRUMPS_MASK
from atout.engine import FrenchDeal, IllegalActionError, Phase
from atout.engine.austrian.view import AustrianView
from atout.engine.dead_player import DeadPlayerDeal
from atout.engine.two_player import TwoPlayerDeal, TwoPlayerView
from atout.engine.view import SeatView
from atout.games import Deal, new_deal
from atout.games.fairness import knowable, scan_card_names, scan_view, twin_differences
from atout.presets import rules_for
from atout.rules import Rules

from .conftest import build_deal, run

PETIT_SEC = "T1 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS CS QS KS 1H 2H 3H"
EXCUSE_SEC = "EX 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS CS QS KS 1H 2H 3H"
POIGNEE = "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12"
NO_TRUMPS = "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS CS QS KS 1H 2H 3H 4H"


def no_leaks(deal: Deal) -> None:
    for seat in range(deal.n):
        assert scan_view(deal, seat) == []


# ---------------------------------------------------------------- 1. the chien during the call
@pytest.mark.parametrize("contract", ["petite", "pousse", "garde"])
def test_five_player_chien_hidden_during_call(contract: str) -> None:
    """rule book §4.3: the taker calls before the chien is turned; nobody sees it before."""
    deal = run(build_deal(5, bid_pousse=True), contract, "pass", "pass", "pass", "pass")
    assert deal.phase is Phase.CALL
    assert [deal.view(s).chien for s in range(5)] == [None] * 5
    no_leaks(deal)
    deal.apply(deal.legal_actions()[0])  # the call: now the chien is turned for all
    assert [deal.view(s).chien for s in range(5)] == [deal.initial_chien] * 5
    no_leaks(deal)


# ---------------------------------------------------------------- 2. private decisions
def test_pending_poignee_hidden_from_other_seats() -> None:
    """rule book §3.7: a poignée is weighed in secret; the others see seat 0 to play."""
    deal = run(build_deal(4, hands={0: POIGNEE}), "pass", "garde_sans", "pass", "pass", "no_chelem")
    assert deal.phase is Phase.POIGNEE and deal.current_player == 0
    assert deal.view(0).phase == "poignee"
    for seat in (1, 2, 3):
        view = deal.view(seat)
        assert (view.phase, view.current_player, view.legal_actions) == ("play", 0, ())
    no_leaks(deal)


def test_pending_misere_hidden_from_other_seats() -> None:
    """rule book §7 V5: a misère is weighed in secret, like a poignée."""
    deal = build_deal(4, hands={0: NO_TRUMPS}, misere_bonus=10)
    run(deal, "pass", "garde_sans", "pass", "pass", "no_chelem")
    assert deal.phase is Phase.MISERE and deal.current_player == 0
    for seat in (1, 2, 3):
        assert (deal.view(seat).phase, deal.view(seat).current_player) == ("play", 0)
    no_leaks(deal)


def test_dead_player_sees_no_pending_poignee() -> None:
    """rule book §4.3 mode B, §3.7: the dead player sees only what is public."""
    inner = build_deal(4, hands={0: POIGNEE})
    rules = Rules(players=5, five_player_mode="dead_player")
    deal = DeadPlayerDeal(rules, 4, [*inner.initial_hands, 0], inner.initial_chien)
    for word in ("pass", "garde_sans", "pass", "pass", "no_chelem"):
        deal.apply(deal.parse(word))
    assert deal.phase is Phase.POIGNEE and deal.current_player == 0
    assert (deal.view(4).phase, deal.view(4).current_player) == ("play", 0)
    no_leaks(deal)


def _seen_before_bidding(deal: FrenchDeal, seat: int) -> list[tuple[str, int]]:
    """What ``seat`` sees of the Excuse-sec round, every seat keeping its hand."""
    seen = []
    while deal.phase is Phase.EXCUSE_SEC:
        view = deal.view(seat)
        seen.append((view.phase, view.current_player))
        deal.apply(deal.parse("keep_hand"))
    return seen


def test_excuse_sec_asked_of_every_seat_whatever_the_hands() -> None:
    """rule book §7 V4: whether a seat holds the Excuse sec must not show in the others' views:
    every seat is asked in bidding order, and only a holder may show it."""
    holder = build_deal(4, hands={2: EXCUSE_SEC}, excuse_sec_redeal=True)
    plain = build_deal(4, excuse_sec_redeal=True)
    assert not any(h & TRUMPS_MASK == 0 for h in plain.initial_hands)
    for _ in range(4):
        no_leaks(holder)
        assert [str(a) for a in holder.legal_actions()] == (
            ["keep_hand", "excuse_sec"] if holder.current_player == 2 else ["keep_hand"]
        )
        holder.apply(holder.parse("keep_hand"))
    for seat in (0, 1, 3):
        a = build_deal(4, hands={2: EXCUSE_SEC}, excuse_sec_redeal=True)
        b = build_deal(4, excuse_sec_redeal=True)
        expected = [("excuse_sec", s) for s in range(4)]
        assert _seen_before_bidding(a, seat) == _seen_before_bidding(b, seat) == expected


# ---------------------------------------------------------------- 3. the Excuse before the last trick
# Seat 0, a defender, wins every trick but the first, which seat 2 takes; the taker (seat 1)
# called the KH, which seat 3 keeps to the end. Seat 0's side won everything, but only seat 2's
# card tells seat 0 that seat 2 is on his side, and that card is hidden.
LAST_TRICKS = {
    0: "T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 EX 2C",
    1: "T7 T6 T5 T4 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H JH",
    2: "T21 1D 2D 3D 4D 5D 6D 7D 8D 9D 10D JD CD QD KC",
    3: "KH 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS CS QS KS",
    4: "T3 T2 T1 CH QH 1C 3C 4C 5C 6C 7C 8C 9C 10C JC",
}


def _excuse_at_the_last_but_one(deal: FrenchDeal) -> FrenchDeal:
    run(deal, "pass", "garde", "pass", "pass", "pass", "KH")
    while deal.trick_no < 13:
        legal = deal.legal_actions()
        if deal.phase is Phase.PLAY and deal.current_player == 0:  # seat 0 plays high
            deal.apply(max(a for a in legal if a.card != EXCUSE))
        else:
            deal.apply(legal[0])
    return deal


def test_excuse_before_last_judged_on_known_sides() -> None:
    """rule book §3.8 step 1 under ``must_play_before_last``: "unless his side has won every
    trick" is judged on the side as the player knows it, never on a hidden partner."""
    deal = build_deal(
        5, hands=LAST_TRICKS, chien="KD CC QC", dealer=4, excuse_last_trick="must_play_before_last"
    )
    _excuse_at_the_last_but_one(deal)
    assert deal.current_player == 0 and deal.partner == 3 and deal.trick_winners[0] == 2
    assert set(deal.trick_winners[1:]) == {0}
    assert twin_differences(deal, 0, random.Random(1), tries=150) == []
    assert [str(a) for a in deal.legal_actions()] == ["play EX"]


# ---------------------------------------------------------------- 4. two players: under the piles
def test_two_player_refusal_names_no_unseen_card() -> None:
    """rule book §4.4: face-down pile cards are unseen, even by their owner; a refusal to play
    one must read as the refusal of any other unseen card."""
    deal = new_deal(Rules(players=2), dealer=0, rng=3)
    assert isinstance(deal, TwoPlayerDeal)
    seat = deal.current_player
    own_face_down = deal.initial_piles[seat][0][0]
    elsewhere = next(iter(c for c in range(78) if not knowable(deal, seat) >> c & 1 and c != own_face_down))
    reasons = []
    for card in (own_face_down, elsewhere):
        with pytest.raises(IllegalActionError) as err:
            deal.apply(card)
        text = str(err.value)
        assert scan_card_names(text, knowable(deal, seat) | BIT[card]) == []
        reasons.append(text.replace(FrenchDeal.action_name(card).split()[-1], "<card>"))
    assert reasons[0] == reasons[1]


# ---------------------------------------------------------------- 5. cancelled deals
@pytest.mark.parametrize(
    "name, make",
    [
        ("all passed", lambda: run(build_deal(4), "pass", "pass", "pass", "pass")),
        ("petit sec", lambda: build_deal(4, hands={1: PETIT_SEC})),
        (
            "excuse sec",
            lambda: run(build_deal(4, hands={1: EXCUSE_SEC}, excuse_sec_redeal=True), "no", "excuse_sec"),
        ),
    ],
)
def test_cancelled_deal_keeps_the_chien_hidden(name: str, make: object) -> None:
    """rule book §3.3-§3.5: a cancelled deal never turns the chien; only a played deal's count
    opens it."""
    deal = make()  # type: ignore[operator]
    assert deal.is_over() and deal.summary is None, name
    assert [deal.view(s).chien for s in range(4)] == [None] * 4
    no_leaks(deal)


def test_dead_player_cancelled_deal_keeps_the_chien_hidden() -> None:
    deal = new_deal(Rules(players=5, five_player_mode="dead_player"), dealer=0, rng=1)
    while not deal.is_over():
        deal.apply(deal.parse("pass"))
    assert [deal.view(s).chien for s in range(5)] == [None] * 5
    no_leaks(deal)


# ---------------------------------------------------------------- 6. views are values
GAMES = {
    "french 4": Rules(players=4),
    "french 5": Rules(players=5),
    "french 2": Rules(players=2),
    "dead player": Rules(players=5, five_player_mode="dead_player"),
    "austrian": rules_for("tarock"),
}


def _scribble(view: SeatView | TwoPlayerView | AustrianView) -> None:
    """Write into every object a view holds, as a careless bot might."""
    tricks = view.tricks
    if tricks:
        object.__setattr__(tricks[0], "winner", 99)
        object.__setattr__(tricks[0], "plays", ())
        object.__setattr__(tricks[0], "cards", 0)
    rules = view.rules
    object.__setattr__(rules, "players", 99)
    object.__setattr__(rules, "slam_announced_made", -1)
    for event in view.events:
        with pytest.raises(AttributeError):
            object.__setattr__(event, "seat", 99)  # events are tuples: nothing to write into
        data = getattr(event, "summary", None)
        if dataclasses.is_dataclass(data) and not isinstance(data, type):
            for f in dataclasses.fields(data):
                object.__setattr__(data, f.name, None)


@pytest.mark.parametrize("game", GAMES)
def test_view_is_a_value_nothing_writes_back(game: str) -> None:
    """A view shares no object with the deal or another view: writing into one (even through
    ``object.__setattr__``) changes neither the deal nor a later view."""
    rules = GAMES[game]
    rng = random.Random(4)
    for stop in (12, None):  # in the play, and at the end of a played deal
        deal = new_deal(rules, dealer=0, rng=rng)
        while not deal.is_over() and (stop is None or len(deal.tricks) < 3):
            deal.apply(rng.choice(deal.legal_actions()))
        if stop is None:
            assert deal.summary is not None
            summary = dataclasses.asdict(deal.summary)
        before = [deal.view(s) for s in range(deal.n)]
        for seat in range(deal.n):
            view = deal.view(seat)
            assert view.rules is not deal.rules
            _scribble(view)
        assert [deal.view(s) for s in range(deal.n)] == before
        assert deal.rules == rules and deal.rules.players == rules.players
        if stop is None:
            assert deal.summary is not None and dataclasses.asdict(deal.summary) == summary

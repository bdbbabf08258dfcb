"""Twin deals (:mod:`atout.games.twins`): a seat's stream of distinct views is the same in two deals
that differ only in cards hidden from it.

Every game of :data:`~atout.games.fairness.SWEPT_GAMES`, under its default preset and its house
options, and every kind of pair those rules allow: a poignée declined at the threshold or shown
from more trumps (rule book §3.7), a misère declined (§7 V5), the called king in one hand or
another (§4.3), and cards swapped between hidden places (the chien, the face-down piles of §4.4,
the talon of §5.3). The pairs are real twins, the hidden decision falls inside the compared
window, and the check has teeth: the old stream (one message per action) and a leaky view are
both caught.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout.cards import (
    CAVALIERS_MASK,
    EXCUSE_MASK,
    JACKS_MASK,
    KINGS_MASK,
    QUEENS_MASK,
    TRUMPS_MASK,
    CardSet,
    parse_card,
)
from atout.engine.french import FrenchDeal
from atout.engine.phase import Phase
from atout.engine.view import PUBLIC_SEAT
from atout.games import Deal
from atout.games.fairness import SWEPT_GAMES, knowable, rule_sets
from atout.games.twins import (
    KINDS,
    Round,
    TwinPair,
    first_difference,
    kinds_for,
    lockstep,
    make_pair,
    stream_differences,
)
from atout.presets import rules_for
from atout.rules import Rules

PAIRS = 20
DECLARATIONS = ("poignee_threshold", "more_trumps", "misere")
COURTS = KINGS_MASK | QUEENS_MASK | CAVALIERS_MASK | JACKS_MASK


def _default(game: str) -> str:
    return "tarock" if game == "austrian" else "fft"


RULE_SETS: dict[str, Rules] = {
    f"{game}, {name}": rules
    for game in SWEPT_GAMES
    for name, rules in rule_sets(game).items()
    if name in (_default(game), "house options")
}
CASES = [(name, kind) for name, rules in RULE_SETS.items() for kind in kinds_for(rules)]


@functools.cache
def pairs(name: str, kind: str) -> tuple[TwinPair, ...]:
    """:data:`PAIRS` pairs of a kind under a rule set, the same in every test."""
    rng = random.Random(zlib.crc32(f"{name}, {kind}".encode()))
    out = []
    for _ in range(PAIRS):
        pair = make_pair(RULE_SETS[name], kind, rng, tries=200_000)
        assert pair is not None, f"no {kind} pair under {name}"
        out.append(pair)
    return tuple(out)


@functools.cache
def rounds_of(name: str, kind: str, number: int) -> tuple[Round, ...]:
    """The lockstep rounds of a pair, with the rng :func:`test_streams_are_equal` gives it."""
    return tuple(lockstep(pairs(name, kind)[number], random.Random(number)))


def _seat_cards(pair: TwinPair, dealt: dict[str, object]) -> list[object]:
    hands = dealt["hands"]
    assert isinstance(hands, list)
    mine = [hands[pair.seat]]
    if "face_up" in dealt:  # the 2-player game: the seat's face-up pile tops too (§4.4)
        face_up = dealt["face_up"]
        assert isinstance(face_up, list)
        mine.append(face_up[pair.seat])
    return mine


def _places(dealt: dict[str, object]) -> dict[int, str]:
    """Where each card is dealt: a hand, the chien, a talon half, or one 2-player pile slot."""
    out: dict[int, str] = {}
    for key, value in dealt.items():
        if key == "face_up":
            continue
        if isinstance(value, str):
            out.update((parse_card(word), key) for word in value.split())
            continue
        assert isinstance(value, list)
        for i, group in enumerate(value):
            if key == "piles":
                for p, pile in enumerate(group):
                    out.update((parse_card(word), f"piles[{i}][{p}][{k}]") for k, word in enumerate(pile))
            else:
                words = group.split() if isinstance(group, str) else group
                out.update((parse_card(word), f"{key}[{i}]") for word in words)
    return out


def _hand(dealt: dict[str, object], seat: int) -> int:
    hands = dealt["hands"]
    assert isinstance(hands, list)
    hand = hands[seat]
    return CardSet.parse(hand if isinstance(hand, str) else " ".join(hand)).mask


def _first_size(rules: Rules) -> int:
    """The trumps of a simple poignée (§3.7); a dead player's table plays the 4-player table."""
    players = 4 if rules.five_player_mode == "dead_player" else rules.players
    return rules.poignee_levels(players)[0]


def _card_holders(pair: TwinPair) -> int:
    return 4 if pair.rules.five_player_mode == "dead_player" else pair.rules.players


def _replay(deal: Deal, actions: tuple[tuple[int, str], ...]) -> None:
    """Apply a round's actions by their words, each by the seat to act."""
    for seat, words in actions:
        assert deal.current_player == seat
        deal.apply(deal.parse(words))


def _decisions(steps: tuple[tuple[int, str], ...], seat: int) -> list[str]:
    return [words for who, words in steps if who == seat]


# ---------------------------------------------------------------- the kinds
def test_kinds_follow_the_rules() -> None:
    """§3.7 poignées need the French game of 3-5 players, §7 V5 the misère bonus, §4.3 mode A five
    players calling a king; swaps apply to every game, two players and Austrian Tarock included."""
    assert KINDS == ("poignee_threshold", "more_trumps", "misere", "called_king", "random_swap")
    assert kinds_for(Rules(players=4)) == ("poignee_threshold", "more_trumps", "random_swap")
    assert kinds_for(Rules(players=5)) == ("poignee_threshold", "more_trumps", "called_king", "random_swap")
    assert kinds_for(Rules(players=5, five_player_mode="dead_player", misere_bonus=10)) == (
        "poignee_threshold",
        "more_trumps",
        "misere",
        "random_swap",
    )
    assert kinds_for(Rules(players=2)) == kinds_for(rules_for("tarock")) == ("random_swap",)
    with pytest.raises(ValueError, match="misere"):
        make_pair(Rules(players=4), "misere", random.Random(0))
    assert len(CASES) == 34


@pytest.mark.parametrize(("name", "kind"), CASES)
def test_pairs_are_real_twins(name: str, kind: str) -> None:
    """The seat's own cards are the same, ``differing`` is exactly the cards dealt elsewhere, none
    of them is knowable at the deal, and each pair is of its kind."""
    for pair in pairs(name, kind):
        assert pair.kind == kind and pair.rules == RULE_SETS[name]
        assert _seat_cards(pair, pair.first) == _seat_cards(pair, pair.second)
        a_places, b_places = _places(pair.first), _places(pair.second)
        moved = sum(1 << card for card in a_places if a_places[card] != b_places[card])
        assert moved and pair.differing == moved
        first, second = pair.deals()
        assert not (knowable(first, pair.seat) | knowable(second, pair.seat)) & moved
        _check_kind(pair, first, second)


def _check_kind(pair: TwinPair, first: Deal, second: Deal) -> None:
    a_places, b_places = _places(pair.first), _places(pair.second)
    hidden = {p for p in set(a_places.values()) if p != f"hands[{pair.seat}]"}
    if pair.kind == "random_swap":
        assert pair.actor is None and pair.taker is None
        for card in CardSet(pair.differing):
            assert a_places[card] in hidden and b_places[card] in hidden
        return
    actor = pair.actor
    assert actor is not None and actor != pair.seat
    a_hand, b_hand = _hand(pair.first, actor), _hand(pair.second, actor)
    (given,) = CardSet(a_hand & ~b_hand)
    (taken,) = CardSet(b_hand & ~a_hand)
    other = int(a_places[taken].removeprefix("hands[").removesuffix("]"))
    assert pair.differing == 1 << given | 1 << taken
    assert len({pair.seat, actor, other}) == 3 and pair.taker not in (actor, other)
    size = _first_size(pair.rules)
    if pair.kind == "poignee_threshold":
        assert (a_hand & (TRUMPS_MASK | EXCUSE_MASK)).bit_count() == size
        assert (b_hand & (TRUMPS_MASK | EXCUSE_MASK)).bit_count() == size - 1
    elif pair.kind == "more_trumps":
        trumps = a_hand & TRUMPS_MASK
        assert trumps.bit_count() == size + 1
        assert b_hand & TRUMPS_MASK == trumps & ~(1 << trumps.bit_length() - 1)
    elif pair.kind == "misere":
        poor = [not a_hand & (TRUMPS_MASK | EXCUSE_MASK), not a_hand & COURTS]
        assert poor.count(True) == 1
        assert b_hand & (TRUMPS_MASK | EXCUSE_MASK) and b_hand & COURTS
    else:
        assert pair.kind == "called_king" and pair.call is not None and pair.taker is not None
        assert 1 << pair.call & KINGS_MASK and given == pair.call
        assert len({pair.seat, actor, other, pair.taker}) == 4
        assert not _hand(pair.first, pair.taker) >> pair.call & 1
        assert _hand(pair.second, other) >> pair.call & 1


# ---------------------------------------------------------------- the streams
@pytest.mark.parametrize(("name", "kind"), CASES)
def test_streams_are_equal(name: str, kind: str) -> None:
    """The seat's stream of distinct views is the same in both deals, round after round, while it
    cannot tell them apart; the hidden decision a pair is about is made inside that window (its
    round and the whole first trick are compared)."""
    rounds = views = 0
    for number, pair in enumerate(pairs(name, kind)):
        compared, seen, differences = stream_differences(pair, random.Random(number))
        assert differences == []
        played = rounds_of(name, kind, number)
        assert compared == len(played) > 0
        rounds += compared
        views += seen
        if kind in DECLARATIONS or kind == "called_king":
            cards = sum(1 for step in played if step.first[-1][1].startswith("play "))
            assert cards >= _card_holders(pair), "the first trick is compared"
            _check_decision(pair, played)
    assert rounds >= 10 * PAIRS and views > rounds // 2  # a discard hidden from the seat shows nothing


def _check_decision(pair: TwinPair, played: tuple[Round, ...]) -> None:
    assert pair.actor is not None
    in_a = [w for step in played for w in _decisions(step.first[:-1], pair.actor)]
    in_b = [w for step in played for w in _decisions(step.second[:-1], pair.actor)]
    if pair.kind == "poignee_threshold":  # §3.7: asked at the threshold, not one trump below
        assert "no_poignee" in in_a and "no_poignee" not in in_b
    elif pair.kind == "more_trumps":  # §3.7: the extra trump stays hidden, the same ones shown
        level = next(w for w in in_a if w.startswith("poignee "))
        assert level in in_b and "show_default" in in_a and "show_default" not in in_b
    elif pair.kind == "misere":  # §7 V5
        assert "no_misere" in in_a and "no_misere" not in in_b
    else:  # §4.3: the taker calls the king, held by the actor in A and by another seat in B
        assert pair.call is not None
        first, second = pair.deals()
        for step in played:
            _replay(first, step.first)
            _replay(second, step.second)
        assert isinstance(first, FrenchDeal) and isinstance(second, FrenchDeal)
        assert first.called_card == second.called_card == pair.call and first.taker == pair.taker
        assert first.partner == pair.actor and second.partner not in (pair.actor, -1)


def test_dead_player_streams_include_the_dead_dealer() -> None:
    """§4.3 mode B: the dead dealer's stream is compared too."""
    dead = [p for name, kind in CASES if name.startswith("french 5 dead") for p in pairs(name, kind)]
    assert any(p.seat == p.dealer for p in dead) and any(p.seat != p.dealer for p in dead)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(RULE_SETS)), seed=st.integers(0, 2**32 - 1))
def test_random_swaps_never_show(name: str, seed: int) -> None:
    """Cards swapped between places hidden from the seat (other hands, the chien, face-down piles,
    the talon) never change its stream."""
    rng = random.Random(seed)
    pair = make_pair(RULE_SETS[name], "random_swap", rng)
    assert pair is not None
    assert _seat_cards(pair, pair.first) == _seat_cards(pair, pair.second)
    assert stream_differences(pair, rng)[2] == []


def test_rounds_replay_by_words() -> None:
    """A round's actions are words each deal parses (what a client sends over the wire)."""
    pair = pairs("french 4, house options", "misere")[0]
    first, second = pair.deals()
    for step in rounds_of("french 4, house options", "misere", 0):
        _replay(first, step.first)
        _replay(second, step.second)
    assert pair.deals()[0].history == []  # fresh deals each time


def test_first_difference_names_the_field() -> None:
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}) == ("a[1].b", 2, 3)
    assert first_difference({"a": [1]}, {"a": [1, 2]}) == ("a length", 1, 2)
    assert first_difference({"a": 1}, {"a": 1, "c": 0}) == ("c", None, 0)
    assert first_difference([1, "x"], [1, "x"]) is None


# ---------------------------------------------------------------- the check has teeth
def _old_stream(deal: Deal, seat: int, actions: tuple[tuple[int, str], ...]) -> Iterator[dict[str, Any]]:
    """The old server: one message per action, changed or not."""
    for _, words in actions:
        deal.apply(deal.parse(words))
        yield deal.view(seat).to_json()


OLD_STREAM_CASES = [
    (name, kind)
    for name, kind in CASES
    if (kind == "poignee_threshold" and not name.endswith("house options")) or kind == "misere"
]


@pytest.mark.parametrize(("name", "kind"), OLD_STREAM_CASES)
def test_one_message_per_action_tells_the_twins_apart(name: str, kind: str) -> None:
    """The old stream, one message per action, betrays a declined poignée or misère (§3.7, §7 V5):
    deal A sends one message more in the round of the actor's decision. (Under the house options
    an actor one trump short of the threshold holds none and is asked about a misère instead, so
    the poignée pairs are taken from the default presets.)"""
    for number, pair in enumerate(pairs(name, kind)):
        first, second = pair.deals()
        told = False
        for step in rounds_of(name, kind, number):
            a = list(_old_stream(first, pair.seat, step.first))
            b = list(_old_stream(second, pair.seat, step.second))
            told = told or a != b
        assert told, f"pair {number} of {name}, {kind}"


@pytest.mark.parametrize("kind", ["poignee_threshold", "misere"])
def test_a_view_that_shows_the_secret_phase_is_caught(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A view that let the others see a poignée or misère being weighed (§3.7, §7 V5 forbid it)
    makes every pair's streams differ."""
    original = FrenchDeal._view  # every view, the public one and the dead player's too

    def leaky(self: FrenchDeal, seat: int) -> Any:
        view = original(self, seat)
        if self.phase in (Phase.POIGNEE, Phase.MISERE):
            return dataclasses.replace(view, phase=self.phase)
        return view

    monkeypatch.setattr(FrenchDeal, "_view", leaky)
    names = [name for name, k in CASES if k == kind and (kind == "poignee_threshold" or "house" in name)]
    assert names
    for name in names:
        for number, pair in enumerate(pairs(name, kind)[:5]):
            differences = stream_differences(pair, random.Random(number))[2]
            assert differences, f"pair {number} of {name}"
            assert all(d.startswith(f"{kind}, seat {pair.seat}, round ") for d in differences)


def test_a_partner_shown_too_soon_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A view that named the partner before the called card shows (§4.3 forbids it) makes every
    called-king pair's streams differ."""
    original = FrenchDeal._view  # every view, the public one and the dead player's too

    def leaky(self: FrenchDeal, seat: int) -> Any:
        view = original(self, seat)
        return dataclasses.replace(view, partner=self.partner if self.partner >= 0 else None)

    monkeypatch.setattr(FrenchDeal, "_view", leaky)
    for name in ("french 5, fft", "french 5, house options"):
        for number, pair in enumerate(pairs(name, "called_king")[:5]):
            differences = stream_differences(pair, random.Random(number))[2]
            assert differences and ": partner: " in differences[0], differences


def test_lockstep_stops_before_a_differing_card_shows() -> None:
    """Every yielded round leaves the seat unable to tell A from B by the rules."""
    for name, kind in CASES[:8]:
        pair = pairs(name, kind)[0]
        first, second = pair.deals()
        for step in lockstep(pair, random.Random(0)):
            _replay(first, step.first)
            _replay(second, step.second)
            assert not (knowable(first, pair.seat) | knowable(second, pair.seat)) & pair.differing


# ---------------------------------------------------------------- a spectator's stream
SPECTATOR_PAIRS = 3
SPECTATOR_RULE_SETS: dict[str, Rules] = {
    f"{game}, {name}": rules for game in SWEPT_GAMES for name, rules in rule_sets(game).items()
}
SPECTATOR_CASES = [
    (name, kind)
    for name, rules in SPECTATOR_RULE_SETS.items()
    for kind in (kinds_for(rules) if name in RULE_SETS else ("random_swap",))
]
"""Every game under every preset and its house options: random swaps between any places no
spectator sees; the kinds of each game's default and house rules too."""


@pytest.mark.parametrize(("name", "kind"), SPECTATOR_CASES)
def test_spectator_streams_are_equal(name: str, kind: str) -> None:
    """The public view's stream (``deal.public_view()``: what a spectator receives) is the same in
    both deals of a spectator's pair, whose cards differ in any hand, the unturned chien or talon,
    the face-down piles: nothing a spectator sees depends on a card hidden from all."""
    rng = random.Random(zlib.crc32(f"spectator {name}, {kind}".encode()))
    rounds = 0
    for number in range(SPECTATOR_PAIRS):
        pair = make_pair(SPECTATOR_RULE_SETS[name], kind, rng, tries=200_000, spectator=True)
        assert pair is not None, f"no {kind} pair under {name}"
        assert pair.seat == PUBLIC_SEAT and pair.differing
        first, second = pair.deals()
        assert not (knowable(first, PUBLIC_SEAT) | knowable(second, PUBLIC_SEAT)) & pair.differing
        compared, _views, differences = stream_differences(pair, random.Random(number))
        assert differences == [], differences
        rounds += compared
    assert rounds >= SPECTATOR_PAIRS


def test_spectator_swaps_reach_every_hand() -> None:
    """A spectator's random swaps move cards between any two hands (a seat's pair never touches
    its own), and the chien or talon."""
    rules = RULE_SETS["french 4, fft"]
    rng = random.Random(4)
    touched: set[str] = set()
    for _ in range(40):
        pair = make_pair(rules, "random_swap", rng, spectator=True)
        assert pair is not None
        a_places, b_places = _places(pair.first), _places(pair.second)
        touched |= {a_places[c] for c in CardSet(pair.differing)} | {
            b_places[c] for c in CardSet(pair.differing)
        }
    assert touched == {"hands[0]", "hands[1]", "hands[2]", "hands[3]", "chien"}

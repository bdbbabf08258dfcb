"""The observation encoding (:mod:`atout.envs.encoding`) reads only the seat's view, and keeps
what it shows: twin deals a seat cannot tell apart give it identical arrays over whole deals, and
any two views that differ in what they show give different arrays."""

from __future__ import annotations

import dataclasses
import random
import zlib
from typing import Any

import numpy as np
import pytest

from atout.envs.encoding import Encoding
from atout.games import Deal, new_deal
from atout.games.fairness import SWEPT_GAMES
from atout.games.twins import kinds_for, lockstep, make_pair
from atout.presets import rules_for
from atout.rules import Rules

GAMES: dict[str, Rules] = {
    game: rules_for("tarock" if options.get("game") == "austrian" else "fft", options)
    for game, options in SWEPT_GAMES.items()
}
PRESETS: dict[str, Rules] = {
    "japanese 4": rules_for("japanese", players=4),
    "czech 5": rules_for("czech", players=5),
    "french-sheet 3": rules_for("french-sheet", players=3),
    "tarock-seed": rules_for("tarock-seed"),
    "house options 4": Rules.from_options(
        {"players": 4, "misere_bonus": 10, "poignee_thresholds": {3: [1, 2, 3], 4: [1, 2, 3], 5: [1, 2, 3]}}
    ),
}
ALL = {**GAMES, **PRESETS}


def _seed(*parts: object) -> int:
    return zlib.crc32(repr(parts).encode())


KEPT: dict[str, tuple[str, ...]] = {
    "french": ("bids", "contract", "taker", "partner", "called_card", "chien", "ecart", "chelem_announced",
               "poignees", "events"),
    "two_player": ("own_tops", "opponent_tops", "own_pile_sizes", "opponent_pile_sizes", "chelem_announced_by"),
    "austrian": ("bids", "declarer", "bid", "talon_half", "game_type", "first_half", "second_half", "discard"),
}  # fmt: skip
"""The fields each game's observation keeps, beyond those of every game."""
COMMON = ("seat", "dealer", "phase", "current_player", "hand", "trick", "tricks", "scores")


def _kept(view: Any, name: str) -> Any:
    """A field as the observation keeps it: each seat's last bid, the misères of the events."""
    value = getattr(view, name)
    if name == "bids":
        return sorted(dict(value).items())
    if name == "events":
        return [e for e in value if e.kind == "misere"] if view.rules.misere_bonus else []
    return value


def _play(deal: Deal, rng: random.Random) -> None:
    deal.apply(rng.choice(deal.legal_actions()))


@pytest.mark.parametrize("name", list(ALL))
def test_the_layout_covers_the_vector_and_the_mask_marks_the_legal_actions(name: str) -> None:
    rules = ALL[name]
    encoding = Encoding(rules)
    blocks = encoding.describe()
    assert [start for _, start, _ in blocks] == list(
        np.cumsum([0] + [length for _, _, length in blocks[:-1]])
    )
    assert blocks[-1][1] + blocks[-1][2] == encoding.observation_shape[0]
    assert len({block for block, _, _ in blocks}) == len(blocks)
    rng = random.Random(_seed(name))
    deal = new_deal(rules, dealer=rng.randrange(rules.players), rng=rng)
    while not deal.is_over():
        legal = deal.legal_actions()
        mask = encoding.mask(legal)
        assert mask.dtype == np.int8 and mask.shape == (encoding.action_count,)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(int(a) for a in legal)
        vector = encoding.observe(deal.view(deal.current_player))
        assert vector.dtype == np.float32 and vector.shape == encoding.observation_shape
        hand = encoding.block(vector, "hand")
        assert [encoding.cards[i] for i in np.flatnonzero(hand)] == sorted(
            c for c in range(78) if deal.view(deal.current_player).hand >> c & 1
        )
        _play(deal, rng)
    assert encoding.mask([]).sum() == 0


@pytest.mark.parametrize("name", list(ALL))
def test_each_field_the_view_shows_changes_the_array(name: str) -> None:
    """Views of whole random deals, each set beside the same seat's view at the same step of
    another deal: a view given the other's value of one field that differs (a card, a bid, a
    seat, a score...) has a different array. Nothing the view shows is lost."""
    rules = ALL[name]
    rng = random.Random(_seed("lossless", name))
    encoding = Encoding(rules)
    deals = [new_deal(rules, dealer=rng.randrange(rules.players), rng=rng) for _ in range(8)]
    fields = COMMON + KEPT[encoding.game]
    changed: set[str] = set()
    while True:
        for seat in range(rules.players):
            views = [deal.view(seat) for deal in deals]
            for view, other in zip(views, views[1:] + views[:1], strict=True):
                before = encoding.observe(view)
                for field in fields:
                    if _kept(view, field) == _kept(other, field):
                        continue
                    after = encoding.observe(dataclasses.replace(view, **{field: getattr(other, field)}))
                    assert not np.array_equal(before, after), f"{field} changed, the array did not"
                    changed.add(field)
        if all(deal.is_over() for deal in deals):
            break
        for deal in deals:
            if not deal.is_over():
                _play(deal, rng)
    assert {"hand", "trick", "tricks", "scores"} <= changed


@pytest.mark.parametrize("name", list(GAMES))
def test_twin_deals_give_a_seat_identical_arrays(name: str) -> None:
    """Two deals that differ only in cards hidden from a seat give it the same arrays at every
    step of the compared window, for every kind of twin pair the rules allow."""
    rules = GAMES[name]
    encoding = Encoding(rules)
    compared = 0
    for kind in kinds_for(rules):
        rng = random.Random(_seed("twins", name, kind))
        for number in range(4):
            pair = make_pair(rules, kind, rng, tries=200_000)
            assert pair is not None, f"no {kind} pair under {name}"
            first, second = pair.deals()
            assert (
                encoding.observe(first.view(pair.seat)).tobytes()
                == encoding.observe(second.view(pair.seat)).tobytes()
            )
            for step in lockstep(pair, random.Random(number)):
                for deal, actions in ((first, step.first), (second, step.second)):
                    for _, words in actions:
                        deal.apply(deal.parse(words))
                a, b = encoding.observe(first.view(pair.seat)), encoding.observe(second.view(pair.seat))
                assert np.array_equal(a, b), f"{kind}: the seat's arrays differ after {step}"
                compared += 1
            # the hidden cards themselves give different arrays to a seat that sees them
            others = [s for s in range(rules.players) if first.view(s).hand != second.view(s).hand]
            for seat in others:
                assert not np.array_equal(
                    encoding.observe(first.view(seat)), encoding.observe(second.view(seat))
                )
    assert compared > 20


def test_a_view_of_another_game_is_refused_in_one_line() -> None:
    deal = new_deal(rules_for("tarock"), rng=1)
    with pytest.raises(ValueError, match="this encoding is for french views, not austrian ones"):
        Encoding(GAMES["french 4"]).observe(deal.view(0))

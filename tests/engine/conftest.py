"""Scenario builders for the engine tests: deals with chosen cards, driven by action words."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import pytest

from atout.cards import EXCUSE, PETIT, TRUMP_21, CardSet
from atout.engine import FrenchDeal
from atout.engine.deal import CHIEN_SIZE, HAND_SIZE
from atout.rules import Rules


class MakeDeal(Protocol):
    def __call__(
        self,
        players: int = 4,
        hands: dict[int, str] | None = None,
        chien: str | None = None,
        dealer: int | None = None,
        **options: Any,
    ) -> FrenchDeal: ...


def build_deal(
    players: int = 4,
    hands: dict[int, str] | None = None,
    chien: str | None = None,
    dealer: int | None = None,
    **options: Any,
) -> FrenchDeal:
    """A deal where the named seats hold at least the named cards and the chien holds the
    named cards. The other cards fill the gaps, each to the seat missing the most cards:
    trumps first from the 21 down, then the Excuse, then the suits in card order, so that
    trumps spread and the chien fills last. ``dealer`` defaults to the seat before 0, so
    seat 0 speaks and leads first."""
    rules = Rules.from_options({"players": players, **options})
    given = {seat: CardSet.parse(text).mask for seat, text in (hands or {}).items()}
    chien_mask = CardSet.parse(chien).mask if chien else 0
    used = chien_mask
    for mask in given.values():
        assert not used & mask, "a card is named twice"
        used |= mask
    masks = [given.get(seat, 0) for seat in range(players)]
    need = [HAND_SIZE[players] - m.bit_count() for m in masks]
    chien_need = CHIEN_SIZE[players] - chien_mask.bit_count()
    assert min(need) >= 0 and chien_need >= 0, "too many cards named"
    fill_order = [*range(TRUMP_21, PETIT - 1, -1), EXCUSE, *range(PETIT)]
    for card in fill_order:
        if used >> card & 1:
            continue
        seat = max(range(players), key=lambda s: (need[s], -s))
        if need[seat] == 0:
            chien_mask |= 1 << card
            chien_need -= 1
            continue
        masks[seat] |= 1 << card
        need[seat] -= 1
    assert chien_need == 0
    return FrenchDeal(rules, (players - 1) if dealer is None else dealer, masks, chien_mask)


@pytest.fixture
def make_deal() -> MakeDeal:
    return build_deal


def run(deal: FrenchDeal, *words: str) -> FrenchDeal:
    """Apply actions given as words (a bare card means play, discard or call, by phase)."""
    for word in words:
        deal.apply(deal.parse(word))
    return deal


@pytest.fixture
def act() -> Callable[..., FrenchDeal]:
    return run

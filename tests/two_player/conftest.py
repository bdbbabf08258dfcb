"""Layout builders for the 2-player tests: deals with chosen cards, driven by card words."""

from __future__ import annotations

from typing import Any

from atout.cards import EXCUSE, PETIT, TRUMP_21, CardSet, parse_card
from atout.engine.two_player import HAND_CARDS, PILE_CARDS, PILES, TwoPlayerDeal
from atout.rules import Rules

FILL_ORDER = [*range(TRUMP_21, PETIT - 1, -1), EXCUSE, *range(PETIT)]


def build(
    hands: dict[int, str] | None = None,
    piles: dict[int, list[str]] | None = None,
    dealer: int = 0,
    **options: Any,
) -> TwoPlayerDeal:
    """A deal where the named seats hold at least the named hand cards and the named piles
    (each ``"bottom middle top"``). Other cards fill the gaps, each to the seat missing the
    most cards (its piles first, then its hand): trumps from the 21 down, the Excuse, then
    the suits in card order. Seat 1 is the non-dealer by default, so it leads."""
    rules = Rules.from_options({"players": 2, **options})
    hand_masks = [CardSet.parse((hands or {}).get(s, "")).mask for s in (0, 1)]
    pile_lists = [[[parse_card(w) for w in p.split()] for p in (piles or {}).get(s, [])] for s in (0, 1)]
    used = hand_masks[0] | hand_masks[1]
    for seat in (0, 1):
        for pile in pile_lists[seat]:
            assert len(pile) == PILE_CARDS
            for card in pile:
                assert not used >> card & 1, "a card is named twice"
                used |= 1 << card
    assert not hand_masks[0] & hand_masks[1], "a card is named twice"
    partial = [[] for _ in range(PILES)], [[] for _ in range(PILES)]
    for seat in (0, 1):
        for i, pile in enumerate(pile_lists[seat]):
            partial[seat][i] = list(pile)

    def need(seat: int) -> int:
        return HAND_CARDS - hand_masks[seat].bit_count() + sum(PILE_CARDS - len(p) for p in partial[seat])

    for card in FILL_ORDER:
        if used >> card & 1:
            continue
        seat = max((0, 1), key=lambda s: (need(s), -s))
        open_pile = next((p for p in partial[seat] if len(p) < PILE_CARDS), None)
        if open_pile is not None:
            open_pile.append(card)
        else:
            hand_masks[seat] |= 1 << card
    return TwoPlayerDeal(rules, dealer, hand_masks, partial)


def run(deal: TwoPlayerDeal, *words: str) -> TwoPlayerDeal:
    """Apply actions given as words (a bare card means play it)."""
    for word in words:
        deal.apply(deal.parse(word))
    return deal


def finish(deal: TwoPlayerDeal, avoid: str = "") -> TwoPlayerDeal:
    """Play to the end, each player his lowest legal card, keeping the ``avoid`` cards while he can."""
    kept = CardSet.parse(avoid).mask
    while not deal.is_over():
        legal = deal.legal_actions()
        deal.apply(next((a for a in legal if not kept >> a & 1), legal[0]))
    return deal

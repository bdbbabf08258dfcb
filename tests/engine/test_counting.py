"""rule book §3.10-§3.14 and §4: piles, half points and the share-out, as the engine plays them."""

from __future__ import annotations

import random

from atout.cards import half_points
from atout.engine import FrenchDeal
from atout.rules import Rules
from atout.scoring import contract_made, per_defender_unit


def random_deals(players: int, count: int, seed: int = 0, **options: object) -> list[FrenchDeal]:
    rng = random.Random(seed)
    deals = []
    for _ in range(count):
        deal = FrenchDeal.new(
            Rules.from_options({"players": players, **options}), dealer=rng.randrange(players), rng=rng
        )
        deal.play_out(rng)
        if deal.summary is not None:
            deals.append(deal)
    return deals


def test_attack_pile_is_its_tricks_and_the_ecart_or_garde_sans_chien_3_10() -> None:
    for deal in random_deals(5, 300) + random_deals(4, 300):
        pile = deal.won[deal.taker] | deal.ecart
        if deal.partner >= 0:
            pile |= deal.won[deal.partner]
        if deal.contract == "garde_sans":
            pile |= deal.chien
        assert deal.attack_pile() == pile
        assert deal.summary is not None and deal.summary.half_points == half_points(pile)


def test_three_players_play_24_tricks_and_can_count_half_points_4_2() -> None:
    deals = random_deals(3, 300, seed=1)
    assert all(len(d.tricks) == 24 for d in deals)
    assert any(d.summary is not None and d.summary.half_points % 2 for d in deals)


def test_four_player_points_are_whole_unless_an_excuse_debt_lapsed_3_11() -> None:
    for deal in random_deals(4, 600, seed=2):
        assert deal.summary is not None
        if deal.summary.half_points % 2:
            kinds = [e.kind for e in deal.events]
            assert kinds.count("excuse_kept") > kinds.count("excuse_paid") + kinds.count("excuse_settled")


def test_share_out_by_player_count_3_14() -> None:
    for players in (3, 4, 5):
        for deal in random_deals(players, 200, seed=players):
            summary = deal.summary
            assert summary is not None
            unit = per_defender_unit(summary)
            scores = deal.scores()
            defenders = [s for s in range(players) if not deal.is_attack(s)]
            assert all(scores[s] == -unit for s in defenders)
            if deal.partner >= 0:
                assert scores[deal.partner] == unit and scores[deal.taker] == 2 * unit
            else:
                assert scores[deal.taker] == unit * (players - 1)
            if not (summary.petit_au_bout or summary.poignees or summary.chelem_announced):
                assert (unit > 0) == contract_made(summary)

"""rule book §3.9, §3.11-3.13 and §4.4 with 2 players: the Excuse, own piles, the result and the chelem."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from atout.cards import BIT, EXCUSE, EXCUSE_MASK, PETIT, CardSet, half_points, parse_card
from atout.engine import Phase
from atout.engine.events import ChelemDecided, ExcuseKept, ExcusePaid, ExcuseUnpaid
from atout.engine.two_player import TwoPlayerDeal
from atout.rules import Rules
from atout.scoring import check_summary

from .conftest import build, finish, run

TRUMPS = " ".join(f"T{i}" for i in range(1, 22))
HONOURS = " ".join(f"{r}{s}" for s in "SHDC" for r in "KQCJ")


def owning(seat1: str, seat0_hand: str = "", **options: object) -> TwoPlayerDeal:
    """A deal where seat 1 (the non-dealer) owns exactly the 39 cards ``seat1``: the first
    21 in hand, the rest in piles; seat 0 gets the others, ``seat0_hand`` in hand."""
    cards = seat1.split()
    assert len(cards) == 39
    piles = [" ".join(cards[i : i + 3]) for i in range(21, 39, 3)]
    return build(hands={1: " ".join(cards[:21]), 0: seat0_hand}, piles={1: piles}, **options)


def kinds(deal: TwoPlayerDeal) -> list[str]:
    return [e.kind for e in deal.events]


# ---------------------------------------------------------------- the Excuse (§3.9)
def test_excuse_is_kept_against_a_half_point_card_3_9() -> None:
    deal = build(hands={1: "1S KH", 0: "2S EX"})
    run(deal, "1S", "2S")  # seat 0 wins a trick holding two low cards
    run(deal, "EX", "KH")  # then loses the Excuse's trick
    assert deal.trick_winners == [0, 1]
    assert deal.won[0] == CardSet.parse("2S EX").mask
    assert deal.won[1] == CardSet.parse("KH 1S").mask
    assert [e for e in deal.events if e.kind.startswith("excuse")] == [
        ExcuseKept(0, 1),
        ExcusePaid(0, parse_card("1S"), 1),
    ]


def test_excuse_debt_is_deferred_until_its_owner_wins_a_trick_3_9() -> None:
    deal = build(hands={1: "KH 1S", 0: "EX 2S"})
    run(deal, "KH", "EX")
    assert deal.won[0] == EXCUSE_MASK and "excuse_kept" in kinds(deal) and "excuse_paid" not in kinds(deal)
    assert deal.won[1] == BIT[parse_card("KH")]
    run(deal, "1S", "2S")
    assert deal.events[-1] == ExcusePaid(0, parse_card("1S"), 1)
    assert deal.won[0] == CardSet.parse("EX 2S").mask


def test_excuse_in_the_last_trick_changes_camp_3_9() -> None:
    # seat 1 holds every trump and honour: it wins every trick, and seat 0 keeps its Excuse to the end
    deal = finish(owning(f"{TRUMPS} {HONOURS} 10S 10H", "EX"), avoid="EX")
    seats, cards, winner = deal.tricks[-1]
    assert EXCUSE in cards and seats[cards.index(EXCUSE)] == 0 and winner == 1
    assert deal.won[1] == (1 << 78) - 1 and "excuse_kept" not in kinds(deal)
    assert deal.summary is not None and deal.summary.half_points == (0, 182)


def test_excuse_led_to_the_last_trick_wins_it_after_every_trick_3_9() -> None:
    # seat 1 wins 38 tricks, the Petit in the 38th, then leads the Excuse to the 39th
    deal = finish(owning(f"{TRUMPS} EX {HONOURS} 10S"), avoid="EX T1")
    assert deal.tricks[-1][1][0] == EXCUSE and deal.trick_winners == [1] * 39
    assert PETIT in deal.tricks[-2][1]
    summary = deal.summary
    assert summary is not None and summary.half_points == (0, 182)
    # the Petit won in the penultimate trick counts au bout: 25 + 55 + 10
    assert summary.petit_au_bout == 1 and deal.scores() == [-90, 90]


def test_excuse_led_to_the_last_trick_changes_camp_after_a_lost_trick_3_9() -> None:
    honours = HONOURS.replace("KS ", "").replace("QS ", "")
    deal = owning(f"EX QS {TRUMPS} {honours} 10S 9S", "KS")
    run(deal, "QS", "KS")  # seat 1 loses one trick, then wins every other one
    finish(deal, avoid="EX")
    seats, cards, winner = deal.tricks[-1]
    assert cards[0] == EXCUSE and seats[0] == 1 and winner == 0
    assert deal.trick_winners == [0] + [1] * 37 + [0]
    assert deal.won[0] & EXCUSE_MASK and "excuse_kept" not in kinds(deal)


def test_unpaid_excuse_counts_4_points_and_the_half_goes_to_the_winner_3_11_4_4() -> None:
    # seat 0 plays its Excuse to trick 1 and never wins a trick: its debt is never paid
    deal = owning(f"{TRUMPS} {HONOURS} 10S 10H", "EX")
    deal.apply(deal.legal_actions()[0])
    run(deal, "EX")
    finish(deal)
    assert deal.events[-2] == ExcuseUnpaid(0, 1)
    summary = deal.summary
    assert summary is not None and summary.half_points == (9, 173) and summary.oudlers == (1, 2)
    # 86.5 with 2 bouts: the half point goes to the winner, 87 - 41 = 46
    bonus = 10 if summary.petit_au_bout == 1 else 0
    assert deal.scores() == [-(25 + 46 + bonus), 25 + 46 + bonus]


def test_undecided_half_point_of_an_unpaid_excuse_goes_to_its_creditor_3_11_4_4() -> None:
    # seat 1: the Excuse, the 21, the 4 kings and the knaves, low spades, hearts and clubs.
    # it wins 4 kings' tricks and the 21's and keeps its Excuse unpaid: 40.5 with 2 bouts
    # (needs 41), seat 0 has 50.5 with 1 bout (needs 51): each is half a point short.
    low = " ".join(f"{r}{s}" for s in "SHC" for r in range(1, 11))
    seat1 = f"EX T21 KS KH KD KC JS JH JC {low}"
    deal = owning(seat1, "QS QH CD CC JD 1D")
    run(deal, "KS", "QS", "KH", "QH", "KD", "CD", "KC", "CC", "EX", "1D", "JD", "T21")
    finish(deal)
    assert deal.trick_winners.count(1) == 5
    assert (half_points(deal.won[1]), half_points(deal.won[0])) == (81, 101)
    assert ExcuseUnpaid(1, 0) in deal.events
    summary = deal.summary
    assert summary is not None and summary.half_points == (102, 80)  # 51 for seat 0: juste fait
    check_summary(summary)
    pab = {None: 0, 0: 10, 1: -10}[summary.petit_au_bout]
    assert deal.scores() == [25 + pab, -25 - pab]


# ---------------------------------------------------------------- counting and the result (§4.4)
def random_deals(count: int, **options: object) -> list[TwoPlayerDeal]:
    deals = []
    for seed in range(count):
        deal = TwoPlayerDeal.new(Rules.from_options({"players": 2, **options}), seed % 2, seed)
        deal.play_out(random.Random(seed))
        deals.append(deal)
    return deals


def test_each_player_counts_his_own_pile_4_4() -> None:
    for deal in random_deals(200):
        summary = deal.summary
        assert summary is not None
        assert summary.oudlers == tuple(CardSet(deal.won[s]).bouts() for s in (0, 1))
        if "excuse_unpaid" not in kinds(deal):
            assert summary.half_points == (half_points(deal.won[0]), half_points(deal.won[1]))
            assert all(h % 2 == 0 for h in summary.half_points)  # every pile is even


def test_winner_scores_25_plus_margin_and_petit_au_bout_plus_minus_10_4_4() -> None:
    rules = Rules(players=2)
    for deal in random_deals(300):
        summary = deal.summary
        assert summary is not None
        points = [(h + 1) // 2 for h in summary.half_points]  # a half point only ever helps the winner
        reach = [points[s] >= rules.threshold(summary.oudlers[s]) for s in (0, 1)]
        assert reach.count(True) == 1
        winner = reach.index(True)
        _, last_cards, last_winner = deal.tricks[-1]
        pab = last_winner if PETIT in last_cards else None
        assert summary.petit_au_bout == pab
        value = 25 + points[winner] - rules.threshold(summary.oudlers[winner])
        value += 0 if pab is None else (10 if pab == winner else -10)
        expected = [0, 0]
        expected[winner], expected[1 - winner] = value, -value
        assert deal.scores() == expected


def test_fr2_01_reached_through_the_engine_9_2() -> None:
    case = json.loads((Path(__file__).parent / "fr2_01.json").read_text())
    deal = TwoPlayerDeal.from_dealt(Rules(players=2), case["dealer"], case["dealt"])
    run(deal, *case["plays"].split())
    summary = deal.summary
    assert summary is not None
    expected = case["expected"]
    assert list(summary.points) == expected["points"]  # A = seat 1, the non-dealer, 50 points
    assert list(summary.oudlers) == expected["oudlers"] and summary.petit_au_bout == 1
    assert deal.scores() == expected["scores"] == [-44, 44]


# ---------------------------------------------------------------- chelem (§3.6, §4.4 two_player_chelem)
def test_no_chelem_decision_without_two_player_chelem_4_4() -> None:
    deal = TwoPlayerDeal.new(Rules(players=2), 0, 1)
    assert deal.phase is Phase.PLAY
    deal.play_out(random.Random(1))
    assert deal.summary is not None and deal.summary.chelem_won_by is None


def test_non_dealer_decides_first_then_the_dealer_and_the_announcer_leads_3_6() -> None:
    deal = TwoPlayerDeal.new(Rules(players=2, two_player_chelem=True), dealer=0, rng=1)
    assert deal.phase is Phase.CHELEM and deal.current_player == 1
    run(deal, "no_chelem")
    assert deal.phase is Phase.CHELEM and deal.current_player == 0
    run(deal, "chelem")
    assert deal.phase is Phase.PLAY and deal.current_player == 0 and deal.chelem_announced_by == 0
    assert deal.events == [ChelemDecided(1, False), ChelemDecided(0, True)]


def test_a_non_dealer_announcement_ends_the_decisions_3_6() -> None:
    deal = TwoPlayerDeal.new(Rules(players=2, two_player_chelem=True), dealer=0, rng=1)
    run(deal, "chelem")
    assert deal.phase is Phase.PLAY and deal.current_player == 1 and deal.chelem_announced_by == 1


def test_announcer_does_not_lead_under_chelem_announcer_leads_false_3_6() -> None:
    rules = Rules(players=2, two_player_chelem=True, chelem_announcer_leads=False)
    deal = run(TwoPlayerDeal.new(rules, dealer=0, rng=1), "no_chelem", "chelem")
    assert deal.current_player == 1 and deal.chelem_announced_by == 0


def test_announced_chelem_failed_costs_the_announcer_200_3_13() -> None:
    rules = Rules(players=2, two_player_chelem=True)
    for seed in range(20):
        plain = TwoPlayerDeal.new(rules, 0, seed)
        announced = plain.clone()
        run(plain, "no_chelem", "no_chelem")
        run(announced, "chelem")
        plain.play_out(random.Random(seed))
        announced.play_out(random.Random(seed))
        assert announced.history[1:] == plain.history[2:]
        assert announced.scores()[1] == plain.scores()[1] - 200


@pytest.mark.parametrize(("words", "bonus"), [(("chelem",), 400), (("no_chelem", "no_chelem"), 200)])
def test_chelem_made_scores_400_announced_200_not_3_13(words: tuple[str, ...], bonus: int) -> None:
    deal = owning(f"{TRUMPS} EX {HONOURS} 10S", two_player_chelem=True)
    run(deal, *words)
    finish(deal, avoid="EX T1")
    summary = deal.summary
    assert summary is not None and summary.chelem_won_by == 1
    assert deal.scores() == [-(90 + bonus), 90 + bonus]


def test_chelem_is_won_even_when_the_loser_kept_his_excuse_3_9() -> None:
    deal = owning(f"{TRUMPS} {HONOURS} 10S 10H", "EX", two_player_chelem=True)
    run(deal, "no_chelem", "no_chelem")
    deal.apply(deal.legal_actions()[0])
    run(deal, "EX")
    finish(deal)
    summary = deal.summary
    assert summary is not None and summary.chelem_won_by == 1 and summary.half_points == (9, 173)
    bonus = 10 if summary.petit_au_bout == 1 else 0
    assert deal.scores()[1] == 25 + 46 + bonus + 200

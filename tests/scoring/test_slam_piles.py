"""The attack's pile must follow from who won the tricks (rule book §3.9-§3.11): impossible slams
are refused naming the field, the FFT count of a slam with the Excuse kept (87) is accepted."""

from __future__ import annotations

import random
from typing import Any

import pytest

from atout.cards import EXCUSE, CardSet
from atout.engine.actions import ACTIONS, ActionKind
from atout.games import deal_from_dealt
from atout.rules import Rules
from atout.scoring import SummaryError, check_summary, parse_summary, score, summary_to_json
from atout.scoring.piles import open_span, slam_piles

GARDE: dict[str, Any] = {
    "game": "french",
    "players": 4,
    "taker": 0,
    "contract": "garde",
    "oudlers": 2,
    "points": 50,
}
ATTACK_SLAM = {"chelem": {"announced": False, "won_by": "attack"}}
DEFENCE_SLAM = {"chelem": {"announced": False, "won_by": "defense"}}


def _refused(data: dict[str, Any]) -> SummaryError:
    with pytest.raises(SummaryError) as err:
        parse_summary(data)
    return err.value


def test_attack_slam_with_50_points_is_refused_not_scored_804_3_9() -> None:
    err = _refused({**GARDE, **ATTACK_SLAM})
    assert err.field == "points"
    assert "chelem.won_by=attack" in str(err) and "86.5 or 87 with 2 oudler(s)" in str(err)


def test_attack_slam_refusal_exits_2_naming_points_3_9(run_score: Any) -> None:
    result = run_score({**GARDE, **ATTACK_SLAM}, "--json")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: points: 50 with 2 oudler(s) cannot follow from chelem.won_by")
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("changes", "holds"),
    [
        ({"contract": "garde_contre", "oudlers": 0, "points": 10}, "holds 0 with 0 oudler(s)"),
        ({"contract": "garde_contre", "oudlers": 2, "points": 9}, "holds 0 or 1 oudler(s)"),
        ({"contract": "petite", "oudlers": 0, "points": 25}, "3 to 19 by 1 with 0 oudler(s)"),
        ({"contract": "garde", "oudlers": 2, "points": 20}, "holds 0 or 1 oudler(s)"),
    ],
)
def test_defence_slam_with_an_attack_pile_it_cannot_hold_is_refused_3_9(
    changes: dict[str, Any], holds: str
) -> None:
    # the attack keeps only its écart (no king, no bout), a garde sans chien, or nothing in a
    # garde contre, plus an Excuse it played to the defence's tricks
    err = _refused({**GARDE, **changes, **DEFENCE_SLAM})
    assert err.field == "points" and "chelem.won_by=defense" in str(err) and holds in str(err)


def test_fft_slam_with_the_excuse_kept_counts_87_and_scores_as_86_5_3_9_3_11() -> None:
    fft = parse_summary({**GARDE, "points": 87, **ATTACK_SLAM})
    engine = parse_summary({**GARDE, "points": 86.5, **ATTACK_SLAM})
    assert score(fft) == score(engine) == [3 * 342, -342, -342, -342]
    assert parse_summary(summary_to_json(fft)) == fft


def test_fft_count_is_accepted_for_every_table_and_contract_3_9() -> None:
    for players, contract in [(3, "petite"), (4, "garde_sans"), (5, "garde"), (5, "garde_sans")]:
        data = {**GARDE, "players": players, "contract": contract, "points": 87, **ATTACK_SLAM}
        assert parse_summary(data).points == 87


def test_defence_slam_with_the_attack_excuse_counted_4_is_accepted_3_9() -> None:
    summary = parse_summary({**GARDE, "contract": "garde_contre", "oudlers": 1, "points": 4, **DEFENCE_SLAM})
    assert summary.half_points == 8


def test_87_without_a_slam_is_refused_with_the_slam_that_explains_it_3_9() -> None:
    err = _refused({**GARDE, "points": 87})
    assert err.field == "points" and "it fits chelem.won_by=attack" in str(err)


def test_91_points_without_a_slam_is_refused_it_hides_the_slam_bonus_3_13() -> None:
    err = _refused({**GARDE, "oudlers": 3, "points": 91})
    assert err.field == "points"
    assert "each side won a trick" in str(err) and "it fits chelem.won_by=attack" in str(err)


@pytest.mark.parametrize("chien", [3, 6])
@pytest.mark.parametrize("contract", ["petite", "garde", "garde_sans"])
def test_attack_slam_piles_without_garde_contre_are_all_or_all_but_the_excuse_3_9(
    chien: int, contract: str
) -> None:
    assert slam_piles(chien, contract, False, 1, "attack") == {(182, 3), (173, 2), (174, 2)}
    # a petit imprenable the defence kept goes back to it too (§7 V3)
    assert slam_piles(chien, contract, True, 1, "attack") == {
        (182, 3), (173, 2), (174, 2), (164, 1), (165, 1), (166, 1),
    }  # fmt: skip


def test_attack_slam_in_garde_contre_leaves_the_chien_to_the_defence_3_5() -> None:
    four = slam_piles(6, "garde_contre", False, 1, "attack")
    five = slam_piles(3, "garde_contre", False, 1, "attack")
    # the chien is any 6 (3) cards: at least 6 (3) low cards; at most two bouts and four kings
    # (two bouts and a king) with the Excuse the defence kept
    assert max(h for h, o in four if o == 3) == 182 - 6 and min(h for h, o in four if o == 0) == 182 - 63
    assert max(h for h, o in five if o == 3) == 182 - 3 and min(h for h, o in five if o == 0) == 182 - 36
    # the FFT count of an Excuse kept cannot reach 87: the defence holds the chien too
    assert max(h for h, o in four if o == 2) == 182 - 6 - 9 + 1


def test_defence_slam_piles_are_the_ecart_the_chien_or_nothing_3_5() -> None:
    ecart = slam_piles(6, "garde", False, 1, "defense")
    assert {o for _, o in ecart} == {0, 1}  # no bout discarded; the Excuse kept
    assert min(ecart) == (6, 0) and max(h for h, o in ecart if o == 0) == 38  # 4 queens, 2 cavaliers
    assert slam_piles(6, "garde_contre", False, 1, "defense") == {(0, 0), (8, 1), (9, 1)}
    assert {o for _, o in slam_piles(6, "garde_sans", False, 1, "defense")} == {0, 1, 2, 3}
    # two kept cards need two attackers: a petit imprenable's holder has no Excuse
    assert (18, 2) not in slam_piles(6, "garde_contre", True, 1, "defense")
    assert (18, 2) in slam_piles(6, "garde_contre", True, 2, "defense")


def test_without_a_slam_each_pile_holds_at_least_a_trick_3_10() -> None:
    # 4 players, garde: the attack holds the écart and a trick (9 cards), the defence a trick but
    # the attack's returned Excuse (3 cards)
    assert open_span(4, 6, "garde", False, 3) == (27 + 6, 182 - 3)
    assert open_span(4, 6, "garde_contre", False, 0) == (3, 182 - 27 - 6)


def test_two_player_slam_winner_holds_every_card_but_a_kept_excuse_4_4() -> None:
    base = {"game": "french", "players": 2, "options": {"two_player_chelem": True}}
    ok = parse_summary({**base, "points": [87, 4], "oudlers": [2, 1], "chelem": {"won_by": 0}})
    assert ok.half_points == (174, 8)
    with pytest.raises(SummaryError) as err:
        parse_summary({**base, "points": [50, 41], "oudlers": [2, 1], "chelem": {"won_by": 0}})
    assert err.value.field == "points[0]"


_HAND = {3: 24, 4: 18, 5: 15}
_TOP = [*range(76, 55, -1), 13, 27, 41, 55, 12, 26, 40, 54]  # trumps 21 to 1, kings, queens


def _stacked_deal(seed: int) -> Any:
    """A deal whose seat ``strong`` holds the top trumps, bid so that one side likely wins all."""
    rng = random.Random(seed)
    players = rng.choice([3, 4, 5])
    options: dict[str, Any] = {"players": players, "petit_sec_rule": rng.choice(["fft", "petit_imprenable"])}
    if players == 5:
        options["five_player_mode"] = rng.choice(["called_king", "dead_player"])
    rules = Rules.from_options(options)
    dealer = rng.randrange(players)
    seats = [
        s for s in range(players) if not (options.get("five_player_mode") == "dead_player" and s == dealer)
    ]
    size = _HAND[len(seats)]
    pack = list(range(78))
    rng.shuffle(pack)
    top = _TOP[: size - rng.randrange(4)]
    if rng.random() < 0.5 and EXCUSE not in top:
        top[-1] = EXCUSE
    rest = [c for c in pack if c not in top]
    strong = rng.choice(seats)
    hands: dict[int, list[int]] = {s: [] for s in range(players)}
    for seat in seats:
        take = size - len(top) if seat == strong else size
        hands[seat] = (top if seat == strong else []) + rest[:take]
        rest = rest[take:]
    data = {
        "hands": [str(CardSet(sum(1 << c for c in hands[s]))) for s in range(players)],
        "chien": str(CardSet(sum(1 << c for c in rest))),
    }
    deal = deal_from_dealt(rules, dealer, data)
    contract = rng.choice(["petite", "garde", "garde_sans", "garde_contre"]).replace("_", " ")
    strong_takes = rng.random() < 0.5
    while not deal.is_over():
        legal = deal.legal_actions()
        seat = deal.current_player
        names = [deal.action_name(a) for a in legal]
        if ACTIONS[legal[0]].kind is ActionKind.PLAY and seat == strong:
            deal.apply(max(legal, key=lambda a: -1 if ACTIONS[a].card == EXCUSE else ACTIONS[a].card))
        elif "pass" in names and contract in names:
            deal.apply(legal[names.index(contract if (seat == strong) == strong_takes else "pass")])
        else:
            deal.apply(rng.choice(legal))
    return deal


def test_every_slam_the_engine_plays_is_accepted_3_9() -> None:
    outcomes = set()
    for seed in range(120):
        deal = _stacked_deal(seed)
        summary = deal.summary
        if summary is None:
            continue
        check_summary(summary)
        assert parse_summary(summary_to_json(summary)) == summary
        outcomes.add(summary.chelem_won_by)
    assert outcomes == {None, "attack", "defense"}

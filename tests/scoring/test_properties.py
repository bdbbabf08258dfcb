"""Properties over every valid summary (rule book §3.14, §5.7): zero-sum rows, positive-only scores."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from atout.rules import Rules
from atout.scoring import (
    AustrianSummary,
    FrenchSummary,
    MisereDeclared,
    PartialSlamResult,
    PoigneeDeclared,
    TwoPlayerSummary,
    austrian_value,
    check_summary,
    declarer_wins,
    parse_summary,
    score,
    summary_to_json,
)
from atout.scoring.piles import open_span, slam_piles
from atout.scoring.summary import AUSTRIAN_BIDS, SIDES, Side, two_player_winner

LEVELS = ("simple", "double", "triple")


@st.composite
def french_rules(draw: st.DrawFn, players: int) -> Rules:
    options: dict[str, Any] = {
        "players": players,
        "bid_pousse": draw(st.booleans()),
        "no_petite": draw(st.booleans()),
        "threshold_0_oudlers": draw(st.sampled_from([56, 55])),
        "petit_au_bout_multiplied": draw(st.booleans()),
        "poignee_bonus": draw(st.lists(st.integers(0, 60), min_size=3, max_size=3)),
        "poignee_beneficiary": draw(st.sampled_from(["winning_side", "declaring_side"])),
        "slam_announced_failed_penalty": draw(st.sampled_from([200, 400])),
        "defense_slam_bonus": draw(st.sampled_from([200, 0])),
        "five_player_split": draw(st.sampled_from(["2:1", "equal"])),
        "misere_bonus": draw(st.sampled_from([0, 10, 20])),
        "misere_kinds": draw(st.sampled_from(["either", "both_required"])),
        "round_margin_to": draw(st.sampled_from([1, 5, 10])),
        "round_mode": draw(st.sampled_from(["nearest", "up"])),
    }
    if players == 5:
        options["five_player_mode"] = draw(st.sampled_from(["called_king", "dead_player"]))
    if draw(st.booleans()):
        options["partial_slam"] = {
            "max_missing": draw(st.sampled_from([1, 3])),
            "requires_announcement": draw(st.booleans()),
        }
    return Rules.from_options(options)


def _attack_piles(
    players: int, dead: int | None, contract: str, partner: bool, won_by: Side | None
) -> st.SearchStrategy[tuple[int, int]]:
    """(oudlers, half-points) of an attack pile that can end such a deal (rule book §3.9-§3.11)."""
    in_play = 4 if dead is not None else players
    chien = 3 if in_play == 5 else 6
    if won_by is not None:
        piles = sorted(slam_piles(chien, contract, False, 2 if partner else 1, won_by))
        return st.sampled_from([(o, h) for h, o in piles])
    return st.integers(0, 3).flatmap(
        lambda o: st.tuples(st.just(o), st.integers(*open_span(in_play, chien, contract, False, o)))
    )


@st.composite
def french_summaries(draw: st.DrawFn) -> FrenchSummary:
    players = draw(st.sampled_from([3, 4, 5]))
    rules = draw(french_rules(players))
    taker = draw(st.integers(0, players - 1))
    others = [s for s in range(players) if s != taker]
    dead = partner = None
    if rules.five_player_mode == "dead_player":
        dead = draw(st.sampled_from(others))
    elif players == 5:
        partner = draw(st.none() | st.sampled_from(range(players)))
    contract = draw(st.sampled_from(rules.contracts))
    chelem_won_by: Side | None = draw(st.sampled_from([None, None, *SIDES]))
    oudlers, half_points = draw(
        _attack_piles(players, dead, contract, partner not in (None, taker), chelem_won_by)
    )
    pab_sides: list[Side] = [side for side in SIDES if chelem_won_by in (None, side)]
    if oudlers == 0:
        pab_sides = [s for s in pab_sides if s != "attack"]
    if oudlers == 3:
        pab_sides = [s for s in pab_sides if s != "defense"]
    petit_au_bout: Side | None = draw(st.sampled_from([None, *pab_sides]))
    chelem_announced = draw(st.booleans())
    summary = FrenchSummary(
        rules=rules,
        taker=taker,
        contract=contract,
        oudlers=oudlers,
        half_points=half_points,
        partner=partner,
        dead=dead,
        petit_au_bout=petit_au_bout,
        chelem_announced=chelem_announced,
        chelem_won_by=chelem_won_by,
    )
    seats = draw(st.lists(st.sampled_from(summary.seats_in_play), unique=True))
    poignees = tuple(
        PoigneeDeclared(
            "attack" if seat in summary.attack else "defense",
            draw(st.sampled_from(LEVELS)),
            draw(st.sampled_from([seat, None])),
        )
        for seat in seats
    )
    misere: tuple[MisereDeclared, ...] = ()
    if rules.misere_bonus:
        kinds = ["both"] if rules.misere_kinds == "both_required" else ["no_trumps", "no_courts", "both"]
        misere_seats = draw(st.lists(st.sampled_from(summary.seats_in_play), unique=True))
        misere = tuple(MisereDeclared(seat, draw(st.sampled_from(kinds))) for seat in misere_seats)
    partial = None
    if rules.partial_slam is not None:
        partial = PartialSlamResult(
            announced=not chelem_announced and draw(st.booleans()),
            made=chelem_won_by is None and draw(st.booleans()),
        )
    return FrenchSummary(
        **{
            **summary.__dict__,
            "poignees": poignees,
            "misere": misere,
            "partial_slam": partial,
        }
    )


@st.composite
def two_player_summaries(draw: st.DrawFn) -> TwoPlayerSummary:
    rules = Rules(
        players=2,
        two_player_chelem=draw(st.booleans()),
        round_margin_to=draw(st.sampled_from([1, 5, 10])),
    )
    oudlers0 = draw(st.integers(0, 3))
    half0 = draw(
        st.integers(9 * oudlers0, 182 - 9 * (3 - oudlers0)).filter(lambda h: h % 2 == 0 or h % 4 == 1)
    )
    summary = TwoPlayerSummary(rules, (half0, 182 - half0), (oudlers0, 3 - oudlers0))
    if two_player_winner(summary) is None:
        summary = TwoPlayerSummary(rules, (half0 + 1, 181 - half0), summary.oudlers)
    announced_by = won_by = None
    if rules.two_player_chelem:
        announced_by = draw(st.sampled_from([None, 0, 1]))
        won_by = draw(st.sampled_from([None, 0, 1]))
    if won_by is not None:
        # the seat that won every trick holds all but an Excuse the other kept (§3.9)
        half, oudlers = draw(st.sampled_from(sorted(slam_piles(0, "garde", False, 1, "attack"))))
        halves, bouts = [182 - half, 182 - half], [3 - oudlers, 3 - oudlers]
        halves[won_by], bouts[won_by] = half, oudlers
        summary = TwoPlayerSummary(rules, (halves[0], halves[1]), (bouts[0], bouts[1]))
    pab_seats = [s for s in (0, 1) if summary.oudlers[s] > 0 and won_by in (None, s)]
    pab = draw(st.sampled_from([None, *pab_seats]))
    return TwoPlayerSummary(rules, summary.half_points, summary.oudlers, pab, announced_by, won_by)


@st.composite
def austrian_summaries(draw: st.DrawFn) -> AustrianSummary:
    rules = Rules(
        game="austrian",
        players=3,
        austrian_jack_value=draw(st.sampled_from([2, 3])),
        austrian_solo_multiplier=draw(st.sampled_from([2, 4])),
        austrian_talon_mode=draw(st.sampled_from(["seed_sequential", "free_choice"])),
        austrian_scoring=draw(st.sampled_from(["positive_only", "zero_sum"])),
    )
    bid = draw(st.sampled_from(AUSTRIAN_BIDS))
    return AustrianSummary(
        rules=rules,
        declarer=draw(st.integers(0, 2)),
        bid=bid,
        talon_half=draw(st.sampled_from([1, 2])) if bid == "threesome" else None,
        game_type=draw(st.sampled_from(["36_or_more", "35_or_less"])),
        points=draw(st.integers(0, 74 if rules.austrian_jack_value == 3 else 70)),
    )


@settings(max_examples=400)
@given(french_summaries())
def test_every_french_row_sums_to_zero_3_14(summary: FrenchSummary) -> None:
    check_summary(summary)
    scores = score(summary)
    assert len(scores) == summary.players
    assert sum(scores) == 0
    if summary.dead is not None:
        assert scores[summary.dead] == 0


@settings(max_examples=200)
@given(french_summaries())
def test_every_french_summary_round_trips_through_json_9(summary: FrenchSummary) -> None:
    again = parse_summary(summary_to_json(summary))
    assert score(again) == score(summary)
    assert summary_to_json(again) == summary_to_json(summary)


@settings(max_examples=200)
@given(french_summaries())
def test_defenders_all_score_the_same_without_misere_3_14(summary: FrenchSummary) -> None:
    scores = score(summary) if not summary.misere else None
    if scores is not None:
        assert len({scores[s] for s in summary.defense}) == 1


@settings(max_examples=200)
@given(two_player_summaries())
def test_every_two_player_row_sums_to_zero_4_4(summary: TwoPlayerSummary) -> None:
    check_summary(summary)
    scores = score(summary)
    assert scores[0] == -scores[1]
    assert parse_summary(summary_to_json(summary)) == summary


@settings(max_examples=300)
@given(austrian_summaries())
def test_austrian_zero_sum_rows_sum_to_zero_and_positive_only_never_negative_5_7(
    summary: AustrianSummary,
) -> None:
    check_summary(summary)
    scores = score(summary)
    value = austrian_value(summary)
    base = 100 if summary.bid == "solo" else 50
    assert value >= base
    if summary.rules.austrian_scoring == "zero_sum":
        assert sum(scores) == 0
        assert scores[summary.declarer] == (2 * value if declarer_wins(summary) else -2 * value)
    else:
        assert min(scores) == 0
        assert sorted(scores) == ([0, 0, value] if declarer_wins(summary) else [0, value, value])
    assert parse_summary(summary_to_json(summary)) == summary

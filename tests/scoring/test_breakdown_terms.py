"""The breakdown sent at a deal's end (rule book §3.13, §3.14, §4.4, §5.7): its terms add up to
the unit, the shares (and misère payments) are the scores, for random summaries of every game
and for whole random deals of every game."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout.games import new_deal
from atout.presets import rules_for
from atout.rules import Rules
from atout.scoring import Summary, parse_summary, score
from atout.scoring.breakdown import breakdown_json


def _properties() -> ModuleType:
    """The summary strategies of test_properties.py (tests are not a package)."""
    path = Path(__file__).with_name("test_properties.py")
    spec = importlib.util.spec_from_file_location("scoring_properties", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_P = _properties()


def check_adds_up(summary: Summary) -> dict[str, Any]:
    """Every invariant of a breakdown; returns it."""
    b = breakdown_json(summary)
    assert sum(t["value"] for t in b["terms"]) == b["unit"]
    shares = [s["value"] for s in b["shares"]]
    misere = b["misere"] or [0] * len(shares)
    assert [a + m for a, m in zip(shares, misere, strict=True)] == b["scores"] == score(summary)
    for share in b["shares"]:
        if share["times"] is not None:
            assert share["times"] * b["unit"] == share["value"]
    contract = b["terms"][0] if b["game"] != "austrian" else None
    if contract is not None:
        assert contract["term"] == "contract"
        assert contract["value"] == contract["sign"] * (25 + contract["margin"]) * contract["multiplier"]
    if b["game"] == "french":
        assert b["made"] == (b["counted"] >= b["needed"])
        assert b["margin"] == abs(b["counted"] - b["needed"])
    return b


@settings(max_examples=300, deadline=None)
@given(summary=_P.french_summaries())
def test_french_terms_add_up_to_the_unit_and_the_scores_3_13_3_14(summary: Summary) -> None:
    check_adds_up(summary)


@settings(max_examples=150, deadline=None)
@given(summary=_P.two_player_summaries())
def test_two_player_terms_add_up_to_the_score_4_4(summary: Summary) -> None:
    b = check_adds_up(summary)
    assert b["scores"][b["winner"]] == b["unit"] == -b["scores"][1 - b["winner"]]


@settings(max_examples=150, deadline=None)
@given(summary=_P.austrian_summaries())
def test_austrian_terms_are_base_plus_k_times_m_5_7(summary: Summary) -> None:
    b = check_adds_up(summary)
    base, margin = b["terms"]
    assert base["value"] == (100 if b["bid"] == "solo" else 50)
    assert margin["value"] == margin["multiplier"] * margin["margin"] and margin["margin"] >= 0


GAMES = [
    rules_for("fft", players=2),
    rules_for("fft", players=3),
    rules_for("fft", players=4),
    rules_for("fft", players=5),
    rules_for("fft", players=5, options={"five_player_mode": "dead_player"}),
    rules_for("fft", players=5, options={"five_player_split": "equal"}),
    rules_for("japanese", players=4),
    rules_for("czech", players=4),
    rules_for("tarock"),
    rules_for("tarock", options={"austrian_scoring": "zero_sum"}),
    rules_for("tarock-seed"),
]


@settings(max_examples=120, deadline=None)
@given(game=st.sampled_from(range(len(GAMES))), seed=st.integers(0, 10**9))
def test_every_played_deal_of_every_game_is_explained_by_its_terms(game: int, seed: int) -> None:
    rules: Rules = GAMES[game]
    rng = random.Random(seed)
    deal = new_deal(rules, dealer=seed % rules.players, rng=rng)
    while not deal.is_over():
        deal.apply(rng.choice(deal.legal_actions()))
    if deal.summary is None:
        return  # a cancelled deal scores nothing and has no breakdown
    b = check_adds_up(deal.summary)
    assert b["scores"] == deal.scores()


@pytest.mark.parametrize(
    ("summary", "terms", "unit", "scores"),
    [
        (  # §3.13: a garde sans made by 9, but a defender takes the Petit au bout
            {"contract": "garde_sans", "oudlers": 2, "points": 50, "petit_au_bout": "defense"},
            [("contract", 136), ("petit_au_bout", -40)],
            96,
            [288, -96, -96, -96],
        ),
        (  # §3.13: a defender shows a poignée and the petite is lost by 2
            {
                "contract": "petite",
                "oudlers": 1,
                "points": 49,
                "poignees": [{"side": "defense", "level": "simple"}],
            },
            [("contract", -27), ("poignee", -20)],
            -47,
            [-141, 47, 47, 47],
        ),
        (  # §3.13: the defence takes every trick
            {
                "contract": "garde",
                "oudlers": 0,
                "points": 8,
                "chelem": {"announced": False, "won_by": "defense"},
            },
            [("contract", -146), ("defense_chelem", -200)],
            -346,
            [-1038, 346, 346, 346],
        ),
        (  # §3.13: an announced chelem that fails although the garde is made by 29
            {"contract": "garde", "oudlers": 2, "points": 70, "chelem": {"announced": True, "won_by": None}},
            [("contract", 108), ("chelem", -200)],
            -92,
            [-276, 92, 92, 92],
        ),
    ],
)
def test_the_rule_book_worked_examples_term_by_term_3_13(
    summary: dict[str, Any], terms: list[tuple[str, int]], unit: int, scores: list[int]
) -> None:
    b = check_adds_up(parse_summary({"game": "french", "players": 4, "taker": 0, **summary}))
    assert [(t["term"], t["value"]) for t in b["terms"]] == terms
    assert b["unit"] == unit and b["scores"] == scores


def test_five_players_split_taker_twice_partner_once_3_14() -> None:
    b = check_adds_up(
        parse_summary(
            {
                "game": "french",
                "players": 5,
                "taker": 0,
                "partner": 2,
                "contract": "garde",
                "oudlers": 2,
                "points": 51,
            }
        )
    )
    assert b["unit"] == 70
    assert [(s["role"], s["times"]) for s in b["shares"]] == [
        ("taker", 2),
        ("defender", -1),
        ("partner", 1),
        ("defender", -1),
        ("defender", -1),
    ]


def test_austrian_second_half_game_2_is_50_plus_4_times_5_5_7() -> None:
    b = check_adds_up(
        parse_summary(
            {
                "game": "austrian",
                "players": 3,
                "declarer": 0,
                "bid": "threesome",
                "talon_half": 2,
                "game_type": "35_or_less",
                "points": 30,
            }
        )
    )
    assert b["made"] and b["unit"] == 70 and b["scores"] == [70, 0, 0]
    assert b["terms"][1] == {"term": "austrian_margin", "margin": 5, "multiplier": 4, "value": 20}

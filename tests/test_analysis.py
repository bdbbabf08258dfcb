"""The analysis of a finished deal (docs/analysis.md): every value is the exact solver's, a card
marked as a mistake loses exactly what it says, a deal played by the solver has no mistake, the
values hold together from card to card, and the hindsight facts are what the rules score."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout.analysis import AnalysisError, CardAnalysis, DealAnalysis, analyse_record, budget, hindsight
from atout.analysis.line import Line
from atout.bots.random_bot import RandomBot
from atout.bots.rules import RulesBot
from atout.cards import card_name
from atout.engine.austrian.cards import austrian_points
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.french import FrenchDeal
from atout.games import Deal, is_card_play, new_deal
from atout.presets import rules_for
from atout.records import deal_to_record, new_deal_from_record, replay
from atout.rules import Rules
from atout.scoring import FrenchSummary, score
from atout.solver import Position, Solver
from atout.solver.austrian import AustrianPosition, AustrianSolver

GAMES = {
    "3 players": Rules(players=3),
    "4 players": Rules(players=4),
    "5 players": Rules(players=5),
    "dead player": Rules(players=5, five_player_mode="dead_player"),
    "austrian": rules_for("tarock"),
}


def played_deal(rules: Rules, seed: int, bot: str = "random") -> Deal:
    """A deal played to the end by bots, with a contract (not cancelled)."""
    for s in range(seed, seed + 100):
        rng = random.Random(s)
        deal = new_deal(rules, dealer=s % rules.players, rng=rng)
        bots = [RulesBot() if bot == "rules" else RandomBot(rng) for _ in range(rules.players)]
        while not deal.is_over():
            seat = deal.current_player
            deal.apply(bots[seat].choose(deal.view(seat), deal.legal_actions()))
        if deal.summary is not None:
            return deal
    raise AssertionError("no deal was played")


def engine_of(deal: Deal) -> FrenchDeal | AustrianDeal:
    inner = hindsight.french_inner(deal)
    if inner is not None:
        return inner
    assert isinstance(deal, AustrianDeal)
    return deal


def solved(deal: Deal) -> tuple[dict[int, float], float]:
    """Every legal card's value by a fresh solver, and the position's value, in points."""
    engine = engine_of(deal)
    if isinstance(engine, AustrianDeal):
        pos = AustrianPosition.from_deal(engine)
        base = austrian_points(engine.declarer_pile(), engine.rules.austrian_jack_value)
        solver = AustrianSolver(pos)
        values = {c: float(base + v) for c, v in solver.move_values().items()}
        return values, float(base + AustrianSolver(pos).solve().value)
    french = Position.from_deal(engine)
    return {c: v / 2 for c, v in Solver(french).move_values().items()}, Solver(french).solve().value / 2


def tricks_of(deal: Deal) -> int:
    engine = engine_of(deal)
    return engine.trick_no


def check_chain(analysis: DealAnalysis) -> None:
    """The invariants of an analysis: losses against the best card, values linked card to card."""
    total = 0.0
    for i, card in enumerate(analysis.cards):
        assert card.lost >= 0
        mine = card.values[card.card]
        best_value = _optimum(analysis, card)
        assert abs(mine - best_value) == card.lost
        assert (card.lost > 0) == bool(card.best_cards)
        assert card.card not in card.best_cards
        assert all(card.values[c] == best_value for c in card.best_cards)
        total += mine - best_value
        after = analysis.actual if i + 1 == len(analysis.cards) else _optimum(analysis, analysis.cards[i + 1])
        assert mine == after  # the value after the card played is the next position's
    assert analysis.best == _optimum(analysis, analysis.cards[0])
    assert analysis.actual - analysis.best == total


def _optimum(analysis: DealAnalysis, card: CardAnalysis) -> float:
    """The best value at a card's position for the side that played it."""
    wants_more = card.attack == analysis.attack_maximises
    return max(card.values.values()) if wants_more else min(card.values.values())


def analyse(deal: Deal, **options: Any) -> DealAnalysis:
    return analyse_record(deal_to_record(deal), **options)


@pytest.mark.parametrize("game", GAMES)
def test_every_value_is_the_exact_solver_s_on_a_whole_deal(game: str) -> None:
    deal = played_deal(GAMES[game], seed=11, bot="rules")
    tricks = tricks_of(deal)
    analysis = analyse(deal, from_trick=tricks - 4)
    record = deal_to_record(deal)
    assert analysis.from_trick == tricks - 4 and {c.trick for c in analysis.cards} == set(
        range(tricks - 4, tricks + 1)
    )
    for card in analysis.cards:
        before = replay(record, upto=card.index)
        values, _ = solved(before)
        assert card.values == values, (game, card.index)
    check_chain(analysis)
    summary = deal.summary
    assert summary is not None
    assert analysis.actual == summary.points  # type: ignore[union-attr]


@pytest.mark.parametrize("game", ["4 players", "5 players", "austrian"])
def test_a_marked_card_loses_exactly_what_it_says(game: str) -> None:
    for seed in range(3, 40):  # the first random deal whose last tricks hold a mistake
        deal = played_deal(GAMES[game], seed)
        analysis = analyse(deal, from_trick=tricks_of(deal) - 5, ecart=False)
        if analysis.mistakes:
            break
    record = deal_to_record(deal)
    assert analysis.mistakes
    for card in analysis.mistakes:
        outcomes = {}
        for choice in (card.card, card.best_cards[0]):
            after = replay(record, upto=card.index)
            after.apply(after.parse(f"play {card_name(choice)}"))
            while not after.is_over() and not is_card_play(after):
                after.apply(after.legal_actions()[0])
            outcomes[choice] = _value_now(after)
        assert abs(outcomes[card.best_cards[0]] - outcomes[card.card]) == card.lost


def _value_now(deal: Deal) -> float:
    """The attack's final points with best play from here (the deal may be over)."""
    if deal.is_over():
        summary = deal.summary
        assert summary is not None
        return float(summary.points)  # type: ignore[union-attr]
    return solved(deal)[1]


@pytest.mark.parametrize("game", ["4 players", "dead player", "austrian"])
def test_a_deal_played_by_the_solver_has_no_mistake(game: str) -> None:
    deal = played_deal(GAMES[game], seed=5)
    start = tricks_of(deal) - 5
    record = deal_to_record(deal)
    first = next(c for c in Line(new_deal_from_record(record), record["actions"]).played if c.trick == start)
    again = replay(record, upto=first.index)
    while not again.is_over():
        legal = again.legal_actions()
        if not is_card_play(again, legal):
            again.apply(legal[0])
            continue
        engine = engine_of(again)
        if isinstance(engine, AustrianDeal):
            card = AustrianSolver(AustrianPosition.from_deal(engine)).solve().best_card
        else:
            card = Solver(Position.from_deal(engine)).solve().best_card
        again.apply(again.parse(f"play {card_name(card)}"))
    analysis = analyse(again, from_trick=start)
    assert analysis.mistakes == []
    assert analysis.best == analysis.actual
    check_chain(analysis)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), game=st.sampled_from(sorted(GAMES)))
def test_the_values_hold_together_from_card_to_card(seed: int, game: str) -> None:
    deal = played_deal(GAMES[game], seed)
    analysis = analyse(deal, from_trick=tricks_of(deal) - 2, ecart=False)
    check_chain(analysis)
    contract = [f for f in analysis.hindsight if f["kind"] == "contract"]
    assert contract and contract[0]["params"]["points"] == analysis.best


def test_within_a_time_budget_the_tricks_solved_are_exact() -> None:
    deal = played_deal(GAMES["4 players"], seed=2, bot="rules")
    analyse(deal, from_trick=18)  # loads the compiled solver, as a server's worker has it
    began = time.monotonic()
    quick = analyse(deal, seconds=1.0)
    spent = time.monotonic() - began
    assert spent < 3.0
    assert 1 <= quick.from_trick <= 18 and quick.cards[0].trick == quick.from_trick
    exact = analyse(deal, from_trick=quick.from_trick, ecart=False)
    assert [c.to_json() for c in quick.cards] == [c.to_json() for c in exact.cards]
    assert quick.best == exact.best
    data = quick.to_json()
    assert data["format"] == "atout-analysis" and data["version"] == 1 and data["open_hands"] is True
    assert set(data) >= {
        "game",
        "players",
        "taker",
        "from_trick",
        "best",
        "actual",
        "cards",
        "hindsight",
        "seconds",
    }
    assert set(data["cards"][0]) >= {"index", "trick", "seat", "card", "side", "lost", "best_cards"}


def test_the_bid_one_level_away_is_scored_with_the_same_card_play() -> None:
    deal = played_deal(Rules(players=4, bid_pousse=True), seed=8)
    summary = deal.summary
    assert isinstance(summary, FrenchSummary)
    facts = hindsight.bid_facts(deal)
    ladder = (
        ["petite", "pousse", "garde"]
        if summary.contract in ("petite", "pousse", "garde")
        else ["garde_sans", "garde_contre"]
    )
    at = ladder.index(summary.contract)
    assert [f["params"]["contract"] for f in facts] == [
        c for c in (ladder[at - 1] if at else None, ladder[at + 1] if at + 1 < len(ladder) else None) if c
    ]
    for fact in facts:
        params = fact["params"]
        assert params["actual_score"] == deal.scores()[summary.taker]
        if (
            "garde" in params["contract"]
            and "garde" in summary.contract
            and params["contract"] != summary.contract
        ):
            continue
        assert params["score"] == score(replace(summary, contract=params["contract"]))[summary.taker]


def test_an_ecart_fact_is_the_best_change_tried_and_gains_what_it_says() -> None:
    for seed in range(20):
        deal = played_deal(Rules(players=4), seed)
        summary = deal.summary
        assert isinstance(summary, FrenchSummary)
        if summary.contract in ("petite", "garde"):
            break
    record = deal_to_record(deal)
    trick = tricks_of(deal) - 3
    analysis = analyse_record(record, from_trick=trick)
    line = Line(new_deal_from_record(record), record["actions"])
    for _ in range(tricks_of(deal), trick - 1, -1):
        line.analyse_trick(_)
    pairs = hindsight.ecart_candidates(line, record, trick)
    values = [
        (h, e, v) for h, e, v in hindsight.ecart_alternatives(line, record, trick, pairs) if v is not None
    ]
    gains = [(v - line.start_values[trick]) / 2 for _, _, v in values]
    facts = [f for f in analysis.hindsight if f["kind"] == "ecart"]
    if max(gains, default=0) > 0:
        assert facts and facts[0]["params"]["gain"] == max(gains)
        assert facts[0]["params"]["tried"] == len(pairs)
    else:
        assert facts == []


def _cancelled() -> dict[str, Any]:
    for s in range(50):
        deal = FrenchDeal.new(Rules(players=4), dealer=0, rng=random.Random(s))
        while not deal.is_over():
            deal.apply(deal.legal_actions()[0])  # everyone passes
        if deal.summary is None:
            return deal_to_record(deal)
    raise AssertionError("no cancelled deal")


def _petit_imprenable() -> dict[str, Any]:
    rules = Rules(players=4, petit_sec_rule="petit_imprenable")
    for s in range(5000):
        rng = random.Random(s)
        deal = FrenchDeal.new(rules, dealer=0, rng=rng)
        deal.play_out(rng)
        if deal.summary is not None and deal.petit_imprenable_seat >= 0:
            return deal_to_record(deal)
    raise AssertionError("no deal with a petit imprenable")


def _unfinished() -> dict[str, Any]:
    record = deal_to_record(played_deal(Rules(players=4), 1))
    record["actions"] = record["actions"][:-3]
    del record["result"]
    return record


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: deal_to_record(played_deal(Rules(players=2), 1)), "the 2-player game is not analysed"),
        (_unfinished, "the deal is not finished"),
        (_cancelled, "the deal was not played (all passed"),
        (_petit_imprenable, "a deal with the petit imprenable"),
        (lambda: {"format": "atout-deal", "version": 1, "players": 7}, "the record does not replay: players"),
        (lambda: [1, 2], "a deal record is a JSON object"),
    ],
)
def test_a_record_it_cannot_analyse_says_why(make: Any, message: str | None) -> None:
    record = make()
    with pytest.raises(AnalysisError) as error:
        analyse_record(record, from_trick=1)
    assert str(error.value).startswith(message)
    assert "\n" not in str(error.value)


def test_from_trick_out_of_the_deal_is_refused() -> None:
    record = deal_to_record(played_deal(Rules(players=4), 1))
    with pytest.raises(AnalysisError, match="from_trick: the deal has tricks 1 to 18, not 19"):
        analyse_record(record, from_trick=19)


def test_a_search_past_its_deadline_is_ended_and_what_it_sent_is_kept() -> None:
    def work() -> Any:
        yield "first"
        time.sleep(30)  # a search that would overrun
        yield "never"

    began = time.monotonic()
    items, ended = budget.run_forked(work, time.monotonic() + 0.5)
    assert items == ["first"] and not ended
    assert time.monotonic() - began < 2.0


def test_a_failure_in_the_search_is_told_in_one_line() -> None:
    def work() -> Any:
        yield 1
        raise ValueError("no such card")

    with pytest.raises(RuntimeError, match="ValueError: no such card"):
        budget.run_forked(work, time.monotonic() + 5.0)


def test_without_fork_the_search_stops_before_a_piece_likely_to_overrun() -> None:
    pauses = [0.01, 0.05, 1.0, 30.0]

    def work() -> Any:
        for pause in pauses:
            time.sleep(pause)
            yield pause

    began = time.monotonic()
    items, ended = budget.run_here(work, time.monotonic() + 4.0)
    assert items == [0.01, 0.05, 1.0] and not ended  # after 1 s, ten times as long would overrun
    assert time.monotonic() - began < 4.0

"""rule book §5.3 game declaration: game 1 (36 or more) or game 2 (35 or less), after the exchange."""

from __future__ import annotations

import random

import pytest

from atout.engine.errors import IllegalActionError
from atout.engine.events import GameDeclared
from atout.engine.phase import Phase
from atout.scoring.austrian import declarer_wins

from .conftest import build, run


def test_game_is_declared_after_the_exchange_5_3() -> None:
    deal = run(build({1: "10C 9C 8C"}), "pass", "threesome", "pass", "accept")
    with pytest.raises(IllegalActionError, match="discard phase"):
        run(deal, "36_or_more")
    run(deal, "discard 10C", "discard 9C", "discard 8C")
    assert deal.phase is Phase.GAME and deal.current_player == 1
    assert [str(a) for a in deal.legal_actions()] == ["36_or_more", "35_or_less"]
    run(deal, "35_or_less")
    assert deal.game_type == "35_or_less" and deal.events[-1] == GameDeclared(1, "35_or_less")
    # play then starts with forehand, not the declarer
    assert deal.phase is Phase.PLAY and deal.current_player == 0


def test_solo_declares_its_game_before_play_5_3() -> None:
    deal = run(build(), "pass", "pass", "solo")
    assert deal.phase is Phase.GAME and deal.current_player == 2
    with pytest.raises(IllegalActionError, match="game phase"):
        run(deal, "KS")
    run(deal, "game 1")
    assert deal.phase is Phase.PLAY and deal.game_type == "36_or_more"


def test_without_game_2_there_is_no_declaration_6_2_a5() -> None:
    deal = run(build(austrian_allow_game2=False), "solo", "pass", "pass")
    assert deal.phase is Phase.PLAY and deal.game_type == "36_or_more"
    assert deal.events[-1] == GameDeclared(0, "36_or_more")
    assert len(deal.history) == 3  # no decision was taken
    deal.play_out(random.Random(0))
    assert deal.summary is not None and deal.summary.game_type == "36_or_more"


@pytest.mark.parametrize("game", ["36_or_more", "35_or_less"])
def test_declarer_wins_game_1_with_36_or_more_and_game_2_with_35_or_less_5_3(game: str) -> None:
    for seed in range(20):
        deal = run(build(), "solo", "pass", "pass", game)
        deal.play_out(random.Random(seed))
        summary = deal.summary
        assert summary is not None and summary.game_type == game
        won = summary.points >= 36 if game == "36_or_more" else summary.points <= 35
        assert declarer_wins(summary) == won
        scores = deal.scores()
        assert (scores[0] > 0) == won and (scores[1] > 0) == (not won)

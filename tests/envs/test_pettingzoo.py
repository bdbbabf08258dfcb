"""The PettingZoo environment (:mod:`atout.envs.pettingzoo`) passes PettingZoo's own checks for
every game (French Tarot for 2 to 5 players, five with a dead player, Austrian Tarock) and more
presets, deals by its seed, scores like the engine, and refuses an illegal action by its rule."""

from __future__ import annotations

import doctest
import functools
import random
import re
import types
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test
from pettingzoo.test.seed_test import parallel_seed_test

from atout.engine.errors import IllegalActionError
from atout.engine.wire import view_from_json
from atout.envs.encoding import Encoding
from atout.envs.pettingzoo import env, parallel_env, raw_env, render_view
from atout.games import deal_from_dealt
from atout.presets import rules_for
from atout.rules import Rules

GAMES: dict[str, Rules] = {
    "french 2": rules_for("fft", players=2),
    "french 3": rules_for("fft", players=3),
    "french 4": rules_for("fft", players=4),
    "french 5": rules_for("fft", players=5),
    "french 5 dead player": rules_for("fft", players=5, five_player_mode="dead_player"),
    "austrian": rules_for("tarock"),
    "japanese 4": rules_for("japanese", players=4),
    "czech 5": rules_for("czech", players=5),
    "tarock-seed": rules_for("tarock-seed"),
}
# PettingZoo's checks warn about what they find odd in any environment: each warning here is
# one that a card game gives by its nature, and every other one fails the test.
EXPECTED_WARNINGS = (
    "Observation numpy array is all zeros.",  # never: each agent holds cards; kept for safety
    "Action mask numpy array is all zeros",  # an agent not to act has nothing legal
    # the observation is a Dict of the vector and the action mask, as in PettingZoo's card games
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    "Observation is not a NumPy array",
)


def _check(run: Any, also: tuple[str, ...] = ()) -> None:
    """Run a PettingZoo check; any warning but those a card game gives by nature (and ``also``)
    fails."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run()
    expected = EXPECTED_WARNINGS + also
    unexpected = sorted({str(w.message) for w in caught if not str(w.message).startswith(expected)})
    assert not unexpected, unexpected


@pytest.mark.parametrize("name", list(GAMES))
def test_pettingzoo_api_test(name: str) -> None:
    _check(lambda: api_test(env(rules=GAMES[name]), num_cycles=300))


@pytest.mark.parametrize("name", list(GAMES))
def test_pettingzoo_seed_test(name: str) -> None:
    _check(lambda: seed_test(functools.partial(env, rules=GAMES[name]), num_cycles=300))


@pytest.mark.parametrize("name", list(GAMES))
def test_pettingzoo_max_cycles_test(name: str) -> None:
    """PettingZoo's cycle, in which every agent steps once: the rotation order (the agents take
    turns in seat order, the one whose decision is due acts) and the parallel environment (one
    decision a step). Seeded: a deal all pass in its first cycles may end before the 4 cycles."""
    module = types.SimpleNamespace(
        env=functools.partial(env, rules=GAMES[name], turns="rotation", seed=11),
        parallel_env=functools.partial(parallel_env, rules=GAMES[name], seed=11),
    )
    _check(lambda: max_cycles_test(module))


@pytest.mark.parametrize("name", ["french 4", "french 5 dead player", "austrian", "french 2"])
def test_the_parallel_environment_passes_the_parallel_checks(name: str) -> None:
    # the dead seat of a five-player table is a possible agent that is never an agent of the deal
    dead_seat = ("No agents present but not all possible_agents are terminated",) if "dead" in name else ()
    _check(lambda: parallel_api_test(parallel_env(rules=GAMES[name]), num_cycles=300), also=dead_seat)
    _check(lambda: parallel_seed_test(functools.partial(parallel_env, rules=GAMES[name]), num_cycles=300))


@pytest.mark.parametrize("name", ["french 4", "french 5 dead player", "austrian", "french 2"])
def test_the_rotation_order_passes_the_api_test(name: str) -> None:
    _check(lambda: api_test(env(rules=GAMES[name], turns="rotation"), num_cycles=300))


def _random_deal(game: raw_env, rng: random.Random) -> tuple[list[int], dict[str, float]]:
    """Play a deal with random legal actions: the actions, and each agent's total reward."""
    actions: list[int] = []
    totals: dict[str, float] = {}
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            game.step(None)
            continue
        view = view_from_json(info["view"])
        assert view.seat == int(agent.removeprefix("player_")) == game.deal.current_player
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        assert legal == sorted(int(a) for a in view.legal_actions)
        action = rng.choice(legal)
        actions.append(action)
        game.step(action)
    return actions, totals


@pytest.mark.parametrize("name", list(GAMES))
def test_a_deal_scores_like_the_engine_and_the_seed_deals_it_again(name: str) -> None:
    """Whole random deals: the rewards are the engine's scores of the same actions on the same
    cards; the mask and the info's view are the acting seat's; the seed deals the same deal."""
    rules = GAMES[name]
    game = env(rules=rules)
    for seed in range(6):
        game.reset(seed=seed)
        dealt, dealer, agents = game.deal.dealt(), game.deal.dealer, list(game.agents)
        actions, totals = _random_deal(game, random.Random(seed))
        replay = deal_from_dealt(rules, dealer, dealt)
        for action in actions:
            replay.apply(replay.legal_actions()[[int(a) for a in replay.legal_actions()].index(action)])
        assert replay.is_over()
        assert totals == {
            agent: float(replay.scores()[int(agent.removeprefix("player_"))]) for agent in agents
        }
        game.reset(seed=seed)
        assert game.deal.dealt() == dealt and game.deal.dealer == dealer


@pytest.mark.parametrize("turns", ["engine", "rotation"])
def test_sampling_an_action_space_without_a_mask_draws_a_legal_action(turns: str) -> None:
    game = env(rules=GAMES["french 5"], turns=turns, seed=4)
    game.reset()
    drawn = 0
    for agent in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        action = int(game.action_space(agent).sample())
        if observation["action_mask"].any():
            assert observation["action_mask"][action] == 1
            drawn += 1
        game.step(action)
    assert drawn > 20


@pytest.mark.parametrize("name", ["french 3", "french 5", "french 5 dead player", "austrian"])
def test_a_deal_everyone_passes_ends_with_zero_for_everyone(name: str) -> None:
    game = env(rules=GAMES[name])
    game.reset(seed=8)
    ended: dict[str, float] = {}
    for agent in game.agent_iter():
        _, reward, terminated, truncated, _ = game.last()
        if terminated:
            ended[agent] = reward
        pass_ = game.deal.parse("pass") if not (terminated or truncated) else None
        game.step(None if pass_ is None else int(pass_))
    assert game.deal.outcome.startswith("all passed")
    assert ended == dict.fromkeys(ended, 0.0) and len(ended) == (
        4 if "dead" in name else game.encoding.players
    )


def test_a_dead_player_is_no_agent_of_the_deal() -> None:
    game = env(rules=GAMES["french 5 dead player"], dealer=2)
    game.reset(seed=3)
    assert game.possible_agents == [f"player_{seat}" for seat in range(5)]
    assert game.agents == ["player_0", "player_1", "player_3", "player_4"]
    acted = set(_random_deal_agents(game))
    assert "player_2" not in acted and len(acted) == 4


def _random_deal_agents(game: raw_env) -> list[str]:
    seen = []
    for agent in game.agent_iter():
        _, _, terminated, truncated, _ = game.last()
        if not (terminated or truncated):
            seen.append(agent)
        game.step(None if terminated or truncated else game.action_space(agent).sample())
    return seen


def test_an_illegal_action_is_refused_by_its_rule_and_changes_nothing() -> None:
    game = env(rules=GAMES["french 4"])
    game.reset(seed=5)
    before = game.deal.view(game.deal.current_player)
    play = 0  # "play 1S" while the table bids
    with pytest.raises(IllegalActionError, match=r"must bid \(rule book §3"):
        game.step(play)
    assert game.deal.view(game.deal.current_player) == before
    with pytest.raises(ValueError, match=r"action 999 is outside the action space 0\.\.274"):
        game.step(999)
    with pytest.raises(ValueError, match="must act: None is only for an agent whose deal is over"):
        game.step(None)


def test_bad_options_are_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="turns must be one of engine, rotation, not 'sideways'"):
        env(turns="sideways")
    with pytest.raises(ValueError, match="give either rules, or a preset with players and options, not both"):
        env(rules=GAMES["french 4"], players=3)
    with pytest.raises(ValueError, match="dealer must be a seat from 0 to 3, not 4"):
        env(players=4, dealer=4)
    with pytest.raises(ValueError, match="max_cycles must be 1 or more, not 0"):
        env(players=4, max_cycles=0)


@pytest.mark.parametrize("name", ["french 4", "french 2", "austrian"])
def test_render_says_the_hand_and_the_trick_in_words(name: str) -> None:
    game = env(rules=GAMES[name], render_mode="ansi")
    rng = random.Random(2)
    game.reset(seed=2)
    while game.deal.is_over() or not game.deal.view(game.deal.current_player).trick:
        if game.deal.is_over():  # all passed: another deal
            game.reset()
        agent = game.agent_selection
        game.step(rng.choice(np.flatnonzero(game.observe(agent)["action_mask"]).tolist()))
    text = game.render()
    assert text is not None
    seat = game.deal.current_player
    hand_line = next(line for line in text.splitlines() if line.startswith("Your hand: "))
    assert hand_line.count(", ") + 1 == game.deal.view(seat).hand.bit_count()
    assert text.startswith(f"Seat {seat + 1}:")
    table = next(line for line in text.splitlines() if line.startswith("On the table: "))
    assert " of " in table or "Excuse" in table or "Sküs" in table
    assert render_view(game.deal.view(seat)) == text
    assert env(rules=GAMES[name]).render() is None


DOC = Path(__file__).resolve().parents[2] / "docs" / "envs.md"


def test_the_examples_of_docs_envs_md_run_as_written() -> None:
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS, report=True)
    assert result.attempted >= 15
    assert result.failed == 0


def test_docs_envs_md_names_every_block_and_size() -> None:
    """The layout table names each block of each game, and the sizes table gives the real lengths."""
    text = DOC.read_text(encoding="utf-8")
    named = set(re.findall(r"^\| `(\w+)`", text, re.MULTILINE)) | {"second_half"}
    sizes = {
        "2 players": GAMES["french 2"],
        "3 players": GAMES["french 3"],
        "4 players": GAMES["french 4"],
        "5 players": GAMES["french 5"],
        "Austrian Tarock": GAMES["austrian"],
    }
    for label, rules in sizes.items():
        encoding = Encoding(rules)
        assert {block for block, _, _ in encoding.describe()} <= named
        row = next(line for line in text.splitlines() if line.startswith("| ") and label in line)
        assert f"| {encoding.observation_shape[0]} | {encoding.action_count} |" in row

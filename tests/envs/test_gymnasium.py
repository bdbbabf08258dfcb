"""The Gymnasium environment for one seat (:mod:`atout.envs.gymnasium`) passes Gymnasium's
``check_env`` for every game, plays whole deals against atout's bots from the seat's view only,
and pays the seat's score."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from atout.engine.errors import IllegalActionError
from atout.engine.wire import view_from_json
from atout.envs.gymnasium import DEFAULT_ILLEGAL_REWARD, REGISTERED, SingleSeatEnv
from atout.games import deal_from_dealt

GAMES: dict[str, dict[str, Any]] = {
    "french 2": {"players": 2},
    "french 3": {"players": 3},
    "french 4": {"players": 4},
    "french 5": {"players": 5},
    "french 5 dead player": {"players": 5, "options": {"five_player_mode": "dead_player"}},
    "austrian": {"preset": "tarock"},
    "japanese 4": {"preset": "japanese", "players": 4},
}


@pytest.mark.parametrize("name", list(GAMES))
def test_check_env(name: str) -> None:
    """Gymnasium's checker, on the environment made from its registered id where it has one."""
    ids = [gym_id for gym_id, kwargs in REGISTERED.items() if kwargs == GAMES[name]]
    if ids:
        env = gymnasium.make(ids[0], opponents="random", render_mode="ansi").unwrapped
    else:
        env = SingleSeatEnv(opponents="random", render_mode="ansi", **GAMES[name])
    assert isinstance(env, SingleSeatEnv)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    messages = {str(w.message) for w in caught}
    if not ids:  # no spec to make it again in the other render modes
        messages = {m for m in messages if "Not able to test alternative render modes" not in m}
    assert not messages


@pytest.mark.parametrize("name", list(GAMES))
def test_a_deal_against_the_rules_bot_pays_the_seats_score(name: str) -> None:
    """Whole deals against the rules bot, from each seat: the observation's mask and the info's
    view are the seat's, and the reward is the seat's score in the engine's replay of the deal."""
    seats = 3 if name == "austrian" else GAMES[name]["players"]
    for seat in range(seats):
        env = SingleSeatEnv(seat=seat, opponents="rules", **GAMES[name])
        observation, info = env.reset(seed=seat)
        dealt, dealer = env.deal.dealt(), env.deal.dealer
        if "dead" in name:
            assert dealer != seat
        terminated, reward, decisions = False, 0.0, 0
        while not terminated:
            view = view_from_json(info["view"])
            assert view.seat == seat == env.deal.current_player
            legal = np.flatnonzero(observation["action_mask"]).tolist()
            assert legal == sorted(int(a) for a in view.legal_actions)
            assert env.action_masks().tolist() == observation["action_mask"].astype(bool).tolist()
            observation, reward, terminated, truncated, info = env.step(legal[decisions % len(legal)])
            assert not truncated
            decisions += 1
        replay = deal_from_dealt(env.rules, dealer, dealt)
        for action in env.deal.history:
            replay.apply(replay.legal_actions()[[int(a) for a in replay.legal_actions()].index(int(action))])
        assert replay.is_over() and reward == float(replay.scores()[seat])
        assert not observation["action_mask"].any()


def test_the_seed_deals_the_same_deal_and_the_bots_play_alike() -> None:
    first, second = SingleSeatEnv(players=4, opponents="random"), SingleSeatEnv(players=4, opponents="random")
    for seed in range(5):
        a, _ = first.reset(seed=seed)
        b, _ = second.reset(seed=seed)
        assert np.array_equal(a["observation"], b["observation"])
        while True:
            action = int(np.flatnonzero(a["action_mask"])[0])
            a, reward_a, done, _, _ = first.step(action)
            b, reward_b, _, _, _ = second.step(action)
            assert np.array_equal(a["observation"], b["observation"]) and reward_a == reward_b
            if done:
                break
        assert first.deal.history == second.deal.history


def test_an_illegal_action_ends_the_episode_or_raises_as_chosen() -> None:
    env = SingleSeatEnv(players=4, opponents="random")
    observation, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (DEFAULT_ILLEGAL_REWARD, True, False)
    assert "(rule book §" in info["illegal"]
    with pytest.raises(RuntimeError, match="the deal is over: call reset"):
        env.step(0)
    strict = SingleSeatEnv(players=4, opponents="random", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError, match="rule book"):
        strict.step(illegal)


def test_bad_options_are_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="seat must be from 0 to 3, not 4"):
        SingleSeatEnv(players=4, seat=4)
    with pytest.raises(ValueError, match="opponents: give one bot or 3 \\(one per other seat\\), not 2"):
        SingleSeatEnv(players=4, opponents=["rules", "random"])
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        SingleSeatEnv(players=4, opponents="nobody")
    with pytest.raises(ValueError, match="illegal_action must be 'end' or 'raise', not 'ignore'"):
        SingleSeatEnv(players=4, illegal_action="ignore")  # type: ignore[arg-type]


def test_each_other_seat_may_have_its_own_bot() -> None:
    env = SingleSeatEnv(players=3, seat=1, opponents=["random", "expert:fast"])
    assert env.opponent_specs == {0: "random", 2: "expert:fast"}
    env.reset(seed=4)
    done = False
    while not done:
        _, _, done, _, _ = env.step(env.action_space.sample())
    assert env.deal.is_over()

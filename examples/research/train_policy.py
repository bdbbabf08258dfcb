"""Train a linear softmax policy for French Tarot by self-play on atout's PettingZoo environment.

    python examples/research/train_policy.py --minutes 3 --out policy.npz

Every seat of every deal is played by the same policy: the logits of the legal actions are a
linear function of the seat's observation (``atout.envs.encoding``), the action is drawn from their
softmax, and at the end of the deal each seat's decisions are pushed towards what it did in
proportion to its score (REINFORCE, the score divided by 100; the seats' scores sum to zero, so
their mean, 0, is the baseline). Numpy
only, one core. The policy is saved as ``W`` and ``b`` with the rules it learnt, for
``policy_bot.py`` to play in the arena (docs/research.md).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from atout.envs.encoding import Encoding
from atout.envs.pettingzoo import env as make_env
from atout.presets import rules_for

Floats = npt.NDArray[np.float64]


@dataclass
class Trained:
    """A trained policy and how much it played to learn."""

    weights: Floats
    bias: Floats
    deals: int
    decisions: int


def policy(weights: Floats, bias: Floats, observation: Floats, mask: npt.NDArray[np.int8]) -> Floats:
    """The probability of each action: a softmax over the legal actions' linear logits."""
    logits = weights @ observation + bias
    logits = np.where(mask > 0, logits, -np.inf)
    logits -= logits.max()
    weights_of = np.exp(logits)
    probabilities: Floats = weights_of / weights_of.sum()
    return probabilities


def train(preset: str, players: int, minutes: float, seed: int, rate: float) -> Trained:
    """Self-play REINFORCE for ``minutes``; returns the weights and what the training saw."""
    rules = rules_for(preset, players=players)
    environment = make_env(rules=rules, debug_views=False)
    encoding = Encoding(rules)  # the environment's observation layout and action space
    size, actions = encoding.observation_shape[0], encoding.action_count
    weights, bias = np.zeros((actions, size)), np.zeros(actions)
    rng = np.random.default_rng(seed)
    deals, decisions = 0, 0
    end = time.monotonic() + minutes * 60
    while time.monotonic() < end:
        environment.reset(seed=int(rng.integers(2**31)))
        steps: dict[str, list[tuple[Floats, Floats, int]]] = {a: [] for a in environment.agents}
        returns = dict.fromkeys(environment.agents, 0.0)
        for agent in environment.agent_iter():
            observation, reward, terminated, truncated, _info = environment.last()
            returns[agent] += float(reward)
            if terminated or truncated:
                environment.step(None)
                continue
            x = observation["observation"].astype(np.float64)
            p = policy(weights, bias, x, observation["action_mask"])
            action = int(rng.choice(actions, p=p))
            steps[agent].append((x, p, action))
            environment.step(action)
        for agent, taken in steps.items():
            advantage = returns[agent] / 100.0
            for x, p, action in taken:
                grad = -p
                grad[action] += 1.0
                weights += rate * advantage * np.outer(grad, x)
                bias += rate * advantage * grad
            decisions += len(taken)
        deals += 1
    return Trained(weights, bias, deals, decisions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--minutes", type=float, default=3.0, help="how long to train (default 3)")
    parser.add_argument("--out", type=Path, default=Path("policy.npz"), help="where to save the policy")
    parser.add_argument("--preset", default="fft", help="the rules preset (default fft)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rate", type=float, default=0.001, help="the learning rate")
    args = parser.parse_args()
    started = time.monotonic()
    if args.minutes <= 0 or args.players not in (3, 4, 5):
        parser.error("--minutes must be positive and --players 3, 4 or 5")
    started = time.monotonic()
    result = train(args.preset, args.players, args.minutes, args.seed, args.rate)
    rules = json.dumps({"preset": args.preset, "players": args.players})
    np.savez(args.out, W=result.weights, b=result.bias, rules=rules)
    seconds = time.monotonic() - started
    print(
        f"trained on {result.deals:,} deals ({result.decisions:,} decisions) in {seconds:.0f} s; "
        f"saved {args.out}"
    )


if __name__ == "__main__":
    main()

"""A Gymnasium environment for one seat, the other seats played by atout's bots (docs/envs.md).

:class:`SingleSeatEnv` plays one deal per episode from ``seat``'s side; the other seats are
played by bots of :func:`atout.bots.registry.make_bot` (``random``, ``rules``, ``expert:fast``...),
each deciding from its own seat's view. The seat sees only its view:

* observation: ``{"observation": float32 vector, "action_mask": int8 vector}``, as in the
  PettingZoo environment (:class:`atout.envs.encoding.Encoding`); :meth:`SingleSeatEnv.action_masks`
  returns the mask as booleans, as maskable learners (MaskablePPO) ask for it;
* action: ``Discrete(encoding.action_count)``, the engine's action ids;
  ``env.action_space.sample()`` with no mask draws one of the seat's legal actions;
* reward: 0 until the deal ends, then the seat's score (``deal.scores()[seat]``); a cancelled deal
  scores 0. ``terminated`` at the end of the deal; never truncated;
* ``info["view"]``: the wire form of the seat's view (``debug_views=False`` leaves it out);
* an illegal action (``illegal_action="end"``, the default) ends the episode with
  ``illegal_reward`` and ``info["illegal"]`` naming the rule it breaks; ``illegal_action="raise"``
  raises :class:`~atout.engine.errors.IllegalActionError` instead.

``reset(seed=s)`` draws the dealer (never the seat itself at a dead-player table, where the dealer
sits out), the cards and the bots' choices from ``s``; a deal cancelled before the seat's first
decision is dealt again. Registered ids: ``atout/French2-v0`` .. ``atout/French5-v0``,
``atout/French5Dead-v0``, ``atout/Tarock-v0``.

>>> from atout.envs.gymnasium import SingleSeatEnv
>>> env = SingleSeatEnv(players=4, seat=0, opponents="random")
>>> observation, info = env.reset(seed=3)
>>> terminated = False
>>> while not terminated:
...     observation, reward, terminated, truncated, info = env.step(env.action_space.sample())
>>> reward == env.deal.scores()[0]
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

import gymnasium
import numpy as np
import numpy.typing as npt

from atout.bots.base import Bot
from atout.bots.registry import make_bot, unsupported
from atout.engine.actions import ACTIONS
from atout.engine.austrian.actions import AUSTRIAN_ACTIONS
from atout.engine.errors import IllegalActionError
from atout.engine.wire import View, view_to_json
from atout.envs.encoding import Encoding
from atout.envs.pettingzoo import LegalDiscrete, Observation, make_rules, observation_space, render_view
from atout.games import Deal, new_deal
from atout.rules import Rules

IllegalAction = Literal["end", "raise"]
NEW_DEAL_TRIES: Final = 100
"""Deals drawn at a reset before giving up on one that reaches the seat's decision."""
DEFAULT_ILLEGAL_REWARD: Final = -1000.0
"""The reward of an illegal action under ``illegal_action="end"``: below any deal's score."""

REGISTERED: Final[dict[str, dict[str, Any]]] = {
    "atout/French2-v0": {"players": 2},
    "atout/French3-v0": {"players": 3},
    "atout/French4-v0": {"players": 4},
    "atout/French5-v0": {"players": 5},
    "atout/French5Dead-v0": {"players": 5, "options": {"five_player_mode": "dead_player"}},
    "atout/Tarock-v0": {"preset": "tarock"},
}
"""The Gymnasium ids this module registers, and the options each gives :class:`SingleSeatEnv`."""


class SingleSeatEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a deal of any game; the other seats are bots (see the module's docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - Gymnasium declares it so

    def __init__(
        self,
        rules: Rules | None = None,
        seat: int = 0,
        opponents: str | Sequence[str] = "rules",
        preset: str = "fft",
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        illegal_action: IllegalAction = "end",
        illegal_reward: float = DEFAULT_ILLEGAL_REWARD,
        debug_views: bool = True,
    ) -> None:
        self.rules = make_rules(rules, preset, players, options)
        self.encoding = Encoding(self.rules)
        seats = self.encoding.players
        if not 0 <= seat < seats:
            raise ValueError(f"seat must be from 0 to {seats - 1}, not {seat}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if illegal_action not in ("end", "raise"):
            raise ValueError(f"illegal_action must be 'end' or 'raise', not {illegal_action!r}")
        others = [s for s in range(seats) if s != seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise ValueError(
                f"opponents: give one bot or {len(others)} (one per other seat), not {len(specs)}"
            )
        self.seat = seat
        self.opponent_specs = dict(zip(others, specs, strict=True))
        self._bots: dict[int, Bot] = {s: self._make_bot(spec, s) for s, spec in self.opponent_specs.items()}
        self.render_mode = render_mode
        self.illegal_action: IllegalAction = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.debug_views = debug_views
        self.observation_space = observation_space(self.encoding)
        self.action_space = LegalDiscrete(self.encoding.action_count, self._legal_mask)
        self._deal: Deal | None = None
        self._view: View | None = None
        self._done = False

    def _make_bot(self, spec: str, seed: int) -> Bot:
        bot = make_bot(spec, rng=random.Random(seed))
        why = unsupported(bot, self.rules)
        if why is not None:
            raise ValueError(f"the {spec} bot cannot play these rules: {why}")
        return bot

    @property
    def deal(self) -> Deal:
        """The deal under way (for debugging and tests: the seat observes only its view)."""
        if self._deal is None:
            raise RuntimeError("call reset() before playing: no deal is under way")
        return self._deal

    # ------------------------------------------------------------------ Gymnasium API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2**63)))
        self._bots = {
            s: self._make_bot(spec, rng.randrange(2**63)) for s, spec in self.opponent_specs.items()
        }
        seats = self.encoding.players
        dead_player = self.rules.players == 5 and self.rules.five_player_mode == "dead_player"
        dealers = [s for s in range(seats) if not (dead_player and s == self.seat)]
        for _try in range(NEW_DEAL_TRIES):
            self._deal = new_deal(self.rules, dealer=rng.choice(dealers), rng=rng)
            self._play_opponents()
            if not self._deal.is_over():
                break
        else:
            raise RuntimeError(f"{NEW_DEAL_TRIES} deals in a row ended before seat {self.seat + 1} could act")
        self._done = False
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self._done or self._deal is None:
            raise RuntimeError("the deal is over: call reset() for another")
        deal = self._deal
        number = int(action)
        if not 0 <= number < self.encoding.action_count:
            raise ValueError(
                f"action {number} is outside the action space 0..{self.encoding.action_count - 1}"
            )
        try:
            deal.apply(AUSTRIAN_ACTIONS[number] if self.encoding.game == "austrian" else ACTIONS[number])
        except IllegalActionError as refusal:
            if self.illegal_action == "raise":
                raise
            self._done = True
            return (
                self._observation(),
                self.illegal_reward,
                True,
                False,
                {**self._info(), "illegal": str(refusal)},
            )
        self._view = None
        self._play_opponents()
        reward = 0.0
        if deal.is_over():
            self._done = True
            reward = float(deal.scores()[self.seat])
        return self._observation(), reward, self._done, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (what maskable learners ask for)."""
        return self._legal_mask().astype(bool)

    def render(self) -> str | None:
        """The seat's view in words (``render_mode="ansi"``), else ``None``."""
        if self.render_mode is None or self._deal is None:
            return None
        return render_view(self._seat_view())

    def close(self) -> None:
        self._deal = None
        self._view = None

    # ------------------------------------------------------------------ inside
    def _play_opponents(self) -> None:
        deal = self.deal
        while not deal.is_over() and deal.current_player != self.seat:
            player = deal.current_player
            legal = deal.legal_actions()
            deal.apply(self._bots[player].choose(deal.view(player), legal))
        self._view = None

    def _seat_view(self) -> View:
        if self._view is None:
            self._view = self.deal.view(self.seat)
        return self._view

    def _legal_mask(self) -> npt.NDArray[np.int8]:
        if self._deal is None or self._done or self._deal.is_over():
            return np.zeros(self.encoding.action_count, dtype=np.int8)
        return self.encoding.mask(self._seat_view().legal_actions)

    def _observation(self) -> Observation:
        return {"observation": self.encoding.observe(self._seat_view()), "action_mask": self._legal_mask()}

    def _info(self) -> dict[str, Any]:
        return {"view": view_to_json(self._seat_view())} if self.debug_views else {}


def register() -> None:
    """Register :data:`REGISTERED` with Gymnasium (done on import; again does nothing)."""
    for name, kwargs in REGISTERED.items():
        if name not in gymnasium.registry:
            gymnasium.register(name, entry_point=f"{__name__}:SingleSeatEnv", kwargs=kwargs)


register()

__all__ = ["DEFAULT_ILLEGAL_REWARD", "REGISTERED", "SingleSeatEnv", "register"]

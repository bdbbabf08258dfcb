"""A PettingZoo AEC environment for every game atout plays (docs/envs.md).

One deal is one episode. The agents are ``player_0`` .. ``player_{n-1}``, ``player_i`` at table seat
``i`` (shown to people as seat ``i + 1``); with a dead player (five at the table, the dealer sitting
out) :attr:`~raw_env.possible_agents` names the five seats and :attr:`~raw_env.agents` only the four
that hold cards: the dead seat never acts and is no agent of that deal. The deal runs on the game
protocol (:func:`atout.games.new_deal`, ``deal.apply``, ``deal.view(seat)``), and each agent observes
only its seat's view:

* observation: ``{"observation": float32 vector, "action_mask": int8 vector}``, laid out by
  :class:`atout.envs.encoding.Encoding` (the mask is all zeros for an agent not to act);
* action: ``Discrete(encoding.action_count)``, action ``i`` being the engine's action ``i``;
  ``env.action_space(agent).sample()`` with no mask draws one of the agent's legal actions;
* ``infos[agent]["view"]``: the wire form of the agent's view (:func:`atout.engine.wire.view_to_json`),
  for the agent to act and for every agent at the end (``debug_views=False`` leaves it out);
* rewards: 0 until the deal ends, then each seat's score (``deal.scores()``, card points and
  bonuses as the rules count them); a cancelled deal (all passed, a petit sec) gives 0 to all.
  Every agent is terminated at the end of the deal;
* an illegal action raises :class:`~atout.engine.errors.IllegalActionError` naming the rule it
  breaks, and changes nothing: the action mask says what is legal;
* ``reset(seed=s)`` deals from ``random.Random(s)``: the dealer (unless ``dealer`` is given) and
  the cards; a deal cancelled as it is dealt is dealt again, as a table does.

``max_cycles`` truncates a deal after that many cycles. With ``turns="engine"`` (the default) the
agents act in the order the rules say, and a cycle is one decision. With ``turns="rotation"`` every
agent takes a turn in seat order in every cycle: the one agent whose decision is due acts, the
others wait (their mask is all zeros and their action is ignored); that is PettingZoo's cycle, in
which each agent steps once, as :func:`parallel_env` and ``max_cycles_test`` expect.

>>> from atout.envs.pettingzoo import env
>>> game = env(players=4)
>>> game.reset(seed=7)
>>> game.agents, game.agent_selection
(['player_0', 'player_1', 'player_2', 'player_3'], 'player_1')
>>> for agent in game.agent_iter():
...     observation, reward, terminated, truncated, info = game.last()
...     game.step(None if terminated or truncated else game.action_space(agent).sample())
>>> game.agents
[]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from rich.text import Text

from atout.cards import card_name
from atout.engine.actions import ACTIONS
from atout.engine.austrian.actions import AUSTRIAN_ACTIONS
from atout.engine.refusals import card_words
from atout.engine.wire import View, view_to_json
from atout.envs.encoding import Encoding
from atout.games import Deal, new_deal, playing_seats
from atout.i18n import _
from atout.presets import rules_for
from atout.rules import Rules

Observation = dict[str, npt.NDArray[Any]]
Turns = Literal["engine", "rotation"]
TURNS: Final = ("engine", "rotation")
NEW_DEAL_TRIES: Final = 100
"""Deals drawn at a reset before giving up on one that is not cancelled as it is dealt."""


def make_rules(
    rules: Rules | None = None,
    preset: str = "fft",
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> Rules:
    """The rules of an environment: ``rules`` as given, or a preset with options on top."""
    if rules is not None:
        if players is not None or options:
            raise ValueError("give either rules, or a preset with players and options, not both")
        return rules
    more = {} if players is None else {"players": players}
    return rules_for(preset, options, **more)


def observation_space(encoding: Encoding) -> spaces.Dict:
    """``Dict({"observation": Box, "action_mask": Box(int8)})`` for an encoding's arrays."""
    low, high = encoding.bounds()
    return spaces.Dict(
        {
            "observation": spaces.Box(low=low, high=high, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(encoding.action_count,), dtype=np.int8),
        }
    )


class LegalDiscrete(spaces.Discrete):
    """``Discrete(n)`` whose :meth:`sample` without a mask draws one of the agent's legal actions
    now (any action when it has none: it waits, and its action is ignored)."""

    def __init__(self, n: int, legal: Callable[[], npt.NDArray[np.int8]], seed: int | None = None) -> None:
        super().__init__(n, seed=seed)
        self._legal = legal

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None:
            legal = self._legal()
            mask = legal if legal.any() else None
        return super().sample(mask=mask, probability=probability)


class raw_env(AECEnv[str, Observation, int | None]):  # type: ignore[misc]
    """One deal of any game as a PettingZoo AEC environment (see the module's docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "atout_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | None = None,
        preset: str = "fft",
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        turns: Turns = "engine",
        dealer: int | None = None,
        debug_views: bool = True,
        seed: int | None = None,
    ) -> None:
        super().__init__()
        self.rules = make_rules(rules, preset, players, options)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if turns not in TURNS:
            raise ValueError(f"turns must be one of {', '.join(TURNS)}, not {turns!r}")
        if max_cycles is not None and max_cycles < 1:
            raise ValueError(f"max_cycles must be 1 or more, not {max_cycles}")
        self.encoding = Encoding(self.rules)
        seats = self.encoding.players
        if dealer is not None and not 0 <= dealer < seats:
            raise ValueError(f"dealer must be a seat from 0 to {seats - 1}, not {dealer}")
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.turns: Turns = turns
        self.dealer = dealer
        self.debug_views = debug_views
        self.possible_agents = [f"player_{seat}" for seat in range(seats)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {agent: observation_space(self.encoding) for agent in self.possible_agents}
        self.action_spaces = {
            agent: LegalDiscrete(self.encoding.action_count, self._legal_of(agent))
            for agent in self.possible_agents
        }
        self._rng = random.Random(seed)
        if seed is not None:
            self._seed_spaces()
        self._deal: Deal | None = None
        self._views: dict[int, View] = {}
        self._cycles = 0
        self._acted = False

    # ------------------------------------------------------------------ PettingZoo API
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def deal(self) -> Deal:
        """The deal under way (for debugging and tests: an agent observes only its view)."""
        if self._deal is None:
            raise RuntimeError("call reset() before playing: no deal is under way")
        return self._deal

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
            self._seed_spaces()
        self._deal = self._new_deal()
        self.agents = [self.possible_agents[seat] for seat in playing_seats(self._deal)]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._views = {}
        self._cycles = 0
        self._acted = False
        self.agent_selection = self.agents[0] if self.turns == "rotation" else self._agent_to_act()
        self._refresh_infos()

    def observe(self, agent: str) -> Observation:
        seat = self._seat_of[agent]
        view = self._view(seat)
        return {"observation": self.encoding.observe(view), "action_mask": self._mask(seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        deal = self.deal
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        acts = self._seat_of[agent] == deal.current_player and not (self.turns == "rotation" and self._acted)
        if acts:
            if action is None:
                raise ValueError(f"{agent} must act: None is only for an agent whose deal is over")
            deal.apply(self._engine_action(int(action)))
            self._views = {}
            self._acted = True
        if self.turns == "engine" or agent == self.agents[-1]:
            self._cycles += 1
            self._acted = False
        if deal.is_over():
            for other, score in zip(self.possible_agents, deal.scores(), strict=True):
                if other in self.rewards:
                    self.rewards[other] = float(score)
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_cycles is not None and self._cycles >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self.agent_selection = self._next_agent(agent)
        self._refresh_infos()

    def render(self) -> str | None:
        """The view of the agent selected, in words: the contract and trick, its hand, the cards
        on the table (seats counted from 1). ``None`` without ``render_mode="ansi"``."""
        if self.render_mode is None or self._deal is None:
            return None
        return render_view(self._view(self._seat_of[self.agent_selection]))

    def close(self) -> None:
        self._deal = None
        self._views = {}

    # ------------------------------------------------------------------ inside
    def _seed_spaces(self) -> None:
        for agent, space in self.action_spaces.items():
            space.seed(self._rng.randrange(2**32))
            self.observation_spaces[agent].seed(self._rng.randrange(2**32))

    def _new_deal(self) -> Deal:
        seats = self.encoding.players
        for _try in range(NEW_DEAL_TRIES):
            dealer = self._rng.randrange(seats) if self.dealer is None else self.dealer
            deal = new_deal(self.rules, dealer=dealer, rng=self._rng)
            if not deal.is_over():
                return deal
        raise RuntimeError(f"{NEW_DEAL_TRIES} deals in a row were cancelled as they were dealt")

    def _agent_to_act(self) -> str:
        return self.possible_agents[self.deal.current_player]

    def _next_agent(self, agent: str) -> str:
        if self.turns == "rotation" or self.deal.is_over() or any(self.truncations.values()):
            return self.agents[(self.agents.index(agent) + 1) % len(self.agents)]
        return self._agent_to_act()

    def _view(self, seat: int) -> View:
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.deal.view(seat)
        return view

    def _mask(self, seat: int) -> npt.NDArray[np.int8]:
        deal = self._deal
        if deal is None or deal.is_over() or seat != deal.current_player or any(self.truncations.values()):
            return np.zeros(self.encoding.action_count, dtype=np.int8)
        if self.turns == "rotation" and self._acted:
            return np.zeros(self.encoding.action_count, dtype=np.int8)
        return self.encoding.mask(self._view(seat).legal_actions)

    def _legal_of(self, agent: str) -> Callable[[], npt.NDArray[np.int8]]:
        return lambda: self._mask(self._seat_of[agent])

    def _engine_action(self, action: int) -> int:
        if not 0 <= action < self.encoding.action_count:
            raise ValueError(
                f"action {action} is outside the action space 0..{self.encoding.action_count - 1}"
            )
        return AUSTRIAN_ACTIONS[action] if self.encoding.game == "austrian" else ACTIONS[action]

    def _refresh_infos(self) -> None:
        if not self.debug_views or not self.agents:
            return
        over = self.deal.is_over() or any(self.truncations.values())
        for agent in self.agents if over else (self.agent_selection,):
            self.infos[agent] = {"view": view_to_json(self._view(self._seat_of[agent]))}


def render_view(view: View) -> str:
    """A seat's view in words, as the terminal game says it: the contract and the trick, the
    hand, the 2-player piles' face-up cards, the cards on the table (seats from 1)."""
    from atout.cli.render import seat_name, status_line

    def words(cards: list[int]) -> str:
        return ", ".join(card_words(card_name(c), view.game) for c in cards)

    lines = [seat_name(view.seat) + ":"]
    if view.tricks or view.trick:
        tricks = len(view.tricks) + _cards_left(view)
        lines.append(Text.from_markup(status_line(view, tricks)).plain)
    lines.append(_("Your hand: {cards}").format(cards=words(_cards(view.hand))))
    if view.game == "two_player":
        own = words([c for c in view.own_tops if c is not None])
        theirs = words([c for c in view.opponent_tops if c is not None])
        lines.append(_("Your piles: {own}   Opponent's piles: {theirs}").format(own=own, theirs=theirs))
    if view.trick:
        lines.append(
            _("On the table: ")
            + ", ".join(f"{seat_name(s)} {card_words(card_name(c), view.game)}" for s, c in view.trick)
        )
    return "\n".join(lines)


def _cards(mask: int) -> list[int]:
    from atout.cli.render import hand_order

    return hand_order(mask)


def _cards_left(view: View) -> int:
    """The tricks still to start or finish for this seat: its cards left (2 players: its piles
    too), and the trick under way when its card is on the table already."""
    left = view.hand.bit_count()
    if view.game == "two_player":
        left += sum(view.own_pile_sizes)
    return left + any(seat == view.seat for seat, _card in view.trick)


class parallel_raw_env(ParallelEnv[str, Observation, int | None]):  # type: ignore[misc]
    """The deal as a PettingZoo parallel environment: at each step every agent sends an action,
    and only the agent whose decision is due acts (the others' mask is all zeros and their action
    is ignored). One step is one decision and one cycle. Same options as :class:`raw_env`."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "atout_parallel_v0"}

    def __init__(self, **kwargs: Any) -> None:
        self.aec = raw_env(**{**kwargs, "turns": "engine"})
        self.possible_agents = self.aec.possible_agents
        self.render_mode = self.aec.render_mode

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        return self._observations(), {agent: dict(self.aec.infos[agent]) for agent in self.agents}

    def step(self, actions: dict[str, int | None]) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:  # fmt: skip
        aec = self.aec
        actor = aec.agent_selection
        if actor not in actions:
            raise ValueError(f"{actor} must act this step: no action was sent for it")
        aec.step(actions[actor])
        agents = self.agents
        observations = self._observations()
        rewards = {agent: aec.rewards.get(agent, 0.0) for agent in agents}
        terminations = {agent: aec.terminations.get(agent, False) for agent in agents}
        truncations = {agent: aec.truncations.get(agent, False) for agent in agents}
        infos = {agent: dict(aec.infos.get(agent, {})) for agent in agents}
        if any(terminations.values()) or any(truncations.values()):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, Observation]:
        return {agent: self.aec.observe(agent) for agent in self.agents}

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


def env(**kwargs: Any) -> raw_env:
    """The AEC environment (:class:`raw_env`); the options are those of :class:`raw_env`."""
    return raw_env(**kwargs)


def parallel_env(**kwargs: Any) -> parallel_raw_env:
    """The parallel environment (:class:`parallel_raw_env`)."""
    return parallel_raw_env(**kwargs)


__all__ = [
    "LegalDiscrete",
    "env",
    "make_rules",
    "observation_space",
    "parallel_env",
    "parallel_raw_env",
    "raw_env",
    "render_view",
]

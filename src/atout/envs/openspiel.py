"""atout's games as OpenSpiel Python games (docs/openspiel.md).

Importing this module registers two games with :mod:`pyspiel`:

* ``python_atout_french``: French Tarot, parameters ``players`` (2, 3, 4 or 5, default 4),
  ``preset`` (a preset of :mod:`atout.presets`, default ``fft``), ``dead_player`` (5 players: the
  dealer sits out instead of a called king) and ``options`` (rule options on top of the preset,
  ``name=value`` or ``name:value`` words separated by spaces or ``;``);
* ``python_atout_austrian``: Austrian three-player Tarock, parameters ``preset`` (default
  ``tarock``) and ``options``.

Seat 0 deals every deal (with a dead player, seat 0 is the dead one). The deal is dealt by chance,
one card per chance action (the action is the card's index, :mod:`atout.cards`; every card not
yet dealt is equally likely), slot after slot in a fixed order: each seat's hand, seat 0 first,
then the chien (French), the face-down piles bottom card first (2 players) or the two talon halves
(Austrian). A player's action IS the engine's action (``ACTIONS`` or ``AUSTRIAN_ACTIONS``).
Rewards come at the end, the engine's ``deal.scores()``; a deal the engine cancels (every seat
passed, a petit sec) ends the game with zero for everyone.

Strings and tensors are made from the seat's view only (``deal.view(seat)``): strings in words,
seats counted from 1; tensors by :class:`atout.envs.encoding.Encoding`, the information state
adding the order in which the cards were played.

>>> import pyspiel
>>> game = pyspiel.load_game("python_atout_french(players=3)")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 78)
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel

from atout.cards import AUSTRIAN_DECK_MASK, N_CARDS, CardSet, card_name, cards_of, parse_card
from atout.engine.actions import ACTIONS
from atout.engine.austrian.actions import AUSTRIAN_ACTIONS
from atout.engine.deal import CHIEN_SIZE, HAND_SIZE
from atout.engine.wire import View, action_to_json
from atout.engine.worlds import sample_world
from atout.envs.encoding import Encoding
from atout.games import Deal, deal_from_dealt
from atout.presets import preset as preset_of
from atout.presets import rules_for
from atout.rules import Rules, RulesError, parse_option_words
from atout.scoring.summary import austrian_total

FRENCH: Final = "python_atout_french"
AUSTRIAN: Final = "python_atout_austrian"
DEALER: Final = 0
"""The seat that deals every deal."""

_SEAT_KEYS: Final = frozenset(
    {
        "seat",
        "dealer",
        "current_player",
        "taker",
        "partner",
        "declarer",
        "winner",
        "to",
        "creditor",
        "chelem_announced_by",
    }
)
_UNNAMED_KEYS: Final = frozenset({"kind", "seat", "card", "bid", "plays"})
"""Keys whose value reads alone: ``bid seat 2 garde``, ``seat 3 KS``."""
_HIDDEN_KEYS: Final = frozenset({"protocol", "game", "rules"})
_RECALL_KEYS: Final = frozenset({"events", "tricks"})

_FRENCH_TYPE: Final = pyspiel.GameType(
    short_name=FRENCH,
    long_name="atout French Tarot",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 4, "preset": "fft", "dead_player": False, "options": ""},
)
_AUSTRIAN_TYPE: Final = pyspiel.GameType(
    short_name=AUSTRIAN,
    long_name="atout Austrian Tarock",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=3,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"preset": "tarock", "options": ""},
)


# ---------------------------------------------------------------------- parameters
def parse_options(text: str) -> dict[str, Any]:
    """Rule options from ``name=value`` (or ``name:value``) words separated by spaces or ``;``.

    >>> parse_options("petit_au_bout_multiplied:false; threshold_0_oudlers=55")
    {'petit_au_bout_multiplied': False, 'threshold_0_oudlers': 55}
    """
    words = []
    for word in re.split(r"[\s;]+", text.strip()):
        named = re.fullmatch(r"([^=:]+)[=:](.*)", word)
        if word:
            words.append(f"{named[1]}={named[2]}" if named else word)
    return parse_option_words(words)


def french_rules(
    players: int = 4, preset: str = "fft", dead_player: bool = False, options: str = ""
) -> Rules:
    """The rules of ``python_atout_french``'s parameters; :class:`RulesError` says what is wrong."""
    if isinstance(players, bool) or players not in (2, 3, 4, 5):
        raise RulesError(f"players must be 2, 3, 4 or 5, not {players!r}")
    if dead_player and players != 5:
        raise RulesError(f"dead_player is for 5 players, not {players}")
    if preset_of(preset).options.get("game") == "austrian":
        raise RulesError(f"the {preset} preset is Austrian Tarock: load {AUSTRIAN} instead")
    return rules_for(
        preset,
        _options(options),
        players=players,
        **({"five_player_mode": "dead_player"} if dead_player else {}),
    )


def austrian_rules(preset: str = "tarock", options: str = "") -> Rules:
    """The rules of ``python_atout_austrian``'s parameters; :class:`RulesError` says what is wrong."""
    if preset_of(preset).options.get("game") != "austrian":
        raise RulesError(f"the {preset} preset is French Tarot: load {FRENCH} instead")
    return rules_for(preset, _options(options))


def _options(text: str) -> dict[str, Any]:
    if not isinstance(text, str):
        raise RulesError(f"options must be a string of name=value words, not {text!r}")
    try:
        chosen = parse_options(text)
    except RulesError as exc:
        raise RulesError(f"options: {exc} (words name=value or name:value)") from None
    fixed = sorted({"game", "players", "five_player_mode"} & set(chosen))
    if fixed:
        raise RulesError(f"options may not set {', '.join(fixed)}: the game and its parameters fix them")
    return chosen


# ---------------------------------------------------------------------- the deal by chance
def slot_sizes(rules: Rules) -> tuple[int, ...]:
    """The sizes of the slots the chance player fills, in dealing order (see the module's text)."""
    if rules.game == "austrian":
        return (16, 16, 16, 3, 3)
    if rules.players == 2:
        return (21, 21, *([3] * 12))
    if rules.five_player_mode == "dead_player" and rules.players == 5:
        return (HAND_SIZE[4],) * 4 + (CHIEN_SIZE[4],)
    return (HAND_SIZE[rules.players],) * rules.players + (CHIEN_SIZE[rules.players],)


def slot_owners(rules: Rules) -> tuple[int | None, ...]:
    """The seat whose hand each slot is, ``None`` for the chien, the talon and the piles."""
    if rules.game == "austrian":
        return (0, 1, 2, None, None)
    if rules.players == 2:
        return (0, 1, *([None] * 12))
    if rules.five_player_mode == "dead_player" and rules.players == 5:
        return (1, 2, 3, 4, None)
    return (*range(rules.players), None)


def dealt_data(rules: Rules, slots: Sequence[Sequence[int]]) -> dict[str, object]:
    """The engine's dealt-cards record (``deal.dealt()``'s form) of filled slots."""

    def names(cards: Sequence[int]) -> str:
        return str(CardSet(sum(1 << c for c in cards)))

    if rules.game == "austrian":
        return {"hands": [names(s) for s in slots[:3]], "talon": [names(s) for s in slots[3:]]}
    if rules.players == 2:
        piles = [[[card_name(c) for c in pile] for pile in slots[2 + 6 * s : 8 + 6 * s]] for s in (0, 1)]
        return {"hands": [[card_name(c) for c in h] for h in slots[:2]], "piles": piles}
    hands = [names(h) for h in slots[:-1]]
    if len(hands) == 4 and rules.players == 5:
        hands.insert(DEALER, "")
    return {"hands": hands, "chien": names(slots[-1])}


def dealt_slots(rules: Rules, deal: Deal) -> list[list[int]]:
    """The slots of a deal's dealt cards in dealing order: the chance actions that deal it."""
    data = deal.dealt()
    if rules.game == "austrian":
        return [_cards(h) for h in _items(data["hands"])] + [_cards(h) for h in _items(data["talon"])]
    if rules.players == 2:
        piles = [_cards(pile, keep_order=True) for seat in _items(data["piles"]) for pile in _items(seat)]
        return [_cards(h) for h in _items(data["hands"])] + piles
    hands = [_cards(h) for h in _items(data["hands"]) if h]
    return [*hands, _cards(data["chien"])]


def _items(value: object) -> list[object]:
    if not isinstance(value, list):
        raise TypeError(f"a dealt record holds lists here, not {value!r}")
    return value


def _cards(value: object, keep_order: bool = False) -> list[int]:
    """Cards from a card set's text (``"1S 4S T21"``) or a list of names."""
    words = value.split() if isinstance(value, str) else [str(w) for w in _items(value)]
    cards = [parse_card(w) for w in words]
    return cards if keep_order else sorted(cards)


# ---------------------------------------------------------------------- bounds
def score_bound(rules: Rules) -> int:
    """A bound on any seat's score in one deal of these rules (not reached, but never passed)."""
    margin = max(91, rules.threshold_0_oudlers) + rules.round_margin_to
    if rules.game == "austrian":
        # V = base + k × margin (rule book §5.7): a solo's base, the largest k, the widest margin;
        # each winner scores V (positive_only), or the declarer ±2V (zero_sum)
        margin = max(austrian_total(rules) - 35, 35)
        value = 100 + max(4, rules.austrian_solo_multiplier) * margin
        return value if rules.austrian_scoring == "positive_only" else 2 * value
    slams = (
        max(rules.slam_announced_made, rules.slam_unannounced_made)
        + rules.slam_announced_failed_penalty
        + rules.defense_slam_bonus
    )
    if rules.players == 2:
        return 25 + margin + 10 + 2 * slams
    active = 4 if rules.five_player_mode == "dead_player" and rules.players == 5 else rules.players
    mult = max(rules.multiplier(c) for c in rules.contracts)
    partial = rules.partial_slam
    partial_most = (
        0
        if partial is None
        else max(partial.announced_made, partial.unannounced_made, partial.announced_failed)
    )
    unit = mult * (25 + margin + 10) + active * max(rules.poignee_bonus) + slams + partial_most
    return (active - 1) * (unit + 2 * rules.misere_bonus)


def decision_bound(rules: Rules) -> int:
    """A bound on the decisions of one deal: every card played, every bid, and every other choice."""
    cards = sum(slot_sizes(rules))
    n = 3 if rules.game == "austrian" else rules.players
    # bids (a seat may bid again over a pousse), the call, the discard or the talon, the chelem,
    # and each seat's poignée, its display (one trump at a time), its Excuse sec and its misère
    return cards + n * 7 + 1 + 8 + 2 + n * (1 + 22 + 2 + 2)


# ---------------------------------------------------------------------- the games
class AtoutGame(pyspiel.Game):  # type: ignore[misc]
    """One of atout's games, with its rules fixed by the game's parameters."""

    def __deepcopy__(self, memo: dict[int, object]) -> AtoutGame:
        """The game itself: its states share it (OpenSpiel deep-copies a state's attributes)."""
        return self

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its name and parameters (OpenSpiel serializes a state with its game)."""
        return (pyspiel.load_game, (self.get_type().short_name, dict(self.get_parameters())))

    def __init__(self, game_type: Any, params: Mapping[str, Any] | None, rules: Rules) -> None:
        self.rules = rules
        self.encoding = Encoding(rules)
        self.seats = self.encoding.players
        bound = score_bound(rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.action_count,
            max_chance_outcomes=N_CARDS,
            num_players=self.seats,
            min_utility=0.0
            if rules.game == "austrian" and rules.austrian_scoring == "positive_only"
            else -float(bound),
            max_utility=float(bound),
            utility_sum=None if rules.game == "austrian" else 0.0,
            max_game_length=decision_bound(rules),
        )
        super().__init__(game_type, info, dict(params or {}))
        self.slot_sizes = slot_sizes(rules)
        self.slot_owners = slot_owners(rules)
        self.deck: tuple[int, ...] = tuple(
            cards_of(AUSTRIAN_DECK_MASK) if rules.game == "austrian" else range(N_CARDS)
        )
        self.actions: tuple[int, ...] = AUSTRIAN_ACTIONS if rules.game == "austrian" else ACTIONS

    def new_initial_state(self) -> AtoutState:
        """A deal about to be dealt."""
        return AtoutState(self)

    def state_from_deal(self, deal: Deal) -> AtoutState:
        """A state dealt as ``deal`` was (its chance actions, slot by slot) and played to where it
        is (its actions); the deal must be of this game's rules, seat 0 dealing."""
        if deal.rules != self.rules or deal.dealer != DEALER:
            raise ValueError(f"a deal of this game has its rules and seat {DEALER + 1} as dealer")
        state = self.new_initial_state()
        for slot in dealt_slots(self.rules, deal):
            for card in slot:
                state.apply_action(card)
        for action in deal.history:
            state.apply_action(int(action))
        return state

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> AtoutObserver:
        """The observer of a seat's view: information state (perfect recall) or observation."""
        if params:
            raise ValueError(f"the atout observers take no parameters, not {dict(params)}")
        return AtoutObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class FrenchGame(AtoutGame):
    """``python_atout_french``."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        p = dict(params or {})
        rules = french_rules(
            int(p.get("players", 4)),
            str(p.get("preset", "fft")),
            bool(p.get("dead_player", False)),
            str(p.get("options", "")),
        )
        super().__init__(_FRENCH_TYPE, params, rules)


class AustrianGame(AtoutGame):
    """``python_atout_austrian``."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        p = dict(params or {})
        rules = austrian_rules(str(p.get("preset", "tarock")), str(p.get("options", "")))
        super().__init__(_AUSTRIAN_TYPE, params, rules)


class _DealHolder:
    """The engine deal of a state, copied with the engine's own :meth:`clone` when OpenSpiel
    clones the state (OpenSpiel deep-copies a Python state's attributes)."""

    __slots__ = ("deal",)

    def __init__(self, deal: Deal | None) -> None:
        self.deal = deal

    def __deepcopy__(self, memo: dict[int, object]) -> _DealHolder:
        return _DealHolder(None if self.deal is None else self.deal.clone())

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its rules, dealt cards and actions (OpenSpiel serializes a state so)."""
        deal = self.deal
        if deal is None:
            return (_DealHolder, (None,))
        history = [int(a) for a in deal.history]
        return (_replayed, (deal.rules.to_dict(), deal.dealer, deal.dealt(), history))


def _replayed(
    rules: Mapping[str, Any], dealer: int, dealt: Mapping[str, object], history: list[int]
) -> _DealHolder:
    """A deal rebuilt from its rules, dealt cards and actions."""
    chosen = Rules.from_options(rules)
    deal = deal_from_dealt(chosen, dealer, dealt)
    actions = AUSTRIAN_ACTIONS if chosen.game == "austrian" else ACTIONS
    for action in history:
        deal.apply(actions[action])
    return _DealHolder(deal)


class AtoutState(pyspiel.State):  # type: ignore[misc]
    """A deal: dealt by chance one card at a time, then played through the engine."""

    def __init__(self, game: AtoutGame) -> None:
        super().__init__(game)
        self._game = game
        self.slots: list[list[int]] = [[]]
        self._left = list(game.deck)
        self._holder = _DealHolder(None)

    @property
    def deal(self) -> Deal | None:
        """The engine deal, once every card is dealt."""
        return self._holder.deal

    # ------------------------------------------------------------------ OpenSpiel's state API
    def current_player(self) -> int:
        """The seat to act, or chance while dealing, or terminal."""
        deal = self._holder.deal
        if deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        if deal.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return deal.current_player

    def _legal_actions(self, player: int) -> list[int]:
        deal = self._holder.deal
        if deal is None or deal.is_over() or player != deal.current_player:
            return []
        return [int(a) for a in deal.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not dealt yet, equally likely."""
        p = 1.0 / len(self._left)
        return [(card, p) for card in self._left]

    def _apply_action(self, action: int) -> None:
        deal = self._holder.deal
        if deal is None:
            self._deal_card(action)
        else:
            deal.apply(self._game.actions[action])

    def _deal_card(self, card: int) -> None:
        self._left.remove(card)
        self.slots[-1].append(card)
        sizes = self._game.slot_sizes
        if len(self.slots[-1]) == sizes[len(self.slots) - 1]:
            if len(self.slots) == len(sizes):
                rules = self._game.rules
                self._holder = _DealHolder(deal_from_dealt(rules, DEALER, dealt_data(rules, self.slots)))
            else:
                self.slots.append([])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return card_name(action)
        return action_to_json(action, self._game.rules)

    def is_terminal(self) -> bool:
        """Whether the deal is over (played or cancelled)."""
        deal = self._holder.deal
        return deal is not None and deal.is_over()

    def returns(self) -> list[float]:
        """The engine's scores at the end; zero before it, and for a cancelled deal."""
        deal = self._holder.deal
        if deal is None or not deal.is_over() or deal.summary is None:
            return [0.0] * self._game.seats
        return [float(s) for s in deal.scores()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> AtoutState:
        """A state ``player_id`` cannot tell from this one, dealt and played as a world drawn from
        its view: the chance actions that deal that world, then that world's actions."""
        seed = int(probability_sampler() * 2**53)
        rng = random.Random(seed)
        deal = self._holder.deal
        if deal is None:
            return self._redealt(self._game.new_initial_state(), player_id, rng)
        view = deal.view(player_id)
        state = self._game.state_from_deal(sample_world(view, rng))
        drawn = state.deal
        if drawn is None or drawn.view(player_id) != view:
            raise RuntimeError(f"a world drawn for seat {player_id + 1} does not match its view")
        return state

    def own_cards(self, player: int) -> list[int]:
        """The cards dealt so far to ``player``'s hand, in card order."""
        owners = self._game.slot_owners
        return sorted(c for slot, o in zip(self.slots, owners, strict=False) if o == player for c in slot)

    def _redealt(self, state: AtoutState, player: int, rng: random.Random) -> AtoutState:
        """While dealing: the player's own cards kept, every other card dealt anew."""
        game = self._game
        own = set(self.own_cards(player))
        others = [c for slot in self.slots for c in slot if c not in own]
        rng.shuffle(others)
        for slot, owner in zip(self.slots, game.slot_owners, strict=False):
            for card in slot:
                state.apply_action(card if owner == player else others.pop())
        return state

    def __str__(self) -> str:
        deal = self._holder.deal
        if deal is None:
            return f"dealing: {sum(map(len, self.slots))} cards dealt"
        words = [action_to_json(a, self._game.rules) for a in deal.history]
        return f"dealt: {deal.dealt()}\nactions: {', '.join(words) or 'none'}"


# ---------------------------------------------------------------------- observing
class AtoutObserver:
    """A seat's information state (``perfect_recall``) or observation, as OpenSpiel's Python
    observers give them: a ``tensor`` with named parts in ``dict``, and a string."""

    def __init__(self, game: AtoutGame, iig_obs_type: Any) -> None:
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("atout observes one seat or the public, never every hand at once")
        self.encoding = game.encoding
        self.recall = bool(iig_obs_type.perfect_recall)
        self.public = iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        size = self.encoding.observation_shape[0]
        cards = self.encoding.card_count
        self.tensor: npt.NDArray[np.float32] = np.zeros(size + (cards if self.recall else 0), np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {"observation": self.tensor[:size]}
        if self.recall:
            self.dict["play_order"] = self.tensor[size:]
        self._position = {card: i for i, card in enumerate(self.encoding.cards)}

    def _view(self, state: AtoutState, player: int) -> View | None:
        deal = state.deal
        if deal is None:
            return None
        return deal.public_view() if self.public else deal.view(player)

    def set_from(self, state: AtoutState, player: int) -> None:
        """The tensor of ``player``'s view of ``state`` (zeros while the cards are dealt)."""
        view = self._view(state, player)
        if view is None:
            self.tensor.fill(0.0)
            return
        self.dict["observation"][:] = self.encoding.observe(view)
        if self.recall:
            order = self.dict["play_order"]
            order.fill(0.0)
            plays = [card for trick in view.tricks for _, card in trick.plays]
            plays += [card for _, card in view.trick]
            total = float(self.encoding.card_count)
            for rank, card in enumerate(plays, start=1):
                order[self._position[card]] = rank / total

    def string_from(self, state: AtoutState, player: int) -> str:
        """``player``'s view of ``state`` in words."""
        view = self._view(state, player)
        who = "the public" if self.public else f"seat {player + 1}"
        if view is None:
            if self.public:
                return f"{who}; dealing"
            own = " ".join(card_name(c) for c in state.own_cards(player))
            return f"{who}; dealing; hand: {own or 'none'}"
        return view_words(view, recall=self.recall)


def view_words(view: View, *, recall: bool = True) -> str:
    """A view in words, one field a line, seats counted from 1; without ``recall``, without the
    event log and the finished tricks (the cards played are listed instead)."""
    data = view.to_json()
    lines = []
    for key, value in data.items():
        if key in _HIDDEN_KEYS or (not recall and key in _RECALL_KEYS):
            continue
        lines.append(f"{key}: {_words(key, value)}")
    if not recall:
        played = [card_name(c) for trick in view.tricks for _, c in trick.plays]
        lines.append(f"played: {' '.join(played) or 'none'}")
    return "\n".join(lines)


def _words(key: str, value: object, inner: bool = False) -> str:
    if key in _SEAT_KEYS and isinstance(value, int) and not isinstance(value, bool):
        return f"seat {value + 1}" if value >= 0 else "nobody"
    if key == "number" and isinstance(value, int):  # a trick's number, counted from 1
        return str(value + 1)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float, str)):
        return str(value)
    if isinstance(value, dict):
        parts = []
        for k, v in value.items():
            if k != "summary":  # the end's summary: the scores say it
                words = _words(k, v, inner=True)
                parts.append(words if k in _UNNAMED_KEYS else f"{k} {words}")
        return " ".join(parts)
    if isinstance(value, list):
        if key == "scores":
            return ", ".join(f"seat {i + 1} {s}" for i, s in enumerate(value))
        if not value:
            return "none"
        if not any(isinstance(v, (dict, list)) for v in value):  # cards, sizes, action words
            return (", " if key == "legal_actions" else " ").join(_words(key, v) for v in value)
        return (", " if inner else "; ").join(_words(key, v, inner) for v in value)
    return str(value)


pyspiel.register_game(_FRENCH_TYPE, FrenchGame)
pyspiel.register_game(_AUSTRIAN_TYPE, AustrianGame)

__all__ = [
    "AUSTRIAN",
    "DEALER",
    "FRENCH",
    "AtoutGame",
    "AtoutObserver",
    "AtoutState",
    "AustrianGame",
    "FrenchGame",
    "austrian_rules",
    "french_rules",
    "parse_options",
    "view_words",
]

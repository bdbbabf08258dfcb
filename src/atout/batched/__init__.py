"""Many deals stepped together, compiled with numba: a simulator for training and for benchmarks.

:class:`BatchedDeals` holds ``size`` deals of one game and steps them all at once with numpy
arrays of the engine's action ids (:data:`atout.engine.actions.ACTIONS`, or the Austrian ones);
:func:`random_deals` plays whole deals with uniformly random legal actions without leaving
compiled code. Both are compiled copies of the engine's rules: ``tests/batched`` checks them
against the engine deal by deal (the same legal actions at every step, the same scores).

>>> from atout.presets import rules_for
>>> deals = BatchedDeals(rules_for("fft", players=4), size=8, seed=1)
>>> while not deals.done().all():
...     deals.step(deals.random_actions())
>>> bool((deals.scores().sum(axis=1) == 0).all())
True

Each game has a backend module (``french`` for 3-5 players and the dead-player table, with its
batch class and whole-deal runner); the backend refuses the options it cannot play with a :class:`~atout.rules.RulesError` naming them.
numba comes with the ``solver-fast`` extra.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from atout.rules import Rules, RulesError

if TYPE_CHECKING:
    from numpy import ndarray


def _backend(rules: Rules) -> tuple[Any, Callable[[Rules, int, int], ndarray]]:
    """The batch class and the whole-deal runner that play these rules, or a :class:`RulesError`
    saying which game is missing.

    A batch class takes ``(rules, size, seed)`` and offers the methods of :class:`BatchedDeals`
    and ``size``, ``players``, ``action_count``; a runner takes ``(rules, count, seed)``."""
    if not isinstance(rules, Rules):
        raise RulesError(f"rules must be atout.rules.Rules, not {type(rules).__name__}")
    if rules.game == "french" and rules.players in (3, 4, 5):
        from atout.batched.french import FrenchBatch, random_french_deals

        return FrenchBatch, random_french_deals
    if rules.game == "austrian":
        from atout.batched.austrian import AustrianBatch, random_austrian_deals

        return AustrianBatch, random_austrian_deals
    if rules.game == "french" and rules.players == 2:
        from atout.batched.two_player import TwoPlayerBatch, random_two_player_deals

        return TwoPlayerBatch, random_two_player_deals
    raise RulesError(
        f"the batched simulator does not play game={rules.game} with {rules.players} players yet"
    )


def _whole(value: object) -> int | None:
    """``value`` as an ``int`` if it is a whole number (a Python or numpy integer, not a boolean)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        return None
    return int(value)


def _count(name: str, value: object) -> int:
    number = _whole(value)
    if number is None or not 1 <= number <= 10**8:
        raise ValueError(f"{name} must be a whole number from 1 to 100000000, not {value!r}")
    return number


def _seed(value: object) -> int:
    number = _whole(value)
    if number is None or not 0 <= number < 2**63:
        raise ValueError(f"seed must be a whole number from 0 to 2**63 - 1, not {value!r}")
    return number


class BatchedDeals:
    """``size`` deals of one game stepped together (the dealer of each is seat 0)."""

    def __init__(self, rules: Rules, size: int, seed: int = 0) -> None:
        """Deal ``size`` shuffled deals; :class:`RulesError` for rules the simulator cannot play."""
        batch, _ = _backend(rules)
        self._impl = batch(rules, _count("size", size), _seed(seed))
        self.rules = rules
        self.size: int = self._impl.size
        self.players: int = self._impl.players
        self.action_count: int = self._impl.action_count

    def reset(self, seed: int | None = None) -> None:
        """New shuffled deals (a new ``seed``, or the next deals of the current one)."""
        self._impl.reset(None if seed is None else _seed(seed))

    def current_player(self) -> ndarray:
        """The seat to act in each deal, ``-1`` where the deal is over; shape ``(size,)``."""
        return self._impl.current_player()  # type: ignore[no-any-return]

    def legal_mask(self) -> ndarray:
        """The legal actions of each deal as booleans, shape ``(size, action_count)``; all
        ``False`` for a finished deal."""
        return self._impl.legal_mask()  # type: ignore[no-any-return]

    def step(self, actions: ndarray) -> None:
        """Apply one action id to each deal (finished deals ignore theirs); an illegal action
        raises :class:`ValueError` naming the deal and the action, and changes no deal."""
        import numpy as np  # there: the deals were dealt by numba

        array = np.asarray(actions)
        if array.shape != (self.size,) or not np.issubdtype(array.dtype, np.integer):
            raise ValueError(
                f"actions must be {self.size} whole numbers, one per deal, not shape {array.shape}"
            )
        self._impl.step(array.astype(np.int64, copy=False))

    def random_actions(self) -> ndarray:
        """A uniformly random legal action for each deal (``-1`` where it is over), drawn from each
        deal's own random stream: stepping with these plays the deals :func:`random_deals` plays."""
        return self._impl.random_actions()  # type: ignore[no-any-return]

    def play_out(self) -> None:
        """Finish every deal with uniformly random legal actions in one compiled call: what
        stepping with :meth:`random_actions` until every deal is done plays."""
        self._impl.play_out()

    def done(self) -> ndarray:
        """Whether each deal is over (played or cancelled); shape ``(size,)``."""
        return self._impl.done()  # type: ignore[no-any-return]

    def cancelled(self) -> ndarray:
        """Whether each deal ended without being played (all passed, a petit sec); shape ``(size,)``."""
        return self._impl.cancelled()  # type: ignore[no-any-return]

    def scores(self) -> ndarray:
        """Each seat's score, shape ``(size, players)``: valid where :meth:`done`, zeros for a
        cancelled deal."""
        return self._impl.scores()  # type: ignore[no-any-return]

    def load(self, index: int, data: Mapping[str, object]) -> None:
        """Start deal ``index`` again from chosen cards, given in the engine's ``dealt()`` format
        (checked as :func:`atout.games.deal_from_dealt` checks them, a clear error otherwise)."""
        number = _whole(index)
        if number is None or not 0 <= number < self.size:
            raise ValueError(f"index must be a deal number from 0 to {self.size - 1}, not {index!r}")
        self._impl.load(number, data)

    def dealt(self, index: int) -> dict[str, object]:
        """The dealt cards of deal ``index`` in the engine's ``dealt()`` format, so that
        ``atout.games.deal_from_dealt(rules, 0, data)`` rebuilds it."""
        number = _whole(index)
        if number is None or not 0 <= number < self.size:
            raise ValueError(f"index must be a deal number from 0 to {self.size - 1}, not {index!r}")
        return self._impl.dealt(number)  # type: ignore[no-any-return]


def random_deals(rules: Rules, count: int, seed: int = 0) -> ndarray:
    """``count`` full deals with uniformly random legal actions, played entirely in compiled code:
    the scores, shape ``(count, players)``. The same as stepping :class:`BatchedDeals` of the same
    rules, size and seed with :meth:`BatchedDeals.random_actions`."""
    _, runner = _backend(rules)
    return runner(rules, _count("count", count), _seed(seed))


__all__ = ["BatchedDeals", "random_deals"]

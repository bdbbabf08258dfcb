"""Worlds from a seat's view: whole deals, of every game, that show one seat exactly what it sees.

:func:`sample_world` draws one; :class:`Resampler` draws many for one view (its layout read
once). A world is a deal of the engine's own class for the game (:class:`FrenchDeal`,
:class:`DeadPlayerDeal`, :class:`TwoPlayerDeal`, :class:`AustrianDeal`), replayed to the view's
moment, with ``world.view(view.seat) == view`` (``world.public_view()`` for a public view): the
engine itself judges that every action the view shows is legal in it. What the seat can infer is
read first, so that few dealings are thrown away: voids and trump shortage shown by play,
poignées, misères, the écart rules (no king, trumps only face up), the called card (5 players),
the 2-player piles, the Austrian talon halves and discard, the dead player (:mod:`.inference`,
:mod:`.french`, :mod:`.dead_player`, :mod:`.two_player`, :mod:`.austrian`).

The hidden cards are dealt uniformly among the dealings the layout allows, counted exactly
(:mod:`.uniform`; the rare layout too large to count is dealt close to uniformly, :mod:`.places`).
Every world drawn is then replayed and checked against the view.
A ``weigher`` (e.g. a bot's judgement of how likely the bids were with those hands) reweighs the
worlds by rejection: each drawn world is kept with probability ``weigher(hands)``, ``hands``
its dealt hands by seat.

>>> import random
>>> from atout.engine.french import FrenchDeal
>>> from atout.rules import Rules
>>> deal = FrenchDeal.new(Rules(players=4), dealer=0, rng=1)
>>> view = deal.view(2)
>>> world = sample_world(view, random.Random(5))
>>> world.view(2) == view, world.initial_hands[2] == deal.initial_hands[2]
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable

from atout.engine.austrian.deal import AustrianDeal
from atout.engine.austrian.view import AustrianView
from atout.engine.dead_player import DeadPlayerDeal
from atout.engine.french import FrenchDeal
from atout.engine.two_player import TwoPlayerDeal, TwoPlayerView
from atout.engine.view import PUBLIC_SEAT, SeatView
from atout.engine.worlds import austrian, dead_player, french, two_player
from atout.engine.worlds.places import Places, deal_hidden
from atout.engine.worlds.uniform import Dealer, TooLongToCount, uniform_dealer

World = FrenchDeal | DeadPlayerDeal | TwoPlayerDeal | AustrianDeal
"""A whole deal of any game (the engine's class for it)."""
AnyView = SeatView | TwoPlayerView | AustrianView
"""A seat's view of any game (:data:`atout.engine.wire.View`)."""

Weigher = Callable[[list[int]], float]
"""A dealing's likelihood in [0, 1] from its dealt hands by seat."""

TRIES = 200
"""Dealings tried for one world before :class:`NoWorldError`."""
DRAWS = 64
"""Worlds weighed for one weighted draw before the heaviest drawn is taken."""


class NoWorldError(ValueError):
    """No deal consistent with the view was found."""


class Resampler:
    """Draws worlds for one view: the layout is read once, each :meth:`draw` deals anew."""

    def __init__(
        self, view: AnyView, *, weigher: Weigher | None = None, tries: int = TRIES, exact: bool = True
    ) -> None:
        """``exact``: each dealing the layout allows equally likely (:mod:`.uniform`); else the
        quicker, close to uniform :func:`~.places.deal_hidden`."""
        self.view = view
        self.weigher = weigher
        self.tries = tries
        self.exact = exact
        self._uniform: Dealer | None = None
        self.layout: Places
        self._rebuild: Callable[[list[int], random.Random], World | None]
        try:
            self._read(view)
        except (ValueError, IndexError, KeyError) as problem:  # a view made up, not a deal's
            raise NoWorldError(f"{_whose(view)} view comes from no deal: {problem}") from None

    def _read(self, view: AnyView) -> None:
        if isinstance(view, SeatView):
            if view.rules.players == 5 and view.rules.five_player_mode == "dead_player":
                inner, dead_layout = dead_player.layout_of_dead(view)
                self.layout = dead_layout
                self._rebuild = lambda dealt, _rng: dead_player.rebuild_dead(view, inner, dead_layout, dealt)
            else:
                french_layout = french.layout_of(view)
                self.layout = french_layout
                self._rebuild = lambda dealt, _rng: french.rebuild(view, french_layout, dealt)
        elif isinstance(view, TwoPlayerView):
            pair_layout = two_player.layout_of(view)
            self.layout = pair_layout
            self._rebuild = lambda dealt, rng: two_player.rebuild(view, pair_layout, dealt, rng)
        elif isinstance(view, AustrianView):
            austrian_layout = austrian.layout_of(view)
            self.layout = austrian_layout
            self._rebuild = lambda dealt, _rng: austrian.rebuild(view, austrian_layout, dealt)
        else:
            raise TypeError(f"not a seat's view: {type(view).__name__}")

    def draw(self, rng: random.Random) -> World:
        """A world of the view (weighted by the weigher, if any); :class:`NoWorldError` if none
        is found in ``tries`` dealings."""
        if self.weigher is None:
            return self._consistent(rng)
        best: World | None = None
        best_weight = -1.0
        for _ in range(DRAWS):
            world = self._consistent(rng)
            weight = self.weigher(dealt_hands(world))
            if rng.random() < weight:
                return world
            if weight > best_weight:
                best, best_weight = world, weight
        assert best is not None
        return best

    def _consistent(self, rng: random.Random) -> World:
        for _ in range(self.tries):
            dealt = self._dealt(rng)
            if dealt is None:
                break
            world = self._rebuild(dealt, rng)
            if world is not None:
                return world
        raise NoWorldError(f"no deal matches {_whose(self.view)} view (after {self.tries} dealings)")

    def _dealt(self, rng: random.Random) -> list[int] | None:
        if self.exact:
            try:
                if self._uniform is None:
                    self._uniform = uniform_dealer(self.layout)
                return self._uniform.deal(rng)
            except TooLongToCount:
                self.exact = False
        return deal_hidden(self.layout, rng)


def sample_world(view: AnyView, rng: random.Random, *, weigher: Weigher | None = None) -> World:
    """A whole deal (the engine's own class for the game) whose view for ``view.seat`` equals
    ``view`` exactly, dealt among the dealings the layout allows (or weighted by ``weigher``, a
    callable judging a dealing's likelihood from its dealt hands). Raises :class:`NoWorldError`
    (a clear message) only if none is found."""
    return Resampler(view, weigher=weigher).draw(rng)


def dealt_hands(world: World) -> list[int]:
    """The hands a world dealt, by table seat (a dead player's empty)."""
    if isinstance(world, DeadPlayerDeal):
        hands = [0] * world.n
        for inner, seat in enumerate(world.seats):
            hands[seat] = world.inner.initial_hands[inner]
        return hands
    return list(world.initial_hands)


def _whose(view: AnyView) -> str:
    seat = getattr(view, "seat", PUBLIC_SEAT)
    return "the public" if seat == PUBLIC_SEAT else f"seat {seat + 1}'s"


__all__ = ["AnyView", "NoWorldError", "Resampler", "Weigher", "World", "dealt_hands", "sample_world"]

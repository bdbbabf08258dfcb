"""A seat's view as numpy arrays, and each game's fixed action space (docs/envs.md).

:class:`Encoding` is the one place that turns a :data:`~atout.engine.wire.View` of any game into a
flat ``float32`` vector of a fixed layout, and legal actions into an ``int8`` mask over the game's
fixed action space. It reads the view only, never the deal: two deals a seat cannot tell apart
give the same arrays.

Action ``i`` IS the engine's action ``i``: French Tarot (2 to 5 players) has
``len(ACTIONS)`` actions (:mod:`atout.engine.actions`), Austrian Tarock ``len(AUSTRIAN_ACTIONS)``
(:mod:`atout.engine.austrian.actions`).

Seats in the vector are relative to the observing seat (0 = me, 1 = the next seat in table order,
...), but for the ``seat`` block, which says where the seat sits. Cards are one-hot over the
game's cards: the 78 French cards in card order (:mod:`atout.cards`), or the 54 Austrian cards in
the same order (:attr:`Encoding.cards`). Counts are scaled to about 0..1 (scores divided by 100).
:meth:`Encoding.describe` lists the blocks as ``(name, start, length)``:

* every game: ``phase`` (one-hot over :class:`~atout.engine.phase.Phase`), ``seat`` (one-hot,
  absolute), ``dealer`` and ``current_player`` (relative), ``hand``, ``played`` (per relative
  seat, the cards it played, the current trick included), ``won`` (per relative seat, the cards
  of the finished tricks it won), ``trick`` (per position in the current trick, its card),
  ``trick_leader`` (relative), ``scores`` (per relative seat, at the end of the deal);
* French, 3 to 5 players: ``bids`` (per relative seat, its last bid over ``pass`` and the
  contracts), ``contract``, ``taker``, ``partner`` (relative, when known), ``called_card``,
  ``chien`` (when shown), ``ecart`` (what the seat knows of it), ``chelem``, ``poignee_levels``
  (per relative seat: simple, double, triple), ``poignee_cards`` (the cards shown), ``misere``
  (per relative seat: no_trumps, no_courts, both);
* French, 2 players: ``own_tops`` and ``opponent_tops`` (the face-up pile cards),
  ``own_pile_sizes`` and ``opponent_pile_sizes`` (per pile, cards left / 3), ``chelem`` (relative
  seat that announced one);
* Austrian: ``bids`` (per relative seat, its last bid over pass, threesome, solo), ``declarer``
  (relative), ``bid`` (threesome, solo), ``talon_half`` (first, second), ``game_type`` (game 1,
  game 2), ``first_half`` and ``second_half`` (the talon halves, when shown), ``discard`` (what
  the seat knows of it).

>>> from atout.games import new_deal
>>> from atout.presets import rules_for
>>> rules = rules_for("fft", players=4)
>>> encoding = Encoding(rules)
>>> deal = new_deal(rules, rng=1)
>>> vector = encoding.observe(deal.view(deal.current_player))
>>> vector.shape == encoding.observation_shape, vector.dtype.name, encoding.action_count
(True, 'float32', 275)
>>> int(encoding.mask(deal.legal_actions()).sum()) == len(deal.legal_actions())
True
>>> encoding.describe()[:3]
[('phase', 0, 11), ('seat', 11, 4), ('dealer', 15, 4)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from atout.cards import AUSTRIAN_DECK_MASK, N_CARDS, cards_of
from atout.engine.actions import ACTIONS, BID_NAMES, MISERE_NAMES, POIGNEE_NAMES
from atout.engine.austrian.actions import AUSTRIAN_ACTIONS, GAME_TYPES
from atout.engine.austrian.actions import BID_NAMES as AUSTRIAN_BID_NAMES
from atout.engine.austrian.view import AustrianView
from atout.engine.phase import Phase
from atout.engine.two_player import TwoPlayerView
from atout.engine.view import SeatView
from atout.engine.wire import View
from atout.rules import CONTRACTS, Rules

PHASES: Final = tuple(Phase)
"""The phases in the order of the ``phase`` block."""
POIGNEE_LEVELS: Final = POIGNEE_NAMES[1:]
"""``simple``, ``double``, ``triple``: the order of the ``poignee_levels`` block."""
MISERE_KINDS: Final = MISERE_NAMES[1:]
"""``no_trumps``, ``no_courts``, ``both``: the order of the ``misere`` block."""
AUSTRIAN_CONTRACTS: Final = AUSTRIAN_BID_NAMES[1:]
"""``threesome``, ``solo``: the order of the Austrian ``bid`` block."""
PILES: Final = 6
"""Piles per player in the 2-player game (rule book §4.4)."""
PILE_DEPTH: Final = 3.0
SCORE_SCALE: Final = 100.0
SCORE_BOUND: Final = 100.0
"""The bound of a scaled score (10,000 points either way, above any deal's)."""

_BYTES = (N_CARDS + 7) // 8


class Encoding:
    """The observation layout and the action space of one set of rules (game, player count,
    preset). Build one per :class:`~atout.rules.Rules` and reuse it: it holds no deal."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.game: Final = (
            "austrian" if rules.game == "austrian" else "two_player" if rules.players == 2 else "french"
        )
        self.players: Final = 3 if self.game == "austrian" else rules.players
        self.action_count: int = len(AUSTRIAN_ACTIONS) if self.game == "austrian" else len(ACTIONS)
        deck = cards_of(AUSTRIAN_DECK_MASK) if self.game == "austrian" else list(range(N_CARDS))
        self.cards: Final[tuple[int, ...]] = tuple(deck)
        """The card of each position of a card block."""
        self.card_count: Final = len(deck)
        self._deck = np.asarray(deck, dtype=np.intp)
        self._positions = np.arange(len(deck), dtype=np.intp)
        self._blocks: list[tuple[str, int, int]] = []
        n, c = self.players, self.card_count
        for name, length in (
            ("phase", len(PHASES)),
            ("seat", n),
            ("dealer", n),
            ("current_player", n),
            ("hand", c),
            ("played", n * c),
            ("won", n * c),
            ("trick", n * c),
            ("trick_leader", n),
            ("scores", n),
        ):
            self._add(name, length)
        if self.game == "french":
            for name, length in (
                ("bids", n * len(BID_NAMES)),
                ("contract", len(CONTRACTS)),
                ("taker", n),
                ("partner", n),
                ("called_card", c),
                ("chien", c),
                ("ecart", c),
                ("chelem", 1),
                ("poignee_levels", n * len(POIGNEE_LEVELS)),
                ("poignee_cards", c),
                ("misere", n * len(MISERE_KINDS)),
            ):
                self._add(name, length)
        elif self.game == "two_player":
            for name, length in (
                ("own_tops", c),
                ("opponent_tops", c),
                ("own_pile_sizes", PILES),
                ("opponent_pile_sizes", PILES),
                ("chelem", n),
            ):
                self._add(name, length)
        else:
            for name, length in (
                ("bids", n * len(AUSTRIAN_BID_NAMES)),
                ("declarer", n),
                ("bid", len(AUSTRIAN_CONTRACTS)),
                ("talon_half", 2),
                ("game_type", len(GAME_TYPES)),
                ("first_half", c),
                ("second_half", c),
                ("discard", c),
            ):
                self._add(name, length)
        self._start = {name: start for name, start, _ in self._blocks}
        size = self._blocks[-1][1] + self._blocks[-1][2]
        self.observation_shape: tuple[int, ...] = (size,)
        self._misere = self.game == "french" and bool(rules.misere_bonus)

    def _add(self, name: str, length: int) -> None:
        start = self._blocks[-1][1] + self._blocks[-1][2] if self._blocks else 0
        self._blocks.append((name, start, length))

    def describe(self) -> list[tuple[str, int, int]]:
        """The layout: ``(name, start, length)`` of each block, in order."""
        return list(self._blocks)

    def bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The lowest and highest value of each entry: 0 and 1, but ±:data:`SCORE_BOUND` for scores."""
        low = np.zeros(self.observation_shape, dtype=np.float32)
        high = np.ones(self.observation_shape, dtype=np.float32)
        self.block(low, "scores")[:] = -SCORE_BOUND
        self.block(high, "scores")[:] = SCORE_BOUND
        return low, high

    def block(self, vector: npt.NDArray[np.float32], name: str) -> npt.NDArray[np.float32]:
        """The part of an observation that holds block ``name`` (a view, not a copy)."""
        for block, start, length in self._blocks:
            if block == name:
                return vector[start : start + length]
        raise KeyError(f"no block {name!r} in the {self.game} layout: {[b for b, _, _ in self._blocks]}")

    def mask(self, legal: Sequence[int]) -> npt.NDArray[np.int8]:
        """The action mask: 1 for each legal action, 0 elsewhere."""
        out = np.zeros(self.action_count, dtype=np.int8)
        if len(legal):
            out[np.fromiter(legal, dtype=np.intp, count=len(legal))] = 1
        return out

    # ------------------------------------------------------------------ observing
    def observe(self, view: View) -> npt.NDArray[np.float32]:
        """The seat's view as a flat ``float32`` vector of :attr:`observation_shape`."""
        if view.game != self.game:
            raise ValueError(f"this encoding is for {self.game} views, not {view.game} ones")
        out = np.zeros(self.observation_shape, dtype=np.float32)
        n, c, at = self.players, self.card_count, self._start
        me = view.seat
        out[at["phase"] + PHASES.index(view.phase)] = 1.0
        out[at["seat"] + me] = 1.0
        out[at["dealer"] + (view.dealer - me) % n] = 1.0
        if view.current_player >= 0:
            out[at["current_player"] + (view.current_player - me) % n] = 1.0
        cards: dict[int, int] = {at["hand"]: view.hand}
        played, won = [0] * n, [0] * n
        for trick in view.tricks:
            for seat, card in trick.plays:
                played[seat] |= 1 << card
            won[trick.winner] |= trick.cards
        if view.trick:
            out[at["trick_leader"] + (view.trick[0][0] - me) % n] = 1.0
            for position, (seat, card) in enumerate(view.trick):
                played[seat] |= 1 << card
                cards[at["trick"] + position * c] = 1 << card
        for seat in range(n):
            relative = (seat - me) % n
            cards[at["played"] + relative * c] = played[seat]
            cards[at["won"] + relative * c] = won[seat]
        if view.scores is not None:
            for seat, score in enumerate(view.scores):
                out[at["scores"] + (seat - me) % n] = score / SCORE_SCALE
        if isinstance(view, SeatView):
            self._french(out, cards, view)
        elif isinstance(view, TwoPlayerView):
            self._two_player(out, cards, view)
        else:
            self._austrian(out, cards, view)
        self._write_cards(out, cards)
        return out

    def _french(self, out: npt.NDArray[np.float32], cards: dict[int, int], view: SeatView) -> None:
        n, at, me = self.players, self._start, view.seat
        width = len(BID_NAMES)
        for seat, bid in view.bids:
            row = at["bids"] + (seat - me) % n * width
            out[row : row + width] = 0.0
            out[row + BID_NAMES.index(bid)] = 1.0
        if view.contract is not None:
            out[at["contract"] + CONTRACTS.index(view.contract)] = 1.0
        if view.taker is not None:
            out[at["taker"] + (view.taker - me) % n] = 1.0
        if view.partner is not None:
            out[at["partner"] + (view.partner - me) % n] = 1.0
        if view.called_card is not None:
            cards[at["called_card"]] = 1 << view.called_card
        if view.chien is not None:
            cards[at["chien"]] = view.chien
        cards[at["ecart"]] = view.ecart
        out[at["chelem"]] = float(view.chelem_announced)
        shown_cards = 0
        for seat, level, shown in view.poignees:
            out[at["poignee_levels"] + (seat - me) % n * 3 + POIGNEE_LEVELS.index(level)] = 1.0
            shown_cards |= shown
        cards[at["poignee_cards"]] = shown_cards
        if self._misere:
            for event in view.events:
                if event.kind == "misere":
                    kind = MISERE_KINDS.index(event.misere)
                    out[at["misere"] + (event.seat - me) % n * 3 + kind] = 1.0

    def _two_player(self, out: npt.NDArray[np.float32], cards: dict[int, int], view: TwoPlayerView) -> None:
        at = self._start
        for name, tops in (("own_tops", view.own_tops), ("opponent_tops", view.opponent_tops)):
            cards[at[name]] = sum(1 << card for card in tops if card is not None)
        for name, sizes in (
            ("own_pile_sizes", view.own_pile_sizes),
            ("opponent_pile_sizes", view.opponent_pile_sizes),
        ):
            start = at[name]
            out[start : start + len(sizes)] = np.asarray(sizes, dtype=np.float32) / PILE_DEPTH
        if view.chelem_announced_by is not None:
            out[at["chelem"] + (view.chelem_announced_by - view.seat) % 2] = 1.0

    def _austrian(self, out: npt.NDArray[np.float32], cards: dict[int, int], view: AustrianView) -> None:
        n, at, me = self.players, self._start, view.seat
        width = len(AUSTRIAN_BID_NAMES)
        for seat, bid in view.bids:
            row = at["bids"] + (seat - me) % n * width
            out[row : row + width] = 0.0
            out[row + AUSTRIAN_BID_NAMES.index(bid)] = 1.0
        if view.declarer is not None:
            out[at["declarer"] + (view.declarer - me) % n] = 1.0
        if view.bid in AUSTRIAN_CONTRACTS:
            out[at["bid"] + AUSTRIAN_CONTRACTS.index(view.bid)] = 1.0
        if view.talon_half is not None:
            out[at["talon_half"] + view.talon_half - 1] = 1.0
        if view.game_type in GAME_TYPES:
            out[at["game_type"] + GAME_TYPES.index(view.game_type)] = 1.0
        if view.first_half is not None:
            cards[at["first_half"]] = view.first_half
        if view.second_half is not None:
            cards[at["second_half"]] = view.second_half
        cards[at["discard"]] = view.discard

    def _write_cards(self, out: npt.NDArray[np.float32], cards: dict[int, int]) -> None:
        """Write every card block at once: ``cards`` maps a block's start to its card mask."""
        masks = [(start, mask) for start, mask in cards.items() if mask]
        if not masks:
            return
        raw = b"".join(mask.to_bytes(_BYTES, "little") for _, mask in masks)
        bits = np.unpackbits(
            np.frombuffer(raw, dtype=np.uint8).reshape(len(masks), _BYTES), axis=1, bitorder="little"
        )
        starts = np.fromiter((start for start, _ in masks), dtype=np.intp, count=len(masks))
        out[starts[:, None] + self._positions] = bits[:, self._deck]


__all__ = ["MISERE_KINDS", "PHASES", "POIGNEE_LEVELS", "Encoding"]

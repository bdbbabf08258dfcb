"""The expert's worlds: whole French Tarot deals consistent with one seat's view, weighed by how
likely the other seats' bids and card plays were.

The layout of a view and the rebuilt deals are the engine's (:mod:`atout.engine.worlds.french`:
:func:`layout_of`, :func:`deal_hidden`, :func:`rebuild`, :func:`rebuild_like`); what is the bots'
is the weighing. How likely the other seats' bids were weighs the dealings (a :data:`Weigher`, by
rejection; :class:`WorldSampler` draws them and weighs them by the bids in one compiled loop,
:mod:`.dealer`); how likely their card plays were is judged during the replay
(:func:`rebuild_weighted`: the rules bot's card in each of their seats, read by
:class:`~atout.bots.rules.playout.CardPlayFollower` without views), for importance weights or to
keep the likeliest of several dealings (:class:`WorldSampler`).
"""

from __future__ import annotations

import random
from typing import NamedTuple

from atout.bots.expert.dealer import Dealer
from atout.bots.expert.likelihood import BidWeigher, same_play
from atout.bots.rules import kernel
from atout.bots.rules.kernel import PlayJudge
from atout.bots.rules.playout import CardPlayFollower
from atout.cards import ALL_CARDS, BIT
from atout.engine.french import FrenchDeal, cancels_dealt
from atout.engine.view import SeatView
from atout.engine.worlds import Weigher
from atout.engine.worlds.french import (
    CHIEN_TAKEN,
    Layout,
    dealing_of,
    filled_in,
    layout_of,
    rebuild,
    rebuild_like,
    replayed,
    replays_alike,
    seen_by,
)
from atout.engine.worlds.places import Places, card_groups, deal_hidden

JUDGED_PER_UNIT = 8
"""Card plays judged for one unit of work, by the compiled judge or in the replay alike (so both
draw the same worlds)."""


Miss = tuple[int, int]
"""A card play the rules bot would not have made: the seat, and the card it would have played."""


class TooUnlikely(Exception):
    """A judged replay fell to or below its floor weight (it is abandoned)."""

    def __init__(self, judged: int, miss: Miss | None) -> None:
        super().__init__(f"abandoned after {judged} judged plays")
        self.judged = judged
        self.miss = miss


class Rebuilt(NamedTuple):
    """A world rebuilt from a dealing, with its likelihood by the other seats' card plays."""

    deal: FrenchDeal
    weight: float
    judged: int
    """Card plays judged."""
    miss: Miss | None
    """The first unlikely play, if any."""


class _Found(NamedTuple):
    """A :class:`Rebuilt` whose world may be left to fill in (``None``)."""

    deal: FrenchDeal | None
    weight: float
    judged: int
    miss: Miss | None


def rebuild_weighted(
    view: SeatView,
    layout: Layout,
    dealt: list[int],
    mismatch: float | None = None,
    floor: float = -1.0,
) -> Rebuilt | None:
    """:func:`rebuild`, with the world's likelihood by the other seats' card plays. With
    ``mismatch``, each card another seat played that the rules bot, in its seat of the world,
    would not have played there (:func:`~.likelihood.same_play`) multiplies the weight by
    ``mismatch``; once the weight falls to ``floor`` or below the replay is abandoned
    (:class:`TooUnlikely` is raised). Without: weight 1, nothing judged."""
    judge = None if mismatch is None else _PlayJudgement(view.seat, mismatch, floor)
    deal = replayed(view, layout, dealt, None if judge is None else judge.play)
    if deal is None or seen_by(deal, view.seat) != view:
        return None
    if judge is None:
        return Rebuilt(deal, 1.0, 0, None)
    return Rebuilt(deal, judge.weight, judge.judged, judge.miss)


class _PlayJudgement:
    """Plays the replay's cards, judging each other seat's against the rules bot's choice."""

    def __init__(self, seat: int, mismatch: float, floor: float) -> None:
        self.seat, self.mismatch, self.floor = seat, mismatch, floor
        self.weight = 1.0
        self.judged = 0
        self.miss: Miss | None = None
        self.follower: CardPlayFollower | None = None

    def play(self, deal: FrenchDeal, card: int) -> None:
        if self.follower is None:
            self.follower = CardPlayFollower(deal)
        follower = self.follower
        if deal.current_player != self.seat and deal.legal_play_mask().bit_count() > 1:
            self.judged += 1
            expected = follower.rules_card()
            if not same_play(expected, card):
                self.weight *= self.mismatch
                if self.miss is None:
                    self.miss = (deal.current_player, expected)
                if self.weight <= self.floor:
                    raise TooUnlikely(self.judged, self.miss)
        follower.play(card)


def sample_world(
    view: SeatView,
    rng: random.Random,
    tries: int = 20,
    weigh: Weigher | None = None,
    draws: int = 12,
) -> FrenchDeal | None:
    """One deal consistent with ``view`` (the seat sees exactly ``view`` in it), or ``None``
    if ``tries`` attempts found none.

    With ``weigh``, dealings are drawn by rejection: each is accepted with probability its
    weight, so worlds follow the sampler's distribution reweighted by ``weigh``; after
    ``draws`` refusals the heaviest dealing drawn is taken."""
    found = sample_weighted_world(view, rng, tries, weigh, draws)
    return None if found is None else found[0]


def sample_weighted_world(
    view: SeatView,
    rng: random.Random,
    tries: int = 20,
    weigh: Weigher | None = None,
    draws: int = 12,
    mismatch: float | None = None,
) -> tuple[FrenchDeal, float] | None:
    """:func:`sample_world`, with the world's likelihood by the other seats' card plays (one
    factor ``mismatch`` per play the rules bot would not have made; 1 without ``mismatch``)."""
    return WorldSampler(view, weigh, mismatch, tries, draws).draw(rng)


class WorldSampler:
    """Draws worlds for one view (the layout read once), counting its effort in the units of
    the expert's work budget (about one simulated decision each): a dealing costs
    ``2 + hidden cards // 3``, a weighing 3, a replay ``2 + events // 4``, and judging the card
    plays one per :data:`JUDGED_PER_UNIT` plays judged. The other seats' plays are judged by the
    compiled rules bot when numba is there (:class:`~atout.bots.rules.kernel.PlayJudge`, then
    the world is filled in without a replay), else during the replay: the same weights, effort
    and worlds either way.

    With ``mismatch``, a world's weight is its likelihood by the other seats' card plays (one
    factor ``mismatch`` per play the rules bot would not have made there). With ``select`` above
    1, each drawn world is the likeliest of up to ``select`` consistent dealings (the first among
    equals; a dealing that cannot beat the best so far is abandoned mid-replay, and a world no
    play of which is unlikely ends the search at once)."""

    def __init__(
        self,
        view: SeatView,
        weigh: Weigher | None = None,
        mismatch: float | None = None,
        tries: int = 20,
        draws: int = 12,
        select: int = 1,
        repair: bool = False,
    ) -> None:
        self.view = view
        self.layout = layout_of(view)
        self.weigh = weigh
        self.mismatch = mismatch
        self.tries = tries
        self.draws = draws
        self.select = select
        self.repair = repair
        self.effort = 0
        self.deal_cost = 2 + self.layout.hidden.bit_count() // 3
        self.replay_cost = 2 + len(view.events) // 4
        self.template: FrenchDeal | None = None
        """The first world rebuilt by a replay, which later dealings fill (:func:`rebuild_like`)
        when the view :func:`replays_alike` and nothing is judged in the replay."""
        self.plays = [c for t in view.tricks for _, c in t.plays] + [c for _, c in view.trick]
        self.compiled_judge = mismatch is not None and kernel.AVAILABLE and replays_alike(view)
        """Whether the plays are judged by the compiled rules bot (:class:`~atout.bots.rules.kernel.PlayJudge`)
        rather than in the replay (for the same weights)."""
        self.judge: PlayJudge | None = None
        self._alike = (mismatch is None or self.compiled_judge) and replays_alike(view)
        self.dealer = self._dealer()
        """Draws the dealings (:mod:`.dealer`); ``None``: :func:`deal_hidden` and ``weigh``."""

    def draw(self, rng: random.Random) -> tuple[FrenchDeal, float] | None:
        """A world and its weight, or ``None`` when ``tries`` attempts found none.

        With ``weigh``, dealings are drawn by rejection: each is accepted with probability its
        weight, so worlds follow the sampler's distribution reweighted by ``weigh``; after
        ``draws`` refusals the heaviest dealing drawn is taken."""
        best: _Found | None = None
        best_dealt: list[int] = []
        for _ in range(self.select):
            given = None
            if self.repair and best is not None and best.miss is not None:
                given = self._repaired(best_dealt, best.miss, rng)
            try:
                found = self._draw_one(rng, -1.0 if best is None else best.weight, given)
            except TooUnlikely:
                continue
            if found is None:
                if given is None:
                    break
                continue
            best, best_dealt = found
            if best.weight >= 1.0:
                break
        if best is None:
            return None
        world = best.deal
        if world is None:  # judged, to be filled in
            assert self.template is not None
            dealing = dealing_of(self.view, self.layout, best_dealt)
            world = filled_in(self.template, self.view, self.layout, best_dealt, dealing)
        return world, best.weight

    def _draw_one(
        self, rng: random.Random, floor: float, given: list[int] | None = None
    ) -> tuple[_Found, list[int]] | None:
        """One consistent world heavier than ``floor`` and its dealing, or ``None`` after
        ``tries`` attempts (only the ``given`` dealing, when one is); :class:`TooUnlikely` when a
        dealing's plays bring it to ``floor`` or below."""
        for _ in range(self.tries if given is None else 1):
            dealt = self._dealt(rng) if given is None else given
            if dealt is None:
                return None
            found = self._rebuilt(dealt, floor)
            if found is not None:
                return found, dealt
        return None

    def _rebuilt(self, dealt: list[int], floor: float) -> _Found | None:
        """The world of a dealing and its weight by the plays (``None``: not a world of the view;
        the world ``None`` when judged by the compiled judge: it is filled in once chosen), its
        effort counted alike whichever way it is judged and rebuilt: the plays judged (also when
        :class:`TooUnlikely` abandons it), then the replay."""
        view, layout, template = self.view, self.layout, self.template
        if template is not None and (self.mismatch is None or self.judge is not None):
            dealing = dealing_of(view, layout, dealt)
            if cancels_dealt(view.rules, dealing[0]):
                return None
            if self.judge is None:
                self.effort += self.replay_cost
                return _Found(filled_in(template, view, layout, dealt, dealing), 1.0, 0, None)
            judgement = self._judged(dealt, dealing[2], floor)
            if judgement is None:
                return None
            self.effort += self.replay_cost
            return _Found(None, *judgement)
        mismatch = None if self.compiled_judge else self.mismatch
        try:
            found = rebuild_weighted(view, layout, dealt, mismatch, floor)
        except TooUnlikely as abandoned:
            self.effort += self.judging_cost(abandoned.judged)
            raise
        if found is None:
            return None
        if self._alike:
            self.template = found.deal
        if self.compiled_judge:
            self.judge = PlayJudge(found.deal, self.plays, view.seat)
            judgement = self._judged(dealt, found.deal.ecart, floor)
            if judgement is None:
                return None
            found = found._replace(weight=judgement[0], judged=judgement[1], miss=judgement[2])
        else:
            self.effort += self.judging_cost(found.judged)
        self.effort += self.replay_cost
        return _Found(*found)

    @staticmethod
    def judging_cost(judged: int) -> int:
        """The work units of ``judged`` card plays judged."""
        return judged // JUDGED_PER_UNIT

    def _judged(self, dealt: list[int], ecart: int, floor: float) -> tuple[float, int, Miss | None] | None:
        """A dealing (whose taker put ``ecart`` aside) judged by the compiled judge of the other
        seats' plays, as the replay judges them (the same weight, plays judged and first miss);
        ``None`` if a play is not legal in it (it is no world of the view), :class:`TooUnlikely`
        once a miss brings it to ``floor`` or below."""
        assert self.mismatch is not None and self.judge is not None
        mismatch, layout = self.mismatch, self.layout
        limit = 1 << 30  # misses before the weight falls to the floor
        if floor >= 0 and mismatch < 1:
            limit, low = -1, 1.0
            while low > floor:
                low *= mismatch
                limit += 1
        hands = [layout.known[s] | dealt[s] | layout.played_by[s] for s in range(self.view.players)]
        judged, misses, seat, card = self.judge.judge(hands, ecart, limit)
        if misses < 0:
            return None
        self.effort += self.judging_cost(judged)
        weight = 1.0
        for _ in range(misses):
            weight *= mismatch  # as the replay multiplies it
        miss = (seat, card) if misses else None
        if misses and weight <= floor:
            raise TooUnlikely(judged, miss)
        return weight, judged, miss

    def _repaired(self, dealt: list[int], miss: Miss, rng: random.Random) -> list[int] | None:
        """``dealt`` with the card the rules bot would have played at the miss swapped out of that
        seat's hand, for a hidden card of another place that the seat may hold (``None`` if the card
        is not a hidden one of the seat's, or no swap is allowed)."""
        seat, card = miss
        if not dealt[seat] >> card & 1:
            return None
        allowed = self.layout.allowed
        # the swaps: (place, a card of it the seat may hold), places in order, cards lowest first
        places = [
            (place, mask & allowed[seat])
            for place, mask in enumerate(dealt)
            if place != seat and allowed[place] >> card & 1
        ]
        count = sum(cards.bit_count() for _, cards in places)
        if not count:
            return None
        pick, i = rng.randrange(count), 0
        while pick >= places[i][1].bit_count():
            pick -= places[i][1].bit_count()
            i += 1
        place, cards = places[i]
        for _ in range(pick):
            cards &= cards - 1
        other = (cards & -cards).bit_length() - 1
        self.effort += 1
        out = list(dealt)
        out[seat] ^= BIT[card] | BIT[other]
        out[place] ^= BIT[card] | BIT[other]
        return out

    def _dealer(self) -> Dealer | None:
        """The compiled dealer of this layout, when the weigher is the bids' (or none) and the
        hidden cards fit their places."""
        weigh, layout, view = self.weigh, self.layout, self.view
        if weigh is not None and not isinstance(weigh, BidWeigher):
            return None
        groups = card_groups(layout.hidden, layout.allowed)
        if groups is None or sum(layout.sizes) != layout.hidden.bit_count():
            return None
        n, taker = view.players, view.taker
        fixed = [layout.known[s] | layout.played_by[s] for s in range(n)]
        kept_of = [ALL_CARDS] * n
        extra_to = None
        if taker is not None and view.contract in CHIEN_TAKEN:
            kept_of[taker] = ALL_CARDS & ~(view.chien or 0)
            fixed[taker] = (fixed[taker] | view.ecart) & kept_of[taker]
            if taker != view.seat and view.chien is not None:
                extra_to = taker
        return Dealer(layout.sizes, groups, fixed, kept_of, extra_to, weigh, self.draws)

    def _dealt(self, rng: random.Random) -> list[int] | None:
        dealer = self.dealer
        if dealer is not None:
            dealt, drawn = dealer.deal(rng)
            self.effort += drawn * (self.deal_cost + 3 * (self.weigh is not None))
            if dealt is not None:
                return dealt
        return self._dealt_slowly(rng)

    def _dealt_slowly(self, rng: random.Random) -> list[int] | None:
        view, layout, weigh = self.view, self.layout, self.weigh
        best: list[int] | None = None
        best_weight = -1.0
        for _ in range(self.draws if weigh is not None else 1):
            self.effort += self.deal_cost
            dealt = deal_hidden(layout, rng)
            if dealt is None or weigh is None:
                return dealt if dealt is not None else best
            self.effort += 3
            weight = weigh(dealing_of(view, layout, dealt)[0])
            if rng.random() < weight:
                return dealt
            if weight > best_weight:
                best, best_weight = dealt, weight
        return best


__all__ = [
    "CHIEN_TAKEN",
    "Layout",
    "Miss",
    "Places",
    "Rebuilt",
    "TooUnlikely",
    "Weigher",
    "WorldSampler",
    "deal_hidden",
    "dealing_of",
    "filled_in",
    "layout_of",
    "rebuild",
    "rebuild_like",
    "rebuild_weighted",
    "replays_alike",
    "sample_weighted_world",
    "sample_world",
]

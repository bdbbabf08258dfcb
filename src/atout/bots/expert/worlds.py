"""Sampled worlds: whole French Tarot deals consistent with what one seat's view shows.

:func:`layout_of` reads a view into a :class:`Layout`: the cards whose place the seat does not
know (``hidden``), the places they may be (the other seats' hands, and a hidden chien in a
garde sans or contre, or the hidden part of the taker's écart when the seat is not the taker),
how many hidden cards each place holds, and which cards each place cannot hold
(:mod:`.inference`). :func:`sample_world` deals the hidden cards at random into those places and
rebuilds the deal: a :class:`FrenchDeal` from the dealt hands and chien that this layout implies,
with every action the view shows replayed (bids, call, écart, chelem, declarations, cards). The
world is kept only if the rebuilt deal shows the seat exactly the view it has; so a world is always
consistent with the view, whatever the sampler's shortcuts.

The sampler is uniform over the layouts it accepts only approximately: cards with the fewest
places are dealt first, a group of cards with the same places at once (retried on a dead end,
then dealt one by one under Hall's condition, which never dead-ends). How likely the other seats'
bids were weighs the dealings (a :data:`Weigher`, by rejection; :class:`WorldSampler` draws them
and weighs them by the bids in one compiled loop, :mod:`.dealer`); how likely their card plays were
is judged during the replay (:func:`rebuild_weighted`: the rules bot's card in each of their
seats, read by :class:`~atout.bots.rules.playout.CardPlayFollower` without views), for importance
weights or to keep the likeliest of several dealings (:class:`WorldSampler`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from atout.bots.expert.dealer import Dealer
from atout.bots.expert.inference import DISCARDABLE_PLAIN, excluded_cards, held_for_call
from atout.bots.expert.likelihood import BidWeigher, same_play
from atout.bots.rules import kernel
from atout.bots.rules.kernel import PlayJudge
from atout.bots.rules.playout import CardPlayFollower
from atout.cards import ALL_CARDS, BIT, KINGS_MASK, TRUMPS_MASK, cards_of
from atout.engine.actions import (
    ANNOUNCE_CHELEM,
    ANNOUNCE_PARTIAL_SLAM,
    BID_BASE,
    BID_NAMES,
    CALL_BASE,
    DISCARD_BASE,
    KEEP_HAND,
    MISERE_BASE,
    MISERE_NAMES,
    NO_CHELEM,
    POIGNEE_BASE,
    POIGNEE_NAMES,
    SHOW_DEFAULT,
)
from atout.engine.deal import CHIEN_SIZE, HAND_SIZE
from atout.engine.errors import IllegalActionError
from atout.engine.french import FrenchDeal, cancels_dealt
from atout.engine.view import SeatView

CHIEN_TAKEN = ("petite", "pousse", "garde")
"""Contracts in which the taker takes the chien (shown to all) and discards."""


Weigher = Callable[[list[int]], float]
"""A dealing's likelihood in (0, 1] from the dealt hands (by seat)."""


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


@dataclass(frozen=True)
class Layout:
    """Where the cards a seat cannot see may be.

    Places are the seats ``0..n-1`` and, last, an extra place: the chien (garde sans or contre),
    or the hidden part of the écart (another seat took the chien), or nothing (size 0).
    """

    seat: int
    hidden: int
    """The cards whose place is unknown."""
    known: tuple[int, ...]
    """Cards known to be in each seat's hand now (the seat's own hand, shown poignée cards, the
    called card once the partner is known)."""
    sizes: tuple[int, ...]
    """How many hidden cards each place holds (seats, then the extra place)."""
    allowed: tuple[int, ...]
    """The hidden cards each place may hold (seats, then the extra place)."""
    extra: str | None
    """``chien``, ``ecart`` or ``None``."""
    played_by: tuple[int, ...]
    """The cards each seat has played."""


def layout_of(view: SeatView) -> Layout:
    """The layout a French view (card-play phase) shows."""
    n, me = view.players, view.seat
    played_by = [0] * n
    for trick in view.tricks:
        for s, c in trick.plays:
            played_by[s] |= BIT[c]
    for s, c in view.trick:
        played_by[s] |= BIT[c]
    played = view.played()
    taker, contract = view.taker, view.contract
    known = [0] * n
    known[me] = view.hand
    for s, _level, shown in view.poignees:
        if s != me:
            known[s] |= shown & ~played & ~(view.ecart if s == taker else 0)
    if view.called_card is not None and view.partner is not None and view.partner != me:
        known[view.partner] |= BIT[view.called_card] & ~played
    # a queen (a cavalier, a valet) is called only by a taker who held every king (and queen...)
    held = held_for_call(view.called_card) & ~played & ~view.hand if taker is not None else 0
    if taker is not None and taker != me:
        known[taker] |= held & KINGS_MASK  # never discarded: still in his hand
    ecart_known = view.ecart
    hidden = ALL_CARDS & ~played & ~ecart_known
    for k in known:
        hidden &= ~k
    excluded = excluded_cards(view)
    allowed = [hidden & ~excluded[s] for s in range(n)]
    allowed[me] = 0
    chien_size = CHIEN_SIZE[n]
    extra: str | None = None
    extra_size = 0
    extra_allowed = 0
    if taker is not None and taker != me:
        for s in range(n):
            if s != taker:
                allowed[s] &= ~held  # in the taker's hand, or in his écart
    if contract in CHIEN_TAKEN and taker is not None:
        if view.chien is not None and taker != me:
            for s in range(n):
                if s != taker:
                    allowed[s] &= ~view.chien
            extra, extra_size = "ecart", chien_size - ecart_known.bit_count()
            extra_allowed = hidden & DISCARDABLE_PLAIN
    elif contract is not None:
        extra, extra_size, extra_allowed = "chien", chien_size, hidden & ~held
    in_hand = HAND_SIZE[n]
    sizes = [in_hand - played_by[s].bit_count() - known[s].bit_count() for s in range(n)]
    sizes[me] = 0
    return Layout(
        seat=me,
        hidden=hidden,
        known=tuple(known),
        sizes=(*sizes, extra_size),
        allowed=(*allowed, extra_allowed),
        extra=extra,
        played_by=tuple(played_by),
    )


class Places(Protocol):
    """Hidden cards and the places they may go (a French or an Austrian layout)."""

    @property
    def hidden(self) -> int: ...
    @property
    def sizes(self) -> tuple[int, ...]: ...
    @property
    def allowed(self) -> tuple[int, ...]: ...


def deal_hidden(layout: Places, rng: random.Random, tries: int = 20) -> list[int] | None:
    """The hidden cards dealt into the layout's places (masks, seats then the extra place), or
    ``None`` when ``tries`` random attempts all reach a dead end.

    Cards that may go to the same places form a group; groups with the fewest places are dealt
    first (ties in random order), each by drawing as many free slots of its places as it has
    cards, without replacement (so a place is picked in proportion to its room left)."""
    groups = _card_groups(layout.hidden, layout.allowed)
    if groups is None or sum(layout.sizes) != layout.hidden.bit_count():
        return None
    sizes = layout.sizes
    sample = rng.sample
    for _ in range(tries):
        order = groups if len(groups) < 2 else _tie_shuffled(groups, rng)
        room = list(sizes)
        masks = [0] * len(room)
        for places, group in order:
            slots = [p for p in places for _ in range(room[p])]
            if len(slots) < len(group):
                break
            for card, place in zip(group, sample(slots, len(group)), strict=False):
                room[place] -= 1
                masks[place] |= BIT[card]
        else:
            return masks
    cards = cards_of(layout.hidden)
    choices = {c: list(places) for places, members in groups for c in members}
    return _deal_checked(layout, cards, choices, rng)


_Groups = list[tuple[tuple[int, ...], tuple[int, ...]]]
_GROUPS: dict[tuple[int, tuple[int, ...]], _Groups | None] = {}


def _card_groups(hidden: int, allowed: tuple[int, ...]) -> _Groups | None:
    """``(places, cards)`` of the hidden cards grouped by the places that may hold them, fewest
    places first; ``None`` if a card has no place (memoised: one view asks for many dealings)."""
    key = (hidden, allowed)
    if key in _GROUPS:
        return _GROUPS[key]
    by_places: dict[tuple[int, ...], list[int]] = {}
    for card in cards_of(hidden):
        places = tuple(p for p, mask in enumerate(allowed) if mask >> card & 1)
        by_places.setdefault(places, []).append(card)
    groups: _Groups | None = sorted(((p, tuple(c)) for p, c in by_places.items()), key=lambda g: len(g[0]))
    if groups and not groups[0][0]:
        groups = None
    if len(_GROUPS) > 4096:
        _GROUPS.clear()
    _GROUPS[key] = groups
    return groups


def _tie_shuffled(groups: _Groups, rng: random.Random) -> _Groups:
    """The groups still fewest places first, groups with as many places in random order."""
    keyed = [(len(places), rng.random(), places, cards) for places, cards in groups]
    keyed.sort()
    return [(places, cards) for _, _, places, cards in keyed]


def _deal_checked(
    layout: Places, cards: list[int], choices: dict[int, list[int]], rng: random.Random
) -> list[int] | None:
    """The slow, sure way: each card goes to a random place that keeps the rest dealable, judged
    by Hall's condition (for every set of places, the cards that can only go there fit in them)."""
    places = len(layout.sizes)
    subsets = range(1, 1 << places)
    need = dict.fromkeys(range(1 << places), 0)
    for card in cards:
        need[sum(1 << p for p in choices[card])] += 1
    room = list(layout.sizes)

    def feasible() -> bool:
        for subset in subsets:
            cap = sum(room[p] for p in range(places) if subset >> p & 1)
            if sum(k for m, k in need.items() if k and m & ~subset == 0) > cap:
                return False
        return True

    if not feasible():
        return None
    masks = [0] * places
    rng.shuffle(cards)
    for card in cards:
        key = sum(1 << p for p in choices[card])
        need[key] -= 1
        options = [p for p in choices[card] if room[p]]
        rng.shuffle(options)
        for place in options:
            room[place] -= 1
            if feasible():
                masks[place] |= BIT[card]
                break
            room[place] += 1
        else:
            return None
    return masks


def dealing_of(view: SeatView, layout: Layout, dealt: list[int]) -> tuple[list[int], int, int]:
    """The dealt hands, the dealt chien and the écart that a layout's dealing implies."""
    n, me = view.players, view.seat
    taker, contract = view.taker, view.contract
    extra = dealt[n]
    chien = view.chien if view.chien is not None else extra
    ecart = 0
    if contract in CHIEN_TAKEN and taker is not None:
        ecart = view.ecart | (extra if taker != me else 0)
    initial = [layout.known[s] | dealt[s] | layout.played_by[s] for s in range(n)]
    if taker is not None and contract in CHIEN_TAKEN:
        initial[taker] = (initial[taker] | ecart) & ~chien
    return initial, chien, ecart


def rebuild(view: SeatView, layout: Layout, dealt: list[int]) -> FrenchDeal | None:
    """The deal a layout's dealing implies, replayed to the view's moment; ``None`` if the replay
    does not show the seat exactly ``view`` (or breaks a rule)."""
    found = rebuild_weighted(view, layout, dealt)
    return None if found is None else found.deal


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
    n, me = view.players, view.seat
    taker = view.taker
    initial, chien, ecart = dealing_of(view, layout, dealt)
    extra = dealt[n]
    try:
        deal = FrenchDeal(view.rules, view.dealer, initial, chien)
        weight, judged, miss = _replay(deal, view, ecart, extra if taker != me else 0, mismatch, floor)
    except (ValueError, IllegalActionError, IndexError):
        return None
    if deal.view(me) != view:
        return None
    return Rebuilt(deal, weight, judged, miss)


def replays_alike(view: SeatView) -> bool:
    """Whether, under this view's rules, a layout's dealing replays to the view exactly when the
    dealt deal is not cancelled (a petit sec): then :func:`rebuild_like` may stand for
    :func:`rebuild`. Not with a petit imprenable (it changes how the Petit plays) nor when the
    Excuse must be played before the last trick (a duty the layout does not read)."""
    rules = view.rules
    return (
        rules.petit_sec_rule != "petit_imprenable"
        and rules.excuse_last_trick != "must_play_before_last"
        and not (rules.players == 5 and rules.five_player_mode == "dead_player")
    )


def rebuild_like(template: FrenchDeal, view: SeatView, layout: Layout, dealt: list[int]) -> FrenchDeal | None:
    """:func:`rebuild` without the replay: ``template``, a world rebuilt for this view, with the
    cards of another dealing put in place (hands, chien, écart, the 5-player partner, the taker's
    hidden discards in the event log); ``None`` if that dealing is a cancelled deal. For views
    that :func:`replays_alike`, the world equals the one :func:`rebuild` makes, but for
    ``history``, which keeps the template's declaration steps (a record, never read in play)."""
    initial, chien, ecart = dealing_of(view, layout, dealt)
    if cancels_dealt(view.rules, initial):
        return None  # a petit sec: the deal would have been cancelled
    return filled_in(template, view, layout, dealt, (initial, chien, ecart))


def filled_in(
    template: FrenchDeal,
    view: SeatView,
    layout: Layout,
    dealt: list[int],
    dealing: tuple[list[int], int, int],
) -> FrenchDeal:
    """:func:`rebuild_like` for a dealing known not to be cancelled, of which ``dealing`` is
    :func:`dealing_of`."""
    n, me = view.players, view.seat
    initial, chien, ecart = dealing
    world = template.clone()
    world.initial_hands = tuple(initial)
    world.initial_chien = world.chien = chien
    world.hands = [layout.known[s] | dealt[s] for s in range(n)]
    world.ecart = ecart
    world._legal = -1
    called, taker = world.called_card, world.taker
    if called >= 0:
        holder = next((s for s in range(n) if initial[s] >> called & 1), -1)
        world.partner = holder if holder != taker else -1
    hidden = dealt[n] if taker != me and view.contract in CHIEN_TAKEN else 0
    if hidden:  # the taker's hidden discards, in the order the replay makes them
        discards = iter(cards_of(hidden))
        log, history = world._log, world.history
        first = next(i for i, action in enumerate(history) if DISCARD_BASE <= action < DISCARD_BASE + 78)
        for i, event in enumerate(log):
            if event.kind == "discard" and not BIT[event.card] & TRUMPS_MASK:
                card = next(discards)
                log[i] = event._replace(card=card)
                history[first] = DISCARD_BASE + card
                first += 1
    return world


def _replay(
    deal: FrenchDeal,
    view: SeatView,
    ecart: int,
    hidden_discards: int,
    mismatch: float | None = None,
    floor: float = -1.0,
) -> tuple[float, int, Miss | None]:
    """Apply every action ``view`` shows (and the hidden discards) to a freshly dealt deal; the
    weight of the other seats' card plays, how many were judged and the first unlikely one (see
    :func:`rebuild_weighted`)."""
    bids = [BID_BASE + BID_NAMES.index(name) for _, name in view.bids]
    if view.seat == view.taker:
        discards = [e.card for e in view.events if e.kind == "discard"]
    else:
        shown = [e.card for e in view.events if e.kind == "discard_shown"]
        discards = cards_of(hidden_discards) + shown
    if ecart and sum(BIT[c] for c in discards) != ecart:
        raise ValueError("the écart does not match")
    poignee = {s: POIGNEE_NAMES.index(level) for s, level, _ in view.poignees}
    displays = {s: cards for s, _, cards in view.poignees}
    misere = {e.seat: MISERE_NAMES.index(e.misere) for e in view.events if e.kind == "misere"}
    partial = any(e.kind == "partial_slam" for e in view.events)
    plays = [c for t in view.tricks for _, c in t.plays] + [c for _, c in view.trick]
    bid_i = discard_i = play_i = judged = 0
    weight = 1.0
    follower: CardPlayFollower | None = None
    miss: Miss | None = None
    while play_i < len(plays) or deal.phase != "play":
        phase = deal.phase
        if phase == "play":
            action = plays[play_i]
            play_i += 1
            if mismatch is None:
                deal.apply(action)
                continue
            if follower is None:
                follower = CardPlayFollower(deal)
            if deal.current_player != view.seat and deal.legal_play_mask().bit_count() > 1:
                judged += 1
                expected = follower.rules_card()
                if not same_play(expected, action):
                    weight *= mismatch
                    if miss is None:
                        miss = (deal.current_player, expected)
                    if weight <= floor:
                        raise TooUnlikely(judged, miss)
            follower.play(action)
            continue
        elif phase == "bidding":
            action = bids[bid_i]
            bid_i += 1
        elif phase == "call":
            assert view.called_card is not None
            action = CALL_BASE + view.called_card
        elif phase == "discard":
            action = DISCARD_BASE + discards[discard_i]
            discard_i += 1
        elif phase == "chelem":
            if partial:
                action = ANNOUNCE_PARTIAL_SLAM
            else:
                action = ANNOUNCE_CHELEM if view.chelem_announced else NO_CHELEM
        elif phase == "poignee":
            action = POIGNEE_BASE + poignee.get(deal.current_player, 0)
            legal = deal.legal_actions()
            if legal[0] == SHOW_DEFAULT:  # the trumps the seat chose to show (§3.7)
                display = displays[deal.current_player]
                action = next(a for a in legal[1:] if a.card is not None and display >> a.card & 1)
        elif phase == "misere":
            action = MISERE_BASE + misere.get(deal.current_player, 0)
        elif phase == "excuse_sec":
            action = KEEP_HAND
        else:
            raise ValueError(f"the replay reached the {phase} phase")
        deal.apply(action)
    return weight, judged, miss


def _card(data: object) -> int:
    if not isinstance(data, int):
        raise ValueError(f"not a card: {data!r}")
    return data


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
        groups = _card_groups(layout.hidden, layout.allowed)
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
    "rebuild_weighted",
    "sample_weighted_world",
    "sample_world",
]

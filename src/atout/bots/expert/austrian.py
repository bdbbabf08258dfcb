"""The expert's Austrian Tarock card play: determinized search (PIMC) over sampled worlds.

Each card decision samples worlds consistent with the seat's view (:mod:`.austrian_worlds`), and
in each world values every distinct legal card by a playout: the card is played, then the rules
bot plays every seat (the seat itself too) to the end of the deal; the value is the seat's final
**engine score** for the deal. The card of best mean value over the worlds is played; the rules
bot's card on ties, with fewer than ``min_samples`` finished worlds, or when no world can be
sampled. Bids, the talon half, the discard and the game: by simulation in
:class:`~atout.bots.expert.bot.ExpertBot` over :func:`play_option` (every option played out by
the rules bot on the same worlds), when the level sets ``simulations``.

Work is counted in simulated decisions (a world's dealing and replay included, see
:data:`WORLD_WORK`), so a decision is deterministic under the bot's seed: the search stops after
``samples`` worlds or before a world the rest of the level's ``work`` cannot pay for (an
Austrian playout decision, about 45 µs, costs about as much as a French one). When the budget
cannot buy ``min_samples`` worlds (early in the deal, with many cards to try) the rules card is
played at once. ``think``, when set, also stops the search on
the clock (then the result depends on the machine's speed).

In the playouts each seat's rules bot is shown its view without the event log
(:func:`playout_view`): every field the rules bot's card play reads is the engine's own, built at
a fraction of the cost.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from atout.bots.expert.austrian_worlds import layout_of, sample_world
from atout.bots.rules import RulesBot
from atout.engine.austrian.actions import AustrianAction
from atout.engine.austrian.cards import AUSTRIAN_SUIT_OF, STRENGTH, card_value
from atout.engine.austrian.deal import N_TRICKS, AustrianDeal
from atout.engine.austrian.view import AustrianView
from atout.engine.view import TrickView

if TYPE_CHECKING:
    from atout.bots.expert.bot import ExpertConfig

WORLD_WORK = 12
"""A world's dealing, replay and the three views its playouts start from cost about 12 simulated
decisions, plus a tenth of one per event of the view."""
CARDS_IN_PLAY = 3 * N_TRICKS

_RULES = RulesBot()


def playout_view(
    deal: AustrianDeal,
    seat: int,
    base: AustrianView,
    tricks: tuple[TrickView, ...],
    legal: Sequence[AustrianAction] | None = None,
) -> AustrianView:
    """``seat``'s view of ``deal`` in the card-play phase, without the event log: ``base`` (a view of
    the same seat taken earlier in the play) gives what does not change during play, ``tricks`` the
    finished tricks, ``legal`` the current player's legal actions when already known."""
    if seat == deal.current_player:
        legal_actions = tuple(deal.legal_actions() if legal is None else legal)
    else:
        legal_actions = ()
    return AustrianView(
        seat=seat,
        dealer=base.dealer,
        rules=base.rules,
        phase="play",
        current_player=deal.current_player,
        hand=deal.hands[seat],
        legal_actions=legal_actions,
        bids=base.bids,
        declarer=base.declarer,
        bid=base.bid,
        talon_half=base.talon_half,
        game_type=base.game_type,
        first_half=base.first_half,
        second_half=base.second_half,
        discard=base.discard,
        trick=tuple(zip(deal.trick_seat_order(), deal.trick_cards, strict=False)),
        tricks=tricks,
        events=(),
        scores=None,
    )


def playout_value(
    deal: AustrianDeal, seat: int, card: int, bases: Sequence[AustrianView] | None = None
) -> tuple[float, int]:
    """``seat``'s score after playing ``card`` in ``deal`` and the rules bot everywhere to the end,
    and the number of decisions simulated. ``bases``: each seat's view of ``deal`` (taken once per
    world and shared by its playouts)."""
    if bases is None:
        bases = [deal.view(s) for s in range(3)]
    world = deal.clone()
    world.apply(card)
    steps = _play_cards(world, bases)
    return float(world.scores()[seat]), steps


def play_to_end(world: AustrianDeal) -> int:
    """Play ``world`` to its end with the rules bot in every seat (bids, talon, discard, game,
    cards); returns the number of decisions simulated."""
    steps = 0
    choose = _RULES.choose
    while world.phase != "play":
        if world.is_over():
            return steps
        world.apply(choose(world.view(world.current_player), world.legal_actions()))
        steps += 1
    return steps + _play_cards(world, [world.view(s) for s in range(3)])


def play_option(deal: AustrianDeal, seat: int, option: Sequence[int]) -> tuple[float, int]:
    """``seat``'s score after its ``option`` (actions in a row) and the rules bot everywhere to
    the end of the deal, and the decisions simulated. Raises
    :class:`~atout.engine.errors.IllegalActionError` for an illegal option."""
    world = deal.clone()
    for action in option:
        world.apply(action)
    steps = play_to_end(world)
    return float(world.scores()[seat]), steps


def _play_cards(world: AustrianDeal, bases: Sequence[AustrianView]) -> int:
    """The card play to the end by the rules bot, each seat shown its :func:`playout_view` over
    ``bases`` (views taken in the play phase, no later than ``world``'s moment)."""
    tricks = bases[0].tricks
    steps = 0
    choose = _RULES.choose
    while not world.is_over():
        if len(world.tricks) > len(tricks):
            tricks = tricks + tuple(
                TrickView(tuple(zip(s, c, strict=True)), w) for s, c, w in world.tricks[len(tricks) :]
            )
        player = world.current_player
        legal = world.legal_actions()
        if len(legal) == 1:  # what the rules bot plays with one legal card, without its view
            world.apply(legal[0])
        else:
            world.apply(choose(playout_view(world, player, bases[player], tricks, legal), legal))
        steps += 1
    return steps


def rules_discard(deal: AustrianDeal) -> tuple[int, ...]:
    """The whole discard the rules bot makes from here (it reads only the declarer's view)."""
    world = deal.clone()
    declarer = world.current_player
    out = []
    while world.phase == "discard":
        action = _RULES.choose(world.view(declarer), world.legal_actions())
        world.apply(action)
        out.append(action)
    return tuple(out)


def card_values(deal: AustrianDeal, seat: int, cards: Sequence[int]) -> tuple[dict[int, float], int]:
    """Each card's playout value in ``deal`` for ``seat``, and the work spent."""
    bases = [deal.view(s) for s in range(3)]
    values: dict[int, float] = {}
    work = 0
    for card in cards:
        values[card], steps = playout_value(deal, seat, card, bases)
        work += steps
    return values, work


def distinct_cards(legal: Sequence[int], hand: int, gone: int, jack_value: int = 2) -> dict[int, list[int]]:
    """The legal cards grouped by equivalence, keyed by the weakest of each group: cards of one suit
    (or both trumps) of the same card value with no card between them in rank but the seat's own
    and those in ``gone`` (out of play for good) play alike."""
    by_suit: dict[int, list[int]] = {}
    for card in legal:
        by_suit.setdefault(AUSTRIAN_SUIT_OF[card], []).append(card)
    groups: dict[int, list[int]] = {}
    blockers = ~(hand | gone)
    for suit, cards in by_suit.items():
        cards.sort(key=STRENGTH.__getitem__)
        key = -1
        for i, card in enumerate(cards):
            if i and card_value(card, jack_value) == card_value(cards[i - 1], jack_value):
                low, high = STRENGTH[cards[i - 1]], STRENGTH[card]
                between = any(
                    blockers >> other & 1 and AUSTRIAN_SUIT_OF[other] == suit and low < STRENGTH[other] < high
                    for other in range(78)
                )
                if not between:
                    groups[key].append(card)
                    continue
            key = card
            groups[key] = [card]
    return groups


@dataclass
class AustrianDecision:
    """What the last Austrian card decision did (for tests and benchmarks)."""

    card: int
    rules_card: int
    worlds: int
    work: int
    values: dict[int, float]


class AustrianSearcher:
    """The expert's Austrian card play under one :class:`~atout.bots.expert.bot.ExpertConfig`."""

    def __init__(self, config: ExpertConfig, rng: random.Random) -> None:
        self.config = config
        self.rng = rng
        self.last: AustrianDecision | None = None

    def choose(self, view: AustrianView, legal: Sequence[int], rules_card: int | None = None) -> int:
        """One of ``legal`` (the seat's cards to play), decided from ``view`` alone."""
        if rules_card is None:
            rules_card = _RULES.choose(view, legal)
        if len(legal) < 2 or view.phase != "play":
            return rules_card
        config = self.config
        start = time.perf_counter()
        budget = config.work
        gone = layout_of(view).out_of_play
        for trick in view.tricks:
            gone |= trick.cards
        groups = distinct_cards(legal, view.hand, gone, view.rules.austrian_jack_value)
        cards = list(groups)
        totals = dict.fromkeys(cards, 0.0)
        worlds = work = 0
        samples = config.samples if len(cards) > 1 else 0
        # a world costs its dealing, replay and views (:data:`WORLD_WORK` and a tenth of a decision
        # per event), then one playout per card tried, one simulated decision per card left to
        # play; a world is begun only if the budget pays for it, and when the budget cannot buy
        # ``min_samples`` worlds the rules card is played at once
        world_work = WORLD_WORK + len(view.events) // 10
        cost = world_work + len(cards) * (CARDS_IN_PLAY - view.played().bit_count() - 1)
        if config.min_samples * cost > budget:
            samples = 0
        for _ in range(samples):
            if work + cost > budget or (
                config.think is not None and time.perf_counter() - start >= config.think
            ):
                break
            world = sample_world(view, self.rng)
            if world is None:
                break
            values, spent = card_values(world, view.seat, cards)
            for card, value in values.items():
                totals[card] += value
            worlds += 1
            work += spent + world_work
        rules_key = next(k for k, members in groups.items() if rules_card in members)
        best = rules_key
        if worlds >= config.min_samples:
            top = max(cards, key=lambda c: (totals[c], -c))
            if totals[top] > totals[rules_key]:
                best = top
        card = rules_card if best == rules_key else best
        means = {c: totals[c] / worlds for c in cards} if worlds else {}
        self.last = AustrianDecision(card, rules_card, worlds, work, means)
        return next(a for a in legal if a == card)


def choose_austrian_card(
    view: AustrianView,
    legal: Sequence[int],
    config: ExpertConfig,
    rng: random.Random,
    rules_card: int | None = None,
) -> int:
    """The expert's card for ``view`` (see the module docstring)."""
    return AustrianSearcher(config, rng).choose(view, legal, rules_card)


__all__ = [
    "WORLD_WORK",
    "AustrianDecision",
    "AustrianSearcher",
    "card_values",
    "choose_austrian_card",
    "distinct_cards",
    "play_option",
    "play_to_end",
    "playout_value",
    "playout_view",
    "rules_discard",
]

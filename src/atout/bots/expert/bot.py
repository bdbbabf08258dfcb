"""The ``expert`` bot (determinized search over sampled worlds) and the ``cheat`` bot (the arena's
upper bound, which sees the true deal).

``expert``, French Tarot for 3, 4 or 5 players, card play: each decision samples worlds
consistent with the view (:mod:`.worlds`), values every distinct legal card in each world
(:mod:`.search`: the exact solver once every hand holds at most ``solver_cards`` cards, rules-bot
playouts before), and plays the card of best mean value. Work is counted in simulated decisions
(solver nodes / 20; a world's dealing and replay about a quarter of a decision per action), so a
decision is deterministic under the bot's seed: the search stops after
``samples`` worlds or before a world the rest of ``work`` cannot pay for. ``think``, when
set, replaces ``work`` by the clock: no world is begun after ``think`` seconds (then the result
depends on the machine's speed). With fewer than ``min_samples`` finished worlds the bot plays
the rules bot's card.

Bids, the 5-player call and the écart: by simulation (:mod:`.simulation`) when ``simulations``
is set, else the rules bot's. Austrian Tarock card play: the same search, with the exact Austrian
solver once every hand holds at most ``solver_cards`` cards and rules-bot playouts before
(:mod:`.austrian`); the Austrian bid, talon half, discard and game by the same simulation over
worlds of :mod:`.austrian_worlds` (every legal bid, half and game; the rules bot's discard and
each kingless suit it can empty). Everything else (declarations), the other games (2 players,
the dead-player table) and any view the sampler cannot fill: the rules bot.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace

from atout.bots.base import View
from atout.bots.expert import austrian
from atout.bots.expert.austrian import AustrianDecision, AustrianSearcher
from atout.bots.expert.austrian_worlds import sample_world as sample_austrian_world
from atout.bots.expert.likelihood import MISMATCH, TEMPERATURE, bid_weigher
from atout.bots.expert.search import card_values, distinct_cards, open_card
from atout.bots.expert.simulation import (
    Option,
    SimulatedChoice,
    candidate_bids,
    candidate_ecarts,
    choose_by_simulation,
    compare_options,
    dealing,
    play_option,
    rules_ecart,
)
from atout.bots.expert.worlds import WorldSampler
from atout.bots.rules import RulesBot
from atout.engine.actions import ACTIONS, DISCARD_BASE, ActionKind
from atout.engine.austrian.actions import AustrianAction, AustrianActionKind
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.austrian.view import AustrianView
from atout.engine.deal import HAND_SIZE
from atout.engine.errors import IllegalActionError
from atout.engine.french import FrenchDeal
from atout.engine.view import SeatView
from atout.games import austrian_engine, french_engine


@dataclass(frozen=True)
class ExpertConfig:
    """How hard the expert thinks per card."""

    samples: int = 24
    """Most worlds sampled per decision."""
    work: int = 160
    """Budget per decision in simulated decisions (solver nodes count 1/20 each)."""
    austrian_work: int = 0
    """Budget per Austrian Tarock card decision, whose playouts are not compiled (0: ``work``)."""
    think: float | None = None
    """Clock budget per card decision in seconds, replacing ``work`` (``None``: ``work`` counts,
    and the bot is deterministic under its seed)."""
    solver_cards: int = 3
    """Solve exactly once every hand holds at most this many cards."""
    min_samples: int = 2
    """Fewer finished worlds than this: play the rules bot's card."""
    bid_inference: bool = True
    """Draw worlds by how likely the other seats' bids were under the rules bot's bidding
    (:mod:`.likelihood`); ``False``: uniformly among the worlds consistent with the view."""
    temperature: float = TEMPERATURE
    """Width of the bids' soft bounds, in strength points."""
    select: int = 1
    """Dealings drawn per world searched: the likeliest by the other seats' card plays (fewest
    the rules bot would not have made) is searched; 1: no selection."""
    repair: bool = False
    """With ``select``: after the first dealing, each next one is the likeliest so far with the card
    the rules bot would have played at its first unlikely play swapped out of that hand."""
    simulations: int = 0
    """Dealings simulated per bid, call and écart (:mod:`.simulation`); 0: the rules bot's."""
    all_bids: bool = False
    """Simulate every legal bid, not only pass and the contracts next to the rules bot's bid."""
    margin: float = 1.0
    """A simulated option replaces the rules bot's only if it wins by more than this many standard
    errors of the paired difference (0: the best mean wins)."""
    race: float = 0.0
    """Racing the cards over the worlds: once ``race_worlds`` worlds are in, a card whose paired
    deficit to the leading card exceeds ``race`` standard errors is no longer played out, so the
    budget buys more worlds for the contenders (0: every card in every world)."""
    race_worlds: int = 6
    """Worlds every card is valued in before racing may drop it."""
    standing: bool = True
    """Value the simulated Austrian bid, talon half, discard and game by the seat's score minus the
    mean of the other two seats' (its place in the session's standings); ``False``: by its own
    score alone, under which the default positive-only scoring makes any bid free (a lost game
    costs its declarer nothing, and gives each defender its value), so every hand bids."""
    seat_play: float = 0.0
    """In a simulated French bid, call or écart, the seat's score moved this fraction of the way
    from the rules bot's card play in its seat to the open-hand card play of the ``cheat`` bot
    (:func:`.search.play_out_open`), for a seat whose card play is that much better than the rules
    bot's (0: the rules bot's; each dealing of each option costs an open playout)."""


LEVELS: dict[str, ExpertConfig] = {
    "fast": ExpertConfig(
        samples=96,
        work=10000,
        austrian_work=600,
        solver_cards=0,
        min_samples=2,
        simulations=6,
        race=2.0,
        select=4,
        repair=True,
    ),
    "strong": ExpertConfig(
        samples=384,
        work=100000,
        austrian_work=12000,
        solver_cards=0,
        min_samples=3,
        simulations=32,
        all_bids=True,
        margin=0.0,
        race=2.0,
        select=16,
        repair=True,
        seat_play=0.55,
    ),
}
"""The levels: ``fast`` aims at ≤ 30 ms per card, ``strong`` at ≤ 300 ms (median), one core; the
French playouts compiled (numba, the ``solver-fast`` extra: without it ``strong`` takes a few
times longer and decides the same)."""


AT_LEAST_ONE = ("select",)
"""Settings that mean nothing below 1."""


def _flag(text: str) -> bool:
    """A setting's ``true``/``false`` (or ``on``/``off``, ``1``/``0``); ``ValueError`` otherwise."""
    if text not in ("true", "false", "on", "off", "1", "0"):
        raise ValueError(f"{text!r} is not a bool")
    return text in ("true", "on", "1")


def _config_value(key: str, text: str) -> object:
    """``text`` read as the type of :class:`ExpertConfig` field ``key``."""
    defaults = {f.name: getattr(ExpertConfig(), f.name) for f in fields(ExpertConfig)}
    if key not in defaults:
        raise ValueError(f"unknown expert setting {key!r}; settings: {', '.join(defaults)}")
    default = defaults[key]
    try:
        if key == "think":
            return None if text == "none" else float(text)
        if isinstance(default, bool):
            return _flag(text)
        value = type(default)(text)
    except ValueError:
        raise ValueError(f"expert setting {key}: {text!r} is not a {type(default).__name__}") from None
    if key in AT_LEAST_ONE and value < 1:
        raise ValueError(f"expert setting {key}: {text} is below 1")
    return value


@dataclass
class Decision:
    """What the last card decision did (for tests and benchmarks)."""

    card: int
    rules_card: int
    worlds: int
    work: int
    evaluator: str
    values: dict[int, float]
    card_worlds: dict[int, int] = field(default_factory=dict)
    """The worlds each card was valued in, when racing dropped some (else every card: ``worlds``)."""


class Race:
    """Racing the cards over the worlds (``ExpertConfig.race``): running totals of each card's
    values and of their squares, and of each pair's products, so a world costs a few operations per
    pair of cards still in the race, however many worlds came before."""

    def __init__(self, cards: list[int]) -> None:
        self.worlds = dict.fromkeys(cards, 0)
        """Worlds each card was valued in."""
        self.sums = dict.fromkeys(cards, 0.0)
        self.squares = dict.fromkeys(cards, 0.0)
        self.products: dict[tuple[int, int], float] = {}

    def add(self, values: dict[int, float], active: list[int]) -> None:
        """One more world's values of the cards of ``active``."""
        for i, a in enumerate(active):
            value = values[a]
            self.worlds[a] += 1
            self.sums[a] += value
            self.squares[a] += value * value
            for b in active[i + 1 :]:
                key = (a, b) if a < b else (b, a)
                self.products[key] = self.products.get(key, 0.0) + value * values[b]

    def kept(self, active: list[int], z: float) -> list[int]:
        """The cards of ``active`` still in the race: the leading card (best total) and those whose
        mean deficit to it, paired world by world, is at most ``z`` standard errors."""
        sums, squares = self.sums, self.squares
        leader = max(active, key=sums.__getitem__)
        n = self.worlds[leader]
        kept = []
        for card in active:
            total = sums[leader] - sums[card]
            mean = total / n
            if card == leader or mean <= 0:
                kept.append(card)
                continue
            product = self.products[(leader, card) if leader < card else (card, leader)]
            square = squares[leader] + squares[card] - 2 * product  # the sum of squared gaps
            spread = max(0.0, square - total * mean) / (n - 1) if n > 1 else 0.0
            if mean * mean * n <= z * z * spread:
                kept.append(card)
        return kept


def race(active: list[int], history: dict[int, list[float]], z: float) -> list[int]:
    """:meth:`Race.kept` from the values of each card of ``active``, world by world."""
    stats = Race(active)
    for i in range(len(history[active[0]])):
        stats.add({card: history[card][i] for card in active}, active)
    return stats.kept(active, z)


class ExpertBot:
    """Determinized search for French and Austrian card play; the rules bot elsewhere (see the module doc)."""

    name = "expert"

    def __init__(self, config: ExpertConfig | None = None, rng: random.Random | int | None = None) -> None:
        self.config = config or LEVELS["fast"]
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self.rules = RulesBot()
        self.last: Decision | None = None
        self.last_simulation: SimulatedChoice | None = None
        self.last_austrian: AustrianDecision | None = None
        """What the last Austrian card decision did (as :attr:`last` for the French ones)."""
        self._ecart_plan: tuple[int, ...] = ()
        self._ecart_hand = 0

    @classmethod
    def at_level(
        cls, level: str | None, rng: random.Random | int | None = None, **changes: object
    ) -> ExpertBot:
        """The bot at a level: a name (default ``fast``), then ``,field=value`` pairs that change
        :class:`ExpertConfig` fields (``strong,bid_inference=false,samples=32``); keyword
        ``changes`` apply last.

        >>> ExpertBot.at_level("strong,bid_inference=false,work=900").config.work
        900
        >>> ExpertBot.at_level("fast,worlds=3")
        Traceback (most recent call last):
        ...
        ValueError: unknown expert setting 'worlds'; settings: samples, work, austrian_work, think, solver_cards, min_samples, bid_inference, temperature, select, repair, simulations, all_bids, margin, race, race_worlds, standing, seat_play
        """
        name, *settings = (level or "fast").strip().lower().split(",")
        if name not in LEVELS:
            raise ValueError(f"unknown expert level {name!r}; levels: {', '.join(LEVELS)}")
        parsed: dict[str, object] = {}
        for setting in settings:
            key, sep, text = (part.strip() for part in setting.partition("="))
            if not sep or not text:
                raise ValueError(f"expert setting {setting!r}: write field=value")
            parsed[key] = _config_value(key, text)
        return cls(replace(LEVELS[name], **{**parsed, **changes}), rng)  # type: ignore[arg-type]

    def choose(self, view: View, legal: Sequence[int]) -> int:
        """One of ``legal``, decided from ``view`` alone."""
        rules_action = self.rules.choose(view, legal)
        if view.game == "austrian":
            if len(legal) < 2:
                return rules_action
            if view.phase == "play":
                searcher = AustrianSearcher(self.config, self.rng)
                action = searcher.choose(view, legal, rules_action)
                self.last_austrian = searcher.last
                return action
            if self.config.simulations > 0:
                return self._simulate_austrian(view, legal, rules_action)
            return rules_action
        if len(legal) < 2 or view.game != "french" or view.rules.five_player_mode == "dead_player":
            return rules_action
        kind = ACTIONS[legal[0]].kind
        if kind is ActionKind.PLAY:
            return self._search(view, legal, rules_action)
        if self.config.simulations > 0 and kind in (ActionKind.BID, ActionKind.CALL, ActionKind.DISCARD):
            return self._simulate(view, legal, rules_action, kind)
        return rules_action

    def _simulate(self, view: SeatView, legal: Sequence[int], rules_action: int, kind: ActionKind) -> int:
        """A bid, call or écart card chosen by simulation (:mod:`.simulation`)."""
        if kind is ActionKind.DISCARD:
            planned = self._planned_discard(legal, bool(view.ecart), view.hand)
            if planned is not None:
                return planned
            first = dealing(view, self.rng)
            if first is None:
                return rules_action
            rules_option = rules_ecart(first)
            options = candidate_ecarts(view.hand, rules_option)
        else:
            first = None
            rules_option = (rules_action,)
            if kind is ActionKind.BID and not self.config.all_bids:
                options = candidate_bids(legal, rules_action)
            else:
                options = [(a,) for a in legal]
        choice = choose_by_simulation(
            view,
            options,
            rules_option,
            self.rng,
            self.config.simulations,
            self.config.margin,
            first,
            seat_play=self.config.seat_play,
        )
        self.last_simulation = choice
        if kind is ActionKind.DISCARD:
            self._plan_discards(choice.option, view.hand)
        return next(a for a in legal if a == choice.option[0])

    def _simulate_austrian(self, view: AustrianView, legal: Sequence[int], rules_action: int) -> int:
        """An Austrian bid, talon half, discard card or game chosen by simulation."""
        discarding = AustrianAction(legal[0]).kind is AustrianActionKind.DISCARD
        if discarding:
            planned = self._planned_discard(legal, bool(view.discard), view.hand)
            if planned is not None:
                return planned
        pending = sample_austrian_world(view, self.rng)
        if pending is None:
            return rules_action
        rules_option: Option = (rules_action,)
        options: list[Option] = [(a,) for a in legal]
        if discarding:
            rules_option = austrian.rules_discard(pending)
            options = candidate_ecarts(view.hand, rules_option)

        def draw() -> AustrianDeal | None:
            nonlocal pending
            world = pending if pending is not None else sample_austrian_world(view, self.rng)
            pending = None
            return world

        choice = compare_options(
            draw,
            lambda world, option: austrian.play_option(world, view.seat, option, self.config.standing),
            options,
            rules_option,
            self.config.simulations,
            self.config.margin,
        )
        self.last_simulation = choice
        if discarding:
            self._plan_discards(choice.option, view.hand)
        return next(a for a in legal if a == choice.option[0])

    def _planned_discard(self, legal: Sequence[int], begun: bool, hand: int) -> int | None:
        """The next card of the écart (or Austrian discard) chosen at its first card, if the
        discarding goes on as planned (``begun``: the seat has already discarded)."""
        plan = self._ecart_plan
        if plan and plan[0] in legal and begun and hand == self._ecart_hand:
            self._plan_discards(plan, hand)
            return plan[0]
        return None

    def _plan_discards(self, option: Option, hand: int) -> None:
        """Remember the rest of a chosen écart, to discard it card by card."""
        self._ecart_plan = option[1:]
        self._ecart_hand = hand & ~(1 << (option[0] - DISCARD_BASE))

    def _search(self, view: SeatView, legal: Sequence[int], rules_card: int) -> int:
        config = self.config
        start = time.perf_counter()
        gone = view.ecart if view.seat == view.taker else 0
        for trick in view.tricks:
            for _, card in trick.plays:
                gone |= 1 << card
        keep = 0 if view.called_card is None else 1 << view.called_card
        cards = distinct_cards(legal, view.hand, gone, keep)
        totals = dict.fromkeys(cards, 0.0)
        worlds = work = 0
        evaluator = "none"
        samples = config.samples if len(cards) > 1 else 0  # one card, whatever is chosen
        weigh = bid_weigher(view, config.temperature) if config.bid_inference else None
        mismatch = MISMATCH if config.select > 1 else None
        sampler = WorldSampler(view, weigh, mismatch, select=config.select, repair=config.repair)
        # the least a world costs: one dealing and its replay
        world_work = sampler.deal_cost + sampler.replay_cost
        cost = world_work  # the least a world costs
        if view.hand.bit_count() > config.solver_cards + 1:
            # playouts: one simulated decision per card still to play, per card tried; a world
            # is begun only if the budget pays for it, and when the budget cannot buy
            # ``min_samples`` worlds the rules card is played at once
            cost += len(cards) * (view.players * HAND_SIZE[view.players] - view.played().bit_count() - 1)
            if config.think is None and config.min_samples * cost > config.work:
                samples = 0
        shared: dict[str, object] = {}  # what every world of this view has in common
        racing = config.race > 0 and len(cards) > 2
        raced = Race(cards)
        active = list(cards)
        playouts_left = cost - world_work
        for _ in range(samples):
            if config.think is None:
                if work + cost > config.work:
                    break
            elif time.perf_counter() - start >= config.think:
                break
            before = sampler.effort
            found = sampler.draw(self.rng)
            work += sampler.effort - before
            if found is None:
                break
            world = found[0]
            values, spent, evaluator = card_values(world, view.seat, active, config.solver_cards, shared)
            for card, value in values.items():
                totals[card] += value
            worlds += 1
            work += spent
            if racing and evaluator == "playout":
                raced.add(values, active)
                if worlds >= config.race_worlds:
                    active = raced.kept(active, config.race)
                    cost = world_work + playouts_left * len(active) // len(cards)
        best = rules_card
        if worlds >= config.min_samples:
            best = max(active, key=lambda c: (totals[c], c == rules_card, -c))
            if rules_card in active and totals[rules_card] >= totals[best]:
                best = rules_card
        # a card dropped from the race was valued in fewer worlds
        means = {c: totals[c] / (raced.worlds[c] or worlds) for c in cards} if worlds else {}
        valued = {c: raced.worlds[c] or worlds for c in cards} if racing else {}
        self.last = Decision(best, rules_card, worlds, work, evaluator, means, valued)
        return next(a for a in legal if a == best)


class CheatBot:
    """The arena's upper bound: it is shown the true deal (``observe_deal``, called by the arena
    only, for bots with ``sees_everything``) and values each card on it exactly as the expert
    values a world: rules-bot playouts to the end (with ``solver_cards``, the solver once every
    hand holds at most that many cards; against the rules bot the playouts do better, docs/bots.md). Bids, the call and the écart: the options the expert simulates, each
    played out on the true deal by the rules bot, the best kept (``simulate=False``: the rules
    bot's). Declarations and other games: the rules bot."""

    name = "cheat"
    sees_everything = True

    def __init__(self, solver_cards: int = 0, simulate: bool = True) -> None:
        self.solver_cards = solver_cards
        self.simulate = simulate
        self.rules = RulesBot()
        self.deal: object | None = None
        self._ecart_plan: tuple[int, ...] = ()

    @classmethod
    def at_level(cls, level: str | None = None) -> CheatBot:
        """The cheat with ``field=value`` settings, comma-separated (``solver_cards=0``: playouts
        to the end; ``simulate=false``); none: the defaults.

        >>> CheatBot.at_level("solver_cards=0,simulate=false").solver_cards
        0
        >>> CheatBot.at_level("work=3")
        Traceback (most recent call last):
        ...
        ValueError: unknown cheat setting 'work'; settings: solver_cards, simulate
        """
        settings: dict[str, object] = {}
        for setting in (level or "").strip().lower().split(","):
            if not setting:
                continue
            key, sep, text = (part.strip() for part in setting.partition("="))
            if key not in ("solver_cards", "simulate"):
                raise ValueError(f"unknown cheat setting {key!r}; settings: solver_cards, simulate")
            if not sep or not text:
                raise ValueError(f"cheat setting {setting!r}: write field=value")
            if key == "simulate":
                try:
                    settings[key] = _flag(text)
                except ValueError:
                    raise ValueError(f"cheat setting simulate: {text!r} is not a bool") from None
            elif not text.isdigit():
                raise ValueError(f"cheat setting solver_cards: {text!r} is not a whole number")
            else:
                settings[key] = int(text)
        return cls(**settings)  # type: ignore[arg-type]

    def observe_deal(self, deal: object) -> None:
        """Arena only: the deal being played (read, never changed)."""
        self.deal = deal

    def choose(self, view: View, legal: Sequence[int]) -> int:
        rules_action = self.rules.choose(view, legal)
        if view.game == "austrian":
            austrian_deal = austrian_engine(self.deal)
            if austrian_deal is None:
                return rules_action
            return self._choose_austrian(austrian_deal, view, legal, rules_action)
        deal = french_engine(self.deal)
        if len(legal) < 2 or deal is None or view.game != "french" or deal.current_player != view.seat:
            return rules_action
        kind = ACTIONS[legal[0]].kind
        if kind is not ActionKind.PLAY:
            if not self.simulate or kind not in (ActionKind.BID, ActionKind.CALL, ActionKind.DISCARD):
                return rules_action
            return self._best_option(deal, view, legal, rules_action, kind)
        best, _ = open_card(deal, view.seat, legal, rules_action, self.solver_cards)
        return next(a for a in legal if a == best)

    def _choose_austrian(
        self, deal: AustrianDeal, view: AustrianView, legal: Sequence[int], rules_action: int
    ) -> int:
        """Austrian Tarock: each distinct card, or each option (bid, half, game, whole discard),
        played out by the rules bot on the true deal; the rules bot's unless another does better."""
        if len(legal) < 2 or deal.current_player != view.seat:
            return rules_action
        if view.phase == "play":
            gone = 0
            for trick in view.tricks:
                gone |= trick.cards
            groups = austrian.distinct_cards(legal, view.hand, gone, view.rules.austrian_jack_value)
            card_worth, _ = austrian.card_values(deal, view.seat, list(groups))
            rules_key = next(k for k, members in groups.items() if rules_action in members)
            best = max(card_worth, key=lambda c: (card_worth[c], c == rules_key, -c))
            return rules_action if card_worth[best] <= card_worth[rules_key] else best
        if AustrianAction(legal[0]).kind is AustrianActionKind.DISCARD:
            if self._ecart_plan and self._ecart_plan[0] in legal and view.discard:
                action, self._ecart_plan = self._ecart_plan[0], self._ecart_plan[1:]
                return action
            rules_option = austrian.rules_discard(deal)
            options = candidate_ecarts(view.hand, rules_option)
        else:
            rules_option = (rules_action,)
            options = [(a,) for a in legal]
        values: dict[Option, float] = {}
        for option in options:
            try:
                values[option] = austrian.play_option(deal, view.seat, option)[0]
            except IllegalActionError:
                continue
        chosen = max(values, key=lambda o: (values[o], o == rules_option))
        self._ecart_plan = chosen[1:]
        return next(a for a in legal if a == chosen[0])

    def _best_option(
        self, deal: FrenchDeal, view: SeatView, legal: Sequence[int], rules_action: int, kind: ActionKind
    ) -> int:
        if kind is ActionKind.DISCARD:
            if self._ecart_plan and self._ecart_plan[0] in legal and view.ecart:
                action, self._ecart_plan = self._ecart_plan[0], self._ecart_plan[1:]
                return action
            rules_option = rules_ecart(deal)
            options = candidate_ecarts(view.hand, rules_option)
        else:
            rules_option = (rules_action,)
            options = [(a,) for a in legal]
        values = {}
        for option in options:
            try:
                values[option] = play_option(deal, view.seat, option)[0]
            except IllegalActionError:
                continue
        best = max(values, key=lambda o: (values[o], o == rules_option))
        self._ecart_plan = best[1:] if kind is ActionKind.DISCARD else ()
        return next(a for a in legal if a == best[0])


__all__ = ["LEVELS", "CheatBot", "Decision", "ExpertBot", "ExpertConfig"]

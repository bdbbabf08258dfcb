"""The exact analysis of a finished deal, every hand visible ("double dummy").

:func:`analyse_record` replays a deal record and, from a trick on, solves the rest of the deal
open-handed at every card played: the value of each legal card (the attack's final card points
when both sides play their best from there on), and for each card played the points it cost its
side against the best card (the attack maximises its card points, the defence minimises them).
It adds what can be said exactly in hindsight (:mod:`atout.analysis.hindsight`). The tricks are
solved from the last one back, within a time budget: ``from_trick`` is the first trick analysed,
exactly; the earlier ones are not analysed at all (docs/analysis.md).

>>> import random
>>> from atout.engine.french import FrenchDeal
>>> from atout.records import deal_to_record
>>> from atout.rules import Rules
>>> deal = FrenchDeal.new(Rules(), dealer=2, rng=random.Random(3))
>>> while not deal.is_over():
...     deal.apply(deal.legal_actions()[-1])
>>> analysis = analyse_record(deal_to_record(deal), from_trick=16)
>>> analysis.from_trick, analysis.to_json()["format"], all(c.lost >= 0 for c in analysis.cards)
(16, 'atout-analysis', True)
"""

from __future__ import annotations

import functools
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from atout.cards import card_name
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.two_player import TwoPlayerDeal
from atout.games import Deal
from atout.records import RecordError, new_deal_from_record, replay
from atout.scoring import FrenchSummary

from . import budget, hindsight
from .hindsight import number
from .line import CardValues, Line

__all__ = ["DEFAULT_SECONDS", "AnalysisError", "CardAnalysis", "DealAnalysis", "analyse_record"]

FORMAT = "atout-analysis"
VERSION = 1
DEFAULT_SECONDS = 5.0
"""The time budget of :func:`analyse_record`: the tricks it solves back from the last within it."""
LINE_SHARE = 0.8
"""The part of the budget for the played line; the rest searches other écarts."""


class AnalysisError(ValueError):
    """A record the analysis cannot take; the message says why in one sentence."""


@dataclass(frozen=True, slots=True)
class CardAnalysis:
    """One card played, and every legal card's value there."""

    index: int
    """Its index in the record's actions."""
    trick: int
    """Its trick, from 1."""
    seat: int
    """The seat that played it, from 0."""
    card: int
    attack: bool
    """Whether the seat played for the attack (the taker, his partner; the Austrian declarer)."""
    values: dict[int, float]
    """Each legal card's value: the attack's final points when everyone plays his best after it."""
    lost: float
    """The points this card cost its side against the best card (0 for a best card)."""
    best_cards: tuple[int, ...]
    """The best cards, when this one was not among them."""

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "trick": self.trick,
            "seat": self.seat,
            "card": card_name(self.card),
            "side": "attack" if self.attack else "defence",
            "lost": number(self.lost),
            "best_cards": [card_name(c) for c in self.best_cards],
            "values": {card_name(c): number(v) for c, v in self.values.items()},
        }


@dataclass(slots=True)
class DealAnalysis:
    """The analysis of one finished deal (see the module docstring and docs/analysis.md)."""

    game: str
    players: int
    taker: int | None
    """The taker's (declarer's) seat, from 0."""
    from_trick: int
    """The first trick analysed exactly, from 1 (the tricks after it are all analysed)."""
    best: float
    """The attack's final card points with best play by both sides from ``from_trick`` on."""
    actual: float
    """The attack's final card points as played."""
    cards: list[CardAnalysis]
    hindsight: list[dict[str, Any]] = field(default_factory=list)
    time_limited: bool = False
    """Whether the time budget set ``from_trick`` (the earlier tricks took too long to solve)."""
    attack_maximises: bool = True
    """Whether the attack wants the count up (not the declarer of an Austrian game 2)."""
    seconds: float = 0.0
    nodes: int = 0
    """Search nodes visited (a measure of the work done)."""
    trick_seconds: dict[int, float] = field(default_factory=dict)
    """The seconds each trick analysed took (its cards and the best line from it)."""

    @property
    def mistakes(self) -> list[CardAnalysis]:
        """The cards that cost their side points."""
        return [c for c in self.cards if c.lost > 0]

    def to_json(self) -> dict[str, Any]:
        """The analysis as JSON (docs/analysis.md)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "open_hands": True,
            "game": self.game,
            "players": self.players,
            "taker": self.taker,
            "from_trick": self.from_trick,
            "best": number(self.best),
            "actual": number(self.actual),
            "cards": [c.to_json() for c in self.cards],
            "hindsight": self.hindsight,
            "time_limited": self.time_limited,
            "attack_maximises": self.attack_maximises,
            "seconds": round(self.seconds, 3),
            "nodes": self.nodes,
        }


def analyse_record(
    record: Mapping[str, Any],
    *,
    seconds: float | None = DEFAULT_SECONDS,
    from_trick: int | None = None,
    ecart: bool = True,
) -> DealAnalysis:
    """Analyse a finished deal record (see the module docstring); raises :class:`AnalysisError`.

    ``from_trick`` analyses exactly from that trick, however long it takes; otherwise the tricks
    are solved from the last one back for ``seconds`` (``None``: every trick, which can take hours),
    and ``from_trick`` says where it stopped. ``ecart=False`` leaves out the search for a better écart.
    """
    deal = _finished_deal(record)
    line = Line(new_deal_from_record(record), list(record["actions"]))
    if not line.played:
        raise AnalysisError("no card was played in this deal")
    if from_trick is not None and not 1 <= from_trick <= line.tricks:
        raise AnalysisError(f"from_trick: the deal has tricks 1 to {line.tricks}, not {from_trick}")
    if not line.austrian:
        _warm_up()  # once a process, not counted in the budget
    start = time.monotonic()
    last = from_trick or 1

    def work() -> Any:
        for trick in range(line.tricks, last - 1, -1):
            began = time.perf_counter()
            values = line.analyse_trick(trick)
            fact = hindsight.best_line(line, record, trick)
            yield trick, values, line.start_values[trick], fact, line.nodes, time.perf_counter() - began

    pairs = hindsight.ecart_candidates(line, record, last) if ecart else []
    share = LINE_SHARE if pairs else 1.0  # no écart to search: the whole budget for the line
    limit = None if from_trick is not None or seconds is None else seconds * share
    try:
        done, ended = budget.run(work, limit)
    except (RuntimeError, ValueError) as exc:
        raise AnalysisError(f"the solver stopped: {exc}") from None
    if not done:
        raise AnalysisError(f"not even the last trick could be solved in {seconds:g} seconds")
    first, _, start_value, contract, nodes, _ = done[-1]
    line.start_values[first] = start_value
    cards = [card for trick, values, *_ in done for card in _cards(line, trick, values)]
    cards.sort(key=lambda c: c.index)
    facts: list[dict[str, Any]] = [] if contract is None else [contract]
    facts += hindsight.bid_facts(deal)
    if ecart:
        left = None if limit is None or seconds is None else seconds - (time.monotonic() - start)
        facts += _ecart_facts(line, record, first, left)
    return DealAnalysis(
        game=deal.rules.game,
        players=deal.n,
        taker=_taker(deal),
        from_trick=first,
        best=start_value / line.unit,
        actual=line.final / line.unit,
        cards=cards,
        hindsight=facts,
        attack_maximises=line.maximizing_side(),
        time_limited=not ended and done[-1][0] > last,
        seconds=time.monotonic() - start,
        nodes=nodes,
        trick_seconds={item[0]: item[5] for item in done},
    )


def _finished_deal(record: Mapping[str, Any]) -> Deal:
    """The replayed deal, finished and played out, or :class:`AnalysisError` saying why not."""
    if not isinstance(record, Mapping):
        raise AnalysisError("a deal record is a JSON object")
    try:
        deal = replay(record)
    except RecordError as exc:
        raise AnalysisError(f"the record does not replay: {exc}") from None
    if isinstance(deal, TwoPlayerDeal):
        raise AnalysisError(
            "the 2-player game is not analysed: the solver plays 3 to 5 players and Austrian Tarock"
        )
    if not deal.is_over():
        raise AnalysisError("the deal is not finished: only a finished deal is analysed")
    if deal.summary is None:
        raise AnalysisError(f"the deal was not played ({deal.outcome}): there is nothing to analyse")
    inner = hindsight.french_inner(deal)
    if inner is not None and inner.petit_imprenable_seat >= 0:
        raise AnalysisError(
            "a deal with the petit imprenable (rule book §7 V3) is not analysed: the solver does not play it"
        )
    return deal


def _taker(deal: Deal) -> int | None:
    summary = deal.summary
    if isinstance(summary, FrenchSummary):
        return summary.taker
    if isinstance(deal, AustrianDeal):
        return deal.declarer
    return None


def _cards(line: Line, trick: int, values: list[CardValues]) -> list[CardAnalysis]:
    first = line.first_of(trick)
    out = []
    for played, found in zip(line.played[first : first + len(values)], values, strict=True):
        maximize = played.attack == line.maximizing_side()
        best = (max if maximize else min)(found.values.values())
        mine = found.values[played.card]
        lost = abs(best - mine) / line.unit
        out.append(
            CardAnalysis(
                index=played.index,
                trick=played.trick,
                seat=played.seat,
                card=played.card,
                attack=played.attack,
                values={c: v / line.unit for c, v in found.values.items()},
                lost=lost,
                best_cards=tuple(sorted(c for c, v in found.values.items() if v == best)) if lost else (),
            )
        )
    return out


def _ecart_facts(
    line: Line, record: Mapping[str, Any], trick: int, seconds: float | None
) -> list[dict[str, Any]]:
    """The best one-card change of the écart found within ``seconds``, if it gives the attack more."""
    pairs = hindsight.ecart_candidates(line, record, trick)
    if not pairs or (seconds is not None and seconds <= 0):
        return []
    actual = line.start_values[trick]
    results, _ = budget.run(lambda: hindsight.ecart_alternatives(line, record, trick, pairs), seconds)
    better = [(v, h, e) for h, e, v in results if v is not None and v > actual]
    if not better:
        return []
    value, h, e = max(better, key=lambda b: (b[0], -b[1], -b[2]))
    return [
        {
            "kind": "ecart",
            "params": {
                "from_trick": trick,
                "discard": card_name(h),
                "instead_of": card_name(e),
                "gain": number((value - actual) / line.unit),
                "tried": len(results),
                "alternatives": len(pairs),
            },
        }
    ]


@functools.cache
def _warm_up() -> None:
    """Load the compiled solver in this process once (a forked search then starts at once)."""
    from atout.solver.search import fast_module

    module = fast_module()
    if module is not None:
        module.warm_up()

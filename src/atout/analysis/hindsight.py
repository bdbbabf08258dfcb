"""What a finished deal would have given otherwise, where it can be computed exactly.

* :func:`best_line`: the deal played on from a trick by both sides at their best (the solver's line,
  through the engine): the attack's points and bouts at the end, and whether the contract (the
  Austrian game) was made;
* :func:`bid_facts`: the same card play under the next lower and higher contract that handle the
  chien alike (petite, pousse, garde; garde sans and garde contre, the chien's cards moving
  side), scored by the rules;
* :func:`ecart_alternatives`: an écart with one card changed (a card the taker still held at a
  trick for one of the écart), with the same cards played before that trick (each such play must
  stay legal), solved from there: the attack's points with best play.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from atout.cards import (
    BIT,
    EXCUSE,
    HALF_POINTS,
    KINGS_MASK,
    SUIT_OF,
    TRUMP,
    card_name,
    count_bouts,
    half_points,
)
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.dead_player import DeadPlayerDeal
from atout.engine.french import FrenchDeal
from atout.games import Deal, is_card_play
from atout.records import RecordError, replay
from atout.scoring import AustrianSummary, FrenchSummary, contract_made, declarer_wins, score
from atout.solver import Position, Solver
from atout.solver.austrian import AustrianPosition

from .line import Line

SAME_CHIEN = (("petite", "pousse", "garde"), ("garde_sans", "garde_contre"))
"""Contracts whose card play is the same: the taker takes the chien and discards, or nobody sees it."""


def french_inner(deal: Deal) -> FrenchDeal | None:
    """The 3-5 player French engine of a deal (the four in play at a dead-player table)."""
    if isinstance(deal, DeadPlayerDeal):
        return deal.inner
    return deal if isinstance(deal, FrenchDeal) else None


def best_line(line: Line, record: Mapping[str, Any], trick: int) -> dict[str, Any] | None:
    """The deal from ``trick`` on, both sides playing a best card each time (the line's table serves):
    the fact ``contract`` (points, bouts, needed, margin, made), or ``None`` if it cannot be said."""
    value = line.start_values[trick]
    deal = replay(record, upto=line.played[line.first_of(trick)].index)
    while not deal.is_over():
        legal = deal.legal_actions()
        if not is_card_play(deal, legal):
            deal.apply(legal[0])  # a declaration in the course of play (no poignée): not a card
            continue
        if len(legal) == 1:
            deal.apply(legal[0])
            continue
        pos, base = _position(deal)
        solver = line.solver(pos)
        solver._playout = _guess(solver._playout, value - base)
        before = solver.nodes
        _, card = solver._best()
        line.nodes += solver.nodes - before
        deal.apply(deal.parse(f"play {card_name(card)}"))
    summary = deal.summary
    params: dict[str, Any] = {"from_trick": trick}
    if isinstance(summary, AustrianSummary):
        if summary.points != value:
            return None
        params.update(points=number(summary.points), made=declarer_wins(summary))
    elif isinstance(summary, FrenchSummary):
        if summary.half_points != value:
            return None
        needed = summary.rules.threshold(summary.oudlers)
        params.update(
            points=number(summary.points),
            oudlers=summary.oudlers,
            needed=needed,
            margin=number(summary.points - needed),
            made=contract_made(summary),
        )
    else:
        return None
    return {"kind": "contract", "params": params}


def number(value: float) -> float | int:
    """A whole number as an ``int``, a half as a float (JSON ``41``, ``40.5``)."""
    return int(value) if float(value).is_integer() else value


def _guess(playout: Any, guess: int) -> Any:
    """The solver's first guess of the root's value set to ``guess`` (its cards' guesses kept)."""

    def first_guess(card: int) -> int:
        return guess if card < 0 else int(playout(card))

    return first_guess


def _position(deal: Deal) -> tuple[Position | AustrianPosition, int]:
    """The open-hand position of a deal in play and the count the attack holds, in the solver's unit."""
    if isinstance(deal, AustrianDeal):
        from atout.engine.austrian.cards import austrian_points

        return AustrianPosition.from_deal(deal), austrian_points(
            deal.declarer_pile(), deal.rules.austrian_jack_value
        )
    inner = french_inner(deal)
    assert inner is not None
    pos = Position.from_deal(inner)
    return pos, pos.points


def bid_facts(deal: Deal) -> list[dict[str, Any]]:
    """The taker's score under the next lower and higher contract of the same chien handling, with
    the same card play (facts ``bid``)."""
    summary = deal.summary
    if not isinstance(summary, FrenchSummary):
        return []
    inner = french_inner(deal)
    assert inner is not None
    contracts = summary.rules.contracts
    group = next((g for g in SAME_CHIEN if summary.contract in g), ())
    allowed = [c for c in contracts if c in group]
    at = allowed.index(summary.contract)
    facts = []
    actual = score(summary)[summary.taker]
    for other in (allowed[at - 1] if at else None, allowed[at + 1] if at + 1 < len(allowed) else None):
        if other is None:
            continue
        changed = replace(summary, contract=other)
        if {summary.contract, other} == {"garde_sans", "garde_contre"}:
            sign = 1 if other == "garde_sans" else -1
            changed = replace(
                changed,
                half_points=summary.half_points + sign * half_points(inner.chien),
                oudlers=summary.oudlers + sign * count_bouts(inner.chien),
            )
        facts.append(
            {
                "kind": "bid",
                "params": {
                    "contract": other,
                    "score": score(changed)[summary.taker],
                    "actual_contract": summary.contract,
                    "actual_score": actual,
                },
            }
        )
    return facts


def ecart_candidates(line: Line, record: Mapping[str, Any], trick: int) -> list[tuple[int, int, int]]:
    """The écarts with one card changed that keep the cards played before ``trick`` legal, as
    ``(card discarded instead, écart card kept, index of its discard action)``, the likeliest gains first."""
    deal = replay(record, upto=0)
    inner = french_inner(deal)
    if inner is None or not line.discards:
        return []
    start = line.played[line.first_of(trick)]
    if not isinstance(start.position, Position):
        return []
    held = start.position.hands[start.position.taker]
    keep = [
        c
        for c in range(78)
        if held & BIT[c] and SUIT_OF[c] != TRUMP and c != EXCUSE and not BIT[c] & KINGS_MASK
    ]
    pairs = [(h, e, index) for index, e in line.discards for h in keep]
    pairs.sort(key=lambda p: (HALF_POINTS[p[1]] - HALF_POINTS[p[0]], p[0], p[1]))
    return pairs


def ecart_alternatives(
    line: Line, record: Mapping[str, Any], trick: int, pairs: list[tuple[int, int, int]]
) -> Iterator[tuple[int, int, int | None]]:
    """For each pair of :func:`ecart_candidates`: ``(discarded instead, kept, value)``, the value
    (attack's count with best play from ``trick``, solver's unit) ``None`` when the cards played
    before ``trick`` would not be legal with that écart."""
    upto = line.played[line.first_of(trick)].index
    for h, e, index in pairs:
        actions = list(record["actions"])
        actions[index] = f"discard {card_name(h)}"
        try:
            deal = replay({**record, "actions": actions}, upto=upto)
        except RecordError:
            yield h, e, None
            continue
        pos, _ = _position(deal)
        assert isinstance(pos, Position)
        yield h, e, Solver(pos).solve().value

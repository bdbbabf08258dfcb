"""Twin deals: two deals that differ only in cards hidden from one seat, played in lockstep.

What a seat receives must not hang on cards it cannot see. A :class:`TwinPair` is two deals
dealt alike but for a few cards hidden from its ``seat``; :func:`lockstep` plays them side by
side with the same public actions while the seat still cannot tell them apart by the rules, and
:func:`stream_differences` checks that the seat's stream of distinct views (what a front end
sends it) is the same in both, round by round. Each kind of pair exercises a hidden decision or
a hidden card:

* ``poignee_threshold`` (rule book §3.7): a seat holds just enough trumps to be asked about a
  poignée and declines; in its twin one trump less, and it is not asked;
* ``more_trumps`` (§3.7): a seat with one trump more than a simple poignée declares it and picks
  the trumps to show; in its twin it holds exactly the simple poignée and shows it at once;
* ``misere`` (§7 V5): a seat may declare a misère and declines; in its twin it may not;
* ``called_king`` (§4.3): the called king is held by one seat, in the twin by another;
* ``random_swap``: one to three swaps between the places hidden from the seat (other hands, a
  hidden chien, the face-down pile cards of §4.4, the talon halves of §5.3).

A spectator's pair (``make_pair(..., spectator=True)``) is compared on the public view
(``deal.public_view()``, :data:`~atout.engine.view.PUBLIC_SEAT` as its seat): its swaps may
move any card no spectator sees, between any hands, the unturned chien or talon and the
face-down piles.

>>> import random
>>> from atout.rules import Rules
>>> pair = make_pair(Rules(players=4), "random_swap", random.Random(1))
>>> pair is not None and pair.first != pair.second
True
>>> rounds, views, differences = stream_differences(pair, random.Random(2))
>>> rounds > 0, differences
(True, [])
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from atout.cards import (
    BIT,
    CAVALIERS_MASK,
    CLUBS,
    DIAMONDS,
    EXCUSE_MASK,
    HEARTS,
    JACKS_MASK,
    KINGS_MASK,
    PETIT_MASK,
    PLAIN_SUITS_MASK,
    QUEENS_MASK,
    SPADES,
    TRUMP,
    TRUMPS_MASK,
    card_name,
    cards_of,
)
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.dead_player import DeadPlayerDeal
from atout.engine.french import FrenchDeal
from atout.engine.phase import Phase
from atout.engine.tricks import legal_cards
from atout.engine.two_player import TwoPlayerDeal
from atout.engine.view import PUBLIC_SEAT
from atout.games import Deal, deal_from_dealt, new_deal, playing_seats
from atout.games.fairness import knowable, view_of
from atout.rules import Rules

KINDS: tuple[str, ...] = ("poignee_threshold", "more_trumps", "misere", "called_king", "random_swap")
"""Every kind of twin pair, in the order :func:`kinds_for` lists them."""

_COURTS = KINGS_MASK | QUEENS_MASK | CAVALIERS_MASK | JACKS_MASK
_TRUMPS_AND_EXCUSE = TRUMPS_MASK | EXCUSE_MASK
_PRIVATE = (Phase.POIGNEE, Phase.MISERE)
_CANDIDATES = 40
"""Swaps tried on one dealt deal before drawing another."""


@dataclass(frozen=True)
class TwinPair:
    """Two deals that differ only in cards hidden from ``seat``."""

    kind: str
    rules: Rules
    dealer: int
    seat: int
    """The seat whose stream must not tell the two apart (:data:`~atout.engine.view.PUBLIC_SEAT`:
    a spectator's)."""
    first: dict[str, object]
    """:meth:`~atout.games.Game.dealt` of deal A."""
    second: dict[str, object]
    """:meth:`~atout.games.Game.dealt` of deal B."""
    differing: int
    """Mask of the cards whose location differs between A and B."""
    actor: int | None
    """The seat whose hidden decision the pair exercises (``None`` for ``random_swap``)."""
    taker: int | None = None
    """A seat the bidding policy makes the taker (``None``: any)."""
    call: int | None = None
    """The card the taker calls with 5 players (``None``: any)."""

    def deals(self) -> tuple[Deal, Deal]:
        """Fresh deals A and B, from :attr:`first` and :attr:`second`."""
        return (
            deal_from_dealt(self.rules, self.dealer, self.first),
            deal_from_dealt(self.rules, self.dealer, self.second),
        )


def kinds_for(rules: Rules) -> tuple[str, ...]:
    """The kinds of pair these rules allow: the poignée kinds in the French game of 3 to 5
    players (a dead player too), ``misere`` with ``misere_bonus``, ``called_king`` with five
    players calling a king, ``random_swap`` in every game."""
    kinds = []
    french = rules.game == "french" and rules.players >= 3
    if french:
        kinds += ["poignee_threshold", "more_trumps"]
        if rules.misere_bonus:
            kinds.append("misere")
        if rules.players == 5 and rules.five_player_mode == "called_king":
            kinds.append("called_king")
    kinds.append("random_swap")
    return tuple(kinds)


def make_pair(
    rules: Rules, kind: str, rng: random.Random, tries: int = 2000, spectator: bool = False
) -> TwinPair | None:
    """Deal (a dealer drawn from ``rng``) until a deal fits ``kind``, and build its twin;
    ``None`` if none of ``tries`` deals fits. A kind the rules do not allow is a ``ValueError``.
    ``spectator``: the pair is a spectator's (its seat :data:`~atout.engine.view.PUBLIC_SEAT`),
    its random swaps between any places no spectator sees."""
    if kind not in kinds_for(rules):
        raise ValueError(f"{kind!r} is not a kind of twin pair under these rules: {kinds_for(rules)}")
    build = _public_swap_pair if spectator and kind == "random_swap" else _BUILDERS[kind]
    for _ in range(tries):
        deal = new_deal(rules, dealer=rng.randrange(rules.players), rng=rng)
        if deal.is_over():
            continue  # a petit sec cancels it at once (rule book §3.3)
        pair = build(deal, kind, rng)
        if pair is not None:
            # what a seat cannot tell apart, no spectator can: the same twins, watched
            return dataclasses.replace(pair, seat=PUBLIC_SEAT) if spectator else pair
    return None


# ---------------------------------------------------------------------- places
def _places(deal: Deal) -> list[int]:
    """The dealt cards by place: the hands by table seat, then the chien, the talon halves,
    or each pile card of the 2-player game (seat, pile, bottom to top) alone."""
    if isinstance(deal, DeadPlayerDeal):
        hands = [0] * deal.n
        for inner, seat in enumerate(deal.seats):
            hands[seat] = deal.inner.initial_hands[inner]
        return [*hands, deal.inner.initial_chien]
    if isinstance(deal, FrenchDeal):
        return [*deal.initial_hands, deal.initial_chien]
    if isinstance(deal, AustrianDeal):
        return [*deal.initial_hands, *deal.talon]
    return [*deal.initial_hands, *(BIT[c] for piles in deal.initial_piles for pile in piles for c in pile)]


def _rebuild(deal: Deal, places: list[int]) -> Deal:
    """A deal of the same game, rules and dealer from other places."""
    n = deal.n
    if isinstance(deal, DeadPlayerDeal):
        return DeadPlayerDeal(deal.rules, deal.dealer, places[:n], places[n])
    if isinstance(deal, FrenchDeal):
        return FrenchDeal(deal.rules, deal.dealer, places[:n], places[n])
    if isinstance(deal, AustrianDeal):
        return AustrianDeal(deal.rules, deal.dealer, places[:3], places[3:5])
    slots = iter(mask.bit_length() - 1 for mask in places[2:])
    piles = [[[next(slots) for _ in range(3)] for _ in range(6)] for _ in range(2)]
    return TwoPlayerDeal(deal.rules, deal.dealer, places[:2], piles)


def _hidden_places(deal: Deal, places: list[int], seat: int) -> list[int]:
    """The places whose cards ``seat`` cannot see at the deal: the other hands, the chien or
    talon, and in the 2-player game the face-down pile cards of both players (rule book §4.4);
    for :data:`~atout.engine.view.PUBLIC_SEAT` every hand too."""
    if isinstance(deal, TwoPlayerDeal):
        hands = [0, 1] if seat == PUBLIC_SEAT else [1 - seat]
        return [*hands, *(2 + slot for slot in range(36) if slot % 3 < 2)]
    return [p for p, cards in enumerate(places) if p != seat and cards]


def _swapped(places: list[int], first: int, second: int) -> list[int]:
    both = BIT[first] | BIT[second]
    return [cards ^ both if cards & both else cards for cards in places]


def _pair(
    kind: str,
    deal: Deal,
    places: list[int],
    twin: Deal,
    twin_places: list[int],
    seat: int,
    actor: int | None,
    taker: int | None = None,
    call: int | None = None,
) -> TwinPair:
    differing = 0
    for a, b in zip(places, twin_places, strict=True):
        differing |= a ^ b
    return TwinPair(
        kind, deal.rules, deal.dealer, seat, deal.dealt(), twin.dealt(), differing, actor, taker, call
    )


def _same_opening(deal: Deal, twin: Deal) -> bool:
    """Whether the twin opens as the deal does for every seat: not cancelled at the deal, the same
    petit imprenable (rule book §3.3, §7 V3: a petit sec is shown to all)."""
    if twin.is_over():
        return False
    a, b = _engine(deal), _engine(twin)
    return a is None or b is None or a[0].petit_imprenable_seat == b[0].petit_imprenable_seat


def _engine(deal: Deal) -> tuple[FrenchDeal, dict[int, int]] | None:
    """The French engine of a deal of 3 to 5 players (a dead player's too) and its seat of each
    table seat that holds cards; ``None`` for the other games."""
    if isinstance(deal, DeadPlayerDeal):
        return deal.inner, {seat: inner for inner, seat in enumerate(deal.seats)}
    if isinstance(deal, FrenchDeal):
        return deal, {seat: seat for seat in range(deal.n)}
    return None


_LEADS = (-1, SPADES, HEARTS, DIAMONDS, CLUBS, TRUMP)


def _always_common(first: int, second: int) -> bool:
    """Whether a seat holding ``first`` in one deal and ``second`` in the other has a card legal
    in both (rule book §3.8) in its first trick, whatever was led and trumped before it."""
    if first == second:
        return True
    held = first | second
    tops = [0, *(BIT[c] for c in cards_of(TRUMPS_MASK & ~held))]
    for led in _LEADS:
        for top in tops if led >= 0 else (0,):
            if not legal_cards(first, led, top) & legal_cards(second, led, top):
                return False
    return True


def _shuffled(items: Sequence[int], rng: random.Random) -> list[int]:
    out = list(items)
    rng.shuffle(out)
    return out


# ---------------------------------------------------------------------- the kinds
def _asked_poignee(engine: FrenchDeal, seat: int) -> bool:
    """Whether ``seat`` is asked about a poignée before its first card (rule book §3.7)."""
    return bool(engine._poignee_levels(seat))


def _misere_kinds(engine: FrenchDeal, seat: int) -> list[str]:
    """The misères ``seat`` may declare before its first card (rule book §7 V5)."""
    return engine._misere_kinds(seat) if engine.rules.misere_bonus else []


def _fits(kind: str, engine: FrenchDeal, seat: int, hand: int) -> bool:
    """Whether ``hand`` (held by ``seat``, not the taker) makes deal A of ``kind``."""
    size = engine.rules.poignee_levels(engine.n)[0]
    if kind == "poignee_threshold":
        return (hand & _TRUMPS_AND_EXCUSE).bit_count() == size and _asked_poignee(engine, seat)
    if kind == "more_trumps":
        return (hand & TRUMPS_MASK).bit_count() == size + 1
    if hand & _TRUMPS_AND_EXCUSE and hand & _COURTS:
        return False
    return len(_misere_kinds(engine, seat)) == 1


def _given_and_taken(kind: str, hand: int, other: int) -> tuple[int, int]:
    """The cards the actor may give and take in the swap that makes deal B of ``kind``."""
    if kind == "poignee_threshold":  # a trump (or the Excuse standing in for one, §3.7) for a plain card
        return hand & _TRUMPS_AND_EXCUSE & ~PETIT_MASK, other & PLAIN_SUITS_MASK
    if kind == "more_trumps":  # the highest trump
        return BIT[(hand & TRUMPS_MASK).bit_length() - 1], other & PLAIN_SUITS_MASK
    return hand & PLAIN_SUITS_MASK & ~_COURTS, other & (_TRUMPS_AND_EXCUSE | _COURTS) & ~PETIT_MASK


def _twin_fits(kind: str, engine: FrenchDeal, twin: FrenchDeal, seat: int) -> bool:
    """Whether the actor's twin hand makes deal B of ``kind``."""
    if kind == "poignee_threshold":
        return not _asked_poignee(twin, seat)
    if kind == "more_trumps":
        return _asked_poignee(twin, seat) and _misere_kinds(twin, seat) == _misere_kinds(engine, seat)
    return not _misere_kinds(twin, seat) and _asked_poignee(twin, seat) == _asked_poignee(engine, seat)


def _declaration_pair(deal: Deal, kind: str, rng: random.Random) -> TwinPair | None:
    """A pair for ``poignee_threshold``, ``more_trumps`` or ``misere``: the actor and another seat
    swap one card each. The actor is not the taker (its hand is judged as dealt), the swap leaves
    the actor and the other seat a card legal in both deals in the first trick, and the seat
    whose stream is compared is any third one."""
    found = _engine(deal)
    assert found is not None
    engine, inner = found
    places = _places(deal)
    holders = playing_seats(deal)
    actors = [p for p in holders if _fits(kind, engine, inner[p], places[p])]
    tried = 0
    for actor in _shuffled(actors, rng):
        for other in _shuffled([q for q in holders if q != actor], rng):
            given, taken = _given_and_taken(kind, places[actor], places[other])
            swaps = [(a, b) for a in cards_of(given) for b in cards_of(taken)]
            rng.shuffle(swaps)
            for a, b in swaps:
                tried += 1
                if tried > _CANDIDATES:
                    return None
                twin_places = _swapped(places, a, b)
                if not (
                    _always_common(places[actor], twin_places[actor])
                    and _always_common(places[other], twin_places[other])
                ):
                    continue
                twin = _rebuild(deal, twin_places)
                twin_found = _engine(twin)
                assert twin_found is not None
                if not _same_opening(deal, twin) or not _twin_fits(kind, engine, twin_found[0], inner[actor]):
                    continue
                seat = rng.choice([s for s in range(deal.n) if s not in (actor, other)])
                taker = rng.choice([t for t in holders if t not in (actor, other)])
                return _pair(kind, deal, places, twin, twin_places, seat, actor, taker)
    return None


def _called_king_pair(deal: Deal, kind: str, rng: random.Random) -> TwinPair | None:
    """rule book §4.3: the taker calls a king it does not hold, held by the actor in A and by
    another seat in B; the seat, the actor, the other seat and the taker all differ."""
    places = _places(deal)
    seats = list(range(deal.n))
    seat = rng.randrange(deal.n)
    tried = 0
    for actor in _shuffled([p for p in seats if p != seat], rng):
        kings = cards_of(places[actor] & KINGS_MASK)
        if not kings:
            continue
        king = rng.choice(kings)
        rest = [s for s in seats if s not in (seat, actor)]
        taker = rng.choice(rest)
        for other in _shuffled([q for q in rest if q != taker], rng):
            for card in _shuffled(cards_of(places[other]), rng):
                tried += 1
                if tried > _CANDIDATES:
                    return None
                twin_places = _swapped(places, king, card)
                if not (
                    _always_common(places[actor], twin_places[actor])
                    and _always_common(places[other], twin_places[other])
                ):
                    continue
                twin = _rebuild(deal, twin_places)
                if _same_opening(deal, twin):
                    return _pair(kind, deal, places, twin, twin_places, seat, actor, taker, king)
    return None


def _random_swap_pair(deal: Deal, kind: str, rng: random.Random) -> TwinPair | None:
    """One to three swaps of cards between places hidden from the seat, every place keeping its
    size."""
    return _swap_pair(deal, kind, rng, rng.randrange(deal.n))


def _public_swap_pair(deal: Deal, kind: str, rng: random.Random) -> TwinPair | None:
    """One to three swaps of cards between places no spectator sees: any hands, the chien or
    talon, the face-down piles."""
    return _swap_pair(deal, kind, rng, PUBLIC_SEAT)


def _swap_pair(deal: Deal, kind: str, rng: random.Random, seat: int) -> TwinPair | None:
    places = _places(deal)
    hidden = _hidden_places(deal, places, seat)
    twin_places = list(places)
    for _ in range(rng.randint(1, 3)):
        here, there = rng.sample(hidden, 2)
        a = rng.choice(cards_of(twin_places[here]))
        b = rng.choice(cards_of(twin_places[there]))
        twin_places = _swapped(twin_places, a, b)
    if twin_places == places:
        return None
    twin = _rebuild(deal, twin_places)
    if not _same_opening(deal, twin):
        return None
    return _pair(kind, deal, places, twin, twin_places, seat, None)


_BUILDERS: dict[str, Callable[[Deal, str, random.Random], TwinPair | None]] = {
    "poignee_threshold": _declaration_pair,
    "more_trumps": _declaration_pair,
    "misere": _declaration_pair,
    "called_king": _called_king_pair,
    "random_swap": _random_swap_pair,
}


# ---------------------------------------------------------------------- lockstep
@dataclass(frozen=True)
class Round:
    """One step of :func:`lockstep`: each deal's private steps, then the public action."""

    first: tuple[tuple[int, str], ...]
    """``(seat, action words)`` applied to A, in order."""
    second: tuple[tuple[int, str], ...]
    """``(seat, action words)`` applied to B, in order."""


def lockstep(pair: TwinPair, rng: random.Random) -> Iterator[Round]:
    """Play the pair's two deals side by side, one :class:`Round` at a time.

    Before each public step each deal makes its own private steps (a poignée or misère question,
    rule book §3.7, §7 V5): all declined, except that the actor of ``more_trumps`` declares the
    lowest poignée and shows the default trumps. The public action is one legal in both deals:
    in the bidding a non-pass bid (or, with :attr:`TwinPair.taker`, garde for the taker and pass
    for the others), the call :attr:`TwinPair.call`, no chelem, the hand kept when the Excuse
    is alone, anything else at random. The rounds stop when a deal ends, the players to act
    differ, no action is legal in both, or a round would let the seat know where a differing
    card lies (that round is not yielded).
    """
    first, second = pair.deals()
    seat = pair.seat
    while not (first.is_over() or second.is_over()):
        private_first = _private_steps(first, pair)
        private_second = _private_steps(second, pair)
        player = first.current_player
        if player != second.current_player:
            return
        words = _public_choice(first, second, pair, rng)
        if words is None:
            return
        first.apply(first.parse(words))
        second.apply(second.parse(words))
        if (knowable(first, seat) | knowable(second, seat)) & pair.differing:
            return
        yield Round((*private_first, (player, words)), (*private_second, (player, words)))


def _private_steps(deal: Deal, pair: TwinPair) -> list[tuple[int, str]]:
    done = []
    while deal.phase in _PRIVATE:
        player = deal.current_player
        words = [deal.action_name(a) for a in deal.legal_actions()]
        if "show_default" in words:
            choice = "show_default"
        elif deal.phase is Phase.MISERE:
            choice = "no_misere"
        elif pair.kind == "more_trumps" and player == pair.actor:
            choice = words[1]  # the lowest poignée
        else:
            choice = "no_poignee"
        deal.apply(deal.parse(choice))
        done.append((player, choice))
    return done


def _public_choice(first: Deal, second: Deal, pair: TwinPair, rng: random.Random) -> str | None:
    in_second = {second.action_name(a) for a in second.legal_actions()}
    common = [w for w in (first.action_name(a) for a in first.legal_actions()) if w in in_second]
    if not common:
        return None
    phase = first.phase
    wanted: str | None = None
    if phase is Phase.BIDDING:
        if pair.taker is not None:
            wanted = "garde" if first.current_player == pair.taker else "pass"
        else:
            bids = [w for w in common if w != "pass"]
            return rng.choice(bids or common)
    elif phase is Phase.CALL and pair.call is not None:
        wanted = f"call {card_name(pair.call)}"
    elif phase is Phase.CHELEM:
        wanted = "no_chelem"
    elif phase is Phase.EXCUSE_SEC:
        wanted = "keep_hand"
    if wanted is not None and wanted in common:
        return wanted
    return rng.choice(common)


# ---------------------------------------------------------------------- streams
def stream_differences(pair: TwinPair, rng: random.Random) -> tuple[int, int, list[str]]:
    """Drive :func:`lockstep` on two fresh deals and compare the seat's streams: its distinct
    views (``view(seat).to_json()``, or ``public_view()`` for a spectator's pair; a view equal
    to the one before adds nothing), the new ones
    of each round in A against those in B, field by field. Returns the rounds compared, the
    views compared and the differences (the kind, the round, the first differing field and
    both values); the comparison stops at the first round that differs."""
    first, second = pair.deals()
    seat = pair.seat
    last = [view_of(first, seat).to_json(), view_of(second, seat).to_json()]
    views = 1
    differences = _differences(pair, 0, [last[0]], [last[1]])
    rounds = 0
    if differences:
        return rounds, views, differences
    for number, step in enumerate(lockstep(pair, rng), 1):
        new_first = _advance(first, step.first, seat, last, 0)
        new_second = _advance(second, step.second, seat, last, 1)
        rounds += 1
        views += max(len(new_first), len(new_second))
        differences = _differences(pair, number, new_first, new_second)
        if differences:
            break
    return rounds, views, differences


def _advance(
    deal: Deal, actions: Sequence[tuple[int, str]], seat: int, last: list[dict[str, Any]], index: int
) -> list[dict[str, Any]]:
    """Apply a round's actions; the seat's new distinct views."""
    new = []
    for _, words in actions:
        deal.apply(deal.parse(words))
        view = view_of(deal, seat).to_json()
        if view != last[index]:
            new.append(view)
            last[index] = view
    return new


def _differences(
    pair: TwinPair, number: int, first: list[dict[str, Any]], second: list[dict[str, Any]]
) -> list[str]:
    where = f"{pair.kind}, seat {pair.seat}, round {number}"
    out = []
    for index in range(max(len(first), len(second))):
        if index >= len(first) or index >= len(second):
            have = [len(first), len(second)]
            out.append(f"{where}: {have[0]} new views in A, {have[1]} in B")
            break
        found = first_difference(first[index], second[index])
        if found is not None:
            path, a, b = found
            out.append(f"{where}, view {index}: {path}: {_short(a)} vs {_short(b)}")
    return out


def first_difference(a: object, b: object, path: str = "") -> tuple[str, object, object] | None:
    """The first place where two JSON values differ: ``(path, a's value, b's value)``, or
    ``None`` when equal.

    >>> first_difference({"phase": "play", "bids": [1, 2]}, {"phase": "play", "bids": [1, 3]})
    ('bids[1]', 2, 3)
    """
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in [*a, *(k for k in b if k not in a)]:
            if key not in a or key not in b:
                return (f"{path}.{key}" if path else str(key), a.get(key), b.get(key))
            found = first_difference(a[key], b[key], f"{path}.{key}" if path else str(key))
            if found is not None:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found is not None:
                return found
        if len(a) != len(b):
            return (f"{path} length", len(a), len(b))
        return None
    return None if a == b else (path, a, b)


def _short(value: object, width: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 3] + "..."


__all__ = [
    "KINDS",
    "Round",
    "TwinPair",
    "first_difference",
    "kinds_for",
    "lockstep",
    "make_pair",
    "stream_differences",
]

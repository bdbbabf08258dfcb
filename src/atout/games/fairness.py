"""A leak scanner: does a seat's view hold only what that seat may know (the rule book, docs/rules)?

:func:`knowable` works out, from the full deal and the rule book alone, the cards whose
location a seat may know; :func:`scan_view` walks the seat's view and names every card,
hand, phase or partner it shows beyond that. :func:`twin_differences` checks that the
acting seat's choices do not depend on hidden cards, and :func:`scan_card_names` finds
card names in text (events, records, a view's wire form) outside an allowed mask.
:func:`sweep` also plays twin deals in lockstep (:mod:`atout.games.twins`) and compares a
seat's stream of distinct views in both.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from atout.cards import (
    ALL_CARDS,
    AUSTRIAN_DECK_MASK,
    BIT,
    EXCUSE_MASK,
    NAMES,
    PETIT_MASK,
    TRUMPS_MASK,
    CardSet,
)
from atout.engine.austrian.cards import AUSTRIAN_TRUMPS_MASK
from atout.engine.austrian.deal import AustrianDeal
from atout.engine.dead_player import DeadPlayerDeal
from atout.engine.errors import IllegalActionError
from atout.engine.events import Event, cards_shown, visible_to
from atout.engine.french import FrenchDeal, is_petit_sec
from atout.engine.two_player import TwoPlayerDeal
from atout.engine.view import PUBLIC_SEAT, TrickView
from atout.engine.wire import View, view_from_json
from atout.games import Deal, new_deal
from atout.presets import PRESETS, rules_for
from atout.rules import Rules, RulesError

PRIVATE_PHASES = frozenset({"poignee", "misere", "excuse_sec"})
"""Decisions made in secret: no other seat may see that one is being made (rule book §3.7, §7)."""

_MASK_FIELDS = frozenset({"hand", "chien", "ecart", "discard", "first_half", "second_half"})
_CARD_FIELDS: frozenset[str] = frozenset()
_CARD_TUPLE_FIELDS = frozenset({"own_tops", "opponent_tops"})
_SEAT_CARD_FIELDS = frozenset({"trick"})
_PLAIN_FIELDS = frozenset(  # the called card is named to all (rule book §4.3), not located
    {
        "seat",
        "players",
        "dealer",
        "rules",
        "phase",
        "current_player",
        "legal_actions",
        "bids",
        "taker",
        "contract",
        "partner",
        "called_card",
        "chelem_announced",
        "scores",
        "declarer",
        "bid",
        "talon_half",
        "game_type",
        "own_pile_sizes",
        "opponent_pile_sizes",
        "chelem_announced_by",
    }
)


# ---------------------------------------------------------------------- knowable
def knowable(deal: Deal, seat: int) -> int:
    """Mask of the cards whose location ``seat`` may know now, from the full deal state.

    Its own hands (initial and current), every card played, a turned chien or talon half,
    trumps shown in a poignée or discarded face up, the whole écart for the taker, shown
    petit-sec and Excuse-sec cards, face-up pile tops, and every card once a played deal
    is counted. ``seat`` :data:`~atout.engine.view.PUBLIC_SEAT`: what anyone may know (a
    spectator), who holds no cards.
    """
    if isinstance(deal, DeadPlayerDeal):
        inner_seat = deal.seats.index(seat) if seat in deal.seats else -1
        return _french_knowable(deal.inner, inner_seat)
    if isinstance(deal, FrenchDeal):
        return _french_knowable(deal, seat)
    if isinstance(deal, TwoPlayerDeal):
        return _two_player_knowable(deal, seat)
    return _austrian_knowable(deal, seat)


_last_played: list[object] = [None, 0, 0]  # the tricks list last seen, its length, their cards


def _played(tricks: list[tuple[tuple[int, ...], tuple[int, ...], int]], current: list[int]) -> int:
    """The cards of the finished tricks (remembered for the deal last asked: tricks are only
    ever appended) and of the current one."""
    seen, count, mask = _last_played
    if seen is not tricks or count != len(tricks):
        mask = 0
        for _, cards, _ in tricks:
            for card in cards:
                mask |= BIT[card]
        _last_played[:] = [tricks, len(tricks), mask]
    assert isinstance(mask, int)
    for card in current:
        mask |= BIT[card]
    return mask


def _french_knowable(deal: FrenchDeal, seat: int) -> int:
    """rule book §3: ``seat`` is -1 for a dead player, who holds no cards."""
    if deal.is_over() and deal.outcome == "played":
        return ALL_CARDS  # §3.11: the count is open
    mask = _played(deal.tricks, deal.trick_cards)
    if seat >= 0:
        mask |= deal.initial_hands[seat] | deal.hands[seat]
    called = deal.n < 5 or deal.called_card >= 0
    if deal.contract in ("petite", "pousse", "garde") and deal.taker >= 0 and called:
        mask |= deal.initial_chien  # §3.5: turned face up after the call
    for _, _, shown in deal.poignees:
        mask |= shown  # §3.7
    mask |= deal.ecart if seat == deal.taker and seat >= 0 else deal.ecart & TRUMPS_MASK
    if deal.is_over() and not deal.bids:
        petit_sec = [h for h in deal.initial_hands if is_petit_sec(h, deal.rules.petit_sec_rule)]
        for hand in petit_sec:
            mask |= hand  # §3.3: the hand is shown
        if not petit_sec:
            mask |= EXCUSE_MASK  # §7 V4: the Excuse shown alone
    if (
        deal.petit_imprenable_seat >= 0
        and deal.rules.petit_imprenable_timing == "before_first_trick"
        and deal.trick_leader >= 0
    ):
        mask |= PETIT_MASK  # §7 V3: announced before the first trick
    return mask


def _two_player_knowable(deal: TwoPlayerDeal, seat: int) -> int:
    """rule book §4.4: own hand, both players' face-up pile tops, the cards played."""
    if deal.is_over():
        return ALL_CARDS
    own = deal.initial_hands[seat] | deal.hands[seat] if seat >= 0 else 0
    return own | deal.tops[0] | deal.tops[1] | _played(deal.tricks, deal.trick_cards)


def _austrian_knowable(deal: AustrianDeal, seat: int) -> int:
    """rule book §5.3: the first half turned up in a threesome (both halves under the options),
    the half taken for the declarer, trumps discarded face up, the whole discard for him."""
    if deal.is_over() and deal.outcome == "played":
        return ALL_CARDS  # §5.5: the count is open
    mask = _played(deal.tricks, deal.trick_cards)
    if seat >= 0:
        mask |= deal.initial_hands[seat] | deal.hands[seat]
    rules = deal.rules
    if deal.bid == "threesome":
        mask |= deal.talon[0]
        if rules.austrian_talon_mode == "free_choice" or rules.austrian_second_half_visible:
            mask |= deal.talon[1]
        if seat >= 0 and seat == deal.declarer and deal.talon_half is not None:
            mask |= deal.talon[deal.talon_half - 1]
    mask |= deal.discard if seat >= 0 and seat == deal.declarer else deal.discard & AUSTRIAN_TRUMPS_MASK
    return mask


# ---------------------------------------------------------------------- the view
def _own_hand(deal: Deal, seat: int) -> int:
    if seat < 0:
        return 0  # a public view holds no hand
    if isinstance(deal, DeadPlayerDeal):
        return deal.inner.hands[deal.seats.index(seat)] if seat in deal.seats else 0
    return deal.hands[seat]


def _field_cards(name: str, value: object) -> Iterator[tuple[str, int]] | None:
    """``(where, card)`` for each card a view field shows, or ``None`` for an unknown field."""
    if value is None or name in _PLAIN_FIELDS:
        return iter(())
    if name in _MASK_FIELDS and isinstance(value, int):
        return ((name, c) for c in CardSet(value))
    if name in _CARD_FIELDS and isinstance(value, int):
        return iter(((name, value),))
    if name in _CARD_TUPLE_FIELDS and isinstance(value, tuple):
        return ((name, c) for c in value if c is not None)
    if name in _SEAT_CARD_FIELDS and isinstance(value, tuple):
        return ((name, c) for _, c in value)
    if name == "tricks" and isinstance(value, tuple):
        return _trick_cards(value)
    if name == "poignees" and isinstance(value, tuple):
        return (("poignees", c) for _, _, shown in value for c in CardSet(shown))
    return None


def _field_mask(name: str, value: object) -> int | None:
    """The mask of every card a view field shows (a quick :func:`_field_cards`), ``None`` for an
    unknown field."""
    if value is None or name in _PLAIN_FIELDS:
        return 0
    if name in _MASK_FIELDS and isinstance(value, int):
        return value
    if name in _CARD_FIELDS and isinstance(value, int):
        return BIT[value]
    mask = 0
    if name in _CARD_TUPLE_FIELDS and isinstance(value, tuple):
        for card in value:
            if card is not None:
                mask |= BIT[card]
        return mask
    if name in _SEAT_CARD_FIELDS and isinstance(value, tuple):
        for _, card in value:
            mask |= BIT[card]
        return mask
    if name == "tricks" and isinstance(value, tuple):
        for trick in value:
            mask |= trick.cards  # made from the plays when the trick view is made
        return mask
    if name == "poignees" and isinstance(value, tuple):
        for _, _, shown in value:
            mask |= shown
        return mask
    return None


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _trick_cards(tricks: tuple[TrickView, ...]) -> Iterator[tuple[str, int]]:
    for number, trick in enumerate(tricks):
        for _, card in trick.plays:
            yield f"tricks[{number}]", card
        for card in CardSet(trick.cards):
            yield f"tricks[{number}].cards", card


def view_of(deal: Deal, seat: int) -> View:
    """``seat``'s view of ``deal``, or its public view for :data:`~atout.engine.view.PUBLIC_SEAT`."""
    return deal.public_view() if seat == PUBLIC_SEAT else deal.view(seat)


def scan_view(deal: Deal, seat: int) -> list[str]:
    """The leaks in ``seat``'s view of ``deal`` now (its public view for
    :data:`~atout.engine.view.PUBLIC_SEAT`), each naming the rule it breaks."""
    return scan_view_object(deal, seat, view_of(deal, seat))


def scan_view_object(deal: Deal, seat: int, view: object, events_from: int = 0) -> list[str]:
    """:func:`scan_view` on a given view object (events before ``events_from`` skipped)."""
    allowed = knowable(deal, seat)
    leaks: list[str] = []
    names = _FIELD_NAMES.get(type(view))
    if names is None:  # the fields that may show cards (plain ones show none)
        assert dataclasses.is_dataclass(view)
        names = tuple(f.name for f in dataclasses.fields(view) if f.name not in _PLAIN_FIELDS)
        _FIELD_NAMES[type(view)] = names = tuple(name for name in names if name != "events")
    for name in names:
        value = getattr(view, name)
        shown = _field_mask(name, value)
        if shown is None:
            leaks.append(f"view field {name!r} is not known to the scanner (unchecked)")
            continue
        if not shown & ~allowed:
            continue
        for where, card in _field_cards(name, value) or ():
            if not allowed >> card & 1:
                leaks.append(f"{where} shows {NAMES[card]}: hidden from seat {seat} (rule book view)")
    hand = getattr(view, "hand", 0)
    if hand != _own_hand(deal, seat):
        leaks.append(f"hand of seat {seat} is not its own hand (rule book §3.2: other hands never show)")
    events: tuple[Event, ...] = getattr(view, "events", ())
    for number in range(events_from, len(events)):
        event = events[number]
        private = visible_to(event)
        if private is not None and private != seat:
            leaks.append(f"events[{number}] {event.kind} is private to seat {private}")
        for card in CardSet(cards_shown(event)):
            if not allowed >> card & 1:
                leaks.append(f"events[{number}] {event.kind} shows {NAMES[card]}: hidden from seat {seat}")
    leaks.extend(_scan_partner(deal, seat, view, allowed))
    current = getattr(view, "current_player", -1)
    if seat != current:
        phase = getattr(view, "phase", "")
        if phase in PRIVATE_PHASES and not _public_excuse_round(deal, phase):
            leaks.append(
                f"phase {phase!r} shown to seat {seat} while seat {current} decides "
                "(rule book §3.7/§7: a declaration is decided in secret)"
            )
        if getattr(view, "legal_actions", ()):
            leaks.append(f"legal_actions shown to seat {seat}, who is not to act")
    return leaks


def _public_excuse_round(deal: Deal, phase: str) -> bool:
    """Whether an ``excuse_sec`` phase is the public round before the bidding: every seat asked
    in bidding order (rule book §3.4 order, §7 V4), whatever it holds, so the question is no secret."""
    french = deal.inner if isinstance(deal, DeadPlayerDeal) else deal
    if phase != "excuse_sec" or not isinstance(french, FrenchDeal) or not french.rules.excuse_sec_redeal:
        return False
    rules, n, asked = french.rules, french.n, len(french.history)
    if french.bids or asked >= n:
        return False
    step = 1 if rules.play_direction == "counterclockwise" else -1
    first = -step if rules.first_bidder == "dealer_left" else step
    return french.current_player == (french.dealer + first * (asked + 1)) % n


def _scan_partner(deal: Deal, seat: int, view: object, allowed: int) -> list[str]:
    """rule book §4.3: the partner is known once the called card shows (or to himself)."""
    if not isinstance(deal, FrenchDeal) or deal.n != 5:
        return []
    partner = getattr(view, "partner", None)
    if partner is None or (deal.called_card >= 0 and allowed >> deal.called_card & 1):
        return []
    return [f"partner {partner} shown to seat {seat} before the called card shows (rule book §4.3)"]


class Scanner:
    """:func:`scan_view` over a deal's every state, checking each seat's new events only
    (event logs are append-only); counts views checked."""

    def __init__(self) -> None:
        self.views = 0
        self._seen: dict[int, tuple[int, Event | None]] = {}

    def scan(self, deal: Deal, seat: int) -> list[str]:
        view = view_of(deal, seat)
        self.views += 1
        events: tuple[Event, ...] = getattr(view, "events", ())
        done, last = self._seen.get(seat, (0, None))
        if done > len(events) or (done and events[done - 1] != last):
            done = 0
        leaks = scan_view_object(deal, seat, view, done)
        self._seen[seat] = (len(events), events[-1] if events else None)
        return leaks

    def reset(self) -> None:
        self._seen.clear()


# ---------------------------------------------------------------------- text
_CARD_TOKEN = re.compile(
    r"(?<![A-Za-z0-9])(?:10|[1-9JCQK])[SHDC](?![A-Za-z0-9])|(?<![A-Za-z0-9])T(?:1[0-9]|2[01]|[1-9])(?![A-Za-z0-9])|(?<![A-Za-z0-9])EX(?![A-Za-z0-9])"
)
_CARD_OF_NAME = {name: card for card, name in enumerate(NAMES)}


def scan_card_names(text: str, allowed_mask: int) -> list[str]:
    """Every card name (``KS``, ``10H``, ``T21``, ``EX``) in ``text`` outside ``allowed_mask``."""
    leaks = []
    for match in _CARD_TOKEN.finditer(text):
        card = _CARD_OF_NAME[match.group()]
        if not allowed_mask >> card & 1:
            leaks.append(f"text at {match.start()} names {match.group()}: not allowed")
    return leaks


# ---------------------------------------------------------------------- twins
def _acting_view(deal: Deal, seat: int) -> tuple[object, object, object]:
    view = deal.view(seat)
    return (getattr(view, "phase", None), getattr(view, "current_player", None), view.legal_actions)


def twin_differences(deal: Deal, seat: int, rng: random.Random, tries: int) -> list[str]:
    """Redeal the cards ``seat`` cannot know (keeping every pile's size) up to ``tries``
    times; for each twin that replays the same history legally, report where ``seat``'s
    phase, current player or legal actions differ from the real deal's. A twin that ends where
    the real deal goes on is no twin: only a petit sec shown at the deal ends it so (rule book
    §3.3), and that every seat sees."""
    fixed = knowable(deal, seat)
    for action in deal.history:
        if 78 <= action < 156:
            fixed |= BIT[action - 78]  # a discard (French and Austrian) names its card
    real = _acting_view(deal, seat)
    out: list[str] = []
    for _ in range(tries):
        twin = _twin(deal, fixed, rng)
        if twin is None:
            continue
        if not _replay(twin, deal.history) or twin.is_over() != deal.is_over():
            continue
        seen = _acting_view(twin, seat)
        for name, a, b in zip(("phase", "current_player", "legal_actions"), real, seen, strict=True):
            if a != b:
                out.append(f"seat {seat}'s {name} depends on hidden cards: {a} vs {b} in a twin deal")
    return out


def _shuffle_hidden(piles: list[int], fixed: int, rng: random.Random) -> list[int]:
    hidden = [c for p in piles for c in CardSet(p & ~fixed)]
    rng.shuffle(hidden)
    out = []
    for pile in piles:
        keep = pile & fixed
        need = (pile & ~fixed).bit_count()
        for card in hidden[:need]:
            keep |= BIT[card]
        del hidden[:need]
        out.append(keep)
    return out


def _twin(deal: Deal, fixed: int, rng: random.Random) -> Deal | None:
    if isinstance(deal, DeadPlayerDeal):
        inner = deal.inner
        piles = _shuffle_hidden([*inner.initial_hands, inner.initial_chien], fixed, rng)
        hands = [0] * 5
        for i, s in enumerate(deal.seats):
            hands[s] = piles[i]
        return DeadPlayerDeal(deal.rules, deal.dealer, hands, piles[-1])
    if isinstance(deal, FrenchDeal):
        piles = _shuffle_hidden([*deal.initial_hands, deal.initial_chien], fixed, rng)
        return FrenchDeal(deal.rules, deal.dealer, piles[:-1], piles[-1])
    if isinstance(deal, AustrianDeal):
        piles = _shuffle_hidden([*deal.initial_hands, *deal.talon], fixed, rng)
        return AustrianDeal(deal.rules, deal.dealer, piles[:3], piles[3:])
    return _two_player_twin(deal, fixed, rng)


def _two_player_twin(deal: TwoPlayerDeal, fixed: int, rng: random.Random) -> TwoPlayerDeal:
    slots = [c for seat in deal.initial_piles for p in seat for c in p if not fixed >> c & 1]
    hidden = slots + [c for h in deal.initial_hands for c in CardSet(h & ~fixed)]
    rng.shuffle(hidden)
    it = iter(hidden)
    piles = [[[c if fixed >> c & 1 else next(it) for c in p] for p in seat] for seat in deal.initial_piles]
    hands = []
    for h in deal.initial_hands:
        keep = h & fixed
        for _ in range((h & ~fixed).bit_count()):
            keep |= BIT[next(it)]
        hands.append(keep)
    return TwoPlayerDeal(deal.rules, deal.dealer, hands, piles)


def _replay(twin: Deal, history: list[int]) -> bool:
    for action in history:
        if twin.is_over() or action not in twin.legal_actions():
            return False
        twin.apply(action)
    return True


# ---------------------------------------------------------------------- sweeps
SWEPT_GAMES: dict[str, dict[str, Any]] = {
    "french 2": {"players": 2},
    "french 3": {"players": 3},
    "french 4": {"players": 4},
    "french 5": {"players": 5},
    "french 5 dead player": {"players": 5, "five_player_mode": "dead_player"},
    "austrian": {"game": "austrian", "players": 3},
}
"""Every game and player count atout plays, by the options that pick it."""

_FRENCH_HOUSE: dict[str, Any] = {
    "poignee_thresholds": {3: [1, 2, 3], 4: [1, 2, 3], 5: [1, 2, 3]},  # a poignée always possible
    "misere_bonus": 10,
    "excuse_sec_redeal": True,
    "excuse_last_trick": "must_play_before_last",
    "petit_sec_rule": "petit_imprenable",
    "partial_slam": {"max_missing": 3},
    "bid_pousse": True,
}
HOUSE_OPTIONS: dict[str, dict[str, Any]] = {
    "french 2": {"two_player_chelem": True, "excuse_last_trick": "must_play_before_last"},
    "french 3": {**_FRENCH_HOUSE, "petit_imprenable_timing": "when_played"},
    "french 4": _FRENCH_HOUSE,
    "french 5": {**_FRENCH_HOUSE, "petit_imprenable_timing": "when_played"},
    "french 5 dead player": _FRENCH_HOUSE,
    "austrian": {
        "austrian_talon_mode": "free_choice",
        "austrian_solo_talon": "declarer",
        "austrian_forbid_trull_discard": True,
        "austrian_must_overtrump": False,
    },
}
"""For each game, the house options (rule book §7-§8) that add secret decisions (poignée at any
count, misère, Excuse sec), hidden-side rules (the Excuse before the last trick, petit
imprenable, partial slam) or other hidden cards (Austrian talon choice)."""


def rule_sets(game: str) -> dict[str, Rules]:
    """Every preset that applies to ``game`` (a key of :data:`SWEPT_GAMES`), then its house
    options, by name."""
    options = SWEPT_GAMES[game]
    out: dict[str, Rules] = {}
    for preset in PRESETS:
        if preset.options.get("game", "french") != options.get("game", "french"):
            continue
        try:
            rules = rules_for(preset.name, options)
            new_deal(rules, rng=0)
        except (RulesError, ValueError):
            continue  # the preset does not apply (e.g. a 6-card kitty with 5 players)
        out[preset.name] = rules
    out["house options"] = Rules.from_options({**options, **HOUSE_OPTIONS[game]})
    return out


@dataclasses.dataclass
class Sweep:
    """What :func:`sweep` checked and found."""

    deals: int = 0
    views: int = 0
    twins: int = 0
    refusals: int = 0
    wire_views: int = 0
    """Views whose JSON text was scanned too (every seat's, in the states drawn for twins)."""
    phases: Counter[str] = dataclasses.field(default_factory=Counter)
    """How many states of each phase were met (the true phase, whoever decides)."""
    twin_streams: int = 0
    """Twin pairs (:mod:`atout.games.twins`) whose streams were compared."""
    stream_rounds: int = 0
    """Lockstep rounds compared in those pairs."""
    stream_views: int = 0
    """Distinct views of the compared seat compared in those pairs."""
    leaks: list[str] = dataclasses.field(default_factory=list)


def sweep(
    rules: Rules,
    deals: int,
    seed: int,
    twin_rate: float = 0.02,
    twin_tries: int = 2,
    found: Sweep | None = None,
    stream_rate: float = 0.02,
    stream_tries: int = 1000,
) -> Sweep:
    """Play ``deals`` random deals (uniform legal actions) and, after every action, scan every
    seat's view; in a state drawn with chance ``twin_rate``, look for twins (``twin_tries``
    tries) in which the acting seat's choices differ, and scan the refusal of a card it cannot
    see for card names beyond its knowledge. After a share ``stream_rate`` of the deals (evenly
    spread), build a twin pair of each kind the rules allow (``stream_tries`` deals drawn for
    each) and compare the seat's streams (:func:`atout.games.twins.stream_differences`). Each
    leak names its deal's number and seed."""
    out = found if found is not None else Sweep()
    rng = random.Random(seed)
    scanner = Scanner()
    for number in range(deals):
        deal_seed = rng.getrandbits(32)
        deal_rng = random.Random(deal_seed)
        deal = new_deal(rules, dealer=number % rules.players, rng=deal_rng)
        where = f"deal {number} (seed {deal_seed})"
        scanner.reset()
        step = 0
        while True:
            for seat in (*range(deal.n), PUBLIC_SEAT):
                out.leaks.extend(f"{where}, step {step}: {leak}" for leak in scanner.scan(deal, seat))
            out.phases[deal.phase.value] += 1
            if deal.is_over():
                break
            if deal_rng.random() < twin_rate:
                seat = deal.current_player
                out.twins += 1
                found_twins = twin_differences(deal, seat, deal_rng, twin_tries)
                out.leaks.extend(f"{where}, step {step}: {leak}" for leak in found_twins)
                out.leaks.extend(
                    f"{where}, step {step}: {leak}" for leak in _scan_refusal(deal, seat, deal_rng)
                )
                out.refusals += 1
                for any_seat in (*range(deal.n), PUBLIC_SEAT):
                    found_json = scan_wire_view(deal, any_seat)
                    out.leaks.extend(f"{where}, step {step}: {leak}" for leak in found_json)
                    out.wire_views += 1
            deal.apply(deal_rng.choice(deal.legal_actions()))
            step += 1
        out.deals += 1
        if int((number + 1) * stream_rate) > int(number * stream_rate):
            leaks = twin_streams(rules, random.Random(deal_seed), stream_tries, out)
            out.leaks.extend(f"{where}, twin streams: {leak}" for leak in leaks)
    out.views += scanner.views
    return out


def twin_streams(rules: Rules, rng: random.Random, tries: int, found: Sweep) -> list[str]:
    """Build a twin pair of each kind the rules allow (:mod:`atout.games.twins`), a seat's and
    a spectator's, and compare the seat's (or the public) streams in both, counted in ``found``;
    the differences."""
    from atout.games.twins import kinds_for, make_pair, stream_differences

    leaks: list[str] = []
    for kind, spectator in ((k, s) for k in kinds_for(rules) for s in (False, True)):
        pair = make_pair(rules, kind, rng, tries, spectator=spectator)
        if pair is None:
            continue
        rounds, views, differences = stream_differences(pair, rng)
        found.twin_streams += 1
        found.stream_rounds += rounds
        found.stream_views += views
        leaks += differences
    return leaks


def scan_wire_view(deal: Deal, seat: int) -> list[str]:
    """The card names in the JSON text of ``seat``'s view (the wire form a browser or a bot
    receives) beyond what the seat may know; a card named without being located (the called
    card, a card the seat may call) is allowed. The text must also read back to the view."""
    view = view_of(deal, seat)
    data = view.to_json()
    text = json.dumps(data, ensure_ascii=False)
    allowed = knowable(deal, seat)
    called = getattr(view, "called_card", None)
    if called is not None:
        allowed |= BIT[called]
    for action in view.legal_actions:
        card = action.card
        if card is not None:
            allowed |= BIT[card]
    leaks = [f"wire view of seat {seat}: {leak}" for leak in scan_card_names(text, allowed)]
    if view_from_json(json.loads(text)) != view:
        leaks.append(f"wire view of seat {seat} does not read back to the view")
    return leaks


def _scan_refusal(deal: Deal, seat: int, rng: random.Random) -> list[str]:
    """Try a card ``seat`` cannot see: the refusal may name that card, and nothing else unseen."""
    allowed = knowable(deal, seat)
    deck = AUSTRIAN_DECK_MASK if isinstance(deal, AustrianDeal) else ALL_CARDS
    unseen = list(CardSet(deck & ~allowed))
    if not unseen:
        return []
    card = rng.choice(unseen)
    before = len(deal.history)
    try:
        deal.apply(card)
    except IllegalActionError as error:
        return [f"refusal: {leak}" for leak in scan_card_names(str(error), allowed | BIT[card])]
    except ValueError:
        return []  # not an action of this game
    assert len(deal.history) == before + 1
    return [f"refusal: {NAMES[card]}, unseen by seat {seat}, was accepted"]


__all__ = [
    "HOUSE_OPTIONS",
    "PRIVATE_PHASES",
    "SWEPT_GAMES",
    "Scanner",
    "Sweep",
    "knowable",
    "rule_sets",
    "scan_card_names",
    "scan_view",
    "sweep",
    "twin_differences",
    "twin_streams",
]

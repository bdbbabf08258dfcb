"""Deal summaries (rule book §9): what a score keeper is told once a deal is over.

The engine builds a :class:`FrenchSummary` at the end of each deal; a score keeper
reads one from JSON with :func:`parse_summary`. Scoring functions take summaries only.

>>> s = parse_summary({"game": "french", "players": 4, "taker": 0, "contract": "garde",
...                    "oudlers": 2, "points": 49})
>>> s.contract, s.points
('garde', 49.0)
>>> parse_summary({"game": "french", "players": 4, "taker": 0, "contract": "garde",
...                "oudlers": 4, "points": 49})
Traceback (most recent call last):
...
atout.scoring.summary.SummaryError: oudlers: must be a whole number from 0 to 3, not 4
"""

from __future__ import annotations

import difflib
import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Any, Literal, TypeAlias

from atout.rules import CONTRACTS, Rules, RulesError
from atout.scoring.piles import SlamSide, open_span, slam_piles

Side = Literal["attack", "defense"]
PoigneeLevel = Literal["simple", "double", "triple"]
MisereKind = Literal["no_trumps", "no_courts", "both"]
AustrianBid = Literal["threesome", "solo"]
AustrianGameType = Literal["36_or_more", "35_or_less"]
POIGNEE_LEVELS: tuple[PoigneeLevel, ...] = ("simple", "double", "triple")
SIDES: tuple[Side, ...] = ("attack", "defense")
MISERE_KINDS: tuple[MisereKind, ...] = ("no_trumps", "no_courts", "both")
AUSTRIAN_BIDS: tuple[AustrianBid, ...] = ("threesome", "solo")
AUSTRIAN_GAME_TYPES: tuple[AustrianGameType, ...] = ("36_or_more", "35_or_less")
FRENCH_HALF_POINTS = 182
"""The French pack's card points, in half-points (91 points)."""
BOUT_HALF_POINTS = 9
"""A bout is worth 4.5 points and always ends in its side's pile."""


class SummaryError(ValueError):
    """A deal summary that cannot happen. ``field`` is the dotted path of the culprit."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


# ---------------------------------------------------------------- the summaries


@dataclass(frozen=True)
class PoigneeDeclared:
    """One poignée shown during the deal."""

    side: Side
    level: PoigneeLevel
    seat: int | None = None


@dataclass(frozen=True)
class MisereDeclared:
    """One misère declared (only with the ``misere_bonus`` option)."""

    seat: int
    kind: MisereKind


@dataclass(frozen=True)
class PartialSlamResult:
    """Outcome of the partial-slam option for this deal."""

    announced: bool
    made: bool


@dataclass(frozen=True)
class FrenchSummary:
    """A finished French Tarot deal for 3, 4 or 5 players.

    ``half_points`` are the attack's card points times two (so 40.5 points is 81).
    ``partner`` is the called card's holder in 5 players, ``None`` when the taker
    plays alone; ``dead`` is the seat out of play under ``five_player_mode=dead_player``.
    """

    rules: Rules
    taker: int
    contract: str
    oudlers: int
    half_points: int
    partner: int | None = None
    dead: int | None = None
    petit_au_bout: Side | None = None
    poignees: tuple[PoigneeDeclared, ...] = ()
    chelem_announced: bool = False
    chelem_won_by: Side | None = None
    misere: tuple[MisereDeclared, ...] = ()
    partial_slam: PartialSlamResult | None = None

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def points(self) -> float:
        return self.half_points / 2

    @property
    def alone(self) -> bool:
        """True when the taker has no partner (always so in 3 and 4 players)."""
        return self.partner is None or self.partner == self.taker

    @property
    def seats_in_play(self) -> tuple[int, ...]:
        """The seats that played the deal (all but a dead player)."""
        return tuple(s for s in range(self.players) if s != self.dead)

    @property
    def attack(self) -> tuple[int, ...]:
        """The taker, then his partner if he has one."""
        if self.alone or self.partner is None:
            return (self.taker,)
        return (self.taker, self.partner)

    @property
    def defense(self) -> tuple[int, ...]:
        """The seats in play that are not in the attack."""
        attack = self.attack
        return tuple(s for s in range(self.players) if s != self.dead and s not in attack)


@dataclass(frozen=True)
class TwoPlayerSummary:
    """A finished 2-player French Tarot deal (rule book §4.4): each player's own pile.

    ``half_points[i]`` and ``oudlers[i]`` describe seat ``i``'s pile; ``petit_au_bout``
    and the chelem fields are seats.
    """

    rules: Rules
    half_points: tuple[int, int]
    oudlers: tuple[int, int]
    petit_au_bout: int | None = None
    chelem_announced_by: int | None = None
    chelem_won_by: int | None = None

    @property
    def players(self) -> int:
        return 2

    @property
    def points(self) -> tuple[float, float]:
        return (self.half_points[0] / 2, self.half_points[1] / 2)


@dataclass(frozen=True)
class AustrianSummary:
    """A finished Austrian Tarock deal (rule book §5): the declarer's contract and card points."""

    rules: Rules
    declarer: int
    bid: AustrianBid
    talon_half: int | None
    game_type: AustrianGameType
    points: int

    @property
    def players(self) -> int:
        return 3


Summary: TypeAlias = FrenchSummary | TwoPlayerSummary | AustrianSummary


# ---------------------------------------------------------------- checks on built summaries


def check_summary(summary: Summary) -> None:
    """Refuse a summary that cannot happen (rule book §9), naming the JSON field at fault."""
    if isinstance(summary, FrenchSummary):
        _check_french(summary)
    elif isinstance(summary, TwoPlayerSummary):
        _check_two_player(summary)
    else:
        _check_austrian(summary)


def _check_french(s: FrenchSummary) -> None:
    rules, n = s.rules, s.players
    if rules.game != "french" or n not in (3, 4, 5):
        raise SummaryError("players", f"a French summary with a taker is for 3 to 5 players, not {n}")
    _check_seat("taker", s.taker, n)
    _check_contract(s.contract, rules)
    if not 0 <= s.oudlers <= 3:
        raise SummaryError("oudlers", f"must be a whole number from 0 to 3, not {s.oudlers}")
    if not 0 <= s.half_points <= FRENCH_HALF_POINTS:
        raise SummaryError("points", f"must be from 0 to 91, not {_format_points(s.half_points)}")
    _check_partner_and_dead(s)
    if s.chelem_won_by is not None and s.chelem_won_by not in SIDES:
        raise SummaryError("chelem.won_by", f"must be attack, defense or null, not {s.chelem_won_by!r}")
    _check_outcome(s)
    _check_petit_au_bout(s)
    _check_poignees(s)
    if s.misere:
        _check_misere(s.misere, rules, s.seats_in_play, n)
    _check_partial_slam(s)


def _check_seat(field: str, seat: int, players: int) -> None:
    if not 0 <= seat < players:
        raise SummaryError(field, f"seat {seat} is out of range: seats are 0 to {players - 1}")


def _check_contract(contract: str, rules: Rules) -> None:
    if contract not in CONTRACTS:
        raise SummaryError("contract", f"unknown contract {_show(contract)} ({', '.join(rules.contracts)})")
    if contract == "pousse" and not rules.bid_pousse:
        raise SummaryError("contract", "pousse needs the bid_pousse option")
    if contract == "petite" and rules.no_petite:
        raise SummaryError("contract", "petite cannot be bid under the no_petite option")


def _check_pile(field: str, half_points: int, oudlers: int) -> None:
    if not 0 <= half_points <= FRENCH_HALF_POINTS:
        raise SummaryError(field, f"must be from 0 to 91, not {_format_points(half_points)}")
    low = BOUT_HALF_POINTS * oudlers
    high = FRENCH_HALF_POINTS - BOUT_HALF_POINTS * (3 - oudlers)
    if not low <= half_points <= high:
        span = f"{_format_points(low)} to {_format_points(high)}"
        raise SummaryError(
            field,
            f"{_format_points(half_points)} is impossible with {oudlers} oudler(s): "
            f"each oudler is worth 4.5 points, so the pile holds {span}",
        )


def _check_partner_and_dead(s: FrenchSummary) -> None:
    n, dead_mode = s.players, s.rules.five_player_mode == "dead_player"
    if s.partner is not None:
        if n != 5:
            raise SummaryError("partner", f"only a 5-player game has a partner, not a {n}-player one")
        if dead_mode:
            raise SummaryError("partner", "five_player_mode=dead_player is a 4-player deal without a partner")
        _check_seat("partner", s.partner, n)
    if dead_mode:
        if s.dead is None:
            raise SummaryError("dead", "five_player_mode=dead_player needs the dead seat")
        _check_seat("dead", s.dead, n)
        if s.dead == s.taker:
            raise SummaryError("dead", f"seat {s.dead} is the taker and cannot be the dead player")
    elif s.dead is not None:
        raise SummaryError("dead", "a dead player needs the option five_player_mode=dead_player")


def _check_outcome(s: FrenchSummary) -> None:
    """The attack's pile must follow from who won the tricks (rule book §3.9–§3.11, ``piles``)."""
    in_play = 4 if s.dead is not None else s.players
    chien = 3 if in_play == 5 else 6
    imprenable = s.rules.petit_sec_rule == "petit_imprenable"
    shown = f"{_format_points(s.half_points)} with {s.oudlers} oudler(s)"

    def slam(side: SlamSide) -> frozenset[tuple[int, int]]:
        return slam_piles(chien, s.contract, imprenable, len(s.attack), side)

    if s.chelem_won_by is None:
        try:
            _check_pile("points", s.half_points, s.oudlers)
        except SummaryError as exc:
            raise SummaryError("points", exc.message + _slam_hint(s, slam)) from None
        span = open_span(in_play, chien, s.contract, imprenable, s.oudlers)
        if not span.low <= s.half_points <= span.high:
            raise SummaryError(
                "points",
                f"{shown} is impossible when each side won a trick: the attack's pile then holds "
                f"{_format_points(span.low)} to {_format_points(span.high)}" + _slam_hint(s, slam),
            )
        return
    won_by: SlamSide = s.chelem_won_by
    piles = slam(won_by)
    if (s.half_points, s.oudlers) in piles:
        return
    same = sorted(h for h, o in piles if o == s.oudlers)
    holds = (
        f"{_describe_half_points(same)} with {s.oudlers} oudler(s)"
        if same
        else f"{' or '.join(str(o) for o in sorted({o for _, o in piles}))} oudler(s)"
    )
    raise SummaryError(
        "points",
        f"{shown} cannot follow from chelem.won_by={won_by}: when the {_side_name(won_by)} wins "
        f"every trick of a {s.contract.replace('_', ' ')}, the attack's pile holds {holds}",
    )


def _slam_hint(s: FrenchSummary, slam: Callable[[SlamSide], frozenset[tuple[int, int]]]) -> str:
    """``; it fits chelem.won_by=attack`` when a slam would explain an impossible pile."""
    for side in SIDES:
        if (s.half_points, s.oudlers) in slam(side):
            return f"; it fits chelem.won_by={side} (the {_side_name(side)} won every trick)"
    return ""


def _describe_half_points(values: list[int]) -> str:
    """Sorted half-points as a short phrase: ``86.5 or 87``, ``59.5 to 84``, ``3 to 19 by 1``."""
    shown = [_format_points(v) for v in values]
    if len(values) <= 3:
        return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"
    steps = {b - a for a, b in pairwise(values)}
    if steps == {1}:
        return f"{shown[0]} to {shown[-1]}"
    if steps == {2}:
        return f"{shown[0]} to {shown[-1]} by 1"
    return f"{shown[0]} to {shown[-1]} (not every half point)"


def _check_petit_au_bout(s: FrenchSummary) -> None:
    pab = s.petit_au_bout
    if pab is None:
        return
    if pab not in SIDES:
        raise SummaryError("petit_au_bout", f"must be attack, defense or null, not {pab!r}")
    if pab == "attack" and s.oudlers == 0:
        raise SummaryError("petit_au_bout", "the attack cannot take the Petit au bout with 0 oudlers")
    if pab == "defense" and s.oudlers == 3:
        raise SummaryError(
            "petit_au_bout", "the defence cannot take the Petit au bout when the attack has 3 oudlers"
        )
    if s.chelem_won_by is not None and pab != s.chelem_won_by:
        raise SummaryError(
            "petit_au_bout",
            f"the {_side_name(s.chelem_won_by)} won every trick, so the {_side_name(pab)} took no last trick",
        )


def _check_poignees(s: FrenchSummary) -> None:
    seen: dict[int, int] = {}
    per_side: Counter[str] = Counter()
    for i, p in enumerate(s.poignees):
        field = f"poignees[{i}]"
        if p.side not in SIDES:
            raise SummaryError(f"{field}.side", f"must be attack or defense, not {p.side!r}")
        if p.level not in POIGNEE_LEVELS:
            raise SummaryError(f"{field}.level", f"unknown level {p.level!r} (simple, double or triple)")
        per_side[p.side] += 1
        members = s.attack if p.side == "attack" else s.defense
        if len(members) < per_side[p.side]:
            who = f"the {_side_name(p.side)}, which has only {len(members)} player(s)"
            raise SummaryError(field, f"{per_side[p.side]} poignées for {who}")
        if p.seat is None:
            continue
        _check_seat(f"{field}.seat", p.seat, s.players)
        if p.seat not in members:
            raise SummaryError(f"{field}.seat", f"seat {p.seat} is not in the {_side_name(p.side)}")
        if p.seat in seen:
            raise SummaryError(
                f"{field}.seat", f"seat {p.seat} already declared a poignée (poignees[{seen[p.seat]}])"
            )
        seen[p.seat] = i


def _check_misere(
    misere: Iterable[MisereDeclared], rules: Rules, seats: tuple[int, ...], players: int
) -> None:
    kinds_by_seat: dict[int, set[str]] = {}
    for i, m in enumerate(misere):
        field = f"misere[{i}]"
        if rules.misere_bonus == 0:
            raise SummaryError(field, "a misère needs the misere_bonus option")
        if m.kind not in MISERE_KINDS:
            raise SummaryError(f"{field}.kind", f"unknown kind {m.kind!r} (no_trumps, no_courts or both)")
        if rules.misere_kinds == "both_required" and m.kind != "both":
            raise SummaryError(
                f"{field}.kind", f"misere_kinds=both_required accepts only 'both', not {m.kind!r}"
            )
        _check_seat(f"{field}.seat", m.seat, players)
        if m.seat not in seats:
            raise SummaryError(f"{field}.seat", f"seat {m.seat} is the dead player and did not play")
        kinds = _misere_parts(m.kind)
        earlier = kinds_by_seat.setdefault(m.seat, set())
        if earlier & kinds:
            raise SummaryError(field, f"seat {m.seat} already declared this misère")
        earlier |= kinds


def _misere_parts(kind: str) -> set[str]:
    return {"no_trumps", "no_courts"} if kind == "both" else {kind}


def _check_partial_slam(s: FrenchSummary) -> None:
    ps = s.partial_slam
    if ps is None:
        return
    if s.rules.partial_slam is None:
        raise SummaryError("partial_slam", "a partial slam needs the partial_slam option")
    if ps.made and s.chelem_won_by is not None:
        raise SummaryError("partial_slam.made", "a partial slam cannot be made when one side won every trick")
    if ps.announced and s.chelem_announced:
        raise SummaryError("partial_slam.announced", "the taker announced a full chelem, not a partial slam")


def _check_two_player(s: TwoPlayerSummary) -> None:
    rules = s.rules
    if rules.game != "french" or rules.players != 2:
        raise SummaryError("players", f"a 2-player summary needs players=2, not {rules.players}")
    for seat in (0, 1):
        if not 0 <= s.oudlers[seat] <= 3:
            raise SummaryError(
                f"oudlers[{seat}]", f"must be a whole number from 0 to 3, not {s.oudlers[seat]}"
            )
    if sum(s.oudlers) != 3:
        raise SummaryError("oudlers", f"the two piles hold the 3 oudlers together, not {sum(s.oudlers)}")
    for key, chelem_seat in (("announced_by", s.chelem_announced_by), ("won_by", s.chelem_won_by)):
        if chelem_seat is None:
            continue
        if not rules.two_player_chelem:
            raise SummaryError(f"chelem.{key}", "a 2-player chelem needs the two_player_chelem option")
        _check_seat(f"chelem.{key}", chelem_seat, 2)
    won_by = s.chelem_won_by
    if won_by is not None:
        # the seat that won every trick holds every card but an Excuse the other kept (§3.9)
        pile = (s.half_points[won_by], s.oudlers[won_by])
        if pile not in slam_piles(0, "garde", False, 1, "attack"):
            shown = f"{_format_points(pile[0])} with {pile[1]} oudler(s)"
            raise SummaryError(
                f"points[{won_by}]",
                f"{shown} cannot follow from chelem.won_by={won_by}: the seat that wins every trick "
                "holds 91 with 3 oudlers, or 86.5 or 87 with 2 when the other kept the Excuse",
            )
    else:
        for seat in (0, 1):
            _check_pile(f"points[{seat}]", s.half_points[seat], s.oudlers[seat])
    if sum(s.half_points) != FRENCH_HALF_POINTS:
        raise SummaryError(
            "points", f"the two piles hold 91 points together, not {_format_points(sum(s.half_points))}"
        )
    if two_player_winner(s) is None:
        raise SummaryError(
            "points",
            "neither player reaches his target: each is half a point short, so the half point cannot decide",
        )
    if s.petit_au_bout is not None:
        _check_seat("petit_au_bout", s.petit_au_bout, 2)
        if s.oudlers[s.petit_au_bout] == 0:
            raise SummaryError(
                "petit_au_bout", f"seat {s.petit_au_bout} took the Petit au bout but has 0 oudlers"
            )
    won_by, pab = s.chelem_won_by, s.petit_au_bout
    if won_by is not None and pab is not None and pab != won_by:
        raise SummaryError(
            "petit_au_bout", f"seat {won_by} won every trick, so seat {pab} took no last trick"
        )


def two_player_winner(s: TwoPlayerSummary) -> int | None:
    """The seat that reaches its threshold (rule book §4.4), or None if the half point is undecided."""
    reach = [s.half_points[i] >= 2 * s.rules.threshold(s.oudlers[i]) for i in (0, 1)]
    if reach[0] == reach[1]:
        return None
    return 0 if reach[0] else 1


def _check_austrian(s: AustrianSummary) -> None:
    rules = s.rules
    if rules.game != "austrian" or rules.players != 3:
        raise SummaryError("players", "Austrian Tarock is played by 3 players")
    _check_seat("declarer", s.declarer, 3)
    if s.bid not in AUSTRIAN_BIDS:
        raise SummaryError("bid", f"unknown bid {s.bid!r} (threesome or solo)")
    if s.bid == "solo" and s.talon_half is not None:
        raise SummaryError("talon_half", "a solo uses no talon half; leave it null")
    if s.bid == "threesome" and s.talon_half not in (1, 2):
        raise SummaryError("talon_half", f"a threesome takes talon half 1 or 2, not {_show(s.talon_half)}")
    if s.game_type not in AUSTRIAN_GAME_TYPES:
        raise SummaryError("game_type", f"unknown game type {s.game_type!r} (36_or_more or 35_or_less)")
    if s.game_type == "35_or_less" and not rules.austrian_allow_game2:
        raise SummaryError("game_type", "35_or_less (game 2) is refused under austrian_allow_game2=false")
    total = austrian_total(rules)
    if not 0 <= s.points <= total:
        raise SummaryError("points", f"must be a whole number from 0 to {total}, not {s.points}")


def austrian_total(rules: Rules) -> int:
    """Card points in the Austrian pack: 70, or 74 with ``austrian_jack_value=3``."""
    return 74 if rules.austrian_jack_value == 3 else 70


def _side_name(side: str) -> str:
    return "defence" if side == "defense" else side


def _format_points(half_points: int) -> str:
    return str(half_points // 2) if half_points % 2 == 0 else f"{half_points / 2:g}"


# ---------------------------------------------------------------- reading JSON

_FRENCH_KEYS = (
    "game", "players", "taker", "partner", "dead", "contract", "oudlers", "points",
    "petit_au_bout", "poignees", "chelem", "misere", "partial_slam", "options",
)  # fmt: skip
_TWO_PLAYER_KEYS = ("game", "players", "points", "oudlers", "petit_au_bout", "chelem", "options")
_AUSTRIAN_KEYS = ("game", "players", "declarer", "bid", "talon_half", "game_type", "points", "options")
_ALL_KEYS = frozenset(_FRENCH_KEYS + _TWO_PLAYER_KEYS + _AUSTRIAN_KEYS)
_key_set = lru_cache(maxsize=32)(frozenset[str])
_MISSING: Any = object()


class _Object:
    """A JSON object being read: typed access to its keys, with the dotted path for errors."""

    def __init__(self, data: object, path: str, allowed: Iterable[str], kind: str = "") -> None:
        if not isinstance(data, dict | Mapping):
            raise SummaryError(path or "summary", f"must be a JSON object, not {_json_type(data)}")
        self.data: Mapping[str, object] = data
        self.path = path
        allowed = tuple(allowed)
        if data.keys() <= _key_set(allowed):
            return
        for key in data:
            if key in allowed:
                continue
            if kind and key in _ALL_KEYS:
                raise SummaryError(self.field(str(key)), f"a {kind} summary has no {key} (rule book §9)")
            close = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else f" (expected {', '.join(allowed)})"
            name = str(key) if len(str(key)) <= 40 else _clip(str(key))
            raise SummaryError(self.field(name), f"unknown key{hint}")

    def field(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def raw(self, key: str, default: object = _MISSING) -> object:
        value = self.data.get(key, _MISSING)
        if value is not _MISSING:
            return value
        if default is _MISSING:
            raise SummaryError(self.field(key), "missing")
        return default

    def get_int(self, key: str, default: object = _MISSING) -> int:
        value = self.raw(key, default)
        if type(value) is int and -_LARGEST <= value <= _LARGEST:
            return value
        return _as_int(value, self.field(key))

    def get_optional_int(self, key: str) -> int | None:
        value = self.raw(key, None)
        if value is None or (type(value) is int and -_LARGEST <= value <= _LARGEST):
            return value
        return _as_int(value, self.field(key))

    def get_bool(self, key: str, default: bool = False) -> bool:
        value = self.raw(key, default)
        if value is not True and value is not False:
            raise SummaryError(self.field(key), f"must be true or false, not {_json_type(value)}")
        return value

    def get_choice(self, key: str, allowed: Iterable[str], default: object = _MISSING) -> Any:
        value = self.raw(key, default)
        allowed = tuple(allowed)
        if value is None and default is None:
            return None
        if value not in allowed:
            raise SummaryError(self.field(key), f"unknown value {_show(value)} ({' | '.join(allowed)})")
        return value

    def get_object(self, key: str, allowed: Iterable[str]) -> _Object:
        value = self.raw(key, None)
        return _Object({} if value is None else value, self.field(key), allowed)

    def get_list(self, key: str) -> list[object]:
        value = self.raw(key, None)
        if value is None:
            return []
        if not isinstance(value, list):
            raise SummaryError(self.field(key), f"must be a list, not {_json_type(value)}")
        return value


def parse_summary(data: object) -> Summary:
    """Read a deal summary in the JSON format of rule book §9 and check that it can happen.

    Raises :class:`SummaryError` naming the field at fault.
    """
    if not isinstance(data, dict | Mapping):
        raise SummaryError("summary", f"a deal summary must be a JSON object, not {_json_type(data)}")
    game = data.get("game", _MISSING)
    if game is _MISSING:
        raise SummaryError("game", "missing (french or austrian)")
    if game == "austrian":
        summary: Summary = _read_austrian(data)
    elif game == "french":
        players = data.get("players", _MISSING)
        if players is _MISSING:
            raise SummaryError("players", "missing (2, 3, 4 or 5)")
        players = _as_int(players, "players")
        if players == 2:
            summary = _read_two_player(data)
        elif players in (3, 4, 5):
            summary = _read_french(data)
        else:
            raise SummaryError("players", f"French Tarot is played by 2 to 5 players, not {players}")
    else:
        raise SummaryError("game", f"unknown game {_show(game)} (french or austrian)")
    check_summary(summary)
    return summary


def _read_french(data: Mapping[str, object]) -> FrenchSummary:
    obj = _Object(data, "", _FRENCH_KEYS, "French Tarot")
    players = obj.get_int("players")
    rules = _read_rules(obj, "french", players)
    taker = obj.get_int("taker")
    partner = obj.get_optional_int("partner")
    contract = obj.raw("contract")
    if not isinstance(contract, str):
        raise SummaryError("contract", f"must be a contract name, not {_json_type(contract)}")
    chelem = obj.get_object("chelem", ("announced", "won_by"))
    poignees, misere = obj.get_list("poignees"), obj.get_list("misere")
    return FrenchSummary(
        rules=rules,
        taker=taker,
        contract=contract,
        oudlers=obj.get_int("oudlers"),
        half_points=_as_half_points(obj.raw("points"), "points"),
        partner=None if partner == taker else partner,
        dead=obj.get_optional_int("dead"),
        petit_au_bout=obj.get_choice("petit_au_bout", SIDES, None),
        poignees=tuple(_read_poignee(p, f"poignees[{i}]") for i, p in enumerate(poignees))
        if poignees
        else (),
        chelem_announced=chelem.get_bool("announced"),
        chelem_won_by=chelem.get_choice("won_by", SIDES, None),
        misere=tuple(_read_misere(m, f"misere[{i}]") for i, m in enumerate(misere)) if misere else (),
        partial_slam=_read_partial_slam(obj.raw("partial_slam", None)),
    )


def _read_poignee(data: object, path: str) -> PoigneeDeclared:
    obj = _Object(data, path, ("side", "level", "seat"))
    return PoigneeDeclared(
        side=obj.get_choice("side", SIDES),
        level=obj.get_choice("level", POIGNEE_LEVELS),
        seat=obj.get_optional_int("seat"),
    )


def _read_misere(data: object, path: str) -> MisereDeclared:
    obj = _Object(data, path, ("seat", "kind"))
    return MisereDeclared(seat=obj.get_int("seat"), kind=obj.get_choice("kind", MISERE_KINDS))


def _read_partial_slam(data: object) -> PartialSlamResult | None:
    if data is None:
        return None
    obj = _Object(data, "partial_slam", ("announced", "made"))
    return PartialSlamResult(announced=obj.get_bool("announced"), made=obj.get_bool("made"))


def _read_two_player(data: Mapping[str, object]) -> TwoPlayerSummary:
    obj = _Object(data, "", _TWO_PLAYER_KEYS, "2-player French Tarot")
    rules = _read_rules(obj, "french", 2)
    points = _pair(obj.raw("points"), "points")
    oudlers = _pair(obj.raw("oudlers"), "oudlers")
    chelem = obj.get_object("chelem", ("announced_by", "won_by"))
    return TwoPlayerSummary(
        rules=rules,
        half_points=(_as_half_points(points[0], "points[0]"), _as_half_points(points[1], "points[1]")),
        oudlers=(_as_int(oudlers[0], "oudlers[0]"), _as_int(oudlers[1], "oudlers[1]")),
        petit_au_bout=obj.get_optional_int("petit_au_bout"),
        chelem_announced_by=chelem.get_optional_int("announced_by"),
        chelem_won_by=chelem.get_optional_int("won_by"),
    )


def _read_austrian(data: Mapping[str, object]) -> AustrianSummary:
    obj = _Object(data, "", _AUSTRIAN_KEYS, "Austrian Tarock")
    players = obj.get_int("players", 3)
    if players != 3:
        raise SummaryError("players", f"Austrian Tarock is played by 3 players, not {players}")
    rules = _read_rules(obj, "austrian", 3)
    return AustrianSummary(
        rules=rules,
        declarer=obj.get_int("declarer"),
        bid=obj.get_choice("bid", AUSTRIAN_BIDS),
        talon_half=obj.get_optional_int("talon_half"),
        game_type=obj.get_choice("game_type", AUSTRIAN_GAME_TYPES),
        points=obj.get_int("points"),
    )


def _read_rules(obj: _Object, game: str, players: int) -> Rules:
    options = obj.raw("options", None)
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise SummaryError("options", f"must be an object of option names, not {_json_type(options)}")
    if not options:
        return _cached_rules(game, players, "{}")
    try:
        key = json.dumps(options, sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        return _rules_from(game, players, options)
    return _cached_rules(game, players, key)


@lru_cache(maxsize=64)
def _cached_rules(game: str, players: int, options_json: str) -> Rules:
    """The rules of a session's summaries, read once: they are nearly always the same."""
    return _rules_from(game, players, json.loads(options_json))


def _rules_from(game: str, players: int, options: Mapping[str, object]) -> Rules:
    base = {"game": game, "players": players}
    for name, value in options.items():
        if name in base:
            raise SummaryError(
                f"options.{name}", f"{name} is given at the top level of the summary, not as an option"
            )
        try:
            Rules.from_options({**base, name: value})
        except RulesError as exc:
            raise SummaryError(f"options.{name}", str(exc)) from None
    try:
        return Rules.from_options({**base, **options})
    except RulesError as exc:
        raise SummaryError("options", str(exc)) from None


def _pair(value: object, field: str) -> tuple[object, object]:
    if not isinstance(value, list) or len(value) != 2:
        raise SummaryError(field, f"must be a list of 2 values, seat 0 first, not {_show(value)}")
    return value[0], value[1]


def _as_int(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SummaryError(field, f"must be a whole number, not {_json_type(value)}")
    if isinstance(value, float) and not value.is_integer():
        raise SummaryError(field, f"must be a whole number, not {value}")
    if abs(value) > _LARGEST:
        raise SummaryError(field, f"must be a whole number of a deal, not {_short(value)}")
    return int(value)


_LARGEST = 10**9
"""No whole number of a summary (seat, oudlers, points) comes near: larger ones are refused."""


def _as_half_points(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SummaryError(field, f"expected a number of card points 0..91, found {_json_type(value)}")
    if not 0 <= value <= 91:  # also refuses NaN; checked before doubling, which may overflow
        raise SummaryError(field, f"expected a number of card points 0..91, found {_short(value)}")
    doubled = value * 2
    if doubled != int(doubled):
        raise SummaryError(field, f"must be a multiple of 0.5, not {value}")
    return int(doubled)


def _short(value: int | float) -> str:
    """A number as written, or its size when it is too long to show."""
    text = repr(value).replace("e+", "e")
    return text if len(text) <= 24 else f"a number of {len(text.lstrip('-'))} digits"


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, int | float):
        return _short(value)
    if isinstance(value, str):
        return f"the string {_clip(value)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def _show(value: object) -> str:
    return _clip(value) if isinstance(value, str) else _json_type(value)


def _clip(text: str, longest: int = 40) -> str:
    """A string quoted, cut short if long, so that a message stays one short line."""
    return repr(text) if len(text) <= longest else repr(text[:longest]) + "..."


# ---------------------------------------------------------------- writing JSON


def summary_to_json(summary: Summary) -> dict[str, Any]:
    """The summary in the JSON format of rule book §9 (``parse_summary`` reads it back equal)."""
    if isinstance(summary, FrenchSummary):
        return _french_to_json(summary)
    if isinstance(summary, TwoPlayerSummary):
        return _two_player_to_json(summary)
    return {
        "game": "austrian",
        "players": 3,
        "declarer": summary.declarer,
        "bid": summary.bid,
        "talon_half": summary.talon_half,
        "game_type": summary.game_type,
        "points": summary.points,
        "options": summary.rules.changed(),
    }


def _french_to_json(s: FrenchSummary) -> dict[str, Any]:
    out: dict[str, Any] = {"game": "french", "players": s.players, "taker": s.taker}
    if s.rules.five_player_mode == "dead_player":
        out["dead"] = s.dead
    elif s.players == 5:
        out["partner"] = None if s.alone else s.partner
    out.update(
        contract=s.contract,
        oudlers=s.oudlers,
        points=_points_json(s.half_points),
        petit_au_bout=s.petit_au_bout,
        poignees=[_poignee_json(p) for p in s.poignees],
        chelem={"announced": s.chelem_announced, "won_by": s.chelem_won_by},
        misere=[{"seat": m.seat, "kind": m.kind} for m in s.misere],
        partial_slam=None
        if s.partial_slam is None
        else {"announced": s.partial_slam.announced, "made": s.partial_slam.made},
        options=s.rules.changed(),
    )
    return out


def _poignee_json(p: PoigneeDeclared) -> dict[str, Any]:
    out: dict[str, Any] = {"side": p.side, "level": p.level}
    if p.seat is not None:
        out["seat"] = p.seat
    return out


def _two_player_to_json(s: TwoPlayerSummary) -> dict[str, Any]:
    out: dict[str, Any] = {
        "game": "french",
        "players": 2,
        "points": [_points_json(h) for h in s.half_points],
        "oudlers": list(s.oudlers),
        "petit_au_bout": s.petit_au_bout,
    }
    if s.chelem_announced_by is not None or s.chelem_won_by is not None:
        out["chelem"] = {"announced_by": s.chelem_announced_by, "won_by": s.chelem_won_by}
    out["options"] = s.rules.changed()
    return out


def _points_json(half_points: int) -> int | float:
    return half_points // 2 if half_points % 2 == 0 else half_points / 2

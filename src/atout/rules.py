"""What a table agreed on: every option of rule book §8, defaults = FFT 2012.

A :class:`Rules` is frozen and validated on construction, so an engine or a
score keeper never meets an impossible combination.

>>> Rules().players, Rules().threshold(0)
(4, 56)
>>> Rules.from_options({"players": 3, "threshold_0_oudlers": 55}).threshold(0)
55
>>> Rules.from_options({"pousse": True})
Traceback (most recent call last):
...
atout.rules.RulesError: unknown option 'pousse' (did you mean 'bid_pousse'?)
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_type_hints

from atout import jsonio


class RulesError(ValueError):
    """An unknown option or a value an option does not take."""


Game = Literal["french", "austrian"]
Direction = Literal["counterclockwise", "clockwise"]
DealScheme = Literal["fft", "seed000"]
PetitSecRule = Literal["fft", "only_trump_ignoring_excuse", "petit_imprenable"]
ImprenableTiming = Literal["before_first_trick", "when_played"]
FirstBidder = Literal["dealer_right", "dealer_left"]
FirstLeader = Literal["dealer_right", "taker"]
ExcuseExchange = Literal["low", "any_won_card"]
ExcuseLastTrick = Literal["changes_camp", "must_play_before_last"]
HalfPointRule = Literal["to_contract_winner"]
PoigneeBeneficiary = Literal["winning_side", "declaring_side"]
PoigneeTiming = Literal["before_own_first_card"]
FivePlayerMode = Literal["called_king", "dead_player"]
CalledCardFallback = Literal["fft", "queen_only"]
FivePlayerSplit = Literal["2:1", "equal"]
MisereKinds = Literal["either", "both_required"]
RoundMode = Literal["nearest", "up"]
AustrianTalonMode = Literal["seed_sequential", "free_choice"]
AustrianSoloTalon = Literal["defenders", "declarer"]
AustrianAllPass = Literal["redeal"]
AustrianScoring = Literal["positive_only", "zero_sum"]

DEFAULT_POIGNEE_THRESHOLDS: dict[int, tuple[int, int, int]] = {
    3: (13, 15, 18),
    4: (10, 13, 15),
    5: (8, 10, 13),
}

CONTRACTS = ("petite", "pousse", "garde", "garde_sans", "garde_contre")
"""Every French contract, lowest first (``pousse`` only with ``bid_pousse``)."""
_MULTIPLIERS = {"petite": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
_POUSSE_MULTIPLIERS = {"petite": 1, "pousse": 2, "garde": 4, "garde_sans": 8, "garde_contre": 16}


@dataclass(frozen=True)
class PartialSlam:
    """Option V6 (rule book §7): a bonus for all tricks but one or three (proposed values)."""

    max_missing: int = 1
    requires_announcement: bool = False
    announced_made: int = 200
    unannounced_made: int = 100
    announced_failed: int = 100

    def __post_init__(self) -> None:
        # ``True in (1, 3)`` holds in Python: a boolean is refused by its type first
        if isinstance(self.max_missing, bool) or self.max_missing not in (1, 3):
            raise RulesError(f"partial_slam.max_missing must be 1 or 3, not {self.max_missing!r}")
        if not isinstance(self.requires_announcement, bool):
            raise RulesError(
                f"partial_slam.requires_announcement must be true or false, not {self.requires_announcement!r}"
            )
        for name in ("announced_made", "unannounced_made", "announced_failed"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 10**9:
                raise RulesError(f"partial_slam.{name} must be a whole number of points, not {value!r}")


@dataclass(frozen=True)
class Rules:
    """Every option of rule book §8. Field names are the option names."""

    game: Game = "french"
    players: int = 4
    play_direction: Direction = "counterclockwise"
    deal_scheme: DealScheme = "fft"
    petit_sec_rule: PetitSecRule = "fft"
    petit_imprenable_timing: ImprenableTiming = "before_first_trick"
    excuse_sec_redeal: bool = False
    first_bidder: FirstBidder = "dealer_right"
    no_petite: bool = False
    bid_pousse: bool = False
    first_leader: FirstLeader = "dealer_right"
    chelem_announcer_leads: bool = True
    excuse_exchange_card: ExcuseExchange = "low"
    excuse_last_trick: ExcuseLastTrick = "changes_camp"
    threshold_0_oudlers: int = 56
    half_point_rule: HalfPointRule = "to_contract_winner"
    petit_au_bout_multiplied: bool = True
    poignee_thresholds: Mapping[int, tuple[int, int, int]] = field(
        default_factory=lambda: dict(DEFAULT_POIGNEE_THRESHOLDS)
    )
    poignee_bonus: tuple[int, int, int] = (20, 30, 40)
    poignee_beneficiary: PoigneeBeneficiary = "winning_side"
    poignee_timing: PoigneeTiming = "before_own_first_card"
    slam_announced_made: int = 400
    slam_unannounced_made: int = 200
    slam_announced_failed_penalty: int = 200
    defense_slam_bonus: int = 200
    five_player_mode: FivePlayerMode = "called_king"
    called_card_fallback: CalledCardFallback = "fft"
    five_player_split: FivePlayerSplit = "2:1"
    misere_bonus: int = 0
    misere_kinds: MisereKinds = "either"
    partial_slam: PartialSlam | None = None
    round_margin_to: int = 1
    round_mode: RoundMode = "nearest"
    two_player_chelem: bool = False
    austrian_jack_value: int = 2
    austrian_must_overtrump: bool = True
    austrian_talon_mode: AustrianTalonMode = "seed_sequential"
    austrian_second_half_visible: bool = False
    austrian_forbid_trull_discard: bool = False
    austrian_allow_game2: bool = True
    austrian_solo_multiplier: int = 2
    austrian_solo_talon: AustrianSoloTalon = "defenders"
    austrian_all_pass: AustrianAllPass = "redeal"
    austrian_scoring: AustrianScoring = "positive_only"

    # ------------------------------------------------------------ validation
    def __post_init__(self) -> None:
        for name, hint in _option_types().items():
            _check_type(name, getattr(self, name), hint)
        thresholds: dict[int, tuple[int, int, int]] = {
            int(k): tuple(v)  # type: ignore[misc]
            for k, v in self.poignee_thresholds.items()
        }
        object.__setattr__(self, "poignee_thresholds", _FrozenMap(thresholds))
        for n, levels in thresholds.items():
            if (
                len(levels) != 3
                or not all(isinstance(x, int) and x > 0 for x in levels)
                or list(levels) != sorted(set(levels))
            ):
                raise RulesError(
                    f"poignee_thresholds[{n}] must be three increasing positive counts, not {levels!r}"
                )
        if len(self.poignee_bonus) != 3 or any(b < 0 for b in self.poignee_bonus):
            raise RulesError(f"poignee_bonus must be three non-negative values, not {self.poignee_bonus!r}")
        if self.game == "french" and self.players not in (2, 3, 4, 5):
            raise RulesError(f"players must be 2, 3, 4 or 5 for French Tarot, not {self.players}")
        if self.game == "austrian" and self.players != 3:
            raise RulesError(f"Austrian Tarock is played by 3 players, not {self.players}")
        if self.threshold_0_oudlers not in (55, 56):
            raise RulesError(f"threshold_0_oudlers must be 56 or 55, not {self.threshold_0_oudlers}")
        if self.threshold_0_oudlers == 55 and self.players == 2:
            raise RulesError(
                "threshold_0_oudlers=55 is refused with 2 players: both players could reach their targets (rule book §4.4)"
            )
        if self.no_petite and self.bid_pousse:
            pass  # pousse stays the lowest bid; allowed
        for name in (
            "slam_announced_made",
            "slam_unannounced_made",
            "slam_announced_failed_penalty",
            "defense_slam_bonus",
            "misere_bonus",
        ):
            if getattr(self, name) < 0:
                raise RulesError(f"{name} must not be negative, not {getattr(self, name)}")
        if self.round_margin_to not in (1, 5, 10):
            raise RulesError(f"round_margin_to must be 1, 5 or 10, not {self.round_margin_to}")
        if self.austrian_jack_value not in (2, 3):
            raise RulesError(f"austrian_jack_value must be 2 or 3, not {self.austrian_jack_value}")
        if self.austrian_solo_multiplier not in (2, 4):
            raise RulesError(f"austrian_solo_multiplier must be 2 or 4, not {self.austrian_solo_multiplier}")
        if self.five_player_mode == "dead_player" and self.players != 5:
            raise RulesError("five_player_mode=dead_player needs players=5")

    # ------------------------------------------------------------ derived
    @property
    def contracts(self) -> tuple[str, ...]:
        """The contracts that may be bid, lowest first."""
        out = [c for c in CONTRACTS if c != "pousse" or self.bid_pousse]
        if self.no_petite:
            out.remove("petite")
        return tuple(out)

    def multiplier(self, contract: str) -> int:
        """The multiplier of a contract (rule book §3.4; 1/2/4/8/16 with ``bid_pousse``)."""
        return (_POUSSE_MULTIPLIERS if self.bid_pousse else _MULTIPLIERS)[contract]

    def threshold(self, bouts: int) -> int:
        """Points the attack needs with ``bouts`` bouts (rule book §3.12)."""
        return (self.threshold_0_oudlers, 51, 41, 36)[bouts]

    def poignee_levels(self, players: int | None = None) -> tuple[int, int, int]:
        """Trump counts of the simple, double and triple poignée for a player count."""
        n = self.players if players is None else players
        return tuple(self.poignee_thresholds[n])  # type: ignore[return-value]

    @property
    def scoring_system(self) -> str:
        """Read-only name of the scoring system (rule book §7 V9)."""
        if self.five_player_mode == "dead_player":
            return "fft_dead_player_5"
        if self.round_margin_to == 5:
            return "rounded_5"
        if self.round_margin_to == 10:
            return "rounded_10"
        return "fft_free_deals"

    def changed(self) -> dict[str, Any]:
        """The options that differ from the defaults, as plain JSON values."""
        default = Rules(game=self.game, players=self.players)
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name in ("game", "players"):
                continue
            value = getattr(self, f.name)
            if value != getattr(default, f.name):
                out[f.name] = _to_json(value)
        return out

    def to_dict(self) -> dict[str, Any]:
        """Every option as plain JSON values."""
        return {f.name: _to_json(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated)."""
        return Rules.from_options({**self.to_dict(), **changes})

    # ------------------------------------------------------------ parsing
    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Rules:
        """Build rules from option names and JSON-like values, with clear errors."""
        if not isinstance(options, Mapping):
            raise RulesError(f"options must be an object of option names, not {type(options).__name__}")
        names = {f.name for f in dataclasses.fields(cls)}
        kwargs: dict[str, Any] = {}
        for name, value in options.items():
            if name == "slam_values":
                if not isinstance(value, Mapping) or set(value) - {"announced_made", "unannounced_made"}:
                    raise RulesError("slam_values must be an object with announced_made and unannounced_made")
                for key, v in value.items():
                    kwargs[f"slam_{key}"] = v
                continue
            if name == "scoring_system":
                raise RulesError(
                    "scoring_system is read-only: set five_player_mode or round_margin_to instead"
                )
            if name not in names:
                close = difflib.get_close_matches(str(name), sorted(names | {"slam_values"}), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise RulesError(f"unknown option {name!r}{hint}")
            kwargs[name] = _coerce(name, value)
        try:
            return cls(**kwargs)
        except TypeError as exc:  # pragma: no cover - guarded by the checks above
            raise RulesError(str(exc)) from None

    @classmethod
    def parse_assignments(cls, assignments: list[str], **base: Any) -> Rules:
        """Build rules from command-line ``name=value`` words (values in JSON or bare words)."""
        return cls.from_options({**base, **parse_option_words(assignments)})


def parse_option_words(words: list[str]) -> dict[str, Any]:
    """Command-line ``name=value`` words as option values (JSON, or bare words and true/false)."""
    options: dict[str, Any] = {}
    for word in words:
        name, sep, text = word.partition("=")
        if not sep or not name.strip():
            raise RulesError(f"an option is written name=value, not {word!r}")
        try:
            options[name.strip()] = _parse_value(text.strip())
        except RulesError as exc:
            raise RulesError(f"{name.strip()}: {exc}") from None
    return options


@functools.cache
def _option_types() -> dict[str, Any]:
    """Each option's declared type, resolved once."""
    return get_type_hints(Rules)


class _FrozenMap(dict[int, tuple[int, int, int]]):
    """A dict that refuses changes, so that :class:`Rules` stays hashable and frozen."""

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items())))

    def _refuse(self, *args: object, **kwargs: object) -> None:
        raise TypeError("rules are frozen")

    __setitem__ = __delitem__ = update = pop = clear = setdefault = popitem = _refuse  # type: ignore[assignment]


def _parse_value(text: str) -> Any:
    try:
        return jsonio.loads(text)
    except jsonio.JsonError as exc:
        if exc.line is None:  # JSON, but not one a user can mean: a key twice, NaN, 5000 digits
            raise RulesError(exc.reason) from None
        low = text.lower()
        if low in ("true", "yes", "on"):
            return True
        if low in ("false", "no", "off"):
            return False
        return text


def _coerce(name: str, value: Any) -> Any:
    if name == "poignee_thresholds":
        if not isinstance(value, Mapping):
            raise RulesError("poignee_thresholds must map a player count to three trump counts")
        try:
            return {int(k): tuple(v) for k, v in value.items()}
        except (TypeError, ValueError):
            raise RulesError("poignee_thresholds must map a player count to three trump counts") from None
    if name == "poignee_bonus" and isinstance(value, list):
        return tuple(value)
    if name == "partial_slam":
        if value in (None, False, "off"):
            return None
        if value is True or value == "on":
            return PartialSlam()
        if isinstance(value, Mapping):
            try:
                return PartialSlam(**value)
            except TypeError:
                raise RulesError(
                    f"partial_slam takes max_missing, requires_announcement and values, not {dict(value)!r}"
                ) from None
        raise RulesError(f"partial_slam must be off or an object, not {value!r}")
    if name == "five_player_split" and value == "2_1":
        return "2:1"
    return value


def _check_type(name: str, value: Any, hint: Any) -> None:
    origin = getattr(hint, "__origin__", None)
    if origin is Literal:
        allowed = get_args(hint)
        if value not in allowed:
            raise RulesError(f"{name} must be one of {', '.join(map(str, allowed))}, not {value!r}")
        return
    if hint is bool:
        if not isinstance(value, bool):
            raise RulesError(f"{name} must be true or false, not {value!r}")
        return
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"{name} must be a whole number, not {value!r}")
        return
    if name == "poignee_bonus":
        if not isinstance(value, tuple) or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in value
        ):
            raise RulesError(f"poignee_bonus must be three whole numbers, not {value!r}")
        return
    if name == "partial_slam":
        if value is not None and not isinstance(value, PartialSlam):
            raise RulesError(f"partial_slam must be off or an object, not {value!r}")
        return
    if name == "poignee_thresholds" and not isinstance(value, Mapping):
        raise RulesError("poignee_thresholds must map a player count to three trump counts")


def _to_json(value: Any) -> Any:
    if isinstance(value, PartialSlam):
        return dataclasses.asdict(value)
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, dict):
        return {str(k): _to_json(v) for k, v in value.items()}
    return value


OPTION_HELP: dict[str, str] = {
    "game": "french or austrian",
    "players": "number of players (French: 2 to 5; Austrian: 3)",
    "play_direction": "counterclockwise (FFT) or clockwise: every rotation mirrored",
    "deal_scheme": "fft (packets of 3, 4 for 3 players, chien singly) or seed000 (kitty = first 3 + last 3, packets of 6)",
    "petit_sec_rule": "fft (cancel: Petit the only trump, no Excuse), only_trump_ignoring_excuse, or petit_imprenable",
    "petit_imprenable_timing": "before_first_trick or when_played: when a petit imprenable is declared",
    "excuse_sec_redeal": "a player whose only trump is the Excuse may cancel the deal",
    "first_bidder": "dealer_right (FFT) or dealer_left (seed 000)",
    "no_petite": "the lowest bid is garde",
    "bid_pousse": "adds pousse between petite and garde; multipliers 1/2/4/8/16",
    "first_leader": "dealer_right (FFT) or taker (seed 003)",
    "chelem_announcer_leads": "a player who announces a chelem leads the first trick",
    "excuse_exchange_card": "low (a half-point card, FFT) or any_won_card (seed 000)",
    "excuse_last_trick": "changes_camp (FFT) or must_play_before_last (seed 004)",
    "threshold_0_oudlers": "points needed with no bout: 56 (FFT) or 55 (seed 003)",
    "half_point_rule": "a half point goes to the side that wins the contract",
    "petit_au_bout_multiplied": "the petit au bout bonus is multiplied by the contract",
    "poignee_thresholds": "trumps for a simple, double, triple poignée, by player count",
    "poignee_bonus": "bonus of a simple, double, triple poignée",
    "poignee_beneficiary": "winning_side (FFT) or declaring_side",
    "poignee_timing": "before_own_first_card (FFT)",
    "slam_announced_made": "bonus for an announced and made chelem",
    "slam_unannounced_made": "bonus for a chelem made without announcement",
    "slam_announced_failed_penalty": "penalty for an announced chelem that fails (200 FFT, 400 seed 000)",
    "defense_slam_bonus": "bonus to each defender when the defence takes every trick",
    "five_player_mode": "called_king (FFT) or dead_player (le mort)",
    "called_card_fallback": "fft (queen, then cavalier, then valet) or queen_only (seed 003)",
    "five_player_split": "2:1 (FFT) or equal: how the 5-player attack shares its score",
    "misere_bonus": "0 (off) or the misère bonus paid by each other player",
    "misere_kinds": "either (no trumps or no courts) or both_required",
    "partial_slam": "off, or a bonus for all tricks but 1 (or 3)",
    "round_margin_to": "round the margin to 1, 5 or 10",
    "round_mode": "nearest or up, for round_margin_to",
    "two_player_chelem": "score the chelem in the 2-player game",
    "austrian_jack_value": "Austrian jack value: 2 (70-point pack) or 3 (seed 001, 74 points)",
    "austrian_must_overtrump": "Austrian duty to beat a trump already in the trick",
    "austrian_talon_mode": "seed_sequential (first half shown, second blind at double stakes) or free_choice",
    "austrian_second_half_visible": "both talon halves shown before the choice",
    "austrian_forbid_trull_discard": "trull cards may not be discarded",
    "austrian_allow_game2": "the declarer may choose game 2 (35 or less)",
    "austrian_solo_multiplier": "2 or 4: the multiplier of a solo",
    "austrian_solo_talon": "defenders or declarer: who counts the talon in a solo",
    "austrian_all_pass": "redeal when everyone passes",
    "austrian_scoring": "positive_only (seed 001) or zero_sum",
}
"""One line of explanation for each option."""

SHARED_OPTIONS: tuple[str, ...] = ("game", "players", "play_direction")
"""The options every game reads: which game, how many players, and which way play turns."""


def options_of_game(game: str) -> tuple[str, ...]:
    """The options that ``game`` reads, in the order of rule book §8: the shared ones and its own
    (Austrian Tarock: ``austrian_*``; French Tarot: every other option).

    >>> options_of_game("austrian")[:4]
    ('game', 'players', 'play_direction', 'austrian_jack_value')
    >>> "petit_sec_rule" in options_of_game("austrian"), "austrian_jack_value" in options_of_game("french")
    (False, False)
    """
    if game not in get_args(Game):
        raise RulesError(f"game must be {' or '.join(get_args(Game))}, not {game!r}")
    austrian = game == "austrian"
    return tuple(
        f.name
        for f in dataclasses.fields(Rules)
        if f.name in SHARED_OPTIONS or f.name.startswith("austrian_") == austrian
    )

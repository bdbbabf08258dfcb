"""Deal records: a deal as a JSON document that replays to the identical deal.

A record holds the rules, the dealer, the dealt cards and every action in order
(see ``docs/records.md``). Replaying applies the actions to a fresh engine, so the
events, piles and scores come out identical; a record whose stored result
disagrees with its replay is refused.

>>> import random
>>> deal = FrenchDeal.new(Rules(), dealer=2, rng=random.Random(3))
>>> while not deal.is_over():
...     deal.apply(deal.legal_actions()[-1])
>>> again = replay(read_record(write_record(deal)))
>>> again.scores() == deal.scores() and again.events == deal.events
True
"""

from __future__ import annotations

__all__ = [
    "FrenchDeal",
    "RecordError",
    "deal_to_record",
    "load_record",
    "read_record",
    "replay",
    "write_record",
]

import difflib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from atout import jsonio
from atout.engine.errors import IllegalActionError
from atout.engine.french import FrenchDeal
from atout.games import Deal, Game, deal_from_dealt
from atout.rules import Rules, RulesError
from atout.scoring.summary import summary_to_json

FORMAT = "atout-deal"
_RECORD_KEYS = {"format", "version", "game", "players", "options", "dealer", "seed", "actions", "result"}
"""The keys every record has; the others are the game's dealt cards."""
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message names the field."""


def deal_to_record(deal: Game, seed: int | None = None) -> dict[str, Any]:
    """The JSON document of a deal of any game, finished or not."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": deal.rules.game,
        "players": deal.n,
        "options": deal.rules.changed(),
        "dealer": deal.dealer,
        **deal.dealt(),
        "actions": [deal.action_name(a) for a in deal.history],
    }
    if seed is not None:
        record["seed"] = seed
    if deal.is_over():
        result: dict[str, Any] = {"outcome": deal.outcome, "scores": deal.scores()}
        if deal.summary is not None:
            result["summary"] = summary_to_json(deal.summary)
        record["result"] = result
    return record


def write_record(deal: Game, seed: int | None = None) -> str:
    """The record of a deal as JSON text."""
    return json.dumps(deal_to_record(deal, seed), indent=1, ensure_ascii=False)


def read_record(text: str) -> dict[str, Any]:
    """Parse record text, checking its shape; raises :class:`RecordError`.

    The JSON is read strictly (:mod:`atout.jsonio`): a key given twice, ``NaN``, a number out of
    range or nesting too deep is refused.
    """
    try:
        data = jsonio.loads(text)
    except jsonio.JsonError as exc:
        raise RecordError(str(exc)) from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"format: expected {FORMAT!r}, found {data.get('format')!r}")
    if data.get("version") != VERSION or isinstance(data.get("version"), bool):
        raise RecordError(f"version: this atout reads version {VERSION}, found {data.get('version')!r}")
    return data


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file; raises :class:`RecordError` with the file name on any problem."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"{path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not a UTF-8 text file") from None
    try:
        return read_record(text)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None


def replay(record: Mapping[str, Any], upto: int | None = None) -> Deal:
    """Rebuild a deal from a record (the first ``upto`` actions, or all), checking its result."""
    deal = new_deal_from_record(record)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("actions: expected a list of action names")
    for i, text in enumerate(actions[:upto]):
        if not isinstance(text, str):
            raise RecordError(f"actions[{i}]: expected an action name, found {text!r}")
        try:
            deal.apply(deal.parse(text))
        except (IllegalActionError, ValueError) as exc:
            raise RecordError(f"actions[{i}] {text!r}: {exc}") from None
    result = record.get("result")
    if result is not None and not isinstance(result, Mapping):
        raise RecordError("result: expected an object with the outcome and the scores")
    if upto is None and result is not None and "scores" in result:
        if not deal.is_over():
            raise RecordError("result: the record has a result but its actions do not finish the deal")
        scores = result["scores"]
        if not isinstance(scores, list) or scores != deal.scores():
            raise RecordError(f"result.scores: recorded {scores!r}, the replay gives {deal.scores()}")
    return deal


def new_deal_from_record(record: Mapping[str, Any]) -> Deal:
    """The deal as dealt, before any action."""
    game = record.get("game", "french")
    if game not in ("french", "austrian"):
        raise RecordError(f"game: expected french or austrian, found {game!r}")
    players = record.get("players", 3 if game == "austrian" else None)
    allowed = (3,) if game == "austrian" else (2, 3, 4, 5)
    if not isinstance(players, int) or isinstance(players, bool) or players not in allowed:
        count = "3" if game == "austrian" else "2 to 5"
        raise RecordError(f"players: {game} is played by {count} players, not {players!r}")
    options = record.get("options", {})
    if not isinstance(options, Mapping):
        raise RecordError("options: expected an object of option names")
    for name in ("game", "players"):
        if name in options:
            raise RecordError(
                f"options.{name}: {name} is given at the top level of the record, not as an option"
            )
    _check_keys(record, _ALL_DEALT_KEYS)  # a key no record has, before the cards are read
    try:
        rules = Rules.from_options({**options, "game": game, "players": players})
    except RulesError as exc:
        raise RecordError(f"options: {exc}") from None
    dealer = record.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise RecordError(f"dealer: expected a seat number 0..{players - 1}, found {dealer!r}")
    try:
        deal = deal_from_dealt(rules, dealer, {k: v for k, v in record.items() if k not in _RECORD_KEYS})
    except RulesError as exc:
        raise RecordError(f"options: {exc}") from None
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    _check_keys(record, tuple(deal.dealt()))  # the cards of another game's deal
    return deal


_ALL_DEALT_KEYS = ("hands", "chien", "talon", "piles", "face_up")
"""What the deals of every game write as their dealt cards."""


def _check_keys(record: Mapping[str, Any], dealt: tuple[str, ...]) -> None:
    """Refuse a key that is neither a record's nor one of ``dealt``, as in every game."""
    allowed = [*sorted(_RECORD_KEYS), *dealt]
    for key in record:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"a record has {', '.join(allowed)}"
            raise RecordError(f"{key}: unknown key ({hint})")

"""The wire format: a seat's view, its events and actions as JSON (docs/protocol.md).

Everything travels by name: cards as ``KS``, ``T21``, ``EX``; actions as their words (``garde``,
``play KS``); events as objects with a ``kind``. :func:`view_to_json` writes any game's view;
:func:`view_from_json` reads it back equal, or raises :class:`WireError` naming the field.

>>> from atout.engine.french import FrenchDeal
>>> deal = FrenchDeal.new(rng=1)
>>> data = view_to_json(deal.view(1))
>>> data["protocol"], data["game"], data["phase"], data["legal_actions"][:2]
(1, 'french', 'bidding', ['pass', 'petite'])
>>> view_from_json(data) == deal.view(1)
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from atout.cards import BIT, CardSet, card_name, parse_card
from atout.engine.actions import ACTIONS, parse_action
from atout.engine.austrian.actions import action_name as austrian_action_name
from atout.engine.austrian.actions import parse_austrian_action
from atout.engine.austrian.view import AustrianView
from atout.engine.events import EVENT_CLASSES, Event
from atout.engine.phase import Phase
from atout.engine.two_player import TwoPlayerView
from atout.engine.view import PUBLIC_SEAT, SeatView, TrickView
from atout.rules import Rules, RulesError
from atout.scoring.summary import SummaryError, parse_summary, summary_to_json

PROTOCOL_VERSION: Final = 1
"""The version of the wire format; a reader refuses any other."""

View = SeatView | TwoPlayerView | AustrianView
"""A seat's view of a deal of any game."""

VIEW_CLASSES: Final[dict[str, type[SeatView] | type[TwoPlayerView] | type[AustrianView]]] = {
    "french": SeatView,
    "two_player": TwoPlayerView,
    "austrian": AustrianView,
}
"""The view class of each ``game`` name the wire uses."""

# How each view field travels; any field not named here is a plain JSON value (int, str, bool, null).
_MASKS: Final = frozenset({"hand", "ecart", "discard"})
_OPTIONAL_MASKS: Final = frozenset({"chien", "first_half", "second_half"})
_OPTIONAL_CARDS: Final = frozenset({"called_card"})
_TOPS: Final = frozenset({"own_tops", "opponent_tops"})
_INT_TUPLES: Final = frozenset({"own_pile_sizes", "opponent_pile_sizes"})
_EVENT_TEXTS: Final = frozenset({"bid", "level", "misere", "game"})


class WireError(ValueError):
    """A message that is not a valid wire form; the text names the field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


# ---------------------------------------------------------------------- writing
def cards_to_json(mask: int) -> list[str]:
    """A set of cards as a list of names, in card order."""
    return [card_name(c) for c in CardSet(mask)]


def action_to_json(action: int, rules: Rules) -> str:
    """An action's words under ``rules`` (Austrian talon choices depend on the talon mode)."""
    if rules.game == "austrian":
        return austrian_action_name(action, rules.austrian_talon_mode == "free_choice")
    return str(ACTIONS[action])


def event_to_json(event: Event) -> dict[str, Any]:
    """An event as an object: its ``kind`` and its fields, cards by name.

    >>> from atout.engine.events import PoigneeShown
    >>> event_to_json(PoigneeShown(2, "simple", 0b1110))
    {'kind': 'poignee', 'seat': 2, 'level': 'simple', 'cards': ['2S', '3S', '4S']}
    """
    out: dict[str, Any] = {"kind": event.kind}
    value: Any
    for name, value in zip(event._fields, event, strict=True):
        if name == "kind":
            continue
        if name == "card":
            out[name] = card_name(value)
        elif name == "cards":
            out[name] = cards_to_json(value)
        elif name == "summary":
            out[name] = None if value is None else summary_to_json(value)
        else:
            out[name] = value
    return out


def view_to_json(view: View) -> dict[str, Any]:
    """The wire form of a seat's view: a JSON object holding only what the view holds."""
    out: dict[str, Any] = {"protocol": PROTOCOL_VERSION, "game": view.game}
    for f in dataclasses.fields(view):
        value = getattr(view, f.name)
        out[f.name] = _field_to_json(f.name, value, view.rules)
    return out


def _field_to_json(name: str, value: Any, rules: Rules) -> Any:
    if name == "rules":
        return rules.to_dict()
    if name == "seat":
        return None if value == PUBLIC_SEAT else value  # a public view: no seat
    if name == "phase":
        return str(value)
    if name in _MASKS or (name in _OPTIONAL_MASKS and value is not None):
        return cards_to_json(value)
    if name in _OPTIONAL_CARDS and value is not None:
        return card_name(value)
    if name in _TOPS:
        return [None if c is None else card_name(c) for c in value]
    if name == "legal_actions":
        return [action_to_json(a, rules) for a in value]
    if name == "bids":
        return [{"seat": s, "bid": b} for s, b in value]
    if name == "poignees":
        return [{"seat": s, "level": level, "cards": cards_to_json(shown)} for s, level, shown in value]
    if name == "trick":
        return [{"seat": s, "card": card_name(c)} for s, c in value]
    if name == "tricks":
        return [
            {"plays": [{"seat": s, "card": card_name(c)} for s, c in t.plays], "winner": t.winner}
            for t in value
        ]
    if name == "events":
        return [event_to_json(e) for e in value]
    if isinstance(value, tuple):
        return list(value)
    return value


# ---------------------------------------------------------------------- deltas
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(view: View) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(type(view))
    if names is None:
        names = _FIELD_NAMES[type(view)] = tuple(f.name for f in dataclasses.fields(view))
    return names


def view_delta(
    old: View | ViewKey, new: View, changes: Mapping[str, int | None] | None = None
) -> dict[str, Any]:
    """What a client holding ``old``'s wire form needs to hold ``new``'s: the ``events`` new
    since ``old``, the fields replaced (``set``) and the non-empty list fields that grew at their
    end (``add``: the items appended). Fields equal in both are absent. Both views must be of one
    seat in one deal (docs/server.md, "Updates"); ``old`` may be its :func:`view_key`;
    ``changes``, what :func:`view_changes` said of them if it was asked already.

    >>> from atout.engine.french import FrenchDeal
    >>> deal = FrenchDeal.new(rng=1)
    >>> deal.apply(deal.parse("pass"))
    >>> before = deal.view(3)
    >>> deal.apply(deal.parse("pass"))
    >>> delta = view_delta(before, deal.view(3))
    >>> delta["events"], delta["add"]
    ([{'kind': 'bid', 'seat': 2, 'bid': 'pass'}], {'bids': [{'seat': 2, 'bid': 'pass'}]})
    >>> sorted(delta["set"])
    ['current_player', 'legal_actions']
    >>> apply_view_delta(view_to_json(before), delta) == view_to_json(deal.view(3))
    True
    """
    rules = new.rules
    changed: dict[str, Any] = {}
    added: dict[str, Any] = {}
    events: list[dict[str, Any]] = []
    for name, kept in (view_changes(old, new) if changes is None else changes).items():
        after = getattr(new, name)
        if name == "events":
            events = [event_to_json(e) for e in after[kept or 0 :]]
        elif kept:
            added[name] = _field_to_json(name, after[kept:], rules)
        else:
            changed[name] = _field_to_json(name, after, rules)
    return {"events": events, "set": changed, "add": added}


GROWING: Final = frozenset({"events", "bids", "poignees", "tricks"})
"""The lists of a view that a deal only appends to: equal lengths mean equal lists, and a longer
list keeps the shorter one's items (the engine's events, bids, shown poignées and finished tricks
are never rewritten; ``tests/engine/test_wire_delta.py`` rebuilds every view of whole deals from
deltas to hold the engine to it)."""


ViewKey = tuple[Any, ...]
"""What :func:`view_changes` compares of a view (:func:`view_key`)."""

_KEY_FIELDS: dict[type, tuple[str, ...]] = {}


def _key_fields(view: View) -> tuple[str, ...]:
    names = _KEY_FIELDS.get(type(view))
    if names is None:
        names = _KEY_FIELDS[type(view)] = tuple(n for n in _field_names(view) if n != "rules")
    return names


def view_key(view: View) -> ViewKey:
    """What :func:`view_changes` compares of a view, to hold instead of the view: its class and
    seat, then each field's value but the length of a list that only grows (:data:`GROWING`), and
    not the rules (a deal's rules never change). Plain values: a server holding one per seat gives
    the garbage collector nothing to follow."""
    return (
        type(view),
        view.seat,
        *(len(getattr(view, n)) if n in GROWING else getattr(view, n) for n in _key_fields(view)),
    )


def view_changes(old: View | ViewKey, new: View) -> dict[str, int | None]:
    """The fields in which ``new`` differs from ``old`` (a view of the same seat in the same
    deal, or its :func:`view_key`): each with the number of items kept when the list only grew
    at its end, else ``None`` (replaced). Empty when the views are equal; cheaper than comparing
    them whole, as the lists that only grow are compared by their lengths.

    >>> from atout.engine.french import FrenchDeal
    >>> deal = FrenchDeal.new(rng=1)
    >>> deal.apply(deal.parse("pass"))
    >>> before = view_key(deal.view(3))
    >>> view_changes(before, deal.view(3))
    {}
    >>> deal.apply(deal.parse("pass"))
    >>> view_changes(before, deal.view(3))
    {'current_player': None, 'legal_actions': None, 'bids': 1, 'events': 1}
    """
    key = old if isinstance(old, tuple) else view_key(old)
    if key[0] is not type(new) or key[1] != new.seat:
        raise ValueError("a delta joins two views of one seat in one game")
    out: dict[str, int | None] = {}
    for name, before in zip(_key_fields(new), key[2:], strict=True):
        after = getattr(new, name)
        if name in GROWING:
            if before != len(after):
                out[name] = before if 0 < before < len(after) else None
        elif before != after:
            grown = (
                isinstance(before, tuple)
                and isinstance(after, tuple)
                and 0 < len(before) < len(after)
                and after[: len(before)] == before
            )
            out[name] = len(before) if grown else None
    return out


def apply_view_delta(view: Mapping[str, Any], update: Mapping[str, Any]) -> dict[str, Any]:
    """The wire form of a view after an update (:func:`view_delta`'s members): a new object,
    ``view`` untouched. Raises :class:`WireError` for an update that does not fit the view."""
    out = dict(view)
    changed, added, events = update.get("set", {}), update.get("add", {}), update.get("events", [])
    if not isinstance(changed, Mapping) or not isinstance(added, Mapping) or not isinstance(events, list):
        raise WireError("update", "set and add must be objects, events a list")
    out.update(changed)
    for name, items in added.items():
        current = out.get(name)
        if not isinstance(current, list) or not isinstance(items, list):
            raise WireError(f"add.{name}", "only a list grows, by a list of items")
        out[name] = current + items
    current_events = out.get("events")
    if not isinstance(current_events, list):
        raise WireError("events", "the view holds no list of events")
    out["events"] = current_events + events
    return out


# ---------------------------------------------------------------------- reading
def view_from_json(data: object) -> View:
    """Read a view's wire form back; :class:`WireError` names the first bad field."""
    obj = _object(data, "view")
    version = obj.get("protocol")
    if version != PROTOCOL_VERSION or isinstance(version, bool):
        raise WireError("protocol", f"this atout reads version {PROTOCOL_VERSION}, found {version!r}")
    game = obj.get("game")
    cls = VIEW_CLASSES.get(game) if isinstance(game, str) else None
    if cls is None:
        raise WireError("game", f"expected one of {', '.join(VIEW_CLASSES)}, found {game!r}")
    rules = _rules(obj.get("rules"))
    fields = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(obj) - fields - {"protocol", "game"})
    if unknown:
        raise WireError(unknown[0], f"not a field of a {game} view")
    values: dict[str, Any] = {}
    for name in sorted(fields):
        if name not in obj:
            raise WireError(name, "missing")
        values[name] = _field_from_json(name, obj[name], rules)
    try:
        return cls(**values)
    except (TypeError, ValueError) as exc:
        raise WireError("view", str(exc)) from None


def _field_from_json(name: str, value: object, rules: Rules) -> Any:
    if name == "rules":
        return rules
    if name == "phase":
        return _choice(value, name, Phase)
    if name == "seat":
        if value is None:
            return PUBLIC_SEAT
        if _int(value, name) < 0:
            raise WireError(name, f"a seat is 0 or more (null in a public view), found {value}")
        return value
    if name in _MASKS:
        return cards_from_json(value, name)
    if name in _OPTIONAL_MASKS:
        return None if value is None else cards_from_json(value, name)
    if name in _OPTIONAL_CARDS:
        return None if value is None else _card(value, name)
    if name in _TOPS:
        return tuple(
            None if c is None else _card(c, f"{name}[{i}]") for i, c in enumerate(_list(value, name))
        )
    if name in _INT_TUPLES:
        return tuple(_int(v, f"{name}[{i}]") for i, v in enumerate(_list(value, name)))
    if name == "legal_actions":
        parse = _action_reader(rules)
        return tuple(_action(v, f"{name}[{i}]", parse) for i, v in enumerate(_list(value, name)))
    if name == "bids":
        return tuple(
            (_int(o.get("seat"), f"{name}[{i}].seat"), _str(o.get("bid"), f"{name}[{i}].bid"))
            for i, o in _objects(value, name)
        )
    if name == "poignees":
        return tuple(
            (
                _int(o.get("seat"), f"{name}[{i}].seat"),
                _str(o.get("level"), f"{name}[{i}].level"),
                cards_from_json(o.get("cards"), f"{name}[{i}].cards"),
            )
            for i, o in _objects(value, name)
        )
    if name == "trick":
        return _plays(value, name)
    if name == "tricks":
        return tuple(
            TrickView(
                _plays(o.get("plays"), f"{name}[{i}].plays"), _int(o.get("winner"), f"{name}[{i}].winner")
            )
            for i, o in _objects(value, name)
        )
    if name == "events":
        return tuple(event_from_json(e, f"events[{i}]") for i, e in enumerate(_list(value, name)))
    if name == "scores":
        return (
            None
            if value is None
            else tuple(_int(v, f"{name}[{i}]") for i, v in enumerate(_list(value, name)))
        )
    if name in ("chelem_announced",):
        return _bool(value, name)
    if name in ("taker", "partner", "declarer", "talon_half", "chelem_announced_by"):
        return None if value is None else _int(value, name)
    if name in ("contract", "bid", "game_type"):
        return None if value is None else _str(value, name)
    return _int(value, name)


def event_from_json(data: object, where: str = "event") -> Event:
    """Read an event's wire form back; :class:`WireError` names the bad field."""
    obj = _object(data, where)
    kind = obj.get("kind")
    cls = EVENT_CLASSES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise WireError(f"{where}.kind", f"unknown event kind {kind!r}")
    names = [n for n in cls._fields if n != "kind"]
    unknown = sorted(set(obj) - set(names) - {"kind"})
    if unknown:
        raise WireError(f"{where}.{unknown[0]}", f"not a field of a {kind} event")
    values: list[Any] = []
    for name in names:
        if name not in obj:
            raise WireError(f"{where}.{name}", "missing")
        value, path = obj[name], f"{where}.{name}"
        if name == "card":
            values.append(_card(value, path))
        elif name == "cards":
            values.append(cards_from_json(value, path))
        elif name == "summary":
            values.append(None if value is None else _summary(value, path))
        elif name == "seat":
            values.append(None if value is None else _int(value, path))
        elif name == "announced":
            values.append(_bool(value, path))
        elif name in _EVENT_TEXTS:
            values.append(_str(value, path))
        else:
            values.append(_int(value, path))
    return cls(*values)


def cards_from_json(value: object, field: str) -> int:
    """A list of card names as a card mask; each card at most once."""
    mask = 0
    for i, name in enumerate(_list(value, field)):
        card = _card(name, f"{field}[{i}]")
        if mask >> card & 1:
            raise WireError(field, f"{card_name(card)} named twice")
        mask |= BIT[card]
    return mask


def _action_reader(rules: Rules) -> Callable[[str], int]:
    if rules.game == "austrian":
        return parse_austrian_action
    return parse_action


def _action(value: object, field: str, parse: Callable[[str], int]) -> int:
    try:
        return parse(_str(value, field))
    except ValueError as exc:
        raise WireError(field, str(exc)) from None


def _plays(value: object, field: str) -> tuple[tuple[int, int], ...]:
    return tuple(
        (_int(o.get("seat"), f"{field}[{i}].seat"), _card(o.get("card"), f"{field}[{i}].card"))
        for i, o in _objects(value, field)
    )


def _rules(value: object) -> Rules:
    options = _object(value, "rules")
    try:
        return Rules.from_options(options)
    except RulesError as exc:
        raise WireError("rules", str(exc)) from None


def _summary(value: object, field: str) -> Any:
    try:
        return parse_summary(value)
    except SummaryError as exc:
        raise WireError(field, str(exc)) from None


def _object(value: object, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise WireError(field, f"expected an object, found {_type(value)}")
    return value


def _objects(value: object, field: str) -> list[tuple[int, Mapping[str, Any]]]:
    return [(i, _object(v, f"{field}[{i}]")) for i, v in enumerate(_list(value, field))]


def _list(value: object, field: str) -> Sequence[Any]:
    if not isinstance(value, list):
        raise WireError(field, f"expected a list, found {_type(value)}")
    return value


def _int(value: object, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise WireError(field, f"expected a whole number, found {_type(value)}")
    return value


def _bool(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise WireError(field, f"expected true or false, found {_type(value)}")
    return value


def _str(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise WireError(field, f"expected a string, found {_type(value)}")
    return value


def _card(value: object, field: str) -> int:
    try:
        return parse_card(_str(value, field))
    except ValueError as exc:
        raise WireError(field, str(exc)) from None


def _choice(value: object, field: str, enum: type[Phase]) -> Phase:
    try:
        return enum(_str(value, field))
    except ValueError:
        raise WireError(field, f"expected one of {', '.join(enum)}, found {value!r}") from None


def _type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, str):
        return f"the string {value[:40]!r}"
    if isinstance(value, int | float):
        return f"the number {str(value)[:40]}"
    if isinstance(value, list):
        return "a list"
    return "an object" if isinstance(value, dict) else type(value).__name__


__all__ = [
    "GROWING",
    "PROTOCOL_VERSION",
    "VIEW_CLASSES",
    "View",
    "ViewKey",
    "WireError",
    "action_to_json",
    "apply_view_delta",
    "cards_from_json",
    "cards_to_json",
    "event_from_json",
    "event_to_json",
    "view_changes",
    "view_delta",
    "view_from_json",
    "view_key",
    "view_to_json",
]

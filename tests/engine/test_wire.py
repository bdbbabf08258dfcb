"""The wire format (docs/protocol.md): every view of every game and preset travels as JSON and
reads back equal; the JSON Schema in the package accepts it; bad messages get a WireError."""

from __future__ import annotations

import json
import random
from importlib.resources import files
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout.engine.events import EVENT_CLASSES, CardPlayed, DealEnded, PoigneeShown
from atout.engine.wire import (
    PROTOCOL_VERSION,
    WireError,
    event_from_json,
    event_to_json,
    view_from_json,
    view_to_json,
)
from atout.games import new_deal
from atout.presets import PRESETS, rules_for
from atout.rules import Rules, RulesError

SCHEMA = json.loads(files("atout").joinpath("schema/view.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def _games() -> list[tuple[str, Rules]]:
    """Every game and player count under every preset that plays it."""
    out = []
    for name in (p.name for p in PRESETS):
        for players in (2, 3, 4, 5):
            try:
                rules = rules_for(name, players=players)
                new_deal(rules, rng=0)
            except RulesError:
                continue  # a preset for another game, or an option that count refuses
            out.append((f"{name}-{players}", rules))
            if players == 5:
                out.append((f"{name}-5-dead", rules.replace(five_player_mode="dead_player")))
    return out


GAMES = _games()


def _random_views(rules: Rules, seed: int) -> list[Any]:
    """Every seat's view at a few random points of a random deal, and at its end."""
    rng = random.Random(seed)
    deal = new_deal(rules, dealer=rng.randrange(rules.players), rng=rng)
    views = []
    while not deal.is_over():
        if rng.random() < 0.08:
            views += [deal.view(s) for s in range(rules.players)]
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    return views + [deal.view(s) for s in range(rules.players)]


@pytest.mark.parametrize(("name", "rules"), GAMES, ids=[g[0] for g in GAMES])
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_every_view_round_trips_through_json_text(name: str, rules: Rules, seed: int) -> None:
    for view in _random_views(rules, seed):
        text = json.dumps(view.to_json(), ensure_ascii=False)
        assert view_from_json(json.loads(text)) == view


@pytest.mark.parametrize(("name", "rules"), GAMES, ids=[g[0] for g in GAMES])
def test_the_package_schema_accepts_every_view(name: str, rules: Rules) -> None:
    for view in _random_views(rules, 7)[-rules.players * 3 :]:
        errors = list(VALIDATOR.iter_errors(view_to_json(view)))
        assert not errors, errors[0].message


def test_the_schema_names_every_event_kind() -> None:
    kinds = {e["then"]["properties"]["kind"]["const"] for e in SCHEMA["$defs"]["event"]["allOf"]}
    assert kinds == set(EVENT_CLASSES)


def test_a_view_names_its_game_and_protocol_version() -> None:
    data = new_deal(Rules(players=2), rng=1).view(0).to_json()
    assert (data["protocol"], data["game"], data["phase"]) == (PROTOCOL_VERSION, "two_player", "play")
    data = new_deal(rules_for("tarock"), rng=1).view(0).to_json()
    assert (data["game"], data["legal_actions"]) == ("austrian", []) or data["legal_actions"][0] == "pass"


def test_cards_and_actions_travel_by_name() -> None:
    deal = new_deal(Rules(players=4), rng=3)
    seat = deal.current_player
    data = deal.view(seat).to_json()
    assert all(isinstance(c, str) for c in data["hand"]) and len(data["hand"]) == 18
    assert data["legal_actions"][0] == "pass"
    assert event_to_json(PoigneeShown(2, "simple", 0b110)) == {
        "kind": "poignee",
        "seat": 2,
        "level": "simple",
        "cards": ["2S", "3S"],
    }


def test_events_round_trip_with_a_summary() -> None:
    deal = new_deal(Rules(players=4), rng=5)
    deal.play_out(random.Random(5))
    for event in deal.events:
        assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event
    assert deal.events[-1].kind == "end"
    assert isinstance(deal.events[-1], DealEnded)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"protocol": 2}, "protocol"),
        ({"protocol": True}, "protocol"),
        ({"game": "chess"}, "game"),
        ({"phase": "dancing"}, "phase"),
        ({"hand": ["KS", "KS"]}, "hand"),
        ({"hand": ["ZZ"]}, "hand[0]"),
        ({"hand": "KS"}, "hand"),
        ({"seat": "1"}, "seat"),
        ({"seat": 1.0}, "seat"),
        ({"legal_actions": ["fly"]}, "legal_actions[0]"),
        ({"events": [{"kind": "telepathy"}]}, "events[0].kind"),
        ({"events": [{"kind": "play", "seat": 1}]}, "events[0].card"),
        ({"events": [{"kind": "play", "seat": 1, "card": "KS", "extra": 1}]}, "events[0].extra"),
        ({"rules": {"players": 9}}, "rules"),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_a_bad_view_message_names_the_field(change: dict[str, Any], field: str) -> None:
    data = new_deal(Rules(players=4), rng=1).view(0).to_json()
    data.update(change)
    with pytest.raises(WireError) as error:
        view_from_json(data)
    assert error.value.field == field


def test_a_missing_field_is_named() -> None:
    data = new_deal(Rules(players=4), rng=1).view(0).to_json()
    del data["hand"]
    with pytest.raises(WireError, match="hand: missing"):
        view_from_json(data)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(key=st.sampled_from(sorted(new_deal(Rules(players=4), rng=1).view(0).to_json())), value=_JSON)
def test_any_value_in_any_field_reads_or_gets_a_wire_error(key: str, value: object) -> None:
    data = new_deal(Rules(players=4), rng=1).view(0).to_json()
    data[key] = value
    try:
        view = view_from_json(data)
    except WireError as error:
        assert error.field and str(error).startswith(f"{error.field}: ")
    else:
        assert view_from_json(view.to_json()) == view


@settings(max_examples=150, deadline=None)
@given(data=_JSON)
def test_any_json_as_an_event_reads_or_gets_a_wire_error(data: object) -> None:
    try:
        event = event_from_json(data)
    except WireError as error:
        assert error.field and str(error).startswith(f"{error.field}: ")
    else:
        assert event_from_json(event_to_json(event)) == event


def test_a_played_card_event_travels_as_its_name() -> None:
    assert event_to_json(CardPlayed(1, 77)) == {"kind": "play", "seat": 1, "card": "EX"}


def test_the_schema_refuses_what_the_reader_refuses() -> None:
    data = new_deal(Rules(players=4), rng=1).view(0).to_json()
    assert not list(VALIDATOR.iter_errors(data))
    for change in (
        {"hand": ["ZZ"]},
        {"game": "chess"},
        {"events": [{"kind": "play", "seat": 1}]},
        {"events": [{"kind": "telepathy"}]},
        {"surprise": 1},
    ):
        assert list(VALIDATOR.iter_errors({**data, **change})), change

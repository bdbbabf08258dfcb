"""JSON from a user, read strictly and, for a long list, item by item (atout.jsonio)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout.jsonio import JsonError, iter_document, loads, nesting_depth
from atout.rules import RulesError, parse_option_words

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)


def _read(text: str, chunk: int = 1 << 16) -> tuple[bool, list[Any]]:
    is_list, items = iter_document(io.StringIO(text), chunk)
    return is_list, list(items)


@settings(max_examples=300)
@given(st.lists(values, max_size=8), st.sampled_from([None, 0, 2]), st.integers(1, 9))
def test_a_list_read_item_by_item_equals_the_whole_document(
    items: list[Any], indent: int | None, chunk: int
) -> None:
    # a tiny window cuts numbers, strings and keys at every place
    text = json.dumps(items, indent=indent)
    assert _read(text, chunk) == (True, json.loads(text))


@pytest.mark.parametrize(
    "text", ["[1, 2", "\n\n {1}", "[1 2]", "[1,]", "[1] x", "[\n1,\n2,\n x]", '[{"a":\n 1}, {"b" 2}]', ""]
)
@pytest.mark.parametrize("chunk", [1, 3, 65536])
def test_syntax_errors_are_placed_as_the_json_module_places_them(text: str, chunk: int) -> None:
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(text)
    with pytest.raises(JsonError) as err:
        _read(text, chunk)
    assert (err.value.line, err.value.column) == (expected.value.lineno, expected.value.colno)
    assert (
        str(err.value) == f"not JSON: {err.value.reason} at line {err.value.line} column {err.value.column}"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"points": 40, "points": 50}', "duplicate key 'points' in an object"),
        ('[{"a": {"b": 1, "b": 1}}]', "duplicate key 'b' in an object"),
        ("[NaN]", "NaN is not a JSON value"),
        ('{"points": -Infinity}', "-Infinity is not a JSON value"),
        ("[1e999]", "the number 1e999 is out of range"),
        ("[" + "9" * 5000 + "]", "a whole number has more than 4300 digits"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
)
def test_what_python_reads_but_a_user_cannot_mean_is_refused_in_one_line(text: str, message: str) -> None:
    for read in (loads, _read):
        with pytest.raises(JsonError) as err:
            read(text)
        assert str(err.value) == message and err.value.line is None


def test_a_document_that_is_not_a_list_is_one_value() -> None:
    assert _read(' {"a": [1]} ') == (False, [{"a": [1]}])
    assert loads(" 3 ") == 3


@pytest.mark.parametrize(
    ("word", "message"),
    [
        (
            'partial_slam={"max_missing": 3, "max_missing": 1}',
            "partial_slam: duplicate key 'max_missing' in an object",
        ),
        ("misere_bonus=NaN", "misere_bonus: NaN is not a JSON value"),
        ("misere_bonus=" + "9" * 5000, "misere_bonus: a whole number has more than 4300 digits"),
    ],
)
def test_option_words_refuse_json_a_user_cannot_mean_8(word: str, message: str) -> None:
    # before: a 5000-digit value escaped as a ValueError traceback, the others were taken
    with pytest.raises(RulesError) as err:
        parse_option_words([word])
    assert str(err.value) == message


def test_option_words_still_take_bare_words_8() -> None:
    assert parse_option_words(["no_petite=yes", "five_player_mode=dead_player", "misere_bonus=10"]) == {
        "no_petite": True,
        "five_player_mode": "dead_player",
        "misere_bonus": 10,
    }


# strings full of what the depth scan must not count: brackets, quotes, backslashes
tricky_text = st.text(alphabet=st.sampled_from('[]{}"\\/ ,:au\u00e9\u2603\n'), max_size=12)
tricky_text |= st.text(max_size=8)
deep_values = st.recursive(
    st.none() | st.booleans() | st.integers() | tricky_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(tricky_text, inner, max_size=3),
    max_leaves=40,
)


def _true_depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max(map(_true_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_true_depth, value.values()), default=0)
    return 0


@settings(max_examples=200)
@given(deep_values, st.sampled_from([None, 1]), st.booleans())
def test_the_depth_scan_finds_the_true_depth_of_any_value(
    value: Any, indent: int | None, ascii_: bool
) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_)
    depth = _true_depth(value)
    assert nesting_depth(text) == depth
    assert nesting_depth(text, limit=depth) == depth
    if depth:
        assert nesting_depth(text, limit=depth - 1) == depth  # stops one level too deep
    assert loads(text, max_depth=depth) == value


@settings(max_examples=100)
@given(deep_values)
def test_a_document_inside_a_string_has_no_depth(value: Any) -> None:
    # the brackets of a JSON text held in a string, its quotes escaped, count for nothing
    inner = json.dumps(value)
    assert nesting_depth(json.dumps(inner)) == 0
    assert nesting_depth(json.dumps([inner, {inner: [inner]}])) == 3


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("3", 0),
        ("[]", 1),
        ('{"a": {}}', 2),
        ('["[[[", "\\"[[", "\\\\", []]', 2),  # an escaped quote, then an escaped backslash before the end
        ('{"\\"]}": [{"x": "\\\\\\"{"}]}', 3),
        ('"never closed [[[', 0),
        ("[[[", 3),  # not JSON, but the parser would go that deep before it fails
        ("]][[[[", 0),  # a close with nothing open: a parse fails there
    ],
)
def test_the_depth_scan_reads_strings_and_escapes_as_json_does(text: str, depth: int) -> None:
    assert nesting_depth(text) == depth


def test_too_deep_is_refused_before_parsing_in_one_line() -> None:
    for text in ("[" * 2000 + "]" * 2000, "[" * 1_000_000, '{"a": ' * 17 + "1" + "}" * 17):
        with pytest.raises(JsonError) as err:
            loads(text, max_depth=16)
        assert str(err.value) == "nested deeper than 16 levels" and err.value.line is None
    assert loads('{"a": ' * 16 + "1" + "}" * 16, max_depth=16)["a"]["a"]

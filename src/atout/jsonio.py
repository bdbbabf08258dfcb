"""JSON written by a user, read strictly: duplicate keys, ``NaN``/``Infinity``, numbers out of
range and nesting too deep are refused with a one-line :class:`JsonError`, never a traceback.
A text from outside can be held to a nesting depth before it is parsed (:func:`nesting_depth`,
a linear scan that recurses nowhere).

A long list (a session of deal summaries) can be read item by item from a stream, so that the
memory used does not grow with the list.

>>> loads('{"points": 40, "points": 50}')
Traceback (most recent call last):
...
atout.jsonio.JsonError: duplicate key 'points' in an object
>>> import io
>>> is_list, items = iter_document(io.StringIO('[{"a": 1}, 2]'))
>>> is_list, list(items)
(True, [{'a': 1}, 2])
>>> loads('{"a": [[1]]}', max_depth=2)
Traceback (most recent call last):
...
atout.jsonio.JsonError: nested deeper than 2 levels
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Iterator
from typing import Any, TextIO

__all__ = ["JsonError", "iter_document", "loads", "nesting_depth"]

_CHUNK = 1 << 16


class JsonError(ValueError):
    """JSON that cannot be used; the message is one line.

    ``reason`` says what is wrong; ``line`` and ``column`` (from 1) place a syntax error.
    """

    def __init__(self, reason: str, line: int | None = None, column: int | None = None) -> None:
        where = "" if line is None else "not JSON: "
        at = "" if line is None else f" at line {line} column {column}"
        super().__init__(f"{where}{reason}{at}")
        self.reason = reason
        self.line = line
        self.column = column


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise JsonError(f"duplicate key {key!r} in an object")
            seen.add(key)
    return out


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonError(f"the number {text[:20]} is out of range")
    return value


def _constant(name: str) -> Any:
    raise JsonError(f"{name} is not a JSON value")


_DECODER = json.JSONDecoder(object_pairs_hook=_object, parse_float=_float, parse_constant=_constant)


def _decode_error(exc: json.JSONDecodeError, line: int = 0, column: int = 0) -> JsonError:
    col = exc.colno + (column if exc.lineno == 1 else 0)
    return JsonError(exc.msg, exc.lineno + line, col)


def _raw_decode(text: str, pos: int) -> tuple[Any, int]:
    """One value from ``pos``: refusals other than a syntax error are :class:`JsonError`."""
    try:
        return _DECODER.raw_decode(text, pos)
    except RecursionError:
        raise JsonError("nested too deeply") from None
    except JsonError:
        raise
    except json.JSONDecodeError:
        raise
    except ValueError as exc:
        if "integer string conversion" in str(exc):
            limit = sys.get_int_max_str_digits()
            raise JsonError(f"a whole number has more than {limit} digits") from None
        raise JsonError(f"unusable value: {str(exc).split(';')[0]}") from None


# a string (its end quote may be missing), or one bracket: what the depth scan looks at
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)


def nesting_depth(text: str, limit: int | None = None) -> int:
    """How deeply ``[`` and ``{`` nest in ``text``, outside strings: 0 for a scalar, 1 for
    ``[]``, 2 for ``[{}]``. The text need not be JSON; the scan is linear, without recursion,
    and stops at the first level deeper than ``limit`` (returning ``limit + 1``).

    >>> nesting_depth('{"a": [1, "]]{[", {"b": "\\\\\\"["}]}')
    3
    >>> nesting_depth("[" * 100_000, limit=16)
    17
    """
    depth = deepest = 0
    for token in _TOKEN.finditer(text):
        first = text[token.start()]
        if first in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if limit is not None and deepest > limit:
                    break
        elif first in "]}":
            # a close with nothing open ends any parse there: what follows is never reached
            if depth == 0:
                break
            depth -= 1
    return deepest


def loads(text: str, max_depth: int | None = None) -> Any:
    """The value of a whole JSON document; raises :class:`JsonError`.

    With ``max_depth``, a document nested deeper is refused before it is parsed.
    """
    if max_depth is not None and nesting_depth(text, max_depth) > max_depth:
        raise JsonError(f"nested deeper than {max_depth} levels")
    start = _skip_space(text, 0)
    try:
        value, end = _raw_decode(text, start)
    except json.JSONDecodeError as exc:
        raise _decode_error(exc) from None
    if _skip_space(text, end) != len(text):
        raise _decode_error(json.JSONDecodeError("Extra data", text, end))
    return value


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\n\r":
        pos += 1
    return pos


def iter_document(stream: TextIO, chunk: int = _CHUNK) -> tuple[bool, Iterator[Any]]:
    """Whether the document is a list, and its items one by one (or its only value).

    The items are read from ``stream`` as they are needed, ``chunk`` characters at a time; a
    syntax error is raised when the iteration reaches it.
    """
    reader = _Reader(stream, chunk)
    reader.fill_until(lambda: _skip_space(reader.buffer, reader.pos) < len(reader.buffer))
    reader.pos = _skip_space(reader.buffer, reader.pos)
    if reader.buffer[reader.pos : reader.pos + 1] != "[":
        return False, iter([loads(reader.buffer + stream.read())])
    return True, reader.items()


class _Reader:
    """A window on a stream: the text not yet decoded, and where the window starts in the file."""

    def __init__(self, stream: TextIO, chunk: int) -> None:
        self.stream = stream
        self.chunk = chunk
        self.buffer = ""
        self.pos = 0
        self.eof = False
        self.line = 0  # lines and columns before the window, for error positions
        self.column = 0

    def more(self) -> bool:
        """Read one more chunk into the window, dropping what was decoded; False at the end."""
        if self.eof:
            return False
        chunk = self.stream.read(max(self.chunk, len(self.buffer)))
        if not chunk:
            self.eof = True
            return False
        done, self.buffer = self.buffer[: self.pos], self.buffer[self.pos :] + chunk
        self.pos = 0
        newlines = done.count("\n")
        self.line += newlines
        self.column = len(done) - done.rfind("\n") - 1 if newlines else self.column + len(done)
        return True

    def fill_until(self, ready: Any) -> None:
        while not ready() and self.more():
            pass

    def error(self, exc: json.JSONDecodeError) -> JsonError:
        return _decode_error(exc, self.line, self.column)

    def items(self) -> Iterator[Any]:
        self.pos += 1  # the opening bracket
        first = True
        while True:
            self.fill_until(lambda: _skip_space(self.buffer, self.pos) < len(self.buffer))
            self.pos = _skip_space(self.buffer, self.pos)
            head = self.buffer[self.pos : self.pos + 1]
            if head == "]":
                self.pos += 1
                break
            if not first:
                if head != ",":
                    raise self.error(json.JSONDecodeError("Expecting ',' delimiter", self.buffer, self.pos))
                self.pos += 1
            yield self._item()
            first = False
        self.fill_until(lambda: _skip_space(self.buffer, self.pos) < len(self.buffer) or self.eof)
        if _skip_space(self.buffer, self.pos) < len(self.buffer) or self.more():
            rest = _skip_space(self.buffer, self.pos)
            raise self.error(json.JSONDecodeError("Extra data", self.buffer, rest))

    def _item(self) -> Any:
        while True:
            start = _skip_space(self.buffer, self.pos)
            try:
                value, end = _raw_decode(self.buffer, start)
            except json.JSONDecodeError as exc:
                if self.more():
                    continue
                raise self.error(exc) from None
            # a number cut by the window's end decodes short ("-32.5" as -32): an item is followed
            # by a comma or the closing bracket, unless the text is wrong
            after = _skip_space(self.buffer, end)
            if (after < len(self.buffer) and self.buffer[after] in ",]") or not self.more():
                self.pos = end
                return value

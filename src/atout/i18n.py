"""Languages: the gettext catalogues of ``src/atout/locale``, read with Babel.

Two domains share each language's folder ``locale/<lang>/LC_MESSAGES``: ``atout`` holds the
Python side's words for people (the terminal game, the command line, the server's messages),
``page`` the browser page's (the keys of ``web/static/strings.js``, each key a message context).
The ``.po`` files are read as they are, so that a new catalogue needs no compile step.

``_("text")`` translates into the current language: the ``--lang`` given to the command line,
else ``ATOUT_LANG``, else the locale of the environment (``LC_ALL``, ``LC_MESSAGES``, ``LANG``),
else English.
"""

from __future__ import annotations

import ast
import functools
import os
import re
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import IO, Any

from babel import Locale
from babel.messages.pofile import read_po

LANGUAGES = ("en", "fr", "cs", "ja", "zh")
"""The languages atout speaks, English first (the language of the sources)."""
DEFAULT = "en"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""Where the catalogues live: ``<lang>/LC_MESSAGES/<domain>.po`` and the templates ``<domain>.pot``."""
DOMAINS = ("atout", "page")

_current: ContextVar[str | None] = ContextVar("atout_language", default=None)


def normalize(tag: str | None) -> str | None:
    """The language of atout a tag such as ``fr-FR``, ``ja_JP.UTF-8`` or ``zh-Hans`` names, else None."""
    if not tag:
        return None
    code = re.split(r"[-_.@]", tag.strip().lower(), maxsplit=1)[0]
    return code if code in LANGUAGES else None


def negotiate(accept_language: str | None) -> str:
    """The best of atout's languages for an HTTP ``Accept-Language`` header (English otherwise)."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept_language or "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        match = re.search(r"q\s*=\s*([^;\s]*)", params)
        if match:
            try:
                quality = float(match.group(1))
            except ValueError:
                quality = 0.0
        language = normalize(tag)
        if language and quality > 0:
            ranked.append((-quality, index, language))
    return min(ranked)[2] if ranked else DEFAULT


def environment_language() -> str:
    """The language the environment asks for: ``ATOUT_LANG``, then the POSIX locale variables."""
    for variable in ("ATOUT_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        language = normalize(os.environ.get(variable))
        if language:
            return language
    return DEFAULT


def current() -> str:
    """The language ``_`` translates into."""
    return _current.get() or environment_language()


def use(language: str | None) -> str:
    """Speak ``language`` from now on in this context (None: the environment's); returns the language."""
    chosen = normalize(language) if language else None
    if language and chosen is None:
        raise ValueError(f"unknown language {language!r}: choose one of {', '.join(LANGUAGES)}")
    _current.set(chosen)
    return current()


@functools.cache
def catalogue(language: str, domain: str = "atout") -> dict[tuple[str | None, str], str]:
    """The translated messages of one language and domain: (context, id) → text; fuzzy ones left out."""
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po"
    if language == DEFAULT or not path.is_file():
        return {}
    with path.open("rb") as handle:
        po = read_po(handle, locale=language)
    return {
        (message.context, str(message.id)): str(message.string)
        for message in po
        if message.id and message.string and not message.fuzzy and isinstance(message.string, str)
    }


def gettext(message: str, language: str | None = None, context: str | None = None) -> str:
    """``message`` in ``language`` (the current one by default), English when it has no translation."""
    return catalogue(language or current()).get((context, message), message)


def _(message: str) -> str:
    """``message`` in the current language: the mark the extractor looks for."""
    return gettext(message)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogues without translating it yet (translated where it is shown)."""
    return message


def page_catalogue(language: str) -> dict[str, str]:
    """The page's words in ``language``: strings.js key → text (only the translated ones)."""
    return {context: text for (context, _id), text in catalogue(language, "page").items() if context}


def language_names() -> dict[str, str]:
    """Each language named in itself, for a language menu: ``{"fr": "Français", ...}``."""
    return {code: str(Locale.parse(code).get_display_name(code)).capitalize() for code in LANGUAGES}


_STRING_PAIRS = re.compile(r'"(?P<key>[^"\\]+)"\s*:\s*(?P<text>"(?:[^"\\]|\\.)*")')


def extract_strings_js(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """Babel's extractor for ``strings.js``: each ``"key": "English text"`` of ``STRINGS`` is a message
    whose context is the key (``babel.cfg`` names it; the keys are what the page's modules use)."""
    comment: list[str] = []
    inside = False
    for lineno, raw in enumerate(fileobj.read().decode("utf-8").splitlines(), start=1):
        line = raw.strip()
        if line.startswith("export const STRINGS"):
            inside = True
            continue
        if not inside:
            continue
        if line.startswith("};"):
            break
        if line.startswith("//"):
            comment = [line.removeprefix("//").strip()]
            continue
        for match in _STRING_PAIRS.finditer(line):
            text = ast.literal_eval(match.group("text"))
            yield lineno, "pgettext", (match.group("key"), text), list(comment)

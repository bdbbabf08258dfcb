"""The rule book as pages of the web app: ``/rules`` (its contents) and ``/rules/{page}``.

The book is the Markdown of ``docs/rules``, shipped in the package as ``atout/rulebook`` (a link
to that folder in a checkout, its files in a wheel). A page is shown in the reader's language
(``?lang=``, else the browser's ``Accept-Language``; the page's script follows the language chosen
in the app's menu) when ``rulebook/<lang>/<page>.md`` exists, else in English with a note saying
so. Anchors are the same in every language: ``#s3-8`` for §3.8, ``#s3-8-step-3`` for its step 3,
``#s7-v6`` for the variant V6 of §7, ``#s6-1-f12`` for row F12 of §6.1, ``#top`` for the
title; other headings take GitHub's slug of their text. ``/rules/section/3.8?part=step 3``
sends a refusal's reference to its place.

>>> section_part("rule book §3.8 step 3: must follow suit")
('3.8', 'step 3')
>>> section_part("rule book §7 V6 partial slam")
('7', 'V6')
>>> section_part("actions") is None
True
>>> anchor_of("3.8", "step 3")
's3-8-step-3'
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote, urlencode

from babel import Locale
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from markdown_it import MarkdownIt
from markdown_it.token import Token

from atout import i18n
from atout.i18n import N_

BOOK = Path(__file__).resolve().parent.parent / "rulebook"
"""The rule book's Markdown: ``<page>.md`` in English, ``<lang>/<page>.md`` translated."""
CONTENTS = "README"
"""The page that lists the others, served at ``/rules``."""

_NUMBERED = re.compile(r"§(\d+(?:\.\d+)*)\s")
_REFERENCE = re.compile(r"§(\d+(?:\.\d+)*)(?:\s+(step \d+|[VAF]\d+|mode [A-Z])\b)?")
_LABEL = re.compile(r"([A-Z]\d+):?")
_BOOK_LINK = re.compile(r"^(?:(?P<page>[\w-]+)\.md)?(?:#(?P<anchor>.*))?$")
_WIDE = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")
"""Japanese and Chinese characters: a line break beside one joins the lines without a space."""

_WORDS = {
    "book": N_("Rule book"),
    "contents": N_("Contents of the rule book"),
    "back": N_("Back to the contents"),
    "lobby": N_("Back to the lobby"),
    "untranslated": N_("This page is not translated yet: here it is in English, the original."),
    "translated": N_("A translation: the original, in English, is the reference."),
    "original": N_("Read the original"),
    "missing": N_("There is no such page in the rule book."),
}


def _word(key: str, language: str) -> str:
    return i18n.gettext(_WORDS[key], language)


def section_part(rule: str) -> tuple[str, str | None] | None:
    """The section and its part (``step 3``, ``V6``, ``mode B``, ``F12``) a refusal's ``rule``
    names first, or None when it names no section."""
    match = _REFERENCE.search(rule)
    return (match.group(1), match.group(2)) if match else None


def anchor_of(number: str, part: str | None = None) -> str:
    """The anchor of a section (``3.8`` → ``s3-8``) or of a part of it (``s3-8-step-3``)."""
    anchor = "s" + number.replace(".", "-")
    return f"{anchor}-{part.lower().replace(' ', '-')}" if part else anchor


def github_slug(title: str) -> str:
    """The anchor GitHub gives a heading (how the book's own Markdown links to its headings)."""
    return re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")


def page_names() -> list[str]:
    """The pages of the book, by name (``french-tarot``), the contents first."""
    names = sorted(p.stem for p in BOOK.glob("*.md") if p.stem != CONTENTS)
    return [CONTENTS, *names] if (BOOK / f"{CONTENTS}.md").is_file() else names


def source(page: str, language: str) -> tuple[Path, bool]:
    """The Markdown of ``page`` in ``language`` if it is translated, else the original; and
    whether it is the translation."""
    translated = BOOK / language / f"{page}.md"
    if language != i18n.DEFAULT and translated.is_file():
        return translated, True
    return BOOK / f"{page}.md", False


# ---------------------------------------------------------------- Markdown → HTML


_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


@dataclass(frozen=True)
class Rendered:
    """A page of the book as HTML: its title, its body, the anchors of its headings by GitHub's
    slug of their title, and every anchor it has (steps and table rows too)."""

    title: str
    body: str
    anchors: dict[str, str]
    ids: frozenset[str]


def _plain(inline: Token) -> str:
    return "".join(child.content for child in inline.children or [] if child.type in ("text", "code_inline"))


def _name_anchors(tokens: list[Token], used: set[str], original: tuple[str, ...] = ()) -> dict[str, str]:
    """Gives each heading, each step of a section's numbered list and each labelled table row
    its anchor (``id``, added to ``used``); returns GitHub's slug of each heading → its anchor.
    A translation whose headings match ``original`` (the original's heading anchors, in order)
    one for one takes those anchors, so that "Pages" keeps ``#pages`` in any language."""
    slugs: dict[str, str] = {}
    section = ""
    headings = [t for t in tokens if t.type == "heading_open"]
    given = dict(zip(map(id, headings), original, strict=False)) if len(original) == len(headings) else {}

    def unique(anchor: str) -> str:
        chosen, n = anchor, 1
        while chosen in used:
            n += 1
            chosen = f"{anchor}-{n}"
        used.add(chosen)
        return chosen

    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            raw = tokens[i + 1].content
            numbered = _NUMBERED.match(raw + " ")
            label = _LABEL.fullmatch(raw.split(" ", 1)[0]) if raw else None
            words = raw.split()
            if numbered:
                section = anchor_of(numbered.group(1))
            if id(token) in given:
                anchor = given[id(token)]
            elif token.tag == "h1":
                anchor = "top"
            elif numbered:
                anchor = section
            elif label and section:
                anchor = f"{section}-{label.group(1).lower()}"
            elif len(words) >= 2 and words[0] == "Mode" and section:
                anchor = f"{section}-mode-{words[1].rstrip(':').lower()}"
            else:
                anchor = github_slug(raw) or "section"
            anchor = unique(anchor)
            token.attrSet("id", anchor)
            slugs.setdefault(github_slug(raw), anchor)
        elif token.type == "list_item_open" and token.level == 1 and token.info.isdigit() and section:
            token.attrSet("id", unique(f"{section}-step-{token.info}"))
        elif token.type == "tr_open" and section and i + 2 < len(tokens):
            label = _LABEL.fullmatch(tokens[i + 2].content.strip())
            if tokens[i + 1].type == "td_open" and label:
                token.attrSet("id", unique(f"{section}-{label.group(1).lower()}"))
    return slugs


def _link_target(href: str, page: str, language: str) -> str | None:
    """Where a link of the book goes in the app: another page (its anchor the same in every
    language), a place of this page, or the web as it is; None for a file outside the book."""
    if re.match(r"^[a-z][\w+.-]*:", href):
        return href
    match = _BOOK_LINK.match(href)
    if not match:
        return None
    target = match.group("page") or page
    if target not in page_names():
        return None
    anchor = unquote(match.group("anchor") or "")
    if anchor:
        anchor = anchors(target)[0].get(anchor, anchor)
    where = "" if target == page and not match.group("page") else page_url(target, language)
    return where + (f"#{anchor}" if anchor else "")


def _render(text: str, page: str, language: str, original: tuple[str, ...]) -> Rendered:
    tokens = _MARKDOWN.parse(text)
    ids: set[str] = set()
    slugs = _name_anchors(tokens, ids, original)
    title = next((_plain(tokens[i + 1]) for i, t in enumerate(tokens) if t.type == "heading_open"), page)
    opened: list[Token] = []
    for token in tokens:
        children = token.children or []
        for j, child in enumerate(children):
            if child.type == "softbreak" and 0 < j < len(children) - 1:
                before, after = children[j - 1].content[-1:], children[j + 1].content[:1]
                if _WIDE.match(before) or _WIDE.match(after):
                    child.type, child.content = "text", ""
            elif child.type == "link_open":
                target = _link_target(str(child.attrGet("href") or ""), page, language)
                if target is None:  # a file of the repository, not of the book: its words stay
                    child.tag, child.attrs = "span", {}
                else:
                    child.attrSet("href", target)
                opened.append(child)
            elif child.type == "link_close":
                child.tag = opened.pop().tag
        if token.type == "table_open":  # it scrolls sideways on a phone: reachable by keyboard
            token.attrSet("class", "wide")
            token.attrSet("tabindex", "0")
    body = _MARKDOWN.renderer.render(tokens, _MARKDOWN.options, {})
    return Rendered(title, body, slugs, frozenset(ids))


@functools.lru_cache(maxsize=64)
def _render_file(path: Path, modified: int, page: str, language: str, original: tuple[str, ...]) -> Rendered:
    return _render(path.read_text(encoding="utf-8"), page, language, original)


def rendered(page: str, language: str) -> tuple[Rendered, bool]:
    """``page`` as HTML for a reader of ``language``, and whether it is translated."""
    path, translated = source(page, language)
    original = _heading_order(page) if translated else ()
    return _render_file(path, path.stat().st_mtime_ns, page, language, original), translated


@functools.lru_cache(maxsize=32)
def _file_anchors(path: Path, modified: int) -> tuple[dict[str, str], frozenset[str], tuple[str, ...]]:
    ids: set[str] = set()
    tokens = _MARKDOWN.parse(path.read_text(encoding="utf-8"))
    slugs = _name_anchors(tokens, ids)
    order = tuple(str(t.attrGet("id")) for t in tokens if t.type == "heading_open")
    return slugs, frozenset(ids), order


def _english(page: str) -> tuple[dict[str, str], frozenset[str], tuple[str, ...]]:
    path = BOOK / f"{page}.md"
    return _file_anchors(path, path.stat().st_mtime_ns)


def _heading_order(page: str) -> tuple[str, ...]:
    return _english(page)[2]


def anchors(page: str) -> tuple[dict[str, str], frozenset[str]]:
    """The anchors of a page, the same in every language (the English page's): GitHub's slug
    of each heading → its anchor, and every anchor of the page."""
    slugs, ids, _order = _english(page)
    return slugs, ids


def sections() -> dict[str, str]:
    """Every numbered section of the book → the page that holds it."""
    found: dict[str, str] = {}
    for page in page_names():
        for anchor in anchors(page)[0].values():
            number = re.fullmatch(r"s(\d+(?:-\d+)*)", anchor)
            if number:
                found.setdefault(number.group(1).replace("-", "."), page)
    return found


def page_url(page: str, language: str) -> str:
    """The address of a page of the book in a language."""
    where = "/rules" if page == CONTENTS else f"/rules/{quote(page)}"
    return f"{where}?{urlencode({'lang': language})}"


# ---------------------------------------------------------------- the page around it


@functools.cache
def _language_links() -> str:
    links = []
    for code in i18n.LANGUAGES:
        name = str(Locale.parse(code).get_display_name(code)).capitalize()
        links.append(f'<a href="?lang={code}" hreflang="{code}" lang="{code}">{html.escape(name)}</a>')
    return " · ".join(links)


def _document(language: str, title: str, main: str, status: int = 200) -> HTMLResponse:
    """The rule book's page: the app's header (its language menu comes with ``i18n.js``), then ``main``."""
    esc = html.escape
    book = _word("book", language)
    page = f"""<!doctype html>
<html lang="{language}" data-served-lang="{language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)} · atout</title>
<link rel="stylesheet" href="/static/style.css">
<link rel="stylesheet" href="/static/rulebook.css">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
</head>
<body class="lobby-page rules-page">
<header><a href="/" class="home">atout</a><a href="{esc(page_url(CONTENTS, language))}" class="book">{esc(book)}</a><span class="spacer"></span><noscript><nav class="langs">{_language_links()}</nav></noscript></header>
<main>
{main}
</main>
<script type="module" src="/static/rulebook.js"></script>
</body>
</html>
"""
    headers = {"Vary": "Accept-Language", "Content-Language": language}
    return HTMLResponse(page, status_code=status, headers=headers)


def page_response(page: str, language: str) -> HTMLResponse:
    """A page of the book for a reader of ``language``, with its note and its links back."""
    esc = html.escape
    shown, translated = rendered(page, language)
    parts: list[str] = []
    if translated:
        original_link = f'<a href="{esc(page_url(page, i18n.DEFAULT))}" hreflang="en">{esc(_word("original", language))}</a>'
        parts.append(
            f'<p class="rules-note translated">{esc(_word("translated", language))} {original_link}</p>'
        )
    elif language != i18n.DEFAULT:
        parts.append(f'<p class="rules-note untranslated">{esc(_word("untranslated", language))}</p>')
    content_language = language if translated else i18n.DEFAULT
    parts.append(f'<article class="rules" lang="{content_language}">\n{shown.body}</article>')
    if page == CONTENTS:
        parts.append(f'<p class="rules-back"><a href="/">{esc(_word("lobby", language))}</a></p>')
    else:
        back = esc(page_url(CONTENTS, language))
        parts.append(f'<p class="rules-back"><a href="{back}">{esc(_word("back", language))}</a></p>')
    return _document(language, shown.title, "\n".join(parts))


def missing_response(language: str) -> HTMLResponse:
    """The page of an address that is not in the book (404), with the way to its contents."""
    esc = html.escape
    contents = f'<a href="{esc(page_url(CONTENTS, language))}">{esc(_word("contents", language))}</a>'
    main = f'<section class="panel rules-missing"><h1>{esc(_word("missing", language))}</h1><p>{contents}</p></section>'
    return _document(language, _word("missing", language), main, status=404)


def reader_language(request: Request) -> str:
    """``?lang=`` when it names a language of atout, else the best for the browser's languages."""
    asked = i18n.normalize(request.query_params.get("lang"))
    return asked or i18n.negotiate(request.headers.get("accept-language"))


router = APIRouter(include_in_schema=False)


@router.get("/rules", response_model=None)
async def contents(request: Request) -> HTMLResponse:
    """The rule book's contents: its pages and every section (404 when the book is not installed)."""
    language = reader_language(request)
    if CONTENTS not in page_names():
        return missing_response(language)
    return page_response(CONTENTS, language)


@router.get("/rules/section/{number}", response_model=None)
async def section(number: str, request: Request, part: str | None = None) -> HTMLResponse | RedirectResponse:
    """Sends a reference (``3.8``, part ``step 3``) to its place in the book; 404 when the book
    has no such section."""
    language = reader_language(request)
    page = sections().get(number)
    if page is None:
        return missing_response(language)
    anchor = anchor_of(number)
    if part:
        wanted = anchor_of(number, " ".join(part.split()))
        if wanted in anchors(page)[1]:
            anchor = wanted
    return RedirectResponse(f"{page_url(page, language)}#{anchor}", status_code=307)


@router.get("/rules/{page}", response_model=None)
async def rule_page(page: str, request: Request) -> HTMLResponse:
    """One page of the rule book, e.g. ``/rules/french-tarot``; 404 for a page it has not."""
    language = reader_language(request)
    if page == CONTENTS or page not in page_names():
        return missing_response(language)
    return page_response(page, language)


@router.get("/rules/{rest:path}", response_model=None)
async def beyond(rest: str, request: Request) -> HTMLResponse:
    """Any deeper address under ``/rules``: the rule book's 404 page."""
    return missing_response(reader_language(request))

"""The rule book in docs/rules stays whole: every section the code and the tests cite is a heading
there, every option and preset is explained, every page is in the index, and every worked example
scores as written."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from atout.presets import PRESETS
from atout.rules import Rules
from atout.scoring import parse_summary, score

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "docs" / "rules"
INDEX = "README.md"
THIS_FILE = Path(__file__).resolve()

# ---------------------------------------------------------------- reading the rule book

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_NUMBERED = re.compile(r"§(\d+(?:\.\d+)*)\s+\S")
_FENCE = re.compile(r"^(`{3,}|~{3,})")


@dataclass
class Section:
    """A numbered heading of the rule book and the text under it."""

    number: str
    title: str
    page: str
    level: int
    body: list[str] = field(default_factory=list)

    def labels(self) -> set[str]:
        """What may be cited inside the section: sub-heading names ("V3", "mode B"), table row
        names ("F12", "A4") and the numbers of its ordered list ("step 3")."""
        found: set[str] = set()
        for line in self.body:
            heading = _HEADING.match(line)
            if heading:
                words = heading.group(2).replace("`", "").split()
                if words and re.fullmatch(r"[A-Z]\d+:?", words[0]):
                    found.add(words[0].rstrip(":"))
                if len(words) >= 2 and words[0].lower() == "mode":
                    found.add(f"mode {words[1].rstrip(':')}")
                continue
            row = re.match(r"^\|\s*([A-Z]\d+)\s*\|", line)
            if row:
                found.add(row.group(1))
            step = re.match(r"^(\d+)\.\s", line)
            if step:
                found.add(f"step {step.group(1)}")
        return found


def _lines_outside_code(text: str) -> Iterator[tuple[str, bool]]:
    """Each line with whether it lies outside a fenced code block."""
    fence: str | None = None
    for line in text.splitlines():
        opening = _FENCE.match(line)
        if fence is None and opening:
            fence = opening.group(1)[0]
            yield line, False
        elif fence is not None:
            if line.startswith(fence * 3):
                fence = None
            yield line, False
        else:
            yield line, True


def slug(title: str) -> str:
    """The anchor a Markdown heading gets (GitHub's rule)."""
    text = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return text.replace(" ", "-")


def pages() -> list[Path]:
    return sorted(BOOK.glob("*.md"))


def headings(page: Path) -> list[tuple[int, str]]:
    """The (level, title) of each heading of a page, code blocks skipped."""
    out = []
    for line, prose in _lines_outside_code(page.read_text(encoding="utf-8")):
        match = _HEADING.match(line) if prose else None
        if match:
            out.append((len(match.group(1)), match.group(2)))
    return out


def sections() -> dict[str, Section]:
    """Every numbered section of the rule book by number; a number used twice fails."""
    found: dict[str, Section] = {}
    for page in pages():
        open_sections: list[Section] = []
        for line, prose in _lines_outside_code(page.read_text(encoding="utf-8")):
            match = _HEADING.match(line) if prose else None
            if match:
                level = len(match.group(1))
                open_sections = [s for s in open_sections if s.level < level]
                numbered = _NUMBERED.match(match.group(2))
                if numbered:
                    number = numbered.group(1)
                    if number in found:
                        other = found[number].page
                        pytest.fail(f"§{number} is a heading twice: in {other} and in {page.name}")
                    section = Section(number, match.group(2), page.name, level)
                    found[number] = section
                    for outer in open_sections:
                        outer.body.append(line)
                    open_sections.append(section)
                    continue
            for s in open_sections:
                s.body.append(line if prose else "")
    return found


# ---------------------------------------------------------------- reading citations


@dataclass(frozen=True)
class Citation:
    """One section (and maybe a step, variant, row or mode inside it) cited somewhere."""

    number: str
    label: str | None
    where: str

    def __str__(self) -> str:
        return f"§{self.number}" + (f" {self.label}" if self.label else "")


_NUM = r"\d+(?:\.\d+)*"
_LABEL = r"(?:V\d+|[AF]\d+|(?i:steps?)\s\d+(?:\s?[-–]\s?\d+)?|(?i:mode)\s[A-Z])"
_CITE = re.compile(
    rf"§\s?(?P<num>{_NUM})(?:\s?[-–]\s?§?\s?(?P<to>{_NUM}))?(?P<labels>(?:,?\s{_LABEL}(?![\w.]))*)"
)
_FFT_BEFORE = re.compile(r"FFT\s?(?:2012|12)?\s*$")
_JOINER = re.compile(r"\s*(?:[/,]|and|or|[-–])?\s*")


def _span(first: str, last: str | None) -> list[str]:
    """The sections of a range "§3.10-§3.14" (or "§5.2-5.3", "§3-§4"), both ends included."""
    if last is None:
        return [first]
    a, b = first.split("."), last.split(".")
    if len(a) == len(b) and a[:-1] == b[:-1] and int(a[-1]) <= int(b[-1]):
        prefix = ".".join(a[:-1])
        return [f"{prefix}.{n}" if prefix else str(n) for n in range(int(a[-1]), int(b[-1]) + 1)]
    return [first, last]


def _labels(text: str) -> list[str]:
    out: list[str] = []
    for word in re.findall(_LABEL, text):
        steps = re.fullmatch(r"(?i:steps?)\s(\d+)(?:\s?[-–]\s?(\d+))?", word)
        if steps:
            low, high = int(steps.group(1)), int(steps.group(2) or steps.group(1))
            out.extend(f"step {n}" for n in range(low, high + 1))
        elif word.lower().startswith("mode"):
            out.append(f"mode {word.split()[1]}")
        else:
            out.append(word)
    return out


def citations_in_text(text: str, where: str) -> list[Citation]:
    """The rule book sections a text cites ("rule book §3.8 step 3", "rule book §7 V3", ranges,
    lists); citations of the FFT's own numbering ("FFT 2012 §10", "FFT12 §9/§12") are not ours."""
    out: list[Citation] = []
    previous: re.Match[str] | None = None
    previous_fft = False
    for match in _CITE.finditer(text):
        if previous is not None and _JOINER.fullmatch(text[previous.end() : match.start()]):
            fft = previous_fft
        else:
            fft = bool(_FFT_BEFORE.search(text[max(0, match.start() - 12) : match.start()]))
        previous, previous_fft = match, fft
        if fft:
            continue
        line = text.count("\n", 0, match.start()) + 1
        place = f"{where}:{line}: {match.group(0).strip()!r}"
        numbers = _span(match.group("num"), match.group("to"))
        labels = _labels(match.group("labels"))
        for number in numbers:
            out.append(Citation(number, None, place))
        for label in labels:
            out.append(Citation(numbers[0], label, place))
    return out


_LETTER_SECTIONS = {"V": "7", "A": "6.2", "F": "6.1"}


def _plausible(token: str) -> bool:
    return token.isdigit() and (token == "0" or not token.startswith("0")) and int(token) < 20


def citations_in_test_name(name: str, where: str) -> list[Citation]:
    """The sections a test names at its end, read from the right: ``..._3_8`` is §3.8,
    ``..._3_9_3_11`` §3.9 and §3.11, ``..._3_8_step_2`` §3.8 step 2, ``..._7_v3`` or ``..._v3``
    §7 V3, ``..._6_2_a4`` or ``..._a4`` §6.2 A4, ``..._f10`` §6.1 F10. Reading stops at the first
    word that is not part of a section, or a number no section has (``..._200_3_13``: §3.13)."""
    tokens = name.split("_")[1:]
    place = f"{where}: {name}"
    out: list[Citation] = []
    i = len(tokens)
    while i > 0:
        token = tokens[i - 1]
        letter = re.fullmatch(r"([vaf])(\d+)", token)
        if letter:
            label = token.upper()
            number = _LETTER_SECTIONS[label[0]]
            i -= 1
            prefix = number.split(".")
            if tokens[max(0, i - len(prefix)) : i] == prefix:
                i -= len(prefix)
            out.append(Citation(number, label, place))
        elif i >= 4 and tokens[i - 2] == "step" and token.isdigit() and _plausible(tokens[i - 4]):
            number = f"{tokens[i - 4]}.{tokens[i - 3]}"
            out.append(Citation(number, f"step {token}", place))
            i -= 4
        elif _plausible(token) and i >= 2 and _plausible(tokens[i - 2]) and token != "0":
            out.append(Citation(f"{tokens[i - 2]}.{token}", None, place))
            i -= 2
        elif _plausible(token):
            out.append(Citation(token, None, place))
            i -= 1
        else:
            break
    return out[::-1]


def unresolved(cited: list[Citation], book: dict[str, Section]) -> list[str]:
    """One line per citation the rule book cannot answer, naming the missing section."""
    labels = {number: s.labels() for number, s in book.items()}
    out: list[str] = []
    for c in cited:
        if c.number not in book:
            out.append(f"§{c.number} has no heading in docs/rules (cited at {c.where})")
        elif c.label is not None and c.label not in labels[c.number]:
            page = book[c.number].page
            out.append(f"{c} is not in §{c.number} of {page} (cited at {c.where})")
    return out


def _python_files(*roots: Path) -> Iterator[Path]:
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            if path.resolve() != THIS_FILE:
                yield path


def _relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


# ---------------------------------------------------------------- the parsers themselves


def test_citations_are_read_in_every_form_the_code_uses() -> None:
    text = (
        "(rule book §3.8 step 3: must follow suit) rule book §7 V3, §3.10-§3.14, §5.2-5.3: "
        "§7 V1 V5 V6 V8; §3.8 steps 1-4; §4.3 mode B; §3.7/§7; FFT 2012 §10; FFT12 §9/§12; FFT §11"
    )
    got = [str(c) for c in citations_in_text(text, "x")]
    assert got == [
        "§3.8", "§3.8 step 3", "§7", "§7 V3",
        "§3.10", "§3.11", "§3.12", "§3.13", "§3.14", "§5.2", "§5.3",
        "§7", "§7 V1", "§7 V5", "§7 V6", "§7 V8",
        "§3.8", "§3.8 step 1", "§3.8 step 2", "§3.8 step 3", "§3.8 step 4",
        "§4.3", "§4.3 mode B", "§3.7", "§7",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("test_excuse_is_kept_3_9", ["§3.9"]),
        ("test_announced_chelem_made_with_defence_excuse_counts_87_3_9_3_11", ["§3.9", "§3.11"]),
        ("test_any_card_may_be_led_3_8_step_2", ["§3.8 step 2"]),
        ("test_forbid_trull_discard_bans_skus_21_and_pagat_6_2_a4", ["§6.2 A4"]),
        ("test_jack_3_negative_margin_counts_zero_a1", ["§6.2 A1"]),
        ("test_equal_split_alone_is_still_4d_v10", ["§7 V10"]),
        ("test_pousse_is_refused_7_v1", ["§7 V1"]),
        ("test_slam_failed_f15", ["§6.1 F15"]),
        ("test_announced_chelem_failed_costs_the_announcer_200_3_13", ["§3.13"]),
        ("test_defaults_may_be_left_out_9", ["§9"]),
        ("test_japanese_preset_follows_seed_000_6_1", ["§6.1"]),
        ("test_no_section_here", []),
    ],
)
def test_test_names_are_read_from_the_right(name: str, expected: list[str]) -> None:
    assert [str(c) for c in citations_in_test_name(name, "x")] == expected


def test_a_missing_section_is_named_in_the_failure() -> None:
    book = sections()
    cited = citations_in_text("see rule book §3.15 and rule book §3.8 step 9 and §7 V11", "here.py")
    problems = unresolved(cited, book)
    assert len(problems) == 3
    assert problems[0].startswith("§3.15 has no heading in docs/rules (cited at here.py:1:")
    assert problems[1].startswith("§3.8 step 9 is not in §3.8 of french-tarot.md")
    assert problems[2].startswith("§7 V11 is not in §7 of variants.md")


# ---------------------------------------------------------------- citations resolve


def test_every_section_the_code_cites_is_a_heading_of_the_rule_book() -> None:
    book = sections()
    cited = [
        c
        for path in _python_files(ROOT / "src" / "atout")
        for c in citations_in_text(path.read_text(encoding="utf-8"), _relative(path))
    ]
    assert len(cited) > 100
    assert unresolved(cited, book) == []


def test_every_section_the_tests_cite_is_a_heading_of_the_rule_book() -> None:
    book = sections()
    cited: list[Citation] = []
    names = 0
    for path in _python_files(ROOT / "tests"):
        text = path.read_text(encoding="utf-8")
        cited += citations_in_text(text, _relative(path))
        for name in re.findall(r"def (test_\w+)", text):
            names += 1
            cited += citations_in_test_name(name, _relative(path))
    assert names > 500 and len(cited) > 300
    assert unresolved(cited, book) == []


def test_every_section_the_rule_book_cites_is_in_it() -> None:
    book = sections()
    cited = [
        c
        for page in pages()
        for c in citations_in_text(page.read_text(encoding="utf-8"), f"docs/rules/{page.name}")
    ]
    assert unresolved(cited, book) == []


def test_the_sections_of_the_code_keep_their_rules_md_numbers() -> None:
    book = sections()
    expected = {
        "3.8": "playing a card",
        "3.9": "the excuse",
        "3.13": "the scoring formula",
        "4.3": "five players",
        "4.4": "two players",
        "5.7": "the score as atout keeps it",
        "8": "options",
        "9": "deal summaries",
    }
    for number, title in expected.items():
        assert book[number].title.lower() == f"§{number} {title}"


# ---------------------------------------------------------------- options and presets


def _shown(value: Any) -> str:
    """A default as the options page writes it."""
    if value is None:
        return "off"
    if isinstance(value, str):
        return value
    return json.dumps(value)


def _option_sections() -> dict[str, str]:
    """The text under each ``### `name` `` heading of the options page, whitespace collapsed."""
    out: dict[str, str] = {}
    current: str | None = None
    for line, prose in _lines_outside_code((BOOK / "options.md").read_text(encoding="utf-8")):
        heading = _HEADING.match(line) if prose else None
        if heading:
            name = re.fullmatch(r"`(\w+)`", heading.group(2))
            current = name.group(1) if name else None
            if current:
                out[current] = ""
            continue
        if current:
            out[current] += " " + line
    return {k: " ".join(v.split()) for k, v in out.items()}


def test_every_option_is_explained_with_its_default() -> None:
    explained = _option_sections()
    defaults = Rules().to_dict()
    for option in dataclasses.fields(Rules):
        assert option.name in explained, f"option {option.name} has no heading on docs/rules/options.md"
        default = f"Default: `{_shown(defaults[option.name])}`"
        assert default in explained[option.name], f"{option.name}: the page should say {default}"
    assert set(explained) == {f.name for f in dataclasses.fields(Rules)}


def test_every_preset_is_on_the_presets_page_with_what_it_sets() -> None:
    text = (BOOK / "variants.md").read_text(encoding="utf-8")
    body = text.split("\n## Presets\n", 1)[1].split("\n## ", 1)[0]
    parts = re.split(r"^### `([\w-]+)`$", body, flags=re.MULTILINE)
    described = {parts[i]: " ".join(parts[i + 1].split()) for i in range(1, len(parts), 2)}
    assert set(described) == {p.name for p in PRESETS}
    for p in PRESETS:
        for alias in p.aliases:
            assert f"`{alias}`" in described[p.name], f"preset {p.name}: alias {alias} not named"
        for option, value in p.options.items():
            setting = f"`{option}={_shown(value)}`"
            assert setting in described[p.name], f"preset {p.name}: {setting} not named"


# ---------------------------------------------------------------- the index and the links

_LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_every_page_is_linked_from_the_index() -> None:
    index = (BOOK / INDEX).read_text(encoding="utf-8")
    linked = {target.split("#")[0] for target in _LINK.findall(index)}
    for page in pages():
        if page.name != INDEX:
            assert page.name in linked, f"docs/rules/{page.name} is not linked from docs/rules/{INDEX}"


def test_the_index_lists_every_section_with_its_page() -> None:
    index = (BOOK / INDEX).read_text(encoding="utf-8")
    rows = re.findall(r"^\| §(\S+) \| \[[^\]]+\]\(([^)#]*)#([^)]+)\)", index, re.MULTILINE)
    listed = {number: (page or INDEX, anchor) for number, page, anchor in rows}
    assert len(listed) == len(rows), "a section is listed twice in the index"
    book = sections()
    for number, section in book.items():
        assert number in listed, f"§{number} ({section.page}) is missing from the index"
        assert listed[number] == (section.page, slug(section.title)), f"§{number}: wrong page or anchor"
    assert set(listed) == set(book)


def test_every_link_of_the_rule_book_reaches_a_page_and_a_heading() -> None:
    for page in pages():
        for target in _LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"\w+:", target):
                continue
            path, _, anchor = target.partition("#")
            linked = (BOOK / path).resolve() if path else page
            assert linked.is_file(), f"{page.name}: link to a missing file {target}"
            if anchor and linked.suffix == ".md":
                anchors = {slug(title) for _, title in headings(linked)}
                assert anchor in anchors, f"{page.name}: link to a missing heading {target}"


# ---------------------------------------------------------------- worked examples


def _examples() -> Iterator[Any]:
    """Each ```json summary of the rule book with the "Scores:" line under it."""
    for page in pages():
        lines = page.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if line.strip() != "```json":
                continue
            end = lines.index("```", i + 1)
            after = next((x for x in lines[end + 1 :] if x.strip()), "")
            yield pytest.param("\n".join(lines[i + 1 : end]), after, id=f"{page.stem}:{i + 1}")


def _numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"[+-]?\d+", text.replace("−", "-"))]


@pytest.mark.parametrize(("summary", "scores_line"), list(_examples()))
def test_every_worked_example_scores_as_written(summary: str, scores_line: str) -> None:
    assert scores_line.startswith("Scores:"), "a ```json example needs a 'Scores:' line under it"
    assert score(parse_summary(json.loads(summary))) == _numbers(scores_line.removeprefix("Scores:"))


def test_there_are_worked_examples_for_every_game() -> None:
    names = {p.id.split(":")[0] for p in _examples() if p.id}
    assert {"french-tarot", "three-players", "five-players", "two-players", "austrian-tarock"} <= names


def test_every_format_example_is_a_summary_that_can_happen() -> None:
    text = (BOOK / "deal-summary.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```jsonc\n(.*?)```", text, re.DOTALL)
    assert len(blocks) == 3
    for block in blocks:
        parse_summary(json.loads(block))


def _table_scores(text: str) -> dict[str, list[int]]:
    """Case id → scores from the worked-case tables (a zero-sum column gives the "z" case)."""
    out: dict[str, list[int]] = {}
    columns: list[str] = []
    for line in text.splitlines():
        if not line.startswith("|"):
            columns = []
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "case":
            columns = cells
        elif columns and re.fullmatch(r"[A-Z]+\d*-\d+\w?", cells[0]):
            out[cells[0]] = _numbers(cells[columns.index("scores")])
            if "zero-sum scores" in columns:
                out[cells[0] + "z"] = _numbers(cells[columns.index("zero-sum scores")])
    return out


def test_the_worked_case_tables_match_the_repository_cases() -> None:
    cases = json.loads((ROOT / "tests" / "scoring" / "worked_cases.json").read_text(encoding="utf-8"))
    table = _table_scores((BOOK / "deal-summary.md").read_text(encoding="utf-8"))
    assert set(table) == {c["id"] for c in cases}
    for case in cases:
        assert table[case["id"]] == case["expected"]["scores"], case["id"]

"""One CR text (a full CR or a face-down extract) parsed into clauses and glossary entries."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kb.cr.numbers import is_under, parent_of, sort_key
from kb.cr.text import normalise
from kb.errors import InputError
from kb.normalize import parse_date

_SECTION = re.compile(r"^(\d)\.\s+(\S.*)$")  # "7. Additional Rules"
_RULE3 = re.compile(r"^(\d{3})\.\s+(\S.*)$")  # "708. Face-Down Spells and Permanents"
_RULE = re.compile(r"^(\d{3}\.\d+)\.\s+(\S.*)$")  # "708.2. Face-down spells ..."
_SUBRULE = re.compile(r"^(\d{3}\.\d+[a-z])\.?\s+(\S.*)$")  # "708.2a If a face-up ..."
_EFFECTIVE = re.compile(r"effective as of ([A-Z][a-z]+ \d{1,2}, \d{4})")
# An extract's part headings: "## Section 708. Face-Down Spells and Permanents (complete)" (it holds that
# section or rule whole), "## Manifest Dread: no rule with this heading in this version" (it has none)
_WHOLE = re.compile(r"^##\s+(?:Section|Rule)\s+(\d{3}(?:\.\d+)?)\.\s.*\(complete\)\s*$", re.IGNORECASE)
_ABSENT = re.compile(r"^##\s+(\S.*?):\s+(?:no rule with this heading|not) in this version\.?\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Clause:
    """One numbered rule of one CR version, with the examples printed under it."""

    number: str
    text: str
    examples: tuple[str, ...]
    parent: str | None
    version: str  # ISO date the CR took effect

    @property
    def full_text(self) -> str:
        return "\n".join((self.text, *(f"Example: {e}" for e in self.examples)))


@dataclass(frozen=True, slots=True)
class GlossaryEntry:
    term: str
    text: str
    version: str


@dataclass(slots=True)
class RulesVersion:
    """One CR as published on `date`. `complete` is False for an extract (face-down rules only); an
    extract names the sections and rules it holds whole (`whole`: "708", "701.34") and the rule
    headings the CR has no rule for (`absent`: "manifest dread"), so what it lacks there, the CR lacked."""

    date: str
    clauses: dict[str, Clause]
    glossary: dict[str, GlossaryEntry]
    complete: bool = True
    whole: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()

    def __contains__(self, number: str) -> bool:
        return number in self.clauses

    def numbers(self) -> list[str]:
        return sorted(self.clauses, key=sort_key)

    def section(self, prefix: str) -> list[Clause]:
        """The clause `prefix` and every clause under it, in document order."""
        return [self.clauses[n] for n in self.numbers() if is_under(n, prefix)]


def effective_date(text: str) -> str | None:
    """The ISO date in the "These rules are effective as of <date>." line, if any."""
    m = _EFFECTIVE.search(text[:4000])
    if not m:
        return None
    return parse_date(m.group(1))


@dataclass(slots=True)
class _Draft:
    """The clause being read: its number, its text so far and its examples."""

    number: str
    text: str
    examples: list[str] = field(default_factory=list)


def parse_rules(text: str, date: str | None = None) -> RulesVersion:
    """Parse a full CR text (contents, rules, glossary, credits) or a face-down extract.

    The table of contents repeats section titles; it is skipped by starting at the second
    occurrence of the first section heading. Lines starting `Example:` belong to the clause above.
    """
    date = date or effective_date(text)
    if not date:
        raise InputError("no effective date in the rules text and none given")
    lines = text.splitlines()
    extract = any(line.startswith("## ") for line in lines[:20])
    start, glossary_start, end = _body_bounds(lines, extract)
    clauses: dict[str, Clause] = {}
    current: _Draft | None = None

    def flush() -> None:
        if current is not None and current.number not in clauses:
            clauses[current.number] = Clause(current.number, current.text, tuple(current.examples),
                                             parent_of(current.number), date)

    for raw in lines[start:glossary_start]:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _SUBRULE.match(line) or _RULE.match(line) or _RULE3.match(line) or _SECTION.match(line)
        if m:
            flush()
            current = _Draft(m.group(1), normalise(m.group(2)))
        elif line.startswith("Example:") and current is not None:
            current.examples.append(normalise(line[len("Example:"):]))
        elif current is not None:  # a continuation paragraph
            current.text = f"{current.text} {normalise(line)}"
    flush()
    glossary = _parse_glossary(lines[glossary_start:end], date)
    if not extract:
        return RulesVersion(date, clauses, glossary)
    heads = [line.strip() for line in lines[start:glossary_start] if line.startswith("## ")]
    whole = tuple(m.group(1) for m in map(_WHOLE.match, heads) if m)
    absent = tuple(heading_key(m.group(1)) for m in map(_ABSENT.match, heads) if m)
    return RulesVersion(date, clauses, glossary, complete=False, whole=whole, absent=absent)


def heading_key(title: str) -> str:
    """A rule's heading as an extract names it, compared without case or spacing ("Manifest Dread")."""
    return " ".join(normalise(title).casefold().split())


def _body_bounds(lines: list[str], extract: bool) -> tuple[int, int, int]:
    stripped = [line.strip() for line in lines]
    if extract:
        g = next((i for i, s in enumerate(stripped) if s.startswith("## Glossary")), len(lines))
        return 0, g, len(lines)
    first = next((i for i, s in enumerate(stripped) if _SECTION.match(s)), None)
    if first is None:
        return 0, len(lines), len(lines)
    heading = stripped[first]
    second = next((i for i in range(first + 1, len(stripped)) if stripped[i] == heading), first)
    glossary = [i for i, s in enumerate(stripped) if s == "Glossary" and i > second]
    g = glossary[0] if glossary else len(lines)
    credits = [i for i, s in enumerate(stripped) if s == "Credits" and i > g]
    return second, g, credits[0] if credits else len(lines)


def _parse_glossary(lines: list[str], date: str) -> dict[str, GlossaryEntry]:
    out: dict[str, GlossaryEntry] = {}
    block: list[str] = []
    for raw in [*lines, ""]:
        line = raw.strip()
        if line and not line.startswith("#") and line != "Glossary":
            block.append(normalise(line))
            continue
        if len(block) >= 2:
            out.setdefault(block[0], GlossaryEntry(block[0], " ".join(block[1:]), date))
        block = []
    return out

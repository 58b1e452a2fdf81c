"""The Comprehensive Rules across versions: parsing, clause identity, wording history, matching.

A CR text is parsed into `Clause`s (numbered rules with their examples) and `GlossaryEntry`s.
`load_rules` reads every version bundled in `corpus/rules/` (full texts, plus face-down extracts for
dates that have no full text) and aligns each version's clauses with the clauses seen before, by
text similarity with number and parent structure as tie-breakers. A clause's identity is its
*lineage*: the same rule under whatever number it had in each version (707.2a in 2018 is 708.2a).
"""

from __future__ import annotations

import bisect
import difflib
import functools
import math
import re
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Iterable, Iterator

from kb.errors import InputError, NotFoundError

# --------------------------------------------------------------------------------------------
# Clause numbers

_SECTION = re.compile(r"^(\d)\.\s+(\S.*)$")  # "7. Additional Rules"
_RULE3 = re.compile(r"^(\d{3})\.\s+(\S.*)$")  # "708. Face-Down Spells and Permanents"
_RULE = re.compile(r"^(\d{3}\.\d+)\.\s+(\S.*)$")  # "708.2. Face-down spells ..."
_SUBRULE = re.compile(r"^(\d{3}\.\d+[a-z])\.?\s+(\S.*)$")  # "708.2a If a face-up ..."
_NUMBER = re.compile(r"^(\d)(?:(\d\d)(?:\.(\d+)([a-z])?)?)?$")
_EFFECTIVE = re.compile(r"effective as of ([A-Z][a-z]+ \d{1,2}, \d{4})")


def parent_of(number: str) -> str | None:
    """`708.2a` -> `708.2` -> `708` -> `7` -> None."""
    if m := re.fullmatch(r"(\d{3}\.\d+)[a-z]", number):
        return m.group(1)
    if m := re.fullmatch(r"(\d{3})\.\d+", number):
        return m.group(1)
    if re.fullmatch(r"\d{3}", number):
        return number[0]
    return None


def sort_key(number: str) -> tuple[int, int, int, str]:
    """Document order of clause numbers: 708.2 < 708.2a < 708.10."""
    m = _NUMBER.match(number)
    if not m:
        return (99, 99, 9999, number)
    sec, rule, sub, letter = m.groups()
    return (int(sec), int(rule) if rule is not None else -1, int(sub) if sub else -1, letter or "")


def depth_of(number: str) -> int:
    """0 for `7`, 1 for `708`, 2 for `708.2`, 3 for `708.2a`."""
    if "." not in number:
        return 0 if len(number) == 1 else 1
    return 3 if number[-1].isalpha() else 2


# --------------------------------------------------------------------------------------------
# Text normalisation

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2014": "-",
                         "\u2013": "-", "\u2212": "-", "\u00a0": " "})
_WORD = re.compile(r"[a-z0-9{}/+\-']+")


def normalise(text: str) -> str:
    """NFKC, plain quotes, single spaces, no surrounding space: how texts are compared."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    return " ".join(text.split())


def tokens(text: str) -> list[str]:
    """Lower-case word tokens of `text` (quotes normalised, trailing punctuation dropped)."""
    return [w.strip("'-") for w in _WORD.findall(normalise(text).lower()) if w.strip("'-")]


def _shingles(toks: list[str]) -> set[str]:
    return set(toks) | {f"{a} {b}" for a, b in zip(toks, toks[1:])}


def similarity(a: str, b: str) -> float:
    """Dice coefficient over word unigrams and bigrams: 1.0 for the same wording."""
    sa, sb = _shingles(tokens(a)), _shingles(tokens(b))
    return _dice(sa, sb)


def _dice(sa: set[str], sb: set[str]) -> float:
    if not sa or not sb:
        return 0.0
    return 2 * len(sa & sb) / (len(sa) + len(sb))


# --------------------------------------------------------------------------------------------
# Parsed versions


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
    """One CR as published on `date`. `complete` is False for an extract (face-down rules only)."""

    date: str
    clauses: dict[str, Clause]
    glossary: dict[str, GlossaryEntry]
    complete: bool = True

    def __contains__(self, number: str) -> bool:
        return number in self.clauses

    def numbers(self) -> list[str]:
        return sorted(self.clauses, key=sort_key)

    def section(self, prefix: str) -> list[Clause]:
        """The clause `prefix` and every clause under it, in document order."""
        return [self.clauses[n] for n in self.numbers() if _is_under(n, prefix)]


def _is_under(number: str, prefix: str) -> bool:
    n: str | None = number
    while n is not None:
        if n == prefix:
            return True
        n = parent_of(n)
    return False


def effective_date(text: str) -> str | None:
    """The ISO date in the "These rules are effective as of <date>." line, if any."""
    m = _EFFECTIVE.search(text[:4000])
    if not m:
        return None
    return datetime.strptime(m.group(1), "%B %d, %Y").date().isoformat()


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
    current: list | None = None  # [number, text, examples]

    def flush() -> None:
        if current is not None and current[0] not in clauses:
            clauses[current[0]] = Clause(current[0], current[1], tuple(current[2]),
                                         parent_of(current[0]), date)

    for raw in lines[start:glossary_start]:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _SUBRULE.match(line) or _RULE.match(line) or _RULE3.match(line) or _SECTION.match(line)
        if m:
            flush()
            current = [m.group(1), normalise(m.group(2)), []]
        elif line.startswith("Example:") and current is not None:
            current[2].append(normalise(line[len("Example:"):]))
        elif current is not None:  # a continuation paragraph
            current[1] = f"{current[1]} {normalise(line)}"
    flush()
    glossary = _parse_glossary(lines[glossary_start:end], date)
    return RulesVersion(date, clauses, glossary, complete=not extract)


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


# --------------------------------------------------------------------------------------------
# match_clause: is a text (a copy of) a clause of the current CR?

MATCH_THRESHOLD = 0.8


class _ClauseMatcher:
    """An inverted index of word bigrams over one version's clause texts."""

    def __init__(self, version: RulesVersion) -> None:
        self.version = version
        self.exact: dict[str, str] = {}
        self.shingles: dict[str, set[str]] = {}
        self.postings: dict[str, list[str]] = defaultdict(list)
        for number in version.numbers():
            clause = version.clauses[number]
            if depth_of(number) < 2:
                continue  # headings are titles, not rule texts
            self.exact.setdefault(_key(clause.text), number)
            sh = _shingles(tokens(clause.text))
            self.shingles[number] = sh
            for s in sh:
                if " " in s:
                    self.postings[s].append(number)
        self.df_limit = max(20, len(self.shingles) // 50)

    def match(self, text: str) -> tuple[str, float] | None:
        key = _key(text)
        if not key:
            return None
        if key in self.exact:
            return self.exact[key], 1.0
        q = _shingles(tokens(text))
        counts: Counter[str] = Counter()
        for s in q:
            if " " in s:
                post = self.postings.get(s, ())
                if len(post) <= self.df_limit:
                    counts.update(post)
        best: tuple[str, float] | None = None
        for number, _ in counts.most_common(20):
            sc = _dice(q, self.shingles[number])
            if best is None or sc > best[1]:
                best = (number, sc)
        if best and best[1] >= MATCH_THRESHOLD:
            return best[0], round(best[1], 4)
        return None


def _key(text: str) -> str:
    return " ".join(tokens(text))


@functools.lru_cache(maxsize=4)
def _matcher_for(corpus_dir: str | None) -> _ClauseMatcher:
    return _ClauseMatcher(load_current(Path(corpus_dir) if corpus_dir else None))


def match_clause(text: str, corpus_dir: Path | None = None) -> tuple[str, float] | None:
    """The current clause number and a similarity in (0, 1] when `text` is a copy of a clause of
    the current CR (quotes, spaces and case may differ), else None (e.g. for a ruling)."""
    return _matcher_for(str(corpus_dir) if corpus_dir else None).match(text)


# --------------------------------------------------------------------------------------------
# Loading


def rules_dir(corpus_dir: Path | None = None) -> Path:
    from kb.paths import corpus_dir as default_corpus

    return (corpus_dir or default_corpus()) / "rules"


_FILE = re.compile(r"^CR-(\d{4})(\d\d)(\d\d)(-facedown-extract)?\.txt$")


def _rule_files(corpus_dir: Path | None) -> list[tuple[str, bool, Path]]:
    """(date, is_extract, path) for every CR file; an extract only where no full text exists."""
    folder = rules_dir(corpus_dir)
    if not folder.is_dir():
        raise NotFoundError(f"no rules folder at {folder}")
    found: dict[str, tuple[str, bool, Path]] = {}
    for path in sorted(folder.iterdir()):
        m = _FILE.match(path.name)
        if not m:
            continue
        date = f"{m.group(1)}-{m.group(2)}-{m.group(3)}"
        extract = bool(m.group(4))
        if date not in found or (found[date][1] and not extract):
            found[date] = (date, extract, path)
    if not found:
        raise NotFoundError(f"no CR-YYYYMMDD.txt files in {folder}")
    return [found[d] for d in sorted(found)]


def load_current(corpus_dir: Path | None = None) -> RulesVersion:
    """The newest complete CR only (fast: no alignment)."""
    full = [f for f in _rule_files(corpus_dir) if not f[1]]
    if not full:
        raise NotFoundError("no complete CR text in the corpus")
    date, _, path = full[-1]
    return parse_rules(path.read_text(encoding="utf-8"), date)

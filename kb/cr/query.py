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
CONTAINED_THRESHOLD = 0.95  # share of an excerpt's words and bigrams found in one clause
CONTAINED_MIN_WORDS = 12


class _ClauseMatcher:
    """An inverted index of word bigrams over one version's clause texts."""

    def __init__(self, version: RulesVersion) -> None:
        self.version = version
        self.exact: dict[str, str] = {}
        self.shingles: dict[str, set[str]] = {}
        self.postings: dict[str, list[str]] = defaultdict(list)
        for number in version.numbers():
            clause = version.clauses[number]
            if depth_of(number) < 2 or is_title(clause.text):
                continue  # headings ("701.23. Search") are titles, not rule texts
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
        long_enough = len(key.split()) >= CONTAINED_MIN_WORDS
        for number, _ in counts.most_common(20):
            cand = self.shingles[number]
            sc = _dice(q, cand)
            # A long enough excerpt (one sentence of a clause) counts as a copy too.
            if long_enough and len(q & cand) / len(q) >= CONTAINED_THRESHOLD:
                sc = max(sc, MATCH_THRESHOLD)
            if best is None or sc > best[1]:
                best = (number, sc)
        if best and best[1] >= MATCH_THRESHOLD:
            return best[0], round(best[1], 4)
        return None


def is_title(text: str) -> bool:
    """A heading such as "Face-Down Spells and Permanents" or "Manifest", not a sentence."""
    return len(text.split()) <= 8 and not text.rstrip().endswith((".", ":", ")", '"', "'"))


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


# --------------------------------------------------------------------------------------------
# Clause identity across versions

_ACCEPT = 0.5  # text similarity that alone makes two clauses the same rule
_ACCEPT_IN_PLACE = 0.25  # ... when the clause also sits under the same parent with the same suffix


@dataclass(frozen=True, slots=True)
class HistoryStep:
    """A clause as it stood in one version: its number then, its text, and whether it changed."""

    date: str
    number: str
    text: str
    change: str  # "added" (first seen), "unchanged", "reworded", "renumbered", "renumbered+reworded"


@dataclass(frozen=True, slots=True)
class ClauseHistory:
    current: str | None  # number in the current CR, None when the rule was removed
    steps: tuple[HistoryStep, ...]
    removed_after: str | None = None  # date of the last version that has it, when removed

    @property
    def first_seen(self) -> str:
        return self.steps[0].date

    def numbers(self) -> list[str]:
        """The distinct numbers the clause had, oldest first (e.g. 701.31, 701.33, 701.34, 701.40)."""
        out: list[str] = []
        for step in self.steps:
            if not out or out[-1] != step.number:
                out.append(step.number)
        return out

    def changes(self) -> list[HistoryStep]:
        return [s for s in self.steps if s.change != "unchanged"]


@dataclass(frozen=True, slots=True)
class ClauseChange:
    kind: str  # "added", "removed", "reworded", "renumbered", "renumbered+reworded", "unchanged"
    before: Clause | None
    after: Clause | None


@dataclass(frozen=True, slots=True)
class SectionDiff:
    date_a: str
    date_b: str
    section_a: str | None
    section_b: str
    changes: tuple[ClauseChange, ...]


@dataclass(slots=True)
class RulesCorpus:
    """Every bundled CR version (oldest first) with the clause identity between them."""

    versions: list[RulesVersion]
    # (version date, number) -> lineage id; lineage id -> [(date, number), ...] oldest first
    lineage: dict[tuple[str, str], int] = field(default_factory=dict)
    members: dict[int, list[tuple[str, str]]] = field(default_factory=dict)

    @property
    def current(self) -> RulesVersion:
        return [v for v in self.versions if v.complete][-1]

    @property
    def dates(self) -> list[str]:
        return [v.date for v in self.versions]

    def version(self, date: str) -> RulesVersion:
        """The version published exactly on `date`."""
        for v in self.versions:
            if v.date == date:
                return v
        raise NotFoundError(f"no CR of {date}; versions: {', '.join(self.dates)}")

    def in_force(self, at: str, complete: bool = False) -> RulesVersion:
        """The version in force on date `at` (the newest published on or before it)."""
        _check_date(at)
        pool = [v for v in self.versions if v.complete or not complete]
        i = bisect.bisect_right([v.date for v in pool], at)
        if i == 0:
            raise NotFoundError(f"no CR in the corpus was in force on {at}; the oldest is {pool[0].date}")
        return pool[i - 1]

    def clause(self, number: str, at: str | None = None) -> Clause:
        """Current clause `number`, or (with `at`) the same rule as it stood in the CR in force on
        `at`, whatever its number was then."""
        lid = self._lid(number, self.current)
        if at is None:
            return self.current.clauses[number]
        found = self._member_at(lid, at)
        if found is None:
            raise NotFoundError(f"clause {number} was not in the CR in force on {at}")
        return self.version(found[0]).clauses[found[1]]

    def number_at(self, number: str, at: str | None) -> str | None:
        """The number that current clause `number` had in the CR in force on `at` (None: not yet)."""
        if at is None:
            return number
        lid = self.lineage.get((self.current.date, number))
        if lid is None:
            return None
        try:
            found = self._member_at(lid, at)
        except NotFoundError:
            return None
        return found[1] if found else None

    def history(self, number: str, at: str | None = None) -> ClauseHistory:
        """The wording of clause `number` (numbered as in the CR in force on `at`, default the
        current CR) in every version that has it, oldest first."""
        version = self.current if at is None else self.in_force(at)
        lid = self._lid(number, version)
        steps: list[HistoryStep] = []
        for date, num in self.members[lid]:
            text = self.version(date).clauses[num].text
            if not steps:
                change = "added"
            else:
                prev = steps[-1]
                renum, reword = prev.number != num, _key(prev.text) != _key(text)
                change = ("renumbered+reworded" if renum and reword else "renumbered" if renum
                          else "reworded" if reword else "unchanged")
            steps.append(HistoryStep(date, num, text, change))
        last_date, last_num = self.members[lid][-1]
        current = last_num if last_date == self.current.date else None
        return ClauseHistory(current, tuple(steps), None if current else last_date)

    def diff(self, date_a: str, date_b: str, section: str) -> SectionDiff:
        """What changed in `section` (numbered as in the later version) between two versions."""
        a, b = self.version(date_a), self.version(date_b)
        if a.date > b.date:
            a, b = b, a
        if section not in b.clauses:
            raise NotFoundError(_missing(section, b))
        lid = self.lineage[(b.date, section)]
        section_a = next((n for d, n in self.members[lid] if d == a.date), None)
        after = b.section(section)
        before = a.section(section_a) if section_a else []
        by_lid_a = {self.lineage[(a.date, c.number)]: c for c in before}
        changes: list[ClauseChange] = []
        seen: set[int] = set()
        for c in after:
            l = self.lineage[(b.date, c.number)]
            old = by_lid_a.get(l)
            if old is None:
                num_a = next((n for d, n in self.members[l] if d == a.date), None)
                old = a.clauses[num_a] if num_a else None
            seen.add(l)
            changes.append(ClauseChange(_change_kind(old, c), old, c))
        for l, old in by_lid_a.items():
            if l not in seen:
                changes.append(ClauseChange("removed", old, None))
        return SectionDiff(a.date, b.date, section_a, section, tuple(changes))

    def nearest(self, number: str, version: RulesVersion | None = None, k: int = 2) -> list[str]:
        return _nearest(number, version or self.current, k)

    def _lid(self, number: str, version: RulesVersion) -> int:
        if number not in version.clauses:
            raise NotFoundError(_missing(number, version))
        return self.lineage[(version.date, number)]

    def _member_at(self, lid: int, at: str) -> tuple[str, str] | None:
        """The lineage member in the newest version on or before `at` that has the clause;
        None when the complete CR in force then did not have it yet (or any more)."""
        in_force = self.in_force(at, complete=True)
        best = None
        for date, num in self.members[lid]:
            if date <= at and date >= in_force.date:
                best = (date, num)
        if best is None:
            # the clause may be absent from the complete version but present in an extract later
            # than it; otherwise it did not exist then
            return None
        return best


def _change_kind(old: Clause | None, new: Clause) -> str:
    if old is None:
        return "added"
    renum, reword = old.number != new.number, _key(old.text) != _key(new.text)
    if renum and reword:
        return "renumbered+reworded"
    return "renumbered" if renum else "reworded" if reword else "unchanged"


def _check_date(date: str) -> None:
    try:
        datetime.strptime(date, "%Y-%m-%d")
    except ValueError:
        raise InputError(f"not a date (YYYY-MM-DD): {date!r}") from None


def _missing(number: str, version: RulesVersion) -> str:
    near = _nearest(number, version, 2)
    hint = f"; nearest: {', '.join(near)}" if near else ""
    return f"no clause {number} in the CR of {version.date}{hint}"


def _nearest(number: str, version: RulesVersion, k: int) -> list[str]:
    """Existing numbers closest to `number`: fewest typing edits first, then numerically."""
    target = sort_key(number)

    def distance(n: str) -> tuple[int, int, int, int, int, int]:
        key = sort_key(n)
        return (key[:2] != target[:2], _edits(number, n), abs(key[0] - target[0]), abs(key[1] - target[1]),
                abs(key[2] - target[2]), abs(ord(key[3] or "`") - ord(target[3] or "`")))

    return sorted(sorted(version.clauses, key=distance)[:k], key=sort_key)


def _edits(a: str, b: str) -> int:
    """Levenshtein distance."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def _suffix(number: str) -> str:
    parent = parent_of(number)
    return number[len(parent):].lstrip(".") if parent else number


def align(versions: Iterable[RulesVersion]) -> tuple[dict[tuple[str, str], int], dict[int, list[tuple[str, str]]]]:
    """Assign every clause of every version to a lineage (the same rule across versions).

    Each version is matched against the newest known wording of every live lineage, level by
    level (sections, rules, subrules), greedily by score: text similarity, plus bonuses when the
    parent is the same lineage, the suffix (`a` of `708.2a`) is the same, or the number is the same.
    A complete version ends the lineages it lacks; an extract leaves them alive.
    """
    lineage: dict[tuple[str, str], int] = {}
    members: dict[int, list[tuple[str, str]]] = {}
    heads: dict[int, Clause] = {}  # live lineages -> newest clause
    shingle_cache: dict[str, set[str]] = {}
    key_cache: dict[str, str] = {}

    def sh(text: str) -> set[str]:
        s = shingle_cache.get(text)
        if s is None:
            s = shingle_cache[text] = _shingles(tokens(text))
        return s

    def key(text: str) -> str:
        k = key_cache.get(text)
        if k is None:
            k = key_cache[text] = _key(text)
        return k

    for version in versions:
        head_lid = {c.number: lid for lid, c in heads.items()}
        mapping: dict[str, int] = {}  # number in this version -> lid
        used: set[int] = set()
        for depth in range(4):
            clauses = [c for c in version.clauses.values() if depth_of(c.number) == depth]
            pool = {lid: c for lid, c in heads.items() if depth_of(c.number) == depth and lid not in used}
            by_key: dict[str, list[int]] = defaultdict(list)
            postings: dict[str, list[int]] = defaultdict(list)
            in_place: dict[tuple[int | None, str], list[int]] = defaultdict(list)
            for lid, c in pool.items():
                by_key[key(c.text)].append(lid)
                if c.parent:
                    in_place[(head_lid.get(c.parent), _suffix(c.number))].append(lid)
                for s in sh(c.text):
                    if " " in s:
                        postings[s].append(lid)
            df_limit = max(10, len(pool) // 100)
            pairs: list[tuple[float, str, int]] = []
            for c in clauses:
                parent_lid = mapping.get(c.parent) if c.parent else None
                suffix = _suffix(c.number)
                cands: set[int] = set(by_key.get(key(c.text), ()))
                if c.number in head_lid and head_lid[c.number] in pool:
                    cands.add(head_lid[c.number])
                counts: Counter[int] = Counter()
                mine = sh(c.text)
                for s in mine:
                    if " " in s and len(postings.get(s, ())) <= df_limit:
                        counts.update(postings[s])
                cands.update(lid for lid, _ in counts.most_common(8))
                if parent_lid is not None:
                    cands.update(in_place.get((parent_lid, suffix), ()))
                for lid in cands:
                    h = pool[lid]
                    sim = 1.0 if key(h.text) == key(c.text) else _dice(mine, sh(h.text))
                    same_parent = c.parent is None or (parent_lid is not None and head_lid.get(h.parent or "") == parent_lid)
                    same_suffix = _suffix(h.number) == suffix
                    if sim < _ACCEPT and not (same_parent and same_suffix and (sim >= _ACCEPT_IN_PLACE or depth <= 1)):
                        continue
                    score = sim + 0.1 * same_parent + 0.05 * same_suffix + 0.02 * (h.number == c.number)
                    pairs.append((score, c.number, lid))
            pairs.sort(key=lambda p: (-p[0], sort_key(p[1]), p[2]))
            for _, number, lid in pairs:
                if number in mapping or lid in used:
                    continue
                mapping[number] = lid
                used.add(lid)
            for c in clauses:
                if c.number not in mapping:
                    lid = len(members)
                    members[lid] = []
                    mapping[c.number] = lid
        for number, lid in mapping.items():
            lineage[(version.date, number)] = lid
            members[lid].append((version.date, number))
            heads[lid] = version.clauses[number]
        if version.complete:
            heads = {lid: c for lid, c in heads.items() if lid in set(mapping.values())}
    return lineage, members


@functools.lru_cache(maxsize=4)
def _load_cached(corpus_dir: str | None) -> RulesCorpus:
    from kb.disk_cache import cached

    folder = Path(corpus_dir) if corpus_dir else None
    files = [path for _, _, path in _rule_files(folder)]
    return cached("rules", [*files, *sorted(Path(__file__).parent.glob("*.py"))], lambda: _load_uncached(folder))


def _load_uncached(folder: Path | None) -> RulesCorpus:
    versions = [parse_rules(path.read_text(encoding="utf-8"), date) for date, _, path in _rule_files(folder)]
    for v, (_, extract, _) in zip(versions, _rule_files(folder)):
        v.complete = not extract
    lineage, members = align(versions)
    return RulesCorpus(versions, lineage, members)


def load_rules(corpus_dir: Path | None = None) -> RulesCorpus:
    """Every CR version in `<corpus>/rules/`, aligned (cached per corpus folder)."""
    return _load_cached(str(corpus_dir) if corpus_dir else None)


# --------------------------------------------------------------------------------------------
# Word diffs


def word_diff(a: str, b: str) -> list[tuple[str, str]]:
    """(op, text) runs turning `a` into `b` word by word; op is "equal", "delete" or "insert"."""
    wa, wb = a.split(), b.split()
    out: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, wa, wb, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(("equal", " ".join(wa[i1:i2])))
        else:
            if i2 > i1:
                out.append(("delete", " ".join(wa[i1:i2])))
            if j2 > j1:
                out.append(("insert", " ".join(wb[j1:j2])))
    return out

"""Link entries to the Comprehensive Rules clauses they interpret.

A rule entry links to its own clause. A ruling is scored against every clause of the current CR by
BM25 over the clause texts, by the rare word n-grams it shares with a clause, and by keyword cues
(phrases that judges associate with a clause: "tapped or untapped" -> 110.5). The reviewed override
file `corpus/links-overrides.yaml` then corrects individual rulings, found by a quote of their text.
Each link carries the number the clause had in the CR in force on the ruling's first date.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from kb.bm25 import BM25Matrix
from kb.cr import RulesCorpus, RulesVersion, depth_of, is_title, normalise, tokens
from kb.errors import InputError
from kb.model import Entry, Kind, Lang, RuleLink

MAX_LINKS = 5
KEEP_RATIO = 0.45  # links scoring under this share of the best one are dropped

_STOP = frozenset(
    "a an the of to and or in on at by for is it its it's be are was were that this these those as "
    "with from if then than can can't doesn't don't won't isn't any all each other another such "
    "you your you'll you're they their them there which who what when while would will may must "
    "not no so but also only even just still one two has have had been being do does did into "
    "onto up down see rule rules".split()
)


# --------------------------------------------------------------------------------------------
# Cues: phrases that point at a clause whatever else the ruling says. English and German.


@dataclass(frozen=True, slots=True)
class Cue:
    pattern: re.Pattern[str]
    clauses: tuple[str, ...]  # best first
    label: str
    weight: float = 0.7  # topical cues ("manifest") weigh less than pointed ones ("look at")
    # (first, then) pairs equivalent to `pattern` = "first.*then|...": see `_ordered`
    ordered: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = ()

    def found_in(self, text: str) -> bool:
        if not self.ordered:
            return self.pattern.search(text) is not None
        # `.` stops at a newline, so "first.*then" holds within one line: some `then` match starts
        # at or after the end of the earliest `first` match (each `first` here matches one word
        # form, so its leftmost match also ends first).
        return any((m := first.search(line)) is not None and then.search(line, m.end()) is not None
                   for line in text.split("\n") for first, then in self.ordered)


def _cue(pattern: str, clauses: str, label: str | None = None, weight: float = 0.7) -> Cue:
    return Cue(re.compile(pattern, re.I), tuple(clauses.split()), label or pattern, weight)


def _ordered(pairs: Sequence[tuple[str, str]], clauses: str, label: str) -> Cue:
    """A cue "a.*b|c.*d" tested pair by pair: the regex backtracks over the whole text for each `a`
    (seconds on an entry with hundreds of variants), the pairs cost two linear searches."""
    pattern = "|".join(f"{a}.*{b}" for a, b in pairs)
    return Cue(re.compile(pattern, re.I), tuple(clauses.split()), label,
               ordered=tuple((re.compile(a, re.I), re.compile(b, re.I)) for a, b in pairs))


CUES: tuple[Cue, ...] = (
    _cue(r"special action", "701.40b 116.2b 708.7", "special action"),
    _cue(r"copiable values?|a copy of a face-down", "708.2a 708.2 707.2 708.10", "copiable values"),
    _ordered([(r"\breveal(?:ed|s)?\b", r"\b(?:leaves?|leave the game|game ends)"),
              (r"\b(?:leaves?|leave the game)\b", r"\breveal")], "708.9", "reveal when it leaves"),
    _cue(r"\blook at\b", "708.5", "look at"),
    _cue(r"enters-the-battlefield abilit|enters the battlefield", "708.8 708.3", "enters-the-battlefield"),
    _cue(r"tapped or untapped", "110.5", "tapped or untapped"),
    _cue(r"double-faced", "712.15 712.16", "double-faced"),
    _cue(r"\b(?:aura|form|enchant\w*)\b.*graveyard.*state-based|state-based.*\b(?:aura|enchant\w*)\b",
         "704.5m", "Aura to the graveyard as a state-based action"),
    _cue(r"\bmanifest(?:s|ed|ing)?\b", "701.40*", "manifest", weight=0.25),
    _cue(r"\bmorph cost", "701.40c 702.37e", "morph cost"),
    _cue(r"turns? a face-down instant or sorcery|instant or sorcery card\b[^.]*\bturns? face up",
         "701.40g", "instant or sorcery face up"),
    _cue(r"one at a time", "701.40e", "one at a time"),
    _cue(r"differentiat|distinguish|mix up|order they entered", "708.6", "keep face-down objects apart"),
    _cue(r"\bno name\b|don't have (?:a )?names?|2/2 creature", "708.2a", "face-down characteristics"),
    _cue(r"same permanent|continue to enchant|auras and equipment", "708.8", "effects survive turning face up"),
    _cue(r"leave the game", "800.4a", "leaving the game"),
    _cue(r"top card of (?:your|their|that) library revealed", "401.5", "top card revealed"),
    # German
    _cue(r"\banschauen\b", "708.5", "anschauen (look at)"),
    _cue(r"unterschieden", "708.6", "unterschieden (differentiated)"),
    _cue(r"getappt oder ungetappt", "110.5", "getappt oder ungetappt (tapped or untapped)"),
    _cue(r"offenlegen", "708.9", "offenlegen (reveal)"),
    _cue(r"morphkosten", "701.40c 702.37e", "Morphkosten (morph cost)"),
    _cue(r"ins spiel kommt|das schlachtfeld betritt", "708.8 708.3", "ins Spiel kommt (enters)"),
    _cue(r"dieselbe bleibende karte", "708.8", "dieselbe bleibende Karte (same permanent)"),
)
_FACE_DOWN = re.compile(r"face[- ]down|face up|manifest|morph|disguise|cloak|verdeckt|aufgedeckt|manifestiert",
                        re.I)
SECTION_BONUS = 0.15  # a face-down ruling prefers the face-down rules (708, 701.40, 702.37, ...)
_FACE_DOWN_RULES = ("708", "701.40", "701.58", "701.62", "702.37", "702.168", "712.15", "712.16")


# --------------------------------------------------------------------------------------------
# The lexical index


class _Index:
    """BM25 and rare trigrams over the numbered clauses (not headings) of one CR version."""

    def __init__(self, version: RulesVersion) -> None:
        self.version = version
        self.numbers = [n for n in version.numbers()
                        if depth_of(n) >= 2 and not is_title(version.clauses[n].text)]
        docs = [_content(version.clauses[n].text) for n in self.numbers]
        self.bm25 = BM25Matrix.build(docs)
        self.trigrams: list[set[tuple[str, str, str]]] = []
        df: Counter[tuple[str, str, str]] = Counter()
        for n in self.numbers:
            grams = _trigrams(tokens(version.clauses[n].text))
            self.trigrams.append(grams)
            df.update(grams)
        self.rare = {g for g, c in df.items() if c <= 5}
        self._expanded: dict[tuple[str, ...], list[tuple[int, str]]] = {}

    def expand(self, clauses: tuple[str, ...]) -> list[tuple[int, str]]:
        """`_expand` of a cue's clauses, once per cue: a `701.40*` walk costs ~50 ms."""
        if clauses not in self._expanded:
            self._expanded[clauses] = _expand(clauses, self.version)
        return self._expanded[clauses]

    def scores(self, text: str) -> np.ndarray:
        return self.bm25.scores(_content(text))


def _content(text: str) -> list[str]:
    return [_stem(t) for t in tokens(text) if t not in _STOP and not t.isdigit()]


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def _trigrams(toks: Sequence[str]) -> set[tuple[str, str, str]]:
    return {(a, b, c) for a, b, c in zip(toks, toks[1:], toks[2:]) if not {a, b, c} <= _STOP}


_INDEXES: dict[tuple[str, int], _Index] = {}


def _index_for(rules: RulesCorpus) -> _Index:
    key = (rules.current.date, len(rules.current.clauses))
    if key not in _INDEXES:
        _INDEXES[key] = _Index(rules.current)
    return _INDEXES[key]


# --------------------------------------------------------------------------------------------
# Scoring one ruling


@dataclass(frozen=True, slots=True)
class Candidate:
    clause: str
    score: float
    evidence: str


def rank_clauses(text: str, rules: RulesCorpus, *, english: bool = True) -> list[Candidate]:
    """Clauses of the current CR for a ruling text, best first, with the evidence for each."""
    index = _index_for(rules)
    cues: dict[str, list[str]] = {}
    cue_score: dict[str, float] = {}
    for cue in CUES:
        if cue.found_in(text):
            for rank, clause in index.expand(cue.clauses):
                if clause in rules.current.clauses:
                    cues.setdefault(clause, []).append(f'cue "{cue.label}"' + ("" if rank == 0 else f" (#{rank + 1})"))
                    cue_score[clause] = max(cue_score.get(clause, 0.0), cue.weight / (1 + 0.5 * rank))
    face_down = bool(_FACE_DOWN.search(text))

    lexical: dict[str, float] = {}
    shared: dict[str, list[str]] = {}
    if english:
        raw = index.scores(text)
        top = float(raw.max()) if len(raw) else 0.0
        order = np.argsort(-raw, kind="stable")[:30].tolist()  # stable: ties keep clause order
        grams = _trigrams(tokens(text))
        for i in order:
            if top <= 0 or raw[i] <= 0:
                break
            number = index.numbers[i]
            lexical[number] = float(raw[i]) / top
            common = sorted(" ".join(g) for g in grams & index.trigrams[i] & index.rare)
            if common:
                shared[number] = common

    out: list[Candidate] = []
    for number in set(lexical) | set(cues):
        score = 0.5 * lexical.get(number, 0.0)
        score += 0.1 * min(len(shared.get(number, ())), 3) / 3
        score += cue_score.get(number, 0.0)
        if face_down and number.startswith(_FACE_DOWN_RULES):
            score += SECTION_BONUS
        evidence: list[str] = list(cues.get(number, ()))
        if shared.get(number):
            evidence.append("shared phrases: " + "; ".join(f'"{p}"' for p in shared[number][:3]))
        if number in lexical:
            evidence.append(f"BM25 {lexical[number]:.2f} of best")
        out.append(Candidate(number, float(score), ", ".join(evidence)))
    out.sort(key=lambda c: (-c.score, c.clause))
    return out


def _expand(clauses: Sequence[str], version: RulesVersion) -> list[tuple[int, str]]:
    """(rank, clause) pairs; `701.40*` stands for every subrule of 701.40, all at one rank."""
    out: list[tuple[int, str]] = []
    for rank, clause in enumerate(clauses):
        if clause.endswith("*"):
            out += [(rank, c.number) for c in version.section(clause[:-1]) if c.number != clause[:-1]]
        else:
            out.append((rank, clause))
    return out


def _select(candidates: list[Candidate]) -> list[Candidate]:
    if not candidates:
        return []
    best = candidates[0].score
    return [c for c in candidates[:MAX_LINKS] if c.score >= KEEP_RATIO * best]


# --------------------------------------------------------------------------------------------
# Overrides


@dataclass(frozen=True, slots=True)
class Override:
    """A reviewed correction for the ruling(s) whose text contains `quote`."""

    quote: str
    clauses: tuple[str, ...] = ()  # replaces the automatic links, best first
    add: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()
    note: str = ""

    def matches(self, entry: Entry) -> bool:
        q = _fold(self.quote)
        return any(q in _fold(t) for t in (entry.text, *(v.text for v in entry.variants)))


def _fold(text: str) -> str:
    return normalise(text).casefold()


def parse_overrides(text: str, source: str = "links-overrides.yaml") -> list[Override]:
    """Overrides from YAML text: a list of {quote, clauses | add | remove, note}."""
    import yaml

    try:
        doc = yaml.safe_load(text) or []
    except yaml.YAMLError as e:
        raise InputError(f"{source}: not valid YAML ({e})") from None
    if not isinstance(doc, list):
        raise InputError(f"{source}: expected a list of overrides")
    out = []
    for i, item in enumerate(doc, 1):
        if not isinstance(item, dict) or not isinstance(item.get("quote"), str) or not item["quote"].strip():
            raise InputError(f"{source}: override #{i} needs a `quote` (a piece of the ruling's text)")
        fields = {k: tuple(str(c) for c in item.get(k) or ()) for k in ("clauses", "add", "remove")}
        if not any(fields.values()):
            raise InputError(f"{source}: override #{i} ({item['quote'][:40]!r}) changes nothing")
        out.append(Override(item["quote"], note=str(item.get("note", "")), **fields))
    return out


def load_overrides(corpus_dir: Path | None = None) -> list[Override]:
    from kb.paths import corpus_dir as default_corpus

    path = (corpus_dir or default_corpus()) / "links-overrides.yaml"
    if not path.is_file():
        return []
    return parse_overrides(path.read_text(encoding="utf-8"), str(path.name))


def _apply(override: Override, links: list[Candidate], rules: RulesCorpus) -> list[Candidate]:
    for number in (*override.clauses, *override.add):
        if number not in rules.current.clauses:
            raise InputError(f"links-overrides.yaml: {override.quote[:40]!r} names unknown clause {number}")
    note = f"reviewed override{': ' + override.note if override.note else ''}"
    if override.clauses:
        auto = {c.clause: c for c in links}
        links = [Candidate(n, 1.0 - 0.01 * i, note + (f"; {auto[n].evidence}" if n in auto and auto[n].evidence else ""))
                 for i, n in enumerate(override.clauses)]
    links = [c for c in links if c.clause not in override.remove]
    have = {c.clause for c in links}
    floor = min((c.score for c in links), default=1.0)
    links += [Candidate(n, floor * 0.99, note) for n in override.add if n not in have]
    return links


# --------------------------------------------------------------------------------------------
# Entry point


def link_entries(entries: list[Entry], rules: RulesCorpus,
                 overrides: Iterable[Override] | None = None) -> list[Entry]:
    """Entries with `rules` set: rule entries to their own clause, rulings to ranked clauses.

    `overrides` defaults to `corpus/links-overrides.yaml`; pass `[]` for automatic links only.
    """
    overrides = load_overrides() if overrides is None else list(overrides)
    out = []
    for entry in entries:
        links = link_candidates(entry, rules)
        for override in overrides:
            if entry.kind is Kind.RULING and override.matches(entry):
                links = _apply(override, links, rules)
        rule_links = tuple(
            RuleLink(c.clause, round(min(c.score, 1.0), 4), rules.number_at(c.clause, entry.first_date), c.evidence)
            for c in links)
        out.append(dataclasses.replace(entry, rules=rule_links))
    return out


def link_candidates(entry: Entry, rules: RulesCorpus) -> list[Candidate]:
    """The automatic links of one entry, best first (never empty for a ruling)."""
    if entry.kind is Kind.RULE:
        if entry.clause and entry.clause in rules.current.clauses:
            return [Candidate(entry.clause, 1.0, "the entry is this clause's text")]
        return []
    english = [v.text for v in entry.variants if v.lang is Lang.EN]
    text = english[-1] if english else entry.text
    # cues also read the other-language wordings, lexical scores need English
    cue_text = " ".join([entry.text, *(v.text for v in entry.variants)])
    found = rank_clauses(text if english else cue_text, rules, english=bool(english))
    if english:
        extra = {c.clause: c for c in rank_clauses(cue_text, rules, english=False)}
        found = _merge(found, extra)
    chosen = _select(found)
    if not chosen:
        fallback = "708" if _FACE_DOWN.search(cue_text) else None
        if fallback:
            chosen = [Candidate(fallback, 0.1, "fallback: the ruling is about face-down objects")]
        else:
            ranked = rank_clauses(cue_text, rules, english=True)
            chosen = ranked[:1] or [Candidate("100.1", 0.01, "fallback: no lexical evidence")]
    return chosen


def _merge(found: list[Candidate], extra: dict[str, Candidate]) -> list[Candidate]:
    have = {c.clause for c in found}
    merged = list(found) + [c for n, c in extra.items() if n not in have]
    merged.sort(key=lambda c: (-c.score, c.clause))
    return merged


def precision_recall(predicted: dict[str, Sequence[str]], gold: dict[str, Sequence[str]]) -> dict[str, Any]:
    """P@1 (top link is one of the gold clauses), strict P@1 (top link is the first gold clause),
    recall (share of gold clauses among the links), over the items of `gold`."""
    n = len(gold)
    hits = strict = found = total = 0
    for key, want in gold.items():
        got = list(predicted.get(key, ()))
        if got and got[0] in want:
            hits += 1
        if got and got[0] == want[0]:
            strict += 1
        found += sum(1 for c in want if c in got)
        total += len(want)
    return {"items": n, "p_at_1": hits / n if n else math.nan, "strict_p_at_1": strict / n if n else math.nan,
            "recall": found / total if total else math.nan}

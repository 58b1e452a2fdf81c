"""Clause identity across versions: which clause of each CR is the same rule as which of the last.

A clause's identity is its *lineage*: the same rule under whatever number it had in each version
(707.2a in 2018 is 708.2a). Versions are aligned oldest first; each is matched against the newest
known wording (the *head*) of every live lineage, level by level (sections, rules, subrules),
greedily by score.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Iterable

from kb.cr.numbers import depth_of, sort_key, suffix_of
from kb.cr.parse import Clause, RulesVersion
from kb.cr.text import dice, shingles, tokens, wording_key

Lineage = dict[tuple[str, str], int]  # (version date, number) -> lineage id
Members = dict[int, list[tuple[str, str]]]  # lineage id -> [(date, number), ...] oldest first

_ACCEPT = 0.5  # text similarity that alone makes two clauses the same rule
_ACCEPT_IN_PLACE = 0.25  # ... when the clause also sits under the same parent with the same suffix
# Under another parent, a clause continues a head only when the words and bigrams few heads hold
# (at most `_RARE`) agree this much: the steps' "Second, the active player gets priority" sentences
# differ by an ordinal, and a restructured step's would otherwise continue another step's (tryout46 D1).
_ACCEPT_AWAY = 0.3
_RARE = 3
_CANDIDATES_BY_TEXT = 8  # heads sharing the most uncommon bigrams with a clause, scored for it


class _Texts:
    """Shingles and wording keys, computed once per distinct text: texts repeat across versions."""

    def __init__(self) -> None:
        self._shingles: dict[str, set[str]] = {}
        self._keys: dict[str, str] = {}

    def shingles(self, text: str) -> set[str]:
        s = self._shingles.get(text)
        if s is None:
            s = self._shingles[text] = shingles(tokens(text))
        return s

    def key(self, text: str) -> str:
        k = self._keys.get(text)
        if k is None:
            k = self._keys[text] = wording_key(text)
        return k


@dataclass(slots=True)
class _Pool:
    """The live lineages of one depth not matched yet, indexed to find a clause's candidates."""

    heads: dict[int, Clause]  # lineage id -> its newest clause
    by_key: dict[str, list[int]]  # wording key -> lineage ids
    postings: dict[str, list[int]]  # word bigram -> lineage ids
    in_place: dict[tuple[int | None, str], list[int]]  # (parent's lineage id, suffix) -> lineage ids
    df_limit: int  # a bigram in more heads than this is too common to suggest a candidate
    df: Counter[str]  # word or bigram -> the heads holding it


@dataclass(slots=True)
class _Alignment:
    """One version's clauses being assigned to lineages."""

    head_lid: dict[str, int]  # number of a live head -> its lineage id
    mapping: dict[str, int]  # number in this version -> lineage id
    used: set[int]  # lineage ids already given to a clause of this version


def align(versions: Iterable[RulesVersion]) -> tuple[Lineage, Members]:
    """Assign every clause of every version to a lineage (the same rule across versions).

    A clause's score for a lineage is text similarity, plus bonuses when the parent is the same
    lineage, the suffix (`a` of `708.2a`) is the same, or the number is the same. A complete
    version ends the lineages it lacks; an extract leaves them alive.
    """
    lineage: Lineage = {}
    members: Members = {}
    heads: dict[int, Clause] = {}  # live lineages -> newest clause
    texts = _Texts()
    for version in versions:
        mapping = _align_version(version, heads, len(members), texts)
        for number, lid in mapping.items():
            lineage[(version.date, number)] = lid
            members.setdefault(lid, []).append((version.date, number))
            heads[lid] = version.clauses[number]
        if version.complete:
            live = set(mapping.values())
            heads = {lid: c for lid, c in heads.items() if lid in live}
    return lineage, members


def _align_version(version: RulesVersion, heads: dict[int, Clause], next_lid: int, texts: _Texts) -> dict[str, int]:
    """Each clause number of `version` -> its lineage id, sections first, then rules, then
    subrules (a clause's parent is placed before it). A clause no head continues starts a new
    lineage, numbered from `next_lid` on."""
    state = _Alignment({c.number: lid for lid, c in heads.items()}, {}, set())
    for depth in range(4):
        clauses = [c for c in version.clauses.values() if depth_of(c.number) == depth]
        pool = _pool_at(depth, heads, state, texts)
        _assign_best_first(_scored_pairs(clauses, pool, state, texts), state)
        for c in clauses:
            if c.number not in state.mapping:
                state.mapping[c.number] = next_lid
                next_lid += 1
    return state.mapping


def _pool_at(depth: int, heads: dict[int, Clause], state: _Alignment, texts: _Texts) -> _Pool:
    """The heads of depth `depth` that no clause of this version has taken yet, indexed."""
    pool = {lid: c for lid, c in heads.items() if depth_of(c.number) == depth and lid not in state.used}
    by_key: dict[str, list[int]] = defaultdict(list)
    postings: dict[str, list[int]] = defaultdict(list)
    in_place: dict[tuple[int | None, str], list[int]] = defaultdict(list)
    df: Counter[str] = Counter()
    for lid, c in pool.items():
        by_key[texts.key(c.text)].append(lid)
        if c.parent:
            in_place[(state.head_lid.get(c.parent), suffix_of(c.number))].append(lid)
        df.update(texts.shingles(c.text))
        for s in texts.shingles(c.text):
            if " " in s:
                postings[s].append(lid)
    return _Pool(pool, by_key, postings, in_place, max(10, len(pool) // 100), df)


def _scored_pairs(clauses: list[Clause], pool: _Pool, state: _Alignment, texts: _Texts) -> list[tuple[float, str, int]]:
    """(score, clause number, lineage id) for every acceptable pairing of a clause with a head."""
    pairs: list[tuple[float, str, int]] = []
    for c in clauses:
        parent_lid = state.mapping.get(c.parent) if c.parent else None
        for lid in _candidates(c, parent_lid, pool, state, texts):
            score = _score(c, pool.heads[lid], parent_lid, state, texts, pool.df)
            if score is not None:
                pairs.append((score, c.number, lid))
    return pairs


def _candidates(c: Clause, parent_lid: int | None, pool: _Pool, state: _Alignment, texts: _Texts) -> set[int]:
    """The heads worth scoring for `c`: the same wording, the same number, the most bigrams in
    common, and the same place (suffix under the same parent lineage)."""
    cands: set[int] = set(pool.by_key.get(texts.key(c.text), ()))
    same_number = state.head_lid.get(c.number)
    if same_number is not None and same_number in pool.heads:
        cands.add(same_number)
    counts: Counter[int] = Counter()
    for s in texts.shingles(c.text):
        if " " in s and len(pool.postings.get(s, ())) <= pool.df_limit:
            counts.update(pool.postings.get(s, ()))
    cands.update(lid for lid, _ in counts.most_common(_CANDIDATES_BY_TEXT))
    if parent_lid is not None:
        cands.update(pool.in_place.get((parent_lid, suffix_of(c.number)), ()))
    return cands


def _score(c: Clause, head: Clause, parent_lid: int | None, state: _Alignment, texts: _Texts,
           df: Counter[str]) -> float | None:
    """How well `head` continues as `c`; None when they are not the same rule. A weak text match
    is accepted in place (same parent lineage and suffix), and any match in place for sections
    and three-digit rules, whose titles may change completely; a match under another parent needs
    distinctive words in common (`_ACCEPT_AWAY`)."""
    same_wording = texts.key(head.text) == texts.key(c.text)
    sim = 1.0 if same_wording else dice(texts.shingles(c.text), texts.shingles(head.text))
    same_parent = c.parent is None or (parent_lid is not None and state.head_lid.get(head.parent or "") == parent_lid)
    same_suffix = suffix_of(head.number) == suffix_of(c.number)
    in_place = same_parent and same_suffix
    if sim < _ACCEPT and not (in_place and (sim >= _ACCEPT_IN_PLACE or depth_of(c.number) <= 1)):
        return None
    if not same_parent and not same_wording and _distinctive(c, head, texts, df) < _ACCEPT_AWAY:
        return None
    return sim + 0.1 * same_parent + 0.05 * same_suffix + 0.02 * (head.number == c.number)


def _distinctive(c: Clause, head: Clause, texts: _Texts, df: Counter[str]) -> float:
    """The similarity of two wordings over the words and bigrams few heads hold (`_RARE`): what a
    rule that moved keeps of its own, not the sentence many rules share."""
    rare = [{s for s in texts.shingles(x.text) if df[s] <= _RARE} for x in (c, head)]
    return dice(rare[0], rare[1])


def _assign_best_first(pairs: list[tuple[float, str, int]], state: _Alignment) -> None:
    """Give each clause the lineage of its best pair, best pairs first, each lineage once."""
    pairs.sort(key=lambda p: (-p[0], sort_key(p[1]), p[2]))
    for _, number, lid in pairs:
        if number in state.mapping or lid in state.used:
            continue
        state.mapping[number] = lid
        state.used.add(lid)

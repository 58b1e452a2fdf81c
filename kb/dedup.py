"""Deduplication: every parsed record becomes a variant of exactly one canonical entry.

Three steps, each explainable by a similarity that is stored on the variant:

1. exact duplicates: records whose wording is the same once case, punctuation and spacing are
   ignored (`match_key`) form one group, across pages, cards and sources;
2. revisions: English ruling groups whose wordings align word by word (difflib ratio, or the
   shorter wording contained in the longer one) are one ruling reworded. Candidates come from an
   inverted index of rare word 3-grams, so the work grows with the number of rulings, not its square;
3. translations: a German or Spanish ruling joins the English entry it translates. Candidates are
   the entries the same card page should hold at the same date (a card page lists each ruling
   once, in English or translated), ranked by multilingual-e5 similarity and assigned one to one.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Iterable, Sequence

from kb.embed import Embedder
from kb.model import Entry, Kind, Lang, Record, Relation, Variant
from kb.normalize import match_key
from kb.terminology import Terminology

SHINGLE = 3
MAX_SHINGLE_DF = 64  # a 3-gram in more groups than this says nothing about which two are the same ruling
MAX_CANDIDATES = 32
REVISION_RATIO = 0.80  # word-level alignment of two wordings
REVISION_CONTAINED = 0.90  # ... or the shorter wording almost wholly inside the longer one
REVISION_CONTAINED_RATIO = 0.55
TRANSLATION_MIN_COSINE = 0.80


@dataclass
class _Group:
    """Records with the same wording (same kind, same match key)."""

    key: str
    kind: Kind
    records: list[Record]

    @property
    def lang(self) -> Lang:
        return self.records[0].lang

    @property
    def words(self) -> list[str]:
        return self.key.split()

    @property
    def newest(self) -> str:
        return max((r.date or "" for r in self.records), default="")


class _UnionFind:
    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def wording_similarity(a: Sequence[str], b: Sequence[str]) -> tuple[float, float]:
    """(ratio, containment) of two word sequences: how well they align, and how much of the shorter is in the longer."""
    sm = SequenceMatcher(None, a, b, autojunk=False)
    matched = sum(block.size for block in sm.get_matching_blocks())
    return sm.ratio(), matched / max(1, min(len(a), len(b)))


def is_revision(ratio: float, contained: float) -> bool:
    return ratio >= REVISION_RATIO or (contained >= REVISION_CONTAINED and ratio >= REVISION_CONTAINED_RATIO)


def _group_exact(records: Iterable[Record]) -> list[_Group]:
    groups: dict[tuple[Kind, str], _Group] = {}
    for record in records:
        key = match_key(record.text)
        groups.setdefault((record.kind, key), _Group(key, record.kind, [])).records.append(record)
    return list(groups.values())


def _revision_pairs(groups: list[_Group]) -> Iterable[tuple[int, int, float]]:
    """Pairs of English ruling groups that are one ruling reworded, with their similarity."""
    shingles: list[set[tuple[str, ...]]] = []
    index: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for i, group in enumerate(groups):
        w = group.words
        grams = {tuple(w[j:j + SHINGLE]) for j in range(max(1, len(w) - SHINGLE + 1))}
        shingles.append(grams)
        for gram in grams:
            index[gram].append(i)
    for i, grams in enumerate(shingles):
        shared: Counter[int] = Counter()
        for gram in grams:
            posting = index[gram]
            if len(posting) <= MAX_SHINGLE_DF:
                shared.update(j for j in posting if j > i)
        # Most shared 3-grams first; ties by index, so the candidates never depend on set order.
        for j, _ in sorted(shared.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_CANDIDATES]:
            ratio, contained = wording_similarity(groups[i].words, groups[j].words)
            if is_revision(ratio, contained):
                yield i, j, ratio


def _align_translations(foreign: list[_Group], clusters: list[list[_Group]],
                        embedder: Embedder | None) -> dict[int, tuple[int, float]]:
    """For each foreign group (by index), the English cluster it translates and the cosine."""
    if not foreign or not clusters or embedder is None:
        return {}
    # What each cluster holds in English: by (card, date), and per (source, date) for exclusion.
    by_card_date: dict[tuple[str | None, str | None], set[int]] = defaultdict(set)
    on_page: dict[tuple[str, str | None], set[int]] = defaultdict(set)
    for c, cluster in enumerate(clusters):
        for group in cluster:
            for r in group.records:
                by_card_date[(r.card, r.date)].add(c)
                by_card_date[(r.card, None)].add(c)
                on_page[(r.source, r.date)].add(c)

    wanted: dict[int, list[int]] = {}
    for f, group in enumerate(foreign):
        r = group.records[0]
        candidates = by_card_date.get((r.card, r.date), set()) - on_page.get((r.source, r.date), set())
        if not candidates:
            candidates = by_card_date.get((r.card, None), set())
        wanted[f] = sorted(candidates) if candidates else list(range(len(clusters)))

    english_text = {c: max(cluster, key=lambda g: (g.newest, len(g.records))).records[0].text
                    for c, cluster in enumerate(clusters)}
    needed = sorted({c for cands in wanted.values() for c in cands})
    # e5's symmetric-task prompt ("query: " on both sides) aligns translations best.
    en_vecs = dict(zip(needed, embedder.embed_queries([english_text[c] for c in needed])))
    f_vecs = embedder.embed_queries([g.records[0].text for g in foreign])

    scored = sorted(
        ((float(f_vecs[f] @ en_vecs[c]), f, c) for f, cands in wanted.items() for c in cands),
        key=lambda t: (-t[0], t[1], t[2]),
    )
    taken: set[tuple[str, int]] = set()  # (source, cluster): a page translates a ruling once
    result: dict[int, tuple[int, float]] = {}
    for score, f, c in scored:
        source = foreign[f].records[0].source
        if f in result or (source, c) in taken or score < TRANSLATION_MIN_COSINE:
            continue
        result[f] = (c, score)
        taken.add((source, c))
    return result


def _entry_id(kind: Kind, basis: str, used: set[str]) -> str:
    prefix = "r" if kind is Kind.RULING else "c"
    digest = hashlib.sha1(basis.encode()).hexdigest()
    for extra in range(len(digest) - 10):
        candidate = f"{prefix}-{digest[extra:extra + 10]}"
        if candidate not in used:
            used.add(candidate)
            return candidate
    raise AssertionError("sha1 ran out of ids")  # pragma: no cover


def _variant(record: Record, relation: Relation, similarity: float) -> Variant:
    return Variant(text=record.text, original=record.original, lang=record.lang, date=record.date,
                   source=record.source, line=record.line, relation=relation, similarity=similarity,
                   card=record.card)


def _make_entry(cluster: list[_Group], translations: list[tuple[_Group, float]],
                terminology: Terminology, used_ids: set[str]) -> Entry:
    english = [g for g in cluster if g.lang is Lang.EN] or cluster
    # Canonical: the newest wording; on a tie, the one with no obsolete term, then the most attested.
    canonical = max(english, key=lambda g: (g.newest, -len(terminology.obsolete_in(g.key)), len(g.records),
                                            _neg_key(g.key)))
    variants: list[Variant] = []
    first_canonical = min(canonical.records, key=_record_order)
    for group in cluster:
        if group is canonical:
            for r in group.records:
                variants.append(_variant(r, Relation.CANONICAL if r is first_canonical else Relation.DUPLICATE, 1.0))
        else:
            ratio, _ = wording_similarity(group.words, canonical.words)
            relation = Relation.REVISION if group.lang is canonical.lang else Relation.TRANSLATION
            variants.extend(_variant(r, relation, ratio) for r in group.records)
    for group, cosine in translations:
        variants.extend(_variant(r, Relation.TRANSLATION, cosine) for r in group.records)
    variants.sort(key=lambda v: (_RELATION_ORDER[v.relation], v.lang.value, -(int((v.date or "0").replace("-", ""))),
                                 v.source, v.line))
    dates = sorted(v.date for v in variants if v.date)
    oldest = min(english, key=lambda g: (min((r.date or "9999") for r in g.records), g.key))
    clause = next((r.clause for g in cluster for r in g.records if r.clause), None)
    return Entry(
        id=_entry_id(canonical.kind, f"{canonical.kind.value}:{oldest.key}", used_ids),
        kind=canonical.kind,
        text=first_canonical.text,
        cards=tuple(sorted({v.card for v in variants if v.card})),
        first_date=dates[0] if dates else None,
        last_date=dates[-1] if dates else None,
        variants=tuple(variants),
        clause=clause,
    )


_RELATION_ORDER = {Relation.CANONICAL: 0, Relation.DUPLICATE: 1, Relation.REVISION: 2, Relation.TRANSLATION: 3}


def _record_order(r: Record) -> tuple[str, int]:
    return (r.source, r.line)


def _neg_key(key: str) -> tuple[int, ...]:
    """Sort key that prefers the lexicographically smallest key under max()."""
    return tuple(-ord(ch) for ch in key)


def deduplicate(records: Sequence[Record], *, embedder: Embedder | None,
                terminology: Terminology = Terminology()) -> list[Entry]:
    """Group records into canonical entries. Every record ends up in exactly one entry."""
    groups = _group_exact(records)
    groups.sort(key=lambda g: (g.kind.value, g.key))  # determinism: input order doesn't matter
    english = [g for g in groups if g.lang is Lang.EN]
    foreign = [g for g in groups if g.lang is not Lang.EN]

    rulings = [g for g in english if g.kind is Kind.RULING]
    uf = _UnionFind(len(rulings))
    for i, j, _ in _revision_pairs(rulings):
        uf.union(i, j)
    members: dict[int, list[_Group]] = defaultdict(list)
    for i, g in enumerate(rulings):
        members[uf.find(i)].append(g)
    clusters = [members[root] for root in sorted(members)]
    clusters += [[g] for g in english if g.kind is Kind.RULE]

    aligned = _align_translations([g for g in foreign if g.kind is Kind.RULING], clusters, embedder)
    attached: dict[int, list[tuple[_Group, float]]] = defaultdict(list)
    foreign_rulings = [g for g in foreign if g.kind is Kind.RULING]
    for f, (c, cosine) in aligned.items():
        attached[c].append((foreign_rulings[f], cosine))
    orphans = [g for f, g in enumerate(foreign_rulings) if f not in aligned]
    orphans += [g for g in foreign if g.kind is Kind.RULE]

    used: set[str] = set()
    entries = [_make_entry(cluster, attached[c], terminology, used) for c, cluster in enumerate(clusters)]
    entries += [_make_entry([g], [], terminology, used) for g in orphans]
    entries.sort(key=lambda e: (e.kind.value, e.cards, e.first_date or "", e.text))
    return entries


def stored_count(entries: Iterable[Entry]) -> int:
    return sum(len(e.variants) for e in entries)

"""Dedup's revision candidates, counted by sparse matrix products, are exactly those of the plain
definition: for each group, the later groups sharing the most rare word 3-grams (ties by index, at
most MAX_CANDIDATES), kept when they share enough words (as multisets) to reach a revision threshold."""

from __future__ import annotations

import bisect
import heapq
import random
from collections import Counter, defaultdict

import pytest

from kb.ingest import dedup
from kb.ingest.dedup import (MAX_CANDIDATES, MAX_SHINGLE_DF, REVISION_CONTAINED_RATIO, SHINGLE, Similarities,
                             _revision_pairs, is_revision)


def reference_pairs(folded: list[list[str]], df_cap: int = MAX_SHINGLE_DF,
                    candidates: int = MAX_CANDIDATES) -> set[tuple[int, int, float]]:
    """The definition, written as a loop over posting lists (the implementation before the matrices)."""
    shingles, index = [], defaultdict(list)
    for i, w in enumerate(folded):
        grams = {tuple(w[j:j + SHINGLE]) for j in range(max(1, len(w) - SHINGLE + 1))}
        shingles.append(grams)
        for gram in grams:
            index[gram].append(i)
    bags = [Counter(w) for w in folded]
    similarity = Similarities()
    out = set()
    for i, grams in enumerate(shingles):
        shared: Counter[int] = Counter()
        for gram in grams:
            posting = index[gram]
            if len(posting) <= df_cap:
                shared.update(posting[bisect.bisect_right(posting, i):])
        for j, _ in heapq.nsmallest(candidates, shared.items(), key=lambda kv: (-kv[1], kv[0])):
            total = len(folded[i]) + len(folded[j])
            common = sum(min(bags[i][w], bags[j][w]) for w in bags[i].keys() & bags[j].keys())
            if total and 2.0 * common / total < REVISION_CONTAINED_RATIO:
                continue
            ratio, contained = similarity(folded[i], folded[j])
            if is_revision(ratio, contained):
                out.add((i, j, ratio))
    return out


def texts(seed: int, n: int, vocabulary: int) -> list[list[str]]:
    """Random word lists from a small vocabulary with words repeated, near copies and very short
    texts, plus three families of near copies: 50 (more candidates than MAX_CANDIDATES, each 3-gram
    in fewer groups than MAX_SHINGLE_DF), 100 (3-grams above that cap) and MAX_SHINGLE_DF (at it)."""
    rng = random.Random(seed)
    words = [f"w{k}" for k in range(vocabulary)]
    out: list[list[str]] = []
    for _ in range(n):
        if out and rng.random() < 0.4:  # a revision of an earlier text: a word changed, added or dropped
            w = list(rng.choice(out))
            if w:
                w[rng.randrange(len(w))] = rng.choice(words)
            if rng.random() < 0.5:
                w.insert(rng.randrange(len(w) + 1), rng.choice(words))
        else:
            w = [rng.choice(words) for _ in range(rng.choice([0, 1, 2, 5, 12, 25]))]
        out.append(w)
    for family, size in (("a", 50), ("b", 100)):
        base = [f"{family}{k}" for k in range(20)]
        for _ in range(size):
            w = list(base)
            w[rng.randrange(20)] = f"{family}{rng.randrange(20)}"
            out.insert(rng.randrange(len(out) + 1), w)
    for k in range(MAX_SHINGLE_DF):  # 3-grams in exactly MAX_SHINGLE_DF groups: at the cap, still counted
        out.insert(rng.randrange(len(out) + 1), [f"c{j}" for j in range(20)] + [f"c-own-{k}"])
    return out


@pytest.mark.parametrize("seed,n,vocabulary", [(1, 120, 6), (2, 400, 12), (3, 300, 40), (5, 10, 4)])
def test_candidates_are_those_of_the_definition(seed: int, n: int, vocabulary: int) -> None:
    folded = texts(seed, n, vocabulary)
    expected = reference_pairs(folded)
    assert expected  # the sample has revisions to find
    assert set(_revision_pairs([], folded, Similarities())) == expected


def test_a_vocabulary_too_large_for_one_number_gives_the_same_candidates(monkeypatch: pytest.MonkeyPatch) -> None:
    """3-grams numbered pair by pair (the path for a vocabulary whose 3-grams don't fit one int64)."""
    monkeypatch.setattr(dedup, "_DIGITS_BELOW", 0)
    folded = texts(2, 400, 12)
    assert set(_revision_pairs([], folded, Similarities())) == reference_pairs(folded)


def test_the_caps_bite_in_the_samples() -> None:
    """Without either cap the definition finds other pairs in the samples: the test above would
    see either cap implemented wrong."""
    folded = texts(2, 400, 12)
    capped = reference_pairs(folded)
    assert capped != reference_pairs(folded, df_cap=10**9)
    assert capped != reference_pairs(folded, candidates=10**9)


def test_the_bundled_corpus_gives_the_same_candidates() -> None:
    from kb.build import load_lexicon
    from kb.corpus import Corpus
    from kb.model import Kind, Lang
    from kb.normalize import match_key

    corpus = Corpus.default()
    records = [r for r in dedup_records(corpus) if r.lang is Lang.EN and r.kind is Kind.RULING]
    lexicon = load_lexicon(corpus, corpus.names)
    groups = dedup._group_exact(records)
    groups.sort(key=lambda g: (g.kind.value, g.key))
    folded = [match_key(lexicon.fold(g.records[0].text)).split() for g in groups]
    assert set(_revision_pairs(groups, folded, Similarities())) == reference_pairs(folded)


def dedup_records(corpus):
    from kb.build import parse_bundled

    return parse_bundled(corpus, corpus.sources(), corpus.names.copy()).records


def test_fewer_than_two_wordings_have_no_pairs() -> None:
    assert list(_revision_pairs([], [], Similarities())) == []
    assert list(_revision_pairs([], [["a", "b"]], Similarities())) == []



def test_each_wording_is_digested_once_however_many_candidate_pairs_it_is_in(monkeypatch) -> None:
    """The candidate pairs' alignments are looked up by the two wordings' digests, taken once per
    wording: at 100k rulings ~200k pairs hashed both wordings each time (0.9 s of a build's cpu)."""
    folded = texts(3, 400, 40)
    expected = reference_pairs(folded)
    calls: list[int] = []
    real = dedup.words_digest
    monkeypatch.setattr(dedup, "words_digest", lambda words: calls.append(1) or real(words))
    similarity = Similarities()
    pairs = set(_revision_pairs([], folded, similarity))
    assert pairs == expected
    assert len(pairs) > 2 * len(folded)  # more pairs than wordings: the case the digests are for
    assert len(calls) <= len(folded)


def test_a_pair_asked_by_its_words_or_by_its_digests_is_one_key() -> None:
    a, b = ["a", "face", "down", "creature"], ["a", "face", "down", "spell"]
    by_words, by_digests = Similarities(), Similarities()
    assert by_words(a, b) == by_digests.pair(dedup.words_digest(a), dedup.words_digest(b), a, b)
    assert by_words.kept() == by_digests.kept()
    by_words(b, a)  # the order is part of the key (difflib's ratio is not symmetric)
    assert len(by_words.kept()) == 2

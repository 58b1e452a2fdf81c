"""kb/search/bm25.py: precomputed BM25 gives rank_bm25's BM25Okapi scores bit for bit, and stores safely."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kb.search.bm25 import BM25Matrix

WORDS = [f"w{i}" for i in range(200)]


def _corpus(rng: random.Random) -> list[list[str]]:
    # a skewed vocabulary, so some terms are in more than half the documents (negative idf floor)
    return [[rng.choice(WORDS[: rng.randint(3, 200)]) for _ in range(rng.randint(0, 30))]
            for _ in range(rng.randint(1, 150))]


@pytest.mark.parametrize("seed", range(8))
def test_scores_are_rank_bm25_okapi_bit_for_bit(seed: int) -> None:
    rank_bm25 = pytest.importorskip("rank_bm25")
    rng = random.Random(seed)
    corpus = _corpus(rng)
    if not any(corpus):
        corpus.append(["w0"])
    reference = rank_bm25.BM25Okapi(corpus)
    matrix = BM25Matrix.build(corpus)
    for _ in range(20):
        query = [rng.choice(WORDS + ["unknown"]) for _ in range(rng.randint(0, 10))]  # repeats count
        assert np.array_equal(matrix.scores(query), reference.get_scores(query)), query


def test_round_trip_through_bytes_keeps_every_score() -> None:
    corpus = [["face", "down", "face"], ["tapped", "face"], [], ["verdeckt", "getappt"]]
    matrix = BM25Matrix.build(corpus)
    loaded = BM25Matrix.from_bytes(matrix.to_bytes())
    for query in (["face"], ["face", "face", "tapped"], ["verdeckt"], ["nothing"], []):
        assert np.array_equal(loaded.scores(query), matrix.scores(query))
    assert loaded.vocab == matrix.vocab and loaded.n_docs == 4


def test_empty_corpus_scores_nothing() -> None:
    matrix = BM25Matrix.from_bytes(BM25Matrix.build([]).to_bytes())
    assert matrix.scores(["face"]).shape == (0,)


@pytest.mark.parametrize("data", [b"", b"\x00\xffnot an index" * 10])
def test_damaged_bytes_are_a_value_error(data: bytes) -> None:
    with pytest.raises(ValueError):
        BM25Matrix.from_bytes(data)


def test_truncated_matrix_is_a_value_error() -> None:
    data = BM25Matrix.build([["a", "b"], ["b", "c"]]).to_bytes()
    with pytest.raises(ValueError):
        BM25Matrix.from_bytes(data[: len(data) // 2])


@pytest.mark.parametrize("seed", range(4))
def test_each_group_is_scored_as_its_own_collection(seed: int) -> None:
    """With groups, a document's scores are those of a matrix built from its group alone (its idf
    and mean length are its group's), whatever the other groups hold."""
    rng = random.Random(seed)
    corpus = _corpus(rng) + _corpus(rng)
    groups = [rng.randint(0, 2) for _ in corpus]
    matrix = BM25Matrix.build(corpus, groups=groups)
    for g in set(groups):
        members = [i for i, x in enumerate(groups) if x == g]
        alone = BM25Matrix.build([corpus[i] for i in members])
        for _ in range(10):
            query = [rng.choice(WORDS) for _ in range(rng.randint(1, 6))]
            assert matrix.scores(query)[members].tolist() == alone.scores(query).tolist()


def test_groups_must_name_one_group_per_document() -> None:
    with pytest.raises(ValueError):
        BM25Matrix.build([["a"], ["b"]], groups=[0])

"""kb/search/bm25.py: precomputed BM25 gives rank_bm25's BM25Okapi scores bit for bit, and stores safely."""

from __future__ import annotations

import math
import random
from typing import Sequence

import numpy as np
import pytest

from kb.search import bm25
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


def _loop_collection(corpus: Sequence[Sequence[str]], vocab: dict[str, int], k1: float, b: float,
                     epsilon: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """bm25._collection as it was before it counted with numpy: a Python loop over every token."""
    first_seen: dict[int, int] = {}
    df: list[int] = []
    df_col: list[int] = []
    rows: list[int] = []
    cols: list[int] = []
    tfs: list[int] = []
    doc_len = np.array([len(d) for d in corpus], dtype=np.int64)
    for row, document in enumerate(corpus):
        freqs: dict[str, int] = {}
        for word in document:
            freqs[word] = freqs.get(word, 0) + 1
        for word, tf in freqs.items():
            col = vocab.setdefault(word, len(vocab))
            pos = first_seen.get(col)
            if pos is None:
                pos = first_seen[col] = len(df)
                df.append(0)
                df_col.append(col)
            df[pos] += 1
            rows.append(row)
            cols.append(col)
            tfs.append(tf)
    n = len(corpus)
    idf = [0.0] * len(df)
    idf_sum = 0.0
    negative = []
    for pos, freq in enumerate(df):
        value = math.log(n - freq + 0.5) - math.log(freq + 0.5)
        idf[pos] = value
        idf_sum += value
        if value < 0:
            negative.append(pos)
    if df:
        eps = epsilon * (idf_sum / len(df))
        for pos in negative:
            idf[pos] = eps
    idf_by_col = np.zeros(len(vocab), dtype=np.float64)
    idf_by_col[np.array(df_col, dtype=np.int64)] = np.array(idf, dtype=np.float64)
    row_a = np.array(rows, dtype=np.int64)
    col_a = np.array(cols, dtype=np.int64)
    tf_a = np.array(tfs, dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        avgdl = int(doc_len.sum()) / n if n else 0.0
        ctd = k1 * (1 - b + b * doc_len / avgdl) if n else doc_len.astype(np.float64)
        weight = idf_by_col[col_a] * (tf_a * (k1 + 1) / (tf_a + ctd[row_a]))
    return row_a, col_a, weight


def _wide_corpus(rng: random.Random) -> list[list[str]]:
    """Documents of 0 to 60 tokens over a vocabulary of 3 to 2,000 words (Zipf-like, so many idfs
    are floored and many terms repeat within a document), some documents empty."""
    words = [f"t{i}" for i in range(rng.randint(3, 2000))]
    weights = [1 / (i + 1) for i in range(len(words))]
    return [rng.choices(words, weights, k=rng.choice([0, rng.randint(1, 60)])) for _ in range(rng.randint(0, 400))]


@pytest.mark.parametrize("seed", range(40))
def test_numpy_counting_writes_the_matrix_of_the_python_loop_byte_for_byte(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The index files must not change with the way terms are counted: same vocabulary order,
    same postings, same weights to the last bit (idf summed one term at a time in first-seen order),
    with and without groups."""
    rng = random.Random(seed)
    corpus = _wide_corpus(rng)
    groups = [rng.randint(0, 2) for _ in corpus] if seed % 2 else None
    fast = BM25Matrix.build(corpus, groups=groups)
    monkeypatch.setattr(bm25, "_collection", _loop_collection)
    slow = BM25Matrix.build(corpus, groups=groups)
    assert list(fast.vocab.items()) == list(slow.vocab.items())
    assert fast.to_bytes() == slow.to_bytes()

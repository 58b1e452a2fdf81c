"""Okapi BM25 precomputed per (document, term), scored with numpy alone.

The formula is rank_bm25's `BM25Okapi` (k1 1.5, b 0.75, idf floored at 0.25 × the mean idf), and
the scores are bit-for-bit the same: each (document, term) weight is computed with the same
float64 operations in the same order, and a query adds the weights of its terms (repeats count)
in query order. What changes is the cost: rank_bm25 walks every document for every query term in
Python; here a term costs the length of its postings. The matrix is stored column-wise (CSC:
`indptr`, `indices`, `data` over `vocab`), so it saves as plain numpy arrays and a query never
imports scipy.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from itertools import chain
from typing import Iterable, Iterator, Sequence

import numpy as np

K1 = 1.5
B = 0.75
EPSILON = 0.25


@dataclass(frozen=True)
class BM25Matrix:
    vocab: dict[str, int]  # term → column
    indptr: np.ndarray  # int64, len(vocab) + 1: column j's postings are indptr[j]:indptr[j + 1]
    indices: np.ndarray  # int32 document rows, ascending within a column
    data: np.ndarray  # float64 BM25 weight of (row, term)
    n_docs: int

    @classmethod
    def build(cls, corpus: Sequence[Sequence[str]], k1: float = K1, b: float = B,
              epsilon: float = EPSILON, groups: Sequence[int] | None = None) -> BM25Matrix:
        """The weights of every term of every document of `corpus` (lists of tokens).

        `groups` (an int per document) gives each group its own collection statistics (document
        frequencies, so idf, and mean length): a term weighs what it is worth among the documents
        of its own group. Without it the corpus is one collection."""
        group = np.zeros(len(corpus), dtype=np.int64) if groups is None else np.asarray(groups, dtype=np.int64)
        if group.shape != (len(corpus),):
            raise ValueError("groups must give one group per document")
        vocab: dict[str, int] = {}
        parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        for g in dict.fromkeys(group.tolist()):
            members = np.flatnonzero(group == g)
            rows, cols, weight = _collection([corpus[int(i)] for i in members], vocab, k1, b, epsilon)
            parts.append((members[rows], cols, weight))
        row_a = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0, dtype=np.int64)
        col_a = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0, dtype=np.int64)
        weight = np.concatenate([p[2] for p in parts]) if parts else np.zeros(0, dtype=np.float64)
        order = np.lexsort((row_a, col_a))  # by column, rows ascending within one
        indptr = np.zeros(len(vocab) + 1, dtype=np.int64)
        np.cumsum(np.bincount(col_a, minlength=len(vocab)), out=indptr[1:])
        return cls(vocab, indptr, row_a[order].astype(np.int32), weight[order], len(corpus))

    def scores(self, query: Iterable[str]) -> np.ndarray:
        """BM25 of `query` (a token list) against every document, as rank_bm25's `get_scores`."""
        out = np.zeros(self.n_docs, dtype=np.float64)
        for term in query:
            col = self.vocab.get(term)
            if col is not None:
                start, end = self.indptr[col], self.indptr[col + 1]
                out[self.indices[start:end]] += self.data[start:end]
        return out

    def postings(self, terms: Iterable[str]) -> Iterator[tuple[str, np.ndarray]]:
        """(term, the rows of the documents that hold it) for each known term of `terms`."""
        for term in terms:
            col = self.vocab.get(term)
            if col is not None:
                yield term, self.indices[self.indptr[col]:self.indptr[col + 1]]

    # ------------------------------------------------------------------ storage
    def to_bytes(self) -> bytes:
        """An .npz of plain arrays (no pickle): the vocabulary in column order and the CSC arrays."""
        buf = io.BytesIO()
        vocab = np.array(sorted(self.vocab, key=self.vocab.__getitem__), dtype=np.str_)
        np.savez(buf, vocab=vocab, indptr=self.indptr, indices=self.indices, data=self.data,
                 n_docs=np.array([self.n_docs], dtype=np.int64))
        return buf.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> BM25Matrix:
        """Read `to_bytes` output back; ValueError when it is not a consistent matrix."""
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as z:
                vocab, indptr, indices = z["vocab"], z["indptr"], z["indices"]
                weights, n_docs = z["data"], int(z["n_docs"][0])
        except (KeyError, IndexError, OSError, EOFError) as exc:
            raise ValueError(f"BM25 matrix unreadable ({exc})") from None
        except Exception as exc:  # zipfile.BadZipFile and friends from a damaged .npz
            raise ValueError(f"BM25 matrix unreadable ({type(exc).__name__})") from None
        if (indptr.shape != (len(vocab) + 1,) or indices.shape != weights.shape
                or (len(indptr) and (indptr[0] != 0 or indptr[-1] != len(indices)))
                or (len(indices) and (indices.min() < 0 or indices.max() >= n_docs))):
            raise ValueError("BM25 matrix is inconsistent")
        return cls({str(t): i for i, t in enumerate(vocab.tolist())}, indptr.astype(np.int64),
                   indices, weights.astype(np.float64, copy=False), n_docs)


def _collection(corpus: Sequence[Sequence[str]], vocab: dict[str, int], k1: float, b: float,
                epsilon: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row, column, weight) of every (document, term) of one collection, rows counted within it;
    its new terms join `vocab` in the order they first appear. rank_bm25's arithmetic: idf from
    `math.log`, summed one by one in first-seen order, floored. Terms are counted with numpy: a
    Python loop over every token took ~3 s at 100k texts."""
    n = len(corpus)
    doc_len = np.array([len(d) for d in corpus], dtype=np.int64)
    tokens = list(chain.from_iterable(corpus))
    local = dict.fromkeys(tokens)  # the collection's terms in first-seen order: its df positions
    for i, word in enumerate(local):
        local[word] = i
    term = np.fromiter(map(local.__getitem__, tokens), dtype=np.int64, count=len(tokens))
    n_terms = len(local)
    # one key per (document, term) occurrence; unique keys count each document's terms (tf)
    pair, tf_a = np.unique(np.repeat(np.arange(n, dtype=np.int64), doc_len) * max(n_terms, 1) + term,
                           return_counts=True)
    row_a, term_a = np.divmod(pair, max(n_terms, 1))
    col_of_term = np.array([vocab.setdefault(word, len(vocab)) for word in local], dtype=np.int64)
    df = np.bincount(term_a, minlength=n_terms)
    # idf depends on df alone: math.log once per distinct df, as rank_bm25 computes it
    freqs = np.unique(df)
    logs = np.array([math.log(n - f + 0.5) - math.log(f + 0.5) for f in freqs.tolist()], dtype=np.float64)
    idf = logs[np.searchsorted(freqs, df)]
    if n_terms:
        idf_sum = float(np.add.accumulate(idf)[-1])  # left to right, one add at a time (np.sum pairs)
        idf[idf < 0] = epsilon * (idf_sum / n_terms)
    idf_by_col = np.zeros(len(vocab), dtype=np.float64)
    idf_by_col[col_of_term] = idf
    col_a = col_of_term[term_a]
    with np.errstate(divide="ignore", invalid="ignore"):
        avgdl = int(doc_len.sum()) / n if n else 0.0
        ctd = k1 * (1 - b + b * doc_len / avgdl) if n else doc_len.astype(np.float64)
        weight = idf_by_col[col_a] * (tf_a * (k1 + 1) / (tf_a + ctd[row_a]))
    return row_a, col_a, weight

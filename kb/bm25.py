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
              epsilon: float = EPSILON) -> BM25Matrix:
        """The weights of every term of every document of `corpus` (lists of tokens)."""
        vocab: dict[str, int] = {}
        df: list[int] = []  # documents per term, in first-seen order (the order rank_bm25 sums idf in)
        rows: list[int] = []
        cols: list[int] = []
        tfs: list[int] = []
        doc_len = np.array([len(d) for d in corpus], dtype=np.int64)
        for row, document in enumerate(corpus):
            freqs: dict[str, int] = {}
            for word in document:
                freqs[word] = freqs.get(word, 0) + 1
            for word, tf in freqs.items():
                col = vocab.get(word)
                if col is None:
                    col = vocab[word] = len(df)
                    df.append(0)
                df[col] += 1
                rows.append(row)
                cols.append(col)
                tfs.append(tf)
        n = len(corpus)
        idf = [0.0] * len(df)
        idf_sum = 0.0
        negative = []
        for col, freq in enumerate(df):
            value = math.log(n - freq + 0.5) - math.log(freq + 0.5)
            idf[col] = value
            idf_sum += value
            if value < 0:
                negative.append(col)
        if df:
            eps = epsilon * (idf_sum / len(df))
            for col in negative:
                idf[col] = eps
        row_a = np.array(rows, dtype=np.int64)
        col_a = np.array(cols, dtype=np.int64)
        tf_a = np.array(tfs, dtype=np.int64)
        with np.errstate(divide="ignore", invalid="ignore"):
            avgdl = int(doc_len.sum()) / n if n else 0.0
            ctd = k1 * (1 - b + b * doc_len / avgdl) if n else doc_len.astype(np.float64)
            weight = np.array(idf, dtype=np.float64)[col_a] * (tf_a * (k1 + 1) / (tf_a + ctd[row_a]))
        order = np.argsort(col_a, kind="stable")  # by column, rows stay ascending within one
        indptr = np.zeros(len(df) + 1, dtype=np.int64)
        np.cumsum(np.bincount(col_a, minlength=len(df)), out=indptr[1:])
        return cls(vocab, indptr, row_a[order].astype(np.int32), weight[order], n)

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

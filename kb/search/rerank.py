"""A learned second stage: the hybrid's best candidates put in a new order by a linear model.

The hybrid ranker (kb.search.rank) already computes, per entry, each component's score; most dev
questions it misses are near ties among candidates it retrieved (every dev answer ranks within 50).
Over the hybrid's best `k` candidates, `features` turns those components into one row per candidate
(each on a scale shared by every question: a share of the best, a reciprocal rank among the
candidates, a flag) and `Reranker.score` weighs them with coefficients fitted on the development
questions only (bench/fit_rerank.py writes `rerank.json` beside this module). The candidates keep
the places they hold; only their order changes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

RERANK_FILE = Path(__file__).with_name("rerank.json")

# The features `features` computes, in column order; a model names the ones it uses.
FEATURES = (
    "fused",  # the hybrid score over the best candidate's
    "fused_rank",  # 1 / the hybrid rank
    "dense",  # e5 cosine less the best candidate's
    "dense_rank",  # 1 / rank among the candidates by cosine less hubness
    "lexical",  # BM25 over the best candidate's
    "lexical_rank",  # 1 / rank among the candidates by BM25
    "local",  # the question's words weighed by their rarity among the candidates (rank._local), 0-1
    "named_card",  # filed under a card the question names
    "named_card_story",  # that, in a story question
    "other_card",  # a ruling that names its own card, none of them named
    "rule",  # a CR clause or glossary entry
    "rule_asked",  # a rule, and the question asks for one
    "rule_story",  # a rule, and the question is a story
    "cards",  # log(1 + the number of cards it is filed under): a general ruling is printed under many
    "concepts",  # share of the question's glossary concepts its text holds
    "words",  # share of the question's words (less the named cards' names) its text holds
    "linked",  # sum of 1 / rank of the other candidates that share a CR clause with it (own or linked)
    "bigrams",  # share of the question's word pairs (less the named cards' names) its English text holds
    "length",  # log of its English text's words
)


@dataclass(frozen=True)
class Candidates:
    """What the hybrid computed for one question, per entry (the index's rows), and the question's."""

    fused: np.ndarray  # the hybrid score
    dense: np.ndarray  # e5 cosine (-1: none)
    dense_rank: np.ndarray  # the cosine less hubness the dense ranking uses
    lexical: np.ndarray  # BM25
    local: np.ndarray  # rank._local, scaled to 1 for the best
    named: np.ndarray  # bool: filed under a card the question names
    other_card: np.ndarray  # bool: names its own card, none of them named
    is_rule: np.ndarray  # bool
    n_cards: np.ndarray  # cards an entry is filed under
    story: bool
    rule_asked: bool


def _reciprocal_ranks(values: np.ndarray) -> np.ndarray:
    """1 / the 1-based rank of each value among `values`, best (largest) first, ties sharing the better."""
    ranks = 1.0 + (values[None, :] > values[:, None]).sum(axis=1)
    out: np.ndarray = 1.0 / ranks
    return out


def _share_of_best(values: np.ndarray) -> np.ndarray:
    best = float(values.max()) if len(values) else 0.0
    out: np.ndarray = values / best if best > 0 else np.zeros_like(values)
    return out


def features(c: Candidates, rows: np.ndarray, concepts: np.ndarray, words: np.ndarray,
             clauses: list[set[int]], bigrams: np.ndarray, length: np.ndarray) -> np.ndarray:
    """One row of FEATURES per candidate `rows` (index rows, best hybrid first). `concepts` and
    `words` are each candidate's share of the question's concepts and words; `clauses` each
    candidate's CR clauses (own and linked, as vocabulary positions)."""
    k = len(rows)
    inv_rank = 1.0 / np.arange(1, k + 1)
    fused = c.fused[rows]
    dense = c.dense[rows]
    named = c.named[rows].astype(np.float64)
    rule = c.is_rule[rows].astype(np.float64)
    linked = np.zeros(k)
    for i in range(k):
        if clauses[i]:
            linked[i] = sum(inv_rank[j] for j in range(k) if j != i and clauses[i] & clauses[j])
    cols = {
        "fused": _share_of_best(fused - min(0.0, float(fused.min()))),
        "fused_rank": inv_rank,
        "dense": dense - float(dense.max()),
        "dense_rank": _reciprocal_ranks(c.dense_rank[rows]),
        "lexical": _share_of_best(c.lexical[rows].astype(np.float64)),
        "lexical_rank": np.where(c.lexical[rows] > 0, _reciprocal_ranks(c.lexical[rows]), 0.0),
        "local": c.local[rows],
        "named_card": named,
        "named_card_story": named * c.story,
        "other_card": c.other_card[rows].astype(np.float64),
        "rule": rule,
        "rule_asked": rule * c.rule_asked,
        "rule_story": rule * c.story,
        "cards": np.log1p(c.n_cards[rows].astype(np.float64)),
        "concepts": concepts,
        "words": words,
        "linked": linked,
        "bigrams": bigrams,
        "length": np.log1p(length),
    }
    return np.column_stack([np.asarray(cols[name], dtype=np.float64) for name in FEATURES])


@dataclass(frozen=True)
class Reranker:
    """A linear score over standardised features: ((x - mean) / scale) @ coef."""

    k: int  # how many of the hybrid's best candidates it reorders
    features: tuple[str, ...]  # the FEATURES it reads
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    about: dict[str, Any]  # how it was fitted (shown, not read)

    def score(self, x: np.ndarray) -> np.ndarray:
        """The score of each row of `x` (every FEATURES column, in order)."""
        cols = [FEATURES.index(f) for f in self.features]
        out: np.ndarray = ((x[:, cols] - self.mean) / self.scale) @ self.coef
        return out

    def reorder(self, fused: np.ndarray, rows: np.ndarray, x: np.ndarray) -> np.ndarray:
        """`fused` with the candidates `rows` (best first) in the order of their scores: they keep
        the places (scores) they held, so every other entry keeps its own."""
        order = rows[np.argsort(-self.score(x), kind="stable")]
        out = fused.copy()
        out[order] = fused[rows]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Reranker:
        names = tuple(data["features"])
        unknown = [f for f in names if f not in FEATURES]
        if unknown:
            raise ValueError(f"reranker names an unknown feature: {unknown[0]!r}")
        mean, scale, coef = (np.asarray(data[key], dtype=np.float64) for key in ("mean", "scale", "coef"))
        if any(a.shape != (len(names),) for a in (mean, scale, coef)):
            raise ValueError(f"reranker arrays do not match its {len(names)} features")
        return cls(int(data["k"]), names, mean, scale, coef, dict(data.get("about", {})))

    def to_json(self) -> dict[str, Any]:
        return {"k": self.k, "features": list(self.features),
                "mean": [round(float(v), 8) for v in self.mean],
                "scale": [round(float(v), 8) for v in self.scale],
                "coef": [round(float(v), 8) for v in self.coef], "about": self.about}

    @classmethod
    def read(cls, path: Path = RERANK_FILE) -> Reranker:
        """The reranker stored in `path` (the shipped one by default)."""
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")))

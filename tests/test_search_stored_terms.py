"""The CR glossary entries' terms and concepts a question is matched against (`Searcher._named_terms`)
are derived at index build time and stored (terms.json, `GlossaryTerms`): a cold query reads them
instead of tokenising every glossary entry's term (~7 ms). An index built before them still searches,
deriving them as before, with the same results."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pytest

from kb.corpus import Corpus
from kb.errors import StoreError
from kb.search import Searcher, build_index
from kb.search.embed import FakeEmbedder
from kb.search.index import META_FILE, TERMS_FILE, GlossaryTerms
from tests.test_search_keywords import FORETELL

CORPUS = Corpus.default()

QUESTIONS = [
    "Can I look at my opponent's foretold cards?",
    "Darf ich mir die vorhergesehenen Karten meines Gegners ansehen?",
    "¿Puedo mirar las cartas presagiadas de mi rival?",
    "What is hideaway?",
    "Does echo trigger when Echoing Boon copies a spell?",
    "Can my opponent look at my face-down creature?",
]


@pytest.fixture()
def index(tmp_path: Path) -> Path:
    build_index(FORETELL, tmp_path / "index", FakeEmbedder(), corpus=CORPUS)
    return tmp_path / "index"


def _load(index: Path) -> Searcher:
    return Searcher.load(index, FORETELL, query_embedder=FakeEmbedder())


def _as_before(index: Path) -> None:
    """Make `index` one built before terms.json: no file, no checksum of it."""
    (index / TERMS_FILE).unlink()
    meta = json.loads((index / META_FILE).read_text())
    del meta["crc32"][TERMS_FILE]
    (index / META_FILE).write_text(json.dumps(meta))


def test_the_stored_terms_are_the_ones_the_table_and_glossary_give_and_are_read_not_derived(
        index: Path, monkeypatch) -> None:
    searcher = _load(index)
    derived = GlossaryTerms.of(searcher.table, searcher.glossary)
    assert derived.terms and derived.concepts  # the foretell, echo, flashback and hideaway entries

    def derive(*_: object) -> GlossaryTerms:
        raise AssertionError("a query derived the terms the index stores")

    monkeypatch.setattr(GlossaryTerms, "of", derive)
    assert searcher.glossary_terms == derived


def test_an_index_built_before_the_terms_were_stored_searches_the_same(index: Path, tmp_path: Path) -> None:
    stored = _load(index)
    before = [[(h.entry.id, h.score) for h in stored.search(q, limit=8)] for q in QUESTIONS]
    _as_before(index)
    old = _load(index)
    assert [[(h.entry.id, h.score) for h in old.search(q, limit=8)] for q in QUESTIONS] == before
    assert old.glossary_terms == stored.glossary_terms


def test_damaged_stored_terms_are_refused_with_the_fix(index: Path) -> None:
    path = index / TERMS_FILE
    path.write_bytes(path.read_bytes().replace(b"foretell", b"foretall"))
    with pytest.raises(StoreError, match="kb ingest"):
        _load(index).search(QUESTIONS[0])


def _json_form(cards) -> dict:
    """cards.txt's content as the JSON document an older index held (cards.json)."""
    head, _, body = cards.partition(b"\n")
    sizes = json.loads(head)["sizes"]
    doc, at = {"longest": json.loads(head)["longest"]}, 0
    for name in ("keys", "values", "common", "expand"):
        doc[name] = body[at:at + sizes[name]].decode("utf-8")
        at += sizes[name]
    return doc


def test_card_names_are_stored_unescaped_and_read_back_as_their_json_form_gives_them(index: Path) -> None:
    from kb.search.cardnames import CardIndex
    from kb.search.index import CARDS_FILE, CARDS_TEXT_FILE, default_card_index

    compiled = default_card_index(FORETELL, CORPUS)
    text, as_json = CardIndex.from_text(compiled.to_text()), CardIndex.from_json(compiled.to_json())
    assert list(text.matcher.items()) == list(as_json.matcher.items()) and text.matcher.longest == as_json.matcher.longest
    assert text.matcher.common == as_json.matcher.common and text._expand_text == as_json._expand_text
    assert not (index / CARDS_FILE).exists()
    stored = _load(index)
    before = [[(h.entry.id, h.score) for h in stored.search(q, limit=8)] for q in QUESTIONS]
    # an index built before cards.txt: its cards.json (and checksum) instead
    doc = _json_form((index / CARDS_TEXT_FILE).read_bytes())
    (index / CARDS_FILE).write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    (index / CARDS_TEXT_FILE).unlink()
    meta = json.loads((index / META_FILE).read_text())
    meta["crc32"][CARDS_FILE] = zlib.crc32((index / CARDS_FILE).read_bytes())
    del meta["crc32"][CARDS_TEXT_FILE]
    (index / META_FILE).write_text(json.dumps(meta))
    old = _load(index)
    assert [[(h.entry.id, h.score) for h in old.search(q, limit=8)] for q in QUESTIONS] == before
    assert list(old.cards.matcher.items()) == list(stored.cards.matcher.items())


@pytest.mark.parametrize("damage", [lambda b: b[:-1], lambda b: b.replace(b"\n", b"", 1), lambda b: b"{}\n" + b])
def test_card_names_whose_parts_disagree_with_their_sizes_are_refused(index: Path, damage) -> None:
    from kb.search.cardnames import CardIndex
    from kb.search.index import CARDS_TEXT_FILE

    with pytest.raises((ValueError, KeyError)):
        CardIndex.from_text(damage((index / CARDS_TEXT_FILE).read_bytes()))


def test_terms_another_code_derived_are_derived_again_not_read(index: Path, monkeypatch) -> None:
    """terms.json is keyed by the code that derives it (`terms_code_key`: the tokenizer, `glossary_term`, the
    glossary's concepts): after a change to that code, an index built before it is searched with the terms the
    code gives now, as the tests' fresh indexes are (review42: they were read as stored, and a changed
    `glossary_term` went unseen until the next `kb ingest`)."""
    from kb.search.index import terms_code_key

    meta = json.loads((index / META_FILE).read_text())
    assert meta["terms_code"] == terms_code_key()
    meta["terms_code"] = "the key of the code before a change"
    (index / META_FILE).write_text(json.dumps(meta))
    derived: list[bool] = []
    of = GlossaryTerms.of.__func__  # type: ignore[attr-defined]

    def derive(cls, *args: object) -> GlossaryTerms:
        derived.append(True)
        return of(cls, *args)

    monkeypatch.setattr(GlossaryTerms, "of", classmethod(derive))
    searcher = _load(index)
    assert searcher.glossary_terms.terms and derived == [True]

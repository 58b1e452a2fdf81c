"""What a build takes over from the last one: the same KB, with less work (issue 10).

Adding one page to a big KB used to align every pair of similar wordings again (difflib), look for
outdated wordings in every entry, and search every wording for each check's quote. Each of these is
now remembered or indexed; the tests below show that the result is the same and that the work is
not done again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.ingest import dedup
from kb.ingest.dedup import Similarities, deduplicate
from kb.model import Kind, Lang, Record
from kb.terminology import Term, Terminology


def _record(text: str, card: str = "Lightform", date: str = "2014-11-24", source: str = "page.txt",
            line: int = 1) -> Record:
    return Record(text=text, original=text, lang=Lang.EN, date=date, source=source, line=line,
                  kind=Kind.RULING, card=card)


RECORDS = [
    _record("If a face-down creature is turned face up, it stays tapped.", line=1),
    _record("If a face-down creature is turned face up, it remains tapped.", date="2018-07-13", line=2,
            source="other.txt"),
    _record("A face-down creature is a 2/2 creature with no name, mana cost, or creature types.", line=3),
    _record("A face-down creature is a 2/2 creature with no text, no name, and no mana cost.", line=4,
            date="2024-02-02", source="other.txt"),
    _record("You may turn it face up any time you have priority.", line=5, card="Icefeather Aven"),
]


def test_remembered_alignments_give_the_same_entries_and_no_new_alignment(monkeypatch) -> None:
    calls: list[tuple[str, ...]] = []
    real = dedup.wording_similarity
    monkeypatch.setattr(dedup, "wording_similarity", lambda a, b: calls.append(tuple(a)) or real(a, b))
    first = Similarities()
    fresh = deduplicate(RECORDS, embedder=None, similarity=first)
    assert calls, "the records hold wordings similar enough to align"
    assert any(len(e.variants) == 2 for e in fresh), "a revision was found"
    calls.clear()
    again = deduplicate(RECORDS, embedder=None, similarity=Similarities(first.kept()))
    assert again == fresh
    assert calls == [], "every alignment came from the remembered table"


def test_a_remembered_alignment_is_what_dedup_uses() -> None:
    """Not only the same answer by chance: a (wrong) remembered value decides the merge."""
    first = Similarities()
    merged = deduplicate(RECORDS, embedder=None, similarity=first)
    poisoned = Similarities({key: (0.0, 0.0) for key in first.kept()})
    apart = deduplicate(RECORDS, embedder=None, similarity=poisoned)
    assert len(apart) > len(merged)


def test_only_the_alignments_a_build_used_are_kept() -> None:
    first = Similarities()
    deduplicate(RECORDS, embedder=None, similarity=first)
    second = Similarities(dict(first.kept()))
    deduplicate(RECORDS[:2], embedder=None, similarity=second)
    assert 0 < len(second.kept()) < len(first.kept())


def test_obsolete_terms_are_remembered_per_text_and_never_shared_between_callers() -> None:
    terms = Terminology((Term("comes into play", "enters the battlefield", "2009-07-10", "M10"),))
    text = "When it comes into play, draw a card."
    found = terms.obsolete_in(text, Lang.EN)
    assert [t.obsolete for t in found] == ["comes into play"]
    found.clear()  # a caller's list is its own
    assert [t.obsolete for t in terms.obsolete_in(text, Lang.EN)] == ["comes into play"]
    assert terms.obsolete_in(text, Lang.DE) == []  # the term is English
    assert terms == Terminology(terms.terms) and hash(terms) == hash(Terminology(terms.terms))


@pytest.mark.parametrize("quote, found", [
    ("stays tapped", 1),  # an older wording of an entry
    ("a face-down creature is a 2/2", 2),
    ("turn it face up", 1),
    ("tapped.\x00a face", 0),  # never across two wordings
    ("no such words", 0),
    ("", 4),
])
def test_a_check_quote_is_found_in_the_entries_whose_wordings_contain_it(quote: str, found: int) -> None:
    from kb.checks import _RulingTexts

    texts = _RulingTexts(deduplicate(RECORDS, embedder=None))
    naive = [i for i, ts in enumerate(texts.texts) if any(quote in t for t in ts)]
    assert texts.containing(quote) == naive
    assert len(naive) == found


@pytest.mark.parametrize("quote", ["stays tapped", "a face-down creature is a 2/2", "turn it face up", "no such words"])
def test_a_quote_looked_for_again_after_a_change_finds_what_a_fresh_search_finds(quote: str) -> None:
    """The last build's answer for a quote, plus the wordings new since, is the whole answer: a
    build without some entries first, then with all of them (and one wording gone)."""
    from kb.checks import _RulingTexts

    entries = deduplicate(RECORDS, embedder=None)
    first = _RulingTexts(entries[1:])
    first.containing(quote)
    now = entries[:-1]
    again = _RulingTexts(now, last=first.memo())
    naive = [i for i, ts in enumerate(again.texts) if any(quote in t for t in ts)]
    assert again.containing(quote) == naive
    assert quote in first.memo()["hits"]


def test_a_quote_s_last_answer_is_read_not_looked_for_again() -> None:
    from kb.checks import _RulingTexts

    entries = deduplicate(RECORDS, embedder=None)
    first = _RulingTexts(entries)
    first.containing("stays tapped")
    memo = first.memo()
    planted = {"texts": memo["texts"], "hits": {"stays tapped": frozenset([first.texts[0][0]])}}
    assert _RulingTexts(entries, last=planted).containing("stays tapped") == [0]


def test_adding_a_page_looks_for_outdated_wordings_only_in_the_entries_it_touched(kb_home: Path,
                                                                                   monkeypatch, tmp_path: Path) -> None:
    import kb.build
    from kb.search.embed import FakeEmbedder

    seen: list[int] = []
    real = kb.build.find_outdated
    monkeypatch.setattr(kb.build, "find_outdated", lambda entries, **k: seen.append(len(entries)) or real(entries, **k))
    kb.build.build(home=kb_home, embedder=FakeEmbedder())
    everything = seen[-1]
    page = tmp_path / "page.txt"
    page.write_text("Lightform\n\n2025-01-10\n\nIf Lightform leaves the battlefield, you don't manifest anything.\n",
                    encoding="utf-8")
    report = kb.build.build([page], home=kb_home, embedder=FakeEmbedder())
    assert report.written and everything > 1000
    assert 0 < seen[-1] < 10, f"{seen[-1]} entries looked at again, of {everything}"


def test_obsolete_terms_found_by_one_build_are_taken_by_the_next(monkeypatch) -> None:
    import kb.terminology

    terms = (Term("comes into play", "enters the battlefield", "2009-07-10", "M10"),
             Term("removed from the game", "exiled", "2009-07-10", "M10"))
    first = Terminology(terms)
    texts = ["When it comes into play, draw a card.", "It is removed from the game.", "Nothing old here."]
    before = [first.obsolete_in(t, Lang.EN) for t in texts]
    table = first.found_table(set(texts))
    assert len(table) == 3
    later = Terminology(terms)
    later.learn(table)
    monkeypatch.setattr(kb.terminology, "_of_lang", lambda *a: (_ for _ in ()).throw(AssertionError("regex run")))
    assert [later.obsolete_in(t, Lang.EN) for t in texts] == before
    assert first.found_table({"Nothing old here."}) == {("Nothing old here.", Lang.EN): ()}


def test_folds_of_one_build_are_taken_by_the_next() -> None:
    from kb.ingest.dedup import Lexicon

    terms = Terminology((Term("comes into play", "enters the battlefield", "2009-07-10", "M10"),))
    first = Lexicon(terminology=terms)
    old, current = "When it comes into play, draw a card.", "When it enters the battlefield, draw a card."
    assert first.fold(old) == current and first.fold(current) == current
    table = first.fold_table([old, current, "never folded"])
    assert table == {old: current, current: None}
    later = Lexicon(terminology=Terminology(terms.terms))
    later.learn_folds({old: "a remembered fold"})
    assert later.fold(old) == "a remembered fold", "the remembered table is what fold answers from"


def test_the_found_table_of_a_terminology_equal_to_another_one() -> None:
    """Two equal terminologies (one per corpus object) share the compiled terms: the table is by value."""
    make = lambda: Terminology((Term("comes into play", "enters the battlefield", "2009-07-10", "M10"),))  # noqa: E731
    text = "When it comes into play, draw a card."
    first, second = make(), make()
    first.obsolete_in(text, Lang.EN)
    second.obsolete_in(text, Lang.EN)
    assert second.found_table({text}) == {(text, Lang.EN): (0,)}


def _lexicon(cards: list[str]) -> dedup.Lexicon:
    from kb.cards import CardNames

    names = CardNames()
    for card in cards:
        names.add(card, Lang.EN, card)
    return dedup.Lexicon(keywords=("morph",), names=names)


MORPH = "Turning Sagu Archer face up with morph is a special action."
PLAIN = "A face-down creature is a 2/2 creature."


def test_a_remembered_signature_is_what_dedup_uses() -> None:
    first = _lexicon(["Sagu Archer"])
    assert ("card", "Sagu Archer") in first.signature(MORPH)
    table = first.signature_table([MORPH, PLAIN])
    poisoned = dict(table, signatures={t: (frozenset({("card", "Poison")}), key)
                                       for t, (_, key) in table["signatures"].items()})
    second = _lexicon(["Sagu Archer"])
    second.learn_signatures(poisoned)
    assert second.signature(MORPH) == frozenset({("card", "Poison")})


def test_signatures_are_read_again_only_where_a_changed_card_name_may_be() -> None:
    """A new card ("Archer Shrine", its first word in MORPH) makes MORPH's signature be computed
    again; PLAIN, where no new name can start, keeps its remembered one."""
    first = _lexicon(["Sagu Archer"])
    first.signature(MORPH), first.signature(PLAIN)
    table = first.signature_table([MORPH, PLAIN])
    marked = dict(table, signatures={t: (sig | {("mark", "kept")}, key) for t, (sig, key) in table["signatures"].items()})
    later = _lexicon(["Sagu Archer", "Archer Shrine", "Zombie Cutthroat"])
    later.learn_signatures(marked)
    assert ("mark", "kept") in later.signature(PLAIN)
    assert ("mark", "kept") not in later.signature(MORPH)
    gone = _lexicon([])  # a removed name counts as changed too
    gone.learn_signatures(marked)
    assert ("card", "Sagu Archer") not in gone.signature(MORPH)


def test_signatures_of_other_keywords_are_not_taken() -> None:
    first = _lexicon(["Sagu Archer"])
    first.signature(PLAIN)
    table = first.signature_table([PLAIN])
    other = dedup.Lexicon(keywords=("megamorph",), names=first.names)
    other.learn_signatures(dict(table, signatures={PLAIN: (frozenset({("mark", "x")}), "")}))
    assert ("mark", "x") not in other.signature(PLAIN)


def test_the_remembered_signatures_are_stale_when_the_phrase_finder_changes(kb_home: Path, monkeypatch) -> None:
    """A signature's CR keywords and card names are found by kb/concepts.py's phrase finder, not
    by dedup's own code: its file is an input of the signatures' memo."""
    import kb.build
    from kb import concepts
    from kb.corpus import Corpus

    asked: dict[str, list[Path]] = {}
    monkeypatch.setattr(kb.build, "load_table", lambda name, inputs: asked.update({name: list(inputs)}) or {})
    kb.build.deduplicate_remembered(RECORDS, embedder=None, corpus=Corpus.default(), lexicon=_lexicon(["Lightform"]))
    assert Path(concepts.__file__) in asked["signatures"]
    # evidence reads the glossary's concepts too: a changed glossary (or its code) finds it again
    from kb.search import glossary

    corpus = Corpus.default()
    assert Path(concepts.__file__) in asked["evidence"] and Path(glossary.__file__) in asked["evidence"]
    assert corpus.folder / glossary.GLOSSARY_FILE in asked["evidence"]

def test_a_card_added_after_a_signature_was_read_is_found_in_it() -> None:
    lexicon = _lexicon([])
    assert not any(kind == "card" for kind, _ in lexicon.signature(MORPH))
    lexicon.add_cards(["Sagu Archer"])
    assert ("card", "Sagu Archer") in lexicon.signature(MORPH)


def test_the_linker_s_index_read_back_from_the_cache_links_as_the_one_built(kb_home: Path, tmp_path: Path) -> None:
    """The CR's lexical index is kept in the cache between builds (it takes seconds to build): read
    back, it gives the same links; a build leaves it in the cache."""
    import pickle

    import kb.build
    from kb.corpus import Corpus
    from kb.cr import links
    from kb.search.embed import FakeEmbedder

    corpus = Corpus.default()
    entries = deduplicate(RECORDS, embedder=None)
    links._INDEXES.clear()
    fresh = links.link_entries(entries, corpus.rules, overrides=corpus.overrides, cards=corpus.card_texts)
    built = links._index_for(corpus.rules)
    links._INDEXES.clear()
    links.remember_index(corpus.rules, lambda make: pickle.loads(pickle.dumps(make())))
    read_back = links._index_for(corpus.rules)
    assert read_back is not built and read_back.version is corpus.rules.current
    again = links.link_entries(entries, corpus.rules, overrides=corpus.overrides, cards=corpus.card_texts)
    assert [(e.rules, e.link_note) for e in again] == [(e.rules, e.link_note) for e in fresh]
    assert any(e.rules for e in fresh)
    links._INDEXES.clear()
    page = tmp_path / "page.txt"
    page.write_text("Lightform\n\n2025-01-10\n\nIf Lightform leaves the battlefield, you don't manifest anything.\n",
                    encoding="utf-8")
    kb.build.build([page], home=kb_home, embedder=FakeEmbedder())
    assert any((kb_home / "cache").glob("linkindex-*.pickle"))


GERMAN = "Wenn Sagu-Bogenschütze umgedreht wird, ist das eine Sonderaktion."


def test_a_remembered_evidence_is_what_dedup_uses() -> None:
    """A translation's evidence is remembered like a signature (half of dedup's time at 100k
    rulings went to finding it again each build): a learned value is the one `evidence` gives."""
    first = _lexicon(["Sagu Archer"])
    assert "Sagu Archer" in first.evidence(MORPH).cards
    table = first.evidence_table([MORPH])
    poisoned = dict(table, evidence={k: (ev._replace(cards=frozenset({"Poison"})), key)
                                     for k, (ev, key) in table["evidence"].items()})
    second = _lexicon(["Sagu Archer"])
    second.learn_evidence(poisoned)
    assert second.evidence(MORPH).cards == frozenset({"Poison"})
    assert second.evidence(MORPH, Lang.DE).cards != frozenset({"Poison"})  # another language: its own


def test_evidence_is_found_again_only_where_a_changed_card_name_may_be() -> None:
    first = _lexicon(["Sagu Archer"])
    first.evidence(MORPH), first.evidence(PLAIN), first.evidence(GERMAN, Lang.DE)
    table = first.evidence_table([MORPH, PLAIN, GERMAN])
    assert len(table["evidence"]) == 3
    marked = dict(table, evidence={k: (ev._replace(digits=ev.digits | {"kept"}), key)
                                   for k, (ev, key) in table["evidence"].items()})
    later = _lexicon(["Sagu Archer", "Archer Shrine"])
    later.learn_evidence(marked)
    assert "kept" in later.evidence(PLAIN).digits
    assert "kept" in later.evidence(GERMAN, Lang.DE).digits
    assert "kept" not in later.evidence(MORPH).digits
    assert later.evidence_table([PLAIN, GERMAN])["evidence"].keys() == {
        k for k in table["evidence"] if k[0] in (PLAIN, GERMAN)}  # a text no longer held is dropped
    idle = _lexicon(["Sagu Archer"])  # a build that asks for no evidence keeps the table
    idle.learn_evidence(marked)
    assert idle.evidence_table([MORPH, PLAIN, GERMAN])["evidence"] == marked["evidence"]


def test_a_card_added_after_evidence_was_learned_is_found_in_it() -> None:
    first = _lexicon([])
    table = first.evidence(MORPH) and first.evidence_table([MORPH])
    assert not first.evidence(MORPH).cards
    later = _lexicon([])
    later.learn_evidence(table)
    later.evidence(PLAIN)  # the learned table is taken now, before the new card
    later.add_cards(["Sagu Archer"])
    assert later.evidence(MORPH).cards == frozenset({"Sagu Archer"})

"""The glossary names every mechanic the way the bundled German and Spanish cards print it.

The terms are derived here from the parallel printed texts (the same printing's English and
German/Spanish text in corpus/mtgjson/), not copied from the glossary.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

from kb.cards import parallel_texts
from kb.ingest.dedup import mechanics_from_rules
from kb.model import Lang
from kb.paths import corpus_dir
from kb.search.text import tokenize
from kb.corpus import Corpus

CORPUS = Corpus.default()


@lru_cache(maxsize=1)
def _parallel():
    return parallel_texts(p.read_text(encoding="utf-8") for p in sorted((corpus_dir() / "mtgjson").rglob("*.json")))


@lru_cache(maxsize=1)
def _mechanics():
    """Glossary concepts that name a mechanic of the Comprehensive Rules (kb.ingest.dedup.mechanics_from_rules)."""
    glossary = CORPUS.glossary
    keywords = set(mechanics_from_rules(CORPUS.rules.versions))
    return glossary, [c for c in glossary.concepts if any(t.lower() in keywords for t in c.terms.get(Lang.EN, ()))]


def _keyword_line_terms(mechanic_words: set[str]) -> dict[tuple[str, Lang], set[str]]:
    """(English keyword, language) -> the printed foreign keyword, from keyword lines such as
    `Megamorph {1}{G} (...)` whose line in the foreign text reads `Megametamorfosis {1}{G}. (...)`."""
    found: dict[tuple[str, Lang], set[str]] = {}
    line = re.compile(r"^([A-Za-z][A-Za-z -]*?)\s*(?:\{|\d|—|\()")
    for p in _parallel():
        en_lines, foreign_lines = p.english.split("\n"), p.foreign.split("\n")
        if len(en_lines) != len(foreign_lines):
            continue
        for en, fo in zip(en_lines, foreign_lines):
            m, f = line.match(en), re.match(r"^([^\W\d][\w -]*?)\s*(?:\{|\d|—|\(|\.)", fo)
            if m and f and m.group(1).lower() in mechanic_words:
                found.setdefault((m.group(1).lower(), p.lang), set()).add(f.group(1))
    return found


def test_parallel_texts_cover_the_face_down_mechanics():
    texts = _parallel()
    assert {p.lang for p in texts} == {Lang.DE, Lang.ES}
    english = " ".join(p.english.lower() for p in texts)
    for mechanic in ("morph", "megamorph", "disguise", "manifest dread", "ward"):
        assert re.search(rf"\b{mechanic}\b", english), mechanic


def test_every_printed_keyword_term_is_in_the_glossary():
    glossary, mechanics = _mechanics()
    words = {t.lower() for c in mechanics for t in c.terms.get(Lang.EN, ())}
    derived = _keyword_line_terms(words)
    assert ("megamorph", Lang.ES) in derived and ("disguise", Lang.DE) in derived
    missing = []
    for (keyword, lang), terms in sorted(derived.items()):
        concept = next(c for c in mechanics if keyword in (t.lower() for t in c.terms[Lang.EN]))
        known = {tuple(tokenize(t)) for t in concept.terms.get(lang, ())}
        missing += [(keyword, lang.value, t) for t in sorted(terms) if tuple(tokenize(t)) not in known]
    assert not missing, f"printed keyword terms the glossary lacks: {missing}"


def _english_mechanics(text: str, mechanics) -> set[str]:
    """Mechanics an English text names as whole words, longest term first ("manifests dread" is
    not also "manifest"); the glossary's crude stemmer would read "Warden" as ward."""
    terms = sorted(((t, c.id) for c in mechanics for t in c.terms[Lang.EN]), key=lambda tc: -len(tc[0]))
    found = set()
    for term, cid in terms:
        words = term.split()
        pattern = r"\b" + r"\s+".join(re.escape(w) + r"(s|d|ed|ing)?" for w in words) + r"\b"
        text, n = re.subn(pattern, " ", text, flags=re.IGNORECASE)
        if n:
            found.add(cid)
    return found


@pytest.mark.parametrize("lang", [Lang.DE, Lang.ES])
def test_glossary_finds_each_mechanic_in_every_printed_text_that_has_it(lang):
    glossary, mechanics = _mechanics()
    ids = {c.id for c in mechanics}
    failures = []
    for p in _parallel():
        if p.lang is not lang:
            continue
        in_english = _english_mechanics(p.english, mechanics)
        in_foreign = {c.id for c in glossary.concepts_in(p.foreign)} & ids
        failures += [(p.card, concept, p.foreign[:80]) for concept in sorted(in_english - in_foreign)]
    assert not failures, failures[:10]


@pytest.mark.parametrize("question", [
    "Zwei meiner Fähigkeiten lösen gleichzeitig aus. Wer bestimmt die Reihenfolge auf dem Stapel?",
    "Ein Effekt macht meinen Zauber teurer und ein anderer billiger, in welcher Reihenfolge wird das gerechnet?",
])
def test_an_everyday_order_in_a_question_is_no_keeping_face_down_objects_apart(question):
    # "Reihenfolge" is the German rulings' word for the order face-down permanents entered (708.6); in a
    # question it is any order (triggers on the stack, cost effects): read only in rulings.
    ids = {c.id for c in CORPUS.glossary.concepts_in(question, (Lang.DE,), question=True)}
    assert "distinguish" not in ids
    ruling = "Die Reihenfolge, in der deine verdeckten Kreaturen ins Spiel gekommen sind, muss erkennbar bleiben."
    assert "distinguish" in {c.id for c in CORPUS.glossary.concepts_in(ruling, (Lang.DE,))}

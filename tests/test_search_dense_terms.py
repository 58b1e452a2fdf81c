"""A German or Spanish question is embedded with the English terms of the rules words it says
(`Glossary.english_terms`, `Weights.dense_terms`, off by default: bench/results/search54.md): e5 ranks the English
texts lower for it than for the same question in English (the parallel dev set, search53c). English questions are
embedded as written.
Hand-made entries, a fake embedder that records what it is asked to embed."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Sequence

import numpy as np
import pytest

from kb.model import Lang
from kb.search import Searcher
from kb.search.embed import FakeEmbedder
from kb.search.glossary import ENGLISH_TERMS
from tests.entries import CORPUS, fake_searcher, rule_entry, ruling_entry

ENTRIES = [
    rule_entry("c-514.2", "514.2", "Second, all damage marked on permanents is removed and all \"until end of turn\" "
               "effects end."),
    rule_entry("c-704.5g", "704.5g", "If a creature has toughness greater than 0, it has damage marked on it, and the "
               "total damage marked on it is greater than or equal to its toughness, that creature has been dealt "
               "lethal damage and is destroyed."),
    ruling_entry("r-morph", "You can cast a card with morph face down for {3}.", "Willbender"),
]


class Recording(FakeEmbedder):
    """The fake embedder, keeping the query texts it was given."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        self.asked.extend(texts)
        return super().embed_queries(texts)


@pytest.mark.parametrize("question, lang, english", [
    ("Kann ich in der Aufräumphase etwas wirken?", Lang.DE, {"cleanup step", "cast"}),
    ("¿Se muere mi criatura en el paso de limpieza?", Lang.ES, {"cleanup step", "dies", "creature"}),
    ("Verschwindet der Schaden am Ende des Zuges?", Lang.DE, {"damage", "end of turn"}),
])  # fmt: skip
def test_rules_words_said_in_german_or_spanish_give_their_english_terms(
        question: str, lang: Lang, english: set[str]) -> None:
    terms = CORPUS.glossary.english_terms(question, lang)
    assert english <= set(terms)
    assert len(terms) == len(set(terms))  # each once


@pytest.mark.parametrize("question, lang, said, unsaid", [
    # a word a lexicon translation covers gives that translation alone, not its concept's head term
    ("¿Se muere mi criatura en el paso de limpieza?", Lang.ES, {"dies"}, {"leaves the battlefield"}),
    ("Stirbt meine Kreatur in der Aufräumphase?", Lang.DE, {"dies", "cleanup step"}, {"leaves the battlefield"}),
    ("Eine Kreatur hat eine +1/+1-Marke. Was passiert mit den Marken?", Lang.DE, {"counter"}, {"markers"}),
    # a concept named by another of its terms gives no head term: "Gegner" is no "control", "Hexerei" no "instant"
    ("Mein Gegner wirkt eine Hexerei.", Lang.DE, {"sorcery", "cast"}, {"control", "instant"}),
    # ... nor a phrase said word for word: "auf dem Stapel" is a spell's place, no "spell"
    ("Wer bestimmt die Reihenfolge auf dem Stapel?", Lang.DE, {"order"}, {"spell"}),
    # a term another holds goes ("zona de mando": `zone` and `command zone`); a concept that says more than the
    # translation of its word's last part stays ("Ersatzeffekte": `replacement effect`, not `effect` alone)
    ("Si mi comandante muere, ¿puedo ponerlo en la zona de mando?", Lang.ES, {"command zone", "commander", "dies"},
     {"zone", "leaves the battlefield"}),
    ("Wenn zwei Ersatzeffekte dasselbe Ereignis ersetzen wollen, wer entscheidet?", Lang.DE, {"replacement effect"},
     {"effect"}),
])  # fmt: skip
def test_the_english_terms_are_those_the_english_question_would_say(
        question: str, lang: Lang, said: set[str], unsaid: set[str]) -> None:
    terms = set(CORPUS.glossary.english_terms(question, lang))
    assert said <= terms and not unsaid & terms


def test_a_question_of_many_rules_words_gives_a_few_terms() -> None:
    question = ("Mein Gegner wirkt eine Hexerei, die alle Kreaturen zerstört. Meine Kreatur hat Fluchsicherheit, sie "
                "kann also nicht als Ziel gewählt werden. Überlebt sie, wenn ich als Antwort ein Artefakt opfere und "
                "eine Karte ziehe?")
    terms = CORPUS.glossary.english_terms(question, Lang.DE)
    assert len(terms) == ENGLISH_TERMS
    assert terms[:3] == ["sorcery", "hexproof", "survive"]  # the lexicon's translations first


def test_an_english_question_has_no_english_terms_to_add() -> None:
    assert CORPUS.glossary.english_terms("Does damage wear off in the cleanup step?", Lang.EN) == []


def _searcher(tmp_path: Path) -> tuple[Searcher, Recording]:
    fake_searcher(ENTRIES, tmp_path / "index")
    embedder = Recording()
    searcher = Searcher.load(tmp_path / "index", ENTRIES, query_embedder=embedder)
    searcher.weights = dataclasses.replace(searcher.weights, dense_terms=True)
    return searcher, embedder


def test_a_german_or_spanish_question_is_embedded_with_its_english_terms(tmp_path: Path) -> None:
    searcher, embedder = _searcher(tmp_path)
    question = "¿Se muere mi criatura en el paso de limpieza?"
    searcher.search(question, limit=3)
    assert embedder.asked[0].startswith(question)
    assert "cleanup step" in embedder.asked[0] and "dies" in embedder.asked[0]
    # off: as written
    embedder.asked.clear()
    searcher.weights = dataclasses.replace(searcher.weights, dense_terms=False)
    searcher.search(question, limit=3)
    assert embedder.asked == [question]


def test_a_question_with_one_english_term_is_embedded_as_written(tmp_path: Path) -> None:
    # one term alone leans the question towards its every use (dev: "(search)", "(damage)" cost a first place)
    searcher, embedder = _searcher(tmp_path)
    question = "¿Puedo buscar menos de tres cartas?"
    assert CORPUS.glossary.english_terms(question, Lang.ES) == ["search"]
    searcher.search(question, limit=3)
    assert embedder.asked == [question]


def test_an_english_question_is_embedded_as_written(tmp_path: Path) -> None:
    searcher, embedder = _searcher(tmp_path)
    question = "Does the creature die in the cleanup step?"
    searcher.search(question, limit=3)
    assert embedder.asked == [question]

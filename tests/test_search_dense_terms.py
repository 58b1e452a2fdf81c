"""A German or Spanish question is embedded with the English terms of the rules words it says
(`Glossary.english_terms`, `Weights.dense_terms`, off by default until refined): e5 ranks the English texts lower
for it than for the same question in English (the parallel dev set, search53c). English questions are embedded as written.
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


def test_an_english_question_is_embedded_as_written(tmp_path: Path) -> None:
    searcher, embedder = _searcher(tmp_path)
    question = "Does the creature die in the cleanup step?"
    searcher.search(question, limit=3)
    assert embedder.asked == [question]

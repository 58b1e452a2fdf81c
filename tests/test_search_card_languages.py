"""A ruling of a card the question names is found whatever language its only text is in (tryout46 D3):
a judge's own German page of a card asked about in English or Spanish shares no word with the
question but the card's name in German (`Searcher._names_in_their_language`). Hand-made entries,
deterministic fake embedder."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kb.corpus import Corpus
from kb.model import Entry, Kind, Lang, Relation, Variant
from kb.search import Searcher, build_index
from kb.search.embed import FakeEmbedder
from tests.entries import ruling_entry as _ruling

CORPUS = Corpus.default()


def _german(eid: str, text: str, card: str) -> Entry:
    v = Variant(text, text, Lang.DE, "2020-01-10", "my-page.txt", 1, Relation.CANONICAL, 1.0, card)
    return Entry(eid, Kind.RULING, text, (card,), "2020-01-10", "2020-01-10", (v,))


ENTRIES = [
    _german("r-nadel", "Lähmungsnadel kann eine Karte benennen, die sich in keiner Zone befindet.", "Pithing Needle"),
    _ruling("r-totem", "Cursed Totem stops the activated abilities of creatures on the battlefield; a card that "
            "isn't on the battlefield can still be named.", "Cursed Totem"),
    _ruling("r-name1", "You can name a card that isn't on the battlefield when you choose a card name.", "Meddling Mage"),
    _ruling("r-name2", "The card named doesn't need to be on the battlefield or in any zone.", "Phyrexian Revoker"),
    _ruling("r-name3", "Naming a card that isn't a legal card name is not possible: you must name a card.", "Declaration"),
    _ruling("r-other", "If a card would be put on the battlefield, it isn't cast.", "Other Card"),
]


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory) -> Searcher:
    folder = tmp_path_factory.mktemp("langs") / "index"
    build_index(ENTRIES, folder, FakeEmbedder(), corpus=CORPUS)
    return Searcher.load(folder, ENTRIES, query_embedder=FakeEmbedder())


@pytest.mark.parametrize("question", [
    "Can Pithing Needle name a card that isn't on the battlefield?",
    "¿Puede la Aguja medular nombrar una carta que no está en el campo de batalla?",
])  # fmt: skip
def test_a_named_cards_ruling_in_another_language_only_is_found(searcher: Searcher, question: str) -> None:
    hits = searcher.search(question, limit=2)
    assert "r-nadel" in [h.entry.id for h in hits]
    assert next(h for h in hits if h.entry.id == "r-nadel").lexical > 0


def test_an_entry_that_shares_the_questions_words_is_scored_as_before(searcher: Searcher) -> None:
    """Only the entries that share no word with the question are read through the card's names: an English
    ruling of the named card is scored by the question's words alone."""
    question = "Can Cursed Totem stop a card that isn't on the battlefield?"
    before = {h.entry.id: h.lexical for h in searcher.search(question, limit=6)}
    assert before["r-totem"] > 0
    said = np.ones(len(searcher.table), dtype=np.float32)  # every entry shares a word with the question
    assert not searcher._names_in_their_language(["Cursed Totem", "Pithing Needle"], said).any()

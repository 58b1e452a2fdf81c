"""A question written as a forum post's title ("Are Face-Down Creatures Colorless?") is lower-cased for
e5, which reads case, but for the card names it says (`text.untitle`, `Weights.untitle`). Dev: real-en-70
("Does Turning a Creature Face Up Count as Entering the Battlefield?") 5 -> 3."""

from __future__ import annotations

from dataclasses import replace

from pathlib import Path
from typing import Sequence

import numpy as np
import pytest

from kb.corpus import Corpus
from kb.search import Searcher, build_index
from kb.search.embed import FakeEmbedder
from kb.search.rank import Weights
from kb.search.text import untitle
from tests.entries import ruling_entry as _ruling

CORPUS = Corpus.default()


@pytest.mark.parametrize("text, keep, expected", [
    ("Are Face-Down Creatures Colorless?", [], "are face-down creatures colorless?"),
    ("Does Turning a Creature Face Up Count as Entering the Battlefield?", [],
     "does turning a creature face up count as entering the battlefield?"),
    # only the title sentence of a post: the text under it is as written
    ("Ward Trigger Not Functioning When Unpaid. I cast Murder on it.", [],
     "ward trigger not functioning when unpaid. I cast Murder on it."),
    # a card's name is a name
    ("Can Ixidron Turn Face-Down Creatures Face Up?", ["Ixidron"], "can Ixidron turn face-down creatures face up?"),
    # a sentence of card names is no title
    ("Oracle of Mul-Daya and Zoetic Cavern.", ["Oracle of Mul-Daya", "Zoetic Cavern"],
     "Oracle of Mul-Daya and Zoetic Cavern."),
    # an ordinary sentence, a name or two capitalised
    ("Can I turn Hooded Hydra face up with Break Open?", [], "Can I turn Hooded Hydra face up with Break Open?"),
])  # fmt: skip
def test_a_title_cased_sentence_is_lower_cased_but_for_its_names(text: str, keep: list[str], expected: str) -> None:
    assert untitle(text, keep) == expected


class _Recording(FakeEmbedder):
    """The fake embedder, keeping the query texts it was given."""

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        self.__dict__.setdefault("asked", []).extend(texts)
        return super().embed_queries(texts)


def _asked(tmp_path: Path, question: str, weights: Weights = Weights()) -> list[str]:
    entries = [_ruling("r-colour", "The face-down permanent is a 2/2 creature. It's colorless.", "Morph Card")]
    build_index(entries, tmp_path / "index", FakeEmbedder(), corpus=CORPUS)
    embedder = _Recording()
    searcher = Searcher.load(tmp_path / "index", entries, query_embedder=embedder, weights=weights)
    searcher.search(question, limit=1)
    asked: list[str] = embedder.__dict__["asked"]
    return asked


def test_the_dense_query_of_a_title_is_lower_cased(tmp_path: Path) -> None:
    # the question's own text alone: no face-down meeting's gist after it (search59: a colour asked of a face-down
    # creature adds 708.2a's words, tests/test_search_face_down_meetings.py)
    plain = Weights(face_down_meetings=False)
    assert _asked(tmp_path, "Are Face-Down Creatures Colorless?", plain) == ["are face-down creatures colorless?"]
    assert _asked(tmp_path / "off", "Are Face-Down Creatures Colorless?", replace(plain, untitle=False)) == [
        "Are Face-Down Creatures Colorless?"]


def test_a_german_question_keeps_its_capitals(tmp_path: Path) -> None:
    """German capitalises every noun: a question of nouns is no title."""
    question = "Haben Verdeckte Kreaturen Beschwörungskrankheit?"
    assert _asked(tmp_path, question) == [question]

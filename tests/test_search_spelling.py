"""A question's small misspelling of a rules term is read as the term (tryout46 D4), as `kb card`
forgives a misspelt card name; an everyday word a letter from a term's is left as written
(`kb.search.spelling`, `Searcher.respelt`, `Weights.respell`). Hand-made entries, fake embedder."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.corpus import Corpus
from kb.search import Searcher, build_index
from kb.search.embed import FakeEmbedder
from kb.search.rank import Weights
from kb.search.spelling import TermSpeller, is_slip
from tests.entries import rule_entry as _rule, ruling_entry as _ruling

CORPUS = Corpus.default()

TERMS = ["foretell", "foretold", "manifest", "manifested", "disguise", "disguised", "Vorhersehen",
         "vorhergesehene", "manifestiert", "presagiada", "exiliada", "Gegner", "jugado", "expend"]


@pytest.mark.parametrize("written, read", [
    ("foertell", "foretell"),  # two letters swapped
    ("maniefst", "manifest"),
    ("Dsiguised", "disguised"),  # capitalised: the first letter's case kept
    ("vorhergeseehne", "vorhergesehene"),  # German, a long word: two letters swapped
    ("vorhrgesehene", "vorhergesehene"),  # ... a letter dropped
    ("manifesteirt", "manifestiert"),
    ("presaigada", "presagiada"),  # Spanish
])  # fmt: skip
def test_a_slip_in_a_terms_word_is_read_as_it(written: str, read: str) -> None:
    text, pairs = TermSpeller(TERMS).respell(f"Can I see the {written} card now?", lambda w: False)
    want = read[:1].upper() + read[1:] if written[:1].isupper() else read
    assert pairs == [(written, want)] and f"the {want} card" in text


@pytest.mark.parametrize("word", [
    "Gegners", "jugador", "exiliadas",  # an inflection: a letter more or other at the end
    "extend",  # a short word a letter from a term's ("expend")
    "manifests",  # no slip: a form the list does not have
    "fortel",  # too short for a dropped letter
    "foretell",  # the term itself
])
def test_an_everyday_word_or_inflection_is_left_as_written(word: str) -> None:
    assert TermSpeller(TERMS).respell(f"Is {word} here?", lambda w: False) == (f"Is {word} here?", [])


def test_two_terms_as_close_leave_the_word_as_written() -> None:
    assert TermSpeller(["kbacdefg", "kabcdegf"]).closest("kabcdefg") is None  # a swap from each
    assert is_slip("disgiuse", "disguise") and not is_slip("gegners", "gegner")


ENTRIES = [
    _rule("c-702.143a", "702.143a", "Foretell is a keyword that functions while the card with foretell is in a "
          "player's hand. Any time a player has priority during their turn, that player may pay {2} and exile a card "
          "with foretell from their hand face down."),
    _rule("c-gl-foretell", "glossary:Foretell", "Foretell: A keyword ability that lets a player exile cards from their "
          "hand and cast them for an alternative cost on future turns. See rule 702.143, \"Foretell.\""),
    _rule("c-601.2", "601.2", "To cast a spell is to take it from where it is, put it on the stack, and pay its costs."),
    _ruling("r-turn", "You can cast the card on the same turn you exiled it with this ability.", "Some Card"),
    _ruling("r-ward", "If the spell costs more to cast because of a ward ability, you still pay the extra cost.",
            "Other Card"),
]


def _searcher(tmp_path: Path, respell: bool) -> Searcher:
    build_index(ENTRIES, tmp_path / "index", FakeEmbedder(), corpus=CORPUS)
    searcher = Searcher.load(tmp_path / "index", ENTRIES, query_embedder=FakeEmbedder())
    searcher.weights = Weights(respell=respell)
    return searcher


def test_a_misspelt_keyword_finds_its_rules_as_the_keyword_does(tmp_path: Path) -> None:
    searcher = _searcher(tmp_path, True)
    right = searcher.search("Can I cast a card the turn I foretold it?", limit=5)
    assert right[0].entry.id in {"c-702.143a", "c-gl-foretell"}
    assert searcher.search("Can I cast a card the turn I forteold it?", limit=5) == right
    searcher.weights = Weights(respell=False)  # as written: the keyword's words are lost to BM25
    lost = {h.entry.id: h.lexical for h in searcher.search("Can I cast a card the turn I forteold it?", limit=5)}
    assert all(lost[h.entry.id] < h.lexical for h in right if h.entry.id in ("c-702.143a", "c-gl-foretell"))


@pytest.mark.parametrize("question", [
    "Can I cast the card I exiled this turn?",  # every word is a ruling's
    "Does Lightfrom get foretold?",  # a misspelt card name is the card's, not a term's
])
def test_a_word_the_kb_knows_is_not_respelt(tmp_path: Path, question: str) -> None:
    assert _searcher(tmp_path, True).respelt(question) == (question, [])


def test_a_word_of_a_card_name_is_not_respelt(tmp_path: Path) -> None:
    # "Manifold" is no term's slip, but a card name's word is known even when one letter from a term:
    # "Disguiser" would be read as a word of a name, not as disguised
    searcher = _searcher(tmp_path, True)
    assert searcher.cards.matcher.says_word("Insectile") and not searcher.cards.matcher.says_word("forteold")


def test_a_question_is_respelt_once_for_the_note_and_the_search(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `kb search` asks `respelt` for its note and `search` asks again for the query: one reading serves both
    searcher = _searcher(tmp_path, True)
    calls: list[str] = []
    respell = TermSpeller.respell
    monkeypatch.setattr(TermSpeller, "respell", lambda self, text, known: calls.append(text) or respell(self, text, known))
    _, pairs = searcher.respelt("Can I cast a card the turn I  forteold it?")
    searcher.search("Can I cast a card the turn I forteold it?", limit=5)
    assert pairs == [("forteold", "foretold")] and len(calls) == 1
    searcher.search("Can I cast a card the turn I foretold it?", limit=5)  # another question is read anew
    assert len(calls) == 2


def test_a_callers_change_to_a_reading_does_not_change_the_next(tmp_path: Path) -> None:
    # review48 L5: the memo handed back its own list
    searcher = _searcher(tmp_path, True)
    searcher.respelt("Can I cast a card the turn I forteold it?")[1].clear()
    assert searcher.respelt("Can I cast a card the turn I forteold it?")[1] == [("forteold", "foretold")]

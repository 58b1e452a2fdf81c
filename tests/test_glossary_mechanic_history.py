"""A ruling's word is a mechanic only if the mechanic existed when the ruling was written
(kb.search.glossary.MechanicHistory): "to disguise" in a 2014 ruling is the English verb (tryout23
defect 1), "its disguise cost" in a 2024 ruling is the keyword."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.corpus import Corpus
from kb.model import Entry, Kind, Lang, Relation, Variant
from kb.search import Searcher, build_index
from kb.search.embed import FakeEmbedder
from kb.search.glossary import Concept, Glossary, MechanicHistory

CORPUS = Corpus.default()
GLOSSARY = CORPUS.glossary
HISTORY = CORPUS.mechanic_history

SHUFFLED = ("The pile is shuffled to disguise from your opponents which manifested creature is which. "
            "After you manifest the cards, you can look at them.")  # Ghastly Conscription, 2014-11-24
REVEAL = ("If a face-down spell leaves the stack and goes to any zone other than the battlefield (if it was "
          "countered, for example), you must reveal it.")  # the MKM / DSK ruling, 2024-02-02
DISGUISE_COST = "You can turn a face-down permanent face up any time you have priority by paying its disguise cost."


def concepts(text: str, written: str | None) -> list[str]:
    return [c.id for c in GLOSSARY.concepts_in(text, (Lang.EN,), unknown=HISTORY.unknown_on(written))]


@pytest.mark.parametrize(("text", "written", "mechanic", "found"), [
    (SHUFFLED, "2014-11-24", "disguise", False),  # the verb, ten years before 702.168
    (SHUFFLED, "2014-11-24", "manifest", True),  # Fate Reforged's rulings came out before its CR (2015-01-23)
    (DISGUISE_COST, "2024-02-02", "disguise", True),
    ("A cloak of shadows covers the pile.", "2015-01-23", "cloak", False),
    ("The creature is cloaked.", "2024-02-02", "cloak", True),
    (SHUFFLED, None, "disguise", True),  # no date: nothing tells the words apart
])
def test_a_rulings_word_is_a_mechanic_only_once_the_mechanic_exists(text: str, written: str | None,
                                                                    mechanic: str, found: bool) -> None:
    assert (mechanic in concepts(text, written)) is found


def test_the_history_is_read_from_the_complete_crs_that_lack_the_keyword() -> None:
    # the corpus's last complete CR without disguise is 2018-07-13's; its face-down extract of
    # 2024-02-02 has it; morph is in every CR, so no date says a ruling predates it
    assert HISTORY.absent_on["disguise"] == "2018-07-13"
    assert HISTORY.absent_on["manifest"] == "2014-09-25"
    assert "morph" not in HISTORY.absent_on and "face_down" not in HISTORY.absent_on


class _Version:
    def __init__(self, date: str, keywords: set[str], complete: bool = True) -> None:
        self.date, self.keywords, self.complete = date, keywords, complete


def test_an_extract_proves_no_absence_and_a_dropped_keyword_no_arrival() -> None:
    glossary = Glossary([Concept("disguise", {Lang.EN: ("disguise",)}), Concept("banding", {Lang.EN: ("banding",)})])
    versions = [_Version("2010-01-01", {"banding"}), _Version("2020-01-01", set(), complete=False),
                _Version("2024-02-02", {"disguise"})]
    history = MechanicHistory.from_rules(glossary, versions, lambda v: v.keywords)
    assert history.absent_on == {"disguise": "2010-01-01"}


def _ruling(id_: str, text: str, date: str, card: str) -> Entry:
    return Entry(id_, Kind.RULING, text, (card,), date, date,
                 (Variant(text, text, Lang.EN, date, "seed", 1, Relation.CANONICAL, 1.0, card),))


@pytest.mark.parametrize(("question", "answer"), [
    # tryout23 Q18: the 2014 ruling's "to disguise" outranked the reveal ruling of a disguise question
    ("My opponent cast a face-down creature with disguise and I countered it. Do they have to show me "
     "what card it was?", "r-reveal"),
    ("disguise", "r-cost"),
])
def test_a_disguise_question_does_not_take_the_verb_for_the_mechanic(tmp_path: Path, question: str,
                                                                     answer: str) -> None:
    entries = [_ruling("r-shuffled", SHUFFLED, "2014-11-24", "Ghastly Conscription"),
               _ruling("r-reveal", REVEAL, "2024-02-02", "Unyielding Gatekeeper"),
               _ruling("r-cost", DISGUISE_COST, "2024-02-02", "Unyielding Gatekeeper")]
    build_index(entries, tmp_path / "index", FakeEmbedder(), corpus=CORPUS)
    searcher = Searcher.load(tmp_path / "index", entries, query_embedder=FakeEmbedder())
    assert searcher.search(question, limit=1)[0].entry.id == answer


def test_a_translation_of_the_verb_need_not_name_the_mechanic() -> None:
    """dedup's evidence, which a translation must share with its English ruling: the 2014 ruling's
    "to disguise" names no mechanic, so a German "verschleiern" need not say "Tarnung"."""
    from kb.build import load_lexicon

    lexicon = load_lexicon(CORPUS, CORPUS.names)
    assert lexicon.evidence(SHUFFLED, Lang.EN, "2014-11-24").mechanics == {"manifest"}
    assert "disguise" in lexicon.evidence(DISGUISE_COST, Lang.EN, "2024-02-02").mechanics


def test_a_wording_is_dated_by_its_first_variant_and_a_cr_clause_by_none() -> None:
    """A CR clause is the current CR's text, whatever date its lineage starts at (702.168's "disguise
    cost includes X" descends from morph's 2014 clause): it names no mechanic too early."""
    clause = "If a permanent's disguise cost includes X, other abilities of that permanent may also refer to X."
    rule = Entry("c-x", Kind.RULE, clause, (), "2014-09-25", "2026-01-16",
                 (Variant("702.37d " + clause, clause, Lang.EN, "2014-09-25", "cr", 1, Relation.CANONICAL, 1.0, None),),
                 clause="702.168d")
    assert rule.written(clause) is None
    ruling = _ruling("r-shuffled", SHUFFLED, "2014-11-24", "Ghastly Conscription")
    assert ruling.written(SHUFFLED) == "2014-11-24"
    assert ruling.written("a newer canonical wording no variant carries") == "2014-11-24"

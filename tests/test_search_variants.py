"""A casual variant the question names (Commander) is asked about through its CR rule (903), as a keyword no
ruling is about is (`Searcher._keyword_rules`): the stemmer reads "commander" as "command", the word of the
command zone that conspiracy, scheme and plane rulings say, so without a concept of its own a commander
question met those rulings first (try-out 47 D1). Hand-made entries, deterministic fake embedder."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kb.model import Lang
from kb.search import Searcher
from kb.search.index import GlossaryTerms
from kb.search.question import keyword_rules
from tests.entries import CORPUS, fake_searcher, ranked_ids, rule_entry as _rule, ruling_entry as _ruling

ENTRIES = [
    _rule("c-903", "903", "Commander"),
    _rule("c-903.9", "903.9", "A commander may return to the command zone during a Commander game."),
    _rule("c-903.9a", "903.9a", "If a commander is in a graveyard or in exile and that object was put into that zone "
          "since the last time state-based actions were checked, its owner may put it into the command zone."),
    _rule("c-gl-commander", "glossary:Commander", "Commander: 1. A casual variant in which each deck is led by a "
          "legendary card. See rule 903, \"Commander.\" 2. A designation given to one legendary card."),
    _rule("c-gl-command", "glossary:Command", "Command: A zone for certain specialized objects that have an "
          "overarching effect on the game. See rule 408, \"Command.\""),
    _rule("c-gl-ninjutsu", "glossary:Commander Ninjutsu", "Commander Ninjutsu: A variant of the ninjutsu ability. "
          "See rule 702.49, \"Ninjutsu.\""),
    _rule("c-702.49a", "702.49a", "Ninjutsu is an activated ability that functions only while the card with ninjutsu "
          "is in a player's hand."),
    _rule("c-408.1", "408.1", "The command zone is a game area reserved for certain specialized objects."),
    _ruling("r-consp1", "You can't put conspiracies into the command zone after the game begins. You may put it "
            "into the command zone only as the game begins.", "Conspiracy Card"),
    _ruling("r-consp2", "A conspiracy's abilities function as long as it is face up in the command zone; you may "
            "put it there as the game begins.", "Other Conspiracy"),
    _ruling("r-scheme", "Scheme cards remain in the command zone; if one would leave it, it stays there.", "Scheme"),
]

QUESTIONS = [
    ("If my commander dies can I put it in the command zone?", Lang.EN),
    ("Mein Kommandeur stirbt. Darf ich ihn in die Kommandozone legen?", Lang.DE),
    ("Si mi comandante muere, ¿puedo ponerlo en la zona de mando?", Lang.ES),
]


def _searcher(tmp_path: Path) -> Searcher:
    return fake_searcher(ENTRIES, tmp_path / "index")


def _lifted(searcher: Searcher, question: str, lang: Lang) -> set[str]:
    lifted = searcher._keyword_rules(question, tuple(dict.fromkeys((Lang.EN, lang))))
    return {searcher.table.ids[i] for i in np.flatnonzero(lifted)}


def test_a_variants_glossary_entry_names_its_rule() -> None:
    assert keyword_rules("Commander: 1. A casual variant in which each deck is led by a legendary card. "
                         "See rule 903, \"Commander.\"") == ["903"]
    assert keyword_rules("Command: A zone for certain specialized objects. See rule 408, \"Command.\"") == []


def test_commander_and_the_command_zone_are_two_concepts() -> None:
    glossary = CORPUS.glossary
    assert [c.id for c in glossary.concepts_in("my commander", (Lang.EN,), question=True)] == ["commander"]
    assert [c.id for c in glossary.concepts_in("the command zone", (Lang.EN,), question=True)] == ["command_zone"]
    for question, lang in QUESTIONS:
        found = {c.id for c in glossary.concepts_in(question, (Lang.EN, lang), question=True)}
        assert {"commander", "command_zone"} <= found, question


@pytest.mark.parametrize("question, lang", QUESTIONS)
def test_a_commander_question_lifts_the_commander_rules(tmp_path: Path, question: str, lang: Lang) -> None:
    assert _lifted(_searcher(tmp_path), question, lang) == {"c-903.9", "c-903.9a", "c-gl-commander"}


@pytest.mark.parametrize("question, lang", QUESTIONS)
def test_a_commander_question_finds_the_commander_rule_before_conspiracy_rulings(tmp_path: Path, question: str,
                                                                              lang: Lang) -> None:
    top = ranked_ids(_searcher(tmp_path), question, limit=3)
    assert "c-903.9a" in top, top


def test_a_term_is_read_as_a_concept_only_when_the_concept_reads_all_of_it(tmp_path: Path) -> None:
    """"Commander Ninjutsu" is no `commander` term: a commander question is not about ninjutsu."""
    searcher = _searcher(tmp_path)
    terms = GlossaryTerms.of(searcher.table, searcher.glossary)
    read = {searcher.table.ids[row]: concept for concept, row, _ in terms.concepts}
    assert "c-gl-ninjutsu" not in read
    assert read.get("c-gl-commander") == "~commander"

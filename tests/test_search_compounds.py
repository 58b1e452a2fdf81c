"""German compounds in a question: "Morphkreaturen" is read as "Morph" + "Kreaturen", the glossary
words it is made of (kb.search.text.split_compounds). Hand-made entries, deterministic fake embedder."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kb.model import Entry, Kind, Lang, Relation, Variant
from kb.search import Searcher
from kb.search.text import split_compounds
from tests.entries import CORPUS, fake_searcher


@pytest.mark.parametrize("text, split", [
    ("Kann Gallenfäule mehrere Morphkreaturen töten?", "Kann Gallenfäule mehrere morph kreaturen töten?"),
    ("hat die Spielsteinkopie Flugfähigkeit?", "hat die spielstein kopie flug fahigkeit?"),
    ("Kampfschaden", "kampf schaden"),
    ("Kreaturenkarte", "Kreaturenkarte"),  # a glossary term itself: kept whole
    ("Gestaltwandler", "Gestaltwandler"),  # ends in no glossary word
    ("Weideland", "Weideland"),  # "Land" is a glossary word, but too short a tail to split on
])  # fmt: skip
def test_a_german_compound_is_written_apart_where_it_ends_in_a_glossary_word(text: str, split: str) -> None:
    assert split_compounds(text, CORPUS.glossary.words(Lang.DE)) == split


@pytest.mark.parametrize("text, split", [
    ("Eine Kreatur mit Trampelschaden", "Eine Kreatur mit Trampelschaden"),  # trample's printed name: kept whole
    ("Wann wird bei Erstschlag der Kampfschaden zugefügt?", "Wann wird bei Erstschlag der Kampfschaden zugefügt?"),
    ("Kann Gallenfäule mehrere Morphkreaturen töten?", "Kann Gallenfäule mehrere morph kreaturen töten?"),
])  # fmt: skip
def test_a_compound_that_is_a_translated_term_itself_is_kept_whole(text: str, split: str) -> None:
    # search51d: "Trampelschaden" written apart was "trampel schaden", damage, and no longer trample
    glossary = CORPUS.glossary
    assert split_compounds(text, glossary.words(Lang.DE), glossary.whole_words(Lang.DE)) == split


def test_a_german_question_with_trampelschaden_asks_about_trample(tmp_path: Path) -> None:
    from kb.search.cardnames import CardIndex, CardMatcher

    entries = [_entry("r-trample", "A creature with trample can assign the excess to the player it attacks."),
               _entry("r-damage", "Damage dealt to a creature stays marked on it until the cleanup step."),
               _entry("r-draw", "You draw a card at the beginning of your upkeep.")]
    searcher = fake_searcher(entries, tmp_path / "index", cards=CardIndex(CardMatcher({}), {}))
    lexical = {h.entry.id: h.lexical for h in searcher.search("Wie funktioniert eigentlich Trampelschaden bei uns?", limit=3)}
    # its tail "schaden" still finds damage (the glossary reads a compound's parts); written apart, it lost trample
    assert lexical["r-trample"] > 0.0


def test_the_glossary_words_are_its_one_token_terms_of_that_language() -> None:
    words = CORPUS.glossary.words(Lang.DE)
    assert {"kreatur", "morph", "kopi"} <= words
    assert "morph" in CORPUS.glossary.words(Lang.EN) and "kreatur" not in CORPUS.glossary.words(Lang.EN)


def _entry(eid: str, text: str) -> Entry:
    variant = Variant(text, text, Lang.EN, "2018-07-13", "seed", 1, Relation.CANONICAL, 1.0, None)
    return Entry(eid, Kind.RULING, text, (), "2018-07-13", "2018-07-13", (variant,))


ENTRIES = [
    _entry("r-morph", "A face-down creature with morph can be turned face up for its morph cost."),
    _entry("r-aura", "Auras attached to a permanent stay attached when it phases out."),
    _entry("r-life", "You gain 3 life for each card in your hand."),
    _entry("r-draw", "You draw a card at the beginning of your upkeep."),
]


def _searcher(tmp_path: Path, **weights: object) -> Searcher:
    from kb.search.cardnames import CardIndex, CardMatcher
    from kb.search.rank import Weights

    return fake_searcher(ENTRIES, tmp_path / "index", cards=CardIndex(CardMatcher({}), {}),
                         weights=dataclasses.replace(Weights(), **weights))


def test_a_german_question_reaches_the_concepts_its_compound_is_made_of(tmp_path: Path) -> None:
    """ "Morphkreaturen" is one token no English ruling holds: only its parts meet the morph ruling."""

    def morph_lexical(question: str, **weights: object) -> float:
        hits = _searcher(tmp_path / str(len(list(tmp_path.iterdir()))), **weights).search(question, limit=4)
        assert hits[0].entry.id == "r-morph"
        return {h.entry.id: h for h in hits}["r-morph"].lexical

    compound = "Wann darf man Morphkreaturen umdrehen?"
    plain = morph_lexical("Wann darf man umdrehen?")  # "umdrehen" (turn face up) alone
    # Two paths reach the parts: the compound written apart for the lexical side (`Weights.compounds`,
    # real9) and the glossary's word parts in the question's concepts (search9, merged beside it):
    # either alone lifts the morph ruling (which of the two to keep is an open ablation)
    assert morph_lexical(compound) > 1.5 * plain  # its parts: morph, creature
    assert morph_lexical(compound, compounds=False) > 1.5 * plain


# ------------------------------------------------------------------ separable verbs (search51b, tryout 51 D4)
@pytest.mark.parametrize("text, joined", [
    ("Ich decke meine manifestierte Karte auf.", "Ich aufdecke meine manifestierte Karte."),
    ("Dann drehe ich sie um, und sie hat Trampelschaden.", "Dann umdrehe ich sie, und sie hat Trampelschaden."),
    ("Er kommt heute an.", "Er kommt heute an."),  # "ankomm" is no glossary word: left as written
    ("Er deckt sie auf", "Er aufdeckt sie"),
])  # fmt: skip
def test_a_separable_verbs_particle_is_written_onto_its_verb(text: str, joined: str) -> None:
    from kb.search.text import join_particles

    assert join_particles(text, CORPUS.glossary.words(Lang.DE)) == joined


def test_a_german_question_with_a_separable_verb_reaches_its_concept(tmp_path: Path) -> None:
    """ "Ich drehe meine Kreatur mit Morph um" is umdrehen, turn face up: the morph ruling that says it holds more of
    the question than with the particle left at the end, where "drehe" alone meets nothing."""
    question = "Ich drehe meine Kreatur um. Wann darf ich das?"

    def morph_lexical(**weights: object) -> float:
        hits = _searcher(tmp_path / str(len(list(tmp_path.iterdir()))), **weights).search(question, limit=4)
        return {h.entry.id: h.lexical for h in hits}.get("r-morph", 0.0)

    assert morph_lexical() > 1.2 * morph_lexical(particles=False)


@pytest.mark.parametrize("question", [
    "Darauf steht: «Wenn diese Kreatur das Schlachtfeld betritt, ziehst du zwei Karten.»",  # printed, verb last
    "Die Kreatur betritt das Schlachtfeld.",  # a main clause, verb second
])  # fmt: skip
def test_entering_the_battlefield_is_read_in_either_german_word_order(question: str) -> None:
    assert "~enters_the_battlefield" in CORPUS.glossary.question_tokens(question, (Lang.EN, Lang.DE))

"""Language-neutral relevance: each text is read with its own language's glossary terms (a question
with English's too), a phrase that tokenises to one everyday word is no term, a quoted nickname is
found in rulings only, and a German or Spanish question's own words weigh less on English texts.
Hand-made glossaries and entries, deterministic fake embedder."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kb.model import Entry, Kind, Lang, Relation, Variant
from kb.search import Searcher
from kb.search.glossary import Glossary
from kb.search.text import tokenize
from tests.entries import CORPUS, fake_searcher

EN, DE, ES = Lang.EN, Lang.DE, Lang.ES

GLOSSARY = Glossary.from_yaml("""
concepts:
  - id: turn_face_up
    en: [turn face up, flip, flip over]
    de: [aufdecken, decke auf]
  - id: library
    en: [library, deck]
    de: [Bibliothek, Deck]
  - id: trigger
    en: [trigger, triggers]
    de: [löst, löst aus]
  - id: form
    en: ['"Form"', Lightform]
""")


def _ids(text: str, langs: tuple[Lang, ...] = tuple(Lang), question: bool = False) -> list[str]:
    return [c.id for c in GLOSSARY.concepts_in(text, langs, question=question)]


def test_a_phrase_left_with_one_everyday_word_is_no_term() -> None:
    # "decke auf" tokenises to "deck" (auf is a function word): not every deck is turned face up
    assert _ids("Ich habe nur noch eine Karte im Deck", (EN, DE)) == ["library"]
    # a one-word term of the same concept keeps the phrase: "flip over" is "flip"
    assert _ids("Can I flip it over?", (EN,)) == ["turn_face_up"]


def test_the_bundled_glossary_reads_no_concept_into_function_words() -> None:
    found = {c.id for c in CORPUS.glossary.concepts_in("one card left in my deck", (EN,), question=True)}
    assert "library" in found and not found & {"distinguish", "turn_face_up"}
    assert "battlefield" not in {c.id for c in CORPUS.glossary.concepts_in("¿Sigue en juego?", (EN, ES))}


def test_each_text_is_read_with_its_own_languages_terms() -> None:
    assert "trigger" not in _ids("The creature lost all its abilities", (EN,))  # German "löst" folds to "lost"
    assert "trigger" in _ids("Löst das aus?", (EN, DE), question=True)


def test_a_quoted_nickname_is_found_in_rulings_not_in_questions() -> None:
    assert _ids('If the creature is turned face up, the "Form" will continue to enchant it.', (EN,)) == [
        "turn_face_up", "form"]
    assert _ids("Is there a form of turning it face up?", (EN,), question=True) == ["turn_face_up"]
    assert "form" in _ids("Lightform is on my creature", (EN,), question=True)


def _entry(eid: str, text: str) -> Entry:
    variant = Variant(text, text, Lang.EN, "2018-07-13", "seed", 1, Relation.CANONICAL, 1.0, "Lightform")
    return Entry(eid, Kind.RULING, text, ("Lightform",), "2018-07-13", "2018-07-13", (variant,))


def _searcher(tmp_path: Path, entries: list[Entry], **weights: object) -> Searcher:
    from kb.search.cardnames import CardIndex, CardMatcher
    from kb.search.rank import Weights

    return fake_searcher(entries, tmp_path / "index", cards=CardIndex(CardMatcher({}), {}),
                         weights=dataclasses.replace(Weights(), **weights))


def test_an_english_ruling_is_not_indexed_with_a_german_terms_concept(tmp_path: Path) -> None:
    entries = [_entry("r-lost", "A manifested creature that lost its abilities and lost its name stays a 2/2 creature."),
               _entry("r-trigger", "Its ability triggers only if the creature is a creature when it is turned face up.")]
    hits = _searcher(tmp_path, entries).search("Löst das aus, wenn ich die manifestierte Kreatur aufdecke?", limit=2)
    assert hits[0].entry.id == "r-trigger"


FORMS = [_entry("r-form", 'If the enchanted creature is turned face up, the "Form" will continue to enchant it.'),
         _entry("r-form2", 'You manifest the top card of your library even if the "Form" has left the battlefield.'),
         _entry("r-sorcery", "If something tries to turn a face-down instant or sorcery card face up, reveal it.")]


def test_a_spanish_questions_own_words_weigh_less_than_its_concepts(tmp_path: Path) -> None:
    question = "Manifesté un conjuro. ¿Hay alguna forma de ponerlo boca arriba?"  # forma: a way, not the "Form"

    def best_lexical(searcher: Searcher) -> str:
        return max(searcher.search(question, limit=3), key=lambda h: h.lexical).entry.id

    # the translations' English words ("conjuro": sorcery, search51d) now find r-sorcery whatever the own words
    # weigh; with them off, the weight of the question's own words alone decides
    assert best_lexical(_searcher(tmp_path / "a", FORMS, foreign_words=1.0, translation=0.0)) == "r-form2"
    assert best_lexical(_searcher(tmp_path / "b", FORMS, translation=0.0)) == "r-sorcery"
    assert best_lexical(_searcher(tmp_path / "c", FORMS)) == "r-sorcery"


@pytest.mark.parametrize("words, concept", [
    ("I had to manifest dread with one card left in my deck", "library"),
    ("Nur noch eine Karte im Deck", "library"),
    ("Íxidron entra al campo al mismo tiempo que otra criatura", "simultaneous"),
    ("Both enter the battlefield at the same time", "simultaneous"),
    ("Lo puse boca abajo", "turn_face_down"),
    ("When this creature enters, draw a card", "enters_the_battlefield"),  # the rulings' wording since 2024
    ("Do I still get a 2/2 or does it go to the yard?", "graveyard"),
    ("What happens if I blink my manifested creature?", "return_to_battlefield"),
    # the game's everyday words, in the printed German and Spanish terms
    ("Ich habe ein Land manifestiert", "land"),
    ("Gonti exilió una tierra de mi rival. ¿Puedo jugarla?", "play"),
    ("Kann ich trotzdem Leben zahlen?", "pay"),
    ("¿Puedo perder vida por algo que no sea daño?", "life"),
    ("Mein Gegner hat meinen Zauberbuch-Dieb übernommen", "gain_control"),
    ("My opponent stole my Grimoire Thief", "gain_control"),
    ("Si la pongo boca arriba, ¿deja de estar bloqueada?", "unblocked"),
    ("Is that a real spell my opponent can counterspell?", "counter_spell"),
    ("Wird meine erste Kreatur dann doppelt billiger?", "cost_reduction"),
    ("Tezzeret hat mein Artefakt zu einer 5/5 gemacht", "artifact"),
])
def test_players_words_reach_the_concept(words: str, concept: str) -> None:
    assert concept in {c.id for c in CORPUS.glossary.concepts_in(words, question=True)}


def test_a_rulings_dense_rank_is_its_rank_among_the_rulings(tmp_path: Path) -> None:
    """CR clauses closer to the question in e5 do not push a ruling's dense rank down: each kind is
    ranked among its own, the `rule` weight decides between them."""
    import numpy as np

    from kb.search.focus import focus

    rulings = [_entry(f"r-{i}", f"Ruling number {i} about face-down creatures.") for i in range(3)]
    clauses = [Entry(f"c-{i}", Kind.RULE, f"708.{i} Clause about face-down permanents.", (), "", "", (),
                     clause=f"708.{i}") for i in range(10)]
    entries = rulings + clauses
    searcher = _searcher(tmp_path, entries, local=0.0, other_card=1.0)
    w = searcher.weights
    dense = np.array([0.5, 0.4, 0.3] + [0.9] * 10, dtype=np.float32)  # every clause above every ruling
    lexical = np.array([1.0, 2.0, 3.0] + [0.0] * 10, dtype=np.float32)
    question = "a face-down question"
    fused = searcher._fuse(False, focus(question), dense, lexical, [])
    assert np.isclose(fused[0], w.dense / (w.rrf_k + 1) + w.lexical / (w.rrf_k + 3) + 1e-6 * 0.5)
    assert np.isclose(fused[3], w.rule * (w.dense / (w.rrf_k + 1) + 1e-6 * 0.9))

"""A German or Spanish question's word that holds a glossary term finds its concept: an inflection
the stemmer leaves longer than the listed form, a German compound (head first or last). Rulings are
read with the exact terms only (the index is not changed)."""

from __future__ import annotations

import pytest

from kb.model import Lang
from kb.search.glossary import Concept, Glossary
from kb.search.text import tokenize

GLOSSARY = Glossary([
    Concept("morph", {Lang.EN: ("morph",), Lang.DE: ("Morph",), Lang.ES: ("metamorfosis",)}),
    Concept("creature", {Lang.EN: ("creature",), Lang.DE: ("Kreatur",), Lang.ES: ("criatura",)}),
    Concept("counter_spell", {Lang.EN: ("counter",), Lang.DE: ("neutralisieren",), Lang.ES: ("contrarrestar", "contrarresta")}),
    Concept("cast", {Lang.EN: ("cast",), Lang.ES: ("lanzar",)}),
    Concept("play", {Lang.EN: ("play",), Lang.DE: ("spielen", "Spiel"), Lang.ES: ("jugado", "jugada")}),
    Concept("disguise", {Lang.EN: ("disguise",), Lang.DE: ("Verkleidung",)}),
    Concept("manifest_dread", {Lang.EN: ("manifest dread",), Lang.DE: ("manifestieren das Grauen", "das Grauen")}),
    Concept("vote", {Lang.EN: ("vote",), Lang.DE: ("abstimmen", "Abstimmung", "Stimme")}),
    Concept("protection", {Lang.EN: ("protection",), Lang.DE: ("Schutz vor", "Schutz")}),
])


def concepts(question: str, lang: Lang) -> list[str]:
    return GLOSSARY.concept_tokens(tokenize(question), (Lang.EN, lang), question=True)


@pytest.mark.parametrize("question, lang, expected", [
    ("Sind Morphkreaturen farblos?", Lang.DE, ["~morph", "~creature"]),  # compound, head last
    ("Was kostet die Kartenverkleidung?", Lang.DE, ["~disguise"]),  # compound, head last only
    ("¿Cuentan los hechizos que me contrarrestaron?", Lang.ES, ["~counter_spell"]),  # preterite
    ("¿Puedo lanzarla otra vez?", Lang.ES, ["~cast"]),  # a pronoun written onto the infinitive
    # a noun's case ending on top of the one the stemmer cuts: genitive "Grauens" (`grauen`, not `grau`)
    ("Wie funktioniert Manifestieren des Grauens?", Lang.DE, ["~manifest_dread"]),
    ("Zählen die Stimmenanteile?", Lang.DE, ["~vote"]),  # compound, head first
])
def test_a_foreign_questions_word_holding_a_term_finds_its_concept(question, lang, expected):
    assert concepts(question, lang) == expected


@pytest.mark.parametrize("question, lang", [
    ("Darf mein Mitspieler das sehen?", Lang.DE),  # "Mit" is too short a first part: no `Spiel`
    ("¿Quién es el jugador activo?", Lang.ES),  # "-or" is no verb ending: a player, not `jugado`
    ("Who controls the morphling?", Lang.EN),  # English is read with its terms as they are
    # a verb with a person's ending names no concept whose verb is another: "stimmen" (to be right) is
    # no `Stimme` (tryout45 #2), whose verb is "abstimmen"; "schützt" (protects) no protection keyword
    ("Stimmt das?", Lang.DE),
    ("Mein Kumpel sagt, das stimmte so nicht.", Lang.DE),
    ("Die Natur schützt ihr Eigentum", Lang.DE),
])
def test_a_word_merely_containing_a_term_finds_nothing(question, lang):
    assert concepts(question, lang) == []


def test_rulings_are_read_with_whole_terms_only():
    tokens = tokenize("Morphkreaturen")
    assert GLOSSARY.concept_tokens(tokens, (Lang.DE,)) == []
    assert GLOSSARY.concept_tokens(tokens, (Lang.DE,), question=True) == ["~morph", "~creature"]


def test_is_that_right_translates_to_no_vote():
    """The search lexicon's translations are matched the same way: "Stimmt das?", which ends many German
    table questions, brought the five Vote clauses (tryout45 #2); "Stimmen" (votes) still says vote."""
    translations = Glossary([], translations=[Concept("vote", {Lang.EN: ("vote",), Lang.DE: ("Stimme",)})])
    assert translations.translate("Stimmt das?", Lang.DE) == []
    assert translations.translate("Wer zählt die Stimmenzettel?", Lang.DE) == ["vote"]


def test_a_person_of_the_verb_the_concept_lists_names_it_where_verb_forms_are_kept_to_keywords():
    """A searcher reads derived verb forms for keywords only (`Glossary.inflected`); "spielt" is still
    `play`, whose German verb "spielen" the concept lists: the word parts read it (red when a person
    ending never fits there)."""
    glossary = Glossary(GLOSSARY.concepts)
    glossary.inflected = lambda concept: concept == "morph"
    tokens = tokenize("Wer spielt zuerst eine Karte?")
    assert glossary.concept_tokens(tokens, (Lang.EN, Lang.DE), question=True) == ["~play"]

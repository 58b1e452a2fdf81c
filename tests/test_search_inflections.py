"""A glossary verb asked about in any of its forms (tryout32 #3): a judge writes "presagié" (I foretold), "encubro"
(I cloak), "el coste de presagio" (the noun), "tarnte", "Tarnung", where the glossary lists the infinitive. The forms
are derived from the verb (`kb.search.glossary.verb_roots`, `Glossary._verb_forms`), in questions only."""

from __future__ import annotations

import pytest

from kb.model import Lang
from kb.search.glossary import Glossary, verb_roots

# infinitives only: every other form below is derived, none is listed
YAML = """
concepts:
  - id: foretell
    en: [foretell]
    es: [presagiar]
    de: [vorhersehen]
  - id: cloak
    en: [cloak]
    es: [encubrir]
    de: [tarnen]
  - id: disguise
    en: [disguise]
    es: [disfrazar]
  - id: attack
    en: [attack]
    es: [atacar]
  - id: turn_face_up
    en: [turn face up]
    de: [aufdecken]
  - id: look_at
    en: [look at]
    es: [ver]
"""
GLOSSARY = Glossary.from_yaml(YAML)


@pytest.mark.parametrize("question, lang, concept", [
    ("Ayer presagié una carta, ¿la puedo lanzar hoy?", Lang.ES, "foretell"),  # first person preterite
    ("presagie una carta este turno", Lang.ES, "foretell"),  # ... typed without its accent
    ("¿Cuánto es el coste de presagio?", Lang.ES, "foretell"),  # the noun
    ("Si presagiamos dos cartas", Lang.ES, "foretell"),
    ("si encubro una carta y es una criatura", Lang.ES, "cloak"),  # first person present
    ("El rival encubrió su carta", Lang.ES, "cloak"),
    ("¿Qué pasa si la encubres?", Lang.ES, "cloak"),
    ("La disfracé el turno pasado", Lang.ES, "disguise"),  # -zar: disfrac- before an e
    ("Ataqué con la criatura", Lang.ES, "attack"),  # -car: ataqu- before an e
    ("Ich tarnte eine Karte", Lang.DE, "cloak"),  # preterite
    ("Was passiert bei der Tarnung einer Karte?", Lang.DE, "cloak"),  # the noun
    ("Wenn ich die Kreatur aufdecke", Lang.DE, "turn_face_up"),
    ("Die Kreatur wurde aufgedeckt", Lang.DE, "turn_face_up"),  # participle after a separable prefix
    ("Ich habe die Karte vorhergesehen", Lang.DE, "foretell"),  # a strong verb's participle
])  # fmt: skip
def test_a_verbs_persons_tenses_and_noun_are_the_verb(question: str, lang: Lang, concept: str) -> None:
    assert f"~{concept}" in GLOSSARY.question_tokens(question, (Lang.EN, lang))


@pytest.mark.parametrize("question, lang", [
    ("Ves que vemos la carta", Lang.ES),  # "ver" (look): a root this short would read half the language
    ("Die Kreaturen greifen an", Lang.DE),
])
def test_no_verb_no_concept(question: str, lang: Lang) -> None:
    assert GLOSSARY.question_tokens(question, (Lang.EN, lang)) == []


@pytest.mark.parametrize("term, lang, roots", [
    ("presagiar", Lang.ES, ["presagi"]),
    ("disfrazarse", Lang.ES, ["disfraz", "disfrac"]),  # reflexive
    ("pagar", Lang.ES, []),  # root of three letters
    ("coste de presagio", Lang.ES, []),  # a phrase
    ("tarnen", Lang.DE, ["tarn"]),
    ("Kreaturen", Lang.DE, []),  # a German noun is capitalised
    ("cloak", Lang.EN, []),
])  # fmt: skip
def test_verb_roots(term: str, lang: Lang, roots: list[str]) -> None:
    assert verb_roots(term, lang) == roots


def test_a_texts_words_are_read_as_before() -> None:
    """Only a question's words are read as forms: the rulings (and the index's tokens) are as they were."""
    assert GLOSSARY.concepts_in("Presagié la carta.", (Lang.ES,)) == []
    assert [c.id for c in GLOSSARY.concepts_in("Presagié la carta.", (Lang.ES,), question=True)] == ["foretell"]


# ------------------------------------------------------------------ umlauts (search46b)
@pytest.mark.parametrize("question, concept, read", [
    ("Zählt ein verdeckter Spielstein als Kreatur?", "~pay", False),            # zählen: to count
    ("Zählen die Zauber meines Teams zusammen?", "~pay", False),
    ("Muss ich die Morphkosten zahlen, um sie umzudrehen?", "~pay", True),      # zahlen: to pay
    ("Ich zahle die Kosten und drehe sie um.", "~pay", True),
    ("Die Täuscherin ist verdeckt, weiß mein Gegner was sie ist?", "~exchange", False),  # täuschen: to deceive
    ("Darf ich zwei Karten tauschen?", "~exchange", True),                       # tauschen: to swap
    ("Die Kreatur verlässt das Spielfeld.", "~leaves_the_battlefield", True),   # a term's own umlaut still meets
    ("Die Kreatur verlasst das Spielfeld.", "~leaves_the_battlefield", True),   # as does an umlaut typed as "a"
    ("Löst das aus, wenn sie umgedreht wird?", "~trigger", True),
])  # fmt: skip
def test_a_german_umlaut_tells_two_words_apart_that_folding_made_one(question: str, concept: str, read: bool) -> None:
    from kb.corpus import Corpus

    assert (concept in Corpus.default().glossary.question_tokens(question, (Lang.EN, Lang.DE))) is read

"""Every keyword name printed on the bundled German and Spanish cards is read as that keyword (try-out 47 D7:
the hideaway lands print "Refugium" / "Esconder", which neither the glossary nor the search lexicon knew, so a
German question about "Refugium" or "Versteck" met no hideaway rule)."""

from __future__ import annotations

import pytest

from kb.cards import ParallelText, parallel_texts, printed_keywords
from kb.ingest import dedup
from kb.model import Lang
from kb.search.glossary import Glossary
from kb.search.text import tokenize
from tests.entries import CORPUS


def _bundled() -> dict[str, dict[Lang, set[str]]]:
    texts = [p.read_text(encoding="utf-8") for p in sorted((CORPUS.folder / "mtgjson").rglob("*.json"))]
    return printed_keywords(parallel_texts(texts), dedup.keywords_from_rules([CORPUS.rules.versions[-1]]))


def _reads_as(glossary: Glossary, name: str, lang: Lang, keyword: str) -> bool:
    """Whether a `lang` question's `name` gives the keyword's English words: a concept whose English terms
    hold the keyword, or the lexicon's translations."""
    want = tokenize(keyword)
    if all(w in glossary.translate(name, lang) for w in want):
        return True
    return any(tokenize(term) == want for c in glossary.concepts_in(name, (lang,), question=True)
               for term in c.terms.get(Lang.EN, ()))


def test_printed_keywords_pair_the_english_and_the_foreign_keyword_lines() -> None:
    pairs = [
        ParallelText("Shelldock Isle", Lang.DE, "Hideaway (This land enters tapped.)\n{T}: Add {U}.",
                     "Refugium (Dieses Land kommt getappt ins Spiel.)\n{T}: Erzeuge {U}."),
        ParallelText("Shelldock Isle", Lang.ES, "Hideaway (This land enters tapped.)\n{T}: Add {U}.",
                     "Esconder. (Esta tierra entra en juego girada.)\n{T}: Agrega {U}."),
        ParallelText("Bird", Lang.ES, "Flying, first strike\nMorph {2}{W}", "Vuela, daña primero.\nMetamorfosis {2}{W}"),
        # the English line is a sentence, not keywords; and a foreign "name" that is a sentence is none
        ParallelText("Shaman", Lang.DE, "Menace", "Die Zornschamanin kann nicht geblockt werden, außer von zwei Kreaturen"),
    ]
    found = printed_keywords(pairs, ["hideaway", "flying", "first strike", "morph", "menace"])
    assert found == {"hideaway": {Lang.DE: {"Refugium"}, Lang.ES: {"Esconder"}},
                     "flying": {Lang.ES: {"Vuela"}}, "first strike": {Lang.ES: {"daña primero"}},
                     "morph": {Lang.ES: {"Metamorfosis"}}}


def test_the_bundled_cards_print_keywords_in_german_and_spanish() -> None:
    found = _bundled()
    assert found["hideaway"] == {Lang.DE: {"Refugium"}, Lang.ES: {"Esconder"}}
    assert len(found) >= 15


@pytest.mark.parametrize("keyword, lang, name", sorted(
    (k, lang, name) for k, langs in _bundled().items() for lang, names in langs.items() for name in names))
def test_every_printed_keyword_is_read_as_its_keyword(keyword: str, lang: Lang, name: str) -> None:
    assert _reads_as(CORPUS.glossary, name, lang, keyword), f"{lang.value} {name!r} is not read as {keyword!r}"


@pytest.mark.parametrize("name, lang", [("Versteck", Lang.DE), ("ocultar", Lang.ES)])
def test_hideaways_later_printed_names_are_read_as_hideaway(name: str, lang: Lang) -> None:
    """German prints hideaway "Versteck" and Spanish "Ocultar" since Streets of New Capenna (no bundled card)."""
    assert _reads_as(CORPUS.glossary, name, lang, "hideaway")



# review48 M1: a printed keyword name that is an everyday word (`everyday` in corpus/search-lexicon.yaml) is the keyword
# only where the question says it as one
@pytest.mark.parametrize("question, lang", [
    ("¿Qué pasa si mi cementerio está vacío cuando resuelve?", Lang.ES),
    ("Mi cementerio está vacío, ¿puedo usar la habilidad?", Lang.ES),  # "habilidad" in another clause
    ("Activo la habilidad con la mano vacía. ¿Qué pasa?", Lang.ES),
    ("¿Puedo esconder una carta boca abajo?", Lang.ES),
    ("¿La carta escondida es una carta boca abajo?", Lang.ES),
    ("Die Kreatur ist fahl und grau", Lang.DE),
    ("¿Soy el jugador defensor si solo atacan a mi planeswalker?", Lang.ES),
])  # fmt: skip
def test_an_everyday_word_is_no_keyword(question: str, lang: Lang) -> None:
    assert not {"devoid", "hideaway", "defend"} & set(CORPUS.glossary.translate(question, lang))


@pytest.mark.parametrize("question, lang, keyword", [
    ("¿Cómo funciona la habilidad vacío?", Lang.ES, "devoid"),  # beside "habilidad"
    ("¿Es \"vacío\" una habilidad?", Lang.ES, "devoid"),  # quoted
    ("¿Una criatura con vacío es incolora?", Lang.ES, "devoid"),  # an object "with" it
    ("¿Es incolora una criatura con Vacío y un aura?", Lang.ES, "devoid"),  # capitalised inside the sentence
    ("Wie funktioniert Fahl mit Schutz?", Lang.DE, "devoid"),
    ("¿La palabra clave esconder exilia la carta boca abajo?", Lang.ES, "hideaway"),
    ("¿Puede una criatura con defensor atacar?", Lang.ES, "defender"),
    # said after a verb of having (review49 M3)
    ("Mi criatura tiene amenaza, ¿cuántas criaturas deben bloquearla?", Lang.ES, "menace"),
    ("¿Deja de atacar por tener defensor?", Lang.ES, "defender"),
    ("Meine Kreatur hat schwelle, wann zählt sie?", Lang.DE, "threshold"),
])  # fmt: skip
def test_an_everyday_word_said_as_a_keyword_is_the_keyword(question: str, lang: Lang, keyword: str) -> None:
    assert _reads_as(CORPUS.glossary, question, lang, keyword)


def test_everyday_lists_only_a_concepts_own_terms() -> None:
    from kb.errors import InputError

    with pytest.raises(InputError, match="'vacia'.*none of its terms"):
        Glossary.from_yaml("translations:\n  - id: devoid\n    en: [devoid]\n    es: [vacío]\n    everyday: [vacia]\n")
    with pytest.raises(InputError, match="translations only"):
        Glossary.from_yaml("concepts:\n  - id: devoid\n    en: [devoid]\n    es: [vacío]\n    everyday: [vacío]\n")

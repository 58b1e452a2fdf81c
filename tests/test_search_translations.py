"""The search lexicon's `translations` (kb.search.glossary.Glossary.translate): a German or Spanish
judge's word for a rules term ("paso de limpieza", "verrechnet", "abwerfen") gives the question the
CR's English words, and nothing else: no concept token in any document or English question, so the
index and English questions are read as without them. Hand-made entries, deterministic fake embedder."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from kb.model import Lang
from kb.search import Searcher, build_index
from kb.search.embed import FakeEmbedder
from kb.search.glossary import LEXICON_FILE, Glossary
from tests.entries import CORPUS, fake_searcher, rule_entry, ruling_entry

# the corpus's glossary as it would be without the lexicon's translations, read apart from them (another
# digest: nothing cached under the corpus's is reused for it)
_LEXICON = Glossary.from_yaml((CORPUS.folder / LEXICON_FILE).read_text(encoding="utf-8"))
UNTRANSLATED = Glossary(CORPUS.base_glossary.merged(Glossary(_LEXICON.concepts)).concepts, "no-translations")

ENTRIES = [
    rule_entry("c-514.3", "514.3", "Normally, no player receives priority during the cleanup step, so no "
               "spells can be cast and no abilities can be activated."),
    rule_entry("c-608.2", "608.2", "If the object that's resolving is an instant spell, a sorcery spell, or "
               "an ability, its resolution may involve several steps."),
    rule_entry("c-615.1", "615.1", "Some continuous effects are prevention effects. Such effects watch for a "
               "damage event that would happen and completely or partially prevent the damage that would be dealt."),
    rule_entry("c-303.4", "303.4", "An Aura spell requires a target, which is defined by its enchant ability."),
    ruling_entry("r-morph", "You can cast a card with morph face down for {3}.", "Willbender"),
]


@pytest.mark.parametrize("question, lang, clause", [
    ("¿Qué pasa en el paso de limpieza?", Lang.ES, "c-514.3"),                       # cleanup step
    ("¿Puedo prevenir eso?", Lang.ES, "c-615.1"),                                    # prevent
    ("Wann wird das verrechnet?", Lang.DE, "c-608.2"),                                # resolve
])  # fmt: skip
def test_a_question_whose_only_link_is_a_translated_word_finds_the_clause(
        tmp_path: Path, question: str, lang: Lang, clause: str) -> None:
    searcher = fake_searcher(ENTRIES, tmp_path / "index")
    assert searcher.glossary.translations  # the index carries them (glossary.json)
    lexical = {h.entry.id: h.lexical for h in searcher.search(question, limit=5)}
    assert lexical[clause] > 0 and lexical[clause] == max(lexical.values())
    # without the translations no word of the question meets the clause
    searcher = Searcher.load(tmp_path / "index", ENTRIES, glossary=Glossary(UNTRANSLATED.concepts,
                             CORPUS.glossary.digest), query_embedder=FakeEmbedder())
    assert {h.entry.id: h.lexical for h in searcher.search(question, limit=5)}.get(clause, 0.0) == 0.0


@pytest.mark.parametrize("question, lang, english", [
    ("Wenn die verzögerte Fähigkeit von Necropotence neutralisiert wird, krieg ich die Karte trotzdem?",
     Lang.DE, {"delay", "trigger"}),
    ("Macht Thalia meinen Morph teurer, wenn ich ihn verdeckt wirke?", Lang.DE, {"cost", "increas"}),
    ("Darf ich im Sealed eine Karte von außerhalb des Spiels holen?", Lang.DE, {"limit", "outsid", "game"}),
    ("¿La habilidad retrasada se dispara aunque la carta ya no esté?", Lang.ES, {"delay", "trigger"}),
    ("¿Thalia hace más caro lanzar un morph boca abajo?", Lang.ES, {"cost", "increas"}),
    ("¿Una carta de fuera del juego puede venir de mi banquillo en sellado?", Lang.ES,
     {"outsid", "game", "sideboard", "limit"}),
])  # fmt: skip
def test_cr_terms_said_in_german_or_spanish_give_their_english_words(question: str, lang: Lang, english: set[str]) -> None:
    # the rulings say "delayed triggered ability", "increases", "outside the game", "Limited", "sideboard":
    # without the translation the question's own words meet none of them
    assert english <= set(CORPUS.glossary.translate(question, lang))


@pytest.mark.parametrize("question, lang, english", [
    ("Löst Konstellation aus, wenn die Verzauberung verdeckt ins Spiel kommt?", Lang.DE, {"constell"}),
    ("¿Cuántos contadores de desvanecimiento quedan si la pongo boca arriba?", Lang.ES, {"vanish"}),
    ("Kann ich einen Zauber mit Überlast verdeckt wirken?", Lang.DE, {"overload"}),
    ("¿Se dispara la supervivencia si la criatura ya está enderezada?", Lang.ES, {"survival"}),
    ("Mit Verstärkung: bekommt die verdeckte Kreatur die Marke?", Lang.DE, {"backup"}),
])  # fmt: skip
def test_a_keyword_or_ability_word_printed_in_german_or_spanish_gives_the_english_one(
        question: str, lang: Lang, english: set[str]) -> None:
    # every keyword and ability word the bundled rulings name has its printed German and Spanish term
    assert english <= set(CORPUS.glossary.translate(question, lang))


@pytest.mark.parametrize("question, lang, english", [
    ("Stirbt sie, obwohl sie unzerstörbar ist?", Lang.DE, {"dies"}),
    ("¿Muere aunque sea indestructible?", Lang.ES, {"dies"}),
    ("Ihre Widerstandskraft fällt auf 0.", Lang.DE, {"toughnes"}),
    ("Su resistencia baja a 0.", Lang.ES, {"toughnes"}),
    ("Was passiert mit den Marken?", Lang.DE, {"count"}),
    ("¿Qué pasa con los contadores?", Lang.ES, {"count"}),
    ("Wer gewinnt, wenn beide Spieler auf 0 fallen?", Lang.DE, {"win", "play"}),
    ("¿Quién gana si los dos jugadores llegan a 0?", Lang.ES, {"win", "play"}),
    ("Wer bestimmt die Reihenfolge?", Lang.DE, {"order"}),
    ("¿Quién decide el orden?", Lang.ES, {"order"}),
    ("Mein Gegner wirkt eine Hexerei. Überlebt meine Kreatur?", Lang.DE, {"sorcery", "surviv"}),
    ("Mi oponente lanza un conjuro. ¿Sobrevive mi criatura?", Lang.ES, {"sorcery", "surviv"}),
    ("Kann ich als Antwort darauf etwas tun?", Lang.DE, {"respond"}),
    ("¿Cuánto daño tengo que asignar al bloqueador?", Lang.ES, {"assig", "block", "creatur"}),
    ("Verschwindet der Schaden am Ende des Zuges?", Lang.DE, {"end", "turn"}),
    ("Kann ich in der Aufräumphase etwas wirken?", Lang.DE, {"cleanup", "step"}),
])  # fmt: skip
def test_general_rules_words_said_in_german_or_spanish_give_the_english_word_an_english_question_says(
        question: str, lang: Lang, english: set[str]) -> None:
    # search51d (issue 14): their concepts, where they have one, give only the concept's head term ("toughness" ->
    # "power", "dies" -> "leaves the battlefield"); the English question's own word was missing from the query
    assert english <= set(CORPUS.glossary.translate(question, lang))


def test_the_end_of_the_turn_is_no_end_step() -> None:
    # "am Ende des Zuges" is "at the end of the turn" (its cleanup step too: damage wears off, 514.2), not the step
    assert "step" not in CORPUS.glossary.translate("Verschwindet der Schaden am Ende des Zuges?", Lang.DE)
    assert "step" not in CORPUS.glossary.translate("¿El daño se va al final del turno?", Lang.ES)


@pytest.mark.parametrize("question", [
    "What happens in the cleanup step if I have eight cards?",
    "Can I prevent that?",
    "When does the spell resolve?",
])  # fmt: skip
def test_an_english_questions_query_is_unchanged(tmp_path: Path, question: str) -> None:
    assert CORPUS.glossary.translate(question, Lang.EN) == []
    with_them = fake_searcher(ENTRIES, tmp_path / "index")
    without = Searcher.load(tmp_path / "index", ENTRIES, glossary=Glossary(UNTRANSLATED.concepts,
                            CORPUS.glossary.digest), query_embedder=FakeEmbedder())
    assert np.array_equal(with_them._lexical(question, (Lang.EN,)), without._lexical(question, (Lang.EN,)))
    # and no German or Spanish question gains a concept token from them
    for text, lang in (("¿Qué pasa en el paso de limpieza?", Lang.ES), ("Muss ich abwerfen?", Lang.DE)):
        langs = (Lang.EN, lang)
        assert CORPUS.glossary.question_tokens(text, langs) == UNTRANSLATED.question_tokens(text, langs)


def test_the_index_documents_are_unchanged(tmp_path: Path) -> None:
    build_index(ENTRIES, tmp_path / "with", FakeEmbedder(), corpus=CORPUS)
    build_index(ENTRIES, tmp_path / "without", FakeEmbedder(), corpus=CORPUS, glossary=UNTRANSLATED)
    for name in ("bm25.npz", "docs.json"):
        assert (tmp_path / "with" / name).read_bytes() == (tmp_path / "without" / name).read_bytes()


def test_translations_are_read_merged_and_compiled() -> None:
    lexicon = Glossary.from_yaml("concepts:\n  - id: hand\n    en: [hand]\n"
                                 "translations:\n  - id: cleanup_step\n    en: [cleanup step]\n"
                                 "    de: [Aufräumsegment]\n    es: [paso de limpieza]\n")
    merged = Glossary([], "base").merged(lexicon)
    assert [c.id for c in merged.concepts] == ["hand"] and [c.id for c in merged.translations] == ["cleanup_step"]
    again = Glossary.from_json(merged.to_json())
    assert again.translations == merged.translations
    # the German compound's inflected form, the Spanish phrase; the question's own words are not repeated
    assert again.translate("Was passiert im Aufräumsegmente?", Lang.DE) == ["cleanup", "step"]
    assert again.translate("¿Qué pasa en el paso de limpieza?", Lang.ES) == ["cleanup", "step"]
    assert again.translate("the cleanup step, paso de limpieza", Lang.ES) == []
    assert again.translate("paso de limpieza", Lang.EN) == []  # an English question translates nothing


@pytest.mark.parametrize("lexicon, said", [
    ("translations: 5\n", "`translations` must be a list of rows"),
    ("concepts: {a: b}\n", "`concepts` must be a list of rows"),
    ("translations:\n  - id: resolve\n    de: 5\n", "translation #1 (resolve): `de` must be a term or a list of terms"),
])
def test_a_lexicon_section_or_row_of_the_wrong_shape_is_an_error_naming_the_file_and_row(lexicon: str, said: str) -> None:
    """Reviewer: `translations: 5` raised a bare TypeError (and `concepts: 5` before it)."""
    from kb.errors import InputError

    with pytest.raises(InputError, match=re.escape(f"search-lexicon.yaml: {said}")):
        Glossary.from_yaml(lexicon, "search-lexicon.yaml")

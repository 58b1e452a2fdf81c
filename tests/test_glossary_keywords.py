"""Every keyword of the current Comprehensive Rules (keyword actions, 701; keyword abilities, 702) is either
named in the glossary (corpus/glossary.yaml, corpus/search-lexicon.yaml, corpus/keyword-names.yaml) or left
without a German or Spanish name knowingly (`unnamed` in corpus/keyword-names.yaml); try-out 49 D2: menace had
no entry, so a German question saying its printed name, "Bedrohlich", met no menace rule."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kb.ingest import dedup
from kb.model import Lang
from kb.search.glossary import KEYWORDS_FILE
from kb.search.text import tokenize
from tests.entries import CORPUS

_CURRENT = [CORPUS.rules.versions[-1]]
KEYWORDS = sorted({*dedup.actions_from_rules(_CURRENT), *dedup.abilities_from_rules(_CURRENT)})
UNNAMED = frozenset(yaml.safe_load((CORPUS.folder / KEYWORDS_FILE).read_text(encoding="utf-8"))["unnamed"])
# the keyword translations the file adds: the English words each gives a German or Spanish question
ADDED = [c for c in CORPUS.glossary.translations
         if c.id in {row["id"] for row in yaml.safe_load((CORPUS.folder / KEYWORDS_FILE).read_text(encoding="utf-8"))
                     ["translations"]}]


def _named() -> set[tuple[str, ...]]:
    glossary = CORPUS.glossary
    return {tuple(tokenize(t)) for c in [*glossary.concepts, *glossary.translations] for t in c.terms.get(Lang.EN, ())}


def test_the_current_cr_has_its_keyword_actions_and_abilities() -> None:
    assert {"menace", "shroud", "scry", "manifest dread", "exalted", "delve"} <= set(KEYWORDS)
    assert len(KEYWORDS) > 200 and not any(k.endswith(".") or k.startswith("most ") for k in KEYWORDS)


def test_every_cr_keyword_is_named_or_knowingly_unnamed() -> None:
    named = _named()
    missing = [k for k in KEYWORDS if tuple(tokenize(k)) not in named and k not in UNNAMED]
    assert not missing, f"CR keywords in no glossary file and not in {KEYWORDS_FILE}'s `unnamed`: {missing}"


def test_unnamed_lists_only_cr_keywords_that_have_no_name() -> None:
    named = _named()
    assert UNNAMED <= set(KEYWORDS), sorted(UNNAMED - set(KEYWORDS))
    assert not [k for k in UNNAMED if tuple(tokenize(k)) in named]


@pytest.mark.parametrize("question, lang, keyword", [
    ("Mein Angreifer ist bedrohlich. Reicht ein einzelner Blocker?", Lang.DE, "menace"),
    ("¿Una criatura con amenaza puede ser bloqueada por una sola criatura?", Lang.ES, "menace"),
    ("¿Puedo hacer objetivo a una criatura con velo?", Lang.ES, "shroud"),
    ("Wie oft löst Erhaben aus, wenn ich mit zwei Kreaturen angreife?", Lang.DE, "exalted"),
    ("Wie viele Giftmarken bekommt ein Spieler von Giftig 2, wenn die Kreatur verdeckt war?", Lang.DE, "toxic"),
    ("Kann ich eine Karte mit Entkommen aus dem Friedhof wirken, wenn sie verdeckt war?", Lang.DE, "escape"),
])  # fmt: skip
def test_a_printed_keyword_name_no_bundled_card_prints_is_read_as_its_keyword(question: str, lang: Lang,
                                                                              keyword: str) -> None:
    assert all(t in CORPUS.glossary.translate(question, lang) for t in tokenize(keyword))


# Keyword names that are also ordinary words and met ordinary dev questions were left out (Wandler, the
# changeling, is the head of "Gestaltwandler", the Shapeshifter; "Landung", landfall, stems to `land`; "Furcht",
# fear, is how a judge translated manifest dread), and so were those a face-down question says in their
# everyday sense ("descubrir", discover, "entdecken"; "entwickeln", evolve: to develop); the names kept that are
# ordinary words too are `everyday` (fix49a's guard: read only where a question says them as a keyword).
@pytest.mark.parametrize("question, lang", [
    ("Mein Vesuvischer Gestaltwandler kopiert eine verdeckte Kreatur. Was ist er danach?", Lang.DE),
    ("Ich habe ein Land manifestiert. Kann ich es irgendwann aufdecken?", Lang.DE),
    ("Manifestiere Furcht: wohin kommt die andere Karte?", Lang.DE),
    ("¿Puedo descubrir la carta boca abajo de mi oponente al final de la partida?", Lang.ES),
    ("Wie entwickelt sich die Stärke der verdeckten Kreatur, wenn ich sie aufdecke?", Lang.DE),
    # `everyday` names, read only where said as a keyword ("con amenaza", "mit Entkommen")
    ("El aura otorga +1/+1 a la criatura boca abajo, ¿lo conserva al voltearla?", Lang.ES),
    ("¿Es una amenaza si mi rival tiene tres criaturas boca abajo?", Lang.ES),
    ("Kann die verdeckte Kreatur dem Exil entkommen, wenn sie aufgedeckt wird?", Lang.DE),
    # review49 M4: a German noun is always capitalised; after an article it is the sentence's noun, no keyword
    ("Kein Wunder, dass ich die verdeckte Karte meines Gegners nicht ansehen darf?", Lang.DE),
    ("Gibt es für die verdeckte Kreatur ein Entkommen aus dem Exil?", Lang.DE),
    ("Die verdeckte Kreatur steht im Schatten eines Baums: kann sie blocken?", Lang.DE),
    ("¿Hay un umbral de daño para que se voltee la criatura boca abajo?", Lang.ES),
])  # fmt: skip
def test_a_keyword_name_that_is_an_everyday_word_does_not_read_an_ordinary_question(question: str, lang: Lang) -> None:
    words = set(CORPUS.glossary.translate(question, lang))
    assert not [c.id for c in ADDED if set(tokenize(c.terms[Lang.EN][0])) <= words]
    assert not {"changel", "landfall", "fear", "discov", "evolv", "bestow", "menac", "escap", "miracl", "shadow",
                "threshold"} & words


@pytest.mark.parametrize("question, lang, keyword", [
    ("Hat die verdeckte Kreatur Schatten, wenn ich sie aufdecke?", Lang.DE, "shadow"),
    ("Wie funktioniert die Fähigkeit Wunder bei einer verdeckten Karte?", Lang.DE, "miracle"),  # "Fähigkeit" beside
    ("¿Cómo funciona la habilidad umbral con cartas boca abajo?", Lang.ES, "threshold"),
])  # fmt: skip
def test_an_everyday_keyword_name_said_as_a_keyword_is_read(question: str, lang: Lang, keyword: str) -> None:
    assert all(t in CORPUS.glossary.translate(question, lang) for t in tokenize(keyword))


def test_the_keyword_names_are_part_of_the_corpus_glossary_and_its_digest(tmp_path: Path) -> None:
    """An index records the glossary's digest: a changed keyword-names.yaml must make it stale."""
    from kb.search.glossary import GLOSSARY_FILE, Glossary, corpus_digest

    (tmp_path / GLOSSARY_FILE).write_text("concepts:\n  - id: face_down\n    en: [face down]\n", encoding="utf-8")
    bare = corpus_digest(tmp_path)
    (tmp_path / KEYWORDS_FILE).write_text("translations:\n  - id: menace\n    en: [menace]\n    de: [Bedrohlich]\n"
                                          "unnamed: [skulk]\n", encoding="utf-8")
    glossary = Glossary.load_corpus(tmp_path)
    assert [c.id for c in glossary.translations] == ["menace"]
    assert glossary.digest == corpus_digest(tmp_path) != bare
    assert CORPUS.glossary.digest == CORPUS.glossary_digest

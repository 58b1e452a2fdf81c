"""What a judge trying the CLI for the first time with fresh real data noticed (tryout12): each test pins
one defect found that way."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from kb.corpus import Corpus
from kb.model import Entry, Kind, Lang, Relation, Variant

CORPUS = Corpus.default()

KADENA_DE = ("Kadenas letzte Fähigkeit wird ausgelöst, wenn eine verdeckte Kreatur unter deiner Kontrolle "
             "ins Spiel kommt, egal ob sie gemanifestiert oder verdeckt gewirkt wurde.")
KADENA_EN = "Kadena's first ability applies only to the first face-down creature spell you cast each turn."


def _variant(text: str, lang: Lang) -> Variant:
    return Variant(text, text, lang, "2019-08-23", "kadena.de.txt", 3, Relation.CANONICAL, 1.0, "Lightform")


def _entries() -> list[Entry]:
    # a German ruling no English wording holds is an entry of its own, its German text the canonical one
    return [Entry("r-german", Kind.RULING, KADENA_DE, ("Lightform",), "2019-08-23", "2019-08-23",
                  (_variant(KADENA_DE, Lang.DE),)),
            Entry("r-english", Kind.RULING, KADENA_EN, ("Lightform",), "2019-08-23", "2019-08-23",
                  (_variant(KADENA_EN, Lang.EN),))]


@pytest.mark.parametrize("question", ["¿Se dispara la última habilidad si manifiesto una criatura verdeckte?",
                                      "Does Kadena's last ability trigger for a manifested creature, verdeckte?",
                                      "Wird die letzte Fähigkeit ausgelöst, wenn eine verdeckte Kreatur ins Spiel kommt?"])
def test_a_german_only_ruling_is_labelled_german_whatever_the_questions_language(tmp_path: Path, question: str):
    # a Spanish question showed the German text under "shown in en", and --json said "lang": "en"
    from kb.search import Searcher, build_index
    from kb.search.embed import FakeEmbedder
    from kb.search.index import default_card_index

    entries = _entries()
    build_index(entries, tmp_path / "index", FakeEmbedder(), cards=default_card_index(entries, CORPUS), corpus=CORPUS)
    hits = Searcher.load(tmp_path / "index", entries, query_embedder=FakeEmbedder()).search(question, limit=5)
    by_id = {h.entry.id: h for h in hits}
    assert by_id["r-german"].lang is Lang.DE and by_id["r-german"].matched_text == KADENA_DE
    assert by_id["r-german"].to_json()["lang"] == "de"
    assert by_id["r-english"].lang is Lang.EN


def test_show_in_another_language_names_the_language_of_the_text_below():
    # `kb show r-… --lang es` of a German-only ruling said "(no es text for this entry; English below)"
    # above the German text
    from cli.render import entry_detail

    console = Console(record=True, width=200)
    entry_detail(console, _entries()[0], lang=Lang.ES)
    out = console.export_text()
    assert "(no es text for this entry; its de text below)" in out and "English below" not in out
    console = Console(record=True, width=200)
    entry_detail(console, _entries()[1], lang=Lang.ES)
    assert "(no es text for this entry; English below)" in console.export_text()

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


# a card site's page (warlockassistant.com, M19's Metamorphic Alteration): the heading is the name and
# the mana cost its symbols' alt texts spell; the card type in Portuguese and the card text follow
CARD_SITE_PAGE = """Metamorphic Alteration 1Blue

Encantamento - Aura
Metamorphic Alteration

Rulings:

  • 7/13/2018 You can choose only a creature on the battlefield.
  • 7/13/2018 If the chosen creature is a token, Metamorphic Alteration copies the original characteristics of that token as stated by the effect that put the token onto the battlefield. The enchanted creature doesn't become a token in this case.
"""


@pytest.mark.parametrize("title, card", [
    ("Metamorphic Alteration 1Blue", "Metamorphic Alteration"),
    ("Hooded Hydra 3GG", "Hooded Hydra"),
    ("Lightform 1WW", "Lightform"),
    ("Hooded Hydra Rulings", None),  # not a mana cost: the words stay part of the name
])
def test_a_title_that_ends_with_the_mana_cost_names_the_card(title, card):
    # the page's rulings were filed under 'Metamorphic Alteration 1Blue', and `kb card "Metamorphic
    # Alteration"` said "0 KB entries"
    from kb.ingest import pages

    assert pages._card_in_title(title, CORPUS.names.resolve) == card


def test_a_card_site_page_with_the_mana_cost_in_its_heading_files_its_rulings_under_the_card():
    from kb.ingest import parse_text

    result = parse_text(CARD_SITE_PAGE, "metamorphic-alteration.pt.txt", names=CORPUS.names, match_clause=None)
    assert [r.card for r in result.records] == ["Metamorphic Alteration"] * 2
    assert not any("names no card" in p.reason for p in result.problems)

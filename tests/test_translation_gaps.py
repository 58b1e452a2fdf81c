"""`kb coverage`: a German or Spanish ruling that stayed an entry of its own is shown with the English
ruling of its card nearest to it and why it is no translation of it (tryout10/11: a German page that
wrote "Tarnung" where the printed cards say "Verkleidung" stayed apart, and nothing said why)."""

from __future__ import annotations

import io

import numpy as np
from rich.console import Console

from cli import render
from kb.build import load_lexicon
from kb.corpus import Corpus
from kb.ingest.dedup import translation_coverage
from kb.ingest.translations import nearest_english
from kb.model import Entry, Kind, Lang, Relation, Variant

CORPUS = Corpus.default()
LEXICON = load_lexicon(CORPUS, CORPUS.names.copy())
CARD = "Defenestrated Phantom"


class Same:
    """Every text the same vector: cosine 1, so only the evidence decides."""

    def embed_queries(self, texts):
        return np.ones((len(texts), 4), dtype=np.float32) / 2


def entry(id_: str, text: str, lang: Lang) -> Entry:
    v = Variant(text=text, original=text, lang=lang, date="2024-02-02", source="page.txt", line=3,
                relation=Relation.CANONICAL, similarity=1.0, card=CARD)
    return Entry(id_, Kind.RULING, text, (CARD,), "2024-02-02", "2024-02-02", (v,))


ENGLISH = entry("r-000000000e", "You can turn a face-down permanent with disguise face up by paying its disguise cost.",
                Lang.EN)


def test_a_german_text_naming_the_mechanic_by_an_unprinted_term_is_told_the_printed_one():
    alone = entry("r-000000000d", "Du kannst eine verdeckte bleibende Karte mit Tarnung aufdecken, indem du ihre "
                                  "Tarnungskosten bezahlst.", Lang.DE)
    found = nearest_english(alone, Lang.DE, [ENGLISH], embedder=Same(), lexicon=LEXICON)
    assert found is not None and found.entry_id == ENGLISH.id
    mechanics = [r for r in found.reasons if "mechanic" in r]
    assert mechanics and "disguise" in mechanics[0] and "Verkleidung" in mechanics[0]


def test_the_printed_term_joins_and_a_far_meaning_is_said_to_be_far():
    printed = entry("r-000000000d", "Du kannst eine verdeckte bleibende Karte mit Verkleidung aufdecken, indem du ihre "
                                    "Verkleidungskosten bezahlst.", Lang.DE)
    found = nearest_english(printed, Lang.DE, [ENGLISH], embedder=Same(), lexicon=LEXICON)
    assert found is not None and not any("mechanic" in r for r in found.reasons)

    class Far:
        def embed_queries(self, texts):
            return np.eye(len(texts), 4, dtype=np.float32)

    far = nearest_english(printed, Lang.DE, [ENGLISH], embedder=Far(), lexicon=LEXICON)
    assert far is not None and far.reasons[0].startswith("meanings too far apart (cosine 0.00")


def test_a_text_that_negates_where_the_english_does_not_is_told_so():
    negated = entry("r-000000000d", "Du kannst eine verdeckte bleibende Karte mit Verkleidung nicht aufdecken, indem "
                                    "du ihre Verkleidungskosten bezahlst.", Lang.DE)
    found = nearest_english(negated, Lang.DE, [ENGLISH], embedder=Same(), lexicon=LEXICON)
    assert found is not None and found.reasons == [
        "one says not (no, never, without) and the other does not: this text negates, the English not"]


def test_a_text_far_longer_than_the_english_is_told_it_says_more():
    longer = entry("r-000000000d", "Du kannst eine verdeckte bleibende Karte mit Verkleidung aufdecken, indem du ihre "
                                   "Verkleidungskosten bezahlst. Das ist eine Frage, die man auf Turnieren oft hört, "
                                   "und wer die Karte zum ersten Mal sieht, fragt danach fast immer, bevor die Partie "
                                   "überhaupt begonnen hat.", Lang.DE)
    found = nearest_english(longer, Lang.DE, [ENGLISH], embedder=Same(), lexicon=LEXICON)
    assert found is not None and found.reasons[0] == (
        "one says much more than the other: 42 words here, 15 in English (a translation is about as long as its "
        "English)")

def test_a_heading_is_told_it_is_too_short_to_translate_a_ruling():
    heading = entry("r-000000000d", "Verkleidung", Lang.DE)
    found = nearest_english(heading, Lang.DE, [ENGLISH], embedder=Same(), lexicon=LEXICON)
    assert found is not None and found.reasons[0] == (
        "too short to translate a ruling: 1 words (a heading or a name, not a sentence; a translation needs 4)")


def test_a_card_without_english_rulings_has_nothing_to_compare_with():
    other = entry("r-000000000f", "Du kannst eine verdeckte bleibende Karte aufdecken.", Lang.DE)
    assert nearest_english(other, Lang.DE, [], embedder=Same(), lexicon=LEXICON) is None


def test_kb_coverage_shows_the_nearest_english_ruling_and_the_reason():
    alone = entry("r-000000000d", "Du kannst eine verdeckte bleibende Karte mit Tarnung aufdecken.", Lang.DE)

    def nearest(e, lang):
        found = nearest_english(e, lang, [ENGLISH], embedder=Same(), lexicon=LEXICON)
        return found.to_json() if found else None

    report = translation_coverage([ENGLISH, alone], (Lang.DE,), nearest)
    row = report["languages"]["de"]["without_english"][0]
    assert row["nearest_english"]["id"] == ENGLISH.id
    out = io.StringIO()
    render.translation_coverage(Console(file=out, width=250), report)
    shown = " ".join(out.getvalue().split())
    assert f"nearest English ruling of its card: {ENGLISH.id}" in shown and "Verkleidung" in shown

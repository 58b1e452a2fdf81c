"""Rulings that stay right on real data (issue 11): revisions never join another mechanic's or card's
ruling, a translation needs evidence beyond cosine, and card names come from every source."""

from __future__ import annotations

import json
from functools import lru_cache

import pytest

from kb.build import load_lexicon
from kb.cards import CardNames, load_names
from kb.ingest.dedup import (Lexicon, Terminology, deduplicate, keywords_from_rules, mechanics_from_rules,
                             translation_coverage, translation_gaps)
from kb.search.embed import FakeEmbedder
from kb.model import Kind, Lang, Record, Relation
from kb.normalize import match_key
from kb.ingest import mtgjson
from kb.paths import corpus_dir
from kb.corpus import Corpus

CORPUS = Corpus.default()


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    """The lexicon a build uses (CR keywords, bundled card names, glossary, terminology)."""
    return load_lexicon(CORPUS, CORPUS.names.copy())


def rec(text, card, date="2014-09-20", source="set.json", line=1, lang=Lang.EN):
    return Record(text=text, original=text, lang=lang, date=date, source=source, line=line,
                  kind=Kind.RULING, card=card)


def entry_of(entries, text):
    (found,) = [e for e in entries if any(match_key(v.text) == match_key(text) for v in e.variants)]
    return found


def dedup(records, embedder=None, lex=None):
    return deduplicate(records, embedder=embedder or FakeEmbedder(), terminology=CORPUS.terminology,
                       lexicon=lex or lexicon())


def test_keywords_and_mechanics_come_from_the_comprehensive_rules():
    versions = CORPUS.rules.versions
    keywords = keywords_from_rules(versions)
    for name in ("morph", "megamorph", "disguise", "manifest", "manifest dread", "cloak", "ward", "flying"):
        assert name in keywords
    assert keywords.index("manifest dread") < keywords.index("manifest"), "longest first"
    mechanics = mechanics_from_rules(versions)
    assert {"morph", "megamorph", "disguise", "manifest", "manifest dread", "cloak"} <= set(mechanics)
    assert "destroy" not in mechanics and "reveal" not in mechanics


# (card A, wording A, card B, wording B): one word apart, two rulings. Gudul Lurker / Ire Shaman,
# the morph and disguise twins, the manifest and cloak Form rulings, Silkwrap / Suspension Field and
# the "You can't cast ..." rulings are the cases issue 11 found merged.
TWO_RULINGS = [
    ("Gudul Lurker", "If a face-down Gudul Lurker attacks and is blocked, turning it face up won't cause it to "
                     "become unblocked.",
     "Ire Shaman", "If a face-down Ire Shaman attacks and is blocked by one creature, turning it face up won't "
                   "cause it to become unblocked."),
    ("Ainok Tracker", "Any time you have priority, you may turn the face-down creature face up by revealing what "
                      "its morph cost is and paying that cost. This is a special action.",
     "Bubble Smuggler", "Any time you have priority, you may turn the face-down creature face up by revealing "
                        "what its disguise cost is and paying that cost. This is a special action."),
    ("Lightform", "You'll still manifest the top card of your library even if the \"Form\" isn't on the "
                  "battlefield as its enters-the-battlefield ability resolves.",
     "Cryptic Coat", "You'll still cloak the top card of your library even if Cryptic Coat isn't on the "
                     "battlefield as its enters-the-battlefield ability resolves."),
    ("Silkwrap", "If Silkwrap leaves the battlefield before its enters-the-battlefield ability resolves, the "
                 "target creature won't be exiled.",
     "Suspension Field", "If Suspension Field leaves the battlefield before its enters-the-battlefield ability "
                         "resolves, the target creature won't be exiled."),
    ("Epic Confrontation", "You can't cast Epic Confrontation without a target creature you control and a target "
                           "creature you don't control.",
     "Savage Punch", "You can't cast Savage Punch without a target creature you control and a target creature "
                     "you don't control."),
]


@pytest.mark.parametrize("card_a, text_a, card_b, text_b", TWO_RULINGS, ids=[c[0] for c in TWO_RULINGS])
@pytest.mark.parametrize("via", [None, "Mirror Card"], ids=["own-cards", "sharing-a-card"])
def test_wordings_a_word_apart_are_two_rulings_each_showing_its_own_text(card_a, text_a, card_b, text_b, via):
    # Later dates and other sources for B, as when another set is ingested: still never a revision.
    # `via`: both wordings are also given for one more card, so only the words tell them apart.
    records = [rec(text_a, card_a), rec(text_b, card_b, date="2024-02-02", source="other.json")]
    if via:
        records += [rec(text_a, via, line=2), rec(text_b, via, date="2024-02-02", source="other.json", line=2)]
    entries = dedup(records)
    a, b = entry_of(entries, text_a), entry_of(entries, text_b)
    assert a.id != b.id
    assert a.text == text_a and b.text == text_b
    assert set(a.cards) == {card_a, via} - {None} and set(b.cards) == {card_b, via} - {None}


def test_each_morph_card_shows_the_morph_wording_when_many_cards_share_each_ruling():
    morph = TWO_RULINGS[1][1]
    disguise = TWO_RULINGS[1][3]
    records = [rec(morph, card, line=n) for n, card in enumerate(("Ainok Tracker", "Abzan Guide", "Master of Pearls"))]
    records += [rec(disguise, card, date="2024-02-02", source="mkm.json", line=n)
                for n, card in enumerate(("Bubble Smuggler", "Defenestrated Phantom"))]
    entries = dedup(records)
    for card in ("Ainok Tracker", "Abzan Guide", "Master of Pearls"):
        (entry,) = [e for e in entries if card in e.cards]
        assert "morph cost" in entry.text and all(v.relation is not Relation.REVISION for v in entry.variants)


def test_a_reworded_ruling_of_the_same_cards_is_one_entry_with_the_newest_wording_canonical():
    old = "Because face-down creatures don't have names, they can't have the same name as any other creature."
    new = "Because face-down creatures don't have a name, they can't have the same name as any other creature."
    entries = dedup([rec(old, "Lightform", date="2014-11-24"),
                     rec(new, "Lightform", date="2018-07-13", source="c18.json")])
    (entry,) = entries
    assert entry.text == new
    assert {v.relation for v in entry.variants} == {Relation.CANONICAL, Relation.REVISION}


TAPPED = "Turning a permanent face up or face down doesn't change whether that permanent is tapped or untapped."
TAPPED_DE = "Das Aufdecken oder Verdecken einer bleibenden Karte ändert nicht, ob jene bleibende Karte getappt oder ungetappt ist."
TAPPED_NOTE = ("Turning a permanent face up or face down does not change whether that permanent is tapped or "
               "untapped, says my note.")


def test_a_judges_page_wording_is_no_canonical_text_over_an_official_one():
    """tryout21 defect 8: one hand-typed page (2024, one card) became the canonical text of a bundled
    ruling shared by 29 cards, as the newest wording. Official wordings (bundled corpus, MTGJSON) are
    canonical first; the judge's stays a revision (and canonical where no official source gives the ruling)."""
    official = [rec(TAPPED, card, date="2018-07-13", source=f"corpus/{card}.json") for card in ("Cloudform", "Lightform", "Wildcall")]
    page = rec(TAPPED_NOTE, "Cloudform", date="2024-08-11", source="/judge/cloudform.txt")
    for records in (official + [page], [page] + official[::-1]):  # any order
        (entry,) = deduplicate(records, embedder=FakeEmbedder(), terminology=CORPUS.terminology, lexicon=lexicon(),
                               is_official=lambda source: source.startswith("corpus/"))
        assert entry.text == TAPPED and entry.cards == ("Cloudform", "Lightform", "Wildcall")
        assert [v.relation for v in entry.variants if v.text == TAPPED_NOTE] == [Relation.REVISION]
    # the same judge wording dated later than an official copy of the same words: the official copy is canonical
    copied = rec(TAPPED, "Cloudform", date="2024-08-11", source="/judge/cloudform.txt")
    (entry,) = deduplicate(official + [copied], embedder=FakeEmbedder(), terminology=CORPUS.terminology,
                           lexicon=lexicon(), is_official=lambda source: source.startswith("corpus/"))
    assert next(v for v in entry.variants if v.relation is Relation.CANONICAL).source.startswith("corpus/")
    # no official source: the judge's newest wording is canonical, as before
    (mine,) = dedup([rec(TAPPED, "Cloudform", date="2018-07-13", source="/judge/a.txt"), page])
    assert mine.text == TAPPED_NOTE


def test_a_judges_newer_page_does_not_mark_the_official_canonical_text_outdated():
    """Review of session 36: with the official wording canonical over a judge's newer page (above),
    `kb outdated` still called that canonical copy, and its translation, "replaced" by the page."""
    from kb.outdated import Reason, find_outdated

    official = [rec(TAPPED, "Cloudform", date="2018-07-13", source="corpus/cloudform.json"),
                rec(TAPPED_DE, "Cloudform", date="2018-07-13", source="corpus/cloudform-de.txt", lang=Lang.DE)]
    page = rec(TAPPED_NOTE, "Cloudform", date="2024-08-11", source="/judge/cloudform.txt")
    from tests.test_dedup_translations import ChosenEmbedder

    same = [1.0, 0.0]  # the three wordings mean the same: the German joins as a translation
    embedder = ChosenEmbedder({TAPPED: same, TAPPED_DE: same, TAPPED_NOTE: same})
    (entry,) = deduplicate(official + [page], embedder=embedder, terminology=CORPUS.terminology,
                           lexicon=lexicon(), is_official=lambda source: source.startswith("corpus/"))
    assert entry.text == TAPPED and {v.lang for v in entry.variants} == {Lang.EN, Lang.DE}
    assert [i for i in find_outdated([entry], terminology=CORPUS.terminology)
            if any(r.kind is Reason.SUPERSEDED for r in i.reasons)] == []


def test_obsolete_terms_are_folded_so_a_modern_reissue_joins_its_old_wording():
    old = "If Ixidron comes into play, each creature card removed from the game stays removed from the game."
    new = "If Ixidron enters the battlefield, each creature card exiled stays exiled."
    entries = dedup([rec(old, "Ixidron", date="2006-09-25"), rec(new, "Ixidron", date="2010-06-01", source="b.json")])
    assert len(entries) == 1 and entries[0].text == new


def test_two_wordings_one_page_lists_are_two_rulings():
    a = "Keeper of the Lens doesn't stop your opponents from looking at face-down creatures they control."
    b = "Keeper of the Lens doesn't stop your opponents from looking at face-down creatures that they control."
    entries = dedup([rec(a, "Keeper of the Lens", line=1), rec(b, "Keeper of the Lens", line=2)])
    assert len(entries) == 2


def test_a_card_specific_ruling_does_not_join_a_shared_one_of_other_cards():
    shared = "You may look at a face-down spell or permanent you control at any time."
    own = "You may look at face-down permanents you control at any time."
    entries = dedup([rec(shared, "Illusionary Mask"), rec(shared, "Ixidron", source="tsp.json"),
                     rec(own, "Tezzeret, Cruel Machinist", date="2018-07-13", source="m19.json")])
    assert len(entries) == 2


# --- translations (real e5, a handful of texts) -------------------------------------------------

FORM_RULINGS = [
    'If the enchanted creature is turned face up, the "Form" will continue to enchant it.',
    "You'll still manifest the top card of your library even if the \"Form\" isn't on the battlefield as its "
    "enters-the-battlefield ability resolves.",
    'If you have no cards in your library as the ability resolves, the "Form" will be put into its owner\'s '
    "graveyard as a state-based action.",
]
SPANISH_TRANSLATION = 'Si la criatura encantada se pone boca arriba, la "Forma" seguirá encantándola.'
SPANISH_ALONE = ('Si la criatura encantada deja el campo de batalla, la "Forma" se pone en el cementerio de su '
                 "propietario como acción basada en estado.")


def test_a_spanish_ruling_with_no_english_counterpart_is_an_entry_of_its_own(e5):
    records = [rec(t, "Rageform", date="2018-07-13", line=n) for n, t in enumerate(FORM_RULINGS)]
    records.append(rec(SPANISH_ALONE, "Rageform", date="2025-01-01", source="forma.txt", lang=Lang.ES))
    entries = dedup(records, embedder=e5)
    alone = entry_of(entries, SPANISH_ALONE)
    assert [v.lang for v in alone.variants] == [Lang.ES] and alone.kind is Kind.RULING
    assert alone.text_in(Lang.ES) == SPANISH_ALONE
    report = translation_coverage(entries, (Lang.ES,))["languages"]["es"]
    assert [r["id"] for r in report["without_english"]] == [alone.id]
    assert len(report["untranslated"]) == len(FORM_RULINGS)


def test_a_spanish_translation_joins_its_english_ruling_and_the_other_stays_apart(e5):
    records = [rec(t, "Rageform", date="2018-07-13", line=n) for n, t in enumerate(FORM_RULINGS)]
    records += [rec(SPANISH_TRANSLATION, "Rageform", date="2025-01-01", source="forma.txt", line=1, lang=Lang.ES),
                rec(SPANISH_ALONE, "Rageform", date="2025-01-01", source="forma.txt", line=2, lang=Lang.ES)]
    entries = dedup(records, embedder=e5)
    joined = entry_of(entries, SPANISH_TRANSLATION)
    assert joined.text == FORM_RULINGS[0] and joined.text_in(Lang.ES) == SPANISH_TRANSLATION
    assert not entry_of(entries, SPANISH_ALONE).variants_in(Lang.EN)
    report = translation_coverage(entries)["languages"]
    assert report["es"]["translated"] == 1 and len(report["de"]["untranslated"]) == len(FORM_RULINGS)


def test_a_german_morph_ruling_never_joins_the_disguise_twin(e5):
    morph, disguise = TWO_RULINGS[1][1], TWO_RULINGS[1][3]
    german_disguise = ("Jederzeit, wenn du Priorität hast, kannst du die verdeckte Kreatur aufdecken, indem du "
                       "offenlegst, wie hoch ihre Verkleidungskosten sind, und diese Kosten bezahlst. Dies ist "
                       "eine Sonderaktion.")
    # No card on the German text, so both English rulings compete; only the disguise one may win.
    entries = dedup([rec(morph, "Ainok Tracker"), rec(disguise, "Bubble Smuggler", date="2024-02-02"),
                     rec(german_disguise, None, date="2025-01-01", source="de.txt", lang=Lang.DE)], embedder=e5)
    assert entry_of(entries, german_disguise).text in (disguise, german_disguise)
    assert not entry_of(entries, morph).variants_in(Lang.DE)


# --- card names ---------------------------------------------------------------------------------

def _bundled_json():
    return [p for p in sorted((corpus_dir() / "mtgjson").rglob("*.json"))]


def test_printed_german_and_spanish_set_files_are_card_data_not_problems():
    printed = [p for p in _bundled_json() if p.name.endswith((".de.json", ".es.json"))]
    assert printed
    for path in printed:
        result = mtgjson.parse(path.read_text(encoding="utf-8"), str(path))
        assert not result.problems and not result.records


def test_parser_exposes_every_card_name_it_reads():
    text = (corpus_dir() / "mtgjson" / "mtgjson3-2018-facedown" / "KTK.json").read_text(encoding="utf-8")
    names = {(n.english, n.lang, n.name) for n in mtgjson.parse(text, "KTK.json").card_names}
    assert ("Monastery Flock", Lang.DE, "Klosterschwarm") in names
    assert ("Monastery Flock", Lang.ES, "Parvada del monasterio") in names


def test_every_card_with_rulings_in_the_bundled_data_is_known_by_its_names():
    table = load_names(corpus_dir())
    missing = []
    for path in _bundled_json():
        result = mtgjson.parse(path.read_text(encoding="utf-8"), str(path))
        for name in result.card_names:
            if table.resolve(name.name) != name.english:
                missing.append((path.name, name))
        missing += [(path.name, r.card) for r in result.records if table.resolve(r.card) != r.card]
    assert not missing, missing[:10]


def test_names_a_judge_ingests_extend_the_table():
    table = CardNames()
    doc = {"cards": [{"name": "Hidden Dragonslayer", "rulings": [],
                      "foreignData": [{"language": "German", "name": "Verborgene Drachentöterin"},
                                      {"language": "Spanish", "name": "Matadragones oculta"}]}]}
    for n in mtgjson.parse(json.dumps(doc), "x.json").card_names:
        table.add(n.english, n.lang, n.name)
    assert table.resolve("Matadragones oculta") == table.resolve("verborgene drachentöterin") == "Hidden Dragonslayer"


def test_terminology_folds_longest_obsolete_term_first():
    terms = Terminology.from_yaml("terms:\n"
                                  "  - {obsolete: in play, current: on the battlefield, since: 2009-07-11}\n"
                                  "  - {obsolete: comes into play, current: enters the battlefield, since: 2009-07-11}\n")
    lex = Lexicon(terminology=terms)
    assert lex.fold("When it comes into play while in play") == "When it enters the battlefield while on the battlefield"


ETB = ("Because the permanent is on the battlefield both before and after it's turned face up, turning a permanent "
       "face up doesn't cause any enters-the-battlefield abilities to trigger.")
ETB_DE_LIGHTFORM = ("Da sich die bleibende Karte sowohl vor als auch nach dem Aufdecken im Spiel befindet, werden durch "
                    "das Aufdecken einer bleibenden Karte keine Fähigkeiten ausgelöst, die ausgelöst werden, wenn eine "
                    "bleibende Karte ins Spiel kommt.")
ETB_DE_PINE_WALKER = ("Weil die bleibende Karte vor und nach dem Aufdecken auf dem Schlachtfeld ist, werden durch das "
                      "Aufdecken einer bleibenden Karte keine Fähigkeiten ausgelöst, die beim Betreten des "
                      "Schlachtfelds auslösen.")


def test_two_cards_german_pages_both_translate_a_ruling_the_cards_share(e5):
    """tryout15: a judge's German page of Pine Walker pushed the bundled German Lightform wording of the
    shared ETB ruling out of its entry (only the one best German text of an entry could join); each
    card's page translates the ruling for that card, so both join. Two German texts of one card
    still compete."""
    records = [rec(ETB, "Lightform", date="2015-01-23"), rec(ETB, "Pine Walker", source="ktk.json"),
               rec(ETB_DE_LIGHTFORM, "Lightform", date="2015-01-23", source="lightform.de.txt", lang=Lang.DE),
               rec(ETB_DE_PINE_WALKER, "Pine Walker", date="2014-09-20", source="kiefer.de.txt", lang=Lang.DE)]
    entries = dedup(records, embedder=e5)
    assert len(entries) == 1
    assert {v.text for v in entries[0].variants_in(Lang.DE)} == {ETB_DE_LIGHTFORM, ETB_DE_PINE_WALKER}
    same_card = [*records[:3], rec(ETB_DE_PINE_WALKER, "Lightform", date="2014-09-20", source="kiefer.de.txt",
                                   lang=Lang.DE)]
    assert len(dedup(same_card, embedder=e5)) == 2  # one card's two German wordings: only the best joins


def test_a_german_text_of_several_cards_pages_competes_in_each_card_s_pool(e5):
    """Review: the pools were keyed by a text's exact set of cards, so a German text that Lightform's and
    Pine Walker's pages both give did not compete with another German text of Lightform's page: both
    joined. The texts of one card's page compete, whichever other cards also give one of them."""
    records = [rec(ETB, "Lightform", date="2015-01-23"), rec(ETB, "Pine Walker", source="ktk.json"),
               rec(ETB_DE_LIGHTFORM, "Lightform", date="2015-01-23", source="lightform.de.txt", lang=Lang.DE),
               rec(ETB_DE_PINE_WALKER, "Lightform", date="2014-09-20", source="kiefer.de.txt", lang=Lang.DE),
               rec(ETB_DE_PINE_WALKER, "Pine Walker", date="2014-09-20", source="kiefer.de.txt", line=2,
                   lang=Lang.DE)]
    entries = dedup(records, embedder=e5)
    english = entry_of(entries, ETB)
    assert len({v.text for v in english.variants_in(Lang.DE)}) == 1 and len(entries) == 2


# --- signs ----------------------------------------------------------------------------------------
# `match_key` drops punctuation, and with it the sign of "+1/+1": two rulings one sign apart had one key,
# so dedup called them one text (review of session 36, finding 7). A wording's sign is part of it.

PLUS = "As long as it's face down, enchanted creature gets +2/+2 and can't block."
MINUS = "As long as it's face down, enchanted creature gets -2/-2 and can't block."


def _entry_with_text(entries, text):
    (found,) = [e for e in entries if any(v.text == text for v in e.variants)]
    return found


@pytest.mark.parametrize("minus, date, source", [
    (MINUS, "2014-09-20", "set.json"),  # one page, one date: the same `match_key`, an exact-duplicate candidate
    (MINUS, "2024-02-02", "other.json"),  # another source, later: a revision candidate
    (MINUS.replace("-2/-2", "\u22122/\u22122"), "2024-02-02", "other.json"),  # minus sign
    (MINUS + " It's still a 2/2 creature.", "2024-02-02", "other.json"),  # one more sentence
], ids=["same-page", "revision", "minus-sign", "added-sentence"])
def test_wordings_one_sign_apart_are_two_rulings(minus, date, source):
    entries = dedup([rec(PLUS, "Gift of the Shell"), rec(minus, "Gift of the Shell", date=date, source=source, line=2)])
    plus_entry, minus_entry = _entry_with_text(entries, PLUS), _entry_with_text(entries, minus)
    assert plus_entry.id != minus_entry.id
    assert [v.text for v in plus_entry.variants] == [PLUS] and [v.text for v in minus_entry.variants] == [minus]


def test_wordings_with_the_same_signs_are_still_one_ruling():
    newer = "As long as it is face down, the enchanted creature gets +2/+2 and can't block."
    entries = dedup([rec(PLUS, "Gift of the Shell"), rec(newer, "Gift of the Shell", date="2024-02-02",
                                                         source="other.json")])
    assert len(entries) == 1 and entries[0].text == newer


def test_a_translation_must_say_the_same_signs():
    lex = lexicon()
    german_plus = "Solange sie verdeckt ist, erhält die verzauberte Kreatur +2/+2 und kann nicht blocken."
    german_minus = german_plus.replace("+2/+2", "-2/-2")
    words = len(german_plus.split())
    assert "digits" not in translation_gaps(lex.evidence(PLUS), lex.evidence(german_plus, Lang.DE), words)
    assert "digits" in translation_gaps(lex.evidence(PLUS), lex.evidence(german_minus, Lang.DE), words)
    assert "digits" not in translation_gaps(lex.evidence(MINUS), lex.evidence(german_minus, Lang.DE), words)


def test_each_german_wording_joins_the_english_ruling_of_its_own_sign(e5):
    german_plus = "Solange sie verdeckt ist, erhält die verzauberte Kreatur +2/+2 und kann nicht blocken."
    german_minus = german_plus.replace("+2/+2", "-2/-2")
    entries = dedup([rec(PLUS, "Gift of the Shell"), rec(MINUS, "Gift of the Shell", line=2),
                     rec(german_minus, "Gift of the Shell", date="2025-01-01", source="de.txt", lang=Lang.DE),
                     rec(german_plus, "Gift of the Shell", date="2025-01-01", source="de.txt", line=2,
                         lang=Lang.DE)], embedder=e5)
    assert _entry_with_text(entries, german_plus).text == PLUS
    assert _entry_with_text(entries, german_minus).text == MINUS


# --- mana symbols a copied page lost (tryout27 D5) -------------------------------------------------

DISGUISE_COST = ("A disguise ability lets you cast a card face down by paying {3} and announcing that you are using a "
                 "disguise ability. Any time you have priority, you can turn a face-down permanent with disguise face "
                 "up by paying its disguise cost.")
DISGUISE_WARD = ("The creature spell is a 2/2 creature spell with ward {2} that has no name, mana cost, or creature "
                 "types. The resulting creature is a 2/2 creature with ward {2} that has no name, mana cost, or "
                 "creature types. Both the spell and the resulting creature are colorless and have a mana value of 0.")
DISGUISE_CARDS = ("Bubble Smuggler", "Defenestrated Phantom", "Unyielding Gatekeeper")


def _official_and_copy(official_text, copy_text, copy_source="/judge/gesuchter-falke.txt"):
    official = [rec(official_text, card, date="2024-02-02", source="corpus/mkm.json", line=n)
                for n, card in enumerate(DISGUISE_CARDS)]
    copy = rec(copy_text, None, date=None, source=copy_source, line=3)
    return deduplicate(official + [copy], embedder=FakeEmbedder(), terminology=CORPUS.terminology,
                       lexicon=lexicon(), is_official=lambda source: source.startswith("corpus/"))


@pytest.mark.parametrize("official_text, copy_text", [
    (DISGUISE_COST, DISGUISE_COST.replace("{3}", "")),
    (DISGUISE_WARD, DISGUISE_WARD.replace(" {2}", "")),
    # lost symbols and a word changed elsewhere: a revision still
    (DISGUISE_COST, DISGUISE_COST.replace("{3} ", "").replace("you can turn", "you may turn")),
])
def test_a_copy_that_lost_its_mana_symbols_joins_the_official_ruling(official_text, copy_text):
    """A site that draws mana symbols as images gives "by paying  and announcing" when copied."""
    (entry,) = _official_and_copy(official_text, copy_text)
    assert entry.text == official_text
    assert {v.relation for v in entry.variants if v.source.startswith("/judge/")} == {Relation.REVISION}


@pytest.mark.parametrize("official_text, copy_text", [
    (DISGUISE_COST, DISGUISE_COST.replace("{3}", "{2}")),  # another cost
    (DISGUISE_COST, DISGUISE_COST.replace("{3}", "three mana")),  # words for the symbol
    (DISGUISE_COST, DISGUISE_COST.replace("{3}", "X")),
    (DISGUISE_COST, DISGUISE_COST.replace("{3}", "life")),  # another word where the symbol was
    (DISGUISE_WARD, DISGUISE_WARD.replace(" {2}", "").replace("no name", "a name")),  # and a negation gone
])
def test_mana_symbols_written_otherwise_are_another_ruling(official_text, copy_text):
    assert len(_official_and_copy(official_text, copy_text)) == 2


def test_an_official_wording_without_the_symbols_is_another_ruling():
    """An official text writes its mana symbols: two official wordings a symbol apart are two rulings."""
    assert len(_official_and_copy(DISGUISE_COST, DISGUISE_COST.replace("{3} ", ""), copy_source="corpus/x.json")) == 2


# --- a card's page abridging a shared ruling (tryout27 D9) -----------------------------------------

TURN_UP_DISGUISE = ("Any time you have priority, you may turn the face-down creature face up by revealing what its "
                    "disguise cost is and paying that cost. This is a special action. It doesn't use the stack and "
                    "can't be responded to. Only a face-down permanent can be turned face up this way; a face-down "
                    "spell cannot.")


def _shared_and_card(shared_text, card_text, card="Mistway Spy"):
    shared = [rec(shared_text, c, date="2024-02-02", source="corpus/mkm.json", line=n)
              for n, c in enumerate(DISGUISE_CARDS)]
    return dedup(shared + [rec(card_text, card, date="2024-02-02", source="/judge/mistway-spy.txt")])


def test_a_cards_page_giving_a_shared_ruling_less_its_last_sentence_joins_that_ruling():
    """Mistway Spy's page gave the disguise turn-face-up ruling without "Only a face-down permanent
    can be turned face up this way ...": the card is not among the ruling's cards, but its wording
    adds nothing to it."""
    abridged = TURN_UP_DISGUISE.split(" Only a face-down")[0]
    (entry,) = _shared_and_card(TURN_UP_DISGUISE, abridged)
    assert entry.text == TURN_UP_DISGUISE and "Mistway Spy" in entry.cards


@pytest.mark.parametrize("card_text", [
    # the card's own sentence added, or a sentence of the shared ruling changed: the card's ruling
    TURN_UP_DISGUISE + " Its last ability triggers then.",
    TURN_UP_DISGUISE.replace("Only a face-down permanent can be turned face up this way; a face-down spell cannot.",
                             "A face-down spell can be turned face up this way too."),
    # the sentences left are not the shared ruling's words
    TURN_UP_DISGUISE.split(" Only a face-down")[0].replace("This is a special action.", "This is no special action."),
])
def test_a_cards_own_wording_of_a_shared_ruling_stays_the_cards(card_text):
    assert len(_shared_and_card(TURN_UP_DISGUISE, card_text)) == 2


# --- a copy joins one ruling, never two (review39 #1, #3) --------------------------------------

@pytest.mark.parametrize("order", [("A", "B", "copy"), ("copy", "B", "A")])
def test_a_copy_without_its_mana_symbols_that_fits_two_costs_joins_neither(order):
    """A copy that lost its symbols fits {3} and {2} alike: joined to both, it would make two rulings
    one (and, the newest, their canonical text)."""
    other_cost = DISGUISE_COST.replace("{3}", "{2}")
    records = {"A": [rec(DISGUISE_COST, c, date="2024-02-02", source="corpus/mkm.json", line=n)
                     for n, c in enumerate(("Bubble Smuggler", "Defenestrated Phantom"))],
               "B": [rec(other_cost, c, date="2023-02-02", source="corpus/other.json", line=n)
                     for n, c in enumerate(("Unyielding Gatekeeper", "Hooded Hydra"))],
               "copy": [rec(DISGUISE_COST.replace("{3}", ""), None, date=None, source="/judge/copy.txt", line=3)]}
    entries = deduplicate([r for key in order for r in records[key]], embedder=FakeEmbedder(),
                          terminology=CORPUS.terminology, lexicon=lexicon(), is_official=lambda s: s.startswith("corpus/"))
    assert sorted(len(e.variants) for e in entries) == [1, 2, 2]
    assert all(len({v.text for v in e.variants if "{" in v.text}) <= 1 for e in entries)


def test_a_cards_abridged_copy_of_two_shared_rulings_joins_neither():
    """The sentences two shared rulings have in common, on one card's page: a copy of either, so of
    neither ("a face-down spell cannot" and "can ... too" stay two rulings)."""
    first = ("Any time you have priority, you may turn the face-down creature face up by revealing what its disguise "
             "cost is and paying that cost. This is a special action. It doesn't use the stack and can't be "
             "responded to.")
    cannot = first + " Only a face-down permanent can be turned face up this way; a face-down spell cannot."
    can = first + " A face-down spell can be turned face up this way too."
    records = [rec(cannot, c, date="2024-02-02", source="corpus/mkm.json", line=n)
               for n, c in enumerate(("Bubble Smuggler", "Defenestrated Phantom"))]
    records += [rec(can, c, date="2019-02-02", source="corpus/war.json", line=n)
                for n, c in enumerate(("Hooded Hydra", "Unyielding Gatekeeper"))]
    records.append(rec(first, "Mistway Spy", date="2024-02-02", source="/judge/mistway-spy.txt"))
    entries = dedup(records)
    assert sorted(len(e.variants) for e in entries) == [1, 2, 2]


def test_a_newer_copy_without_its_mana_symbols_is_not_the_canonical_text():
    """A judge's page with the cost and a later copy from a site that draws symbols as images: one
    ruling, worded with its cost (else `kb outdated` calls the right wording replaced by one with none)."""
    entries = deduplicate([rec(DISGUISE_COST, "Hooded Hydra", date="2024-02-02", source="/judge/hydra.txt"),
                           rec(DISGUISE_COST.replace("{3}", ""), "Hooded Hydra", date="2025-03-01",
                               source="/judge/copy.txt")],
                          embedder=FakeEmbedder(), terminology=CORPUS.terminology, lexicon=lexicon(),
                          is_official=lambda s: s.startswith("corpus/"))
    (entry,) = entries
    assert "{3}" in entry.text

"""Titles and card headings of a judge's pages (tryout24): which card a title or a heading names.
The pages are the try-out's own, under tests/data/pages/tryout24-*."""

from __future__ import annotations

import pytest

from kb.corpus import Corpus
from kb.ingest import decode, notes, pages, parse_text
from tests.conftest import DATA

NAMES = Corpus.default().names


def read(name: str):
    path = DATA / "pages" / f"tryout24-{name}"
    return parse_text(decode(path.read_bytes()), path.name, names=NAMES, match_clause=None)


def titled(title: str, date: str, ruling: str):
    """A card page of one dated ruling under `title`, parsed as `kb ingest` reads it (names, Oracle, typos)."""
    page = f"{title}\n\n{date}\n{ruling}\n"
    return pages.parse_card_page(page, "titled.txt", NAMES.resolve, NAMES.oracle_text, NAMES.closest)


def test_the_first_card_heading_of_a_page_whose_title_names_no_card_names_its_rulings_card():
    """tryout24 D2: "Morph-Rulings auf Deutsch (Khans von Tarkir / Drachen von Tarkir)" became a card
    and its German name, and the first heading (Frostfeder-Avior, line 4) was skipped as preamble."""
    result = read("morph-uebersetzungen-de-cp1252.txt")
    assert [(r.line, r.card) for r in result.records] == [
        (7, "Icefeather Aven"), (10, "Icefeather Aven"), (15, "Den Protector"), (18, "Den Protector"),
        (23, "Hidden Dragonslayer")]
    assert result.card_names == ()
    assert not [p for p in result.problems if "Frostfeder-Avior" in p.reason or "Tarkir" in p.reason]


@pytest.mark.parametrize("title, card", [
    # " / " inside brackets: the title is one name, as written
    ("Morph-Rulings auf Deutsch (Khans von Tarkir / Drachen von Tarkir)",
     "Morph-Rulings auf Deutsch (Khans von Tarkir / Drachen von Tarkir)"),
    # a sentence after " / " is no card's translation (the part before it is read as a site title's)
    ("Regeln / Fragen, die unsere Judge-Gruppe im Laufe des Prerelease-Wochenendes gesammelt hat", "Regeln"),
])
def test_a_title_split_at_a_slash_into_halves_that_are_no_names_is_no_card_and_translation(title, card):
    """tryout24 D2: each half of a "name / translation" title must be a name: brackets closed, a few words."""
    page = f"{title}\n\n20.09.2014\n\nDie Karte kehrt auf die Hand ihres Besitzers zurück.\n"
    result = pages.parse_card_page(page, "title.txt", NAMES.resolve)
    assert [r.card for r in result.records] == [card]
    assert result.card_names == ()


def test_a_release_notes_card_block_one_letter_off_a_card_its_bullets_name_is_that_card():
    """tryout24 D3: the block "Lense of Clarity" (its bullets say "Lens of Clarity") was a card of its
    own, with no note."""
    result = read("KTK-release-notes-morph-excerpt.md")
    assert [r.card for r in result.records if r.line >= 50] == ["Lens of Clarity"] * 3
    notes_ = [p for p in result.problems if p.line == 50]
    assert len(notes_) == 1 and notes_[0].ignored
    assert notes_[0].reason == ("the card block 'Lense of Clarity' names no card the KB knows in English, German "
                                "or Spanish, but its rulings name 'Lens of Clarity' (Lens of Clarity), the known "
                                "card nearest to 'Lense of Clarity': its rulings are filed under 'Lens of Clarity'")


def test_a_release_notes_card_block_one_letter_off_a_card_its_bullets_do_not_name_asks_did_you_mean():
    path = DATA / "pages" / "tryout24-KTK-release-notes-morph-excerpt.md"
    text = decode(path.read_bytes()).replace("* Lens of Clarity", "* This artifact")
    result = notes.parse_release_notes(text, "ktk.md", NAMES.resolve, NAMES.closest)
    assert [r.card for r in result.records if r.line >= 50] == ["Lense of Clarity"] * 3
    assert [p.reason for p in result.problems if p.line == 50] == [
        "the card block 'Lense of Clarity' names no card the KB knows in English, German or Spanish: its rulings "
        "are filed under 'Lense of Clarity' as written; did you mean 'Lens of Clarity' (Lens of Clarity)? (check "
        "its spelling if the card is not new)"]


def test_a_markdown_headings_marks_are_no_part_of_the_card_its_title_names():
    """tryout24 D4: "# Blasenschmugler – Rulings mit Übersetzung" filed the rulings under "# Blasenschmugler"."""
    result = read("blasenschmuggler-tabelle-de.md")
    assert {r.card for r in result.records} == {"Blasenschmugler"}
    assert [p.reason for p in result.problems if p.line == 1] == [
        "the title names no card the KB knows in English, German or Spanish: its rulings are filed under "
        "'Blasenschmugler' as written; did you mean 'Blasenschmuggler' (Bubble Smuggler)? (check its spelling "
        "if the card is not new)"]


# --- tryout27 D2: a title that holds a known card's name as one of its words is not that card ---------

def read27(name: str):
    path = DATA / "pages" / f"tryout27-{name}"
    return parse_text(decode(path.read_bytes()), path.name, names=NAMES, match_clause=None)


# Cards printed after the bundled 2018 names, each ending in (or holding after a joining word) the name of
# an older card: Heaven (of Heaven // Earth), Vigor, Despair, Death (of Life // Death), Extinction, Draco,
# Justice, Drowned.
NEWER_CARDS = ["Death in Heaven", "Force of Vigor", "Force of Despair", "Fear of Death", "Return from Extinction",
               "Scion of Draco", "Sword of Truth and Justice", "Lier, Disciple of the Drowned"]


@pytest.mark.parametrize("title", NEWER_CARDS)
def test_a_newer_cards_title_ending_in_an_older_cards_name_is_no_known_card(title):
    """tryout27 D2: "Death in Heaven" (2023) was filed under Heaven, the word after "in", with no note."""
    assert pages._card_in_title(title, NAMES.resolve) is None


@pytest.mark.parametrize("title, card", [
    *[(title, title) for title in NEWER_CARDS],
    # a heading before the name: the name is all its words, not the last ones that are a card
    ("Notes and Rules Information for Death in Heaven:", "Death in Heaven"),
    ("Rulings for Force of Vigor", "Force of Vigor"),
    ("Regelungen zu Return from Extinction", "Return from Extinction"),
])
def test_a_newer_cards_rulings_are_filed_under_its_name_as_written_with_the_unknown_title_note(title, card):
    result = titled(title, "2023-10-13", "The player who controls a face-down permanent may look at it at any time.")
    assert [r.card for r in result.records] == [card]
    assert [p.reason for p in result.problems] == [
        f"the title names no card the KB knows in English, German or Spanish: its rulings are filed under "
        f"{card!r} as written (check its spelling if the card is not new)"]


@pytest.mark.parametrize("title, card", [
    ("Rulings for Hooded Hydra", "Hooded Hydra"),
    ("View all rulings for Den Protector", "Den Protector"),
    ("Aclaraciones sobre Forma de Ira", "Rageform"),
    ("Notes and Rules Information for Heaven:", "Heaven"),
    ("Return to Dust", "Return to Dust"),  # a card's name holding an older card's (Dust) is that card
    # a title written as a sentence, not a name, names the card its last capitalised words are (review39 #4)
    ("Judge questions about Hooded Hydra", "Hooded Hydra"),
    ("my notes on Den Protector", "Den Protector"),
    ("Preguntas sobre Hooded Hydra", "Hooded Hydra"),
])
def test_a_heading_or_a_sentence_before_a_known_cards_name_still_names_that_card(title, card):
    assert pages._card_in_title(title, NAMES.resolve) == card


@pytest.mark.parametrize("title, near", [
    ("Hooded Hydar", "Hooded Hydra"),
    ("Hdden Dragonslayer", "Hidden Dragonslayer"),
    ("Rulings for Hooded Hydar", "Hooded Hydra"),
    ("Notes and Rules Information for Lense of Clarity:", "Lens of Clarity"),
])
def test_a_misspelt_title_is_still_read_as_the_card_its_rulings_name(title, near):
    result = titled(title, "2014-09-20", f"{near} doesn't stop being a 2/2 face-down creature this way.")
    assert [r.card for r in result.records] == [near]
    assert f"its rulings are filed under {near!r}" in result.problems[-1].reason


def test_the_tryout27_death_in_heaven_page_is_filed_under_death_in_heaven():
    result = read27("death-in-heaven.clean.txt")
    assert [r.card for r in result.records] == ["Death in Heaven"] * 5
    assert [p.reason for p in result.problems if p.line == 1] == [
        "the title names no card the KB knows in English, German or Spanish: its rulings are filed under "
        "'Death in Heaven' as written (check its spelling if the card is not new)"]


@pytest.mark.parametrize("line", ["I, II", "I", "II, III", "III —", "IV", "I, II, III", "I, II -"])
def test_a_saga_chapter_line_is_no_cards_name(line):
    """tryout27 D2: Death in Heaven's "I, II" chapter line, on a line of its own between rulings, named the
    card of every ruling below it."""
    assert pages._card_heading(line, NAMES.resolve) is None


@pytest.mark.parametrize("line", ["X-Men", "Vivi Ornitier", "Ixidron"])
def test_a_name_that_opens_with_roman_numeral_letters_is_still_a_cards_heading(line):
    assert pages._card_heading(line, None) == line


def test_a_saga_chapter_line_between_a_new_cards_rulings_is_no_card():
    result = read27("death-in-heaven.saga-text.txt")
    assert {r.card for r in result.records} == {"Death in Heaven"}


# --- tryout27 D3: a title line's mana cost is no part of the card's name ---------------------------------

@pytest.mark.parametrize("title, card", [
    ("Expose the Culprit {1}{R}", "Expose the Culprit"),
    ("Mistway Spy {U}", "Mistway Spy"),
    ("# Death in Heaven {3}{B}{B}", "Death in Heaven"),
    ("Wobbly Foo {X}{X}{G}", "Wobbly Foo"),
    ("Wobbly Foo {2/W}{2/W}", "Wobbly Foo"),  # monocolored hybrid
    ("Wobbly Foo {1}{G/P}", "Wobbly Foo"),  # Phyrexian
    ("Wobbly Foo {W/U}{W/U}", "Wobbly Foo"),  # hybrid
    ("Wobbly Foo {W/U/P}", "Wobbly Foo"),  # hybrid Phyrexian
    ("Wobbly Foo {1} {R}", "Wobbly Foo"),  # the symbols copied apart
    # ... and what follows the cost on a site's title line (review39 #6)
    ("Expose the Culprit {1}{R} - Gatherer", "Expose the Culprit"),
    ("Expose the Culprit {1}{R} · Murders at Karlov Manor (MKM) #126 · Scryfall Magic The Gathering Search",
     "Expose the Culprit"),
    ("Mistway Spy {U} (MKM)", "Mistway Spy"),
    ("Mistway Spy {1}{U} Creature — Human Spy", "Mistway Spy"),
])
def test_a_newer_cards_title_line_with_its_mana_cost_files_the_rulings_under_the_name_alone(title, card):
    """tryout27 D3: a Scryfall page's first line is the name and the mana cost; the rulings were filed
    under 'Expose the Culprit {1}{R}', and `kb list --card "Expose the Culprit"` found nothing."""
    result = titled(title, "2024-02-02",
                    "The pile is shuffled to disguise from your opponents which creature is which.")
    assert [r.card for r in result.records] == [card]
    assert f"its rulings are filed under {card!r} as written" in result.problems[-1].reason


@pytest.mark.parametrize("title, card", [
    ("Hooded Hydra {3}{G}{G}", "Hooded Hydra"),
    ("Reaper King {2/W}{2/U}{2/B}{2/R}{2/G}", "Reaper King"),
    ("Birthing Pod {3}{G/P}", "Birthing Pod"),
    ("Kitchen Finks {1}{G/W}{G/W}", "Kitchen Finks"),
    ("Heaven {X}{G}", "Heaven"),
    ("Hooded Hydar {3}{G}{G}", "Hooded Hydra"),  # misspelt: its ruling names the card
])
def test_a_known_cards_title_line_with_its_mana_cost_names_the_card(title, card):
    result = titled(title, "2014-09-20", f"{card} doesn't stop being a 2/2 face-down creature this way.")
    assert [r.card for r in result.records] == [card]


@pytest.mark.parametrize("name, card, rulings", [
    ("expose-the-culprit.scryfall.txt", "Expose the Culprit", 5),
    ("mistway-spy.scryfall.txt", "Mistway Spy", 3),
])
def test_the_tryout27_scryfall_pages_are_filed_under_the_cards_name(name, card, rulings):
    result = read27(name)
    assert [r.card for r in result.records] == [card] * rulings

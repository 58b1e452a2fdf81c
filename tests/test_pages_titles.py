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

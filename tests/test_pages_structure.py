"""How a card site's page is laid out around its rulings (tryout27): the card's printed text above the
heading that opens the rulings, a ruling's source and date under it, undated rulings one per line. The
pages are the try-out's own, under tests/data/pages/tryout27-*."""

from __future__ import annotations

import pytest

from kb.corpus import Corpus
from kb.ingest import Format, decode, pages, parse_text
from tests.conftest import DATA

NAMES = Corpus.default().names


def read27(name: str, fmt: Format | None = None):
    path = DATA / "pages" / f"tryout27-{name}"
    return parse_text(decode(path.read_bytes()), path.name, names=NAMES, match_clause=None, fmt=fmt)


def skipped(result) -> list[str]:
    return [p.reason for p in result.problems if not p.ignored]


# --- D4: an unknown card's printed text above "Notes and Rules Information for X:" is the card's text ---

@pytest.mark.parametrize("name, rulings, printed", [
    ("expose-the-culprit.scryfall.txt", 5, "Turn target face-down"),
    ("mistway-spy.scryfall.txt", 3, "Disguise {1}{U}"),
])
def test_a_scryfall_page_of_a_card_the_kb_does_not_know_exits_clean(name, rulings, printed):
    """tryout27 D4: the Oracle lines between the title and "Notes and Rules Information for X:" were
    skipped units (exit 1): the KB has no Oracle text of a new card to recognise them by."""
    result = read27(name)
    assert len(result.records) == rulings
    assert skipped(result) == []
    assert [p.line for p in result.problems if p.ignored and "before the first ruling date" in p.reason] == [2]
    assert not [p for p in result.problems if printed in p.reason and not p.ignored]


@pytest.mark.parametrize("heading", ["Notes and Rules Information for Brand New Card:", "Rulings", "Card Rulings",
                                     "Regelungen zu Brand New Card"])
def test_text_above_the_heading_that_opens_the_rulings_is_the_cards_printed_text(heading):
    page = (f"Brand New Card\nCreature — Human Rogue\nWhen this creature enters, target player discards a card.\n"
            f"{heading}\n- Brand New Card's ability targets any player, including you. (2024-02-02)\n")
    result = pages.parse_card_page(page, "new.txt", NAMES.resolve, NAMES.oracle_text, NAMES.closest)
    assert [(r.line, r.card) for r in result.records] == [(5, "Brand New Card")]
    assert skipped(result) == []


def test_undated_text_with_no_rulings_heading_above_the_first_date_is_still_reported():
    """Only the heading's position makes the text above it the card's: a lost ruling stays reported."""
    page = ("Brand New Card\nIf it would die, it's exiled instead, and its owner draws a card.\n"
            "2024-02-02\nBrand New Card's ability targets any player, including you.\n")
    result = pages.parse_card_page(page, "new.txt", NAMES.resolve, NAMES.oracle_text, NAMES.closest)
    assert len(skipped(result)) == 1 and "text before the first date line skipped" in skipped(result)[0]


# --- D1: mtgcircle: `(wotc • 2023-10-13)` under each ruling, `• #671Rulings` over them -----------------

def test_the_mtgcircle_page_reads_every_ruling_with_its_date_and_card():
    """tryout27 D1: `• #671Rulings` (the collector number glued to the heading) was read as an unknown
    date and each `(wotc • 2023-10-13)` as text: nothing added, exit 1."""
    result = read27("death-in-heaven.mtgcircle.txt")
    assert [(r.line, r.date, r.card) for r in result.records] == [
        (line, "2023-10-13", "Death in Heaven") for line in (11, 13, 15, 17, 19, 22, 24, 26)]
    texts = [r.text for r in result.records]
    assert texts[0].startswith("Double-faced permanents that are already on the battlefield")
    assert texts[4].endswith("It will be whatever is printed on the card.")
    assert texts[5:] == texts[:3]  # the site prints the block twice: read again, dedup joins them
    assert skipped(result) == []
    # the card's printed text above the heading is a note, the heading read as no card nor ruling
    assert [p.line for p in result.problems if "before the first ruling date" in p.reason] == [3]
    assert not [r for r in result.records if "Rulings" in r.text or "Saga" in r.text]


@pytest.mark.parametrize("line, date", [
    ("(wotc • 2023-10-13)", "2023-10-13"), ("(Wizards of the Coast - 2024-02-02)", "2024-02-02"),
    ("[Scryfall, 2024-02-02]", "2024-02-02"), ("(2024-02-02)", "2024-02-02"),
    ("• #671Rulings", None), ("• #671", None), ("(see rule 702.37)", None)])
def test_a_rulings_source_and_date_in_brackets_is_a_date_line_and_a_collector_number_is_none(line, date):
    assert pages._date_part(line) == date


def test_a_rulings_heading_between_two_copies_of_the_rulings_is_no_card_and_no_lost_text():
    page = ("Brand New Card\nSorcery\nRulings\nBrand New Card's ability targets any player.\n(wotc • 2024-02-02)\n"
            "It can't be countered.\n(wotc • 2024-02-02)\nRulings\nBrand New Card's ability targets any player.\n"
            "(wotc • 2024-02-02)\n")
    result = pages.parse_card_page(page, "new.txt", NAMES.resolve, NAMES.oracle_text, NAMES.closest)
    assert [(r.line, r.card) for r in result.records] == [(4, "Brand New Card"), (6, "Brand New Card"),
                                                          (9, "Brand New Card")]
    assert skipped(result) == []


def test_a_first_ruling_of_one_line_takes_no_card_text_above_it_when_every_ruling_is_one_line():
    """The Left of tryout27's titles fix: with no heading nor blank line over the first ruling, its date
    under it made the Saga's type line and reminder text a ruling, and the real first ruling was lost."""
    result = parse_text(decode((DATA / "pages" / "tryout27-death-in-heaven.saga-text.txt").read_bytes()),
                        "saga.txt", names=NAMES, match_clause=None)
    assert result.records[0].line == 10
    assert result.records[0].text.startswith("Double-faced permanents that are already on the battlefield")
    assert not [r for r in result.records if "Saga" in r.text]
    # the printed text above it, with game words and no heading to place it, is still reported
    assert [p.line for p in result.problems if not p.ignored] == [4, 6, 7]

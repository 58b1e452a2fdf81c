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


# --- D6: undated rulings one a line, under the card's title --------------------------------------------

def test_search_page_reads_undated_rulings_one_a_line_under_the_cards_title():
    """tryout27 D6: the mrraow list gives a card's rulings one a line with no blank line between them:
    --format search-page read one ruling per paragraph only ("search page with no results"), and a
    page read that way lost its card."""
    result = read27("moldering-gym-weight-room.mrraow.txt", Format.SEARCH_PAGE)
    assert [(r.line, r.card, r.date) for r in result.records] == [
        (line, "Moldering Gym // Weight Room", None) for line in range(2, 9)]
    assert result.records[1].text.startswith("Any time you have priority during a main phase of your turn")
    assert skipped(result) == []
    assert any("names no card the KB knows" in p.reason for p in result.problems if p.ignored)


@pytest.mark.parametrize("name, card, lines, page_text", [
    ("gesuchter-falke.mct.txt", "Gesuchter Falke", [30, 31, 32], 2),
    ("entlarvung-des-schuldigen.mct.txt", "Entlarvung des Schuldigen", [20, 21, 22, 23], 3),
])
def test_search_page_reads_a_card_sites_undated_rulings_under_its_rulings_heading(name, card, lines, page_text):
    """tryout27 D6: magiccollectiontrader prints the card's text, flags and formats above `Rulings`; read as
    a search page, they were rulings (or nothing), the rulings under the heading one glued unit, no card."""
    result = read27(name, Format.SEARCH_PAGE)
    assert [(r.line, r.card) for r in result.records] == [(line, card) for line in lines]
    assert skipped(result) == []
    assert [p.line for p in result.problems if "above the rulings heading" in p.reason] == [page_text]


def test_a_search_pages_paragraphs_keep_no_card_and_one_unit_each():
    """Its real use unchanged: a "Search" page's paragraphs, each one unit (a ruling with its example on
    the next line stays whole), no card; a page titled like a card but in paragraphs keeps none either."""
    for title in ("Search", "Hooded Hydra"):
        page = (f"{title}\n\nA face-down creature has no name.\nExample: it can't be targeted by name.\n\n"
                "Turning a permanent face up doesn't cause enters-the-battlefield abilities to trigger.\n")
        result = pages.parse_search_page(page, "s.txt", None, NAMES.resolve, NAMES.closest)
        assert [(r.line, r.card) for r in result.records] == [(3, None), (6, None)]


def test_a_search_page_glued_to_lines_that_are_no_sentences_says_what_it_reads():
    page = "Hooded Hydra\nCreature — Snake\nA face-down creature has no name.\n"
    result = pages.parse_search_page(page, "s.txt", None, NAMES.resolve, NAMES.closest)
    assert result.records == ()
    assert "one per line when no blank line separates them and every line ends a sentence" in result.problems[0].reason
    assert "line 2 does not" in result.problems[0].reason


def test_the_card_pages_advice_for_undated_rulings_says_one_a_line_is_read():
    """tryout27 D6: the hint said only "one per paragraph", so a judge added blank lines by hand."""
    result = read27("moldering-gym-weight-room.mrraow.txt")
    assert result.records == ()
    assert "one per line when no blank line separates them and every line ends a sentence" in skipped(result)[0]


def test_a_rulings_heading_naming_the_next_card_gives_its_rulings_that_card():
    """`Rulings for Dog Walker` between two cards' rulings: the card after the heading (the heading whole
    was the card's name before tryout27's pages fix, as any capitalised line)."""
    page = ("Hooded Hydra\n\n2014-09-20\nHooded Hydra's last ability lets you cast it face down.\n\n"
            "Rulings for Brand New Card\n\n2024-02-02\nBrand New Card's ability targets any player.\n")
    result = pages.parse_card_page(page, "two.txt", NAMES.resolve, NAMES.oracle_text, NAMES.closest)
    assert [(r.line, r.card) for r in result.records] == [(4, "Hooded Hydra"), (9, "Brand New Card")]

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

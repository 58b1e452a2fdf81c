"""A judge's pages of try-out 29 (bench/results/tryout29.md): a deck note of several cards, a German
rules column, a Gatherer page copied without its card's name. The pages are the try-out's own, under
tests/data/pages/tryout29-*."""

from __future__ import annotations

import pytest

from kb.corpus import Corpus
from kb.ingest import decode, pages, parse_text
from tests.conftest import DATA

NAMES = Corpus.default().names


def read29(name: str):
    path = DATA / "pages" / f"tryout29-{name}"
    return parse_text(decode(path.read_bytes()), path.name, names=NAMES, match_clause=None)


def parse(text: str):
    return pages.parse_card_page(text, "page.txt", NAMES.resolve, NAMES.oracle_text, NAMES.closest)


# --- D1: a card's name on a heading line of its own starts that card's rulings ---

def test_each_markdown_card_heading_of_a_deck_note_starts_its_cards_rulings():
    """tryout29 D1: six `### Card` headings, each with cost lines, the quoted Oracle text and
    `(2024-09-20) text` rulings: all 16 rulings were filed under the first card, "Alrund's Epiphany"."""
    result = read29("etrata-heist-research.dates-first.md")
    cards = {r.line: r.card for r in result.records}
    assert [cards[line] for line in (10, 27, 38, 51, 64, 77)] == [
        "Alrund's Epiphany", "Satoru, the Infiltrator", "They Came from the Pipes", "Glitch Interpreter",
        "Thieving Amalgam", "Orochi Soul-Reaver"]
    assert len(cards) == 16
    # the headings are read, never reported as text skipped
    assert not [p for p in result.problems if "###" in p.reason]


@pytest.mark.parametrize("section", ["## Another section", "## Another Section"])
def test_a_card_heading_after_a_section_of_prose_names_the_rulings_under_it(section):
    """tryout29 D1: a section's heading and prose stand between the last ruling and the next card's name
    (the next card's heading is the one nearest its rulings, even when the section's reads as a name)."""
    page = ("### First Card\n\n(2024-09-20) The first card's ruling is about creatures.\n\n" + section + "\n\n"
            "Some words about the deck.\n\n### Second Card {1}{U}\n- Price: $1\n\n"
            "(2024-09-20) The second card's ruling is about creatures.\n")
    result = parse(page)
    assert [(r.line, r.card) for r in result.records] == [(3, "First Card"), (12, "Second Card")]

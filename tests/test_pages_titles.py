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


def test_a_markdown_headings_marks_are_no_part_of_the_card_its_title_names():
    """tryout24 D4: "# Blasenschmugler – Rulings mit Übersetzung" filed the rulings under "# Blasenschmugler"."""
    result = read("blasenschmuggler-tabelle-de.md")
    assert {r.card for r in result.records} == {"Blasenschmugler"}
    assert [p.reason for p in result.problems if p.line == 1] == [
        "the title names no card the KB knows in English, German or Spanish: its rulings are filed under "
        "'Blasenschmugler' as written; did you mean 'Blasenschmuggler' (Bubble Smuggler)? (check its spelling "
        "if the card is not new)"]

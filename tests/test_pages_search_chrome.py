"""--format search-page on real pages (tryout29 D9, tryout30 D9): a site's chrome (a post's date, a
forum byline, a wiki's section headings) is no ruling, a list item's bullet is no part of its ruling,
and a gap before a comma where no cost is described is no lost mana symbol."""

from __future__ import annotations

from kb.corpus import Corpus
from kb.ingest import Format, pages, parse_text

NAMES = Corpus.default().names


def search(page: str) -> tuple[list[tuple[int, str, str | None]], list[tuple[int | None, bool, str]]]:
    result = parse_text(page, "page.txt", names=NAMES, match_clause=None, fmt=Format.SEARCH_PAGE)
    return ([(r.line, r.text, r.card) for r in result.records],
            [(p.line, p.ignored, p.reason) for p in result.problems])


def test_a_search_page_drops_a_list_items_bullet_as_a_card_page_does():
    records, _ = search("Search\n\n  • You can't cast a foretold card on the same turn you exile it.\n\n"
                        "* A face-down creature has no name.\n")
    assert [text for _, text, _ in records] == ["You can't cast a foretold card on the same turn you exile it.",
                                                "A face-down creature has no name."]

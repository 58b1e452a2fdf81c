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


WIKI = ("From MTG Wiki\nJump to: navigation, search\n\nForetell is a keyword ability featured on cards in Kaldheim.\n\n"
        "Description[edit | edit source]\n\nForetell helper card\n\n"
        "Cards interacting with Foretell[edit | edit source]\n\n"
        "Rulings[edit | edit source]\n\n  • You can't cast a foretold card on the same turn you exile it.\n")


def test_a_wikis_section_headings_are_page_text_not_rulings():
    """MTG Wiki's headings end in their edit links: "Cards interacting with Foretell[edit | edit source]" was
    stored as a ruling. With no rulings heading among them, each is a note and the paragraphs stay units."""
    page = WIKI.replace("Rulings[edit", "Notes[edit").replace("From MTG Wiki", "Search")
    records, problems = search(page)
    assert [line for line, _, _ in records] == [4, 8, 14]
    assert [line for line, ignored, reason in problems if "section heading" in reason and ignored] == [6, 10, 12]


def test_a_wikis_rulings_heading_is_a_rulings_heading_and_its_sites_tagline_no_card():
    """"Rulings[edit | edit source]" is the heading a card page puts over rulings: what is above it is the page's
    own, and the title "From MTG Wiki" names a site, so the rulings under it are filed under no card."""
    records, problems = search(WIKI)
    assert records == [(14, "You can't cast a foretold card on the same turn you exile it.", None)]
    assert [line for line, _, reason in problems if "above the rulings heading" in reason] == [2]
    assert any("names a site, not a card" in reason for _, _, reason in problems)
    assert not any("names no card the KB knows" in reason for _, _, reason in problems)


def test_an_older_wikis_edit_link_before_its_rulings_heading_is_a_rulings_heading_too():
    """MTG Salvation's wiki (ingest47 p01) prints `[edit] Rulings`: the page above it (the CR it quotes, a
    bulleted `502.74. Hideaway` no date) was glued into rulings, and each ruling under it was no unit."""
    page = ("Hideaway\n\nFrom MTG Salvation Wiki\n\nHideaway is a triggered keyword ability.\n\n"
            "  • 502.74. Hideaway\n    • 502.74a Hideaway represents a static ability and a triggered ability.\n\n"
            "[edit] Rulings\n\n  • If the land with hideaway leaves play, no one can look at the removed card anymore.\n"
            "  • The removed card can be looked at by any player who previously controlled that land.\n")
    records, problems = search(page)
    assert [(line, text) for line, text, _ in records] == [
        (12, "If the land with hideaway leaves play, no one can look at the removed card anymore."),
        (13, "The removed card can be looked at by any player who previously controlled that land.")]
    assert [line for line, _, reason in problems if "above the rulings heading" in reason] == [3]


def test_an_edit_marker_before_a_sentence_is_a_ruling_its_author_edited_not_a_wiki_heading():
    """review48 M4: every line opening `[edit]` was a wiki's heading, so a forum post's "[Edit] ..." ruling was
    dropped with an ignored note. Only what reads as a heading (`[edit] Rulings`, above) is one."""
    page = ("Search\n\nA face-down creature has no abilities, so it can't be turned face up by its own triggered "
            "abilities.\n\n[Edit] A face-down creature is a 2/2 creature with no name, no mana cost and no creature "
            "types.\n\nIt stays face down. [edit]\n")
    records, problems = search(page)
    assert [line for line, _, _ in records] == [3, 5, 7]
    assert records[1][1].endswith("a 2/2 creature with no name, no mana cost and no creature types.")
    assert not any("section heading" in reason for _, _, reason in problems)


def test_a_lists_items_are_a_unit_each_though_no_blank_line_parts_them():
    """ingest47 p02 (a wiki's rulings without their heading): four bulleted rulings with no blank line between
    them were one unit; a paragraph whose every line is a list item is one unit an item. A paragraph with a
    line that is no item (an item wrapped onto the next line) stays one."""
    page = ("Search\n\nHideaway is a triggered keyword ability.\n\n"
            "  • If the land with hideaway leaves the battlefield, no one can look at the exiled card anymore.\n"
            "  - The exiled card can be looked at by any player who previously controlled that land.\n\n"
            "  • If a face-down creature has no abilities,\n  it can't be turned face up.\n")
    records, _ = search(page)
    assert [(line, text) for line, text, _ in records] == [
        (3, "Hideaway is a triggered keyword ability."),
        (5, "If the land with hideaway leaves the battlefield, no one can look at the exiled card anymore."),
        (6, "The exiled card can be looked at by any player who previously controlled that land."),
        (8, "If a face-down creature has no abilities, it can't be turned face up.")]


def test_a_forum_posts_date_and_byline_are_page_text_not_rulings():
    """tryout30 D9: a forum thread read as a search page stored "Sept. 17, 2014 08:39:08 AM", "Europe - North"
    and "Originally posted by …:" as rulings, not even marked remarks (a date's digits read as a game sign).
    A few words that end no sentence and name no game word are noted as the page's own; a ruling, a short one
    included, a heading that names the game and a line cut off after a sentence stay units."""
    page = ("Search\n\nMorph Rules - Face-down Questions\n\nMar. 3, 2015 10:12:45 PM\n\nAnna Schmidt\n"
            "Judge (Level 2 (International Judge Program))\n\nBenelux\n\nOriginally posted by Anna Schmidt:\n\n"
            "It can't be countered.\n\nThanks. See you\n\n14/03/2015 09:30\n\n"
            "Edited Jan Visser (Mar. 4, 2015 08:00:00 AM)\n")
    records, problems = search(page)
    assert [text for _, text, _ in records] == ["Morph Rules - Face-down Questions", "It can't be countered.",
                                                "Thanks. See you"]
    chrome = [line for line, ignored, reason in problems if ignored and reason.startswith("page text, not a ruling")]
    assert chrome == [5, 7, 10, 12, 18, 20]


def test_a_gap_before_a_comma_after_an_address_is_no_lost_mana_symbol():
    """tryout29 D9: "… e-mail questions to judge@example.org , or by tweeting …" got "a mana symbol lost in the
    copy?": the gap ends an address. Elsewhere the note stays, whatever words the sentence has: "you may pay .",
    and "face up for  , its morph cost", where the cost words come after the gap (review40 #5)."""
    page = ("Search\n\nWrite to us: send questions to judge@example.org , or post them in the forum thread.\n\n"
            "To turn it face up, you may pay . It becomes a 3/3 creature.\n\n"
            "Read https://magic.wizards.com/en/news/feature/kaldheim-release-notes , posted in January.\n\n"
            "You can turn Exalted Angel face up for  , its morph cost, any time you have priority.\n\n"
            "Turning Hidden Strings face up for  . doesn't use the stack.\n")
    records, problems = search(page)
    assert len(records) == 5
    assert [line for line, _, reason in problems if "mana symbol lost" in reason] == [5, 9, 11]


def test_a_short_answer_with_no_final_stop_is_no_chrome():
    """review40 #7: a forum thread's answer with no final stop ("Only you can look at it") was dropped as
    chrome while the question above it was kept; a clause's subject and verb is no byline or heading."""
    page = ("Search\n\nCan my opponent look at my face-down Exalted Angel during combat?\n\n"
            "Only you can look at it\n\nThe answer is no: it has no name\n\nEurope - North\n")
    records, problems = search(page)
    assert [text for _, text, _ in records] == ["Can my opponent look at my face-down Exalted Angel during combat?",
                                                "Only you can look at it", "The answer is no: it has no name"]
    assert [line for line, ignored, reason in problems if reason.startswith("page text, not a ruling")] == [9]

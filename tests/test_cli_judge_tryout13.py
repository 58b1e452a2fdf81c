"""What a judge trying the CLI with pages pasted and saved from card sites noticed (tryout13): each test
pins one defect found that way."""

from __future__ import annotations

import pytest

from kb.corpus import Corpus
from kb.ingest import parse_text

CORPUS = Corpus.default()

TAPPED = "Turning a permanent face up or face down doesn't change whether that permanent is tapped or untapped."
NO_NAME = ("Because face-down creatures don't have a name, they can't have the same name as any other creature, "
           "even another face-down creature.")
ONE_CARD = ("If your library contains only one card when you manifest dread, you'll look at that card and put it "
            "onto the battlefield face down.")


def _read(text: str, source: str = "page.txt") -> list[tuple[int | None, str | None, str]]:
    result = parse_text(text, source, names=CORPUS.names, match_clause=None)
    assert not [p for p in result.problems if not p.ignored and "ruling" in p.reason], result.problems
    return [(r.line, r.date, r.text) for r in result.records]


def test_a_date_under_its_ruling_after_a_blank_line_dates_that_ruling_not_the_next():
    # a card site's rulings saved or copied as paragraphs: the ruling, a blank line, then `(date)`.
    # The first ruling was skipped as "text before the first date line", every other one took the date
    # of the ruling above it, and the last date had "no ruling after it"
    text = (f"Hauntwoods Shrieker\n\n{TAPPED}\n\n(2024-09-20)\n\n{NO_NAME}\n\n(2025-02-07)\n\n"
            f"{ONE_CARD}\n\n(2025-06-01)\n")
    assert _read(text) == [(3, "2024-09-20", TAPPED), (7, "2025-02-07", NO_NAME), (11, "2025-06-01", ONE_CARD)]


@pytest.mark.parametrize("bullet", ["•", "+", "  +"])  # a Markdown `+` alone too (review48 L3)
def test_rulings_listed_with_bullets_above_their_dates_lose_the_bullet_and_a_lone_bullet_is_no_date(bullet):
    # `* The ruling.` then `(date)` kept "* " in the ruling's text (so it never matched its other
    # wordings); a bullet alone on its line was read as a date line: "unknown date format ''"
    text = f"Hauntwoods Shrieker\n\n* {TAPPED}\n(2024-09-20)\n\n{bullet}\n{NO_NAME}\n(2025-02-07)\n"
    assert _read(text) == [(3, "2024-09-20", TAPPED), (7, "2025-02-07", NO_NAME)]


SCRYFALL_HTML = f"""<!DOCTYPE html>
<html lang="en">
<head><title>Hauntwoods Shrieker · Duskmourn: House of Horror (DSK) #182 · Scryfall</title></head>
<body>
  <h1>Hauntwoods Shrieker</h1>
  <div class="card-rulings">
    <h2>Notes and Rules Information for Hauntwoods Shrieker:</h2>
    <ul>
      <li>
        <p>{TAPPED.replace("'", "&#39;")}</p>
        <p class="ruling-date">(2024-09-20)</p>
      </li>
      <li>
        <p>{NO_NAME.replace("'", "&#39;")}</p>
        <p class="ruling-date">(2025-02-07)</p>
      </li>
    </ul>
  </div>
</body>
</html>
"""


def test_a_saved_card_page_whose_list_items_hold_paragraphs_gives_each_ruling_its_date_and_html_line():
    # `<li><p>ruling</p><p>(date)</p></li>`: every ruling was lost ("unknown date format ''" on the
    # bullet's own line, "date line with no ruling after it")
    assert _read(SCRYFALL_HTML, "shrieker.html") == [(10, "2024-09-20", TAPPED), (14, "2025-02-07", NO_NAME)]


RELEASE_NOTES_HTML = f"""<!DOCTYPE html>
<html><head><title>Duskmourn: House of Horror Release Notes</title></head>
<body>
<p>Document last modified September 20, 2024</p>
<h2>Hauntwoods Shrieker</h2>
<p>{{1}}{{G}}{{G}}<br>Creature — Beast Mutant</p>
<ul>
  <li><p>{TAPPED.replace("'", "&#39;")}</p></li>
  <li><p>{NO_NAME.replace("'", "&#39;")}</p></li>
</ul>
</body></html>
"""


def test_release_notes_saved_as_html_whose_bullets_hold_paragraphs_give_a_ruling_per_bullet():
    # `<li><p>...</p></li>` became a bullet alone on its line and the text under it, no bullet at all:
    # "release notes with no bulleted rulings"
    records = parse_text(RELEASE_NOTES_HTML, "dsk.html", names=CORPUS.names, match_clause=None).records
    assert [(r.line, r.date, r.text, r.card) for r in records] == [
        (8, "2024-09-20", TAPPED, "Hauntwoods Shrieker"), (9, "2024-09-20", NO_NAME, "Hauntwoods Shrieker")]


def test_the_second_cards_section_heading_on_a_page_of_two_cards_is_page_structure_as_the_firsts_is():
    # `Bubble Smuggler / Rulings / ...` then `Defenestrated Phantom / Rulings / ...`: the first "Rulings" passed
    # silently, the second was "text after a ruling and under no date skipped" (exit 1 for a clean page)
    text = (f"Bubble Smuggler\nRulings\n\n2024-02-02: {TAPPED}\n\nDefenestrated Phantom\nRulings\n\n"
            f"2024-02-02: {NO_NAME}\n")
    result = parse_text(text, "two-cards.txt", names=CORPUS.names, match_clause=None)
    assert [(r.line, r.card) for r in result.records] == [(4, "Bubble Smuggler"), (9, "Defenestrated Phantom")]
    assert not [p for p in result.problems if not p.ignored]


def test_files_of_other_kinds_in_an_ingested_folder_are_named_not_passed_over_in_silence(tmp_path):
    # a judge's downloads folder: the page was read, a PDF and a .docx were left out without a word
    from kb.ingest import ingest

    (tmp_path / "shrieker.txt").write_text(f"Hauntwoods Shrieker\n\n2024-09-20: {TAPPED}\n")
    (tmp_path / "scan.pdf").write_bytes(b"%PDF-1.4\n\x00\x01")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "notes.docx").write_bytes(b"PK\x03\x04")
    (tmp_path / ".DS_Store").write_bytes(b"\x00")  # hidden: passed over, as before
    result = ingest([tmp_path], names=CORPUS.names, match_clause=None)
    assert len(result.records) == 1
    (note,) = result.problems
    assert note.ignored and note.source.endswith(tmp_path.name)
    assert "2 files in the folder not read" in note.reason and "scan.pdf, sub/notes.docx" in note.reason


def test_a_list_items_bullet_goes_with_its_first_line_of_text_and_an_empty_item_gives_none():
    from kb.ingest.html import to_text

    text, _ = to_text("<html><body><ul><li></li><li><p>A</p></li><li>B<p>C</p></li></ul><p>Heading</p></body></html>")
    assert text.split("\n") == ["* A", "", "* B", "C", "", "Heading", "", ""]

"""A card page's own text around its rulings (tryout24): a card site's header and footer, a subtitle
under the title, a saved page's links. It is a note and not a skipped unit, and a ruling that lost
its date among it is still a skipped unit quoting the ruling."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cli.main import app
from kb.corpus import Corpus
from kb.ingest import decode, pages, parse_text
from tests.conftest import DATA

NAMES = Corpus.default().names
NO_NAME = "A face-down creature is a 2/2 creature with no name."
RULING = "If Lightform leaves the battlefield, the face-down creature stays."


def page(name: str) -> str:
    return decode((DATA / "pages" / name).read_bytes())


def parse(text: str, source: str = "page.txt"):
    return parse_text(text, source, names=NAMES, match_clause=None)


def skipped(result) -> list[tuple[int | None, str]]:
    return [(p.line, p.reason) for p in result.problems if not p.ignored]


def test_a_saved_gatherer_page_reads_its_six_rulings_and_its_nav_and_footer_are_notes():
    """tryout24 D7: the nav, "Other printings" and the copyright footer were three skipped units (exit
    1), and the list item "Khans of Tarkir" was read as a date line ("unknown date format")."""
    result = parse(page("gatherer_icefeather_aven.html"), "icefeather.html")
    assert [(r.line, r.date, r.card) for r in result.records] == [
        (line, "2014-09-20", "Icefeather Aven") for line in range(32, 38)]
    assert skipped(result) == []
    notes = [(p.line, p.reason) for p in result.problems]
    assert [line for line, _ in notes] == [12, 41]
    assert notes[0][1].startswith("page text before the first ruling date")
    assert "Other printings * Khans of Tarkir Wizards of the Coast" in notes[1][1]
    assert not any("date format" in reason for _, reason in notes)


def test_a_saved_gatherer_pages_one_bad_date_is_its_one_skipped_unit():
    bad = page("gatherer_icefeather_aven.html").replace("<td>9/20/2014</td><td>Because", "<td>9/31/2014</td><td>Because")
    result = parse(bad, "icefeather.html")
    assert [line for line, _ in skipped(result)] == [35]
    assert "impossible date '9/31/2014'" in skipped(result)[0][1]


@pytest.mark.parametrize("line, date", [
    ("* Khans of Tarkir", None),  # a list item of words: no date has no digit
    ("• Other printings", None),
    ("* 31/02/2018", "31/02/2018"),  # a bullet with a date we may not read: parse_date says why
    ("• WotCSomeday", "Someday"),
    ("• WotC", ""),  # the bullet and its author, the date on the next line
])
def test_a_bulleted_line_is_a_date_line_only_when_it_is_written_like_a_date(line, date):
    assert pages._date_part(line) == date


@pytest.mark.parametrize("name, subtitle", [
    ("subtitle_es_utf16.txt", "Resoluciones en español (megametamorfosis)"),
    ("subtitle_es.txt", "Resoluciones (copiadas de la página de la carta, traducidas…"),
])
def test_a_subtitle_under_the_title_is_a_note_not_a_skipped_unit(name, subtitle):
    result = parse(page(name), name)
    assert result.records and skipped(result) == []
    assert [(p.line, p.reason.rsplit(": ", 1)[1], p.ignored) for p in result.problems if p.line == 2] == [
        (2, subtitle, True)]


LIGHTFORM = "Lightform\nUnsere Notizen vom Prerelease, Stand Juli 2018\n\n{before}Jul 13, 2018: {ruling}\n\n{after}"


@pytest.mark.parametrize("before, after, lost", [
    # a ruling that lost its date, above the first date or after the last ruling: a skipped unit at its line
    (NO_NAME + "\n\n", "", (4, "text before the first date line "
                                                                        "skipped: " + NO_NAME)),
    ("", "Lightform can be turned face up for its mana cost.\n", (6, "text after a ruling and under no date "
                                                                   "skipped: Lightform can be turned face up for its "
                                                                   "mana cost.")),
    ("", "Turning it face up\ndoesn't use the stack.\n", (6, "text after a ruling and under no date skipped: "
                                                           "Turning it face up doesn't use the stack.")),
    # the page's own text: a note
    ("", "Stand: Februar 2024, Fragen an Maxi.\n", None),
    ("Rulings\n\n", "Privacy Policy · Terms of Use\n© 1995-2024 Wizards of the Coast LLC.\n", None),
])
def test_text_outside_the_rulings_is_a_skipped_unit_only_when_it_may_be_a_lost_ruling(before, after, lost):
    result = pages.parse_card_page(LIGHTFORM.format(before=before, ruling=RULING, after=after), "l.txt",
                                   NAMES.resolve, NAMES.oracle_text)
    assert [r.text for r in result.records] == [RULING]
    assert skipped(result) == ([lost] if lost else [])
    assert any(p.ignored and p.line == 2 for p in result.problems)  # the subtitle
    if after and not lost:
        footer = LIGHTFORM.format(before=before, ruling=RULING, after="").count("\n") + 1
        assert [p.ignored for p in result.problems if p.line == footer] == [True]


def test_ingesting_a_clean_saved_gatherer_page_exits_0(tmp_path, monkeypatch, small_corpus, kb_home):
    """tryout24 D7: a judge who scripts `kb ingest` read exit 1 (a ruling was lost) for a clean page."""
    monkeypatch.setenv("KB_EMBEDDER", "fake")
    monkeypatch.setenv("KB_CORPUS", str(small_corpus))
    saved = tmp_path / "icefeather-aven.html"
    saved.write_bytes((DATA / "pages" / "gatherer_icefeather_aven.html").read_bytes())
    ingested = CliRunner().invoke(app, ["ingest", str(saved)], env={"COLUMNS": "300"})
    assert ingested.exit_code == 0, ingested.output

"""A card page's own text around its rulings (tryout24): a card site's header and footer, a subtitle
under the title, a saved page's links. It never turns the page's dates round, it is a note and not a
skipped unit, and a ruling that lost its date among it is still a skipped unit quoting the ruling."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cli.main import app
from kb.corpus import Corpus
from kb.ingest import decode, pages, parse_text
from tests.conftest import DATA

NAMES = Corpus.default().names
SCRYFALL = (DATA / "pages" / "scryfall_den_protector.txt").read_text(encoding="utf-8")
NO_NAME = "A face-down creature is a 2/2 creature with no name."
RULING = "If Lightform leaves the battlefield, the face-down creature stays."
RULING_LINES = [15, 18, 21, 24]  # the lines of Den Protector's four rulings; each date is on the line under


def page(name: str) -> str:
    return decode((DATA / "pages" / name).read_bytes())


def parse(text: str, source: str = "page.txt"):
    return parse_text(text, source, names=NAMES, match_clause=None)


def skipped(result) -> list[tuple[int | None, str]]:
    return [(p.line, p.reason) for p in result.problems if not p.ignored]


def test_a_scryfall_copy_ending_in_its_footer_gives_each_ruling_the_date_under_it():
    """tryout24 D1: the footer's sentence ("Scryfall is not produced by or endorsed by Wizards of the
    Coast.") turned every date into the date of the paragraph below it: the first ruling was lost and
    the footer stored as a ruling."""
    result = parse(SCRYFALL, "den-protector.txt")
    assert [(r.line, r.date, r.card) for r in result.records] == [
        (line, "2015-02-25", "Den Protector") for line in RULING_LINES]
    assert result.records[0].text.startswith("You compare Den Protector's power")
    assert not any("Scryfall" in r.text or "View all rulings" in r.text for r in result.records)
    assert skipped(result) == []
    footer = [p for p in result.problems if p.line == 27]
    assert len(footer) == 1 and footer[0].ignored
    assert footer[0].reason.startswith("text after a ruling and under no date, not read as rulings")
    assert "View all rulings for Den Protector" in footer[0].reason


@pytest.mark.parametrize("layout", [
    pytest.param(lambda text: text, id="date-right-under-its-ruling"),
    # a saved page's paragraphs: a blank line between each ruling and its date
    pytest.param(lambda text: text.replace(".\n(20", ".\n\n(20"), id="blank-line-above-each-date"),
])
def test_a_scryfall_copy_with_mixed_dates_gives_each_ruling_its_own_date(layout):
    dates = ["2015-02-25", "2016-01-22", "2017-04-18", "2018-07-13"]
    text = SCRYFALL.split("\n")
    for line, date in zip(RULING_LINES, dates):
        assert text[line] == "(2015-02-25)"  # the line under the ruling (`line` counts from 1, the list from 0)
        text[line] = f"({date})"
    result = parse(layout("\n".join(text)))
    assert [(r.text[:20], r.date) for r in result.records] == [
        ("You compare Den Prot", dates[0]), ("Turning a face-down ", dates[1]),
        ("If a face-down creat", dates[2]), ("Megamorph is a varia", dates[3])]
    assert skipped(result) == []


def test_a_footer_about_cards_under_a_scryfall_layout_is_still_no_ruling_and_is_reported():
    """Dates each on the line right under their ruling with a blank line under them: the page prints
    its dates under its rulings, whatever its footer says; a footer sentence about cards is reported
    (it could be a ruling that lost its date), never stored as a ruling."""
    text = SCRYFALL.replace("Scryfall is not produced by or endorsed by Wizards of the Coast.",
                            "Card data and card images are provided by Scryfall.")
    result = parse(text)
    assert [(r.line, r.date) for r in result.records] == [(line, "2015-02-25") for line in RULING_LINES]
    assert skipped(result) == [(28, "text after a ruling and under no date skipped: "
                                    "Card data and card images are provided by Scryfall.")]


def test_a_first_ruling_read_as_page_text_is_reported_quoting_its_own_words():
    """When the page can't tell (a blank line between each ruling and its date, and a footer sentence
    about cards after the last one), dates head the rulings below them; the first ruling is then lost,
    but said, quoting its own words and line, not the card's text above it."""
    text = SCRYFALL.replace(".\n(20", ".\n\n(20").replace(
        "Scryfall is not produced by or endorsed by Wizards of the Coast.",
        "Card data and card images are provided by Scryfall.")
    result = parse(text)
    assert (15, "text before the first date line skipped: You compare Den Protector's power to the power of "
                "any creat…") in skipped(result)


MEANT = "That is how it was meant, and it was so before as well."
FOREST = "Example: you manifest a Forest with it and later turn the Forest face up"
AGREED = "Judges agreed on this at GP Las Vegas (see mtgjudge.com for the thread)."
SCRYFALL_NOTICE = "Scryfall is not produced by or endorsed by Wizards of the Coast."


@pytest.mark.parametrize("after, ruling, notes", [
    # under a date line of its own, a ruling may go on past a blank line ("Example: ..."); the site's
    # notice after the last one is no more of it
    (f"{SCRYFALL_NOTICE}\n", RULING, [6]),
    ("© 1995-2024 Wizards of the Coast LLC. Alle Rechte vorbehalten.\n", RULING, [6]),
    ("Zuletzt aktualisiert: 3. März 2024. Fragen an maxi@example.de.\n", RULING, [6]),
    ("Example: You manifest a Forest. It stays face down.\n",
     f"{RULING} Example: You manifest a Forest. It stays face down.", []),
    # review38 #3: a last paragraph with no game word that is no footer is more of the ruling, as it is
    # under an earlier ruling (it was cut off as "the page's footer", a mere note)
    (f"{MEANT}\n", f"{RULING} {MEANT}", []),
    ("This was not so before; it is now.\n", f"{RULING} This was not so before; it is now.", []),
    (f"{MEANT}\n\n{SCRYFALL_NOTICE}\n", f"{RULING} {MEANT}", [8]),
    # review39 #7: a judge's note often has no final stop, or names a site: still more of the ruling
    (f"{FOREST}\n", f"{RULING} {FOREST}", []),
    (f"{AGREED}\n", f"{RULING} {AGREED}", []),
    # ... and the site's footer under it is still no more of it
    (f"{FOREST}\n\n{SCRYFALL_NOTICE}\n", f"{RULING} {FOREST}", [8]),
    (f"{FOREST}\n\nOther printings\nKhans of Tarkir\n", f"{RULING} {FOREST}", [8]),
    # a footer with no final stop, game words in it: a line of links, a list of them, a link
    ("Cards · Decks · Sets · Articles\n", RULING, [6]),
    ("Home\nCards\nDecks\n", RULING, [6]),
    ("Back to top\n", RULING, [6]),
    ("https://scryfall.com/card/dom/1/lightform\n", RULING, [6]),
    ("Card data: scryfall.com\n", RULING, [6]),
    ("Data provided by Scryfall.\n", RULING, [6]),
    ("Search Cards | Advanced Search | Sets | Deck Builder | Random Card | Rules | Articles\n", RULING, [6]),
    ("Magic: The Gathering is a trademark of Wizards of the Coast LLC.\n", RULING, [6]),
])
def test_a_sites_notice_after_the_last_ruling_is_not_made_part_of_it(after, ruling, notes):
    text = f"Lightform\n\nJul 13, 2018\n{RULING}\n\n{after}"
    result = pages.parse_card_page(text, "lightform.txt", NAMES.resolve, NAMES.oracle_text)
    assert [r.text for r in result.records] == [ruling]
    assert skipped(result) == []
    assert [(p.line, p.ignored) for p in result.problems] == [(line, True) for line in notes]


@pytest.mark.parametrize("second", [MEANT, FOREST, AGREED, "Example: turn it face up"])
def test_a_last_rulings_second_paragraph_is_read_as_an_earlier_rulings_is(second):
    """review38 #3, review39 #7: the same two paragraphs under the first and under the last date give the
    same ruling, whether or not the second ends with a stop or names a site."""
    two = f"{RULING}\n\n{second}"
    text = f"Lightform\n\nJul 13, 2018\n{two}\n\nJul 13, 2018\n{two}\n"
    result = pages.parse_card_page(text, "lightform.txt", NAMES.resolve, NAMES.oracle_text)
    assert [r.text for r in result.records] == [f"{RULING} {second}"] * 2
    assert result.problems == ()


@pytest.mark.parametrize("after, reason", [
    (f"{SCRYFALL_NOTICE}\n", "a site's notice"),
    ("© 1995-2024 Wizards of the Coast LLC.\n", "a site's notice"),
    ("Terms of Use\nPrivacy Policy\n", "a site's links"),
    ("https://scryfall.com/card/dom/1/lightform\n", "a site's links"),
    ("Other printings\nKhans of Tarkir\n", "no sentence end"),
    (f"{SCRYFALL_NOTICE}\n\nOther printings\n", "a site's notice, no sentence end"),
])
def test_the_note_on_a_footer_says_what_makes_it_one(after, reason):
    """review39 #7: the note said "a footer, links, a notice: no sentence about the game" of whatever it
    cut, a judge's note about manifest too; it now says what it found."""
    text = f"Lightform\n\nJul 13, 2018\n{RULING}\n\n{after}"
    result = pages.parse_card_page(text, "lightform.txt", NAMES.resolve, NAMES.oracle_text)
    assert [r.text for r in result.records] == [RULING]
    (note,) = result.problems
    assert note.ignored and note.reason.startswith(f"text after a ruling and under no date, not read as rulings "
                                                   f"({reason}): ")


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


DRAGONSLAYER_TWO = ("Hidden Dragonslayer\n\nLifelink. Megamorph {2}{W}.\n2015-02-25\n\n"
                    "It gets a +1/+1 counter when turned face up for its megamorph cost.\n2015-02-25\n\n"
                    "If it is turned face up, its ability triggers.\n")
DRAGONSLAYER_ONE = ("Hidden Dragonslayer\nCreature — Human Warrior 3/2\nWhen Hidden Dragonslayer is turned face up, "
                    "destroy target creature with power 4 or greater an opponent controls.\n2015-02-25\n\n"
                    "If Hidden Dragonslayer is turned face up by its megamorph cost, it gets a +1/+1 counter before "
                    "its ability triggers.\n")


@pytest.mark.parametrize("text, lines", [(DRAGONSLAYER_TWO, [6, 9]), (DRAGONSLAYER_ONE, [6])])
def test_the_cards_printed_text_right_above_a_date_does_not_turn_the_dates_round(text, lines):
    """review38: each date right under a line with a blank below looks like Scryfall's layout, but
    the line above the first date is the card's printed text, and a ruling follows the last date: the
    dates head their rulings. The printed text is a note, never a ruling, and no two rulings are joined."""
    result = parse(text, "dragonslayer.txt")
    assert [(r.line, r.date) for r in result.records] == [(n, "2015-02-25") for n in lines]
    assert not any("Megamorph {2}{W}." in r.text or "destroy target creature" in r.text for r in result.records)
    assert not skipped(result)

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


# --- D3: a German rules column is no ruling of its byline's date ---

def test_a_rules_column_dated_under_its_authors_name_is_refused_with_the_search_page_hint():
    """tryout29 D3: "von Callum Milne" / "15.09.2014" over the article: the whole article (story, mail
    address, questions and answers) became one ruling of 2014-09-15; the English column, with no date,
    is refused with the search-page hint."""
    result = read29("cranial-insertion-morphologie.planetmtg.de.txt")
    assert result.records == ()
    [problem] = [p for p in result.problems if not p.ignored]
    assert problem.reason.startswith("no ruling on this page has a date (line 5's '15.09.2014', by its author's "
                                     "name, dates the article, not a ruling)")
    assert "--format search-page" in problem.reason


@pytest.mark.parametrize("byline", ["By Callum Milne", "von Callum Milne", "Autor: Callum Milne"])
def test_a_date_by_an_authors_name_dates_no_ruling_but_the_rulings_dates_are_read(byline):
    page = (f"Morph Rulings\n{byline}\n15.09.2014\n\n20.09.2014\nA face-down creature is a 2/2 creature.\n")
    result = parse(page)
    assert [(r.line, r.date) for r in result.records] == [(6, "2014-09-20")]
    assert not [p for p in result.problems if not p.ignored]


def test_a_sites_address_as_the_first_line_is_no_cards_name():
    """tryout29 D3: the column's rulings were filed under the card 'miraclegames.de'."""
    result = parse("miraclegames.de\n\n15.09.2014\nA face-down creature has no name, so it shares none.\n")
    assert [(r.line, r.card) for r in result.records] == [(4, None)]
    assert "its first line 'miraclegames.de' is a site's address" in result.problems[0].reason


# --- D4: Gatherer's empty "Card Name:" label is no card's name ---

def test_a_gatherer_page_copied_without_its_cards_name_files_its_rulings_under_the_card_they_name():
    """tryout29 D4: the page starts "Card Name:" / "Mana Cost:" (the name lost in the copy): its five
    Ixidron rulings were filed under the card "Card Name". They name Ixidron (4 of 5) and the page prints
    Ixidron's Oracle text above them."""
    result = read29("ixidron.gatherer.txt")
    assert [r.card for r in result.records] == ["Ixidron"] * 5
    [note] = [p for p in result.problems if p.line == 1]
    assert note.ignored and note.reason == (
        "page has no title line naming its card (its first line 'Card Name:' is a label with no value): its "
        "rulings name 'Ixidron' (4 of 5), whose Oracle text the page prints above them: they are filed under "
        "'Ixidron'")


def test_rulings_under_an_empty_label_with_no_card_text_keep_no_card_and_the_note_names_their_card():
    page = ("Card Name:\nMana Cost:\n\n9/25/2006 If Ixidron and another creature are entering the battlefield at "
            "the same time, the other creature enters face up.\n9/25/2006 Turning a face-down creature face down "
            "has no effect on Ixidron.\n")
    result = parse(page)
    assert [r.card for r in result.records] == [None, None]
    assert result.problems[0].reason.endswith("they name 'Ixidron' (2 of 2): if they are its rulings, put its "
                                              "name on the page's first line")


def test_a_title_ending_in_a_colon_over_rulings_is_still_a_new_cards_name():
    result = parse("Brand New Card:\n\n9/25/2026 It can't be countered by anything.\n")
    assert [r.card for r in result.records] == ["Brand New Card"]


# --- D5: markup tags around a known card's reminder text ---

@pytest.mark.parametrize("printed", [
    "As Ixidron enters the battlefield, turn all other nontoken creatures face down. <i>(They're 2/2 creatures.)</i>",
    "As Ixidron enters the battlefield, turn all other nontoken creatures face down. <I>(They're 2/2 creatures.)</I>",
    '<b class="x">As Ixidron enters the battlefield, turn all other nontoken creatures face down.</b> '
    "(They're 2/2 creatures.)",
])
def test_a_known_cards_oracle_line_with_markup_tags_is_its_printed_text_not_a_lost_ruling(printed):
    """tryout29 D5: Gatherer's Oracle line with `<i>…</i>` around its reminder text was a skipped unit (exit 1)."""
    result = parse(f"Ixidron\n{printed}\n\n9/25/2006 Turning a face-down creature face down has no effect.\n")
    assert [r.card for r in result.records] == ["Ixidron"]
    assert [p.line for p in result.problems if not p.ignored] == []
    assert [p.line for p in result.problems if p.ignored and "the card's own text" in p.reason] == [2]


def test_the_gatherer_page_copied_without_its_cards_name_skips_nothing():
    """tryout29 D4 and D5 together: the page's Oracle lines are Ixidron's printed text, its rulings Ixidron's."""
    result = read29("ixidron.gatherer.txt")
    assert [p.reason for p in result.problems if not p.ignored] == []


# --- D8: rulings in an engine's code comments and in `- Ruling (date): text` lines ---

def test_an_engines_card_file_gives_its_commented_rulings_under_the_card_its_name_field_names():
    """tryout29 D8: `//   [2021-02-05] text` lines wrapped over comment lines were not read ("no line of
    this page gives a ruling's date"); without the marks, the first line `import { defineCard } from
    "../define.js";` became the card. The file names its card in `name: "Saw It Coming",`."""
    result = read29("saw-it-coming.engine.js")
    assert [(r.line, r.card, r.date) for r in result.records] == [
        (6, "Saw It Coming", "2021-02-05"), (10, "Saw It Coming", "2021-02-05"), (14, "Saw It Coming", "2021-02-05")]
    assert result.records[0].text.startswith("Because exiling a card with foretell from your hand is a special action")
    assert result.records[0].text.endswith("no other player can respond by trying to remove the card from your hand.")
    assert not any("//" in r.text for r in result.records)
    # the code under the rulings is the file's own text, a note; nothing is skipped
    assert not [p for p in result.problems if not p.ignored]
    assert any("name field on line 20" in p.reason and "a line of code" in p.reason for p in result.problems)
    assert any(p.line == 19 and "(lines of code)" in p.reason for p in result.problems)


def test_a_deck_notes_ruling_lines_read_as_the_same_rulings_with_their_dates_first():
    """tryout29 D8: `- Ruling (2024-09-20): text` lines were not read; the same note with `(2024-09-20) text`
    gave 16 rulings under 6 cards."""
    labelled = read29("etrata-heist-research.excerpt.md")
    dates_first = read29("etrata-heist-research.dates-first.md")
    assert len(labelled.records) == 16
    assert ([(r.line, r.card, r.date, r.text) for r in labelled.records]
            == [(r.line, r.card, r.date, r.text) for r in dates_first.records])


@pytest.mark.parametrize("line", ["- Ruling (2024-09-20): ", "Ruling (2024-09-20) ", "* Ruling [2024-09-20] ",
                                  "- Regelung (20.09.2024): ", "- Aclaración (20/09/2024): ",
                                  # review41 #9: the ruling's source beside its date
                                  "- Ruling (see Bloomburrow release notes, 2024-09-20): ",
                                  "- Ruling [Wizards of the Coast • 2024-09-20] ", "(wotc, 2024-09-20) "])
def test_a_ruling_label_before_its_bracketed_date_reads_as_the_date_heading_the_ruling(line):
    result = parse(f"Hauntwoods Shrieker\n\n{line}A face-down creature has no name, so it shares none.\n")
    assert [(r.line, r.card, r.date, r.text) for r in result.records] == [
        (3, "Hauntwoods Shrieker", "2024-09-20", "A face-down creature has no name, so it shares none.")]


@pytest.mark.parametrize("mark", ["//", "///", "#"])
def test_rulings_in_line_comments_are_read_without_their_marks(mark):
    page = (f"Hauntwoods Shrieker\n{mark} Rulings:\n{mark}   [2024-09-20] A face-down creature has no name,\n"
            f"{mark}     so it shares none.\n{mark} (2024-09-21) Turning it face up doesn't untap it.\n")
    result = parse(page)
    assert [(r.line, r.date, r.text) for r in result.records] == [
        (3, "2024-09-20", "A face-down creature has no name, so it shares none."),
        (5, "2024-09-21", "Turning it face up doesn't untap it.")]


def test_comment_marks_of_lines_giving_no_date_stay():
    """A run of `#` lines with no date in it is no comment of rulings (a Markdown heading): left as written."""
    result = parse("Hauntwoods Shrieker\n\n(2024-09-20) A face-down creature has no name, so it shares none.\n\n"
                   "# Deck list\n# more of it\n")
    assert [(r.line, r.card) for r in result.records] == [(3, "Hauntwoods Shrieker")]
    assert [p.reason.rsplit(": ", 1)[1] for p in result.problems] == ["# Deck list # more of it"]


@pytest.mark.parametrize("first", ['import { defineCard } from "../define.js";', "export default defineCard({",
                                   "const card = {", "});", 'package = "cards";',
                                   "from engine.cards import define_card", "def on_cast(game):", "let x = 5",
                                   "cards.filter(c => c.isFaceDown())", "using System.Linq;"])
def test_a_line_of_code_is_no_cards_name(first):
    result = parse(f"{first}\n\n(2024-09-20) A face-down creature has no name, so it shares none.\n")
    assert [(r.line, r.card) for r in result.records] == [(3, None)]
    assert "is a line of code" in result.problems[0].reason


@pytest.mark.parametrize("field, card", [('  name: "Lightform",', "Lightform"), ('"name": "Forma de ira",', "Rageform"),
                                         ("card_name = 'Hidden Dragonslayer'", "Hidden Dragonslayer")])
def test_a_card_file_in_code_names_a_known_card_in_its_name_field(field, card):
    page = (f"import {{ defineCard }} from \"../define.js\";\n// (2024-09-20) A face-down creature has no name, so it "
            f"shares none.\n\nexport default defineCard({{\n{field}\n}});\n")
    result = parse(page)
    assert [(r.line, r.card) for r in result.records] == [(2, card)]
    assert not [p for p in result.problems if not p.ignored]


@pytest.mark.parametrize("title", ['Kongming, "Sleeping Dragon"', "Hauntwoods Shrieker {1}{G}{G}"])
def test_a_cards_name_with_quotes_or_its_cost_is_no_line_of_code(title):
    result = parse(f"{title}\n\n(2024-09-20) A face-down creature has no name, so it shares none.\n")
    assert result.records[0].card is not None
    assert not any("line of code" in p.reason for p in result.problems)


@pytest.mark.parametrize("line", ["Example: 2 creatures enter at once,", "return the creature (if any) to its owner's hand",
                                  "Return to Dust", "(such as Aminatou's second ability)",
                                  # review41 #8: a statement word or an arrow in prose, without code's own signs
                                  "using its morph ability (see rule 702.37), even if it was foretold.",
                                  "let it resolve (see rule 608.2) and then turn it face up.",
                                  "Clone => Copy?", "Cast Clone => it copies a creature (see rule 707.2)."])
def test_a_line_of_prose_is_no_line_of_code(line):
    """A ruling's line wrapped after a comma, or starting with a word code starts statements with, is prose."""
    assert not pages._is_code(line)


TOKEN_FIRST = ('import {{ defineCard, token }} from "../define.js";\n\n// Rulings\n'
               "//   [2018-01-01] If you cast Clone, it enters as a copy of any creature on the battlefield.\n"
               "//   [2018-01-01] Clone copies exactly what's printed on the original creature.\n\n"
               "const shapeshifter = token({{\n{token}\n  types: [\"creature\"],\n}});\n\n"
               "export default defineCard({{\n{card}\n  manaCost: \"{{3}}{{U}}\",\n}});\n")


@pytest.mark.parametrize("token, card", [
    ('  name: "Shapeshifter",', '  name: "Clone",'),  # both known cards: the one the rulings name
    ('  name: "Zzyzx Shapeshifter Token",', '  name: "Clone",'),
    ('  name: "Clone",', '  name: "Shapeshifter",'),  # the card's field first: still the one the rulings name
])
def test_a_card_file_in_code_files_its_rulings_under_the_name_field_its_rulings_name(token, card):
    """review41 #6: a file defining a token before its card filed the card's rulings under the token's
    first `name:` field ("Shapeshifter", an Antiquities card too); the note names the other field."""
    result = parse(TOKEN_FIRST.format(token=token, card=card))
    assert [(r.line, r.card) for r in result.records] == [(4, "Clone"), (5, "Clone")]
    note = next(p.reason for p in result.problems if "name field" in p.reason)
    assert "other name fields name" in note and "Shapeshifter" in note


def test_of_name_fields_the_rulings_name_alike_the_top_level_one_names_the_card():
    page = ('export default defineCard({\n  token: {\n    name: "Shapeshifter",\n  },\n  name: "Clone",\n});\n'
            "// (2018-01-01) A face-down creature has no name, so it copies none.\n")
    assert [r.card for r in parse(page).records] == ["Clone"]


def test_a_python_card_file_gives_its_commented_rulings_under_its_name_field():
    """review41 #7: `from engine.cards import define_card` was read as the page's title, the card of its rulings."""
    page = ("from engine.cards import define_card\n\n# Rulings\n"
            "# 2018-01-01 If you cast Clone, it enters as a copy of any creature on the battlefield.\n"
            "# 2018-01-01 Clone copies exactly what's printed on the original creature.\n\n"
            'CLONE = define_card(\n    name="Clone",\n    cost="{3}{U}",\n)\n')
    result = parse(page)
    assert [(r.line, r.card) for r in result.records] == [(4, "Clone"), (5, "Clone")]
    assert not [p for p in result.problems if not p.ignored]


def test_a_wrapped_sentence_starting_with_a_statement_word_after_the_rulings_is_still_warned_of():
    """review41 #8: an undated paragraph whose wrapped line starts "using … (" was taken for code, so the
    warning that text after a ruling was skipped became an ignored note."""
    result = parse("Saw It Coming\n2021-02-05: Foretelling a card is a special action.\n\n"
                   "You may turn a face-down creature face up at any time you have priority,\n"
                   "using its morph ability (see rule 702.37), even if it was foretold.\n")
    assert [p.line for p in result.problems if not p.ignored] == [4]

"""tryout24 defect 6: a Discord post quoting two rulings as `> Feb 25, 2015: …` gave nothing ("no
ruling on this page has a date") and the advice to use --format search-page, which stored the chat as
rulings and glued the two quoted rulings into one undated entry."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kb.corpus import Corpus
from kb.ingest import pages
from tests.conftest import DATA

POST = DATA / "pages" / "discord-megamorph-post.txt"  # bench/tryouts/tryout24/pages/, as the judge saved it
RESOLVE = Corpus.default().names.resolve
SPECIAL_ACTION = "Turning a face-down creature with megamorph face up and putting a +1/+1 counter on it is a special action."
NO_COUNTER = "If a face-down creature with megamorph is turned face up some other way"


def _read(text: str) -> pages.ParseResult:
    return pages.parse_card_page(text, "post.txt", RESOLVE)


def test_a_posts_quoted_rulings_are_read_with_their_dates_under_the_card_it_names():
    result = _read(POST.read_text(encoding="utf-8"))
    assert [(r.line, r.date, r.card) for r in result.records] == [
        (6, "2015-02-25", "Hidden Dragonslayer"), (7, "2015-02-25", "Hidden Dragonslayer")]
    assert result.records[0].original.startswith(SPECIAL_ACTION)  # without the quote mark and the date
    assert result.records[1].original.startswith(NO_COUNTER)
    # the chat around the quote (its header, the reactions and a reply) is reported at its lines, never a ruling
    assert [(p.line, p.ignored) for p in result.problems] == [(3, False), (9, False)]
    assert "JudgeMaxi" in result.problems[0].reason and "Kiki_L2" in result.problems[1].reason
    assert not [p for p in result.problems if "has a date" in p.reason or "search-page" in p.reason]


@pytest.mark.parametrize("quoted", [
    # nested quotes, as a reply quoting a quote gives them
    ">> Feb 25, 2015: {a}\n>> Feb 25, 2015: {b}\n",
    "> > Feb 25, 2015: {a}\n> > Feb 25, 2015: {b}\n",
    # an e-mail's quote: no space after the mark, a ruling wrapped with the mark on its next line too
    ">Feb 25, 2015: {a_start}\n>{a_end}\n>\n>Feb 25, 2015: {b}\n",
    # a date line of its own, quoted, then its ruling
    "> Feb 25, 2015\n> {a}\n>\n> Feb 25, 2015\n> {b}\n",
])
def test_quote_marks_before_a_ruling_and_its_continuation_lines_are_not_read(quoted):
    a = SPECIAL_ACTION
    b = NO_COUNTER + ", you won't put a +1/+1 counter on it."
    cut = a.index(" a +1/+1")
    text = "Hidden Dragonslayer\n\n" + quoted.format(a=a, b=b, a_start=a[:cut], a_end=a[cut + 1:])
    result = _read(text)
    assert [(r.date, r.card, r.text) for r in result.records] == [
        ("2015-02-25", "Hidden Dragonslayer", a), ("2015-02-25", "Hidden Dragonslayer", b)]
    assert result.problems == ()


def test_a_date_inside_a_line_is_named_not_called_undated_and_search_page_is_not_advised():
    text = ("Hidden Dragonslayer\n\nPosted by JudgeMaxi on Feb 25, 2015 in #rules-questions:\n"
            f"{SPECIAL_ACTION} It doesn't use the stack.\n")
    result = _read(text)
    assert result.records == ()
    assert [p.line for p in result.problems] == [3]
    reason = result.problems[0].reason
    assert "line 3 holds the date 'Feb 25, 2015'" in reason
    assert "no ruling on this page has a date" not in reason and "search-page" not in reason


def test_the_search_page_advice_for_a_page_without_dates_says_it_keeps_every_paragraph():
    text = "Hidden Dragonslayer\n\nposted by JudgeMaxi\n\nIt doesn't use the stack and can't be responded to.\n"
    reasons = [p.reason for p in _read(text).problems]
    assert len(reasons) == 1 and "no ruling on this page has a date" in reasons[0]
    assert "--format search-page reads one per paragraph (every paragraph, so cut what is no ruling first)" in reasons[0]


def test_a_search_page_forced_on_the_post_does_not_glue_its_dated_rulings_into_one_undated_ruling():
    result = pages.parse_search_page(POST.read_text(encoding="utf-8"), "post.txt")
    assert not [r for r in result.records if "2015" in r.text or "megamorph" in r.text]
    skipped = [p for p in result.problems if not p.ignored]
    assert [p.line for p in skipped] == [6]
    assert "lines 6-7" in skipped[0].reason and "'Feb 25, 2015'" in skipped[0].reason
    assert "without --format search-page" in skipped[0].reason


def test_ingesting_the_post_joins_its_quoted_rulings_to_the_official_ones(
        built_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cli.main import app

    home = tmp_path / "home"
    shutil.copytree(built_home, home)
    monkeypatch.setenv("KB_HOME", str(home))
    monkeypatch.setenv("KB_EMBEDDER", "fake")
    page = tmp_path / POST.name
    shutil.copy(POST, page)
    runner = CliRunner()
    ingested = runner.invoke(app, ["ingest", str(page)], env={"COLUMNS": "300"})
    assert ingested.exit_code == 1, ingested.output  # the chat lines are skipped units
    said = " ".join(ingested.output.split())
    assert f"{page}:3: text before the first date line skipped (lines 3-4): posted by JudgeMaxi" in said
    assert f"{page}:9: text after a ruling and under no date skipped:" in said
    assert "no ruling on this page has a date" not in said and "search-page" not in said
    for entry, line in (("r-263b23cbcb", 6), ("r-cae6292fa1", 7)):  # the official megamorph rulings
        shown = runner.invoke(app, ["show", entry, "--json"])
        assert shown.exit_code == 0, shown.output
        mine = [(v["line"], v["date"], v["card"], v["relation"]) for v in json.loads(shown.stdout)["variants"]
                if v["source"] == str(page)]
        assert mine == [(line, "2015-02-25", "Hidden Dragonslayer", "duplicate")]


@pytest.mark.parametrize("ruling", [
    # review38 #6: a `>` before a number is a comparison, not a quote mark ("5 or more creatures" lost it)
    "> 5 or more creatures: the ability counts each one.",
    ">= 5 creatures: the ability counts each one.",
    "> -1 power: it gets no counter.",
    "> 5 creatures: the ability counts each one.\n> 10 creatures: it counts each twice.",
])
def test_a_ruling_that_starts_with_a_comparison_keeps_its_mark(ruling):
    result = _read(f"Hidden Dragonslayer\n\nFeb 25, 2015\n{ruling}\n")
    assert [(r.date, r.original) for r in result.records] == [("2015-02-25", ruling)]
    assert result.problems == ()


def test_a_quoted_rulings_line_that_starts_with_a_number_is_still_quoted():
    text = ("Hidden Dragonslayer\n\n> Feb 25, 2015: A face-down creature is a\n> 2/2 creature with no name.\n"
            "> 25.02.2015: Turning it face up doesn't use the stack.\n")
    result = _read(text)
    assert [(r.date, r.text) for r in result.records] == [
        ("2015-02-25", "A face-down creature is a 2/2 creature with no name."),
        ("2015-02-25", "Turning it face up doesn't use the stack.")]
    assert result.problems == ()

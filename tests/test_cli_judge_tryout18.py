"""What judges and a rules manager trying the CLI as new users noticed (tryout18): each test pins one
defect found that way."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kb import store
from kb.checks import match_entries
from kb.checks.scenario import Check
from kb.corpus import Corpus
from kb.model import Entry, Kind, Lang, Relation, Variant

QUOTE = "Megamorph is a variant of the morph ability."


def _ruling(eid: str, text: str, source: str, card: str) -> Entry:
    variant = Variant(text, text, Lang.EN, "2024-02-02", source, 3, Relation.CANONICAL, 1.0, card)
    return Entry(eid, Kind.RULING, text, (card,), "2024-02-02", "2024-02-02", (variant,))


def _check() -> Check:
    check = next(c for c in Corpus.default().checks[0] if c.ruling == QUOTE)
    return check


def test_a_bundled_checks_quote_repeated_by_a_judges_page_keeps_to_the_bundled_ruling() -> None:
    """A Gatherer megamorph ruling a rules manager ingested repeats the sentence a bundled check
    quotes: the check came off its bundled ruling (now quoted by two) and nothing said so."""
    bundled = _ruling("r-bundled", f"{QUOTE} You can find more information on morph on a card with morph.",
                      "corpus/seeds/x.txt", "Den Protector")
    mine = _ruling("r-mine", f"{QUOTE} If it's turned face up for its megamorph cost, it gets a counter.",
                   "/home/judge/dragonslayer.html", "Ashen Bench Tester")
    found, problems = match_entries([bundled, mine], [_check()], written_against=lambda s: s.startswith("corpus/"))
    assert problems == [] and found == {_check().id: "r-bundled"}
    # a check of the judge's own (nothing marks the sources it was written against) still asks for more
    found, problems = match_entries([bundled, mine], [_check()])
    assert found == {} and "quotes 2 rulings" in problems[0].reason


def _attached(home: Path) -> dict[str, str]:
    return {check: e.id for e in store.load(home).entries for check in e.checks}


def test_ingesting_a_page_that_repeats_a_bundled_quote_moves_no_bundled_check(
        built_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same through `kb ingest` and `kb check`: every bundled check stays on its ruling, and
    `kb check` reports no problem."""
    import json

    from typer.testing import CliRunner

    from cli.main import app

    home = tmp_path / "home"
    shutil.copytree(built_home, home)
    monkeypatch.setenv("KB_HOME", str(home))
    monkeypatch.setenv("KB_EMBEDDER", "fake")
    before = _attached(home)
    page = tmp_path / "ashen-bench-tester.txt"
    page.write_text(f"Ashen Bench Tester\n\n2024-02-02\n\n{QUOTE} If it's turned face up for its megamorph cost, "
                    "it gets a +1/+1 counter before its other abilities apply.\n", encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(app, ["ingest", str(page)])
    assert result.exit_code == 0, result.output
    assert _attached(home) == before
    checked = runner.invoke(app, ["check", "--json"])
    assert checked.exit_code == 0, checked.output
    assert "problems" not in json.loads(checked.stdout)  # the key is there only when a check has one


@pytest.mark.parametrize(("question", "lang", "concept"), [
    # Spanish players name disguise by its noun; the card prints the verb "Disfrazarse"
    ("¿Puede mi oponente responder cuando pongo boca arriba una criatura con disfraz?", Lang.ES, "disguise"),
    ("¿Cuánto cuesta el disfraz?", Lang.ES, "disguise"),
    # the German card text cloaks with "tarnen" ("mische den Haufen und tarne sie dann")
    ("Kann ich eine getarnte Kreatur aufdecken?", Lang.DE, "cloak"),
    ("Tarne die oberste Karte deiner Bibliothek.", Lang.DE, "cloak"),
])
def test_a_questions_word_for_a_mechanic_names_it(question: str, lang: Lang, concept: str) -> None:
    """tryout18: "disfraz" and "getarnt" were read as no mechanic, so the question met the other
    mechanics' rulings."""
    assert concept in [c.id for c in Corpus.default().glossary.concepts_in(question, (Lang.EN, lang))]


def test_a_spreadsheet_of_rulings_is_named_a_table_with_the_page_it_could_be_saved_as() -> None:
    """tryout18b: a CSV export of rulings got only the card-page parser's "no ruling on this page has a
    date ... --format search-page", which reads it no better; the note says what the file is and how
    to save it, and the page it describes is read."""
    from kb.ingest import parse_text

    names = Corpus.default().names
    table = "card,date,text\nDen Protector,2015-02-25,Megamorph is a variant of the morph ability.\n"
    found = parse_text(table, "rulings.csv", names=names, match_clause=None)
    assert found.records == ()
    notes = [p for p in found.problems if "looks like a table" in p.reason]
    assert [(p.line, p.ignored) for p in notes] == [(1, True)]
    assert "comma-separated" in notes[0].reason and "'card,date,text'" in notes[0].reason
    advised = parse_text("Den Protector\n2015-02-25\tMegamorph is a variant of the morph ability.\n", "dp.txt",
                         names=names, match_clause=None)
    assert [(r.card, r.date) for r in advised.records] == [("Den Protector", "2015-02-25")]
    # a card page whose rulings have commas is no table
    prose = "Den Protector\nFeb 25, 2015\nIf it's turned face up, it gets a counter, and so on, and on.\n"
    assert not any("looks like a table" in p.reason for p in parse_text(prose, "p.txt", names=names,
                                                                          match_clause=None).problems)
    # a card's name with a comma above undated rulings is no header (second review)
    urza = "Urza, Lord High Artificer\nIt's an artifact, so it can be tapped for mana, and it stays.\n"
    assert not any("looks like a table" in p.reason for p in parse_text(urza, "u.txt", names=names,
                                                                          match_clause=None).problems)
    semicolons = "Karte;Datum;Text (DE)\nLichtform;2014-11-24;Du kannst sie jederzeit ansehen.\n"
    assert any("semicolon-separated" in p.reason
               for p in parse_text(semicolons, "r.csv", names=names, match_clause=None).problems)


@pytest.mark.parametrize("command, option", [(["rule", "--help"], "--at"), (["check", "--help"], "--rules")])
def test_every_date_form_a_help_text_names_is_accepted(command: list[str], option: str) -> None:
    """tryout19: `kb check --help` said `--rules` takes YYYY-MM-DD while "24 de noviembre de 2014"
    worked; the help now names the forms, and each one it names must work."""
    import re

    from typer.testing import CliRunner

    from cli.main import app
    from kb.normalize import date_option

    shown = " ".join(CliRunner().invoke(app, command, env={"COLUMNS": "200"}).output.split())
    forms = re.search(r"this date \(YYYY-MM-DD, ([^)]*)\)", shown)
    assert forms, shown
    named = [f.strip() for f in re.split(r",| or ", forms.group(1)) if f.strip()]
    assert len(named) >= 4 and "13 de julio de 2018" in named
    assert {date_option(form, option) for form in named} == {"2018-07-13"}

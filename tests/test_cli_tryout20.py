"""What a rules manager auditing rulings as a new user noticed (tryout20): each test pins one defect."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kb import store
from kb.corpus import Corpus
from kb.model import Entry, Kind, Lang, Relation, Variant

OLD = "You can't look at face-down permanents you don't control unless an effect allows you to or instructs you to."
MID = "You can't look at face-down permanents you don't control unless an effect instructs you to do so."
NEW = "You can't look at face-down permanents or spells you don't control unless an effect instructs or allows you to do so."


def test_an_outdated_wording_names_the_entrys_newer_text_when_other_cards_reworded_it_again(kb_home: Path) -> None:
    """tryout20: Lightform's 2014 wording was "replaced on 2018-07-13" by Lightform's 2018 wording, while
    the entry's text (other cards' pages, 2024) put "allows" back: the suggestion read as the current
    text and contradicted `kb show`."""
    from cli.main import app
    from kb.outdated import find_outdated

    variants = (
        Variant(NEW, NEW, Lang.EN, "2024-09-20", "dsk.json", 40, Relation.CANONICAL, 1.0, "Unwanted Remake"),
        Variant(MID, MID, Lang.EN, "2018-07-13", "lightform-2018.json", 5, Relation.REVISION, 0.9, "Lightform"),
        Variant(OLD, OLD, Lang.EN, "2014-11-24", "lightform-2014.json", 5, Relation.REVISION, 0.9, "Lightform"),
    )
    entries = [Entry("r-look", Kind.RULING, NEW, ("Lightform", "Unwanted Remake"), "2014-11-24", "2024-09-20", variants)]
    items = find_outdated(entries, terminology=Corpus.default().terminology)
    store.write(kb_home, entries, report={}, meta={}, outdated=[item.to_store() for item in items])

    listed = json.loads(CliRunner().invoke(app, ["outdated", "--json"]).stdout)
    old = next(w for w in listed if w["text"] == OLD)
    assert old["current_text"] == MID and old["entry_text"] == NEW
    shown = " ".join(CliRunner().invoke(app, ["outdated"], env={"COLUMNS": "300"}).stdout.split())
    # the newest text as a diff from the listed wording (plain: no colours in the runner): OLD -> NEW
    assert ("reworded again since on other cards' pages, from this wording: You can't look at face-down permanents "
            "{+or spells+} you don't control unless an effect") in shown
    assert shown.count("reworded again since") == sum(1 for w in listed if w["current_text"] != NEW)


def test_the_newest_text_is_shown_as_a_diff_from_the_outdated_wording_where_it_undoes_a_change(kb_home: Path) -> None:
    """tryout47 D10: 2018 dropped "copy effects or" from the 2014 wording, the newest wording has it again;
    the diff to the replacing wording alone ("[-copy effects or-]") read as "copy effects no longer matter"."""
    from cli.main import app
    from kb.outdated import find_outdated

    old = "Reveal it (ignoring any copy effects or type-changing effects that might be applying to it) and pay its cost."
    mid = "Reveal it (ignoring any type-changing effects that might be applying to it) and pay its cost."
    new = "Reveal it (ignoring any copy effects or type-changing effects that might be applying to it) and pay its mana cost."
    variants = (
        Variant(new, new, Lang.EN, "2024-09-20", "dsk.json", 40, Relation.CANONICAL, 1.0, "Other Card"),
        Variant(mid, mid, Lang.EN, "2018-07-13", "form-2018.json", 5, Relation.REVISION, 0.9, "Some Form"),
        Variant(old, old, Lang.EN, "2014-11-24", "form-2014.json", 5, Relation.REVISION, 0.9, "Some Form"),
    )
    entries = [Entry("r-reveal", Kind.RULING, new, ("Other Card", "Some Form"), "2014-11-24", "2024-09-20", variants)]
    items = find_outdated(entries, terminology=Corpus.default().terminology)
    store.write(kb_home, entries, report={}, meta={}, outdated=[item.to_store() for item in items])
    shown = " ".join(CliRunner().invoke(app, ["outdated"], env={"COLUMNS": "300"}).stdout.split())
    since = shown[shown.index("from this wording: "):]
    assert since.startswith("from this wording: Reveal it (ignoring any copy effects or type-changing effects")
    assert "pay its {+mana+} cost." in since and "[-copy effects or-]" in shown[:shown.index("from this wording")]


def test_kb_coverage_lists_the_english_rulings_without_a_translation_most_shared_first(
        kb_home: Path, monkeypatch) -> None:
    """tryout20: `kb coverage` printed only "431 lack one"; the README promises the entries, which only
    --json listed. The text lists them, those on most cards' pages first, up to COVERAGE_ROWS."""
    from cli import render
    from cli.main import app

    def ruling(eid: str, text: str, cards: tuple[str, ...], german: str | None = None) -> Entry:
        variants = tuple(Variant(text, text, Lang.EN, "2014-11-24", f"{card}.txt", 3, Relation.CANONICAL, 1.0, card)
                         for card in cards)
        if german:
            variants += (Variant(german, german, Lang.DE, "2014-11-24", "de.txt", 3, Relation.TRANSLATION, 0.9,
                                 cards[0]),)
        return Entry(eid, Kind.RULING, text, cards, "2014-11-24", "2014-11-24", variants)

    entries = [ruling("r-one", "Its ability triggers only once.", ("Lightform",)),
               ruling("r-many", "You can look at it any time.", ("Lightform", "Rageform", "Cloudform")),
               ruling("r-done", "It has no name.", ("Lightform",), german="Sie hat keinen Namen.")]
    store.write(kb_home, entries, report={}, meta={}, outdated=[])
    shown = CliRunner().invoke(app, ["coverage", "--lang", "de"], env={"COLUMNS": "200"}).stdout
    rows = [line.split()[0] for line in shown.splitlines() if line.startswith("r-")]
    assert rows == ["r-many", "r-one"]  # three cards' pages first; the translated entry is not listed
    monkeypatch.setattr(render, "COVERAGE_ROWS", 1)
    shown = CliRunner().invoke(app, ["coverage", "--lang", "de"], env={"COLUMNS": "200"}).stdout
    assert [line.split()[0] for line in shown.splitlines() if line.startswith("r-")] == ["r-many"]
    assert "… and 1 more; --json lists them all" in shown


def test_a_check_file_given_to_kb_ingest_is_named_for_what_it_is() -> None:
    """tryout20: ingesting a check file got only the card-page parser's advice to use --format
    search-page, which would read its YAML as undated rulings."""
    from kb.ingest import parse_text

    text = "checks:\n  - name: x\n    ruling: \"It has no name.\"\n    setup: {}\n"
    found = parse_text(text, "mine.yaml", names=Corpus.default().names, match_clause=None)
    assert found.records == ()
    assert [(p.line, p.ignored) for p in found.problems if "scenario check file" in p.reason] == [(1, True)]
    # the advice for undated text says when it fits, not that it does
    undated = parse_text("Hooded Hydra\n\nThis bulletin lists what changed in the rules this season.\n", "b.txt",
                         names=Corpus.default().names, match_clause=None)
    assert any("if it is rulings without dates, --format search-page reads one per paragraph" in p.reason
               for p in undated.problems)

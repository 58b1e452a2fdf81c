"""What a judge trying the CLI for the first time with the real data noticed (tryout10): each test pins
one defect found that way."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cli import render
from cli.main import app
from kb.model import Entry, Kind, Lang, Relation, RuleLink, Variant

runner = CliRunner()


def _variant(text: str, source: str, line: int, card: str) -> Variant:
    return Variant(text, text, Lang.EN, "2018-01-19", source, line, Relation.CANONICAL, 1.0, card)


def test_an_outdated_wording_with_one_other_copy_says_one_more_copy():
    # "appears: Hard Hat Area, Widget Contraption; mtgjson/.../UST.json:703 and 1 more copies"
    from kb.outdated import OutdatedItem, OutdatedReason, Reason, group_wordings

    text = "In Constructed formats, a Contraption deck must have at least fifteen different Contraption cards."
    reason = OutdatedReason(Reason.RULE_CHANGED, "100.2a was reworded")
    items = [OutdatedItem("r-532c7c9f9a", i, _variant(text, "UST.json", 703 + i, card), (reason,), text)
             for i, card in enumerate(["Hard Hat Area", "Widget Contraption"])]
    out = io.StringIO()
    render.outdated(Console(file=out, width=200), group_wordings(items))
    assert "UST.json:703 and 1 more copy 1 wording" in " ".join(out.getvalue().split())
    assert "1 more copies" not in out.getvalue()


def test_a_clause_found_by_search_is_not_shown_with_no_cards_and_a_link_to_itself():
    # A CR clause hit read "cards: —   dates: ...", then "rules: CR 708.9", then "CR 708.9".
    from kb.search.rank import Hit

    text = "If a face-down permanent moves from the battlefield to any other zone, its owner must reveal it."
    clause = Entry("c-2e1c5ef3ec", Kind.RULE, text, (), "2014-09-25", "2026-01-16", (),
                   rules=(RuleLink("708.9", 1.0, "708.9", "the entry is this clause's text"),), clause="708.9")
    ruling = Entry("r-1c10566602", Kind.RULING, "If a face-down permanent you control leaves the battlefield, "
                   "you must reveal it.", ("Lightform",), "2014-11-24", "2018-07-13", (),
                   rules=(RuleLink("708.9", 0.9, "707.9", ""), RuleLink("800.4a", 0.5, "800.4a", "")))
    out = io.StringIO()
    render.hits(Console(file=out, width=100), [Hit(clause, 0.2, Lang.EN, text),
                                                Hit(ruling, 0.1, Lang.EN, ruling.text)])
    shown = out.getvalue()
    clause_block, ruling_block = shown.split("2. r-1c10566602")
    assert clause_block.count("708.9") == 1 and "cards:" not in clause_block
    assert "CR 708.9   dates: 2014-09-25 → 2026-01-16" in clause_block
    assert "rules: CR 708.9, CR 800.4a" in ruling_block and "cards: Lightform" in ruling_block


def test_a_check_run_whose_problems_fail_it_says_so_in_its_summary(tmp_path: Path):
    # `kb check FILE.yaml` with a quote that picks no ruling printed "pass  mixed/bad-quote" and
    # "2 checks: 2 passed, 0 failed", then exited 1: nothing on stdout said why.
    from kb.checks import CheckResult, CheckRun
    from kb.model import Problem

    run = CheckRun([CheckResult("mixed/fine", "r-09dd1f3383", "mixed.yaml", True),
                    CheckResult("mixed/bad-quote", None, "mixed.yaml", False, unattached="quotes no ruling")],
                   [Problem("mixed.yaml", 11, "check 'bad-quote' quotes no ruling: 'no such words'")])
    out, err = io.StringIO(), io.StringIO()
    render.check_run(Console(file=out, width=200), Console(file=err, width=200), run)
    lines = out.getvalue().splitlines()
    assert "mixed.yaml:11" in err.getvalue()
    assert "attached to no ruling" in next(line for line in lines if "mixed/bad-quote" in line)
    assert "attached to no ruling" not in next(line for line in lines if "mixed/fine" in line)
    assert lines[-1].startswith("2 checks: 1 passed, 0 failed, 1 attached to no ruling; 1 problem")


@pytest.fixture()
def built(built_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KB_HOME", str(built_home))
    return built_home


def test_rulings_linked_to_a_clause_show_a_few_of_their_cards_not_sixty(built: Path):
    # `kb rule 708.8` printed all 63 cards of its first ruling, 13 lines before the ruling's text.
    result = runner.invoke(app, ["rule", "708.8", "--limit", "1"])
    assert result.exit_code == 0, result.output
    linked = result.output.split("Rulings linked to 708.8")[1]
    head = " ".join(linked.split("Because the permanent")[0].split())
    assert "more" in head and len(head.split(",")) <= 7, head


@pytest.mark.parametrize("title, card, noted", [
    ("Lichtfrom", "Lichtfrom", True),  # a typo: filed apart from Lightform's rulings, so said
    ("Tarjeta Inventada Que No Existe", "Tarjeta Inventada Que No Existe", True),
    ("Lichtform", "Lightform", False),
    ("Forma de Ira", "Rageform", False),
    ("Lightform - Gatherer", "Lightform", False),
])
def test_a_page_title_naming_no_known_card_is_a_note_not_silence(title, card, noted):
    # A judge's page titled "Lichtfrom" was filed under a card "Lichtfrom" with no word in the ingest
    # report: its German rulings could never join Lightform's English ones.
    from kb.corpus import Corpus
    from kb.ingest.pages import parse_card_page

    page = f"{title}\n\n13.07.2018\n\nDu kannst jederzeit eine verdeckte bleibende Karte ansehen, die du kontrollierst.\n"
    found = parse_card_page(page, "lichtfrom.txt", Corpus.default().names.resolve)
    assert [r.card for r in found.records] == [card]
    notes = [p for p in found.problems if "names no card" in p.reason]
    assert bool(notes) is noted
    assert all(p.ignored and p.line == 1 and repr(card) in p.reason for p in notes)


@pytest.mark.parametrize("without, says", [(1, "1 Spanish ruling has no English counterpart"),
                                           (2, "2 Spanish rulings have no English counterpart")])
def test_kb_coverage_counts_one_ruling_without_english_in_the_singular(without, says):
    # "1 Spanish rulings have no English counterpart"
    rows = [{"id": f"r-24e908c77{i}", "cards": ["Lightform"], "text": "Se trata de una regla."} for i in range(without)]
    out = io.StringIO()
    render.translation_coverage(Console(file=out, width=200), {
        "english_entries": 439, "languages": {"es": {"translated": 0, "untranslated": [], "without_english": rows}}})
    assert says in out.getvalue()


def test_a_title_naming_no_card_gets_no_note_when_no_ruling_is_filed_under_it():
    # The FRF update bulletin (no dated ruling, all skipped) was told its rulings "are filed under
    # '# Fate Reforged Update Bulletin ...'": there were none.
    from kb.corpus import Corpus
    from kb.ingest.pages import parse_card_page

    page = "# Fate Reforged Update Bulletin\n\nThe rules for manifest changed in these ways.\n"
    found = parse_card_page(page, "bulletin.md", Corpus.default().names.resolve)
    assert not found.records and not any("names no card" in p.reason for p in found.problems)


def test_a_format_forced_on_a_file_of_another_format_names_the_one_it_looks_like():
    # `kb ingest lr.json --format card-page` said only "undated rulings, one per paragraph:
    # --format search-page": advice for a card page, not for the MTGJSON file it was.
    from kb.corpus import Corpus
    from kb.ingest import Format, parse_text
    from kb.paths import REPO_ROOT

    text = (REPO_ROOT / "corpus/mtgjson/mtgjson5-current-2025_Lightform-Rageform.json").read_text(encoding="utf-8")
    names = Corpus.default().names
    forced = parse_text(text, "lr.json", names=names, match_clause=None, fmt=Format.CARD_PAGE)
    assert not forced.records
    hints = [p for p in forced.problems if "looks like mtgjson" in p.reason]
    assert len(hints) == 1 and hints[0].ignored and "without --format" in hints[0].reason
    right = parse_text(text, "lr.json", names=names, match_clause=None, fmt=Format.MTGJSON)
    assert right.records and not any("looks like" in p.reason for p in right.problems)


def test_ingesting_a_copy_of_a_bundled_file_adds_nothing_and_names_the_bundled_file(built_home, tmp_path,
                                                                                     monkeypatch):
    # tryout10: the DSK and MKM subsets of the shared data, byte-identical to bundled files, went into
    # the library and doubled their 160 rulings' copies, without a word
    from kb import store
    from kb.build import build
    from kb.corpus import Corpus

    monkeypatch.setenv("KB_HOME", str(built_home))
    monkeypatch.setenv("KB_EMBEDDER", "fake")
    bundled = min(Corpus.default().sources(), key=lambda p: p.stat().st_size)
    copy = tmp_path / f"my-{bundled.name}"
    copy.write_bytes(bundled.read_bytes())
    report = build([copy], home=built_home)
    assert not report.added and not report.written and len(report.unchanged) == 1
    note = next(p for p in report.problems if p.source == report.unchanged[0])
    assert note.ignored and note.reason.startswith("the same bytes as the bundled ")
    assert note.reason.endswith(f"{bundled.parent.name}/{bundled.name}: nothing added")
    conn = store.connect(built_home)
    try:
        assert store.library(conn) == []
    finally:
        conn.close()
    result = runner.invoke(app, ["ingest", str(copy)])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # the terminal wraps the note where the paths' lengths put it
    assert "nothing changed" in said and "the same bytes as the bundled" in said


def test_a_card_newer_than_the_2018_oracle_shows_its_text_from_the_bundled_mtgjson_files():
    # tryout10: `kb card Fenstersturz-Phantom` said "(not among the 2018 Oracle cards)": no text, type or cost
    from kb.corpus import Corpus
    from kb.views import find_card

    card = find_card("Fenstersturz-Phantom", Corpus.default())
    assert card.name == "Defenestrated Phantom" and card.oracle is not None
    assert (card.oracle.mana_cost, card.oracle.type) == ("{4}{W}{W}", "Creature — Spirit")
    assert card.oracle.text.startswith("Flying\nDisguise {4}{W}")
    assert card.names[Lang.ES] == "Fantasma defenestrado"


def test_mtgjson_cards_read_as_oracle_cards_with_their_german_and_spanish_names():
    from kb.oracle import cards_from_mtgjson

    v5 = {"data": {"cards": [{"name": "Card A", "manaCost": "{1}", "type": "Creature — Elf", "text": "Hi.",
                              "power": "1", "toughness": "2",
                              "foreignData": [{"language": "German", "name": "Karte A"},
                                              {"language": "French", "name": "Carte A"}]},
                             {"name": "No Type Here", "rulings": []}]}}
    v3 = [{"name": "Card B", "type": "Instant", "foreignNames": [{"language": "Spanish", "name": "Carta B"}]}]
    (a,) = cards_from_mtgjson(v5)
    (b,) = cards_from_mtgjson(v3)
    assert (a.name, a.mana_cost, a.type, a.text, a.power, a.toughness) == ("Card A", "{1}", "Creature — Elf", "Hi.", "1", "2")
    assert a.names == {Lang.EN: "Card A", Lang.DE: "Karte A"}
    assert (b.type, b.text, b.names) == ("Instant", "", {Lang.EN: "Card B", Lang.ES: "Carta B"})


def test_a_clause_shown_by_kb_show_does_not_repeat_its_text_under_its_link_to_itself():
    # tryout10: `kb show` of a CR clause printed its text three times (panel, its own link, its wording)
    text = "Face-down spells and face-down permanents have no characteristics other than those listed."
    v = Variant(text, text, Lang.EN, None, "seeds/cr.txt", 25, Relation.CANONICAL, 1.0, None)
    entry = Entry("c-c33d82fc1f", Kind.RULE, text, (), None, None, (v,),
                  rules=(RuleLink("708.2", 1.0, None, "the entry is this clause's text"),), clause="708.2")
    out = io.StringIO()
    render.entry_detail(Console(file=out, width=200), entry, clause_texts={"708.2": text})
    assert out.getvalue().count("have no characteristics other than") == 2  # the panel and the wording
    assert "the entry is this clause's text" in out.getvalue()

"""What a judge trying the CLI for the first time with real pages noticed (tryout7): each test pins
one defect found that way."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cli.main import app

runner = CliRunner()

# A card page as a card-shop site shows it (magiccollectiontrader.fr, German card, English rulings):
# no date on any ruling.
UNDATED_PAGE = """Entlarvung des Schuldigen

Spontanzauber

Rulings

If a face-down spell leaves the stack and goes to any zone other than the battlefield (if it was countered, for example), you must reveal it. Similarly, if a face-down permanent leaves the battlefield, you must reveal it.

At any time, you can look at a face-down spell or permanent you control. You can't look at face-down permanents or spells you don't control unless an effect instructs or allows you to do so.
"""


@pytest.fixture(autouse=True)
def fake_build_embedder(monkeypatch, small_corpus, kb_home):
    monkeypatch.setenv("KB_EMBEDDER", "fake")
    monkeypatch.setenv("KB_CORPUS", str(small_corpus))


def _stats() -> dict:
    result = runner.invoke(app, ["stats", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_a_forced_format_is_the_one_the_build_parses_the_file_with(tmp_path):
    page = tmp_path / "unmask.txt"
    page.write_text(UNDATED_PAGE)
    before = _stats()["parsed"]
    result = runner.invoke(app, ["ingest", str(page), "--format", "search-page", "--json"])
    report = json.loads(result.stdout)
    # the units `kb sources` credits the file with are in the KB, not only in the ingest report
    assert report["parsed"] > before, report
    sources = json.loads(runner.invoke(app, ["sources", "--json"]).stdout)
    assert [s["format"] for s in sources] == ["search-page"]
    assert report["parsed"] - before == sources[0]["units"]
    # and a later rebuild (`kb ingest` alone) parses it the same way
    runner.invoke(app, ["ingest"])
    assert _stats()["parsed"] == report["parsed"]


def test_ingesting_the_same_file_again_with_another_format_applies_it(tmp_path):
    page = tmp_path / "unmask.txt"
    page.write_text(UNDATED_PAGE.replace("Rulings\n", "Rulings\n2/2/2024\n"))
    first = runner.invoke(app, ["ingest", str(page), "--json"])
    assert json.loads(first.stdout)["added"], first.output  # detected as a card page: one dated ruling
    result = runner.invoke(app, ["ingest", str(page), "--format", "search-page", "--json"])
    assert "replaced" in result.stdout and json.loads(result.stdout)["replaced"], result.output
    sources = json.loads(runner.invoke(app, ["sources", "--json"]).stdout)
    assert [s["format"] for s in sources] == ["search-page"]


def test_a_card_page_without_any_date_says_so_not_text_before_the_first_date_line(tmp_path):
    page = tmp_path / "unmask.txt"
    page.write_text(UNDATED_PAGE)
    result = runner.invoke(app, ["ingest", str(page)])
    assert result.exit_code == 1
    message = " ".join(result.output.split())
    assert "no ruling on this page has a date" in message and "--format search-page" in message
    assert "before the first date line" not in message  # there is no date line to be before


def test_the_card_a_judge_filters_by_leads_each_rows_cards():
    result = runner.invoke(app, ["list", "--card", "Lichtform"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    listed = json.loads(runner.invoke(app, ["list", "--card", "Lichtform", "--json"]).stdout)
    crowded = [e for e in listed if len(e["cards"]) > 3 and "Lightform" not in e["cards"][:3]]
    assert crowded, "no entry where Lightform would be hidden among '+N more'"
    rows = [line.rstrip().split("  ")[-1].strip() for line in result.output.splitlines() if " more" in line]
    assert rows and all(row.startswith("Lightform") for row in rows), rows


def test_kb_list_of_rules_keeps_the_ids_in_80_columns():
    result = runner.invoke(app, ["list", "--kind", "rule"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    ids = [e["id"] for e in json.loads(runner.invoke(app, ["list", "--kind", "rule", "--json"]).stdout)]
    assert all(i in result.output for i in ids[:20]), result.output[:400]


def test_kb_list_lang_with_no_text_in_that_language_says_why_it_is_empty():
    result = runner.invoke(app, ["list", "--lang", "es"])
    assert result.exit_code == 0, result.output
    assert "0 entries" in result.output and "has a wording in es" in " ".join(result.output.split())

"""What a judge trying the CLI for the first time noticed: each test pins one defect found that way."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cli.main import app

runner = CliRunner()

# Rulings as a judge copies them from a Gatherer rulings table (date cell, then ruling cell), no title.
GATHERER_TABLE = """11/12/2019 |
If a face-down creature with spellmorph loses all abilities, it can't be cast from the battlefield. |
11/12/2019 |
If a card with spellmorph is manifested, you can cast it from the battlefield. |
"""


@pytest.fixture(autouse=True)
def fake_build_embedder(monkeypatch, small_corpus, kb_home):
    monkeypatch.setenv("KB_EMBEDDER", "fake")
    monkeypatch.setenv("KB_CORPUS", str(small_corpus))


def test_a_page_kept_with_a_caveat_is_reported_as_notes_not_as_ignored(tmp_path):
    page = tmp_path / "spellmorph.txt"
    page.write_text(GATHERER_TABLE)
    result = runner.invoke(app, ["ingest", str(page)])
    assert result.exit_code == 0, result.output
    # both rulings are kept (without a card, dates read month first): nothing was ignored
    assert "ignored" not in result.output
    assert "note: " in result.output and "kept without a card" in result.output


@pytest.mark.parametrize("command, sentence", [
    ("ingest", "every source you ingested (`kb sources` lists them, `kb remove` takes one out)."),
    ("outdated", "`--review` lists rulings whose rule was reworded after them in words they use;"),
])
def test_help_paragraphs_are_not_broken_where_the_docstring_breaks_its_lines(command, sentence):
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    assert sentence in result.output


def test_diff_with_one_date_says_it_needs_two_not_that_section_is_missing():
    result = runner.invoke(app, ["rule", "--diff", "2014-09-25", "--section", "708"])
    assert result.exit_code == 1
    assert "--diff takes two dates" in " ".join(result.output.split())


def test_checking_a_file_that_is_not_yaml_says_so_rather_than_no_entry(tmp_path):
    notes = tmp_path / "cranial.txt"
    notes.write_text("Q: Could Bile Blight kill multiple morph creatures?\n")
    result = runner.invoke(app, ["check", str(notes)])
    assert result.exit_code == 1
    message = " ".join(result.output.split())
    assert "is not a check file" in message and "no entry" not in message


def test_counts_of_one_are_singular(tmp_path):
    from cli.render import count

    assert (count(1, "check"), count(2, "check")) == ("1 check", "2 checks")
    assert count(1, "source copy", "source copies") == "1 source copy"
    one = tmp_path / "one.yaml"
    one.write_text("""checks:
  - name: archdemon-random-pick-drafted-face-up
    ruling: "After you draft a card at random, look at it to determine whether it needs to be revealed as it's drafted or drafted face up."
    setup:
      you:
        drafted: [{card: Archdemon of Paliano, face_up: true}]
        pack: [Cogwork Grinder, Grizzly Bears]
    actions:
      - draft: {card: Cogwork Grinder, at_random: true}
        expect:
          Cogwork Grinder: {drafted_by: you, in_pool: true}
""")
    result = runner.invoke(app, ["check", str(one)])
    assert "1 check: 1 passed" in result.output, result.output


@pytest.mark.parametrize("question", ["708.8", "CR 708.2a", "702.37"])
def test_a_bare_rule_number_as_a_question_points_to_kb_rule(question):
    # `kb search "708.8"` answered with a ruling about "total power 8 or greater"
    result = runner.invoke(app, ["search", question])
    assert result.exit_code == 1
    assert "`kb rule " in " ".join(result.output.split())


@pytest.mark.parametrize("args", [("--kind", "superseeded"), ("--fail-on", "obsolete"), ("--fail-on", "")])
def test_an_unknown_outdated_reason_is_named_in_the_error(args):
    result = runner.invoke(app, ["outdated", *args])
    assert result.exit_code == 1
    assert f"{args[0]}: unknown reason {args[1]!r}" in " ".join(result.output.split())


def test_strict_ingest_of_one_unusable_unit_says_one_unit(tmp_path):
    page = tmp_path / "cranial.txt"
    page.write_text("Q: Could Bile Blight kill multiple morph creatures?\n\nA: No, it can't.\n")
    result = runner.invoke(app, ["ingest", "--strict", str(page)])
    assert result.exit_code == 1
    assert "1 unit could not be ingested" in " ".join(result.output.split())


def test_a_list_of_one_entry_says_one_entry(tmp_path):
    page = tmp_path / "bile_blight.txt"
    page.write_text("Bile Blight\n\n9/15/2014\nA face-down creature has no name, so Bile Blight targeting one "
                    "destroys only that creature.\n")
    assert runner.invoke(app, ["ingest", str(page)]).exit_code == 0
    result = runner.invoke(app, ["list", "--card", "Bile Blight"])
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("1 entry")


def test_search_by_a_clause_the_cr_does_not_have_is_an_error_not_no_answer():
    result = runner.invoke(app, ["search", "face down", "--rule", "999.1"])
    assert result.exit_code == 1
    assert "--rule: no clause 999.1 in the CR of" in " ".join(result.output.split())


def test_ingest_of_a_missing_file_does_not_claim_to_have_read_files(tmp_path):
    # it said "files read 152" for one path that does not exist
    result = runner.invoke(app, ["ingest", str(tmp_path / "nope.txt")])
    assert result.exit_code == 1
    flat = " ".join(result.output.split())
    assert "files read" not in flat and "no such file or folder" in flat


def test_a_misspelled_card_name_is_shown_as_the_card_it_was_read_as():
    """`kb card Lightfrom` showed Lightform without saying the name was corrected."""
    guessed = runner.invoke(app, ["card", "Lightfrom"])
    assert guessed.exit_code == 0, guessed.output
    assert "no card is named 'Lightfrom'; showing the closest, Lightform" in guessed.output
    exact = runner.invoke(app, ["card", "Lichtform"])  # a German name is a name, not a guess
    assert exact.exit_code == 0 and "Lightform" in exact.output and "closest" not in exact.output

"""What a judge trying the CLI for the first time with the real data noticed (tryout9): each test pins
one defect found that way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KB_HOME", str(tmp_path))
    return tmp_path


def test_an_old_face_down_number_says_which_rule_it_is_now():
    # A 2018 ruling cites 707.2 (face-down characteristics); today 707.2 is copying. The judge must be
    # told before reading the copy rule, without having to know about --at.
    result = runner.invoke(app, ["rule", "707.2"])
    assert result.exit_code == 0, result.output
    head = " ".join(result.output.split("When copying an object")[0].split())
    assert "2018-07-13, 707.2 was the rule now 708.2" in head
    data = json.loads(runner.invoke(app, ["rule", "707.2", "--json"]).output)
    assert {"first": "2014-09-25", "last": "2018-07-13", "now": "708.2"} in data["other_rules"]
    # today's number names only what 708.2 was before (split cards, now 709.2), never itself
    then = json.loads(runner.invoke(app, ["rule", "708.2", "--json"]).output)["other_rules"]
    assert "709.2" in [f["now"] for f in then] and "708.2" not in [f["now"] for f in then]


def test_an_old_number_that_no_longer_exists_points_to_the_rule_now():
    # 701.31e (Fate Reforged era: a manifested instant can't be turned face up) is 701.40g today;
    # "nearest: 701.31c, 701.31d" (Planeswalk) sent the judge to the wrong rule.
    result = runner.invoke(app, ["rule", "701.31e"])
    assert result.exit_code == 1
    message = " ".join(result.output.split())
    assert "701.31e was the rule now 701.40g" in message
    assert "kb rule 701.40g" in message


def _tiny_kb(home: Path) -> None:
    from kb import store
    from kb.model import Entry, Kind, Lang, Relation, Variant

    text = "Turning a permanent face up or face down doesn't change whether that permanent is tapped or untapped."
    v = Variant(text, text, Lang.EN, "2014-11-24", "seed", 1, Relation.CANONICAL, 1.0, "Lightform")
    store.write(home, [Entry("r-a4052a60c7", Kind.RULING, text, ("Lightform",), "2014-11-24", "2014-11-24", (v,))],
                report={}, meta={})


@pytest.mark.parametrize("typed", ["708.2", "CR 708.2a"])
def test_a_rule_number_given_to_show_points_to_kb_rule(home, typed):
    # `kb show 708.2` said "`kb list` shows the ids": four thousand lines, none of them 708.2.
    from kb import store
    from kb.errors import NotFoundError

    _tiny_kb(home)
    with pytest.raises(NotFoundError) as raised:
        store.load(home).resolve(typed)
    clause = typed.removeprefix("CR ")
    assert f"`kb rule {clause}`" in str(raised.value)
    # an entry id that is not there keeps the old advice
    with pytest.raises(NotFoundError, match="kb list"):
        store.load(home).resolve("r-ffffff")


def test_kb_sources_keeps_each_path_whole_on_an_80_column_terminal():
    # The path column got 8 characters at 80 columns: a path over 10 lines, not copyable for `kb remove`.
    import io

    from rich.console import Console

    from cli import render

    path = "/work/shared/data/release-notes/FRF-release-notes-2014-11-24_manifest-excerpt.md"
    out = io.StringIO()
    render.sources(Console(file=out, width=80), [
        {"path": path, "format": "release-notes", "sha256": "4ed9c6ca40df" + "0" * 52,
         "added": "2026-12-02T10:07:12Z", "units": 37, "skipped": 0}])
    text = out.getvalue()
    assert any(path in line for line in text.splitlines())
    assert "4ed9c6ca40df" in text and "37 units" in text


def test_kb_stats_says_its_counts_in_words_not_json_keys():
    # "checks on face down rulings │ covered 130, face_down_rulings 139": a JSON key in the table.
    import io

    from rich.console import Console

    from cli import render

    out = io.StringIO()
    render.stats(Console(file=out, width=100),
                 {"checks_on_face_down_rulings": {"covered": 130, "face_down_rulings": 139}})
    assert "covered 130, face down rulings 139" in out.getvalue()
    assert "_" not in out.getvalue()


def test_check_missing_names_the_face_down_clause_that_makes_a_ruling_count():
    # Arbiter of the Ideal's ruling was listed as "603.2e, 707.5, 603.6a": its first three links, one of
    # them 707.5 (copying today), while the face-down link that put it on the list (708.3) was not shown.
    import io

    from rich.console import Console

    from cli import render
    from kb.checks import CheckCoverage
    from kb.model import Entry, Kind, RuleLink

    text = "Inspired abilities don't trigger when the creature enters the battlefield."
    entry = Entry("r-c4e03ac0f1", Kind.RULING, text, ("Arbiter of the Ideal",), "2014-02-01", "2014-02-01", (),
                  rules=(RuleLink("603.2e", 0.9, "603.2e", ""), RuleLink("707.5", 0.5, "706.5", ""),
                         RuleLink("603.6a", 0.46, "603.6a", ""), RuleLink("708.3", 0.44, "707.3", "")))
    out = io.StringIO()
    render.check_coverage(Console(file=out, width=200), CheckCoverage(0, 1, [entry]))
    line = out.getvalue().splitlines()[0]
    assert "708.3" in line and "707.5" not in line and "603.2e" not in line

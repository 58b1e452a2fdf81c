"""`kb check` on the command line: exit codes, JSON, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app

runner = CliRunner()
CHECKS = Path(__file__).resolve().parent.parent / "corpus" / "checks"


def test_check_all_passes_with_exit_0() -> None:
    result = runner.invoke(app, ["check"])
    assert result.exit_code == 0, result.output
    assert "0 failed" in result.output


def test_check_json_shape() -> None:
    result = runner.invoke(app, ["check", "--json", str(CHECKS / "forms.yaml")])
    data = json.loads(result.output)
    assert result.exit_code == 0
    assert data["summary"] == {"total": 3, "passed": 3, "failed": 0, "not_applicable": 0, "unattached": 0,
                               "nothing_checked": False}
    assert set(data["checks"][0]) == {"id", "entry", "file", "passed", "failures", "not_applicable", "unattached", "rules_gap"}
    assert data["rules"] is None  # each check under its own date


def test_check_json_says_the_rules_date_it_ran_under() -> None:
    # jsondoc: the --rules date was not in the output, so a saved result did not say which rules it checked
    result = runner.invoke(app, ["check", "--json", "--rules", "2016-04-08", str(CHECKS / "forms.yaml")])
    assert json.loads(result.output)["rules"] == "2016-04-08", result.output


def test_failing_check_exits_1(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.yaml"  # a face-down creature is a 2/2, not a 3/3
    wrong.write_text("checks:\n  - name: three-three\n    ruling: y\n"
                     "    setup: {you: {battlefield: [{card: Stratus Dancer, face_down: morph}]}}\n"
                     "    expect: {Stratus Dancer: {power: 3}}\n")
    result = runner.invoke(app, ["check", "--json", str(wrong)])
    assert result.exit_code == 1
    assert json.loads(result.output)["summary"]["failed"] == 1


def test_bad_rules_date_is_one_line_error() -> None:
    result = runner.invoke(app, ["check", "--rules", "yesterday"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "invalid --rules date" in result.output


def test_malformed_check_file_is_reported_with_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("checks:\n  - name: x\n    ruling: y\n    actions:\n      - summon: you\n    expect: {stack: 0}\n")
    result = runner.invoke(app, ["check", str(bad)])
    assert result.exit_code == 1 and "bad.yaml:5" in result.output and "unknown action" in result.output


def _write_kb(home: Path, entries) -> None:
    from kb import store

    store.write(home, entries, report={}, meta={})


def test_missing_lists_face_down_rulings_without_a_check(kb_home: Path) -> None:
    from tests.test_coverage import entry

    _write_kb(kb_home, [entry("r-a", "708.8", checks=("x/a",)), entry("r-b", "702.37e"), entry("r-c", "116.2b")])
    result = runner.invoke(app, ["check", "--missing", "--json"])
    data = json.loads(result.stdout)
    assert result.exit_code == 1
    assert (data["covered"], data["total"]) == (1, 2) and [m["id"] for m in data["missing"]] == ["r-b"]
    human = runner.invoke(app, ["check", "--missing"])
    assert "r-b" in human.output and "1 of 2" in human.output


def test_missing_lists_a_face_down_exile_ruling_with_its_clause(kb_home: Path) -> None:
    """Try-out 45 defect 8: a ruling on a card exiled face down (406.3) is a face-down ruling."""
    from tests.test_coverage import entry

    _write_kb(kb_home, [entry("r-a", "708.8", checks=("x/a",)), entry("r-x", "607.2a", "406.3a")])
    human = runner.invoke(app, ["check", "--missing"])
    assert human.exit_code == 1 and "r-x" in human.output and "406.3a" in human.output and "1 of 2" in human.output


def test_missing_exits_0_when_everything_is_covered(kb_home: Path) -> None:
    from tests.test_coverage import entry

    _write_kb(kb_home, [entry("r-a", "708.8", checks=("x/a",))])
    assert runner.invoke(app, ["check", "--missing"]).exit_code == 0


def test_a_ruling_quote_that_matches_no_entry_is_reported(kb_home: Path) -> None:
    from tests.test_coverage import entry

    _write_kb(kb_home, [entry("r-a", "708.8")])  # its text is "t": the forms.yaml quotes match nothing
    result = runner.invoke(app, ["check", "--json", str(CHECKS / "forms.yaml")])
    data = json.loads(result.stdout)
    assert result.exit_code == 1 and data["summary"]["failed"] == 0
    assert any("quotes no ruling" in p and "forms.yaml" in p for p in data["problems"])


def test_a_check_whose_quote_picks_no_ruling_is_not_passed_but_counted_apart(kb_home: Path) -> None:
    """Try-out 22: a check attached to no ruling was printed `pass`, counted as passed, and its JSON
    said `"passed": true, "entry": null`."""
    from tests.test_coverage import entry

    _write_kb(kb_home, [entry("r-a", "708.8")])  # its text is "t": the forms.yaml quotes match nothing
    data = json.loads(runner.invoke(app, ["check", "--json", str(CHECKS / "forms.yaml")]).stdout)
    assert data["summary"] == {"total": 3, "passed": 0, "failed": 0, "not_applicable": 0, "unattached": 3,
                               "nothing_checked": False}
    assert all(c["passed"] is False and "quotes no ruling" in c["unattached"] for c in data["checks"])
    result = runner.invoke(app, ["check", str(CHECKS / "forms.yaml")])
    lines = result.stdout.splitlines()
    assert result.exit_code == 1 and not any(line.startswith("pass") for line in lines)
    assert lines[0].startswith("????  forms/") and "attached to no ruling" in lines[0]
    assert "3 checks: 0 passed, 0 failed, 3 attached to no ruling; 3 problems" in " ".join(result.stdout.split())


def test_malformed_values_are_problems_and_the_rest_of_the_file_runs(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "checks:\n"
        "  - name: bad-date\n    rules: 2018-13-45\n    ruling: y\n    expect: {stack: 0}\n"
        "  - name: bad-library\n    ruling: y\n    setup: {you: {library: 5}}\n    expect: {stack: 0}\n"
        "  - name: good\n    ruling: y\n    expect: {stack: 0}\n"
    )
    result = runner.invoke(app, ["check", "--json", str(bad)])
    data = json.loads(result.stdout)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert data["summary"] == {"total": 1, "passed": 1, "failed": 0, "not_applicable": 0, "unattached": 0,
                               "nothing_checked": False}
    assert any("bad.yaml:3" in p and "invalid rules date" in p for p in data["problems"])  # the date's line
    assert any("bad.yaml:8" in p and "must be a list" in p for p in data["problems"])


def test_an_action_the_model_refuses_is_a_failed_check_with_the_reason(tmp_path: Path) -> None:
    """Issue 16: `kb check` exited 2 with "internal error: IllegalAction"; a refused action is a
    failed check (exit 1) that says why, a setup the rules date rules out is not applicable."""
    bad = tmp_path / "refused.yaml"
    bad.write_text(
        "checks:\n"
        "  - name: face-up-already\n    ruling: y\n    setup: {you: {battlefield: [Grizzly Bears]}}\n"
        "    actions:\n      - turn_face_up: Grizzly Bears\n    expect: {stack: 0}\n"
        "  - name: disguised\n    ruling: y\n"
        "    setup: {you: {battlefield: [{card: Dog Walker, face_down: disguise}]}}\n"
        "    expect: {Dog Walker: {face_down: true}}\n"
    )
    result = runner.invoke(app, ["check", "--json", "--rules", "2014-11-24", str(bad)])
    assert result.exit_code == 1 and "Traceback" not in result.output and "internal error" not in result.output
    verdicts = {c["id"]: (c["failures"], c["not_applicable"]) for c in json.loads(result.stdout)["checks"]}
    assert verdicts == {
        "refused/face-up-already": (["line 6 (turn_face_up): refused: Grizzly Bears is not a face-down permanent"], None),
        # a setup the rules date rules out: the check does not apply then (not a failure)
        "refused/disguised": ([], "disguise does not exist in the rules of 2014-11-24"),
    }


def test_check_under_old_rules_counts_not_applicable_apart_and_exits_0() -> None:
    """A judge's report: `kb check --rules 2014-11-24` (a README example) exited 1 with 25 FAILs,
    all checks about megamorph, disguise or cloak, which the rules of that date don't have."""
    result = runner.invoke(app, ["check", "--rules", "2014-11-24"])
    assert result.exit_code == 0, result.output
    assert " 0 failed, " in result.output and "not applicable (rules of 2014-11-24)" in result.output
    assert "n/a " in result.output and "does not exist in the rules of 2014-11-24" in result.output
    summary = json.loads(runner.invoke(app, ["check", "--rules", "2014-11-24", "--json"]).stdout)["summary"]
    assert summary["not_applicable"] > 0 and summary["failed"] == 0
    assert summary["passed"] + summary["not_applicable"] == summary["total"]


def test_a_file_whose_every_check_is_not_applicable_exits_1_nothing_checked(tmp_path: Path) -> None:
    """Try-out 53 D8: `kb check FILE --rules 2014-11-24` whose only check is n/a exited 0, as if the
    file had been verified; nothing was, and a judge running the file is told so."""
    disguised = tmp_path / "disguised.yaml"
    disguised.write_text("checks:\n  - name: disguised\n    ruling: y\n"
                         "    setup: {you: {battlefield: [{card: Dog Walker, face_down: disguise}]}}\n"
                         "    expect: {Dog Walker: {face_down: true}}\n")
    result = runner.invoke(app, ["check", "--rules", "2014-11-24", str(disguised)])
    assert result.exit_code == 1, result.output
    assert "1 check: 0 passed, 0 failed, 1 not applicable" in result.stdout
    assert "error: nothing checked: every check is n/a under the rules of 2014-11-24" in " ".join(result.stderr.split())
    as_json = runner.invoke(app, ["check", "--json", "--rules", "2014-11-24", str(disguised)])
    assert as_json.exit_code == 1 and json.loads(as_json.stdout)["summary"]["nothing_checked"] is True
    # under rules that have disguise the same file is checked, and passes
    now = runner.invoke(app, ["check", "--json", "--rules", "2026-01-16", str(disguised)])
    assert now.exit_code == 0 and json.loads(now.stdout)["summary"]["nothing_checked"] is False, now.output


def test_a_rules_date_before_every_cr_of_the_corpus_is_refused() -> None:
    """`kb check --rules 2013-01-01` ran the checks under rules the corpus has no CR for and
    reported failures; `kb rule --at` refuses such a date, and so does `kb check` now."""
    result = runner.invoke(app, ["check", "--rules", "2013-01-01"])
    assert result.exit_code == 1
    assert "no CR in the corpus was in force on 2013-01-01; the oldest is 2014-09-25" in " ".join(result.output.split())


def test_rules_date_in_the_corpus_gap_says_newer_rules_may_have_been_in_force() -> None:
    """Try-out 17: `kb check --rules 2023-01-01` ran under the CR of 2018-07-13 without a word."""
    result = runner.invoke(app, ["check", "--rules", "2023-01-01", str(CHECKS / "forms.yaml")])
    assert "the KB has no CR between 2018-07-13 and 2024-02-02" in " ".join(result.output.split())
    data = json.loads(runner.invoke(app, ["check", "--json", "--rules", "2023-01-01", str(CHECKS / "forms.yaml")]).output)
    assert (data["rules_gap"]["used"], data["rules_gap"]["next"]) == ("2018-07-13", "2024-02-02")
    now = json.loads(runner.invoke(app, ["check", "--json", "--rules", "2026-02-01", str(CHECKS / "forms.yaml")]).output)
    assert now["rules_gap"] is None
    # long after the newest CR: later CRs may have been in force (tryout31 #6, as `kb rule --at`)
    late = json.loads(runner.invoke(app, ["check", "--json", "--rules", "2099-01-01", str(CHECKS / "forms.yaml")]).output)
    assert (late["rules_gap"]["used"], late["rules_gap"]["next"]) == ("2026-01-16", None)
    assert "the KB's newest CR is of 2026-01-16" in late["rules_gap"]["note"]


# ---- tryout22 item 12: the docs' examples run as written ------------------------------------------


def _docs_yaml_block(first_line: str) -> str:
    """The fenced YAML example of docs/CHECKS.md that starts with `first_line`."""
    import re

    doc = (CHECKS.parent.parent / "docs" / "CHECKS.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```yaml\n(.*?)```", doc, re.S) if b.startswith(first_line)]
    return block


def test_the_check_example_of_the_docs_loads_and_passes(tmp_path: Path, built_home: Path, monkeypatch) -> None:
    """A new user copies it first: it must load with no problem, attach to its ruling, and pass."""
    monkeypatch.setenv("KB_HOME", str(built_home))
    example = tmp_path / "example.yaml"
    example.write_text(_docs_yaml_block("checks:\n"), encoding="utf-8")
    result = runner.invoke(app, ["check", "--json", str(example)])
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data.get("problems", []) == [], result.output
    assert [(c["id"], c["passed"], c["entry"]) for c in data["checks"]] == [
        ("example/turning-face-up-no-etb", True, "r-09dd1f3383")]


def test_the_card_example_of_the_docs_loads_with_no_problem() -> None:
    from kb.checks.scenario import parse_checks
    from kb.corpus import Corpus

    checks, problems = parse_checks(_docs_yaml_block("cards:\n") + "checks: []\n", "example.yaml",
                                    Corpus.default().cards)
    assert checks == [] and problems == []


def test_a_checks_own_rules_date_before_every_cr_runs_with_a_note(tmp_path: Path) -> None:
    """Try-out 22: `rules: 2009-10-01` on a check ran silently, where `--rules 2009-10-01` is refused."""
    early = tmp_path / "early.yaml"
    early.write_text("checks:\n  - name: old\n    ruling: y\n    rules: 2009-10-01\n"
                     "    setup: {you: {battlefield: [{card: Stratus Dancer, face_down: morph}]}}\n"
                     "    expect: {Stratus Dancer: {power: 2}}\n"
                     "  - name: new\n    ruling: y\n    rules: 2015-01-23\n"
                     "    setup: {you: {battlefield: [{card: Stratus Dancer, face_down: morph}]}}\n"
                     "    expect: {Stratus Dancer: {power: 2}}\n")
    flat = " ".join(runner.invoke(app, ["check", str(early)]).output.split())
    assert ("note: no CR in the corpus was in force on 2009-10-01; the oldest is 2014-09-25: the model ran with its "
            "rules, less the mechanics that came after 2009-10-01.") in flat
    checks = json.loads(runner.invoke(app, ["check", "--json", str(early)]).output)["checks"]
    assert [(c["id"], c["rules_gap"] and c["rules_gap"]["used"]) for c in checks] == [
        ("early/old", "2014-09-25"), ("early/new", None)]


FORMS = ("form-keeps-enchanting-when-turned-face-up", "form-with-empty-library-goes-to-graveyard",
         "form-manifests-even-if-it-left")


@pytest.mark.parametrize("target, ids", [
    ("face-down/reveal-when-leaving-game", ["face-down/reveal-when-leaving-game"]),
    ("forms/", ["forms/" + n for n in FORMS]),
    ("forms", ["forms/" + n for n in FORMS]),
])
def test_a_check_id_or_its_file_stem_is_a_target(target: str, ids: list[str]) -> None:
    """Try-out 22: `kb check face-down/reveal-when-leaving-game` (an id `kb check` prints) was refused."""
    result = runner.invoke(app, ["check", "--json", target])
    assert result.exit_code == 0, result.output
    assert sorted(c["id"] for c in json.loads(result.stdout)["checks"]) == sorted(ids)


def test_an_unknown_check_id_says_where_the_ids_are_listed() -> None:
    result = runner.invoke(app, ["check", "face-down/no-such-check"])
    assert result.exit_code == 1
    assert "no check 'face-down/no-such-check': `kb check` prints the check ids" in " ".join(result.output.split())


def test_two_files_of_one_stem_in_two_folders_clash_as_a_problem(tmp_path: Path) -> None:
    text = "checks:\n  - name: same\n    ruling: y\n    expect: {stack: 0}\n"
    (tmp_path / "sub").mkdir()
    (tmp_path / "dup.yaml").write_text(text)
    (tmp_path / "sub" / "dup.yaml").write_text(text)
    result = runner.invoke(app, ["check", "--json", str(tmp_path)])
    data = json.loads(result.stdout)
    assert result.exit_code == 1
    assert [p for p in data["problems"] if "sub/dup.yaml:2: check id 'dup/same' is also the id of the check at" in p
            and p.endswith("dup.yaml:2: rename one file or check")]

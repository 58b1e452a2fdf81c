"""`kb check` on the command line: exit codes, JSON, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

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
    assert data["summary"] == {"total": 3, "passed": 3, "failed": 0}
    assert set(data["checks"][0]) == {"id", "entry", "file", "passed", "failures"}


def test_failing_check_exits_1() -> None:
    result = runner.invoke(app, ["check", "--rules", "2014-11-24", "--json", str(CHECKS / "face-down.yaml")])
    assert result.exit_code == 1
    assert json.loads(result.output)["summary"]["failed"] >= 1


def test_bad_rules_date_is_one_line_error() -> None:
    result = runner.invoke(app, ["check", "--rules", "yesterday"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "invalid rules date" in result.output


def test_malformed_check_file_is_reported_with_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("checks:\n  - name: x\n    ruling: y\n    actions:\n      - summon: you\n    expect: {stack: 0}\n")
    result = runner.invoke(app, ["check", str(bad)])
    assert result.exit_code == 1 and "bad.yaml:5" in result.output and "unknown action" in result.output

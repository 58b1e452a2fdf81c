"""`kb rule N` lists the rulings linked to a clause: those whose first link it is, then, under a line
that says so, those that link it only after another clause (tryout31 #1: `kb rule 708.2b` listed 11
"linked rulings" of which one was about 708.2b, with nothing telling the strong from the weak)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app

runner = CliRunner()
FURTHER = "only after another clause"


@pytest.fixture()
def built(built_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KB_HOME", str(built_home))
    monkeypatch.setenv("COLUMNS", "200")
    return built_home


def _ranks(lines: list[str]) -> list[int]:
    return [int(m.group(1)) for line in lines if (m := re.match(r"r-\w+\s+#(\d+) score", line))]


def test_the_rulings_a_clause_is_only_a_further_link_of_are_listed_apart(built: Path) -> None:
    result = runner.invoke(app, ["rule", "708.2b", "--limit", "0"])
    assert result.exit_code == 0, result.output
    lines = result.output.split("Rulings linked to 708.2b")[1].splitlines()
    ranks = _ranks(lines)
    assert 1 in ranks and any(r > 1 for r in ranks), ranks  # the bundled corpus has both kinds
    said = next(i for i, line in enumerate(lines) if FURTHER in line)
    assert set(_ranks(lines[:said])) == {1} and min(_ranks(lines[said:])) > 1


def test_a_list_of_first_links_only_has_no_such_line(built: Path) -> None:
    result = runner.invoke(app, ["rule", "708.2b", "--limit", "1"])
    assert result.exit_code == 0, result.output
    assert _ranks(result.output.splitlines()) == [1] and FURTHER not in result.output


def test_a_linked_wording_kb_outdated_lists_is_marked(built: Path) -> None:
    """tryout31 #5: `kb rule` showed outdated wordings (an obsolete term, an old rule number, a replaced
    wording's translation) with no mark, where `kb card` and `kb search` mark them."""
    result = runner.invoke(app, ["rule", "708.2a", "--limit", "0"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    old = [part for part in text.split("score")[1:] if "converted mana cost" in part]
    assert old, "the bundled corpus has a 708.2a ruling saying 'converted mana cost'"
    assert all("`kb outdated` lists this wording: terminology" in part for part in old)
    assert not any("`kb outdated` lists" in part for part in text.split("score")[1:] if part not in old)

"""`kb search --rule N` where N numbered another rule in older CRs (tryout31 #8): the meaning whose rulings
answer the question is searched, and the output says so above the hits."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from kb.corpus import Corpus
from kb.model import Entry, Kind
from kb.search.filters import Filters
from kb.search.rank import Hit
from kb.search.rule_meaning import search_rule_meanings
from kb.model import Lang

runner = CliRunner()


@dataclass
class StubSearcher:
    """Hits per --rule number, each with the score the real search would rank it by."""

    best: dict[str, float]

    def search(self, question: str, *, limit: int, filters: Filters) -> list[Hit]:
        score = self.best.get(filters.rule or "")
        if score is None:
            return []
        entry = Entry(f"r-{filters.rule}", Kind.RULING, "text", (), None, None, ())
        return [Hit(entry, score, Lang.EN, "text")][:limit]


@pytest.mark.parametrize("best, read", [
    ({"707.5": 0.013, "708.5": 0.25}, "708.5"),  # the face-down rulings answer: read as the old 707.5
    ({"707.5": 0.3, "708.5": 0.25}, "707.5"),  # today's copy rulings answer: today's 707.5
    ({"707.5": 0.25, "708.5": 0.25}, "707.5"),  # a tie: today's
    ({"708.5": 0.1}, "708.5"),  # today's 707.5 has no hit at all
    ({"707.5": 0.1}, "707.5"),
])
def test_the_meaning_whose_best_hit_scores_highest_is_read(best: dict[str, float], read: str) -> None:
    rules = Corpus.default().rules
    found = search_rule_meanings(StubSearcher(best), rules, "q", limit=3, filters=Filters(rule="707.5"))  # type: ignore[arg-type]
    assert (found.read, [h.entry.id for h in found.hits]) == (read, [f"r-{read}"])
    assert (found.note is None) == (read == "707.5")
    if found.note:
        assert found.note.startswith("--rule 707.5 read as the rule it numbered in the CRs of 2014-09-25 to "
                                     "2018-07-13, now 708.5: its rulings answer the question better")


def test_a_number_that_never_meant_another_rule_is_searched_once() -> None:
    rules = Corpus.default().rules
    found = search_rule_meanings(StubSearcher({"708.9": 0.01, "707.9": 0.5}), rules, "q", limit=3,  # type: ignore[arg-type]
                                 filters=Filters(rule="708.9"))
    assert found.read == "708.9" and found.note is None


def test_search_by_an_old_face_down_number_shows_the_face_down_rulings_and_says_so(built_home: Path,
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The try-out's command: three copy rulings at 0.01, the pointer to 708.5 only on stderr."""
    monkeypatch.setenv("KB_HOME", str(built_home))
    result = runner.invoke(app, ["search", "Can I look at my face-down creature?", "--rule", "707.5", "-k", "3"])
    assert result.exit_code == 0, result.output
    flat = " ".join(result.stdout.split())
    assert flat.startswith("note: --rule 707.5 read as the rule it numbered in the CRs of 2014-09-25 to 2018-07-13, "
                           "now 708.5")
    hits = json.loads(runner.invoke(app, ["search", "Can I look at my face-down creature?", "--rule", "707.5",
                                          "-k", "3", "--json"]).stdout)
    assert hits and all(any(r["clause"].startswith("708.5") for r in h["rules"]) for h in hits)

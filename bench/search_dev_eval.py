"""Search quality on the development split only (tuning; the test split is never read here).

    KB_HOME=... python bench/search_dev_eval.py [QUESTIONS.yaml ...] [--mode hybrid|dense|lexical]
                                                [--lang de] [--fail] [--set NAME=VALUE ...]

Top-1, top-3 and MRR per set and language, scored exactly as bench/search_quality.py scores them
(`answers_entry`, `right_ids`), on the KB in $KB_HOME as it is (build it with search_quality.py
first). `--fail` lists every dev question whose answer is not first with the best three hits (`*`
marks a right one); `--set` searches with other `kb.search.rank.Weights` (e.g. `--set local=0.1`),
so a weight's plateau is found without editing the code. About 80 s for both sets on 2 cores.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from search_quality import (DATA, DEPTH, DEFAULT_FILES, _rank, _scores, load_questions,  # noqa: E402
                            open_searcher, parse_weights, right_ids)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("questions", type=Path, nargs="*", default=list(DEFAULT_FILES))
    ap.add_argument("--mode", default="hybrid", choices=("hybrid", "dense", "lexical"))
    ap.add_argument("--lang", help="only the questions in this language")
    ap.add_argument("--fail", action="store_true", help="list the questions whose answer is not first")
    ap.add_argument("--set", nargs="+", default=[], metavar="NAME=VALUE", help="search with these Weights")
    args = ap.parse_args(argv)

    from kb import paths, store

    kb = store.load(paths.home())
    entries = list(kb.entries)
    searcher = open_searcher(kb)
    if args.set:
        searcher.weights = dataclasses.replace(searcher.weights, **parse_weights(args.set))
    ranks: dict[tuple[str, str], list[int | None]] = defaultdict(list)
    for path in args.questions:
        for q in load_questions(path if path.exists() else DATA / path):
            if q.split != "dev" or (args.lang and q.lang.value != args.lang):
                continue
            right = right_ids(q, entries)
            hits = searcher.search(q.question, limit=DEPTH, mode=args.mode)
            rank = _rank([h.entry.id for h in hits], right)
            ranks[q.source, q.lang.value].append(rank)
            ranks[q.source, "all"].append(rank)
            if args.fail and rank != 1:
                print(f"[{q.id} rank {rank or '-'}] {' '.join(q.question.split())[:300]}")
                for i, h in enumerate(hits[:3], 1):
                    mark = "*" if h.entry.id in right else " "
                    print(f"    {i}. {mark} {h.score:.3f} {h.entry.kind.value} {h.entry.clause or ''} {h.entry.text[:110]}")
    for (source, lang), rs in sorted(ranks.items()):
        s = _scores(rs)
        print(f"{source:34} {lang:4} n={s['n']:3}  top1 {s['top1']:.2f}  top3 {s['top3']:.2f}  mrr {s['mrr']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

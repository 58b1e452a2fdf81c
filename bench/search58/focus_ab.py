"""search58: A/B of one focus variant on the only dev questions it can move (bench/results/search58.md).

    git apply bench/search58/variants.diff     # the variants, each off by default
    KB_HOME=<copy> python bench/search58/focus_ab.py REFERENTS=True
    KB_HOME=<copy> python bench/search58/focus_ab.py UNMARKED=whole | UNMARKED=first | TITLE_WORDS=7 | SHORT_WORDS=40
    KB_HOME=<copy> python bench/search58/focus_ab.py --weights story=0.5     # a Weights change, story questions only

A focus variant changes a question's ranking only through its asking part, so a question whose `focus()` is the
same both ways ranks the same: only the others are searched (both ways), which takes a minute where the full
`search_dev_eval.py --fail` takes many on a loaded machine. The dev sets are search_dev_eval's and the try-out dev
split. Prints each such question's rank before -> after (10 deep, `-` below), WON / LOST.
"""

from __future__ import annotations

import ast
import dataclasses
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for p in (ROOT, ROOT / "bench"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import kb.search.focus as F  # noqa: E402
from search_dev_eval import DEV_FILES  # noqa: E402
from search_quality import DATA, DEPTH, _rank, load_questions, open_searcher, parse_weights, right_ids  # noqa: E402


def main(argv: list[str]) -> int:
    weights = argv[:1] == ["--weights"]
    name, _, value = argv[-1].partition("=")
    files = dict.fromkeys([*DEV_FILES, DATA / "tryout_dev_questions.yaml"])
    questions = [q for p in files for q in load_questions(p) if q.split == "dev"]
    if weights:
        moved = [q for q in questions if F.focus(" ".join(q.question.split())).is_story]
    else:
        before, after = getattr(F, name), ast.literal_eval(value) if value[:1].isdigit() or value in ("True", "False") else value
        def asked(q, v):
            setattr(F, name, v)
            return F.focus(" ".join(q.question.split()))
        moved = [q for q in questions if asked(q, before) != asked(q, after)]
    print(f"{len(moved)} dev questions can move", flush=True)
    from kb import paths, store
    kb = store.load(paths.home())
    entries = list(kb.entries)
    searcher = open_searcher(kb, False)
    base = searcher.weights
    won = lost = 0
    for q in moved:
        right = right_ids(q, entries)
        ranks = []
        for side in (0, 1):
            if weights:
                searcher.weights = base if side == 0 else dataclasses.replace(base, **parse_weights(argv[1:]))
            else:
                setattr(F, name, before if side == 0 else after)
            ranks.append(_rank([h.entry.id for h in searcher.search(q.question, limit=DEPTH)], right))
        a, b = ranks[0] or 99, ranks[1] or 99
        won += b < a
        lost += b > a
        tag = "WON" if b < a else "LOST" if b > a else ""
        print(f"{q.source:34} {q.id:14} {ranks[0] or '-':>3} -> {ranks[1] or '-':>3} {tag}", flush=True)
    print(f"won {won}, lost {lost}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Search quality on the development split only (tuning; the test split is never read here).

    KB_HOME=... python bench/search_dev_eval.py [QUESTIONS.yaml ...] [--mode hybrid|dense|lexical]
                                                [--lang de] [--fail] [--ranks] [--set NAME=VALUE ...]

Top-1, top-3 and MRR per set and language, scored exactly as bench/search_quality.py scores them
(`answers_entry`, `right_ids`), on the KB in $KB_HOME as it is (build it with search_quality.py
first). `--fail` lists every dev question whose answer is not first with the best three hits (`*`
marks a right one); `--set` searches with other `kb.search.rank.Weights` (e.g. `--set local=0.1`),
so a weight's plateau is found without editing the code. About 80 s for both sets on 2 cores.
`--ranks` tells where each dev question's answer ranks down to RANK_DEPTH: among all entries (hybrid)
and among the CR's clauses alone (hybrid, e5 only, BM25 only), with how many fall within 1, 3, 10 and
50 in each column; whether a miss is the fusion's or the retrieval's shows there. Four searches a
question: slower.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from search_quality import (DATA, DEPTH, DEFAULT_FILES, _rank, _scores, load_questions,  # noqa: E402
                            open_searcher, parse_weights, right_ids)


# the dev sets: search_quality's files (their dev splits) and the sets that are dev only, which
# search_quality.py does not read (judge_questions_fresh2, _fresh3: written by search46b, search47 before any
# search on them; judge_questions_oracle: interactions the named cards' Oracle texts decide, by search47b, the same way;
# judge_questions_fresh4: a face-down object and a second, general idea, by search50c the same way;
# judge_questions_general_rule: a general timing or processing rule beside a keyword, format or card, by search51c;
# judge_questions_fresh5: what a face-down object lacks or turning it face up does not do, by search51b the same way;
# judge_questions_parallel: dev questions worded in all three languages, same labels, by search51d for issue 14;
# judge_questions_faceup_acts: whether turning face up counts as casting, entering or attacking, by search53a;
# judge_questions_zone_rule: a basic zone, target or combat rule decides (400.7, 506.4, 603.3d, 400.3...), by search53b
# the same way; judge_questions_facedown_meets: a face-down object meets another rule (copy, mutate, colour, SBA
# timing, cloak turned up, Auras, counters, control change), by search55 the same way; judge_questions_named_cards: two
# named cards, one the actor and one incidental, and a named card whose type decides (split, double-faced, a manifested
# instant or land), by search57 the same way; judge_questions_one_clause: a general table question whose answer is one
# CR clause (timing, priority, targets, SBAs, combat, costs, triggers, modes, control, zones), by search56 the same way;
# judge_questions_facedown_said: face-down rulings asked in players' words (bounced and revealed, cast for free,
# colour words, a face-down spell's mana value), by search59 and the lead the same way)
DEV_FILES = (*DEFAULT_FILES, DATA / "judge_questions_fresh2.yaml", DATA / "judge_questions_fresh3.yaml",
             DATA / "judge_questions_oracle.yaml", DATA / "judge_questions_fresh4.yaml",
             DATA / "judge_questions_general_rule.yaml", DATA / "judge_questions_fresh5.yaml",
             DATA / "judge_questions_parallel.yaml", DATA / "judge_questions_faceup_acts.yaml",
             DATA / "judge_questions_zone_rule.yaml", DATA / "judge_questions_facedown_meets.yaml",
             DATA / "judge_questions_named_cards.yaml", DATA / "judge_questions_one_clause.yaml",
             DATA / "judge_questions_facedown_said.yaml")
RANK_DEPTH = 100  # how deep `--ranks` looks for an answer
# (column, kind filter, mode) of `--ranks`: all entries, then the CR's clauses alone three ways
RANK_COLUMNS = (("all", None, "hybrid"), ("rules", "rule", "hybrid"), ("rules e5", "rule", "dense"),
                ("rules bm25", "rule", "lexical"))
RANK_CUTS = (1, 3, 10, 50)


def answer_ranks(searcher: Any, question: str, right: set[str], depth: int = RANK_DEPTH) -> dict[str, int | None]:
    """Per `RANK_COLUMNS` column: the 1-based rank of the first right entry within `depth`, else None."""
    out: dict[str, int | None] = {}
    for column, kind, mode in RANK_COLUMNS:
        kw = {"kind": kind} if kind else {}
        hits = searcher.search(question, limit=depth, mode=mode, **kw)
        out[column] = _rank([h.entry.id for h in hits], right)
    return out


def rank_summary(rows: Sequence[dict[str, int | None]]) -> list[str]:
    """One line per column: how many answers rank within each of `RANK_CUTS`."""
    lines = []
    for column, _, _ in RANK_COLUMNS:
        within = [sum(1 for r in rows if r[column] is not None and r[column] <= cut) for cut in RANK_CUTS]
        cuts = "  ".join(f"<={cut} {n:3}" for cut, n in zip(RANK_CUTS, within))
        lines.append(f"{column:11} n={len(rows):3}  {cuts}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("questions", type=Path, nargs="*", default=list(DEV_FILES))
    ap.add_argument("--mode", default="hybrid", choices=("hybrid", "dense", "lexical"))
    ap.add_argument("--lang", help="only the questions in this language")
    ap.add_argument("--fail", action="store_true", help="list the questions whose answer is not first")
    ap.add_argument("--ranks", action="store_true",
                    help="where each answer ranks: all entries and the CR's clauses alone (hybrid, e5, BM25)")
    ap.add_argument("--set", nargs="+", default=[], metavar="NAME=VALUE", help="search with these Weights")
    ap.add_argument("--allow-library", action="store_true",
                    help="evaluate a KB whose library holds more than the bundled corpus")
    args = ap.parse_args(argv)

    from kb import paths, store

    kb = store.load(paths.home())
    entries = list(kb.entries)
    searcher = open_searcher(kb, args.allow_library)
    if args.set:
        searcher.weights = dataclasses.replace(searcher.weights, **parse_weights(args.set))
    ranks: dict[tuple[str, str], list[int | None]] = defaultdict(list)
    where: dict[str, list[dict[str, int | None]]] = defaultdict(list)
    for path in args.questions:
        for q in load_questions(path if path.exists() else DATA / path):
            if q.split != "dev" or (args.lang and q.lang.value != args.lang):
                continue
            right = right_ids(q, entries)
            hits = searcher.search(q.question, limit=DEPTH, mode=args.mode)
            rank = _rank([h.entry.id for h in hits], right)
            ranks[q.source, q.lang.value].append(rank)
            ranks[q.source, "all"].append(rank)
            if args.ranks:
                row = answer_ranks(searcher, q.question, right)
                where[q.source].append(row)
                print(f"[{q.id}] " + "  ".join(f"{c} {r or '-'}" for c, r in row.items()))
            if args.fail and rank != 1:
                print(f"[{q.id} rank {rank or '-'}] {' '.join(q.question.split())[:300]}")
                for i, h in enumerate(hits[:3], 1):
                    mark = "*" if h.entry.id in right else " "
                    print(f"    {i}. {mark} {h.score:.3f} {h.entry.kind.value} {h.entry.clause or ''} {h.entry.text[:110]}")
    for (source, lang), rs in sorted(ranks.items()):
        s = _scores(rs)
        print(f"{source:34} {lang:4} n={s['n']:3}  top1 {s['top1']:.2f}  top3 {s['top3']:.2f}  mrr {s['mrr']:.2f}")
    for source, rows in sorted(where.items()):
        for line in rank_summary(rows):
            print(f"{source:34} {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

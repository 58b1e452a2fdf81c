"""Search quality on the development split of the judge questions (tuning only; never the test split).

    KB_HOME=... python bench/search_dev_eval.py QUESTIONS.yaml [--mode hybrid|dense|lexical] [--fail]

Answers (any one counts): {quote, card?} an entry of kind ruling one of whose English wordings contains
the quote (and lists the card), or {clause} a rule entry for that clause or a ruling whose top link is it.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import yaml

from kb import paths, store
from kb.model import Kind, Lang
from kb.search import Searcher


def is_answer(entry, answers) -> bool:
    english = [entry.text] + [v.text for v in entry.variants if v.lang is Lang.EN]
    for a in answers:
        if "quote" in a:
            if entry.kind is Kind.RULING and any(a["quote"].casefold() in t.casefold() for t in english):
                if not a.get("card") or a["card"] in entry.cards:
                    return True
        elif "clause" in a:
            if entry.kind is Kind.RULE and entry.clause == a["clause"]:
                return True
            if entry.kind is Kind.RULING and entry.rules and max(entry.rules, key=lambda r: r.score).clause == a["clause"]:
                return True
    return False


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("questions", type=Path, nargs="+")
    ap.add_argument("--mode", default="hybrid")
    ap.add_argument("--fail", action="store_true")
    ap.add_argument("-k", type=int, default=10)
    args = ap.parse_args()
    kb = store.load(paths.home())
    searcher = Searcher.load(kb.index_dir, kb.entries)
    stats: dict[str, list[int]] = defaultdict(list)
    for path in args.questions:
        for q in yaml.safe_load(path.read_text(encoding="utf-8"))["questions"]:
            if q.get("split", "dev") != "dev":
                continue  # the test split is for reporting only, never looked at here
            hits = searcher.search(q["question"], limit=args.k, mode=args.mode)
            rank = next((i for i, h in enumerate(hits, 1) if is_answer(h.entry, q["answers"])), 0)
            stats[q["lang"]].append(rank)
            stats["all"].append(rank)
            if args.fail and rank != 1:
                print(f"[{q['id']} rank {rank or '-'}] {q['question'][:150]}")
                for i, h in enumerate(hits[:3], 1):
                    print(f"    {i}. {h.entry.kind.value} {h.entry.clause or ''} {h.entry.text[:110]}")
    for lang, ranks in stats.items():
        n = len(ranks)
        top1 = sum(r == 1 for r in ranks) / n
        top3 = sum(1 <= r <= 3 for r in ranks) / n
        mrr = sum(1 / r for r in ranks if r) / n
        print(f"{lang:4} n={n:3}  top1 {top1:.2f}  top3 {top3:.2f}  mrr {mrr:.2f}")


if __name__ == "__main__":
    sys.exit(main())

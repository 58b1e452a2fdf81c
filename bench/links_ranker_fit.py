"""Fit the links ranker (corpus/links-ranker.json) on the dev labels of tests/data/labelled_links_real.yaml.

    python bench/links_ranker_fit.py            # cross-validate, then refit on all dev and write the weights
    python bench/links_ranker_fit.py --check    # exit 1 unless the shipped weights are what a refit gives

A conditional logit (softmax over each ruling's `RANKER_POOL` best candidates, the features of
`kb.cr.links.FEATURES`), fitted by full-batch gradient descent from zero (deterministic), with an L2 penalty.
The penalty and the abstention threshold are chosen by leave-one-batch-out cross-validation over the dev
batches (dev-A ... dev-E); test labels are never read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import links_quality as lq  # noqa: E402

from kb.cr import links  # noqa: E402

DEV = lq.SPLITS[:-1]
L2 = (0.001, 0.01, 0.03, 0.1, 0.3, 1.0)
THRESHOLDS = tuple(round(t, 2) for t in np.arange(0.0, 1.01, 0.05))  # 1.0: the evidence rule alone
STEPS = 4000
RATE = 0.5


def groups(labels: list[dict[str, Any]], entries: list[Any]) -> list[dict[str, Any]]:
    """Per dev ruling found by its quote: its split, the feature rows of its candidates, which are labelled right."""
    out = []
    for item, quoted in lq._quoted(labels, entries):
        split = lq.split_of(item)
        if split not in DEV or len(quoted) != 1:
            continue
        entry = quoted[0]
        found = links.ruling_candidates(entry, lq.CORPUS.rules, lq.CORPUS.card_texts)
        sure = bool(links.choose_links(found)[0])  # the evidence rule links something
        text, card_texts = links.ranker_inputs(entry, lq.CORPUS.card_texts)
        pool = found[:links.RANKER_POOL]
        x = links.ranker_features(pool, text, card_texts, lq.CORPUS.rules)
        y = np.array([c.clause in item["clauses"] for c in pool], dtype=float)
        out.append({"split": split, "x": x, "y": y, "sure": sure, "labelled": bool(item["clauses"]),
                    "quote": item["quote"]})
    return out


def fit(train: list[dict[str, Any]], l2: float) -> np.ndarray:
    """Weights of the conditional logit on the rulings of `train` whose right clause is a candidate."""
    used = [g for g in train if g["labelled"] and g["y"].sum() > 0]
    x = np.vstack([g["x"] for g in used])
    target = np.concatenate([g["y"] / g["y"].sum() for g in used])
    starts = np.cumsum([0] + [len(g["y"]) for g in used[:-1]])
    group = np.repeat(np.arange(len(used)), [len(g["y"]) for g in used])
    w = np.zeros(x.shape[1])
    for _ in range(STEPS):
        s = x @ w
        s = s - np.maximum.reduceat(s, starts)[group]
        e = np.exp(s)
        p = e / np.add.reduceat(e, starts)[group]
        grad = x.T @ (p - target) / len(used) + l2 * w
        w -= RATE * grad
    return w


def outcomes(test: list[dict[str, Any]], w: np.ndarray, threshold: float) -> tuple[int, int]:
    """(labelled rulings whose linked first clause is right, `[]` rulings abstained on)."""
    right = none = 0
    for g in test:
        if not len(g["y"]):
            none += not g["labelled"]
            continue
        s = g["x"] @ w
        p = np.exp(s - s.max())
        p /= p.sum()
        best = int(np.argmax(p))  # first of equals: the hand-set order
        links_it = g["sure"] or p[best] >= threshold
        right += bool(g["labelled"] and links_it and g["y"][best] > 0)
        none += bool(not g["labelled"] and not links_it)
    return right, none


def choose(train: list[dict[str, Any]]) -> tuple[float, float]:
    """The L2 penalty and threshold with the most right links plus `[]` abstentions (each ruling counts once: a
    right first link or, for a `[]` ruling, no link), left out batch by left out batch within `train` (ties: the
    stronger penalty, the higher threshold)."""
    splits = sorted({g["split"] for g in train})
    total: dict[tuple[float, float], int] = {}
    for l2 in L2:
        for held in splits:
            w = fit([g for g in train if g["split"] != held], l2)
            test = [g for g in train if g["split"] == held]
            for t in THRESHOLDS:
                total[(l2, t)] = total.get((l2, t), 0) + sum(outcomes(test, w, t))
    return max(total, key=lambda k: (total[k], k[0], k[1]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--labels", type=Path, default=ROOT / "tests" / "data" / "labelled_links_real.yaml")
    ap.add_argument("--out", type=Path, default=ROOT / "corpus" / "links-ranker.json")
    ap.add_argument("--check", action="store_true", help="compare a refit with --out instead of writing it")
    ap.add_argument("--cv", action="store_true",
                    help="also print the nested leave-one-batch-out estimate per batch (L2 and threshold chosen on the "
                         "other batches)")
    args = ap.parse_args(argv)
    labels = yaml.safe_load(args.labels.read_text(encoding="utf-8"))
    data = groups(labels, lq.corpus_entries(overrides=False, ranker=False))  # the candidates need no links
    if args.cv:
        for held in DEV:
            train = [g for g in data if g["split"] != held]
            l2, t = choose(train)
            test = [g for g in data if g["split"] == held]
            w = fit(train, l2)
            right, none = outcomes(test, w, t)
            print(f"{held}: L2 {l2}, threshold {t}: top-1 {right}/{sum(g['labelled'] for g in test)}, "
                  f"`[]` abstained {none}/{sum(not g['labelled'] for g in test)}; never abstaining: top-1 "
                  f"{outcomes(test, w, 0.0)[0]}; the hand-set order's first: "
                  f"{sum(bool(g['labelled'] and len(g['y']) and g['y'][0] > 0) for g in test)}")
    l2, threshold = choose(data)
    w = fit(data, l2)
    ranker = links.Ranker(links.FEATURES, tuple(float(v) for v in w), threshold,
                          f"bench/links_ranker_fit.py: conditional logit over each ruling's {links.RANKER_POOL} best "
                          f"candidates, {sum(g['labelled'] for g in data)} labelled dev rulings "
                          f"({', '.join(DEV)}), L2 {l2}, {STEPS} gradient steps of {RATE} from zero; L2 and threshold "
                          f"by leave-one-batch-out over the dev batches")
    text = ranker.to_json()
    if args.check:
        same = args.out.is_file() and args.out.read_text(encoding="utf-8") == text
        print("the shipped weights are a refit's" if same else f"{args.out} differs from a refit")
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

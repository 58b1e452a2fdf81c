"""Fit the learned second stage of `kb search` (kb/search/rerank.json) on the dev questions only.

    KB_HOME=... python bench/fit_rerank.py --collect      # search every dev question, write the features
    python bench/fit_rerank.py --cv                        # cross-validate the candidate models (no KB)
    python bench/fit_rerank.py --write                     # refit the chosen model, write rerank.json

`--collect` asks the hybrid (before the learned stage) for the best K candidates of every dev question
of `search_quality.DEFAULT_FILES` and their `kb.search.rerank.FEATURES` rows, marks the right ones
(`right_ids`), and stores them in `bench/data/rerank_dev.npz` (the test split is never read). The
fit needs no KB after that, so the shipped weights are reproducible from that file
(tests/test_search_rerank.py refits them).

The model: a conditional logit (softmax over one question's candidates, the right ones' share the
likelihood; L2 on standardised features), fitted by Newton's method: deterministic. Questions whose
answer is not among the K candidates teach nothing and are left out of the fit (they count as misses in
the figures). `--cv` scores each (feature set, L2) of `CONFIGS` x `L2S` by leave-one-round-out
cross-validation: a fold is a round of written questions (judge dev, s7, fx, s8 .. s11: each round's
questions are one question in three languages, so its translations are held out together) or one of
the real sets; the hybrid order is the baseline on the same folds. `--write` fits the chosen
(`CHOSEN`) on every dev question.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from kb.search.rerank import FEATURES, RERANK_FILE, Reranker  # noqa: E402

DUMP = ROOT / "bench" / "data" / "rerank_dev.npz"
K = 40  # candidates the stage reorders: every dev answer the hybrid finds ranks within 50, most within 10

# Feature sets tried (names of FEATURES); the hybrid's own order is in each, so a model can keep it.
CONFIGS: dict[str, tuple[str, ...]] = {
    "order": ("fused", "fused_rank"),
    "components": ("fused", "fused_rank", "dense", "dense_rank", "lexical", "lexical_rank", "local"),
    "kinds": ("fused", "fused_rank", "named_card", "named_card_story", "other_card", "rule", "rule_asked",
              "rule_story", "cards"),
    "overlap": ("fused", "fused_rank", "concepts", "words", "linked", "bigrams", "length"),
    "all": FEATURES,
}
L2S = (1.0, 10.0, 30.0, 100.0)
TOPS = (3, 10, 40)  # how many of the K candidates a model reorders (and is fitted on)
# (feature set, L2, top, fit) written by --write: the best of `--cv` on cross-validated dev top-1, then
# top-3 (bench/results/search_dev.md, search12): none beat the hybrid's own order at top-1.
CHOSEN = ("components", 30.0, 10, "listwise")


def round_of(qid: str, source: str) -> str:
    """The fold a dev question is held out in (see the module's docstring)."""
    if source.startswith("judge_questions_fresh"):
        return qid.split("-")[0]
    if source.startswith("judge_questions"):
        return "judge-s7" if "-s7-" in qid else "judge"
    return source


def collect(k: int = K) -> dict[str, np.ndarray]:
    """Every dev question's candidates on the KB in $KB_HOME: features, right marks, pointers."""
    import dataclasses

    from kb import paths, store
    from search_quality import DEFAULT_FILES, load_questions, open_searcher, right_ids

    kb = store.load(paths.home())
    entries = list(kb.entries)
    searcher = open_searcher(kb)
    searcher.weights = dataclasses.replace(searcher.weights, rerank=False)
    xs, ys, ptr, ids, folds, langs, sources = [], [], [0], [], [], [], []
    for path in DEFAULT_FILES:
        for q in load_questions(path):
            if q.split != "dev":
                continue
            right = right_ids(q, entries)
            cand, x = searcher.candidate_features(q.question, k)
            xs.append(x)
            ys.append(np.array([c in right for c in cand], dtype=bool))
            ptr.append(ptr[-1] + len(cand))
            ids.append(q.id)
            folds.append(round_of(q.id, q.source))
            langs.append(q.lang.value)
            sources.append(q.source)
    return {"x": np.concatenate(xs).astype(np.float32), "y": np.concatenate(ys), "ptr": np.array(ptr),
            "ids": np.array(ids), "folds": np.array(folds), "langs": np.array(langs),
            "sources": np.array(sources), "features": np.array(FEATURES), "k": np.array(k)}


def load_dump(path: Path = DUMP) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as data:
        out = {name: data[name] for name in data.files}
    if tuple(out["features"].tolist()) != FEATURES:
        raise SystemExit(f"{path} holds other features than kb.search.rerank.FEATURES: run --collect")
    return out


def _loss(z: np.ndarray, y: np.ndarray, groups: Sequence[tuple[int, int]], coef: np.ndarray, l2: float) -> float:
    """-log likelihood of the right rows (each question's softmax) + l2 / 2 |coef|^2."""
    total = 0.5 * l2 * float(coef @ coef)
    for a, b in groups:
        s = z[a:b] @ coef
        top = s.max()
        total -= np.log(np.exp(s[y[a:b]] - top).sum()) - np.log(np.exp(s - top).sum())
    return total


def fit(x: np.ndarray, y: np.ndarray, groups: Sequence[tuple[int, int]], l2: float,
        iterations: int = 30) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mean, scale, coef) of the conditional logit on `groups` (row ranges, one per question; only
    those with a right row count), L2 `l2` on the standardised coefficients; Newton's method (the
    softmax's covariance as the curvature) with a halving step, from zero: deterministic."""
    x = np.asarray(x, dtype=np.float64)
    used = [(a, b) for a, b in groups if y[a:b].any()]
    rows = np.concatenate([np.arange(a, b) for a, b in used]) if used else np.zeros(0, dtype=np.int64)
    mean = x[rows].mean(axis=0) if len(rows) else np.zeros(x.shape[1])
    scale = x[rows].std(axis=0) if len(rows) else np.ones(x.shape[1])
    scale = np.where(scale > 1e-9, scale, 1.0)
    z = (x - mean) / scale
    coef = np.zeros(x.shape[1])
    loss = _loss(z, y, used, coef, l2)
    for _ in range(iterations):
        grad = l2 * coef
        hess = l2 * np.eye(len(coef))
        for a, b in used:
            zq, pos = z[a:b], y[a:b]
            s = zq @ coef
            p = np.exp(s - s.max())
            p /= p.sum()
            r = np.where(pos, np.exp(s - s[pos].max()), 0.0)
            r /= r.sum()  # the right rows' shares of their likelihood
            mu_p, mu_r = p @ zq, r @ zq
            grad -= mu_r - mu_p
            # Cov_p(z): the Hessian with one right row; with several, the exact one (less Cov_r(z))
            # need not be positive definite, this one is and still gives a descent direction
            hess += (zq * p[:, None]).T @ zq - np.outer(mu_p, mu_p)
        try:
            step = np.linalg.solve(hess, grad)
        except np.linalg.LinAlgError:
            step = grad
        t = 1.0
        while t > 1e-6:
            new = coef - t * step
            new_loss = _loss(z, y, used, new, l2)
            if new_loss <= loss:
                break
            t /= 2
        else:
            break
        done = loss - new_loss < 1e-10
        coef, loss = new, new_loss
        if done:
            break
    return mean, scale, coef


def fit_pairs(x: np.ndarray, y: np.ndarray, groups: Sequence[tuple[int, int]], l2: float,
              iterations: int = 30) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mean, scale, coef) of a pairwise logistic model: the first right row of each question over
    each wrong row of it (`groups`), L2 `l2` on the standardised coefficients; Newton's method."""
    x = np.asarray(x, dtype=np.float64)
    rows = np.concatenate([np.arange(a, b) for a, b in groups])
    mean, scale = x[rows].mean(axis=0), x[rows].std(axis=0)
    scale = np.where(scale > 1e-9, scale, 1.0)
    z = (x - mean) / scale
    diffs = [z[a + int(np.flatnonzero(y[a:b])[0])] - z[a:b][~y[a:b]] for a, b in groups if y[a:b].any()]
    d = np.concatenate(diffs) if diffs else np.zeros((0, x.shape[1]))
    coef = np.zeros(x.shape[1])
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(d @ coef)))
        grad = l2 * coef - d.T @ (1.0 - p)
        hess = (d * (p * (1.0 - p))[:, None]).T @ d + l2 * np.eye(len(coef))
        step = np.linalg.solve(hess, grad)
        coef -= step
        if np.abs(step).max() < 1e-10:
            break
    return mean, scale, coef


FITS = {"listwise": fit, "pairwise": fit_pairs}


def first_right(scores: np.ndarray, right: np.ndarray) -> int | None:
    """1-based rank of the first right row when rows are ordered by `scores` (stable), else None."""
    order = np.argsort(-scores, kind="stable")
    hit = np.flatnonzero(right[order])
    return int(hit[0]) + 1 if len(hit) else None


def cv_ranks(dump: dict[str, np.ndarray], names: Sequence[str], l2: float, top: int | None = None,
             how: str = "listwise") -> list[int | None]:
    """Per dev question: the rank of its answer when the model (`how`, fitted on every other fold)
    reorders its first `top` candidates (all K when None)."""
    x = dump["x"][:, [FEATURES.index(f) for f in names]].astype(np.float64)
    y, ptr, folds = dump["y"], dump["ptr"], dump["folds"]
    top = top or int(dump["k"])
    ranks: list[int | None] = [None] * len(folds)
    for fold in sorted(set(folds.tolist())):
        held = [(int(ptr[q]), int(min(ptr[q + 1], ptr[q] + top))) for q in np.flatnonzero(folds != fold)]
        mean, scale, coef = FITS[how](x, y, held, l2)
        for q in np.flatnonzero(folds == fold):
            a, b = int(ptr[q]), int(ptr[q + 1])
            c = min(b, a + top)
            scores = np.concatenate([((x[a:c] - mean) / scale) @ coef, -1e9 - np.arange(b - c)])
            ranks[q] = first_right(scores, y[a:b])
    return ranks


def hybrid_ranks(dump: dict[str, np.ndarray]) -> list[int | None]:
    ptr, y = dump["ptr"], dump["y"]
    return [first_right(-np.arange(ptr[q + 1] - ptr[q], dtype=np.float64), y[ptr[q]:ptr[q + 1]])
            for q in range(len(ptr) - 1)]


def summary(ranks: Sequence[int | None], dump: dict[str, np.ndarray]) -> dict[str, tuple[int, int, int]]:
    """(top-1, top-3, n) per set and language, and "all"."""
    out: dict[str, list[int]] = {}
    for r, source, lang in zip(ranks, dump["sources"].tolist(), dump["langs"].tolist()):
        for key in ("all", f"{source} {lang}"):
            row = out.setdefault(key, [0, 0, 0])
            row[0] += r == 1
            row[1] += r is not None and r <= 3
            row[2] += 1
    return {key: (a, b, n) for key, (a, b, n) in sorted(out.items())}


def reranker(dump: dict[str, np.ndarray], names: Sequence[str], l2: float, top: int | None = None,
             how: str = "listwise") -> Reranker:
    """The model of feature set `names`, L2 `l2`, fitted (`how`) on every dev question of `dump`."""
    x = dump["x"][:, [FEATURES.index(f) for f in names]].astype(np.float64)
    ptr = dump["ptr"]
    top = top or int(dump["k"])
    held = [(int(ptr[q]), int(min(ptr[q + 1], ptr[q] + top))) for q in range(len(ptr) - 1)]
    mean, scale, coef = FITS[how](x, dump["y"], held, l2)
    about = {"fitted_by": "bench/fit_rerank.py --write", "data": "bench/data/rerank_dev.npz (dev only)",
             "l2": l2, "fit": how, "questions": int(len(dump["folds"]))}
    return Reranker(top, tuple(names), mean, scale, coef, about)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--collect", action="store_true", help="search the dev questions (KB in $KB_HOME), write the dump")
    ap.add_argument("--cv", action="store_true", help="cross-validate every feature set and L2 on the dump")
    ap.add_argument("--write", action="store_true", help="fit the chosen model on all dev, write rerank.json")
    ap.add_argument("--dump", type=Path, default=DUMP)
    ap.add_argument("--k", type=int, default=K)
    args = ap.parse_args(argv)
    if args.collect:
        np.savez_compressed(args.dump, **collect(args.k))
    dump = load_dump(args.dump)
    if args.cv:
        base = summary(hybrid_ranks(dump), dump)
        print(f"{'hybrid':38} top1 {base['all'][0]:3} top3 {base['all'][1]:3} n {base['all'][2]}")
        for how in FITS:
            for top in TOPS:
                for name, names in CONFIGS.items():
                    for l2 in L2S:
                        s = summary(cv_ranks(dump, names, l2, top, how), dump)
                        print(f"{how} top {top} {name} l2={l2}".ljust(38) + f" top1 {s['all'][0]:3} top3 {s['all'][1]:3}",
                              flush=True)
        chosen = summary(cv_ranks(dump, CONFIGS[CHOSEN[0]], CHOSEN[1], CHOSEN[2], CHOSEN[3]), dump)
        print(f"\nper set, hybrid -> cross-validated {CHOSEN} (top-1 / top-3 / n):")
        for key in base:
            print(f"  {key:42} {base[key][0]:3} {base[key][1]:3} -> {chosen[key][0]:3} {chosen[key][1]:3}  n {base[key][2]}")
    if args.write:
        model = reranker(dump, CONFIGS[CHOSEN[0]], *CHOSEN[1:])
        RERANK_FILE.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
        for f, c in zip(model.features, model.coef):
            print(f"{f:18} {c:+.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

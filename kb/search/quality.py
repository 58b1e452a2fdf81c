"""Search quality on labelled questions: top-1 / top-3 per language, per retrieval mode.

A question is labelled with quotes of the English text of the entry that answers it (see
bench/questions.yaml), so labels survive rebuilds that change entry ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from kb.model import Entry, Lang

MODES = ("hybrid", "dense", "lexical")


@dataclass(frozen=True)
class Question:
    q: str
    lang: Lang
    expect: tuple[str, ...]
    expect_de: str | None = None
    answer_langs: tuple[Lang, ...] = (Lang.EN,)

    def answered_by(self, entry: Entry) -> bool:
        english = [entry.text] + [v.text for v in entry.variants_in(Lang.EN)]
        if not any(quote in text for quote in self.expect for text in english):
            return False
        if self.expect_de:
            return any(self.expect_de in v.text for v in entry.variants_in(Lang.DE))
        return True


def load_questions(path: Path) -> list[Question]:
    import yaml

    doc = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    return [
        Question(
            q=row["q"],
            lang=Lang(row["lang"]),
            expect=tuple(row["expect"]),
            expect_de=row.get("expect_de"),
            answer_langs=tuple(Lang(x) for x in row.get("answer_langs", ["en"])),
        )
        for row in doc["questions"]
    ]


def unanswerable(questions: Sequence[Question], entries: Sequence[Entry]) -> list[Question]:
    """Questions no entry answers: a label that no longer matches the corpus."""
    return [q for q in questions if not any(q.answered_by(e) for e in entries)]


def evaluate(searcher: Any, questions: Sequence[Question], modes: Sequence[str] = MODES) -> dict:
    """{"modes": {mode: {lang: {"n", "top1", "top3"}}}, "misses": {mode: [...]}}."""
    result: dict[str, Any] = {"modes": {}, "misses": {}}
    for mode in modes:
        per_lang: dict[str, dict[str, float]] = {}
        misses = []
        for lang in [*Lang, None]:
            subset = [q for q in questions if lang is None or q.lang == lang]
            if not subset:
                continue
            top1 = top3 = 0
            for q in subset:
                hits = searcher.search(q.q, limit=3, mode=mode)
                ranks = [i for i, h in enumerate(hits) if q.answered_by(h.entry)]
                top1 += bool(ranks and ranks[0] == 0)
                top3 += bool(ranks)
                if lang is not None and not (ranks and ranks[0] == 0):
                    misses.append({
                        "lang": q.lang.value,
                        "q": q.q,
                        "rank": ranks[0] + 1 if ranks else None,
                        "got": hits[0].entry.text[:90] if hits else None,
                    })  # fmt: skip
            key = lang.value if lang else "all"
            per_lang[key] = {"n": len(subset), "top1": top1 / len(subset), "top3": top3 / len(subset)}
        result["modes"][mode] = per_lang
        result["misses"][mode] = misses
    return result


def markdown(result: dict, header: str = "") -> str:
    langs = list(next(iter(result["modes"].values())).keys())
    lines = [header, "", "| mode | " + " | ".join(f"{l} top-1 | {l} top-3" for l in langs) + " |"]
    lines.append("|---|" + "---|---|" * len(langs))
    for mode, per in result["modes"].items():
        cells = " | ".join(f"{per[l]['top1']:.2f} | {per[l]['top3']:.2f}" for l in langs)
        lines.append(f"| {mode} | {cells} |")
    lines.append("")
    counts = ", ".join(f"{l}: {per['n']}" for l, per in next(iter(result["modes"].values())).items())
    lines.append(f"Questions: {counts}.")
    for mode, misses in result["misses"].items():
        if not misses:
            continue
        lines += ["", f"### {mode}: questions whose answer is not first", ""]
        for m in misses:
            rank = m["rank"] if m["rank"] else "not in top 3"
            lines.append(f"- [{m['lang']}] {m['q']} — rank {rank}; first: {m['got']!r}")
    return "\n".join(lines) + "\n"

"""A synthetic corpus of card ruling pages for the scale benchmark, built from the real rulings.

    python bench/gen_corpus.py OUT_DIR --rulings 100000 [--seed 7]

Deterministic for a given size and seed. What it writes, per synthetic card, is a card ruling page
in the formats the bundled corpus has (`• WotCJul 13, 2018`, `13/07/2018`, `24/11/14`), each ruling
drawn from:

- shared rulings (45%): a real English ruling of corpus/ copied verbatim, as the release notes
  repeat the manifest or morph rulings on every card that has the mechanic (exact duplicates
  across cards, pages and dates);
- card rulings (45%): a new ruling for this card made of a real ruling's opening joined to another
  one's ending, with the card's name in it (distinct rulings that share real vocabulary);
- reworded revisions: 20% of the units above also appear on the page with an older date in a
  reworded form (word substitutions, insertions, deletions), the way Gatherer rewords rulings;
- translations (10%): German rulings, either one of the 7 real German rulings of corpus/seeds or
  a shared English ruling put into German words with corpus/glossary.yaml (German-looking text
  for the language detector and the translation aligner).

Every 20th page is written in CRLF, every 50th as cp1252, to keep the decoder in the measurement.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from kb.cards import load_names  # noqa: E402
from kb.ingest import bundled_sources, ingest  # noqa: E402
from kb.model import Kind, Lang  # noqa: E402
from kb.paths import corpus_dir  # noqa: E402

FIRST = ["Aether", "Ashen", "Blight", "Bone", "Briar", "Cinder", "Cloud", "Crypt", "Dawn", "Dread", "Dusk",
         "Ember", "Fen", "Frost", "Gale", "Gloom", "Grave", "Hollow", "Iron", "Ivy", "Mire", "Mist", "Moon",
         "Night", "Oath", "Pyre", "Rage", "Rime", "Rune", "Sand", "Shade", "Silt", "Soul", "Storm", "Sun",
         "Thorn", "Tide", "Veil", "Void", "Wild"]
SECOND = ["form", "caller", "walker", "shaper", "binder", "seer", "mantle", "weaver", "stalker", "herald",
          "warden", "monk", "drake", "hound", "wurm", "sage", "golem", "shroud", "mask", "spirit"]
TITLES = ["", " Adept", " of the Veil", " Emissary", " Familiar", " Initiate", " Reborn", " Unseen"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
FILLER = ["still", "also", "then", "normally", "again", "only", "even", "simply", "immediately", "instead"]


@dataclass(frozen=True)
class Sources:
    english: list[str]  # distinct real English rulings
    german: list[str]  # the real German rulings
    de_words: dict[str, str]  # English glossary term -> a German term


def load_sources() -> Sources:
    corpus = corpus_dir()
    result = ingest(bundled_sources(corpus), names=load_names(corpus), match_clause=None)
    english = sorted({r.original for r in result.records if r.kind is Kind.RULING and r.lang is Lang.EN
                      and 60 <= len(r.original) <= 900})
    german = sorted({r.original for r in result.records if r.lang is Lang.DE})
    import yaml

    glossary = yaml.safe_load((corpus / "glossary.yaml").read_text(encoding="utf-8"))
    de_words: dict[str, str] = {}
    for concept in glossary.get("concepts", []):
        for en in concept.get("en") or []:
            if concept.get("de"):
                de_words[str(en).lower()] = str(concept["de"][0])
    return Sources(english, german, de_words)


def card_names(n: int, rng: random.Random) -> list[str]:
    names = [f"{a}{b}{t}" for t in TITLES for a in FIRST for b in SECOND]
    rng.shuffle(names)
    while len(names) < n:  # past 6,400 names: numbered printings of the same names
        names += [f"{name} {len(names) // 6400 + 1}" for name in names[:n - len(names)]]
    return names[:n]


def reword(text: str, rng: random.Random, edits: int) -> str:
    words = text.split()
    for _ in range(edits):
        at = rng.randrange(len(words))
        op = rng.randrange(3)
        if op == 0:
            words[at] = rng.choice(FILLER)
        elif op == 1:
            words.insert(at, rng.choice(FILLER))
        elif len(words) > 8:
            del words[at]
    return " ".join(words)


def germanise(text: str, sources: Sources, rng: random.Random) -> str:
    """A shared ruling in German-looking words: glossary terms swapped, function words German."""
    out = text
    for en, de in sorted(sources.de_words.items(), key=lambda kv: -len(kv[0])):
        if en in out.lower():
            at = out.lower().index(en)
            out = out[:at] + de + out[at + len(en):]
    swaps = {"the": "die", "a": "eine", "and": "und", "of": "der", "you": "du", "is": "ist", "it": "sie",
             "if": "falls", "that": "dass", "can't": "kann nicht", "your": "deine", "with": "mit"}
    return " ".join(swaps.get(w.lower(), w) for w in out.split()) + rng.choice(["", " Das gilt auch hier."])


def card_ruling(name: str, sources: Sources, rng: random.Random) -> str:
    a, b = rng.sample(sources.english, 2)
    aw, bw = a.split(), b.split()
    head = " ".join(aw[: max(4, len(aw) // 2)])
    tail = " ".join(bw[len(bw) // 2:])
    return f"{head} {name} {tail}"


def _date(rng: random.Random, year_from: int = 2005, year_to: int = 2024) -> tuple[int, int, int]:
    return rng.randint(year_from, year_to), rng.randint(1, 12), rng.randint(1, 28)


def _date_line(d: tuple[int, int, int], style: int) -> str:
    y, m, day = d
    if style == 0:
        return f"• WotC{MONTHS[m - 1]} {day}, {y}"
    if style == 1:
        return f"{day:02d}/{m:02d}/{y}"
    return f"{day:02d}/{m:02d}/{y % 100:02d}"


def generate(out: Path, rulings: int, seed: int = 7, per_page: int = 10) -> dict[str, int]:
    """Write about `rulings` ruling units as card pages into `out`; returns counts."""
    rng = random.Random(seed)
    sources = load_sources()
    pages = max(1, rulings // per_page)
    names = card_names(pages, rng)
    out.mkdir(parents=True, exist_ok=True)
    counts = {"pages": 0, "units": 0, "shared": 0, "card": 0, "revision": 0, "translation": 0}
    for p, name in enumerate(names):
        style = p % 3
        units: list[tuple[tuple[int, int, int], str]] = []
        budget = per_page if p < pages - 1 else rulings - counts["units"]
        while len(units) < budget:
            roll = rng.random()
            when = _date(rng, 2012)
            if roll < 0.10:
                text = rng.choice(sources.german) if rng.random() < 0.5 else germanise(
                    rng.choice(sources.english), sources, rng)
                counts["translation"] += 1
            elif roll < 0.55:
                text = rng.choice(sources.english)
                counts["shared"] += 1
            else:
                text = card_ruling(name, sources, rng)
                counts["card"] += 1
            units.append((when, text))
            if roll >= 0.10 and rng.random() < 0.20 and len(units) < budget:
                y, m, d = when
                units.append(((y - rng.randint(1, 6), m, d), reword(text, rng, rng.randint(1, 3))))
                counts["revision"] += 1
        lines = [name, ""]
        for when, text in units:
            lines += [_date_line(when, style), "", text, ""]
        body = "\n".join(lines)
        path = out / f"{p:06d}.txt"
        if p % 50 == 0:
            path.write_bytes(body.encode("cp1252", errors="replace"))
        elif p % 20 == 0:
            path.write_bytes(body.replace("\n", "\r\n").encode("utf-8"))
        else:
            path.write_text(body, encoding="utf-8")
        counts["pages"] += 1
        counts["units"] += len(units)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--rulings", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(generate(args.out, args.rulings, args.seed))


if __name__ == "__main__":
    main()

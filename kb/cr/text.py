"""How rule texts are compared: normalised wording, word tokens, shingles, similarity, word diffs."""

from __future__ import annotations

import difflib
import re
import unicodedata

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2014": "-",
                         "\u2013": "-", "\u2212": "-", "\u00a0": " "})
_WORD = re.compile(r"[a-z0-9{}/+\-']+")


def normalise(text: str) -> str:
    """NFKC, plain quotes, single spaces, no surrounding space: how texts are compared."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    return " ".join(text.split())


def tokens(text: str) -> list[str]:
    """Lower-case word tokens of `text` (quotes normalised, trailing punctuation dropped)."""
    return [w.strip("'-") for w in _WORD.findall(normalise(text).lower()) if w.strip("'-")]


def wording_key(text: str) -> str:
    """`text` reduced to its words: two texts with the same key have the same wording."""
    return " ".join(tokens(text))


def shingles(toks: list[str]) -> set[str]:
    """Word unigrams and bigrams (a bigram is the only kind of shingle with a space)."""
    return set(toks) | {f"{a} {b}" for a, b in zip(toks, toks[1:])}


def dice(sa: set[str], sb: set[str]) -> float:
    """Dice coefficient of two shingle sets (0.0 when either is empty)."""
    if not sa or not sb:
        return 0.0
    return 2 * len(sa & sb) / (len(sa) + len(sb))


def similarity(a: str, b: str) -> float:
    """Dice coefficient over word unigrams and bigrams: 1.0 for the same wording."""
    return dice(shingles(tokens(a)), shingles(tokens(b)))


def is_title(text: str) -> bool:
    """A heading such as "Face-Down Spells and Permanents" or "Manifest", not a sentence."""
    return len(text.split()) <= 8 and not text.rstrip().endswith((".", ":", ")", '"', "'"))


def word_diff(a: str, b: str) -> list[tuple[str, str]]:
    """(op, text) runs turning `a` into `b` word by word; op is "equal", "delete" or "insert"."""
    wa, wb = a.split(), b.split()
    out: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, wa, wb, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(("equal", " ".join(wa[i1:i2])))
        else:
            if i2 > i1:
                out.append(("delete", " ".join(wa[i1:i2])))
            if j2 > j1:
                out.append(("insert", " ".join(wb[j1:j2])))
    return out

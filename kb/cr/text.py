"""How rule texts are compared: shingles, similarity, titles. Normalising, tokens and word diffs
are kb.normalize's (`normalise` here is its `normalize_text` with plain dashes, as rules compare)."""

from __future__ import annotations

from kb.normalize import rule_tokens as tokens
from kb.normalize import normalize_text, word_diff

__all__ = ["dice", "is_title", "normalise", "shingles", "similarity", "tokens", "word_diff", "wording_key"]


def normalise(text: str) -> str:
    """NFKC, plain quotes and dashes, single spaces, no surrounding space: how rule texts are compared."""
    return normalize_text(text, plain_dashes=True)


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

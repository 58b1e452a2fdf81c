"""A question's small misspellings of rules terms, read as the terms (tryout46 D4).

A judge types "forteold", "manfiest", "disgiuse", "Vorhersehn": one slip, and the word meets no
ruling, no clause and no glossary term, so the search loses what the question is about. `kb card`
forgives a misspelt card name (`kb.oracle.closest_keys`); this forgives a misspelt term the same way,
by the same edit distance (`kb.oracle.within`: a swap of two neighbouring letters is one edit).

The terms are the words of the search glossary's terms in every language (keywords, mechanics, the
lexicon's words) and of the CR glossary's, of `MIN_LETTERS` letters or more. A question's word is
respelt only when it is no word the KB knows (`known`: a word of a ruling or rule, a function word, a
word of a card's name; the caller says) and exactly one term word is closest to it, within
`max_slips` edits. Short words are left alone: a slip there makes another real word as often as not.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable

from kb.normalize import fold
from kb.oracle import within

MIN_LETTERS = 6  # shorter words are not respelt ("cast"/"case", "ward"/"word")
LONG_WORD = 10  # from this many letters a slip may be a letter added, dropped or changed
TWO_SLIPS = 12  # ... and from this many, two of them
KEPT_END = 3  # a letter added, dropped or changed this near the end is an inflection, not a slip
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def max_slips(n: int) -> int:
    """The edits forgiven in a word of `n` letters."""
    return 0 if n < MIN_LETTERS else 1 if n < TWO_SLIPS else 2


def is_slip(written: str, term: str) -> bool:
    """Whether `written`, a few edits from `term`, reads as `term` mistyped rather than as another word:
    two neighbouring letters swapped ("forteold", "manfiest"), which seldom makes a word; in a word of
    `LONG_WORD` letters or more, also letters added, dropped or changed away from its first letter and
    its last `KEPT_END` ("vorhergeshene"). Everyday words are one letter from a term's in their endings
    (German "Gegners" / Gegner, Spanish "jugador" / jugado, "exiliadas" / exiliada) and in short words
    ("extend" / expend, "abgelegt" / angelegt)."""
    i = 0
    while i < min(len(written), len(term)) and written[i] == term[i]:
        i += 1
    j = 0
    while j < min(len(written), len(term)) - i and written[-1 - j] == term[-1 - j]:
        j += 1
    a, b = written[i:len(written) - j], term[i:len(term) - j]
    if len(a) == len(b) == 2 and a == b[::-1]:
        return True
    return len(written) >= LONG_WORD and i >= 1 and j >= KEPT_END


def _key(word: str) -> str:
    return fold(word).casefold()


class TermSpeller:
    """The term words a misspelt word of a question is closest to."""

    def __init__(self, terms: Iterable[str]) -> None:
        words = {_key(m.group()) for term in terms for m in _WORD.finditer(term)}
        self._by_length: dict[int, list[str]] = {}
        for word in sorted(w for w in words if len(w) >= MIN_LETTERS):
            self._by_length.setdefault(len(word), []).append(word)
        self._words = frozenset(words)

    def closest(self, word: str) -> str | None:
        """The one term word (folded, lower case) `word` is a slip of, or None: when `word` is a term
        word itself, too short, or as close to two term words as to one."""
        key = _key(word)
        limit = max_slips(len(key))
        if not limit or key in self._words:
            return None
        best: list[str] = []
        for n in range(len(key) - limit, len(key) + limit + 1):
            for cand in self._by_length.get(n, ()):
                d = within(key, cand, limit)
                if d is None or not is_slip(key, cand):
                    continue
                if d < limit or not best:
                    best, limit = [], d
                best.append(cand)
        return best[0] if len(best) == 1 else None

    def respell(self, text: str, known: Callable[[str], bool]) -> tuple[str, list[tuple[str, str]]]:
        """`text` with each word that is no `known` word and a slip of one term word written as that
        word (its first letter's case kept), and the (written, read) pairs."""
        read: list[tuple[str, str]] = []

        def fix(m: re.Match[str]) -> str:
            word = m.group()
            term = self.closest(word) if len(word) >= MIN_LETTERS else None
            if term is None or known(word):
                return word
            term = term[:1].upper() + term[1:] if word[:1].isupper() else term
            read.append((word, term))
            return term

        return _WORD.sub(fix, text), read

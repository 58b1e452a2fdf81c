"""ClauseMatcher: is a text (a copy of) a clause of the current CR?"""

from __future__ import annotations

from collections import Counter, defaultdict

from kb.cr.numbers import depth_of
from kb.cr.parse import RulesVersion
from kb.cr.text import dice, is_title, shingles, tokens, wording_key

MATCH_THRESHOLD = 0.8
CONTAINED_THRESHOLD = 0.95  # share of an excerpt's words and bigrams found in one clause
CONTAINED_MIN_WORDS = 12


class ClauseMatcher:
    """An inverted index of word bigrams over one version's clause texts (`Corpus.match_clause`)."""

    def __init__(self, version: RulesVersion) -> None:
        self.version = version
        self.exact: dict[str, str] = {}
        self.shingles: dict[str, set[str]] = {}
        self.postings: dict[str, list[str]] = defaultdict(list)
        for number in version.numbers():
            clause = version.clauses[number]
            if depth_of(number) < 2 or is_title(clause.text):
                continue  # headings ("701.23. Search") are titles, not rule texts
            self.exact.setdefault(wording_key(clause.text), number)
            sh = shingles(tokens(clause.text))
            self.shingles[number] = sh
            for s in sh:
                if " " in s:
                    self.postings[s].append(number)
        self.df_limit = max(20, len(self.shingles) // 50)

    def match(self, text: str) -> tuple[str, float] | None:
        """The clause `text` is a copy of, with its similarity; None when there is none."""
        key = wording_key(text)
        if not key:
            return None
        if key in self.exact:
            return self.exact[key], 1.0
        q = shingles(tokens(text))
        counts: Counter[str] = Counter()
        for s in q:
            if " " in s:
                post = self.postings.get(s, ())
                if len(post) <= self.df_limit:
                    counts.update(post)
        best: tuple[str, float] | None = None
        long_enough = len(key.split()) >= CONTAINED_MIN_WORDS
        for number, _ in counts.most_common(20):
            cand = self.shingles[number]
            sc = dice(q, cand)
            # A long enough excerpt (one sentence of a clause) counts as a copy too.
            if long_enough and len(q & cand) / len(q) >= CONTAINED_THRESHOLD:
                sc = max(sc, MATCH_THRESHOLD)
            if best is None or sc > best[1]:
                best = (number, sc)
        if best and best[1] >= MATCH_THRESHOLD:
            return best[0], round(best[1], 4)
        return None
